"""Is one more search step in the rollouts worth its cost? (docs/strength.md)

The expert plays each candidate out with the heuristic. A deeper search would make the
rollouts' own later choices by search too. This measures the first such step on its own: in
positions of 2-player ``spanish`` (the heuristic against a random player, at a random point of
the hand, the heuristic to move), each position is played out ``--worlds`` times (its own
random moves each time) with the heuristic's next choice made instead by a search over
``nest`` worlds redrawn from what the heuristic sees there (``Kernel.evaluate(nest=...)``),
every later choice by the heuristic. The value of the position then rises by what that one
search step is worth; the table prints, for each ``nest``, the mean rise over the positions
against the heuristic's own choice (``nest`` 0) of the value the expert maximises (a win, plus
0.01 a point of margin) and of the wins alone, with their standard errors, and the time::

    python examples/next_choice.py --positions 200 --worlds 400 --nests 0 8 32 64

Needs numba (``pip install -e '.[fast]'``).
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Sequence

from brisca.agents import Agent, make_agent
from brisca.agents.kernel import kernel_for, warm
from brisca.agents.search import MIX_ONE
from brisca.game import Game
from brisca.rules import find_variant


def positions(count: int, seed: int, variant: str = "spanish") -> list[Game]:
    """``count`` positions with the heuristic to move, each from its own hand against a random player."""
    rng = random.Random(seed)
    out: list[Game] = []
    while len(out) < count:
        game = Game(variant, 2, seed=rng.getrandbits(31))
        me = rng.randrange(2)
        agents: dict[int | None, Agent] = {me: make_agent("heuristic", seed=0),
                                           1 - me: make_agent("random", seed=rng.getrandbits(31))}
        stop = rng.randrange(0, 30)
        for _ in range(stop):
            if game.is_over():
                break
            game.apply(agents[game.turn].act(game.view(game.turn)))
        while not game.is_over() and game.turn != me:
            game.apply(agents[game.turn].act(game.view(game.turn)))
        if not game.is_over() and len(game.legal_actions()) > 1:
            out.append(game)
    return out


def won(value: float) -> float:
    """The win in a value of ``margin`` at weight 0.01 (a lead of 1 to 120 points: above 1; a draw: 0.5)."""
    return 1.0 if value > 0.75 else 0.5 if value == 0.5 else 0.0


def rise(values: Sequence[float], base: Sequence[float]) -> tuple[float, float]:
    """The mean of ``values`` minus ``base``, position by position, and its standard error."""
    d = [a - b for a, b in zip(values, base, strict=True)]
    mean = sum(d) / len(d)
    return mean, math.sqrt(sum((x - mean) ** 2 for x in d) / max(1, len(d) - 1) / len(d))


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--worlds", type=int, default=400)
    parser.add_argument("--nests", type=int, nargs="+", default=[0, 8, 32])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    fast = kernel_for(find_variant("spanish"), 2)
    if fast is None:
        sys.exit("needs numba: pip install -e '.[fast]'")
    warm()
    games = positions(args.positions, args.seed)
    means: dict[int, list[float]] = {k: [] for k in args.nests}
    wins: dict[int, list[float]] = {k: [] for k in args.nests}
    spent = dict.fromkeys(args.nests, 0.0)
    for i, game in enumerate(games):
        me = game.turn
        assert me is not None
        mix = [0, 0]
        mix[1 - me] = MIX_ONE  # the other seat plays at random, as it does
        seeds = [i * 100_003 + w for w in range(args.worlds)]
        for k in args.nests:
            start = time.perf_counter()
            values = fast.finish([game] * args.worlds, [me] * args.worlds, 0.01, (), mix, seeds, nest=k)
            spent[k] += time.perf_counter() - start
            means[k].append(sum(values) / len(values))
            wins[k].append(sum(won(v) for v in values) / len(values))
    first = args.nests[0]
    print(f"{len(games)} positions, {args.worlds} playouts each; the rise against nest={first}")
    print("| nest | value: mean rise | standard error | wins: mean rise | standard error | ms a position |")
    print("|---|---|---|---|---|---|")
    for k in args.nests:
        value, value_se = rise(means[k], means[first])
        win, win_se = rise(wins[k], wins[first])
        ms = 1000 * spent[k] / len(games)
        print(f"| {k} | {value:+.4f} | {value_se:.4f} | {win:+.4f} | {win_se:.4f} | {ms:.0f} |")

if __name__ == "__main__":
    main()
