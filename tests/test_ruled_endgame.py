"""The endgame solved by the engine's own rules (:func:`~brisca.agents.kernel.ruled_worlds_choice`): in the games
the kernel does not play (every card dealt, duties to follow and beat, vales, contracts with a called partner),
worlds drawn from the seat's view are loaded into the compiled lockstep batch and each move is valued exactly
there (:meth:`Batch.solve <brisca.envs.batch.Batch.solve>`)."""

from __future__ import annotations

import random

import pytest

from brisca import Game
from brisca.agents.exact import team_of
from brisca.agents.net import reward
from brisca.agents.registry import AgentError, make_agent
from brisca.game import View

kernel = pytest.importorskip("brisca.agents.kernel")
np = pytest.importorskip("numpy")
if not kernel.enabled():  # pragma: no cover - depends on the environment
    pytest.skip(kernel.MISSING or "the kernel is switched off", allow_module_level=True)

from brisca.agents.kernel import ruled_worlds_choice  # noqa: E402
from brisca.envs.batch import Batch  # noqa: E402
from brisca.worlds import WorldSampler  # noqa: E402

#: Dealt-out games the kernel does not play: duties, the guarded 2, vales and capote; a called partner; a solo
#: contract with a talon and a hidden discard.
GAMES = [("chilean", 4), ("chiamata", 5), ("rematada", 3)]


def positions(variant: str, players: int, seed: int, cards: int) -> list[tuple[Game, View]]:
    """The positions of one game played at random where the seat to play holds at most ``cards`` cards and has a
    choice (a card or a vale)."""
    rng = random.Random(seed)
    game = Game(variant, players, seed=seed)
    out = []
    while not game.is_over():
        seat = game.turn
        assert seat is not None
        view = game.view(seat)
        if view.phase == "play" and len(view.legal_actions) > 1 and view.hand_sizes[seat] <= cards:
            out.append((game.clone(), view))
        game.apply(rng.choice(game.legal_actions()))
    return out


def python_value(game: Game, seat: int) -> float:
    """The hand played out by seats that see every card, ``seat``'s team maximising its reward and every other
    seat minimising it: plain minimax on the engine."""
    if game.is_over():
        return reward(game, seat)
    mine = team_of(game, seat)
    values = []
    for action in game.legal_actions():
        child = game.clone()
        child.apply(action)
        values.append(python_value(child, seat))
    assert game.turn is not None
    return max(values) if team_of(game, game.turn) == mine else min(values)


def loaded(game: Game) -> tuple[Batch, list[int]]:
    """A batch whose lane 0 is ``game`` (its deck, dealer and history), and the ids of its legal actions."""
    batch = Batch([game.rules], game.players, size=1)
    ids = batch.codec.ids
    history = np.array([[ids[a] for _s, a in game.history]], np.int64)
    batch.replay(np.zeros(1, np.int64), np.array([[c.index for c in game.deck]], np.int64),
                 np.array([game.dealer], np.int64), history, np.array([len(game.history)], np.int64))
    return batch, [ids[a] for a in game.legal_actions()]


def compare(game: Game, seat: int) -> int:
    """Each legal move's value from :meth:`Batch.solve` against :func:`python_value`'s; the moves compared."""
    batch, ids = loaded(game)
    values, _nodes = batch.solve([0], seat, ids)
    for j, action in enumerate(game.legal_actions()):
        child = game.clone()
        child.apply(action)
        assert values[0, j] == pytest.approx(python_value(child, seat), abs=1e-9), action
    return len(ids)


@pytest.mark.parametrize(("variant", "players"), GAMES)
def test_batch_solve_is_the_engine_s_minimax(variant: str, players: int) -> None:
    """Every move's value from the compiled alpha-beta is the plain minimax's on the engine, to the last bit of
    the reward: the same duties, vales, capote, contract and partner."""
    checked = 0
    for seed in range(6):
        for game, view in positions(variant, players, seed, 2)[:3]:
            assert view.seat is not None
            checked += compare(game, view.seat)
    assert checked >= 10


def test_batch_solve_three_cards_of_porteña() -> None:
    """Deeper: three cards each in 4-player porteña, vale windows and all."""
    checked = 0
    for seed in (3, 8):
        for game, view in positions("chilean", 4, seed, 3)[:2]:
            assert view.seat is not None
            checked += compare(game, view.seat)
    assert checked >= 4


def test_batch_solve_marks_a_move_that_is_not_legal() -> None:
    game, view = positions("chilean", 4, 1, 3)[0]
    assert view.seat is not None
    batch, ids = loaded(game)
    held = {c.index for c in view.hand}
    other = next(i for i in range(48) if i not in held and i in batch.codec.ids.values())
    values, _nodes = batch.solve([0], view.seat, [*ids, other])
    assert np.isnan(values[0, -1]) and not np.isnan(values[0, :-1]).any()


@pytest.mark.parametrize(("variant", "players"), GAMES)
def test_worlds_drawn_unchecked_fit_the_view_once_replayed(variant: str, players: int) -> None:
    """The decks a sampler draws without replaying them: those the batch's replay keeps deal the seat its own
    hand, and the seats' cards played and shown are the view's."""
    for seed in range(3):
        for _game, view in positions(variant, players, seed, 4)[:2]:
            assert view.seat is not None
            batch = Batch([view.rules], view.players, size=24)
            lanes = kernel._load_worlds(view, batch, 12, seed)
            assert lanes is not None and len(lanes)
            for lane in lanes:
                assert sorted(batch.hand(int(lane), view.seat)) == sorted(c.index for c in view.hand)
                assert batch.turn(int(lane)) == view.seat
                for s, card in view.known:
                    assert card.index in batch.hand(int(lane), s)


def test_a_sampler_draws_no_unchecked_deck_where_a_talon_was_taken() -> None:
    """Rematada's taker laid down cards the others did not see: the engine's replay places them, so its worlds
    are drawn by :meth:`WorldSampler.draw`; porteña's deck is drawn whole."""
    rematada = positions("rematada", 3, 0, 4)
    assert rematada
    for _game, view in rematada[:2]:
        assert WorldSampler(view).deck(random.Random(0)) is None
    chilean = positions("chilean", 4, 0, 4)[0][1]
    deck = WorldSampler(chilean).deck(random.Random(0))
    assert deck is not None and sorted(c.index for c in deck) == sorted(c.index for c in chilean.rules.layout(4).cards)


@pytest.mark.parametrize(("variant", "players"), GAMES)
def test_ruled_worlds_choice_is_legal_and_waits_for_the_endgame(variant: str, players: int) -> None:
    for seed in range(2):
        for _game, view in positions(variant, players, seed, 10):
            assert view.seat is not None
            choice = ruled_worlds_choice(view, 8, seed, tricks=3)
            if view.hand_sizes[view.seat] > 3:
                assert choice is None
            else:
                assert choice is not None and choice in view.legal_actions


def test_ruled_worlds_choice_keeps_the_preferred_move_among_equals() -> None:
    """Where every move is worth the same in every world (the last two cards of a trick nobody can change), the
    preferred one; and a move strictly best in every world whatever is preferred."""
    kept = forced = 0
    for seed in range(6):
        for _game, view in positions("chilean", 4, seed, 2):
            assert view.seat is not None
            batch = Batch([view.rules], view.players, size=16)
            lanes = kernel._load_worlds(view, batch, 8, seed)
            assert lanes is not None
            lanes = np.array([lane for lane in lanes if batch.turn(int(lane)) == view.seat])
            values, _nodes = batch.solve(lanes, view.seat, [batch.codec.ids[a] for a in view.legal_actions])
            mean = values.mean(axis=0)
            top = [a for a, v in zip(view.legal_actions, mean, strict=True) if v >= mean.max() - 1e-6]
            for prefer in view.legal_actions:
                choice = ruled_worlds_choice(view, 8, seed, prefer=prefer, tricks=2)
                assert choice in top
                if prefer in top:
                    assert choice == prefer
                    kept += 1
                else:
                    forced += 1
    assert kept and forced


def test_hard_solves_the_endgame_of_a_dealt_out_game_without_a_network() -> None:
    """``hard`` in porteña (no network is shipped for it): ``hard-v1``'s move, but from four cards in hand the
    move best over the worlds; it plays other moves than ``hard-v1`` there, and only there."""
    hard = make_agent("hard", seed=1)
    v1 = make_agent("hard-v1", seed=1)
    differ = 0
    for seed in range(4):
        game = Game("chilean", 4, seed=seed)
        while not game.is_over():
            assert game.turn is not None
            view = game.view(game.turn)
            move = hard.act(view)
            assert move in view.legal_actions
            if move != v1.act(view):
                assert view.hand_sizes[game.turn] <= 4
                differ += 1
            game.apply(move)
    assert differ


def test_tricks_options_checked() -> None:
    with pytest.raises(AgentError, match="tricks"):
        make_agent("hard[tricks=0]")
    with pytest.raises(AgentError, match="deeper"):
        make_agent("hard[deeper=-1]")
    agent = make_agent("hard[tricks=4,deeper=0]")
    assert agent.tricks == 4 and agent.deeper == 0  # type: ignore[attr-defined]


def test_deeper_solves_fewer_worlds_one_trick_earlier(monkeypatch: pytest.MonkeyPatch) -> None:
    """From four cards in hand ``deeper`` worlds, from three ``worlds``; past four players nothing deeper; and
    not where each world is replayed on the engine (a hidden discard)."""
    asked: list[tuple[str, int, int]] = []
    real = kernel._load_worlds

    def spy(view: View, batch: Batch, worlds: int, seed: int, replayed: bool = True) -> object:
        lanes = real(view, batch, worlds, seed, replayed)
        assert view.seat is not None
        if lanes is not None:
            asked.append((view.rules.variant, view.hand_sizes[view.seat], worlds))
        return lanes

    monkeypatch.setattr(kernel, "_load_worlds", spy)
    agent = make_agent("hard[worlds=6,deeper=3,many=4]", seed=1)
    for variant, players in (("chilean", 4), ("chiamata", 5), ("rematada", 3)):
        for seed in range(2):
            game = Game(variant, players, seed=seed)
            while not game.is_over():
                assert game.turn is not None
                game.apply(agent.act(game.view(game.turn)))
    solved = {(variant, held): w for variant, held, w in asked}
    assert solved[("chilean", 4)] == 3 and solved[("chilean", 3)] == 6
    assert solved[("chiamata", 3)] == 4 and ("chiamata", 4) not in solved
    assert solved[("rematada", 3)] == 6 and ("rematada", 4) not in solved

