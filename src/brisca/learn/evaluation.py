"""The evaluation of a run's network: its arg-max policy against the project's players over duplicate deals (the
arena's :func:`~brisca.arena.play_deal`), on each preset; cut, scoring nothing, where the run's time limit comes
in the middle of it."""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
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


def evaluate(pool: ProcessPoolExecutor | None, weights: Path, opponent: str, preset: str, deals: int,
             seed: int, players: int = 2, deadline: Deadline | None = None
             ) -> tuple[float, float, float, int] | None:
    """The network's (arg-max) score against ``opponent`` over ``deals`` duplicate deals: score, 95% interval,
    games; None where ``deadline`` comes before the last deal is played (the deals not started are cancelled)."""
    name = f"net[weights={weights}]"
    tasks: list[tuple[Any, ...]] = [((name, opponent), d, preset, players, {}, seed, None) for d in range(deals)]
    results: list[list[float]] = []
    if pool is None:
        for task in tasks:
            if deadline is not None and deadline.passed():
                return None
            results.append(_deal(task))
    elif deadline is None:
        results = list(pool.map(_deal, tasks))
    else:
        pending: set[Future[list[float]]] = {pool.submit(_deal, t) for t in tasks}
        while pending:
            if deadline.passed():
                for future in pending:
                    future.cancel()
                return None
            done, pending = wait(pending, timeout=min(POLL, max(deadline.left(), 0.01)),
                                 return_when=FIRST_COMPLETED)
            results.extend(f.result() for f in done)
    scores = [s for r in results for s in r]
    mean = sum(scores) / len(scores)
    low, high = wilson(mean, len(scores))
    return mean, low, high, len(scores)
