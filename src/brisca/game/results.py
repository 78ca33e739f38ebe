"""What a hand leaves behind: finished tricks (and who wins one), trump exchanges, the contract, the result.

Plain values, apart from the hand that makes them, so that views, matches and records read them alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from brisca.actions import Action
from brisca.cards import Card, Suit


class Trick(NamedTuple):
    """A finished trick: who led, the cards in order of play, who won it and its points."""

    leader: int
    cards: tuple[Card, ...]
    winner: int
    points: int

    def seat_of(self, i: int, players: int) -> int:
        """The seat that played the ``i``-th card."""
        return (self.leader + i) % players



def winning_index(cards: Sequence[Card], trump: Suit | None, strength: Sequence[int]) -> int:
    """The position of the card that wins a trick: the highest trump, else the highest of the suit led.

    ``trump`` is ``None`` for a trick played before any trump is declared (Chiamata Buia's first).
    """
    best = 0
    for i in range(1, len(cards)):
        c, b = cards[i], cards[best]
        if c.suit is b.suit:
            if strength[c.index] > strength[b.index]:
                best = i
        elif c.suit is trump:
            best = i
    return best


class ExchangeEvent(NamedTuple):
    """A trump exchange: ``seat`` gave ``given`` and took the face-up card ``taken``."""

    seat: int
    given: Card
    taken: Card



class Bonus(NamedTuple):
    """Points a side scores beyond its card points, and why."""

    side: int
    points: int
    why: str


@dataclass(frozen=True)
class HandResult:
    """The outcome of a finished hand."""

    #: Card points taken by each seat (claimed cards included).
    seat_points: tuple[int, ...]
    #: Each side's total: its card points plus its bonuses.
    side_points: tuple[int, ...]
    #: The winning side, or ``None`` for a drawn hand (and for a hand shared under ``tie: shared``).
    winner: int | None
    bonuses: tuple[Bonus, ...] = ()
    #: Why the hand ended as it did: "points", "tie", "shared", "three-killed", "capote"; under ``point_limit``,
    #: "within-limit" (the sides within it awarded the hand) or "over-limit" (every side over it: nobody wins).
    reason: str = "points"
    #: A tie under ``tie: replay``: the same dealer deals a replacement hand.
    replay: bool = False
    #: Games with a contract: the match points each seat scores for this hand.
    scores: tuple[int, ...] | None = None
    #: Games with a contract: the contract played (``None`` when everybody passed).
    contract: Contract | None = None
    #: A tie under ``tie: shared``: every side tied for the most, each awarded the hand; under ``point_limit``, the
    #: sides within the limit when there are several (else empty).
    shared: tuple[int, ...] = ()

    @property
    def winners(self) -> tuple[int, ...]:
        """The sides awarded the hand: the winner alone, the tied sides of a shared hand, none for a drawn one."""
        return (self.winner,) if self.winner is not None else self.shared

    @property
    def margin(self) -> int:
        """How far the winner is from the closest other side (0 for a drawn hand).

        Under ``hand_winner: least`` the winner has fewer points, and the margin still counts up.
        """
        if self.winner is None:
            return 0
        mine = self.side_points[self.winner]
        return min((abs(mine - p) for i, p in enumerate(self.side_points) if i != self.winner), default=0)


@dataclass(frozen=True)
class Contract:
    """What the auction decided: who plays against whom, for how many points, in which trump."""

    #: The seat that won the auction.
    declarer: int
    #: The winning bid (:class:`~brisca.actions.Bid` or :class:`~brisca.actions.RankBid`).
    bid: Action
    #: The card points (with bonuses) the declarer's side must take.
    points: int
    trump: Suit
    #: The called card (Briscola Chiamata).
    called: Card | None = None
    #: The called card's holder (the declarer himself when he plays alone). In views it stays ``None``
    #: until the called card is played.
    partner: int | None = None

    @property
    def alone(self) -> bool:
        """Whether the declarer called his own card (known once the partner is revealed)."""
        return self.partner == self.declarer

    def side(self) -> frozenset[int]:
        """The seats that play the contract (as far as this object knows)."""
        return frozenset(s for s in (self.declarer, self.partner) if s is not None)

    def to_json(self) -> dict[str, Any]:
        """The contract as JSON (``bid`` in its record form: points, or a rank as a string)."""
        return {
            "declarer": self.declarer,
            "bid": self.bid.to_json()["bid"],
            "points": self.points,
            "trump": self.trump.letter,
            "called": None if self.called is None else str(self.called),
            "partner": self.partner,
            "alone": self.called is not None and self.alone,
        }



def _side_sum(points: Sequence[int], sides: int) -> tuple[int, ...]:
    out = [0] * sides
    for seat, p in enumerate(points):
        out[seat % sides] += p
    return tuple(out)
