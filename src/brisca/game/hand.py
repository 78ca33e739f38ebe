"""One hand (deal) of Brisca as a state machine: the deal, the tricks, the draws, the trump exchange.

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
the rules when the game is created (:mod:`brisca.game.ruled`), so the plain
game pays nothing for them.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from typing import Any, ClassVar

from brisca.actions import (
    EXCHANGES,
    PLAYS,
    Action,
    Announce,
    Discard,
    Exchange,
    Play,
    Signal,
)
from brisca.cards import Card, Rank, Suit
from brisca.errors import IllegalActionError, InvalidActionError, RulesError
from brisca.game.deck import check_deck
from brisca.game.results import Bonus, ExchangeEvent, HandResult, Trick, _side_sum
from brisca.game.view import View
from brisca.rules import Rules, make_rules

_NO_SIGNALS: tuple[()] = ()


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
        "_layout", "_next", "_draw_order", "_last_draw_order", "_strength", "_ptable", "_xtable", "_give",
        "_give_until",
        # Used by the rules that add duties, calls and signals (RuledGame):
        "_signals", "_turn_signals", "_arrastro_on", "_claim", "_killer", "_three_out",
    )

    rules: Rules
    players: int
    dealer: int
    deal_number: int
    trump: Suit
    turned: Card | None

    #: The class of the hands under rules beyond the plain game (:class:`~brisca.game.ruled.RuledGame`, built on
    #: this one: it names itself here when it is defined, see ``__init_subclass__``).
    _ruled: ClassVar[type[Game] | None] = None

    def __new__(cls, rules: Rules | str = "spanish", *args: Any, **kwargs: Any) -> Game:
        if cls is Game:
            resolved = rules if type(rules) is Rules and not kwargs.get("options") else make_rules(
                rules, kwargs.get("options")
            )
            if not resolved.plain:
                if Game._ruled is None:
                    raise RuntimeError("brisca.game.ruled is not loaded: import brisca.game, not its modules alone")
                cls = Game._ruled
        return object.__new__(cls)

    def __init_subclass__(cls, *, ruled: bool = False, **kwargs: Any) -> None:
        """``class RuledGame(Game, ruled=True)`` names the class that plays rules beyond the plain game."""
        super().__init_subclass__(**kwargs)
        if ruled:
            Game._ruled = cls

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
        self._last_draw_order = layout.last_draw_order
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
        """The seat that cuts the deck: before the dealer, or after him under ``cutter: right`` (Porteña)."""
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
            for s in (self._draw_order if total_draws - j > n else self._last_draw_order)[winner]:
                if s == seat:
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
        if rules.point_limit:  # Encyclopedia, Mexican Brisca: "not to add more than 11 total points"
            within = tuple(i for i, p in enumerate(totals) if p <= rules.point_limit)
            if len(within) == 1:
                return HandResult(seat_points, tuple(totals), within[0], bonuses, "within-limit")
            if within:
                return HandResult(seat_points, tuple(totals), None, bonuses, "within-limit", shared=within)
            return HandResult(seat_points, tuple(totals), None, bonuses, "over-limit")
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
        if rules.tie == "shared":  # Fournier: "the hand is awarded by all of them"
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
        ``trump_exchange: out_of_turn`` (Encyclopedia: "at any time, even while playing a trick").
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
                order = (self._draw_order if len(stock) > self.players else self._last_draw_order)[winner]
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
        """``seat`` acts while another is to act: only its exchange under ``out_of_turn`` (Encyclopedia)."""
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
        g._last_draw_order = self._last_draw_order
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
            claimed_by=None if self._claim is None else self._claim[0],
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
