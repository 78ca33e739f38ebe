"""An independent referee for the ``spanish`` preset, written straight from the rules.

Nothing here imports :mod:`brisca`: cards are plain strings such as ``"3O"`` or
``"12E"`` (rank number, then suit letter), hands and the stock are plain lists,
and every rule is spelled out once, as simply as possible.  The tests use it to
check the engine without trusting it.

The rules it follows (the ``spanish`` preset):

* 2, 3, 4 or 6 players; 40 cards (ranks 1-7, 10, 11, 12), minus the 2 of oros
  with 3 players and minus the four 2s with 6.  With 48 cards (ranks 1-12)
  nothing is removed.
* ``deck[0]`` is the top card.  Cards are dealt one at a time from the top,
  starting with the seat after the dealer, until each seat holds 3.  The next
  card is turned up: its suit is trump and it goes to the bottom of the stock,
  so it is the last card drawn.
* The seat after the dealer leads.  Any card may be played.  The highest trump
  wins the trick, otherwise the highest card of the suit led.
* After each trick, while the stock lasts, the winner draws first, then the
  others in order of play; the winner leads next.
* Trump exchange: on its turn, a seat that has won a trick may give the 7 of
  trumps for a face-up 1, 3, 12, 11, 10 (also 9, 8 with 48 cards), or the 2 of
  trumps for a face-up 4, 5, 6, 7, while the face-up card is in the stock.  The
  given card becomes the face-up card; it is still that seat's turn.
* Sides: 2 with 4 or 6 players (seat mod 2), else one per seat.  Most points
  wins the hand; a tie for the most is a draw (winner ``None``).

>>> deck = build_deck(2, 1, {0: ["1O", "3O", "12O"], 1: ["1C", "3C", "12C"]}, turned="7B")
>>> deck[:7]
['1O', '1C', '3O', '3C', '12O', '12C', '7B']
>>> r = Referee(2, 1, deck)
>>> r.trump, r.face_up, r.turn, sorted(r.legal())
('B', '7B', 0, ['12O', '1O', '3O'])
>>> r.act(0, "play", "1O"); r.act(1, "play", "1C")
>>> r.tricks[0]
{'leader': 0, 'cards': ['1O', '1C'], 'winner': 0, 'points': 22}
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

SUITS = ("O", "C", "E", "B")
RANKS_40 = (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)
RANKS_48 = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)
#: Strength, highest first.
ORDER_40 = (1, 3, 12, 11, 10, 7, 6, 5, 4, 2)
ORDER_48 = (1, 3, 12, 11, 10, 9, 8, 7, 6, 5, 4, 2)
POINTS = {1: 11, 3: 10, 12: 4, 11: 3, 10: 2}
#: Face-up ranks the 7 of trumps may take, and those the 2 of trumps may take.
TAKEN_BY_7_40 = (1, 3, 12, 11, 10)
TAKEN_BY_7_48 = (1, 3, 12, 11, 10, 9, 8)
TAKEN_BY_2 = (4, 5, 6, 7)
HAND_SIZE = 3


def rank(card: str) -> int:
    """The rank number of a card string: ``rank("12E") == 12``."""
    return int(card[:-1])


def suit(card: str) -> str:
    """The suit letter of a card string: ``suit("12E") == "E"``."""
    return card[-1]


def points(card: str) -> int:
    """The points a card scores."""
    return POINTS.get(rank(card), 0)


def deck_cards(players: int, deck48: bool = False) -> list[str]:
    """The cards in play, suit by suit, rank up."""
    if players not in (2, 3, 4, 6):
        raise ValueError(f"brisca is played by 2, 3, 4 or 6 players, not {players}")
    ranks = RANKS_48 if deck48 else RANKS_40
    cards = [f"{r}{s}" for s in SUITS for r in ranks]
    if not deck48 and players == 3:
        cards.remove("2O")
    if not deck48 and players == 6:
        for s in SUITS:
            cards.remove(f"2{s}")
    return cards


def sides(players: int) -> int:
    """How many sides: two partnerships with 4 or 6 players, else one per seat."""
    return 2 if players in (4, 6) else players


def beats(card: str, best: str, trump: str, deck48: bool) -> bool:
    """Whether ``card``, played after ``best`` (the card winning the trick so far), takes the lead."""
    order = ORDER_48 if deck48 else ORDER_40
    if suit(card) == suit(best):
        return order.index(rank(card)) < order.index(rank(best))
    return suit(card) == trump


def trick_winner(leader: int, cards: Sequence[str], players: int, trump: str, deck48: bool = False) -> int:
    """The seat that wins a trick led by ``leader`` with ``cards`` in order of play."""
    best = 0
    for i in range(1, len(cards)):
        if beats(cards[i], cards[best], trump, deck48):
            best = i
    return (leader + best) % players


class Referee:
    """One hand, played by the rules above.  ``act`` raises :class:`ValueError` on anything illegal."""

    def __init__(
        self, players: int, dealer: int, deck: Sequence[str], deck48: bool = False, exchange: bool = True
    ) -> None:
        expected = deck_cards(players, deck48)
        if not 0 <= dealer < players:
            raise ValueError(f"no seat {dealer} to deal")
        deck = [str(c).upper() for c in deck]
        if len(deck) != len(expected) or sorted(deck) != sorted(expected):
            raise ValueError("the deck is not the cards in play")
        self.players = players
        self.dealer = dealer
        self.deck48 = deck48
        self.exchange = exchange
        self.deck = list(deck)
        n = players
        self.hands: list[list[str]] = [[] for _ in range(n)]
        top = 0
        for _round in range(HAND_SIZE):
            for k in range(n):
                seat = (dealer + 1 + k) % n
                self.hands[seat].append(deck[top])
                top += 1
        self.turned = deck[top]
        self.trump = suit(self.turned)
        #: The stock in drawing order: ``stock[0]`` is drawn next, ``stock[-1]`` is the face-up card.
        self.stock: list[str] = [*deck[top + 1:], self.turned]
        self.leader = (dealer + 1) % n
        self.turn: int | None = self.leader
        #: The current trick as (seat, card).
        self.table: list[tuple[int, str]] = []
        self.tricks: list[dict[str, Any]] = []
        self.seat_points = [0] * n
        self.won = [False] * n
        self.exchanges: list[dict[str, Any]] = []
        self.actions: list[tuple[int, str, str]] = []

    # ---------------------------------------------------------------- queries

    @property
    def face_up(self) -> str | None:
        """The face-up trump card while it is still in the stock."""
        return self.stock[-1] if self.stock else None

    @property
    def over(self) -> bool:
        return self.turn is None

    def exchange_card(self) -> str | None:
        """The trump that may be given for the face-up card now (ignoring who may give it)."""
        if not self.exchange or not self.stock:
            return None
        face = self.stock[-1]
        high = TAKEN_BY_7_48 if self.deck48 else TAKEN_BY_7_40
        if rank(face) in high:
            return f"7{self.trump}"
        if rank(face) in TAKEN_BY_2:
            return f"2{self.trump}"
        return None

    def legal(self) -> set[str]:
        """The legal actions of the seat to act, as strings: ``"3O"`` plays, ``"x7O"`` exchanges."""
        if self.turn is None:
            return set()
        seat = self.turn
        out = set(self.hands[seat])
        give = self.exchange_card()
        if give is not None and self.won[seat] and give in self.hands[seat]:
            out.add("x" + give)
        return out

    def team_points(self) -> list[int]:
        out = [0] * sides(self.players)
        for seat, p in enumerate(self.seat_points):
            out[seat % len(out)] += p
        return out

    def winner(self) -> int | None:
        """The winning side once the hand is over; ``None`` while it goes on or for a drawn hand."""
        if not self.over:
            return None
        team = self.team_points()
        best = max(team)
        tops = [i for i, p in enumerate(team) if p == best]
        return tops[0] if len(tops) == 1 else None

    def result(self) -> dict[str, Any]:
        return {
            "trump": self.trump,
            "turned": self.turned,
            "tricks": [dict(t, cards=list(t["cards"])) for t in self.tricks],
            "seat_points": list(self.seat_points),
            "team_points": self.team_points(),
            "winner": self.winner(),
            "over": self.over,
            "turn": self.turn,
            "current_trick": [c for _s, c in self.table],
            "exchanges": [dict(e) for e in self.exchanges],
        }

    # ----------------------------------------------------------------- moves

    def act(self, seat: int, kind: str, card: str) -> None:
        """Apply one action; :class:`ValueError` (and no change) if the rules forbid it."""
        card = card.upper()
        if self.turn is None:
            raise ValueError("the hand is over")
        if seat != self.turn:
            raise ValueError(f"out of turn: seat {self.turn} is to act, not seat {seat}")
        hand = self.hands[seat]
        if kind == "exchange":
            if not self.exchange:
                raise ValueError("no trump exchange in these rules")
            if not self.stock:
                raise ValueError("the face-up card has been drawn")
            if not self.won[seat]:
                raise ValueError(f"seat {seat} has not won a trick")
            give = self.exchange_card()
            if give is None or card != give:
                raise ValueError(f"{card} cannot be given for {self.stock[-1]}")
            if card not in hand:
                raise ValueError(f"seat {seat} does not hold {card}")
            face = self.stock[-1]
            hand.remove(card)
            hand.append(face)
            self.stock[-1] = card
            self.exchanges.append({"seat": seat, "gave": card, "took": face})
            self.actions.append((seat, kind, card))
            return
        if kind != "play":
            raise ValueError(f"unknown kind of action {kind!r}")
        if card not in hand:
            raise ValueError(f"seat {seat} does not hold {card}")
        hand.remove(card)
        self.table.append((seat, card))
        self.actions.append((seat, kind, card))
        n = self.players
        if len(self.table) < n:
            self.turn = (seat + 1) % n
            return
        cards = [c for _s, c in self.table]
        winner = trick_winner(self.leader, cards, n, self.trump, self.deck48)
        pts = sum(points(c) for c in cards)
        self.tricks.append({"leader": self.leader, "cards": cards, "winner": winner, "points": pts})
        self.seat_points[winner] += pts
        self.won[winner] = True
        self.table = []
        for k in range(n):
            if self.stock:
                self.hands[(winner + k) % n].append(self.stock.pop(0))
        self.leader = winner
        self.turn = None if all(not h for h in self.hands) else winner


def parse_action(action: Any) -> tuple[int, str, str]:
    """``(seat, kind, card)`` from a tuple, or from a record entry ``{"seat": 0, "play": "3O"}``."""
    if isinstance(action, Mapping):
        kinds = [k for k in ("play", "exchange") if k in action]
        if len(kinds) != 1 or set(action) != {"seat", kinds[0]}:
            raise ValueError(f"bad action {action!r}")
        return action["seat"], kinds[0], action[kinds[0]]
    seat, kind, card = action
    return seat, kind, card


def referee(
    players: int,
    dealer: int,
    deck: Sequence[str],
    actions: Iterable[Any],
    deck48: bool = False,
    exchange: bool = True,
) -> dict[str, Any]:
    """Replay ``actions`` (``(seat, kind, card)``) from the deal; the outcome, or :class:`ValueError`.

    The outcome has ``trump``, ``tricks`` (``leader``, ``cards``, ``winner``, ``points``),
    ``seat_points``, ``team_points`` and ``winner``, plus ``over``, ``turn`` and
    ``current_trick``.  The :class:`ValueError` message starts with ``action N:``.
    """
    ref = Referee(players, dealer, deck, deck48, exchange)
    for i, action in enumerate(actions):
        try:
            ref.act(*parse_action(action))
        except ValueError as exc:
            raise ValueError(f"action {i}: {exc}") from None
    return ref.result()


# --------------------------------------------------------------- records


def record_rules(rules: Mapping[str, Any]) -> dict[str, Any]:
    """The referee's switches from a record's ``rules`` overrides (only those the referee knows)."""
    known = {"deck", "trump_exchange", "target_hands"}
    unknown = set(rules) - known
    if unknown:
        raise ValueError(f"the referee does not know rule option(s) {sorted(unknown)}")
    deck = rules.get("deck", 40)
    if deck not in (40, 48):
        raise ValueError(f"bad deck option {deck!r}")
    mode = rules.get("trump_exchange", "after_win")
    if mode not in ("after_win", "off"):
        raise ValueError(f"bad trump_exchange option {mode!r}")
    return {"deck48": deck == 48, "exchange": mode == "after_win", "target_hands": rules.get("target_hands", 2)}


def replay_record(data: Mapping[str, Any]) -> dict[str, Any]:
    """The referee's replay of a ``brisca-record/1`` hand or match record (as parsed JSON).

    A hand gives :func:`referee`'s outcome; a match gives ``hands`` (one outcome
    each), ``hands_won`` per side and ``match_winner`` (the first side to win
    ``target_hands`` hands; drawn hands do not count).
    """
    if data.get("format") != "brisca-record/1" or data.get("variant") not in ("spanish", "brisca", "es"):
        raise ValueError("not a spanish brisca-record/1")
    opts = record_rules(data.get("rules", {}))
    players = data["players"]
    if "hands" not in data:
        return referee(players, data["dealer"], data["deck"], data.get("actions", []), opts["deck48"],
                       opts["exchange"])
    hands = []
    wins = [0] * sides(players)
    winner = None
    for h in data["hands"]:
        out = referee(players, h["dealer"], h["deck"], h.get("actions", []), opts["deck48"], opts["exchange"])
        hands.append(out)
        if out["winner"] is not None:
            wins[out["winner"]] += 1
            if winner is None and wins[out["winner"]] >= opts["target_hands"]:
                winner = out["winner"]
    return {"hands": hands, "hands_won": wins, "match_winner": winner}


# ------------------------------------------------------------ crafting decks


def build_deck(
    players: int,
    dealer: int,
    hands: Mapping[int, Sequence[str]],
    turned: str | None = None,
    stock: Sequence[str] = (),
    deck48: bool = False,
) -> list[str]:
    """A deck (top first) that deals ``hands`` (seat -> its 3 cards, in the order dealt), turns up
    ``turned`` and then has ``stock`` as the next cards drawn; every other card follows in canonical order
    (the face-up card is drawn last whatever follows it)."""
    n = players
    cards = deck_cards(players, deck48)
    deck: list[str | None] = [None] * len(cards)
    for seat, held in hands.items():
        k = (seat - dealer - 1) % n
        for j, card in enumerate(held):
            deck[k + j * n] = card
    if turned is not None:
        deck[HAND_SIZE * n] = turned
    for j, card in enumerate(stock):
        deck[HAND_SIZE * n + 1 + j] = card
    used = [c for c in deck if c is not None]
    if len(set(used)) != len(used) or not set(used) <= set(cards):
        raise ValueError("build_deck: a card twice or not in this deck")
    rest = iter(c for c in cards if c not in set(used))
    return [c if c is not None else next(rest) for c in deck]
