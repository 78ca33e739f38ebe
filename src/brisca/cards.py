"""Spanish cards: suits, ranks, cards, decks, their notations and their names in three languages.

A card's canonical notation is its rank number followed by its suit letter::

    >>> Card.parse("3o")
    Card.parse('3O')
    >>> str(Card(Rank.ACE, Suit.BASTOS))
    '1B'
    >>> Card.parse("12E").name("en")
    'king of swords'
    >>> Card.parse("as de oros") is Card.parse("1O")
    True

The Italian deck is the same deck with other pictures; the Italian presets write
it in the Italian notation (:data:`ITALIAN`): ranks ``A 2 3 4 5 6 7 F C R``
(asso, fante, cavallo, re), suits ``D C S B`` (denari, coppe, spade, bastoni)::

    >>> Card.parse("12O").text(ITALIAN), Card.parse("RD") is Card.parse("12O")
    ('RD', True)
    >>> Card.parse("cc").name("en")
    'knight of cups'

Both notations are read everywhere: no text means one card in one notation and
another card in the other. The one exception is the number 10, the jack of a
Spanish deck but, in the Italian custom of counting the fante 8, the cavallo 9 and
the re 10, the king: a reader that expects Italian text passes
``notation=ITALIAN`` and gets an error for ``10C`` instead of a guess. ``str(card)``
stays canonical; records always keep the canonical notation.

Cards are interned: there is exactly one object per card, so identity, ``==``
and hashing all agree, and comparing cards costs no more than comparing ints.
That matters because the engine's hot path is built on cards; notations are
only for its edges (screens, pages, parsers).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from typing import Literal

from brisca.errors import InvalidCardError

Lang = Literal["es", "en", "it"]
LANGS: tuple[Lang, ...] = ("es", "en", "it")


class Notation:
    """How a deck writes its cards: one symbol a rank, one letter a suit, rank first (``3O``, ``RD``).

    There are two, :data:`SPANISH` (canonical) and :data:`ITALIAN`; :func:`find_notation` finds one by name
    (the ``card_names`` rule option names the one a preset uses).

    >>> ITALIAN.text(Card.parse("10E")), ITALIAN.parse("fs")
    ('FS', Card.parse('10E'))
    """

    __slots__ = ("name", "lang", "suit_letters", "rank_symbols")

    name: str
    #: The language the letters come from (``R`` for re, ``D`` for denari).
    lang: Lang
    #: The suit letters, in :class:`Suit` order.
    suit_letters: tuple[str, str, str, str]
    #: The rank symbols, by rank number.
    rank_symbols: Mapping[int, str]

    def __init__(self, name: str, lang: Lang, suit_letters: str, rank_symbols: Mapping[int, str]) -> None:
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "lang", lang)
        object.__setattr__(self, "suit_letters", tuple(suit_letters))
        object.__setattr__(self, "rank_symbols", dict(rank_symbols))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Notation is immutable")

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (find_notation, (self.name,))

    def __repr__(self) -> str:
        return f"find_notation({self.name!r})"

    def text(self, card: Card) -> str:
        """``card`` written in this notation."""
        return _TEXTS[self.name][card.index]

    def suit_letter(self, suit: Suit | int) -> str:
        """The letter of ``suit``: ``O`` in Spanish, ``D`` in Italian for oros (denari)."""
        return self.suit_letters[int(suit)]

    def rank_symbol(self, rank: Rank | int) -> str:
        """The symbol of ``rank``: ``12`` in Spanish, ``R`` in Italian for the king (re)."""
        return self.rank_symbols[int(rank)]

    def parse(self, text: str) -> Card:
        """Read a card written in this notation (or in the other, where that is unambiguous)."""
        return Card.parse(text, self)


#: The canonical notation: rank number 1-12, suit O (oros), C (copas), E (espadas), B (bastos).
SPANISH = Notation("spanish", "es", "OCEB", {r: str(r) for r in range(1, 13)})
#: The Italian notation: rank A 2 3 4 5 6 7 F C R (asso, fante, cavallo, re; 8 and 9 only in a 48-card deck),
#: suit D (denari), C (coppe), S (spade), B (bastoni). Face cards are letters, never numbers.
ITALIAN = Notation(
    "italian", "it", "DCSB", {1: "A", 2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9",
                              10: "F", 11: "C", 12: "R"},
)
#: Every notation, by name.
NOTATIONS: dict[str, Notation] = {n.name: n for n in (SPANISH, ITALIAN)}

#: A notation or its name, where the library takes one.
NotationLike = Notation | str


def find_notation(name: NotationLike) -> Notation:
    """The notation called ``name`` (``"spanish"``, ``"italian"``); a :class:`Notation` is returned as it is."""
    if isinstance(name, Notation):
        return name
    found = NOTATIONS.get(name) if isinstance(name, str) else None
    if found is None:
        raise InvalidCardError(f"no notation {_shown(name)}: use {' or '.join(NOTATIONS)}")
    return found




class Suit(enum.IntEnum):
    """The four Spanish suits, in the order O, C, E, B."""

    OROS = 0
    COPAS = 1
    ESPADAS = 2
    BASTOS = 3

    @property
    def letter(self) -> str:
        """The one-letter canonical notation: ``O``, ``C``, ``E`` or ``B``."""
        return "OCEB"[self]

    def text(self, notation: NotationLike = SPANISH) -> str:
        """The suit's letter in ``notation``: ``Suit.OROS.text("italian") == "D"``."""
        return find_notation(notation).suit_letter(self)

    def name_in(self, lang: Lang = "es") -> str:
        """The suit's name in ``lang`` (``"oros"``, ``"coins"``, ``"denari"``...)."""
        return _SUIT_NAMES[lang][self]

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Read a suit letter (Spanish or Italian: the letters never clash) or a suit name in any language.

        >>> Suit.parse("e"), Suit.parse("Coppe"), Suit.parse("D")
        (<Suit.ESPADAS: 2>, <Suit.COPAS: 1>, <Suit.OROS: 0>)
        """
        key = text.strip().lower() if isinstance(text, str) else ""
        try:
            return _SUIT_LOOKUP[key]
        except KeyError:
            raise InvalidCardError(f"not a suit: {_shown(text)} (use O, C, E or B; in Italian D, C, S, B)") from None

    def __str__(self) -> str:
        return self.letter


class Rank(enum.IntEnum):
    """Ranks carry their printed Spanish number: the jack (sota) is 10, the knight 11, the king 12."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    JACK = 10
    KNIGHT = 11
    KING = 12

    def text(self, notation: NotationLike = SPANISH) -> str:
        """The rank's symbol in ``notation``: ``Rank.KING.text("italian") == "R"``."""
        return find_notation(notation).rank_symbol(self)

    def name_in(self, lang: Lang = "es") -> str:
        """The rank's name in ``lang`` (``"sota"``, ``"jack"``, ``"fante"``...)."""
        return _RANK_NAMES[lang][self]

    @classmethod
    def parse(cls, text: str, notation: NotationLike | None = None) -> Rank:
        """Read a rank symbol (``"1"``..``"12"``, or Italian ``A F C R``) or a rank name in any language.

        Under ``notation=ITALIAN`` the number ``10`` is refused as ambiguous (see the module docstring).
        """
        key = text.strip().lower() if isinstance(text, str) else ""
        if key == "10" and notation is not None and find_notation(notation) is ITALIAN:
            raise InvalidCardError(_AMBIGUOUS_TEN)
        try:
            return _RANK_LOOKUP[key]
        except KeyError:
            raise InvalidCardError(f"not a rank: {_shown(text)} (use 1-12, or A, F, C, R)") from None

    def __str__(self) -> str:
        return str(self.value)


_SUIT_NAMES: dict[str, tuple[str, str, str, str]] = {
    "es": ("oros", "copas", "espadas", "bastos"),
    "en": ("coins", "cups", "swords", "clubs"),
    "it": ("denari", "coppe", "spade", "bastoni"),
}
_RANK_NAMES: dict[str, dict[int, str]] = {
    "es": {1: "as", 2: "dos", 3: "tres", 4: "cuatro", 5: "cinco", 6: "seis", 7: "siete",
           8: "ocho", 9: "nueve", 10: "sota", 11: "caballo", 12: "rey"},
    "en": {1: "ace", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven",
           8: "eight", 9: "nine", 10: "jack", 11: "knight", 12: "king"},
    "it": {1: "asso", 2: "due", 3: "tre", 4: "quattro", 5: "cinque", 6: "sei", 7: "sette",
           8: "otto", 9: "nove", 10: "fante", 11: "cavallo", 12: "re"},
}
# How a card's full name joins rank and suit in each language.
_NAME_JOIN: dict[str, str] = {"es": " de ", "en": " of ", "it": " di "}
_AMBIGUOUS_TEN = (
    "10 is ambiguous in the Italian notation (the Spanish jack, or the Italian king counted 10):"
    " write F for the fante (jack) or R for the re (king)"
)
_SHOWN_MAX = 40


def _shown(text: object) -> str:
    """``text`` quoted for an error message, cut to a readable length."""
    shown = repr(text)
    return shown if len(shown) <= _SHOWN_MAX else shown[:_SHOWN_MAX - 1] + "…"


_SUIT_LOOKUP: dict[str, Suit] = {}
_RANK_LOOKUP: dict[str, Rank] = {}
for _suit in Suit:
    for _notation in NOTATIONS.values():
        _SUIT_LOOKUP[_notation.suit_letter(_suit).lower()] = _suit
    for _snames in _SUIT_NAMES.values():
        _SUIT_LOOKUP[_snames[_suit]] = _suit
for _rank in Rank:
    for _notation in NOTATIONS.values():
        _RANK_LOOKUP.setdefault(_notation.rank_symbol(_rank).lower(), _rank)
    for _rnames in _RANK_NAMES.values():
        _RANK_LOOKUP.setdefault(_rnames[_rank], _rank)
_RANK_LOOKUP["horse"] = Rank.KNIGHT


class Card:
    """One card of the Spanish deck. Immutable and interned.

    ``index`` is a dense number in ``0..47`` (suit * 12 + rank - 1) that the engine
    uses to look up per-card tables without hashing.
    """

    __slots__ = ("rank", "suit", "index")

    rank: Rank
    suit: Suit
    index: int

    def __new__(cls, rank: Rank | int, suit: Suit | int) -> Card:
        r, s = int(rank), int(suit)
        if not (1 <= r <= 12 and 0 <= s <= 3):
            raise InvalidCardError(f"no such card: rank {rank!r}, suit {suit!r}")
        return _CARDS[s * 12 + r - 1]

    @classmethod
    def _make(cls, rank: Rank, suit: Suit) -> Card:
        self = object.__new__(cls)
        object.__setattr__(self, "rank", rank)
        object.__setattr__(self, "suit", suit)
        object.__setattr__(self, "index", suit * 12 + rank - 1)
        return self

    @classmethod
    def parse(cls, text: str, notation: NotationLike | None = None) -> Card:
        """Read a card from its notation, Spanish or Italian (``"3O"``, ``"RD"``, case-insensitive), or its
        full name in any language.

        ``notation`` says which notation ``text`` is written in where the two read a text differently:
        only the number 10, which ``notation=ITALIAN`` refuses (see the module docstring).

        >>> Card.parse("11c").name("it"), Card.parse("cc") is Card.parse("11C")
        ('cavallo di coppe', True)
        """
        key = text.strip().lower() if isinstance(text, str) else ""
        card = _PARSE.get(key)
        if card is not None:
            if notation is not None and card.rank == Rank.JACK and key[:2] == "10" and \
                    find_notation(notation) is ITALIAN:
                raise InvalidCardError(f"{_shown(text)}: {_AMBIGUOUS_TEN}")
            return card
        if key[:2] == "10" and key[2:] in ("d", "s"):
            raise InvalidCardError(f"{_shown(text)}: {_AMBIGUOUS_TEN}")
        raise InvalidCardError(
            f"not a card: {_shown(text)} (write rank then suit, like 3O, 12E or 7b; in Italian 3D, RS or FC)"
        )

    @classmethod
    def from_index(cls, index: int) -> Card:
        """The card with dense number ``index`` (see the class docstring)."""
        return _CARDS[index]

    def text(self, notation: NotationLike = SPANISH) -> str:
        """The card in ``notation``: ``"12O"`` in Spanish (``str(card)``), ``"RD"`` in Italian."""
        return _TEXTS[find_notation(notation).name][self.index]

    def name(self, lang: Lang = "es") -> str:
        """The card's full name: ``"as de oros"``, ``"ace of coins"``, ``"asso di denari"``."""
        return f"{self.rank.name_in(lang)}{_NAME_JOIN[lang]}{self.suit.name_in(lang)}"

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (Card.from_index, (self.index,))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __str__(self) -> str:
        return _NOTATION[self.index]

    def __repr__(self) -> str:
        return f"Card.parse({_NOTATION[self.index]!r})"


_CARDS: list[Card] = [Card._make(rank, suit) for suit in Suit for rank in Rank]
_TEXTS: dict[str, list[str]] = {
    n.name: [f"{n.rank_symbol(c.rank)}{n.suit_letter(c.suit)}" for c in _CARDS] for n in NOTATIONS.values()
}
_NOTATION: list[str] = _TEXTS[SPANISH.name]
_PARSE: dict[str, Card] = {}
for _card in _CARDS:
    for _texts in _TEXTS.values():
        _PARSE[_texts[_card.index].lower()] = _card
    if _card.rank == Rank.ACE:  # the Italian ace may be written 1 too: 1D, 1S
        _PARSE[f"1{ITALIAN.suit_letter(_card.suit)}".lower()] = _card
    for _lang in LANGS:
        _PARSE[_card.name(_lang)] = _card


def parse_cards(texts: Iterable[str] | str, notation: NotationLike | None = None) -> list[Card]:
    """Parse several cards, from a list of notations or one space/comma separated string.

    >>> parse_cards("1O 3c, 12e")
    [Card.parse('1O'), Card.parse('3C'), Card.parse('12E')]
    """
    if isinstance(texts, str):
        texts = texts.replace(",", " ").split()
    return [Card.parse(t, notation) for t in texts]


def spanish_deck(size: int = 40) -> tuple[Card, ...]:
    """The cards of a Spanish deck in canonical order (suit by suit, rank up).

    ``size`` is 40 (no 8s and 9s) or 48.
    """
    if size not in (40, 48):
        raise InvalidCardError(f"a Spanish deck has 40 or 48 cards, not {size}")
    return tuple(c for c in _CARDS if size == 48 or c.rank not in (Rank.EIGHT, Rank.NINE))


ALL_CARDS: tuple[Card, ...] = tuple(_CARDS)
"""All 48 cards in index order."""
