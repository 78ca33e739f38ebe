"""The single-agent Gymnasium environment: Gymnasium's own env_checker for every preset, and more."""

from __future__ import annotations

import random
import warnings
from typing import Any

import pytest

from brisca import find_variant, variant_names
from brisca.actions import Action
from brisca.game import View

gymnasium = pytest.importorskip("gymnasium")
np = pytest.importorskip("numpy")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from brisca.envs import gymnasium as bg  # noqa: E402
from brisca.envs import hand_returns  # noqa: E402

#: Every preset at its smallest and largest player count.
PRESETS = [(name, n) for name in variant_names()
           for n in sorted({min(find_variant(name).player_counts), max(find_variant(name).player_counts)})]


@pytest.mark.parametrize(("preset", "players"), PRESETS, ids=[f"{p}-{n}" for p, n in PRESETS])
@pytest.mark.parametrize("kwargs", [{}, {"mask_in_observation": True, "reward": "dense", "opponents": "greedy"}],
                         ids=["vector", "dict"])
def test_gymnasium_env_checker(preset: str, players: int, kwargs: dict[str, Any], capsys: Any) -> None:
    env = gymnasium.make(f"brisca/{preset}-v0", players=players, **kwargs)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped)  # with its spec, so the render modes are checked too
    env.close()


def test_registered_with_gymnasium() -> None:
    assert set(bg.ENV_IDS) <= set(gymnasium.registry)
    env = gymnasium.make("brisca/bixkla-v0")
    assert env.unwrapped.players == 4
    env = gymnasium.make("brisca/brisca-v0", preset="mariaje", players=3)
    assert env.unwrapped.rules.variant == "mariaje" and env.unwrapped.players == 3


class FirstLegal:
    """An agent object (not a name): plays its first legal action."""

    def act(self, view: View) -> Action:
        return view.legal_actions[0]


@pytest.mark.parametrize("reward", ["win", "points", "dense"])
@pytest.mark.parametrize(("preset", "players", "opponents"), [
    ("spanish", 2, "random"), ("bixkla", 4, "greedy"), ("mexican", 6, "random"), ("briscola", 3, None),
])
def test_hands_against_agents(preset: str, players: int, opponents: str | None, reward: str) -> None:
    opp: Any = [FirstLegal(), "greedy"] if opponents is None else opponents
    env = bg.BriscaEnv(preset, players, opponents=opp, reward=reward)
    rng = random.Random(3)
    obs, info = env.reset(seed=3)
    seats = set()
    for _hand in range(15):
        total = 0.0
        seats.add(env.seat)
        while True:
            assert env.observation_space.contains(obs)
            game = env.game
            assert game is not None and game.turn == env.seat
            legal = np.flatnonzero(info["action_mask"]).tolist()
            assert legal == sorted(env.codec.encode(a) for a in game.legal_actions())
            assert np.array_equal(env.action_masks(), info["action_mask"].astype(bool))
            obs, r, term, trunc, info = env.step(rng.choice(legal))
            total += r
            assert not trunc
            if term:
                break
        expected = hand_returns(game, "points" if reward == "dense" else reward)[env.seat]
        assert total == pytest.approx(expected)
        assert info["won"] == (game.result().winner == game.side_of(env.seat))  # type: ignore[union-attr]
        assert not info["action_mask"].any()
        obs, info = env.reset()
    assert len(seats) > 1  # seat=None draws the learner's seat


def test_seeded_episodes_replay() -> None:
    def run(seed: int) -> list[Any]:
        env = bg.BriscaEnv("spanish", 2, opponents="random")
        obs, info = env.reset(seed=seed)
        out: list[Any] = [obs.tobytes()]
        rng = random.Random(0)
        for _ in range(3):
            done = False
            while not done:
                obs, r, done, _t, info = env.step(rng.choice(np.flatnonzero(info["action_mask"]).tolist()))
                out.append((obs.tobytes(), r))
            obs, info = env.reset()
        return out

    assert run(1) == run(1) and run(1) != run(2)


def test_fixed_seat_and_illegal_actions() -> None:
    env = bg.BriscaEnv("spanish", 4, seat=2, opponents=["greedy", "random", "greedy"])
    _obs, info = env.reset(seed=0)
    assert env.seat == 2
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _obs, r, term, _trunc, info = env.step(illegal)
    assert term and r == -1.0 and info["illegal"]
    raising = bg.BriscaEnv("spanish", 2, illegal="raise")
    _obs, info = raising.reset(seed=0)
    with pytest.raises(ValueError, match="illegal"):
        raising.step(int(np.flatnonzero(info["action_mask"] == 0)[0]))
    with pytest.raises(ValueError, match="opponent"):
        bg.BriscaEnv("spanish", 3, opponents=["random"])
    with pytest.raises(ValueError, match="seat"):
        bg.BriscaEnv("spanish", 2, seat=2)


def test_render_text() -> None:
    env = bg.BriscaEnv(render_mode="ansi")
    env.reset(seed=1)
    assert "seat" in str(env.render())
