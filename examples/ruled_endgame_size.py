"""How large is the endgame that ``hard`` solves by a game's own rules, by cards in hand?

``hard`` in the games that deal every card (``chilean``, ``chiamata``, ``rematada``) solves the end of the hand
over worlds drawn from the seat's view, each replayed and searched exactly in the compiled lockstep batch
(:func:`brisca.agents.kernel.ruled_worlds_choice`, :meth:`brisca.envs.batch.Batch.solve`). This plays hands with
``hard-v1`` at every seat and, at each choice of a card from five cards in hand down, counts the decisions the
search visits over the same number of worlds, and the milliseconds it takes here (loading the worlds and
solving them).

    python examples/ruled_endgame_size.py --variant chilean --players 4 --hands 30 --worlds 20
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from brisca import Game
from brisca.agents import make_agent
from brisca.agents import kernel
from brisca.envs.batch import Batch


def sizes(variant: str, players: int, hands: int, worlds: int, most: int) -> dict[int, tuple[int, int, float, float]]:
    """For each number of cards in hand (``most`` down): the choices measured, the decisions searched in all, and
    the seconds spent loading the worlds and solving them."""
    bot = make_agent("hard-v1", seed=1)
    batch: Batch | None = None
    out: dict[int, list[float]] = {}
    for seed in range(hands):
        game = Game(variant, players, seed=seed)
        while not game.is_over():
            seat = game.turn
            assert seat is not None
            view = game.view(seat)
            held = view.hand_sizes[seat]
            if view.phase == "play" and len(view.legal_actions) > 1 and held <= most:
                if batch is None:
                    batch = Batch([view.rules], players, size=2 * worlds)
                start = time.perf_counter()
                lanes = kernel._load_worlds(view, batch, worlds, seed)
                loaded = time.perf_counter()
                if lanes is not None:
                    lanes = np.array([lane for lane in lanes if batch.turn(int(lane)) == seat], np.int64)
                    ids = [batch.codec.ids[a] for a in view.legal_actions]
                    _values, nodes = batch.solve(lanes, seat, ids)
                    row = out.setdefault(held, [0, 0, 0.0, 0.0])
                    row[0] += 1
                    row[1] += nodes
                    row[2] += loaded - start
                    row[3] += time.perf_counter() - loaded
            game.apply(bot.act(view))
    return {k: (int(v[0]), int(v[1]), v[2], v[3]) for k, v in sorted(out.items())}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="chilean")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--hands", type=int, default=30)
    parser.add_argument("--worlds", type=int, default=20)
    parser.add_argument("--most", type=int, default=5, help="from how many cards in hand (default 5)")
    args = parser.parse_args()
    print(f"{args.variant}, {args.players} players, {args.worlds} worlds a choice, {args.hands} hands:")
    for held, (count, nodes, load, solve) in sizes(args.variant, args.players, args.hands, args.worlds,
                                                   args.most).items():
        print(f"  {held} cards in hand: {count} choices, {nodes // count} decisions searched a choice, "
              f"{1000 * load / count:.2f} ms loading the worlds and {1000 * solve / count:.2f} ms solving them")


if __name__ == "__main__":
    main()
