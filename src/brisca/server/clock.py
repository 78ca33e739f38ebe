"""The move clock of a table: a base a move, and a reserve each person draws on once a move's base is spent.

A person's clock runs only on their turn: each move has ``move`` seconds, then their ``reserve`` runs down (it
does not come back). When both are spent the move is played for them by the table's bot (a time-out); after
:data:`HANDOVER_AFTER` time-outs in a row a bot plays the seat as for a person who left, and on a rated table
:data:`FORFEIT_AFTER` time-outs in one match lose it. Bots, and the seats bots play, have no clock.

The deadline of the turn is stored with the move that starts it (an absolute time, not a timer in memory), and
each person's reserve and time-outs with the move that changes them: a restart, or another process taking the
table over, finds the same clock.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from brisca.rules import Rules

#: Time-outs in a row after which a bot plays the seat (the person takes it back by saying they are back).
HANDOVER_AFTER = 2
#: Time-outs in one match that lose it, on a rated table (the person resigns: a bot plays the seat to the end).
FORFEIT_AFTER = 3
#: The clocks a table's creator picks from: the preset's default, or one of these (seconds a move, reserve).
#: ``days``: a slow table, a move a day.
SPEEDS: dict[str, tuple[float, float]] = {"fast": (10.0, 30.0), "slow": (60.0, 300.0), "days": (86400.0, 172800.0)}
#: A move's time from which a table is slow, played over days: it sleeps between moves (no memory, no task) and
#: wakes on a move or its deadline; only accounts sit at it.
SLOW_MOVE = 3600.0


@dataclass(frozen=True)
class Clock:
    """A table's clock: ``move`` seconds each move, then ``reserve`` seconds in all for the match."""

    move: float
    reserve: float

    def json(self) -> dict[str, float]:
        return {"move": self.move, "reserve": self.reserve}

    @property
    def slow(self) -> bool:
        """A table played over days (:data:`SLOW_MOVE`)."""
        return self.move >= SLOW_MOVE

    @classmethod
    def from_json(cls, data: Any) -> Clock:
        return cls(float(data["move"]), float(data["reserve"]))


def default_clock(rules: Rules) -> Clock:
    """The preset's clock: 15 s a move and a minute in reserve; more where a move takes more thought (an
    auction, partners' signals, declarations)."""
    if rules.auction:
        return Clock(20.0, 120.0)
    if rules.signals != "off" or rules.declarations != "off":
        return Clock(20.0, 90.0)
    return Clock(15.0, 60.0)


def pick_clock(rules: Rules, speed: str) -> Clock:
    """The clock a creator picked: ``default`` (the preset's) or a name of :data:`SPEEDS`."""
    if speed == "default":
        return default_clock(rules)
    move, reserve = SPEEDS[speed]
    return Clock(move, reserve)


@dataclass
class SeatClock:
    """One seat's clock: the reserve left when its current (or next) turn began, its time-outs in the match, and
    those in a row (a move of its own starts the count again)."""

    reserve: float
    timeouts: int = 0
    missed: int = 0

    def json(self) -> dict[str, Any]:
        return {"reserve": round(self.reserve, 1), "timeouts": self.timeouts}


@dataclass(frozen=True)
class ClockWrite:
    """What a write stores of the clock: the turn's ``deadline`` (``None``: no clock runs), the number of actions
    played when it was set, and the seats whose clocks changed."""

    deadline: float | None
    action: int
    seats: tuple[tuple[int, SeatClock], ...] = ()
    #: The seat whose clock runs (``None`` with no deadline).
    seat: int | None = None


def spent(clock: Clock, seat: SeatClock, deadline: float, now: float) -> float:
    """The reserve left to a seat that moves at ``now`` in a turn ending at ``deadline``: what it used beyond the
    move's base comes off its reserve."""
    base_end = deadline - seat.reserve
    return max(0.0, seat.reserve - max(0.0, now - base_end))


def clock_text(clock: Clock) -> str:
    """``15 s + 1 min``: a move's base, and the reserve."""
    return f"{_seconds(clock.move)} + {_seconds(clock.reserve)}"


def _seconds(value: float) -> str:
    if value >= 86400 and value % 86400 == 0:
        return f"{value / 86400:g} d"
    if value >= 3600 and value % 3600 == 0:
        return f"{value / 3600:g} h"
    if value >= 60 and value % 60 == 0:
        return f"{value / 60:g} min"
    return f"{value:g} s"
