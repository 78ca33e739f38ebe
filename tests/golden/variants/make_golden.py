"""Golden records for the rule options and presets, and their expected outputs, from the variant referee.

    python tests/golden/variants/make_golden.py             # rewrite every expected file from the records
    python tests/golden/variants/make_golden.py --records   # craft the records again first (deterministic)

Records are crafted with ``tests/variant_referee.py`` alone: random legal actions
by the referee's rules, over seeded decks, keeping the first seed where the
option shows (an arrastro really called and obeyed, a claim really made, the
three really killed, a bonus that changes the winner, a duty that really
restricted a play...).  Expected outputs are the referee's replay.  The only
thing taken from :mod:`brisca` is each preset's option values
(``find_variant(name).options()``), which the referee is given as plain JSON.

Bad records (``bad/NAME.json``) are good prefixes with one action the rules
forbid appended; ``bad/NAME.expect.json`` holds the index the referee refuses.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
BAD = HERE / "bad"
sys.path.insert(0, str(HERE.parent.parent))

from variant_referee import (  # noqa: E402
    Hand,
    MatchScore,
    RefereeError,
    check_dealer_draw,
    check_draw,
    choose,
    dealer_draw_leaders,
    deck_cards,
    entry_action,
    replay_record,
    strength_order,
)

FORMAT = "brisca-record/1"
#: What ``brisca replay`` must print for a hand, compared key by key.
KEYS = ("trump", "tricks", "seat_points", "team_points", "bonuses", "winner", "reason")
MATCH_KEYS = ("hands_won", "match_points", "match_over", "match_winner")
#: Printed for some matches only: the seats a draw for partners gave, the game points of ``match: game_points``.
OPTIONAL_MATCH_KEYS = ("seating", "game_points")


def preset(variant: str) -> dict[str, Any]:
    """The preset's option values and the cards it removes per player count, as plain JSON (the one thing taken
    from the engine's package)."""
    from brisca.rules import find_variant

    rules = find_variant(variant)
    return json.loads(json.dumps(rules.options())) | {"removed": {str(n): list(c) for n, c in rules.removed}}


# ------------------------------------------------------------------ playing


def play_out(h: Hand, rng: random.Random, stop: int | None = None, signal_rate: float = 0.15) -> Hand:
    while not h.over and (stop is None or len(h.history) < stop):
        assert h.turn is not None
        moved = out_of_turn(h, rng)
        if moved is not None:
            h.act(*moved)
            continue
        h.act(h.turn, choose(h.legal(), rng, signal_rate))
    return h


def out_of_turn(h: Hand, rng: random.Random) -> tuple[int, dict[str, Any]] | None:
    """Under ``trump_exchange: out_of_turn``, now and then a seat not to act that may exchange does (000: "at any
    time, even while playing a trick"); ``None`` otherwise (and under every other reading, drawing nothing)."""
    if h.o["trump_exchange"] != "out_of_turn":
        return None
    others = [(s, a) for s in range(h.players) if s != h.turn for a in h.legal(s)]
    return others[0] if others and rng.random() < 0.5 else None


def exchanged_out_of_turn(h: Hand) -> bool:
    """An exchange was made by a seat that was not to act."""
    r = rehearse(h, {})
    for seat, action in h.history:
        if "exchange" in action and seat != r.turn:
            return True
        r.act(seat, action)
    return False


def announced_then(h: Hand, result: str, last_round: bool = False) -> bool:
    """An announced exchange was ``exchanged`` (made after its seat's trick won) or ``taken back`` (the face-up card
    drawn first); with ``last_round``, made in the trick after which the stock runs out (001: "before the stock on
    the table is finished"), so the last seat to draw drew the announced trump."""
    r = rehearse(h, {})
    for seat, action in h.history:
        before = (len(r.exchanges), len(r.taken_back), len(r.stock))
        r.act(seat, action)
        made = len(r.exchanges) > before[0] and "exchange" not in action
        if result == "exchanged" and made and (not last_round or (before[2] > 0 and not r.stock)):
            return True
        if result == "taken back" and len(r.taken_back) > before[1]:
            return True
    return False


def entries(h: Hand) -> list[dict[str, Any]]:
    return [{"seat": s, **a} for s, a in h.history]


def hand_record(variant: str, rules: dict[str, Any], h: Hand) -> dict[str, Any]:
    data: dict[str, Any] = {"format": FORMAT, "variant": variant}
    if rules:
        data["rules"] = rules
    data["players"] = h.players
    if h.deal_number:
        data["deal"] = h.deal_number
    data.update(dealer=h.dealer, deck=list(h.deck), actions=entries(h))
    return data


def random_hand(variant: str, rules: dict[str, Any], players: int, seed: int, dealer: int | None = None,
                deal: int = 0, stop: int | None = None, signal_rate: float = 0.15) -> Hand:
    options = preset(variant) | rules
    rng = random.Random(seed)
    deck = deck_cards(options, players)
    rng.shuffle(deck)
    seat = seed % players if dealer is None else dealer
    return play_out(Hand(options, players, seat, deck, deal), rng, stop, signal_rate)


def search(variant: str, rules: dict[str, Any], players: int, accept: Callable[[Hand], bool], *,
           start: int = 0, tries: int = 20000, **kw: Any) -> Hand:
    for seed in range(start, start + tries):
        h = random_hand(variant, rules, players, seed, **kw)
        if accept(h):
            return h
    raise SystemExit(f"make_golden: no {variant} {rules} hand found")


def rehearse(h: Hand, changes: dict[str, Any]) -> Hand:
    """A fresh referee hand, same deal, under changed options (to replay ``h``'s actions step by step)."""
    return Hand(h.o | changes, h.players, h.dealer, h.deck, h.deal_number)


def diverges(h: Hand, changes: dict[str, Any], views: bool = False) -> bool:
    """Whether ``h``'s actions meet, at some step, other legal actions (or other knowledge) under ``changes``."""
    mine, other = rehearse(h, {}), rehearse(h, changes)
    for seat, action in h.history:
        if mine.legal_keys() != other.legal_keys():
            return True
        if views and any(mine.known(v) != other.known(v) for v in (None, *range(h.players))):
            return True
        mine.act(seat, action)
        try:
            other.act(seat, action)
        except RefereeError:
            return True
    return False


def winners_differ(h: Hand, changes: dict[str, Any]) -> bool:
    """Whether the same cards, trick by trick, fall to other seats under ``changes``."""
    other = rehearse(h, changes)
    for seat, action in h.history:
        try:
            other.act(seat, action)
        except RefereeError:  # another seat won a trick and leads
            return True
    return [t["winner"] for t in other.tricks] != [t["winner"] for t in h.tricks]


def briscola_ranks() -> dict[str, Any]:
    """Briscola's rank order and points (to show what another order changes)."""
    return {k: preset("briscola")[k] for k in ("rank_order", "points")}


def forced_in_arrastro(h: Hand) -> bool:
    """An arrastro was called and a later seat had fewer cards to choose from because of it."""
    r = rehearse(h, {})
    for seat, action in h.history:
        if r.arrastro_on and r.table and len(r.playable(seat)) < len(r.hands[seat]):
            return True
        r.act(seat, action)
    return False


def side_holds_best_trumps(h: Hand) -> bool:
    """The seat to lead's side holds the best trumps still out, one a trick left (whether or not it can show it)."""
    seat = h.turn
    assert seat is not None
    trumps = sorted(((h.strength[int(c[:-1])], s) for s, hand in enumerate(h.hands) for c in hand
                     if c[-1] == h.trump), reverse=True)
    k = len(h.hands[seat])
    return 0 < k <= len(trumps) and all(h.side(s) == h.side(seat) for _st, s in trumps[:k])


def claim_leans_on_partner(h: Hand) -> bool:
    """A claim was made whose best trumps include a partner's card (that the claimer could see)."""
    r = rehearse(h, {})
    for seat, action in h.history:
        if action.get("claim"):
            k = len(r.hands[seat])
            trumps = sorted((c for hand in r.hands for c in hand if c[-1] == r.trump),
                            key=lambda c: r.strength[int(c[:-1])], reverse=True)
            return any(c not in r.hands[seat] for c in trumps[:k])
        r.act(seat, action)
    return False


def outcome(h: Hand) -> tuple[int | None, str | None, bool]:
    return h.outcome()


def without_bonus_winner(h: Hand) -> int | None:
    """The winner by card points alone."""
    side_points = [0] * h.sides
    for seat, p in enumerate(h.seat_points):
        side_points[h.side(seat)] += p
    best = max(side_points)
    tops = [i for i, p in enumerate(side_points) if p == best]
    return tops[0] if len(tops) == 1 else None


def finished(h: Hand) -> bool:
    return h.over


def first_lead_forced(h: Hand) -> bool:
    """The cutter led the first trick of a pelada with fewer choices than his hand (he had to lead a trump)."""
    r = rehearse(h, {})
    while r.phase != "play" or r.table or r.tricks:  # (no auction in the Chilean game: the first play)
        seat, action = h.history[len(r.history)]
        r.act(seat, action)
    seat = r.turn
    assert seat is not None
    return len(r.playable(seat)) < len(r.hands[seat]) and any(c[-1] != r.trump for c in r.hands[seat])


def two_held_back(h: Hand) -> bool:
    """A seat leading held a 2 that the guarded lead kept it from leading."""
    r = rehearse(h, {})
    for seat, action in h.history:
        if r.phase == "play" and not r.table:
            twos = [c for c in r.hands[seat] if c.startswith("2") and len(c) == 2]
            if any(c not in r.playable(seat) for c in twos):
                return True
        r.act(seat, action)
    return False


def vale_to_the_other_side(h: Hand) -> bool:
    """A vale declared in a trick the other side won: its points went to the winners."""
    return any(t < len(h.tricks) and h.side(h.tricks[t]["winner"]) != h.side(seat) for seat, _s, t in h.declared)


def partner_declared(h: Hand) -> bool:
    """A vale declared by a seat whose partner had played one of the pair in that trick."""
    r = rehearse(h, {})
    for seat, action in h.history:
        if "declare" in action:
            s = action["declare"]
            if any(c in (f"12{s}", f"11{s}") and p != seat for p, c in r.table):
                return True
        r.act(seat, action)
    return False


def marked_after_card(h: Hand) -> bool:
    """A vale marked by a seat whose card was already down in the trick (003: 'su pareja lo marca sin importar si
    lo juega o no en aquella jugada'), and for the partner of the seat that played one of the pair."""
    r = rehearse(h, {})
    for seat, action in h.history:
        if "declare" in action and r.phase == "mark" and r.mark is not None:
            s = action["declare"]
            if any(c in (f"12{s}", f"11{s}") and p != seat for p, c in r.mark["table"]):
                return True
        r.act(seat, action)
    return False


def rested(h: Hand) -> bool:
    """A descanso the older reading forbids: a seat with none of the suit led but a trump in hand threw another card
    while its partner held the trick with a card that is not a trump (source 003)."""
    r = rehearse(h, {})
    for seat, action in h.history:
        if "play" in action and r.table:
            led = r.table[0][1][-1]
            holder, best = r.table[r.best_index([c for _s, c in r.table])]
            hand = r.hands[seat]
            if (r.side(holder) == r.side(seat) and best[-1] != r.trump and not any(c[-1] == led for c in hand)
                    and any(c[-1] == r.trump for c in hand) and action["play"][-1] != r.trump):
                return True
        r.act(seat, action)
    return False


def contract(h: Hand, key: str) -> Any:
    return None if h.contract is None else h.contract[key]


def first_trick_untrumped(h: Hand) -> bool:
    """Chiamata Buia: the first trick held a card of the suit called later, not led, and the trick went elsewhere
    (000: 'trumps are only declared after the first trick'); its winner, not the bidder, led the second."""
    if len(h.tricks) < 2 or h.contract is None:
        return False
    first = h.tricks[0]
    cards, trump = first["cards"], h.contract["trump"]
    led = cards[0][-1]
    late = [i for i, c in enumerate(cards) if c[-1] == trump and led != trump]
    winner_at = cards.index(max((c for c in cards if c[-1] == led), key=lambda c: h.strength[int(c[:-1])]))
    return (bool(late) and winner_at not in late and first["winner"] != h.contract["declarer"]
            and h.tricks[1]["leader"] == first["winner"])


def vale_known_elsewhere(h: Hand, how: str) -> bool:
    """A king or knight was played whose other card everybody knew to lie in an opponent's hand, by ``how``:
    ``turned`` (the dealer's trump card) or ``shown`` (a card shown at the deal); nobody was asked about a vale
    for it (003: 'El triunfo es la única carta no jugada que debe estar visible para todos')."""
    r = rehearse(h, {})
    for seat, action in h.history:
        card = action.get("play")
        if card is not None and card[:-1] in ("11", "12"):
            other = f"{23 - int(card[:-1])}{card[-1]}"
            holders = [s for s, c in r.known(None) if c == other and r.side(s) != r.side(seat)]
            by = "turned" if holders and other == r.turned and holders[0] == r.dealer else "shown"
            if holders and by == how and card[-1] not in {x for _p, x, _t in r.declared}:
                r.act(seat, action)
                return r.phase != "mark"
        r.act(seat, action)
    return False


def killed_early(h: Hand) -> bool:
    """The three of trumps killed before the last trick, so the hand ends with cards still out."""
    return outcome(h)[1] == "three-killed" and len(h.tricks) < len(h.deck) // h.players


# ------------------------------------------------------------- good records


def craft_hands() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}

    def add(name: str, variant: str, rules: dict[str, Any], players: int, accept: Callable[[Hand], bool],
            **kw: Any) -> None:
        out[name] = hand_record(variant, rules, search(variant, rules, players, accept, **kw))

    # One record per preset, where the preset's own rules show.
    add("preset_spanish", "spanish", {}, 2, lambda h: h.over and len(h.exchanges) >= 2)
    add("preset_briscola", "briscola", {}, 3, lambda h: h.over and diverges(h, {"trump_exchange": "after_win"}))
    add("preset_bixkla", "bixkla", {}, 4,
        lambda h: h.over and len(h.signals) >= 3 and winners_differ(h, briscola_ranks()))
    add("preset_lombard", "lombard", {}, 2, lambda h: h.over and winners_differ(h, briscola_ranks()))
    add("preset_tuscan", "tuscan", {}, 3, lambda h: h.over and winners_differ(h, briscola_ranks()))
    # 000 gives the values only: the same values with Briscola's rank order (the presets above move the ranks).
    add("preset_lombard_kept_ranks", "lombard-kept-ranks", {}, 2,
        lambda h: h.over and winners_differ(h, {"rank_order": preset("lombard")["rank_order"]}))
    add("preset_tuscan_kept_ranks", "tuscan-kept-ranks", {}, 3,
        lambda h: h.over and winners_differ(h, {"rank_order": preset("tuscan")["rank_order"]}))
    add("preset_mexican", "mexican", {}, 2, lambda h: h.over and outcome(h)[0] is not None)
    add("preset_muerte_al_tres", "muerte-al-tres", {}, 2,
        lambda h: killed_early(h) and without_bonus_winner(h) != outcome(h)[0])
    add("preset_mariaje", "mariaje", {}, 2,
        lambda h: h.over and any(b["points"] == 40 for b in h.bonuses()) and without_bonus_winner(h) != outcome(h)[0])
    add("preset_scoperta", "scoperta", {}, 3, lambda h: h.over)
    # The dealt-out presets: the Chilean duties, guarded 2s and vales; the Rematada auction, talon and
    # declarations; the Chiamata auction, call and hidden partner.
    add("preset_chilean", "chilean", {}, 4,
        lambda h: h.over and len(h.declared) >= 1 and two_held_back(h) and diverges(h, {"follow": "suit_trump"}))
    add("preset_rematada", "rematada", {}, 3,
        lambda h: h.over and len(h.declared) >= 1 and sum(1 for _s, a in h.bids if "bid" in a) >= 2)
    add("preset_chiamata", "chiamata", {}, 5,
        lambda h: h.over and outcome(h)[1] == "made" and contract(h, "partner") not in (None, contract(h, "declarer")))

    # Duties of play: each restricts a play that the milder duty would have allowed.
    add("follow_suit", "spanish", {"follow": "suit"}, 2, lambda h: h.over and diverges(h, {"follow": "none"}))
    add("follow_suit_trump", "spanish", {"follow": "suit_trump"}, 4,
        lambda h: h.over and diverges(h, {"follow": "suit"}))
    add("follow_suit_beat_trump", "spanish", {"follow": "suit_beat_trump"}, 2,
        lambda h: h.over and diverges(h, {"follow": "suit_trump"}))
    add("follow_from_empty_stock", "spanish", {"follow": "suit_beat_trump", "follow_from": "empty_stock"}, 4,
        lambda h: h.over and diverges(h, {"follow": "none"}) and diverges(h, {"follow_from": "start"}))

    # Trump exchange modes.
    add("exchange_off", "spanish", {"trump_exchange": "off"}, 4, lambda h: h.over and diverges(h, {
        "trump_exchange": "after_win"}))
    add("exchange_any_time", "spanish", {"trump_exchange": "any_time"}, 2,
        lambda h: h.over and bool(h.exchanges) and diverges(h, {"trump_exchange": "after_win"}))
    add("exchange_before_penultimate", "spanish", {"trump_exchange": "before_penultimate"}, 2,
        lambda h: h.over and bool(h.exchanges) and diverges(h, {"trump_exchange": "after_win"}))
    add("exchange_no_chain", "spanish", {"exchange_chain": False, "trump_exchange": "any_time"}, 2,
        lambda h: h.over and bool(h.exchanges) and diverges(h, {"exchange_chain": True}))
    # 001: the trump laid under the face-up card, the exchange made after the seat's next trick won, or the trump
    # taken back once the face-up card is drawn; an exchange made in the last round, before the last draw.
    add("exchange_announced", "spanish", {"trump_exchange": "announced"}, 2,
        lambda h: h.over and announced_then(h, "exchanged") and diverges(h, {"trump_exchange": "after_win"}))
    add("exchange_announced_taken_back", "spanish", {"trump_exchange": "announced"}, 4,
        lambda h: h.over and announced_then(h, "taken back"))
    add("exchange_announced_last_round", "spanish", {"trump_exchange": "announced"}, 4,
        lambda h: h.over and announced_then(h, "exchanged", last_round=True))
    # 000: "at any time, even while playing a trick": an exchange by a seat not to act.
    add("exchange_out_of_turn", "spanish", {"trump_exchange": "out_of_turn"}, 4,
        lambda h: h.over and exchanged_out_of_turn(h))

    # Calls.
    add("arrastro", "spanish", {"arrastro": True}, 4,
        lambda h: h.over and any(a.get("arrastro") for _s, a in h.history) and forced_in_arrastro(h))
    # (the ace is free only once the three is out, or in the last trick: so the kill is in the last trick)
    add("arrastro_kills_three", "spanish", {"arrastro": True, "kill_three": True}, 2,
        lambda h: outcome(h)[1] == "three-killed" and any(a.get("arrastro") for _s, a in h.history))
    add("claim", "spanish", {"claim": True}, 4,
        lambda h: h.claim is not None and h.claim["points"] > 0 and len(h.claim["cards"]) >= 4)
    add("claim_partners_look", "spanish", {"claim": True, "partners_look": True}, 4, claim_leans_on_partner)
    add("claim_two_players", "spanish", {"claim": True, "last_trick_bonus": 10}, 2,
        lambda h: h.claim is not None and h.claim["points"] > 0)

    # Signals.
    add("signals_partner", "spanish", {"signals": "partner"}, 4, lambda h: h.over and len(h.signals) >= 4)
    add("signals_open", "spanish", {"signals": "open"}, 6, lambda h: h.over and len(h.signals) >= 4)
    # 002: open talk and signals together; 002's own table; 001's asks where a table allows them.
    add("signals_combination", "spanish", {"signals": "combination"}, 4,
        lambda h: h.over and len({aloud for _s, _n, aloud in h.signals}) == 2)
    add("signals_italian", "briscola", {"signals": "partner"}, 4,
        lambda h: h.over and any(n == "high-card" for _s, n, _a in h.signals))
    add("signals_asks", "spanish", {"signals": "partner", "signal_asks": True}, 4,
        lambda h: h.over and any(n.startswith("ask-") for _s, n, _a in h.signals))

    # Scoring.
    add("last_trick_bonus", "spanish", {"last_trick_bonus": 10}, 2,
        lambda h: h.over and without_bonus_winner(h) != outcome(h)[0])
    add("pair_bonus", "spanish", {"pair_bonus": True}, 2,
        lambda h: h.over and {20, 40} <= {b["points"] for b in h.bonuses()}
        and without_bonus_winner(h) != outcome(h)[0])
    add("tie_most_cards", "spanish", {"tie": "most_cards"}, 2, lambda h: outcome(h)[1] == "most-cards")
    add("tie_draw_four_players", "spanish", {"tie": "draw", "last_trick_bonus": 10}, 4,
        lambda h: outcome(h)[1] == "tie")
    # 001: "When two or more players make the same highest score, the hand is awarded by all of them."
    add("tie_shared_three_players", "spanish", {"tie": "shared"}, 3, lambda h: outcome(h)[1] == "shared")
    add("hand_winner_least", "spanish", {"hand_winner": "least"}, 3, lambda h: h.over and outcome(h)[0] is not None)
    # Mexico's eleven (000: 'The objective is not to add more than 11 total points at the end of the game'): two
    # sides within 11 both win; one within wins; none within, nobody wins.
    add("mexican_eleven_two_within", "mexican", {"point_limit": 11}, 3,
        lambda h: h.over and len(h.shared()) == 2)
    add("mexican_eleven_one_within", "mexican", {"point_limit": 11}, 3,
        lambda h: h.over and outcome(h)[1] == "within-limit" and outcome(h)[0] is not None
        and sorted(h.team_points())[1] > 11)
    add("mexican_eleven_none_within", "mexican", {"point_limit": 11}, 2,
        lambda h: h.over and outcome(h)[1] == "over-limit")
    add("kill_three", "spanish", {"kill_three": True}, 4,
        lambda h: killed_early(h) and without_bonus_winner(h) != outcome(h)[0])

    # The ways to deal of source 003, the auctions and contracts, vales and capote.
    add("chilean_golpe", "chilean", {"deal": "golpe"}, 4, lambda h: h.over and len(h.shown) == 2 and bool(h.declared))
    add("chilean_pelada", "chilean", {"deal": "pelada"}, 4,
        lambda h: h.over and first_lead_forced(h) and len(h.shown) >= 3)
    add("chilean_vales", "chilean", {}, 4,
        lambda h: h.over and vale_to_the_other_side(h) and partner_declared(h)
        and {b["points"] for b in h.bonuses()} >= {20})
    add("chilean_capote", "chilean", {}, 4, lambda h: outcome(h)[1] == "capote")
    # The descanso (003): a seat rests with a plain card under its partner's; the older reading (beat and trump
    # the partner's card too) as an option of the Chilean game.
    add("chilean_descanso", "chilean", {}, 4, lambda h: h.over and rested(h))
    add("chilean_beat_partner", "chilean", {"follow": "suit_beat_trump"}, 4,
        lambda h: h.over and diverges(h, {"follow": "descanso"}))
    # The cutter chooses the way (003); a table that agreed two ways; a vale marked after the seat's card is down.
    add("chilean_cut_pelada", "chilean", {}, 4, lambda h: h.over and h.way == "pelada" and first_lead_forced(h))
    add("chilean_cut_two_ways", "chilean", {"cut_ways": ["golpe", "pelada"]}, 4,
        lambda h: h.over and h.way == "golpe" and bool(h.declared))
    add("chilean_vale_after_card", "chilean", {}, 4,
        lambda h: h.over and marked_after_card(h) and {b["points"] for b in h.bonuses()} >= {20})
    # A vale nobody can hold: the other card of the pair is known to be an opponent's (the dealer's trump card, a
    # last card shown in a golpe, a first card shown in a pelada), so nobody is asked.
    add("chilean_vale_known_turned", "chilean", {"deal": "alce"}, 4,
        lambda h: h.over and vale_known_elsewhere(h, "turned"))
    add("chilean_vale_known_golpe", "chilean", {"deal": "golpe"}, 4,
        lambda h: h.over and vale_known_elsewhere(h, "shown"))
    add("chilean_vale_known_pelada", "chilean", {"deal": "pelada"}, 4,
        lambda h: h.over and vale_known_elsewhere(h, "shown"))
    # 003: the dealer's partner 'con la opción, pero no obligación, de mostrar la última', as the table agreed.
    add("chilean_golpe_partner_shows", "chilean", {"deal": "golpe", "golpe_partner_shows": True}, 4,
        lambda h: h.over and len(h.shown) == 3)
    add("chiamata_low_card", "chiamata", {"bidding": "low_card"}, 5,
        lambda h: h.over and sum(1 for _s, a in h.bids if "bid" in a) >= 3 and contract(h, "partner") is not None)
    add("chiamata_alone", "chiamata", {}, 5,
        lambda h: h.over and contract(h, "partner") is not None and contract(h, "partner") == contract(h, "declarer"))
    add("chiamata_all_passed", "chiamata", {}, 5, lambda h: outcome(h)[1] == "all-passed")
    # Chiamata Buia (000): the first trick is played before the call, with no trump; the bidder calls after it.
    add("preset_chiamata_buia", "chiamata-buia", {}, 5,
        lambda h: h.over and outcome(h)[1] == "made" and first_trick_untrumped(h)
        and contract(h, "partner") not in (None, contract(h, "declarer")))
    add("chiamata_buia_set", "chiamata-buia", {}, 5,
        lambda h: h.over and outcome(h)[1] == "set" and first_trick_untrumped(h) and h.tricks[0]["points"] >= 10)
    add("rematada_last_must_bid", "rematada", {}, 3,
        lambda h: h.over and [("pass" in a) for _s, a in h.bids] == [True, True, False])
    add("rematada_made", "rematada", {}, 3, lambda h: outcome(h)[1] == "made")
    # 002's auction against the play: from the dealer's right, counter-clockwise, while play runs clockwise.
    add("chiamata_auction_against_play", "chiamata", {"auction_direction": "against_play"}, 5,
        lambda h: h.over and len(h.bids) >= 6 and contract(h, "partner") is not None)

    # What a seat knows (the replay prints the same; the golden test checks the views step by step).
    add("deal_look", "spanish", {"deal_look": True}, 4, lambda h: h.over and diverges(h, {"deal_look": False}, True))
    add("partners_look", "spanish", {"partners_look": True}, 6,
        lambda h: h.over and diverges(h, {"partners_look": False}, True))
    add("open_hands", "spanish", {"open_hands": True}, 2, lambda h: h.over and diverges(h, {"open_hands": False}, True))
    return out


def draw_rounds(options: dict[str, Any], players: int, rng: random.Random) -> list[dict[str, Any]]:
    """A random draw for partners by the referee's rules: every player draws, then each tie (highest first, depth
    first) draws again from a fresh deck."""
    order = strength_order(options)
    rounds: list[dict[str, Any]] = []

    def rank(group: list[int]) -> None:
        cards = rng.sample(deck_cards(options, players), len(group))
        rounds.append({"players": group, "cards": cards})
        power = {p: len(order) - order.index(int(c[:-1])) for p, c in zip(group, cards, strict=True)}
        for v in sorted(set(power.values()), reverse=True):
            tied = [p for p in group if power[p] == v]
            if len(tied) > 1:
                rank(tied)

    rank(list(range(players)))
    return rounds


def dealer_draw_rounds(options: dict[str, Any], players: int, rng: random.Random) -> list[dict[str, Any]]:
    """A random draw for the first dealer by the referee's rules: every seat draws, then the seats left level."""
    rounds: list[dict[str, Any]] = []
    drawing = list(range(players))
    while True:
        cards = deck_cards(options, players)
        rng.shuffle(cards)
        rounds.append({"seats": drawing, "cards": cards[:len(drawing)]})
        drawing = dealer_draw_leaders(options, players, drawing, cards[:len(drawing)])
        if len(drawing) == 1:
            return rounds


def craft_match(variant: str, rules: dict[str, Any], players: int, accepts: list[Callable[[Hand], bool]],
                start: int, draw: Callable[[list[dict[str, Any]]], bool] | None = None,
                dealer_draw: Callable[[list[dict[str, Any]]], bool] | None = None) -> dict[str, Any]:
    """A match record: hand ``i`` is the first seeded hand that ``accepts[i]`` takes (any finished hand after).

    Under ``partners: draw`` the draw is the first seeded one that ``draw`` takes, and seat 0 deals first. With
    ``dealer_draw`` the match opens with the first seeded draw for the dealer it takes, and its highest deals."""
    options = preset(variant) | rules
    score = MatchScore(options, players)
    dealer, deal = players - 1, 0
    head: dict[str, Any] = {}
    if dealer_draw is not None:
        seed = start
        while not dealer_draw(rounds := dealer_draw_rounds(options, players, random.Random(seed))):
            seed += 1
        head = {"dealer_draw": rounds}
        dealer = check_dealer_draw(head, options, players)  # type: ignore[assignment]
    if options["partners"] == "draw":
        seed = start
        while not (draw or (lambda _r: True))(rounds := draw_rounds(options, players, random.Random(seed))):
            seed += 1
        head = {"draw": rounds, "seating": check_draw({"draw": rounds}, options, players)}
        dealer = 0
    parts = []
    while True:
        accept = accepts[len(score.hands)] if len(score.hands) < len(accepts) else finished
        h = search(variant, rules, players, accept, start=start + 1000 * len(score.hands), dealer=dealer, deal=deal)
        score.add(h)
        parts.append({"dealer": h.dealer, "deck": list(h.deck), "actions": entries(h)})
        if score.over:
            break
        if len(score.hands) > 40:
            raise SystemExit("make_golden: the match does not end")
        dealer, deal = score.next_deal()
    data: dict[str, Any] = {"format": FORMAT, "variant": variant}
    if rules:
        data["rules"] = rules
    data.update(players=players, **head, hands=parts)
    return data


def craft_matches() -> dict[str, dict[str, Any]]:
    def big(h: Hand) -> bool:
        return h.over and h.margin() > 100

    def tie(h: Hand) -> bool:
        return outcome(h)[2]

    def shared(h: Hand) -> bool:
        return outcome(h)[1] == "shared"

    def set_contract(h: Hand) -> bool:
        return outcome(h)[1] == "set"

    def capote(h: Hand) -> bool:
        return outcome(h)[1] == "capote"

    def won_by(side: int) -> Callable[[Hand], bool]:
        return lambda h: outcome(h)[0] == side

    return {
        # The first hand is won by more than 100: it counts two of the three hands needed.
        "match_big_win": craft_match("spanish", {"big_win": True, "target_hands": 3}, 2, [big], 100),
        # Mexican (fewest points wins): a hand won 9 to 111 or better is won by more than 100, and ends the match.
        "match_big_win_least": craft_match("mexican", {"big_win": True}, 2, [big], 200),
        # A 60-60 hand is dealt again by the same dealer, with the same deal number.
        "match_tie_replay": craft_match("spanish", {"tie": "replay"}, 2, [finished, tie], 300),
        # Each for himself, one hand to win: the first hand is shared, so two seats reach the target together and
        # the match plays on (001: "If two or more players reach that number of hands at the same time, the game
        # continues until the tie is broken.").
        "match_tie_shared": craft_match("spanish", {"tie": "shared", "target_hands": 1}, 3, [shared], 1000),
        # Four deals, trumps oros, copas, espadas, bastos; the match is the four.
        "match_trump_rotation": craft_match("spanish", {"trump_rotation": True}, 2, [], 400),
        "match_trump_rotation_points": craft_match(
            "spanish", {"trump_rotation": True, "match": "target_points"}, 4, [], 500),
        # Four deals and a tie replayed: the replayed deal does not count twice, so five hands are played.
        "match_trump_rotation_replay": craft_match(
            "spanish", {"trump_rotation": True, "tie": "replay"}, 2, [finished, tie], 600),
        # Points over the hands, bonuses included.
        "match_target_points": craft_match(
            "spanish", {"match": "target_points", "target_points": 200, "last_trick_bonus": 10}, 2, [], 700),
        # Match points of the contracts: +2/+1/-1 (or the opposite) to 11, and the bid or half of it to 500.
        "match_chiamata": craft_match("chiamata", {}, 5, [], 800),
        "match_rematada": craft_match("rematada", {"match": "target_points", "target_points": 300}, 3, [], 900),
        # Rematada as the second article of 000 counts it: a game point to the declarer who makes his bid, one to
        # each defender when he is set, first to three; the first hand is set, so both defenders score.
        "match_rematada_game_points": craft_match("rematada", {}, 3, [set_contract], 1100),
        # Game points of plain hands: a big win is worth two (000: "winning by more than a hundred card points is
        # worth two game points").
        "match_game_points_big_win": craft_match(
            "spanish", {"match": "game_points", "big_win": True}, 2, [big], 1200),
        # Three hands whatever happens (000, second article: "an agreed number of hands (commonly one, three, or
        # six)"): the first two are split, so the third decides.
        "match_fixed_hands": craft_match(
            "spanish", {"match": "fixed_hands", "hands": 3}, 2, [won_by(0), won_by(1), finished], 1300),
        # Two hands, one each: level, so the match plays on ("overall ties are resolved by additional play").
        "match_fixed_hands_level": craft_match(
            "spanish", {"match": "fixed_hands", "hands": 2}, 2, [won_by(0), won_by(1)], 1400),
        # Four players draw for partners (001, 002); one tie is drawn again.
        "match_partners_draw": craft_match(
            "spanish", {"partners": "draw"}, 4, [], 1500, draw=lambda rounds: len(rounds) > 1),
        "match_chiamata_buia": craft_match("chiamata-buia", {"target_points": 5}, 5, [], 1100),
        # Capote wins the match (000: "capturing all tricks allows a player to win the game in a single deal"):
        # the second hand is a capote, which ends a match to three hands at once.
        "match_capote": craft_match("chilean", {"capote": "match", "target_hands": 3}, 4,
                                    [won_by(1), capote], 1600),
        # Three players each for himself: a hand is a complete game (002: "Each hand is usually played as a
        # complete game"), a tie for the most replayed among all three.
        "match_briscola_one_hand": craft_match("briscola", {}, 3, [tie], 1700),
        # Four in partnerships: the first to win two hands (002).
        "match_briscola_partners": craft_match("briscola", {}, 4, [won_by(0)], 1800),
        # The draw for the first dealer kept in the record: by face value (003), a tie between the pairs broken by
        # the pair whose cards add up to more, seats still level drawing again.
        "match_dealer_draw_face_value": craft_match("chilean", {}, 4, [], 1900,
                                                    dealer_draw=lambda rounds: len(rounds) > 1),
        "match_dealer_draw": craft_match("spanish", {}, 3, [], 2000, dealer_draw=lambda rounds: len(rounds) > 1),
    }


# -------------------------------------------------------------- bad records


def craft_bad() -> dict[str, tuple[dict[str, Any], str | None]]:
    """name -> (record, a regex the one error line must match besides the action index, or None). A bad action
    may name its own seat (an action out of turn); by default it is the seat to act's."""
    bad: dict[str, tuple[dict[str, Any], str | None]] = {}

    def prefix_until(variant: str, rules: dict[str, Any], players: int, when: Callable[[Hand], Any],
                     start: int = 0) -> tuple[Hand, Any]:
        """The first seeded position (hand partly played) where ``when`` gives a bad action, and that action."""
        options = preset(variant) | rules
        for seed in range(start, start + 20000):
            rng = random.Random(seed)
            deck = deck_cards(options, players)
            rng.shuffle(deck)
            h = Hand(options, players, seed % players, deck)
            while not h.over:
                wrong = when(h)
                if wrong is not None:
                    return h, wrong
                assert h.turn is not None
                h.act(h.turn, choose(h.legal(), rng))
        raise SystemExit(f"make_golden: no position for a bad {rules} record")

    def add(name: str, variant: str, rules: dict[str, Any], players: int, when: Callable[[Hand], Any],
            fragment: str | None = None) -> None:
        h, wrong = prefix_until(variant, rules, players, when)
        data = hand_record(variant, rules, h)
        data["actions"].append({"seat": h.turn, **wrong})
        bad[name] = (data, fragment)

    def trumps(h: Hand) -> list[str]:
        assert h.turn is not None
        return [c for c in h.hands[h.turn] if c[-1] == h.trump]

    def untruthful(h: Hand) -> Any:
        if h.turn is None or h.ace in h.hands[h.turn] or len(h.history) < 3:
            return None
        return {"signal": "trump-ace"}

    add("signal_not_truthful", "spanish", {"signals": "partner"}, 4, untruthful, "signal|trump-ace|truthful")
    add("signal_when_off", "spanish", {}, 4, lambda h: {"signal": "ask-points"} if len(h.history) == 5 else None,
        "signal")
    add("signal_twice_in_a_turn", "bixkla", {}, 4,
        lambda h: {"signal": next(iter(h.turn_signals))} if len(h.turn_signals) == 1 else None, "signal|turn")
    # 004: nobody asks for signals (the Spanish preset); 002's table has no briscas; only combination says aloud.
    add("signal_ask_forbidden", "spanish", {"signals": "partner"}, 4,
        lambda h: {"signal": "ask-cards"} if len(h.history) >= 3 else None, "ask")
    add("signal_not_in_set", "briscola", {"signals": "partner"}, 4,
        lambda h: {"signal": "briscas"} if len(h.history) >= 2 else None, "briscas")
    add("signal_aloud_not_combined", "spanish", {"signals": "partner"}, 4,
        lambda h: {"signal": h.truthful(h.turn)[0], "aloud": True}  # type: ignore[arg-type]
        if h.turn is not None and len(h.history) >= 2 and h.truthful(h.turn) else None, "aloud")
    add("cut_way_not_agreed", "chilean", {"cut_ways": ["golpe", "pelada"]}, 4,
        lambda h: {"cut": "alce"} if h.phase == "cut" else None, "cut|alce")
    def known_pair_pass(h: Hand) -> Any:
        """Just after a king or knight whose other card is the dealer's trump card, held by the other side: the
        seat that played it passes as if asked about a vale (nobody is)."""
        if not h.history or h.phase == "mark" or h.turned is None:
            return None
        seat, action = h.history[-1]
        card = action.get("play")
        if card is None or card[:-1] not in ("11", "12") or f"{23 - int(card[:-1])}{card[-1]}" != h.turned:
            return None
        if h.side(seat) == h.side(h.dealer) or h.turned not in h.hands[h.dealer]:
            return None
        return {"seat": seat, "pass": True}

    add("vale_not_asked_of_a_known_pair", "chilean", {"deal": "alce"}, 4, known_pair_pass)
    add("mark_without_the_pair", "chilean", {}, 4,
        lambda h: {"declare": next(s for s in "OCEB" if s not in {x for _p, x, _t in h.declared})}
        if h.phase == "mark" and h.turn is not None and not h.markable(h.turn) else None, "mark")
    add("signal_without_partners", "spanish", {"signals": "open"}, 2,
        lambda h: {"signal": "ask-cards"} if len(h.history) == 2 else None, "signal")

    def arrastro_not_ace(h: Hand) -> Any:
        if h.table or len(h.history) < 4:
            return None
        cards = [c for c in h.hands[h.turn] if c != h.ace]  # type: ignore[index]
        return {"play": cards[0], "arrastro": True} if cards else None

    def arrastro_not_leading(h: Hand) -> Any:
        return {"play": h.ace, "arrastro": True} if h.table and h.ace in h.hands[h.turn] else None  # type: ignore

    def arrastro_not_best(h: Hand) -> Any:
        if not (h.arrastro_on and h.table):
            return None
        held = trumps(h)
        best = h.playable(h.turn)  # type: ignore[arg-type]
        lower = [c for c in held if c not in best]
        return {"play": lower[0]} if lower else None

    add("arrastro_not_the_ace", "spanish", {"arrastro": True}, 2, arrastro_not_ace, "arrastro")
    add("arrastro_not_leading", "spanish", {"arrastro": True}, 4, arrastro_not_leading, "arrastro|lead")
    add("arrastro_not_best_card", "spanish", {"arrastro": True}, 4, arrastro_not_best, "arrastro|best")
    add("arrastro_when_off", "spanish", {}, 2,
        lambda h: {"play": h.ace, "arrastro": True} if not h.table and h.ace in h.hands[h.turn] else None,  # type: ignore
        "arrastro|not an action")

    def false_claim(h: Hand) -> Any:
        if h.stock or h.table or h.claim_holds(h.turn):  # type: ignore[arg-type]
            return None
        return {"claim": True}

    add("claim_does_not_hold", "spanish", {"claim": True}, 4, false_claim, "claim")
    # The side holds the best trumps, but seat to lead cannot see its partner's: it may not claim.
    add("claim_partner_hidden", "spanish", {"claim": True}, 4,
        lambda h: {"claim": True} if not h.stock and not h.table and side_holds_best_trumps(h)
        and not h.claim_holds(h.turn) else None, "claim")  # type: ignore[arg-type]
    add("claim_before_stock_empty", "spanish", {"claim": True}, 2,
        lambda h: {"claim": True} if not h.table and len(h.history) >= 4 else None, "claim|stock")
    add("claim_when_off", "spanish", {}, 2,
        lambda h: {"claim": True} if not h.stock and not h.table and h.claim_holds(h.turn) else None,  # type: ignore
        "claim")

    def off_suit(h: Hand) -> Any:
        if not h.table:
            return None
        led = h.table[0][1][-1]
        hand = h.hands[h.turn]  # type: ignore[index]
        others = [c for c in hand if c[-1] != led]
        return {"play": others[0]} if others and any(c[-1] == led for c in hand) else None

    def not_beating(h: Hand) -> Any:
        if not h.table:
            return None
        allowed = h.playable(h.turn)  # type: ignore[arg-type]
        led = h.table[0][1][-1]
        same = [c for c in h.hands[h.turn] if c[-1] == led and c not in allowed]  # type: ignore[index]
        return {"play": same[0]} if same else None

    add("follow_duty_broken", "spanish", {"follow": "suit"}, 2, off_suit, "must play|duty")
    add("beat_duty_broken", "spanish", {"follow": "suit_beat_trump"}, 4, not_beating, "must play|duty")

    def prisoner(h: Hand) -> Any:
        hand = h.hands[h.turn]  # type: ignore[index]
        return {"play": h.ace} if h.ace in hand and len(hand) > 1 and not h.three_played else None

    add("prisoner_ace", "muerte-al-tres", {}, 2, prisoner, "ace|three")

    def chained(h: Hand) -> Any:
        seat = h.turn
        face = h.face_up
        if not h.face_up_given or face is None or len(h.stock) <= 1:
            return None
        given = h.exchange_for.get(int(face[:-1]))
        return {"exchange": f"{given}{h.trump}"} if given and f"{given}{h.trump}" in h.hands[seat] else None  # type: ignore

    add("exchange_chain_off", "spanish", {"exchange_chain": False, "trump_exchange": "any_time"}, 2, chained,
        "exchang")

    def late(h: Hand) -> Any:
        face = h.face_up
        if face is None or len(h.stock) > h.players or not h.won[h.turn]:  # type: ignore[index]
            return None
        given = h.exchange_for.get(int(face[:-1]))
        card = f"{given}{h.trump}"
        return {"exchange": card} if given and card in h.hands[h.turn] else None  # type: ignore[index]

    add("exchange_too_late", "spanish", {"trump_exchange": "before_penultimate"}, 2, late, "exchang|last round")

    def given_card(h: Hand) -> str | None:
        face = h.face_up
        given = None if face is None else h.exchange_for.get(int(face[:-1]))
        return None if given is None else f"{given}{h.trump}"

    def exchange_not_announced(h: Hand) -> Any:
        """001: the exchange is announced first; an exchange made at once is refused."""
        card = given_card(h)
        return {"exchange": card} if card and h.won[h.turn] and card in h.hands[h.turn] else None  # type: ignore

    def announce_not_held(h: Hand) -> Any:
        card = given_card(h)
        return {"announce": card} if card and h.announced is None and card not in h.hands[h.turn] else None  # type: ignore

    def second_announcement(h: Hand) -> Any:
        """A trump already lies under the face-up card: a card of the seat's is announced again."""
        if h.announced is None or len(h.history) < 4:
            return None
        return {"announce": h.hands[h.turn][0]}  # type: ignore[index]

    add("exchange_announced_made_at_once", "spanish", {"trump_exchange": "announced"}, 2, exchange_not_announced,
        "announce")
    add("announce_not_held", "spanish", {"trump_exchange": "announced"}, 2, announce_not_held, "hold|taken with")
    add("announce_while_one_waits", "spanish", {"trump_exchange": "announced"}, 2, second_announcement,
        "already laid")

    def play_out_of_turn(h: Hand) -> Any:
        """000 lets a seat exchange out of turn, nothing else: a card played by a seat not to act."""
        if not h.table or len(h.history) < 4:
            return None
        other = (h.turn + 1) % h.players  # type: ignore[operator]
        return {"seat": other, "play": h.hands[other][0]}

    def exchange_out_of_turn_unwon(h: Hand) -> Any:
        """The exchange out of turn, by a seat that has won no trick yet."""
        card = given_card(h)
        for seat in range(h.players):
            if seat != h.turn and card and card in h.hands[seat] and not h.won[seat]:
                return {"seat": seat, "exchange": card}
        return None

    def exchange_out_of_turn_other_reading(h: Hand) -> Any:
        """Under after_win a seat that may exchange waits for its turn."""
        card = given_card(h)
        for seat in range(h.players):
            if seat != h.turn and card and card in h.hands[seat] and h.won[seat]:
                return {"seat": seat, "exchange": card}
        return None

    add("out_of_turn_play", "spanish", {"trump_exchange": "out_of_turn"}, 4, play_out_of_turn, "out of turn")
    add("out_of_turn_exchange_before_a_win", "spanish", {"trump_exchange": "out_of_turn"}, 4,
        exchange_out_of_turn_unwon, "win")
    add("exchange_out_of_turn_under_after_win", "spanish", {}, 4, exchange_out_of_turn_other_reading, "out of turn")

    # The auction and the dealt-out games.
    add("bid_too_low", "rematada", {}, 3,
        lambda h: {"bid": h.high[1]} if h.phase == "bid" and h.high is not None else None, "bid")
    add("pass_when_last_must_bid", "rematada", {}, 3,
        lambda h: {"pass": True} if h.phase == "bid" and h.passed.count(False) == 1 and h.high is None else None,
        "must bid")

    def unguarded_two(h: Hand) -> Any:
        if h.phase != "play" or h.table:
            return None
        held_back = [c for c in h.hands[h.turn] if c[:-1] == "2" and c not in h.playable(h.turn)]  # type: ignore
        return {"play": held_back[0]} if held_back else None

    add("lead_two_unguarded", "chilean", {}, 4, unguarded_two, "must play")

    def plain_under_partners_trump(h: Hand) -> Any:
        """A seat with none of the suit led throws a plain card while its partner holds the trick by a trump."""
        if h.phase != "play" or not h.table or h.pending is not None:
            return None
        seat = h.turn
        assert seat is not None
        led = h.table[0][1][-1]
        holder, best = h.table[h.best_index([c for _s, c in h.table])]
        hand = h.hands[seat]
        if h.side(holder) != h.side(seat) or best[-1] != h.trump or led == h.trump or any(c[-1] == led for c in hand):
            return None
        plain = [c for c in hand if c[-1] != h.trump]
        return {"play": plain[0]} if plain and len(plain) < len(hand) else None

    add("descanso_not_under_a_trump", "chilean", {}, 4, plain_under_partners_trump, "must play")
    add("discard_not_held", "rematada", {}, 3,
        lambda h: {"discard": [c for c in deck_cards(h.o, 3) if c not in h.hands[h.turn]][:2]}  # type: ignore
        if h.phase == "discard" else None, "discard")
    add("play_during_auction", "chiamata", {}, 5,
        lambda h: {"play": h.hands[h.turn][0]} if h.phase == "bid" and len(h.bids) == 2 else None,  # type: ignore
        "auction")
    # Chiamata Buia: no call during the first trick, and none of a card played in it.
    add("call_during_first_trick", "chiamata-buia", {}, 5,
        lambda h: {"call": "1O"} if h.phase == "play" and h.blind is not None and len(h.table) == 2 else None,
        "first trick")
    add("call_played_card", "chiamata-buia", {}, 5,
        lambda h: {"call": h.tricks[0]["cards"][1]} if h.phase == "call" else None, "played in the first trick")
    return bad


# ------------------------------------------------------------------ expected


def expected(data: dict[str, Any]) -> dict[str, Any]:
    """The referee's replay, cut down to what ``brisca replay`` must print."""
    out = replay_record(data, preset(data["variant"]))
    if "hands" in out:
        extra = {k: out[k] for k in OPTIONAL_MATCH_KEYS if k in out}
        return {"hands": [cut(h) for h in out["hands"]], **{k: out[k] for k in MATCH_KEYS}, **extra}
    return cut(out)


def cut(summary: dict[str, Any]) -> dict[str, Any]:
    """A hand's summary cut down to KEYS, and for a game with an auction its bids, contract and match points."""
    out = {k: summary[k] for k in KEYS}
    if summary.get("winners"):  # a hand shared under tie: shared
        out["winners"] = summary["winners"]
    if summary["scores"] is not None:
        out.update(auction=summary["bids"], contract=summary["contract"], scores=summary["scores"])
    return out


def bad_index(data: dict[str, Any]) -> int:
    """The index of the action the referee refuses."""
    try:
        replay_record(data, preset(data["variant"]))
    except RefereeError as exc:
        text = str(exc)
        return int(text.split("action ", 1)[1].split(":", 1)[0])
    raise SystemExit(f"make_golden: the referee accepts a bad record: {json.dumps(data)[:200]}")


def write_json(path: Path, data: Any) -> None:
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def main(argv: list[str]) -> int:
    if "--records" in argv:
        for name, data in {**craft_hands(), **craft_matches()}.items():
            write_json(HERE / f"{name}.record.json", data)
        BAD.mkdir(exist_ok=True)
        for name, (data, fragment) in craft_bad().items():
            write_json(BAD / f"{name}.json", data)
            write_json(BAD / f"{name}.expect.json", {"index": bad_index(data), "fragment": fragment})
    for path in sorted(HERE.glob("*.record.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        write_json(path.with_name(path.name.replace(".record.json", ".expected.json")), expected(data))
    for path in sorted(BAD.glob("*.expect.json")):
        spec = json.loads(path.read_text(encoding="utf-8"))
        data = json.loads((BAD / path.name.replace(".expect.json", ".json")).read_text(encoding="utf-8"))
        spec["index"] = bad_index(data)
        write_json(path, spec)
    return 0


def check_entries(data: dict[str, Any]) -> None:
    """Every entry of a record reads as one action (used by the tests)."""
    for hand in data.get("hands", [data]):
        for entry in hand["actions"]:
            entry_action(entry)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
