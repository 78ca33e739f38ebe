"""Fit the ``learned`` card choice (:mod:`brisca.agents.learned`) to the expert's judgment.

Two steps. ``record`` plays 2-player games of the expert (a fixed number of worlds a move) against
random, heuristic and greedy players and writes, at each of its card decisions, what the heuristic's
card choice reads and the value of every playable card over sampled worlds (the heuristic finishing
each, as the expert's rollouts do). ``fit`` regresses those values, decision by decision (each
centred on its mean), on :func:`brisca.agents.learned.features` (ridge least squares), rounds the
weights to thousandths and prints them, with each policy's regret on the held-out fifth: the value
lost against the best card, on average a decision.

    python examples/train_rollout_policy.py record --games 600 --seed 101 --out d101.jsonl
    python examples/train_rollout_policy.py fit d101.jsonl

``record --rollout learned`` finishes the worlds with the learned choice instead: a second step
of policy iteration (docs/strength.md measured it no stronger than the first).

Needs numba (``pip install -e '.[fast]'``).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Sequence
from typing import Any, TextIO

import numpy as np

from brisca.actions import Action, Play
from brisca.agents import make_agent
from brisca.agents.heuristic import Situation, choose, situation
from brisca.agents.inference import beliefs
from brisca.agents.kernel import kernel_for
from brisca.agents.learned import features
from brisca.agents.search import ExpertAgent, team_of
from brisca.cards import Card, Suit
from brisca.game import Game, View
from brisca.rules import find_variant
from brisca.worlds import WorldError, WorldSampler


class Recorder(ExpertAgent):
    """The expert playing the best card over ``worlds`` sampled worlds, writing each card decision to ``out``."""

    def __init__(self, out: TextIO, worlds: int, seed: int, rollout: str = "heuristic") -> None:
        super().__init__(seed=seed, sims=worlds, rollout=rollout)  # its other decisions too: reproducible
        self.out = out
        self.worlds = worlds

    def act(self, view: View) -> Action:
        legal = view.legal_actions
        if view.players != 2 or len(legal) < 2 or any(a.__class__ is not Play for a in legal):
            return super().act(view)
        read = beliefs(view, self.read)
        self._randomness = self._random_chances(view)
        try:
            sampler = WorldSampler(view, read)
        except WorldError:
            return super().act(view)
        fast = kernel_for(view.rules, view.players)
        assert fast is not None and view.seat is not None
        greedy, mix = self._roles(view, read, sampler.believed)
        worlds = [sampler.draw(self.rng) for _ in range(self.worlds)]
        sides = [team_of(w, view.seat) for w in worlds]
        seeds = [self.rng.getrandbits(31) if mix else 0 for _ in worlds]
        rows = fast.evaluate(worlds, list(legal), sides, self.weight, greedy, mix, seeds, learned=self.learned)[0]
        q = [float(v) for v in rows.mean(axis=0)]
        cards = [a.card for a in legal if isinstance(a, Play)]
        s = situation(view, cards)
        self.out.write(json.dumps({
            "cards": [c.index for c in cards], "trick": [c.index for c in view.trick], "trump": int(s.trump),
            "pw": s.partner_winning, "oa": s.opponents_after, "tout": s.trumps_out, "top": list(s.top_out),
            "stock": view.stock_count, "q": q}) + "\n")
        return legal[int(np.argmax(q))]


def record(games: int, seed: int, out: TextIO, worlds: int, variant: str = "spanish",
           rollout: str = "heuristic") -> None:
    rules = find_variant(variant)
    rng = random.Random(seed)
    for g in range(games):
        opponent = ("random", "random", "heuristic", "greedy")[g % 4]
        me = g % 2
        agents: list[Any] = [None, None]
        agents[me] = Recorder(out, worlds, rng.getrandbits(31), rollout)
        agents[1 - me] = make_agent(opponent, seed=rng.getrandbits(31))
        game = Game(rules, 2, seed=rng.getrandbits(31))
        while not game.is_over():
            seat = game.turn
            assert seat is not None
            game.apply(agents[seat].act(game.view(seat)))
        out.flush()


def _features(d: dict[str, Any], card: int, strength: Sequence[int], points: Sequence[int]) -> list[int]:
    trick = d["trick"]
    trump = d["trump"]
    best = trick[0] if trick else -1
    for c in trick[1:]:
        if (c // 12 == best // 12 and strength[c] > strength[best]) or (c // 12 == trump and best // 12 != trump):
            best = c
    return features(card, trump, strength, points, d["cards"], trick, best, d["pw"], d["oa"], d["tout"], d["top"],
                    d["stock"])


def _heuristic_pick(d: dict[str, Any], strength: Sequence[int], points: Sequence[int]) -> int:
    cards = [Card.from_index(c) for c in d["cards"]]
    s = Situation(cards, [Card.from_index(c) for c in d["trick"]], Suit(d["trump"]), strength, points, d["pw"],
                  d["oa"], d["tout"], d["top"])
    return d["cards"].index(choose(s).index)


def fit(paths: Sequence[str], ridge: float = 1e-3, variant: str = "spanish") -> list[int]:
    rules = find_variant(variant)
    strength, points = rules.strength_table, rules.point_table
    data = []
    for path in paths:
        with open(path) as f:
            data.extend(json.loads(line) for line in f if line.strip())
    cut = len(data) * 4 // 5
    train, test = data[:cut], data[cut:]
    xs, ys = [], []
    for d in train:
        x = np.array([_features(d, c, strength, points) for c in d["cards"]], float)
        q = np.array(d["q"])
        xs.append(x - x.mean(axis=0))
        ys.append(q - q.mean())
    a = np.vstack(xs)
    w = np.linalg.solve(a.T @ a + ridge * np.eye(a.shape[1]), a.T @ np.concatenate(ys))
    weights = [int(v) for v in np.round(w * 1000)]

    def learned(d: dict[str, Any]) -> int:
        scores = [sum(wi * f for wi, f in zip(weights, _features(d, c, strength, points), strict=True))
                  for c in d["cards"]]
        return scores.index(max(scores))

    picks = {"first card": lambda d: 0, "heuristic": lambda d: _heuristic_pick(d, strength, points),
             "learned": learned}
    print(f"{len(data)} decisions: fitted on {len(train)}, regret measured on {len(test)}")
    for name, pick in picks.items():
        for part, rows in (("train", train), ("held out", test)):
            lost = [max(d["q"]) - d["q"][pick(d)] for d in rows]
            print(f"  {name:10s} {part:8s} regret {np.mean(lost):.4f}")
    print("WEIGHTS =", tuple(weights))
    return weights


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="step", required=True)
    rec = sub.add_parser("record", help="play games and write the expert's values of each card")
    rec.add_argument("--games", type=int, default=100)
    rec.add_argument("--seed", type=int, default=11)
    rec.add_argument("--worlds", type=int, default=256)
    rec.add_argument("--out", default="-", help="a JSON-lines file (default: standard output)")
    rec.add_argument("--rollout", choices=("heuristic", "learned"), default="heuristic",
                     help="who finishes each world: the heuristic's rules, or the learned choice (a policy iteration)")
    fitting = sub.add_parser("fit", help="fit the weights to recorded files")
    fitting.add_argument("files", nargs="+")
    fitting.add_argument("--ridge", type=float, default=1e-3)
    args = parser.parse_args(argv)
    if args.step == "record":
        if args.out == "-":
            record(args.games, args.seed, sys.stdout, args.worlds, rollout=args.rollout)
        else:
            with open(args.out, "w") as out:
                record(args.games, args.seed, out, args.worlds, rollout=args.rollout)
    else:
        fit(args.files, args.ridge)


if __name__ == "__main__":
    main()
