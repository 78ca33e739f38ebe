"""Exceptions: malformed input versus well-formed input that is not allowed now.

Every error is a :class:`ValueError` so that callers who only care "was the input
bad?" can catch one type, while interfaces (CLI, server) map each class onto
its own message or error code.
"""

from __future__ import annotations


class BriscaError(ValueError):
    """Base class of every error the library raises on bad input."""


class InvalidCardError(BriscaError):
    """Text that does not name a card, suit or rank."""


class InvalidActionError(BriscaError):
    """An action that is malformed: not an action of this game at all."""


class IllegalActionError(BriscaError):
    """A well-formed action that the rules do not allow in this position."""


class RulesError(BriscaError):
    """An unknown variant, an unknown rule option, or an option with a bad value."""


class RecordError(BriscaError):
    """A game record that cannot be read or replayed.

    ``index`` is the position of the offending action in the record's action
    list, or ``None`` when the problem is in the header (format, variant, deck...).
    ``hand`` is the hand's index in the match (from 0); the message counts hands from 1, as every page
    and the terminal game do.
    """

    def __init__(self, reason: str, index: int | None = None, hand: int | None = None) -> None:
        self.reason = reason
        self.index = index
        self.hand = hand
        where = ""
        if hand is not None:
            where += f"hand {hand + 1}: "
        if index is not None:
            where += f"action {index}: "
        super().__init__(f"{where}{reason}")
