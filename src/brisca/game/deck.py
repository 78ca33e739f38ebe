"""The deck before the deal: checked, shuffled, cut.

Apart from the hand so that matches, records, the fair-deal commitment and the arena prepare decks the way a hand
deals them.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from brisca.cards import Card
from brisca.errors import IllegalActionError, InvalidCardError, RulesError


class InvalidDeckError(RulesError):
    """A deck that is not exactly the cards the rules put in play."""


def check_deck(deck: Iterable[Card | str], expected: Sequence[Card]) -> tuple[Card, ...]:
    """Parse a deck and check it holds exactly the ``expected`` cards; :class:`InvalidDeckError` if not."""
    try:
        cards = tuple(c if isinstance(c, Card) else Card.parse(c) for c in deck)
    except InvalidCardError as exc:
        raise InvalidDeckError(f"bad deck: {exc}") from None
    if len(cards) != len(expected) or set(cards) != set(expected):
        extra = sorted(set(cards) - set(expected))
        missing = sorted(set(expected) - set(cards))
        dupes = len(cards) - len(set(cards))
        parts = []
        if missing:
            parts.append("missing " + " ".join(map(str, missing)))
        if extra:
            parts.append("not in this deck " + " ".join(map(str, extra)))
        if dupes:
            parts.append(f"{dupes} duplicate card(s)")
        raise InvalidDeckError(
            f"bad deck: {len(cards)} cards, expected {len(expected)}" + (f" ({'; '.join(parts)})" if parts else "")
        )
    return cards


def shuffled(cards: Sequence[Card], seed: int | random.Random | None = None) -> tuple[Card, ...]:
    """A uniformly shuffled copy of ``cards``.

    Sorting on random keys is uniform (ties have probability 2**-53) and twice as fast
    as :func:`random.shuffle`, which matters when search deals thousands of worlds.
    """
    rand = (seed if isinstance(seed, random.Random) else random.Random(seed)).random
    return tuple(sorted(cards, key=lambda _c: rand()))


#: The fewest cards each part of a cut keeps (source Encyclopedia).
MIN_CUT = 4


def cut(deck: Sequence[Card], at: int) -> tuple[Card, ...]:
    """Cut the deck: the top ``at`` cards go under the rest. Each part keeps at least 4 cards (source Encyclopedia).

    >>> from brisca.cards import spanish_deck
    >>> cut(spanish_deck(), 10)[0]
    Card.parse('1C')
    """
    if isinstance(at, bool) or not isinstance(at, int) or not MIN_CUT <= at <= len(deck) - MIN_CUT:
        raise IllegalActionError(f"cut between {MIN_CUT} and {len(deck) - MIN_CUT} cards, not {at!r}")
    return (*deck[at:], *deck[:at])
