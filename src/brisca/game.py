"""The game: one hand (deal) of Brisca as a state machine, and a match of hands.

    >>> from brisca import Game
    >>> game = Game("spanish", players=2, seed=7)
    >>> len(game.legal_actions())
    3
    >>> first = game.legal_actions()[0]
    >>> game.apply(first)
    >>> game.turn
    1
    >>> game.undo() is first, game.turn
    (True, 0)

The hot path (``legal_actions``, ``apply``, ``clone``) works on plain lists of
interned cards and precomputed per-card tables from the :class:`Rules`, so a
random hand costs tens of microseconds: search-based players live on that.

A seat's :meth:`Game.view` is the only projection of the state for anyone but
the engine itself: it never holds another seat's hand or the order of the stock.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from brisca.actions import EXCHANGES, PLAYS, Action, Exchange, Play
from brisca.cards import Card, Suit
from brisca.errors import IllegalActionError, InvalidActionError, InvalidCardError, RulesError
from brisca.rules import Rules, make_rules


class Trick(NamedTuple):
    """A finished trick: who led, the cards in order of play, who won it and its points."""

    leader: int
    cards: tuple[Card, ...]
    winner: int
    points: int

    def seat_of(self, i: int, players: int) -> int:
        """The seat that played the ``i``-th card."""
        return (self.leader + i) % players


class ExchangeEvent(NamedTuple):
    """A trump exchange: ``seat`` gave ``given`` and took the face-up card ``taken``."""

    seat: int
    given: Card
    taken: Card


@dataclass(frozen=True)
class HandResult:
    """The outcome of a finished hand."""

    seat_points: tuple[int, ...]
    side_points: tuple[int, ...]
    #: The winning side, or ``None`` for a drawn hand (a tie for the most points).
    winner: int | None


class Game:
    """One hand of Brisca, from the deal to the last trick.

    ``deck`` is the whole deck in order, top first; without it the deck is
    shuffled with ``seed`` (an int, or a :class:`random.Random` to draw from).
    The dealer defaults to the last seat, so seat 0 leads.
    """

    __slots__ = (
        "rules", "players", "dealer", "_order", "trump", "turned",
        "_hands", "_stock", "_trick", "_leader", "_turn", "_best", "_best_seat",
        "_points", "_won", "_tricks", "_history", "_exchanges", "_last_draw", "_over",
        "_layout", "_next", "_draw_order", "_strength", "_ptable", "_xtable", "_exchange_on", "_give",
    )

    rules: Rules
    players: int
    dealer: int
    trump: Suit
    turned: Card

    def __init__(
        self,
        rules: Rules | str = "spanish",
        players: int = 2,
        *,
        dealer: int | None = None,
        deck: Iterable[Card | str] | None = None,
        seed: int | random.Random | None = None,
        options: Mapping[str, object] | None = None,
    ) -> None:
        self.rules = rules = make_rules(rules, options)
        self._layout = layout = rules.layout(players)
        self.players = players
        if dealer is None:
            dealer = players - 1
        elif isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < players:
            raise RulesError(f"the dealer must be a seat from 0 to {players - 1}, not {dealer!r}")
        self.dealer = dealer
        # The deck is kept as the interned Play action of each card: dealing is then list slicing.
        if deck is None:
            rand = (seed if isinstance(seed, random.Random) else random.Random(seed)).random
            self._order = tuple(sorted(layout.plays, key=lambda _a: rand()))
        else:
            self._order = tuple(PLAYS[c.index] for c in check_deck(deck, layout.cards))
        self._next = layout.next_seat
        self._draw_order = layout.draw_order
        self._strength = rules.strength_table
        self._ptable = rules.point_table
        self._xtable = rules.exchange_table
        self._exchange_on = rules.trump_exchange != "off"
        self._deal()

    @property
    def deck(self) -> tuple[Card, ...]:
        """The whole deck as dealt, top card first."""
        return tuple(a.card for a in self._order)

    def _deal(self) -> None:
        n, order = self.players, self._order
        dealt = self.rules.hand_size * n
        # Hands and stock hold the interned Play action of each card: legal_actions is then a list copy.
        hands: list[list[Action]] = [[] for _ in range(n)]
        for k in range(n):
            hands[(self.dealer + 1 + k) % n] = list(order[k:dealt:n])
        self.turned = order[dealt].card
        self.trump = self.turned.suit
        # The stock is kept bottom first, so drawing is list.pop() and the face-up card is _stock[0].
        self._stock = list(order[:dealt - 1:-1])
        self._hands = hands
        self._trick: list[Card] = []
        self._leader = self._turn = (self.dealer + 1) % n
        self._best: Card = self.turned
        self._best_seat = -1
        self._points = [0] * n
        self._won = [False] * n
        self._tricks: list[tuple[int, tuple[Card, ...], int, int]] = []
        self._history: list[tuple[int, Action]] = []
        self._exchanges: list[ExchangeEvent] = []
        self._last_draw: tuple[int, Card] | None = None
        self._over = False
        self._set_face_up()

    def _set_face_up(self) -> None:
        """Note which trump may be given for the face-up card (the exchange's only lookup)."""
        give = self._xtable[self._stock[0].card.index] if self._stock and self._exchange_on else None
        self._give: Action | None = None if give is None else PLAYS[give.index]

    # ------------------------------------------------------------------ queries

    @property
    def turn(self) -> int | None:
        """The seat to act, or ``None`` when the hand is over."""
        return None if self._over else self._turn

    @property
    def leader(self) -> int:
        """The seat that leads (or led) the current trick."""
        return self._leader

    @property
    def face_up(self) -> Card | None:
        """The face-up trump card while it is still in the stock (the last card to be drawn)."""
        return self._stock[0].card if self._stock else None

    @property
    def stock_count(self) -> int:
        """Cards left in the stock, the face-up card included."""
        return len(self._stock)

    @property
    def trick(self) -> tuple[Card, ...]:
        """The cards on the table in the current trick, in order of play from the leader."""
        return tuple(self._trick)

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """The finished tricks, in order."""
        return tuple(Trick(*t) for t in self._tricks)

    @property
    def history(self) -> tuple[tuple[int, Action], ...]:
        """Every action applied, as ``(seat, action)``."""
        return tuple(self._history)

    @property
    def exchanges(self) -> tuple[ExchangeEvent, ...]:
        """Every trump exchange made in this hand."""
        return tuple(self._exchanges)

    @property
    def seat_points(self) -> tuple[int, ...]:
        """Card points won so far by each seat."""
        return tuple(self._points)

    @property
    def side_points(self) -> tuple[int, ...]:
        """Card points won so far by each side."""
        return _side_sum(self._points, self._layout.sides)

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` holds. Engine-level access: interfaces use :meth:`view`."""
        return tuple(a.card for a in self._hands[seat])

    def stock(self) -> tuple[Card, ...]:
        """The stock in drawing order (next card first, face-up card last). Engine-level access."""
        return tuple(a.card for a in reversed(self._stock))

    def is_over(self) -> bool:
        """Whether every card has been played."""
        return self._over

    def side_of(self, seat: int) -> int:
        """The side ``seat`` plays for."""
        return seat % self._layout.sides

    def result(self) -> HandResult | None:
        """The outcome once the hand is over, else ``None``."""
        if not self._over:
            return None
        sides = self.side_points
        best = max(sides)
        winners = [i for i, p in enumerate(sides) if p == best]
        return HandResult(tuple(self._points), sides, winners[0] if len(winners) == 1 else None)

    def legal_actions(self) -> list[Action]:
        """The actions the seat to act may take now: each card it holds, and the exchange when allowed."""
        hand = self._hands[self._turn]  # every hand is empty once the hand is over
        give = self._give
        if give is not None and give in hand and self._won[self._turn]:
            return [*hand, EXCHANGES[give.card.index]]
        return hand[:]

    def is_legal(self, action: Action) -> bool:
        """Whether ``action`` may be applied now."""
        return action in self.legal_actions()

    # ------------------------------------------------------------------ moves

    def apply(self, action: Action | str) -> None:
        """Apply ``action`` (an :class:`Action` or its notation) for the seat to act.

        Raises :class:`InvalidActionError` for something that is not an action and
        :class:`IllegalActionError` for an action the rules forbid now; the game is
        unchanged when either is raised.
        """
        if type(action) is Play:
            seat = self._turn
            try:
                self._hands[seat].remove(action)
            except ValueError:  # also what a finished hand (every hand empty) lands on
                raise IllegalActionError(
                    "the hand is over" if self._over else f"seat {seat} does not hold {action.card}"
                ) from None
            self._history.append((seat, action))
            card = action.card
            trick = self._trick
            if trick:
                best = self._best
                if card.suit is best.suit:
                    strength = self._strength
                    if strength[card.index] > strength[best.index]:
                        self._best = card
                        self._best_seat = seat
                elif card.suit is self.trump:  # the best card so far is not a trump here
                    self._best = card
                    self._best_seat = seat
            else:
                self._best = card
                self._best_seat = seat
            trick.append(card)
            if len(trick) < self.players:
                self._turn = self._next[seat]
                return
            # The trick is complete: score it, draw, and hand the lead to the winner.
            winner = self._best_seat
            ptable = self._ptable
            points = 0
            for c in trick:
                points += ptable[c.index]
            self._points[winner] += points
            self._won[winner] = True
            self._tricks.append((self._leader, tuple(trick), winner, points))
            trick.clear()
            stock = self._stock
            if stock:
                hands = self._hands
                order = self._draw_order[winner]
                for s in order:
                    hands[s].append(stock.pop())
                if not stock:
                    self._last_draw = (order[-1], hands[order[-1]][-1].card)
                    self._give = None
            elif not self._hands[winner]:
                self._over = True
            self._leader = self._turn = winner
        elif type(action) is Exchange:
            self._exchange(action)
        elif isinstance(action, str):
            self.apply(Action.parse(action))
        else:
            raise InvalidActionError(f"not an action: {action!r}")

    def _exchange(self, action: Exchange) -> None:
        if self._over:
            raise IllegalActionError("the hand is over")
        seat = self._turn
        card = action.card
        if not self._exchange_on:
            raise IllegalActionError("the trump exchange is not played in these rules")
        stock = self._stock
        if not stock:
            raise IllegalActionError("the face-up trump has already been drawn")
        if not self._won[seat]:
            raise IllegalActionError(f"seat {seat} must win a trick before exchanging the trump")
        face = stock[0]
        give = self._xtable[face.card.index]
        if give is None:
            raise IllegalActionError(f"the face-up {face.card} cannot be exchanged")
        if card is not give:
            raise IllegalActionError(f"the face-up {face.card} is taken with {give}, not {card}")
        hand = self._hands[seat]
        play = PLAYS[card.index]
        if play not in hand:
            raise IllegalActionError(f"seat {seat} does not hold {card}")
        hand.remove(play)
        hand.append(face)
        stock[0] = play
        self._set_face_up()
        self._history.append((seat, action))
        self._exchanges.append(ExchangeEvent(seat, card, face.card))

    def undo(self) -> Action:
        """Take back the last action and return it (by replaying the rest from the deal)."""
        if not self._history:
            raise IllegalActionError("there is nothing to undo")
        *keep, (_seat, last) = self._history
        self._deal()
        for _s, action in keep:
            self.apply(action)
        return last

    def clone(self) -> Game:
        """An independent copy, cheap enough for search."""
        g = Game.__new__(Game)
        g.rules = self.rules
        g.players = self.players
        g.dealer = self.dealer
        g._order = self._order
        g.trump = self.trump
        g.turned = self.turned
        g._hands = [h[:] for h in self._hands]
        g._stock = self._stock[:]
        g._trick = self._trick[:]
        g._leader = self._leader
        g._turn = self._turn
        g._best = self._best
        g._best_seat = self._best_seat
        g._points = self._points[:]
        g._won = self._won[:]
        g._tricks = self._tricks[:]
        g._history = self._history[:]
        g._exchanges = self._exchanges[:]
        g._last_draw = self._last_draw
        g._over = self._over
        g._layout = self._layout
        g._next = self._next
        g._draw_order = self._draw_order
        g._strength = self._strength
        g._ptable = self._ptable
        g._xtable = self._xtable
        g._exchange_on = self._exchange_on
        g._give = self._give
        return g

    __copy__ = clone

    # ------------------------------------------------------------------ views

    def view(self, seat: int | None = None) -> View:
        """What ``seat`` may see (``None``: a spectator). The only projection interfaces use."""
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players):
            raise RulesError(f"no seat {seat!r} in a {self.players}-player game")
        mine = seat is not None and not self._over and self._turn == seat
        return View(
            seat=seat,
            rules=self.rules,
            players=self.players,
            dealer=self.dealer,
            trump=self.trump,
            turned=self.turned,
            face_up=self.face_up,
            stock_count=len(self._stock),
            hand=self.hand(seat) if seat is not None else (),
            hand_sizes=tuple(len(h) for h in self._hands),
            leader=self._leader,
            turn=self.turn,
            trick=tuple(self._trick),
            tricks=self.tricks,
            seat_points=tuple(self._points),
            history=tuple(self._history),
            exchanges=tuple(self._exchanges),
            known=self._known_cards(),
            legal_actions=tuple(self.legal_actions()) if mine else (),
            result=self.result(),
        )

    def _known_cards(self) -> tuple[tuple[int, Card], ...]:
        """Cards every seat can know are in a given hand: exchanged-in face-up cards and the last card drawn."""
        known: list[tuple[int, Card]] = [(e.seat, e.taken) for e in self._exchanges]
        if self._last_draw is not None:
            known.append(self._last_draw)
        return tuple((s, c) for s, c in known if PLAYS[c.index] in self._hands[s])

    def __repr__(self) -> str:
        state = "over" if self._over else f"turn {self._turn}"
        return (
            f"<Game {self.rules.variant} players={self.players} dealer={self.dealer} "
            f"trump={self.trump.letter} trick {len(self._tricks) + 1}, {state}>"
        )


def shuffled(cards: Sequence[Card], seed: int | random.Random | None = None) -> tuple[Card, ...]:
    """A uniformly shuffled copy of ``cards``.

    Sorting on random keys is uniform (ties have probability 2**-53) and twice as fast
    as :func:`random.shuffle`, which matters when search deals thousands of worlds.
    """
    rand = (seed if isinstance(seed, random.Random) else random.Random(seed)).random
    return tuple(sorted(cards, key=lambda _c: rand()))


@dataclass(frozen=True)
class View:
    """What one seat (or a spectator, ``seat=None``) may see of a hand.

    It holds the seat's own hand, never another's, and the size of the stock,
    never its order. Everything else here is public at a real table.
    """

    seat: int | None
    rules: Rules
    players: int
    dealer: int
    trump: Suit
    #: The card turned up at the deal.
    turned: Card
    #: The face-up trump card while it is still in the stock.
    face_up: Card | None
    stock_count: int
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    leader: int
    turn: int | None
    trick: tuple[Card, ...]
    tricks: tuple[Trick, ...]
    seat_points: tuple[int, ...]
    history: tuple[tuple[int, Action], ...]
    exchanges: tuple[ExchangeEvent, ...]
    #: ``(seat, card)`` for cards everyone knows a seat holds (taken by exchange, or the last card drawn).
    known: tuple[tuple[int, Card], ...]
    #: This seat's legal actions when it is its turn, else empty.
    legal_actions: tuple[Action, ...]
    result: HandResult | None

    @property
    def side_points(self) -> tuple[int, ...]:
        """Card points won so far by each side."""
        return _side_sum(self.seat_points, self.rules.sides(self.players))

    def side_of(self, seat: int) -> int:
        """The side ``seat`` plays for."""
        return self.rules.side_of(seat, self.players)

    def partners(self) -> tuple[int, ...]:
        """The other seats on this seat's side (empty for spectators and in games each for himself)."""
        if self.seat is None:
            return ()
        mine = self.side_of(self.seat)
        return tuple(s for s in range(self.players) if s != self.seat and self.side_of(s) == mine)

    def trick_seats(self) -> tuple[int, ...]:
        """The seats that played the cards of the current trick, in order."""
        return tuple((self.leader + i) % self.players for i in range(len(self.trick)))

    def trick_winner(self) -> int | None:
        """The seat winning the current trick so far, or ``None`` when the table is empty."""
        if not self.trick:
            return None
        return self.trick_seats()[winning_index(self.trick, self.trump, self.rules.strength_table)]

    def played_cards(self) -> tuple[Card, ...]:
        """Every card played so far in the hand, the current trick included."""
        out = [c for t in self.tricks for c in t.cards]
        out.extend(self.trick)
        return tuple(out)

    def unseen_cards(self) -> tuple[Card, ...]:
        """The cards this seat has not seen: in other hands or face down in the stock."""
        seen = set(self.hand) | set(self.played_cards())
        if self.face_up is not None:
            seen.add(self.face_up)
        return tuple(c for c in self.rules.deck_cards(self.players) if c not in seen)


def winning_index(cards: Sequence[Card], trump: Suit, strength: Sequence[int]) -> int:
    """The position of the card that wins a trick: the highest trump, else the highest of the suit led."""
    best = 0
    for i in range(1, len(cards)):
        c, b = cards[i], cards[best]
        if c.suit is b.suit:
            if strength[c.index] > strength[b.index]:
                best = i
        elif c.suit is trump:
            best = i
    return best


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


class InvalidDeckError(RulesError):
    """A deck that is not exactly the cards the rules put in play."""


def _side_sum(points: Sequence[int], sides: int) -> tuple[int, ...]:
    out = [0] * sides
    for seat, p in enumerate(points):
        out[seat % sides] += p
    return tuple(out)


class Match:
    """A match: hands follow one another, the deal passing to the next seat, until a side wins.

    The first side to win ``rules.target_hands`` hands wins; drawn hands do not count.
    """

    def __init__(
        self,
        rules: Rules | str = "spanish",
        players: int = 2,
        *,
        dealer: int | None = None,
        seed: int | None = None,
        options: Mapping[str, object] | None = None,
    ) -> None:
        self.rules = make_rules(rules, options)
        self.rules.check_players(players)
        self.players = players
        self._rng = random.Random(seed)
        first = players - 1 if dealer is None else dealer
        self.games: list[Game] = []
        self.game = self._start(first, None)

    def _start(self, dealer: int, deck: Iterable[Card | str] | None) -> Game:
        if deck is None:
            deck = shuffled(self.rules.deck_cards(self.players), self._rng)
        game = Game(self.rules, self.players, dealer=dealer, deck=deck)
        self.games.append(game)
        return game

    @property
    def results(self) -> list[HandResult]:
        """Results of the finished hands, in order."""
        return [r for g in self.games if (r := g.result()) is not None]

    @property
    def hands_won(self) -> tuple[int, ...]:
        """Hands won by each side so far."""
        wins = [0] * self.rules.sides(self.players)
        for r in self.results:
            if r.winner is not None:
                wins[r.winner] += 1
        return tuple(wins)

    @property
    def winner(self) -> int | None:
        """The side that has won the match, or ``None`` while it goes on."""
        for side, won in enumerate(self.hands_won):
            if won >= self.rules.target_hands:
                return side
        return None

    def is_over(self) -> bool:
        """Whether a side has won the match."""
        return self.winner is not None

    def next_hand(self, deck: Iterable[Card | str] | None = None) -> Game:
        """Deal the next hand (the deal passes to the next seat) once the current one is over."""
        if not self.game.is_over():
            raise IllegalActionError("the current hand is not over")
        if self.is_over():
            raise IllegalActionError("the match is over")
        self.game = self._start((self.game.dealer + 1) % self.players, deck)
        return self.game
