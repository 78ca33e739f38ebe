"""The sampled-worlds endgame (``net[endgame=worlds]``): once the stock is gone, the move worth most over worlds
drawn from the seat's view, each solved exactly with partners as a side, at any number of players."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path
from typing import Any

import pytest

from brisca import Game
from brisca.agents.exact import solve, team_of
from brisca.agents.registry import make_agent
from brisca.game import View

kernel = pytest.importorskip("brisca.agents.kernel")
pytest.importorskip("numpy")
if not kernel.enabled():  # pragma: no cover - depends on the environment
    pytest.skip(kernel.MISSING or "the kernel is switched off", allow_module_level=True)

from brisca.agents.kernel import endgame_worlds, worlds_choice  # noqa: E402

GAMES = [("briscola", 4), ("spanish", 4), ("briscola", 3), ("spanish", 6)]


def endgame_views(variant: str, players: int, seed: int, cards: int | None = None) -> list[tuple[Game, View]]:
    """The positions after the stock of one random game with a choice to make (at most ``cards`` in the hand)."""
    rng = random.Random(seed)
    game = Game(variant, players, seed=seed)
    out = []
    while not game.is_over():
        seat = game.turn
        assert seat is not None
        view = game.view(seat)
        if (not view.stock_count and view.phase == "play" and len(view.legal_actions) > 1
                and (cards is None or len(view.hand) <= cards)):
            out.append((game.clone(), view))
        game.apply(rng.choice(game.legal_actions()))
    return out


@pytest.mark.parametrize(("variant", "players"), GAMES)
def test_worlds_choice_is_legal(variant: str, players: int) -> None:
    for seed in range(3):
        for _game, view in endgame_views(variant, players, seed):
            choice = worlds_choice(view, 30, seed)
            assert choice is not None and choice in view.legal_actions


def test_worlds_choice_nothing_before_the_stock_is_gone() -> None:
    game = Game("briscola", 4, seed=1)
    view = game.view(game.turn)
    assert view.stock_count and worlds_choice(view, 30) is None
    assert endgame_worlds(view, 5) == []


@pytest.mark.parametrize(("variant", "players"), GAMES)
def test_worlds_never_deal_a_card_seen_elsewhere(variant: str, players: int) -> None:
    for seed in range(3):
        for _game, view in endgame_views(variant, players, seed):
            seat = view.seat
            assert seat is not None
            unseen = set(view.unseen_cards())
            worlds = endgame_worlds(view, 20, seed)
            assert worlds
            for world in worlds:
                assert sorted(world.hand(seat)) == sorted(view.hand)
                assert tuple(world.trick) == view.trick
                for s in range(players):
                    if s == seat:
                        continue
                    hand = set(world.hand(s))
                    assert len(hand) == view.hand_sizes[s]
                    shown = {c for k, c in view.known if k == s}
                    assert shown <= hand  # a card the seat was shown is where it was shown
                    assert hand - shown <= unseen  # the rest from the cards it has not seen


def test_worlds_choice_reads_the_view_not_the_game() -> None:
    """Two games that differ in the hidden hands but give the seat the same view give the same choice."""
    checked = 0
    for seed in range(4):
        for _game, view in endgame_views("briscola", 4, seed):
            other = endgame_worlds(view, 1, seed + 99)[0]  # a game with other hidden hands, the same view
            seen = other.view(view.seat)
            assert dataclasses.replace(seen, known=tuple(sorted(seen.known))) == dataclasses.replace(
                view, known=tuple(sorted(view.known)))  # (the cards shown are listed in the hand's order)
            assert worlds_choice(seen, 40, 7) == worlds_choice(view, 40, 7)
            checked += 1
    assert checked


def test_worlds_choice_reproducible_for_a_seed() -> None:
    for _game, view in endgame_views("spanish", 4, 5):
        hands = [[w.hand(s) for s in range(4)] for w in endgame_worlds(view, 10, 3)]
        assert hands == [[w.hand(s) for s in range(4)] for w in endgame_worlds(view, 10, 3)]
        assert worlds_choice(view, 25, 3) == worlds_choice(view, 25, 3)
    a = make_agent("net[endgame=worlds,worlds=20]", seed=4)
    b = make_agent("net[endgame=worlds,worlds=20]", seed=4)
    for agent in (a, b):
        game = Game("spanish", 4, seed=12)
        moves = []
        while not game.is_over():
            move = agent.act(game.view(game.turn))
            moves.append(move)
            game.apply(move)
        if agent is a:
            first = moves
    assert moves == first


def python_values(view: View, worlds: list[Game]) -> list[float]:
    """Each legal action's mean exact value over ``worlds`` by the pure-Python alpha-beta."""
    assert view.seat is not None
    side = team_of(worlds[0], view.seat)
    totals = [0.0] * len(view.legal_actions)
    for world in worlds:
        for i, action in enumerate(view.legal_actions):
            child = world.clone()
            child.apply(action)
            totals[i] += solve(child, side)
    return [t / len(worlds) for t in totals]


@pytest.mark.parametrize(("variant", "players"), [("briscola", 4), ("spanish", 4), ("briscola", 3)])
def test_worlds_choice_agrees_with_the_python_search(variant: str, players: int) -> None:
    """The compiled average over the worlds is the pure-Python alpha-beta's, with partners as a side: the card
    chosen is one the Python search values best over the same worlds."""
    checked = 0
    for seed in range(4):
        for _game, view in endgame_views(variant, players, seed, cards=2):
            worlds = endgame_worlds(view, 12, seed)
            values = python_values(view, worlds)
            choice = worlds_choice(view, 12, seed)
            assert choice is not None
            assert values[view.legal_actions.index(choice)] >= max(values) - 1e-9
            checked += 1
    assert checked


def test_worlds_choice_plays_the_card_best_in_every_world() -> None:
    """Positions where one card is strictly best in every world drawn: it is chosen, even against the network's
    preference for another."""
    checked = 0
    for seed in range(12):
        for _game, view in endgame_views("briscola", 4, seed, cards=2):
            assert view.seat is not None
            worlds = endgame_worlds(view, 12, seed)
            side = team_of(worlds[0], view.seat)
            best: set[int] = set()
            for world in worlds:
                vals = []
                for action in view.legal_actions:
                    child = world.clone()
                    child.apply(action)
                    vals.append(solve(child, side))
                top = max(vals)
                if sum(v >= top - 1e-9 for v in vals) > 1:
                    best.add(-1)
                best.add(vals.index(top))
            if len(best) != 1 or -1 in best:
                continue
            i = best.pop()
            for prefer in view.legal_actions:
                assert worlds_choice(view, 12, seed, prefer=prefer) == view.legal_actions[i]
            checked += 1
    assert checked >= 3


def test_worlds_choice_keeps_the_preferred_move_among_equals() -> None:
    """The last trick's choice where every card is worth the same in every world: the preferred one."""
    for seed in range(6):
        for _game, view in endgame_views("briscola", 4, seed, cards=2):
            worlds = endgame_worlds(view, 8, seed)
            values = python_values(view, worlds)
            equal = [a for a, v in zip(view.legal_actions, values, strict=True) if v >= max(values) - 1e-9]
            for prefer in equal:
                assert worlds_choice(view, 8, seed, prefer=prefer) == prefer


def test_net_agent_worlds_endgame_plays_whole_games() -> None:
    agent = make_agent("net[endgame=worlds,worlds=16]", seed=1)
    for seed in range(3):
        game = Game("spanish", 4, seed=seed)
        while not game.is_over():
            view = game.view(game.turn)
            move = agent.act(view)
            assert move in view.legal_actions
            game.apply(move)


def test_net_agent_worlds_endgame_without_the_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the kernel is off the network's own move is played: legal, and no error."""
    monkeypatch.setenv("BRISCA_KERNEL", "0")
    net = make_agent("net", seed=1)
    agent = make_agent("net[endgame=worlds,worlds=16]", seed=1)
    for _game, view in endgame_views("spanish", 4, 2):
        assert worlds_choice(view, 16) is None
        assert agent.act(view) == net.act(view)


def test_net_agent_endgame_option_checked() -> None:
    with pytest.raises(ValueError, match="endgame"):
        make_agent("net[endgame=sampled]")
    assert make_agent("net[endgame=worlds,worlds=7]").worlds == 7  # type: ignore[attr-defined]


def test_few_worlds_are_each_dealt_once() -> None:
    """Where the deals of the unseen cards are at most the count asked (four-player briscola shows the partner's
    hand at the end: two hidden hands), every one is dealt, each once."""
    checked = 0
    for seed in range(3):
        for _game, view in endgame_views("briscola", 4, seed):
            worlds = endgame_worlds(view, 100, seed)
            deals = {tuple(tuple(sorted(w.hand(s))) for s in range(4)) for w in worlds}
            assert len(deals) == len(worlds)
            if len(worlds) < 100:
                assert deals == {tuple(tuple(sorted(w.hand(s))) for s in range(4))
                                 for w in endgame_worlds(view, 100, seed + 1)}
                checked += 1
    assert checked


def test_worlds_honour_the_duties_after_the_stock() -> None:
    """Spanish with the arrastre (follow and beat once the stock is gone): a seat that did not follow the suit led
    after the stock holds none of it in any world; the kernel does not play these duties, so the choice is left to
    the caller (``None``), and nothing raises."""
    options = {"follow": "suit_beat_trump", "follow_from": "empty_stock"}
    checked = 0
    for seed in range(4):
        rng = random.Random(seed)
        game = Game("spanish", 4, seed=seed, options=options)
        while not game.is_over():
            view = game.view(game.turn)
            if not view.stock_count and view.phase == "play" and len(view.legal_actions) > 1:
                assert worlds_choice(view, 10, seed) is None
                after = view.tricks[7:]  # (28 cards in the stock: drawn after each of the first 7 tricks)
                void = {(t.seat_of(i, 4), t.cards[0].suit) for t in after for i, c in enumerate(t.cards)
                        if i and c.suit != t.cards[0].suit}
                for world in endgame_worlds(view, 10, seed):
                    for seat, suit in void:
                        if seat != view.seat:
                            assert all(c.suit != suit for c in world.hand(seat))
                            checked += 1
            game.apply(rng.choice(game.legal_actions()))
    assert checked


def test_net_agent_solves_its_many_worlds_past_four_players(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``many``: at five players or more (each world's tree tens of times a 4-player one's) the endgame solves that
    many worlds, ``worlds`` at four or fewer; by default ``worlds`` everywhere."""
    from brisca.agents import kernel as kernel_module
    from brisca.agents.net import Net
    from brisca.learn.network import init_arrays, shape

    for players in (4, 6):
        path = tmp_path / f"net{players}.npz"
        Net(init_arrays(*shape(["spanish"], players), 16, players), {"presets": ["spanish"],
                                                                     "players": players}).save(path)
    asked: list[tuple[int, int]] = []
    real = kernel_module.worlds_choice

    def spy(view: View, worlds: int = 200, seed: int = 0, prefer: Any = None, tricks: int = 3,
            deeper: int = 0) -> Any:
        asked.append((view.players, worlds))
        return real(view, worlds, seed, prefer, tricks, deeper)

    monkeypatch.setattr(kernel_module, "worlds_choice", spy)
    for spec, want in (("net[endgame=worlds,worlds=20,many=8,weights={}]", {4: 20, 6: 8}),
                       ("net[endgame=worlds,worlds=20,weights={}]", {4: 20, 6: 20})):
        for players in (4, 6):
            asked.clear()
            agent = make_agent(spec.format(tmp_path / f"net{players}.npz"), seed=2)
            game = Game("spanish", players, seed=5)
            while not game.is_over():
                move = agent.act(game.view(game.turn))
                game.apply(move)
            assert asked and set(asked) == {(players, want[players])}
