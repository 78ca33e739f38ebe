"""A hand under rules beyond the plain game: duties of play, auctions and contracts, calls, signals,
declarations, claims, muerte al tres.

:class:`~brisca.game.hand.Game` picks this subclass from the rules when a hand is created, so the plain game's hot
path pays nothing for these rules; cards are still played through the plain path, so tricks, draws and scoring have
one implementation.
"""

from __future__ import annotations

import dataclasses
import itertools
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
from brisca.errors import IllegalActionError, InvalidActionError
from brisca.game.hand import Game
from brisca.game.results import Bonus, Contract, ExchangeEvent, HandResult

#: Phases of a hand with an auction, in order. Before them ``cut`` (the cutter chooses the deal, ``deal:
#: cutter_chooses``); within the play ``mark`` comes and goes (seats whose card is down may still mark a vale).
PHASES = ("bid", "discard", "trump", "call", "play")


#: The signals that each say a seat holds one trump, and the rank of that trump.
SIGNAL_RANKS: dict[str, int] = {
    "trump-ace": Rank.ACE, "trump-three": Rank.THREE, "trump-king": Rank.KING,
    "trump-knight": Rank.KNIGHT, "trump-jack": Rank.JACK,
}


class _Marking(NamedTuple):
    """A window to mark vales (source Porteña): the trick it is about and the hands as they were at its card."""

    t: int
    leader: int
    cards: tuple[Card, ...]
    held: tuple[frozenset[Card], ...]
    resume: int
    end: bool
    #: The phase the hand goes back to: ``play``, or ``call`` after the first trick under Chiamata Buia.
    then: str = "play"


class RuledGame(Game, ruled=True):
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
        # Under deal: cutter_chooses nothing is dealt until the cutter has chosen the way (source Porteña).
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
        #: ``trump_exchange: announced`` (Fournier): the seat whose trump lies under the face-up card, and that trump;
        #: the trumps that went back to their announcers' hands (public: they lay face up).
        self._announced: tuple[int, Card] | None = None
        self._taken_back: list[tuple[int, Card]] = []
        super()._deal()
        self._signals = []
        self._turn_signals = []
        if self._phase == "cut":
            self._turn = self.cutter
        elif self._phase == "bid":
            self._turn = (self.dealer + self._bid_way) % n
        if rules.claim and rules.claim_by == "side":  # (every card dealt: a side may hold them before the first lead)
            self._claim_for_side()

    @property
    def _bid_way(self) -> int:
        """The auction's way round: +1 with the play, -1 against it (Briscola guide: 'starting with the player to the
        dealer's immediate right and continuing in a counter-clockwise direction')."""
        return -1 if self.rules.auction_direction == "against_play" else 1

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
        if way == "alce":  # packets of 5 round the table, the dealer's last card turned (source Porteña)
            for i, start in enumerate(range(0, n * hs, 5)):
                hands[seats[i % n]].extend(order[start:start + 5])
        elif way == "golpe":  # 10 in a row to each; the last card of each opponent's packet shown
            # (and of the dealer's partner's under golpe_partner_shows, Porteña: 'con la opción ... de mostrar la
            # última')
            showing = opponents | ({s for s in range(n) if s != d} if rules.golpe_partner_shows else set())
            for k, seat in enumerate(seats):
                hands[seat] = list(order[k * hs:(k + 1) * hs])
                if seat in showing:
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
        if rules.claim and rules.claim_by == "seat" and not self._stock and not self._trick and self._claim_holds(seat):
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
            # descanso (source Porteña): the duties to beat and to trump are owed to the opponents' cards.
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
        """Source Porteña: the cutter leads a trump in pelada, and a 2 is led only in the cases it lists."""
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
            # Shown by the side in this trick (Porteña: 'su pareja lo marca'), the rest of the pair in this hand.
            shown_by_side = bool(pair & ours) and pair <= ours | held
            both = pair <= held and bool(pair & playable)
            if shown_by_side or (both and self._pending is None):
                out.append(Declare(suit))
        return out

    def _markable(self, seat: int, marking: _Marking) -> list[Suit]:
        """The pairs ``seat``, its card down in the trick, may still mark (Porteña: until the trick is gathered)."""
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

    def _window_seats(self, t: int, leader: int, cards: tuple[Card, ...], known: dict[Card, int]) -> list[int]:
        """The seats asked whether they mark a vale after a card: from public facts only (who played a king or a
        knight of a pair not declared nor broken), so that being asked tells nobody what a seat holds.

        A pair is broken when its other card is gone, played by an opponent in this trick, or known to lie in an
        opponent's hand: the dealer's trump card (Porteña: 'El triunfo es la única carta no jugada que debe estar
        visible para todos'), a last card shown in a golpe, a first card shown in a pelada, any card every seat
        knows of (``known``: :meth:`_known_cards` for nobody in particular, as the card fell)."""
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
            if other in known and self.side_of(known[other]) != side:
                continue
            sides.add(side)
        return [(leader + i) % n for i in range(len(cards)) if self.side_of((leader + i) % n) in sides]

    def _open_window(self, t: int, leader: int, cards: tuple[Card, ...], held: tuple[frozenset[Card], ...],
                     known: dict[Card, int]) -> None:
        """After a card, ask the seats whose card is down whether they mark a vale (``phase`` becomes ``mark``)."""
        if self._killer is not None or self._claim is not None:
            return
        seats = self._window_seats(t, leader, cards, known)
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
                known = {c: s for s, c in self._known_cards(None)}  # as the card falls, before any draw
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
                self._open_window(tricks_before, leader, cards, held, known)
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
        if self.rules.claim and self.rules.claim_by == "side":
            self._claim_for_side()

    def _claim_for_side(self) -> None:
        """``claim_by: side`` (Encyclopedia: "if a team has in its tricks the three highest trumps, it announces this
        and collects all the cards"): before a trick is led, once the stock is gone, a side whose hands together
        hold the best trumps still out, one for every trick left, takes the rest, claimed by its seat first to play.

        It is made for the side rather than offered to a seat: a claim offered on a partner's hidden cards would
        tell the seat about them, and taking the rest is never worse for the side than playing it out.
        """
        if (self._over or self._phase != "play" or self._stock or self._trick or self._claim is not None
                or self.trump is None):
            return
        tricks_left = len(self._hands[self._turn])
        if tricks_left == 0:
            return
        trump, strength = self.trump, self._strength
        played = {c for t in self._tricks for c in t[1]}
        out = sorted((c for c in self._layout.cards if c.suit is trump and c not in played),
                     key=lambda c: -strength[c.index])
        if len(out) < tricks_left:
            return
        holder = {a.card: s for s, h in enumerate(self._hands) for a in h}
        sides = {self.side_of(holder[c]) for c in out[:tricks_left]}
        if len(sides) != 1:
            return
        side = sides.pop()
        n = self.players
        seat = next(s for s in ((self._turn + i) % n for i in range(n)) if self.side_of(s) == side)
        self._do_claim(seat, told=False)

    def _settle_announcement(self) -> None:
        """After a trick, the exchange announced (Fournier): the announcer that won it takes the face-up card, its trump
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
                last = self._last_draw_order[seat][-1]
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
                    self._turn = (seat + self._bid_way) % n
                    return
                winner = None if self._high is None else self._high[0]
            else:
                left = [s for s in range(n) if not self._passed[s]]
                high = self._high
                if left and not (len(left) == 1 and high is not None and high[0] == left[0]):
                    step = self._bid_way
                    nxt = (seat + step) % n
                    while self._passed[nxt]:
                        nxt = (nxt + step) % n
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
                # Encyclopedia, Chiamata Buia: the bidder leads a first trick with no trump; he calls once it is over.
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
        if out is not None and rules.capote != "off":
            side = self._capote_side()
            if side is not None:
                out = dataclasses.replace(out, winner=side, reason="capote", shared=())
        return out

    def _capote_side(self) -> int | None:
        """The side that took every trick, or ``None``. The tricks a claim ended are the claimer's: a side that
        won every trick played and claimed the rest took every trick, as it would have by playing them."""
        sides = {t[2] % self._layout.sides for t in self._tricks}
        claim = self._claim
        if claim is not None:
            sides.add(claim[0] % self._layout.sides)
        elif len(self._tricks) * self.players != len(self._order) - len(self._talon):
            return None  # the hand ended early (muerte al tres): some tricks were never played
        return sides.pop() if len(sides) == 1 else None

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
                    orders = self._draw_order if len(self._stock) else self._last_draw_order
                    for s in reversed(orders[winner]):
                        self._stock.append(self._hands[s].pop())
                    self._last_draw = None

    def _do_claim(self, seat: int, told: bool = True) -> None:
        """``seat`` takes every card still in a hand; ``told``: a seat's claim, kept in the history (a side's claim
        under ``claim_by: side`` follows from the cards, and a replay makes it again)."""
        cards = tuple(a.card for h in self._hands for a in h)
        points = sum(self._ptable[c.index] for c in cards)
        self._points[seat] += points
        self._claim = (seat, cards, points)
        for h in self._hands:
            h.clear()
        if told:
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
            if rules.claim_by == "side":
                return ("under 'claim_by: side' a side's claim is made for it, as soon as its hands hold the best"
                        " trumps for every trick left")
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
        """Why the exchange ``action`` announces may not be announced now (``trump_exchange: announced``, Fournier)."""
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
