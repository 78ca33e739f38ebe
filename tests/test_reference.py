"""The engine against the independent referee of ``tests/reference.py``, over thousands of random games.

For each game: the engine deals from a random deck; random legal actions are
played through :class:`brisca.Game`; at every step the referee's legal actions
must equal the engine's (as sets of strings such as ``"3O"`` and ``"x7B"``), an
illegal action must be refused by both, and at the end the referee must
reproduce the engine's trump, tricks, points and winner from the same deck and
actions.  A failure prints a reproduction: rules, dealer, deck and the actions.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from brisca import Game, IllegalActionError
from brisca.cards import ALL_CARDS
from brisca.record import summary
from reference import Referee, deck_cards, referee

CONFIGS = [
    pytest.param(players, deck48, exchange, id=f"{players}p-{48 if deck48 else 40}-{'x' if exchange else 'nox'}")
    for players in (2, 3, 4, 6)
    for deck48 in (False, True)
    for exchange in (True, False)
]
#: Games per configuration: 16 configurations, a few thousand games in all.
GAMES = {2: 500, 3: 350, 4: 250, 6: 180}
ALL_ACTIONS = [str(c) for c in ALL_CARDS] + ["x" + str(c) for c in ALL_CARDS]


def _options(deck48: bool, exchange: bool) -> dict[str, Any]:
    options: dict[str, Any] = {}
    if deck48:
        options["deck"] = 48
    if not exchange:
        options["trump_exchange"] = "off"
    return options


def _repro(players: int, dealer: int, deck: list[str], actions: list[tuple[int, str]], options: dict[str, Any]) -> str:
    return (
        f"Game('spanish', {players}, dealer={dealer}, options={options!r}, deck={' '.join(deck)!r}.split()); "
        f"actions (seat, action) = {actions}"
    )


def compare_one(players: int, deck48: bool, exchange: bool, seed: int) -> str | None:
    """Play one random game through the engine and the referee side by side; a message at the first difference."""
    rng = random.Random(seed)
    options = _options(deck48, exchange)
    dealer = rng.randrange(players)
    game = Game("spanish", players, dealer=dealer, seed=rng.randrange(2**32), options=options)
    deck = [str(c) for c in game.deck]
    ref = Referee(players, dealer, deck, deck48, exchange)
    done: list[tuple[int, str]] = []

    def fail(what: str) -> str:
        return f"seed {seed}, step {len(done)}: {what}\n  " + _repro(players, dealer, deck, done, options)

    if game.trump.letter != ref.trump or str(game.turned) != ref.turned:
        return fail(f"trump {game.trump.letter}/{game.turned} != referee {ref.trump}/{ref.turned}")
    for seat in range(players):
        if [str(c) for c in game.hand(seat)] != ref.hands[seat]:
            return fail(f"seat {seat} dealt {[str(c) for c in game.hand(seat)]} != referee {ref.hands[seat]}")
    while True:
        engine_legal = {str(a) for a in game.legal_actions()}
        referee_legal = ref.legal()
        if engine_legal != referee_legal:
            return fail(f"legal actions {sorted(engine_legal)} != referee {sorted(referee_legal)}")
        if game.turn != ref.turn:
            return fail(f"turn {game.turn} != referee {ref.turn}")
        face = game.face_up
        if (str(face) if face is not None else None) != ref.face_up:
            return fail(f"face-up {face} != referee {ref.face_up}")
        if game.is_over() != ref.over:
            return fail(f"over {game.is_over()} != referee {ref.over}")
        if game.is_over():
            break
        seat = game.turn
        assert seat is not None
        # Now and then, an action neither side may take: both must refuse it.
        if rng.random() < 0.1:
            bad = rng.choice([a for a in ALL_ACTIONS if a not in engine_legal])
            try:
                game.apply(bad)
            except IllegalActionError:
                pass
            else:
                return fail(f"the engine accepted the illegal {bad!r} for seat {seat}")
            try:
                ref.act(seat, "exchange" if bad.startswith("x") else "play", bad.lstrip("x"))
            except ValueError:
                pass
            else:
                return fail(f"the referee accepted {bad!r} for seat {seat}")
        action = rng.choice(sorted(engine_legal))
        game.apply(action)
        done.append((seat, action))
        ref.act(seat, "exchange" if action.startswith("x") else "play", action.lstrip("x"))

    # Replaying the engine's history from the deck alone reproduces the engine's outcome.
    actions = [(s, a.kind, str(a.card)) for s, a in game.history]
    out = referee(players, dealer, deck, actions, deck48, exchange)
    mine = summary(game)
    for key in ("trump", "tricks", "seat_points", "team_points", "winner"):
        if mine[key] != out[key]:
            return fail(f"{key}: engine {mine[key]!r} != referee {out[key]!r}")
    if sum(out["seat_points"]) != 120:
        return fail(f"referee points {out['seat_points']} do not add up to 120")
    return None


@pytest.mark.parametrize(("players", "deck48", "exchange"), CONFIGS)
def test_engine_agrees_with_referee(players: int, deck48: bool, exchange: bool) -> None:
    failures = []
    for seed in range(GAMES[players]):
        msg = compare_one(players, deck48, exchange, seed * 1000 + players * 10 + deck48 * 2 + exchange)
        if msg is not None:
            failures.append(msg)
    assert not failures, f"{len(failures)} of {GAMES[players]} games differ; first: " + "\n".join(failures[:2])


def test_referee_deck_sizes() -> None:
    assert [len(deck_cards(n)) for n in (2, 3, 4, 6)] == [40, 39, 40, 36]
    assert [len(deck_cards(n, deck48=True)) for n in (2, 3, 4, 6)] == [48, 48, 48, 48]
    assert "2O" not in deck_cards(3) and "2C" in deck_cards(3)
    assert not [c for c in deck_cards(6) if c.startswith("2")]
    for n in (2, 3, 4, 6):
        for d48 in (False, True):
            assert sorted(str(c) for c in Game("spanish", n, options={"deck": 48} if d48 else None).deck) == sorted(
                deck_cards(n, d48)
            )


def test_referee_refuses_illegal_records() -> None:
    deck = [str(c) for c in Game("spanish", 2, seed=5).deck]
    held = deck[0]  # seat 0 (after dealer 1) holds the top card
    with pytest.raises(ValueError, match="action 0"):
        referee(2, 1, deck, [(1, "play", deck[1])])  # out of turn
    with pytest.raises(ValueError, match="action 1"):
        referee(2, 1, deck, [(0, "play", held), (1, "play", held)])  # not held
    with pytest.raises(ValueError):
        referee(2, 1, deck[:-1], [])  # a card short
