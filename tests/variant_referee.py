"""An independent referee for every rule option of the Brisca family: one hand, and a match of hands.

Nothing here imports :mod:`brisca`.  Cards are plain strings such as ``"3O"`` or
``"12E"`` (rank number, then suit letter), hands and the stock are plain lists,
and actions are the record form of ``brisca-record/1`` without the seat:
``{"play": "3O"}``, ``{"play": "1O", "arrastro": True}``, ``{"exchange": "7B"}``,
``{"claim": True}``, ``{"signal": "briscas"}`` and ``{"announce": "7B"}``.  The rules are given as a
dict of every option's value, in the JSON form ``Rules.options()`` writes (the
tests take it from ``find_variant(name).options()``).

The rules, as this referee reads them:

* Cards: 40 (ranks 1-7, 10, 11, 12) or 48 (ranks 1-12); with 40 cards the 2 of
  oros goes with 3 players, the four 2s with 6.  Strength follows
  ``rank_order``; with 48 cards the 9 and 8 rank just above the 7 (unless
  ``rank_order`` places them).  Points per rank from ``points``.
* Sides: two (seat mod 2) with 4 or 6 players when ``teams``; else one per seat.
* Deal: one card at a time from the seat after the dealer, ``hand_size`` rounds.
  The next card is turned up for trump and drawn last; under ``trump_rotation``
  nothing is turned, trump is ``"OCEB"[deal_number % 4]`` and the whole rest is
  the stock, drawn from the top.
* The seat after the dealer leads; the winner of a trick draws first, then the
  others in order of play, and leads the next.  The highest trump wins a trick,
  else the highest card of the suit led.
* ``follow`` (from the start, or once the stock is empty under ``follow_from:
  empty_stock``): ``suit``: a card of the suit led if the seat holds one;
  ``suit_trump``: else a trump if it holds one; ``suit_beat_trump``: as
  ``suit_trump``, and among cards of the suit led, one that beats the card
  winning the trick when that card is of the suit led and the seat can;
  ``descanso``: as ``suit_beat_trump`` while an opponent (another side's seat)
  holds the trick; when the seat's own side holds it, any card of the suit
  led, and with none, a trump if the card holding the trick is a trump (and
  the seat holds one), else any card.
* ``trump_exchange``: on its turn (without ending it), while the face-up card is
  in the stock, a seat may give the trump ``exchange_with`` names for the face-up
  card's rank: ``after_win`` once it has won a trick, ``any_time`` always,
  ``before_penultimate`` as ``after_win`` while the stock holds more cards than
  there are players, ``out_of_turn`` as ``after_win`` and also while another
  seat is to act (the turn does not move).  Without ``exchange_chain`` a face-up
  card that was itself given in an exchange cannot be taken.
* ``trump_exchange: announced`` (001): instead of exchanging, a seat on its turn,
  holding another card too, may lay that trump under the face-up card
  (``{"announce": "7B"}``) while no other lies there: it leaves the hand, seen by
  everybody.  When that seat wins a trick, before the draw, it takes the face-up
  card and its trump becomes the face-up card (given in an exchange).  If the
  draws after a trick empty the stock first, or the trick ends the hand at once
  (the three killed), the trump goes back to the seat's hand, seen by everybody.
* ``arrastro``: a seat leading that may play the ace of trumps may play it as
  arrastro; each later seat in the trick must play its highest trump if it holds
  a trump, else one of its highest-ranked cards (any suit).
* ``claim``: once the stock is empty, the seat to lead may claim when the ``k``
  highest trumps still in hands (``k`` = cards it holds, and there must be ``k``)
  are all held by its side, as far as the seat can show: in its own hand, or
  among the partners' cards it knows (below).  A claim that hung on a partner's
  hidden cards would tell the seat where they are.  Every card left in hands goes
  to its points (and is captured by its side) and the hand ends.  Under
  ``claim_by: side`` no seat claims: before a trick is led with the stock gone, a
  side whose hands together hold those ``k`` trumps takes the rest at once, for
  its first seat in turn, and no action is recorded.
* ``face_up_to: trick_winner``: in the last round of draws the trick's winner
  draws last, so takes the face-up card; the others draw first, in turn.
* ``signals`` (only when there are fewer sides than seats): on its turn a seat may
  make any truthful signal of ``signal_set`` it has not made this turn (a turn ends
  when it plays): ``spanish``, the top five trumps, small trumps, briscas (an ace or a
  three of another suit), no trumps, and the asks ``ask-points`` and ``ask-cards``
  (only under ``signal_asks``); ``italian``, the top five trumps and ``high-card`` (a
  card of one of the two strongest ranks, in another suit).  Under ``combination``
  each may also be said aloud (``{"signal": NAME, "aloud": true}``), not both in one turn.
* ``kill_three``: while the three of trumps has not been played, the ace of
  trumps may not be played by a seat holding more than one card (if it is all the
  duty allows, any other card may be played); a trick holding both ends the hand,
  won by the side of the seat that played the ace (reason ``three-killed``).
* Bonuses: ``last_trick_bonus`` to the side of the last trick's winner or of the
  claimer (none when the three is killed); ``pair_bonus``: 40 (trumps) or 20 for
  each suit whose king and knight a side captured.  Side totals include them.
* Winner: most (or under ``hand_winner: least`` fewest) total; under ``point_limit`` L
  (with ``least``) every side with at most L is awarded the hand (reason
  ``within-limit``; several: each credited one hand won, no single winner), and with
  none the hand is won by nobody (reason ``over-limit``, not replayed); a tie: ``draw``,
  ``replay`` (same dealer, same deal number), ``most_cards`` (the tied side that
  captured more cards; still tied: a draw), ``shared`` (reason ``shared``, no single
  winner: every tied side is awarded the hand and credited one hand won).
* Match: ``target_hands`` (``target_hands_alone`` instead, when not 0, where every
  seat is its own side; a hand won by a margin of more than 100 counts two
  under ``big_win``; the margin is the winner's lead over the nearest other side,
  which under ``hand_winner: least`` is how many fewer points it took) or
  ``target_points`` (side totals added over the hands): the first side to reach
  the target wins; several in one hand: the highest; level: play on (under
  ``reached_together: more_hands``, several in one hand play further hands, and
  the first side ahead of every other after one of them wins).  Under
  ``trump_rotation`` the match is the four deals (0 to 3; a replayed deal does
  not count twice), won by the most hands (or points); level: no winner.
  ``game_points``: a hand with a contract gives one game point to each side with
  a seat in the contract when it is made, to each other side when it is set
  (none when all passed); any other hand one to each side awarded it (two for a
  big win); first to ``target_game_points`` as above.  ``fixed_hands``: after
  ``hands`` deals (replayed deals not counted) the most hands won wins; level:
  play on, deal by deal, until one side leads.
* Draw for partners (``partners: draw``, match records): the record's ``draw``
  lists rounds of ``players`` and ``cards``; the first round has every player,
  each card different and in play; players whose cards rank alike (by the rank
  order) are tied, and every tie, the highest first, is broken by a round of its
  players alone (in their order), depth first; no other round.  The players
  ranked high to low take seats 0, 2, 4, ... (the first half) and 1, 3, 5, ...
  (the rest) with two sides, else 0, 1, 2, ...; ``seating`` must say so, and the
  first hand is dealt by seat 0.
* Dealt-out games (``trump_from`` other than ``turned``, a ``talon``, or a ``deal``
  other than ``one_by_one``): under ``deal: cutter_chooses`` nothing is dealt until the
  cutter (the seat after the dealer under ``cutter: right``, else the one before him)
  names one of ``cut_ways`` (``{"cut": "golpe"}``), which is then the way of this hand;
  the seat after the dealer leads.  Every card is dealt, ``hand_size`` to each seat from
  the dealer's right and the rest to the talon.  ``alce``: packets of 5 round the
  table; ``golpe``: ``hand_size`` in a row to each, the last card of each
  opponent's packet shown (under ``golpe_partner_shows`` the dealer's partner's
  too); ``pelada``: the top card is the dealer's trump, the rest
  in rows (the dealer one fewer), each opponent's first card shown and the next
  while they are trumps.  Under ``trump_from: dealer`` the dealer's last dealt card
  (pelada: the top card) is the trump card, seen by all while he holds it; under
  ``named``/``called`` there is no trump until the auction decides it.
* Auction (``bidding: points``): from the seat after the dealer (under
  ``auction_direction: against_play`` from the seat before him, each turn passing to
  the seat before, against the play; ``low_card`` alike), a pass (final)
  or a bid from ``min_bid`` (then the last bid plus ``bid_step``) to ``max_bid`` in
  steps; it ends when one seat is left holding the best bid, or nobody is left (a
  void hand).  Under ``all_pass: last_must_bid`` the last seat left with no bid made
  may not pass.  ``low_card``: each seat once, from the seat after the dealer,
  names a rank weaker than every rank named so far, or passes; the weakest named
  wins.  The winner takes the ``talon`` and discards as many cards (their points
  are his), then names the trump (``named``; under ``low_card`` the suit of the
  called card of the rank he named) or calls any card (``called``: its suit is
  trump, its holder the partner, himself if he holds it).  He leads.  Under
  ``call_time: after_first_trick`` (Chiamata Buia) he leads before calling: the
  first trick has no trump (the best card of the suit led takes it); once it is
  over he calls a card not played in it, and the first trick's winner leads.
* Lead duties: in a ``pelada`` the cutter leads a trump to the first trick if he
  can; under ``lead_two: guarded`` a 2 is led only with the ace of its suit in hand,
  once that ace has been played, once a partner has played another suit to a trick
  led in it, as the cutter's only trump in a pelada's first trick, or when nothing
  else may be led.
* Declarations (the king and knight of a suit, 40 in trumps, 20 otherwise, once a
  suit): ``vales`` on the seat's turn in a trick, holding both with one of them
  playable (and then one of them must be played), or holding one after a seat of
  its side played the other in this trick; the points go to the side that wins
  that trick.  After every card of a trick (the last one too), while some king or
  knight of a suit not yet declared lies in the trick, played by a side, and the
  other card of that suit has not been played by another side or in an earlier
  trick, nor is known to everybody to be in a hand of another side (the dealer's
  trump card, a card shown at the deal), every seat of that side that has played to the trick is asked in turn,
  in order of play: it may declare each suit of which one card lies among its
  side's cards of the trick and the other there or in its own hand (its hand as it
  was when the card was played, before any draw), and passes (``{"pass": true}``)
  when it is done; play then goes on (a hand whose last trick this was ends).
  ``on_lead``: leading, after having won a trick, holding both (one must be
  led); the points go to the holder.
* Contracts: the declarer's side (with the partner) makes the contract when its
  totals (cards with the discards, bonuses) reach the bid (under ``low_card``,
  ``min_bid``).  ``solo``: made, the bid to the declarer; set, half of it to each
  other seat.  ``called``: made, +2 declarer, +1 partner, -1 each other seat
  (alone: +4, -1 each); set, the opposite.  The winner is the declarer (made) or
  none; the reason ``made``, ``set`` or ``all-passed``.  A match under a contract
  adds these scores.  ``capote`` (``hand`` or ``match``): a side that took every trick
  wins (``capote``); under ``match`` that hand also wins the match.  A claim
  ends a hand whose tricks all went to the claimer's side: that is capote too.
* Views: a viewer knows the cards of another hand that were face up (taken in an
  exchange, the face-up card drawn last), its partners' dealt cards under
  ``deal_look``, its partners' hands once the stock is empty under
  ``partners_look``, and every hand under ``open_hands``.  Signals are seen by the
  signaller's side under ``partner`` and ``combination`` (spectators see none), by
  everyone under ``open`` and, said aloud, under ``combination``.

>>> from itertools import chain
>>> opts = dict(SPANISH_DEFAULTS, arrastro=True)
>>> deck = ["1O", "3O", "5C", "4O", "6E", "12O", "7O", *[c for c in deck_cards(opts, 2)
...     if c not in {"1O", "3O", "5C", "4O", "6E", "12O", "7O"}]]
>>> h = Hand(opts, 2, 1, deck)
>>> h.trump, h.hands[0], h.hands[1]
('O', ['1O', '5C', '6E'], ['3O', '4O', '12O'])
>>> sorted(key(a) for a in h.legal())[:2]
['arrastro=True play=1O', 'play=1O']
>>> h.act(0, {"play": "1O", "arrastro": True})
>>> h.legal()
[{'play': '3O'}]
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from itertools import combinations
from typing import Any

SUITS = "OCEB"
SUIT_NAMES = {"O": "coins", "C": "cups", "E": "swords", "B": "clubs"}
#: Signals that name one trump rank.
HONOUR_SIGNALS = {"trump-ace": 1, "trump-three": 3, "trump-king": 12, "trump-knight": 11, "trump-jack": 10}
SIGNALS = (*HONOUR_SIGNALS, "small-trumps", "briscas", "no-trumps", "ask-points", "ask-cards", "high-card")
SIGNAL_SETS = {"spanish": SIGNALS[:10], "italian": (*HONOUR_SIGNALS, "high-card")}
ASKS = ("ask-points", "ask-cards")
SMALL_TRUMPS = {2, 4, 5, 6, 7, 8, 9}

#: The option values of the plain Spanish game, for doctests and quick experiments (tests use the engine's presets).
SPANISH_DEFAULTS: dict[str, Any] = {
    "deck": 40, "teams": True, "trump_exchange": "after_win",
    "exchange_with": {"7": [1, 3, 12, 11, 10, 9, 8], "2": [4, 5, 6, 7]}, "target_hands": 2,
    "rank_order": [1, 3, 12, 11, 10, 7, 6, 5, 4, 2], "points": {"1": 11, "3": 10, "10": 2, "11": 3, "12": 4},
    "hand_size": 3, "exchange_chain": True, "follow": "none", "follow_from": "start", "arrastro": False,
    "claim": False, "last_trick_bonus": 0, "big_win": False, "tie": "draw", "trump_rotation": False,
    "match": "target_hands", "target_points": 121, "target_game_points": 3, "hands": 3, "partners": "fixed",
    "signals": "off", "deal_look": False, "partners_look": False,
    "open_hands": False, "pair_bonus": False, "hand_winner": "most", "kill_three": False, "card_names": "spanish",
    "deal": "one_by_one", "trump_from": "turned", "talon": 0, "bidding": "off", "call_time": "before_play",
    "min_bid": 61, "bid_step": 1, "max_bid": 120, "all_pass": "redeal", "contract": "off", "declarations": "off",
    "lead_two": "any", "capote": "off", "target_hands_alone": 0, "point_limit": 0,
    "auction_direction": "with_play", "golpe_partner_shows": False,
}


#: The cards a 40-card deck loses per player count, unless the rules name others (``removed``).
DEFAULT_REMOVED: dict[str, list[str]] = {"3": ["2O"], "6": ["2O", "2C", "2E", "2B"]}


class RefereeError(ValueError):
    """An action, or a record, that the rules do not allow."""


def rank(card: str) -> int:
    return int(card[:-1])


def suit(card: str) -> str:
    return card[-1]


def key(action: Mapping[str, Any]) -> str:
    """One string per action, from its record form (keys sorted): what the tests compare.

    >>> key({"play": "1O", "arrastro": True}), key({"signal": "briscas"})
    ('arrastro=True play=1O', 'signal=briscas')
    """
    def show(k: str, v: Any) -> str:
        if k == "discard":
            return " ".join(sorted(str(c).upper() for c in v))
        if k == "bid" and isinstance(v, str):
            return f"rank {v}"
        return str(v)

    return " ".join(f"{k}={show(k, action[k])}" for k in sorted(action))


def deck_cards(options: Mapping[str, Any], players: int) -> list[str]:
    """The cards in play, suit by suit, rank up."""
    ranks = range(1, 13) if options["deck"] == 48 else (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)
    cards = [f"{r}{s}" for s in SUITS for r in ranks]
    if options["deck"] == 40:
        gone = options.get("removed", DEFAULT_REMOVED).get(str(players), [])
        cards = [c for c in cards if c not in gone]
    return cards


def strength_order(options: Mapping[str, Any]) -> list[int]:
    """Ranks from highest to lowest."""
    given = [int(r) for r in options["rank_order"]]
    order = [r for r in given if r not in (8, 9)]
    if options["deck"] == 48:
        if 8 in given and 9 in given:
            return given
        at = order.index(7)
        order[at:at] = [9, 8]
    return order


def sides_of(options: Mapping[str, Any], players: int) -> int:
    return 2 if options["teams"] and players in (4, 6) else players


class Hand:
    """One hand under ``options``; :meth:`act` raises :class:`RefereeError` (and changes nothing) if illegal."""

    def __init__(
        self, options: Mapping[str, Any], players: int, dealer: int, deck: Sequence[str], deal_number: int = 0
    ) -> None:
        self.o = o = dict(options)
        n = self.players = players
        if not 0 <= dealer < n:
            raise RefereeError(f"no seat {dealer} to deal")
        deck = [str(c).upper() for c in deck]
        cards = deck_cards(o, n)
        if sorted(deck) != sorted(cards) or len(deck) != len(cards):
            raise RefereeError("the deck is not the cards in play")
        self.dealer, self.deck, self.deal_number = dealer, list(deck), deal_number
        self.sides = sides_of(o, n)
        order = strength_order(o)
        self.strength = {r: len(order) - i for i, r in enumerate(order)}
        self.pts = {int(r): p for r, p in o["points"].items()}
        #: face-up rank -> the rank of the trump given for it
        self.exchange_for: dict[int, int] = {}
        for given, taken in o["exchange_with"].items():
            if int(given) in self.strength:
                for r in taken:
                    if int(r) in self.strength:
                        self.exchange_for[int(r)] = int(given)
        size = o["hand_size"]
        self.hands: list[list[str]] = [[] for _ in range(n)]
        #: Dealt-out games: the talon, the cards shown at the deal, the auction and what it decided.
        self.dealt_out = (o.get("trump_from", "turned") != "turned" or o.get("talon", 0) > 0
                          or o.get("deal", "one_by_one") != "one_by_one")
        self.phase = "bid" if o.get("bidding", "off") != "off" else "play"
        #: How this hand is dealt; under ``cutter_chooses`` nothing until the cutter has named the way.
        self.way = o.get("deal", "one_by_one")
        if self.way == "cutter_chooses":
            self.way, self.phase = "", "cut"
        #: A window to mark vales: the seats still to be asked, the trick, the hands then, the seat to go on.
        self.mark: dict[str, Any] | None = None
        self.talon: list[str] = []
        self.shown: list[tuple[int, str]] = []
        self.bids: list[tuple[int, dict[str, Any]]] = []
        self.passed = [False] * n
        #: (seat, points or rank) of the best bid so far
        self.high: tuple[int, int] | None = None
        self.contract: dict[str, Any] | None = None
        #: Under ``call_time: after_first_trick``: the auction's winner, while his call waits for the first trick.
        self.blind: int | None = None
        self.discards: list[str] = []
        #: (seat, suit, index of the trick it was declared in)
        self.declared: list[tuple[int, str, int]] = []
        #: A pair declared before playing one of its cards: one of them must be played now.
        self.pending: str | None = None
        #: Cards seen face up that a seat then held: (seat, card), kept while the seat holds it.
        self.public: list[tuple[int, str]] = []
        if self.phase == "cut":
            self.turned, self.trump, self.stock = None, None, []
            self.dealt = [[] for _ in range(n)]
        elif self.dealt_out:
            self.deal_out(deck)
            self.dealt = [list(h) for h in self.hands]
        else:
            top = 0
            for _round in range(size):
                for k in range(n):
                    self.hands[(dealer + 1 + k) % n].append(deck[top])
                    top += 1
            self.dealt = [list(h) for h in self.hands]
        if self.dealt_out:
            pass
        elif o["trump_rotation"]:
            self.turned: str | None = None
            self.trump = SUITS[deal_number % 4]
            #: The stock in drawing order: stock[0] is drawn next; the face-up card (if any) is stock[-1].
            self.stock = deck[top:]
        else:
            self.turned = deck[top]
            self.trump = suit(self.turned)
            self.stock = [*deck[top + 1:], self.turned]
        self.leader = (dealer + 1) % n
        self.turn: int | None = self.leader
        if self.phase == "cut":
            self.turn = (dealer + (1 if o.get("cutter", "left") == "right" else -1)) % n
        #: The auction's way round: +1 with the play, -1 against it (002: from the dealer's right).
        self.bid_step_seat = -1 if o.get("auction_direction") == "against_play" else 1
        if self.phase == "bid":
            self.turn = (dealer + self.bid_step_seat) % n
        self.table: list[tuple[int, str]] = []
        self.tricks: list[dict[str, Any]] = []
        self.seat_points = [0] * n
        self.won = [False] * n
        self.face_up_given = False
        self.exchanges: list[dict[str, Any]] = []
        #: ``trump_exchange: announced``: (seat, trump) under the face-up card; the trumps that went back.
        self.announced: tuple[int, str] | None = None
        self.taken_back: list[tuple[int, str]] = []
        self.signals: list[tuple[int, str, bool]] = []
        self.turn_signals: set[str] = set()
        self.three_played = False
        self.arrastro_on = False
        self.claim: dict[str, Any] | None = None
        self.killer: int | None = None
        self.history: list[tuple[int, dict[str, Any]]] = []
        if o["claim"] and o.get("claim_by", "seat") == "side":
            self.side_claim()

    def deal_out(self, deck: list[str]) -> None:
        """Every card dealt: to the hands (the ways of source 003, or one at a time) and the talon."""
        o, n, dealer, size = self.o, self.players, self.dealer, self.o["hand_size"]
        seats = [(dealer + 1 + k) % n for k in range(n)]  # from the dealer's right, the dealer last
        opponents = [s for s in seats if self.side(s) != self.side(dealer)]
        dealt = n * size
        trump_card: str | None = deck[dealt - 1] if o["trump_from"] == "dealer" else None
        way = self.way
        if way == "alce":  # packets of 5 round the table; the dealer's last card is turned
            for i in range(0, dealt, 5):
                self.hands[seats[(i // 5) % n]].extend(deck[i:i + 5])
        elif way == "golpe":  # 10 in a row to each; the last card of an opponent's packet is shown
            showing = [s for s in seats if s != dealer] if o.get("golpe_partner_shows") else opponents
            for k, seat in enumerate(seats):
                self.hands[seat] = deck[k * size:(k + 1) * size]
                if seat in showing:
                    self.shown.append((seat, deck[(k + 1) * size - 1]))
        elif way == "pelada":  # the top card is the dealer's trump; the rest 10 in a row, the dealer 9
            trump_card = deck[0]
            rest = deck[1:]
            for k, seat in enumerate(seats):
                self.hands[seat] = rest[k * size:(k + 1) * size]
            self.hands[dealer].append(trump_card)
            for seat in opponents:
                for card in self.hands[seat]:  # the first card shown, and the next while they are trumps
                    self.shown.append((seat, card))
                    if suit(card) != suit(trump_card):
                        break
        else:  # one at a time
            for i in range(dealt):
                self.hands[seats[i % n]].append(deck[i])
        self.talon = deck[dealt:]
        self.stock = []
        self.public.extend(self.shown)
        if trump_card is not None:
            self.turned = trump_card
            self.trump = suit(trump_card)
            self.public.append((dealer, trump_card))
        else:  # named or called once the auction is over
            self.turned = None
            self.trump = None

    # ------------------------------------------------------------- cards

    def points(self, card: str) -> int:
        return self.pts.get(rank(card), 0)

    def beats(self, card: str, best: str) -> bool:
        if suit(card) == suit(best):
            return self.strength[rank(card)] > self.strength[rank(best)]
        return suit(card) == self.trump

    def best_index(self, cards: Sequence[str]) -> int:
        best = 0
        for i in range(1, len(cards)):
            if self.beats(cards[i], cards[best]):
                best = i
        return best

    @property
    def ace(self) -> str:
        return f"1{self.trump}"

    @property
    def three(self) -> str:
        return f"3{self.trump}"

    @property
    def over(self) -> bool:
        return self.turn is None

    @property
    def face_up(self) -> str | None:
        return self.stock[-1] if self.stock and self.turned is not None else None

    def side(self, seat: int) -> int:
        return seat % self.sides

    # ------------------------------------------------------------- legality

    def playable(self, seat: int) -> list[str]:
        """The cards ``seat`` (the seat to act) may play under the duties in force."""
        o, hand = self.o, self.hands[seat]
        cands = list(hand)
        trick = [c for _s, c in self.table]
        if trick and self.arrastro_on:
            trumps = [c for c in hand if suit(c) == self.trump]
            if trumps:
                cands = [max(trumps, key=lambda c: self.strength[rank(c)])]
            else:
                top = max(self.strength[rank(c)] for c in hand)
                cands = [c for c in hand if self.strength[rank(c)] == top]
        elif trick and o["follow"] != "none" and (o["follow_from"] == "start" or not self.stock):
            led = suit(trick[0])
            holder, best = self.table[self.best_index(trick)]
            same = [c for c in hand if suit(c) == led]
            trumps = [c for c in hand if suit(c) == self.trump]
            # descanso: the duties are owed to the opponents; the partner's card is neither beaten nor, when it
            # is not a trump, trumped.
            partner_holds = o["follow"] == "descanso" and self.side(holder) == self.side(seat)
            if same:
                cands = same
                if o["follow"] in ("suit_beat_trump", "descanso") and suit(best) == led and not partner_holds:
                    cands = [c for c in same if self.beats(c, best)] or same
            elif trumps and (o["follow"] in ("suit_trump", "suit_beat_trump") or (
                    o["follow"] == "descanso" and not (partner_holds and suit(best) != self.trump))):
                cands = trumps
        elif not trick:
            cands = self.lead_duties(seat, cands)
        if self.pending is not None:  # a pair declared before playing: one of its cards now
            cands = [c for c in cands if c in (f"12{self.pending}", f"11{self.pending}")]
        if o["kill_three"] and not self.three_played and len(hand) > 1 and self.ace in cands:
            cands = [c for c in cands if c != self.ace] or [c for c in hand if c != self.ace]
        return cands

    def lead_duties(self, seat: int, hand: list[str]) -> list[str]:
        """Source 003: in a pelada the cutter leads a trump to the first trick; under ``lead_two: guarded`` a 2
        is led only with the ace of its suit in hand, once that ace has been played, once the partner has failed
        to follow the suit, as the cutter's only trump in the first trick of a pelada, or with nothing else."""
        o = self.o
        cutter_first = not self.tricks and seat == (self.dealer + 1) % self.players
        cands = list(hand)
        if self.way == "pelada" and cutter_first:
            cands = [c for c in hand if suit(c) == self.trump] or cands
        if o.get("lead_two", "any") != "guarded":
            return cands
        played = {c for t in self.tricks for c in t["cards"]}
        partners = self.partners(seat)

        def may_lead(two: str) -> bool:
            s = suit(two)
            if f"1{s}" in hand or f"1{s}" in played:
                return True
            for t in self.tricks:
                if suit(t["cards"][0]) == s:
                    for i, c in enumerate(t["cards"]):
                        if (t["leader"] + i) % self.players in partners and suit(c) != s:
                            return True
            trumps_held = [c for c in hand if suit(c) == self.trump]
            return self.way == "pelada" and cutter_first and trumps_held == [two]

        allowed = [c for c in cands if rank(c) != 2 or may_lead(c)]
        return allowed or cands

    def declarable(self, seat: int, plays: list[str]) -> list[str]:
        """The suits whose king-knight pair ``seat`` may declare now."""
        mode = self.o.get("declarations", "off")
        done = {s for _seat, s, _t in self.declared}
        hand = self.hands[seat]
        out: list[str] = []
        if mode == "on_lead":  # its holder, leading, after having won a trick
            if self.table or self.pending is not None or not any(t["winner"] == seat for t in self.tricks):
                return out
            return [s for s in SUITS if s not in done and f"12{s}" in hand and f"11{s}" in hand]
        if mode == "vales":  # on its turn in the trick where one of the pair is played
            ours = {c for p, c in self.table if self.side(p) == self.side(seat)}
            for s in SUITS:
                if s in done:
                    continue
                king, knight = f"12{s}", f"11{s}"
                partner_showed = (king in ours or knight in ours) and {king, knight} <= ours | set(hand)
                holds_both = (king in hand and knight in hand and (king in plays or knight in plays)
                              and self.pending is None)
                if partner_showed or holds_both:
                    out.append(s)
        return out

    def auction_legal(self) -> list[dict[str, Any]]:
        o, seat = self.o, self.turn
        assert seat is not None
        if self.phase == "bid":
            if o["bidding"] == "low_card":
                order = strength_order(o)
                below = order if self.high is None else order[order.index(self.high[1]) + 1:]
                return [{"pass": True}, *({"bid": str(r)} for r in below)]
            out: list[dict[str, Any]] = []
            left = self.passed.count(False)
            if not (o["all_pass"] == "last_must_bid" and self.high is None and left == 1):
                out.append({"pass": True})
            low = o["min_bid"] if self.high is None else self.high[1] + o["bid_step"]
            out.extend({"bid": v} for v in range(low, o["max_bid"] + 1, o["bid_step"]))
            return out
        if self.phase == "discard":
            return [{"discard": list(c)} for c in combinations(sorted(self.hands[seat]), len(self.talon))]
        if self.phase == "trump":
            return [{"trump": s} for s in SUITS]
        played = {c for t in self.tricks for c in t["cards"]}
        return [{"call": c} for c in deck_cards(o, self.players) if c not in played]

    def exchange_card(self, seat: int) -> str | None:
        """The trump ``seat`` may give for the face-up card now, or ``None``."""
        mode = self.o["trump_exchange"]
        face = self.face_up
        if mode in ("off", "announced") or face is None:
            return None
        if mode != "any_time" and not self.won[seat]:
            return None
        if mode == "before_penultimate" and len(self.stock) <= self.players:
            return None
        if self.face_up_given and not self.o["exchange_chain"]:
            return None
        given = self.exchange_for.get(rank(face))
        if given is None:
            return None
        card = f"{given}{self.trump}"
        return card if card in self.hands[seat] else None

    def announce_card(self, seat: int) -> str | None:
        """The trump ``seat`` may lay under the face-up card now (``trump_exchange: announced``), or ``None``."""
        face = self.face_up
        if self.o["trump_exchange"] != "announced" or face is None or self.announced is not None:
            return None
        if self.face_up_given and not self.o["exchange_chain"]:
            return None
        given = self.exchange_for.get(rank(face))
        card = f"{given}{self.trump}"
        hand = self.hands[seat]
        return card if given is not None and card in hand and len(hand) > 1 else None

    def claim_holds(self, seat: int) -> bool:
        """The ``k`` best trumps still in hands are all where ``seat`` can show them: in its own hand or among
        the cards of its partners it knows (see :meth:`known`)."""
        k = len(self.hands[seat])
        trumps = sorted((c for h in self.hands for c in h if suit(c) == self.trump),
                        key=lambda c: self.strength[rank(c)], reverse=True)
        ours = set(self.hands[seat]) | {c for s, c in self.known(seat) if self.side(s) == self.side(seat)}
        return 0 < k <= len(trumps) and all(c in ours for c in trumps[:k])

    def truthful(self, seat: int) -> list[str]:
        hand = self.hands[seat]
        names = SIGNAL_SETS[self.o.get("signal_set", "spanish")]
        trump_ranks = {rank(c) for c in hand if suit(c) == self.trump}
        out = [name for name, r in HONOUR_SIGNALS.items() if r in trump_ranks]
        if trump_ranks & SMALL_TRUMPS:
            out.append("small-trumps")
        if any(suit(c) != self.trump and rank(c) in (1, 3) for c in hand):
            out.append("briscas")
        if any(suit(c) != self.trump and rank(c) in strength_order(self.o)[:2] for c in hand):
            out.append("high-card")
        if not trump_ranks:
            out.append("no-trumps")
        if self.o.get("signal_asks", True):
            out += ASKS
        return [name for name in out if name in names]

    def markable(self, seat: int) -> list[str]:
        """The suits ``seat``, asked in a window, may still declare."""
        m = self.mark
        assert m is not None
        done = {s for _seat, s, _t in self.declared}
        ours = {c for p, c in m["table"] if self.side(p) == self.side(seat)}
        mine = set(m["held"][seat])
        return [s for s in SUITS if s not in done and {f"12{s}", f"11{s}"} & ours
                and {f"12{s}", f"11{s}"} <= ours | mine]

    def window(self) -> list[int]:
        """The seats to ask after a card, in order of play (public facts only)."""
        done = {s for _seat, s, _t in self.declared}
        earlier = {c for t in self.tricks for c in t["cards"]}
        public = self.known(None)
        sides = set()
        for p, c in self.table:
            if rank(c) not in (11, 12) or suit(c) in done:
                continue
            other = f"{23 - rank(c)}{suit(c)}"
            if other in earlier or any(c2 == other and self.side(p2) != self.side(p) for p2, c2 in self.table):
                continue
            if any(c2 == other and self.side(p2) != self.side(p) for p2, c2 in public):
                continue
            sides.add(self.side(p))
        return [p for p, _c in self.table if self.side(p) in sides]

    def legal(self, seat: int | None = None) -> list[dict[str, Any]]:
        """The actions the seat to act (or ``seat``) may take, in record form without the seat: a seat not to act
        only its exchange under ``trump_exchange: out_of_turn``."""
        if self.turn is None:
            return []
        if seat is not None and seat != self.turn:
            give = self.exchange_card(seat) if self.o["trump_exchange"] == "out_of_turn" else None
            return [] if give is None else [{"exchange": give}]
        if self.phase == "cut":
            return [{"cut": w} for w in self.o.get("cut_ways", ["alce", "golpe", "pelada"])]
        if self.phase == "mark":
            return [*({"declare": s} for s in self.markable(self.turn)), {"pass": True}]
        if self.phase != "play":
            return self.auction_legal()
        seat, o = self.turn, self.o
        plays = self.playable(seat)
        out: list[dict[str, Any]] = [{"play": c} for c in plays]
        out.extend({"declare": s} for s in self.declarable(seat, plays))
        if o["arrastro"] and not self.table and self.ace in plays:
            out.append({"play": self.ace, "arrastro": True})
        give = self.exchange_card(seat)
        if give is not None:
            out.append({"exchange": give})
        announce = self.announce_card(seat)
        if announce is not None:
            out.append({"announce": announce})
        if (o["claim"] and o.get("claim_by", "seat") == "seat" and not self.stock and not self.table
                and self.claim_holds(seat)):
            out.append({"claim": True})
        if o["signals"] != "off" and self.sides < self.players:
            names = [s for s in self.truthful(seat) if s not in self.turn_signals]
            out.extend({"signal": s} for s in names)
            if o["signals"] == "combination":
                out.extend({"signal": s, "aloud": True} for s in names)
        return out

    def legal_keys(self, seat: int | None = None) -> set[str]:
        return {key(a) for a in self.legal(seat)}

    # ------------------------------------------------------------- moves

    def act(self, seat: int, action: Mapping[str, Any]) -> None:
        if self.turn is None:
            raise RefereeError("the hand is over")
        action = dict(action)
        if seat != self.turn and not ("exchange" in action and self.o["trump_exchange"] == "out_of_turn"):
            raise RefereeError(f"out of turn: seat {self.turn} is to act, not seat {seat}")
        action.pop("seat", None)
        if action.get("arrastro") is False:
            del action["arrastro"]
        if action.get("aloud") is False:
            del action["aloud"]
        if "play" in action:
            action["play"] = str(action["play"]).upper()
        for k in ("exchange", "announce"):
            if k in action:
                action[k] = str(action[k]).upper()
        for k in ("call", "trump", "declare"):
            if k in action:
                action[k] = str(action[k]).upper()
        if "discard" in action:
            action["discard"] = sorted(str(c).upper() for c in action["discard"])
        if key(action) not in self.legal_keys(seat):
            raise RefereeError(f"seat {seat} may not {key(action)} now; legal: {sorted(self.legal_keys())}")
        self.history.append((seat, action))
        hand = self.hands[seat]
        if self.phase == "cut":
            self.way = action["cut"]
            self.deal_out(self.deck)
            self.dealt = [list(h) for h in self.hands]
            self.phase = "play"
            self.turn = self.leader
        elif self.phase == "mark":
            m = self.mark
            assert m is not None
            if "declare" in action:
                self.declared.append((seat, action["declare"], m["t"]))
            if "pass" in action or not self.markable(seat):
                m["seats"].pop(0)
                if m["seats"]:
                    self.turn = m["seats"][0]
                else:
                    self.phase, self.turn, self.mark = m["then"], m["resume"], None
        elif "play" in action:
            card = action["play"]
            hand.remove(card)
            self.turn_signals.clear()
            self.pending = None
            if action.get("arrastro"):
                self.arrastro_on = True
            if card == self.three:
                self.three_played = True
            self.table.append((seat, card))
            asked = self.window() if self.o.get("declarations") == "vales" else []
            mark = {"t": len(self.tricks), "table": list(self.table), "held": [list(h) for h in self.hands],
                    "seats": asked}
            if len(self.table) < self.players:
                self.turn = (seat + 1) % self.players
            else:
                self.end_trick()
            if asked and self.killer is None:
                self.mark = dict(mark, resume=self.turn, then=self.phase)  # play, or a Buia call
                self.phase, self.turn = "mark", asked[0]
        elif "exchange" in action:
            card = action["exchange"]
            face = self.stock[-1]
            hand.remove(card)
            hand.append(face)
            self.stock[-1] = card
            self.face_up_given = True
            self.exchanges.append({"seat": seat, "gave": card, "took": face})
            self.public.append((seat, face))
        elif "announce" in action:
            hand.remove(action["announce"])
            self.announced = (seat, action["announce"])
        elif "claim" in action:
            self.take_rest(seat)
        elif "signal" in action:
            self.turn_signals.add(action["signal"])
            self.signals.append((seat, action["signal"], bool(action.get("aloud"))))
        elif "declare" in action:
            s = action["declare"]
            self.declared.append((seat, s, len(self.tricks)))
            if not any(c in (f"12{s}", f"11{s}") for _p, c in self.table):
                self.pending = s
        else:
            self.auction_act(seat, action)
        if self.o["claim"] and self.o.get("claim_by", "seat") == "side":
            self.side_claim()

    def take_rest(self, seat: int) -> None:
        """A claim: every card left in hands goes to ``seat``, and the hand ends."""
        cards = [c for h in self.hands for c in h]
        pts = sum(self.points(c) for c in cards)
        self.seat_points[seat] += pts
        self.claim = {"seat": seat, "cards": cards, "points": pts}
        for h in self.hands:
            h.clear()
        self.turn = None

    def side_claim(self) -> None:
        """``claim_by: side``: before a trick is led with the stock gone, a side holding the ``k`` best trumps left
        in its hands together (``k`` = cards each holds) takes the rest, claimed by its first seat in turn; no
        action says so (a replay makes it again)."""
        if self.turn is None or self.phase != "play" or self.stock or self.table or self.claim is not None:
            return
        if self.trump is None:
            return
        k = len(self.hands[self.turn])
        trumps = sorted((c for h in self.hands for c in h if suit(c) == self.trump),
                        key=lambda c: self.strength[rank(c)], reverse=True)
        if not 0 < k <= len(trumps):
            return
        holders = {self.side(s) for s, h in enumerate(self.hands) for c in h if c in trumps[:k]}
        if len(holders) != 1:
            return
        side = holders.pop()
        n = self.players
        self.take_rest(next(s for s in ((self.turn + i) % n for i in range(n)) if self.side(s) == side))

    def auction_act(self, seat: int, action: dict[str, Any]) -> None:
        o, n = self.o, self.players
        if "bid" in action or "pass" in action:
            self.bids.append((seat, action))
            if "pass" in action:
                self.passed[seat] = True
            else:
                self.high = (seat, int(action["bid"]))
            if o["bidding"] == "low_card":  # once round the table
                if len(self.bids) < n:
                    self.turn = (seat + self.bid_step_seat) % n
                    return
                winner = None if self.high is None else self.high[0]
            else:
                left = [s for s in range(n) if not self.passed[s]]
                if left and not (len(left) == 1 and self.high is not None and self.high[0] == left[0]):
                    nxt = (seat + self.bid_step_seat) % n
                    while self.passed[nxt]:
                        nxt = (nxt + self.bid_step_seat) % n
                    self.turn = nxt
                    return
                winner = left[0] if left else None
            if winner is None:  # everybody passed: a void hand
                self.turn = None
                return
            self.turn = winner
            if self.talon:
                self.phase = "discard"
                self.hands[winner].extend(self.talon)
            elif o["trump_from"] == "named" or o["bidding"] == "low_card":
                self.phase = "trump"
            elif o.get("call_time", "before_play") == "after_first_trick":
                self.blind = winner  # the bidder leads a first trick without trumps, and calls after it
                self.phase = "play"
                self.leader = winner
            else:
                self.phase = "call"
        elif "discard" in action:
            for c in action["discard"]:
                self.hands[seat].remove(c)
            self.discards = list(action["discard"])
            self.seat_points[seat] += sum(self.points(c) for c in self.discards)
            self.phase = "trump"
        elif "trump" in action:
            called = f"{self.high[1]}{action['trump']}" if o["bidding"] == "low_card" else None  # type: ignore
            self.start_play(seat, action["trump"], called)
        else:
            self.start_play(seat, suit(action["call"]), action["call"])

    def start_play(self, declarer: int, trump: str, called: str | None) -> None:
        self.trump = trump
        partner = None if called is None else next(s for s in range(self.players) if called in self.hands[s])
        bid = [a for s, a in self.bids if s == declarer and "bid" in a][-1]
        points = bid["bid"] if isinstance(bid["bid"], int) else self.o["min_bid"]
        self.contract = {"declarer": declarer, "bid": bid["bid"], "points": points, "trump": trump,
                         "called": called, "partner": partner}
        self.phase = "play"
        if self.blind is not None:  # called after the first trick: its winner leads
            self.blind = None
            self.turn = self.leader
        else:
            self.leader = self.turn = declarer

    def end_trick(self) -> None:
        n = self.players
        cards = [c for _s, c in self.table]
        winner = self.table[self.best_index(cards)][0]
        pts = sum(self.points(c) for c in cards)
        self.tricks.append({"leader": self.leader, "cards": cards, "winner": winner, "points": pts})
        self.seat_points[winner] += pts
        self.won[winner] = True
        self.table = []
        self.arrastro_on = False
        if self.o["kill_three"] and self.ace in cards and self.three in cards:
            self.killer = (self.leader + cards.index(self.ace)) % n
            self.turn = None
            self.take_back()
            return
        if self.announced is not None and self.announced[0] == winner:  # 001: the announced exchange is made
            given = self.announced[1]
            face = self.stock[-1]
            self.stock[-1] = given
            self.hands[winner].append(face)
            self.face_up_given = True
            self.exchanges.append({"seat": winner, "gave": given, "took": face})
            self.public.append((winner, face))
            self.announced = None
        # face_up_to: trick_winner: in the last round the winner draws last, taking the face-up card.
        first = winner + 1 if (self.o.get("face_up_to") == "trick_winner" and self.turned is not None
                               and len(self.stock) == n) else winner
        for k in range(n):
            if self.stock:
                s = (first + k) % n
                card = self.stock.pop(0)
                self.hands[s].append(card)
                if not self.stock and self.turned is not None:
                    self.public.append((s, card))  # the face-up card, drawn last
        if not self.stock:
            self.take_back()
        self.leader = winner
        self.turn = None if not any(self.hands) else winner
        if self.blind is not None and self.turn is not None:
            self.phase, self.turn = "call", self.blind

    def take_back(self) -> None:
        """An announced trump whose exchange was not made goes back to its seat's hand, seen by everybody."""
        if self.announced is not None:
            seat, card = self.announced
            self.hands[seat].append(card)
            self.public.append((seat, card))
            self.taken_back.append((seat, card))
            self.announced = None

    # ------------------------------------------------------------- outcome

    def captured(self, side: int) -> list[str]:
        out = [c for t in self.tricks if self.side(t["winner"]) == side for c in t["cards"]]
        if self.claim is not None and self.side(self.claim["seat"]) == side:
            out += self.claim["cards"]
        return out

    def bonuses(self) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        if not self.over:
            return out
        n_bonus = self.o["last_trick_bonus"]
        if n_bonus and self.killer is None:
            last = self.claim["seat"] if self.claim is not None else (
                self.tricks[-1]["winner"] if self.tricks else None)
            if last is not None:
                out.append({"side": self.side(last), "points": n_bonus, "why": "last trick"})
        for seat, s, t in self.declared:
            if self.o["declarations"] == "vales":  # to the side that wins the trick
                if t >= len(self.tricks):
                    continue
                side = self.side(self.tricks[t]["winner"])
            else:  # to the holder
                side = self.side(seat)
            out.append({"side": side, "points": 40 if s == self.trump else 20,
                        "why": f"king and knight of {SUIT_NAMES[s]} declared"})
        if self.o["pair_bonus"]:
            for side in range(self.sides):
                taken = set(self.captured(side))
                for s in SUITS:
                    if f"12{s}" in taken and f"11{s}" in taken:
                        out.append({"side": side, "points": 40 if s == self.trump else 20,
                                    "why": f"king and knight of {SUIT_NAMES[s]}"})
        return out

    def team_points(self) -> list[int]:
        out = [0] * self.sides
        for seat, p in enumerate(self.seat_points):
            out[self.side(seat)] += p
        for b in self.bonuses():
            out[b["side"]] += b["points"]
        return out

    def outcome(self) -> tuple[int | None, str | None, bool]:
        """(winner, reason, replay) once the hand is over."""
        if not self.over:
            return None, None, False
        if self.killer is not None:
            return self.side(self.killer), "three-killed", False
        if self.o.get("contract", "off") != "off":
            if self.contract is None:
                return None, "all-passed", False
            return (self.contract["declarer"], "made", False) if self.made() else (None, "set", False)
        team = self.team_points()
        every = len(self.tricks) * self.players == len(self.deck) - len(self.talon)
        if self.o.get("capote") not in (None, False, "off") and (every or self.claim is not None):
            won = {self.side(t["winner"]) for t in self.tricks}
            if self.claim is not None:  # the tricks a claim took are the claimer's
                won.add(self.side(self.claim["seat"]))
            if len(won) == 1:
                return won.pop(), "capote", False
        limit = self.o.get("point_limit", 0)
        if limit:
            within = [i for i, p in enumerate(team) if p <= limit]
            return (within[0] if len(within) == 1 else None), "within-limit" if within else "over-limit", False
        best = (min if self.o["hand_winner"] == "least" else max)(team)
        tied = [i for i, p in enumerate(team) if p == best]
        if len(tied) == 1:
            return tied[0], "points", False
        if self.o["tie"] == "most_cards":
            counts = {s: len(self.captured(s)) for s in tied}
            most = max(counts.values())
            top = [s for s, c in counts.items() if c == most]
            if len(top) == 1:
                return top[0], "most-cards", False
        if self.o["tie"] == "shared":
            return None, "shared", False
        return None, "tie", self.o["tie"] == "replay"

    def shared(self) -> list[int]:
        """The sides awarded a hand shared under ``tie: shared``, or within ``point_limit`` when several are (else
        empty)."""
        winner, reason, _replay = self.outcome()
        team = self.team_points()
        if reason == "within-limit" and winner is None:
            return [i for i, p in enumerate(team) if p <= self.o["point_limit"]]
        if reason != "shared":
            return []
        best = (min if self.o["hand_winner"] == "least" else max)(team)
        return [i for i, p in enumerate(team) if p == best]

    def made(self) -> bool:
        """Whether the declarer's side took the points it bid (cards, discards, bonuses)."""
        assert self.contract is not None
        team = self.team_points()
        side = {self.contract["declarer"], self.contract["partner"]} - {None}
        return sum(team[self.side(s)] for s in side) >= self.contract["points"]

    def scores(self) -> list[int] | None:
        """Games with a contract: the match points each seat scores for the hand."""
        if self.o.get("contract", "off") == "off" or not self.over:
            return None
        n, c = self.players, self.contract
        if c is None:
            return [0] * n
        made, bid = self.made(), c["points"]
        if self.o["contract"] == "solo":  # the bid to the declarer, or half of it to each defender
            return [(bid if s == c["declarer"] else 0) if made else (0 if s == c["declarer"] else bid // 2)
                    for s in range(n)]
        alone = c["partner"] == c["declarer"]
        out = []
        for s in range(n):
            value = (4 if alone else 2) if s == c["declarer"] else 1 if s == c["partner"] else -1
            out.append(value if made else -value)
        return out

    def margin(self) -> int:
        """By how much the winner won: its lead over the nearest other side, in the direction that wins
        (under ``hand_winner: least``, how many fewer points it took)."""
        winner, _reason, _replay = self.outcome()
        if winner is None:
            return 0
        team = self.team_points()
        others = [p for i, p in enumerate(team) if i != winner]
        if not others:
            return 0
        if self.o["hand_winner"] == "least":
            return min(others) - team[winner]
        return team[winner] - max(others)

    def summary(self) -> dict[str, Any]:
        winner, reason, replay = self.outcome()
        return {
            "trump": self.trump,
            "turned": self.turned,
            "deal": self.deal_number,
            "dealer": self.dealer,
            "tricks": [dict(t, cards=list(t["cards"])) for t in self.tricks],
            "current_trick": [c for _s, c in self.table],
            "exchanges": [dict(e) for e in self.exchanges],
            "announced": None if self.announced is None else {"seat": self.announced[0], "card": self.announced[1]},
            "taken_back": [{"seat": s, "card": c} for s, c in self.taken_back],
            "signals": [{"seat": s, "signal": name} for s, name, _aloud in self.signals],
            "claim": None if self.claim is None else dict(self.claim, cards=list(self.claim["cards"])),
            "seat_points": list(self.seat_points),
            "bonuses": self.bonuses(),
            "team_points": self.team_points(),
            "over": self.over,
            "turn": self.turn,
            "winner": winner,
            "reason": reason,
            "winners": self.shared(),
            "replay": replay,
            "phase": self.phase,
            "bids": [{"seat": s, **a} for s, a in self.bids],
            "contract": None if self.contract is None else dict(self.contract),
            "discards": list(self.discards),
            "declarations": [{"seat": s, "declare": x} for s, x, _t in self.declared],
            "scores": self.scores(),
        }

    # ------------------------------------------------------------- views

    def partners(self, viewer: int | None) -> list[int]:
        if viewer is None:
            return []
        return [s for s in range(self.players) if s != viewer and self.side(s) == self.side(viewer)]

    def known(self, viewer: int | None) -> set[tuple[int, str]]:
        """``(seat, card)``: the cards ``viewer`` (``None``: a spectator) knows another seat holds now."""
        o = self.o
        cand = set(self.public)
        if o["open_hands"]:
            cand |= {(s, c) for s in range(self.players) for c in self.hands[s]}
        if o["deal_look"]:
            cand |= {(s, c) for s in self.partners(viewer) for c in self.dealt[s]}
        if o["partners_look"] and not self.stock:
            cand |= {(s, c) for s in self.partners(viewer) for c in self.hands[s]}
        return {(s, c) for s, c in cand if s != viewer and c in self.hands[s]}

    def sees_signal(self, viewer: int | None, signaller: int, aloud: bool = False) -> bool:
        mode = self.o["signals"]
        if mode == "open" or (mode == "combination" and aloud):
            return True
        return mode in ("partner", "combination") and viewer is not None and self.side(viewer) == self.side(signaller)

    def visible_signals(self, viewer: int | None) -> list[tuple[int, str]]:
        return [(s, name) for s, name, aloud in self.signals if self.sees_signal(viewer, s, aloud)]


# ------------------------------------------------------------------ replays


def entry_action(entry: Mapping[str, Any]) -> tuple[int, dict[str, Any]]:
    """``(seat, action)`` from a record entry such as ``{"seat": 0, "play": "3O"}``."""
    kinds = [k for k in ("play", "exchange", "announce", "claim", "signal", "bid", "pass", "call", "trump", "discard",
                         "declare", "cut") if k in entry]
    if len(kinds) != 1 or "seat" not in entry:
        raise RefereeError(f"bad action {dict(entry)!r}")
    extra = set(entry) - {"seat", kinds[0]} - {"play": {"arrastro"}, "signal": {"aloud"}}.get(kinds[0], set())
    if extra:
        raise RefereeError(f"bad action {dict(entry)!r}")
    if kinds[0] == "signal" and entry["signal"] not in SIGNALS:
        raise RefereeError(f"unknown signal {entry['signal']!r}")
    if kinds[0] == "claim" and entry["claim"] is not True:
        raise RefereeError("a claim is written {\"claim\": true}")
    if kinds[0] == "pass" and entry["pass"] is not True:
        raise RefereeError("a pass is written {\"pass\": true}")
    if kinds[0] == "discard" and not isinstance(entry["discard"], list):
        raise RefereeError("a discard is a list of cards")
    return entry["seat"], {k: v for k, v in entry.items() if k != "seat"}


def play_hand(
    options: Mapping[str, Any], players: int, dealer: int, deck: Sequence[str],
    actions: Iterable[Mapping[str, Any]], deal_number: int = 0,
) -> Hand:
    """Replay record entries from the deal; :class:`RefereeError` starting ``action N:`` on the first bad one."""
    hand = Hand(options, players, dealer, deck, deal_number)
    for i, entry in enumerate(actions):
        try:
            hand.act(*entry_action(entry))
        except (RefereeError, KeyError, TypeError, ValueError) as exc:
            raise RefereeError(f"action {i}: {exc}") from None
    return hand


class MatchScore:
    """The match around finished hands: who deals next, hands won, points, and the winner."""

    def __init__(self, options: Mapping[str, Any], players: int) -> None:
        self.o, self.players = dict(options), players
        self.sides = sides_of(options, players)
        self.hands: list[Hand] = []

    def add(self, hand: Hand) -> None:
        self.hands.append(hand)

    @property
    def hands_won(self) -> list[int]:
        wins = [0] * self.sides
        for h in self.hands:
            winner, _reason, _replay = h.outcome()
            if winner is not None:
                wins[winner] += 2 if self.o["big_win"] and h.margin() > 100 else 1
            for side in h.shared():
                wins[side] += 1
        return wins

    @property
    def points(self) -> list[int]:
        total = [0] * self.sides
        for h in self.hands:
            scores = h.scores()
            for side, p in enumerate(h.team_points() if scores is None else scores):
                total[side] += p
        return total

    @property
    def game_points(self) -> list[int]:
        total = [0] * self.sides
        for h in self.hands:
            winner, reason, _replay = h.outcome()
            if h.scores() is not None:
                if h.contract is None:
                    continue
                seats = {h.contract["declarer"], h.contract["partner"]} - {None}
                contract_sides = {h.side(s) for s in seats}
                for side in range(self.sides):
                    if (side in contract_sides) == (reason == "made"):
                        total[side] += 1
                continue
            if winner is not None:
                total[winner] += 2 if self.o["big_win"] and h.margin() > 100 else 1
            for side in h.shared():
                total[side] += 1
        return total

    def _score(self) -> list[int]:
        mode = self.o["match"]
        return self.points if mode == "target_points" else self.game_points if mode == "game_points" \
            else self.hands_won

    def _deals(self) -> int:
        return sum(1 for h in self.hands if h.over and not h.outcome()[2])

    @property
    def over(self) -> bool:
        if self.o["trump_rotation"]:
            return self._deals() >= 4 or (self.o.get("capote") == "match" and self.winner is not None)
        return self.winner is not None

    @property
    def winner(self) -> int | None:
        if self.o.get("capote") == "match":
            for h in self.hands:
                winner, reason, _replay = h.outcome()
                if reason == "capote":
                    return winner
        if self.o["trump_rotation"] or self.o["match"] == "fixed_hands":
            # Four deals (rotation), or the agreed number then one more at a time: decided the first time the
            # deals are enough and one side leads.
            length = 4 if self.o["trump_rotation"] else self.o["hands"]
            for upto in range(1, len(self.hands) + 1):
                part = MatchScore(self.o, self.players)
                part.hands = self.hands[:upto]
                if part._deals() < length:
                    continue
                score = part._score()
                top = [s for s, v in enumerate(score) if v == max(score)]
                if len(top) == 1:
                    return top[0]
                if self.o["trump_rotation"]:
                    return None
            return None
        # Checked hand by hand: the first hand after which a side has reached the target decides.
        hands = self.o["target_hands"]
        if self.o.get("target_hands_alone") and self.sides == self.players:
            hands = self.o["target_hands_alone"]
        target = {"target_points": self.o["target_points"], "game_points": self.o["target_game_points"]}.get(
            self.o["match"], hands)
        together = False
        for upto in range(1, len(self.hands) + 1):
            part = MatchScore(self.o, self.players)
            part.hands = self.hands[:upto]
            score = part._score()
            reached = [s for s, v in enumerate(score) if v >= target]
            if self.o.get("reached_together") == "more_hands" and self.o["match"] != "target_hands":
                # Several reaching the target in one hand play more hands, until one ends a hand ahead of all.
                if together and not self.hands[upto - 1].outcome()[2]:
                    top = [s for s, v in enumerate(score) if v == max(score)]
                    if len(top) == 1:
                        return top[0]
                elif len(reached) == 1:
                    return reached[0]
                together = together or len(reached) > 1
                continue
            if reached:
                best = max(score[s] for s in reached)
                top = [s for s in reached if score[s] == best]
                if len(top) == 1:
                    return top[0]
        return None

    def next_deal(self) -> tuple[int, int]:
        """``(dealer, deal number)`` of the next hand."""
        last = self.hands[-1]
        if last.outcome()[2]:
            return last.dealer, last.deal_number
        return (last.dealer + 1) % self.players, last.deal_number + 1


def replay_record(data: Mapping[str, Any], preset: Mapping[str, Any]) -> dict[str, Any]:
    """Replay a ``brisca-record/1`` (parsed JSON) whose variant has the option values ``preset``.

    A hand gives :meth:`Hand.summary`; a match gives ``hands`` (one summary each),
    ``hands_won``, ``match_points``, ``match_over`` and ``match_winner``.
    :class:`RefereeError` names the first thing wrong (``hand H: action N: ...``).
    """
    if data.get("format") != "brisca-record/1":
        raise RefereeError("not a brisca-record/1")
    options = dict(preset)
    unknown = set(data.get("rules", {})) - set(options)
    if unknown:
        raise RefereeError(f"unknown option(s) {sorted(unknown)}")
    options.update(data.get("rules", {}))
    players = data["players"]
    if "hands" not in data:
        return play_hand(options, players, data["dealer"], data["deck"], data.get("actions", []),
                         data.get("deal", 0)).summary()
    seating = check_draw(data, options, players)
    first = check_dealer_draw(data, options, players)
    if first is not None and data["hands"][0]["dealer"] != first:
        raise RefereeError(f"hand 0: the draw for the dealer gives seat {first}, not {data['hands'][0]['dealer']}")
    match = MatchScore(options, players)
    for i, h in enumerate(data["hands"]):
        deal = h.get("deal", 0)
        if seating is not None and not match.hands and h["dealer"] != 0:
            raise RefereeError(f"hand {i}: the highest card sits at seat 0 and deals, not seat {h['dealer']}")
        if match.hands:
            if not match.hands[-1].over:
                raise RefereeError(f"hand {i}: the hand before is not finished")
            if match.over:
                raise RefereeError(f"hand {i}: the match is already over")
            dealer, deal = match.next_deal()
            if h["dealer"] != dealer or h.get("deal", deal) != deal:
                raise RefereeError(f"hand {i}: dealer {h['dealer']} deal {h.get('deal')}, not {dealer} {deal}")
        try:
            match.add(play_hand(options, players, h["dealer"], h["deck"], h.get("actions", []), deal))
        except RefereeError as exc:
            raise RefereeError(f"hand {i}: {exc}") from None
    out: dict[str, Any] = {} if seating is None else {"seating": seating}
    out |= {"hands": [h.summary() for h in match.hands], "hands_won": match.hands_won,
            "match_points": match.points}
    if options["match"] == "game_points":
        out["game_points"] = match.game_points
    return out | {"match_over": match.over, "match_winner": match.winner}


def check_dealer_draw(data: Mapping[str, Any], options: Mapping[str, Any], players: int) -> int | None:
    """The first dealer the record's draw for the dealer gives (``None`` without one).

    The first round has every seat, each later one the seats level after it, in seat order; each card different
    and in play.  The highest card by rank order wins (``dealer_draw: face_value``: by number, 1 to 10, the sota 8,
    the caballo 9, the rey 10 in 40 cards; where seats of both sides of two are level, the side whose cards of the
    round add up to more); seats still level draw again."""
    rounds = data.get("dealer_draw")
    if rounds is None:
        return None
    if options.get("partners") == "draw":
        raise RefereeError("a draw for the dealer under partners: draw")
    in_play = set(deck_cards(options, players))
    drawing = list(range(players))
    for r in rounds:
        if len(drawing) == 1:
            raise RefereeError("the draw for the dealer goes on after its highest card")
        if list(r["seats"]) != drawing or len(set(r["cards"])) != len(drawing) or not set(r["cards"]) <= in_play:
            raise RefereeError(f"the draw for the dealer: seats {drawing} draw next, each a card in play")
        drawing = dealer_draw_leaders(options, players, drawing, r["cards"])
    if len(drawing) != 1:
        raise RefereeError(f"the draw for the dealer: seats {drawing} are level and must draw again")
    return drawing[0]


def dealer_draw_leaders(options: Mapping[str, Any], players: int, drawing: list[int],
                        cards: Sequence[str]) -> list[int]:
    """The seats still in the running after one round of the draw for the dealer (see :func:`check_dealer_draw`)."""
    order = strength_order(options)
    if options.get("dealer_draw") == "face_value":
        numbers = sorted({1, 2, 3, 4, 5, 6, 7, 10, 11, 12} | ({8, 9} if options["deck"] == 48 else set()))
        value = {r: i + 1 for i, r in enumerate(numbers)}
    else:
        value = {r: len(order) - i for i, r in enumerate(order)}
    sides = sides_of(options, players)
    v = {p: value[int(c[:-1])] for p, c in zip(drawing, cards, strict=True)}
    top = [p for p in drawing if v[p] == max(v.values())]
    if options.get("dealer_draw") == "face_value" and sides < players and len({p % sides for p in top}) > 1:
        sums = [sum(v[p] for p in drawing if p % sides == side) for side in range(sides)]
        best = max(sums[p % sides] for p in top)
        top = [p for p in top if sums[p % sides] == best]
    return top


def check_draw(data: Mapping[str, Any], options: Mapping[str, Any], players: int) -> list[int] | None:
    """The seat of each player after the record's draw for partners (``None`` without ``partners: draw``)."""
    if options.get("partners", "fixed") != "draw":
        if "draw" in data or "seating" in data:
            raise RefereeError("a draw for partners without partners: draw")
        return None
    rounds = list(data.get("draw") or [])
    if not rounds:
        raise RefereeError("no draw for partners")
    in_play = set(deck_cards(options, players))
    power = {r: len(strength_order(options)) - i for i, r in enumerate(strength_order(options))}

    def ranked(group: list[int]) -> list[int]:
        if not rounds:
            raise RefereeError(f"players {group} are tied and do not draw again")
        r = rounds.pop(0)
        if list(r["players"]) != group:
            raise RefereeError(f"the draw: players {group} draw next, not {r['players']}")
        cards = list(r["cards"])
        if len(cards) != len(group) or len(set(cards)) != len(cards) or not set(cards) <= in_play:
            raise RefereeError(f"the draw: bad cards {cards}")
        value = {p: power[int(c[:-1])] for p, c in zip(group, cards, strict=True)}
        out: list[int] = []
        for v in sorted(set(value.values()), reverse=True):
            tied = [p for p in group if value[p] == v]
            out += tied if len(tied) == 1 else ranked(tied)
        return out

    order = ranked(list(range(players)))
    if rounds:
        raise RefereeError("the draw goes on after its ties are broken")
    seats = [0] * players
    two_sides = sides_of(options, players) < players
    for i, p in enumerate(order):
        seats[p] = (2 * i if i < players // 2 else 2 * (i - players // 2) + 1) if two_sides else i
    if "seating" in data and list(data["seating"]) != seats:
        raise RefereeError(f"the seating is {seats}, not {data['seating']}")
    return seats


# ------------------------------------------------------------------ a random driver for the tests


def choose(legal: list[dict[str, Any]], rng: random.Random, signal_rate: float = 0.15) -> dict[str, Any]:
    """A random legal action, taking the rare ones (exchange, arrastro, claim, declarations) often and signals now
    and then; in an auction, passing half the time and bidding low, so that auctions last and sometimes all pass."""
    if any("bid" in a for a in legal) or legal == [{"pass": True}]:  # an auction: pass half the time, else bid low
        bids = [a for a in legal if "bid" in a]
        if not bids or (len(bids) < len(legal) and rng.random() < 0.45):
            return {"pass": True}
        if isinstance(bids[0]["bid"], int) and rng.random() < 0.8:
            return bids[min(len(bids) - 1, int(rng.expovariate(0.4)))]
        return rng.choice(bids)
    special = [a for a in legal if "exchange" in a or "announce" in a or "claim" in a or a.get("arrastro")
               or "declare" in a]
    if special and rng.random() < 0.5:
        return rng.choice(special)
    signals = [a for a in legal if "signal" in a]
    plays = [a for a in legal if a not in signals and a not in special] or legal
    if signals and rng.random() < signal_rate:
        return rng.choice(signals)
    return rng.choice(plays)
