"""How well do a seat's plays tell a greedy player from a random one?

`brisca.agents.inference.greedy_evidence` follows the opponent's hand exactly under both
models and gives the log Bayes factor of greedy against random. This plays hands of
2-player `spanish` (seat 0: the heuristic; seat 1: the opponent) and prints, for each of
seat 0's moves, the spread of the evidence over the hands: for a random opponent only
while the greedy reading still explains its plays (the world sampler keeps its beliefs),
the moves where the search would otherwise take it for a greedy player.

    python examples/greedy_evidence.py --hands 60
"""

from __future__ import annotations

import argparse
from collections import defaultdict

from brisca import Game
from brisca.agents import make_agent
from brisca.agents.inference import beliefs, greedy_evidence
from brisca.worlds import WorldSampler


def spread(opponent: str, hands: int, variant: str) -> dict[int, list[float]]:
    """Seat 0's move number -> the evidence about seat 1 at that move, over ``hands`` hands."""
    out: dict[int, list[float]] = defaultdict(list)
    for h in range(hands):
        game = Game(variant, 2, seed=2000 + h)
        bots = [make_agent("heuristic", seed=h), make_agent(opponent, seed=h)]
        move = 0
        while not game.is_over():
            seat = game.turn
            assert seat is not None
            view = game.view(seat)
            if seat == 0:
                still_read = 1 in WorldSampler(view, beliefs(view)).believed
                if still_read or opponent != "random":
                    out[move].append(greedy_evidence(view)[1])
                move += 1
            game.apply(bots[seat].act(view))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=60)
    parser.add_argument("--variant", default="spanish")
    args = parser.parse_args()
    for opponent in ("random", "greedy"):
        print(f"{opponent} opponent" + (" (moves where the greedy reading still held)" if opponent == "random" else ""))
        for move, values in sorted(spread(opponent, args.hands, args.variant).items()):
            xs = sorted(values)

            def q(f: float, xs: list[float] = xs) -> float:
                return xs[min(len(xs) - 1, int(f * len(xs)))]

            below = sum(x < 0 for x in xs) / len(xs)
            print(f"  move {move:2d}  n={len(xs):3d}  p10 {q(0.1):6.1f}  median {q(0.5):6.1f}  p90 {q(0.9):6.1f}"
                  f"  below 0: {below:.2f}")


if __name__ == "__main__":
    main()
