"""What a training run prints, for the person who started it: where it starts and for how long, then a line a
minute (the update, the hands, the reward against the league, the policy's entropy, the latest evaluation), each
evaluation as it ends, and where it stopped and why. The minutes are read on the run's clock
(:class:`~brisca.learn.deadline.Deadline`), so a test's fake clock decides when a line is due."""

from __future__ import annotations

import math
import sys
from typing import TextIO

from brisca.learn.deadline import Deadline

#: Seconds between two progress lines.
EVERY = 60.0


def clock_text(seconds: float) -> str:
    """``m:ss``, or ``h:mm:ss`` from an hour."""
    s = max(0, int(seconds))
    h, m = divmod(s // 60, 60)
    return f"{h}:{m:02d}:{s % 60:02d}" if h else f"{m}:{s % 60:02d}"


def minutes_text(minutes: float) -> str:
    """``1 minute``, ``90 minutes``, ``2.5 minutes``."""
    return f"{minutes:g} minute{'' if minutes == 1 else 's'}"


class Progress:
    """A run's lines on ``out`` (stdout by default), flushed as they are written."""

    def __init__(self, deadline: Deadline, minutes: float, out: TextIO | None = None, every: float = EVERY) -> None:
        self.deadline = deadline
        self.minutes = minutes
        self.out = out
        self.every = every
        self.last_line: float | None = None
        self.last_hands = 0
        #: The latest evaluation: its update and ``preset vs opponent score`` of each of its parts so far.
        self.evaluated: tuple[int, list[str]] | None = None

    def say(self, text: str) -> None:
        print(text, file=self.out or sys.stdout, flush=True)

    def start(self, what: str, hands: int) -> None:
        """The start line: ``what`` runs, where and how, for how long."""
        self.last_hands = hands
        self.say(f"brisca train: {what}, for {minutes_text(self.minutes)}; a line a minute")

    def update(self, update: int, hands: int, reward: float, entropy: float | None) -> None:
        """After each update: a line if it is the first of this invocation or a minute has passed since the last."""
        now = self.deadline.elapsed()
        if self.last_line is not None and now - self.last_line < self.every:
            return
        rate = ""
        if self.last_line is not None:
            rate = f" (+{hands - self.last_hands:,} in {clock_text(now - self.last_line)})"
        self.last_line, self.last_hands = now, hands
        line = (f"{clock_text(now)} of {clock_text(self.minutes * 60)}  update {update:,}, {hands:,} hands{rate}, "
                f"reward {reward:+.3f}")
        if entropy is not None and not math.isnan(entropy):
            line += f", entropy {entropy:.3f}"
        if self.evaluated is not None:
            line += f"; update {self.evaluated[0]:,}: {', '.join(self.evaluated[1])}"
        self.say(line)

    def evaluation(self, update: int, preset: str, opponent: str, score: float, low: float, high: float,
                   games: int) -> None:
        """One part of an evaluation, as it ends."""
        if self.evaluated is None or self.evaluated[0] != update:
            self.evaluated = (update, [])
        self.evaluated[1].append(f"{preset} vs {opponent} {score:.3f}")
        self.say(f"update {update}: {preset} vs {opponent} {score:.3f} ({low:.3f}-{high:.3f}) over {games}")

    def stop(self, update: int, hands: int, why: str, net: str) -> None:
        """The last line: where the run stopped, and why."""
        self.say(f"brisca train: stopped at update {update:,} ({why}), {hands:,} hands, in "
                 f"{clock_text(self.deadline.elapsed())}; the network is {net}, --resume continues the run")
