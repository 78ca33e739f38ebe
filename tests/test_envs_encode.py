"""The action space and the observation encoders of brisca.envs, and the leak test.

The leak test: permuting every card a seat cannot see (in a clone's internals,
with ``shuffle_hidden``) must leave that seat's encoding, information-state
encoding and legal-action mask exactly as they were.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from brisca import Game, find_variant, variant_names
from brisca.actions import ARRASTROS, CLAIM, EXCHANGES, PLAYS, SIGNAL_SETS, Signal
from brisca.envs import actions as actions_mod
from brisca.envs import hand_returns, return_bounds, step_rewards
from brisca.envs.actions import CORE_BLOCKS, CORE_SIZE, ActionCodec, register_block

np = pytest.importorskip("numpy")

from brisca.envs.encode import ObservationEncoder, cue_size, cues, hidden_cards, shuffle_hidden  # noqa: E402

#: Every preset at its smallest and largest player count, and option mixtures beyond the presets.
CONFIGS: list[tuple[str, int, dict[str, Any]]] = [
    *((name, n, {}) for name in variant_names()
      for n in sorted({min(find_variant(name).player_counts), max(find_variant(name).player_counts)})),
    ("spanish", 4, {"signals": "open", "arrastro": True, "follow": "suit_beat_trump"}),
    ("spanish", 6, {"signals": "partner", "deal_look": True, "kill_three": True}),
    ("spanish", 3, {"claim": True, "last_trick_bonus": 10, "pair_bonus": True, "deck": 48}),
    ("briscola", 4, {"claim": True, "signals": "open", "trump_exchange": "any_time"}),
    ("spanish", 2, {"trump_rotation": True, "follow": "suit_trump", "follow_from": "empty_stock"}),
    ("scoperta", 4, {"signals": "open", "trump_exchange": "before_penultimate"}),
    ("spanish", 2, {"trump_exchange": "announced"}),
    ("spanish", 4, {"trump_exchange": "announced", "exchange_chain": False, "kill_three": True}),
    ("spanish", 3, {"trump_exchange": "out_of_turn"}),
]
IDS = [f"{p}-{n}{'-' + '-'.join(o) if o else ''}" for p, n, o in CONFIGS]


def random_states(preset: str, players: int, options: dict[str, Any], seed: int, hands: int = 3) -> list[Game]:
    """Clones of every state of a few random hands (about 40 per hand)."""
    rng = random.Random(seed)
    out: list[Game] = []
    for _ in range(hands):
        game = Game(preset, players, options=options, seed=rng.randrange(2**32), dealer=rng.randrange(players))
        while not game.is_over():
            out.append(game.clone())
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
        out.append(game)
    return out


# ------------------------------------------------------------------- actions


def test_core_layout_is_fixed() -> None:
    codec = ActionCodec.for_rules("spanish", 2)
    assert codec.size == CORE_SIZE == 111
    assert [(b.name, b.start, b.size) for b in codec.blocks] == [
        ("play", 0, 48), ("exchange", 48, 48), ("arrastro", 96, 4), ("claim", 100, 1), ("signal", 101, 10)
    ]
    for i in range(48):
        assert codec.decode(i) is PLAYS[i] and codec.encode(PLAYS[i]) == i
        assert codec.decode(48 + i) is EXCHANGES[i]
    assert [codec.decode(96 + s).card.index for s in range(4)] == [0, 12, 24, 36]  # type: ignore[attr-defined]
    assert codec.decode(100) is CLAIM
    assert [codec.decode(101 + i) for i in range(10)] == [Signal(name) for name in SIGNAL_SETS["spanish"]]
    with pytest.raises(IndexError):
        codec.decode(-1)
    with pytest.raises(IndexError):
        codec.decode(111)
    with pytest.raises(KeyError):
        codec.encode(ARRASTROS[1])  # only aces lead with arrastro


@pytest.mark.parametrize(("preset", "players", "options"), CONFIGS, ids=IDS)
def test_every_legal_action_has_an_id(preset: str, players: int, options: dict[str, Any]) -> None:
    rules = find_variant(preset).with_options(options)
    codec = ActionCodec.for_rules(rules, players)
    # The core ids are the same for every configuration; only auctions, declarations, the cutter's choice and
    # signals beyond the core ten (002's high card, signals said aloud) add blocks after them.
    assert [(b.name, b.start, b.size) for b in codec.blocks[:5]] == [
        ("play", 0, 48), ("exchange", 48, 48), ("arrastro", 96, 4), ("claim", 100, 1), ("signal", 101, 10)
    ]
    signalling = rules.signals != "off" and rules.sides(players) < players
    extended = (rules.auction or rules.declarations != "off" or rules.deal == "cutter_chooses"
                or (signalling and (rules.signal_set != "spanish" or rules.signals == "combination"))
                or rules.trump_exchange == "announced")
    assert (codec.size == 111) != extended
    for game in random_states(preset, players, options, seed=1, hands=2):
        ids = codec.encode_all(game.legal_actions())
        assert ids == sorted(set(ids))
        assert [codec.decode(i) for i in ids] == sorted(game.legal_actions(), key=codec.encode)


def test_extension_blocks_append_after_the_core(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(actions_mod, "_EXTENSIONS", [])
    extra = (Signal("ask-points"),)  # stands in for a later issue's auction actions
    register_block("bid", lambda rules, players: extra if players == 4 else None, "bids")
    with pytest.raises(ValueError, match="already registered"):
        register_block("bid", lambda rules, players: None)
    assert ActionCodec.for_rules("spanish", 2).size == 111
    with pytest.raises(ValueError, match="twice"):
        ActionCodec.for_rules("spanish", 4)  # an action may appear once only
    fresh = ActionCodec([*CORE_BLOCKS[:1], ("bid", (CLAIM,), "bids")])
    assert fresh.block("bid").start == 48 and fresh.encode(CLAIM) == 48 and fresh.size == 49


# ------------------------------------------------------------------- rewards


@pytest.mark.parametrize(("preset", "players", "options"), CONFIGS, ids=IDS)
def test_rewards_are_zero_sum_and_dense_adds_up(preset: str, players: int, options: dict[str, Any]) -> None:
    rng = random.Random(5)
    rules = find_variant(preset).with_options(options)
    for _ in range(20):
        game = Game(rules, players, seed=rng.randrange(2**32))
        total = [0.0] * players
        while not game.is_over():
            before = game.side_points
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
            paid = step_rewards(game, "dense", before)
            if paid is not None:
                total = [t + p for t, p in zip(total, paid, strict=True)]
        points = hand_returns(game, "points")
        assert total == pytest.approx(points)
        for mode in ("win", "points"):
            returns = hand_returns(game, mode)
            assert sum(returns) == pytest.approx(0.0)
            low, high = return_bounds(rules, players, mode)
            assert all(low - 1e-9 <= r <= high + 1e-9 for r in returns)
        result = game.result()
        assert result is not None
        win = hand_returns(game, "win")
        if result.scores is not None:
            # A contract: the team that won (made or set it) gains, the other loses.
            contract = result.contract
            if contract is None:
                assert win == (0.0,) * players and set(result.scores) == {0}
                continue
            team = contract.side()
            made = result.reason == "made"
            assert all((w > 0) == ((s in team) == made) for s, w in enumerate(win))
            won = [v for w, v in zip(win, result.scores, strict=True) if w > 0]
            lost = [v for w, v in zip(win, result.scores, strict=True) if w < 0]
            assert won and lost and min(won) > max(lost)  # the winners scored more match points
        elif result.winner is None:
            assert win == (0.0,) * players
        else:
            assert all((w == 1.0) == (game.side_of(s) == result.winner) for s, w in enumerate(win))


# ------------------------------------------------------------------ encoders


@pytest.mark.parametrize(("preset", "players", "options"), CONFIGS, ids=IDS)
def test_encoding_is_in_bounds_and_masks_the_legal_actions(preset: str, players: int, options: dict[str, Any]) -> None:
    rules = find_variant(preset).with_options(options)
    enc = ObservationEncoder(rules, players)
    assert sum(f.size for f in enc.fields) == enc.size
    assert enc.fields[-1].offset + enc.fields[-1].size == enc.size
    out = np.zeros(enc.size, np.float32)
    for game in random_states(preset, players, options, seed=2, hands=2):
        for seat in range(players):
            view = game.view(seat)
            vec = enc.encode(view)
            assert vec.dtype == np.float32 and vec.shape == (enc.size,)
            assert vec.min() >= 0.0 and vec.max() <= 1.0
            assert np.array_equal(enc.encode(view, out), vec)  # into a preallocated array
            parts = enc.split(vec)
            assert {c.index for c in view.hand} == set(np.flatnonzero(parts["hand"]).tolist())
            assert parts["turn"].sum() == (0 if game.is_over() else 1)
            mask = enc.mask(view)
            legal = {enc.codec.encode(a) for a in game.legal_actions()} if game.turn == seat else set()
            assert set(np.flatnonzero(mask).tolist()) == legal
        spectator = enc.encode(game.view(None), seat=0)
        assert not enc.split(spectator)["hand"].any()


def test_field_layout_for_four_players() -> None:
    enc = ObservationEncoder("spanish", 4)
    shapes = {f.name: f.shape for f in enc.fields}
    assert shapes["known"] == (3, 48) and shapes["trick"] == (4, 48) and shapes["captured"] == (2, 48)
    assert shapes["signals_trick"] == (4, 10) and "order" not in shapes
    assert ObservationEncoder("spanish", 4, history=True).field("order").shape == (48,)
    game = Game("spanish", 4, seed=11)
    game.apply(game.legal_actions()[0])  # seat 0 leads
    parts = enc.split(enc.encode(game.view(1)))
    assert parts["trick"][3].any() and not parts["trick"][:3].any()  # seat 0 is three seats after seat 1
    assert parts["turn"].tolist() == [1, 0, 0, 0] and parts["leader"].tolist() == [0, 0, 0, 1]
    assert parts["partners"].tolist() == [1, 0, 1, 0]


def test_history_plane_orders_the_cards_played() -> None:
    enc = ObservationEncoder("spanish", 2, history=True)
    game = Game("spanish", 2, seed=4)
    played = []
    for _ in range(5):
        action = game.legal_actions()[0]
        if action in PLAYS:
            played.append(action.card.index)  # type: ignore[attr-defined]
        game.apply(action)
    order = enc.split(enc.encode(game.view(0)))["order"]
    assert [round(float(order[i]) * 40) for i in played] == list(range(1, len(played) + 1))


# ------------------------------------------------------------------ the leak test


@pytest.mark.parametrize(("preset", "players", "options"), CONFIGS, ids=IDS)
def test_encodings_never_depend_on_hidden_cards(preset: str, players: int, options: dict[str, Any]) -> None:
    rules = find_variant(preset).with_options(options)
    plain, recall = ObservationEncoder(rules, players), ObservationEncoder(rules, players, history=True)
    rng = random.Random(9)
    moved = 0
    for game in random_states(preset, players, options, seed=3):
        for seat in [*range(players), None]:
            if not hidden_cards(game, seat):
                continue
            other = shuffle_hidden(game, seat, rng)
            moved += other._hands != game._hands or other._stock != game._stock
            a, b = game.view(seat), other.view(seat)
            ref = 0 if seat is None else seat
            assert np.array_equal(plain.encode(a, seat=ref), plain.encode(b, seat=ref))
            assert np.array_equal(recall.encode(a, seat=ref), recall.encode(b, seat=ref))
            assert np.array_equal(plain.mask(a), plain.mask(b))
            assert np.array_equal(cues(a), cues(b))
    assert moved  # the permutations did move hidden cards


def test_shuffle_hidden_keeps_what_the_seat_sees() -> None:
    game = Game("spanish", 4, seed=8)
    for _ in range(9):
        game.apply(game.legal_actions()[0])
    other = shuffle_hidden(game, 1, random.Random(1))
    assert other.hand(1) == game.hand(1) and other.face_up == game.face_up
    assert [len(other.hand(s)) for s in range(4)] == [len(game.hand(s)) for s in range(4)]
    assert sorted(c for s in range(4) for c in other.hand(s)) + sorted(other.stock()) != []
    assert sorted([*other.stock(), *(c for s in (0, 2, 3) for c in other.hand(s))]) == sorted(
        [*game.stock(), *(c for s in (0, 2, 3) for c in game.hand(s))]
    )


# ------------------------------------------------------------ dealt-out games


def _advance(game: Game, rng: random.Random, until: Any) -> Game:
    while not game.is_over() and not until(game):
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
    return game


def test_auction_fields_show_what_is_public_and_nothing_more() -> None:
    enc = ObservationEncoder("rematada", 3)
    rng = random.Random(1)
    game = Game("rematada", 3, seed=4)
    parts = enc.split(enc.encode(game.view(0)))
    assert parts["phase"].tolist() == [1, 0, 0, 0, 0] and not parts["talon"].any() and not parts["trump"].any()
    _advance(game, rng, lambda g: g.phase == "discard")
    declarer = game.turn
    assert declarer is not None
    game.apply(game.legal_actions()[0])  # the discard
    for seat in range(3):
        parts = enc.split(enc.encode(game.view(seat)))
        assert parts["phase"].tolist() == [0, 0, 1, 0, 0]
        assert set(np.flatnonzero(parts["talon"]).tolist()) == {c.index for c in game.talon}  # type: ignore[attr-defined]
        assert parts["declarer"][(declarer - seat) % 3] == 1 and parts["declarer"].sum() == 1
        mine = {c.index for c in game.discards} if seat == declarer else set()  # type: ignore[attr-defined]
        assert set(np.flatnonzero(parts["discards"]).tolist()) == mine
        assert parts["hand_sizes"].max() <= 1.0

    enc = ObservationEncoder("chiamata", 5)
    for seed in range(10):
        game = _advance(Game("chiamata", 5, seed=seed), random.Random(seed), lambda g: g.phase == "play")
        if game.is_over():
            continue
        called = game.contract.called  # type: ignore[attr-defined]
        partner = game.contract.partner  # type: ignore[attr-defined]
        for seat in range(5):
            parts = enc.split(enc.encode(game.view(seat)))
            assert np.flatnonzero(parts["called"]).tolist() == [called.index]
            assert not parts["partner"].any()  # hidden until the called card is played
        _advance(game, random.Random(seed), lambda g, c=called: c in g.view(None).played_cards())
        if game.is_over():
            continue
        parts = enc.split(enc.encode(game.view(0)))
        assert np.flatnonzero(parts["partner"]).tolist() == [(partner - 0) % 5]


def test_shuffle_hidden_moves_the_talon_and_the_discards() -> None:
    """The leak test's permutations reach the face-down talon (auction) and another seat's discards."""
    rng = random.Random(3)
    talon_moved = discards_moved = 0
    for seed in range(20):
        game = Game("rematada", 3, seed=seed)
        other = shuffle_hidden(game, 0, rng)
        talon_moved += other.talon != game.talon  # type: ignore[attr-defined]
        _advance(game, random.Random(seed), lambda g: g.phase == "play")
        declarer = game.contract.declarer  # type: ignore[attr-defined]
        seat = (declarer + 1) % 3
        other = shuffle_hidden(game, seat, rng)
        if other.discards != game.discards:  # type: ignore[attr-defined]
            discards_moved += 1
            assert other.view(seat) == game.view(seat)  # the defender's view is the same
            assert other.view(declarer) != game.view(declarer)
        assert shuffle_hidden(game, declarer, rng).discards == game.discards  # type: ignore[attr-defined]
    assert talon_moved >= 15 and discards_moved >= 15


# ------------------------------------------------------------------ the cues


def test_cues_read_the_trick_and_the_cards_out() -> None:
    """Beats the trick now, highest of its suit still out, and nothing out can take it (no trump out or a trump),
    checked against a count done by hand over the cards out."""
    checked = {"wins": 0, "top": 0, "safe": 0}
    for game in random_states("spanish", 2, {}, seed=11, hands=6):
        if game.is_over():
            continue
        seat = game.turn
        assert seat is not None
        view = game.view(seat)
        got = cues(view)
        assert got.shape == (cue_size(2),) and set(np.unique(got).tolist()) <= {0.0, 1.0}
        wins, top, safe, taking = got[:48], got[48:96], got[96:144], got[144:]
        rules, trump = view.rules, view.trump
        order = rules.strength_table
        seen = {c for t in view.tricks for c in t.cards} | set(view.trick) | set(view.hand)
        out = [c for c in rules.deck_cards(2) if c not in seen]
        held = {c.index for c in view.hand}
        assert all(k in held for k in np.flatnonzero(got[:144].reshape(3, 48).max(0)))  # only the seat's own cards
        for c in view.hand:
            k = c.index
            above = [o for o in out if o.suit == c.suit and order[o.index] > order[k]]
            assert top[k] == (not above)
            trumps_out = [o for o in out if o.suit == trump]
            assert safe[k] == (not above and (c.suit == trump or not trumps_out))
            if view.trick:
                lead = view.trick[0]
                best = max((x for x in view.trick if x.suit == trump), key=lambda x: order[x.index], default=None) \
                    or max((x for x in view.trick if x.suit == lead.suit), key=lambda x: order[x.index])
                beats = (c.suit == best.suit and order[k] > order[best.index]) or (c.suit == trump != best.suit)
                assert wins[k] == beats
                taker = (view.leader + view.trick.index(best)) % 2
                assert taking.tolist() == [float(taker == seat), float(taker != seat)]
            else:
                assert wins[k] == 0 and not taking.any()
            for name, plane in (("wins", wins), ("top", top), ("safe", safe)):
                checked[name] += int(plane[k])
    assert min(checked.values()) > 10  # every plane was set somewhere
