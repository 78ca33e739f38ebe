"""The PettingZoo AEC environment: PettingZoo's own API, seed and render tests for every preset, and more."""

from __future__ import annotations

import random
import warnings
from typing import Any

import pytest

from brisca import Game, find_variant, variant_names

np = pytest.importorskip("numpy")
pettingzoo = pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, render_test, seed_test  # noqa: E402

from brisca.envs import hand_returns  # noqa: E402
from brisca.envs import pettingzoo as bz  # noqa: E402

#: Every preset at every player count, and option mixtures beyond the presets.
CONFIGS: list[tuple[str, int, dict[str, Any]]] = [
    *((name, n, {}) for name in variant_names() for n in find_variant(name).player_counts),
    ("spanish", 4, {"signals": "open", "arrastro": True, "follow": "suit_beat_trump"}),
    ("spanish", 6, {"signals": "partner", "deal_look": True, "kill_three": True}),
    ("spanish", 3, {"claim": True, "last_trick_bonus": 10, "pair_bonus": True, "deck": 48}),
    ("spanish", 2, {"trump_rotation": True, "follow": "suit_trump"}),
]
IDS = [f"{p}-{n}{'-' + '-'.join(o) if o else ''}" for p, n, o in CONFIGS]


@pytest.mark.parametrize(("preset", "players", "options"), CONFIGS, ids=IDS)
def test_pettingzoo_conformance(preset: str, players: int, options: dict[str, Any], capsys: Any) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        # PettingZoo's checker notes that dict observations (with the action mask) are not plain arrays.
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        warnings.filterwarnings("ignore", message="Observation space for each agent probably should be")
        api_test(bz.env(preset=preset, players=players, options=options), num_cycles=100)
        seed_test(lambda: bz.env(preset=preset, players=players, options=options), num_cycles=100)
        render_test(lambda render_mode=None: bz.env(preset=preset, players=players, options=options,
                                                   render_mode=render_mode))
    assert "Passed API test" in capsys.readouterr().out


def test_registered_with_pettingzoo() -> None:
    if not hasattr(pettingzoo, "aec_registry"):
        pytest.skip("this PettingZoo has no registry (before 1.27): use brisca.envs.pettingzoo.env()")
    assert set(bz.ENV_IDS) <= set(pettingzoo.aec_registry)
    env = pettingzoo.make("aec", "brisca/bixkla-v0")
    env.reset(seed=1)
    assert env.unwrapped.rules.variant == "bixkla" and env.num_agents == 4
    env = pettingzoo.make("aec", "brisca/brisca-v0", preset="briscola", players=3, reward="dense")
    env.reset(seed=1)
    assert env.unwrapped.rules.variant == "briscola" and env.possible_agents == ["player_0", "player_1", "player_2"]
    assert env.unwrapped.reward == "dense"


@pytest.mark.parametrize("reward", ["win", "points", "dense"])
@pytest.mark.parametrize(("preset", "players"), [("spanish", 2), ("bixkla", 4), ("mexican", 6), ("briscola", 3)])
def test_many_hands_follow_the_engine(preset: str, players: int, reward: str) -> None:
    env = bz.raw_env(preset=preset, players=players, reward=reward)
    env.reset(seed=7)
    rng = random.Random(7)
    space = env.observation_space("player_0")
    for _hand in range(15):
        env.reset()
        game = env.game
        assert game is not None
        totals = dict.fromkeys(env.agents, 0.0)
        for agent in env.agent_iter():
            obs, reward_now, term, trunc, info = env.last()
            totals[agent] += reward_now
            assert space.contains(obs)
            if term or trunc:
                env.step(None)
                continue
            seat = env.possible_agents.index(agent)
            assert game.turn == seat
            mask = obs["action_mask"]
            assert np.array_equal(mask, info["action_mask"]) and np.array_equal(env.action_masks(), mask.astype(bool))
            legal = {env.codec.encode(a) for a in game.legal_actions()}
            assert set(np.flatnonzero(mask).tolist()) == legal
            for other in env.possible_agents:
                if other != agent:
                    assert not env.observe(other)["action_mask"].any()
            env.step(rng.choice(sorted(legal)))
        assert game.is_over() and not env.agents
        expected = hand_returns(game, "points" if reward == "dense" else reward)
        assert [totals[a] for a in env.possible_agents] == pytest.approx(expected)
        assert sum(totals.values()) == pytest.approx(0.0)


def test_seeding_reproduces_a_run_of_hands() -> None:
    def run(seed: int) -> list[tuple[int, ...]]:
        env = bz.raw_env(preset="spanish", players=4)
        env.reset(seed=seed)
        out = []
        for _ in range(5):
            env.reset()
            assert env.game is not None
            out.append((*(c.index for c in env.game.deck), env.game.dealer))
        return out

    assert run(3) == run(3) and run(3) != run(4)
    env = bz.raw_env()
    env.reset(seed=5)
    assert env.observation_space("player_0") is env.observation_space("player_0")
    assert env.action_space("player_1") is env.action_space("player_1")


def test_reset_options_deal_a_given_deck() -> None:
    deck = Game("spanish", 2, seed=12).deck
    env = bz.raw_env(dealer=0)
    env.reset(seed=1, options={"deck": deck})
    assert env.game is not None and env.game.deck == deck and env.game.dealer == 0
    env.reset(options={"deck": [str(c) for c in deck], "dealer": 1, "ignored": True})
    assert env.game.deck == deck and env.game.dealer == 1 and env.agent_selection == "player_0"


def test_illegal_actions() -> None:
    raw = bz.raw_env()
    raw.reset(seed=2)
    mask = raw.infos[raw.agent_selection]["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(ValueError, match="illegal action"):
        raw.step(illegal)
    with pytest.raises(ValueError, match="outside"):
        raw.step(500)
    with pytest.raises(ValueError, match="must act"):
        raw.step(None)
    wrapped = bz.env()
    wrapped.reset(seed=2)
    agent = wrapped.agent_selection
    obs, *_ = wrapped.last()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        wrapped.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert wrapped.rewards[agent] == -1 and all(wrapped.terminations.values())


def test_bad_arguments() -> None:
    with pytest.raises(Exception, match="played by"):
        bz.raw_env(preset="bixkla", players=2)
    with pytest.raises(ValueError, match="reward"):
        bz.raw_env(reward="money")
    with pytest.raises(ValueError, match="dealer"):
        bz.raw_env(dealer=5)
    with pytest.raises(ValueError, match="render_mode"):
        bz.raw_env(render_mode="rgb_array")


def test_render_text() -> None:
    env = bz.raw_env(render_mode="ansi")
    env.reset(seed=3)
    text = env.render()
    assert isinstance(text, str) and "seat 0" in text and "trump" in text
    while env.agents:
        obs, _r, term, trunc, _i = env.last()
        env.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0]))
    assert "over:" in str(env.render())
