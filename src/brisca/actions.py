"""Actions: the small vocabulary a seat uses to move.

Each action has a text notation, a parser and a pasteable ``repr``::

    >>> Action.parse("3o")
    Play(Card.parse('3O'))
    >>> str(Exchange(Card.parse("7B")))
    'x7B'
    >>> Action.from_json({"exchange": "7b"}).to_json()
    {'exchange': '7B'}

Actions are interned per card (``Play(card) is Play(card)``), so the engine can
hand out and compare them without allocating.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from brisca.cards import ALL_CARDS, Card
from brisca.errors import InvalidActionError, InvalidCardError


class Action:
    """Base class of actions. Subclasses define ``kind`` (the JSON key) and a notation prefix."""

    __slots__ = ("card",)
    card: Card
    kind: ClassVar[str] = ""
    prefix: ClassVar[str] = ""
    _interned: ClassVar[list[Action]]

    def __new__(cls, card: Card) -> Action:
        if not isinstance(card, Card):
            raise InvalidActionError(f"{cls.__name__} takes a Card, not {card!r}")
        return cls._interned[card.index]

    @classmethod
    def _make(cls, card: Card) -> Action:
        self = object.__new__(cls)
        object.__setattr__(self, "card", card)
        return self

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("actions are immutable")

    def __reduce__(self) -> tuple[object, tuple[Card]]:
        return (type(self), (self.card,))

    def __copy__(self) -> Action:
        return self

    def __deepcopy__(self, memo: object) -> Action:
        return self

    @staticmethod
    def parse(text: str) -> Action:
        """Read an action's notation: ``"3O"`` plays the 3 of oros, ``"x7B"`` exchanges the 7 of bastos."""
        if not isinstance(text, str):
            raise InvalidActionError(f"not an action: {text!r}")
        t = text.strip()
        try:
            if t[:1] in ("x", "X"):
                return Exchange(Card.parse(t[1:]))
            return Play(Card.parse(t))
        except InvalidCardError as exc:
            raise InvalidActionError(f"not an action: {text!r} ({exc})") from None

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> Action:
        """Read the action part of a record entry: ``{"play": "3O"}`` or ``{"exchange": "7B"}``."""
        if not isinstance(data, Mapping):
            raise InvalidActionError(f"an action is a JSON object, not {data!r}")
        kinds = [k for k in _KINDS if k in data]
        if len(kinds) != 1:
            raise InvalidActionError(
                f"an action names exactly one of {', '.join(_KINDS)}; got keys {sorted(data)}"
            )
        kind = kinds[0]
        try:
            return _KINDS[kind](Card.parse(data[kind]))
        except InvalidCardError as exc:
            raise InvalidActionError(str(exc)) from None

    def to_json(self) -> dict[str, Any]:
        """The record form of this action (without the seat)."""
        return {self.kind: str(self.card)}

    def __str__(self) -> str:
        return f"{self.prefix}{self.card}"

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.card!r})"


class Play(Action):
    """Play a card from the hand to the trick."""

    __slots__ = ()
    kind = "play"
    prefix = ""


class Exchange(Action):
    """Give the named low trump (the 7 or the 2) for the face-up trump card."""

    __slots__ = ()
    kind = "exchange"
    prefix = "x"


Play._interned = [Play._make(c) for c in ALL_CARDS]
Exchange._interned = [Exchange._make(c) for c in ALL_CARDS]
_KINDS: dict[str, type[Action]] = {"play": Play, "exchange": Exchange}

#: Every play action, indexed by card index (the engine's allocation-free table).
PLAYS: tuple[Action, ...] = tuple(Play._interned)
#: Every exchange action, indexed by card index.
EXCHANGES: tuple[Action, ...] = tuple(Exchange._interned)
