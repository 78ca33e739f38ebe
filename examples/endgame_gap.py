"""How much do the rollouts lose by playing the last cards by the heuristic's rule?

The expert plays a two-player endgame (the stock gone, nothing hidden) exactly against its
model of the opponent, but its rollouts finish every world with the heuristic's rule. This
plays hands of 2-player ``spanish`` (seat 0 the heuristic, seat 1 random) until the stock
runs out and compares, for seat 0, the exact value against a random player
(:func:`brisca.agents.exact.expect`) with the mean of seeded rollouts against one
(:func:`brisca.agents.rollout.playout`), both as a chance of winning (no margin).

    python examples/endgame_gap.py --hands 150 --rollouts 300
"""

from __future__ import annotations

import argparse
import statistics

from brisca import Game
from brisca.agents import make_agent
from brisca.agents.search import MIX_ONE, expect, playout


def gaps(hands: int, rollouts: int, variant: str) -> list[float]:
    """For each hand that reaches the endgame: the exact value minus the rollouts' mean, for seat 0."""
    out = []
    bots = [make_agent("heuristic"), make_agent("random", seed=1)]
    for seed in range(hands):
        game = Game(variant, 2, seed=seed)
        while game.stock_count and not game.is_over():
            seat = game.turn
            assert seat is not None
            game.apply(bots[seat].act(game.view(seat)))
        if game.is_over():
            continue
        exact = expect(game.clone(), 0, (), {1: 1.0}, 0.0)
        mean = sum(playout(game.clone(), 0, 0, 0.0, (), (0, MIX_ONE), s) for s in range(rollouts)) / rollouts
        out.append(exact - mean)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=150)
    parser.add_argument("--rollouts", type=int, default=300)
    parser.add_argument("--variant", default="spanish")
    args = parser.parse_args()
    found = gaps(args.hands, args.rollouts, args.variant)
    print(f"{len(found)} endgames: exact minus rollouts, mean {statistics.mean(found):+.4f}, "
          f"above 0.02 in {sum(g > 0.02 for g in found) / len(found):.0%}, largest {max(found):+.3f}")


if __name__ == "__main__":
    main()
