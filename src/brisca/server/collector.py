"""The garbage collector while serving: what every connection leaves behind, and when it is collected.

A server's objects are mostly long-lived tables and short messages. The server freezes what it loaded at
start (kept out of every pass) and collects with CPython's thresholds (:data:`THRESHOLDS`). Raising them
(20000, 20, 100), to spare the tables the 0.1-0.4 s pauses of full passes, lets what connections
leave in reference cycles reach the oldest generation and stay there: the server's memory then grows with
every connection opened (docs/security.md, "Memory", has the measurements). Besides:

- Python 3.11's asyncio leaves each closed TCP connection's transport in a cycle (the transport holds its
  own bound method, ``_read_ready_cb``; CPython gh-100348, fixed in 3.12): :func:`break_transport_cycles`
  applies the same fix, so a closed connection is freed at once, by reference counting.
- :class:`Collector` makes a full collection every ``every`` seconds (``Limits.full_collection_every``), so
  that cycles made elsewhere are freed within that time, at the cost of one pause a period.
"""

from __future__ import annotations

import gc
import sys
import time
from asyncio import selector_events
from typing import Any

#: The collector's thresholds while serving: CPython's own (tests/test_server_soak.py holds the memory they
#: give to a bound).
THRESHOLDS = (700, 10, 10)


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
    :meth:`tick` (called now and then) makes a full collection once ``every`` seconds have passed,
    :meth:`stop` puts everything back."""

    def __init__(self, every: float, clock: Any = time.monotonic) -> None:
        self.every, self.clock = every, clock
        self.last = clock()
        self._thresholds = gc.get_threshold()

    def start(self) -> None:
        break_transport_cycles()
        gc.collect()
        gc.freeze()
        self._thresholds = gc.get_threshold()
        gc.set_threshold(*THRESHOLDS)
        self.last = self.clock()

    def tick(self) -> bool:
        """A full collection, when ``every`` seconds have passed since the last one; whether one was made."""
        now = self.clock()
        if now - self.last < self.every:
            return False
        gc.collect()
        self.last = now
        return True

    def stop(self) -> None:
        gc.set_threshold(*self._thresholds)
        gc.unfreeze()
