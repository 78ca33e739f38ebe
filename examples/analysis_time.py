"""How long the analysis of a hand takes (brisca.analysis), at its default worlds and think time.

Plays ``--hands`` hands of a preset between heuristic players (seeded), analyses each record as
``brisca replay --analyse`` does, one process, and prints the seconds per hand and per searched decision
(median and mean), and how many decisions the clock cut short.

    python examples/analysis_time.py --variant spanish --players 2 --hands 10
"""

from __future__ import annotations

import argparse
import statistics
import time

from brisca import Game
from brisca.agents import make_agent
from brisca.analysis import THINK, WORLDS, analyse
from brisca.record import Record


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="spanish")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--hands", type=int, default=10)
    parser.add_argument("--worlds", type=int, default=WORLDS)
    parser.add_argument("--think", type=float, default=THINK)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    analyse(Record.from_game(_played(args.variant, args.players, 0)), worlds=4)  # the compiled kernel, warmed
    per_hand, per_decision, cut = [], [], 0
    for k in range(args.hands):
        record = Record.from_game(_played(args.variant, args.players, args.seed + k))
        start = time.perf_counter()
        result = analyse(record, seed=k, worlds=args.worlds, think=args.think)
        seconds = time.perf_counter() - start
        decisions = len(result.decisions)
        per_hand.append(seconds)
        per_decision.append(seconds / max(1, decisions))
        cut += sum(1 for m in result.decisions if m.cut)
        print(f"hand {k + 1}: {decisions} decisions searched in {seconds:.1f} s")
    print(f"{args.variant}, {args.players} players, {args.worlds} worlds and at most {args.think} s a decision:"
          f" {statistics.median(per_hand):.1f} s a hand (median; mean {statistics.mean(per_hand):.1f}),"
          f" {1000 * statistics.median(per_decision):.0f} ms a decision (median), {cut} decisions cut by the clock")


def _played(variant: str, players: int, seed: int) -> Game:
    game = Game(variant, players, seed=seed)
    agents = [make_agent("heuristic", seed=seed * 10 + s) for s in range(players)]
    while not game.is_over():
        game.apply(agents[game.turn].act(game.view(game.turn)))  # type: ignore[index]
    return game


if __name__ == "__main__":
    main()
