"""How fast the torch learner learns on 1, 2, ... CPU threads (``brisca train --threads``).

One pass of :meth:`TorchLearner.imitate <brisca.learn.learners.TorchLearner.imitate>` over random views of a
network's size, timed for each thread count in turn (several rounds, so that a change in the machine's load
touches every count alike)::

    python examples/learner_threads.py --threads 1 2 --rounds 2

On a machine busy with other work, threads beyond the free cores wait on each other (docs/research.md has the
figures).
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import torch

from brisca.learn.learners import TorchLearner
from brisca.learn.network import init_arrays


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--views", type=int, default=30_000)
    ap.add_argument("--inputs", type=int, default=1000)
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    actions = 200
    arrays = init_arrays(args.inputs, actions, 256, 0)
    batch = {"obs": rng.integers(0, 255, (args.views, args.inputs), dtype=np.uint8),
             "mask": np.ones((args.views, actions), bool), "act": rng.integers(0, actions, args.views),
             "ret": rng.random(args.views).astype(np.float32)}
    for r in range(args.rounds):
        for threads in args.threads:
            learner = TorchLearner(arrays, device="cpu", threads=threads)
            t = time.perf_counter()
            learner.imitate(batch, 1, 1024)
            print(f"round {r + 1}: {threads} thread(s) {time.perf_counter() - t:.2f} s "
                  f"({torch.get_num_threads()} in torch's pool)")


if __name__ == "__main__":
    main()
