"""The fixed action space of the research interfaces: one integer per :class:`~brisca.actions.Action`.

Every environment (PettingZoo, Gymnasium, OpenSpiel) numbers actions with one
:class:`ActionCodec`. The codec is a list of *blocks*; the core blocks come first
and their numbers are the same for every preset and player count, so a policy
trained on one preset reads the same action ids on another::

    >>> from brisca import Card
    >>> from brisca.actions import Arrastro, Exchange, Play, Signal
    >>> codec = ActionCodec.for_rules("spanish", 2)
    >>> codec.size
    111
    >>> codec.encode(Play(Card.parse("3O"))), codec.encode(Exchange(Card.parse("7B")))
    (2, 90)
    >>> codec.decode(96), codec.decode(100), codec.decode(101)
    (Arrastro(Card.parse('1O')), Claim(), Signal('trump-ace'))
    >>> [(b.name, b.start, b.size) for b in codec.blocks]  # doctest: +NORMALIZE_WHITESPACE
    [('play', 0, 48), ('exchange', 48, 48), ('arrastro', 96, 4), ('claim', 100, 1), ('signal', 101, 10)]

========  =========  ==========================================================
block     ids        action
========  =========  ==========================================================
play      0-47       ``Play(card)``, id = ``card.index`` (suit * 12 + rank - 1)
exchange  48-95      ``Exchange(card)``: give ``card`` for the face-up trump
arrastro  96-99      ``Arrastro`` with the ace of oros, copas, espadas, bastos
claim     100        ``Claim()``
signal    101-110    ``Signal(name)`` in the order of ``SIGNAL_SETS["spanish"]``
========  =========  ==========================================================

The size is fixed per game configuration, so spaces never change between calls.
Rules that add actions (an auction: bids, passes, calls, trump choice, discards,
declarations) extend the space with :func:`register_block`: a block factory
that, given the rules and player count, returns the block's actions (or nothing
when those rules do not use it). Extension blocks are appended after the core
blocks in registration order, so the core ids never move; a configuration that
uses no extension keeps exactly the 111 core ids.

The blocks this module registers, in this order, each present only where the rules use it:

=========  ============================================================================
block      actions
=========  ============================================================================
bid        ``Bid(v)`` for every legal amount, ``min_bid`` to ``max_bid`` in steps of
           ``bid_step`` (``bidding: points``; 14 ids in Rematada, 60 in Chiamata)
rank_bid   ``RankBid(r)`` for every rank, strongest first (``bidding: low_card``)
pass       ``Pass()`` (any auction; and a seat asked whether it marks a vale)
call       ``Call(card)``, 48 ids, ``start + card.index`` (a called card: Chiamata)
trump      ``TrumpChoice(suit)``, oros to bastos (a named trump, or low-card bidding)
discard    ``Discard(...)``: one id per unordered set of ``talon`` cards of the deck,
           in the order of ``itertools.combinations`` over the deck's cards by index
           (Rematada: the 496 pairs of its 32 cards). The engine takes a discard as
           one action, so the space does too: a mask over the pairs the seat holds.
declare    ``Declare(suit)``, oros to bastos (``declarations``: vales or on_lead)
cut        ``Cut(way)`` for each of ``cut_ways`` (``deal: cutter_chooses``)
signal_more  ``Signal(name)`` for the rules' signals beyond the core ten (``signal_set: italian``)
say        ``Signal(name, aloud=True)`` for each signal of the set (``signals: combination``)
announce   ``Announce(card)``, 48 ids, ``start + card.index``: lay this trump under the face-up card
           (``trump_exchange: announced``)
=========  ============================================================================

    >>> codec = ActionCodec.for_rules("rematada", 3)
    >>> [(b.name, b.start, b.size) for b in codec.blocks[5:]]
    [('bid', 111, 14), ('pass', 125, 1), ('trump', 126, 4), ('discard', 130, 496), ('declare', 626, 4)]
    >>> from brisca.actions import Discard
    >>> codec.decode(codec.encode(Discard(Card.parse("5O"), Card.parse("6C"))))
    Discard(Card.parse('5O'), Card.parse('6C'))
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from brisca.actions import (
    ANNOUNCES,
    ARRASTROS,
    CALLS,
    CLAIM,
    EXCHANGES,
    PASS,
    PLAYS,
    SIGNAL_SETS,
    Action,
    Bid,
    Cut,
    Declare,
    Discard,
    RankBid,
    Signal,
    TrumpChoice,
)
from brisca.cards import Card, Rank, Suit
from brisca.rules import Rules, make_rules


@dataclass(frozen=True)
class Block:
    """A run of consecutive action ids: ``actions[i]`` has id ``start + i``."""

    name: str
    start: int
    actions: tuple[Action, ...]
    doc: str = ""

    @property
    def size(self) -> int:
        return len(self.actions)

    @property
    def stop(self) -> int:
        return self.start + len(self.actions)


#: A block factory: the block's actions for these rules and player count, or ``None`` when unused.
BlockFactory = Callable[[Rules, int], "Sequence[Action] | None"]

CORE_BLOCKS: tuple[tuple[str, tuple[Action, ...], str], ...] = (
    ("play", tuple(PLAYS), "play the card with this index"),
    ("exchange", tuple(EXCHANGES), "give this trump for the face-up card"),
    ("arrastro", tuple(ARRASTROS[Card(Rank.ACE, s).index] for s in Suit), "lead the ace of trumps calling arrastro"),
    ("claim", (CLAIM,), "claim the rest of the hand"),
    ("signal", tuple(Signal(n) for n in SIGNAL_SETS["spanish"]), "a partner signal"),
)
#: The number of core ids (every configuration has at least these).
CORE_SIZE = sum(len(actions) for _n, actions, _d in CORE_BLOCKS)

_EXTENSIONS: list[tuple[str, BlockFactory, str]] = []


def register_block(name: str, factory: BlockFactory, doc: str = "") -> None:
    """Add an extension block (e.g. an auction's bids) after the core blocks.

    ``factory(rules, players)`` returns the block's actions in a fixed order, or
    ``None``/empty when those rules do not use the block. Actions must be interned
    (one object per action) or hash and compare by value.
    """
    if any(n == name for n, _f, _d in _EXTENSIONS) or any(n == name for n, _a, _d in CORE_BLOCKS):
        raise ValueError(f"an action block named {name!r} is already registered")
    _EXTENSIONS.append((name, factory, doc))


class ActionCodec:
    """Action <-> integer id for one game configuration (see the module docs for the layout)."""

    __slots__ = ("actions", "blocks", "ids", "size")

    def __init__(self, blocks: Iterable[tuple[str, Sequence[Action], str]]) -> None:
        out: list[Block] = []
        actions: list[Action] = []
        for name, acts, doc in blocks:
            out.append(Block(name, len(actions), tuple(acts), doc))
            actions.extend(acts)
        self.blocks: tuple[Block, ...] = tuple(out)
        self.actions: tuple[Action, ...] = tuple(actions)
        self.size: int = len(actions)
        self.ids: dict[Action, int] = {}
        for i, a in enumerate(actions):
            if a in self.ids:
                raise ValueError(f"action {a} appears twice in the action space")
            self.ids[a] = i

    @classmethod
    def for_rules(cls, rules: Rules | str = "spanish", players: int = 2) -> ActionCodec:
        """The codec for these rules and player count: the core blocks, then the extensions they use."""
        resolved = make_rules(rules)
        blocks: list[tuple[str, Sequence[Action], str]] = list(CORE_BLOCKS)
        for name, factory, doc in _EXTENSIONS:
            acts = factory(resolved, players)
            if acts:
                blocks.append((name, tuple(acts), doc))
        return cls(blocks)

    def encode(self, action: Action) -> int:
        """The id of ``action``; ``KeyError`` for an action outside this space."""
        return self.ids[action]

    def decode(self, index: int) -> Action:
        """The action with id ``index``; ``IndexError`` outside ``0..size-1``."""
        if index < 0:
            raise IndexError(f"action id {index} out of range 0..{self.size - 1}")
        return self.actions[index]

    def encode_all(self, actions: Iterable[Action]) -> list[int]:
        """The ids of ``actions``, sorted ascending."""
        ids = self.ids
        return sorted(ids[a] for a in actions)

    def block(self, name: str) -> Block:
        """The block called ``name``."""
        for b in self.blocks:
            if b.name == name:
                return b
        raise KeyError(name)

    def __len__(self) -> int:
        return self.size

    def __repr__(self) -> str:
        return f"ActionCodec({', '.join(f'{b.name}={b.start}..{b.stop - 1}' for b in self.blocks)})"


# ------------------------------------------------------------ the auction's blocks


def _bids(rules: Rules, players: int) -> Sequence[Action] | None:
    if rules.bidding != "points":
        return None
    return [Bid(v) for v in range(rules.min_bid, rules.max_bid + 1, rules.bid_step)]


def _rank_bids(rules: Rules, players: int) -> Sequence[Action] | None:
    return [RankBid(r) for r in rules.strength_order()] if rules.bidding == "low_card" else None


def _passes(rules: Rules, players: int) -> Sequence[Action] | None:
    return [PASS] if rules.auction or rules.declarations == "vales" else None


def _calls(rules: Rules, players: int) -> Sequence[Action] | None:
    return list(CALLS) if rules.trump_from == "called" and rules.bidding == "points" else None


def _trumps(rules: Rules, players: int) -> Sequence[Action] | None:
    named = rules.trump_from == "named" or rules.bidding == "low_card"
    return [TrumpChoice(s) for s in Suit] if named else None


def _discards(rules: Rules, players: int) -> Sequence[Action] | None:
    if not rules.talon:
        return None
    cards = sorted(rules.deck_cards(players))
    return [Discard(*combo) for combo in itertools.combinations(cards, rules.talon)]


def _declares(rules: Rules, players: int) -> Sequence[Action] | None:
    return [Declare(s) for s in Suit] if rules.declarations != "off" else None


def _cuts(rules: Rules, players: int) -> Sequence[Action] | None:
    return [Cut(w) for w in rules.cut_ways] if rules.deal == "cutter_chooses" else None


def _more_signals(rules: Rules, players: int) -> Sequence[Action] | None:
    core = set(SIGNAL_SETS["spanish"])
    if rules.signals == "off" or rules.sides(players) == players:
        return None
    return [Signal(n) for n in SIGNAL_SETS[rules.signal_set] if n not in core]


def _said(rules: Rules, players: int) -> Sequence[Action] | None:
    if rules.signals != "combination" or rules.sides(players) == players:
        return None
    return [Signal(n, aloud=True) for n in SIGNAL_SETS[rules.signal_set]]


register_block("bid", _bids, "bid this many points")
register_block("rank_bid", _rank_bids, "name this rank (low-card bidding)")
register_block("pass", _passes, "pass in the auction")
register_block("call", _calls, "call the card with this index")
register_block("trump", _trumps, "name this trump suit")
register_block("discard", _discards, "lay these cards down (one id per set of cards)")
register_block("declare", _declares, "declare the king-knight pair of this suit")
register_block("cut", _cuts, "the cutter deals this way: alce, golpe, pelada (deal: cutter_chooses)")
register_block("signal_more", _more_signals,
               "a signal of the rules' set beyond the core ten (Briscola guide's high-card)")
register_block("say", _said, "a signal said aloud for everybody (signals: combination)")


def _announces(rules: Rules, players: int) -> Sequence[Action] | None:
    return list(ANNOUNCES) if rules.trump_exchange == "announced" and not rules.dealt_out else None


register_block("announce", _announces, "lay this trump under the face-up card (trump_exchange: announced)")
