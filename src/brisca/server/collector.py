"""The garbage collector while serving: what every connection leaves behind, and when it is collected.

A server's objects are mostly long-lived tables and short messages. Full passes over thousands of tables
stall every table for 0.1-0.4 s (docs/web.md, "Results"), so the server freezes what it loaded at start
(kept out of every pass) and collects less often (:data:`THRESHOLDS`). What connections leave in reference
cycles then reaches the oldest generation, which those thresholds collect rarely: left alone, the server's
memory grows with every connection opened (docs/security.md, "Memory", has the measurements). So:

- :class:`Collector` makes a full collection once ``after`` connections have closed since the last one
  (``Limits.full_collection_after``), or ``every`` seconds (``Limits.full_collection_every``): what
  connections leave is freed within that many connections or seconds, at the cost of one pause each time;
  then :func:`release_memory` hands what the C allocator holds free back to the system.
- Python 3.11's asyncio leaves each closed TCP connection's transport in a cycle (the transport holds its
  own bound method, ``_read_ready_cb``; CPython gh-100348, fixed in 3.12): :func:`break_transport_cycles`
  applies the same fix, so a closed connection's transport is freed at once, by reference counting.
"""

from __future__ import annotations

import gc
import sys
import time
from asyncio import selector_events
from typing import Any

#: The collector's thresholds while serving (CPython's are 700, 10, 10).
THRESHOLDS = (20_000, 20, 100)


def _malloc_trim() -> Any:
    """glibc's ``malloc_trim``, or ``None`` where the C library has none (macOS, musl, Windows)."""
    try:
        import ctypes

        return ctypes.CDLL("libc.so.6").malloc_trim
    except (OSError, AttributeError):
        return None


_TRIM = _malloc_trim()


def release_memory() -> bool:
    """Hand the memory the C allocator holds free back to the system (glibc's ``malloc_trim``): what closed
    connections freed stays in the allocator's heaps otherwise, and the resident memory keeps their high-water
    mark. Whether it could."""
    if _TRIM is None:
        return False
    _TRIM(0)
    return True


def break_transport_cycles() -> bool:
    """On Python < 3.12: a closed socket transport lets go of its bound read callback (CPython gh-100349's fix),
    which otherwise keeps the transport, its socket and buffers alive until a full collection. Whether the fix
    was needed (applying it twice changes nothing)."""
    if sys.version_info >= (3, 12):
        return False
    transport: Any = getattr(selector_events, "_SelectorSocketTransport")  # noqa: B009 (private, untyped)
    if getattr(transport, "_brisca_breaks_cycle", False):
        return True
    lost = transport._call_connection_lost

    def call_connection_lost(self: Any, exc: BaseException | None) -> None:
        try:
            lost(self, exc)
        finally:
            self._read_ready_cb = None

    transport._call_connection_lost = call_connection_lost
    transport._brisca_breaks_cycle = True
    return True


class Collector:
    """The collector's settings while serving: :meth:`start` freezes what is loaded and sets the thresholds,
    :meth:`closed` counts the connections that closed, :meth:`tick` (called every few seconds) makes a full
    collection once ``after`` of them closed or ``every`` seconds passed, :meth:`stop` puts everything back."""

    def __init__(self, every: float, after: int, clock: Any = time.monotonic) -> None:
        self.every, self.after, self.clock = every, after, clock
        self.last = clock()
        #: Connections closed since the last full collection.
        self.closed_since = 0
        self._thresholds = gc.get_threshold()

    def start(self) -> None:
        break_transport_cycles()
        gc.collect()
        gc.freeze()
        self._thresholds = gc.get_threshold()
        gc.set_threshold(*THRESHOLDS)
        self.last = self.clock()

    def closed(self) -> None:
        """A connection closed (what it leaves in cycles waits for a full collection)."""
        self.closed_since += 1

    def tick(self) -> bool:
        """A full collection, when it is due; whether one was made."""
        now = self.clock()
        if self.closed_since < self.after and now - self.last < self.every:
            return False
        gc.collect()
        release_memory()
        self.last, self.closed_since = now, 0
        return True

    def stop(self) -> None:
        gc.set_threshold(*self._thresholds)
        gc.unfreeze()
