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
interned actions and precomputed per-card tables from the :class:`Rules`, so a
random hand costs tens of microseconds: search-based players live on that.
Rules that add duties, calls or signals are served by a subclass picked from
the rules when the game is created, so the plain game pays nothing for them.

A seat's :meth:`Game.view` is the only projection of the state for anyone but
the engine itself: it never holds another seat's hand or the order of the stock.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from brisca.actions import (
    ANNOUNCES,
    ARRASTROS,
    ASK_SIGNALS,
    CALLS,
    CLAIM,
    EXCHANGES,
    PASS,
    PLAYS,
    SIGNAL_SETS,
    Action,
    Announce,
    Arrastro,
    Bid,
    Call,
    Claim,
    Cut,
    Declare,
    Discard,
    Exchange,
    Pass,
    Play,
    RankBid,
    Signal,
    TrumpChoice,
)
from brisca.cards import Card, Rank, Suit
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


class _Marking(NamedTuple):
    """A window to mark vales (source 003): the trick it is about and the hands as they were at its card."""

    t: int
    leader: int
    cards: tuple[Card, ...]
    held: tuple[frozenset[Card], ...]
    resume: int
    end: bool
    #: The phase the hand goes back to: ``play``, or ``call`` after the first trick under Chiamata Buia.
    then: str = "play"


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
    #: Why the hand ended as it did: "points", "tie", "shared", "three-killed".
    reason: str = "points"
    #: A tie under ``tie: replay``: the same dealer deals a replacement hand.
    replay: bool = False
    #: Games with a contract: the match points each seat scores for this hand.
    scores: tuple[int, ...] | None = None
    #: Games with a contract: the contract played (``None`` when everybody passed).
    contract: Contract | None = None
    #: A tie under ``tie: shared``: every side tied for the most, each awarded the hand (else empty).
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


#: Phases of a hand with an auction, in order. Before them ``cut`` (the cutter chooses the deal, ``deal:
#: cutter_chooses``); within the play ``mark`` comes and goes (seats whose card is down may still mark a vale).
PHASES = ("bid", "discard", "trump", "call", "play")

_NO_SIGNALS: tuple[()] = ()

SIGNAL_RANKS: dict[str, int] = {
    "trump-ace": Rank.ACE, "trump-three": Rank.THREE, "trump-king": Rank.KING,
    "trump-knight": Rank.KNIGHT, "trump-jack": Rank.JACK,
}


class Game:
    """One hand of Brisca, from the deal to the last trick.

    ``deck`` is the whole deck in order, top first; without it the deck is
    shuffled with ``seed`` (an int, or a :class:`random.Random` to draw from).
    The dealer defaults to the last seat, so seat 0 leads. ``deal_number``
    counts the deals of a match (it picks the trump under ``trump_rotation``).
    """

    __slots__ = (
        "rules", "players", "dealer", "deal_number", "_order", "trump", "turned",
        "_hands", "_stock", "_trick", "_leader", "_turn", "_best", "_best_seat",
        "_points", "_may_exchange", "_tricks", "_history", "_exchanges", "_last_draw", "_over",
        "_layout", "_next", "_draw_order", "_strength", "_ptable", "_xtable", "_give", "_give_until",
        # Used by the rules that add duties, calls and signals (RuledGame):
        "_signals", "_turn_signals", "_arrastro_on", "_claim", "_killer", "_three_out",
    )

    rules: Rules
    players: int
    dealer: int
    deal_number: int
    trump: Suit
    turned: Card | None

    def __new__(cls, rules: Rules | str = "spanish", *args: Any, **kwargs: Any) -> Game:
        if cls is Game:
            resolved = rules if type(rules) is Rules and not kwargs.get("options") else make_rules(
                rules, kwargs.get("options")
            )
            if not resolved.plain:
                cls = RuledGame
        return object.__new__(cls)

    def __init__(
        self,
        rules: Rules | str = "spanish",
        players: int = 2,
        *,
        dealer: int | None = None,
        deck: Iterable[Card | str] | None = None,
        seed: int | random.Random | None = None,
        options: Mapping[str, object] | None = None,
        deal_number: int = 0,
    ) -> None:
        self.rules = rules = make_rules(rules, options)
        self._layout = layout = rules.layout(players)
        self.players = players
        if dealer is None:
            dealer = players - 1
        elif isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < players:
            raise RulesError(f"the dealer must be a seat from 0 to {players - 1}, not {dealer!r}")
        if type(deal_number) is not int or deal_number < 0:
            raise RulesError(f"the deal number is a whole number from 0, not {deal_number!r}")
        self.dealer = dealer
        self.deal_number = deal_number
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
        # Exchanges stop once the stock is this small (before_penultimate: the last round of draws).
        self._give_until = players if rules.trump_exchange == "before_penultimate" else 0
        self._deal()

    @property
    def deck(self) -> tuple[Card, ...]:
        """The whole deck as dealt, top card first."""
        return tuple(a.card for a in self._order)

    def _deal(self) -> None:
        self._deal_cards()
        n = self.players
        self._trick: list[Card] = []
        self._leader = self._turn = (self.dealer + 1) % n
        self._best: Card = self._order[0].card
        self._best_seat = -1
        self._points = [0] * n
        # after_win and before_penultimate: a seat may exchange once it has won a trick.
        self._may_exchange = [self.rules.trump_exchange == "any_time"] * n
        self._tricks: list[tuple[int, list[Card], int, int]] = []
        self._history: list[tuple[int, Action]] = []
        self._exchanges: list[ExchangeEvent] = []
        self._last_draw: tuple[int, Card] | None = None
        self._over = False
        # Signals are only played by RuledGame, which gives each hand its own lists.
        self._signals: list[tuple[int, str, int, bool]] = _NO_SIGNALS  # type: ignore[assignment]
        self._turn_signals: list[str] = _NO_SIGNALS  # type: ignore[assignment]
        self._arrastro_on = False
        self._claim: tuple[int, tuple[Card, ...], int] | None = None
        self._killer: int | None = None
        self._three_out = False
        self._set_face_up(exchanged=False)

    def _deal_cards(self) -> None:
        """Deal the hands one card at a time and set up the stock and the trump."""
        n, order = self.players, self._order
        dealt = self.rules.hand_size * n
        # Hands and stock hold the interned Play action of each card: legal_actions is then a list copy.
        hands: list[list[Play]] = [[] for _ in range(n)]
        for k in range(n):
            hands[(self.dealer + 1 + k) % n] = list(order[k:dealt:n])
        # The stock is kept bottom first, so drawing is list.pop() and a face-up card is _stock[0].
        if self.rules.trump_rotation:
            self.turned = None
            self.trump = Suit(self.deal_number % 4)
            self._stock = list(order[:dealt - 1:-1])
        else:
            self.turned = order[dealt].card
            self.trump = self.turned.suit
            self._stock = [order[dealt], *order[:dealt:-1]]
        self._hands = hands

    def _set_face_up(self, exchanged: bool) -> None:
        """Note which trump may be given for the face-up card (the exchange's only lookup)."""
        give = None
        if (
            self._stock and self.turned is not None and len(self._stock) > self._give_until
            and (not exchanged or self.rules.exchange_chain)
        ):
            give = self._xtable[self._stock[0].card.index]
        self._give: Play | None = None if give is None else PLAYS[give.index]

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
    def cutter(self) -> int:
        """The seat that cuts the deck: before the dealer, or after him under ``cutter: right`` (003)."""
        return (self.dealer + (1 if self.rules.cutter == "right" else -1)) % self.players

    @property
    def deal_way(self) -> str:
        """How this hand is dealt (``one_by_one``, ``alce``, ``golpe``, ``pelada``); ``""`` until the cutter chooses."""
        return self.rules.deal

    @property
    def face_up(self) -> Card | None:
        """The face-up trump card while it is still in the stock (the last card to be drawn)."""
        return self._stock[0].card if self._stock and self.turned is not None else None

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
        return tuple(Trick(leader, tuple(cards), winner, points) for leader, cards, winner, points in self._tricks)

    @property
    def history(self) -> tuple[tuple[int, Action], ...]:
        """Every action applied, as ``(seat, action)``."""
        return tuple(self._history)

    @property
    def exchanges(self) -> tuple[ExchangeEvent, ...]:
        """Every trump exchange made in this hand."""
        return tuple(self._exchanges)

    @property
    def claim(self) -> tuple[int, tuple[Card, ...], int] | None:
        """``(seat, cards, points)`` when the hand ended on a claim."""
        return self._claim

    @property
    def seat_points(self) -> tuple[int, ...]:
        """Card points won so far by each seat."""
        return tuple(self._points)

    @property
    def side_points(self) -> tuple[int, ...]:
        """Card points won so far by each side (bonuses are in :meth:`result`)."""
        return _side_sum(self._points, self._layout.sides)

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` holds. Engine-level access: interfaces use :meth:`view`."""
        return tuple(a.card for a in self._hands[seat])

    def dealt_hand(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` was dealt. Engine-level access: interfaces use :meth:`view`."""
        n = self.players
        k = (seat - self.dealer - 1) % n
        return tuple(a.card for a in self._order[k:self.rules.hand_size * n:n])

    def received(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` was dealt and then drew, in order (not those taken by exchange).

        Engine-level access: a seat sees its own through :attr:`View.received`.
        """
        n, hs = self.players, self.rules.hand_size
        out = list(self.dealt_hand(seat))
        dealt = hs * n
        first = dealt + (1 if self.turned is not None else 0)
        total_draws = len(self._order) - dealt
        j = 0
        # After a trick that killed the three nobody draws (the hand ended at once).
        tricks = self._tricks[:-1] if self._killer is not None else self._tricks
        for _leader, _cards, winner, _points in tricks:
            if j >= total_draws:
                break
            for i in range(n):
                if (winner + i) % n == seat:
                    if self.turned is not None and j == total_draws - 1:
                        out.append(self._last_draw[1] if self._last_draw else self.turned)
                    else:
                        out.append(self._order[first + j].card)
                j += 1
        return tuple(out)

    def stock(self) -> tuple[Card, ...]:
        """The stock in drawing order (next card first, face-up card last). Engine-level access."""
        return tuple(a.card for a in reversed(self._stock))

    def is_over(self) -> bool:
        """Whether the hand has ended."""
        return self._over

    def side_of(self, seat: int) -> int:
        """The side ``seat`` plays for."""
        return seat % self._layout.sides

    def captured(self, side: int) -> list[Card]:
        """The cards a side has taken in tricks (and by a claim)."""
        sides = self._layout.sides
        out = [c for t in self._tricks if t[2] % sides == side for c in t[1]]
        if self._claim is not None and self._claim[0] % sides == side:
            out.extend(self._claim[1])
        return out

    def result(self) -> HandResult | None:
        """The outcome once the hand is over, else ``None``."""
        if not self._over:
            return None
        rules, sides = self.rules, self._layout.sides
        bonuses = self._bonuses()
        totals = list(_side_sum(self._points, sides))
        for b in bonuses:
            totals[b.side] += b.points
        seat_points = tuple(self._points)
        if self._killer is not None:
            return HandResult(seat_points, tuple(totals), self._killer % sides, bonuses, "three-killed")
        best = (min if rules.hand_winner == "least" else max)(totals)
        tied = [i for i, p in enumerate(totals) if p == best]
        if len(tied) == 1:
            return HandResult(seat_points, tuple(totals), tied[0], bonuses)
        if rules.tie == "most_cards":
            cards = {side: len(self.captured(side)) for side in tied}
            most = max(cards.values())
            leaders = [s for s, c in cards.items() if c == most]
            if len(leaders) == 1:
                return HandResult(seat_points, tuple(totals), leaders[0], bonuses, "most-cards")
        if rules.tie == "shared":  # 001: "the hand is awarded by all of them"
            return HandResult(seat_points, tuple(totals), None, bonuses, "shared", shared=tuple(tied))
        return HandResult(seat_points, tuple(totals), None, bonuses, "tie", rules.tie == "replay")

    def _bonuses(self) -> tuple[Bonus, ...]:
        rules, sides = self.rules, self._layout.sides
        out: list[Bonus] = []
        if rules.last_trick_bonus:
            last = self._claim[0] if self._claim is not None else (self._tricks[-1][2] if self._tricks else None)
            if last is not None and self._killer is None:
                out.append(Bonus(last % sides, rules.last_trick_bonus, "last trick"))
        if rules.pair_bonus:
            for side in range(sides):
                taken = set(self.captured(side))
                for suit in Suit:
                    if Card(Rank.KING, suit) in taken and Card(Rank.KNIGHT, suit) in taken:
                        trumps = suit is self.trump
                        out.append(Bonus(side, 40 if trumps else 20, f"king and knight of {suit.name_in('en')}"))
        return tuple(out)

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """The actions the seat to act may take now: each card it holds, and the exchange when allowed.

        ``seat``: the actions of that seat. A seat not to act has none, but its trump exchange under
        ``trump_exchange: out_of_turn`` (000: "at any time, even while playing a trick").
        """
        if seat is not None and seat != self._turn:
            return self._out_of_turn(seat)
        hand = self._hands[self._turn]  # every hand is empty once the hand is over
        give = self._give
        if give is not None and give in hand and self._may_exchange[self._turn]:
            return [*hand, EXCHANGES[give.card.index]]
        return hand[:]  # type: ignore[return-value]

    def _out_of_turn(self, seat: int) -> list[Action]:
        """What ``seat``, not the seat to act, may do now: its exchange under ``out_of_turn``, else nothing."""
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise RulesError(f"no seat {seat!r} in a {self.players}-player game")
        give = self._give
        if (give is not None and not self._over and self.rules.trump_exchange == "out_of_turn"
                and self._may_exchange[seat] and give in self._hands[seat]):
            return [EXCHANGES[give.card.index]]
        return []

    def is_legal(self, action: Action, seat: int | None = None) -> bool:
        """Whether ``action`` may be applied now (by ``seat``, by default the seat to act)."""
        return action in self.legal_actions(seat)

    # ------------------------------------------------------------------ moves

    def apply(self, action: Action | str, seat: int | None = None) -> None:
        """Apply ``action`` (an :class:`Action` or its notation) for the seat to act.

        ``seat`` names the seat that acts (by default the seat to act). Another seat may act only where
        the rules let it act out of turn: its trump exchange under ``trump_exchange: out_of_turn``; the
        history keeps who made it, and the turn does not move.

        Raises :class:`InvalidActionError` for something that is not an action and
        :class:`IllegalActionError` for an action the rules forbid now; the game is
        unchanged when either is raised.
        """
        if seat is not None and seat != self._turn:
            self._apply_out_of_turn(action, seat)
            return
        if action.__class__ is Play:
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
            self._may_exchange[winner] = True
            # The finished trick's list is kept as it is (never changed again) and a new one started.
            self._tricks.append((self._leader, trick, winner, points))
            self._trick = []
            stock = self._stock
            if stock:
                hands = self._hands
                order = self._draw_order[winner]
                pop = stock.pop
                for s in order:
                    hands[s].append(pop())
                if len(stock) <= self._give_until:
                    self._give = None
                    if not stock and self.turned is not None:
                        self._last_draw = (order[-1], hands[order[-1]][-1].card)
            elif not self._hands[winner]:
                self._over = True
            self._leader = self._turn = winner
        elif type(action) is Exchange:
            self._exchange(action)
        elif isinstance(action, str):
            self.apply(Action.parse(action))
        elif type(action) is Announce and self.rules.trump_exchange != "off" and self.turned is not None:
            raise IllegalActionError(f"the trump exchange is made at once in these rules, not announced"
                                     f" ('x{action.card}')")
        elif isinstance(action, Action):
            raise IllegalActionError(f"{action} is not an action of these rules")
        else:
            raise InvalidActionError(f"not an action: {action!r}")

    def _apply_out_of_turn(self, action: Action | str, seat: int) -> None:
        """``seat`` acts while another is to act: only its exchange under ``out_of_turn`` (000)."""
        if isinstance(action, str):
            action = Action.parse(action)
        if not isinstance(action, Action):
            raise InvalidActionError(f"not an action: {action!r}")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise InvalidActionError(f"no seat {seat!r} in a {self.players}-player game")
        if self._over:
            raise IllegalActionError("the hand is over")
        if type(action) is not Exchange or self.rules.trump_exchange != "out_of_turn":
            raise IllegalActionError(f"out of turn: seat {self._turn} is to act, not seat {seat}")
        self._exchange(action, seat)

    def _exchange(self, action: Exchange, seat: int | None = None) -> None:
        if self._over:
            raise IllegalActionError("the hand is over")
        if seat is None:
            seat = self._turn
        card = action.card
        rules = self.rules
        if rules.trump_exchange == "off" or self.turned is None:
            raise IllegalActionError("the trump exchange is not played in these rules")
        if rules.trump_exchange == "announced":
            raise IllegalActionError(f"under trump_exchange: announced the exchange is announced first, laying the"
                                     f" trump under the face-up card ('announce {card}')")
        stock = self._stock
        if not stock:
            raise IllegalActionError("the face-up trump has already been drawn")
        if not self._may_exchange[seat]:
            raise IllegalActionError(f"seat {seat} must win a trick before exchanging the trump")
        give = self._give
        face = stock[0]
        if give is None:
            if len(stock) <= self._give_until:
                raise IllegalActionError("the trump may not be exchanged in the last round of draws")
            raise IllegalActionError(f"the face-up {face.card} cannot be exchanged")
        if card is not give.card:
            raise IllegalActionError(f"the face-up {face.card} is taken with {give.card}, not {card}")
        hand = self._hands[seat]
        if give not in hand:
            raise IllegalActionError(f"seat {seat} does not hold {card}")
        hand.remove(give)
        hand.append(face)
        stock[0] = give
        self._set_face_up(exchanged=True)
        self._history.append((seat, action))
        self._exchanges.append(ExchangeEvent(seat, card, face.card))

    def undo(self) -> Action:
        """Take back the last action and return it (by replaying the rest from the deal)."""
        if not self._history:
            raise IllegalActionError("there is nothing to undo")
        *keep, (_seat, last) = self._history
        self._deal()
        for seat, action in keep:
            self.apply(action, seat)
        return last

    def clone(self) -> Game:
        """An independent copy, cheap enough for search."""
        g = object.__new__(type(self))
        g.rules = self.rules
        g.players = self.players
        g.dealer = self.dealer
        g.deal_number = self.deal_number
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
        g._may_exchange = self._may_exchange[:]
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
        g._give = self._give
        g._give_until = self._give_until
        g._signals = self._signals[:]
        g._turn_signals = self._turn_signals[:]
        g._arrastro_on = self._arrastro_on
        g._claim = self._claim
        g._killer = self._killer
        g._three_out = self._three_out
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
            seat_points=self._view_points(seat),
            history=tuple((s, a) for s, a in self._history if not self._hidden_from(seat, s, a)),
            exchanges=tuple(self._exchanges),
            known=self._known_cards(seat),
            signals=tuple((s, n) for s, n, _t, _a in self._visible_signal_list(seat)),
            arrastro=self._arrastro_on,
            legal_actions=tuple(self.legal_actions()) if mine else (),
            out_of_turn=tuple(self._out_of_turn(seat)) if seat is not None and seat != self._turn else (),
            result=self.result(),
            deal_number=self.deal_number,
            received=self.received(seat) if seat is not None else (),
            seen_dealt=self._seen_dealt(seat),
            **self._view_extras(seat),
        )

    def _view_extras(self, seat: int | None) -> dict[str, Any]:
        """View fields only some rules fill in (auctions, declarations)."""
        return {}

    def _view_points(self, seat: int | None) -> tuple[int, ...]:
        """The card points each seat has taken, as ``seat`` may know them."""
        return tuple(self._points)

    def _hidden_from(self, viewer: int | None, seat: int, action: Action) -> bool:
        """Whether an action in the history is hidden from ``viewer`` (signals not meant for it, others' discards)."""
        if type(action) is Signal:
            return not self._can_see_signal(viewer, seat, action.aloud)
        return type(action) is Discard and viewer != seat

    def _seen_dealt(self, viewer: int | None) -> tuple[tuple[int, Card], ...]:
        """Under ``deal_look``, every card dealt to the viewer's partners (those since played included)."""
        if viewer is None or not self.rules.deal_look or self.rules.open_hands:
            return ()
        mine = self.side_of(viewer)
        return tuple(
            (s, c) for s in range(self.players) if s != viewer and self.side_of(s) == mine for c in self.dealt_hand(s)
        )

    def _can_see_signal(self, viewer: int | None, signaller: int, aloud: bool = False) -> bool:
        """Open talk (and a signal said aloud under ``combination``) is heard by all; a signal is seen by partners."""
        mode = self.rules.signals
        if mode == "open" or (aloud and mode == "combination"):
            return True
        return viewer is not None and mode != "off" and self.side_of(viewer) == self.side_of(signaller)

    def _visible_signal_list(self, viewer: int | None) -> list[tuple[int, str, int, bool]]:
        return [sig for sig in self._signals if self._can_see_signal(viewer, sig[0], sig[3])]

    def _known_cards(self, viewer: int | None) -> tuple[tuple[int, Card], ...]:
        """Cards ``viewer`` knows are in another hand now.

        Public: exchanged-in face-up cards and the last card drawn. By the rules:
        every hand under ``open_hands``; partners' dealt cards under ``deal_look``;
        partners' hands once the stock is gone under ``partners_look``.
        """
        rules = self.rules
        known: list[tuple[int, Card]] = [(e.seat, e.taken) for e in self._exchanges]
        if self._last_draw is not None:
            known.append(self._last_draw)
        partners = () if viewer is None else tuple(
            s for s in range(self.players) if s != viewer and self.side_of(s) == self.side_of(viewer)
        )
        if rules.open_hands:
            known.extend((s, a.card) for s in range(self.players) for a in self._hands[s])
        else:
            if rules.deal_look:
                known.extend((s, c) for s in partners for c in self.dealt_hand(s))
            if rules.partners_look and not self._stock:
                known.extend((s, a.card) for s in partners for a in self._hands[s])
        out: list[tuple[int, Card]] = []
        for s, c in known:
            if s != viewer and PLAYS[c.index] in self._hands[s] and (s, c) not in out:
                out.append((s, c))
        return tuple(out)

    def __repr__(self) -> str:
        state = "over" if self._over else f"turn {self._turn}"
        trump = self.trump.letter if self.trump is not None else "-"
        return (
            f"<Game {self.rules.variant} players={self.players} dealer={self.dealer} "
            f"trump={trump} trick {len(self._tricks) + 1}, {state}>"
        )


class RuledGame(Game):
    """A hand under rules beyond the plain game: duties of play, arrastro, claims, signals, muerte al tres.

    Every action is checked against :meth:`legal_actions`, and cards are then played
    through the plain game's path, so tricks, draws and scoring have one implementation.
    """

    __slots__ = (
        "_phase", "_bids", "_passed", "_high", "_contract", "_talon", "_discards", "_shown", "_declared",
        "_pending", "_dealt", "_blind", "_way", "_window", "_marking", "_announced", "_taken_back",
    )

    def _deal(self) -> None:
        n = self.players
        rules = self.rules
        # Under deal: cutter_chooses nothing is dealt until the cutter has chosen the way (source 003).
        self._way = "" if rules.deal == "cutter_chooses" else rules.deal
        self._phase = "cut" if not self._way else "bid" if rules.auction else "play"
        # Vales marked after a seat's card is down: the seats still to be asked, and what the window is about.
        self._window: list[int] = []
        self._marking: _Marking | None = None
        self._bids: list[tuple[int, Action]] = []
        self._passed = [False] * n
        self._high: tuple[int, int] | None = None
        self._contract: Contract | None = None
        self._talon: tuple[Card, ...] = ()
        self._discards: tuple[Card, ...] = ()
        self._shown: tuple[tuple[int, Card], ...] = ()
        self._declared: list[tuple[int, Suit, int]] = []
        self._pending: Suit | None = None
        self._dealt: tuple[tuple[Card, ...], ...] = ()
        #: Under ``call_time: after_first_trick``, the auction's winner while his call waits for the first trick.
        self._blind: int | None = None
        #: ``trump_exchange: announced`` (001): the seat whose trump lies under the face-up card, and that trump;
        #: the trumps that went back to their announcers' hands (public: they lay face up).
        self._announced: tuple[int, Card] | None = None
        self._taken_back: list[tuple[int, Card]] = []
        super()._deal()
        self._signals = []
        self._turn_signals = []
        if self._phase == "cut":
            self._turn = self.cutter

    @property
    def deal_way(self) -> str:
        return self._way

    def _deal_cards(self) -> None:
        rules = self.rules
        if not rules.dealt_out:
            super()._deal_cards()
            return
        n, order, d, hs = self.players, self._order, self.dealer, rules.hand_size
        way = self._way
        if not way:  # the cutter has not chosen yet: the deck lies cut, undealt (bottom first, as a stock)
            self._hands = [[] for _ in range(n)]
            self._dealt = ()
            self._talon = ()
            self._shown = ()
            self._stock = list(order[::-1])
            self.turned = None
            self.trump = None  # type: ignore[assignment]
            return
        hands: list[list[Play]] = [[] for _ in range(n)]
        seats = [(d + 1 + k) % n for k in range(n)]  # the dealer last
        opponents = {s for s in range(n) if self.side_of(s) != self.side_of(d)}
        shown: list[tuple[int, Card]] = []
        trump_card: Play | None = order[n * hs - 1] if rules.trump_from == "dealer" else None
        if way == "alce":  # packets of 5 round the table, the dealer's last card turned (source 003)
            for i, start in enumerate(range(0, n * hs, 5)):
                hands[seats[i % n]].extend(order[start:start + 5])
        elif way == "golpe":  # 10 in a row to each; the last card of each opponent's packet shown
            for k, seat in enumerate(seats):
                hands[seat] = list(order[k * hs:(k + 1) * hs])
                if seat in opponents:
                    shown.append((seat, order[(k + 1) * hs - 1].card))
        elif way == "pelada":  # the top card is trump; opponents' first cards shown while trumps
            trump_card = order[0]
            for k, seat in enumerate(seats):
                hands[seat] = list(order[1 + k * hs:1 + (k + 1) * hs])
            hands[d].append(trump_card)
            for seat in seats:
                if seat in opponents:
                    for a in hands[seat]:
                        shown.append((seat, a.card))
                        if a.card.suit is not trump_card.card.suit:
                            break
        else:
            for k in range(n):
                hands[seats[k]] = list(order[k:n * hs:n])
        self._hands = hands
        self._dealt = tuple(tuple(a.card for a in h) for h in hands)
        self._talon = tuple(a.card for a in order[n * hs:])
        self._shown = tuple(shown)
        self._stock = []
        if trump_card is not None:
            self.turned = trump_card.card
            self.trump = trump_card.card.suit
        else:  # named or called after the auction
            self.turned = None
            self.trump = None  # type: ignore[assignment]

    # ------------------------------------------------------------ dealt-out hands

    def dealt_hand(self, seat: int) -> tuple[Card, ...]:
        if self._dealt:
            return self._dealt[seat]
        return super().dealt_hand(seat)

    def received(self, seat: int) -> tuple[Card, ...]:
        if not self.rules.dealt_out:
            return super().received(seat)
        if not self._dealt:  # not dealt yet (the cutter is choosing)
            return ()
        mine = self._dealt[seat]
        if self._contract is not None and self._contract.declarer == seat and self.rules.talon:
            mine = (*mine, *self._talon)
        return mine

    @property
    def phase(self) -> str:
        """``cut`` (the cutter chooses the deal), ``bid``, ``discard``, ``trump``, ``call`` (the auction and what
        follows it), ``play``, or ``mark`` (seats whose card is down may still mark a vale).

        Under ``call_time: after_first_trick`` (Chiamata Buia) the auction is followed by ``play`` with no trump,
        and the ``call`` phase comes once the first trick is over.
        """
        return self._phase

    @property
    def contract(self) -> Contract | None:
        """The contract once the auction is over (engine-level: the partner is always filled in)."""
        return self._contract

    @property
    def talon(self) -> tuple[Card, ...]:
        """The talon as dealt. Engine-level access: views show it once the auction's winner has taken it."""
        return self._talon

    @property
    def discards(self) -> tuple[Card, ...]:
        """The cards the declarer laid into his scoring pile. Engine-level access."""
        return self._discards

    def _view_points(self, seat: int | None) -> tuple[int, ...]:
        points = list(self._points)
        if self._discards and not self._over:
            # The discards lie face down in the declarer's pile: others learn their points at the count.
            declarer = next(s for s, a in self._history if type(a) is Discard)
            if seat != declarer:
                points[declarer] -= sum(self._ptable[x.index] for x in self._discards)
        return tuple(points)

    def _view_extras(self, seat: int | None) -> dict[str, Any]:
        contract = self._contract
        if contract is not None and contract.called is not None:
            played = {c for t in self._tricks for c in t[1]}
            played.update(self._trick)
            if contract.called not in played:
                contract = dataclasses.replace(contract, partner=None)
        return {
            "phase": self._phase,
            "bids": tuple(self._bids),
            "contract": contract,
            "talon": self._talon if self._phase != "bid" else (),
            # The declarer's own, from the moment he lays them down (before the trump and the contract).
            "discards": self._discards if seat is not None and any(
                s == seat and type(a) is Discard for s, a in self._history) else (),
            "declarations": tuple((s, suit) for s, suit, _t in self._declared),
            "shown": self._shown,
            "deal_way": self._way,
            "announced": self._announced,
        }

    @property
    def announced(self) -> tuple[int, Card] | None:
        """``(seat, card)``: the trump laid under the face-up card, while the exchange it announces waits."""
        return self._announced

    @property
    def taken_back(self) -> tuple[tuple[int, Card], ...]:
        """``(seat, card)``: announced trumps that went back to their seats' hands, the face-up card drawn first."""
        return tuple(self._taken_back)

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        if seat is not None and seat != self._turn:
            return self._out_of_turn(seat)
        if self._over:
            return []
        if self._phase == "mark":
            marking = self._marking
            assert marking is not None
            return [*(Declare(suit) for suit in self._markable(self._turn, marking)), PASS]
        if self._phase == "cut":
            return [Cut(way) for way in self.rules.cut_ways]
        if self._phase != "play":
            return self._auction_actions()
        seat = self._turn
        hand = self._hands[seat]
        plays = self._playable(hand)
        actions: list[Action] = list(plays)
        rules = self.rules
        if rules.declarations != "off":
            actions.extend(self._declarable(seat, hand, plays))
        if rules.arrastro and not self._trick and self.trump is not None:
            ace = PLAYS[Card(Rank.ACE, self.trump).index]
            if ace in plays:
                actions.append(ARRASTROS[ace.card.index])
        give = self._give
        if give is not None and give in hand:
            if rules.trump_exchange != "announced":
                if self._may_exchange[seat]:
                    actions.append(EXCHANGES[give.card.index])
            elif self._announced is None and len(hand) > 1:  # (a card kept to play)
                actions.append(ANNOUNCES[give.card.index])
        if rules.claim and not self._stock and not self._trick and self._claim_holds(seat):
            actions.append(CLAIM)
        if rules.signals != "off" and self._layout.sides < self.players:
            names = [n for n in self._truthful_signals(hand) if n not in self._turn_signals]
            actions.extend(Signal(n) for n in names)
            if rules.signals == "combination":
                actions.extend(Signal(n, aloud=True) for n in names)
        return actions

    def _playable(self, hand: list[Play]) -> list[Play]:
        """The cards the seat may play under the duties in force."""
        rules, trick, strength = self.rules, self._trick, self._strength
        cands = hand
        if trick and self._arrastro_on:
            trumps = [a for a in hand if a.card.suit is self.trump]
            if trumps:
                cands = [max(trumps, key=lambda a: strength[a.card.index])]
            else:
                top = max(strength[a.card.index] for a in hand)
                cands = [a for a in hand if strength[a.card.index] == top]
        elif trick and rules.follow != "none" and (rules.follow_from == "start" or not self._stock):
            led = trick[0].suit
            same = [a for a in hand if a.card.suit is led]
            best = self._best
            # descanso (source 003): the duties to beat and to trump are owed to the opponents' cards.
            mate = rules.follow == "descanso" and self.side_of(self._best_seat) == self.side_of(self._turn)
            if same:
                cands = same
                if rules.follow in ("suit_beat_trump", "descanso") and best.suit is led and not mate:
                    beaters = [a for a in same if strength[a.card.index] > strength[best.index]]
                    cands = beaters or same
            elif rules.follow in ("suit_trump", "suit_beat_trump") or (
                rules.follow == "descanso" and not (mate and best.suit is not self.trump)
            ):
                cands = [a for a in hand if a.card.suit is self.trump] or hand
        elif not trick and (self._way == "pelada" or rules.lead_two == "guarded"):
            cands = self._lead_duties(hand)
        if self._pending is not None:  # a pair was declared: one of its cards is played now
            pair = (Card(Rank.KING, self._pending), Card(Rank.KNIGHT, self._pending))
            cands = [a for a in cands if a.card in pair]
        if rules.kill_three and not self._three_out and len(hand) > 1 and self.trump is not None:
            ace = PLAYS[Card(Rank.ACE, self.trump).index]
            if ace in cands:
                # The ace of trumps is a prisoner: this comes before any duty of play.
                cands = [a for a in cands if a is not ace] or [a for a in hand if a is not ace]
        return cands if cands is not hand else hand[:]

    def _lead_duties(self, hand: list[Play]) -> list[Play]:
        """Source 003: the cutter leads a trump in pelada, and a 2 is led only in the cases it lists."""
        seat, trump, rules = self._turn, self.trump, self.rules
        first = not self._tricks and seat == (self.dealer + 1) % self.players
        cands = hand
        if self._way == "pelada" and first:
            cands = [a for a in hand if a.card.suit is trump] or hand
        if rules.lead_two != "guarded":
            return cands
        ok = [a for a in cands if a.card.rank != Rank.TWO or self._may_lead_two(seat, a.card, cands, first)]
        return ok or cands  # nothing else to lead (the last trick, or only 2s)

    def _may_lead_two(self, seat: int, two: Card, cands: list[Play], first: bool) -> bool:
        suit = two.suit
        ace = Card(Rank.ACE, suit)
        if PLAYS[ace.index] in self._hands[seat]:
            return True
        n = self.players
        for leader, cards, _w, _p in self._tricks:
            if ace in cards:
                return True
            if cards[0].suit is suit:
                for i, c in enumerate(cards):
                    s = (leader + i) % n
                    if s != seat and self.side_of(s) == self.side_of(seat) and c.suit is not suit:
                        return True  # the partner has shown he lacks the suit
        # The cutter's only trump, which pelada makes him lead.
        return self._way == "pelada" and first and suit is self.trump and len(cands) == 1

    def _declarable(self, seat: int, hand: list[Play], plays: list[Play]) -> list[Action]:
        """The king-knight pairs ``seat`` may declare now."""
        done = {suit for _s, suit, _t in self._declared}
        held = {a.card for a in hand}
        out: list[Action] = []
        if self.rules.declarations == "on_lead":
            if self._trick or self._pending is not None or not any(t[2] == seat for t in self._tricks):
                return out
            for suit in Suit:
                if suit not in done and Card(Rank.KING, suit) in held and Card(Rank.KNIGHT, suit) in held:
                    out.append(Declare(suit))
            return out
        n, leader = self.players, self._leader
        mine = self.side_of(seat)
        ours = {c for i, c in enumerate(self._trick) if self.side_of((leader + i) % n) == mine}
        playable = {a.card for a in plays}
        for suit in Suit:
            if suit in done:
                continue
            pair = {Card(Rank.KING, suit), Card(Rank.KNIGHT, suit)}
            # Shown by the side in this trick (003: 'su pareja lo marca'), the rest of the pair in this hand.
            shown_by_side = bool(pair & ours) and pair <= ours | held
            both = pair <= held and bool(pair & playable)
            if shown_by_side or (both and self._pending is None):
                out.append(Declare(suit))
        return out

    def _markable(self, seat: int, marking: _Marking) -> list[Suit]:
        """The pairs ``seat``, its card down in the trick, may still mark (003: until the trick is gathered)."""
        n, leader, cards = self.players, marking.leader, marking.cards
        if (seat - leader) % n >= len(cards):
            return []
        done = {suit for _s, suit, _t in self._declared}
        mine = self.side_of(seat)
        ours = {c for i, c in enumerate(cards) if self.side_of((leader + i) % n) == mine}
        held = marking.held[seat]
        out = []
        for suit in Suit:
            pair = {Card(Rank.KING, suit), Card(Rank.KNIGHT, suit)}
            if suit not in done and pair & ours and pair <= ours | held:
                out.append(suit)
        return out

    def _window_seats(self, t: int, leader: int, cards: tuple[Card, ...]) -> list[int]:
        """The seats asked whether they mark a vale after a card: from public facts only (who played a king or a
        knight of a pair not declared nor broken), so that being asked tells nobody what a seat holds."""
        n = self.players
        done = {suit for _s, suit, _t in self._declared}
        gone = {c for trick in self._tricks[:t] for c in trick[1]}
        sides: set[int] = set()
        for i, c in enumerate(cards):
            if c.rank not in (Rank.KING, Rank.KNIGHT) or c.suit in done:
                continue
            side = self.side_of((leader + i) % n)
            other = Card(Rank.KNIGHT if c.rank == Rank.KING else Rank.KING, c.suit)
            if other in gone:
                continue
            if other in cards and self.side_of((leader + cards.index(other)) % n) != side:
                continue
            sides.add(side)
        return [(leader + i) % n for i in range(len(cards)) if self.side_of((leader + i) % n) in sides]

    def _open_window(self, t: int, leader: int, cards: tuple[Card, ...], held: tuple[frozenset[Card], ...]) -> None:
        """After a card, ask the seats whose card is down whether they mark a vale (``phase`` becomes ``mark``)."""
        if self._killer is not None or self._claim is not None:
            return
        seats = self._window_seats(t, leader, cards)
        if not seats:
            return
        self._marking = _Marking(t, leader, cards, held, self._turn, self._over, self._phase)
        self._over = False
        self._phase = "mark"
        self._window = seats
        self._turn = seats[0]

    def _next_in_window(self) -> None:
        window = self._window
        window.pop(0)
        if window:
            self._turn = window[0]
            return
        marking = self._marking
        assert marking is not None
        self._phase = marking.then
        self._turn = marking.resume
        self._over = marking.end
        self._marking = None

    def _auction_actions(self) -> list[Action]:
        rules, phase, seat = self.rules, self._phase, self._turn
        if phase == "bid":
            if rules.bidding == "low_card":
                strength = self.rules.strength_table
                ranks = [r for r in rules.strength_order()]
                if self._high is not None:
                    low = strength[Card(self._high[1], Suit.OROS).index]
                    ranks = [r for r in ranks if strength[Card(r, Suit.OROS).index] < low]
                return [PASS, *(RankBid(r) for r in ranks)]
            out: list[Action] = []
            left = self._passed.count(False)
            if not (rules.all_pass == "last_must_bid" and self._high is None and left == 1):
                out.append(PASS)
            low = rules.min_bid if self._high is None else self._high[1] + rules.bid_step
            out.extend(Bid(v) for v in range(low, rules.max_bid + 1, rules.bid_step))
            return out
        if phase == "discard":
            hand = sorted(a.card for a in self._hands[seat])
            return [Discard(*combo) for combo in itertools.combinations(hand, len(self._talon))]
        if phase == "trump":
            return [TrumpChoice(suit) for suit in Suit]
        if self._tricks:  # a call after the first trick names a card still in a hand
            played = {c for t in self._tricks for c in t[1]}
            return [CALLS[c.index] for c in self._layout.cards if c not in played]
        return [CALLS[c.index] for c in self._layout.cards]  # call

    def _claim_holds(self, seat: int) -> bool:
        """Whether ``seat`` can show its side holds the best trumps still out, one for every trick left.

        Only what the seat itself knows counts: its own hand and partner cards the rules let
        it see. A claim that hung on a partner's hidden cards would tell the seat about them.
        """
        tricks_left = len(self._hands[seat])
        if tricks_left == 0:
            return False
        trump, strength = self.trump, self._strength
        ours = {a.card for a in self._hands[seat]}
        ours.update(c for s, c in self._known_cards(seat) if self.side_of(s) == self.side_of(seat))
        # With the stock gone, every trump not yet played is in some hand: public knowledge.
        played = {c for t in self._tricks for c in t[1]}
        out = sorted((c for c in self._layout.cards if c.suit is trump and c not in played),
                     key=lambda c: -strength[c.index])
        return len(out) >= tricks_left and all(c in ours for c in out[:tricks_left])

    def _truthful_signals(self, hand: list[Play]) -> list[str]:
        """The signals of the rules' set that ``hand`` makes true (asks too, where asking is allowed)."""
        rules, trump = self.rules, self.trump
        names = SIGNAL_SETS[rules.signal_set]
        trumps = {a.card.rank for a in hand if a.card.suit is trump}
        out = [name for name, rank in SIGNAL_RANKS.items() if rank in trumps and name in names]
        if "small-trumps" in names and trumps - {Rank.ACE, Rank.THREE, Rank.KING, Rank.KNIGHT, Rank.JACK}:
            out.append("small-trumps")
        if "briscas" in names and any(
                a.card.suit is not trump and a.card.rank in (Rank.ACE, Rank.THREE) for a in hand):
            out.append("briscas")
        if "high-card" in names:
            top = rules.strength_order()[:2]  # the carichi: ace and three in Briscola
            if any(a.card.suit is not trump and a.card.rank in top for a in hand):
                out.append("high-card")
        if "no-trumps" in names and not trumps:
            out.append("no-trumps")
        if rules.signal_asks:
            out += [name for name in names if name in ASK_SIGNALS]
        return out

    def apply(self, action: Action | str, seat: int | None = None) -> None:
        if seat is not None and seat != self._turn:
            self._apply_out_of_turn(action, seat)
            return
        if isinstance(action, str):
            action = Action.parse(action)
        if not isinstance(action, Action):
            raise InvalidActionError(f"not an action: {action!r}")
        if self._over:
            raise IllegalActionError("the hand is over")
        if action not in self.legal_actions():
            raise IllegalActionError(self._why_illegal(action))
        seat = self._turn
        kind = type(action)
        if self._phase == "mark":
            self._history.append((seat, action))
            marking = self._marking
            assert marking is not None
            if kind is Declare:
                self._declared.append((seat, action.suit, marking.t))  # type: ignore[attr-defined]
                if self._markable(seat, marking):
                    return
            self._next_in_window()
        elif kind is Cut:
            self._history.append((seat, action))
            self._way = action.way  # type: ignore[attr-defined]
            self._deal_cards()
            self._phase = "play"
            self._leader = self._turn = (self.dealer + 1) % self.players
        elif kind is Play or kind is Arrastro:
            card = action.card  # type: ignore[attr-defined]
            tricks_before = len(self._tricks)
            stock_before = len(self._stock)
            vales = self.rules.declarations == "vales"
            if vales:
                leader, cards = self._leader, (*self._trick, card)
                held = tuple(frozenset(a.card for a in h if a.card is not card) for h in self._hands)
            Game.apply(self, PLAYS[card.index])
            if kind is Arrastro:
                self._history[-1] = (seat, action)
                self._arrastro_on = True
            self._turn_signals.clear()
            self._pending = None
            if card.suit is self.trump and card.rank == Rank.THREE:
                self._three_out = True
            if len(self._tricks) > tricks_before:
                self._after_trick(len(self._stock) < stock_before)
                if self._announced is not None:
                    self._settle_announcement()
                if self._blind is not None and not self._over:
                    # Chiamata Buia: the first trick is over, and the bidder calls now.
                    self._phase = "call"
                    self._turn = self._blind
            if vales:
                self._open_window(tricks_before, leader, cards, held)
        elif kind is Exchange:
            self._exchange(action)  # type: ignore[arg-type]
        elif kind is Announce:
            card = action.card  # type: ignore[attr-defined]
            self._hands[seat].remove(PLAYS[card.index])
            self._announced = (seat, card)
            self._history.append((seat, action))
        elif kind is Claim:
            self._do_claim(seat)
        elif kind is Signal:
            name = action.name  # type: ignore[attr-defined]
            self._signals.append((seat, name, len(self._tricks), action.aloud))  # type: ignore[attr-defined]
            self._turn_signals.append(name)
            self._history.append((seat, action))
        elif kind is Declare:
            suit = action.suit  # type: ignore[attr-defined]
            in_trick = {c for c in self._trick if c.suit is suit and c.rank in (Rank.KING, Rank.KNIGHT)}
            self._declared.append((seat, suit, len(self._tricks)))
            if not in_trick:
                self._pending = suit
            self._history.append((seat, action))
        else:
            self._history.append((seat, action))
            self._auction_step(seat, action)

    def _settle_announcement(self) -> None:
        """After a trick, the exchange announced (001): the announcer that won it takes the face-up card, its trump
        staying in the stock in its place, as the trick is won and before the draw ("the next time after the player
        wins a trick, before the stock on the table is finished, he can add the face-up trump to his hand"); once
        the face-up card has been drawn ("If he does not win any trick before the face-up trump is drawn from the
        stock, then, he simply takes his two or seven back"), or the hand ended at once, the trump goes back."""
        assert self._announced is not None
        seat, card = self._announced
        given = PLAYS[card.index]
        hands, stock = self._hands, self._stock
        if self._killer is None and self._tricks[-1][2] == seat:
            hand = hands[seat]
            if stock:
                face = stock[0]
                stock[0] = given
            else:  # this trick's draws emptied the stock: the last to draw draws the trump, not the face-up card
                last = self._draw_order[seat][-1]
                face = hands[last].pop()
                hands[last].append(given)
                self._last_draw = (last, card)
            hand.insert(len(hand) - 1, face)  # taken before the card the winner then drew
            self._exchanges.append(ExchangeEvent(seat, card, face.card))
            self._set_face_up(exchanged=True)
        elif not stock or self._killer is not None:
            hands[seat].append(given)
            self._taken_back.append((seat, card))
        else:
            return
        self._announced = None

    def _auction_step(self, seat: int, action: Action) -> None:
        rules, n = self.rules, self.players
        kind = type(action)
        if kind is Pass or kind is Bid or kind is RankBid:
            self._bids.append((seat, action))
            if kind is Pass:
                self._passed[seat] = True
            else:
                value = action.points if kind is Bid else action.rank  # type: ignore[attr-defined]
                self._high = (seat, value)
            if rules.bidding == "low_card":
                if len(self._bids) < n:
                    self._turn = (seat + 1) % n
                    return
                winner = None if self._high is None else self._high[0]
            else:
                left = [s for s in range(n) if not self._passed[s]]
                high = self._high
                if left and not (len(left) == 1 and high is not None and high[0] == left[0]):
                    nxt = (seat + 1) % n
                    while self._passed[nxt]:
                        nxt = (nxt + 1) % n
                    self._turn = nxt
                    return
                winner = left[0] if left else None
            if winner is None:  # everybody passed: the hand is void
                self._over = True
                return
            self._turn = winner
            if rules.talon:
                self._phase = "discard"
                self._hands[winner].extend(PLAYS[c.index] for c in self._talon)
            elif rules.trump_from == "named" or rules.bidding == "low_card":
                self._phase = "trump"
            elif rules.call_time == "after_first_trick":
                # 000, Chiamata Buia: the bidder leads a first trick with no trump; he calls once it is over.
                self._blind = winner
                self._phase = "play"
                self._leader = winner
            else:
                self._phase = "call"
        elif kind is Discard:
            cards = action.cards  # type: ignore[attr-defined]
            hand = self._hands[seat]
            for c in cards:
                hand.remove(PLAYS[c.index])
            self._discards = cards
            self._points[seat] += sum(self._ptable[c.index] for c in cards)
            self._phase = "trump"
        elif kind is TrumpChoice:
            suit = action.suit  # type: ignore[attr-defined]
            called = Card(self._high[1], suit) if rules.bidding == "low_card" else None  # type: ignore[index]
            self._start_play(seat, suit, called)
        elif kind is Call:
            card = action.card  # type: ignore[attr-defined]
            self._start_play(seat, card.suit, card)

    def _start_play(self, declarer: int, trump: Suit, called: Card | None) -> None:
        rules = self.rules
        self.trump = trump
        partner = None
        if called is not None:
            partner = next(s for s in range(self.players) if PLAYS[called.index] in self._hands[s])
        bid = next(a for s, a in reversed(self._bids) if s == declarer and type(a) is not Pass)
        points = bid.points if type(bid) is Bid else rules.min_bid
        self._contract = Contract(declarer, bid, points, trump, called, partner)
        self._phase = "play"
        if self._blind is not None:  # called after the first trick: its winner leads the second
            self._blind = None
            self._turn = self._leader
        else:
            self._leader = self._turn = declarer

    def clone(self) -> Game:
        g = super().clone()
        assert isinstance(g, RuledGame)
        g._phase = self._phase
        g._bids = self._bids[:]
        g._passed = self._passed[:]
        g._high = self._high
        g._contract = self._contract
        g._talon = self._talon
        g._discards = self._discards
        g._shown = self._shown
        g._declared = self._declared[:]
        g._pending = self._pending
        g._dealt = self._dealt
        g._blind = self._blind
        g._way = self._way
        g._window = self._window[:]
        g._marking = self._marking
        g._announced = self._announced
        g._taken_back = self._taken_back[:]
        return g

    __copy__ = clone

    def result(self) -> HandResult | None:
        if not self._over:
            return None
        rules = self.rules
        if rules.contract != "off":
            return self._contract_result()
        out = super().result()
        if out is not None and rules.capote and len(self._tricks) * self.players == len(self._order) - len(self._talon):
            sides = {t[2] % self._layout.sides for t in self._tricks}
            if len(sides) == 1:
                out = dataclasses.replace(out, winner=sides.pop(), reason="capote", shared=())
        return out

    def _contract_result(self) -> HandResult:
        n = self.players
        bonuses = self._bonuses()
        totals = list(self._points)
        for b in bonuses:
            totals[b.side] += b.points
        seat_points = tuple(self._points)
        c = self._contract
        if c is None:
            return HandResult(seat_points, tuple(totals), None, bonuses, "all-passed", scores=(0,) * n)
        side = c.side()
        made = sum(totals[s] for s in side) >= c.points
        scores = [0] * n
        if self.rules.contract == "solo":
            for s in range(n):
                if made:
                    scores[s] = c.points if s == c.declarer else 0
                else:
                    scores[s] = 0 if s == c.declarer else c.points // 2
        else:
            for s in range(n):
                value = (4 if c.alone else 2) if s == c.declarer else 1 if s == c.partner else -1
                scores[s] = value if made else -value
        return HandResult(
            seat_points, tuple(totals), c.declarer if made else None, bonuses, "made" if made else "set",
            scores=tuple(scores), contract=c,
        )

    def _bonuses(self) -> tuple[Bonus, ...]:
        out = list(super()._bonuses())
        sides = self._layout.sides
        for seat, suit, t in self._declared:
            points = 40 if suit is self.trump else 20
            if self.rules.declarations == "vales":
                if t >= len(self._tricks):
                    continue  # the trick was never finished (a claim ended the hand)
                side = self._tricks[t][2] % sides
            else:
                side = seat % sides
            out.append(Bonus(side, points, f"king and knight of {suit.name_in('en')} declared"))
        return tuple(out)

    def _known_cards(self, viewer: int | None) -> tuple[tuple[int, Card], ...]:
        known = super()._known_cards(viewer)
        extra = [*self._shown, *self._taken_back]
        if self.rules.trump_from == "dealer" and self.turned is not None:
            extra.append((self.dealer, self.turned))
        if not extra:
            return known
        out = list(known)
        for s, c in extra:
            if s != viewer and PLAYS[c.index] in self._hands[s] and (s, c) not in out:
                out.append((s, c))
        return tuple(out)

    def _after_trick(self, drew: bool) -> None:
        self._arrastro_on = False
        leader, cards, winner, _points = self._tricks[-1]
        if self.rules.kill_three and self.trump is not None:
            ace, three = Card(Rank.ACE, self.trump), Card(Rank.THREE, self.trump)
            if ace in cards and three in cards:
                self._killer = (leader + cards.index(ace)) % self.players
                self._over = True
                if drew:  # the hand ends at once: the cards just drawn go back on the stock
                    for s in reversed(self._draw_order[winner]):
                        self._stock.append(self._hands[s].pop())
                    self._last_draw = None

    def _do_claim(self, seat: int) -> None:
        cards = tuple(a.card for h in self._hands for a in h)
        points = sum(self._ptable[c.index] for c in cards)
        self._points[seat] += points
        self._claim = (seat, cards, points)
        for h in self._hands:
            h.clear()
        self._history.append((seat, CLAIM))
        self._over = True

    def _why_illegal(self, action: Action) -> str:
        """A precise reason why ``action`` is not legal now (for messages and records)."""
        seat, rules = self._turn, self.rules
        hand = self._hands[seat]
        auction_kinds = (Bid, RankBid, Pass, Discard, TrumpChoice, Call)
        if self._phase == "cut":
            ways = ", ".join(rules.cut_ways)
            if isinstance(action, Cut):
                return f"the cutter chooses among {ways}, not {action.way}"
            return f"seat {seat} cuts the deck: it chooses how it is dealt ({ways}), like 'cut {rules.cut_ways[0]}'"
        if self._phase == "mark":
            if isinstance(action, Declare):
                return (f"seat {seat} may mark only a pair one of whose cards its side played in this trick, holding"
                        " the other (or its side played both)")
            return f"seat {seat}'s card is down: it may mark a vale ('declare O') or pass"
        if isinstance(action, Cut):
            return "the deck is cut before the deal, and only under 'deal: cutter_chooses'"
        if self._phase != "play":
            return self._why_illegal_in_auction(action)
        if isinstance(action, Call) and self._blind is not None:
            return (f"seat {self._blind} calls a card once the first trick is over (call_time: after_first_trick):"
                    f" seat {seat} plays a card now")
        if isinstance(action, auction_kinds):
            return f"the auction is over: seat {seat} plays a card"
        if isinstance(action, Declare):
            if rules.declarations == "off":
                return "declarations are not played in these rules"
            if action.suit in {suit for _s, suit, _t in self._declared}:
                return f"the king and knight of {action.suit.name_in('en')} have already been declared"
            if rules.declarations == "on_lead":
                return ("a pair is declared by its holder when he leads one of its cards, after winning a trick,"
                        " holding the king and the knight")
            return ("a pair is declared in the trick where one of its cards is played, by a seat holding the other"
                    " (or both, playing one of them now)")
        if isinstance(action, Announce):
            return self._why_not_announce(action)
        if isinstance(action, Exchange):
            try:
                self.clone()._exchange(action)
            except IllegalActionError as exc:
                return str(exc)
            return f"seat {seat} may not exchange now"
        if isinstance(action, Play | Arrastro):
            card = action.card
            if PLAYS[card.index] not in hand:
                return f"seat {seat} does not hold {card}"
            if isinstance(action, Arrastro):
                if not rules.arrastro:
                    return "arrastro is not played in these rules"
                if self.trump is None:
                    return "there is no trump suit yet: arrastro is called with the ace of trumps"
                if self._trick or card != Card(Rank.ACE, self.trump):
                    return "arrastro is called only when leading the ace of trumps"
            allowed = " ".join(str(a.card) for a in self._playable(hand))
            if self._trick and self._arrastro_on:
                return f"arrastro: seat {seat} must play its best card ({allowed})"
            if rules.kill_three and self.trump is not None and card == Card(Rank.ACE, self.trump) and (
                    not self._three_out):
                return "the ace of trumps may not be played before the three of trumps (except in the last trick)"
            return f"seat {seat} must play one of {allowed} ({rules.follow.replace('_', ' ')} duty)"
        if isinstance(action, Claim):
            if not rules.claim:
                return "claims are not played in these rules"
            if self._stock or self._trick:
                return "a claim is made when leading, once the stock is gone"
            return (f"the claim does not hold: seat {seat} cannot show its side holds the best trumps"
                    " for every trick left")
        if isinstance(action, Signal):
            if rules.signals == "off" or self._layout.sides == self.players:
                return "signals are not played in these rules"
            if action.name not in SIGNAL_SETS[rules.signal_set]:
                return f"{action.name} is not one of the {rules.signal_set} signals"
            if action.name in ASK_SIGNALS and not rules.signal_asks:
                return f"nobody may ask for signals in these rules ({action.name})"
            if action.aloud and rules.signals != "combination":
                return "signals are said aloud only where open talk and signals are combined (signals: combination)"
            if action.name in self._turn_signals:
                return f"seat {seat} has already made the signal {action.name} this turn"
            return f"seat {seat} may not signal {action.name}: signals must be truthful"
        return f"{action} is not an action of these rules"

    def _why_not_announce(self, action: Announce) -> str:
        """Why the exchange ``action`` announces may not be announced now (``trump_exchange: announced``, 001)."""
        seat, rules, card = self._turn, self.rules, action.card
        if rules.trump_exchange == "off" or self.turned is None:
            return "the trump exchange is not played in these rules"
        if rules.trump_exchange != "announced":
            return f"the trump exchange is made at once in these rules, not announced ('x{card}')"
        if self._announced is not None:
            return f"seat {self._announced[0]} has already laid {self._announced[1]} under the face-up card"
        if not self._stock:
            return "the face-up trump has already been drawn"
        face, give = self._stock[0].card, self._give
        if give is None:
            return f"the face-up {face} cannot be exchanged"
        if card is not give.card:
            return f"the face-up {face} is taken with {give.card}, not {card}"
        if give not in self._hands[seat]:
            return f"seat {seat} does not hold {card}"
        return f"seat {seat} must keep a card to play: it cannot lay its last one under the face-up card"

    def _why_illegal_in_auction(self, action: Action) -> str:
        seat, rules, phase = self._turn, self.rules, self._phase
        if phase == "bid":
            if isinstance(action, Bid | RankBid | Pass):
                if rules.bidding == "low_card" and isinstance(action, Bid):
                    return "in this auction a bid names a rank, like 'bid rank 3'"
                if rules.bidding == "points" and isinstance(action, RankBid):
                    return "in this auction a bid is a number of points, like 'bid 110'"
                if isinstance(action, Pass):
                    return f"seat {seat} is the last one left and must bid at least {rules.min_bid}"
                if isinstance(action, RankBid):
                    return f"rank {action.rank} is not lower than every rank named so far"
                low = rules.min_bid if self._high is None else self._high[1] + rules.bid_step
                return (f"a bid must be from {low} to {rules.max_bid}"
                        + (f" in steps of {rules.bid_step}" if rules.bid_step > 1 else "") + f", not {action.points}")
            return f"it is the auction: seat {seat} bids or passes"
        if phase == "discard":
            if isinstance(action, Discard):
                return f"seat {seat} discards exactly {len(self._talon)} cards it holds, not {action}"
            return f"seat {seat} has taken the talon and discards {len(self._talon)} cards now"
        if phase == "trump":
            return f"seat {seat} names the trump suit now, like 'trump O'"
        if isinstance(action, Call):
            if any(action.card in t[1] for t in self._tricks):
                return f"{action.card} was played in the first trick: call a card still in a hand"
            return f"{action.card} is not in this deck"
        return f"seat {seat} calls a card now, like 'call 3O'"


@dataclass(frozen=True)
class View:
    """What one seat (or a spectator, ``seat=None``) may see of a hand.

    It holds the seat's own hand, never another's (except cards the rules let it
    know, in ``known``), and the size of the stock, never its order. Everything
    else here is public at a real table.
    """

    seat: int | None
    rules: Rules
    players: int
    dealer: int
    #: The trump suit (``None`` while an auction has not decided it).
    trump: Suit | None
    #: The card turned up at the deal (``None`` when no card is turned).
    turned: Card | None
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
    #: Every action this seat may know of, in order.
    history: tuple[tuple[int, Action], ...]
    exchanges: tuple[ExchangeEvent, ...]
    #: ``(seat, card)``: cards this viewer knows another seat holds now (see ``Game._known_cards``).
    known: tuple[tuple[int, Card], ...]
    #: This seat's legal actions when it is its turn, else empty (see ``out_of_turn``).
    legal_actions: tuple[Action, ...]
    result: HandResult | None
    #: ``(seat, signal)``: the signals this viewer may see.
    signals: tuple[tuple[int, str], ...] = ()
    #: Whether the current trick is played under arrastro.
    arrastro: bool = False
    deal_number: int = 0
    #: This seat's own cards in the order it was dealt and drew them (what the seat remembers).
    received: tuple[Card, ...] = ()
    #: ``(seat, card)``: partners' dealt cards this seat was shown (``deal_look``), played or not.
    seen_dealt: tuple[tuple[int, Card], ...] = ()
    #: ``bid``, ``discard``, ``trump``, ``call`` or ``play``.
    phase: str = "play"
    #: The auction so far: ``(seat, bid or pass)``.
    bids: tuple[tuple[int, Action], ...] = ()
    #: The contract once decided; its ``partner`` is ``None`` until the called card is played.
    contract: Contract | None = None
    #: The talon, once the auction's winner has shown it.
    talon: tuple[Card, ...] = ()
    #: The cards this seat discarded into its own pile (only the declarer's own view).
    discards: tuple[Card, ...] = ()
    #: ``(seat, suit)``: the king-knight pairs declared so far.
    declarations: tuple[tuple[int, Suit], ...] = ()
    #: ``(seat, card)``: cards shown face up at the deal (golpe, pelada), played since or not.
    shown: tuple[tuple[int, Card], ...] = ()
    #: How the hand was dealt (``one_by_one``, ``alce``, ``golpe``, ``pelada``); ``""`` while the cutter chooses.
    deal_way: str = "one_by_one"
    #: What this seat may do while another seat is to act: its trump exchange under ``trump_exchange:
    #: out_of_turn`` (000: "at any time, even while playing a trick"), else nothing.
    out_of_turn: tuple[Action, ...] = ()
    #: ``(seat, card)``: under ``trump_exchange: announced`` (001), the trump a seat laid under the face-up card,
    #: in everybody's sight, while the exchange it announces waits for that seat's next trick won. The card is in
    #: no hand meanwhile: ``hand_sizes`` counts one card fewer for that seat.
    announced: tuple[int, Card] | None = None

    @property
    def cutter(self) -> int:
        """The seat that cuts the deck (and, under ``deal: cutter_chooses``, chooses how it is dealt)."""
        return (self.dealer + (1 if self.rules.cutter == "right" else -1)) % self.players

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

    @property
    def call_pending(self) -> bool:
        """Whether the play has begun before the trump is declared (``call_time: after_first_trick``, 000's
        Chiamata Buia): the first trick has no trump suit, and the bidder calls once it is over."""
        return self.trump is None and self.phase == "play" and self.rules.call_time == "after_first_trick"

    def trick_winner(self) -> int | None:
        """The seat winning the current trick so far, or ``None`` when the table is empty."""
        if not self.trick or (self.trump is None and not self.call_pending):
            return None
        return self.trick_seats()[winning_index(self.trick, self.trump, self.rules.strength_table)]

    def played_cards(self) -> tuple[Card, ...]:
        """Every card played so far in the hand, the current trick included."""
        out = [c for t in self.tricks for c in t.cards]
        out.extend(self.trick)
        return tuple(out)

    def unseen_cards(self) -> tuple[Card, ...]:
        """The cards this seat has not seen: in other hands or face down in the stock."""
        seen = set(self.hand) | set(self.played_cards()) | {c for _s, c in self.known}
        seen.update(self.talon)  # shown by the auction's winner
        seen.update(self.discards)  # the viewer's own, face down in its pile
        if self.face_up is not None:
            seen.add(self.face_up)
        if self.announced is not None:  # under the face-up card, face up
            seen.add(self.announced[1])
        return tuple(c for c in self.rules.layout(self.players).cards if c not in seen)


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


def shuffled(cards: Sequence[Card], seed: int | random.Random | None = None) -> tuple[Card, ...]:
    """A uniformly shuffled copy of ``cards``.

    Sorting on random keys is uniform (ties have probability 2**-53) and twice as fast
    as :func:`random.shuffle`, which matters when search deals thousands of worlds.
    """
    rand = (seed if isinstance(seed, random.Random) else random.Random(seed)).random
    return tuple(sorted(cards, key=lambda _c: rand()))


MIN_CUT = 4


def cut(deck: Sequence[Card], at: int) -> tuple[Card, ...]:
    """Cut the deck: the top ``at`` cards go under the rest. Each part keeps at least 4 cards (source 000).

    >>> from brisca.cards import spanish_deck
    >>> cut(spanish_deck(), 10)[0]
    Card.parse('1C')
    """
    if isinstance(at, bool) or not isinstance(at, int) or not MIN_CUT <= at <= len(deck) - MIN_CUT:
        raise IllegalActionError(f"cut between {MIN_CUT} and {len(deck) - MIN_CUT} cards, not {at!r}")
    return (*deck[at:], *deck[:at])


def draw_for_dealer(
    rules: Rules, players: int, seed: int | random.Random | None = None
) -> tuple[int, list[list[Card]]]:
    """Each seat draws a card from a shuffled deck; the highest deals.

    ``dealer_draw: rank`` reads the cards by rank order and seats tied for the highest draw
    again, until one is left. ``face_value`` (source 003) reads their numbers, the sota 8, the
    caballo 9 and the rey 10 in the 40-card deck, and where seats of different sides tie for
    the highest, the side whose cards add up to more wins ("De haber empate, la pareja que sume
    más números gana"); seats still level draw again. Returns the dealer and every round of
    draws (one card per seat still drawing).
    """
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    drawing = list(range(players))
    rounds: list[list[Card]] = []
    while True:
        cards = shuffled(rules.deck_cards(players), rng)[: len(drawing)]
        rounds.append(list(cards))
        drawing = draw_leaders(rules, players, drawing, cards)
        if len(drawing) == 1:
            return drawing[0], rounds


@dataclass(frozen=True)
class PartnerDraw:
    """The draw for partners and seats of ``partners: draw`` (001, 002), before the first hand.

    Players are numbered in the order they came to the table (player ``i`` would sit at seat ``i``
    under ``partners: fixed``). ``rounds`` holds every round of draws as ``(player, card)`` pairs: the
    first has every player; each later one the players of one tie, who draw again among themselves.
    ``order`` ranks the players from the highest card to the lowest; ``seating[player]`` is the seat
    the player takes. The highest's "choice of choosing seat" (001) has a default, since seats are
    numbered round the table and only who sits where relative to him matters: he takes seat 0 and
    deals the first hand, his partner sits opposite, and the higher of the two lowest sits at seat 1,
    the first to play.
    """

    players: int
    rounds: tuple[tuple[tuple[int, Card], ...], ...]
    order: tuple[int, ...]
    seating: tuple[int, ...]

    @property
    def dealer(self) -> int:
        """The seat of the first dealer: the highest card's."""
        return self.seating[self.order[0]]

    def player_at(self, seat: int) -> int:
        """The player sitting at ``seat``."""
        return self.seating.index(seat)

    @classmethod
    def from_rounds(
        cls, rules: Rules, players: int, rounds: Sequence[Sequence[tuple[int, Card]]]
    ) -> PartnerDraw:
        """The draw these recorded rounds make; :class:`RulesError` if they are not a draw the rules allow."""
        pending = list(rounds)

        def next_round(group: Sequence[int]) -> tuple[Card, ...]:
            if not pending:
                raise RulesError(f"players {', '.join(map(str, group))} are tied and must draw again")
            drawn = pending.pop(0)
            who = [p for p, _c in drawn]
            if who != list(group):
                raise RulesError(f"players {', '.join(map(str, group))} draw next, not {', '.join(map(str, who))}")
            return tuple(c for _p, c in drawn)

        draw = _make_draw(rules, players, next_round)
        if pending:
            raise RulesError("the draw has rounds after every tie was broken")
        return draw


def draw_for_partners(rules: Rules, players: int, seed: int | random.Random | None = None) -> PartnerDraw:
    """Each player draws a card from a shuffled deck (a fresh one for each round of a tie): see :class:`PartnerDraw`.

    >>> draw = draw_for_partners(make_rules("spanish"), 4, seed=1)
    >>> draw.dealer, sorted(draw.seating)
    (0, [0, 1, 2, 3])
    """
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    deck = rules.deck_cards(players)
    return _make_draw(rules, players, lambda group: shuffled(deck, rng)[: len(group)])


def _make_draw(
    rules: Rules, players: int, next_round: Callable[[Sequence[int]], tuple[Card, ...]]
) -> PartnerDraw:
    """Rank the players by their cards, tied players drawing again (depth first, highest tie first)."""
    rules.check_players(players)
    strength = rules.strength_table
    known = frozenset(rules.deck_cards(players))
    rounds: list[tuple[tuple[int, Card], ...]] = []

    def rank(group: Sequence[int]) -> list[int]:
        cards = next_round(group)
        if len(cards) != len(group) or len(set(cards)) != len(cards) or not set(cards) <= known:
            raise RulesError("each player of a round draws one card, all different, from the deck in play")
        rounds.append(tuple(zip(group, cards, strict=True)))
        out: list[int] = []
        for level in sorted({strength[c.index] for c in cards}, reverse=True):
            tied = [p for p, c in zip(group, cards, strict=True) if strength[c.index] == level]
            out.extend(tied if len(tied) == 1 else rank(tied))
        return out

    order = tuple(rank(range(players)))
    seating = [0] * players
    if rules.sides(players) < players:  # two sides: the higher half on the even seats, the lower on the odd
        half = players // 2
        for i, player in enumerate(order):
            seating[player] = 2 * i if i < half else 2 * (i - half) + 1
    else:
        for i, player in enumerate(order):
            seating[player] = i
    return PartnerDraw(players, tuple(rounds), order, tuple(seating))
def draw_leaders(rules: Rules, players: int, drawing: Sequence[int], cards: Sequence[Card]) -> list[int]:
    """The seats still in the running after one round of the draw for the dealer (``drawing[i]`` drew
    ``cards[i]``): those with the highest card, and under ``dealer_draw: face_value`` with partners, of those
    the ones whose side's cards add up to most."""
    value = face_values(rules) if rules.dealer_draw == "face_value" else rules.strength_table
    top = max(value[c.index] for c in cards)
    tied = [seat for seat, c in zip(drawing, cards, strict=True) if value[c.index] == top]
    sides = rules.sides(players)
    if rules.dealer_draw == "face_value" and sides < players and len({s % sides for s in tied}) > 1:
        sums = [0] * sides
        for seat, c in zip(drawing, cards, strict=True):
            sums[seat % sides] += value[c.index]
        best = max(sums[s % sides] for s in tied)
        tied = [s for s in tied if sums[s % sides] == best]
    return tied


def face_values(rules: Rules) -> tuple[int, ...]:
    """Each card's number for the draw (by :attr:`Card.index`): 1 to 10 in the 40-card deck, the sota 8, the
    caballo 9, the rey 10 (source 003); 1 to 12 with 48 cards."""
    numbers = sorted({1, 2, 3, 4, 5, 6, 7, 10, 11, 12} | ({8, 9} if rules.deck == 48 else set()))
    by_rank = {r: i + 1 for i, r in enumerate(numbers)}
    return tuple(by_rank.get((i % 12) + 1, 0) for i in range(48))


class InvalidDeckError(RulesError):
    """A deck that is not exactly the cards the rules put in play."""


def _side_sum(points: Sequence[int], sides: int) -> tuple[int, ...]:
    out = [0] * sides
    for seat, p in enumerate(points):
        out[seat % sides] += p
    return tuple(out)


class Match:
    """A match: hands follow one another, the deal passing to the next seat, until a side wins.

    With ``match: target_hands`` the first side to win ``target_hands`` hands wins (drawn
    hands do not count; under ``big_win`` a hand won by more than 100 counts two). With
    ``match: target_points`` the first side whose points over the hands reach
    ``target_points`` wins (if several reach it in one hand, the higher total; level
    totals play on). With ``match: game_points`` each hand gives game points (see
    :attr:`game_points`) and the first side to reach ``target_game_points`` wins, alike.
    With ``match: fixed_hands`` the match is ``hands`` deals, won by the side with the most
    hands won; sides level then play one more hand at a time until one leads (000, second
    article: "overall ties are resolved by additional play"). Under ``trump_rotation`` the
    match is exactly four deals. A tie under ``tie: replay`` is dealt again by the same
    dealer; under ``tie: shared`` each tied side is credited the hand, and if that brings
    several sides to the target level the match plays on until one leads (001: "If two or
    more players reach that number of hands at the same time, the game continues until the
    tie is broken.").

    Under ``partners: draw`` the players draw for partners and seats first (:class:`PartnerDraw`,
    drawn from the match's own random source unless ``draw`` is given): :attr:`seating` says
    where each player sits, and the highest card deals the first hand.
    """

    def __init__(
        self,
        rules: Rules | str = "spanish",
        players: int = 2,
        *,
        dealer: int | None = None,
        seed: int | None = None,
        options: Mapping[str, object] | None = None,
        deck: Iterable[Card | str] | None = None,
        draw: PartnerDraw | None = None,
    ) -> None:
        self.rules = make_rules(rules, options)
        self.rules.check_players(players)
        self.players = players
        self._rng = random.Random(seed)
        self.draw = self._draw(draw)
        first = self.draw.dealer if self.draw is not None and dealer is None else dealer
        if first is None:
            first = players - 1
        if isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < players:
            raise RulesError(f"the dealer must be a seat from 0 to {players - 1}, not {first!r}")
        if self.draw is not None and first != self.draw.dealer:
            raise RulesError(f"the draw for partners makes seat {self.draw.dealer} the first dealer, not seat {first}")
        self.games: list[Game] = []
        self.game = self._start(first, deck, 0)

    def _draw(self, draw: PartnerDraw | None) -> PartnerDraw | None:
        """The draw for partners under ``partners: draw`` (given, or drawn now), else ``None``."""
        if self.rules.partners != "draw":
            if draw is not None:
                raise RulesError("a draw for partners needs the rule 'partners: draw'")
            return None
        if draw is None:
            return draw_for_partners(self.rules, self.players, self._rng)
        if draw.players != self.players:
            raise RulesError(f"the draw for partners is for {draw.players} players, not {self.players}")
        return draw

    @classmethod
    def of_games(cls, rules: Rules, players: int, games: Sequence[Game], draw: PartnerDraw | None = None) -> Match:
        """A match made of hands already played (a replayed record), to score it."""
        match = object.__new__(cls)
        match.rules, match.players, match._rng = rules, players, random.Random(0)
        match.draw = draw
        match.games = list(games)
        match.game = match.games[-1]
        return match

    @property
    def seating(self) -> tuple[int, ...]:
        """The seat of each player, in the order they came to the table (unchanged without a draw)."""
        return self.draw.seating if self.draw is not None else tuple(range(self.players))

    def shuffle(self) -> tuple[Card, ...]:
        """A freshly shuffled deck from the match's own random source (to cut, then deal)."""
        return shuffled(self.rules.deck_cards(self.players), self._rng)

    @property
    def next_dealer(self) -> int:
        """Who deals the next hand: the next seat, or the same one after a tie under ``tie: replay``."""
        last = self.game.result()
        return self.game.dealer if last is not None and last.replay else (self.game.dealer + 1) % self.players

    def _start(self, dealer: int, deck: Iterable[Card | str] | None, deal_number: int) -> Game:
        if deck is None:
            deck = self.shuffle()
        game = Game(self.rules, self.players, dealer=dealer, deck=deck, deal_number=deal_number)
        self.games.append(game)
        return game

    @property
    def results(self) -> list[HandResult]:
        """Results of the finished hands, in order."""
        return [r for g in self.games if (r := g.result()) is not None]

    @property
    def hands_won(self) -> tuple[int, ...]:
        """Hands won by each side so far (a big win counts two; a shared hand counts one to each tied side)."""
        wins = [0] * self.rules.sides(self.players)
        for r in self.results:
            if r.winner is not None:
                wins[r.winner] += 2 if self.rules.big_win and r.margin > 100 else 1
            for side in r.shared:
                wins[side] += 1
        return tuple(wins)

    @property
    def points(self) -> tuple[int, ...]:
        """Each side's points added up over the finished hands (match points under a contract)."""
        total = [0] * self.rules.sides(self.players)
        for r in self.results:
            for side, p in enumerate(r.scores if r.scores is not None else r.side_points):
                total[side] += p
        return tuple(total)

    @property
    def game_points(self) -> tuple[int, ...]:
        """Game points of each side (``match: game_points``; 000, second article).

        A hand with a contract: one to each side of the contract when it is made, one to every
        other side when it is set ("If the contractor secures at least the bid amount in points from
        captured cards, they earn one game point; failure results in each opponent gaining one game
        point"), none when everybody passed. Any other hand: one to each side awarded it, two for a
        big win under ``big_win`` (000: "winning by more than a hundred card points is worth two game
        points").
        """
        sides = self.rules.sides(self.players)
        total = [0] * sides
        for r in self.results:
            if r.scores is not None:  # a hand with an auction
                if r.contract is None:
                    continue
                made = {s % sides for s in r.contract.side()}
                for side in made if r.reason == "made" else set(range(sides)) - made:
                    total[side] += 1
                continue
            if r.winner is not None:
                total[r.winner] += 2 if self.rules.big_win and r.margin > 100 else 1
            for side in r.shared:
                total[side] += 1
        return tuple(total)

    @property
    def score(self) -> tuple[int, ...]:
        """The standing the match is decided on: points, game points or hands won, as ``match`` says."""
        mode = self.rules.match
        if mode == "target_points":
            return self.points
        if mode == "game_points":
            return self.game_points
        return self.hands_won

    @property
    def winner(self) -> int | None:
        """The side that has won the match, or ``None`` while it goes on (or when it ends level)."""
        rules = self.rules
        score = self.score
        length = 4 if rules.trump_rotation else rules.hands if rules.match == "fixed_hands" else None
        if length is not None:
            if self.deals_done < length:
                return None
            best = max(score)
            leaders = [s for s, v in enumerate(score) if v == best]
            return leaders[0] if len(leaders) == 1 else None
        target = {"target_points": rules.target_points, "game_points": rules.target_game_points}.get(
            rules.match, rules.target_hands)
        reached = [s for s, v in enumerate(score) if v >= target]
        if not reached:
            return None
        best = max(score[s] for s in reached)
        leaders = [s for s in reached if score[s] == best]
        return leaders[0] if len(leaders) == 1 else None

    @property
    def deals_done(self) -> int:
        """Finished deals: hands over, not counting ties that are dealt again."""
        return sum(1 for r in self.results if not r.replay)

    def is_over(self) -> bool:
        """Whether the match has ended (under ``trump_rotation``, after the fourth deal, even level; a match of
        ``fixed_hands`` ends level never, it plays on)."""
        if self.rules.trump_rotation:
            return self.deals_done >= 4
        return self.winner is not None

    def next_hand(self, deck: Iterable[Card | str] | None = None) -> Game:
        """Deal the next hand once the current one is over (a tie under ``tie: replay`` keeps the dealer)."""
        if not self.game.is_over():
            raise IllegalActionError("the current hand is not over")
        if self.is_over():
            raise IllegalActionError("the match is over")
        last = self.game.result()
        replay = last is not None and last.replay
        deal_number = self.game.deal_number if replay else self.game.deal_number + 1
        self.game = self._start(self.next_dealer, deck, deal_number)
        return self.game
