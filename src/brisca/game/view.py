"""What one seat may see of a hand: the only projection of the state for anyone but the engine.

Players, the terminal, the web table and spectators read a hand through a :class:`View` alone: it never holds
another seat's hand or the order of the stock.
"""

from __future__ import annotations

from dataclasses import dataclass

from brisca.actions import Action
from brisca.cards import Card, Suit
from brisca.game.results import Contract, ExchangeEvent, HandResult, Trick, _side_sum, winning_index
from brisca.rules import Rules


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
    #: out_of_turn`` (Encyclopedia: "at any time, even while playing a trick"), else nothing.
    out_of_turn: tuple[Action, ...] = ()
    #: ``(seat, card)``: under ``trump_exchange: announced`` (Fournier), the trump a seat laid under the face-up card,
    #: in everybody's sight, while the exchange it announces waits for that seat's next trick won. The card is in
    #: no hand meanwhile: ``hand_sizes`` counts one card fewer for that seat.
    announced: tuple[int, Card] | None = None
    #: The seat whose claim ended the hand, seen by all: made on its turn (``claim`` in ``history``), or, under
    #: ``claim_by: side``, for its side as soon as the side held the best trumps for every trick left.
    claimed_by: int | None = None

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
        """Whether the play has begun before the trump is declared (``call_time: after_first_trick``, Encyclopedia's
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
