"""How much of a hand's outcome can a critic that sees every card predict, beyond the seat's own view?

``brisca train --critic full`` gives the advantages by a critic that reads what no seat sees (the other hand and
the stock's order, :meth:`brisca.envs.batch.Batch.privileged`). This plays ``--parts`` rounds of ``--games`` hands
of the shipped 2-player network against itself (``spanish`` and ``briscola``, lockstep), holds the last round out,
and fits two value networks to the hands' rewards on the rest, both starting from the network's own value: one
reading the view (as the network's value does), one reading the view and the hidden cards (their weights starting
at zero). After each pass it prints both values' mean squared error on the held-out hands.

    python examples/critic_fit.py --parts 12 --passes 6

It needs numpy and numba (the ``fast`` extra); torch (the ``learn`` extra) where installed, else the numpy learner.
"""

from __future__ import annotations

import argparse
from typing import Any

import numpy as np

from brisca import Game
from brisca.agents.net import Net, load_net
from brisca.envs.batch import forward, privileged_size
from brisca.learn.learners import make_learner
from brisca.learn.network import with_inputs
from brisca.learn.selfplay import collect_batch


def held_error(p: dict[str, Any], x: Any, ret: Any) -> float:
    """The value network ``p``'s mean squared error on inputs ``x`` against rewards ``ret``."""
    return float(((forward(p, x)[1] - ret) ** 2).mean())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--parts", type=int, default=12, help="rounds of self-play (the last one held out)")
    parser.add_argument("--games", type=int, default=2048, help="hands a round")
    parser.add_argument("--passes", type=int, default=6)
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument("--minibatch", type=int, default=1024)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if args.parts < 2:
        parser.error("--parts: at least 2 (one is held out)")
    shelf = load_net()
    net = shelf.pick(Game("spanish", 2, seed=0).rules, 2) if shelf is not None else None
    if not isinstance(net, Net) or net.players != 2:
        parser.error("the shipped 2-player network is needed (numpy)")
    weights = dict(net.arrays)
    critic = with_inputs(weights, privileged_size(2))
    parts = [collect_batch({"weights": weights, "league": [], "presets": list(net.presets), "games": args.games,
                            "seed": args.seed * 1000 + k, "gae": 0.9, "league_share": 0.0,
                            "lanes": min(args.games, 1024), "critic": critic}) for k in range(args.parts)]
    obs = [p["obs"].astype(np.float32) / 255 for p in parts]
    full = [np.concatenate([o, p["priv"].astype(np.float32) / 255], 1) for o, p in zip(obs, parts, strict=True)]
    ret = [p["ret"] for p in parts]
    train_ret, held_ret = np.concatenate(ret[:-1]), ret[-1]
    print(f"{sum(len(r) for r in ret)} decisions of {args.parts * args.games} hands, {len(held_ret)} held out; "
          f"the rewards' variance there {float(held_ret.var()):.4f}")
    for name, xs, start in (("view", obs, weights), ("view and hidden cards", full, critic)):
        learner = make_learner("auto", start, args.lr, args.seed, "cpu", 0.0)
        x_train, x_held = np.concatenate(xs[:-1]), xs[-1]

        errors = [held_error(learner.arrays(), x_held, held_ret)]
        for _ in range(args.passes):
            learner.regress(x_train, train_ret, 1, args.minibatch)
            errors.append(held_error(learner.arrays(), x_held, held_ret))
        print(f"{name}: held-out squared error by pass {' '.join(f'{e:.4f}' for e in errors)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
