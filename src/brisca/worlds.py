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

Dealt-out games (every card dealt: ``chilean``, ``rematada``, ``chiamata``) have no
stock, so time plays no part: a hidden card is in some hand from the deal on (or, in
Rematada, in the hidden talon during the auction, or among the declarer's two face-down
discards). Cards the rules show (the dealer's trump card, cards shown at the deal, the
talon once taken) are pinned where they were dealt; a duty of play that a seat did not
meet, a pair it declared, a guarded 2 it led and a signal it made say what it lacked or
held; the hidden cards are then matched to the seats at random under those constraints,
the declarer's discards chosen among his cards so that what he still holds fits them
(a discard is the one place a card he "lacks" can be). The auction and the play are
replayed on the world, the declarer's hidden discard inserted where it was made.

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

import copy
import random
from collections.abc import Callable, Mapping, Sequence

from brisca.actions import Announce, Arrastro, Call, Cut, Declare, Discard, Exchange, Play, Signal
from brisca.cards import Card, Rank, Suit
from brisca.errors import BriscaError
from brisca.game import SIGNAL_RANKS, Game, RuledGame, View

_INF = float("inf")

#: A constraint: at time ``t`` a seat held no card for which the predicate is true. The times of a view
#: are the positions in its history, counted from 1 (the deal is time 0).
Constraint = tuple[float, Callable[[Card], bool]]
#: Draws tried before beliefs (see :class:`WorldSampler`) are judged unsatisfiable.
_PROBE_TRIES = 20


class WorldError(BriscaError):
    """No world could be drawn: the view's history contradicts itself (or the rules)."""


def sample_world(view: View, seed: int | random.Random | None = None, tries: int = 100) -> Game:
    """A random complete game consistent with everything ``view`` shows."""
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    return _draw_with_retries(_plan(view), rng, tries)


def sample_worlds(view: View, count: int, seed: int | random.Random | None = None) -> list[Game]:
    """``count`` independent worlds for ``view``."""
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    plan = _plan(view)
    return [_draw_with_retries(plan, rng) for _ in range(count)]


class WorldSampler:
    """Draws worlds for one view, working out what they share once (a search draws thousands a move).

    ``WorldSampler(view).draw(rng)`` gives the same world as ``sample_world(view, rng)``.
    """

    def __init__(self, view: View, beliefs: Sequence[Sequence[Constraint]] | None = None) -> None:
        self.plan = self._rules_only = _plan(view)
        #: The seats whose ``beliefs`` the worlds honour (those that some world satisfies).
        self.believed: tuple[int, ...] = ()
        if beliefs and isinstance(self.plan, _Plan) and any(beliefs):
            self._believe(view, beliefs)

    def _believe(self, view: View, beliefs: Sequence[Sequence[Constraint]]) -> None:
        """Add each seat's beliefs to the plan if some world satisfies them: first all together, else the seats
        whose beliefs can be met one by one, else none (a seat that plays against the model is not read by it)."""
        probe = random.Random(0)

        base = self.plan
        assert isinstance(base, _Plan)

        def plan_with(seats: Sequence[int]) -> _Plan | None:
            plan = copy.copy(base)  # drawing reads a plan and never changes it: only the beliefs differ
            plan.lacked = [[*lacked, *beliefs[s]] if s in seats else lacked for s, lacked in enumerate(base.lacked)]
            try:
                _draw_with_retries(plan, probe, _PROBE_TRIES)
            except WorldError:
                return None
            return plan

        seats = [s for s in range(view.players) if s < len(beliefs) and beliefs[s] and s != view.seat]
        plan = plan_with(seats)
        if plan is None and len(seats) > 1:
            seats = [s for s in seats if plan_with([s]) is not None]
            plan = plan_with(seats) if seats else None
        if plan is not None:
            self.plan, self.believed, self._rules_only = plan, tuple(seats), base

    def draw(self, rng: random.Random, tries: int = 100, hands: Mapping[int, Sequence[Card]] | None = None,
             past: bool = False) -> Game:
        """A random complete game consistent with the view (and the beliefs kept); :class:`WorldError` when
        none is found. ``hands`` gives other seats' hidden cards outright (drawn by a reader that knows their
        chances better than the rules do); the rest is dealt as usual. ``past``: when each seat received the cards
        it holds or played is drawn at random too (by default the earliest times that fit: the future is the same,
        but a reader of the seats' past choices needs their past hands drawn)."""
        if hands or past:
            return _draw_with_retries(self.plan, rng, tries, hands, past)
        if self.believed:
            try:
                return _draw_with_retries(self.plan, rng, _PROBE_TRIES)
            except WorldError:  # beliefs too narrow for this draw's luck: fall back to the view alone
                self.plan, self.believed = self._rules_only, ()
        return _draw_with_retries(self.plan, rng, tries)

    def deck(self, rng: random.Random) -> list[Card] | None:
        """Where every card is dealt and no face-down discard is hidden (a cut chosen, no talon taken): the deck of
        a random world, unchecked (a compiled replay of the history, :meth:`Batch.replay
        <brisca.envs.batch.Batch.replay>`, refuses those that break a duty the seats showed, far faster than
        :meth:`draw`'s). ``None`` for other games, where :meth:`draw` is the way; :class:`WorldError` when the
        hidden cards cannot fit what the seats showed."""
        plan = self.plan
        if not isinstance(plan, _DealtPlan) or plan.uncut or plan.talon_positions:
            return None
        deck, discards = plan.deck(rng)
        return None if discards else deck


def _plan(view: View) -> _Plan | _DealtPlan:
    """What every world for ``view`` shares, by the kind of game."""
    return _DealtPlan(view) if view.rules.dealt_out else _Plan(view)


def _draw_with_retries(plan: _Plan | _DealtPlan, rng: random.Random, tries: int = 100,
                       hands: Mapping[int, Sequence[Card]] | None = None, past: bool = False) -> Game:
    last: Exception | None = None
    for attempt in range(tries):
        try:
            # After half the tries, stop asking other seats' signals about sets of cards
            # ("briscas", "no-trumps"...) to hold: rare constraints must not stall a search.
            return plan.draw(rng, strict=attempt < tries // 2, hands=hands, past=past)
        except BriscaError as exc:  # the replay broke a rule: draw again
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
        best_seat = leader
        arrastro = False
        finished = 0
        face_up = view.turned
        #: ``trump_exchange: announced``: the trump under the face-up card and its seat, while its exchange waits.
        announced: tuple[int, Card] | None = None
        for t, (seat, action) in enumerate(view.history, start=1):
            if isinstance(action, Exchange):
                self._out(seat, action.card, t)
                assert face_up is not None
                self.not_from_deck[seat].add(face_up)
                face_up = action.card
                continue
            if isinstance(action, Announce):  # the trump leaves the hand, face up; it was received before
                self._out(seat, action.card, t)
                announced = (seat, action.card)
                continue
            if isinstance(action, Signal) or not hasattr(action, "card"):
                continue
            card: Card = action.card
            self._out(seat, card, t)
            if not trick:
                leader, best, best_seat, arrastro = seat, card, seat, isinstance(action, Arrastro)
            else:
                assert best is not None
                duty_on = rules.follow != "none" and (rules.follow_from == "start" or stock_left == 0)
                mate = rules.side_of(best_seat, n) == rules.side_of(seat, n)
                self.lacked[seat].extend(self._revealed(t, card, trick[0], best, arrastro, duty_on, mate))
                if (card.suit is best.suit and strength[card.index] > strength[best.index]) or (
                    card.suit is trump and best.suit is not trump
                ):
                    best, best_seat = card, seat
            trick.append(card)
            if len(trick) < n:
                continue
            winner = view.tricks[finished].winner if finished < len(view.tricks) else leader
            finished += 1
            trick = []
            # (A trick that killed the three ended the hand at once: an announced exchange waiting is not made.)
            killed = finished == len(view.tricks) and view.result is not None and view.result.reason == "three-killed"
            if announced is not None and announced[0] == winner and not killed:  # made as the trick is won
                assert face_up is not None
                self.not_from_deck[winner].add(face_up)
                face_up, announced = announced[1], None
            draws = stock_draws(winner, n, stock_left, self.turned is not None,
                                view.rules.face_up_to == "trick_winner")
            stock_left -= len(draws)
            for s, last in draws:
                if last:
                    assert face_up is not None  # the last card drawn is the face-up one, whatever it is by now
                    self.not_from_deck[s].add(face_up)
                    self.bottom[s] = face_up
                else:
                    pos = dealt + (1 if self.turned is not None else 0) + draw_index
                    self.slots[s].append((t + 0.5, pos))
                    draw_index += 1
            if announced is not None and (stock_left == 0 or killed):  # the face-up card was drawn first: it goes back
                self.not_from_deck[announced[0]].add(announced[1])
                announced = None
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
            if rank is not None and trump is not None:
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

    def _revealed(self, t: float, card: Card, led: Card, best: Card, arrastro: bool, duty_on: bool,
                  mate: bool) -> list[Constraint]:
        """What playing ``card`` at time ``t`` shows the seat did not hold then."""
        return _revealed(self.view, t, card, led, best, arrastro, duty_on, mate, self.view.trump)

    def _release(self, seat: int, card: Card, deadline: float) -> float:
        """The latest time ``seat`` was seen not to hold ``card`` while it would have held it: it came after."""
        release = -1.0
        for t, lacks in self.lacked[seat]:
            if t < deadline and t > release and lacks(card):
                release = t
        return release

    def draw(self, rng: random.Random, strict: bool = True, hands: Mapping[int, Sequence[Card]] | None = None,
             past: bool = False) -> Game:
        view, n = self.view, self.n
        deck: list[Card | None] = [None] * self.size
        if self.turned is not None:
            deck[self.dealt] = self.turned
        held: list[list[Card]] = [[] for _ in range(n)]
        # In a canonical order, so that a world depends on what the viewer knows, not on how a view lists it.
        for s, c in sorted(view.known, key=lambda sc: (sc[0], sc[1].index)):
            held[s].append(c)
        unseen = list(view.unseen_cards())
        for s, given in (hands or {}).items():
            for c in given:
                if c not in unseen or s == view.seat or len(held[s]) >= view.hand_sizes[s]:
                    raise WorldError(f"seat {s} cannot hold {c}")
                held[s].append(c)
                unseen.remove(c)
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
            placed = _schedule(jobs[s], self.slots[s], rng if past or (strict and s in self.signallers) else None)
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
            world.apply(action, seat)  # (a seat not to act: its exchange under out_of_turn, or a refusal)
        return world


def _is(card: Card) -> Callable[[Card], bool]:
    return lambda c: c is card


def _in_suit(suit: Suit) -> Callable[[Card], bool]:
    return lambda c: c.suit is suit


def stock_draws(winner: int, players: int, stock_left: int, turned: bool,
                winner_takes_face_up: bool = False) -> list[tuple[int, bool]]:
    """Who draws from a stock of ``stock_left`` cards after a trick won by ``winner`` (the winner first, then the
    others in turn), each with whether the card is the stock's last one (the face-up card, when ``turned``).
    ``winner_takes_face_up`` (``face_up_to: trick_winner``): in the last round the winner draws last, taking it."""
    start = 1 if winner_takes_face_up and turned and stock_left == players else 0
    out = []
    for i in range(players if stock_left > 0 else 0):
        stock_left -= 1
        out.append(((winner + start + i) % players, turned and stock_left == 0))
    return out


def _revealed(
    view: View, t: float, card: Card, led: Card, best: Card, arrastro: bool, duty_on: bool, mate: bool,
    trump: Suit | None,
) -> list[Constraint]:
    """What playing ``card`` at time ``t`` (to a trick led with ``led``, won so far by ``best``, a card of the
    seat's own side when ``mate``, under the trump suit ``trump``: ``None`` in a trick played before the trump was
    declared, Chiamata Buia's first) shows the seat did not hold then, under the duties in force."""
    rules, strength = view.rules, view.rules.strength_table
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
    # descanso: no duty to beat the partner's card, nor to trump when the partner holds with a plain card.
    descanso = rules.follow == "descanso" and mate
    if card.suit is not suit:
        out.append((t, lambda c: c.suit is suit))
        if card.suit is not trump and (rules.follow in ("suit_trump", "suit_beat_trump") or (
                rules.follow == "descanso" and not (descanso and best.suit is not trump))):
            out.append((t, lambda c: c.suit is trump))
    elif (rules.follow == "suit_beat_trump" or (rules.follow == "descanso" and not descanso)) and (
            best.suit is suit and strength[card.index] < strength[best.index]):
        # Followed without beating the best card of the suit led ("cargar"): held nothing above it.
        out.append((t, lambda c: c.suit is suit and strength[c.index] > strength[best.index]))
    return out


class _DealtPlan:
    """Worlds for a dealt-out game (no stock): who holds which cards from the deal on, what each seat lacked.

    Sinks take the hidden cards: each other seat's hidden dealt cards, the talon while it is
    face down (the auction), and, once the declarer of a talon game has discarded without
    showing it, his face-down discards (split off his hidden cards at draw time).
    """

    def __init__(self, view: View) -> None:
        self.view = view
        rules, n = view.rules, view.players
        self.n = n
        viewer = view.seat
        cards = rules.layout(n).cards
        self.cards = cards
        self.size = len(cards)
        # Where each seat's cards lie in the deck, in the order dealt: a deal of the deck in canonical order.
        canon = Game(rules, n, dealer=view.dealer, deck=cards)
        assert isinstance(canon, RuledGame)
        #: Under ``deal: cutter_chooses``, while the cutter chooses nothing is dealt: any order of the deck will do.
        self.uncut = canon.phase == "cut" and not view.deal_way
        if canon.phase == "cut" and view.deal_way:
            canon.apply(Cut(view.deal_way))
        at = {c: i for i, c in enumerate(cards)}
        self.positions = [[at[c] for c in canon.dealt_hand(s)] for s in range(n)]
        self.talon_positions = [at[c] for c in canon.talon]
        pins: dict[int, Card] = {}

        def pin(pos: int, card: Card) -> None:
            if pins.get(pos, card) is not card:
                raise WorldError(f"two cards seen at deck position {pos}: {pins[pos]} and {card}")
            pins[pos] = card

        if viewer is not None and not self.uncut:  # before the cut the viewer holds nothing yet
            mine = self.positions[viewer]
            for pos, card in zip(mine, view.received[:len(mine)], strict=True):
                pin(pos, card)
        if view.turned is not None and canon.turned is not None:
            pin(at[canon.turned], view.turned)  # the dealer's trump card, seen by all
        shown: dict[int, list[Card]] = {}
        for s, c in view.shown:
            shown.setdefault(s, []).append(c)
        for s, shown_cards in shown.items():
            where = [self.positions[s][-1]] if view.deal_way == "golpe" else self.positions[s][:len(shown_cards)]
            for pos, card in zip(where, shown_cards, strict=True):
                pin(pos, card)
        talon = tuple(view.talon)
        for pos, card in zip(self.talon_positions, talon, strict=False):
            pin(pos, card)
        self.pins = pins
        self.talon_shown = bool(talon)
        # The talon's taker: the auction's winner while he discards and names the trump, then the declarer.
        taker: int | None = None
        if rules.talon and view.phase in ("discard", "trump", "call"):
            taker = view.turn
        elif rules.talon and view.contract is not None:
            taker = view.contract.declarer
        self.taker = taker
        self.discarded = taker is not None and view.phase != "discard" and taker != viewer
        talon_set = set(talon) if taker is not None else set()
        self.talon_set = talon_set

        # What the history says about each seat: cards it played, held, lacked.
        played_by: list[dict[Card, int]] = [{} for _ in range(n)]
        for t, (seat, action) in enumerate(view.history):
            if isinstance(action, Play | Arrastro):
                played_by[seat][action.card] = t
        self.played_by = played_by
        self.lacked: list[list[Callable[[Card], bool]]] = [[] for _ in range(n)]
        self.holds: list[set[Card]] = [set() for _ in range(n)]  # held after the deal (and the discard)
        #: Guarded leads of a 2: (seat, the ace that would allow it, what the seat lacked if it did not hold it).
        self.guarded: list[tuple[int, Card, Callable[[Card], bool]]] = []
        self._read_history(played_by)

        # Each other seat's dealt cards it is known to have had; the rest are hidden.
        unseen = set(cards) - set(pins.values()) - talon_set
        if viewer is not None:
            unseen -= set(view.received)
        known: list[set[Card]] = [set() for _ in range(n)]
        for s in range(n):
            if s == viewer:
                continue
            mine_known = set(played_by[s]) | {c for k, c in view.known if k == s} | set(shown.get(s, ()))
            if s == view.dealer and view.turned is not None:
                mine_known.add(view.turned)
            for c in self.holds[s]:
                if c in unseen or c in mine_known:
                    mine_known.add(c)
                elif not (s == taker and c in talon_set):
                    raise WorldError(f"seat {s} showed it held {c}, which is elsewhere")
            mine_known -= talon_set if s == taker else set()
            known[s] = mine_known
            unseen -= mine_known
        for s, ace, fallback in self.guarded:
            if s == taker and ace in talon_set:
                self.holds[s].add(ace)  # kept, not discarded
            elif ace in unseen and len(known[s]) < len(self.positions[s]):
                known[s].add(ace)
                unseen.discard(ace)
            elif ace not in known[s]:
                self.lacked[s].append(fallback)
        self.known = known
        self.unseen = sorted(unseen)
        # Before the cut nothing is dealt, the viewer's cards included: every position is hidden.
        self.hidden = [0 if s == viewer and not self.uncut else len(self.positions[s]) - len(known[s])
                       for s in range(n)]
        self.talon_hidden = 0 if self.talon_shown else len(self.talon_positions)
        if any(h < 0 for h in self.hidden) or sum(self.hidden) + self.talon_hidden != len(self.unseen):
            raise WorldError(f"{len(self.unseen)} hidden cards do not fit the hands {self.hidden}")
        self.fits = [frozenset(c for c in self.unseen if not any(lacks(c) for lacks in self.lacked[s]))
                     for s in range(n)]
        self.any_card = frozenset(self.unseen)

    def _read_history(self, played_by: list[dict[Card, int]]) -> None:
        """Fill ``lacked`` and ``holds`` from the duties, declarations, guarded leads and signals of the history."""
        view, n = self.view, self.n
        rules, viewer = view.rules, view.seat
        # Under call_time: after_first_trick there is no trump until the call that follows the first trick.
        trump = view.trump if rules.call_time == "before_play" else None
        duty_on = rules.follow != "none"
        trick: list[Card] = []
        leader = 0
        best: Card | None = None
        best_seat = 0
        arrastro = False
        finished: list[tuple[int, list[Card]]] = []
        seen_played: set[Card] = set()
        for t, (seat, action) in enumerate(view.history):
            kind = type(action)
            if kind is Call:
                trump = view.trump
                continue
            if kind is Declare:
                suit = action.suit  # type: ignore[attr-defined]
                pair = {Card(Rank.KING, suit), Card(Rank.KNIGHT, suit)}
                held = pair - set(trick) - seen_played  # (a vale marked after the trick: its cards are played)
                self.holds[seat] |= held
                if trick and len(held) == 2 and suit is not trick[0].suit and best is not None and seat != viewer:
                    # Both held, and one of them may be played now: what playing one shows.
                    self.lacked[seat].extend(p for _t, p in _revealed(
                        view, t, Card(Rank.KING, suit), trick[0], best, arrastro, duty_on,
                        rules.side_of(best_seat, n) == rules.side_of(seat, n), trump))
                continue
            if kind is Signal:
                if seat == viewer or trump is None:
                    continue
                name = action.name  # type: ignore[attr-defined]
                rank = SIGNAL_RANKS.get(name)
                if rank is not None:
                    self.holds[seat].add(Card(rank, trump))
                elif name == "no-trumps":
                    self.lacked[seat].append(_in_suit(trump))
                continue
            if kind is not Play and kind is not Arrastro:
                continue
            card: Card = action.card  # type: ignore[attr-defined]
            if not trick:
                if seat != viewer:
                    self._lead_duties(seat, card, t, finished, seen_played, played_by)
                leader, best, best_seat, arrastro = seat, card, seat, kind is Arrastro
            else:
                assert best is not None
                if seat != viewer:
                    mate = rules.side_of(best_seat, n) == rules.side_of(seat, n)
                    self.lacked[seat].extend(
                        p for _t, p in _revealed(view, t, card, trick[0], best, arrastro, duty_on, mate, trump))
                if (card.suit is best.suit and rules.strength_table[card.index] > rules.strength_table[best.index]) or (
                    card.suit is trump and best.suit is not trump
                ):
                    best, best_seat = card, seat
            trick.append(card)
            if len(trick) == n:
                finished.append((leader, trick))
                seen_played.update(trick)
                trick = []

    def _lead_duties(
        self, seat: int, card: Card, t: int, finished: list[tuple[int, list[Card]]], seen_played: set[Card],
        played_by: list[dict[Card, int]],
    ) -> None:
        """What a lead shows under source Porteña's duties: the cutter's trump in pelada, the guarded 2."""
        view, rules, trump, n = self.view, self.view.rules, self.view.trump, self.n
        first = not finished and seat == (view.dealer + 1) % n
        if view.deal_way == "pelada" and first and card.suit is not trump:
            self.lacked[seat].append(lambda c: c.suit is trump)
        if rules.lead_two != "guarded" or card.rank != Rank.TWO:
            return
        suit = card.suit
        ace = Card(Rank.ACE, suit)
        if ace in seen_played or ace in played_by[seat]:
            return  # the ace is gone, or the seat held it (it played it later)
        side = seat % rules.sides(self.n)
        for leader, cards in finished:
            if cards[0].suit is suit and any(
                c.suit is not suit and (leader + i) % n != seat and (leader + i) % n % rules.sides(n) == side
                for i, c in enumerate(cards)
            ):
                return  # the partner has shown he lacks the suit
        only_trump = view.deal_way == "pelada" and first and suit is trump

        def fallback(c: Card) -> bool:
            if only_trump:
                return c.suit is trump and c is not card  # its only trump
            return c.rank != Rank.TWO  # nothing else to lead
        if self._elsewhere(ace, seat, played_by):
            self.lacked[seat].append(fallback)
        else:
            self.guarded.append((seat, ace, fallback))  # the ace of its suit in hand, the usual reason, if it fits

    def _elsewhere(self, card: Card, seat: int, played_by: list[dict[Card, int]]) -> bool:
        """Whether the viewer knows ``card`` is not (and never was) among ``seat``'s cards."""
        view = self.view
        if view.seat is not None and view.seat != seat and card in view.received:
            return True
        if card in view.talon and seat != self.taker:
            return True
        if view.turned is card and seat != view.dealer:
            return True
        return any(card in p for s, p in enumerate(played_by) if s != seat) or any(
            c is card and s != seat for s, c in (*view.known, *view.shown))

    def draw(self, rng: random.Random, strict: bool = True, hands: Mapping[int, Sequence[Card]] | None = None,
             past: bool = False) -> Game:
        """A world (``hands`` and ``past`` are not used: the matching of hidden cards to seats needs no help here,
        and every card is dealt at once)."""
        view, n = self.view, self.n
        if self.uncut:
            return Game(view.rules, n, dealer=view.dealer, deck=sorted(self.cards, key=lambda _c: rng.random()),
                        deal_number=view.deal_number)
        deck, discards = self.deck(rng)
        world = Game(view.rules, n, dealer=view.dealer, deck=deck, deal_number=view.deal_number)
        assert isinstance(world, RuledGame)
        hidden_discard = Discard(*discards) if discards else None
        for seat, action in view.history:
            if world.phase == "discard" and type(action) is not Discard and hidden_discard is not None:
                world.apply(hidden_discard)
            if not strict and isinstance(action, Signal) and seat != view.seat:
                continue
            if world.turn != seat:
                raise WorldError("the history is out of turn")
            world.apply(action)
        if world.phase == "discard" and view.phase != "discard" and hidden_discard is not None:
            world.apply(hidden_discard)
        if world.turn != view.turn or world.phase != view.phase:
            # A seat the history shows not asked (a vale it could not mark) would be asked here: not this world.
            raise WorldError("the world asks another seat than the view")
        return world

    def deck(self, rng: random.Random) -> tuple[list[Card], list[Card]]:
        """The deck of a world and the taker's face-down discards in it, not yet checked against the history (a
        world that breaks a duty the seats' play showed is refused when its history is replayed)."""
        view, n, viewer = self.view, self.n, self.view.seat
        sinks: list[tuple[int, frozenset[Card]]] = []  # (owner: a seat, -1 the talon, -2 the discards; cards fit)
        discards: list[Card] = []
        taker = self.taker
        for s in range(n):
            if s == viewer:
                continue
            if s == taker and self.discarded:
                # The taker's talon cards he did not play: those he cannot hold now were discarded.
                free = len(self.talon_positions)
                lacks = self.lacked[s]
                talon_left = [c for c in view.talon if c not in self.played_by[s]]
                must = [c for c in talon_left if any(f(c) for f in lacks)]
                if len(must) > free or set(must) & self.holds[s]:
                    raise WorldError(f"seat {s} cannot have discarded what it lacks")
                discards.extend(must)
                free -= len(must)
                optional = [c for c in talon_left if c not in must and c not in self.holds[s]]
                rng.shuffle(optional)
                pool = self.hidden[s] + len(optional)
                for c in optional:
                    if free and rng.random() * pool < free:
                        discards.append(c)
                        free -= 1
                    pool -= 1
                sinks.extend((s, self.fits[s]) for _ in range(self.hidden[s] - free))
                sinks.extend((-2, self.any_card) for _ in range(free))
            else:
                sinks.extend((s, self.fits[s]) for _ in range(self.hidden[s]))
        sinks.extend((-1, self.any_card) for _ in range(self.talon_hidden))
        placed = _match(self.unseen, sinks, rng)
        if placed is None:
            raise WorldError("the hidden cards cannot be dealt to fit what the seats showed")
        got: dict[int, list[Card]] = {}
        for card, owner in placed:
            got.setdefault(owner, []).append(card)
        discards.extend(got.pop(-2, []))
        deck: list[Card | None] = [None] * self.size
        for pos, card in self.pins.items():
            deck[pos] = card
        pinned = set(self.pins.values())
        for s in range(n):
            if s == viewer:
                continue
            mine = [c for c in self.known[s] if c not in pinned] + got.get(s, [])
            if s == taker and self.discarded:
                mine += [c for c in discards if c not in view.talon]
            free_pos = [p for p in self.positions[s] if deck[p] is None]
            if len(mine) != len(free_pos):
                raise WorldError(f"seat {s}: {len(mine)} cards for {len(free_pos)} places")
            rng.shuffle(mine)
            for p, c in zip(free_pos, mine, strict=True):
                deck[p] = c
        talon = got.get(-1, [])
        rng.shuffle(talon)
        for p, c in zip([p for p in self.talon_positions if deck[p] is None], talon, strict=True):
            deck[p] = c
        if any(c is None for c in deck):
            raise WorldError("a deck position was left empty")
        return deck, discards  # type: ignore[return-value]


def _match(
    cards: list[Card], sinks: list[tuple[int, frozenset[Card]]], rng: random.Random
) -> list[tuple[Card, int]] | None:
    """A random perfect matching of ``cards`` to ``sinks`` (one card each, among those that fit), or ``None``.

    With nothing to respect (every sink takes any card) it is a uniform shuffle; otherwise
    augmenting paths (Kuhn's algorithm) over random orders find a matching whenever one exists.
    """
    if len(cards) != len(sinks):
        return None
    order = cards[:]
    rng.shuffle(order)
    slots = sinks[:]
    rng.shuffle(slots)
    if all(len(fit) == len(cards) for _o, fit in slots):
        return [(c, slots[i][0]) for i, c in enumerate(order)]
    holder: list[int] = [-1] * len(slots)  # the card (index in order) in each slot

    def augment(k: int, seen: list[bool]) -> bool:
        card = order[k]
        for j, (_owner, fit) in enumerate(slots):
            if seen[j] or card not in fit:
                continue
            seen[j] = True
            if holder[j] < 0 or augment(holder[j], seen):
                holder[j] = k
                return True
        return False

    for k in range(len(order)):
        if not augment(k, [False] * len(slots)):
            return None
    return [(order[holder[j]], slots[j][0]) for j in range(len(slots))]


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


__all__ = ["WorldError", "WorldSampler", "sample_world", "sample_worlds", "stock_draws"]
