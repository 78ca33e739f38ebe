"""Property tests over random games of every preset at every player count, and a few option mixtures.

Cards are conserved, every legal action honours the duties in force (the
independent referee of ``tests/variant_referee.py`` says which), totals add up,
and no view leaks: permuting the cards a seat cannot see (in a clone's
internals) leaves its view unchanged, and partner signals stay on their side.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from brisca import Card, Game, Match, RulesError, find_variant, make_rules, parse_cards, variant_names
from brisca.actions import PASS, PLAYS, Action, Bid, Discard, Pass, RankBid, Signal
from brisca.record import MatchRecord, loads, match_summary
from variant_referee import Hand, key, replay_record

#: Option mixtures on spanish beyond the presets: duties, calls, signals and looks.
MIXTURES: list[tuple[dict[str, Any], tuple[int, ...]]] = [
    ({"follow": "suit_beat_trump", "arrastro": True, "trump_exchange": "any_time"}, (2, 3, 4, 6)),
    ({"follow": "suit_trump", "follow_from": "empty_stock", "exchange_chain": False}, (2, 4)),
    ({"follow": "descanso", "claim": True, "signals": "partner"}, (3, 4, 6)),
    ({"claim": True, "last_trick_bonus": 10, "pair_bonus": True}, (2, 3)),
    ({"claim": True, "partners_look": True, "signals": "open"}, (4, 6)),
    ({"claim": True, "signals": "partner", "deal_look": True}, (4, 6)),
    ({"signals": "partner", "deal_look": True, "kill_three": True}, (4, 6)),
    ({"signals": "open", "open_hands": True, "trump_exchange": "before_penultimate"}, (2, 4)),
    ({"trump_rotation": True, "signals": "partner", "deal_look": True}, (2, 4, 6)),
    ({"deck": 48, "follow": "suit", "arrastro": True, "tie": "most_cards"}, (3, 4)),
    ({"tie": "shared", "teams": False, "big_win": True}, (3, 4)),
    ({"signals": "combination", "signal_asks": True, "claim": True}, (4, 6)),
    ({"signals": "combination", "signal_set": "italian", "declarations": "vales"}, (4,)),
    # 001's announced exchange and 000's exchange out of turn, with the rules that meet them most.
    ({"trump_exchange": "announced", "kill_three": True, "claim": True}, (2, 4)),
    ({"trump_exchange": "announced", "exchange_chain": False, "follow": "suit_trump", "signals": "partner"}, (3, 6)),
    ({"trump_exchange": "announced", "deck": 48, "declarations": "vales", "partners_look": True}, (4,)),
    ({"trump_exchange": "out_of_turn", "arrastro": True, "follow": "suit_beat_trump"}, (2, 4)),
    ({"trump_exchange": "out_of_turn", "exchange_chain": False, "open_hands": True}, (3, 6)),
]
#: Option mixtures on the dealt-out presets: the ways to deal, low-card bidding, other auctions and declarations.
DEALT_OUT_MIXTURES: list[tuple[str, dict[str, Any], int]] = [
    ("chilean", {"deal": "golpe"}, 4),
    ("chilean", {"deal": "pelada"}, 4),
    ("chilean", {"deal": "one_by_one", "declarations": "on_lead"}, 4),
    ("chilean", {"follow": "suit_beat_trump", "deal": "golpe"}, 4),
    ("chilean", {"cut_ways": ["golpe", "pelada"], "signals": "combination"}, 4),
    ("chilean", {"cutter": "left", "signals": "partner", "signal_asks": True}, 4),
    ("chiamata", {"bidding": "low_card"}, 5),
    ("chiamata", {"declarations": "vales", "last_trick_bonus": 10, "min_bid": 40}, 5),
    ("chiamata-buia", {"follow": "suit_beat_trump", "declarations": "vales", "arrastro": True}, 5),
    ("rematada", {"all_pass": "redeal", "min_bid": 50}, 3),
    ("rematada", {"follow": "suit_beat_trump", "lead_two": "guarded", "declarations": "vales"}, 3),
]
CONFIGS: list[tuple[str, dict[str, Any], int]] = [
    (name, {}, n) for name in variant_names() for n in find_variant(name).player_counts
] + [("spanish", overrides, n) for overrides, counts in MIXTURES for n in counts] + DEALT_OUT_MIXTURES
CONFIG = st.sampled_from(CONFIGS)
SEEDS = st.integers(0, 2**32 - 1)
#: Whole matches under the match readings: a fixed number of hands, game points, a draw for partners.
MATCH_CONFIGS: list[tuple[str, dict[str, Any], int]] = [
    ("spanish", {"match": "fixed_hands", "hands": 3}, 2),
    ("spanish", {"match": "fixed_hands", "hands": 1, "tie": "replay", "partners": "draw"}, 4),
    ("spanish", {"match": "game_points", "big_win": True, "partners": "draw"}, 6),
    ("spanish", {"match": "game_points", "tie": "shared", "teams": False, "partners": "draw"}, 3),
    ("spanish", {"match": "game_points", "trump_rotation": True}, 2),
    ("briscola", {"partners": "draw", "match": "fixed_hands", "hands": 2}, 4),
    ("bixkla", {"partners": "draw"}, 4),
    ("rematada", {}, 3),
    ("rematada", {"pair_bonus": True, "declarations": "off", "target_game_points": 4}, 3),
    ("chiamata", {"match": "game_points", "target_game_points": 2}, 5),
    ("chilean", {"partners": "draw", "match": "fixed_hands", "hands": 3}, 4),
]


def new_game(config: tuple[str, dict[str, Any], int], seed: int) -> tuple[Game, random.Random]:
    variant, overrides, players = config
    rng = random.Random(seed)
    game = Game(variant, players, dealer=rng.randrange(players), seed=rng.randrange(2**32), options=overrides,
                deal_number=rng.randrange(4))
    return game, rng


def referee_for(game: Game) -> Hand:
    rules = game.rules
    options = json.loads(json.dumps(rules.options())) | {"removed": {str(n): list(c) for n, c in rules.removed}}
    return Hand(options, game.players, game.dealer, [str(c) for c in game.deck], game.deal_number)


def pick(game: Game, rng: random.Random) -> Action:
    legal = game.legal_actions()
    if any(type(a) in (Bid, RankBid, Pass) for a in legal):  # pass half the time, else bid low
        bids = [a for a in legal if type(a) is not Pass]
        if not bids or (PASS in legal and rng.random() < 0.45):
            return PASS
        return bids[min(len(bids) - 1, int(rng.expovariate(0.5)))] if rng.random() < 0.8 else rng.choice(bids)
    rare = [a for a in legal if type(a).__name__ in ("Exchange", "Announce", "Arrastro", "Claim", "Declare")]
    if rare and rng.random() < 0.5:
        return rng.choice(rare)
    plays = [a for a in legal if type(a) is not Signal]
    return rng.choice(legal if rng.random() < 0.2 or not plays else plays)


def out_of_turn(game: Game, rng: random.Random) -> tuple[int, Action] | None:
    """Now and then, another seat's exchange out of turn (``trump_exchange: out_of_turn``), where it has one."""
    others = [(s, a) for s in range(game.players) if s != game.turn for a in game.legal_actions(s)]
    return rng.choice(others) if others and rng.random() < 0.5 else None


def all_cards_now(game: Game) -> list[Card]:
    cards: list[Card] = []
    for seat in range(game.players):
        cards.extend(game.hand(seat))
    cards.extend(game.stock())
    cards.extend(game.trick)
    for trick in game.tricks:
        cards.extend(trick.cards)
    if game.claim is not None:
        cards.extend(game.claim[1])
    if getattr(game, "phase", "play") == "bid":  # the talon, face down until the auction's winner takes it
        cards.extend(game.talon)  # type: ignore[attr-defined]
    cards.extend(getattr(game, "discards", ()))
    laid = getattr(game, "announced", None)  # under the face-up card (trump_exchange: announced)
    if laid is not None:
        cards.append(laid[1])
    return cards


def discard_points(game: Game) -> int:
    return sum(game.rules.card_points(c) for c in getattr(game, "discards", ()))


@settings(max_examples=400, deadline=None)
@given(CONFIG, SEEDS)
def test_random_games_keep_the_rules(config: tuple[str, dict[str, Any], int], seed: int) -> None:
    game, rng = new_game(config, seed)
    ref = referee_for(game)
    while True:
        cards = all_cards_now(game)
        assert Counter(cards) == Counter(game.deck), "cards not conserved"
        assert len(set(cards)) == len(cards)
        legal = {key(a.to_json()) for a in game.legal_actions()}
        # Every legal action honours the duties in force, and every action the rules allow is offered.
        assert legal == ref.legal_keys(), (config, game.history)
        for other in range(game.players):  # a seat not to act: its exchange under out_of_turn, or nothing
            if other != game.turn:
                assert {key(a.to_json()) for a in game.legal_actions(other)} == ref.legal_keys(other)
        if game.is_over():
            break
        moved = out_of_turn(game, rng)
        seat, action = moved if moved is not None else (game.turn, pick(game, rng))
        game.apply(action, seat)
        ref.act(seat, action.to_json())  # type: ignore[arg-type]
    result = game.result()
    assert result is not None
    killed = result.reason == "three-killed"
    card_points = sum(game.seat_points)
    assert card_points == sum(t.points for t in game.tricks) + (game.claim[2] if game.claim else 0) + discard_points(
        game)
    if result.reason == "all-passed":  # a void hand: nothing played, nobody scores
        assert game.rules.all_pass == "redeal" and card_points == 0 and not game.tricks
        assert result.scores == (0,) * game.players and result.winner is None
        assert all(a == PASS for _s, a in game.history) and len(game.history) == game.players
    elif killed:
        assert card_points <= 120 and game.rules.kill_three
        trump = game.trump
        last = game.tricks[-1].cards
        assert Card(1, trump) in last and Card(3, trump) in last
    else:
        assert card_points == 120
        assert len(game.tricks) * game.players + (len(game.claim[1]) if game.claim else 0) + len(
            getattr(game, "discards", ())) == len(game.deck)
    sides = game.rules.sides(game.players)
    for side in range(sides):
        own = sum(p for s, p in enumerate(game.seat_points) if s % sides == side)
        extra = sum(b.points for b in result.bonuses if b.side == side)
        assert result.side_points[side] == own + extra
    assert ref.summary()["team_points"] == list(result.side_points)
    assert ref.scores() == (None if result.scores is None else list(result.scores))


# ---------------------------------------------------------------- no leaks


def hidden_twin(game: Game, seat: int | None, rng: random.Random) -> Game:
    """A clone that differs only in what ``seat`` cannot see.

    The cards of the other hands (except those the view lists as known) and the
    face-down stock (all of it under ``trump_rotation``, else all but ``_stock[0]``,
    the face-up card) are permuted among themselves; the dealt hands kept for
    ``deal_look`` follow the same permutation, so the clone is a consistent deal.
    """
    view = game.view(seat)
    known = set(view.known)
    twin = game.clone()
    slots: list[tuple[list[Any], int]] = []
    for s in range(game.players):
        if s != seat:
            hand = twin._hands[s]
            slots.extend((hand, i) for i, a in enumerate(hand) if (s, a.card) not in known)
    stock = twin._stock
    first = 0 if game.turned is None or not stock else 1
    slots.extend((stock, i) for i in range(first, len(stock)))
    # Dealt-out games: the talon before the auction's winner shows it, and the discards of another seat.
    hidden: dict[str, list[Any]] = {}
    if getattr(game, "phase", "play") == "bid" and game.talon:  # type: ignore[attr-defined]
        hidden["_talon"] = [PLAYS[c.index] for c in game.talon]  # type: ignore[attr-defined]
    discarder = next((s for s, a in game.history if type(a) is Discard), None)
    if discarder is not None and seat != discarder:
        hidden["_discards"] = [PLAYS[c.index] for c in game.discards]  # type: ignore[attr-defined]
    for lst in hidden.values():
        slots.extend((lst, i) for i in range(len(lst)))
    before = [where[i] for where, i in slots]
    after = before[:]
    rng.shuffle(after)
    for (where, i), action in zip(slots, after, strict=True):
        where[i] = action
    # The deck (and so the dealt hands deal_look reads) follows the same permutation.
    moved = {a.card: b.card for a, b in zip(before, after, strict=True)}

    def follow(a: Any) -> Any:
        if isinstance(a, Card):  # (the dealt hands of dealt-out games are kept as cards)
            return moved.get(a, a)
        return PLAYS[moved.get(a.card, a.card).index]

    twin._order = tuple(follow(a) for a in twin._order)
    dealt = getattr(twin, "_dealt", None)  # where the engine keeps the dealt hands apart from the deck
    if dealt is not None:
        twin._dealt = tuple(tuple(follow(a) for a in h) for h in dealt)
    for name, lst in hidden.items():
        setattr(twin, name, tuple(sorted(a.card for a in lst)))
    if "_discards" in hidden:  # the discards score for the declarer: his points follow them
        twin._points[discarder] += discard_points(twin) - discard_points(game)  # type: ignore[index]
    contract = getattr(game, "contract", None)
    if contract is not None and contract.called is not None:  # the called card's holder is the partner
        holder = [s for s in range(game.players) if PLAYS[contract.called.index] in twin._hands[s]]
        if holder:
            twin._contract = dataclasses.replace(contract, partner=holder[0])
    return twin


@settings(max_examples=400, deadline=None)
@given(CONFIG, SEEDS, st.integers(0, 80))
def test_views_never_leak(config: tuple[str, dict[str, Any], int], seed: int, steps: int) -> None:
    game, rng = new_game(config, seed)
    for _ in range(steps):
        if game.is_over():
            break
        moved = out_of_turn(game, rng)
        if moved is not None:
            game.apply(moved[1], moved[0])
        else:
            game.apply(pick(game, rng))
    for seat in (None, *range(game.players)):
        view = game.view(seat)
        for _ in range(3):
            twin = hidden_twin(game, seat, rng)
            assert Counter(all_cards_now(twin)) == Counter(all_cards_now(game))
            assert twin.view(seat) == view, f"view of seat {seat} changes with cards it cannot see"
        if game.rules.open_hands:
            assert {(s, c) for s in range(game.players) if s != seat for c in game.hand(s)} == set(view.known)
        for s, card in view.known:
            assert s != seat and card in game.hand(s)
        assert set(view.known) <= set(game.view(None).known) | {
            (s, c) for s in range(game.players) if seat is not None and s % game.rules.sides(game.players)
            == seat % game.rules.sides(game.players) for c in game.hand(s)
        }


@settings(max_examples=300, deadline=None)
@given(st.sampled_from([c for c in CONFIGS if c[2] in (4, 6)]), st.sampled_from(["partner", "open", "combination"]),
       SEEDS,
       st.integers(0, 80))
def test_signals_stay_on_their_side(config: tuple[str, dict[str, Any], int], mode: str, seed: int,
                                   steps: int) -> None:
    variant, overrides, players = config
    if not make_rules(variant, overrides).partnerships:  # nobody to signal to: the option is refused
        with pytest.raises(RulesError, match="'signals' has no effect here"):
            make_rules(variant, {**overrides, "signals": mode})
        return
    game, rng = new_game((variant, {**overrides, "signals": mode}, players), seed)
    for _ in range(steps):
        if game.is_over():
            break
        legal = game.legal_actions()
        signals = [a for a in legal if type(a) is Signal]
        game.apply(rng.choice(signals) if signals and rng.random() < 0.4 else pick(game, rng))
    made = [(s, a.name) for s, a in game.history if type(a) is Signal]
    aloud = [a.aloud for _s, a in game.history if type(a) is Signal]
    sides = game.rules.sides(players)
    if sides == players:
        assert made == []
        return
    for viewer in (None, *range(players)):
        view = game.view(viewer)
        in_history = [(s, a.name) for s, a in view.history if type(a) is Signal]
        assert list(view.signals) == in_history
        if mode == "open":
            assert in_history == made
        elif viewer is None:  # (said aloud under combination, a signal is heard by all)
            assert in_history == [m for m, said in zip(made, aloud, strict=True) if said], "a spectator sees signals"
        else:
            assert in_history == [(s, n) for (s, n), said in zip(made, aloud, strict=True)
                                  if said or s % sides == viewer % sides]
        # Everything else in the history is public: every play and exchange, in order.
        assert [x for x in view.history if type(x[1]) is not Signal] == [
            x for x in game.history if type(x[1]) is not Signal
        ]


def test_a_claim_offer_does_not_reveal_the_partners_cards() -> None:
    """Under ``claim`` in a partnership, whether the claim is offered must not depend on cards the seat cannot see.

    Spanish, 4 players, ``claim: true``, dealer 2; trumps are bastos.  After 28 plays the stock is gone and seat 3
    leads holding 5C 1O 1B.  The trumps still out: 1B (seat 3), 12B and 10B (seat 1, its partner), 5B (seat 0),
    2B and 6B (seat 2).  The three best are its side's, but two are in its partner's hidden hand.  Offering the
    claim here and not after swapping seat 1's 10B with seat 0's 10C (both hidden from seat 3) would tell seat 3
    where the 10 of trumps is; so seat 3 may claim only what it can show (see ``variant_referee``), and both views
    are the same.  With ``partners_look`` it sees the partner's hand, and the claim is offered.
    """
    deck = parse_cards("6E 2O 3E 12C 5O 6C 3B 4O 5E 4E 1C 4C 6B 2C 7E 1E 2B 10B 11O 3C 10O 12O 11C 11E 5B 6O 4B 5C"
                       " 7B 12E 10E 2E 1O 3O 7O 7C 11B 1B 10C 12B")
    plays = parse_cards("6E 2O 1C 4C 5E 7E 3E 12C 1E 11O 5O 4E 3B 11C 3C 10O 6O 4B 11E 7B 6C 10E 4O 2C 12E 12O 2E 11B")
    game = Game("spanish", 4, dealer=2, deck=deck, options={"claim": True})
    for card in plays:
        game.apply(PLAYS[card.index])
    assert game.turn == 3 and game.stock_count == 0 and not game.trick
    assert [sorted(map(str, game.hand(s))) for s in range(4)] == [
        ["10C", "3O", "5B"], ["10B", "12B", "7O"], ["2B", "6B", "7C"], ["1B", "1O", "5C"]]
    twin = game.clone()
    ten_b, ten_c = PLAYS[Card.parse("10B").index], PLAYS[Card.parse("10C").index]
    twin._hands[1][twin._hands[1].index(ten_b)] = ten_c
    twin._hands[0][twin._hands[0].index(ten_c)] = ten_b
    assert twin.view(3).hand == game.view(3).hand and twin.view(3).known == game.view(3).known
    assert twin.view(3) == game.view(3), "the claim offered to seat 3 depends on its partner's hidden cards"
    looking = Game("spanish", 4, dealer=2, deck=deck, options={"claim": True, "partners_look": True})
    for card in plays:
        looking.apply(PLAYS[card.index])
    assert "claim" in {str(a) for a in looking.view(3).legal_actions}


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(MATCH_CONFIGS), SEEDS)
def test_random_matches_agree_with_the_referee(config: tuple[str, dict[str, Any], int], seed: int) -> None:
    """Whole random matches end as the referee counts them, and their records replay to the same seats and score."""
    variant, overrides, players = config
    rng = random.Random(seed)
    match = Match(variant, players, seed=rng.randrange(2**32), options=overrides)
    while True:
        game = match.game
        while not game.is_over():
            game.apply(pick(game, rng))
        if match.is_over():
            break
        assert len(match.games) < 80, "the match does not end"
        match.next_hand()
    rules = match.rules
    if rules.partners == "draw":
        assert match.draw is not None and match.games[0].dealer == match.draw.dealer == 0
        assert sorted(match.seating) == list(range(players))
    record = MatchRecord.from_match(match)
    back = loads(record.dumps())
    assert isinstance(back, MatchRecord)
    out = match_summary(back, back.replay())
    base = find_variant(variant)
    preset = json.loads(json.dumps(base.options())) | {"removed": {str(n): list(c) for n, c in base.removed}}
    ref = replay_record(json.loads(record.dumps()), preset)
    for k in ("hands_won", "match_points", "match_over", "match_winner", "game_points", "seating"):
        assert out.get(k) == ref.get(k), k
    assert out["match_over"] and out["match_winner"] == match.winner
    if not rules.trump_rotation:  # only the four deals of a rotation may end level
        assert match.winner is not None
    if rules.match == "fixed_hands":
        assert match.deals_done >= rules.hands
