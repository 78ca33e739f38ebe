"""An independent referee for every rule option of the Brisca family: one hand, and a match of hands.

Nothing here imports :mod:`brisca`.  Cards are plain strings such as ``"3O"`` or
``"12E"`` (rank number, then suit letter), hands and the stock are plain lists,
and actions are the record form of ``brisca-record/1`` without the seat:
``{"play": "3O"}``, ``{"play": "1O", "arrastro": True}``, ``{"exchange": "7B"}``,
``{"claim": True}`` and ``{"signal": "briscas"}``.  The rules are given as a
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
  winning the trick when that card is of the suit led and the seat can.
* ``trump_exchange``: on its turn (without ending it), while the face-up card is
  in the stock, a seat may give the trump ``exchange_with`` names for the face-up
  card's rank: ``after_win`` once it has won a trick, ``any_time`` always,
  ``before_penultimate`` as ``after_win`` while the stock holds more cards than
  there are players.  Without ``exchange_chain`` a face-up card that was itself
  given in an exchange cannot be taken.
* ``arrastro``: a seat leading that may play the ace of trumps may play it as
  arrastro; each later seat in the trick must play its highest trump if it holds
  a trump, else one of its highest-ranked cards (any suit).
* ``claim``: once the stock is empty, the seat to lead may claim when the ``k``
  highest trumps still in hands (``k`` = cards it holds, and there must be ``k``)
  are all held by its side, as far as the seat can show: in its own hand, or
  among the partners' cards it knows (below).  A claim that hung on a partner's
  hidden cards would tell the seat where they are.  Every card left in hands goes
  to its points (and is captured by its side) and the hand ends.
* ``signals`` (only when there are fewer sides than seats): on its turn a seat may
  make any truthful signal it has not made this turn (a turn ends when it plays).
* ``kill_three``: while the three of trumps has not been played, the ace of
  trumps may not be played by a seat holding more than one card (if it is all the
  duty allows, any other card may be played); a trick holding both ends the hand,
  won by the side of the seat that played the ace (reason ``three-killed``).
* Bonuses: ``last_trick_bonus`` to the side of the last trick's winner or of the
  claimer (none when the three is killed); ``pair_bonus``: 40 (trumps) or 20 for
  each suit whose king and knight a side captured.  Side totals include them.
* Winner: most (or under ``hand_winner: least`` fewest) total; a tie: ``draw``,
  ``replay`` (same dealer, same deal number), ``most_cards`` (the tied side that
  captured more cards; still tied: a draw).
* Match: ``target_hands`` (a hand won by a margin of more than 100 counts two
  under ``big_win``; the margin is the winner's lead over the nearest other side,
  which under ``hand_winner: least`` is how many fewer points it took) or
  ``target_points`` (side totals added over the hands): the first side to reach
  the target wins; several in one hand: the highest; level: play on.  Under
  ``trump_rotation`` the match is the four deals (0 to 3; a replayed deal does
  not count twice), won by the most hands (or points); level: no winner.
* Views: a viewer knows the cards of another hand that were face up (taken in an
  exchange, the face-up card drawn last), its partners' dealt cards under
  ``deal_look``, its partners' hands once the stock is empty under
  ``partners_look``, and every hand under ``open_hands``.  Signals are seen by the
  signaller's side under ``partner`` (spectators see none), by everyone under
  ``open``.

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

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

SUITS = "OCEB"
SUIT_NAMES = {"O": "coins", "C": "cups", "E": "swords", "B": "clubs"}
#: Signals that name one trump rank.
HONOUR_SIGNALS = {"trump-ace": 1, "trump-three": 3, "trump-king": 12, "trump-knight": 11, "trump-jack": 10}
SIGNALS = (*HONOUR_SIGNALS, "small-trumps", "briscas", "no-trumps", "ask-points", "ask-cards")
SMALL_TRUMPS = {2, 4, 5, 6, 7, 8, 9}

#: The option values of the plain Spanish game, for doctests and quick experiments (tests use the engine's presets).
SPANISH_DEFAULTS: dict[str, Any] = {
    "deck": 40, "teams": True, "trump_exchange": "after_win",
    "exchange_with": {"7": [1, 3, 12, 11, 10, 9, 8], "2": [4, 5, 6, 7]}, "target_hands": 2,
    "rank_order": [1, 3, 12, 11, 10, 7, 6, 5, 4, 2], "points": {"1": 11, "3": 10, "10": 2, "11": 3, "12": 4},
    "hand_size": 3, "exchange_chain": True, "follow": "none", "follow_from": "start", "arrastro": False,
    "claim": False, "last_trick_bonus": 0, "big_win": False, "tie": "draw", "trump_rotation": False,
    "match": "target_hands", "target_points": 121, "signals": "off", "deal_look": False, "partners_look": False,
    "open_hands": False, "pair_bonus": False, "hand_winner": "most", "kill_three": False, "card_names": "spanish",
}


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
    return " ".join(f"{k}={action[k]}" for k in sorted(action))


def deck_cards(options: Mapping[str, Any], players: int) -> list[str]:
    """The cards in play, suit by suit, rank up."""
    ranks = range(1, 13) if options["deck"] == 48 else (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)
    cards = [f"{r}{s}" for s in SUITS for r in ranks]
    if options["deck"] == 40:
        gone = {3: ["2O"], 6: ["2O", "2C", "2E", "2B"]}.get(players, [])
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
        top = 0
        for _round in range(size):
            for k in range(n):
                self.hands[(dealer + 1 + k) % n].append(deck[top])
                top += 1
        self.dealt = [list(h) for h in self.hands]
        if o["trump_rotation"]:
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
        self.table: list[tuple[int, str]] = []
        self.tricks: list[dict[str, Any]] = []
        self.seat_points = [0] * n
        self.won = [False] * n
        self.face_up_given = False
        self.exchanges: list[dict[str, Any]] = []
        self.signals: list[tuple[int, str]] = []
        self.turn_signals: set[str] = set()
        self.three_played = False
        self.arrastro_on = False
        self.claim: dict[str, Any] | None = None
        self.killer: int | None = None
        #: Cards seen face up that a seat then held: (seat, card), kept while the seat holds it.
        self.public: list[tuple[int, str]] = []
        self.history: list[tuple[int, dict[str, Any]]] = []

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
            best = trick[self.best_index(trick)]
            same = [c for c in hand if suit(c) == led]
            trumps = [c for c in hand if suit(c) == self.trump]
            if same:
                cands = same
                if o["follow"] == "suit_beat_trump" and suit(best) == led:
                    cands = [c for c in same if self.beats(c, best)] or same
            elif o["follow"] in ("suit_trump", "suit_beat_trump") and trumps:
                cands = trumps
        if o["kill_three"] and not self.three_played and len(hand) > 1 and self.ace in cands:
            cands = [c for c in cands if c != self.ace] or [c for c in hand if c != self.ace]
        return cands

    def exchange_card(self, seat: int) -> str | None:
        """The trump ``seat`` may give for the face-up card now, or ``None``."""
        mode = self.o["trump_exchange"]
        face = self.face_up
        if mode == "off" or face is None:
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
        trump_ranks = {rank(c) for c in hand if suit(c) == self.trump}
        out = [name for name, r in HONOUR_SIGNALS.items() if r in trump_ranks]
        if trump_ranks & SMALL_TRUMPS:
            out.append("small-trumps")
        if any(suit(c) != self.trump and rank(c) in (1, 3) for c in hand):
            out.append("briscas")
        if not trump_ranks:
            out.append("no-trumps")
        return [*out, "ask-points", "ask-cards"]

    def legal(self) -> list[dict[str, Any]]:
        """The actions the seat to act may take, in record form without the seat."""
        if self.turn is None:
            return []
        seat, o = self.turn, self.o
        plays = self.playable(seat)
        out: list[dict[str, Any]] = [{"play": c} for c in plays]
        if o["arrastro"] and not self.table and self.ace in plays:
            out.append({"play": self.ace, "arrastro": True})
        give = self.exchange_card(seat)
        if give is not None:
            out.append({"exchange": give})
        if o["claim"] and not self.stock and not self.table and self.claim_holds(seat):
            out.append({"claim": True})
        if o["signals"] != "off" and self.sides < self.players:
            out.extend({"signal": s} for s in self.truthful(seat) if s not in self.turn_signals)
        return out

    def legal_keys(self) -> set[str]:
        return {key(a) for a in self.legal()}

    # ------------------------------------------------------------- moves

    def act(self, seat: int, action: Mapping[str, Any]) -> None:
        if self.turn is None:
            raise RefereeError("the hand is over")
        if seat != self.turn:
            raise RefereeError(f"out of turn: seat {self.turn} is to act, not seat {seat}")
        action = dict(action)
        action.pop("seat", None)
        if action.get("arrastro") is False:
            del action["arrastro"]
        if "play" in action:
            action["play"] = str(action["play"]).upper()
        if "exchange" in action:
            action["exchange"] = str(action["exchange"]).upper()
        if key(action) not in self.legal_keys():
            raise RefereeError(f"seat {seat} may not {key(action)} now; legal: {sorted(self.legal_keys())}")
        self.history.append((seat, action))
        hand = self.hands[seat]
        if "play" in action:
            card = action["play"]
            hand.remove(card)
            self.turn_signals.clear()
            if action.get("arrastro"):
                self.arrastro_on = True
            if card == self.three:
                self.three_played = True
            self.table.append((seat, card))
            if len(self.table) < self.players:
                self.turn = (seat + 1) % self.players
            else:
                self.end_trick()
        elif "exchange" in action:
            card = action["exchange"]
            face = self.stock[-1]
            hand.remove(card)
            hand.append(face)
            self.stock[-1] = card
            self.face_up_given = True
            self.exchanges.append({"seat": seat, "gave": card, "took": face})
            self.public.append((seat, face))
        elif "claim" in action:
            cards = [c for h in self.hands for c in h]
            pts = sum(self.points(c) for c in cards)
            self.seat_points[seat] += pts
            self.claim = {"seat": seat, "cards": cards, "points": pts}
            for h in self.hands:
                h.clear()
            self.turn = None
        else:
            self.turn_signals.add(action["signal"])
            self.signals.append((seat, action["signal"]))

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
            return
        for k in range(n):
            if self.stock:
                s = (winner + k) % n
                card = self.stock.pop(0)
                self.hands[s].append(card)
                if not self.stock and self.turned is not None:
                    self.public.append((s, card))  # the face-up card, drawn last
        self.leader = winner
        self.turn = None if not any(self.hands) else winner

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
        team = self.team_points()
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
        return None, "tie", self.o["tie"] == "replay"

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
            "signals": [{"seat": s, "signal": name} for s, name in self.signals],
            "claim": None if self.claim is None else dict(self.claim, cards=list(self.claim["cards"])),
            "seat_points": list(self.seat_points),
            "bonuses": self.bonuses(),
            "team_points": self.team_points(),
            "over": self.over,
            "turn": self.turn,
            "winner": winner,
            "reason": reason,
            "replay": replay,
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

    def sees_signal(self, viewer: int | None, signaller: int) -> bool:
        mode = self.o["signals"]
        if mode == "open":
            return True
        return mode == "partner" and viewer is not None and self.side(viewer) == self.side(signaller)

    def visible_signals(self, viewer: int | None) -> list[tuple[int, str]]:
        return [(s, name) for s, name in self.signals if self.sees_signal(viewer, s)]


# ------------------------------------------------------------------ replays


def entry_action(entry: Mapping[str, Any]) -> tuple[int, dict[str, Any]]:
    """``(seat, action)`` from a record entry such as ``{"seat": 0, "play": "3O"}``."""
    kinds = [k for k in ("play", "exchange", "claim", "signal") if k in entry]
    if len(kinds) != 1 or "seat" not in entry:
        raise RefereeError(f"bad action {dict(entry)!r}")
    extra = set(entry) - {"seat", kinds[0]} - ({"arrastro"} if kinds[0] == "play" else set())
    if extra:
        raise RefereeError(f"bad action {dict(entry)!r}")
    if kinds[0] == "signal" and entry["signal"] not in SIGNALS:
        raise RefereeError(f"unknown signal {entry['signal']!r}")
    if kinds[0] == "claim" and entry["claim"] is not True:
        raise RefereeError("a claim is written {\"claim\": true}")
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
        return wins

    @property
    def points(self) -> list[int]:
        total = [0] * self.sides
        for h in self.hands:
            for side, p in enumerate(h.team_points()):
                total[side] += p
        return total

    def _score(self) -> list[int]:
        return self.points if self.o["match"] == "target_points" else self.hands_won

    @property
    def over(self) -> bool:
        if self.o["trump_rotation"]:
            return sum(1 for h in self.hands if h.over and not h.outcome()[2]) >= 4
        return self.winner is not None

    @property
    def winner(self) -> int | None:
        score = self._score()
        if self.o["trump_rotation"]:
            if not self.over:
                return None
            best = max(score)
            top = [s for s, v in enumerate(score) if v == best]
            return top[0] if len(top) == 1 else None
        # Checked hand by hand: the first hand after which a side has reached the target decides.
        target = self.o["target_points"] if self.o["match"] == "target_points" else self.o["target_hands"]
        for upto in range(1, len(self.hands) + 1):
            part = MatchScore(self.o, self.players)
            part.hands = self.hands[:upto]
            score = part.points if self.o["match"] == "target_points" else part.hands_won
            reached = [s for s, v in enumerate(score) if v >= target]
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
    match = MatchScore(options, players)
    for i, h in enumerate(data["hands"]):
        deal = h.get("deal", 0)
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
    return {
        "hands": [h.summary() for h in match.hands],
        "hands_won": match.hands_won,
        "match_points": match.points,
        "match_over": match.over,
        "match_winner": match.winner,
    }
