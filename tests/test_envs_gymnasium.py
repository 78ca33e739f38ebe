"""The single-agent Gymnasium environment: Gymnasium's own env_checker for every preset, and more."""

from __future__ import annotations

import random
import warnings
from typing import Any

import pytest

from brisca import find_variant, variant_names
from brisca.actions import PASS, Action, Bid
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


def _random_steps(env: Any, steps: int, seed: int) -> tuple[list[float], int]:
    """Uniform legal actions for ``steps`` steps; the rewards of the hands that ended, and the steps that were
    the first of a new hand (the one after each end, whose action is ignored)."""
    rng = np.random.default_rng(seed)
    _obs, info = env.reset(seed=seed)
    ended = np.zeros(env.num_envs, bool)
    rewards: list[float] = []
    fresh = 0
    for _ in range(steps):
        mask = info["action_mask"]
        assert (info["autoreset"] == ended).all()
        assert (mask[~ended].sum(axis=1) >= 2).all()
        # A hand that just ended allows one action, ignored, on the step that resets it: every row can be sampled.
        assert (mask[ended].sum(axis=1) == 1).all() and (mask[ended, bg.AUTORESET_ACTION] == 1).all()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in mask])
        _obs, reward, term, trunc, info = env.step(actions)
        assert not trunc.any()
        assert (reward[~term] == 0).all()
        fresh += int(ended.sum())
        assert not term[ended].any()  # a sub-environment reset on this step starts a hand
        rewards.extend(reward[term].tolist())
        ended = term
    return rewards, fresh


def test_the_vector_env_plays_many_hands_against_a_built_in_player() -> None:
    env = bg.BriscaVectorEnv(16, "briscola", opponent="random", seed=3)
    assert env.observation_space.shape == (16, 490) and env.single_action_space.n == 111
    assert env.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.NEXT_STEP
    rewards, fresh = _random_steps(env, 240, seed=3)
    assert len(rewards) > 150 and fresh > 150
    assert set(rewards) <= {-1.0, 0.0, 1.0}
    assert abs(np.mean(rewards)) < 0.15  # random against random
    strong = bg.BriscaVectorEnv(16, "spanish", opponent="net", seed=4)
    lost, _fresh = _random_steps(strong, 240, seed=4)
    assert np.mean(lost) < -0.6  # the shipped network beats random play


def test_the_vector_env_s_network_opponent_reads_its_cues() -> None:
    """The shipped four-player network reads the cues: the vector env's opponent gives it them, and chooses as the
    network does on the batch's own inputs (the encoding, its preset's input, the cues)."""
    env = bg.BriscaVectorEnv(32, "spanish", 4, opponent="net", seed=7)
    net = env._net
    assert net is not None and net.cues and env.batch.cues and env.batch.inputs == net.inputs
    batch = env.batch
    batch.deal_all()
    rows = 0
    while rows < 300:
        obs, mask, lanes, _seats = batch.observe()
        if not len(lanes):
            break
        logits, _values = net.forward(obs.copy())
        want = np.where(mask, logits, -np.inf).argmax(axis=1)
        got = env._choose(obs, mask)
        assert got.tolist() == want.tolist()
        rows += len(lanes)
        batch.act(lanes, got)
    assert rows >= 300


def test_the_vector_env_observes_the_learner_s_view() -> None:
    env = bg.BriscaVectorEnv(16, "spanish", 4, opponent="random", seed=5, reward="points")
    obs, info = env.reset(seed=5)
    for _ in range(12):
        for lane in range(16):
            seat = int(info["seat"][lane])
            if not info["autoreset"][lane]:
                assert env.batch.turn(lane) == seat
                assert obs[lane].tobytes() == env.batch.features(lane, seat)[:env.encoder.size].tobytes()
                assert sorted(np.flatnonzero(info["action_mask"][lane])) == sorted(env.batch.legal_ids(lane))
        legal = info["action_mask"].argmax(axis=1)  # a legal action in every row, the resetting ones too
        obs, reward, _term, _trunc, info = env.step(legal)
        assert (np.abs(reward) <= 1).all()


def test_the_vector_env_ends_a_hand_on_an_illegal_action_and_refuses_what_it_cannot_play() -> None:
    env = bg.BriscaVectorEnv(4, "spanish", opponent="random", seed=6, seat=1)
    _obs, info = env.reset()
    assert (info["seat"] == 1).all()
    actions = [int(np.flatnonzero(m)[0]) for m in info["action_mask"]]
    actions[2] = next(i for i in range(111) if not info["action_mask"][2][i])
    actions[3] = 999
    _obs, reward, term, _trunc, info = env.step(actions)
    assert term[2] and term[3] and reward[2] == reward[3] == -1.0
    assert info["illegal"].tolist() == [False, False, True, True]
    assert info["autoreset"][2:].all() and info["action_mask"][2:].sum(axis=1).tolist() == [1, 1]  # reset next
    assert env.action_masks()[3, bg.AUTORESET_ACTION]
    with pytest.raises(ValueError, match="no network plays"):
        bg.BriscaVectorEnv(4, "chilean", 4, opponent="net")
    with pytest.raises(ValueError, match="does not play chilean"):
        bg.BriscaVectorEnv(4, "chilean", options={"arrastro": True})
    with pytest.raises(ValueError, match="dense"):
        bg.BriscaVectorEnv(4, "spanish", reward="dense")


def _returns_along(env: Any, preset: str, reward: str, choose: Any, steps: int = 200) -> tuple[list[Any], list[float]]:
    """Each lane of ``env`` plays a hand beside an engine game (``choose(lane, game, rng, greedy)``: the move),
    the learner at a random seat: the env's returns are :func:`brisca.envs.hand_returns`'s, exactly; then random
    play through the env ends hands and pays them within the returns' bounds. The engine's games and returns."""
    from brisca.agents.simple import GreedyAgent
    from brisca.game import Game

    rng = random.Random(8)
    greedy = GreedyAgent()
    games = []
    for lane in range(env.num_envs):
        game = Game(preset, env.players, dealer=lane % env.players, seed=lane)
        env.batch.load(lane, game)
        while not game.is_over():
            action = choose(lane, game, rng, greedy)
            game.apply(action)
            env.batch.apply(lane, env.codec.ids[action])
        env.seats[lane] = rng.randrange(env.players)
        games.append(game)
    got = env._returns(np.arange(env.num_envs))
    want = [hand_returns(g, reward)[int(env.seats[lane])] for lane, g in enumerate(games)]
    assert got.tolist() == pytest.approx(want, abs=1e-12)
    rewards, fresh = _random_steps(env, steps, seed=9)
    assert len(rewards) > 10 and fresh > 10
    assert max(abs(r) for r in rewards) <= 1.0 and any(r != 0 for r in rewards)
    return games, want


@pytest.mark.parametrize("reward", ["win", "points"])
def test_the_vector_env_pays_briscola_chiamata_s_contract_as_the_engine(reward: str) -> None:
    """Briscola Chiamata at 5 in the vector env: a finished hand's return is the contract's
    (:func:`brisca.envs.hand_returns`: the declarer's team against the others), the learner's seat wherever it
    sat; random play through the env ends hands and pays them within the returns' bounds."""
    from brisca.actions import Call

    def choose(lane: int, game: Any, rng: random.Random, greedy: Any) -> Action:
        legal = game.legal_actions()
        if lane < 2 and PASS in legal:  # everybody passes
            return PASS
        if lane < 5 and game.phase == "call":  # the declarer calls his own card: alone
            return Call(game.hand(game.turn)[0])
        if game.phase == "bid" or rng.random() < 0.7:
            return greedy.act(game.view(game.turn))  # type: ignore[no-any-return]
        return rng.choice(legal)  # type: ignore[no-any-return]

    env = bg.BriscaVectorEnv(16, "chiamata", opponent="random", seed=8, reward=reward)
    results = [g.result() for g in _returns_along(env, "chiamata", reward, choose)[0]]
    assert {"all-passed", "made", "set"} <= {r.reason for r in results if r is not None}
    assert any(r is not None and r.contract is not None and r.contract.alone for r in results)


@pytest.mark.parametrize("reward", ["win", "points"])
def test_the_vector_env_pays_brisca_rematada_s_solo_contract_as_the_engine(reward: str) -> None:
    """Brisca Rematada at 3 in the vector env: the solo contract's return (the declarer alone against the two
    others; made, he scores his bid, set, each other seat half of it), the learner's seat wherever it sat."""

    def choose(lane: int, game: Any, rng: random.Random, greedy: Any) -> Action:
        legal = game.legal_actions()
        if game.phase == "bid" and lane % 2 and any(isinstance(a, Bid) for a in legal):  # bid up high
            return max((a for a in legal if isinstance(a, Bid)), key=lambda a: a.points)
        if game.phase == "bid" or rng.random() < 0.7:
            return greedy.act(game.view(game.turn))  # type: ignore[no-any-return]
        return rng.choice(legal)  # type: ignore[no-any-return]

    env = bg.BriscaVectorEnv(16, "rematada", 3, opponent="random", seed=8, reward=reward)
    games = _returns_along(env, "rematada", reward, choose)[0]
    assert {"made", "set"} <= {r.reason for r in (g.result() for g in games) if r is not None}


@pytest.mark.parametrize("reward", ["win", "points"])
def test_the_vector_env_pays_brisca_portena_s_hands_as_the_engine(reward: str) -> None:
    """Chilean brisca porteña at 4 in the vector env: a finished hand's return is the partnership's
    (:func:`brisca.envs.hand_returns`: the vales and the last trick's 10 in the count, capote winning whatever the
    points, a level count a tie), the learner's seat wherever it sat; random play through the env, the cutter's
    choice and the vales' passes included, ends hands and pays them within the returns' bounds."""

    def choose(lane: int, game: Any, rng: random.Random, greedy: Any) -> Action:
        legal = game.legal_actions()
        return greedy.act(game.view(game.turn)) if rng.random() < 0.6 else rng.choice(legal)  # type: ignore[no-any-return]

    env = bg.BriscaVectorEnv(24, "chilean", opponent="random", seed=8, reward=reward)
    assert env.players == 4
    games, want = _returns_along(env, "chilean", reward, choose, steps=300)
    assert any(b.why.startswith("king and knight") for g in games for b in g.result().bonuses)  # type: ignore[union-attr]
    assert len(set(want)) > (1 if reward == "win" else 2)  # (points: each hand its own margin)


def test_the_speed_script_s_lockstep_loops_count_every_move() -> None:
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "examples" / "env_speed.py"
    spec = importlib.util.spec_from_file_location("env_speed", path)
    assert spec is not None and spec.loader is not None
    speed = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(speed)
    # a hand of 2-player briscola is 40 card plays (no exchange): whole rounds of 8 hands, every move counted
    moves = speed.batch_loop("briscola", 2, 8)(0.01)
    assert moves > 0 and moves % (8 * 40) == 0
    assert speed.vector_loop("briscola", 2, 8)(0.01) > 0
