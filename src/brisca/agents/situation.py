"""What a card choice looks at: a small summary of a position (:class:`Situation`).

The heuristic's rules (:func:`brisca.agents.heuristic.choose`), the learned score
(:func:`brisca.agents.learned.choose_learned`) and the rollout policy (:mod:`brisca.agents.rollout`)
all choose a card from one; the heuristic builds it from a view
(:func:`brisca.agents.heuristic.situation`), the rollout policy from a sampled world, move by move.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from brisca.cards import Card, Suit


@dataclass
class Situation:
    """What the card choice looks at: the hand, the table, and what is still out."""

    hand: Sequence[Card]
    trick: Sequence[Card]
    #: ``None`` in a trick played before any trump is declared (Chiamata Buia's first).
    trump: Suit | None
    strength: Sequence[int]
    points: Sequence[int]
    #: Whether the card now winning the trick belongs to this seat's side.
    partner_winning: bool
    #: Seats still to play after this one, and whether any of them is an opponent.
    opponents_after: bool
    #: Trumps not seen by this seat (in other hands or the stock): what can still beat a card.
    trumps_out: int
    #: For each suit, the strongest card of it still out (0 if none).
    top_out: Sequence[int]
    #: The card now winning the trick, when the caller already knows it.
    best: Card | None = None
    #: Whether the side with the fewest points wins the hand (``hand_winner: least``, the Mexican game).
    least: bool = False


__all__ = ["Situation"]
