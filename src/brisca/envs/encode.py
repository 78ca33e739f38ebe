"""Observation encoders: a fixed-size ``float32`` vector from a :class:`~brisca.game.View`, and only from it.

A View is everything one seat may know (its own hand, the table, public events,
and the cards the rules let it know); it never holds another seat's hand or the
order of the stock. Encoding from the View alone is what makes the encoding
leak-free: ``tests/test_envs_encode.py`` permutes every card a seat cannot see
(with :func:`shuffle_hidden`) and checks that the seat's encoding does not move.

Seats are *relative*: slot 0 is the observing seat, slot 1 the next to play after
it, and so on; sides likewise (slot 0 is the observer's side). Every value is in
``[0, 1]``. Card planes are indexed by :attr:`brisca.cards.Card.index`
(``suit * 12 + rank - 1``, 48 per plane). The layout for ``n`` players and ``s``
sides, in order (:attr:`ObservationEncoder.fields` lists it with offsets):

==============  ===========  ==========================================================
field           shape        meaning
==============  ===========  ==========================================================
hand            48           the observer's own cards
known           (n-1, 48)    cards the observer knows another seat holds now (exchanged-in
                             face-up cards, the last card drawn, partners' cards under
                             ``deal_look``/``partners_look``, every hand under ``open_hands``)
trick           (n, 48)      the current trick's cards, by the seat that played them
played          (n, 48)      cards of finished tricks, by the seat that played them
captured        (s, 48)      cards of finished tricks, by the side that took them
face_up         48           the face-up trump card while it is in the stock
trump           4            the trump suit (oros, copas, espadas, bastos)
leader          n            who leads the current trick
turn            n            whose turn it is (all zero once the hand is over)
dealer          n            who dealt
partners        n            the seats on the observer's side (the observer included)
signals_trick   (n, 10)      signals the observer saw in the current trick, by seat
signals_hand    (n, 10)      signals the observer saw in this hand, by seat
arrastro        1            the current trick is played under arrastro
stock           1            cards left in the stock (face-up card included) over the
                             stock after the deal
points          n            card points each seat has taken, over the deck's points
hand_sizes      n            cards each seat holds, over the hand size (with the talon)
order           48           (``history=True`` only) for a played card, its place in the
                             order of play, ``k / deck size`` for the k-th card; else 0
==============  ===========  ==========================================================

Rules with an auction, a talon, declarations or cards shown at the deal add fields
after ``hand_sizes`` (before ``order``), only where the rules use them, so the
layout of every other configuration is unchanged:

==============  ===========  ==========================================================
phase           5            (auction) bid, discard, trump, call, play
bids            n            (auction) each seat's last bid: points over ``max_bid``, or
                             a rank's strength over the number of ranks (low card)
passed          n            (auction) the seats that have passed
declarer        n            (auction) the auction's winner, once the auction is over
called          48           (a called card) the card called, once called
partner         n            (a called card) its holder, once it is played (never before)
talon           48           (a talon) the talon, once the auction's winner has shown it
discards        48           (a talon) the cards the observer itself laid down
declarations    (n, 4)       (declarations) the king-knight pairs declared, by seat and suit
shown           (n, 48)      (``deal: golpe`` or ``pelada``) cards shown at the deal, by seat
announced       (n, 48)      (``trump_exchange: announced``) the trump a seat laid under the
                             face-up card, while its exchange waits
==============  ===========  ==========================================================

The trump field is all zero while the auction has not decided the trump.

Signals are in the order of :data:`brisca.actions.SIGNALS`. With ``history=True``
the ``order`` plane makes the vector a perfect-recall information state for the
card play (OpenSpiel's information-state tensor).

The legal-action mask over the :class:`~brisca.envs.actions.ActionCodec` comes
from the View too (:meth:`ObservationEncoder.mask`): the legal actions are in the
View only when it is the observer's turn.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from brisca.actions import PLAYS, SIGNALS, Arrastro, Bid, Discard, Play, RankBid, Signal
from brisca.cards import Card, Suit
from brisca.envs import deck_points
from brisca.envs.actions import ActionCodec
from brisca.game import PHASES, Game, RuledGame, View
from brisca.rules import Rules, make_rules

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray
else:
    try:
        import numpy as np
    except ImportError:  # the 'rl' or 'openspiel' extra is not installed; encoding needs it
        np = None

__all__ = ["Field", "ObservationEncoder", "cue_size", "cues", "hidden_cards", "shuffle_hidden"]

_SIGNAL_INDEX = {name: i for i, name in enumerate(SIGNALS)}
# Briscola guide's high card: the same slot as the Spanish briscas.
_SIGNAL_INDEX["high-card"] = _SIGNAL_INDEX["briscas"]
_PLAY_TYPES = (Play, Arrastro)


def _require_numpy() -> None:
    if np is None:
        raise ImportError("brisca.envs.encode needs numpy: pip install 'brisca[rl]'")


@dataclass(frozen=True)
class Field:
    """One named part of the encoded vector: ``vector[offset:offset + size].reshape(shape)``."""

    name: str
    offset: int
    shape: tuple[int, ...]

    @property
    def size(self) -> int:
        out = 1
        for d in self.shape:
            out *= d
        return out


class ObservationEncoder:
    """Encodes a seat's :class:`~brisca.game.View` for one game configuration (rules, players).

    ``history=True`` adds the ``order`` plane (the information-state encoding).
    The vector's size is fixed per configuration: :attr:`size`.
    """

    def __init__(self, rules: Rules | str = "spanish", players: int = 2, *, history: bool = False) -> None:
        _require_numpy()
        self.rules = rules = make_rules(rules)
        rules.check_players(players)
        self.players = n = players
        self.sides = s = rules.sides(players)
        self.history = history
        self.codec = ActionCodec.for_rules(rules, players)
        shapes: list[tuple[str, tuple[int, ...]]] = [
            ("hand", (48,)), ("known", (n - 1, 48)), ("trick", (n, 48)), ("played", (n, 48)),
            ("captured", (s, 48)), ("face_up", (48,)), ("trump", (4,)), ("leader", (n,)), ("turn", (n,)),
            ("dealer", (n,)), ("partners", (n,)), ("signals_trick", (n, 10)), ("signals_hand", (n, 10)),
            ("arrastro", (1,)), ("stock", (1,)), ("points", (n,)), ("hand_sizes", (n,)),
        ]
        if rules.auction:
            shapes += [("phase", (5,)), ("bids", (n,)), ("passed", (n,)), ("declarer", (n,))]
            if rules.trump_from == "called":
                shapes += [("called", (48,)), ("partner", (n,))]
            if rules.talon:
                shapes += [("talon", (48,)), ("discards", (48,))]
        if rules.declarations != "off":
            shapes.append(("declarations", (n, 4)))
        if rules.deal in ("golpe", "pelada", "cutter_chooses"):
            shapes.append(("shown", (n, 48)))
        if rules.trump_exchange == "announced" and not rules.dealt_out:
            shapes.append(("announced", (n, 48)))
        if history:
            shapes.append(("order", (48,)))
        fields: list[Field] = []
        offset = 0
        for name, shape in shapes:
            f = Field(name, offset, shape)
            fields.append(f)
            offset += f.size
        self.fields: tuple[Field, ...] = tuple(fields)
        self.size: int = offset
        at = {f.name: f.offset for f in fields}
        self._at = at
        self._cards = len(rules.deck_cards(players))
        self._stock0 = max(1, self._cards - rules.hand_size * players)
        self._points = float(deck_points(rules, players))
        self._hand_size = float(rules.hand_size + rules.talon)  # the declarer holds the talon before he discards
        self._max_bid = float(rules.max_bid)
        self._ranks = float(len(rules.strength_order()))
        self._signals = rules.signals != "off" and s < n
        self._side_of = tuple(seat % s for seat in range(n))

    def field(self, name: str) -> Field:
        """The field called ``name``."""
        for f in self.fields:
            if f.name == name:
                return f
        raise KeyError(name)

    def split(self, vector: NDArray[np.float32]) -> dict[str, NDArray[np.float32]]:
        """Named, reshaped views of an encoded vector (they share its memory)."""
        return {f.name: vector[f.offset:f.offset + f.size].reshape(f.shape) for f in self.fields}

    def encode(
        self, view: View, out: NDArray[np.float32] | None = None, *, seat: int | None = None
    ) -> NDArray[np.float32]:
        """Encode ``view`` into ``out`` (a new array when ``None``).

        For a spectator's view (``view.seat is None``) the relative seats count from
        ``seat`` (default 0) and the ``hand`` plane is empty.
        """
        if out is None:
            out = np.zeros(self.size, np.float32)
        else:
            out.fill(0.0)
        n = self.players
        me = view.seat if view.seat is not None else (seat or 0)
        at = self._at
        side_of = self._side_of
        sides = self.sides
        my_side = side_of[me]
        ones: list[int] = []
        add = ones.append

        base = at["hand"]
        for c in view.hand:
            add(base + c.index)
        base = at["known"] - 48
        for s, c in view.known:
            r = (s - me) % n
            if r:
                add(base + r * 48 + c.index)
        lead = view.leader - me
        base = at["trick"]
        for i, c in enumerate(view.trick):
            add(base + ((lead + i) % n) * 48 + c.index)
        played, captured = at["played"], at["captured"]
        for t in view.tricks:
            first = t.leader - me
            won = captured + ((side_of[t.winner] - my_side) % sides) * 48
            for i, c in enumerate(t.cards):
                k = c.index
                add(played + ((first + i) % n) * 48 + k)
                add(won + k)
        if view.face_up is not None:
            add(at["face_up"] + view.face_up.index)
        if view.trump is not None:
            add(at["trump"] + int(view.trump))
        add(at["leader"] + (view.leader - me) % n)
        if view.turn is not None:
            add(at["turn"] + (view.turn - me) % n)
        add(at["dealer"] + (view.dealer - me) % n)
        base = at["partners"]
        for s in range(n):
            if side_of[s] == my_side:
                add(base + (s - me) % n)
        if self._signals:
            base = at["signals_hand"]
            for s, name in view.signals:
                add(base + ((s - me) % n) * 10 + _SIGNAL_INDEX[name])
            base = at["signals_trick"]
            in_trick = len(view.trick)
            plays = 0
            for s, a in reversed(view.history):
                if isinstance(a, _PLAY_TYPES):
                    plays += 1
                    if plays > in_trick:
                        break
                elif type(a) is Signal:
                    add(base + ((s - me) % n) * 10 + _SIGNAL_INDEX[a.name])
        if view.arrastro:
            add(at["arrastro"])
        if "phase" in at:
            self._encode_auction(view, me, out, add)
        if "declarations" in at:
            base = at["declarations"]
            for s, suit in view.declarations:
                add(base + ((s - me) % n) * 4 + int(suit))
        if "shown" in at:
            base = at["shown"]
            for s, c in view.shown:
                add(base + ((s - me) % n) * 48 + c.index)
        if "announced" in at and view.announced is not None:
            s, c = view.announced
            add(at["announced"] + ((s - me) % n) * 48 + c.index)
        if self.history:
            base = at["order"]
            k = 0
            scale = 1.0 / self._cards
            for _s, a in view.history:
                if isinstance(a, _PLAY_TYPES):
                    k += 1
                    out[base + a.card.index] = k * scale
        if ones:
            out[ones] = 1.0
        out[at["stock"]] = min(view.stock_count / self._stock0, 1.0)  # (before the cutter chooses: the whole deck)
        base = at["points"]
        scale = 1.0 / self._points
        hs = 1.0 / self._hand_size
        pts, sizes = view.seat_points, view.hand_sizes
        hbase = at["hand_sizes"]
        for r in range(n):
            s = (me + r) % n
            if pts[s]:
                out[base + r] = pts[s] * scale
            if sizes[s]:
                out[hbase + r] = sizes[s] * hs
        return out

    def _encode_auction(self, view: View, me: int, out: NDArray[np.float32], add: Callable[[int], None]) -> None:
        """The auction's fields: phase, bids, passes, declarer, called card and partner, talon, own discards."""
        at, n = self._at, self.players
        add(at["phase"] + PHASES.index(view.phase if view.phase in PHASES else "play"))  # (mark: in the play)
        strength = self.rules.strength_table
        winner = None
        for s, a in view.bids:
            r = (s - me) % n
            if isinstance(a, Bid):
                out[at["bids"] + r] = a.points / self._max_bid
                winner = s
            elif isinstance(a, RankBid):
                out[at["bids"] + r] = strength[Card(a.rank, Suit.OROS).index] / self._ranks
                winner = s
            else:
                add(at["passed"] + r)
        if view.phase != "bid" and winner is not None:
            add(at["declarer"] + (winner - me) % n)
        contract = view.contract
        if "called" in at and contract is not None and contract.called is not None:
            add(at["called"] + contract.called.index)
            if contract.partner is not None:
                add(at["partner"] + (contract.partner - me) % n)
        if "talon" in at:
            for c in view.talon:
                add(at["talon"] + c.index)
            for c in view.discards:
                add(at["discards"] + c.index)

    def mask(self, view: View, out: NDArray[np.int8] | None = None) -> NDArray[np.int8]:
        """The legal-action mask (``int8``, one per action id) of ``view``'s seat: all zero off its turn."""
        if out is None:
            out = np.zeros(self.codec.size, np.int8)
        else:
            out.fill(0)
        if view.legal_actions:
            ids = self.codec.ids
            out[[ids[a] for a in view.legal_actions]] = 1
        return out


def cue_size(players: int) -> int:
    """The size of :func:`cues` at ``players`` seats: three planes of 48 and a seat each."""
    return 144 + players


def cues(view: View, out: NDArray[np.float32] | None = None) -> NDArray[np.float32]:
    """What a player reads off the table at a glance, and a small network would have to learn as conjunctions of
    many inputs: three planes over the observer's own cards (48 each, by card index) and the seat taking the trick:

    - ``wins``: the card beats the best card of the trick as it stands (nothing while the trick is empty);
    - ``top``: no card still out (in another hand or the stock, face-up card included) of its suit ranks higher;
    - ``safe``: ``top``, and a trump or no trump is still out: led, nothing can take it;
    - ``taking`` (a seat each, relative: 0 the observer, 1 the next to play): whose card takes the trick as it
      stands (nothing while the trick is empty): a partner's, or an opponent's.

    Computed from the View alone (the cards out are the deck less the observer's hand, the finished tricks and the
    trick), as the plain rules rank cards: in suit by :attr:`~brisca.rules.Rules.strength_table`, any trump over
    any other suit. A network trained with them takes them after its other inputs (``Net.meta["cues"]``).
    """
    _require_numpy()
    if out is None:
        out = np.zeros(cue_size(view.players), np.float32)
    else:
        out.fill(0.0)
    rules = view.rules
    strength = rules.strength_table
    trump = -1 if view.trump is None else int(view.trump)
    gone = {c.index for t in view.tricks for c in t.cards}
    gone.update(c.index for c in view.trick)
    hand = [c.index for c in view.hand]
    gone.update(hand)
    high = [0, 0, 0, 0]  # the strongest card out in each suit (0: none)
    for k in _deck(rules, view.players):
        if k not in gone and strength[k] > high[k // 12]:
            high[k // 12] = strength[k]
    best = taker = -1
    n = view.players
    for i, c in enumerate(view.trick):
        k = c.index
        if best < 0 or _beats(k, best, trump, strength):
            best = k
            taker = view.leader + i
    if best >= 0:
        me = view.seat if view.seat is not None else 0
        out[144 + (taker - me) % n] = 1.0
    for k in hand:
        if best >= 0 and _beats(k, best, trump, strength):
            out[k] = 1.0
        if strength[k] > high[k // 12]:
            out[48 + k] = 1.0
            if k // 12 == trump or trump < 0 or high[trump] == 0:
                out[96 + k] = 1.0
    return out


@lru_cache(maxsize=64)
def _deck(rules: Rules, players: int) -> tuple[int, ...]:
    return tuple(c.index for c in rules.deck_cards(players))


def _beats(card: int, best: int, trump: int, strength: tuple[int, ...]) -> bool:
    """Whether ``card`` played now takes the trick from ``best`` (indices): higher in its suit, or a trump on
    another suit."""
    if card // 12 == best // 12:
        return strength[card] > strength[best]
    return card // 12 == trump


def hidden_cards(game: Game, seat: int | None) -> list[tuple[list[Play], int]]:
    """Where the cards ``seat`` cannot see lie: ``(list, index)`` slots in the engine's internals.

    Another seat's card is hidden unless the seat's view lists it in ``known``; a
    stock card is hidden unless it is the face-up card. For leak tests. (The talon
    during the auction and another seat's discards are hidden too: :func:`shuffle_hidden`
    moves them, as they are kept in tuples.)
    """
    known = set(game.view(seat).known)
    slots: list[tuple[list[Play], int]] = []
    for s, hand in enumerate(game._hands):
        if s == seat:
            continue
        for i, a in enumerate(hand):
            if (s, a.card) not in known:
                slots.append((hand, i))
    stock = game._stock
    first = 1 if game.turned is not None else 0
    slots.extend((stock, i) for i in range(first, len(stock)))
    return slots


def _hidden_piles(game: Game, seat: int | None) -> list[str]:
    """The engine's card tuples hidden from ``seat``: the talon during the auction, another seat's discards."""
    if not isinstance(game, RuledGame):
        return []
    out = []
    if game.phase == "bid" and game.talon:
        out.append("_talon")
    if game.discards:
        declarer = next(s for s, a in game.history if isinstance(a, Discard))
        if seat != declarer:
            out.append("_discards")
    return out


def shuffle_hidden(game: Game, seat: int | None, rng: random.Random) -> Game:
    """A clone of ``game`` with the cards ``seat`` cannot see dealt among their places at random.

    Hand sizes, the face-up card and every card in the seat's view stay where they
    are; an encoding of the seat's view must not change (the leak test). The clone's
    future draws differ, so it is for looking at, not for replaying the deal.
    """
    clone = game.clone()
    slots = hidden_cards(clone, seat)
    piles = {name: [PLAYS[c.index] for c in getattr(clone, name)] for name in _hidden_piles(clone, seat)}
    for pile in piles.values():
        slots.extend((pile, i) for i in range(len(pile)))
    cards: list[Play] = [lst[i] for lst, i in slots]
    rng.shuffle(cards)
    for (lst, i), a in zip(slots, cards, strict=True):
        lst[i] = PLAYS[a.card.index]
    for name, pile in piles.items():
        if name == "_talon":
            clone._talon = tuple(a.card for a in pile)  # type: ignore[attr-defined]
            continue
        # The declarer's pile holds other cards now: its points (engine-level) follow them.
        table = clone.rules.point_table
        declarer = next(s for s, a in clone.history if isinstance(a, Discard))
        old = sum(table[c.index] for c in clone._discards)  # type: ignore[attr-defined]
        clone._discards = tuple(sorted(a.card for a in pile))  # type: ignore[attr-defined]
        clone._points[declarer] += sum(table[c.index] for c in clone._discards) - old  # type: ignore[attr-defined]
    return clone
