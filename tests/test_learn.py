"""The self-play network: its trainer (brisca.learn.train), its numpy player (brisca.agents.net) and the levels.

Needs numpy (the 'fast' extra; CI runs this file after installing it). The torch learner's agreement with the numpy
one runs where torch is installed (the 'learn' extra).
"""

from __future__ import annotations

import importlib.util
import json
import os
import random
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.training  # a stage of its own in CI (tests/conftest.py)

np = pytest.importorskip("numpy")

from brisca.agents import AgentError, HeuristicAgent, NetAgent, make_agent  # noqa: E402
from brisca.agents.exact import exact_choice, last_draw_choice  # noqa: E402
from brisca.agents.net import SHIPPED, Net, Shelf, load_net, sha256, shipped_path  # noqa: E402
from brisca.agents.search import ExpertAgent, net_leaves  # noqa: E402
from brisca.arena import run_arena  # noqa: E402
from brisca.cli import main  # noqa: E402
from brisca.envs.encode import cues, shuffle_hidden  # noqa: E402
from brisca.game import Game, View  # noqa: E402
from brisca.learn.train import (  # noqa: E402
    NumpyLearner,
    _advantages,
    batch_lanes,
    collect,
    collect_batch,
    demonstrate,
    init_arrays,
    merge,
    parser,
    shape,
    train,
    widen,
    with_actions,
    with_cues,
    with_inputs,
    with_presets,
)
from brisca.learn.train import main as train_main  # noqa: E402
from brisca.rules import make_rules  # noqa: E402
from brisca.worlds import sample_world  # noqa: E402


def _batch(hidden: int = 16, games: int = 12) -> tuple[dict[str, object], dict[str, object]]:
    inputs, actions = shape(["spanish"])
    arrays = init_arrays(inputs, actions, hidden, 0)
    part = collect({"weights": arrays, "league": [], "presets": ["spanish"], "games": games, "seed": 1, "gae": 0.95,
                    "league_share": 0.0})
    return arrays, merge([part])


def test_lockstep_self_play_keeps_what_the_one_at_a_time_self_play_keeps() -> None:
    inputs, actions = shape(["spanish", "briscola"])
    task = {"weights": init_arrays(inputs, actions, 16, 0), "league": [], "presets": ["spanish", "briscola"],
            "games": 60, "seed": 3, "gae": 0.95, "league_share": 0.0}
    one = collect(task)
    many = collect_batch({**task, "lanes": 16})
    assert many["games"] == 60
    for key in ("obs", "mask", "act", "logp", "adv", "ret"):
        assert many[key].dtype == one[key].dtype and many[key].shape[1:] == one[key].shape[1:]
    # every seat decides from its view: about 36 decisions a 2-player hand (the forced last ones are played)
    assert abs(len(many["act"]) / len(one["act"]) - 1) < 0.1
    assert many["mask"][np.arange(len(many["act"])), many["act"]].all()
    assert (many["mask"].sum(axis=1) >= 2).all()
    assert ((many["logp"] <= 0) & (many["logp"] > -5)).all()
    assert abs(many["reward"]) < 1e-12  # both seats learn: what one side wins the other loses
    # the inputs kept are bytes of encoded views: the preset's one input set, the hand's cards, the trump
    obs = many["obs"]
    assert (obs[:, inputs - 2:].sum(axis=1) == 255).all()
    assert set(obs[:, :48].sum(axis=1) // 255) <= {1, 2, 3}
    assert (obs[:, 432:436].sum(axis=1) == 255).all()
    # against a league of past selves, only the learner's side is kept
    half = collect_batch({**task, "league": [task["weights"]], "league_share": 1.0, "lanes": 16})
    assert abs(len(half["act"]) / len(many["act"]) - 0.5) < 0.1


def test_lockstep_self_play_of_briscola_chiamata_keeps_what_the_one_at_a_time_self_play_keeps() -> None:
    """Five seats, each a side of its own: the bids, passes and calls are decisions beside the cards, in lockstep as
    one hand at a time; against a league, one seat of the five plays a past self."""
    from brisca.envs.batch import COMPILED

    if not COMPILED:
        pytest.skip("the lockstep self-play needs numba")
    presets = ["chiamata", "chiamata-buia"]
    inputs, actions = shape(presets, 5)
    task = {"weights": init_arrays(inputs, actions, 16, 0), "league": [], "presets": presets, "players": 5,
            "games": 60, "seed": 4, "gae": 0.95, "league_share": 0.0}
    one = collect(task)
    many = collect_batch({**task, "lanes": 16})
    for key in ("obs", "mask", "act", "logp", "adv", "ret"):
        assert many[key].dtype == one[key].dtype and many[key].shape[1:] == one[key].shape[1:]
    assert abs(len(many["act"]) / len(one["act"]) - 1) < 0.15
    assert many["mask"][np.arange(len(many["act"])), many["act"]].all()
    assert (many["mask"].sum(axis=1) >= 2).all()
    for part in (one, many):  # the auction's and the call's ids (bids 111-170, pass 171, calls 172-219)
        acts = part["act"]
        assert ((acts >= 111) & (acts <= 171)).sum() > 60 and ((acts >= 172) & (acts < actions)).sum() > 0
        assert (part["obs"][:, inputs - 2:].sum(axis=1) == 255).all()  # one preset's input set
    half = collect_batch({**task, "league": [task["weights"]], "league_share": 1.0, "lanes": 16})
    assert abs(len(half["act"]) / len(many["act"]) - 0.8) < 0.1


@pytest.mark.parametrize("presets, players", [(["spanish", "briscola"], 2), (["chilean"], 4),
                                               (["chiamata"], 5), (["rematada"], 3)])
def test_self_play_against_a_fixed_opponent_keeps_the_learner_s_side_only(
        presets: list[str], players: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """--opponent-share: in that share of the hands every seat but the learner's side is the fixed player, which
    decides from its seat's view of the same hand (on the engine, beside the lockstep lanes); only the learner's
    decisions are kept, and the learner's reward is no longer zero-sum with itself."""
    from brisca.agents import registry
    from brisca.envs.batch import COMPILED

    if not COMPILED:
        pytest.skip("the lockstep self-play needs numba")
    seen: list[tuple[int, bool]] = []
    real = registry.make_agent

    class Spy:
        def __init__(self, inner: Any) -> None:
            self.inner = inner

        def act(self, view: View) -> Any:
            action = self.inner.act(view)
            seen.append((view.seat, action in view.legal_actions))
            return action

    monkeypatch.setattr(registry, "make_agent", lambda name, seed=None: Spy(real(name, seed=seed)))
    task = {"weights": init_arrays(*shape(presets, players), 16, 0), "league": [], "presets": presets,
            "players": players, "games": 24, "seed": 5, "gae": 0.95, "league_share": 0.0, "opponent": "heuristic"}
    for lanes in (None, 8):
        lockstep = {"lanes": lanes} if lanes else {}
        alone = collect({**task, **lockstep})
        seen.clear()
        half = collect({**task, **lockstep, "opponent_share": 1.0})
        assert seen and all(legal for _, legal in seen)  # the fixed player decided, legally
        sides = 2 if players in (2, 4) else players
        kept = len(half["act"]) / len(alone["act"])  # the learner's side: one seat of each side at most
        assert abs(kept - 1 / sides) < 0.12, kept
        assert half["mask"][np.arange(len(half["act"])), half["act"]].all()
        assert alone["reward"] != half["reward"]


def test_a_critic_blind_to_the_hidden_cards_gives_the_network_s_own_advantages() -> None:
    """The full-information critic starts as the network's own value (its weights on the hidden cards at zero):
    the same hands, choices and advantages; the values learn the hand's reward; and once it reads the hidden cards
    the advantages move. What it reads is every other hand and the stock, as bytes."""
    from brisca.envs.batch import privileged_size

    inputs, actions = shape(["spanish", "briscola"])
    weights = init_arrays(inputs, actions, 16, 0)
    task = {"weights": weights, "league": [], "presets": ["spanish", "briscola"], "games": 40, "seed": 4,
            "gae": 0.9, "league_share": 0.0, "lanes": 16}
    plain = collect_batch(task)
    critic = with_inputs(weights, privileged_size(2))
    blind = collect_batch({**task, "critic": critic})
    assert (plain["act"] == blind["act"]).all() and (plain["obs"] == blind["obs"]).all()
    assert np.allclose(plain["adv"], blind["adv"], atol=1e-5)
    assert "priv" not in plain and blind["priv"].shape == (len(blind["act"]), privileged_size(2))
    # both values learn the hand's reward: a win or a loss and a quarter of the margin, the same for a seat's rows
    assert (np.abs(blind["ret"]) <= 1.25).all() and (np.abs(blind["ret"]) >= 0.5).mean() > 0.9
    assert (blind["cret"] == blind["ret"]).all()
    priv = blind["priv"].astype(np.int64)
    assert set(priv[:, :48].sum(axis=1) // 255) <= {1, 2, 3}  # the other hand
    assert set(priv[:, 48:96].sum(axis=1) // 255) <= {0, 1, 2}  # the next round's draw
    assert (priv[:, :48] * priv[:, 96:] == 0).all()  # no card both in the other hand and in the stock
    seeing = dict(critic)
    seeing["w1"] = critic["w1"].copy()
    seeing["w1"][inputs:] = np.random.default_rng(1).normal(0, 0.3, (privileged_size(2), 16)).astype(np.float32)
    moved = collect_batch({**task, "critic": seeing})
    assert (moved["act"] == plain["act"]).all() and not np.allclose(moved["adv"], plain["adv"], atol=1e-3)


def test_the_critic_learns_first_alone_then_beside_the_network(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    from brisca.envs.batch import COMPILED, privileged_size

    if not COMPILED:
        pytest.skip("the lockstep self-play needs numba")
    out = tmp_path / "run"
    args = ["--out", str(out), "--presets", "spanish", "--workers", "1", "--games", "8", "--updates", "2",
            "--hidden", "16", "--minibatch", "256", "--epochs", "1", "--eval-every", "0", "--backend", "numpy",
            "--critic", "full", "--critic-warmup", "1"]
    train(parser().parse_args(args), "critic (test)")
    rows = [json.loads(line) for line in (out / "curve.jsonl").read_text().splitlines()]
    assert "loss_c" in rows[0] and "loss_pi" not in rows[0]  # the first update: the critic alone
    assert "loss_c" in rows[1] and "loss_pi" in rows[1]
    league0 = Net.load(out / "league" / "u000000.npz")
    critic = dict(np.load(out / "checkpoint_critic.npz"))
    assert critic["w1"].shape == (league0.inputs + privileged_size(2), 16)
    assert np.abs(critic["w1"][league0.inputs:]).max() > 0  # it learnt to read the hidden cards
    train(parser().parse_args([*args[:-4], "--updates", "3", "--resume", "--critic", "full"]), "resumed")
    state = json.loads((out / "state.json").read_text())
    assert state["update"] == 3 and state["critic_from"] == 0
    resumed = dict(np.load(out / "checkpoint_critic.npz"))
    assert not np.allclose(resumed["w1"], critic["w1"])
    assert train_main([*args[:-4], "--critic", "full", "--lanes", "0", "--out", str(tmp_path / "b")]) == 2
    assert "not with --lanes 0" in capsys.readouterr().err


def test_the_torch_critic_fits_as_the_numpy_critic_does() -> None:
    pytest.importorskip("torch")
    from brisca.learn.train import TorchLearner

    arrays, batch = _batch()
    a = NumpyLearner(arrays, lr=1e-3)
    b = TorchLearner(arrays, lr=1e-3, device="cpu")
    sa = a.regress(batch["obs"], batch["ret"], 1, 10_000)
    sb = b.regress(batch["obs"], batch["ret"], 1, 10_000)
    assert sa["loss_c"] == pytest.approx(sb["loss_c"], rel=1e-4)
    for name, value in a.arrays().items():
        assert np.allclose(value, b.arrays()[name], atol=1e-5), name
    assert a.regress(batch["obs"], batch["ret"], 20, 10_000)["loss_c"] < sa["loss_c"]


def test_the_advantages_are_gae_of_each_seat_s_steps() -> None:
    rng = np.random.default_rng(5)
    key = rng.integers(0, 7, 200)
    value = rng.normal(size=200).astype(np.float32)
    final = rng.normal(size=7)
    got = _advantages(key, value, final, 0.9)
    want = np.zeros(200)
    for k in range(7):
        rows = np.flatnonzero(key == k)
        adv, nxt = 0.0, final[k]
        for i in rows[::-1]:
            adv = nxt - float(value[i]) + 0.9 * adv
            want[i] = adv
            nxt = float(value[i])
    assert np.allclose(got, want)


def test_the_trainer_plays_in_lockstep_where_the_batch_covers_the_games() -> None:
    from brisca.envs.batch import COMPILED
    from brisca.errors import BriscaError

    assert batch_lanes(None, 64, ["spanish", "briscola"], 2, None) == (64 if COMPILED else 0)
    assert batch_lanes(None, 4096, ["spanish"], 4, None) == (1024 if COMPILED else 0)
    assert batch_lanes(None, 64, ["spanish"], 2, "heuristic") == 0
    assert batch_lanes(0, 64, ["spanish"], 2, None) == 0
    with pytest.raises(BriscaError, match="--lanes 0"):
        batch_lanes(32, 64, ["chilean"], 2, None)


def test_expert_iteration_learns_the_search_s_choices_between_updates(tmp_path: Path) -> None:
    out = tmp_path / "run"
    train(parser().parse_args([
        "--out", str(out), "--presets", "spanish", "--workers", "1", "--games", "4", "--updates", "2", "--hidden", "16",
        "--minibatch", "256", "--epochs", "1", "--eval-every", "0", "--backend", "numpy", "--search-every", "1",
        "--search-hands", "2", "--search-sims", "4", "--search-epochs", "3"]), "brisca train (test)")
    rows = [json.loads(line) for line in (out / "curve.jsonl").read_text().splitlines()]
    searches = [r for r in rows if "search" in r]
    assert [r["update"] for r in searches] == [1, 2]
    assert all(r["search"] == "expert[sims=4]" and r["hands"] == 2 and r["samples"] > 20 for r in searches)
    assert all(0 <= r["accuracy"] <= 1 and r["cross_entropy"] > 0 for r in searches)
    assert Net.load(out / "net.npz").meta["search_hands"] == 4


def test_the_hand_written_gradient_is_the_loss_s_derivative() -> None:
    arrays, batch = _batch()
    learner = NumpyLearner(arrays, entropy=0.05)
    learner.p = {k: v.astype(np.float64) for k, v in learner.p.items()}
    learner.p["wp"] *= 50  # away from the uniform start, where some terms vanish
    idx = np.arange(40)
    adv = np.random.default_rng(0).normal(size=40)
    args = (batch["obs"][idx], batch["mask"][idx], batch["act"][idx], batch["logp"][idx] - 0.3, adv,
            batch["ret"][idx])
    _stats, grads = learner.loss_and_grads(*args)
    rng = np.random.default_rng(1)
    for name in ("w1", "b1", "w2", "wp", "bp", "wv", "bv"):
        for _ in range(3):
            at = tuple(int(rng.integers(0, n)) for n in learner.p[name].shape)
            eps = 1e-6
            learner.p[name][at] += eps
            up = learner.loss_and_grads(*args)[0]["loss"]
            learner.p[name][at] -= 2 * eps
            down = learner.loss_and_grads(*args)[0]["loss"]
            learner.p[name][at] += eps
            assert (up - down) / (2 * eps) == pytest.approx(grads[name][at], rel=1e-4, abs=1e-9)


def test_the_loss_falls_as_the_learner_steps_on_a_batch() -> None:
    arrays, batch = _batch()
    learner = NumpyLearner(arrays, lr=3e-3)
    adv = batch["adv"] / (batch["adv"].std() + 1e-8)
    args = (batch["obs"], batch["mask"], batch["act"], batch["logp"], adv, batch["ret"])
    before = learner.loss_and_grads(*args)[0]
    for _ in range(30):
        learner.step(learner.loss_and_grads(*args)[1])
    after = learner.loss_and_grads(*args)[0]
    assert after["loss"] < before["loss"] - 0.05
    assert after["loss_v"] < before["loss_v"]


def test_a_small_run_logs_its_curve_checkpoints_and_resumes(tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = ["--out", str(out), "--presets", "spanish,briscola", "--workers", "1", "--games", "6", "--updates", "3",
            "--hidden", "16", "--minibatch", "256", "--epochs", "1", "--eval-every", "3", "--eval-deals", "2",
            "--expert-deals", "0", "--backend", "numpy", "--snapshot", "2"]
    train(parser().parse_args(args), "brisca train (test)")
    rows = [json.loads(line) for line in (out / "curve.jsonl").read_text().splitlines()]
    assert [r["update"] for r in rows if "eval" not in r] == [1, 2, 3]
    evals = [r for r in rows if "eval" in r]
    assert {(r["preset"], r["eval"]) for r in evals} == {("spanish", "heuristic"), ("briscola", "heuristic")}
    assert all(0 <= r["score"] <= 1 and r["eval_games"] == 4 for r in evals)
    train(parser().parse_args([*args[:-6], "--snapshot", "2", "--updates", "4", "--resume"]), "resumed")
    state = json.loads((out / "state.json").read_text())
    assert state["update"] == 4 and state["commands"] == ["brisca train (test)", "resumed"]
    assert state["league"] == ["u000000.npz", "u000002.npz", "u000004.npz"]
    # Each snapshot of the league is a network a player loads, with the run's metadata as of then.
    assert Net.load(out / "league" / "u000002.npz").meta["updates"] == 2
    net = Net.load(out / "net.npz")
    assert net.meta["updates"] == 4 and net.presets == ("spanish", "briscola")
    # A run started from that network keeps its training in the metadata of its own.
    more = tmp_path / "more"
    train(parser().parse_args(["--out", str(more), *args[2:-6], "--updates", "1", "--init", str(out / "net.npz")]),
          "brisca train --init (test)")
    lineage = Net.load(more / "net.npz").meta
    assert lineage["updates"] == 1 and lineage["init"]["updates"] == 4
    assert lineage["init"]["commands"] == ["brisca train (test)", "resumed"]
    game = Game("briscola", 2, seed=3)
    agent = NetAgent(weights=str(out / "net.npz"))
    while not game.is_over():
        game.apply(agent.act(game.view(game.turn)))


def test_a_wider_network_computes_what_the_narrower_one_did() -> None:
    inputs, actions = shape(["spanish", "briscola"])
    narrow = init_arrays(inputs, actions, 16, 3)
    narrow["b1"] += 0.1  # (biases too, not only the zeros a fresh network starts with)
    narrow["b2"] -= 0.05
    wide = widen(narrow, 24, 4)
    assert wide["w1"].shape == (inputs, 24) and wide["w2"].shape == (24, 24) and wide["wp"].shape == (24, actions)
    x = np.random.default_rng(5).random((50, inputs)).astype(np.float32)
    meta = {"presets": ["spanish", "briscola"], "players": 2}
    (l0, v0), (l1, v1) = Net(narrow, meta).forward(x), Net(wide, meta).forward(x)
    assert np.allclose(l0, l1, atol=1e-6) and np.allclose(v0, v1, atol=1e-6)
    assert np.abs(wide["w1"][:, 16:]).max() > 0  # the new units read the input: they can learn


def test_a_run_with_cues_starts_from_the_network_as_it_was(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--cues from a network without them: the same choices and values at first (zero weights on the cues), the
    cues in the metadata, the lockstep and one-at-a-time self-play reading the same inputs; a network with cues
    refuses to be trained on without them."""
    base = ["--presets", "spanish", "--workers", "1", "--games", "4", "--updates", "1", "--minibatch", "256",
            "--epochs", "1", "--eval-every", "0", "--expert-deals", "0", "--backend", "numpy", "--hidden", "16"]
    train(parser().parse_args(["--out", str(tmp_path / "a"), *base]), "plain")
    start = Net.load(tmp_path / "a" / "net.npz")
    cued = Net(with_cues(dict(start.arrays), 2), {**start.meta, "cues": True})
    assert cued.cues and not start.cues and cued.inputs == start.inputs + 146
    game = Game("spanish", 2, seed=12)
    rng = random.Random(2)
    while not game.is_over():
        view = game.view(game.turn)
        (l0, v0), (l1, v1) = start.evaluate(view), cued.evaluate(view)
        assert np.allclose(l0, l1, atol=1e-6) and abs(v0 - v1) < 1e-6
        assert cued.features(view, 0)[start.inputs:].tobytes() == cues(view).tobytes()
        game.apply(rng.choice(game.legal_actions()))
    train(parser().parse_args(["--out", str(tmp_path / "b"), *base, "--init", str(tmp_path / "a" / "net.npz"),
                               "--cues"]), "cued")
    b = Net.load(tmp_path / "b" / "net.npz")
    assert b.cues and b.meta["cues"] is True and b.inputs == start.inputs + 146
    task = {"weights": b.arrays, "league": [], "presets": ["spanish"], "games": 8, "seed": 3, "gae": 0.95,
            "league_share": 0.0, "cues": True}
    one, many = collect(task), collect_batch({**task, "lanes": 4})
    assert one["obs"].shape[1] == many["obs"].shape[1] == b.inputs
    assert many["obs"][:, start.inputs:].any()
    assert train_main(["--out", str(tmp_path / "c"), *base, "--init", str(tmp_path / "b" / "net.npz")]) == 2
    assert "reads the cues: train it on with --cues" in capsys.readouterr().err
    # A network of another number of players reads other inputs: refused before any hand is played.
    assert train_main(["--out", str(tmp_path / "d"), *base, "--players", "3", "--init",
                       str(tmp_path / "b" / "net.npz"), "--cues"]) == 2
    assert "plays 2 players: it cannot start a run of 3" in capsys.readouterr().err
    assert not (tmp_path / "d" / "net.npz").exists()


def test_a_run_widens_the_network_it_starts_from(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    base = ["--presets", "spanish", "--workers", "1", "--games", "4", "--updates", "1", "--minibatch", "256",
            "--epochs", "1", "--eval-every", "0", "--expert-deals", "0", "--backend", "numpy"]
    train(parser().parse_args(["--out", str(tmp_path / "a"), *base, "--hidden", "16"]), "narrow")
    start = str(tmp_path / "a" / "net.npz")
    train(parser().parse_args(["--out", str(tmp_path / "b"), *base, "--init", start, "--hidden", "24"]), "wide")
    wide = Net.load(tmp_path / "b" / "net.npz")
    assert wide.arrays["w2"].shape == (24, 24) and wide.meta["hidden"] == 24
    train(parser().parse_args(["--out", str(tmp_path / "c"), *base, "--init", start]), "same")
    assert Net.load(tmp_path / "c" / "net.npz").meta["hidden"] == 16  # --init's width unless told wider
    assert train_main(["--out", str(tmp_path / "d"), *base, "--init", start, "--hidden", "8"]) == 2
    assert capsys.readouterr().err.strip() == ("brisca train: error: --hidden 8 is narrower than --init's network "
                                               "(16 units)")


def test_a_run_of_more_presets_starts_each_new_one_as_the_first_it_knew(tmp_path: Path) -> None:
    """--init from a network of fewer presets: a preset it knew plays as it did, a new one plays as the first it
    knew (4-player briscola starts from the 4-player spanish network), and the run then trains both."""
    base = ["--workers", "1", "--games", "4", "--updates", "1", "--minibatch", "256", "--epochs", "1",
            "--eval-every", "0", "--expert-deals", "0", "--backend", "numpy", "--hidden", "16"]
    train(parser().parse_args(["--out", str(tmp_path / "a"), "--presets", "spanish", *base]), "one")
    start = Net.load(tmp_path / "a" / "net.npz")
    start.arrays["w1"][start.encoder(0).size] += 0.3  # (the preset's own input matters: not zero)
    both = Net(with_presets(start.arrays, start.encoder(0).size, ["spanish"], ["briscola", "spanish"]),
               {**start.meta, "presets": ["briscola", "spanish"]})
    assert both.inputs == start.inputs + 1
    game = Game("spanish", 2, seed=4)
    spanish, briscola = make_rules("spanish"), make_rules("briscola")
    for _ in range(6):
        view = game.view(game.turn)
        x0 = start.features(view, 0)
        assert np.allclose(start.forward(x0[None])[0], both.forward(both.features(view, 1)[None])[0], atol=1e-6)
        as_briscola = both.features(view, 1).copy()
        as_briscola[both.encoder(0).size:both.encoder(0).size + 2] = (1.0, 0.0)
        assert np.allclose(start.forward(x0[None])[0], both.forward(as_briscola[None])[0], atol=1e-6)
        game.apply(game.legal_actions()[0])
    assert both.covers(spanish, 2) and both.covers(briscola, 2) and not start.covers(briscola, 2)
    start.save(tmp_path / "start.npz")
    train(parser().parse_args(["--out", str(tmp_path / "b"), "--presets", "spanish,briscola", *base,
                               "--init", str(tmp_path / "start.npz")]), "two")
    grown = Net.load(tmp_path / "b" / "net.npz")
    assert grown.presets == ("spanish", "briscola") and grown.inputs == start.inputs + 1


def test_a_run_of_a_preset_with_an_action_more_keeps_the_actions_it_knew(tmp_path: Path) -> None:
    """--init from 4-player briscola into bixkla, whose codec has one signal more: each action the network knew
    keeps its policy weights, the new one starts with none and the lowest bias, and the run trains."""
    from brisca.envs.encode import ObservationEncoder

    base = ["--players", "4", "--workers", "1", "--games", "4", "--updates", "1", "--minibatch", "256",
            "--epochs", "1", "--eval-every", "0", "--expert-deals", "0", "--backend", "numpy", "--hidden", "16"]
    train(parser().parse_args(["--out", str(tmp_path / "a"), "--presets", "briscola", *base]), "one")
    start = Net.load(tmp_path / "a" / "net.npz")
    old = ObservationEncoder("briscola", 4).codec.actions
    new = ObservationEncoder("bixkla", 4).codec.actions
    assert len(new) == len(old) + 1
    grown = with_actions(start.arrays, old, new)
    for i, action in enumerate(new):
        if action in old:
            j = old.index(action)
            assert (grown["wp"][:, i] == start.arrays["wp"][:, j]).all() and grown["bp"][i] == start.arrays["bp"][j]
        else:
            assert not grown["wp"][:, i].any() and grown["bp"][i] == start.arrays["bp"].min()
    assert with_actions(grown, new, old)["wp"].tobytes() == start.arrays["wp"].tobytes()  # and back
    train(parser().parse_args(["--out", str(tmp_path / "b"), "--presets", "bixkla", *base,
                               "--init", str(tmp_path / "a" / "net.npz")]), "bixkla")
    trained = Net.load(tmp_path / "b" / "net.npz")
    assert trained.presets == ("bixkla",) and trained.arrays["wp"].shape == (16, len(new))
    assert trained.covers(make_rules("bixkla"), 4)


@pytest.mark.parametrize("players", [3, 6])
def test_a_run_of_three_or_six_seats_plays_every_side_and_saves_its_network(tmp_path: Path, players: int) -> None:
    """Self-play at 3 seats (each alone) and 6 (two partnerships of three): every seat's decisions are learnt,
    and the network saved plays that many players and no other."""
    task = {"weights": init_arrays(*shape(["spanish"], players), 16, 0), "league": [], "presets": ["spanish"],
            "players": players, "games": 6, "seed": 3, "gae": 0.95, "league_share": 0.0}
    one, many = collect(task), collect_batch({**task, "lanes": 3})
    cards = len(make_rules("spanish").deck_cards(players)) // players
    for part in (one, many):  # every seat's decisions, each but its last card's (no choice)
        assert len(part["act"]) >= 6 * players * (cards - 1) and np.isfinite(part["adv"]).all()
    train(parser().parse_args(["--out", str(tmp_path / "r"), "--presets", "spanish", "--players", str(players),
                               "--workers", "1", "--games", "4", "--updates", "1", "--minibatch", "256",
                               "--epochs", "1", "--eval-every", "0", "--expert-deals", "0", "--backend", "numpy",
                               "--hidden", "16", "--league", "0.5"]), "seats")
    net = Net.load(tmp_path / "r" / "net.npz")
    assert net.players == players and net.covers(make_rules("spanish"), players)
    assert not net.covers(make_rules("spanish"), 2)


def test_a_briscola_chiamata_run_plays_its_hands_in_lockstep(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    """Briscola Chiamata at 5 (and Buia): the lockstep batch plays their auctions, calls and cards, so the trainer
    takes it (where numba is installed), and the network it saves plays the five seats of both presets."""
    from brisca.envs.batch import COMPILED

    assert batch_lanes(None, 64, ["chiamata", "chiamata-buia"], 5, None) == (64 if COMPILED else 0)
    train(parser().parse_args(["--out", str(tmp_path / "r"), "--presets", "chiamata,chiamata-buia", "--players", "5",
                               "--workers", "1", "--games", "8", "--updates", "1", "--minibatch", "256",
                               "--epochs", "1", "--eval-every", "0", "--expert-deals", "0", "--backend", "numpy",
                               "--hidden", "16"]), "chiamata")
    out = capsys.readouterr().out
    assert "5-player chiamata, chiamata-buia" in out
    assert ("in lockstep" if COMPILED else "one at a time") in out, out
    net = Net.load(tmp_path / "r" / "net.npz")
    assert net.players == 5 and net.covers(make_rules("chiamata"), 5) and net.covers(make_rules("chiamata-buia"), 5)
    game = Game("chiamata-buia", 5, seed=4)
    while not game.is_over():
        legal = game.legal_actions()
        game.apply(legal[0] if len(legal) == 1 else net.choose(game.view(game.turn)))
    assert game.result() is not None


def test_the_self_play_benchmark_measures_briscola_chiamata() -> None:
    """``brisca bench --selfplay --presets chiamata --players 5``: the same self-play, one hand at a time and in
    lockstep, in paired rounds (at least three)."""
    from brisca.learn.bench import measure

    res = measure(seconds=0.0, lanes=16, presets=["chiamata"], players=5)
    assert res["presets"] == ["chiamata"] and res["players"] == 5 and res["lanes"] == 16 and res["rounds"] == 3
    for how in ("one_at_a_time", "lockstep"):
        assert res[how]["decisions_per_second"] > res[how]["hands_per_second"] * 5 > 0  # (each seat decides)


def _shipped() -> Shelf:
    shelf = load_net()
    assert isinstance(shelf, Shelf)
    return shelf


def test_the_shipped_networks_are_the_ones_documented_and_play_legal_moves() -> None:
    for name, digest in SHIPPED.items():
        assert sha256(shipped_path(name)) == digest
        assert shipped_path(name).stat().st_size < 4_000_000
    shelf = _shipped()
    assert len(shelf.nets) == len(SHIPPED)
    assert set(shelf.games()) >= {("spanish", 2), ("briscola", 2), ("spanish", 4), ("mariaje", 2), ("tuscan", 2),
                                  ("muerte-al-tres", 2), ("scoperta", 2), ("mexican", 2), ("briscola", 4),
                                  ("bixkla", 4), ("spanish", 6), ("spanish", 3)}
    assert ("lombard", 2) not in set(shelf.games())  # read in training, not served
    family = Net.load(shipped_path("two_player_family.npz"))
    assert shelf.pick(make_rules("mexican"), 2) is not None and not family.covers(make_rules("mexican"), 2)
    for preset, players in shelf.games():
        for deal in range(3):
            game = Game(preset, players, seed=deal)
            agents = [NetAgent() if s % 2 == 0 else make_agent("random", seed=deal) for s in range(players)]
            assert agents[0].covers(game.rules, players)
            while not game.is_over():
                seat = game.turn
                assert seat is not None
                action = agents[seat].act(game.view(seat))
                assert action in game.legal_actions()
                game.apply(action)


def test_the_shipped_network_beats_random_and_plays_fast() -> None:
    result = run_arena(["hard", "random"], "spanish", 2, 40, seed=11)
    row = result.pair_table()[0]
    assert row["low"] > 0.75
    assert result.move_ms()["hard"] < 5.0


@pytest.mark.parametrize(("players", "advisor"), [(2, None), (4, None), (4, "heuristic")])
def test_the_network_reads_only_the_seat_s_view(players: int, advisor: str | None) -> None:
    """Another seat's cards (a partner's too) and the stock's order, shuffled, leave the network's input as it was
    (its advisor's choice included)."""
    rng = random.Random(2)
    game = Game("spanish", players, seed=8)
    net = Net(init_arrays(*shape(["spanish"], players, advisor is not None), 8, 0),
              {"presets": ["spanish"], "players": players, "advisor": advisor})
    for _ in range(9):
        game.apply(rng.choice(game.legal_actions()))
    seat = game.turn
    assert seat is not None
    x = net.features(game.view(seat), 0).copy()
    for k in range(5):
        other = shuffle_hidden(game, seat, random.Random(k))
        assert np.array_equal(net.features(other.view(seat), 0), x)


@pytest.mark.parametrize("preset", ["spanish", "briscola"])
def test_hard_plays_the_exact_endgame_once_the_stock_is_gone(preset: str) -> None:
    """Once the stock is gone nothing is hidden in a 2-player hand: ``hard`` plays the solved best move there, and
    at the stock's last trick the move best over every world (:func:`last_draw_choice`), the network's choice
    before; the network alone keeps its own choice to the end."""
    hard, alone = make_agent("hard", seed=1), make_agent("net", seed=1)
    assert isinstance(hard, NetAgent) and hard.endgame == "worlds" and isinstance(alone, NetAgent)
    solved = differ = drawn = 0
    for deal in range(12):
        game = Game(preset, 2, seed=deal)
        while not game.is_over():
            seat = game.turn
            assert seat is not None
            view = game.view(seat)
            best = exact_choice(view)
            last = last_draw_choice(view)
            if last is not None:
                assert view.stock_count == 2 and hard.act(view) == last
                drawn += 1
            elif best is None:
                assert view.stock_count or len(view.legal_actions) == 1 or hard.act(view) == alone.act(view)
            else:
                assert view.stock_count == 0
                if len(view.legal_actions) > 1:
                    assert hard.act(view) == best
                    solved += 1
                    differ += alone.act(view) != best
            game.apply(hard.act(view))
    assert solved >= 12 * 2 and drawn >= 12
    assert 0 < differ < solved  # (equally good moves included: the solver takes the first)


def test_the_endgame_option_is_net_exact_draw_or_worlds(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(AgentError, match="endgame is net, exact, draw or worlds, not 'solve'"):
        make_agent("net[endgame=solve]")
    assert main(["arena", "net[endgame=solve]", "random", "--games", "1"]) == 2
    assert "endgame is net, exact, draw or worlds" in capsys.readouterr().err


def test_other_games_fall_back_to_hard_v1() -> None:
    agent = make_agent("hard", seed=1)
    assert isinstance(agent, NetAgent) and isinstance(agent.fallback, HeuristicAgent)
    for preset, players in (("chilean", 4), ("briscola", 3), ("mexican", 3), ("lombard", 2)):
        game = Game(preset, players, seed=2)
        assert not agent.covers(game.rules, players)
        while not game.is_over():
            seat = game.turn
            assert seat is not None
            view = game.view(seat)
            if not game.rules.dealt_out or view.hand_sizes[seat] > 4:  # (the dealt-out endgame is searched)
                assert agent.act(view) == agent.fallback.act(view)
            game.apply(agent.act(view))
    tied = Game("spanish", 2, seed=2, options={"tie": "shared"})
    assert not agent.covers(tied.rules, 2)  # other options: not the games it learned


def test_a_network_plays_only_the_presets_it_serves_and_the_expert_reads_only_the_searched_ones() -> None:
    """``two_player_family.npz`` reads four presets and serves two (``meta["serves"]``): ``hard`` plays it in
    ``mariaje`` and ``tuscan``, not in ``mexican`` (its own network's) and ``lombard`` (``hard-v1``'s); the
    expert's search reads only the networks measured against ``expert-v1`` (:data:`brisca.agents.net.SEARCHED`),
    so it plays ``tuscan`` as ``expert-v1`` does."""
    from brisca.agents.net import SEARCHED, shipped_path

    family = Net.load(shipped_path("two_player_family.npz"))
    assert family.presets == ("mariaje", "mexican", "lombard", "tuscan") and family.serves == {"mariaje", "tuscan"}
    hard = make_agent("hard", seed=1)
    assert isinstance(hard, NetAgent)
    for preset, served in (("mariaje", True), ("tuscan", True), ("lombard", False)):
        assert family.covers(make_rules(preset), 2) == served == hard.covers(make_rules(preset), 2)
    assert not family.covers(make_rules("mexican"), 2) and hard.covers(make_rules("mexican"), 2)
    wide = Net(family.arrays, {**family.meta, "serves": list(family.presets)})
    assert wide.covers(make_rules("mexican"), 2)  # (without the list it serves every preset it reads)
    assert "two_player_family.npz" not in SEARCHED
    expert = make_agent("expert", seed=1)
    assert isinstance(expert, ExpertAgent) and isinstance(expert.net, Shelf)
    assert expert.net.pick(make_rules("tuscan"), 2) is None and expert.net.pick(make_rules("spanish"), 2)


def test_the_levels_and_their_fixed_versions() -> None:
    assert isinstance(make_agent("hard-v1"), HeuristicAgent)
    old, new = make_agent("expert-v1"), make_agent("expert")
    assert isinstance(old, ExpertAgent) and isinstance(new, ExpertAgent)
    assert old.net is None and new.net is load_net(searched=True)
    assert (old.early, old.hidden, new.early, new.hidden) == ("search", 1, "net", 5)


def _a_view_and_its_worlds(preset: str, players: int, seed: int, moves: int, worlds: int
                           ) -> tuple[Net, View, int, list[Game]]:
    """A hand of ``preset`` played ``moves`` random moves in, the shipped network for it, the view of the seat to
    act, that seat, and ``worlds`` worlds sampled from the view."""
    game = Game(preset, players, seed=seed)
    net = _shipped().pick(game.rules, players)
    assert net is not None
    rng = random.Random(seed)
    for _ in range(moves):
        game.apply(rng.choice(game.legal_actions()))
    seat = game.turn
    assert seat is not None
    view = game.view(seat)
    return net, view, seat, [sample_world(view, seed=s) for s in range(worlds)]


def test_the_expert_values_leaves_with_the_network() -> None:
    net, view, seat, worlds = _a_view_and_its_worlds("briscola", 2, 6, 6, 3)
    leaves = net_leaves(net, worlds, view.legal_actions, seat)
    assert len(leaves) == 3 and all(len(row) == len(view.legal_actions) for row in leaves)
    assert all(-2 < v < 2 for row in leaves for v in row)
    for blend in (0.5, 1.0):
        agent = ExpertAgent(seed=1, sims=16, net="on", blend=blend)
        assert agent.act(view) in view.legal_actions


@pytest.mark.parametrize(("preset", "players"), [("briscola", 2), ("spanish", 4)])
def test_the_network_s_rollouts_play_as_the_network_plays(preset: str, players: int) -> None:
    """``rollout=net``: each candidate in each world played out in the lockstep batch gives the margin of the same
    hand played out in the engine by the network's choices, seat by seat from its own view."""
    from brisca.agents.exact import margin, team_of
    from brisca.agents.search import NetRollouts
    from brisca.envs.batch import COMPILED

    if not COMPILED:
        pytest.skip("the batch plays the rollouts compiled (numba)")
    net, view, seat, worlds = _a_view_and_its_worlds(preset, players, 8, 7, 5)
    rollouts = NetRollouts.make(net, view.rules, players, 5 * 6)
    assert rollouts is not None
    sides = [team_of(w, seat) for w in worlds]
    got = rollouts.values(worlds, view.legal_actions, sides, 0.01)
    for world, side, row in zip(worlds, sides, got, strict=True):
        for action, value in zip(view.legal_actions, row, strict=True):
            g = world.clone()
            g.apply(action)
            while not g.is_over():
                legal = g.legal_actions()
                g.apply(legal[0] if len(legal) == 1 else net.choose(g.view(g.turn)))
            assert value == pytest.approx(margin(g, side, 0.01), abs=1e-12)
    agent = ExpertAgent(seed=1, sims=64, rollout="net")
    assert agent.act(view) in view.legal_actions and agent.last_worlds == 64
    with pytest.raises(ValueError, match="do not fit"):
        rollouts.values(worlds * 3, view.legal_actions, sides * 3, 0.01)


def test_the_torch_learner_computes_the_numpy_learner_s_update() -> None:
    pytest.importorskip("torch")
    arrays, batch = _batch()
    _assert_learners_agree(arrays, batch, "update", ("loss_pi", "loss_v", "entropy"))


def _assert_learners_agree(arrays: dict[str, object], batch: dict[str, object], method: str,
                           keys: tuple[str, ...]) -> None:
    """One full-batch step of ``method`` by the numpy and the torch learner: the same statistics and weights."""
    from brisca.learn.train import TorchLearner

    a = NumpyLearner(arrays, lr=1e-3)
    b = TorchLearner(arrays, lr=1e-3, device="cpu")
    sa = getattr(a, method)(batch, 1, 10_000)
    sb = getattr(b, method)(batch, 1, 10_000)
    for key in keys:
        assert sa[key] == pytest.approx(sb[key], rel=1e-4, abs=1e-6)
    for name, value in a.arrays().items():
        assert np.allclose(value, b.arrays()[name], atol=1e-5)


def test_imitation_learns_the_player_s_choices() -> None:
    """Four seats of the heuristic: every decision is kept with the seat's side's reward, and the cross-entropy of the
    heuristic's choices falls as the learner steps on them (the gradient is the loss's derivative, checked too)."""
    inputs, actions = shape(["spanish"], 4)
    arrays = init_arrays(inputs, actions, 16, 0)
    part = demonstrate({"weights": arrays, "agent": "heuristic", "presets": ["spanish"], "players": 4, "games": 3,
                        "seed": 2})
    batch = merge([part], ("obs", "mask", "act", "ret"))
    assert len(batch["act"]) > 60 and set(np.round(np.abs(batch["ret"]))) == {1.0}
    assert all(batch["mask"][i, a] for i, a in enumerate(batch["act"]))
    learner = NumpyLearner(arrays, lr=3e-3)
    learner.p = {k: v.astype(np.float64) for k, v in learner.p.items()}
    learner.p["wp"] *= 50
    idx = np.arange(30)
    args = (batch["obs"][idx], batch["mask"][idx], batch["act"][idx], batch["ret"][idx])
    grads = learner.imitation_grads(*args)[1]

    def loss() -> float:
        stats = learner.imitation_grads(*args)[0]
        return stats["cross_entropy"] + learner.value_coef * stats["loss_v"]

    rng = np.random.default_rng(3)
    for name in ("w1", "w2", "wp", "bp", "wv", "bv"):
        at = tuple(int(rng.integers(0, n)) for n in learner.p[name].shape)
        learner.p[name][at] += 1e-6
        up = loss()
        learner.p[name][at] -= 2e-6
        down = loss()
        learner.p[name][at] += 1e-6
        assert (up - down) / 2e-6 == pytest.approx(grads[name][at], rel=1e-4, abs=1e-9)
    learner = NumpyLearner(arrays, lr=3e-3)
    before = learner.imitate(batch, 1, 10_000)
    for _ in range(40):
        learner.imitate(batch, 1, 10_000)
    after = learner.imitate(batch, 1, 10_000)
    assert after["cross_entropy"] < before["cross_entropy"] - 0.3
    assert after["accuracy"] > before["accuracy"]


def test_the_torch_learner_runs_on_the_threads_it_is_given() -> None:
    """``brisca train --threads`` (one by default): torch's pool of threads is the process's, set by the learner."""
    torch = pytest.importorskip("torch")
    from brisca.learn.learners import make_learner

    assert parser().parse_args(["--out", "x"]).threads == 1
    assert parser().parse_args(["--out", "x", "--threads", "2"]).threads == 2
    arrays = init_arrays(8, 4, 4, 0)
    before = torch.get_num_threads()
    try:
        make_learner("torch", arrays, 1e-3, 0, "cpu", threads=1)
        assert torch.get_num_threads() == 1
        make_learner("torch", arrays, 1e-3, 0, "cpu", threads=2)
        assert torch.get_num_threads() == 2
    finally:
        torch.set_num_threads(before)


def test_an_imitation_reads_its_views_as_bytes_a_minibatch_at_a_time() -> None:
    """A long imitation keeps its millions of views as bytes (as floats they would not fit in memory): each learner
    reads them a minibatch at a time and steps exactly as it does on the floats, and the torch learner agrees."""
    inputs, actions = shape(["spanish"], 2)
    arrays = init_arrays(inputs, actions, 16, 0)
    part = demonstrate({"weights": arrays, "agent": "heuristic", "presets": ["spanish"], "players": 2, "games": 4,
                        "seed": 3})
    raw = merge([part], ("obs", "mask", "act", "ret"), floats=False)
    floats = merge([part], ("obs", "mask", "act", "ret"))
    assert raw["obs"].dtype == np.uint8 and floats["obs"].dtype == np.float32
    assert np.array_equal(raw["obs"].astype(np.float32) / 255.0, floats["obs"])
    a, b = NumpyLearner(arrays, lr=1e-3, seed=4), NumpyLearner(arrays, lr=1e-3, seed=4)
    assert a.imitate(raw, 2, 16) == b.imitate(floats, 2, 16)
    assert all(np.array_equal(v, b.p[k]) for k, v in a.p.items())
    if importlib.util.find_spec("torch") is not None:
        from brisca.learn.train import TorchLearner

        c = TorchLearner(arrays, lr=1e-3, seed=4, device="cpu")
        stats = c.imitate(raw, 2, 16)
        d = TorchLearner(arrays, lr=1e-3, seed=4, device="cpu")
        assert d.imitate(floats, 2, 16) == pytest.approx(stats, rel=1e-4, abs=1e-6)
        assert all(np.allclose(v, d.arrays()[k], atol=1e-6) for k, v in c.arrays().items())


def test_a_four_player_run_imitates_then_plays_itself(tmp_path: Path) -> None:
    out = tmp_path / "four"
    args = ["--out", str(out), "--presets", "spanish", "--players", "4", "--workers", "1", "--games", "3",
            "--updates", "2", "--hidden", "16", "--minibatch", "512", "--epochs", "1", "--eval-every", "0",
            "--backend", "numpy", "--imitate", "heuristic", "--imitate-hands", "3", "--imitate-epochs", "2",
            "--league", "0.5", "--cues"]
    train(parser().parse_args(args), "brisca train (test)")
    rows = [json.loads(line) for line in (out / "curve.jsonl").read_text().splitlines()]
    assert rows[0]["update"] == 0 and rows[0]["imitate"] == "heuristic" and rows[0]["hands"] == 3
    assert [r["update"] for r in rows[1:]] == [1, 2]
    net = Net.load(out / "net.npz")
    assert net.players == 4 and net.meta["imitated"]["agent"] == "heuristic"
    assert net.cues and net.inputs == shape(["spanish"], 4, cues=True)[0]
    game = Game("spanish", 4, seed=5)
    assert not net.covers(Game("spanish", 2).rules, 2) and net.covers(game.rules, 4)
    agent = NetAgent(weights=str(out / "net.npz"))
    expert = ExpertAgent(seed=1, sims=4, net=str(out / "net.npz"))  # the network (with its cues) at the leaves
    while not game.is_over():
        seat = game.turn
        assert seat is not None
        action = agent.act(game.view(seat))
        assert action in game.legal_actions()
        if len(game.history) < 6:
            assert expert.act(game.view(seat)) in game.legal_actions()
        game.apply(action)


def test_the_torch_learner_imitates_as_the_numpy_learner_does() -> None:
    pytest.importorskip("torch")
    inputs, actions = shape(["spanish"], 4)
    arrays = init_arrays(inputs, actions, 16, 0)
    part = demonstrate({"weights": arrays, "agent": "heuristic", "presets": ["spanish"], "players": 4, "games": 2,
                        "seed": 4})
    _assert_learners_agree(arrays, merge([part], ("obs", "mask", "act", "ret")), "imitate",
                           ("cross_entropy", "loss_v", "accuracy"))


def test_the_docs_plot_a_run_s_curve(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    import subprocess
    import sys

    root = Path(__file__).resolve().parent.parent
    out = tmp_path / "curve.svg"
    subprocess.run([sys.executable, str(root / "docs" / "tools" / "plot_curve.py"),
                    str(root / "docs" / "curves" / "net-two-player.jsonl"), str(out), "--title", "test"],
                   check=True, timeout=120)
    text = out.read_text()
    assert text.startswith("<?xml") and "<svg" in text and "test" in text


def test_an_advised_network_reads_its_advisor_s_choice() -> None:
    inputs, actions = shape(["spanish"], 4, advisor=True)
    assert inputs == shape(["spanish"], 4)[0] + actions
    net = Net(init_arrays(inputs, actions, 8, 0), {"presets": ["spanish"], "players": 4, "advisor": "heuristic"})
    advisor = make_agent("heuristic")
    codec = net.encoder(0).codec
    base = inputs - actions
    game = Game("spanish", 4, seed=3)
    rng = random.Random(3)
    while not game.is_over():
        seat = game.turn
        assert seat is not None
        view = game.view(seat)
        x = net.features(view, 0)
        assert np.flatnonzero(x[base:]).tolist() == [codec.ids[advisor.act(view)]]
        game.apply(rng.choice(game.legal_actions()))
    assert not net.features(game.view(0), 0)[base:].any()  # no choice to make: no advice


def test_an_unknown_agent_is_one_line_and_starts_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from brisca.cli import main

    for option in ("--imitate", "--advisor"):
        out = tmp_path / option.strip("-")
        assert main(["train", "--out", str(out), option, "bogus", "--workers", "1", "--updates", "1"]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "unknown agent 'bogus'" in err and "Traceback" not in err
        assert not out.exists()


def test_a_file_that_is_not_a_network_is_one_clear_error(tmp_path: Path) -> None:
    arrays = tmp_path / "arrays.npz"
    np.savez(arrays, w1=np.zeros((2, 2)))
    text = tmp_path / "text.npz"
    text.write_text("not a network")
    for path, said in [(arrays, "it lacks meta, b1"), (text, "is not a brisca network")]:
        with pytest.raises(ValueError, match=said):
            Net.load(path)
        assert main(["arena", f"net[weights={path}]", "random", "--games", "1"]) == 2


# --- the time limit, on a fake clock ---------------------------------------------------------------------------------


class FakeClock:
    """A clock that moves only when the test's stand-ins for the work move it."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _timed(monkeypatch: pytest.MonkeyPatch, clock: FakeClock, update_s: float, deal_s: float = 0.0) -> None:
    """Each update's self-play takes ``update_s`` seconds and each evaluation deal ``deal_s``, on ``clock``."""
    from brisca.learn import evaluation, run

    def collect_timed(task: dict[str, object]) -> dict[str, object]:
        clock.now += update_s
        return collect(task)

    deal = evaluation._deal

    def deal_timed(args: tuple[object, ...]) -> list[float]:
        clock.now += deal_s
        return deal(args)

    monkeypatch.setattr(run, "collect", collect_timed)
    monkeypatch.setattr(evaluation, "_deal", deal_timed)


_SMALL = ["--presets", "spanish", "--workers", "1", "--games", "4", "--hidden", "8", "--minibatch", "64",
          "--epochs", "1", "--backend", "numpy", "--lanes", "0", "--expert-deals", "0"]


def test_no_update_starts_that_would_end_past_the_limit_and_a_line_comes_a_minute(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    clock = FakeClock()
    _timed(monkeypatch, clock, update_s=25)
    out = tmp_path / "run"
    train(parser().parse_args(["--out", str(out), *_SMALL, "--minutes", "3", "--eval-every", "0"]), "t", clock)
    # Updates end at 25, 50, ..., 175 s; the eighth would end at 200 s, past the 180 s limit, and does not start.
    state = json.loads((out / "state.json").read_text())
    assert state["update"] == 7 and state["update_seconds"] == 25  # (the next invocation's first estimate)
    assert clock.now == 175
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f"brisca train: a fresh run in {out}: 2-player spanish, 8 hidden units, numpy")
    assert lines[0].endswith("until update 1,000,000, for 3 minutes; a line a minute")
    # A line after the first update, then one as soon as a minute has passed since the last.
    ticks = [line for line in lines if " of 3:00  update" in line]
    assert [t.split("  ")[0] for t in ticks] == ["0:25 of 3:00", "1:40 of 3:00", "2:55 of 3:00"]
    assert "update 4, 16 hands (+12 in 1:15), reward" in ticks[1]
    assert lines[-1].startswith("brisca train: stopped at update 7 (the time limit), 28 hands, in 2:55")


def test_an_update_is_expected_to_take_as_long_as_the_longest_of_the_last_three(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from brisca.learn import run

    clock = FakeClock()
    times = iter([10.0, 50.0, 10.0, 10.0, 10.0, 10.0])

    def collect_timed(task: dict[str, object]) -> dict[str, object]:
        clock.now += next(times)
        return collect(task)

    monkeypatch.setattr(run, "collect", collect_timed)
    out = tmp_path / "run"
    train(parser().parse_args(["--out", str(out), *_SMALL, "--minutes", "2", "--eval-every", "0"]), "t", clock)
    # Updates end at 10, 60, 70 and 80 s; the fifth, expected to take 50 s like the second, would end past 120 s.
    assert json.loads((out / "state.json").read_text())["update"] == 4 and clock.now == 80


def test_an_evaluation_the_limit_falls_in_is_cut_and_goes_on_where_it_was_when_the_run_resumes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from brisca.learn.evaluation import evaluate

    clock = FakeClock()
    _timed(monkeypatch, clock, update_s=10, deal_s=20)
    out = tmp_path / "run"
    args = ["--out", str(out), *_SMALL, "--eval-every", "2", "--eval-deals", "3", "--snapshot", "2"]
    train(parser().parse_args([*args, "--minutes", "1"]), "t", clock)
    # Updates end at 10 and 20 s, the evaluation's first deals at 40 and 60 s; the third would end past the limit.
    assert clock.now == 60
    rows = [json.loads(line) for line in (out / "curve.jsonl").read_text().splitlines()]
    assert [r["update"] for r in rows] == [1, 2] and not any("eval" in r for r in rows)
    state = json.loads((out / "state.json").read_text())
    assert state["update"] == 2
    assert state["evaluating"]["left"] == [["spanish", "heuristic", 3]]
    assert sorted(state["evaluating"]["played"]) == ["0", "1"]
    assert "in the evaluation of this update: it goes on first when the run resumes" in capsys.readouterr().out

    clock.now = 1000.0  # another invocation, of 2 minutes
    train(parser().parse_args([*args, "--minutes", "2", "--resume"]), "t", clock)
    # The third deal (1,020 s), then updates 3 and 4 (1,040 s) and the evaluation of 4, whole (1,100 s); updates 5
    # and 6 (1,120 s), and the evaluation of 6 would end past the limit: it waits, whole, for the next invocation.
    assert clock.now == 1120
    rows = [json.loads(line) for line in (out / "curve.jsonl").read_text().splitlines()]
    assert [r["update"] for r in rows if "eval" not in r] == [1, 2, 3, 4, 5, 6]
    evals = [r for r in rows if "eval" in r]
    assert [(r["update"], r["eval_games"]) for r in evals] == [(2, 6), (4, 6)]
    state = json.loads((out / "state.json").read_text())
    assert state["evaluating"] == {"update": 6, "left": [["spanish", "heuristic", 3]], "played": {}}
    # The evaluation cut and continued scores what it would have scored whole: the same deals.
    whole = evaluate(None, out / "league" / "u000002.npz", "heuristic", "spanish", 3, 1002, 2)
    assert (round(whole[0], 4), whole[3]) == (evals[0]["score"], 6)


def test_ctrl_c_is_one_line_and_the_last_checkpoint_stands(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    from brisca.learn import run

    calls = []

    def collect_then_stop(task: dict[str, object]) -> dict[str, object]:
        calls.append(1)
        if len(calls) == 4:
            raise KeyboardInterrupt
        return collect(task)

    monkeypatch.setattr(run, "collect", collect_then_stop)
    out = tmp_path / "run"
    assert train_main(["--out", str(out), *_SMALL, "--eval-every", "0", "--checkpoint-every", "2"]) == 130
    said = capsys.readouterr()
    assert said.out.splitlines()[-1] == ("brisca train: interrupted at update 3; --resume goes on from the last "
                                         "checkpoint, update 2")
    assert said.err == ""
    assert json.loads((out / "state.json").read_text())["update"] == 2


@pytest.mark.parametrize("pooled", [False, True])
def test_an_evaluation_deal_starts_only_where_the_deals_before_it_say_it_ends_in_time(
        monkeypatch: pytest.MonkeyPatch, pooled: bool) -> None:
    from concurrent.futures import ThreadPoolExecutor

    from brisca.learn import evaluation
    from brisca.learn.deadline import Deadline

    clock = FakeClock()

    def deal(args: tuple[object, ...]) -> list[float]:
        clock.now += 15 if args[0] == ("net[weights=n.npz]", "heuristic") else 40
        return [1.0, 0.0]

    monkeypatch.setattr(evaluation, "_deal", deal)
    deadline = Deadline(100, clock)
    seconds: dict[str, list[float]] = {"heuristic": [], "expert-v1": []}
    pool = ThreadPoolExecutor(1) if pooled else None
    try:
        played: dict[int, list[float]] = {}
        # Two deals of 15 s: both end in time (30 s).
        assert evaluation.play(pool, Path("n.npz"), "heuristic", "spanish", 2, 1, 2, played, deadline, 1,
                               seconds["heuristic"])
        assert sorted(played) == [0, 1] and clock.now == 30
        # Deals of 40 s: the first, unmeasured, ends at 70 s; the second would end at 110 s, past 100: not started.
        played = {}
        assert not evaluation.play(pool, Path("n.npz"), "expert-v1", "spanish", 3, 1, 2, played, deadline, 1,
                                   seconds["expert-v1"])
        assert sorted(played) == [0] and clock.now == 70 and seconds["expert-v1"] == [40]
        # The same deals later, with time enough: the ones left, and the score of all three.
        deadline.end += 200
        assert evaluation.play(pool, Path("n.npz"), "expert-v1", "spanish", 3, 1, 2, played, deadline, 1,
                               seconds["expert-v1"])
        assert sorted(played) == [0, 1, 2] and clock.now == 150
        assert evaluation.score(played) == (0.5, *evaluation.wilson(0.5, 6), 6)
    finally:
        if pool is not None:
            pool.shutdown()


def test_a_run_written_before_the_trainer_was_a_package_resumes(tmp_path: Path) -> None:
    """tests/runs/spanish-two-updates was written by the trainer of one module (brisca/learn/train.py before it
    became brisca.learn's modules): ``--presets spanish --workers 1 --games 4 --updates 2 --hidden 8 --minibatch 64
    --epochs 1 --eval-every 0 --backend numpy --lanes 0 --snapshot 2 --league-size 3 --seed 5``."""
    import shutil

    out = tmp_path / "run"
    shutil.copytree(Path(__file__).parent / "runs" / "spanish-two-updates", out)
    before = dict(np.load(out / "checkpoint_net.npz"))
    assert train_main(["--out", str(out), "--workers", "1", "--games", "4", "--updates", "3", "--minibatch", "64",
                       "--epochs", "1", "--eval-every", "0", "--backend", "numpy", "--lanes", "0", "--snapshot",
                       "2", "--league-size", "3", "--resume"]) == 0
    state = json.loads((out / "state.json").read_text())
    assert state["update"] == 3 and state["games"] == 12 and state["presets"] == ["spanish"]
    assert state["league"] == ["u000000.npz", "u000002.npz"] and len(state["commands"]) == 2
    after = dict(np.load(out / "checkpoint_net.npz"))
    assert after["w1"].shape == before["w1"].shape and not np.allclose(after["w1"], before["w1"])
    assert Net.load(out / "net.npz").meta["updates"] == 3


def test_a_network_file_written_again_is_read_again(tmp_path: Path) -> None:
    """The trainer writes ``OUT/net.npz`` anew before each evaluation and plays it by name: each reading must
    be the file as it is now, not the first one kept in memory (else every evaluation scores the first network)."""
    first = Net.load(shipped_path("two_player.npz"))
    path = tmp_path / "net.npz"
    first.save(path)
    assert load_net(str(path)) is load_net(str(path))  # (once a version)
    loaded = load_net(str(path))
    assert isinstance(loaded, Net) and loaded.presets == ("spanish", "briscola")
    other = Net.load(shipped_path("two_player_mexican.npz"))
    other.save(path)
    again = load_net(str(path))
    assert isinstance(again, Net) and again.presets == ("mexican",)
    # A new file moved over it with the same size and time (as a fast trainer could) is still a new version.
    stat = path.stat()
    copy = tmp_path / "copy.npz"
    copy.write_bytes(path.read_bytes())
    os.utime(copy, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    os.replace(copy, path)
    assert path.stat().st_mtime_ns == stat.st_mtime_ns and path.stat().st_size == stat.st_size
    assert load_net(str(path)) is not again
