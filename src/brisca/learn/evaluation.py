"""The evaluation of a run's network: its arg-max policy against the project's players over duplicate deals (the
arena's :func:`~brisca.arena.play_deal`), on each preset. A deal starts only where the deals played so far say it
ends before the run's time limit; the deals played are kept, so that an evaluation the limit cuts continues where
it was (the same deals, the same score as if it had not been cut)."""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from pathlib import Path
from typing import Any

from brisca.arena import play_deal, wilson
from brisca.learn.deadline import Deadline

#: Scores in the curve: these opponents, on every preset.
OPPONENTS = ("heuristic", "expert-v1")

#: The longest a wait on the worker processes lasts before the clock is read again (seconds).
POLL = 1.0


def plan(presets: Sequence[str], eval_deals: int, expert_deals: int) -> list[tuple[str, str, int]]:
    """An evaluation's parts, in order: ``(preset, opponent, deals)`` for each preset and opponent that plays
    any deal (``--eval-deals`` against heuristic, ``--expert-deals`` against expert-v1)."""
    return [(preset, opponent, deals) for preset in presets
            for opponent, deals in zip(OPPONENTS, (eval_deals, expert_deals), strict=True) if deals > 0]


def _deal(args: tuple[Any, ...]) -> list[float]:
    return play_deal(*args).scores


def play(pool: Executor | None, weights: Path, opponent: str, preset: str, deals: int, seed: int,
         players: int, played: dict[int, list[float]], deadline: Deadline | None = None, width: int = 1,
         seconds: list[float] | None = None) -> bool:
    """Play the deals of ``range(deals)`` not in ``played`` (``width`` at a time in ``pool``), each one's scores
    into ``played`` as it ends; whether all are played. None starts that the deals so far say would end past
    ``deadline``: those timed in ``seconds`` (each deal's, as the clock saw it: pass the same list for the same
    opponent), and this call's."""
    name = f"net[weights={weights}]"
    todo = [d for d in range(deals) if d not in played]
    seconds = [] if seconds is None else seconds

    def fits() -> bool:
        return deadline is None or deadline.fits(statistics.fmean(seconds) if seconds else 0.0)

    def task(d: int) -> tuple[Any, ...]:
        return (name, opponent), d, preset, players, {}, seed, None

    if pool is None:
        for d in todo:
            if not fits():
                return False
            t0 = deadline.clock() if deadline else 0.0
            played[d] = _deal(task(d))
            if deadline:
                seconds.append(deadline.clock() - t0)
        return True
    running: dict[Future[list[float]], tuple[int, float]] = {}
    queue = list(reversed(todo))
    while queue or running:
        while queue and len(running) < width and fits():
            d = queue.pop()
            running[pool.submit(_deal, task(d))] = (d, deadline.clock() if deadline else 0.0)
        if not running:
            return False
        done, _ = wait(running, timeout=POLL, return_when=FIRST_COMPLETED)
        for future in done:
            d, t0 = running.pop(future)
            played[d] = future.result()
            if deadline:
                seconds.append(deadline.clock() - t0)
    return True


def score(played: dict[int, list[float]]) -> tuple[float, float, float, int]:
    """The mean score of the deals ``played``, its 95% interval, and the games."""
    scores = [s for d in sorted(played) for s in played[d]]
    mean = sum(scores) / len(scores)
    low, high = wilson(mean, len(scores))
    return mean, low, high, len(scores)


def evaluate(pool: ProcessPoolExecutor | None, weights: Path, opponent: str, preset: str, deals: int,
             seed: int, players: int = 2) -> tuple[float, float, float, int]:
    """The network's (arg-max) score against ``opponent`` over ``deals`` duplicate deals: score, 95% interval,
    games."""
    played: dict[int, list[float]] = {}
    play(pool, weights, opponent, preset, deals, seed, players, played, width=max(1, deals))
    return score(played)
