"""Spanish cards: suits, ranks, cards, decks, and their names in three languages.

A card's notation is its rank number followed by its suit letter::

    >>> Card.parse("3o")
    Card.parse('3O')
    >>> str(Card(Rank.ACE, Suit.BASTOS))
    '1B'
    >>> Card.parse("12E").name("en")
    'king of swords'
    >>> Card.parse("as de oros") is Card.parse("1O")
    True

Cards are interned: there is exactly one object per card, so identity, ``==``
and hashing all agree, and comparing cards costs no more than comparing ints.
That matters because the engine's hot path is built on cards.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from typing import Literal

from brisca.errors import InvalidCardError

Lang = Literal["es", "en", "it"]
LANGS: tuple[Lang, ...] = ("es", "en", "it")


class Suit(enum.IntEnum):
    """The four Spanish suits, in the order O, C, E, B."""

    OROS = 0
    COPAS = 1
    ESPADAS = 2
    BASTOS = 3

    @property
    def letter(self) -> str:
        """The one-letter notation: ``O``, ``C``, ``E`` or ``B``."""
        return "OCEB"[self]

    def name_in(self, lang: Lang = "es") -> str:
        """The suit's name in ``lang`` (``"oros"``, ``"coins"``, ``"denari"``...)."""
        return _SUIT_NAMES[lang][self]

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Read a suit letter or a suit name in any supported language.

        >>> Suit.parse("e"), Suit.parse("Coppe")
        (<Suit.ESPADAS: 2>, <Suit.COPAS: 1>)
        """
        key = text.strip().lower() if isinstance(text, str) else ""
        try:
            return _SUIT_LOOKUP[key]
        except KeyError:
            raise InvalidCardError(f"not a suit: {text!r} (use O, C, E or B)") from None

    def __str__(self) -> str:
        return self.letter


class Rank(enum.IntEnum):
    """Ranks carry their printed number: the jack (sota) is 10, the knight 11, the king 12."""

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

    def name_in(self, lang: Lang = "es") -> str:
        """The rank's name in ``lang`` (``"sota"``, ``"jack"``, ``"fante"``...)."""
        return _RANK_NAMES[lang][self]

    @classmethod
    def parse(cls, text: str) -> Rank:
        """Read a rank number (``"1"``..``"12"``) or a rank name in any supported language."""
        key = text.strip().lower() if isinstance(text, str) else ""
        try:
            return _RANK_LOOKUP[key]
        except KeyError:
            raise InvalidCardError(f"not a rank: {text!r} (use 1-12)") from None

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

_SUIT_LOOKUP: dict[str, Suit] = {}
_RANK_LOOKUP: dict[str, Rank] = {}
for _suit in Suit:
    _SUIT_LOOKUP[_suit.letter.lower()] = _suit
    for _snames in _SUIT_NAMES.values():
        _SUIT_LOOKUP[_snames[_suit]] = _suit
for _rank in Rank:
    _RANK_LOOKUP[str(_rank.value)] = _rank
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
    def parse(cls, text: str) -> Card:
        """Read a card from its notation (``"3O"``, case-insensitive) or its full name.

        >>> Card.parse("11c").name("it")
        'cavallo di coppe'
        """
        card = _PARSE.get(text.strip().lower()) if isinstance(text, str) else None
        if card is None:
            raise InvalidCardError(
                f"not a card: {text!r} (write rank then suit, like 3O, 12E or 7b)"
            )
        return card

    @classmethod
    def from_index(cls, index: int) -> Card:
        """The card with dense number ``index`` (see the class docstring)."""
        return _CARDS[index]

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
_NOTATION: list[str] = [f"{c.rank.value}{c.suit.letter}" for c in _CARDS]
_PARSE: dict[str, Card] = {}
for _card in _CARDS:
    _PARSE[_NOTATION[_card.index].lower()] = _card
    for _lang in LANGS:
        _PARSE[_card.name(_lang)] = _card


def parse_cards(texts: Iterable[str] | str) -> list[Card]:
    """Parse several cards, from a list of notations or one space/comma separated string.

    >>> parse_cards("1O 3c, 12e")
    [Card.parse('1O'), Card.parse('3C'), Card.parse('12E')]
    """
    if isinstance(texts, str):
        texts = texts.replace(",", " ").split()
    return [Card.parse(t) for t in texts]


def spanish_deck(size: int = 40) -> tuple[Card, ...]:
    """The cards of a Spanish deck in canonical order (suit by suit, rank up).

    ``size`` is 40 (no 8s and 9s) or 48.
    """
    if size not in (40, 48):
        raise InvalidCardError(f"a Spanish deck has 40 or 48 cards, not {size}")
    return tuple(c for c in _CARDS if size == 48 or c.rank not in (Rank.EIGHT, Rank.NINE))


ALL_CARDS: tuple[Card, ...] = tuple(_CARDS)
"""All 48 cards in index order."""
