"""A run's time limit (``--minutes``), read on a clock passed in: work starts only where it is expected to end
before the limit, and long work (an evaluation) asks along the way whether the limit has come. The clock is any
callable of seconds (``time.monotonic``, or a test's fake one), so that what the limit does is tested without
waiting for it."""

from __future__ import annotations

import time
from collections.abc import Callable


class Deadline:
    """The moment ``seconds`` after ``start`` (by default, what ``clock()`` reads now)."""

    def __init__(self, seconds: float, clock: Callable[[], float] = time.monotonic, start: float | None = None
                 ) -> None:
        self.clock = clock
        self.start = clock() if start is None else start
        self.end = self.start + seconds

    def elapsed(self) -> float:
        """Seconds since the start."""
        return self.clock() - self.start

    def left(self) -> float:
        """Seconds until the limit (0 once it has come)."""
        return max(0.0, self.end - self.clock())

    def passed(self) -> bool:
        """Whether the limit has come."""
        return self.clock() >= self.end

    def fits(self, seconds: float) -> bool:
        """Whether work expected to take ``seconds`` ends before the limit (none starts once it has come)."""
        now = self.clock()
        return now < self.end and now + seconds <= self.end
