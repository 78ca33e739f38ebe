"""How well do a seat's plays tell a skilled player from a random one?

`brisca.agents.inference.skill_evidence` weighs each free play of a seat under the
heuristic's rule (over every hand it could have held) against a random player's. This
plays hands of 2-player `spanish` (seat 0: the heuristic; seat 1: the opponent) and
prints, for every three of seat 0's moves in the stock phase, the mean posterior chance
of random play (even odds before any play, as `expert[skilled=0.5]` starts) and the
share of hands where the posterior favours the wrong model.

    python examples/skill_evidence.py --hands 80
    python examples/skill_evidence.py --hands 80 --slack 0.1
"""

from __future__ import annotations

import argparse
import math
from collections import defaultdict

from brisca import Game
from brisca.agents import inference, make_agent


def chances(opponent: str, hands: int, variant: str) -> dict[int, list[float]]:
    """Seat 0's move number (stock phase) -> the posterior chance that seat 1 plays at random, over the hands."""
    out: dict[int, list[float]] = defaultdict(list)
    for h in range(hands):
        game = Game(variant, 2, seed=2000 + h)
        bots = [make_agent("heuristic", seed=h), make_agent(opponent, seed=h)]
        cache: dict[object, float] = {}
        move = 0
        while not game.is_over():
            seat = game.turn
            assert seat is not None
            view = game.view(seat)
            if seat == 0 and view.stock_count:
                evidence = inference.skill_evidence(view, [1], cache)
                assert evidence is not None, "the test applies to every two-player preset with a stock"
                out[move].append(1 / (1 + math.exp(evidence[1])))
                move += 1
            game.apply(bots[seat].act(view))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=80)
    parser.add_argument("--variant", default="spanish")
    parser.add_argument("--slack", type=float, default=inference.SLACK)
    args = parser.parse_args()
    inference.SLACK = args.slack
    for opponent in ("random", "heuristic", "greedy"):
        by_move = chances(opponent, args.hands, args.variant)
        print(f"{opponent} opponent (slack {args.slack})")
        for first in range(0, max(by_move) + 1, 3):
            xs = [p for m in range(first, first + 3) for p in by_move.get(m, [])]
            wrong = sum((p < 0.5) if opponent == "random" else (p > 0.5) for p in xs) / len(xs)
            print(f"  moves {first:2d}-{first + 2:2d}  n={len(xs):3d}  P(random) {sum(xs) / len(xs):.2f}"
                  f"  wrong side of even: {wrong:.2f}")


if __name__ == "__main__":
    main()
