"""Self-play training of the ``net`` player (:mod:`brisca.agents.net`): PPO against itself and a league of its past
selves, at any number of seats its presets allow (``--players``: 2 or 3 each alone, 4 or 6 in two partnerships).

Each update, worker processes play hands with the current network (numpy, as it plays in the package): in most
hands it holds every seat, in the rest (``--league``) one side against a past self drawn from the league (a
snapshot is added every ``--snapshot`` updates). Each seat decides from its own view, its partner's cards
hidden from it as from anyone. Every decision with more than one legal action is kept with the
seat's encoded view (never a hidden card), the legal mask, the action drawn from the policy, its log-probability and
the value; at the end of the hand the seat's reward (:func:`brisca.agents.net.reward`) gives the advantages
(GAE, lambda ``--gae``). Then PPO's clipped update (``--epochs`` passes over minibatches) runs in the main process:
with torch (the ``learn`` extra, the GPU when there is one) or with the numpy learner here (the same loss, slower).

``--imitate AGENT`` starts a fresh run by imitation: ``--imitate-hands`` hands of AGENT (one of the project's
own players, say ``heuristic``) at every seat, its decisions learnt as a classification (the policy) and the
hands' rewards as the values' targets (``--imitate-epochs`` passes), before the self-play. The network then
starts where that player is rather than from random play, which a machine of two cores cannot afford to
climb out of in a few hours of four-player self-play.

Every ``--eval-every`` updates the arg-max policy plays duplicate deals against ``heuristic`` and ``expert-v1`` on
each preset (the arena's :func:`~brisca.arena.play_deal`); the scores, with the losses of every update, go to
``OUT/curve.jsonl`` (one JSON object a line), and the network to ``OUT/net.npz``. ``OUT/checkpoint*`` lets
``--resume`` continue a stopped run where it was.

    python -m brisca.learn.train --out runs/net --minutes 120 --workers 2

With ``--ray [ADDRESS]`` the self-play of each update runs as ``--workers`` tasks on a Ray cluster (``local``
starts one on this machine; otherwise the address given to ``ray.init``), the update and the evaluations stay in
this process and its local workers: the same seeds give the same hands, so a run on Ray learns what the same run
on local processes learns.

``--critic full`` gives the advantages by a critic that sees what no seat sees (every hand and the stock's order,
:meth:`brisca.envs.batch.Batch.privileged`), meant to leave the luck of the deal out of them and only the choices'
worth in (docs/strength.md measures how little of it a critic learns in an hour). The critic is used in training
only; the network still reads the seat's view alone, and its own value still learns the hand's reward (the ``net``
player's values, the expert's leaves).

``--search-every K`` adds expert iteration: every K updates the expert's search, with the current network valuing
its leaves, plays ``--search-hands`` hands at every seat, and its choices are learnt as the policy's targets (and the
hands' rewards as the values'), as in the imitation.

(``brisca train`` is the same command.) The shipped network's command is in its metadata.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import random
import shutil
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any

from brisca.agents.net import LAYERS, Net, reward
from brisca.arena import play_deal, wilson
from brisca.errors import BriscaError
from brisca.game import Game
from brisca.rules import make_rules

if TYPE_CHECKING:
    import numpy as np
else:
    try:
        import numpy as np
    except ImportError:  # training needs numpy ('fast' or 'learn'); the module still imports without it
        np = None

Arrays = dict[str, Any]

#: Scores in the curve: these opponents, on every preset.
OPPONENTS = ("heuristic", "expert-v1")


def init_arrays(inputs: int, actions: int, hidden: int, seed: int) -> Arrays:
    """A fresh network: uniform weights of scale 1/sqrt(fan-in) (the policy head 100 times smaller: near-uniform
    play at first), zero biases."""
    rng = np.random.default_rng(seed)

    def layer(n_in: int, n_out: int, scale: float = 1.0) -> tuple[Any, Any]:
        bound = scale / math.sqrt(n_in)
        return rng.uniform(-bound, bound, (n_in, n_out)).astype(np.float32), np.zeros(n_out, np.float32)

    w1, b1 = layer(inputs, hidden)
    w2, b2 = layer(hidden, hidden)
    wp, bp = layer(hidden, actions, 0.01)
    wv, bv = layer(hidden, 1)
    return {"w1": w1, "b1": b1, "w2": w2, "b2": b2, "wp": wp, "bp": bp, "wv": wv, "bv": bv}


def widen(arrays: Arrays, hidden: int, seed: int) -> Arrays:
    """``arrays`` with ``hidden`` units in each hidden layer, computing the very same function: the new units'
    incoming weights small and random, their outgoing weights zero (and no old unit reads a new one), so that
    training goes on from the network as it was with room to learn more."""
    rng = np.random.default_rng(seed)
    n_in, width = arrays["w1"].shape
    extra = hidden - width

    def small(rows: int, cols: int) -> Any:
        bound = 0.5 / math.sqrt(rows)
        return rng.uniform(-bound, bound, (rows, cols)).astype(np.float32)

    w2 = np.zeros((hidden, hidden), np.float32)
    w2[:width, :width] = arrays["w2"]
    w2[:, width:] = small(hidden, extra)
    zeros = np.zeros(extra, np.float32)
    return {"w1": np.concatenate([arrays["w1"], small(n_in, extra)], 1), "b1": np.concatenate([arrays["b1"], zeros]),
            "w2": w2, "b2": np.concatenate([arrays["b2"], zeros]),
            "wp": np.concatenate([arrays["wp"], np.zeros((extra, arrays["wp"].shape[1]), np.float32)]),
            "bp": arrays["bp"].copy(), "wv": np.concatenate([arrays["wv"], np.zeros((extra, 1), np.float32)]),
            "bv": arrays["bv"].copy()}


def shape(presets: Sequence[str], players: int = 2, advisor: bool = False, cues: bool = False) -> tuple[int, int]:
    """The network's inputs and action ids for ``presets`` (they must share the encoder's layout), with an
    advisor's choice among the inputs or not, and the :func:`~brisca.envs.encode.cues` or not."""
    from brisca.envs.encode import ObservationEncoder, cue_size

    encs = [ObservationEncoder(p, players) for p in presets]
    if len({(e.size, e.codec.size) for e in encs}) != 1:
        raise ValueError(f"{', '.join(presets)} do not share one encoding; train them apart")
    actions = encs[0].codec.size
    return encs[0].size + len(presets) + (actions if advisor else 0) + (cue_size(players) if cues else 0), actions


def with_cues(arrays: Arrays, players: int) -> Arrays:
    """``arrays`` reading the :func:`~brisca.envs.encode.cues` after its other inputs, computing the very same
    function: their weights start at zero, so that training goes on from the network as it was and learns what
    the cues are worth."""
    from brisca.envs.encode import cue_size

    return with_inputs(arrays, cue_size(players))


def with_presets(arrays: Arrays, enc_size: int, old: Sequence[str], new: Sequence[str]) -> Arrays:
    """``arrays`` (a network of the presets ``old``) reading one input a preset of ``new`` instead: a preset it
    knew keeps its weights, one new to it starts with the weights of ``old[0]``, so that it plays the new
    preset at first as it played the first it knew, and training learns where they differ (4-player
    ``briscola`` from the 4-player ``spanish`` network). ``enc_size``: the inputs before the presets'."""
    w1 = arrays["w1"]
    rows = [w1[enc_size + (old.index(p) if p in old else 0)] for p in new]
    return {**arrays, "w1": np.concatenate([w1[:enc_size], np.stack(rows), w1[enc_size + len(old):]])}


def with_inputs(arrays: Arrays, extra: int) -> Arrays:
    """``arrays`` reading ``extra`` more inputs after its own, computing the very same function (their weights
    start at zero): the cues, and the full-information critic starting from the network's own value."""
    w1 = arrays["w1"]
    return {**arrays, "w1": np.concatenate([w1, np.zeros((extra, w1.shape[1]), np.float32)])}


# --- self-play (worker processes) -----------------------------------------------------------------------------------


def _meta(task: dict[str, Any]) -> dict[str, Any]:
    """The network metadata a worker needs from its task: what the network reads."""
    return {"presets": task["presets"], "players": task.get("players", 2), "advisor": task.get("advisor"),
            "cues": bool(task.get("cues"))}


def _pick(rng: random.Random, logits: Any, ids: Sequence[int]) -> tuple[int, float]:
    """An index into ``ids`` drawn from the softmax of ``logits[ids]``, and its log-probability."""
    row = [float(logits[i]) for i in ids]
    top = max(row)
    exps = [math.exp(v - top) for v in row]
    total = sum(exps)
    u = rng.random() * total
    k = 0
    acc = exps[0]
    while acc < u and k + 1 < len(exps):
        k += 1
        acc += exps[k]
    return k, row[k] - top - math.log(total)


def collect(task: dict[str, Any]) -> dict[str, Any]:
    """Play ``task["games"]`` hands of self-play; the learner's decisions with their advantages and returns.
    With ``task["lanes"]`` set, in lockstep batches of that many hands (:func:`collect_batch`)."""
    if task.get("lanes"):
        return collect_batch(task)
    n = task.get("players", 2)
    meta = _meta(task)
    net = Net(task["weights"], meta)
    league = [Net(w, meta) for w in task["league"]]
    rng = random.Random(task["seed"])
    rules = [make_rules(p) for p in task["presets"]]
    lam = task["gae"]
    obs: list[Any] = []
    masks: list[Any] = []
    acts: list[int] = []
    logps: list[float] = []
    advs: list[float] = []
    rets: list[float] = []
    rewards: list[float] = []
    x = np.zeros(net.inputs, np.float32)
    for _ in range(task["games"]):
        p = rng.randrange(len(rules))
        game = Game(rules[p], n, dealer=rng.randrange(n), seed=rng.getrandbits(32))
        players = [net] * n
        learning = [True] * n
        if league and rng.random() < task["league_share"]:
            other = rng.randrange(game.rules.sides(n))  # a side: its seats play a past self
            past = rng.choice(league)
            for s in range(n):
                if game.side_of(s) == other:
                    players[s] = past
                    learning[s] = False
        codec = net.encoder(p).codec
        traj: list[list[tuple[Any, Any, int, float, float]]] = [[] for _ in range(n)]
        while not game.is_over():
            seat = game.turn
            assert seat is not None
            legal = game.legal_actions()
            if len(legal) == 1:
                game.apply(legal[0])
                continue
            view = game.view(seat)
            player = players[seat]
            player.features(view, p, x)
            logits, value = player.forward(x[None])
            ids = [codec.ids[a] for a in view.legal_actions]
            k, logp = _pick(rng, logits[0], ids)
            if learning[seat]:
                mask = np.zeros(codec.size, np.bool_)
                mask[ids] = True
                traj[seat].append((np.rint(x * 255).astype(np.uint8), mask, ids[k], logp, float(value[0])))
            game.apply(view.legal_actions[k])
        for seat in range(n):
            steps = traj[seat]
            if not steps:
                continue
            r = reward(game, seat)
            rewards.append(r)
            adv = 0.0
            next_value = r
            out: list[float] = []
            for step in reversed(steps):
                delta = next_value - step[4]
                adv = delta + lam * adv
                out.append(adv)
                next_value = step[4]
            out.reverse()
            for step, a in zip(steps, out, strict=True):
                obs.append(step[0])
                masks.append(step[1])
                acts.append(step[2])
                logps.append(step[3])
                advs.append(a)
                rets.append(a + step[4])
    return {
        "obs": np.stack(obs), "mask": np.stack(masks), "act": np.array(acts, np.int64),
        "logp": np.array(logps, np.float32), "adv": np.array(advs, np.float32), "ret": np.array(rets, np.float32),
        "games": task["games"], "reward": float(np.mean(rewards)) if rewards else 0.0,
    }


def _advantages(key: Any, value: Any, final: Any, lam: float) -> Any:
    """GAE (gamma 1) over each trajectory: the rows of one ``key`` in order, ``final[key]`` its reward at the end."""
    order = np.argsort(key, kind="stable")
    k = key[order]
    v = value[order].astype(np.float64)
    n = len(k)
    adv = np.zeros(n, np.float64)
    last = np.ones(n, np.bool_)
    last[:-1] = k[1:] != k[:-1]
    nxt = np.empty(n, np.float64)  # the value after each row: the next row's, or the reward after the last
    nxt[:-1] = v[1:]
    nxt[last] = final[k[last]]
    delta = nxt - v
    # from the end of each trajectory backwards, one step of every trajectory at a time
    pos = np.zeros(n, np.int64)
    run = 0
    for i in range(n - 1, -1, -1):  # (distance from the trajectory's end; cheap next to the self-play)
        run = 0 if last[i] else run + 1
        pos[i] = run
    for d in range(int(pos.max()) + 1 if n else 0):
        at = np.nonzero(pos == d)[0]
        adv[at] = delta[at] + (0.0 if d == 0 else lam * adv[at + 1])
    out = np.empty(n, np.float64)
    out[order] = adv
    return out


def collect_batch(task: dict[str, Any]) -> dict[str, Any]:
    """:func:`collect` with the hands played in lockstep (:class:`brisca.envs.batch.Batch`): ``task["lanes"]``
    hands at a time, one forward pass a network for every seat to decide across them."""
    from brisca.envs.batch import Batch, forward, policy, quantize

    n = task.get("players", 2)
    critic = task.get("critic")
    cues = bool(task.get("cues"))
    meta = _meta({**task, "advisor": None})
    nets = [Net(task["weights"], meta)] + [Net(w, meta) for w in task["league"]]
    games = task["games"]
    lanes = max(1, min(task.get("lanes", 512), games))
    rng = np.random.default_rng(task["seed"])
    batch = Batch(task["presets"], n, size=lanes, seed=int(rng.integers(1 << 62)), cues=cues)
    sides = batch.sides
    #: Which network plays each seat of each lane (0: the learner), and the lane's hand number.
    plays = np.zeros((lanes, n), np.int64)
    episode = np.zeros(lanes, np.int64)
    seat_side = np.arange(n) % sides
    started = 0
    finals: list[Any] = []  # each hand's rewards by seat, by hand number

    def deal(which: Any) -> None:
        nonlocal started
        batch.deal(which)
        for lane in which:
            episode[lane] = started
            started += 1
            plays[lane] = 0
            if len(nets) > 1 and rng.random() < task["league_share"]:
                plays[lane, seat_side == rng.integers(sides)] = rng.integers(1, len(nets))
        finals.extend([None] * len(which))

    deal(np.arange(lanes))
    live_before = batch.live.copy()
    parts: dict[str, list[Any]] = {"obs": [], "mask": [], "act": [], "logp": [], "value": [], "key": [],
                                   "priv": [], "cvalue": []}
    while True:
        obs, mask, at, seats = batch.observe()
        done = np.nonzero((live_before == 1) & (batch.live == 0))[0]
        if len(done):
            r = batch.rewards(done)
            for lane, row in zip(done, r, strict=True):
                finals[episode[lane]] = row
            more = min(len(done), games - started)
            if more > 0:
                deal(done[:more])
        live_before = batch.live.copy()
        if not len(at):
            if not batch.live.any():
                break
            continue
        who = plays[at, seats]
        ids = np.empty(len(at), np.int64)
        for k in np.unique(who):
            sel = np.nonzero(who == k)[0] if len(nets) > 1 else np.arange(len(at))
            alone = len(sel) == len(at)  # (no copies when one network plays every seat)
            pick, logp, values = policy(nets[k].arrays, obs if alone else obs[sel], mask if alone else mask[sel],
                                        rng.random(len(sel)))
            ids[sel] = pick
            if k == 0:
                parts["obs"].append(quantize(obs, sel))
                parts["mask"].append(mask[sel].copy())
                parts["act"].append(pick)
                parts["logp"].append(logp.astype(np.float32))
                parts["value"].append(values.astype(np.float32))
                parts["key"].append(episode[at[sel]] * n + seats[sel])
                if critic is not None:
                    priv = batch.privileged(at[sel], seats[sel])
                    parts["priv"].append(quantize(priv, np.arange(len(sel))))
                    full = np.concatenate([obs[sel], priv], 1)
                    parts["cvalue"].append(forward(critic, full)[1].astype(np.float32))
        batch.act(at, ids)
    final = np.array(finals, np.float64).reshape(-1)  # by hand * n + seat
    key = np.concatenate(parts["key"])
    value = np.concatenate(parts["value"])
    learned = np.unique(key)
    out = {"obs": np.concatenate(parts["obs"]), "mask": np.concatenate(parts["mask"]),
           "act": np.concatenate(parts["act"]).astype(np.int64), "logp": np.concatenate(parts["logp"]),
           "games": games, "reward": float(final[learned].mean()) if len(learned) else 0.0}
    if critic is None:
        adv = _advantages(key, value, final, task["gae"])
        return {**out, "adv": adv.astype(np.float32), "ret": (adv + value).astype(np.float32)}
    # The full-information critic: its values (which see every hand and the stock) give the advantages, meant to
    # leave the luck of the deal out of them; both values learn the hand's reward itself.
    adv = _advantages(key, np.concatenate(parts["cvalue"]), final, task["gae"])
    ret = final[key].astype(np.float32)
    return {**out, "adv": adv.astype(np.float32), "ret": ret, "priv": np.concatenate(parts["priv"]), "cret": ret}


def demonstrate(task: dict[str, Any]) -> dict[str, Any]:
    """Play ``task["games"]`` hands of ``task["agent"]`` at every seat; its decisions (each seat's encoded view, the
    legal mask, the action it chose) and, for each, the hand's reward for the seat that decided."""
    from brisca.agents.registry import make_agent

    n = task["players"]
    net = Net(task["weights"], _meta(task))
    rng = random.Random(task["seed"])
    rules = [make_rules(p) for p in task["presets"]]
    obs: list[Any] = []
    masks: list[Any] = []
    acts: list[int] = []
    rets: list[float] = []
    x = np.zeros(net.inputs, np.float32)
    for _ in range(task["games"]):
        p = rng.randrange(len(rules))
        game = Game(rules[p], n, dealer=rng.randrange(n), seed=rng.getrandbits(32))
        agents = [make_agent(task["agent"], seed=rng.getrandbits(32)) for _ in range(n)]
        codec = net.encoder(p).codec
        seats: list[int] = []
        while not game.is_over():
            seat = game.turn
            assert seat is not None
            view = game.view(seat)
            action = agents[seat].act(view)
            if len(view.legal_actions) > 1:
                net.features(view, p, x)
                mask = np.zeros(codec.size, np.bool_)
                mask[[codec.ids[a] for a in view.legal_actions]] = True
                obs.append(np.rint(x * 255).astype(np.uint8))
                masks.append(mask)
                acts.append(codec.ids[action])
                seats.append(seat)
            game.apply(action)
        rets.extend(reward(game, seat) for seat in seats)
    return {"obs": np.stack(obs), "mask": np.stack(masks), "act": np.array(acts, np.int64),
            "ret": np.array(rets, np.float32), "games": task["games"]}


def merge(parts: Sequence[dict[str, Any]], keys: Sequence[str] = ("obs", "mask", "act", "logp", "adv", "ret")
          ) -> dict[str, Any]:
    batch = {k: np.concatenate([p[k] for p in parts]) for k in keys}
    for k in ("obs", "priv"):
        if k in batch:
            batch[k] = batch[k].astype(np.float32) / 255.0
    return batch


# --- learners -------------------------------------------------------------------------------------------------------


class NumpyLearner:
    """PPO's clipped loss, backpropagated by hand and stepped with Adam: no torch needed (small runs, the tests)."""

    def __init__(self, arrays: Arrays, lr: float = 3e-4, clip: float = 0.2, value_coef: float = 0.5,
                 entropy: float = 0.01, max_norm: float = 0.5, seed: int = 0) -> None:
        self.p = {k: np.array(arrays[k], np.float32) for k in LAYERS}
        self.m = {k: np.zeros_like(v) for k, v in self.p.items()}
        self.v = {k: np.zeros_like(v) for k, v in self.p.items()}
        self.t = 0
        self.lr, self.clip, self.value_coef, self.entropy, self.max_norm = lr, clip, value_coef, entropy, max_norm
        self.rng = np.random.default_rng(seed)

    def arrays(self) -> Arrays:
        return {k: v.copy() for k, v in self.p.items()}

    def _forward(self, x: Any, mask: Any) -> tuple[Any, Any, Any, Any]:
        """The hidden layers, the masked policy's log-probabilities and the values."""
        p = self.p
        h1 = np.maximum(x @ p["w1"] + p["b1"], 0.0)
        h2 = np.maximum(h1 @ p["w2"] + p["b2"], 0.0)
        z = np.where(mask, h2 @ p["wp"] + p["bp"], -1e9)
        z = z - z.max(axis=1, keepdims=True)
        return h1, h2, z - np.log(np.exp(z).sum(axis=1, keepdims=True)), (h2 @ p["wv"] + p["bv"])[:, 0]

    def loss_and_grads(self, x: Any, mask: Any, act: Any, old: Any, adv: Any, ret: Any) -> tuple[dict[str, float],
                                                                                                  Arrays]:
        n = len(x)
        h1, h2, logp_all, value = self._forward(x, mask)
        prob = np.exp(logp_all) * mask
        rows = np.arange(n)
        logp = logp_all[rows, act]
        ratio = np.exp(logp - old)
        clipped = np.clip(ratio, 1 - self.clip, 1 + self.clip)
        surrogate = np.minimum(ratio * adv, clipped * adv)
        plogp = np.where(mask, prob * logp_all, 0.0)
        ent = -plogp.sum(axis=1)
        loss_pi = -surrogate.mean()
        loss_v = ((value - ret) ** 2).mean()
        active = ratio * adv <= clipped * adv
        g_logp = np.where(active, -ratio * adv, 0.0) / n
        dz = -prob * g_logp[:, None]
        dz[rows, act] += g_logp
        # d(-entropy)/dz_j = p_j (log p_j + H), weighed by the entropy coefficient.
        dz += self.entropy / n * (plogp + prob * ent[:, None])
        dv = (2 * self.value_coef / n) * (value - ret)
        g = self._backward(x, h1, h2, dz, dv)
        kl = float((old - logp).mean())
        stats = {"loss_pi": float(loss_pi), "loss_v": float(loss_v), "entropy": float(ent.mean()), "kl": kl,
                 "loss": float(loss_pi + self.value_coef * loss_v - self.entropy * ent.mean())}
        return stats, g

    def imitation_grads(self, x: Any, mask: Any, act: Any, ret: Any) -> tuple[dict[str, float], Arrays]:
        """Cross-entropy of the chosen actions under the masked policy, plus the values' squared error."""
        n = len(x)
        h1, h2, logp_all, value = self._forward(x, mask)
        prob = np.exp(logp_all) * mask
        rows = np.arange(n)
        dz = prob / n
        dz[rows, act] -= 1.0 / n
        dv = (2 * self.value_coef / n) * (value - ret)
        stats = {"cross_entropy": float(-logp_all[rows, act].mean()), "loss_v": float(((value - ret) ** 2).mean()),
                 "accuracy": float((logp_all.argmax(axis=1) == act).mean())}
        return stats, self._backward(x, h1, h2, dz, dv)

    def value_grads(self, x: Any, ret: Any) -> tuple[dict[str, float], Arrays]:
        """The values' squared error alone (a critic's loss: its policy head is never read)."""
        n = len(x)
        p = self.p
        h1 = np.maximum(x @ p["w1"] + p["b1"], 0.0)
        h2 = np.maximum(h1 @ p["w2"] + p["b2"], 0.0)
        value = (h2 @ p["wv"] + p["bv"])[:, 0]
        dv = (2.0 / n) * (value - ret)
        return {"loss_c": float(((value - ret) ** 2).mean())}, self._backward(x, h1, h2, np.zeros((n, len(p["bp"])),
                                                                                                 np.float32), dv)

    def regress(self, x: Any, ret: Any, epochs: int, minibatch: int) -> dict[str, float]:
        """Fit the values to ``ret`` (a critic's update)."""
        return self._steps(len(ret), epochs, minibatch, lambda idx: self.value_grads(x[idx], ret[idx]))

    def _backward(self, x: Any, h1: Any, h2: Any, dz: Any, dv: Any) -> Arrays:
        """The parameters' gradients from those of the logits (``dz``) and of the values (``dv``)."""
        p = self.p
        g: Arrays = {"wp": h2.T @ dz, "bp": dz.sum(0), "wv": h2.T @ dv[:, None], "bv": np.array([dv.sum()])}
        dh2 = (dz @ p["wp"].T + dv[:, None] @ p["wv"].T) * (h2 > 0)
        g["w2"], g["b2"] = h1.T @ dh2, dh2.sum(0)
        dh1 = (dh2 @ p["w2"].T) * (h1 > 0)
        g["w1"], g["b1"] = x.T @ dh1, dh1.sum(0)
        return g

    def imitate(self, batch: dict[str, Any], epochs: int, minibatch: int) -> dict[str, float]:
        return self._steps(len(batch["act"]), epochs, minibatch, lambda idx: self.imitation_grads(
            batch["obs"][idx], batch["mask"][idx], batch["act"][idx], batch["ret"][idx]))

    def _steps(self, n: int, epochs: int, minibatch: int,
               grads_of: Callable[[Any], tuple[dict[str, float], Arrays]]) -> dict[str, float]:
        """``epochs`` passes over ``n`` samples in shuffled minibatches, a step on ``grads_of(indices)`` each; the
        mean of its statistics."""
        totals: dict[str, float] = {}
        count = 0
        for _ in range(epochs):
            order = self.rng.permutation(n)
            for start in range(0, n, minibatch):
                stats, g = grads_of(order[start:start + minibatch])
                self.step(g)
                for k, v in stats.items():
                    totals[k] = totals.get(k, 0.0) + v
                count += 1
        return {k: v / max(1, count) for k, v in totals.items()}

    def step(self, g: Arrays) -> None:
        norm = math.sqrt(sum(float((v.astype(np.float64) ** 2).sum()) for v in g.values()))
        scale = min(1.0, self.max_norm / (norm + 1e-6))
        self.t += 1
        b1, b2 = 0.9, 0.999
        c1, c2 = 1 - b1 ** self.t, 1 - b2 ** self.t
        for k, grad in g.items():  # Adam as torch.optim.Adam computes it (eps 1e-5)
            grad = grad.astype(np.float32) * scale
            self.m[k] = b1 * self.m[k] + (1 - b1) * grad
            self.v[k] = b2 * self.v[k] + (1 - b2) * grad * grad
            self.p[k] -= (self.lr * (self.m[k] / c1) / (np.sqrt(self.v[k] / c2) + 1e-5)).astype(self.p[k].dtype)

    def update(self, batch: dict[str, Any], epochs: int, minibatch: int) -> dict[str, float]:
        adv = batch["adv"]
        adv = (adv - adv.mean()) / (adv.std() + 1e-8)
        return self._steps(len(batch["act"]), epochs, minibatch, lambda idx: self.loss_and_grads(
            batch["obs"][idx], batch["mask"][idx], batch["act"][idx], batch["logp"][idx], adv[idx],
            batch["ret"][idx]))

    def save(self, path: Path) -> None:
        state: dict[str, Any] = {f"p_{k}": v for k, v in self.p.items()} | {f"m_{k}": v for k, v in self.m.items()}
        state |= {f"v_{k}": v for k, v in self.v.items()}
        np.savez(path, t=np.array(self.t), **state)

    def load(self, path: Path) -> None:
        with np.load(path) as d:
            self.t = int(d["t"])
            for k in LAYERS:
                self.p[k], self.m[k], self.v[k] = d[f"p_{k}"], d[f"m_{k}"], d[f"v_{k}"]


class TorchLearner:
    """The same loss and update with torch (the ``learn`` extra): on the GPU where there is one."""

    def __init__(self, arrays: Arrays, lr: float = 3e-4, clip: float = 0.2, value_coef: float = 0.5,
                 entropy: float = 0.01, max_norm: float = 0.5, seed: int = 0, device: str = "auto") -> None:
        import torch

        self.torch = torch
        if device == "auto":
            device = "cuda" if torch.cuda.is_available() else "cpu"
        self.device = torch.device(device)
        torch.manual_seed(seed)
        self.p = {k: torch.nn.Parameter(torch.tensor(np.asarray(arrays[k]), device=self.device)) for k in LAYERS}
        self.lr = lr
        self.opt = torch.optim.Adam(list(self.p.values()), lr=lr, eps=1e-5)
        self.clip, self.value_coef, self.entropy, self.max_norm = clip, value_coef, entropy, max_norm
        self.gen = torch.Generator(device="cpu").manual_seed(seed)

    def arrays(self) -> Arrays:
        return {k: v.detach().cpu().numpy().copy() for k, v in self.p.items()}

    def _forward(self, x: Any, mask: Any) -> tuple[Any, Any]:
        """The masked policy's log-probabilities and the values."""
        p = self.p
        h2 = self._hidden(x)
        z = (h2 @ p["wp"] + p["bp"]).masked_fill(~mask, -1e9)
        return self.torch.log_softmax(z, dim=1), (h2 @ p["wv"] + p["bv"])[:, 0]

    def _hidden(self, x: Any) -> Any:
        """The second hidden layer's output."""
        p = self.p
        return self.torch.relu(self.torch.relu(x @ p["w1"] + p["b1"]) @ p["w2"] + p["b2"])

    def _steps(self, n: int, epochs: int, minibatch: int,
               loss_of: Callable[[Any], tuple[Any, dict[str, float]]]) -> dict[str, float]:
        """``epochs`` passes over ``n`` samples in shuffled minibatches, a step on ``loss_of(indices)`` each; the
        mean of its statistics."""
        totals: dict[str, float] = {}
        count = 0
        params = list(self.p.values())
        for _ in range(epochs):
            order = self.torch.randperm(n, generator=self.gen).to(self.device)
            for start in range(0, n, minibatch):
                loss, stats = loss_of(order[start:start + minibatch])
                self.opt.zero_grad()
                loss.backward()
                self.torch.nn.utils.clip_grad_norm_(params, self.max_norm)
                self.opt.step()
                for k, v in stats.items():
                    totals[k] = totals.get(k, 0.0) + v
                count += 1
        return {k: v / max(1, count) for k, v in totals.items()}

    def update(self, batch: dict[str, Any], epochs: int, minibatch: int) -> dict[str, float]:
        torch = self.torch
        x, mask, act, old, adv, ret = (torch.from_numpy(batch[k]).to(self.device)
                                       for k in ("obs", "mask", "act", "logp", "adv", "ret"))
        adv = (adv - adv.mean()) / (adv.std() + 1e-8)

        def loss_of(idx: Any) -> tuple[Any, dict[str, float]]:
            m = mask[idx]
            logp_all, value = self._forward(x[idx], m)
            logp = logp_all.gather(1, act[idx][:, None])[:, 0]
            ratio = torch.exp(logp - old[idx])
            a = adv[idx]
            loss_pi = -torch.minimum(ratio * a, ratio.clamp(1 - self.clip, 1 + self.clip) * a).mean()
            prob = logp_all.exp()
            ent = -(torch.where(m, prob * logp_all, torch.zeros_like(prob))).sum(1).mean()
            loss_v = ((value - ret[idx]) ** 2).mean()
            loss = loss_pi + self.value_coef * loss_v - self.entropy * ent
            return loss, {"loss_pi": loss_pi.item(), "loss_v": loss_v.item(), "entropy": ent.item(),
                          "kl": (old[idx] - logp).mean().item(), "loss": loss.item()}

        return self._steps(len(act), epochs, minibatch, loss_of)

    def imitate(self, batch: dict[str, Any], epochs: int, minibatch: int) -> dict[str, float]:
        x, mask, act, ret = (self.torch.from_numpy(batch[k]).to(self.device) for k in ("obs", "mask", "act", "ret"))

        def loss_of(idx: Any) -> tuple[Any, dict[str, float]]:
            logp_all, value = self._forward(x[idx], mask[idx])
            ce = -logp_all.gather(1, act[idx][:, None])[:, 0].mean()
            loss_v = ((value - ret[idx]) ** 2).mean()
            return ce + self.value_coef * loss_v, {
                "cross_entropy": ce.item(), "loss_v": loss_v.item(),
                "accuracy": (logp_all.argmax(1) == act[idx]).float().mean().item()}

        return self._steps(len(act), epochs, minibatch, loss_of)

    def regress(self, x: Any, ret: Any, epochs: int, minibatch: int) -> dict[str, float]:
        """Fit the values to ``ret`` (a critic's update)."""
        torch = self.torch
        xt, rt = torch.from_numpy(x).to(self.device), torch.from_numpy(ret).to(self.device)
        p = self.p

        def loss_of(idx: Any) -> tuple[Any, dict[str, float]]:
            loss = (((self._hidden(xt[idx]) @ p["wv"] + p["bv"])[:, 0] - rt[idx]) ** 2).mean()
            return loss, {"loss_c": loss.item()}

        return self._steps(len(ret), epochs, minibatch, loss_of)

    def save(self, path: Path) -> None:
        self.torch.save({"p": {k: v.detach().cpu() for k, v in self.p.items()}, "opt": self.opt.state_dict()}, path)

    def load(self, path: Path) -> None:
        state = self.torch.load(path, map_location=self.device)
        with self.torch.no_grad():
            for k, v in state["p"].items():
                self.p[k].copy_(v)
        self.opt.load_state_dict(state["opt"])
        for group in self.opt.param_groups:  # this invocation's --lr, not the saved one
            group["lr"] = self.lr


def make_learner(backend: str, arrays: Arrays, lr: float, seed: int, device: str,
                 entropy: float = 0.01) -> NumpyLearner | TorchLearner:
    if backend == "auto":
        try:
            import torch  # noqa: F401

            backend = "torch"
        except ImportError:
            backend = "numpy"
    if backend == "torch":
        return TorchLearner(arrays, lr=lr, entropy=entropy, seed=seed, device=device)
    if backend != "numpy":
        raise ValueError(f"backend is auto, torch or numpy, not {backend!r}")
    return NumpyLearner(arrays, lr=lr, entropy=entropy, seed=seed)


# --- evaluation -----------------------------------------------------------------------------------------------------


def _collect_with(task: dict[str, Any], weights: Arrays) -> dict[str, Any]:
    """:func:`collect` with the network's weights apart (a Ray task gets them from the object store)."""
    return collect({**task, "weights": weights})


class RayCollectors:
    """Self-play tasks on a Ray cluster, mapped as a process pool maps them (in the order given)."""

    def __init__(self, address: str) -> None:
        try:
            import ray
        except ImportError:
            raise BriscaError("--ray needs Ray: pip install 'brisca[ray]'") from None
        self.ray = ray
        self.started = not ray.is_initialized()
        if self.started:
            from brisca.arena import check_ray_address

            check_ray_address(address)
            try:
                ray.init(address=None if address == "local" else address, include_dashboard=False,
                         log_to_driver=False, configure_logging=False)
            except (ConnectionError, ValueError, RuntimeError) as exc:
                raise BriscaError(f"cannot reach the Ray cluster at {address!r}: {exc}") from None
        self.collect = ray.remote(_collect_with)

    def map(self, fn: Callable[[dict[str, Any]], dict[str, Any]], tasks: Sequence[dict[str, Any]]) -> list[Any]:
        assert fn is collect, "only the self-play runs on Ray"
        # The network's weights go to the object store once, not once a task (a reference is resolved only as a
        # task's own argument, not inside its dict).
        stored: dict[int, Any] = {}
        refs = []
        for t in tasks:
            weights = t["weights"]
            if id(weights) not in stored:
                stored[id(weights)] = self.ray.put(weights)
            refs.append(self.collect.remote({k: v for k, v in t.items() if k != "weights"}, stored[id(weights)]))
        return list(self.ray.get(refs))

    def shutdown(self) -> None:
        if self.started:
            self.ray.shutdown()


def _deal(args: tuple[Any, ...]) -> list[float]:
    return play_deal(*args).scores


def evaluate(pool: ProcessPoolExecutor | None, weights: Path, opponent: str, preset: str, deals: int,
             seed: int, players: int = 2) -> tuple[float, float, float, int]:
    """The network's (arg-max) score against ``opponent`` over ``deals`` duplicate deals: score, 95% interval,
    games."""
    name = f"net[weights={weights}]"
    tasks: list[tuple[Any, ...]] = [((name, opponent), d, preset, players, {}, seed, None) for d in range(deals)]
    results = list(pool.map(_deal, tasks)) if pool is not None else [_deal(t) for t in tasks]
    scores = [s for r in results for s in r]
    mean = sum(scores) / len(scores)
    low, high = wilson(mean, len(scores))
    return mean, low, high, len(scores)


# --- the run --------------------------------------------------------------------------------------------------------


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="brisca train", description="Self-play PPO training of the net player.")
    ap.add_argument("--out", required=True, help="run folder: curve.jsonl, net.npz, checkpoints")
    ap.add_argument("--presets", default="spanish,briscola", help="presets, comma-separated")
    ap.add_argument("--players", type=int, default=2, choices=(2, 3, 4, 6),
                    help="seats: 2 or 3 each alone, 4 or 6 in two partnerships (the presets must allow it)")
    ap.add_argument("--minutes", type=float, default=60.0, help="stop after this long (this invocation)")
    ap.add_argument("--updates", type=int, default=1_000_000, help="stop at this many updates (in all)")
    ap.add_argument("--workers", type=int, default=2, help="self-play processes (with --ray: tasks an update)")
    ap.add_argument("--ray", nargs="?", const="local", default=None, metavar="ADDRESS",
                    help="play the self-play on a Ray cluster (local: start one here; else its address)")
    ap.add_argument("--games", type=int, default=64, help="hands a worker plays an update")
    ap.add_argument("--lanes", type=int, default=None,
                    help="hands a worker plays at once, in lockstep (brisca.envs.batch); 0: one at a time. "
                         "Default: up to 1,024 where the batch covers the presets and numba is installed")
    ap.add_argument("--hidden", type=int, default=None,
                    help="units in each hidden layer (default 256, or --init's; more than --init's widens it)")
    ap.add_argument("--lr", type=float, default=3e-4)
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--entropy", type=float, default=0.01,
                    help="the entropy bonus's weight (less after an imitation, which starts from a sure policy)")
    ap.add_argument("--minibatch", type=int, default=4096)
    ap.add_argument("--gae", type=float, default=0.95, help="GAE lambda (the reward comes at the end of the hand)")
    ap.add_argument("--critic", default="view", choices=("view", "full"),
                    help="the values that give the advantages: the network's own (view), or a critic's that sees "
                         "every hand and the stock's order (full; training only, lockstep self-play)")
    ap.add_argument("--critic-warmup", type=int, default=10,
                    help="with --critic full: updates at its start in which the critic alone learns")
    ap.add_argument("--critic-lr", type=float, default=None, help="the critic's learning rate (default: --lr)")
    ap.add_argument("--critic-minibatch", type=int, default=1024,
                    help="the critic's minibatch (smaller than the policy's: more steps for the same work)")
    ap.add_argument("--league", type=float, default=0.3, help="share of hands against a past self")
    ap.add_argument("--snapshot", type=int, default=10, help="updates between league snapshots")
    ap.add_argument("--league-size", type=int, default=20)
    ap.add_argument("--eval-every", type=int, default=50, help="updates between evaluations (0: none)")
    ap.add_argument("--eval-deals", type=int, default=100, help="duplicate deals against heuristic a preset")
    ap.add_argument("--expert-deals", type=int, default=25, help="duplicate deals against expert-v1 a preset")
    ap.add_argument("--checkpoint-every", type=int, default=10)
    ap.add_argument("--backend", default="auto", choices=("auto", "torch", "numpy"))
    ap.add_argument("--device", default="auto", help="torch device (auto: cuda when there is one)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--resume", action="store_true", help="continue the run in --out")
    ap.add_argument("--init", help="start from this network (.npz) instead of a fresh one")
    ap.add_argument("--advisor", metavar="AGENT",
                    help="the network reads this player's choice as an input (say heuristic)")
    ap.add_argument("--cues", action="store_true",
                    help="the network reads the cues after its other inputs (brisca.envs.encode.cues); with --init "
                         "from a network without them, they start at zero weight")
    ap.add_argument("--imitate", metavar="AGENT", help="a fresh run first imitates this player (say heuristic)")
    ap.add_argument("--imitate-hands", type=int, default=4000, help="hands of AGENT to imitate")
    ap.add_argument("--imitate-epochs", type=int, default=8, help="passes over them")
    ap.add_argument("--imitate-minibatch", type=int, default=1024,
                    help="the minibatch of the imitation and of the search's choices (a classification: many small "
                         "steps learn it better than PPO's few large ones)")
    ap.add_argument("--search-every", type=int, default=0, metavar="K",
                    help="every K updates, learn the search's choices too (expert iteration; 0: never)")
    ap.add_argument("--search-hands", type=int, default=64, help="hands the search plays at every seat each time")
    ap.add_argument("--search-sims", type=int, default=50, help="worlds the search plays a move")
    ap.add_argument("--search-epochs", type=int, default=2, help="passes over its choices")
    return ap


class Run:
    """A training run's state, folder and log."""

    def __init__(self, args: argparse.Namespace, command: str) -> None:
        self.args = args
        self.out = Path(args.out)
        self.out.mkdir(parents=True, exist_ok=True)
        (self.out / "league").mkdir(exist_ok=True)
        self.presets = [p.strip() for p in args.presets.split(",") if p.strip()]
        self.players: int = args.players
        self.advisor: str | None = args.advisor
        self.cues: bool = args.cues
        self.command = command
        state_path = self.out / "state.json"
        self.resumed = args.resume and state_path.exists()
        if self.resumed:
            self.state = json.loads(state_path.read_text())
            self.presets = self.state["presets"]
            self.players = self.state.get("players", 2)
            self.advisor = self.state.get("advisor")
            self.cues = bool(self.state.get("cues"))
            arrays = dict(np.load(self.out / "checkpoint_net.npz"))
        else:
            self.state = {"update": 0, "games": 0, "samples": 0, "seconds": 0.0, "league": [],
                          "presets": self.presets, "players": self.players, "advisor": self.advisor,
                          "cues": self.cues, "hidden": args.hidden or 256,
                          "seed": args.seed, "commands": []}
            inputs, actions = shape(self.presets, self.players, self.advisor is not None, self.cues)
            if args.init:
                started = Net.load(args.init)
                arrays = dict(started.arrays)
                if list(started.presets) != list(self.presets):
                    if started.players != self.players or started.advisor:
                        raise BriscaError(f"{args.init} plays {started.players} players"
                                          f"{' with an advisor' if started.advisor else ''}: it cannot start a run"
                                          f" of {self.players} players of {', '.join(self.presets)}")
                    arrays = with_presets(arrays, started.encoder(0).size, started.presets, self.presets)
                if self.cues and not started.cues:
                    arrays = with_cues(arrays, self.players)
                elif started.cues and not self.cues:
                    raise BriscaError(f"{args.init} reads the cues: train it on with --cues")
                width = int(arrays["b1"].shape[0])
                if args.hidden and args.hidden < width:
                    raise BriscaError(f"--hidden {args.hidden} is narrower than --init's network ({width} units)")
                if args.hidden and args.hidden > width:
                    arrays = widen(arrays, args.hidden, args.seed)
                self.state["hidden"] = args.hidden or width
                # Where the network came from, kept in its metadata: the training before this run's.
                self.state["init"] = {k: started.meta[k] for k in ("updates", "games", "samples", "commands", "init")
                                      if k in started.meta}
            else:
                arrays = init_arrays(inputs, actions, args.hidden or 256, args.seed)
        self.state["commands"].append(command)
        if not self.state["league"]:  # the league starts with the first self: a near-uniform player
            Net(arrays, self.meta()).save(self.out / "league" / "u000000.npz")
            self.state["league"] = ["u000000.npz"]
        backend = args.backend
        if backend == "auto" and args.resume:
            backend = self.state.get("backend", "auto")  # the learner that saved the checkpoint reads it
        self.learner = make_learner(backend, arrays, args.lr, args.seed + self.state["update"], args.device,
                                    args.entropy)
        self.state["backend"] = "torch" if isinstance(self.learner, TorchLearner) else "numpy"
        if args.resume and (self.out / "checkpoint_learner").exists():
            self.learner.load(self.out / "checkpoint_learner")
        self.critic: NumpyLearner | TorchLearner | None = None
        if args.critic == "full":
            self._start_critic(arrays, backend)
        self.rng = random.Random(args.seed * 1_000_003 + self.state["update"])

    def _start_critic(self, arrays: Arrays, backend: str) -> None:
        """The full-information critic: from its checkpoint, or the network's own value reading the hidden cards
        with weights at zero (it starts where the network's value is, then learns what they are worth)."""
        from brisca.envs.batch import privileged_size

        args = self.args
        saved = self.out / "checkpoint_critic.npz"
        if self.resumed and saved.exists():
            critic = dict(np.load(saved))
        else:
            critic = with_inputs(arrays, privileged_size(self.players))
            self.state["critic_from"] = self.state["update"]
        self.critic = make_learner(backend, critic, args.critic_lr or args.lr, args.seed + 7 + self.state["update"],
                                   args.device, 0.0)
        if self.resumed and (self.out / "checkpoint_critic_learner").exists() and saved.exists():
            self.critic.load(self.out / "checkpoint_critic_learner")

    def warming(self) -> bool:
        """Whether the critic alone learns this update (its first ``--critic-warmup``)."""
        return self.critic is not None and self.state["update"] < self.state.get("critic_from", 0) + \
            self.args.critic_warmup

    def _learn_from(self, pool: ProcessPoolExecutor | None, agent: str, hands: int, epochs: int
                    ) -> tuple[int, int, dict[str, float], float, float]:
        """``agent`` plays about ``hands`` hands at every seat (in the local processes: Ray maps only the self-play)
        and the learner imitates its choices for ``epochs`` passes: the hands, the decisions, the learner's
        statistics, and the seconds of play and of learning."""
        workers = max(1, self.args.workers)
        share = -(-hands // workers)
        arrays = self.learner.arrays()
        tasks = [{"weights": arrays, "agent": agent, "presets": self.presets, "players": self.players,
                  "advisor": self.advisor, "cues": self.cues, "games": share, "seed": self.rng.getrandbits(48) + w}
                 for w in range(workers)]
        t0 = time.perf_counter()
        parts = list(pool.map(demonstrate, tasks)) if pool is not None else [demonstrate(t) for t in tasks]
        t1 = time.perf_counter()
        batch = merge(parts, ("obs", "mask", "act", "ret"))
        stats = self.learner.imitate(batch, epochs, self.args.imitate_minibatch)
        return share * workers, len(batch["act"]), stats, t1 - t0, time.perf_counter() - t1

    def imitate(self, pool: ProcessPoolExecutor | None) -> None:
        """The imitation that starts a fresh run (``--imitate``), logged to the curve as update 0."""
        args = self.args
        hands, samples, stats, play_s, learn_s = self._learn_from(pool, args.imitate, args.imitate_hands,
                                                                  args.imitate_epochs)
        self.state["imitated"] = {"agent": args.imitate, "hands": hands, "samples": samples}
        self.log({"update": 0, "imitate": args.imitate, "hands": hands, "samples": samples,
                  "play_s": round(play_s, 2), "learn_s": round(learn_s, 2),
                  **{k: round(v, 5) for k, v in stats.items()}})
        print(f"imitated {args.imitate}: {hands} hands, {samples} decisions, "
              f"accuracy {stats['accuracy']:.3f}, cross-entropy {stats['cross_entropy']:.3f}", flush=True)

    def search(self, pool: ProcessPoolExecutor | None) -> None:
        """Expert iteration: the expert's search, the current network valuing its leaves (``expert[net=...]``),
        plays ``--search-hands`` hands at every seat; its choices are learnt as the policy's targets and the hands'
        rewards as the values' (as in the imitation), logged to the curve beside the update."""
        args = self.args
        path = self.out / "search_net.npz"
        self.export(path)
        hands, samples, stats, play_s, learn_s = self._learn_from(
            pool, f"expert[net={path},sims={args.search_sims}]", args.search_hands, args.search_epochs)
        self.state["search_hands"] = self.state.get("search_hands", 0) + hands
        self.log({"update": self.state["update"], "search": f"expert[sims={args.search_sims}]", "hands": hands,
                  "samples": samples, "play_s": round(play_s, 2), "learn_s": round(learn_s, 2),
                  **{k: round(v, 5) for k, v in stats.items()}})

    def meta(self) -> dict[str, Any]:
        return {"presets": self.presets, "players": self.players, "hidden": self.state["hidden"],
                "advisor": self.advisor, "cues": self.cues,
                "updates": self.state["update"], "games": self.state["games"], "samples": self.state["samples"],
                "commands": self.state["commands"],
                "method": "PPO self-play with a league of past selves (brisca.learn.train)"} | (
            {"imitated": self.state["imitated"]} if "imitated" in self.state else {}) | (
            {"search_hands": self.state["search_hands"]} if "search_hands" in self.state else {}) | (
            {"init": self.state["init"]} if "init" in self.state else {})

    def export(self, path: Path) -> None:
        Net(self.learner.arrays(), self.meta()).save(path)

    def log(self, record: dict[str, Any]) -> None:
        with (self.out / "curve.jsonl").open("a") as f:
            f.write(json.dumps(record) + "\n")

    def checkpoint(self) -> None:
        arrays = self.learner.arrays()
        np.savez(self.out / "checkpoint_net.npz", **arrays)
        self._save(self.learner, "checkpoint_learner")
        if self.critic is not None:
            np.savez(self.out / "checkpoint_critic.npz", **self.critic.arrays())
            self._save(self.critic, "checkpoint_critic_learner")
        (self.out / "state.json").write_text(json.dumps(self.state))

    def _save(self, learner: NumpyLearner | TorchLearner, name: str) -> None:
        """A learner's state (weights and optimiser) to ``OUT/name``, written aside first then moved."""
        tmp = self.out / f"{name}.tmp"
        learner.save(tmp)
        saved = tmp if tmp.exists() else tmp.with_suffix(".tmp.npz")
        shutil.move(saved, self.out / name)

    def reset_league(self) -> None:
        """The league starts again with the network as it is now (after the imitation)."""
        self.snapshot("u000000.npz")
        self.state["league"] = ["u000000.npz"]

    def snapshot(self, name: str) -> None:
        """The network as it is now, into the league: a network file any player loads (``net[weights=FILE]``)."""
        self.export(self.out / "league" / name)

    def league(self) -> list[Arrays]:
        out = []
        for name in self.state["league"]:
            with np.load(self.out / "league" / name) as data:
                out.append({k: data[k] for k in data.files if k != "meta"})
        return out


def batch_lanes(lanes: int | None, games: int, presets: Sequence[str], players: int, advisor: str | None) -> int:
    """How many hands a worker plays in lockstep: ``lanes`` as asked (0: one at a time), by default up to 1,024
    where :class:`brisca.envs.batch.Batch` plays the presets compiled and no advisor is read (the advisor is
    one of our players, which reads Python views)."""
    from brisca.envs.batch import COMPILED, covers

    fits = advisor is None and all(covers(p, players) for p in presets)
    if lanes is None:
        return min(games, 1024) if fits and COMPILED else 0
    if lanes and not fits:
        raise BriscaError("--lanes: the batch plays the plain presets without an advisor "
                          f"({', '.join(presets)} at {players} players{' with an advisor' if advisor else ''} "
                          "are not covered); use --lanes 0")
    return min(lanes, games)


def train(args: argparse.Namespace, command: str = "") -> Path:
    """Run (or continue) a training run; returns the folder. See the module's doc."""
    from brisca.agents.registry import make_agent

    for name in (args.imitate, args.advisor):
        if name:
            make_agent(name)  # an unknown name fails here, before any process starts
    try:
        from brisca.agents.kernel import enabled, warm

        if enabled():
            warm()  # compile (and cache) the expert's kernel once, before the workers need it
    except ImportError:
        pass
    from brisca.envs import batch as lockstep

    if lockstep.COMPILED:
        lockstep.warm()  # the same for the lockstep self-play
    # Fresh worker processes (not forks of a process that may hold a GPU context).
    pool = ProcessPoolExecutor(max_workers=args.workers, mp_context=multiprocessing.get_context("spawn")) \
        if args.workers > 1 and args.ray is None else None
    players: RayCollectors | ProcessPoolExecutor | None = RayCollectors(args.ray) if args.ray is not None else pool
    #: Where the self-play ran, in the curve: on Ray, in worker processes, or in this process.
    play_on = "ray" if args.ray is not None else "processes" if pool is not None else "here"
    run = Run(args, command or " ".join(sys.argv))
    st = run.state
    lanes = batch_lanes(args.lanes, args.games, run.presets, run.players, run.advisor)
    if run.critic is not None and not lanes:
        raise BriscaError("--critic full reads the hidden cards from the lockstep self-play: not with --lanes 0")
    start = time.perf_counter()
    seconds0 = st["seconds"]
    try:
        if args.imitate and not run.resumed:
            run.imitate(pool)
            run.reset_league()
            run.export(run.out / "imitated.npz")
            run.checkpoint()
        league_arrays = run.league()
        while st["update"] < args.updates and time.perf_counter() - start < args.minutes * 60:
            arrays = run.learner.arrays()
            tasks: list[dict[str, Any]] = []
            for w in range(max(1, args.workers)):
                pick = [run.rng.choice(league_arrays) for _ in range(2)] if league_arrays else []
                tasks.append({"weights": arrays, "league": pick, "presets": run.presets, "players": run.players,
                              "advisor": run.advisor, "cues": run.cues, "games": args.games, "lanes": lanes,
                              "seed": run.rng.getrandbits(48) + w, "gae": args.gae, "league_share": args.league,
                              "critic": None if run.critic is None else run.critic.arrays()})
            t0 = time.perf_counter()
            parts = list(players.map(collect, tasks)) if players is not None else [collect(t) for t in tasks]
            t1 = time.perf_counter()
            keys = ("obs", "mask", "act", "logp", "adv", "ret") + (("priv", "cret") if run.critic else ())
            batch = merge(parts, keys)
            stats: dict[str, float] = {}
            if run.critic is not None:
                stats |= run.critic.regress(np.concatenate([batch["obs"], batch["priv"]], 1), batch["cret"],
                                            args.epochs, args.critic_minibatch)
            if not run.warming():
                stats |= run.learner.update(batch, args.epochs, args.minibatch)
            t2 = time.perf_counter()
            st["update"] += 1
            st["games"] += sum(p["games"] for p in parts)
            st["samples"] += len(batch["act"])
            st["seconds"] = seconds0 + time.perf_counter() - start
            run.log({"update": st["update"], "games": st["games"], "samples": st["samples"],
                     "seconds": round(st["seconds"], 1), "play_s": round(t1 - t0, 2), "learn_s": round(t2 - t1, 2),
                     "play_on": play_on,
                     "reward": round(float(np.mean([p["reward"] for p in parts])), 4),
                     **{k: round(v, 5) for k, v in stats.items()}})
            if args.search_every and st["update"] % args.search_every == 0:
                run.search(pool)
            if st["update"] % args.snapshot == 0:
                name = f"u{st['update']:06d}.npz"
                run.snapshot(name)
                st["league"] = [*st["league"], name][-args.league_size:]
                league_arrays = run.league()
            if st["update"] % args.checkpoint_every == 0:
                run.checkpoint()
            if args.eval_every and st["update"] % args.eval_every == 0:
                run.export(run.out / "net.npz")
                run.checkpoint()
                for preset in run.presets:
                    for opponent, deals in zip(OPPONENTS, (args.eval_deals, args.expert_deals), strict=True):
                        if deals <= 0:
                            continue
                        score, low, high, games = evaluate(pool, run.out / "net.npz", opponent, preset, deals,
                                                           1000 + st["update"], run.players)
                        run.log({"update": st["update"], "games": st["games"], "eval": opponent, "preset": preset,
                                 "score": round(score, 4), "low": round(low, 4), "high": round(high, 4),
                                 "eval_games": games})
                        print(f"update {st['update']}: {preset} vs {opponent} {score:.3f} ({low:.3f}-{high:.3f}) "
                              f"over {games}", flush=True)
            if st["update"] % 10 == 0:
                print(f"update {st['update']}: {st['games']} games, reward {np.mean([p['reward'] for p in parts]):+.3f}"
                      f", entropy {stats.get('entropy', float('nan')):.3f}, play {t1 - t0:.2f}s "
                      f"learn {t2 - t1:.2f}s", flush=True)
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)
        if isinstance(players, RayCollectors):
            players.shutdown()
    run.checkpoint()
    run.export(run.out / "net.npz")
    return run.out


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    words = ["brisca", "train", *(sys.argv[1:] if argv is None else argv)]
    try:
        train(args, " ".join(words))
    except BriscaError as exc:  # an unknown agent, an unreachable cluster: one line, not a traceback
        print(f"brisca train: error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    raise SystemExit(main())
