"""A training run: its folder (state, checkpoints, league, curve), and the loop of updates that fills it.

Each update, worker processes play hands with the current network (numpy, as it plays in the package): in most
hands it holds every seat, in the rest (``--league``) one side against a past self drawn from the league (a
snapshot is added every ``--snapshot`` updates). Each seat decides from its own view, its partner's cards
hidden from it as from anyone. Every decision with more than one legal action is kept with the
seat's encoded view (never a hidden card), the legal mask, the action drawn from the policy, its log-probability and
the value; at the end of the hand the seat's reward (:func:`brisca.agents.net.reward`) gives the advantages
(GAE, lambda ``--gae``). Then PPO's clipped update (``--epochs`` passes over minibatches) runs in the main process:
with torch (the ``learn`` extra, the GPU when there is one) or with the numpy learner (the same loss, slower).

``--imitate AGENT`` starts a fresh run by imitation: ``--imitate-hands`` hands of AGENT (one of the project's
own players, say ``heuristic``) at every seat, its decisions learnt as a classification (the policy) and the
hands' rewards as the values' targets (``--imitate-epochs`` passes), before the self-play. The network then
starts where that player is rather than from random play, which a machine of two cores cannot afford to
climb out of in a few hours of four-player self-play.

Every ``--eval-every`` updates the arg-max policy plays duplicate deals against ``heuristic`` and ``expert-v1`` on
each preset (:mod:`brisca.learn.evaluation`); the scores, with the losses of every update, go to
``OUT/curve.jsonl`` (one JSON object a line), and the network to ``OUT/net.npz``. ``OUT/checkpoint*`` lets
``--resume`` continue a stopped run where it was.

With ``--ray [ADDRESS]`` the self-play of each update runs as ``--workers`` tasks on a Ray cluster
(:mod:`brisca.learn.collectors`), the update and the evaluations stay in this process and its local workers.

``--critic full`` gives the advantages by a critic that sees what no seat sees (every hand and the stock's order,
:meth:`brisca.envs.batch.Batch.privileged`), meant to leave the luck of the deal out of them and only the choices'
worth in (docs/strength.md measures how little of it a critic learns in an hour). The critic is used in training
only; the network still reads the seat's view alone, and its own value still learns the hand's reward (the ``net``
player's values, the expert's leaves).

``--search-every K`` adds expert iteration: every K updates the expert's search, with the current network valuing
its leaves, plays ``--search-hands`` hands at every seat, and its choices are learnt as the policy's targets (and the
hands' rewards as the values'), as in the imitation.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import shutil
import signal
import sys
import time
from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

from brisca.agents.net import Net
from brisca.errors import BriscaError
from brisca.learn.collectors import RayCollectors
from brisca.learn.deadline import Deadline
from brisca.learn.demonstrations import demonstrate
from brisca.learn.evaluation import plan, play, score
from brisca.learn.learners import NumpyLearner, TorchLearner, make_learner
from brisca.learn.network import (
    Arrays,
    init_arrays,
    merge,
    shape,
    widen,
    with_actions,
    with_cues,
    with_inputs,
    with_presets,
)
from brisca.learn.progress import Progress
from brisca.learn.selfplay import collect


class Run:
    """A training run's state, folder and log."""

    def __init__(self, args: argparse.Namespace, command: str, clock: Callable[[], float] = time.monotonic) -> None:
        self.args = args
        self.clock = clock
        self.out = Path(args.out)
        self.presets, self.players, self.advisor, self.cues = settings(args)
        self.command = command
        state_path = self.out / "state.json"
        self.resumed = args.resume and state_path.exists()
        if self.resumed:
            self.state = json.loads(state_path.read_text())
            arrays = dict(np.load(self.out / "checkpoint_net.npz"))
        else:
            self.state = {"update": 0, "games": 0, "samples": 0, "seconds": 0.0, "league": [],
                          "presets": self.presets, "players": self.players, "advisor": self.advisor,
                          "cues": self.cues, "hidden": args.hidden or 256,
                          "seed": args.seed, "commands": []}
            inputs, actions = shape(self.presets, self.players, self.advisor is not None, self.cues)
            if args.init:
                try:
                    started = Net.load(args.init)
                except (OSError, ValueError) as exc:
                    raise BriscaError(f"--init: {exc}") from None
                arrays = dict(started.arrays)
                if started.players != self.players:  # (its inputs describe that many seats)
                    raise BriscaError(f"{args.init} plays {started.players} players: it cannot start a run of "
                                      f"{self.players}")
                if list(started.presets) != list(self.presets):
                    if started.advisor:
                        raise BriscaError(f"{args.init} plays with an advisor: it cannot start a run of "
                                          f"{', '.join(self.presets)}")
                    arrays = with_presets(arrays, started.encoder(0).size, started.presets, self.presets)
                    from brisca.envs.encode import ObservationEncoder

                    known = started.encoder(0).codec.actions
                    wanted = ObservationEncoder(self.presets[0], self.players).codec.actions
                    if known != wanted:  # (a preset with an action more: Bixkla's signal from Briscola's network)
                        arrays = with_actions(arrays, known, wanted)
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
        (self.out / "league").mkdir(parents=True, exist_ok=True)
        if not self.state["league"]:  # the league starts with the first self: a near-uniform player
            Net(arrays, self.meta()).save(self.out / "league" / "u000000.npz")
            self.state["league"] = ["u000000.npz"]
        backend = args.backend
        if backend == "auto" and args.resume:
            backend = self.state.get("backend", "auto")  # the learner that saved the checkpoint reads it
        self.learner = make_learner(backend, arrays, args.lr, args.seed + self.state["update"], args.device,
                                    args.entropy, args.threads)
        self.state["backend"] = "torch" if isinstance(self.learner, TorchLearner) else "numpy"
        if args.resume and (self.out / "checkpoint_learner").exists():
            self.learner.load(self.out / "checkpoint_learner")
        self.critic: NumpyLearner | TorchLearner | None = None
        if args.critic == "full":
            self._start_critic(arrays, backend)
        self.rng = random.Random(args.seed * 1_000_003 + self.state["update"])
        #: The update of the last checkpoint: where ``--resume`` goes on from.
        self.saved: int = self.state["update"]
        #: Each evaluation deal's seconds in this invocation, by opponent: what the next one is expected to take.
        self.deal_seconds: dict[str, list[float]] = {}

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
                                   args.device, 0.0, args.threads)
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
        t0 = self.clock()
        parts = list(pool.map(demonstrate, tasks)) if pool is not None else [demonstrate(t) for t in tasks]
        t1 = self.clock()
        batch = merge(parts, ("obs", "mask", "act", "ret"), floats=False)
        stats = self.learner.imitate(batch, epochs, self.args.imitate_minibatch)
        return share * workers, len(batch["act"]), stats, t1 - t0, self.clock() - t1

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

    def evaluate(self, pool: ProcessPoolExecutor | None, deadline: Deadline, progress: Progress) -> None:
        """The evaluation under way (the state's ``evaluating``: its update, the parts left, the deals of the first
        one played) continued until it ends or the next deal would not end before ``deadline``; each part's
        score logged as it ends, and the state left without ``evaluating`` once every part is."""
        st = self.state
        owed = st["evaluating"]
        while owed["left"]:
            preset, opponent, deals = owed["left"][0]
            played = {int(d): scores for d, scores in owed["played"].items()}
            ended = play(pool, self.out / "net.npz", opponent, preset, deals, 1000 + owed["update"], self.players,
                         played, deadline, max(1, self.args.workers), self.deal_seconds.setdefault(opponent, []))
            owed["played"] = {str(d): played[d] for d in sorted(played)}
            if not ended:
                return
            mean, low, high, games = score(played)
            self.log({"update": owed["update"], "games": st["games"], "eval": opponent, "preset": preset,
                      "score": round(mean, 4), "low": round(low, 4), "high": round(high, 4), "eval_games": games})
            progress.evaluation(owed["update"], preset, opponent, mean, low, high, games)
            owed["left"].pop(0)
            owed["played"] = {}
        del st["evaluating"]

    def describe(self, lanes: int, play_on: str) -> str:
        """What the start line says: the run (fresh or resumed), where, what it learns and how."""
        st = self.state
        if self.resumed:
            what = f"run {self.out} resumed at update {st['update']:,} ({st['games']:,} hands so far)"
        else:
            what = f"a fresh run in {self.out}" + (f" from {self.args.init}" if self.args.init else "")
        learner = self.learner
        on = f"torch learner on {learner.device}" if isinstance(learner, TorchLearner) else "numpy learner"
        workers = max(1, self.args.workers)
        where = {"ray": f"{workers} Ray tasks", "processes": f"{workers} processes", "here": "this process"}[play_on]
        how = "in lockstep" if lanes else "one at a time"
        return (f"{what}: {self.players}-player {', '.join(self.presets)}, {st['hidden']} hidden units, {on}, "
                f"self-play in {where} ({self.args.games:,} hands each an update, {how}), "
                f"until update {self.args.updates:,}")

    def meta(self) -> dict[str, Any]:
        return {"presets": self.presets, "players": self.players, "hidden": self.state["hidden"],
                "advisor": self.advisor, "cues": self.cues,
                "updates": self.state["update"], "games": self.state["games"], "samples": self.state["samples"],
                "commands": self.state["commands"],
                "method": "PPO self-play with a league of past selves (brisca.learn)"} | (
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
        self.saved = self.state["update"]

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


def settings(args: argparse.Namespace) -> tuple[list[str], int, str | None, bool]:
    """What the run's network reads: its presets, players, advisor and cues (a resumed run's own, from its state)."""
    state_path = Path(args.out) / "state.json"
    if args.resume and state_path.exists():
        state = json.loads(state_path.read_text())
        return state["presets"], state.get("players", 2), state.get("advisor"), bool(state.get("cues"))
    return [p.strip() for p in args.presets.split(",") if p.strip()], args.players, args.advisor, args.cues


def check(args: argparse.Namespace) -> int:
    """The options' errors, found before any file is written or process started; the lanes of the self-play."""
    from brisca.agents.registry import make_agent

    for name in (args.imitate, args.advisor, args.opponent if args.opponent_share else None):
        if name:
            make_agent(name)  # an unknown name fails here
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise BriscaError(f"--out {out} is a file, not a run's folder")
    if args.resume and out.is_dir() and (out / "state.json").exists() and \
            not (out / "checkpoint_net.npz").exists():
        raise BriscaError(f"{out} has a state.json but no checkpoint_net.npz: it cannot be resumed")
    presets, players, advisor, cues = settings(args)
    if not presets:
        raise BriscaError("--presets names no preset")
    try:
        shape(presets, players, advisor is not None, cues)
    except ValueError as exc:  # an unknown preset, or presets of different encodings
        raise BriscaError(f"--presets: {exc}") from None
    lanes = batch_lanes(args.lanes, args.games, presets, players, advisor)
    if args.critic == "full" and not lanes:
        raise BriscaError("--critic full reads the hidden cards from the lockstep self-play: not with --lanes 0")
    return lanes


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


def _leave_interrupts() -> None:
    """In a worker process: Ctrl-C is the run's to handle (the worker ends its task, then the pool stops it)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def train(args: argparse.Namespace, command: str = "", clock: Callable[[], float] = time.monotonic,
          started: float | None = None) -> Path:
    """Run (or continue) a training run; returns the folder. See the module's doc.

    ``--minutes`` holds from the call, on ``clock``: an update starts only where the last one's time fits before
    the limit, and an evaluation only where the last one's does; an evaluation the limit comes in the middle of is
    cut (its parts scored by then are kept). An evaluation cut or left out ends the run, and runs first when it
    resumes. The imitation that starts a fresh run (``--imitate``) is played whole. ``started``: the clock's
    reading when the invocation began (by default, now)."""
    deadline = Deadline(args.minutes * 60, clock, started)
    lanes = check(args)
    play_on = "ray" if args.ray is not None else "processes" if args.workers > 1 else "here"
    collectors = RayCollectors(args.ray) if args.ray is not None else None  # (an unreachable cluster: before any file)
    try:
        run = Run(args, command or " ".join(sys.argv), clock)
    except BaseException:
        if collectors is not None:
            collectors.shutdown()
        raise
    st = run.state
    progress = Progress(deadline, args.minutes)
    progress.start(run.describe(lanes, play_on), st["games"])
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
    pool = ProcessPoolExecutor(max_workers=args.workers, mp_context=multiprocessing.get_context("spawn"),
                               initializer=_leave_interrupts) if args.workers > 1 and args.ray is None else None
    players: RayCollectors | ProcessPoolExecutor | None = collectors if collectors is not None else pool
    seconds0 = st["seconds"]
    #: Seconds of the work of this invocation, the last of each kind: what the next is expected to take. An update
    #: is expected to take as long as the longest of the last three (the first, as the last invocation's did), and
    #: the run to need a checkpoint's time to end.
    last = {"search": 0.0, "eval": 0.0, "checkpoint": 0.0}
    updates: deque[float] = deque(maxlen=3)
    if "update_seconds" in st:  # the last invocation's, for this one's first update
        updates.append(st["update_seconds"])
    why = f"update {args.updates:,} reached"
    try:
        if args.imitate and not run.resumed:
            run.imitate(pool)
            run.reset_league()
            run.export(run.out / "imitated.npz")
            run.checkpoint()
        owed = st.get("evaluating")
        if owed and (owed["update"] != st["update"] or not args.eval_every):
            del st["evaluating"]  # (not of this network, or no evaluation asked for)
        elif owed:  # the evaluation the last invocation's limit cut: on, from the deal it had reached
            run.export(run.out / "net.npz")
            t_eval = clock()
            run.evaluate(pool, deadline, progress)
            last["eval"] = clock() - t_eval
        league_arrays = run.league()
        while "evaluating" not in st:
            if st["update"] >= args.updates:
                break
            if not deadline.fits(max(updates, default=0.0) + last["checkpoint"]):
                why = "the time limit"
                break
            t_start = clock()
            arrays = run.learner.arrays()
            tasks: list[dict[str, Any]] = []
            for w in range(max(1, args.workers)):
                pick = [run.rng.choice(league_arrays) for _ in range(2)] if league_arrays else []
                tasks.append({"weights": arrays, "league": pick, "presets": run.presets, "players": run.players,
                              "advisor": run.advisor, "cues": run.cues, "games": args.games, "lanes": lanes,
                              "seed": run.rng.getrandbits(48) + w, "gae": args.gae, "league_share": args.league,
                              "opponent": args.opponent, "opponent_share": args.opponent_share,
                              "critic": None if run.critic is None else run.critic.arrays()})
            t0 = clock()
            parts = list(players.map(collect, tasks)) if players is not None else [collect(t) for t in tasks]
            t1 = clock()
            keys = ("obs", "mask", "act", "logp", "adv", "ret") + (("priv", "cret") if run.critic else ())
            batch = merge(parts, keys)
            stats: dict[str, float] = {}
            if run.critic is not None:
                stats |= run.critic.regress(np.concatenate([batch["obs"], batch["priv"]], 1), batch["cret"],
                                            args.epochs, args.critic_minibatch)
            if not run.warming():
                stats |= run.learner.update(batch, args.epochs, args.minibatch)
            t2 = clock()
            st["update"] += 1
            st["games"] += sum(p["games"] for p in parts)
            st["samples"] += len(batch["act"])
            st["seconds"] = seconds0 + deadline.elapsed()
            reward = float(np.mean([p["reward"] for p in parts]))
            run.log({"update": st["update"], "games": st["games"], "samples": st["samples"],
                     "seconds": round(st["seconds"], 1), "play_s": round(t1 - t0, 2), "learn_s": round(t2 - t1, 2),
                     "play_on": play_on, "reward": round(reward, 4), **{k: round(v, 5) for k, v in stats.items()}})
            if args.search_every and st["update"] % args.search_every == 0 and deadline.fits(last["search"]):
                t_search = clock()
                run.search(pool)  # (left out where the last one's time does not fit: it is more training only)
                last["search"] = clock() - t_search
            if st["update"] % args.snapshot == 0:
                name = f"u{st['update']:06d}.npz"
                run.snapshot(name)
                st["league"] = [*st["league"], name][-args.league_size:]
                league_arrays = run.league()
            if st["update"] % args.checkpoint_every == 0:
                t_checkpoint = clock()
                run.checkpoint()
                last["checkpoint"] = clock() - t_checkpoint
            updates.append(clock() - t_start)
            st["update_seconds"] = round(max(updates), 3)
            progress.update(st["update"], st["games"], reward, stats.get("entropy"))
            if args.eval_every and st["update"] % args.eval_every == 0:
                run.export(run.out / "net.npz")
                run.checkpoint()
                todo = [list(part) for part in plan(run.presets, args.eval_deals, args.expert_deals)]
                if todo:
                    st["evaluating"] = {"update": st["update"], "left": todo, "played": {}}
                if todo and deadline.fits(last["eval"]):  # (else it waits, whole, for the run to resume)
                    t_eval = clock()
                    run.evaluate(pool, deadline, progress)
                    last["eval"] = clock() - t_eval
        if "evaluating" in st:
            why = ("the time limit, in the evaluation of this update: it goes on first when the run resumes "
                   "(--eval-deals, --expert-deals and --eval-every make evaluations shorter or rarer)")
    except KeyboardInterrupt:  # Ctrl-C: the last checkpoint stands (an update cut halfway is not saved)
        progress.say(f"brisca train: interrupted at update {st['update']:,}; --resume goes on from the last "
                     f"checkpoint, update {run.saved:,}")
        raise
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)
        if collectors is not None:
            collectors.shutdown()
    run.checkpoint()
    run.export(run.out / "net.npz")
    progress.stop(st["update"], st["games"], why, str(run.out / "net.npz"))
    return run.out
