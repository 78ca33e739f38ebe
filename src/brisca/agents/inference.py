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

import bisect
import itertools
import math
import random
from collections.abc import Callable, Sequence

from brisca.actions import Exchange, Play
from brisca.agents.heuristic import choose
from brisca.agents.situation import Situation
from brisca.cards import Card, Suit
from brisca.game import View, winning_index
from brisca.worlds import Constraint, stock_draws

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
    and the card actions other than a plain play (arrastro, declarations) are left to the rules. Under
    ``trump_exchange: announced`` (a trump out of its hand for a while, its exchange made after a trick) the
    readings are not made: the rules alone read the other seats.
    """
    lacks = MODELS[model]
    rules, n, trump = view.rules, view.players, view.trump
    out: list[list[Constraint]] = [[] for _ in range(n)]
    if trump is None or rules.dealt_out or rules.trump_exchange == "announced":
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



class _Hand:
    """What the viewer believes one other seat holds, under one model of its play: a forward filter.

    The hand is ``S`` (a set of hidden cards, with a probability per set), ``pending`` (a card drawn from
    the stock and not yet pinned down: uniform over the cards the viewer cannot place, less ``S``) and
    ``held`` (cards the viewer knows the seat holds: the face-up card it took). ``log`` adds up the log
    probability of everything the seat was seen to do, under the model.
    """

    __slots__ = ("states", "pending", "held", "log")

    def __init__(self, unknown: int, size: int) -> None:
        cards = _bits(unknown)
        states: dict[int, float] = {0: 1.0}
        for _ in range(size - 1):  # a hand dealt at random: any size-1 cards, and one still to pin down
            grown: dict[int, float] = {}
            for s in states:
                for c in cards:
                    if not s >> c:  # each set once: add only cards above its highest
                        grown[s | 1 << c] = 0.0
            states = grown
        share = 1.0 / len(states) if states else 0.0
        self.states = {s: share for s in states}
        self.pending = 1 if size else 0
        self.held = 0
        self.log = 0.0

    def play(self, card: int, unknown: int, allowed: int, factor: float) -> None:
        """The seat played ``card`` (one of the cards in ``unknown``, or one it was known to hold); its hand
        held nothing outside ``allowed`` then (the model's reading of the play)."""
        bit = 1 << card
        out: dict[int, float] = {}
        held = self.held
        if held & bit:
            held ^= bit
        if held & ~allowed:
            self._settle({}, 0.0)
            return
        total = 0.0
        if self.pending:
            free = _bits(unknown)
            for s, p in self.states.items():
                spare = len(free) - s.bit_count()
                if not spare:
                    continue
                q = p / spare
                if s & bit:  # the card was one of S: the drawn card is any other
                    base = s ^ bit
                    for y in free:
                        s2 = base | 1 << y
                        if not s >> y & 1 and not s2 & ~allowed:
                            out[s2] = out.get(s2, 0.0) + q
                            total += q
                elif self.held & bit:  # a card it was known to hold: the drawn card is any
                    if s & ~allowed:
                        continue
                    for y in free:
                        if not s >> y & 1 and allowed >> y & 1:
                            out[s | 1 << y] = out.get(s | 1 << y, 0.0) + q
                            total += q
                elif not s & ~allowed and unknown & bit:  # the drawn card was this one
                    out[s] = out.get(s, 0.0) + q
                    total += q
        else:
            for s, p in self.states.items():
                if s & bit:
                    s2 = s ^ bit
                elif self.held & bit:
                    s2 = s
                else:
                    continue
                if not s2 & ~allowed:
                    out[s2] = out.get(s2, 0.0) + p
                    total += p
        self.held = held
        self.pending = 0
        self._settle(out, total * factor)

    def exclude(self, card: int, unknown: int) -> None:
        """``card`` turned up elsewhere (another seat played it, the viewer drew it): the seat did not hold it."""
        bit = 1 << card
        if not unknown & bit:
            return
        spare = unknown.bit_count()
        out: dict[int, float] = {}
        total = 0.0
        for s, p in self.states.items():
            if s & bit:
                continue
            if self.pending:
                free = spare - s.bit_count()
                p = p * (free - 1) / free if free else 0.0
            out[s] = p
            total += p
        self._settle(out, total)

    def size(self) -> int:
        """How many cards the seat holds."""
        some = next(iter(self.states), 0)
        return some.bit_count() + self.pending + self.held.bit_count()

    def draw(self, known: int | None = None) -> None:
        """The seat drew from the stock: an unknown card, or ``known`` (the face-up card, drawn last)."""
        if known is not None:
            self.held |= 1 << known
            return
        if self.pending:  # two draws without a play between (cannot happen in a trick game): keep one
            return
        self.pending = 1

    def _settle(self, out: dict[int, float], total: float) -> None:
        if total <= 0.0:
            self.states, self.log = {}, -math.inf
            return
        self.log += math.log(total)
        scale = 1.0 / sum(out.values())
        self.states = {s: p * scale for s, p in out.items()}


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def read_hands(view: View, seats: Sequence[int] | None = None,
               read: Sequence[Sequence[Constraint]] | None = None) -> Reading | None:
    """Follow each other seat's hand (of ``seats``, if given) through the view's history under both models, greedy
    and random; ``None`` where the filter does not apply (no trump, dealt-out games, hands of more than 3, an
    announced exchange).
    ``read``: the view's greedy :func:`beliefs`, when the caller has them already."""
    rules, n, trump = view.rules, view.players, view.trump
    if (trump is None or rules.dealt_out or view.seat is None or rules.hand_size > 3
            or rules.trump_exchange == "announced"):
        return None
    if read is None:
        read = beliefs(view, "greedy")
    cards = rules.deck_cards(n)
    everything = 0
    for c in cards:
        everything |= 1 << c.index
    others = [s for s in (range(n) if seats is None else seats) if s != view.seat]
    allowed_at: list[dict[int, int]] = [{} for _ in range(n)]
    for s in others:
        for t, lacks in read[s]:
            mask = allowed_at[s].get(int(t), everything)
            for c in cards:
                if mask >> c.index & 1 and lacks(c):
                    mask &= ~(1 << c.index)
            allowed_at[s][int(t)] = mask
    size = rules.hand_size
    mine = view.received
    unknown = everything
    for c in mine[:size]:
        unknown &= ~(1 << c.index)
    face = view.turned
    if face is not None:
        unknown &= ~(1 << face.index)
    hands: dict[int, tuple[_Hand, _Hand]] = {s: (_Hand(unknown, size), _Hand(unknown, size)) for s in others}
    drawn = size
    stock_left = len(cards) - size * n
    duty_always = rules.follow != "none" and rules.follow_from == "start"
    trick: list[Card] = []
    finished = 0

    def gone(card: Card, owner: int) -> None:
        nonlocal unknown
        for s, (greedy, rand) in hands.items():
            if s != owner:
                greedy.exclude(card.index, unknown)
                rand.exclude(card.index, unknown)
        unknown &= ~(1 << card.index)

    for t, (seat, action) in enumerate(view.history, start=1):
        card = getattr(action, "card", None)
        if card is None:
            continue
        if isinstance(action, Exchange):
            if seat in hands:
                for h in hands[seat]:
                    h.play(card.index, unknown, everything, 1.0)
                    if face is not None:
                        h.held |= 1 << face.index
            gone(card, seat)
            face = card
            continue
        if seat in hands:
            greedy, rand = hands[seat]
            free = not (duty_always or (rules.follow != "none" and stock_left <= 0)) and action.__class__ is Play
            k = rand.size()
            greedy.play(card.index, unknown, allowed_at[seat].get(t, everything) if free else everything, 1.0)
            rand.play(card.index, unknown, everything, 1.0 / k if free and k else 1.0)
        gone(card, seat)
        trick.append(card)
        if len(trick) < n:
            continue
        winner = view.tricks[finished].winner if finished < len(view.tricks) else seat
        finished += 1
        trick = []
        draws = stock_draws(winner, n, stock_left, view.turned is not None, view.rules.face_up_to == "trick_winner")
        stock_left -= len(draws)
        for s, last in draws:
            if s == view.seat:
                if drawn < len(mine) and not last:
                    gone(mine[drawn], s)
                drawn += 1
            elif s in hands:
                for h in hands[s]:
                    h.draw(face.index if last and face is not None else None)
    return Reading(hands, unknown, {c.index: c for c in cards}, [bool(r) for r in read])


class Reading:
    """What :func:`read_hands` worked out: per seat, its hand under the greedy model and under the random one."""

    def __init__(self, hands: dict[int, tuple[_Hand, _Hand]], unknown: int, cards: dict[int, Card],
                 read: list[bool]) -> None:
        self.hands = hands
        self.unknown = unknown
        self.cards = cards
        self.read = read
        self._tables: dict[int, tuple[list[int], list[float]]] = {}

    def evidence(self, seat: int) -> float:
        """The log Bayes factor of greedy against random for ``seat``'s plays (0: nothing to tell them apart)."""
        if seat not in self.hands:
            return 0.0
        greedy, rand = self.hands[seat]
        return greedy.log - rand.log if self.read[seat] or greedy.log != rand.log else 0.0

    def deal(self, seat: int, rng: random.Random) -> list[Card] | None:
        """The hidden cards ``seat`` holds now, drawn from their exact chances under the greedy model (its hand as
        the filter followed it; the card drawn since its last play, if any, at random among those unseen);
        ``None`` when no hand fits the model."""
        if seat not in self.hands:
            return None
        greedy = self.hands[seat][0]
        table = self._tables.get(seat)
        if table is None:
            sets = list(greedy.states)
            weights = list(itertools.accumulate(greedy.states[s] for s in sets))
            table = self._tables[seat] = (sets, weights)
        sets, weights = table
        if not sets or weights[-1] <= 0:
            return None
        chosen = sets[min(len(sets) - 1, bisect.bisect_right(weights, rng.random() * weights[-1]))]
        out = [self.cards[i] for i in _bits(chosen)]
        if greedy.pending:
            free = _bits(self.unknown & ~chosen)
            if not free:
                return None
            out.append(self.cards[free[rng.randrange(len(free))]])
        return out


def greedy_evidence(view: View, seats: Sequence[int] | None = None) -> list[float]:
    """For each other seat (of ``seats``, if given), the log of how much likelier its plays so far are from a
    greedy player than from a random one (a Bayes factor: 0 says nothing, below 0 favours random; 0 for the
    viewer and seats not yet read).

    Both models are followed exactly, hand by hand (:class:`_Hand`): the random player plays any card it holds;
    the greedy player holds, at each free play, nothing the greedy reading (:func:`greedy_lacks`) says it
    lacked. A random player's plays may fit the greedy rule's constraints for a long time (early on, almost any
    hand could explain them), but they fit them less well than a greedy player's do: this measures by how much.
    """
    reading = read_hands(view, seats)
    return [0.0 if reading is None else reading.evidence(s) for s in range(view.players)]


#: How much of a seat's play the heuristic model leaves to chance in :func:`skill_evidence`: a play the rule
#: would not make from any hand then counts a fifth as much as a random player's, not nothing (one odd
#: move, or a rule that is not quite the seat's own, does not settle the question).
SLACK = 0.2


def skill_evidence(view: View, seats: Sequence[int] | None = None,
                   cache: dict[object, float] | None = None) -> list[float] | None:
    """For each other seat (of ``seats``, if given), the log of how much likelier its free plays so far are from
    the ``heuristic`` player (:func:`brisca.agents.heuristic.choose`) than from a random one (a Bayes factor: 0
    says nothing, below 0 favours random; 0 for the viewer); ``None`` where the test does not apply (dealt-out
    games, contracts, hands of more than 3, a duty to follow from the start, an announced exchange).

    Each free play in the stock phase is weighed on its own: over every hand the seat could have held then (the
    played card and any others the viewer had not seen by then, equally likely), the share whose heuristic
    choice is that card, against a random player's 1 in the hand's size (smoothed by :data:`SLACK`). A skilled
    player who is not greedy (the heuristic, a person) keeps its aces and threes and trumps only what pays; a
    random player soon throws points a rule never would. ``cache`` (the caller's, kept across the moves of a
    game) saves recomputing the factors of past plays.

        >>> from brisca.game import Game
        >>> from brisca.rules import make_rules
        >>> game = Game(make_rules("spanish"), 2, seed=4)
        >>> skill_evidence(game.view(0))  # nobody has played yet
        [0.0, 0.0]
    """
    rules, n, trump = view.rules, view.players, view.trump
    size = rules.hand_size
    if (trump is None or rules.dealt_out or view.seat is None or size > 3 or view.contract is not None
            or rules.contract != "off" or (rules.follow != "none" and rules.follow_from == "start")
            or rules.trump_exchange == "announced"):
        return None
    out = [0.0] * n
    strength, points = rules.strength_table, rules.point_table
    least = rules.hand_winner == "least"
    deck = rules.deck_cards(n)
    wanted = set(range(n) if seats is None else seats) - {view.seat}
    stock_left = len(deck) - size * n
    face = view.turned
    played: set[Card] = set()
    trick: list[Card] = []
    finished = 0
    mine = view.received
    key0 = (rules, n, view.seat, mine[:size])
    for t, (seat, action) in enumerate(view.history, start=1):
        card = getattr(action, "card", None)
        if card is None:
            continue
        if isinstance(action, Exchange):
            face = action.card
            continue
        if seat in wanted and action.__class__ is Play and stock_left > 0:
            key = (key0, view.history[:t])
            factor = cache.get(key) if cache is not None else None
            if factor is None:
                seen = set(mine[:size + finished]) | played  # played: the trick's cards too
                if face is not None:
                    seen.add(face)
                pool = [c for c in deck if c not in seen and c is not card]
                side = view.side_of(seat)
                leader = (seat - len(trick)) % n
                partner_winning = bool(trick) and view.side_of(
                    (leader + winning_index(trick, trump, strength)) % n) == side
                opponents_after = any(view.side_of((seat + i) % n) != side for i in range(1, n - len(trick)))
                # What is out for the seat: every card not played yet, less its own hand.
                left = [c for c in deck if c not in played]
                ranked = [sorted((c for c in left if c.suit == s), key=lambda c: -strength[c.index]) for s in range(4)]
                trumps_left = len(ranked[trump])
                hits = total = 0
                for rest in itertools.combinations(pool, size - 1):
                    hand = (card, *rest)
                    top = [0, 0, 0, 0]
                    for s in range(4):
                        for c in ranked[s]:
                            if c not in hand:
                                top[s] = strength[c.index]
                                break
                    out_trumps = trumps_left - sum(1 for c in hand if c.suit is trump)
                    total += 1
                    if choose(Situation(hand, trick, trump, strength, points, partner_winning, opponents_after,
                                        out_trumps, top, least=least)) is card:
                        hits += 1
                share = hits / total if total else 1 / size
                factor = math.log(size * (1 - SLACK) * share + SLACK)
                if cache is not None:
                    cache[key] = factor
            out[seat] += factor
        trick.append(card)
        played.add(card)
        if len(trick) == n:
            trick = []
            stock_left -= n
            finished += 1
    return out


__all__ = ["MODELS", "Reading", "beliefs", "greedy_evidence", "greedy_lacks", "read_hands", "skill_evidence"]
