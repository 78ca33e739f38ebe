"""Judgment outside the card play, shared by the built-in players: bids, calls, discards, trumps, declarations.

The games with an auction (``rematada``, ``chiamata``) and with declarations
(``chilean`` vales, ``rematada``) ask a player for more than a card. These functions
look at a seat's :class:`~brisca.game.View` only and return a legal action.

Bidding rests on :func:`estimate`: the card points (with the last trick and the
declarations a hand can make) a seat expects to take as declarer with a given trump,
a linear function of a few hand features fitted on self-play of the ``heuristic``
player (see ``tests/test_agents_auction.py`` for what it is held to). It is a rough
judge: it does not look at the bids of others beyond the price they set, nor at
seat position, nor (in Chiamata) at which card a partner would have to hold.

    >>> from brisca import Game
    >>> game = Game("rematada", 3, seed=2)
    >>> action = auction_action(game.view(game.turn))
    >>> action in game.legal_actions()
    True
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from brisca.actions import PASS, Action, Bid, Call, Cut, Declare, Discard, Play, RankBid, Signal, TrumpChoice
from brisca.cards import Card, Rank, Suit
from brisca.game import View, winning_index
from brisca.rules import Rules

#: Coefficients of :func:`estimate` per contract kind: (constant, per trump, per point of trumps, per point of
#: the other suits' cards worth 10 or more, per other point held). Least squares on 2,500 deals of ``heuristic``
#: self-play each, the first seat forced to declare with the trump it would name (residual deviation: 21 points
#: in Rematada, where the talon is unknown at bidding time, 16 in Chiamata). In Rematada the trump count adds
#: nothing once the trumps' points are counted (its fitted weight, -1.6, is noise around 0).
WEIGHTS: dict[str, tuple[float, float, float, float, float]] = {
    "solo": (38.0, 0.0, 1.6, 0.48, 0.14),
    "called": (47.7, 4.8, 1.03, 0.17, 0.27),
}


def _pair_suits(hand: Sequence[Card]) -> list[Suit]:
    held = set(hand)
    return [s for s in Suit if Card(Rank.KING, s) in held and Card(Rank.KNIGHT, s) in held]


def estimate(rules: Rules, hand: Sequence[Card], trump: Suit) -> float:
    """The points a declarer (with his partner, in Chiamata) expects to take with ``trump`` (see the module)."""
    const, per_trump, trump_pts, side_top, other = WEIGHTS.get(rules.contract, WEIGHTS["solo"])
    points = rules.point_table
    est = const
    for c in hand:
        p = points[c.index]
        if c.suit is trump:
            est += per_trump + trump_pts * p
        elif p >= 10:
            est += side_top * p
        else:
            est += other * p
    if rules.declarations != "off":
        for s in _pair_suits(hand):
            est += 40 if s is trump else 20
    return est


def suit_strength(rules: Rules, hand: Sequence[Card], suit: Suit) -> float:
    """How good ``suit`` is as trump for ``hand``: length first, then its strength and points."""
    strength, points = rules.strength_table, rules.point_table
    mine = [c for c in hand if c.suit is suit]
    value = 10.0 * len(mine) + sum(points[c.index] + strength[c.index] / 4 for c in mine)
    if rules.declarations != "off" and suit in _pair_suits(hand):
        value += 15
    return value


def best_suit(rules: Rules, hand: Sequence[Card]) -> Suit:
    """The suit ``hand`` would name as trump (the longest, the strongest among equals)."""
    return max(Suit, key=lambda s: (suit_strength(rules, hand, s), -int(s)))


def best_estimate(rules: Rules, hand: Sequence[Card]) -> tuple[float, Suit]:
    """The best :func:`estimate` over the trump suits, and that suit."""
    return max(((estimate(rules, hand, s), s) for s in Suit), key=lambda es: (es[0], -int(es[1])))


def called_card(rules: Rules, hand: Sequence[Card], suit: Suit, gone: Collection[Card] = ()) -> Card:
    """The card to call in ``suit``: the strongest one ``hand`` lacks (its own best when it holds them all).

    ``gone``: cards that may not be called (played in the first trick, under ``call_time: after_first_trick``).
    """
    strength = rules.strength_table
    order = sorted((Card(r, suit) for r in rules.strength_order() if Card(r, suit) not in gone),
                   key=lambda c: -strength[c.index])
    held = set(hand)
    for c in order:
        if c not in held:
            return c
    return order[0]


def choose_bid(view: View) -> Action:
    """A bid or a pass: bid the lowest legal amount when the hand is expected to make it."""
    legal = view.legal_actions
    rules = view.rules
    hand = list(view.hand)
    if rules.bidding == "low_card":
        return _choose_rank_bid(view)
    bids = sorted((a for a in legal if isinstance(a, Bid)), key=lambda b: b.points)
    if not bids:
        return PASS
    est, _suit = best_estimate(rules, hand)
    # Under all_pass: last_must_bid the last seat may be forced; otherwise a bid must be worth it.
    if est >= bids[0].points or PASS not in legal:
        return bids[0]
    return PASS


def _choose_rank_bid(view: View) -> Action:
    """Low-card bidding: name the rank of the card to call in the best suit, when the hand is worth 61 with it.

    The lowest rank named wins, and names a weaker partner card: from the card the hand
    wants (the strongest it lacks in its best suit) down, each step costs 4 points of the
    estimate; a rank whose card the hand holds itself would mean playing alone, and is skipped.
    """
    rules, legal = view.rules, view.legal_actions
    hand = list(view.hand)
    ranks = [a for a in legal if isinstance(a, RankBid)]
    if not ranks:
        return PASS
    est, suit = best_estimate(rules, hand)
    strength = rules.strength_table
    wanted = called_card(rules, hand, suit)
    for bid in sorted(ranks, key=lambda b: -strength[Card(b.rank, suit).index]):
        card = Card(bid.rank, suit)
        steps = strength[wanted.index] - strength[card.index]
        if steps < 0 or card in hand:
            continue
        if est - 4 * steps >= rules.min_bid:
            return bid
        break
    return PASS if PASS in legal else ranks[0]


def choose_call(view: View) -> Action:
    """Chiamata: call the strongest card the hand lacks in its best suit (that suit becomes trump).

    After a first trick (``call_time: after_first_trick``) the cards played in it cannot be called, and a suit
    whose cards are all gone cannot be named: the best suit among those left.
    """
    rules = view.rules
    hand = list(view.hand)
    gone = set(view.played_cards())
    suits = [s for s in Suit if any(Card(r, s) not in gone for r in rules.strength_order())]
    suit = max(suits, key=lambda s: (estimate(rules, hand, s), -int(s)))
    call = Call(called_card(rules, hand, suit, gone))
    return call if call in view.legal_actions else view.legal_actions[0]


def choose_trump(view: View) -> Action:
    """Name the trump: the longest, strongest suit (low card: the suit whose called card the hand lacks)."""
    rules = view.rules
    hand = list(view.hand)
    if rules.bidding == "low_card":
        rank = next((a.rank for s, a in reversed(view.bids) if s == view.seat and isinstance(a, RankBid)), None)
        if rank is not None:
            held = set(hand)

            def value(s: Suit) -> tuple[bool, float]:
                return (Card(rank, s) not in held, estimate(rules, hand, s))

            return TrumpChoice(max(Suit, key=value))
    return TrumpChoice(best_suit(rules, hand))


def choose_discard(view: View) -> Action:
    """Rematada: lay down 2 cards, banking points that are unsafe in hand and keeping the trumps-to-be.

    The trump the hand will name is decided first; trumps and king-knight pairs are kept;
    among the rest, the cards with points that would not win a trick of their own (a three
    without its ace, kings and knights) go first, then the lowest cards of the shortest suits.
    """
    return _discard_for(view, best_suit(view.rules, list(view.hand)))


def _discard_for(view: View, trump: Suit) -> Action:
    """:func:`choose_discard`'s cards, for a hand that means to name ``trump``."""
    rules = view.rules
    hand = list(view.hand)
    k = len(view.talon) or 2
    strength, points = rules.strength_table, rules.point_table
    pairs = set(_pair_suits(hand)) if rules.declarations != "off" else set()
    count = {s: sum(1 for c in hand if c.suit is s) for s in Suit}
    top = {s: max((strength[c.index] for c in hand if c.suit is s), default=0) for s in Suit}

    def keep(c: Card) -> tuple[float, ...]:
        if c.suit is trump:
            return (3, strength[c.index])
        if c.suit in pairs and c.rank in (Rank.KING, Rank.KNIGHT):
            return (2, strength[c.index])
        master = strength[c.index] == max(strength[x.index] for x in rules.deck_cards(view.players) if x.suit is c.suit)
        # Points are banked by discarding; a card that tops its suit may win them back, so keep those longer.
        unsafe = points[c.index] if not master else points[c.index] / 3
        return (1, -unsafe, count[c.suit], strength[c.index] if top[c.suit] != strength[c.index] else 99)

    chosen = sorted(hand, key=keep)[:k]
    action = Discard(*chosen)
    return action if action in view.legal_actions else next(a for a in view.legal_actions if isinstance(a, Discard))


def declare_choice(view: View, card: Card | None = None) -> Declare | None:
    """A pair to declare now, or ``None``.

    On lead (Rematada) a declaration is free points for its holder: always. Under vales the points go
    to the side that wins the trick: declare when this seat's side is sure of it, that is when nobody
    who can still play to this trick is an opponent and this side is (or, with ``card``, will be) winning.
    """
    declares = [a for a in view.legal_actions if isinstance(a, Declare)]
    if not declares:
        return None
    trump = view.trump
    if view.rules.declarations != "vales" or trump is None:
        return max(declares, key=lambda d: d.suit is trump)
    seat = view.seat
    assert seat is not None
    n = view.players
    after = [(seat + i) % n for i in range(1, n - len(view.trick))]
    if any(view.side_of(s) != view.side_of(seat) for s in after):
        return None
    strength = view.rules.strength_table
    seats = (*view.trick_seats(), seat)
    plays = [a.card for a in view.legal_actions if isinstance(a, Play)]
    for d in sorted(declares, key=lambda d: d.suit is not trump):
        pair = (Card(Rank.KING, d.suit), Card(Rank.KNIGHT, d.suit))
        if all(c in view.hand for c in pair):
            options = [c for c in pair if c in plays]  # declaring, the seat plays one of them now
        else:
            options = [card] if card is not None else plays
        for c in options:
            cards = (*view.trick, c)
            if view.side_of(seats[winning_index(cards, trump, strength)]) == view.side_of(seat):
                return d
    return None


def cut_choice(view: View) -> Cut:
    """How the cutter has the deck dealt (source Porteña): alce shows nothing; golpe shows one card of each of the
    cutter's side; pelada shows more of them and makes the cutter lead a trump. The least shown, then."""
    legal = [a for a in view.legal_actions if isinstance(a, Cut)]
    return min(legal, key=lambda a: ("alce", "golpe", "pelada").index(a.way))


def mark_choice(view: View) -> Action:
    """Asked whether it marks a vale, its card down: mark when its side takes the trick, else wait (it is asked
    again after the next card) or let the pair go (the points would go to the side that wins the trick)."""
    declares = [a for a in view.legal_actions if isinstance(a, Declare)]
    seat = view.seat
    if not declares or seat is None:
        return PASS
    trump = view.trump
    if not view.trick:  # the trick is complete: its winner is known
        winner: int | None = view.tricks[-1].winner if view.tricks else None
    else:
        after = [(view.leader + i) % view.players for i in range(len(view.trick), view.players)]
        opponents_to_play = any(view.side_of(s) != view.side_of(seat) for s in after)
        winner = None if opponents_to_play else view.trick_winner()
    if winner is None or view.side_of(winner) != view.side_of(seat):
        return PASS
    return max(declares, key=lambda d: d.suit is trump)


#: An auction choice with more options than this is weighed on a shortlist (:func:`shortlist`).
SHORTLIST = 12


def shortlist(view: View, taken: Action | None = None) -> list[Action]:
    """The choices of the auction (or a blind call's first trick) worth weighing against each other: every legal
    one where there are at most :data:`SHORTLIST`; else the rules' own choice, ``taken`` (the one played, for an
    analysis), and the rules' choice for each other trump the hand could mean to make (a call in every suit, a
    discard that keeps each suit for trump)."""
    legal = [a for a in view.legal_actions if not isinstance(a, Signal)]
    if len(legal) <= SHORTLIST:
        return legal
    rule = auction_action(view)
    picks = [a for a in (rule, taken) if a is not None and a in legal]
    if view.phase == "call":
        hand, gone = list(view.hand), set(view.played_cards())
        picks += [Call(called_card(view.rules, hand, suit, gone)) for suit in Suit]
    elif view.phase == "discard":
        picks += [_discard_for(view, suit) for suit in Suit]
    return list(dict.fromkeys(a for a in picks if a in legal))


def auction_action(view: View) -> Action | None:
    """The action for a phase outside the card play (the cut, bid, discard, trump, call, marking a vale), or
    ``None`` in the play."""
    phase = view.phase
    if phase == "cut":
        return cut_choice(view)
    if phase == "mark":
        return mark_choice(view)
    if phase == "bid":
        return choose_bid(view)
    if phase == "discard":
        return choose_discard(view)
    if phase == "trump":
        return choose_trump(view)
    if phase == "call":
        return choose_call(view)
    return None


__all__ = [
    "WEIGHTS", "auction_action", "best_estimate", "best_suit", "called_card", "choose_bid", "choose_call",
    "choose_discard", "choose_trump", "cut_choice", "declare_choice", "estimate", "mark_choice", "shortlist",
    "suit_strength",
]
