"""Actions: the small vocabulary a seat uses to move.

Each action has a text notation, a parser and a pasteable ``repr``::

    >>> Action.parse("3o")
    Play(Card.parse('3O'))
    >>> str(Exchange(Card.parse("7B")))
    'x7B'
    >>> Action.parse("1C!"), Action.parse("claim"), Action.parse("signal trump-ace")
    (Arrastro(Card.parse('1C')), Claim(), Signal('trump-ace'))
    >>> Action.from_json({"play": "1o", "arrastro": True}).to_json()
    {'play': '1O', 'arrastro': True}

Actions are interned (``Play(card) is Play(card)``), so the engine can hand
them out and compare them without allocating.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from brisca.cards import ALL_CARDS, Card
from brisca.errors import InvalidActionError, InvalidCardError

#: Partner signals (señas) of sources 001 and 004, and what each one truthfully says.
SIGNALS: dict[str, str] = {
    "trump-ace": "holds the ace of trumps",
    "trump-three": "holds the three of trumps",
    "trump-king": "holds the king of trumps",
    "trump-knight": "holds the knight of trumps",
    "trump-jack": "holds the jack of trumps",
    "small-trumps": "holds a small trump (7, 6, 5, 4 or 2; with 48 cards also 9 or 8)",
    "briscas": "holds an ace or a three of a suit that is not trumps",
    "no-trumps": "holds no trump",
    "ask-points": "asks the partner to play a card with points",
    "ask-cards": "asks the partner what he holds",
}


class Action:
    """Base class of actions. Each subclass names its ``kind``: the key of its record form."""

    __slots__ = ()
    kind: ClassVar[str] = ""

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("actions are immutable")

    def __copy__(self) -> Action:
        return self

    def __deepcopy__(self, memo: object) -> Action:
        return self

    @staticmethod
    def parse(text: str) -> Action:
        """Read an action's notation: ``3O`` play, ``x7B`` exchange, ``1O!`` arrastro, ``claim``, ``signal NAME``."""
        if not isinstance(text, str):
            raise InvalidActionError(f"not an action: {text!r}")
        t = text.strip()
        low = t.lower()
        try:
            if low == "claim":
                return CLAIM
            if low.startswith("signal"):
                return Signal(low[6:].strip(" :"))
            if low[:1] == "x":
                return Exchange(Card.parse(t[1:]))
            if low.endswith("!"):
                return Arrastro(Card.parse(t[:-1]))
            return Play(Card.parse(t))
        except InvalidCardError as exc:
            raise InvalidActionError(f"not an action: {text!r} ({exc})") from None

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> Action:
        """Read the action part of a record entry, like ``{"play": "3O"}`` or ``{"signal": "briscas"}``."""
        if not isinstance(data, Mapping):
            raise InvalidActionError(f"an action is a JSON object, not {data!r}")
        kinds = [k for k in _READERS if k in data]
        if len(kinds) != 1:
            raise InvalidActionError(
                f"an action names exactly one of {', '.join(_READERS)}; got keys {sorted(data)}"
            )
        kind = kinds[0]
        extra = set(data) - {kind} - _EXTRA_KEYS.get(kind, set())
        if extra:
            raise InvalidActionError(f"unexpected key(s) {', '.join(sorted(extra))} in a {kind!r} action")
        try:
            action: Action = _READERS[kind](data)
            return action
        except InvalidCardError as exc:
            raise InvalidActionError(str(exc)) from None

    def to_json(self) -> dict[str, Any]:  # pragma: no cover - every subclass overrides
        """The record form of this action (without the seat)."""
        raise NotImplementedError


class CardAction(Action):
    """An action that names one card; interned per card and per class."""

    __slots__ = ("card",)
    card: Card
    prefix: ClassVar[str] = ""
    suffix: ClassVar[str] = ""
    _interned: ClassVar[list[CardAction]]

    def __new__(cls, card: Card) -> CardAction:
        if not isinstance(card, Card):
            raise InvalidActionError(f"{cls.__name__} takes a Card, not {card!r}")
        return cls._interned[card.index]

    @classmethod
    def _make(cls, card: Card) -> CardAction:
        self = object.__new__(cls)
        object.__setattr__(self, "card", card)
        return self

    def __reduce__(self) -> tuple[object, tuple[Card]]:
        return (type(self), (self.card,))

    def to_json(self) -> dict[str, Any]:
        return {self.kind: str(self.card)}

    def __str__(self) -> str:
        return f"{self.prefix}{self.card}{self.suffix}"

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.card!r})"


class Play(CardAction):
    """Play a card from the hand to the trick."""

    __slots__ = ()
    kind = "play"


class Exchange(CardAction):
    """Give the named low trump (the 7 or the 2) for the face-up trump card."""

    __slots__ = ()
    kind = "exchange"
    prefix = "x"


class Arrastro(CardAction):
    """Lead the ace of trumps calling *arrastro*: every seat yet to play must play its best card."""

    __slots__ = ()
    kind = "play"
    suffix = "!"

    def to_json(self) -> dict[str, Any]:
        return {"play": str(self.card), "arrastro": True}


class Claim(Action):
    """Claim the rest of the hand: the claimer's side holds the best trumps for every trick left."""

    __slots__ = ()
    kind = "claim"

    def __new__(cls) -> Claim:
        return CLAIM

    def __reduce__(self) -> tuple[object, tuple[()]]:
        return (Claim, ())

    def to_json(self) -> dict[str, Any]:
        return {"claim": True}

    def __str__(self) -> str:
        return "claim"

    def __repr__(self) -> str:
        return "Claim()"


class Signal(Action):
    """A partner signal (seña), by name; see :data:`SIGNALS`. The engine allows only truthful ones."""

    __slots__ = ("name",)
    kind = "signal"
    name: str

    def __new__(cls, name: str) -> Signal:
        try:
            return _SIGNAL_ACTIONS[name]
        except (KeyError, TypeError):
            raise InvalidActionError(f"unknown signal {name!r}; signals: {', '.join(SIGNALS)}") from None

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (Signal, (self.name,))

    def to_json(self) -> dict[str, Any]:
        return {"signal": self.name}

    def __str__(self) -> str:
        return f"signal {self.name}"

    def __repr__(self) -> str:
        return f"Signal({self.name!r})"


def _read_play(data: Mapping[str, Any]) -> Action:
    card = Card.parse(data["play"])
    flag = data.get("arrastro", False)
    if not isinstance(flag, bool):
        raise InvalidActionError(f"'arrastro' must be true or false, not {flag!r}")
    return Arrastro(card) if flag else Play(card)


def _read_claim(data: Mapping[str, Any]) -> Action:
    if data["claim"] is not True:
        raise InvalidActionError("a claim is written {\"claim\": true}")
    return CLAIM


def _read_signal(data: Mapping[str, Any]) -> Action:
    return Signal(data["signal"])


Play._interned = [Play._make(c) for c in ALL_CARDS]
Exchange._interned = [Exchange._make(c) for c in ALL_CARDS]
Arrastro._interned = [Arrastro._make(c) for c in ALL_CARDS]
CLAIM: Claim = object.__new__(Claim)
_SIGNAL_ACTIONS: dict[str, Signal] = {}
for _name in SIGNALS:
    _sig = object.__new__(Signal)
    object.__setattr__(_sig, "name", _name)
    _SIGNAL_ACTIONS[_name] = _sig

_READERS: dict[str, Any] = {
    "play": _read_play,
    "exchange": lambda d: Exchange(Card.parse(d["exchange"])),
    "claim": _read_claim,
    "signal": _read_signal,
}
_EXTRA_KEYS: dict[str, set[str]] = {"play": {"arrastro"}}

#: Every play action, indexed by card index (the engine's allocation-free table).
PLAYS: tuple[Play, ...] = tuple(Play._interned)  # type: ignore[arg-type]
#: Every exchange action, indexed by card index.
EXCHANGES: tuple[Exchange, ...] = tuple(Exchange._interned)  # type: ignore[arg-type]
#: Every arrastro action, indexed by card index.
ARRASTROS: tuple[Arrastro, ...] = tuple(Arrastro._interned)  # type: ignore[arg-type]
