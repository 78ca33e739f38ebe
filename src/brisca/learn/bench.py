"""``brisca bench --selfplay``: the trainer's self-play, hands in lockstep against one hand at a time.

Both play 2-player ``spanish`` and ``briscola`` (or the presets and player count asked: ``--presets chiamata
--players 5``) with the same network (fresh, of the shipped network's layer sizes: :data:`HIDDEN`) and keep the
same decisions (:func:`brisca.learn.selfplay.collect` and
:func:`~brisca.learn.selfplay.collect_batch`). Rounds of the two alternate in one process, on one core (numpy's
BLAS held to one thread where it has not started yet), and the figure tracked is the median of the rounds'
ratios of decisions a second: machines here are noisy, and a pair of rounds a second apart shares the load.
"""

from __future__ import annotations

import json
import os
import statistics
import time
from collections.abc import Sequence
from typing import Any

#: The hidden layers' width of the shipped network (``brisca/agents/nets/two_player.npz``).
HIDDEN = 256
PRESETS = ("spanish", "briscola")


def available() -> bool:
    """Whether numpy is installed (the trainer's self-play needs it)."""
    try:
        import numpy  # noqa: F401
    except ImportError:
        return False
    return True


def _one_thread() -> None:
    """Hold numpy's BLAS to one thread (only effective before numpy is first imported)."""
    for name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(name, "1")


def measure(seconds: float = 10.0, lanes: int = 1024, seed: int = 1, presets: Sequence[str] = PRESETS,
            players: int = 2) -> dict[str, Any]:
    """Paired rounds for about ``seconds``: decisions a second of each, and their ratio (median, quartiles).
    ``ValueError`` if the presets are not played at ``players`` seats or not by one network; ``BriscaError`` if
    the lockstep batch does not play them (:func:`brisca.envs.batch.covers`)."""
    _one_thread()
    from brisca.envs.batch import covers
    from brisca.errors import BriscaError
    from brisca.learn.network import init_arrays, shape
    from brisca.learn.selfplay import collect, collect_batch

    inputs, actions = shape(list(presets), players)
    if not all(covers(p, players) for p in presets):
        raise BriscaError(f"the lockstep batch does not play {', '.join(presets)} at {players} players"
                          " (brisca.envs.batch.covers)")
    task = {"weights": init_arrays(inputs, actions, HIDDEN, seed), "league": [], "presets": list(presets),
            "players": players, "gae": 0.95, "league_share": 0.0}
    collect_batch({**task, "games": 8, "lanes": 8, "seed": 0})  # compiled (or loaded from numba's cache) first

    def rate(fn: Any, games: int, round_seed: int, **extra: Any) -> tuple[float, float]:
        t = time.perf_counter()
        out = fn({**task, "games": games, "seed": round_seed, **extra})
        dt = time.perf_counter() - t
        return len(out["act"]) / dt, games / dt

    ours: list[tuple[float, float]] = []
    theirs: list[tuple[float, float]] = []
    ratios: list[float] = []
    deadline = time.perf_counter() + seconds
    k = 0
    while len(ratios) < 3 or time.perf_counter() < deadline:
        k += 1
        theirs.append(rate(collect, 48, seed + k))
        ours.append(rate(collect_batch, lanes, seed + k, lanes=lanes))
        ratios.append(ours[-1][0] / theirs[-1][0])
    return {
        "presets": list(presets), "players": players, "hidden": HIDDEN, "lanes": lanes,
        "one_at_a_time": {"decisions_per_second": statistics.median(r for r, _h in theirs),
                          "hands_per_second": statistics.median(h for _r, h in theirs)},
        "lockstep": {"decisions_per_second": statistics.median(r for r, _h in ours),
                     "hands_per_second": statistics.median(h for _r, h in ours)},
        "ratio": statistics.median(ratios), "ratio_quartiles": statistics.quantiles(ratios, n=4),
        "rounds": len(ratios),
    }


def run(seconds: float = 10.0, lanes: int = 1024, as_json: bool = False, seed: int = 1,
        presets: Sequence[str] = PRESETS, players: int = 2) -> int:
    """Print the self-play benchmark as a table (or JSON)."""
    res = measure(seconds, lanes, seed, presets, players)
    if as_json:
        print(json.dumps(res, indent=1))
        return 0
    one, many = res["one_at_a_time"], res["lockstep"]
    print(f"brisca bench --selfplay: the trainer's self-play on one core, {players}-player {' and '.join(presets)}, "
          f"a fresh network ({res['hidden']} hidden)")
    print(f"  one hand at a time (collect):          {one['decisions_per_second']:10,.0f} decisions/s"
          f" {one['hands_per_second']:8,.0f} hands/s")
    print(f"  {res['lanes']} hands in lockstep (collect_batch): {many['decisions_per_second']:10,.0f} decisions/s"
          f" {many['hands_per_second']:8,.0f} hands/s")
    q = res["ratio_quartiles"]
    print(f"  lockstep / one at a time: {res['ratio']:.1f}x (median of {res['rounds']} paired rounds; quartiles "
          f"{q[0]:.1f}-{q[2]:.1f})")
    return 0
