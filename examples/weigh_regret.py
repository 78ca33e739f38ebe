"""Does reading the opponent's hand from its choices change the expert's late choices for the better?

``stock_choice`` solves every world the view allows from ``--hidden`` hidden cards left in the stock and plays
the move best on average. With a reader (``weigh=net``) each hand the opponent may hold counts by the network's
chance of the opponent's last choices had it held it. This plays the network (seat 0 or 1 in turn) against
``--opponent``, the network's seat solving from ``--hidden`` on as ``net[endgame=draw,hidden=K]`` does, and at
each of those decisions chooses both ways. Where the two choices differ it solves the true deal after each (both
hands and the stock known: the exact value, a win 1 and a drawn hand 1/2, plus 1/600 a point of margin) and
reports the mean difference, weighed minus uniform: paired on the same positions, so far less noisy than games.

    python examples/weigh_regret.py --hands 150 --seed 50000

It needs the kernel (numba: the ``fast`` extra) and the shipped network.
"""

from __future__ import annotations

import argparse
import math
import statistics

from brisca import Game
from brisca.agents import make_agent
from brisca.agents.exact import solve, stock_hidden
from brisca.agents.kernel import stock_choice
from brisca.agents.net import Net, load_net


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="spanish")
    parser.add_argument("--opponent", default="net", help="the agent the network plays (default: the network)")
    parser.add_argument("--hands", type=int, default=20)
    parser.add_argument("--hidden", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    shelf = load_net()
    net = shelf.pick(Game(args.variant, 2, seed=0).rules, 2) if shelf is not None else None
    if not isinstance(net, Net):
        parser.error(f"no shipped network plays 2-player {args.variant} here (numpy and numba are needed)")
    reader = net.reader()
    opponent = make_agent(args.opponent, seed=args.seed)
    positions = 0
    diffs: list[float] = []
    for h in range(args.hands):
        game = Game(args.variant, 2, seed=args.seed + h)
        mine = h % 2
        while not game.is_over():
            seat = game.turn
            assert seat is not None
            view = game.view(seat)
            if seat != mine:
                game.apply(opponent.act(view))
                continue
            left = stock_hidden(view)
            move = net.choose(view)
            if left is not None and 1 <= left <= args.hidden and len(view.legal_actions) > 1:
                uniform = stock_choice(view, args.hidden, 200, h, prefer=move)
                weighed = stock_choice(view, args.hidden, 200, h, prefer=move, reader=reader)
                positions += 1
                if uniform is not None and weighed is not None and uniform != weighed:
                    side = game.side_of(seat)
                    a, b = game.clone(), game.clone()
                    a.apply(uniform)
                    b.apply(weighed)
                    diffs.append(solve(b, side) - solve(a, side))
                move = uniform or move
            game.apply(move)
    spread = statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else 0.0
    mean = statistics.fmean(diffs) if diffs else 0.0
    print(f"{args.variant}, the network against {args.opponent}, {args.hands} hands: {positions} positions with at "
          f"most {args.hidden} hidden cards, {len(diffs)} where the weighed choice differs; there weighed minus "
          f"uniform {mean:+.4f} (±{1.96 * spread:.4f}) of a win on the true deal")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
