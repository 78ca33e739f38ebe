"""Worlds consistent with a view: deal the cards a seat cannot see, at random, without contradicting anything it saw.

Search players (and OpenSpiel's IS-MCTS resampler) reason about a hand by sampling
complete games that agree with a :class:`~brisca.game.View`: same own hand, same
public history, cards the viewer knows where it knows them, hidden cards dealt at
random among the other hands and the stock.

The sampler builds a whole deck order and replays the view's history on it, so a
world is an ordinary :class:`~brisca.game.Game` with every rule's state exact.

- Every card a seat held came from a deck position it received before it let the
  card go; the viewer's own positions are exact (it remembers what it drew).
- What the history reveals becomes a window on when a card could have been
  received: a seat that did not follow suit under a duty held none of that suit
  then, so any card of the suit it holds later was received afterwards. The same
  for not beating, not trumping, and the best card an arrastro demands.
- Positions are filled by a randomized earliest-deadline schedule, which finds a
  placement whenever one exists. A signal naming a trump places that trump; other
  signals (about sets of cards) are checked by replaying, and dropped from the
  viewer's reasoning only when they cannot be met after many draws.

    >>> from brisca import Game
    >>> game = Game("spanish", 2, seed=5)
    >>> for _ in range(7):
    ...     game.apply(game.legal_actions()[0])
    >>> view = game.view(game.turn)
    >>> world = sample_world(view, seed=1)
    >>> world.hand(view.seat) == view.hand and world.trick == view.trick
    True
"""

from __future__ import annotations

import random
from collections.abc import Callable

from brisca.actions import Arrastro, Exchange, Signal
from brisca.cards import Card, Rank
from brisca.errors import BriscaError
from brisca.game import SIGNAL_RANKS, Game, View

_INF = float("inf")

#: A constraint: at time ``t`` a seat held no card for which the predicate is true.
Constraint = tuple[float, Callable[[Card], bool]]


class WorldError(BriscaError):
    """No world could be drawn: the view's history contradicts itself (or the rules)."""


def sample_world(view: View, seed: int | random.Random | None = None, tries: int = 100) -> Game:
    """A random complete game consistent with everything ``view`` shows."""
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    plan = _Plan(view)
    last: Exception | None = None
    for attempt in range(tries):
        try:
            # After half the tries, stop asking other seats' signals about sets of cards
            # ("briscas", "no-trumps"...) to hold: rare constraints must not stall a search.
            return plan.draw(rng, strict=attempt < tries // 2)
        except BriscaError as exc:  # the replay broke a rule: draw again
            last = exc
    raise WorldError(f"no consistent world found in {tries} draws: {last}")


def sample_worlds(view: View, count: int, seed: int | random.Random | None = None) -> list[Game]:
    """``count`` independent worlds for ``view``."""
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    plan = _Plan(view)
    return [_draw_with_retries(plan, rng) for _ in range(count)]


def _draw_with_retries(plan: _Plan, rng: random.Random, tries: int = 100) -> Game:
    last: Exception | None = None
    for attempt in range(tries):
        try:
            return plan.draw(rng, strict=attempt < tries // 2)
        except BriscaError as exc:
            last = exc
    raise WorldError(f"no consistent world found in {tries} draws: {last}")


class _Plan:
    """What every world for one view shares: who received and let go of which card, when, and what they lacked."""

    def __init__(self, view: View) -> None:
        self.view = view
        rules, n = view.rules, view.players
        self.n = n
        self.size = len(rules.deck_cards(n))
        dealt = rules.hand_size * n
        self.dealt = dealt
        self.turned = view.turned
        trump = view.trump
        strength = rules.strength_table
        # Deck positions each seat received, with the time it received them (the deal is time 0).
        self.slots: list[list[tuple[float, int]]] = [[] for _ in range(n)]
        for k in range(n):
            seat = (view.dealer + 1 + k) % n
            self.slots[seat] = [(0.0, pos) for pos in range(k, dealt, n)]
        # Cards that left each hand, with the time they left; cards that came other than from the deck.
        self.needs: list[list[tuple[float, Card]]] = [[] for _ in range(n)]
        self.not_from_deck: list[set[Card]] = [set() for _ in range(n)]
        self.bottom: list[Card | None] = [None] * n
        self.lacked: list[list[Constraint]] = [[] for _ in range(n)]
        stock_left = self.size - dealt
        draw_index = 0
        trick: list[Card] = []
        leader = (view.dealer + 1) % n
        best: Card | None = None
        arrastro = False
        finished = 0
        face_up = view.turned
        for t, (seat, action) in enumerate(view.history, start=1):
            if isinstance(action, Exchange):
                self._out(seat, action.card, t)
                assert face_up is not None
                self.not_from_deck[seat].add(face_up)
                face_up = action.card
                continue
            if isinstance(action, Signal) or not hasattr(action, "card"):
                continue
            card: Card = action.card
            self._out(seat, card, t)
            if not trick:
                leader, best, arrastro = seat, card, isinstance(action, Arrastro)
            else:
                assert best is not None
                duty_on = rules.follow != "none" and (rules.follow_from == "start" or stock_left == 0)
                self.lacked[seat].extend(self._revealed(t, card, trick[0], best, arrastro, duty_on))
                if (card.suit is best.suit and strength[card.index] > strength[best.index]) or (
                    card.suit is trump and best.suit is not trump
                ):
                    best = card
            trick.append(card)
            if len(trick) < n:
                continue
            winner = view.tricks[finished].winner if finished < len(view.tricks) else leader
            finished += 1
            trick = []
            for i in range(n if stock_left > 0 else 0):
                s = (winner + i) % n
                stock_left -= 1
                if self.turned is not None and stock_left == 0:
                    assert face_up is not None  # the last card drawn is the face-up one, whatever it is by now
                    self.not_from_deck[s].add(face_up)
                    self.bottom[s] = face_up
                else:
                    pos = dealt + (1 if self.turned is not None else 0) + draw_index
                    self.slots[s].append((t + 0.5, pos))
                    draw_index += 1
        # Truthful signals: a named trump (it leaves a hand only by being played) is placed outright;
        # "no-trumps" is a suit the seat lacked then; the others say the seat held one card of a kind then.
        self.signallers = {seat for seat, action in view.history if isinstance(action, Signal)}
        self.signalled: list[tuple[int, Card]] = []
        self.musts: list[list[Constraint]] = [[] for _ in range(n)]
        honours = {Rank.ACE, Rank.THREE, Rank.KING, Rank.KNIGHT, Rank.JACK}
        for t, (seat, action) in enumerate(view.history, start=1):
            if not isinstance(action, Signal) or seat == view.seat:
                continue
            rank = SIGNAL_RANKS.get(action.name)
            if rank is not None:
                named = Card(rank, trump)
                self.signalled.append((seat, named))
                self.musts[seat].append((t, _is(named)))
            elif action.name == "no-trumps":
                self.lacked[seat].append((t, lambda c: c.suit is trump))
            elif action.name == "small-trumps":
                self.musts[seat].append((t, lambda c: c.suit is trump and c.rank not in honours))
            elif action.name == "briscas":
                self.musts[seat].append((t, lambda c: c.suit is not trump and c.rank in (Rank.ACE, Rank.THREE)))

    def _out(self, seat: int, card: Card, t: float) -> None:
        """``card`` left ``seat``'s hand at time ``t``: unless it came by exchange, it came from the deck before."""
        if card in self.not_from_deck[seat]:
            self.not_from_deck[seat].discard(card)
        else:
            self.needs[seat].append((t, card))

    def _revealed(self, t: float, card: Card, led: Card, best: Card, arrastro: bool, duty_on: bool) -> list[Constraint]:
        """What playing ``card`` at time ``t`` shows the seat did not hold then."""
        rules, trump, strength = self.view.rules, self.view.trump, self.view.rules.strength_table
        out: list[Constraint] = []
        if arrastro:
            if card.suit is trump:
                out.append((t, lambda c: c.suit is trump and strength[c.index] > strength[card.index]))
            else:
                out.append((t, lambda c: c.suit is trump or strength[c.index] > strength[card.index]))
            return out
        if not duty_on:
            return out
        suit = led.suit
        if card.suit is not suit:
            out.append((t, lambda c: c.suit is suit))
            if rules.follow in ("suit_trump", "suit_beat_trump") and card.suit is not trump:
                out.append((t, lambda c: c.suit is trump))
        elif rules.follow == "suit_beat_trump" and best.suit is suit and strength[card.index] < strength[best.index]:
            out.append((t, lambda c: c.suit is suit and strength[c.index] > strength[best.index]))
        return out

    def _release(self, seat: int, card: Card, deadline: float) -> float:
        """The latest time ``seat`` was seen not to hold ``card`` while it would have held it: it came after."""
        release = -1.0
        for t, lacks in self.lacked[seat]:
            if t < deadline and t > release and lacks(card):
                release = t
        return release

    def draw(self, rng: random.Random, strict: bool = True) -> Game:
        view, n = self.view, self.n
        deck: list[Card | None] = [None] * self.size
        if self.turned is not None:
            deck[self.dealt] = self.turned
        held: list[list[Card]] = [[] for _ in range(n)]
        # In a canonical order, so that a world depends on what the viewer knows, not on how a view lists it.
        for s, c in sorted(view.known, key=lambda sc: (sc[0], sc[1].index)):
            held[s].append(c)
        unseen = list(view.unseen_cards())
        for s, c in self.signalled:
            if c in unseen and s != view.seat and len(held[s]) < view.hand_sizes[s]:
                held[s].append(c)
                unseen.remove(c)
        rng.shuffle(unseen)
        jobs: list[list[tuple[float, float, Card]]] = [[] for _ in range(n)]
        for s in range(n):
            if s == view.seat:
                continue
            dealt = {c for k, c in view.seen_dealt if k == s}  # shown at the deal: received at time 0
            jobs[s] = [(self._release(s, c, d), 0.5 if c in dealt else d, c) for d, c in self.needs[s]]
            jobs[s] += [(self._release(s, c, _INF), 0.5 if c in dealt else _INF, c)
                        for c in held[s] if c not in self.not_from_deck[s]]
        # Deal each other seat its hidden cards, a card going only where it can have arrived in time.
        order = [s for s in range(n) if s != view.seat]
        rng.shuffle(order)
        for s in order:
            missing = view.hand_sizes[s] - len(held[s])
            # A signal said the seat held a card of some kind then: one such card must have arrived before it.
            leaves = {c: d for d, c in self.needs[s]}  # when a card left the hand (absent: still held)
            for t, holds in self.musts[s]:
                able = [i for i, (r, _d, c) in enumerate(jobs[s]) if holds(c) and r < t < leaves.get(c, _INF)]
                if able:
                    i = able[rng.randrange(len(able))]
                    r, d, c = jobs[s][i]
                    jobs[s][i] = (r, min(d, t), c)
                    continue
                fitting = [c for c in unseen if holds(c) and self._release(s, c, _INF) < t]
                if not fitting or missing == 0:
                    continue  # nothing to choose from: leave it to the replay
                c = fitting[rng.randrange(len(fitting))]
                jobs[s].append((self._release(s, c, _INF), t, c))
                unseen.remove(c)
                missing -= 1
            if not self.lacked[s]:  # nothing revealed about this seat: any hidden card fits
                jobs[s] += [(-1.0, _INF, c) for c in unseen[:missing]]
                del unseen[:missing]
                continue
            for c in list(unseen):
                if missing == 0:
                    break
                job = (self._release(s, c, _INF), _INF, c)
                if _schedule(jobs[s] + [job], self.slots[s], None) is not None:
                    jobs[s].append(job)
                    unseen.remove(c)
                    missing -= 1
            if missing:
                raise WorldError(f"no hidden cards fit seat {s}")
        for s in range(n):
            if s == view.seat:
                # The viewer remembers what it received and when: its positions are exact.
                mine = list(view.received)
                if self.bottom[s] is not None:
                    mine.pop()  # the face-up card, drawn last of all: not a free position
                for card, (_time, pos) in zip(mine, sorted(self.slots[s]), strict=True):
                    deck[pos] = card
                continue
            # Where a card that is gone came from changes nothing ahead; only a seat whose signals are
            # checked on replay needs its past shuffled too.
            placed = _schedule(jobs[s], self.slots[s], rng if strict and s in self.signallers else None)
            if placed is None:
                raise WorldError(f"seat {s}: its cards cannot all have arrived in time")
            for card, pos in placed:
                deck[pos] = card
        free = [i for i, c in enumerate(deck) if c is None]
        if len(free) != len(unseen):
            raise WorldError(f"{len(unseen)} unseen cards for {len(free)} stock positions")
        for pos, card in zip(free, unseen, strict=True):
            deck[pos] = card
        world = Game(view.rules, n, dealer=view.dealer, deck=deck, deal_number=view.deal_number)  # type: ignore[arg-type]
        for seat, action in view.history:
            if not strict and isinstance(action, Signal) and seat != view.seat:
                continue
            if world.turn != seat:
                raise WorldError("the history is out of turn")
            world.apply(action)
        return world


def _is(card: Card) -> Callable[[Card], bool]:
    return lambda c: c is card


def _schedule(
    jobs: list[tuple[float, float, Card]], slots: list[tuple[float, int]], rng: random.Random | None
) -> list[tuple[Card, int]] | None:
    """Give each card a position received inside its window ``(release, deadline)``, or ``None`` if impossible.

    Slots are taken in time order; with ``rng`` each takes a random card that may go
    there unless that leaves the rest unplaceable, in which case (and always without
    ``rng``) the available card with the earliest deadline goes: the earliest-deadline
    rule, which places unit jobs with release times whenever any placement exists.
    """
    if len(jobs) > len(slots):
        return None
    ordered = sorted(slots)
    left = list(jobs)
    out: list[tuple[Card, int]] = []
    for i, (time, pos) in enumerate(ordered):
        if not left:
            break
        if any(d <= time for _r, d, _c in left):
            return None  # a card left the hand before any position could bring it
        ready = [k for k, (r, d, _c) in enumerate(left) if r < time]
        if not ready:
            continue
        urgent = min(ready, key=lambda k: left[k][1])
        k = urgent
        if rng is not None:
            pick = ready[rng.randrange(len(ready))]
            if pick != urgent and _schedule(left[:pick] + left[pick + 1:], ordered[i + 1:], None) is not None:
                k = pick
        out.append((left[k][2], pos))
        left.pop(k)
    return out if not left else None


__all__ = ["WorldError", "sample_world", "sample_worlds"]
