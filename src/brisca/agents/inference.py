"""Reading the other seats' plays: what a model of their play says they did not hold.

The rules alone say little about a hidden hand in the stock phase (nobody must follow
suit), yet most players are not random: a player who wins cheaply when it can and
otherwise throws its least valuable card shows, with every card, which cards it did
*not* hold. This module turns a seat's plays into such beliefs, in the form the world
sampler takes (:data:`brisca.worlds.Constraint`: "at time t the seat held no card
like this"), for a model of play:

- ``greedy``: the fixed greedy rule of :class:`brisca.agents.simple.GreedyAgent`
  (following, the lowest card that wins without a trump; else, on a trick worth 10 or
  more, the lowest winning trump; else the lowest non-trump, else the lowest trump;
  leading, the lowest blank non-trump, else the lowest non-trump, else the lowest
  trump; it always takes the trump exchange when it may, so a seat that did not held no
  card to take it with). It is also how many casual players play.

The search (:class:`brisca.agents.search.ExpertAgent`) hands the beliefs to
:class:`brisca.worlds.WorldSampler`, which keeps a seat's beliefs only while some world
satisfies them: the first play that no hand could explain under the model drops the
model for that seat, so a seat that plays otherwise is read by the rules alone.

    >>> from brisca import Card, Suit
    >>> from brisca.rules import make_rules
    >>> rules = make_rules("spanish")
    >>> lacks = greedy_lacks(Card.parse("3O"), [], Suit.parse("C"), rules.strength_table, rules.point_table)
    >>> [str(c) for c in map(Card.parse, ("2E", "1B", "4C")) if any(p(c) for p in lacks)]
    ['2E']

(Leading a three of a plain suit, a greedy player held no blank card of a plain suit,
so no 2 of swords; the ace of clubs is stronger, the 4 of the trump suit is a trump.)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from brisca.actions import Exchange, Play
from brisca.cards import Card, Suit
from brisca.game import View, winning_index
from brisca.worlds import Constraint

#: A predicate on cards: true for a card the seat cannot have held.
Lacks = Callable[[Card], bool]


def greedy_lacks(card: Card, trick: Sequence[Card], trump: Suit, strength: Sequence[int],
                 points: Sequence[int]) -> list[Lacks]:
    """What a greedy player who played ``card`` to ``trick`` cannot have held then (equal-ranked cards of other
    suits are allowed: the greedy rule breaks such ties by the order it received them)."""
    out: list[Lacks] = []
    sc = strength[card.index]
    if not trick:
        if card.suit is not trump and points[card.index] == 0:
            out.append(lambda c: c.suit is not trump and points[c.index] == 0 and strength[c.index] < sc)
        elif card.suit is not trump:
            out.append(lambda c: c.suit is not trump and (points[c.index] == 0 or strength[c.index] < sc))
        else:
            out.append(lambda c: c.suit is not trump or strength[c.index] < sc)
        return out
    best = trick[winning_index(trick, trump, strength)]
    sb, bsuit = strength[best.index], best.suit
    if bsuit is not trump:
        if card.suit is bsuit and sc > sb:  # won with a card of the suit: the lowest that does
            out.append(lambda c: c.suit is bsuit and sb < strength[c.index] < sc)
            return out
        out.append(lambda c: c.suit is bsuit and strength[c.index] > sb)  # it had nothing of the suit to win with
    if sum(points[c.index] for c in trick) >= 10:
        if card.suit is trump and (bsuit is not trump or sc > sb):  # the lowest trump that wins
            out.append(lambda c: c.suit is trump and (bsuit is not trump or strength[c.index] > sb)
                       and strength[c.index] < sc)
            return out
        out.append(lambda c: c.suit is trump and (bsuit is not trump or strength[c.index] > sb))
    if card.suit is not trump:  # the lowest plain card
        out.append(lambda c: c.suit is not trump and strength[c.index] < sc)
    else:  # the lowest trump, holding no plain card
        out.append(lambda c: c.suit is not trump or strength[c.index] < sc)
    return out


def _is(card: Card) -> Lacks:
    return lambda c: c is card


#: The models of play a view can be read with, by name.
MODELS: dict[str, Callable[[Card, Sequence[Card], Suit, Sequence[int], Sequence[int]], list[Lacks]]] = {
    "greedy": greedy_lacks,
}


def beliefs(view: View, model: str = "greedy") -> list[list[Constraint]]:
    """For each seat, what ``model`` says its card plays show it lacked (nothing for the viewer itself).

    Only free choices are read: a play made under a duty to follow (where the rules narrow the choice)
    and the card actions other than a plain play (arrastro, declarations) are left to the rules.
    """
    lacks = MODELS[model]
    rules, n, trump = view.rules, view.players, view.trump
    out: list[list[Constraint]] = [[] for _ in range(n)]
    if trump is None or rules.dealt_out:
        return out
    strength, points = rules.strength_table, rules.point_table
    stock_left = len(rules.deck_cards(n)) - rules.hand_size * n
    duty_always = rules.follow != "none" and rules.follow_from == "start"
    # The exchange, as the engine allows it: the face-up trump, who has won a trick, when it closes.
    exchange = view.turned is not None and rules.trump_exchange != "off" and model == "greedy"
    face, exchanged = view.turned, False
    may = [rules.trump_exchange == "any_time"] * n
    give_until = n if rules.trump_exchange == "before_penultimate" else 0
    trick: list[Card] = []
    finished = 0
    for t, (seat, action) in enumerate(view.history, start=1):
        card = getattr(action, "card", None)
        if isinstance(action, Exchange):
            face, exchanged = action.card, True
            continue
        if card is None:
            continue
        if seat != view.seat and action.__class__ is Play:
            free = not (duty_always or (rules.follow != "none" and stock_left <= 0))
            if free:
                out[seat].extend((t, p) for p in lacks(card, trick, trump, strength, points))
            give = None
            if exchange and may[seat] and stock_left > give_until and (not exchanged or rules.exchange_chain):
                give = rules.exchange_table[face.index] if face is not None else None
            previous = view.history[t - 2] if t >= 2 else None
            if give is not None and not (previous and previous[0] == seat and isinstance(previous[1], Exchange)):
                out[seat].append((t, _is(give)))  # the greedy player always takes the exchange
        trick.append(card)
        if len(trick) == n:
            trick = []
            stock_left -= n
            if finished < len(view.tricks):
                may[view.tricks[finished].winner] = True
            finished += 1
    return out


__all__ = ["MODELS", "beliefs", "greedy_lacks"]
