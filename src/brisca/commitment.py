"""Deals nobody can predict or change unseen: a secure shuffle, and a commitment to each deck.

A table shuffles from the operating system's CSPRNG (:func:`secure_deck`), never from a seed a client
could choose. When it deals it publishes ``commit(deck, salt)``: the SHA-256 of the scheme's name, a
random salt and the deck, top card first. The salt stays secret until the match is over; the finished
record reveals both, so anyone can recompute the hash and see that the deck played is the deck the
table was committed to before the first card was seen. Without the salt a commitment cannot be turned
back into the deck, not even late in a hand when few orders of the unseen cards remain::

    >>> deck = ["3O", "1C", "12E"]
    >>> salt = "00" * 16
    >>> digest = commit(deck, salt)
    >>> len(digest), digest == commit(["1C", "3O", "12E"], salt)
    (64, False)
    >>> check_deal(deck, salt, digest) is None
    True
    >>> print(check_deal(["1C", "3O", "12E"], salt, digest))
    the deck does not match its commitment (published 83599b5772c2…, this deck gives 07b82bc50952…)

What a commitment proves: the deck was fixed when the hand was dealt and not changed while it was
played. It does not prove the server chose the order at random (a server that wanted to could commit
to a deck it likes); see ``docs/threats.md``.
"""

from __future__ import annotations

import hashlib
import hmac
import random
import secrets
from collections.abc import Sequence

from brisca.cards import Card
from brisca.game import shuffled

#: The text hashed is ``f"{SCHEME}\n{salt}\n{' '.join(deck)}"`` (cards in notation, ``"3O"``), UTF-8.
SCHEME = "brisca-deal/1"
#: Bytes of randomness in a salt (written as twice as many hex digits).
SALT_BYTES = 16

_RANDOM = secrets.SystemRandom()


def secure_deck(cards: Sequence[Card]) -> list[Card]:
    """``cards`` in a uniformly random order drawn from the operating system's CSPRNG."""
    deck = list(cards)
    _RANDOM.shuffle(deck)
    return deck


def new_salt() -> str:
    """A fresh random salt, as hex."""
    return secrets.token_hex(SALT_BYTES)


def commit(deck: Sequence[Card | str], salt: str) -> str:
    """The commitment to ``deck`` (top card first) with ``salt``: a SHA-256 as 64 hex digits."""
    text = f"{SCHEME}\n{salt}\n{' '.join(str(c) for c in deck)}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def check_deal(deck: Sequence[Card | str], salt: str, commitment: str) -> str | None:
    """``None`` when ``deck`` and ``salt`` give ``commitment``; else what is wrong, in words."""
    got = commit(deck, salt)
    if hmac.compare_digest(got, commitment.lower()):
        return None
    return f"the deck does not match its commitment (published {commitment[:12]}…, this deck gives {got[:12]}…)"


def practice_deck(cards: Sequence[Card], seed: int, hand_number: int) -> tuple[Card, ...]:
    """The deck of hand ``hand_number`` (from 0) at a practice table seeded with ``seed``.

    Anyone who knows the seed knows every deal: only a table with one person at most may have one.
    """
    return shuffled(cards, random.Random(f"{seed}:{hand_number}"))
