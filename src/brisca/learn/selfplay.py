"""The self-play of an update, in a worker process: hands of the network against itself and its league, and the
learner's decisions in them with their advantages (GAE) and returns.

:func:`collect` plays one hand at a time with :class:`~brisca.game.Game` (any preset, an advisor read or not);
:func:`collect_batch` plays many in lockstep (:class:`brisca.envs.batch.Batch`, compiled), keeping the same
decisions, and gives the full-information critic's advantages (``--critic full``). Each seat decides from its own
view; no hidden card is kept in the samples but the critic's own inputs.

A share of the hands (``task["opponent_share"]``, ``--opponent-share``) puts a fixed player of the project
(``task["opponent"]``, ``heuristic`` by default) at every seat but one side's (the learner's): the network then
learns against a player of that strength as well as against itself, where self-play alone levels off below it.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

import numpy as np

from brisca.agents.base import Agent
from brisca.agents.net import Net, reward
from brisca.game import Game
from brisca.learn.network import task_meta
from brisca.rules import make_rules


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


def _opponents(task: dict[str, Any], rng: random.Random, n: int) -> list[Agent] | None:
    """The fixed opponent's players for one hand's seats, drawn for ``task["opponent_share"]`` of the hands."""
    share = task.get("opponent_share", 0.0)
    if not share or rng.random() >= share:
        return None
    from brisca.agents.registry import make_agent

    return [make_agent(task.get("opponent", "heuristic"), seed=rng.getrandbits(32)) for _ in range(n)]


def collect(task: dict[str, Any]) -> dict[str, Any]:
    """Play ``task["games"]`` hands of self-play; the learner's decisions with their advantages and returns.
    With ``task["lanes"]`` set, in lockstep batches of that many hands (:func:`collect_batch`)."""
    if task.get("lanes"):
        return collect_batch(task)
    n = task.get("players", 2)
    meta = task_meta(task)
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
        players: list[Net | Agent] = [net] * n
        learning = [True] * n
        fixed = _opponents(task, rng, n)
        if fixed is not None:
            mine = rng.randrange(game.rules.sides(n))  # the learner's side: every other seat is the fixed opponent
            for s in range(n):
                if game.side_of(s) != mine:
                    players[s] = fixed[s]
                    learning[s] = False
        elif league and rng.random() < task["league_share"]:
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
            if not isinstance(player, Net):
                game.apply(player.act(view))
                continue
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
    meta = task_meta({**task, "advisor": None})
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
    # The hands against the fixed opponent (plays -1 at its side's seats): each lane's hand is also played on the
    # engine, whose views the opponent reads (the batch has no views), with the lane's preset index.
    pick_rng = random.Random(int(rng.integers(1 << 62)))
    rules = [make_rules(p) for p in task["presets"]]
    mirrors: dict[int, tuple[Game, list[Agent], int]] = {}
    codecs = [nets[0].encoder(p).codec for p in range(len(rules))]
    mirrored = np.zeros(lanes, np.bool_)

    def deal(which: Any) -> None:
        nonlocal started
        batch.deal(which)
        for lane in which:
            episode[lane] = started
            started += 1
            plays[lane] = 0
            mirrors.pop(int(lane), None)
            mirrored[lane] = False
            fixed = _opponents(task, pick_rng, n)
            if fixed is not None:
                p = pick_rng.randrange(len(rules))
                game = Game(rules[p], n, dealer=pick_rng.randrange(n), seed=pick_rng.getrandbits(32))
                batch.load(int(lane), game, p)
                mirrors[int(lane)] = (game, fixed, p)
                mirrored[lane] = True
                plays[lane, seat_side != rng.integers(sides)] = -1
            elif len(nets) > 1 and rng.random() < task["league_share"]:
                plays[lane, seat_side == rng.integers(sides)] = rng.integers(1, len(nets))
        finals.extend([None] * len(which))

    def forced(game: Game) -> None:
        """The moves the batch played alone since the last decision (a seat with one legal action)."""
        while not game.is_over():
            legal = game.legal_actions()
            if len(legal) != 1:
                return
            game.apply(legal[0])

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
        for row in np.nonzero(who < 0)[0]:
            game, fixed, p = mirrors[int(at[row])]
            forced(game)
            assert game.turn == seats[row], "the engine's hand and the batch's lane went apart"
            ids[row] = codecs[p].ids[fixed[int(seats[row])].act(game.view(int(seats[row])))]
        for k in np.unique(who[who >= 0]):
            sel = np.nonzero(who == k)[0] if len(nets) > 1 or mirrors else np.arange(len(at))
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
        for row in np.nonzero(mirrored[at])[0] if mirrors else ():
            game, _, p = mirrors[int(at[row])]
            forced(game)
            game.apply(codecs[p].actions[int(ids[row])])
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
