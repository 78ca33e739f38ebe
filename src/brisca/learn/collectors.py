"""The self-play of each update as tasks on a Ray cluster (``--ray``), mapped as a process pool maps them: the
same seeds give the same hands, so a run on Ray learns what the same run on local processes learns."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from brisca.errors import BriscaError
from brisca.learn.network import Arrays
from brisca.learn.selfplay import collect


def _collect_with(task: dict[str, Any], weights: Arrays) -> dict[str, Any]:
    """:func:`collect` with the network's weights apart (a Ray task gets them from the object store)."""
    return collect({**task, "weights": weights})


class RayCollectors:
    """Self-play tasks on a Ray cluster, mapped as a process pool maps them (in the order given)."""

    def __init__(self, address: str) -> None:
        try:
            import ray
        except ImportError:
            raise BriscaError("--ray needs Ray: pip install 'brisca[ray]'") from None
        self.ray = ray
        self.started = not ray.is_initialized()
        if self.started:
            from brisca.arena import check_ray_address

            check_ray_address(address)
            try:
                ray.init(address=None if address == "local" else address, include_dashboard=False,
                         log_to_driver=False, configure_logging=False)
            except (ConnectionError, ValueError, RuntimeError) as exc:
                raise BriscaError(f"cannot reach the Ray cluster at {address!r}: {exc}") from None
        self.collect = ray.remote(_collect_with)

    def map(self, fn: Callable[[dict[str, Any]], dict[str, Any]], tasks: Sequence[dict[str, Any]]) -> list[Any]:
        assert fn is collect, "only the self-play runs on Ray"
        # The network's weights go to the object store once, not once a task (a reference is resolved only as a
        # task's own argument, not inside its dict).
        stored: dict[int, Any] = {}
        refs = []
        for t in tasks:
            weights = t["weights"]
            if id(weights) not in stored:
                stored[id(weights)] = self.ray.put(weights)
            refs.append(self.collect.remote({k: v for k, v in t.items() if k != "weights"}, stored[id(weights)]))
        return list(self.ray.get(refs))

    def shutdown(self) -> None:
        if self.started:
            self.ray.shutdown()
