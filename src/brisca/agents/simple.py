"""The simple built-in players: ``random`` and ``greedy``."""

from __future__ import annotations

import random
from collections.abc import Sequence

from brisca.actions import Action, Announce, Exchange, Play
from brisca.agents.auction import auction_action, declare_choice
from brisca.cards import Card, Suit
from brisca.errors import IllegalActionError
from brisca.game import View, winning_index


def _require_turn(view: View) -> tuple[Action, ...]:
    if not view.legal_actions:
        raise IllegalActionError(f"it is not seat {view.seat}'s turn")
    return view.legal_actions


class RandomAgent:
    """Picks uniformly among the legal actions (exchanges included)."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def act(self, view: View) -> Action:
        legal = _require_turn(view)
        return legal[self.rng.randrange(len(legal))]


class GreedyAgent:
    """Wins a trick cheaply when it can, otherwise throws its least valuable card.

    Fixed once and for all, so that strength figures measured against it stay comparable:
    following, the lowest-ranked card that wins the trick without a trump; else,
    if the trick holds 10 points or more, the lowest trump that wins it; else the
    lowest non-trump, else the lowest trump. Leading, the lowest non-trump worth
    nothing, else the lowest non-trump, else the lowest trump. Ties go to the card
    held longest. It always takes the trump exchange when it may (announces it, where it is announced).
    """

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    def act(self, view: View) -> Action:
        legal = _require_turn(view)
        bid = auction_action(view)
        if bid is not None:
            return bid
        for action in legal:
            if isinstance(action, Exchange | Announce):
                return action
        playable = [a.card for a in legal if isinstance(a, Play)]
        card = self.choose_card(view, playable)
        declare = declare_choice(view, card)
        return declare if declare is not None else Play(card)

    @staticmethod
    def choose_card(view: View, hand: Sequence[Card]) -> Card:
        """The greedy card among ``hand`` (in the order held, longest first)."""
        assert view.trump is not None or view.call_pending, "the card play has a trump (but a blind call's first trick)"
        return greedy_card(hand, view.trick, view.trump, view.rules.strength_table, view.rules.point_table)


def greedy_card(hand: Sequence[Card], trick: Sequence[Card], trump: Suit | None, strength: Sequence[int],
                points: Sequence[int]) -> Card:
    """The fixed greedy rule on a hand (in the order held, longest first) and the trick so far: a pure function,
    so the search can also play it for a seat it has read as greedy (:mod:`brisca.agents.inference`)."""

    def lowest(cards: Sequence[Card]) -> Card:
        return min(cards, key=lambda c: strength[c.index])  # min keeps the first of equals

    plain = [c for c in hand if c.suit is not trump]
    trumps = [c for c in hand if c.suit is trump]
    if trick:
        best = trick[winning_index(trick, trump, strength)]
        if best.suit is not trump:
            beaters = [c for c in plain if c.suit is best.suit and strength[c.index] > strength[best.index]]
            if beaters:
                return lowest(beaters)
        if sum(points[c.index] for c in trick) >= 10:
            winning_trumps = [c for c in trumps if best.suit is not trump or strength[c.index] > strength[best.index]]
            if winning_trumps:
                return lowest(winning_trumps)
        return lowest(plain) if plain else lowest(trumps)
    worthless = [c for c in plain if points[c.index] == 0]
    if worthless:
        return lowest(worthless)
    return lowest(plain) if plain else lowest(trumps)
