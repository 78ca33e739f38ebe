"""The ``heuristic`` player: card counting, partner-aware, and exact once nothing is hidden.

Where the side with the fewest points wins the hand (``hand_winner: least``, the Mexican
game) it plays to lose tricks instead (:func:`_choose_least`).

Its card choice is a pure function of a small position summary
(:class:`~brisca.agents.situation.Situation`), so the rollout policy (:mod:`brisca.agents.rollout`)
uses the very same judgment on sampled worlds without building views.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from brisca.actions import Action, Announce, Arrastro, Claim, Exchange, Play, Signal
from brisca.agents.auction import auction_action, declare_choice
from brisca.agents.exact import exact_choice
from brisca.agents.learned import applies, choose_learned
from brisca.agents.simple import _require_turn
from brisca.agents.situation import Situation
from brisca.cards import Card, Suit
from brisca.game import View, winning_index


def choose(s: Situation) -> Card:
    """The heuristic's card for a position."""
    if s.least:
        return _choose_least(s)
    strength, points, trump = s.strength, s.points, s.trump
    plain = [c for c in s.hand if c.suit is not trump]
    trumps = [c for c in s.hand if c.suit is trump]

    def low(cards: Sequence[Card]) -> Card:
        # Least valuable first: points, then rank.
        return min(cards, key=lambda c: (points[c.index], strength[c.index]))

    def cheapest_discard() -> Card:
        if plain:
            return low(plain)
        return min(trumps, key=lambda c: strength[c.index])

    if not s.trick:
        return _lead(s, plain, trumps, low)
    best = s.best if s.best is not None else s.trick[winning_index(s.trick, trump, strength)]
    on_table = 0
    for c in s.trick:
        on_table += points[c.index]
    if s.partner_winning:
        if not s.opponents_after:
            # The trick is ours: load it with points we would not otherwise win ("cargar").
            loaders = [c for c in plain if points[c.index] > 0 and not _is_master(c, s)]
            if loaders:
                return max(loaders, key=lambda c: (points[c.index], -strength[c.index]))
        return cheapest_discard()
    # The trick is the opponents' so far.
    if best.suit is not trump:
        beaters = [c for c in plain if c.suit is best.suit and strength[c.index] > strength[best.index]]
        if beaters:
            if not s.opponents_after:
                return max(beaters, key=lambda c: (points[c.index], strength[c.index]))
            safe = [c for c in beaters if s.trumps_out == 0]
            return max(safe, key=lambda c: points[c.index]) if safe else min(beaters, key=lambda c: strength[c.index])
    discard = cheapest_discard()
    winning_trumps = [c for c in trumps if best.suit is not trump or strength[c.index] > strength[best.index]]
    if winning_trumps:
        cheapest = min(winning_trumps, key=lambda c: (points[c.index], strength[c.index]))
        # A rich trick is worth any trump. Otherwise count what is at stake, the points on the table and those of
        # the card this seat would have to throw instead: 3 or more are worth any trump short of the two richest
        # (those win tricks of their own later). Trumping only rich tricks measured weaker against every
        # opponent (docs/strength.md, "Other settings measured").
        if on_table >= 10 or (points[cheapest.index] < 10 and on_table + points[discard.index] >= 3):
            return cheapest
    return discard


def _choose_least(s: Situation) -> Card:
    """The card for a game won by taking the fewest points: lose tricks, and load the opponents' ones.

    Without a duty to follow, the seat that leads usually takes the trick (the others throw an
    off-suit card under it): lead what costs least if it wins, and, following, leave a trick
    to the opponents with the richest card that does not win it. A trick that cannot be lost
    (it is the own side's, or every card would win it) is taken as cheaply as possible, shedding
    the strongest card of equal points: strong cards are the ones that win tricks later.
    """
    strength, points, trump = s.strength, s.points, s.trump
    if not s.trick:
        plain = [c for c in s.hand if c.suit is not trump]
        return min(plain or s.hand, key=lambda c: (points[c.index], strength[c.index]))
    best = s.best if s.best is not None else s.trick[winning_index(s.trick, trump, strength)]
    if not s.partner_winning:
        losers = [c for c in s.hand if not _beats(c, best, trump, strength)]
        if losers:
            return max(losers, key=lambda c: (points[c.index], strength[c.index]))
    return min(s.hand, key=lambda c: (points[c.index], -strength[c.index]))


def _beats(card: Card, best: Card, trump: Suit | None, strength: Sequence[int]) -> bool:
    """Whether ``card`` would take a trick that ``best`` is winning."""
    if card.suit is best.suit:
        return strength[card.index] > strength[best.index]
    return card.suit is trump


def _is_master(card: Card, s: Situation) -> bool:
    """Whether ``card`` is the best of its suit still out (keep it: it will win a trick of its own)."""
    return s.strength[card.index] > s.top_out[card.suit] and s.trumps_out == 0


def _lead(s: Situation, plain: list[Card], trumps: list[Card], low: object) -> Card:
    strength, points = s.strength, s.points
    # With no trump left out, the best card of a suit cannot lose: cash the richest master.
    masters = [c for c in plain if _is_master(c, s) and points[c.index] > 0]
    if masters:
        return max(masters, key=lambda c: points[c.index])
    worthless = [c for c in plain if points[c.index] == 0]
    if worthless:
        return min(worthless, key=lambda c: strength[c.index])
    small = [c for c in plain if points[c.index] <= 4]
    if small:
        return min(small, key=lambda c: (points[c.index], strength[c.index]))
    if trumps:
        return min(trumps, key=lambda c: (points[c.index], strength[c.index]))
    return min(plain, key=lambda c: (points[c.index], strength[c.index]))


def allies(view: View) -> Callable[[int], bool]:
    """Whether a seat is known to play on the viewer's side (the viewer included).

    Under a contract the sides are the declarer's (with the called card's holder in
    Chiamata) against the others, whatever the seating; a Chiamata partner not yet
    revealed counts as an opponent for everybody but himself.
    """
    me = view.seat if view.seat is not None else 0
    c = view.contract
    if c is None or view.rules.contract == "off":
        mine = view.side_of(me)
        return lambda s: view.side_of(s) == mine
    side = {c.declarer}
    if c.partner is not None:
        side.add(c.partner)
    elif c.called is not None and c.called in view.hand:
        side.add(me)  # the viewer holds the called card: it is the partner
    if me in side:
        return lambda s: s in side
    if c.called is None or c.partner is not None:
        return lambda s: s not in side
    return lambda s: s == me  # a defender who does not know the partner yet trusts nobody else


def situation(view: View, hand: Sequence[Card]) -> Situation:
    """Summarise a view for :func:`choose`."""
    rules = view.rules
    strength = rules.strength_table
    trick = view.trick
    seat = view.seat if view.seat is not None else 0
    trump = view.trump
    assert trump is not None or view.call_pending, "the card play has a trump (but a blind call's first trick)"
    ally = allies(view)
    winner = view.trick_winner()
    partner_winning = winner is not None and ally(winner)
    after = [(seat + i) % view.players for i in range(1, view.players - len(trick))]
    opponents_after = any(not ally(x) for x in after)
    unseen = view.unseen_cards()
    known_elsewhere = [c for _s, c in view.known]
    out = [*unseen, *known_elsewhere]
    if view.face_up is not None:
        out.append(view.face_up)
    if view.announced is not None and view.announced[0] != seat:  # under the face-up card: back to a hand, or up
        out.append(view.announced[1])
    if view.talon:  # shown, then taken by the declarer: in his hand unless he laid it down or played it
        played = set(view.played_cards())
        out.extend(c for c in view.talon if c not in played and c not in view.hand and c not in view.discards)
    top = [0, 0, 0, 0]
    for c in out:
        top[c.suit] = max(top[c.suit], strength[c.index])
    trumps_out = sum(1 for c in out if c.suit is trump)
    return Situation(hand, trick, trump, strength, rules.point_table, partner_winning, opponents_after,
                     trumps_out, top, least=rules.hand_winner == "least")


#: The signals worth making, in order: the trump honours, then briscas (or Briscola guide's high card), then no trumps.
SIGNAL_ORDER = ("trump-ace", "trump-three", "trump-king", "trump-knight", "trump-jack", "briscas", "high-card",
                "no-trumps")


def signal_to_make(view: View) -> Signal | None:
    """A signal to tell the partner about a card it should know of (each at most once a hand), or ``None``.

    Partners' search samples worlds that agree with truthful signals, so telling them
    where the trump honours are makes their play sharper.
    """
    if view.seat is None:
        return None
    legal = {a.name for a in view.legal_actions if isinstance(a, Signal)}
    if not legal:
        return None
    made = {name for seat, name in view.signals if seat == view.seat}
    for name in SIGNAL_ORDER:
        if name in legal and name not in made:
            return Signal(name)
    return None


class HeuristicAgent:
    """A good rule player: counts cards, loads its partner's tricks, trumps only when it pays.

    Once nothing is hidden (two players, stock gone) it plays the rest exactly. With
    ``policy="learned"`` its card choice is the fitted score of :mod:`brisca.agents.learned`
    instead of its rules, in the games it was fitted to (:func:`brisca.agents.learned.applies`).
    """

    def __init__(self, seed: int | None = None, policy: str = "rules") -> None:
        self.seed = seed
        if policy not in ("rules", "learned"):
            raise ValueError(f"policy is rules or learned, not {policy!r}")
        self.policy = policy

    def act(self, view: View) -> Action:
        legal = _require_turn(view)
        if len(legal) == 1:
            return legal[0]
        bid = auction_action(view)
        if bid is not None:
            return bid
        for action in legal:
            if isinstance(action, Exchange | Announce | Claim):
                return action
        signal = signal_to_make(view)
        if signal is not None:
            return signal
        if view.rules.declarations == "on_lead":
            declare = declare_choice(view)
            if declare is not None:
                return declare
        exact = exact_choice(view)
        if exact is not None:
            return exact
        playable = [a.card for a in legal if isinstance(a, Play)]
        s = situation(view, playable)
        if self.policy == "learned" and applies(view.rules, view.players):
            card = choose_learned(s, view.stock_count)
        else:
            card = choose(s)
        declare = declare_choice(view, card)
        if declare is not None:
            return declare
        arrastro = [a for a in legal if isinstance(a, Arrastro) and a.card is card]
        return arrastro[0] if arrastro else Play(card)


__all__ = ["SIGNAL_ORDER", "HeuristicAgent", "Situation", "allies", "choose", "signal_to_make", "situation"]
