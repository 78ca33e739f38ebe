"""The trainer's names where they were first published, for the code that imports them from here; each is held by
the module named after its concept (:mod:`brisca.learn`). ``python -m brisca.learn.train`` is ``brisca train``."""

from __future__ import annotations

import os

from brisca.learn.collectors import RayCollectors
from brisca.learn.command import main, parser
from brisca.learn.demonstrations import demonstrate
from brisca.learn.evaluation import OPPONENTS, evaluate
from brisca.learn.learners import NumpyLearner, TorchLearner, make_learner
from brisca.learn.network import (
    Arrays,
    init_arrays,
    merge,
    shape,
    widen,
    with_actions,
    with_cues,
    with_inputs,
    with_presets,
)
from brisca.learn.run import Run, batch_lanes, train
from brisca.learn.selfplay import _advantages, collect, collect_batch

__all__ = [
    "OPPONENTS", "Arrays", "NumpyLearner", "RayCollectors", "Run", "TorchLearner", "_advantages", "batch_lanes",
    "collect", "collect_batch", "demonstrate", "evaluate", "init_arrays", "main", "make_learner", "merge", "parser",
    "shape", "train", "widen", "with_actions", "with_cues", "with_inputs", "with_presets",
]

if __name__ == "__main__":
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    raise SystemExit(main())
