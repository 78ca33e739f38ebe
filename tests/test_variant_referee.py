"""The engine against the independent referee of ``tests/variant_referee.py``, over random games of every rule.

For every preset at every player count it is played by, and for option
combinations on ``spanish`` (each option at each of its values at least once,
and a few mixtures), random legal games are played through :class:`brisca.Game`.
At every step the engine's legal actions (in record form) must equal the
referee's, an action neither allows must be refused by both, and what each seat
knows of other hands and of the signals must agree; at the end the engine's
``record.summary`` must match the referee's on trump, tricks, points, bonuses,
totals, winner and reason.  Random matches through :class:`brisca.Match` are
scored by both too.  A failure prints a reproduction.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from brisca import BriscaError, Game, Match, find_variant, variant_names
from brisca.actions import Action
from brisca.record import MatchRecord, summary
from variant_referee import SIGNALS, Hand, RefereeError, choose, deck_cards, key, replay_record

#: Keys of ``record.summary`` the referee must reproduce exactly.
KEYS = ("trump", "turned", "tricks", "seat_points", "team_points", "winner", "reason", "exchanges", "signals",
        "claim", "over", "current_trick")

#: Option combinations on spanish: (id, overrides, player counts).
SPANISH_COMBOS: list[tuple[str, dict[str, Any], tuple[int, ...]]] = [
    ("follow-suit", {"follow": "suit"}, (2, 4)),
    ("follow-suit-trump", {"follow": "suit_trump"}, (3, 4)),
    ("follow-beat", {"follow": "suit_beat_trump"}, (2, 6)),
    ("follow-beat-empty-stock", {"follow": "suit_beat_trump", "follow_from": "empty_stock"}, (2, 4)),
    ("follow-descanso", {"follow": "descanso"}, (3, 4, 6)),
    ("follow-descanso-empty-stock", {"follow": "descanso", "follow_from": "empty_stock", "arrastro": True}, (4,)),
    ("follow-suit-empty-stock", {"follow": "suit", "follow_from": "empty_stock"}, (3,)),
    ("exchange-off", {"trump_exchange": "off", "follow": "suit"}, (2,)),
    ("exchange-any-time", {"trump_exchange": "any_time"}, (2, 4)),
    ("exchange-before-penultimate", {"trump_exchange": "before_penultimate", "follow": "suit"}, (2, 6)),
    ("no-chain", {"exchange_chain": False, "trump_exchange": "any_time", "follow": "suit"}, (2, 4)),
    ("no-chain-after-win", {"exchange_chain": False, "follow": "suit_trump"}, (3,)),
    ("arrastro", {"arrastro": True}, (2, 4, 6)),
    ("arrastro-follow", {"arrastro": True, "follow": "suit_beat_trump", "deck": 48}, (3, 4)),
    ("claim", {"claim": True}, (2, 4, 6)),
    ("claim-bonuses", {"claim": True, "last_trick_bonus": 10, "pair_bonus": True, "tie": "most_cards"}, (2, 4)),
    ("signals-partner", {"signals": "partner"}, (2, 4, 6)),
    ("signals-open", {"signals": "open", "follow": "suit"}, (4, 6)),
    ("no-teams-claim", {"teams": False, "claim": True}, (4,)),
    ("signals-combination", {"signals": "combination", "signal_asks": True}, (4, 6)),
    ("signals-italian", {"signals": "partner", "signal_set": "italian", "follow": "suit"}, (4, 6)),
    ("signals-italian-combination", {"signals": "combination", "signal_set": "italian", "deck": 48}, (4,)),
    ("signals-asks", {"signals": "open", "signal_asks": True}, (4,)),
    ("kill-three", {"kill_three": True, "follow": "suit_beat_trump", "arrastro": True}, (2, 4)),
    ("kill-three-bonus", {"kill_three": True, "last_trick_bonus": 10, "pair_bonus": True, "claim": True}, (3, 4)),
    ("last-trick-bonus", {"last_trick_bonus": 10}, (2, 4)),
    ("pair-bonus", {"pair_bonus": True}, (2, 3)),
    ("least-most-cards", {"hand_winner": "least", "tie": "most_cards"}, (3, 4)),
    ("tie-replay", {"tie": "replay", "follow": "suit"}, (2,)),
    ("tie-most-cards", {"tie": "most_cards", "follow": "suit"}, (2, 4)),
    ("tie-shared", {"tie": "shared", "teams": False}, (3, 4)),
    ("trump-rotation", {"trump_rotation": True, "signals": "partner"}, (2, 4)),
    ("signals-48", {"signals": "partner", "deck": 48, "trump_exchange": "before_penultimate"}, (4,)),
    ("deal-look", {"deal_look": True, "signals": "partner"}, (4, 6)),
    ("partners-look", {"partners_look": True, "follow": "suit"}, (4, 6)),
    ("open-hands", {"open_hands": True, "follow": "suit"}, (2, 4)),
    ("hand-size-4", {"hand_size": 4, "claim": True, "follow": "suit_trump"}, (2,)),
    ("match-options", {"match": "target_points", "target_points": 200}, (2,)),
    ("big-win", {"big_win": True, "match": "fixed_hands", "hands": 3}, (2,)),
    ("point-limit", {"hand_winner": "least", "point_limit": 11}, (2, 3, 4, 6)),
    ("point-limit-teams-off", {"hand_winner": "least", "point_limit": 30, "teams": False}, (4,)),
    ("target-hands-alone", {"target_hands_alone": 1, "capote": "match"}, (2, 3, 4)),
    ("claim-side", {"claim": True, "claim_by": "side", "follow": "suit"}, (2, 4, 6)),
    ("claim-capote", {"claim": True, "capote": "match", "hand_size": 4}, (2, 4)),
    ("face-up-winner", {"face_up_to": "trick_winner", "trump_exchange": "any_time"}, (2, 3, 4)),
    ("face-up-winner-kill-three", {"face_up_to": "trick_winner", "kill_three": True,
                                   "trump_exchange": "announced"}, (2, 4)),
]
#: Option mixtures on the dealt-out presets: (id, variant, overrides, player count).
DEALT_OUT_COMBOS: list[tuple[str, str, dict[str, Any], int]] = [
    ("golpe", "chilean", {"deal": "golpe"}, 4),
    ("pelada", "chilean", {"deal": "pelada"}, 4),
    ("one-by-one", "chilean", {"deal": "one_by_one", "declarations": "on_lead", "lead_two": "any"}, 4),
    ("pelada-no-guard", "chilean", {"deal": "pelada", "lead_two": "any", "follow": "suit"}, 4),
    ("golpe-no-teams", "chilean", {"deal": "golpe", "teams": False, "capote": False}, 4),
    ("chilean-beat-partner", "chilean", {"follow": "suit_beat_trump"}, 4),
    ("alce", "chilean", {"deal": "alce"}, 4),
    ("cut-two-ways", "chilean", {"cut_ways": ["golpe", "pelada"], "cutter": "left"}, 4),
    ("cut-no-teams", "chilean", {"teams": False, "capote": False}, 4),
    ("chilean-signals", "chilean", {"signals": "combination", "signal_asks": True, "follow": "suit"}, 4),
    ("low-card", "chiamata", {"bidding": "low_card"}, 5),
    ("chiamata-vales", "chiamata", {"declarations": "vales", "follow": "suit_trump", "last_trick_bonus": 10}, 5),
    ("buia-duties", "chiamata-buia", {"follow": "suit_beat_trump", "arrastro": True, "claim": True}, 5),
    ("chilean-claim-side", "chilean", {"claim": True, "claim_by": "side", "capote": "match"}, 4),
    ("buia-vales", "chiamata-buia", {"declarations": "vales", "follow": "descanso",
                                     "all_pass": "last_must_bid", "last_trick_bonus": 10}, 5),
    ("golpe-partner-shows", "chilean", {"deal": "golpe", "golpe_partner_shows": True}, 4),
    ("cut-partner-shows", "chilean", {"golpe_partner_shows": True, "capote": "match"}, 4),
    ("rematada-redeal", "rematada", {"all_pass": "redeal", "bid_step": 5, "max_bid": 150}, 3),
    ("rematada-follow", "rematada", {"follow": "suit_beat_trump", "lead_two": "guarded",
                                     "declarations": "vales"}, 3),
]
GAMES = {2: 120, 3: 100, 4: 80, 5: 70, 6: 60}

CONFIGS = [
    pytest.param(name, {}, n, id=f"{name}-{n}p")
    for name in variant_names() for n in find_variant(name).player_counts
] + [
    pytest.param("spanish", overrides, n, id=f"spanish-{cid}-{n}p")
    for cid, overrides, counts in SPANISH_COMBOS for n in counts
] + [
    pytest.param(variant, overrides, n, id=f"{variant}-{cid}-{n}p")
    for cid, variant, overrides, n in DEALT_OUT_COMBOS
]


def preset_options(variant: str) -> dict[str, Any]:
    """The preset's option values as plain JSON, and the cards it removes per player count: all the referee is
    told of the engine's rules."""
    rules = find_variant(variant)
    return json.loads(json.dumps(rules.options())) | {"removed": {str(n): list(c) for n, c in rules.removed}}


def every_action(cards: list[str]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = [{"play": c} for c in cards]
    out += [{"exchange": c} for c in cards if c[:-1] in ("7", "2")]
    out += [{"play": c, "arrastro": True} for c in cards if c[:-1] == "1"]
    out += [{"claim": True}] + [{"signal": s} for s in SIGNALS] + [{"signal": s, "aloud": True} for s in SIGNALS]
    out += [{"cut": w} for w in ("alce", "golpe", "pelada")]
    # The auction and what follows it: bids of every kind, calls, trumps, discards, declarations.
    out += [{"pass": True}] + [{"bid": v} for v in (1, 55, 60, 61, 62, 95, 100, 105, 110, 120, 125, 230, 240)]
    out += [{"bid": str(r)} for r in (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)]
    out += [{"call": c} for c in cards[::3]] + [{"trump": s} for s in "OCEB"] + [{"declare": s} for s in "OCEB"]
    out += [{"discard": [a, b]} for a, b in zip(cards[::4], cards[1::4], strict=False)]
    out += [{"discard": [c]} for c in cards[::9]] + [{"discard": cards[:3]}]
    return out


def normal(out: dict[str, Any]) -> dict[str, Any]:
    """A summary with its bonuses in a fixed order (the order bonuses are listed in is not a rule)."""
    return dict(out, bonuses=sorted(out["bonuses"], key=lambda b: (b["side"], b["points"], b["why"])))


def compare_one(variant: str, overrides: dict[str, Any], players: int, seed: int, views: bool = True) -> str | None:
    """One random game through the engine and the referee side by side; a message at the first difference."""
    rng = random.Random(seed)
    options = preset_options(variant) | overrides
    dealer = rng.randrange(players)
    deal = rng.randrange(4)
    game = Game(variant, players, dealer=dealer, seed=rng.randrange(2**32), options=overrides, deal_number=deal)
    deck = [str(c) for c in game.deck]
    ref = Hand(options, players, dealer, deck, deal)
    done: list[dict[str, Any]] = []
    universe = [(key(a), a) for a in every_action(deck_cards(options, players))]

    def fail(what: str) -> str:
        return (f"{variant} {overrides} {players}p seed {seed}, step {len(done)}: {what}\n  repro: "
                f"Game({variant!r}, {players}, dealer={dealer}, deal_number={deal}, options={overrides!r}, "
                f"deck={' '.join(deck)!r}.split()); actions = {done}")

    if letter(game.trump) != ref.trump or str_or_none(game.turned) != ref.turned:
        return fail(f"trump {game.trump} {game.turned} != referee {ref.trump} {ref.turned}")
    for seat in range(players):
        if sorted(str(c) for c in game.hand(seat)) != sorted(ref.hands[seat]):
            return fail(f"seat {seat} dealt {game.hand(seat)} != referee {ref.hands[seat]}")
    while True:
        engine_legal = {key(a.to_json()) for a in game.legal_actions()}
        referee_legal = ref.legal_keys()
        if engine_legal != referee_legal:
            return fail(f"legal actions: engine has {sorted(engine_legal - referee_legal)} more and "
                        f"{sorted(referee_legal - engine_legal)} fewer than the referee")
        if game.turn != ref.turn or game.is_over() != ref.over:
            return fail(f"turn {game.turn} != referee {ref.turn}")
        if views and rng.random() < 0.25:
            for viewer in (None, *range(players)):
                view = game.view(viewer)
                if set((s, str(c)) for s, c in view.known) != ref.known(viewer):
                    return fail(f"view of {viewer}: known {sorted(view.known)} != referee {sorted(ref.known(viewer))}")
                if list(view.signals) != ref.visible_signals(viewer):
                    return fail(f"view of {viewer}: signals {view.signals} != referee {ref.visible_signals(viewer)}")
                if ref.dealt_out and (msg := auction_view_differs(view, ref, viewer)):
                    return fail(msg)
        if game.is_over():
            break
        seat = game.turn
        assert seat is not None
        if rng.random() < 0.15:  # an action neither may take: both refuse it, and nothing changes
            bad = rng.choice([a for k, a in universe if k not in engine_legal])
            try:
                game.apply(Action.from_json(bad))
            except BriscaError:
                pass
            else:
                return fail(f"the engine accepted the illegal {bad} for seat {seat}")
            try:
                ref.act(seat, bad)
            except RefereeError:
                pass
            else:
                return fail(f"the referee accepted {bad} for seat {seat}")
            if {key(a.to_json()) for a in game.legal_actions()} != engine_legal:
                return fail(f"refusing {bad} changed the engine's legal actions")
        action = choose(sorted((a.to_json() for a in game.legal_actions()), key=key), rng)
        game.apply(Action.from_json(action))
        ref.act(seat, action)
        done.append({"seat": seat, **action})

    theirs = normal(ref.summary())
    result = game.result()
    assert result is not None
    if game.trump is not None:  # (a void hand has no trump for the record summary to print)
        mine = normal(summary(game))
        for k in (*KEYS, "bonuses"):
            if mine[k] != theirs[k]:
                return fail(f"{k}: engine {mine[k]!r} != referee {theirs[k]!r}")
    elif theirs["trump"] is not None or game.tricks or (result.winner, result.reason) != (None, theirs["reason"]):
        return fail(f"void hand: engine {result} != referee {theirs}")
    if ref.dealt_out and (msg := contract_differs(game, ref)):
        return fail(msg)
    if list(result.shared) != theirs["winners"]:  # the sides awarded a hand shared under tie: shared
        return fail(f"winners: engine {list(result.shared)} != referee {theirs['winners']}")
    if result.replay != theirs["replay"]:
        return fail(f"replay: engine {result.replay} != referee {theirs['replay']}")
    if sum(result.side_points) != sum(theirs["team_points"]):
        return fail("side points")
    return None


def letter(suit: Any) -> str | None:
    return None if suit is None else suit.letter


def str_or_none(card: Any) -> str | None:
    return None if card is None else str(card)


def contract_of(c: Any, hide_partner: bool = False) -> dict[str, Any] | None:
    """An engine contract in the referee's form."""
    if c is None:
        return None
    return {"declarer": c.declarer, "bid": c.bid.to_json()["bid"], "points": c.points, "trump": c.trump.letter,
            "called": str_or_none(c.called), "partner": c.partner}


def auction_view_differs(view: Any, ref: Hand, viewer: int | None) -> str | None:
    """The auction, contract, talon, discards, declarations and shown cards one seat sees, against the referee."""
    want = ref.summary()
    if view.phase != ref.phase or letter(view.trump) != ref.trump:
        return f"view of {viewer}: phase {view.phase} trump {view.trump} != referee {ref.phase} {ref.trump}"
    if [{"seat": s, **a.to_json()} for s, a in view.bids] != want["bids"]:
        return f"view of {viewer}: bids {view.bids} != referee {want['bids']}"
    contract = want["contract"]
    if contract is not None and contract["called"] is not None:
        played = {c for t in ref.tricks for c in t["cards"]} | {c for _s, c in ref.table}
        if contract["called"] not in played:  # the hidden partner
            contract = dict(contract, partner=None)
    if contract_of(view.contract) != contract:
        return f"view of {viewer}: contract {view.contract} != referee {contract}"
    talon = ref.talon if ref.phase != "bid" else []
    if [str(c) for c in view.talon] != talon:
        return f"view of {viewer}: talon {view.talon} != referee {talon}"
    discarder = next((s for s, a in ref.history if "discard" in a), None)
    discards = ref.discards if viewer is not None and viewer == discarder else []
    if sorted(str(c) for c in view.discards) != sorted(discards):
        return f"view of {viewer}: discards {view.discards} != referee {discards}"
    if [{"seat": s, "declare": x.letter} for s, x in view.declarations] != want["declarations"]:
        return f"view of {viewer}: declarations {view.declarations} != referee {want['declarations']}"
    if {(s, str(c)) for s, c in view.shown} != set(ref.shown):
        return f"view of {viewer}: shown {view.shown} != referee {ref.shown}"
    if any("discard" in a.to_json() for s, a in view.history if s != viewer):
        return f"view of {viewer}: another seat's discard in the history"
    return None


def contract_differs(game: Game, ref: Hand) -> str | None:
    """The contract, discards and match points of a finished hand, against the referee."""
    result = game.result()
    assert result is not None
    want = ref.summary()
    contract = getattr(game, "contract", None)
    if contract_of(contract) != want["contract"]:
        return f"contract: engine {contract} != referee {want['contract']}"
    if contract_of(result.contract) != want["contract"]:
        return f"result contract: engine {result.contract} != referee {want['contract']}"
    scores = None if result.scores is None else list(result.scores)
    if scores != want["scores"]:
        return f"scores: engine {scores} != referee {want['scores']}"
    discards = sorted(str(c) for c in getattr(game, "discards", ()))
    if discards != sorted(want["discards"]):
        return f"discards: engine {discards} != referee {want['discards']}"
    return None


@pytest.mark.parametrize(("variant", "overrides", "players"), CONFIGS)
def test_engine_agrees_with_referee(variant: str, overrides: dict[str, Any], players: int) -> None:
    games = GAMES[players]
    failures = []
    for i in range(games):
        msg = compare_one(variant, overrides, players, i * 7919 + players, views=i % 3 == 0)
        if msg is not None:
            failures.append(msg)
    assert not failures, f"{len(failures)} of {games} games differ; first: " + "\n".join(failures[:2])


# ------------------------------------------------------------------ matches

MATCH_CONFIGS = [
    pytest.param("spanish", {}, 2, id="spanish-2p"),
    pytest.param("spanish", {"big_win": True, "target_hands": 3}, 2, id="big-win-2p"),
    pytest.param("spanish", {"match": "target_points", "target_points": 250}, 4, id="target-points-4p"),
    pytest.param("mariaje", {"target_points": 200}, 2, id="mariaje-200-2p"),
    pytest.param("spanish", {"trump_rotation": True}, 2, id="rotation-2p"),
    pytest.param("spanish", {"trump_rotation": True, "match": "target_points"}, 4, id="rotation-points-4p"),
    pytest.param("briscola", {}, 2, id="briscola-replay-2p"),
    pytest.param("spanish", {"trump_rotation": True, "tie": "replay"}, 2, id="rotation-replay-2p"),
    pytest.param("spanish", {"tie": "shared", "target_hands": 1}, 3, id="tie-shared-3p"),
    pytest.param("mexican", {"big_win": True}, 3, id="mexican-3p"),
    pytest.param("mexican", {"big_win": True, "target_hands": 3}, 2, id="mexican-2p"),
    pytest.param("muerte-al-tres", {"big_win": True}, 2, id="muerte-2p"),
    pytest.param("chiamata-buia", {"target_points": 5}, 5, id="chiamata-buia-5p"),
    pytest.param("mexican", {"point_limit": 11}, 3, id="mexican-eleven-3p"),
    pytest.param("mexican", {"point_limit": 11, "teams": False}, 4, id="mexican-eleven-4p-alone"),
    pytest.param("mexican", {"point_limit": 11}, 2, id="mexican-eleven-2p"),
    pytest.param("briscola", {}, 3, id="briscola-one-hand-3p"),
    pytest.param("briscola", {"teams": False}, 4, id="briscola-one-hand-4p-alone"),
    pytest.param("briscola", {}, 4, id="briscola-two-hands-4p"),
]


def random_match(variant: str, overrides: dict[str, Any], players: int, seed: int) -> Match:
    rng = random.Random(seed)
    match = Match(variant, players, seed=rng.randrange(2**32), options=overrides, dealer=rng.randrange(players))
    while True:
        game = match.game
        while not game.is_over():
            game.apply(Action.from_json(choose([a.to_json() for a in game.legal_actions()], rng)))
        if match.is_over() or len(match.games) >= 12:
            return match
        match.next_hand()


@pytest.mark.parametrize(("variant", "overrides", "players"), MATCH_CONFIGS)
def test_matches_agree_with_referee(variant: str, overrides: dict[str, Any], players: int) -> None:
    for seed in range(25):
        match = random_match(variant, overrides, players, seed)
        data = json.loads(MatchRecord.from_match(match).dumps())
        want = replay_record(data, preset_options(variant))
        got = {"hands_won": list(match.hands_won), "match_points": list(match.points),
               "match_over": match.is_over(), "match_winner": match.winner}
        ref = {k: want[k] for k in got}
        assert got == ref, (
            f"engine {got} != referee {ref}; repro: MatchRecord.from_match(random_match({variant!r}, {overrides!r}, "
            f"{players}, {seed})) (hands {[(g.dealer, g.deal_number, g.result().reason) for g in match.games]})"  # type: ignore[union-attr]
        )
        assert [h.result().winner for h in match.games] == [h["winner"] for h in want["hands"]]  # type: ignore[union-attr]
        assert [list(h.result().shared) for h in match.games] == [h["winners"] for h in want["hands"]]  # type: ignore[union-attr]


def test_configurations_cover_every_option_value() -> None:
    """Each option that changes play is taken at each of its values by some configuration."""
    seen: dict[str, set[str]] = {}
    for p in CONFIGS:
        variant, overrides, _n = p.values
        for name, value in (preset_options(variant) | overrides).items():  # type: ignore[operator]
            seen.setdefault(name, set()).add(json.dumps(value, sort_keys=True))
    want = {
        "follow": ["none", "suit", "suit_trump", "descanso", "suit_beat_trump"],
        "follow_from": ["start", "empty_stock"],
        "trump_exchange": ["off", "after_win", "any_time", "before_penultimate"], "exchange_chain": [True, False],
        "arrastro": [True, False], "claim": [True, False], "signals": ["off", "partner", "open", "combination"],
        "signal_set": ["spanish", "italian"], "signal_asks": [True, False], "cutter": ["left", "right"],
        "deal": ["one_by_one", "alce", "golpe", "pelada", "cutter_chooses"],
        "kill_three": [True, False], "pair_bonus": [True, False], "hand_winner": ["most", "least"],
        "tie": ["draw", "replay", "most_cards", "shared"], "trump_rotation": [True, False], "deal_look": [True, False],
        "partners_look": [True, False], "open_hands": [True, False], "teams": [True, False], "deck": [40, 48],
        "last_trick_bonus": [0, 10], "big_win": [True, False], "match": ["target_hands", "target_points"],
        "call_time": ["before_play", "after_first_trick"],
    }
    for name, values in want.items():
        assert {json.dumps(v) for v in values} <= seen[name], name


def test_referee_refuses_what_it_should() -> None:
    options = preset_options("spanish") | {"arrastro": True, "signals": "partner", "claim": True, "signal_asks": True}
    deck = [str(c) for c in Game("spanish", 4, seed=11).deck]
    hand = Hand(options, 4, 3, deck)
    with pytest.raises(RefereeError, match="out of turn"):
        hand.act(1, {"play": hand.hands[1][0]})
    with pytest.raises(RefereeError):
        hand.act(0, {"claim": True})  # the stock is not empty
    with pytest.raises(RefereeError):
        hand.act(0, {"play": hand.hands[1][0]})  # not held
    lies = [s for s in SIGNALS if {"signal": s} not in hand.legal()]
    assert lies
    with pytest.raises(RefereeError):
        hand.act(0, {"signal": lies[0]})
    hand.act(0, {"signal": "ask-cards"})
    with pytest.raises(RefereeError):
        hand.act(0, {"signal": "ask-cards"})  # once a turn
