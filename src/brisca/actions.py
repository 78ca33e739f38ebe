"""Actions: the small vocabulary a seat uses to move.

Each action has a text notation, a parser and a pasteable ``repr``::

    >>> Action.parse("3o")
    Play(Card.parse('3O'))
    >>> str(Exchange(Card.parse("7B")))
    'x7B'
    >>> Action.parse("1C!"), Action.parse("claim"), Action.parse("signal trump-ace")
    (Arrastro(Card.parse('1C')), Claim(), Signal('trump-ace'))
    >>> Action.parse("say briscas"), Action.parse("cut golpe")
    (Signal('briscas', aloud=True), Cut('golpe'))
    >>> Action.parse("announce 7b"), Announce(Card.parse("2O")).to_json()
    (Announce(Card.parse('7B')), {'announce': '2O'})
    >>> Action.from_json({"play": "1o", "arrastro": True}).to_json()
    {'play': '1O', 'arrastro': True}

The games with an auction add bids, passes, calls, discards, trump choices and
declarations::

    >>> [Action.parse(t) for t in ("bid 110", "bid rank 3", "pass", "call 3O", "trump b")]
    [Bid(110), RankBid(3), Pass(), Call(Card.parse('3O')), TrumpChoice(Suit.BASTOS)]
    >>> Action.parse("discard 6c 5o")
    Discard(Card.parse('5O'), Card.parse('6C'))
    >>> Action.from_json({"bid": "3"}), Action.from_json({"declare": "O"}).to_json()
    (RankBid(3), {'declare': 'O'})

Actions are interned (``Play(card) is Play(card)``), so the engine can hand
them out and compare them without allocating.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from brisca.cards import ALL_CARDS, SPANISH, Card, NotationLike, Rank, Suit, parse_cards
from brisca.errors import InvalidActionError, InvalidCardError

#: Partner signals (señas) of sources Fournier, Villar de Cañas and Briscola guide, and what each one truthfully says.
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
    "high-card": "holds a high card (a carico: one of the two highest ranks) of a suit that is not trumps",
}
#: The signals of each ``signal_set``: spanish (Fournier and Villar de Cañas), italian (Briscola guide's table for
#: Briscola).
SIGNAL_SETS: dict[str, tuple[str, ...]] = {
    "spanish": ("trump-ace", "trump-three", "trump-king", "trump-knight", "trump-jack", "small-trumps", "briscas",
                "no-trumps", "ask-points", "ask-cards"),
    "italian": ("trump-ace", "trump-three", "trump-king", "trump-knight", "trump-jack", "high-card"),
}
#: The signals that ask the partner for something rather than tell (Villar de Cañas forbids asking: ``signal_asks``).
ASK_SIGNALS: frozenset[str] = frozenset({"ask-points", "ask-cards"})
#: The ways the cutter may cut and deal (source Porteña), for :class:`Cut`.
CUT_WAYS: tuple[str, ...] = ("alce", "golpe", "pelada")


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
    def parse(text: str, notation: NotationLike | None = None) -> Action:
        """Read an action's notation: ``3O`` play, ``x7B`` exchange, ``announce 7B`` (an announced exchange),
        ``1O!`` arrastro, ``claim``, ``signal NAME``, ``say NAME``, ``cut golpe``, ``bid 110``, ``bid rank 3``,
        ``pass``, ``call 3O``, ``trump O``, ``discard 5O 6C``, ``declare O``.

        Cards and suits may be written in the Italian notation too (``RD``, ``xFS``, ``trump D``);
        ``notation`` is passed on to :meth:`Card.parse`."""
        if not isinstance(text, str):
            raise InvalidActionError(f"not an action: {text!r}")
        t = text.strip()
        low = t.lower()
        try:
            if low == "claim":
                return CLAIM
            if low == "pass":
                return PASS
            if low.startswith("signal"):
                return Signal(low[6:].strip(" :"))
            if low.startswith("say"):
                return Signal(low[3:].strip(" :"), aloud=True)
            word, _sep, rest = low.partition(" ")
            reader = _WORD_READERS.get(word)
            if reader is not None:
                return reader(rest.strip(), notation)  # type: ignore[no-any-return]
            if low[:1] == "x":
                return Exchange(Card.parse(t[1:], notation))
            if low.endswith("!"):
                return Arrastro(Card.parse(t[:-1], notation))
            return Play(Card.parse(t, notation))
        except (InvalidCardError, ValueError) as exc:
            if isinstance(exc, InvalidActionError):
                raise
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
        except InvalidActionError:
            raise
        except (InvalidCardError, ValueError, TypeError) as exc:
            raise InvalidActionError(str(exc)) from None

    def to_json(self) -> dict[str, Any]:  # pragma: no cover - every subclass overrides
        """The record form of this action (without the seat)."""
        raise NotImplementedError

    def text(self, notation: NotationLike = SPANISH) -> str:
        """The action's notation with its cards and suits in ``notation``: ``str(action)`` in Spanish,
        ``xRD`` or ``declare D`` in Italian; :meth:`parse` reads it back."""
        return str(self)


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

    def text(self, notation: NotationLike = SPANISH) -> str:
        return f"{self.prefix}{self.card.text(notation)}{self.suffix}"

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


class Announce(CardAction):
    """Lay the named low trump under the face-up card, announcing an exchange (``trump_exchange: announced``, Fournier).

    The card leaves the hand and lies in everybody's sight; the exchange is made as the seat wins its next trick,
    and the card goes back to its hand if the face-up card is drawn before that.
    """

    __slots__ = ()
    kind = "announce"
    prefix = "announce "


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
    """A partner signal (seña), by name; see :data:`SIGNALS`. The engine allows only truthful ones.

    ``aloud``: said for everybody to hear (``say NAME``), under ``signals: combination``, where a plain
    signal is seen by the partners alone.
    """

    __slots__ = ("aloud", "name")
    kind = "signal"
    name: str
    aloud: bool

    def __new__(cls, name: str, aloud: bool = False) -> Signal:
        try:
            return _SIGNAL_ACTIONS[name, aloud is True]
        except (KeyError, TypeError):
            raise InvalidActionError(f"unknown signal {name!r}; signals: {', '.join(SIGNALS)}") from None

    def __reduce__(self) -> tuple[object, tuple[str, bool]]:
        return (Signal, (self.name, self.aloud))

    def to_json(self) -> dict[str, Any]:
        return {"signal": self.name, "aloud": True} if self.aloud else {"signal": self.name}

    def __str__(self) -> str:
        return f"say {self.name}" if self.aloud else f"signal {self.name}"

    def __repr__(self) -> str:
        return f"Signal({self.name!r}, aloud=True)" if self.aloud else f"Signal({self.name!r})"


class Cut(Action):
    """The cutter's choice of how the deck is cut and dealt (source Porteña): ``alce``, ``golpe`` or ``pelada``."""

    __slots__ = ("way",)
    kind = "cut"
    way: str

    def __new__(cls, way: str) -> Cut:
        try:
            return _CUTS[way]
        except (KeyError, TypeError):
            raise InvalidActionError(f"the deck is cut {', '.join(CUT_WAYS)}, not {way!r}") from None

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (Cut, (self.way,))

    def to_json(self) -> dict[str, Any]:
        return {"cut": self.way}

    def __str__(self) -> str:
        return f"cut {self.way}"

    def __repr__(self) -> str:
        return f"Cut({self.way!r})"


class Bid(Action):
    """Bid a number of points in an auction (the contract the bidder's side must reach)."""

    __slots__ = ("points",)
    kind = "bid"
    points: int

    def __new__(cls, points: int) -> Bid:
        if isinstance(points, bool) or not isinstance(points, int) or not 0 < points <= 1000:
            raise InvalidActionError(f"a bid is a number of points from 1 to 1000, not {points!r}")
        bid = _BIDS.get(points)
        if bid is None:
            bid = _BIDS[points] = object.__new__(cls)
            object.__setattr__(bid, "points", points)
        return bid

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (Bid, (self.points,))

    def to_json(self) -> dict[str, Any]:
        return {"bid": self.points}

    def __str__(self) -> str:
        return f"bid {self.points}"

    def __repr__(self) -> str:
        return f"Bid({self.points})"


class RankBid(Action):
    """Name a rank in a low-card auction (``bidding: low_card``): the lowest rank named wins."""

    __slots__ = ("rank",)
    kind = "bid"
    rank: int

    def __new__(cls, rank: int) -> RankBid:
        try:
            return _RANK_BIDS[rank]
        except (KeyError, TypeError):
            raise InvalidActionError(f"a rank bid names a rank (1-7, 10-12), not {rank!r}") from None

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (RankBid, (self.rank,))

    def to_json(self) -> dict[str, Any]:
        return {"bid": str(self.rank)}

    def __str__(self) -> str:
        return f"bid rank {self.rank}"

    def text(self, notation: NotationLike = SPANISH) -> str:
        return f"bid rank {Rank(self.rank).text(notation)}"

    def __repr__(self) -> str:
        return f"RankBid({self.rank})"


class Pass(Action):
    """Pass in an auction; a pass is final."""

    __slots__ = ()
    kind = "pass"

    def __new__(cls) -> Pass:
        return PASS

    def __reduce__(self) -> tuple[object, tuple[()]]:
        return (Pass, ())

    def to_json(self) -> dict[str, Any]:
        return {"pass": True}

    def __str__(self) -> str:
        return "pass"

    def __repr__(self) -> str:
        return "Pass()"


class Call(CardAction):
    """Call a card (Briscola Chiamata): its suit is trump and its holder the bidder's hidden partner."""

    __slots__ = ()
    kind = "call"
    prefix = "call "


class SuitAction(Action):
    """An action that names one suit; interned per suit and per class."""

    __slots__ = ("suit",)
    suit: Suit
    _interned: ClassVar[dict[Suit, SuitAction]]

    def __new__(cls, suit: Suit) -> SuitAction:
        if not isinstance(suit, Suit):
            raise InvalidActionError(f"{cls.__name__} takes a Suit, not {suit!r}")
        return cls._interned[suit]

    @classmethod
    def _make(cls, suit: Suit) -> SuitAction:
        self = object.__new__(cls)
        object.__setattr__(self, "suit", suit)
        return self

    def __reduce__(self) -> tuple[object, tuple[Suit]]:
        return (type(self), (self.suit,))

    def to_json(self) -> dict[str, Any]:
        return {self.kind: self.suit.letter}

    def __str__(self) -> str:
        return f"{self.kind} {self.suit.letter}"

    def text(self, notation: NotationLike = SPANISH) -> str:
        return f"{self.kind} {self.suit.text(notation)}"

    def __repr__(self) -> str:
        return f"{type(self).__name__}(Suit.{self.suit.name})"


class TrumpChoice(SuitAction):
    """Name the trump suit (the auction's winner in Rematada, the low-card bidder in Chiamata)."""

    __slots__ = ()
    kind = "trump"


class Declare(SuitAction):
    """Declare a king-knight pair of a suit: vales (latas) in the Chilean game, a declaration in Rematada."""

    __slots__ = ()
    kind = "declare"


class Discard(Action):
    """Lay cards face down into the seat's own scoring pile (Rematada, after taking the talon)."""

    __slots__ = ("cards",)
    kind = "discard"
    cards: tuple[Card, ...]

    def __new__(cls, *cards: Card) -> Discard:
        if not cards or not all(isinstance(c, Card) for c in cards):
            raise InvalidActionError(f"a discard names one or more cards, not {cards!r}")
        if len(set(cards)) != len(cards):
            raise InvalidActionError("a discard names each card once")
        self = object.__new__(cls)
        object.__setattr__(self, "cards", tuple(sorted(cards)))
        return self

    def __eq__(self, other: object) -> bool:
        return type(other) is Discard and other.cards == self.cards

    def __hash__(self) -> int:
        return hash(("discard", self.cards))

    def __reduce__(self) -> tuple[object, tuple[Card, ...]]:
        return (Discard, self.cards)

    def to_json(self) -> dict[str, Any]:
        return {"discard": [str(c) for c in self.cards]}

    def __str__(self) -> str:
        return "discard " + " ".join(map(str, self.cards))

    def text(self, notation: NotationLike = SPANISH) -> str:
        return "discard " + " ".join(c.text(notation) for c in self.cards)

    def __repr__(self) -> str:
        return f"Discard({', '.join(map(repr, self.cards))})"


def _read_bid(data: Mapping[str, Any]) -> Action:
    value = data["bid"]
    if isinstance(value, str):
        return RankBid(_rank_of(value))
    return Bid(value)


def _rank_of(text: str, notation: NotationLike | None = None) -> int:
    try:
        return int(Rank.parse(text, notation))
    except InvalidCardError:
        raise InvalidActionError(f"a rank bid names a rank (1-12), not {text!r}") from None


def _read_pass(data: Mapping[str, Any]) -> Action:
    if data["pass"] is not True:
        raise InvalidActionError("a pass is written {\"pass\": true}")
    return PASS


def _read_discard(data: Mapping[str, Any]) -> Action:
    cards = data["discard"]
    if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
        raise InvalidActionError("a discard is a list of cards, like {\"discard\": [\"5O\", \"6C\"]}")
    return Discard(*(Card.parse(c) for c in cards))


def _read_suit(cls: type[SuitAction], value: object) -> Action:
    if not isinstance(value, str):
        raise InvalidActionError(f"{cls.kind!r} names a suit letter (O, C, E, B), not {value!r}")
    return cls(Suit.parse(value))


def _parse_bid(rest: str, notation: NotationLike | None = None) -> Action:
    word, _sep, value = rest.partition(" ")
    if word == "rank":
        return RankBid(_rank_of(value, notation))
    try:
        return Bid(int(rest))
    except ValueError:
        raise InvalidActionError(f"a bid is 'bid 110' or 'bid rank 3', not 'bid {rest}'") from None


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
    flag = data.get("aloud", False)
    if not isinstance(flag, bool):
        raise InvalidActionError(f"'aloud' must be true or false, not {flag!r}")
    return Signal(data["signal"], flag)


Play._interned = [Play._make(c) for c in ALL_CARDS]
Exchange._interned = [Exchange._make(c) for c in ALL_CARDS]
Announce._interned = [Announce._make(c) for c in ALL_CARDS]
Arrastro._interned = [Arrastro._make(c) for c in ALL_CARDS]
CLAIM: Claim = object.__new__(Claim)
_SIGNAL_ACTIONS: dict[tuple[str, bool], Signal] = {}
for _name in SIGNALS:
    for _aloud in (False, True):
        _sig = object.__new__(Signal)
        object.__setattr__(_sig, "name", _name)
        object.__setattr__(_sig, "aloud", _aloud)
        _SIGNAL_ACTIONS[_name, _aloud] = _sig
_CUTS: dict[str, Cut] = {}
for _way in CUT_WAYS:
    _cut = object.__new__(Cut)
    object.__setattr__(_cut, "way", _way)
    _CUTS[_way] = _cut

Call._interned = [Call._make(c) for c in ALL_CARDS]
TrumpChoice._interned = {s: TrumpChoice._make(s) for s in Suit}
Declare._interned = {s: Declare._make(s) for s in Suit}
PASS: Pass = object.__new__(Pass)
_BIDS: dict[int, Bid] = {}
_RANK_BIDS: dict[object, RankBid] = {}
for _rank in Rank:
    _rb = object.__new__(RankBid)
    object.__setattr__(_rb, "rank", int(_rank))
    _RANK_BIDS[int(_rank)] = _rb

_READERS: dict[str, Any] = {
    "play": _read_play,
    "exchange": lambda d: Exchange(Card.parse(d["exchange"])),
    "announce": lambda d: Announce(Card.parse(d["announce"])),
    "claim": _read_claim,
    "signal": _read_signal,
    "cut": lambda d: Cut(d["cut"]),
    "bid": _read_bid,
    "pass": _read_pass,
    "call": lambda d: Call(Card.parse(d["call"])),
    "trump": lambda d: _read_suit(TrumpChoice, d["trump"]),
    "discard": _read_discard,
    "declare": lambda d: _read_suit(Declare, d["declare"]),
}
_WORD_READERS: dict[str, Any] = {
    "bid": _parse_bid,
    "cut": lambda rest, notation: Cut(rest),
    "call": lambda rest, notation: Call(Card.parse(rest, notation)),
    "announce": lambda rest, notation: Announce(Card.parse(rest, notation)),
    "trump": lambda rest, notation: TrumpChoice(Suit.parse(rest)),
    "declare": lambda rest, notation: Declare(Suit.parse(rest)),
    "discard": lambda rest, notation: Discard(*parse_cards(rest, notation)),
}
_EXTRA_KEYS: dict[str, set[str]] = {"play": {"arrastro"}, "signal": {"aloud"}}

#: Every play action, indexed by card index (the engine's allocation-free table).
PLAYS: tuple[Play, ...] = tuple(Play._interned)  # type: ignore[arg-type]
#: Every exchange action, indexed by card index.
EXCHANGES: tuple[Exchange, ...] = tuple(Exchange._interned)  # type: ignore[arg-type]
#: Every announced exchange, indexed by card index.
ANNOUNCES: tuple[Announce, ...] = tuple(Announce._interned)  # type: ignore[arg-type]
#: Every arrastro action, indexed by card index.
ARRASTROS: tuple[Arrastro, ...] = tuple(Arrastro._interned)  # type: ignore[arg-type]
#: Every call action, indexed by card index.
CALLS: tuple[Call, ...] = tuple(Call._interned)  # type: ignore[arg-type]
