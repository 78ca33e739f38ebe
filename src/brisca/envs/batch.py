"""Many hands at once: the game, its views' encodings and legal masks over numpy arrays, compiled (numba).

Self-play spends its time in Python objects: a :class:`~brisca.game.Game`, a :class:`~brisca.game.View` and an
:class:`~brisca.envs.encode.ObservationEncoder` call per decision, then a one-row forward pass. :class:`Batch`
holds ``size`` hands in one integer array, one row a hand (a *lane*), and plays them in lockstep: one compiled
call advances every lane to its next decision (a seat with a single legal action plays it at once, as the trainer
always did) and writes each deciding seat's encoded view and legal mask into one matrix, ready for a single
forward pass over all of them.

The encoding is :class:`~brisca.envs.encode.ObservationEncoder`'s, value for value (``float32``, bit for bit), and
the network's input (:meth:`brisca.agents.net.Net.features`: the encoding and one input a preset) with it; the
legal mask is :meth:`~brisca.envs.encode.ObservationEncoder.mask`'s; the hand's result and each seat's reward are
:meth:`Game.result <brisca.game.Game.result>`'s and :func:`brisca.agents.net.reward`'s. ``tests/test_batch.py``
holds all of them to the engine over thousands of positions of every covered preset.

Covered (:func:`covers`): every preset with a turned trump and a stock (not dealt out), at every player count it
allows: the engine's plain path (point and rank tables, ``last_trick_bonus``, ``pair_bonus``, ``tie:
most_cards``, ``hand_winner: least``, the exchange ``off``, ``after_win``, ``any_time`` or
``before_penultimate``), and with it ``kill_three`` (``muerte-al-tres``: the ace of trumps held back, the hand
over when it takes the three), ``open_hands`` (``scoperta``: every other hand in the ``known`` planes) and
``signals: partner`` or ``open`` (``bixkla``: each true signal a legal action, the seat acting again; the signal
planes as the seat saw them). And Briscola Chiamata at 5, ``chiamata`` and ``chiamata-buia``: every card dealt,
the auction for points (each bid and pass an action id; ``min_bid``, ``bid_step``, ``max_bid``, ``all_pass``
and ``auction_direction`` as set), the call of a card (its suit trump, its holder the hidden partner, shown in
the ``partner`` plane once the card is played; before the play, or after a first trick with no trump under
``call_time: after_first_trick``) and the contract's result (:meth:`Batch.contract` gives the engine-level
contract). And Brisca Rematada at 3, ``rematada``: 10 cards each and a talon of 2 face down, the same auction
(its options as set; with ``all_pass: redeal`` a hand everybody passed is void), the winner shown and given the
talon, his discard of two cards (one action id a pair, as the codec numbers them: their points his, hidden in the
other seats' ``points`` until the hand is over), the trump he names, the king-knight pairs declared on lead
(``declarations: on_lead``: a declaration is an action of its own, the seat then leading one of the pair's
cards; 20, or 40 in trumps, to its holder), or scored when captured (``declarations: off`` with ``pair_bonus``),
and the solo contract's result and reward. And Chilean brisca porteña at 4, ``chilean``: every card dealt, 10
each to two partnerships, the cutter (``cutter: right`` or ``left``) choosing how (``deal: cutter_chooses``
among ``cut_ways``, an action id of his; or one way fixed, ``deal: alce``, ``golpe``, ``pelada`` or
``one_by_one``): the dealer's last card (pelada: the top card) trump and in the ``known`` planes while he holds
it, the cards a golpe or a pelada shows (``golpe_partner_shows`` as set) in the ``shown`` planes and, while
held, the ``known`` ones; the duties to follow (``follow: descanso``, ``suit_beat_trump``, ``suit`` or
``suit_trump``), the guarded 2 (``lead_two: guarded``) and the pelada's trump lead; the vales (``declarations:
vales``: declared on a seat's turn, or marked in the window after each card, each seat of the side asked in
turn and its pass an action id, as the engine models it; 20, or 40 in trumps, to the side that wins the trick),
``capote`` (``hand`` or ``match``: the side that takes every trick wins the hand) and a level count a tie
(``tie: replay``: no winner, the margin alone in the reward). Not covered: ``bidding: low_card``, a talon of
another size, ``kill_three`` and ``open_hands`` with an auction or every card dealt, ``deal_look``,
``partners_look`` with every card dealt, ``trump_rotation``, signals said aloud (``combination``) or with
every card dealt, the exchanges ``out_of_turn`` and ``announced``, claims, arrastro, and duties to follow with
a stock. Several presets share a batch when their encodings and action ids share one layout (the network's
case: one input a preset)::

    batch = Batch(["spanish", "briscola"], players=2, size=256, seed=1)
    batch.deal_all()
    obs, mask, lanes, seats = batch.observe()   # (256, 492) float32, (256, 111) bool: every lane's seat to act
    batch.act(lanes, ids)                       # one action id a row

docs/research.md shows a whole loop. The trainer's self-play makes about twelve times as many decisions a second
in lockstep as one hand at a time, for ``chiamata`` at 5 (11.8x: ``brisca bench --selfplay --presets chiamata
--players 5 --seconds 10``) as for 2-player ``spanish`` and ``briscola`` (12.5x in the same session:
``brisca bench --selfplay --seconds 10``), and more for ``rematada`` at 3 (17.8x: ``brisca bench --selfplay
--presets rematada --players 3 --seconds 5``) and ``chilean`` at 4 (22.7x: ``brisca bench --selfplay --presets
chilean --players 4 --seconds 5``); docs/research.md has the figures.

numba is optional (the ``fast`` extra): without it the same functions run as plain Python, slowly (the tests
still pass; :data:`COMPILED` says which).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from brisca.actions import ASK_SIGNALS, CALLS, PASS, SIGNAL_SETS, Bid, Cut, Declare, Discard, Signal, TrumpChoice
from brisca.cards import ALL_CARDS, Card, Suit
from brisca.envs import deck_points
from brisca.envs.encode import ObservationEncoder, cue_size
from brisca.game import Game
from brisca.rules import Rules, make_rules

if TYPE_CHECKING:
    import numpy as np
else:
    try:
        import numpy as np
    except ImportError:  # the 'fast' or 'rl' extra is not installed
        np = None

try:
    from numba import njit as _numba_njit

    #: Whether the lanes run compiled (numba installed) or as plain Python.
    COMPILED = True
except ImportError:  # pragma: no cover - depends on the environment
    COMPILED = False


def _njit(fn: Callable[..., Any]) -> Callable[..., Any]:
    if not COMPILED:
        return fn
    compiled: Callable[..., Any] = _numba_njit(cache=True, nogil=True)(fn)
    return compiled


__all__ = ["COMPILED", "EXCHANGE_ID", "Batch", "covers", "forward", "greedy", "policy", "privileged_size", "quantize",
           "warm"]

#: The action id of the exchange that gives card ``c``: ``EXCHANGE_ID + c`` (the codec's exchange block).
EXCHANGE_ID = 48

# --- the per-preset configuration (one row of ``cfg`` a preset) ----------------------------------------------------
(_N, _SIDES, _H, _S, _XMODE, _GIVE_UNTIL, _CHAIN, _PLOOK, _LEAST, _MOST_CARDS, _LTB, _PAIR, _NCARDS, _KILL3,
 _OPEN, _SIGMODE) = range(16)
#: ``_SIGMODE``: no signals, signals seen by the signaller's partners, signals seen by all.
_SIG_OFF, _SIG_PARTNER, _SIG_OPEN = range(3)
#: The signals in the order the engine lists the true ones (``RuledGame._truthful_signals``): ``cfg[_SIGID + k]`` is
#: signal ``k``'s action id (-1: not in these rules); its slot in the encoder's signal planes is :func:`_slot`'s.
_SIG_ORDER = ("trump-ace", "trump-three", "trump-king", "trump-knight", "trump-jack", "small-trumps", "briscas",
              "high-card", "no-trumps", "ask-points", "ask-cards")
_SIGID = _SIGMODE + 1
#: ``cfg[_TOPR + rank - 1]``: the rank is a carico (one of the two strongest: Briscola guide's high card).
_TOPR = _SIGID + len(_SIG_ORDER)
#: The auction of a called card (Briscola Chiamata): ``cfg[_AUCT]`` is 1 where the rules have one; its bids (the
#: lowest, the step, the highest, their number), whether the last seat left must bid (``all_pass: last_must_bid``),
#: the way it goes round (+1 or -1), whether the call waits for the first trick (``call_time:
#: after_first_trick``), and the action ids of the pass, the first bid and the first call.
(_AUCT, _MINBID, _STEP, _MAXBID, _NBIDS, _LASTMUST, _WAY, _BUIA, _PASSID, _BIDID, _CALLID) = range(_TOPR + 12,
                                                                                                 _TOPR + 23)
#: ``cfg[_INDECK + card]``: the card is in the preset's deck (it may be called).
_INDECK = _TOPR + 23
#: Brisca Rematada's contract: the talon's size (0: none; its cards go to the auction's winner, who discards as
#: many), whether the contract is the declarer's alone (``contract: solo``), the action ids of the first discard,
#: the first trump named and the first declaration (-1: no declarations), and the deck's size; then
#: ``cfg[_POS + card]``: the card's place in the deck by index (the codec numbers discards by these places).
(_TALON, _SOLO, _DISCID, _TRUMPID, _DECLID, _NDECK) = range(_INDECK + 48, _INDECK + 54)
_POS = _INDECK + 54
#: Every card dealt without an auction (Brisca porteña): ``cfg[_DOUT]`` is 1 on this path; the way every hand is
#: dealt (:data:`_W_ONE` to :data:`_W_PELADA`, or 0 where the cutter chooses it, ``deal: cutter_chooses``); the
#: cutter's place from the dealer (+1 ``cutter: right``, -1 left); the duties to follow (:data:`_F_NONE`,
#: :data:`_F_DESCANSO`, :data:`_F_BEAT`); whether a 2 is led only when guarded (``lead_two: guarded``); whether a
#: side that takes every trick wins (``capote``); whether king-knight pairs are vales (``declarations: vales``:
#: declared in the trick where one is played, scored by its winner) and the id of the pass that declines one; and
#: whether the dealer's partner shows his last card in a golpe (``golpe_partner_shows``).
(_DOUT, _WAY0, _CUTTER, _FOLLOW, _LEAD2, _CAPOTE, _VALES, _VPASS, _GSHOW) = range(_POS + 48, _POS + 57)
#: ``cfg[_CUTID + k]`` and ``cfg[_CUTW + k]``: the action id and the way of the ``k``-th of ``cut_ways`` (-1: none).
_CUTID = _POS + 57
_CUTW = _CUTID + 3
#: ``cfg[_STRG + card]``: the card's strength in its suit (the duty to beat compares them).
_STRG = _CUTW + 3
_CFG = _STRG + 48
#: The ways of dealing every card (``_L_WAY``; 0 before the cutter has chosen): one at a time, and Porteña's three
#: (packets of 5; 10 in a row, each opponent's last card shown; the top card trump, opponents' first cards shown).
_W_ONE, _W_ALCE, _W_GOLPE, _W_PELADA = 1, 2, 3, 4
_WAYS = {"one_by_one": _W_ONE, "alce": _W_ALCE, "golpe": _W_GOLPE, "pelada": _W_PELADA}
#: ``_FOLLOW``: no duty; the descanso (follow suit, beat and trump an opponent's card, rest on a partner's plain
#: one); follow suit, beat and trump whoever holds the trick (``suit_beat_trump``); follow suit (``suit``); follow
#: suit, else trump (``suit_trump``).
_F_NONE, _F_DESCANSO, _F_BEAT, _F_SUIT, _F_TRUMP = 0, 1, 2, 3, 4
_FOLLOWS = {"none": _F_NONE, "descanso": _F_DESCANSO, "suit_beat_trump": _F_BEAT, "suit": _F_SUIT,
            "suit_trump": _F_TRUMP}
#: ``_XMODE``: no exchange, once the seat has won a trick, at any time.
_X_OFF, _X_AFTER_WIN, _X_ANY = range(3)

# --- the per-lane state: one row of ``st`` a lane; offsets in ``lay`` (they depend on n, H, S) --------------------
(_L_HANDS, _L_HLEN, _L_STOCK, _L_SLEN, _L_TRICK, _L_TLEN, _L_LEADER, _L_TURN, _L_BEST, _L_BSEAT, _L_GIVE, _L_OVER,
 _L_LASTW, _L_DEALER, _L_TRUMP, _L_PRESET, _L_PTS, _L_MAYX, _L_PLAYED, _L_CAPT, _L_KNOWN, _L_THREE, _L_KILLER,
 _L_TSIG, _L_SIGH, _L_SIGT, _L_PHASE, _L_BIDS, _L_PASSED, _L_HIGH, _L_HSEAT, _L_DECL, _L_CALLED, _L_PARTNER,
 _L_SHOWN, _L_BLIND, _L_TALON, _L_DISC, _L_DPTS, _L_WON, _L_DECLS, _L_PEND, _L_ORDER, _L_WAY, _L_SEEN, _L_VOID,
 _L_NTR, _L_TSIDES, _L_TWIN, _L_VT, _L_MCARD, _L_MLEN, _L_MLEAD, _L_MT, _L_WIN, _L_WLEN, _L_WPOS, _L_RESUME, _L_END,
 _L_WIDTH) = range(60)
#: ``_L_PHASE``: the hand's phase, as its index in :data:`brisca.game.PHASES` (the auction's bids, the discard
#: and the trump named by the talon's taker, the call, the play; the trump is -1 until it is named or called).
#: ``_L_TALON``: the talon as dealt; ``_L_DISC``: the cards laid down (-1 before), whose points ``_L_DPTS`` the
#: other seats do not see until the hand is over; ``_L_WON``: each seat has won a trick (it may declare);
#: ``_L_DECLS``: the suits each seat has declared (bit a suit); ``_L_PEND``: the suit just declared, one of whose
#: two cards is led now (-1: none).
#: Every card dealt without an auction: ``_L_ORDER`` the deck as it lies cut (top first) until the cutter chooses
#: ``_L_WAY``; ``_L_SEEN`` the cards each seat showed at the deal (bit a card); ``_L_VOID`` the suits each seat has
#: failed to follow (bit a suit: a 2 of that suit is then guarded for its partner); ``_L_NTR`` the tricks played,
#: ``_L_TWIN`` their winners and ``_L_TSIDES`` the sides that took them (bit a side: capote); ``_L_VT`` the trick
#: each suit's vale was declared in (-1: none). The window after a card in which seats whose card is down may
#: still declare a vale (phase :data:`_PH_MARK`): that trick's cards ``_L_MCARD`` (``_L_MLEN`` of them, led by
#: ``_L_MLEAD``, trick ``_L_MT``), the seats asked ``_L_WIN`` (``_L_WLEN``, the one asked now ``_L_WPOS``), and
#: where the hand goes on: ``_L_RESUME`` the seat to play then, ``_L_END`` whether the hand is over.
_PH_BID, _PH_DISC, _PH_TRUMP, _PH_CALL, _PH_PLAY = 0, 1, 2, 3, 4
#: The phases beyond the engine's :data:`brisca.game.PHASES`: the cutter chooses the deal; seats mark vales.
_PH_CUT, _PH_MARK = 5, 6

# --- the encoder's field offsets (``enc``) ---------------------------------------------------------------------------
_ENC_FIELDS = ("hand", "known", "trick", "played", "captured", "face_up", "trump", "leader", "turn", "dealer",
               "partners", "arrastro", "stock", "points", "hand_sizes", "signals_trick", "signals_hand", "phase",
               "bids", "passed", "declarer", "called", "partner", "talon", "discards", "declarations", "shown")
_E_TALON, _E_DISC, _E_DECLS, _E_SHOWN = 23, 24, 25, 26
#: ``enc[_ENC_END]``: the encoding's size (the presets' inputs follow it).
_ENC_END = len(_ENC_FIELDS)


def covers(rules: Rules | str, players: int) -> bool:
    """Whether :class:`Batch` plays these rules at this player count exactly as the engine does."""
    rules = make_rules(rules)
    if players not in rules.player_counts:
        return False
    if rules.auction:  # every card dealt (a talon aside), an auction for points, no stock
        called = (rules.trump_from == "called" and rules.contract == "called" and rules.talon == 0
                  and rules.declarations == "off")  # Briscola Chiamata
        named = (rules.trump_from == "named" and rules.contract == "solo" and rules.talon == 2
                 and rules.declarations in ("off", "on_lead"))  # Brisca Rematada
        return ((called or named) and rules.bidding == "points" and rules.deal == "one_by_one"
                and rules.sides(players) == players and rules.trump_exchange == "off" and rules.follow == "none"
                and not rules.arrastro and not rules.claim and not rules.kill_three and rules.lead_two == "any"
                and rules.capote == "off" and not rules.open_hands and not rules.deal_look)
    if rules.dealt_out:  # Brisca porteña: every card dealt, the dealer's card trump, the cutter's choice of the deal
        ways = rules.cut_ways if rules.deal == "cutter_chooses" else (rules.deal,)
        return (rules.trump_from == "dealer" and rules.talon == 0
                and len(rules.deck_cards(players)) == rules.hand_size * players
                and all(w in _WAYS for w in ways) and ("alce" not in ways or rules.hand_size % 5 == 0)
                and rules.follow in _FOLLOWS
                and rules.declarations in ("off", "vales") and rules.lead_two in ("any", "guarded")
                and rules.trump_exchange == "off" and rules.signals == "off" and rules.contract == "off"
                and rules.point_limit == 0 and not rules.arrastro and not rules.claim and not rules.kill_three
                and not rules.open_hands and not rules.deal_look and not rules.partners_look
                and not rules.trump_rotation and rules.face_up_to == "last_to_draw")
    # The rules the lanes play beyond the plain game's path: muerte al tres, partner and open signals.
    base = dataclasses.replace(rules, kill_three=False, signals="off")
    return (base.plain and not rules.dealt_out and not rules.trump_rotation and not rules.deal_look
            and rules.signals in ("off", "partner", "open") and rules.contract == "off"
            and rules.trump_exchange in ("off", "after_win", "any_time", "before_penultimate"))


# ---------------------------------------------------------------------------------------------- compiled core


@_njit
def _deal(st: Any, lane: int, lay: Any, cfg: Any, xtable: Any, preset: int, deck: Any, dealer: int) -> None:
    """Deal ``deck`` (card indices, top first) as :class:`~brisca.game.Game` deals it: one card at a time from
    the dealer's left, the next card turned for trump at the bottom of the stock (or, every card dealt, the rest
    face down as the talon)."""
    c = cfg[preset]
    n = c[_N]
    stride = c[_H]
    h = stride - c[_TALON]
    row = st[lane]
    for i in range(row.shape[0]):
        row[i] = 0
    dealt = h * n
    for k in range(n):
        seat = (dealer + 1 + k) % n
        for i in range(h):
            row[lay[_L_HANDS] + seat * stride + i] = deck[k + i * n]
        row[lay[_L_HLEN] + seat] = h
    ncards = c[_NCARDS]
    row[lay[_L_TLEN]] = 0
    row[lay[_L_LEADER]] = (dealer + 1) % n
    row[lay[_L_TURN]] = (dealer + 1) % n
    row[lay[_L_BEST]] = deck[0]
    row[lay[_L_BSEAT]] = -1
    row[lay[_L_OVER]] = 0
    row[lay[_L_LASTW]] = -1
    row[lay[_L_DEALER]] = dealer
    row[lay[_L_PRESET]] = preset
    row[lay[_L_KILLER]] = -1
    row[lay[_L_HSEAT]] = -1
    row[lay[_L_DECL]] = -1
    row[lay[_L_CALLED]] = -1
    row[lay[_L_PARTNER]] = -1
    row[lay[_L_PEND]] = -1
    for i in range(c[_TALON]):
        row[lay[_L_TALON] + i] = deck[dealt + i]
        row[lay[_L_DISC] + i] = -1
    for s in range(n):
        row[lay[_L_MAYX] + s] = 1 if c[_XMODE] == _X_ANY else 0
    for i in range(48):
        row[lay[_L_PLAYED] + i] = -1
        row[lay[_L_CAPT] + i] = -1
    for su in range(4):
        row[lay[_L_VT] + su] = -1
    if c[_DOUT] != 0:  # every card dealt, no auction: cut and dealt the way the cutter chooses (or the fixed one)
        row[lay[_L_SLEN]] = 0
        row[lay[_L_GIVE]] = -1
        for i in range(ncards):
            row[lay[_L_ORDER] + i] = deck[i]
        if c[_WAY0] == 0:  # nothing is dealt until the cutter has chosen: no hands, no trump, the cutter to act
            for s in range(n):
                row[lay[_L_HLEN] + s] = 0
            row[lay[_L_TRUMP]] = -1
            row[lay[_L_PHASE]] = _PH_CUT
            row[lay[_L_TURN]] = (dealer + c[_CUTTER]) % n
        else:
            _deal_way(row, lay, c, c[_WAY0])
        return
    if c[_AUCT] != 0:  # every card dealt: no stock, no trump until the call; the auction from the dealer's side
        row[lay[_L_SLEN]] = 0
        row[lay[_L_TRUMP]] = -1
        row[lay[_L_GIVE]] = -1
        row[lay[_L_PHASE]] = _PH_BID
        row[lay[_L_TURN]] = (dealer + c[_WAY]) % n
        return
    row[lay[_L_PHASE]] = _PH_PLAY
    row[lay[_L_STOCK]] = deck[dealt]
    j = 1
    for i in range(ncards - 1, dealt, -1):
        row[lay[_L_STOCK] + j] = deck[i]
        j += 1
    row[lay[_L_SLEN]] = ncards - dealt
    row[lay[_L_TRUMP]] = deck[dealt] // 12
    _set_give(row, lay, c, False, xtable[preset, deck[dealt]])


@_njit
def _give_card(row: Any, lay: Any, h: int, seat: int, card: int) -> None:
    """Put ``card`` last in ``seat``'s hand."""
    hl = row[lay[_L_HLEN] + seat]
    row[lay[_L_HANDS] + seat * h + hl] = card
    row[lay[_L_HLEN] + seat] = hl + 1


@_njit
def _show(row: Any, lay: Any, seat: int, card: int) -> None:
    """``seat`` shows ``card`` at the deal: in the ``shown`` plane for good, in the ``known`` planes while held."""
    row[lay[_L_SEEN] + seat] |= 1 << card
    row[lay[_L_KNOWN] + card] = 1


@_njit
def _deal_way(row: Any, lay: Any, c: Any, way: int) -> None:
    """Deal the deck lying in ``_L_ORDER`` (top first) the way ``way``, as the engine's ``RuledGame`` deals it, the
    dealer last: one card at a time, packets of 5 round the table (alce), 10 in a row (golpe: each opponent's last
    card shown, the dealer's partner's too under ``golpe_partner_shows``) or, the top card trump and the dealer's,
    10 in a row from the next (pelada: each opponent's first card shown, and the next while they are trumps). The
    trump card is the dealer's last (pelada: the top card), seen by all while he holds it; the cutter's side leads."""
    n = c[_N]
    h = c[_H]
    sides = c[_SIDES]
    dealer = row[lay[_L_DEALER]]
    total = n * h
    order = lay[_L_ORDER]
    for s in range(n):
        row[lay[_L_HLEN] + s] = 0
    trump_card = row[order + total - 1]
    if way == _W_ALCE:
        for i, start in enumerate(range(0, total, 5)):
            seat = (dealer + 1 + i % n) % n
            for j in range(start, min(start + 5, total)):
                _give_card(row, lay, h, seat, row[order + j])
    elif way == _W_GOLPE:
        for k in range(n):
            seat = (dealer + 1 + k) % n
            for j in range(k * h, (k + 1) * h):
                _give_card(row, lay, h, seat, row[order + j])
            if seat % sides != dealer % sides or (c[_GSHOW] != 0 and seat != dealer):
                _show(row, lay, seat, row[order + (k + 1) * h - 1])
    elif way == _W_PELADA:
        trump_card = row[order]
        for k in range(n):
            seat = (dealer + 1 + k) % n
            for j in range(1 + k * h, min(1 + (k + 1) * h, total)):
                _give_card(row, lay, h, seat, row[order + j])
        _give_card(row, lay, h, dealer, trump_card)
        for k in range(n):
            seat = (dealer + 1 + k) % n
            if seat % sides != dealer % sides:
                for i in range(row[lay[_L_HLEN] + seat]):
                    card = row[lay[_L_HANDS] + seat * h + i]
                    _show(row, lay, seat, card)
                    if card // 12 != trump_card // 12:
                        break
    else:
        for k in range(n):
            seat = (dealer + 1 + k) % n
            for j in range(k, total, n):
                _give_card(row, lay, h, seat, row[order + j])
    row[lay[_L_KNOWN] + trump_card] = 1
    row[lay[_L_TRUMP]] = trump_card // 12
    row[lay[_L_WAY]] = way
    row[lay[_L_PHASE]] = _PH_PLAY
    row[lay[_L_LEADER]] = (dealer + 1) % n
    row[lay[_L_TURN]] = (dealer + 1) % n


@_njit
def _set_give(row: Any, lay: Any, c: Any, exchanged: bool, xtable_face: int) -> None:
    """The trump that may be given for the face-up card now (``xtable_face``: the table's entry for it), or -1."""
    slen = row[lay[_L_SLEN]]
    give = -1
    if slen > 0 and slen > c[_GIVE_UNTIL] and (not exchanged or c[_CHAIN] != 0):
        give = xtable_face
    row[lay[_L_GIVE]] = give


@_njit
def _legal(st: Any, lane: int, lay: Any, cfg: Any, out: Any) -> int:
    """The legal action ids of the seat to act, in the engine's order (its cards in hand order, then the
    declarations, the exchange and the signals; or the auction's, the cut's or a vale window's); their number (0
    once the hand is over)."""
    row = st[lane]
    if row[lay[_L_OVER]] != 0:
        return 0
    c = cfg[row[lay[_L_PRESET]]]
    phase = row[lay[_L_PHASE]]
    if phase == _PH_BID:
        return int(_bids(row, lay, c, out))
    if phase == _PH_CALL:
        return int(_calls(row, lay, c, out))
    if phase == _PH_DISC:
        return int(_discards(row, lay, c, out))
    if phase == _PH_TRUMP:
        for su in range(4):
            out[su] = c[_TRUMPID] + su
        return 4
    seat = row[lay[_L_TURN]]
    if phase == _PH_CUT:  # the ways the rules offer, as they list them
        m = 0
        for k in range(3):
            if c[_CUTID + k] >= 0:
                out[m] = c[_CUTID + k]
                m += 1
        return m
    if phase == _PH_MARK:  # the vales the seat may still mark, then the pass
        m = 0
        for su in range(4):
            if _markable(row, lay, c, seat, su):
                out[m] = c[_DECLID] + su
                m += 1
        out[m] = c[_VPASS]
        return m + 1
    h = c[_H]
    hl = row[lay[_L_HLEN] + seat]
    base = lay[_L_HANDS] + seat * h
    give = row[lay[_L_GIVE]]
    held = False
    plays = _plays(row, lay, c, seat, base, hl)
    m = 0
    for i in range(hl):
        card = row[base + i]
        if card == give:
            held = True
        if (plays >> card) & 1:
            out[m] = card
            m += 1
    if c[_DECLID] >= 0:
        for su in range(4):
            if (_vale(row, lay, c, seat, base, hl, su, plays) if c[_VALES] != 0
                    else _declarable(row, lay, c, seat, base, hl, su)):
                out[m] = c[_DECLID] + su
                m += 1
    if held and row[lay[_L_MAYX] + seat] != 0:
        out[m] = EXCHANGE_ID + give
        m += 1
    if c[_SIGMODE] != _SIG_OFF:
        true = _truthful(row, base, hl, row[lay[_L_TRUMP]], c) & ~row[lay[_L_TSIG]]
        for k in range(len(_SIG_ORDER)):
            if (true >> k) & 1 and c[_SIGID + k] >= 0:
                out[m] = c[_SIGID + k]
                m += 1
    return m


@_njit
def _suit(su: int) -> int:
    """The cards of suit ``su`` (bit a card)."""
    return 0xFFF << (12 * su)


@_njit
def _plays(row: Any, lay: Any, c: Any, seat: int, base: int, hl: int) -> int:
    """The cards ``seat`` may play now (bit a card), as ``RuledGame._playable`` allows them: the duties to follow,
    the leads a pelada and ``lead_two: guarded`` forbid, one of a declared pair's cards, the prisoner ace held."""
    held = _held(row, base, hl)
    cands = held
    tlen = row[lay[_L_TLEN]]
    follow = c[_FOLLOW]
    trump = row[lay[_L_TRUMP]]
    if tlen > 0 and follow != _F_NONE:
        led = row[lay[_L_TRICK]] // 12
        best = row[lay[_L_BEST]]
        sides = c[_SIDES]
        # descanso: the duties to beat and to trump are owed to the opponents' cards (source Porteña)
        mate = follow == _F_DESCANSO and row[lay[_L_BSEAT]] % sides == seat % sides
        same = held & _suit(led)
        beat = follow != _F_SUIT and follow != _F_TRUMP  # (suit_beat_trump, descanso)
        if same != 0:
            cands = same
            if beat and best // 12 == led and not mate:
                beaters = 0
                for card in range(led * 12, led * 12 + 12):
                    if (same >> card) & 1 and c[_STRG + card] > c[_STRG + best]:
                        beaters |= 1 << card
                if beaters != 0:
                    cands = beaters
        elif follow != _F_SUIT and (follow != _F_DESCANSO or not (mate and best // 12 != trump)):
            trumps = held & _suit(trump)
            if trumps != 0:
                cands = trumps
    elif tlen == 0 and (row[lay[_L_WAY]] == _W_PELADA or c[_LEAD2] != 0):
        cands = _leads(row, lay, c, seat, held)
    pend = row[lay[_L_PEND]]
    if pend >= 0:
        cands &= (1 << (pend * 12 + 10)) | (1 << (pend * 12 + 11))
    prisoner = _prisoner(row, lay, c, hl)
    if prisoner >= 0:
        cands &= ~(1 << prisoner)
    return int(cands)


@_njit
def _leads(row: Any, lay: Any, c: Any, seat: int, held: int) -> int:
    """Source Porteña's duties on lead (``RuledGame._lead_duties``): the cutter leads a trump to a pelada's first
    trick, and a 2 is led only guarded (its ace in hand or played, the partner void in its suit, the cutter's only
    trump in that first trick) or when nothing else can be."""
    n = c[_N]
    trump = row[lay[_L_TRUMP]]
    pelada = row[lay[_L_WAY]] == _W_PELADA
    first = row[lay[_L_NTR]] == 0 and seat == (row[lay[_L_DEALER]] + 1) % n
    cands = held
    if pelada and first and held & _suit(trump) != 0:
        cands = held & _suit(trump)
    if c[_LEAD2] == 0:
        return cands
    count = 0
    for card in range(48):
        if (cands >> card) & 1:
            count += 1
    sides = c[_SIDES]
    ok = 0
    for card in range(48):
        if not (cands >> card) & 1:
            continue
        su = card // 12
        fine = card % 12 != 1 or (held >> (su * 12)) & 1 != 0 or row[lay[_L_PLAYED] + su * 12] >= 0
        if not fine:
            for s in range(n):
                if s != seat and s % sides == seat % sides and (row[lay[_L_VOID] + s] >> su) & 1:
                    fine = True
        if not fine:
            fine = pelada and first and su == trump and count == 1
        if fine:
            ok |= 1 << card
    return ok if ok != 0 else cands


@_njit
def _declared(row: Any, lay: Any, c: Any, su: int) -> bool:
    """Whether any seat has declared the king-knight pair of suit ``su``."""
    done = False
    for s in range(c[_N]):
        if (row[lay[_L_DECLS] + s] >> su) & 1:
            done = True
    return done


@_njit
def _pair(su: int) -> int:
    """The king and knight of suit ``su`` (bit a card)."""
    return (1 << (su * 12 + 10)) | (1 << (su * 12 + 11))


@_njit
def _vale(row: Any, lay: Any, c: Any, seat: int, base: int, hl: int, su: int, plays: int) -> bool:
    """``declarations: vales``: ``seat`` may declare suit ``su``'s pair on its turn: its side has played one of
    them in this trick and holds the rest, or it holds both and may play one (``plays``) with no declaration
    waiting for its card; the pair not declared yet."""
    if _declared(row, lay, c, su):
        return False
    n = c[_N]
    sides = c[_SIDES]
    leader = row[lay[_L_LEADER]]
    ours = 0
    for i in range(row[lay[_L_TLEN]]):
        if ((leader + i) % n) % sides == seat % sides:
            ours |= 1 << row[lay[_L_TRICK] + i]
    held = _held(row, base, hl)
    pair = _pair(su)
    if pair & ours != 0 and pair & ~(ours | held) == 0:
        return True
    return bool(pair & ~held == 0 and pair & plays != 0 and row[lay[_L_PEND]] < 0)


@_njit
def _markable(row: Any, lay: Any, c: Any, seat: int, su: int) -> bool:
    """In a window to mark vales: ``seat``, its card down in that trick, may still mark suit ``su``'s pair (its
    side played one of them there and holds the rest, the pair not declared yet)."""
    n = c[_N]
    lead = row[lay[_L_MLEAD]]
    mlen = row[lay[_L_MLEN]]
    if (seat - lead) % n >= mlen or _declared(row, lay, c, su):
        return False
    sides = c[_SIDES]
    ours = 0
    for i in range(mlen):
        if ((lead + i) % n) % sides == seat % sides:
            ours |= 1 << row[lay[_L_MCARD] + i]
    held = _held(row, lay[_L_HANDS] + seat * c[_H], row[lay[_L_HLEN] + seat])
    pair = _pair(su)
    return bool(pair & ours != 0 and pair & ~(ours | held) == 0)


@_njit
def _open_window(row: Any, lay: Any, c: Any) -> None:
    """After a card, ask the seats whose card is down in that trick whether they mark a vale, as
    ``RuledGame._open_window`` does: every seat of a side that played a king or knight of a pair neither declared
    nor broken (its other card played before, played in this trick by an opponent, or seen by all in an
    opponent's hand), in the order they played; from public facts only."""
    n = c[_N]
    sides = c[_SIDES]
    lead = row[lay[_L_MLEAD]]
    mlen = row[lay[_L_MLEN]]
    h = c[_H]
    found = 0
    for i in range(mlen):
        card = row[lay[_L_MCARD] + i]
        r = card % 12
        if (r != 10 and r != 11) or _declared(row, lay, c, card // 12):
            continue
        side = ((lead + i) % n) % sides
        other = card // 12 * 12 + 21 - r
        at = -1
        for j in range(mlen):
            if row[lay[_L_MCARD] + j] == other:
                at = j
        if at >= 0:
            if ((lead + at) % n) % sides != side:
                continue
        elif row[lay[_L_PLAYED] + other] >= 0:
            continue
        elif row[lay[_L_KNOWN] + other] != 0:
            holder = -1
            for s in range(n):
                for k in range(row[lay[_L_HLEN] + s]):
                    if row[lay[_L_HANDS] + s * h + k] == other:
                        holder = s
            if holder >= 0 and holder % sides != side:
                continue
        found |= 1 << side
    if found == 0:
        return
    w = 0
    for i in range(mlen):
        s = (lead + i) % n
        if (found >> (s % sides)) & 1:
            row[lay[_L_WIN] + w] = s
            w += 1
    row[lay[_L_WLEN]] = w
    row[lay[_L_WPOS]] = 0
    row[lay[_L_RESUME]] = row[lay[_L_TURN]]
    row[lay[_L_END]] = row[lay[_L_OVER]]
    row[lay[_L_OVER]] = 0
    row[lay[_L_PHASE]] = _PH_MARK
    row[lay[_L_TURN]] = row[lay[_L_WIN]]


@_njit
def _mark(row: Any, lay: Any, c: Any, aid: int) -> bool:
    """A vale marked, or the pass, by the seat asked in the window; the next seat asked, or the play goes on (the
    seat that marked one is asked again while it may mark another). False (nothing changed) when not legal."""
    seat = row[lay[_L_TURN]]
    if c[_DECLID] <= aid < c[_DECLID] + 4:
        su = aid - c[_DECLID]
        if not _markable(row, lay, c, seat, su):
            return False
        row[lay[_L_DECLS] + seat] |= 1 << su
        row[lay[_L_VT] + su] = row[lay[_L_MT]]
        for other in range(4):
            if _markable(row, lay, c, seat, other):
                return True
    elif aid != c[_VPASS]:
        return False
    pos = row[lay[_L_WPOS]] + 1
    row[lay[_L_WPOS]] = pos
    if pos < row[lay[_L_WLEN]]:
        row[lay[_L_TURN]] = row[lay[_L_WIN] + pos]
        return True
    row[lay[_L_PHASE]] = _PH_PLAY
    row[lay[_L_TURN]] = row[lay[_L_RESUME]]
    row[lay[_L_OVER]] = row[lay[_L_END]]
    return True


@_njit
def _cut(row: Any, lay: Any, c: Any, aid: int) -> bool:
    """The cutter chooses the way the deck is dealt, which deals it. False (nothing changed) when not offered."""
    for k in range(3):
        if c[_CUTID + k] >= 0 and c[_CUTID + k] == aid:
            _deal_way(row, lay, c, c[_CUTW + k])
            return True
    return False


@_njit
def _left(row: Any, lay: Any, n: int) -> int:
    """How many seats have not passed in the auction."""
    left = 0
    for s in range(n):
        if row[lay[_L_PASSED] + s] == 0:
            left += 1
    return left


@_njit
def _bids(row: Any, lay: Any, c: Any, out: Any) -> int:
    """The auction's legal ids, in the engine's order: the pass (unless the last seat left must bid), then every
    bid above the highest so far."""
    m = 0
    high = row[lay[_L_HIGH]]
    none = row[lay[_L_HSEAT]] < 0
    if not (c[_LASTMUST] != 0 and none and _left(row, lay, c[_N]) == 1):
        out[m] = c[_PASSID]
        m += 1
    low = c[_MINBID] if none else high + c[_STEP]
    for v in range(low, c[_MAXBID] + 1, c[_STEP]):
        out[m] = c[_BIDID] + (v - c[_MINBID]) // c[_STEP]
        m += 1
    return m


@_njit
def _calls(row: Any, lay: Any, c: Any, out: Any) -> int:
    """The cards the declarer may call, in the deck's order: any of the deck, or after the first trick any still
    in a hand."""
    m = 0
    for card in range(48):
        if c[_INDECK + card] != 0 and row[lay[_L_PLAYED] + card] < 0:
            out[m] = c[_CALLID] + card
            m += 1
    return m


@_njit
def _held(row: Any, base: int, hl: int) -> int:
    """The hand of ``hl`` cards at ``row[base:]`` as a set of card indices (bit ``card``)."""
    bits = 0
    for i in range(hl):
        bits |= 1 << row[base + i]
    return bits


@_njit
def _discard_id(c: Any, a: int, b: int) -> int:
    """The action id of laying down cards ``a`` and ``b`` (``a`` before ``b`` by index): the codec numbers the
    pairs of the deck in the order of ``itertools.combinations`` over its cards by index."""
    i = c[_POS + a]
    j = c[_POS + b]
    return int(c[_DISCID] + i * (2 * c[_NDECK] - i - 1) // 2 + j - i - 1)


@_njit
def _discards(row: Any, lay: Any, c: Any, out: Any) -> int:
    """The talon's taker's legal discards, in the engine's order (every pair of his cards, by index): ascending
    ids."""
    seat = row[lay[_L_TURN]]
    bits = _held(row, lay[_L_HANDS] + seat * c[_H], row[lay[_L_HLEN] + seat])
    m = 0
    for a in range(48):
        if (bits >> a) & 1:
            for b in range(a + 1, 48):
                if (bits >> b) & 1:
                    out[m] = _discard_id(c, a, b)
                    m += 1
    return m


@_njit
def _discard(row: Any, lay: Any, c: Any, points: Any, seat: int, aid: int) -> bool:
    """The talon's taker lays two of his cards face down into his own pile (their points his, hidden from the
    others until the count); he names the trump next. False (nothing changed) when not legal."""
    base = lay[_L_HANDS] + seat * c[_H]
    hl = row[lay[_L_HLEN] + seat]
    bits = _held(row, base, hl)
    for a in range(48):
        if (bits >> a) & 1:
            for b in range(a + 1, 48):
                if (bits >> b) & 1 and _discard_id(c, a, b) == aid:
                    _take(row, base, hl, a)
                    _take(row, base, hl - 1, b)
                    row[base + hl - 1] = -1
                    row[base + hl - 2] = -1
                    row[lay[_L_HLEN] + seat] = hl - 2
                    row[lay[_L_DISC]] = a
                    row[lay[_L_DISC] + 1] = b
                    row[lay[_L_DPTS]] = points[a] + points[b]
                    row[lay[_L_PTS] + seat] += points[a] + points[b]
                    row[lay[_L_PHASE]] = _PH_TRUMP
                    return True
    return False


@_njit
def _declarable(row: Any, lay: Any, c: Any, seat: int, base: int, hl: int, su: int) -> bool:
    """``declarations: on_lead``: ``seat`` may declare the king-knight pair of suit ``su`` now: leading, having
    won a trick, holding both, the pair not declared yet (by anyone) and no declaration waiting for its card."""
    if row[lay[_L_TLEN]] != 0 or row[lay[_L_PEND]] >= 0 or row[lay[_L_WON] + seat] == 0:
        return False
    for s in range(c[_N]):
        if (row[lay[_L_DECLS] + s] >> su) & 1:
            return False
    bits = _held(row, base, hl)
    return bool((bits >> (su * 12 + 10)) & 1 and (bits >> (su * 12 + 11)) & 1)


@_njit
def _bid(row: Any, lay: Any, c: Any, seat: int, aid: int) -> bool:
    """A bid or a pass by ``seat``, then the auction's next seat, or its end (the declarer to call or to lead the
    first trick; or, everybody passed, the hand void); false (nothing changed) when not legal."""
    n = c[_N]
    none = row[lay[_L_HSEAT]] < 0
    if aid == c[_PASSID]:
        if c[_LASTMUST] != 0 and none and _left(row, lay, n) == 1:
            return False
        row[lay[_L_PASSED] + seat] = 1
    elif c[_BIDID] <= aid < c[_BIDID] + c[_NBIDS]:
        v = c[_MINBID] + (aid - c[_BIDID]) * c[_STEP]
        if not none and v < row[lay[_L_HIGH]] + c[_STEP]:
            return False
        row[lay[_L_BIDS] + seat] = v
        row[lay[_L_HIGH]] = v
        row[lay[_L_HSEAT]] = seat
    else:
        return False
    left = _left(row, lay, n)
    high = row[lay[_L_HSEAT]]
    if left > 0 and not (left == 1 and high >= 0 and row[lay[_L_PASSED] + high] == 0):
        nxt = (seat + c[_WAY]) % n
        while row[lay[_L_PASSED] + nxt] != 0:
            nxt = (nxt + c[_WAY]) % n
        row[lay[_L_TURN]] = nxt
        return True
    if left == 0:  # everybody passed: the hand is void
        row[lay[_L_OVER]] = 1
        return True
    row[lay[_L_DECL]] = high
    row[lay[_L_TURN]] = high
    if c[_TALON] != 0:  # the winner shows the talon and takes it (after his cards), then discards as many
        base = lay[_L_HANDS] + high * c[_H]
        hl = row[lay[_L_HLEN] + high]
        for i in range(c[_TALON]):
            row[base + hl + i] = row[lay[_L_TALON] + i]
        row[lay[_L_HLEN] + high] = hl + c[_TALON]
        row[lay[_L_PHASE]] = _PH_DISC
    elif c[_BUIA] != 0:  # the declarer leads a first trick with no trump, and calls once it is over
        row[lay[_L_BLIND]] = 1
        row[lay[_L_PHASE]] = _PH_PLAY
        row[lay[_L_LEADER]] = high
    else:
        row[lay[_L_PHASE]] = _PH_CALL
    return True


@_njit
def _call(row: Any, lay: Any, c: Any, aid: int) -> bool:
    """The declarer calls a card: its suit trump, its holder the partner; the play begins (led by the declarer, or
    after the first trick by its winner). False (nothing changed) when not legal."""
    card = aid - c[_CALLID]
    if card < 0 or card >= 48 or c[_INDECK + card] == 0 or row[lay[_L_PLAYED] + card] >= 0:
        return False
    n = c[_N]
    h = c[_H]
    holder = -1
    for s in range(n):
        for i in range(row[lay[_L_HLEN] + s]):
            if row[lay[_L_HANDS] + s * h + i] == card:
                holder = s
    row[lay[_L_TRUMP]] = card // 12
    row[lay[_L_CALLED]] = card
    row[lay[_L_PARTNER]] = holder
    row[lay[_L_PHASE]] = _PH_PLAY
    if row[lay[_L_BLIND]] != 0:
        row[lay[_L_BLIND]] = 0
        row[lay[_L_TURN]] = row[lay[_L_LEADER]]
    else:
        row[lay[_L_LEADER]] = row[lay[_L_DECL]]
        row[lay[_L_TURN]] = row[lay[_L_DECL]]
    return True


@_njit
def _name_trump(row: Any, lay: Any, c: Any, aid: int) -> bool:
    """The declarer names the trump suit and leads, playing alone (his own partner). False when not legal."""
    su = aid - c[_TRUMPID]
    if su < 0 or su >= 4:
        return False
    decl = row[lay[_L_DECL]]
    row[lay[_L_TRUMP]] = su
    row[lay[_L_PARTNER]] = decl
    row[lay[_L_PHASE]] = _PH_PLAY
    row[lay[_L_LEADER]] = decl
    row[lay[_L_TURN]] = decl
    return True


@_njit
def _truthful(row: Any, base: int, hl: int, trump: int, c: Any) -> int:
    """The signals (bit ``k``: ``_SIG_ORDER[k]``) the hand of ``hl`` cards at ``row[base:]`` makes true, the asks
    included (whether the rules have each is the caller's)."""
    bits = (1 << 9) | (1 << 10)
    trumps = False
    for i in range(hl):
        card = row[base + i]
        rank = card % 12 + 1
        if card // 12 == trump:
            trumps = True
            if rank == 1:
                bits |= 1
            elif rank == 3:
                bits |= 1 << 1
            elif rank == 12:
                bits |= 1 << 2
            elif rank == 11:
                bits |= 1 << 3
            elif rank == 10:
                bits |= 1 << 4
            else:
                bits |= 1 << 5
        else:
            if rank == 1 or rank == 3:
                bits |= 1 << 6
            if c[_TOPR + rank - 1] != 0:
                bits |= 1 << 7
    if not trumps:
        bits |= 1 << 8
    return bits


@_njit
def _slot(k: int) -> int:
    """Signal ``k``'s place in the encoder's planes (:data:`brisca.actions.SIGNALS`' order, the high card in the
    briscas' place)."""
    return k if k <= 6 else k - 1


@_njit
def _prisoner(row: Any, lay: Any, c: Any, hl: int) -> int:
    """``kill_three``: the ace of trumps while it may not be played (the three of trumps not yet out, and the ace
    not the seat's last card), else -1."""
    if c[_KILL3] == 0 or row[lay[_L_THREE]] != 0 or hl <= 1:
        return -1
    return int(row[lay[_L_TRUMP]] * 12)


@_njit
def _take(row: Any, base: int, hl: int, card: int) -> bool:
    """Take ``card`` out of the hand of ``hl`` cards at ``row[base:]``, the others keeping their order (the last
    slot is left for the caller); false when the hand does not hold it."""
    at = -1
    for i in range(hl):
        if row[base + i] == card:
            at = i
    if at < 0:
        return False
    for i in range(at, hl - 1):
        row[base + i] = row[base + i + 1]
    return True


@_njit
def _apply(st: Any, lane: int, lay: Any, cfg: Any, strength: Any, points: Any, xtable: Any, aid: int) -> bool:
    """Apply action id ``aid`` for the seat to act, as :meth:`Game.apply <brisca.game.Game.apply>` does; false
    (nothing changed) when it is not legal."""
    row = st[lane]
    if row[lay[_L_OVER]] != 0:
        return False
    p = row[lay[_L_PRESET]]
    c = cfg[p]
    n = c[_N]
    h = c[_H]
    seat = row[lay[_L_TURN]]
    phase = row[lay[_L_PHASE]]
    if phase == _PH_BID:
        return bool(_bid(row, lay, c, seat, aid))
    if phase == _PH_CALL:
        return bool(_call(row, lay, c, aid))
    if phase == _PH_DISC:
        return bool(_discard(row, lay, c, points[p], seat, aid))
    if phase == _PH_TRUMP:
        return bool(_name_trump(row, lay, c, aid))
    if phase == _PH_CUT:
        return bool(_cut(row, lay, c, aid))
    if phase == _PH_MARK:
        return bool(_mark(row, lay, c, aid))
    hl = row[lay[_L_HLEN] + seat]
    base = lay[_L_HANDS] + seat * h
    if c[_DECLID] >= 0 and c[_DECLID] <= aid < c[_DECLID] + 4:  # a pair declared: one of its cards is led next
        su = aid - c[_DECLID]
        if c[_VALES] != 0:  # a vale: scored by the trick's winner; a card of it is played next unless one is down
            if not _vale(row, lay, c, seat, base, hl, su, _plays(row, lay, c, seat, base, hl)):
                return False
            row[lay[_L_DECLS] + seat] |= 1 << su
            row[lay[_L_VT] + su] = row[lay[_L_NTR]]
            down = False
            for i in range(row[lay[_L_TLEN]]):
                if row[lay[_L_TRICK] + i] // 12 == su and row[lay[_L_TRICK] + i] % 12 >= 10:
                    down = True
            if not down:
                row[lay[_L_PEND]] = su
            return True
        if not _declarable(row, lay, c, seat, base, hl, su):
            return False
        row[lay[_L_DECLS] + seat] |= 1 << su
        row[lay[_L_PEND]] = su
        return True
    if aid >= 2 * EXCHANGE_ID:  # a signal: true, of these rules, not yet made this turn; the seat acts again
        if c[_SIGMODE] == _SIG_OFF:
            return False
        true = _truthful(row, base, hl, row[lay[_L_TRUMP]], c) & ~row[lay[_L_TSIG]]
        for k in range(len(_SIG_ORDER)):
            if c[_SIGID + k] == aid and (true >> k) & 1:
                row[lay[_L_TSIG]] |= 1 << k
                row[lay[_L_SIGH] + seat] |= 1 << _slot(k)
                row[lay[_L_SIGT] + seat] |= 1 << _slot(k)
                return True
        return False
    if aid >= EXCHANGE_ID:
        give = aid - EXCHANGE_ID
        if give != row[lay[_L_GIVE]] or row[lay[_L_MAYX] + seat] == 0:
            return False
        if not _take(row, base, hl, give):  # the trump given leaves the hand; the face-up card goes last
            return False
        face = row[lay[_L_STOCK]]
        row[base + hl - 1] = face
        row[lay[_L_STOCK]] = give
        row[lay[_L_KNOWN] + face] = 1
        row[lay[_L_KNOWN] + give] = 0
        _set_give(row, lay, c, True, xtable[p, give])
        return True
    if aid < 0 or not (_plays(row, lay, c, seat, base, hl) >> aid) & 1 or not _take(row, base, hl, aid):
        return False
    row[lay[_L_PEND]] = -1
    row[base + hl - 1] = -1
    row[lay[_L_HLEN] + seat] = hl - 1
    row[lay[_L_KNOWN] + aid] = 0
    if aid == row[lay[_L_CALLED]]:  # the called card shows its holder, the partner
        row[lay[_L_SHOWN]] = 1
    tlen = row[lay[_L_TLEN]]
    trump = row[lay[_L_TRUMP]]
    signals = c[_SIGMODE] != _SIG_OFF
    if signals:
        row[lay[_L_TSIG]] = 0
    kill = c[_KILL3] != 0
    if kill and aid == trump * 12 + 2:
        row[lay[_L_THREE]] = 1
    if tlen:
        led = row[lay[_L_TRICK]] // 12
        if aid // 12 != led:  # the seat is void in the suit led: a 2 of it is guarded for its partner
            row[lay[_L_VOID] + seat] |= 1 << led
        best = row[lay[_L_BEST]]
        if aid // 12 == best // 12:
            if strength[p, aid] > strength[p, best]:
                row[lay[_L_BEST]] = aid
                row[lay[_L_BSEAT]] = seat
        elif aid // 12 == trump:
            row[lay[_L_BEST]] = aid
            row[lay[_L_BSEAT]] = seat
    else:
        row[lay[_L_BEST]] = aid
        row[lay[_L_BSEAT]] = seat
    row[lay[_L_TRICK] + tlen] = aid
    tlen += 1
    row[lay[_L_TLEN]] = tlen
    vales = c[_VALES] != 0
    if vales:  # the trick as it stands, for the window to mark vales that follows the card
        for i in range(tlen):
            row[lay[_L_MCARD] + i] = row[lay[_L_TRICK] + i]
        row[lay[_L_MLEN]] = tlen
        row[lay[_L_MLEAD]] = row[lay[_L_LEADER]]
        row[lay[_L_MT]] = row[lay[_L_NTR]]
    if tlen < n:
        row[lay[_L_TURN]] = (seat + 1) % n
        if vales:
            _open_window(row, lay, c)
        return True
    # the trick is done: score it, draw, and give the lead to the winner
    winner = row[lay[_L_BSEAT]]
    leader = row[lay[_L_LEADER]]
    sides = c[_SIDES]
    tp = 0
    killer = -1
    three = False
    ace3 = trump * 12 if kill else -1
    three3 = trump * 12 + 2 if kill else -1
    for i in range(n):
        card = row[lay[_L_TRICK] + i]
        tp += points[p, card]
        if card == ace3:
            killer = (leader + i) % n
        elif card == three3:
            three = True
        row[lay[_L_PLAYED] + card] = (leader + i) % n
        row[lay[_L_CAPT] + card] = winner % sides
        row[lay[_L_TRICK] + i] = -1
    if signals:  # the signals of the next trick start afresh
        for i in range(n):
            row[lay[_L_SIGT] + i] = 0
    row[lay[_L_PTS] + winner] += tp
    row[lay[_L_TWIN] + row[lay[_L_NTR]]] = winner
    row[lay[_L_NTR]] += 1
    row[lay[_L_TSIDES]] |= 1 << (winner % sides)
    row[lay[_L_MAYX] + winner] = 1
    row[lay[_L_WON] + winner] = 1
    row[lay[_L_TLEN]] = 0
    row[lay[_L_LASTW]] = winner
    slen = row[lay[_L_SLEN]]
    if three and killer >= 0:  # kill_three: the ace took the three, and the hand ends at once (nobody draws)
        row[lay[_L_KILLER]] = killer
        row[lay[_L_OVER]] = 1
    elif slen > 0:
        last = winner
        for i in range(n):
            s = (winner + i) % n
            slen -= 1
            card = row[lay[_L_STOCK] + slen]
            row[lay[_L_STOCK] + slen] = -1
            row[lay[_L_HANDS] + s * h + row[lay[_L_HLEN] + s]] = card
            row[lay[_L_HLEN] + s] += 1
            last = s
        row[lay[_L_SLEN]] = slen
        if slen <= c[_GIVE_UNTIL]:
            row[lay[_L_GIVE]] = -1
            if slen == 0:  # the last card drawn (the face-up one) is known to all
                row[lay[_L_KNOWN] + row[lay[_L_HANDS] + last * h + row[lay[_L_HLEN] + last] - 1]] = 1
    elif row[lay[_L_HLEN] + winner] == 0:
        row[lay[_L_OVER]] = 1
    row[lay[_L_LEADER]] = winner
    row[lay[_L_TURN]] = winner
    if row[lay[_L_BLIND]] != 0 and row[lay[_L_OVER]] == 0:  # the first trick is over: the declarer calls now
        row[lay[_L_PHASE]] = _PH_CALL
        row[lay[_L_TURN]] = row[lay[_L_DECL]]
    if vales:
        _open_window(row, lay, c)
    return True


@_njit
def _encode(st: Any, lane: int, seat: int, lay: Any, cfg: Any, enc: Any, scales: Any, out: Any,
            npresets: int, strength: Any, cues: bool) -> None:
    """Write ``seat``'s encoded view (:meth:`ObservationEncoder.encode`) and, after it, one input a preset
    (:meth:`Net.features <brisca.agents.net.Net.features>`) into ``out``; with ``cues``, then the
    :func:`~brisca.envs.encode.cues`."""
    row = st[lane]
    p = row[lay[_L_PRESET]]
    c = cfg[p]
    n = c[_N]
    h = c[_H]
    sides = c[_SIDES]
    for i in range(out.shape[0]):
        out[i] = 0.0
    me = seat
    my_side = me % sides
    base = lay[_L_HANDS] + me * h
    for i in range(row[lay[_L_HLEN] + me]):
        out[enc[0] + row[base + i]] = 1.0
    over = row[lay[_L_OVER]] != 0
    slen = row[lay[_L_SLEN]]
    look = c[_PLOOK] != 0 and slen == 0
    shown = c[_OPEN] != 0
    for r in range(1, n):  # known: public cards in another hand, partners' hands under partners_look, every hand
        s = (me + r) % n  # under open_hands
        hb = lay[_L_HANDS] + s * h
        partner = shown or (look and s % sides == my_side)
        for i in range(row[lay[_L_HLEN] + s]):
            card = row[hb + i]
            if partner or row[lay[_L_KNOWN] + card] != 0:
                out[enc[1] + (r - 1) * 48 + card] = 1.0
    leader = row[lay[_L_LEADER]]
    lead = leader - me
    for i in range(row[lay[_L_TLEN]]):
        out[enc[2] + ((lead + i) % n) * 48 + row[lay[_L_TRICK] + i]] = 1.0
    for card in range(48):
        by = row[lay[_L_PLAYED] + card]
        if by >= 0:
            out[enc[3] + ((by - me) % n) * 48 + card] = 1.0
            out[enc[4] + ((row[lay[_L_CAPT] + card] - my_side) % sides) * 48 + card] = 1.0
    if slen > 0:
        out[enc[5] + row[lay[_L_STOCK]]] = 1.0
    if row[lay[_L_TRUMP]] >= 0:
        out[enc[6] + row[lay[_L_TRUMP]]] = 1.0
    out[enc[7] + (leader - me) % n] = 1.0
    if not over:
        out[enc[8] + (row[lay[_L_TURN]] - me) % n] = 1.0
    out[enc[9] + (row[lay[_L_DEALER]] - me) % n] = 1.0
    for s in range(n):
        if s % sides == my_side:
            out[enc[10] + (s - me) % n] = 1.0
    if row[lay[_L_PHASE]] == _PH_CUT:  # the whole deck lies cut, undealt, as a stock
        out[enc[12]] = min(c[_NCARDS] / scales[p, 0], 1.0)
    else:
        out[enc[12]] = min(slen / scales[p, 0], 1.0)
    decl = row[lay[_L_DECL]]
    for r in range(n):
        s = (me + r) % n
        pts = row[lay[_L_PTS] + s]
        if s == decl and s != me and not over:  # the declarer's discards lie face down until the count
            pts -= row[lay[_L_DPTS]]
        if pts:
            out[enc[13] + r] = pts * scales[p, 1]
        size = row[lay[_L_HLEN] + s]
        if size:
            out[enc[14] + r] = size * scales[p, 2]
    if c[_SIGMODE] != _SIG_OFF:  # the signals the seat saw: in this hand, and since the last trick was taken
        for s in range(n):
            if c[_SIGMODE] == _SIG_OPEN or s % sides == my_side:
                r = (s - me) % n
                hand_bits = row[lay[_L_SIGH] + s]
                trick_bits = row[lay[_L_SIGT] + s]
                for b in range(10):
                    if (hand_bits >> b) & 1:
                        out[enc[16] + r * 10 + b] = 1.0
                    if (trick_bits >> b) & 1:
                        out[enc[15] + r * 10 + b] = 1.0
    if c[_AUCT] != 0:  # the auction's fields: phase, each seat's last bid and pass, the declarer, the call
        phase = row[lay[_L_PHASE]]
        out[enc[17] + phase] = 1.0
        for s in range(n):
            r = (s - me) % n
            if row[lay[_L_BIDS] + s] > 0:
                out[enc[18] + r] = row[lay[_L_BIDS] + s] / scales[p, 3]
            if row[lay[_L_PASSED] + s] != 0:
                out[enc[19] + r] = 1.0
        if phase != _PH_BID and row[lay[_L_HSEAT]] >= 0:
            out[enc[20] + (row[lay[_L_HSEAT]] - me) % n] = 1.0
        if row[lay[_L_CALLED]] >= 0:
            out[enc[21] + row[lay[_L_CALLED]]] = 1.0
            if row[lay[_L_SHOWN]] != 0:
                out[enc[22] + (row[lay[_L_PARTNER]] - me) % n] = 1.0
        if c[_TALON] != 0:  # the talon, shown once the auction is won; the discards, to the declarer alone
            if phase != _PH_BID:
                for i in range(c[_TALON]):
                    out[enc[_E_TALON] + row[lay[_L_TALON] + i]] = 1.0
            if me == decl and row[lay[_L_DISC]] >= 0:
                for i in range(c[_TALON]):
                    out[enc[_E_DISC] + row[lay[_L_DISC] + i]] = 1.0
    if c[_DECLID] >= 0:  # the pairs declared, by seat and suit
        for s in range(n):
            bits = row[lay[_L_DECLS] + s]
            for su in range(4):
                if (bits >> su) & 1:
                    out[enc[_E_DECLS] + ((s - me) % n) * 4 + su] = 1.0
    if enc[_E_SHOWN] >= 0:  # the cards shown at the deal, by seat (played since or not)
        for s in range(n):
            bits = row[lay[_L_SEEN] + s]
            if bits != 0:
                for card in range(48):
                    if (bits >> card) & 1:
                        out[enc[_E_SHOWN] + ((s - me) % n) * 48 + card] = 1.0
    out[enc[_ENC_END] + p] = 1.0
    if cues:
        _cues(row, lay, c, me, strength[p], out, enc[_ENC_END] + npresets)


@_njit
def _cues(row: Any, lay: Any, c: Any, me: int, strength: Any, out: Any, at: int) -> None:
    """:func:`brisca.envs.encode.cues` of ``me`` at ``out[at:]``: the cards out are those of the other hands and
    the stock."""
    n = c[_N]
    h = c[_H]
    trump = row[lay[_L_TRUMP]]
    high = np.zeros(4, np.int64)
    for s in range(n):
        if s != me:
            hb = lay[_L_HANDS] + s * h
            for i in range(row[lay[_L_HLEN] + s]):
                k = row[hb + i]
                if strength[k] > high[k // 12]:
                    high[k // 12] = strength[k]
    for i in range(row[lay[_L_SLEN]]):
        k = row[lay[_L_STOCK] + i]
        if strength[k] > high[k // 12]:
            high[k // 12] = strength[k]
    for i in range(c[_TALON]):  # the talon before it is taken, and the discards, are out of every seat's sight
        k = row[lay[_L_TALON] + i] if row[lay[_L_PHASE]] == _PH_BID else row[lay[_L_DISC] + i]
        if k >= 0 and strength[k] > high[k // 12]:
            high[k // 12] = strength[k]
    tlen = row[lay[_L_TLEN]]
    best = row[lay[_L_BEST]]
    base = lay[_L_HANDS] + me * h
    for i in range(row[lay[_L_HLEN] + me]):
        k = row[base + i]
        if tlen > 0 and ((k // 12 == best // 12 and strength[k] > strength[best])
                         or (k // 12 != best // 12 and k // 12 == trump)):
            out[at + k] = 1.0
        if strength[k] > high[k // 12]:
            out[at + 48 + k] = 1.0
            if k // 12 == trump or trump < 0 or high[trump] == 0:
                out[at + 96 + k] = 1.0
    if tlen > 0:
        out[at + 144 + (row[lay[_L_BSEAT]] - me) % n] = 1.0


@_njit
def _totals(st: Any, lane: int, lay: Any, cfg: Any, out: Any) -> int:
    """A finished hand's side totals (card points and bonuses) into ``out``, and the winning side (-1: none),
    as :meth:`Game.result <brisca.game.Game.result>` gives them."""
    row = st[lane]
    p = row[lay[_L_PRESET]]
    c = cfg[p]
    n = c[_N]
    sides = c[_SIDES]
    for sd in range(sides):
        out[sd] = 0
    for s in range(n):
        out[s % sides] += row[lay[_L_PTS] + s]
    lastw = row[lay[_L_LASTW]]
    killer = row[lay[_L_KILLER]]
    if c[_LTB] != 0 and lastw >= 0 and killer < 0:
        out[lastw % sides] += c[_LTB]
    if c[_PAIR] != 0:
        trump = row[lay[_L_TRUMP]]
        for sd in range(sides):
            for su in range(4):
                if row[lay[_L_CAPT] + su * 12 + 11] == sd and row[lay[_L_CAPT] + su * 12 + 10] == sd:
                    out[sd] += 40 if su == trump else 20
    if c[_VALES] != 0:  # each vale: 20, 40 in trumps, to the side that won the trick it was declared in
        trump = row[lay[_L_TRUMP]]
        for su in range(4):
            t = row[lay[_L_VT] + su]
            if 0 <= t < row[lay[_L_NTR]]:
                out[row[lay[_L_TWIN] + t] % sides] += 40 if su == trump else 20
    elif c[_DECLID] >= 0:  # each pair declared: 20, 40 in trumps, to its holder's side
        trump = row[lay[_L_TRUMP]]
        for s in range(n):
            bits = row[lay[_L_DECLS] + s]
            for su in range(4):
                if (bits >> su) & 1:
                    out[s % sides] += 40 if su == trump else 20
    if killer >= 0:
        return int(killer % sides)
    took_all = row[lay[_L_TSIDES]]
    if c[_CAPOTE] != 0 and row[lay[_L_NTR]] * n == c[_NCARDS] - c[_TALON] and took_all & (took_all - 1) == 0:
        for sd in range(sides):  # capote: the side that took every trick wins, whatever the points
            if took_all == 1 << sd:
                return sd
    if c[_AUCT] != 0:  # the contract: made when the declarer and his partner (himself, alone) took the bid
        decl = row[lay[_L_DECL]]
        if decl < 0:
            return -1
        return int(decl % sides) if _took(row, lay, sides, out) >= row[lay[_L_HIGH]] else -1
    best = out[0]
    for sd in range(1, sides):
        if (c[_LEAST] != 0 and out[sd] < best) or (c[_LEAST] == 0 and out[sd] > best):
            best = out[sd]
    tied = 0
    win = -1
    for sd in range(sides):
        if out[sd] == best:
            tied += 1
            win = sd
    if tied == 1:
        return win
    if c[_MOST_CARDS] != 0:
        most = -1
        for sd in range(sides):
            if out[sd] == best:
                k = 0
                for card in range(48):
                    if row[lay[_L_CAPT] + card] == sd:
                        k += 1
                if k > most:
                    most = k
                    win = sd
                    tied = 1
                elif k == most:
                    tied += 1
        if tied == 1:
            return win
    return -1


@_njit
def _took(row: Any, lay: Any, sides: int, totals: Any) -> int:
    """The points (of ``totals``) the declarer's side took: his and his partner's, once if he played alone."""
    decl = row[lay[_L_DECL]]
    partner = row[lay[_L_PARTNER]]
    took = totals[decl % sides]
    if partner != decl:
        took += totals[partner % sides]
    return int(took)


@_njit
def _reward(st: Any, lane: int, seat: int, lay: Any, cfg: Any, totals: Any) -> float:
    """:func:`brisca.agents.net.reward` of a finished hand for ``seat``."""
    c = cfg[st[lane, lay[_L_PRESET]]]
    sides = c[_SIDES]
    win = _totals(st, lane, lay, cfg, totals)
    if c[_AUCT] != 0:  # the contract's team: half the seat's match points, the margin over the bid
        row = st[lane]
        decl = row[lay[_L_DECL]]
        if decl < 0:
            return 0.0
        partner = row[lay[_L_PARTNER]]
        high = row[lay[_L_HIGH]]
        took = _took(row, lay, sides, totals)
        if c[_SOLO] != 0:  # the declarer alone against the others: +1 to the team that won it, -1 to the other
            lead = took - high if seat == decl else high - took
            return float((1.0 if (seat == decl) == (took >= high) else -1.0) + 0.25 * lead / 240)
        value = (4 if partner == decl else 2) if seat == decl else (1 if seat == partner else -1)
        if took < high:
            value = -value
        clead = took - high if seat in (decl, partner) else high - took
        return float(value / 2 + 0.25 * clead / 240)
    side = seat % sides
    least = c[_LEAST] != 0
    other = (1 << 40) if least else -(1 << 40)
    for sd in range(sides):
        if sd != side and ((least and totals[sd] < other) or (not least and totals[sd] > other)):
            other = totals[sd]
    lead = other - totals[side] if least else totals[side] - other
    won = 0.0 if win < 0 else (1.0 if win == side else -1.0)
    return float(won + 0.25 * lead / 240)


@_njit
def _observe(st: Any, live: Any, lay: Any, cfg: Any, strength: Any, points: Any, xtable: Any, enc: Any,
             scales: Any, npresets: int, cues: bool, obs: Any, mask: Any, lanes: Any, seats: Any, buf: Any,
             forced: Any) -> int:
    """Advance every live lane to its next decision (a single legal action is applied at once, and counted in
    ``forced[0]``) and write the deciding seat's input and legal mask; lanes whose hand ends are marked not live.
    The number of rows."""
    k = 0
    for lane in range(st.shape[0]):
        if live[lane] == 0:
            continue
        m = _legal(st, lane, lay, cfg, buf)
        while m == 1:
            _apply(st, lane, lay, cfg, strength, points, xtable, buf[0])
            forced[0] += 1
            m = _legal(st, lane, lay, cfg, buf)
        if m == 0:
            live[lane] = 0
            continue
        seat = st[lane, lay[_L_TURN]]
        _encode(st, lane, seat, lay, cfg, enc, scales, obs[k], npresets, strength, cues)
        for i in range(mask.shape[1]):
            mask[k, i] = False
        for i in range(m):
            mask[k, buf[i]] = True
        lanes[k] = lane
        seats[k] = seat
        k += 1
    return k


def privileged_size(players: int) -> int:
    """The width of :meth:`Batch.privileged`: a 48-card block for each other seat's hand, then two for the stock."""
    return 48 * (players - 1) + 96


@_njit
def _privileged(st: Any, lanes: Any, seats: Any, lay: Any, cfg: Any, out: Any) -> None:
    """Write, for row ``i``, what ``seats[i]`` cannot see in lane ``lanes[i]``: each other seat's hand (one-hot,
    the seats after it in turn order), the cards the next round of drawing takes (one-hot), and where every card
    of the stock lies (1 for the next drawn, falling by one over the stock's size a card deeper). A preset with a
    talon and no stock (``rematada``) has the talon in the first stock block while the auction lasts, and the
    cards the declarer laid down in the second, for every seat but his."""
    for i in range(lanes.shape[0]):
        row = st[lanes[i]]
        c = cfg[row[lay[_L_PRESET]]]
        n = c[_N]
        h = c[_H]
        dst = out[i]
        for j in range(dst.shape[0]):
            dst[j] = 0.0
        for k in range(1, n):
            other = (seats[i] + k) % n
            base = lay[_L_HANDS] + other * h
            for j in range(row[lay[_L_HLEN] + other]):
                dst[48 * (k - 1) + row[base + j]] = 1.0
        at = 48 * (n - 1)
        if row[lay[_L_PHASE]] == _PH_CUT:  # the deck lies cut, undealt: a stock of every card, top first
            size = c[_NCARDS]
            for depth in range(size):
                card = row[lay[_L_ORDER] + depth]
                if depth < n:
                    dst[at + card] = 1.0
                dst[at + 48 + card] = np.float32(1.0 - depth / size)
            continue
        if c[_TALON] != 0:  # no stock: the talon face down until the auction is won, then the discards
            for j in range(c[_TALON]):
                if row[lay[_L_PHASE]] == _PH_BID:
                    dst[at + row[lay[_L_TALON] + j]] = 1.0
                elif row[lay[_L_DISC] + j] >= 0 and seats[i] != row[lay[_L_DECL]]:
                    dst[at + 48 + row[lay[_L_DISC] + j]] = 1.0
            continue
        slen = row[lay[_L_SLEN]]
        size = c[_S]
        for j in range(slen):
            depth = slen - 1 - j  # 0: the top card, drawn next
            card = row[lay[_L_STOCK] + j]
            if depth < n:
                dst[at + card] = 1.0
            dst[at + 48 + card] = np.float32(1.0 - depth / size)


@_njit
def _apply_rows(st: Any, lanes: Any, ids: Any, k: int, lay: Any, cfg: Any, strength: Any, points: Any,
                xtable: Any) -> int:
    """Apply ``ids[i]`` in lane ``lanes[i]`` for the first ``k`` rows; the number refused (not legal)."""
    bad = 0
    for i in range(k):
        if not _apply(st, lanes[i], lay, cfg, strength, points, xtable, ids[i]):
            bad += 1
    return bad


@_njit
def _replay(st: Any, lanes: Any, presets: Any, decks: Any, dealers: Any, ids: Any, counts: Any, lay: Any, cfg: Any,
            strength: Any, points: Any, xtable: Any) -> int:
    """Deal lane ``lanes[i]`` the deck ``decks[i]`` (preset ``presets[i]``, dealer ``dealers[i]``), then apply its
    first ``counts[i]`` action ids ``ids[i]``; 0, or 1 + the first row whose actions were not legal."""
    for i in range(lanes.shape[0]):
        lane = lanes[i]
        _deal(st, lane, lay, cfg, xtable, presets[i], decks[i], dealers[i])
        for j in range(counts[i]):
            if not _apply(st, lane, lay, cfg, strength, points, xtable, ids[i, j]):
                return i + 1
    return 0


@_njit
def _replay_each(st: Any, lanes: Any, presets: Any, decks: Any, dealers: Any, ids: Any, counts: Any, lay: Any,
                 cfg: Any, strength: Any, points: Any, xtable: Any, ok: Any) -> None:
    """:func:`_replay` that goes on past a row whose actions are not legal: ``ok[i]`` says which rows replayed."""
    for i in range(lanes.shape[0]):
        lane = lanes[i]
        _deal(st, lane, lay, cfg, xtable, presets[i], decks[i], dealers[i])
        ok[i] = 1
        for j in range(counts[i]):
            if not _apply(st, lane, lay, cfg, strength, points, xtable, ids[i, j]):
                ok[i] = 0
                break


@_njit
def _margins(st: Any, lanes: Any, sides_of: Any, weight: float, lay: Any, cfg: Any, totals: Any, out: Any) -> None:
    """:func:`brisca.agents.exact.margin` of each finished lane for side ``sides_of[i]``: 1 a win, 1/2 a draw, 0 a
    loss, plus ``weight`` a point of lead over the best other side (below it, where the fewest points win)."""
    for i in range(lanes.shape[0]):
        lane = lanes[i]
        win = _totals(st, lane, lay, cfg, totals)
        c = cfg[st[lane, lay[_L_PRESET]]]
        side = sides_of[i]
        if c[_AUCT] != 0:  # side 0 the declarer's, 1 the others: the points over (or under) the contract
            row = st[lane]
            if row[lay[_L_DECL]] < 0:
                out[i] = 0.5
                continue
            over = _took(row, lay, c[_SIDES], totals) - row[lay[_L_HIGH]]
            value = 1.0 if (over >= 0) == (side == 0) else 0.0
            out[i] = value + (over if side == 0 else -over) * weight
            continue
        least = c[_LEAST] != 0
        other = 0
        first = True
        for sd in range(c[_SIDES]):
            if sd != side and (first or (least and totals[sd] < other) or (not least and totals[sd] > other)):
                other = totals[sd]
                first = False
        lead = other - totals[side] if least else totals[side] - other
        won = 0.5 if win < 0 else (1.0 if win == side else 0.0)
        out[i] = won + lead * weight


@_njit
def _allies(st: Any, lane: int, seat: int, lay: Any, cfg: Any, out: Any) -> None:
    """``out[s]``: 1 where seat ``s`` plays on ``seat``'s side in ``lane`` (the declarer and the called card's
    holder, or the others, once a contract is made; else the seats of its side), 0 where against it."""
    row = st[lane]
    c = cfg[row[lay[_L_PRESET]]]
    n = c[_N]
    if c[_AUCT] != 0 and row[lay[_L_DECL]] >= 0:
        decl = row[lay[_L_DECL]]
        partner = row[lay[_L_PARTNER]]
        mine = seat in (decl, partner)
        for s in range(n):
            out[s] = 1 if (s in (decl, partner)) == mine else 0
        return
    sides = c[_SIDES]
    for s in range(n):
        out[s] = 1 if s % sides == seat % sides else 0


@_njit
def _search(sc: Any, lay: Any, cfg: Any, strength: Any, points: Any, xtable: Any, seat: int, ally: Any,
            totals: Any, bufs: Any, ab: Any, mi: Any, nodes: Any) -> float:
    """The value for ``seat`` (:func:`_reward`) of the hand in row 0 of ``sc`` played to its end by seats that all
    see every card: ``seat``'s side maximising it, every other seat minimising it (alpha-beta, depth first on an
    explicit stack: row ``d`` of ``sc``, ``bufs``, ``ab`` (alpha, beta, best) and ``mi`` (moves, next, maximising)
    the ``d``-th decision down; no recursion, which numba's cache does not link)."""
    d = 0
    ab[0, 0] = -1e9
    ab[0, 1] = 1e9
    entering = True
    while True:
        if entering:  # row d is new: play its forced moves, then open it or value its end
            m = _legal(sc, d, lay, cfg, bufs[d])
            while m == 1:
                _apply(sc, d, lay, cfg, strength, points, xtable, bufs[d, 0])
                m = _legal(sc, d, lay, cfg, bufs[d])
            entering = False
            if m == 0:
                v = float(_reward(sc, d, seat, lay, cfg, totals))
            else:
                nodes[0] += 1
                mi[d, 0] = m
                mi[d, 1] = 0
                mi[d, 2] = ally[sc[d, lay[_L_TURN]]]
                ab[d, 2] = -1e9 if mi[d, 2] != 0 else 1e9
                continue
        elif mi[d, 1] < mi[d, 0] and ab[d, 0] < ab[d, 1]:  # the next move of row d
            sc[d + 1, :] = sc[d, :]
            _apply(sc, d + 1, lay, cfg, strength, points, xtable, bufs[d, mi[d, 1]])
            mi[d, 1] += 1
            ab[d + 1, 0] = ab[d, 0]
            ab[d + 1, 1] = ab[d, 1]
            d += 1
            entering = True
            continue
        else:
            v = float(ab[d, 2])  # row d is done
        if d == 0:  # row d is worth v: to its parent
            return v
        d -= 1
        if mi[d, 2] != 0:
            if v > ab[d, 2]:
                ab[d, 2] = v
            if ab[d, 2] > ab[d, 0]:
                ab[d, 0] = ab[d, 2]
        else:
            if v < ab[d, 2]:
                ab[d, 2] = v
            if ab[d, 2] < ab[d, 1]:
                ab[d, 1] = ab[d, 2]


@_njit
def _solve(st: Any, lanes: Any, seat: int, ids: Any, lay: Any, cfg: Any, strength: Any, points: Any, xtable: Any,
           sc: Any, bufs: Any, ab: Any, mi: Any, totals: Any, ally: Any, out: Any, nodes: Any) -> None:
    """``out[i, j]``: the exact value for ``seat`` (:func:`_search`) of action id ``ids[j]`` in lane ``lanes[i]``,
    NaN where it is not legal there."""
    for i in range(lanes.shape[0]):
        _allies(st, lanes[i], seat, lay, cfg, ally)
        for j in range(ids.shape[0]):
            sc[0, :] = st[lanes[i], :]
            if not _apply(sc, 0, lay, cfg, strength, points, xtable, ids[j]):
                out[i, j] = np.nan
                continue
            out[i, j] = _search(sc, lay, cfg, strength, points, xtable, seat, ally, totals, bufs, ab, mi, nodes)



def _splitmix_compiled(state: Any) -> int:
    """The next 64-bit output of SplitMix64 (``state[0]`` advances): the lanes' shuffles and dealers."""
    state[0] += np.uint64(0x9E3779B97F4A7C15)
    z = state[0]
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return int((z ^ (z >> np.uint64(31))) >> np.uint64(11))  # 53 bits: a non-negative int64


def _splitmix_python(state: Any) -> int:
    """:func:`_splitmix_compiled` in Python's integers (no numba): the same numbers."""
    mask = (1 << 64) - 1
    z = (int(state[0]) + 0x9E3779B97F4A7C15) & mask
    state[0] = z
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
    return (z ^ (z >> 31)) >> 11


_splitmix = _njit(_splitmix_compiled) if COMPILED else _splitmix_python


@_njit
def _deal_random(st: Any, lanes: Any, presets: Any, lay: Any, cfg: Any, decks: Any, state: Any, xtable: Any,
                 out_dealers: Any) -> None:
    """Deal lane ``lanes[i]`` a shuffled deck of preset ``presets[i]`` and a dealer drawn at random."""
    deck = np.empty(48, np.int64)
    for i in range(lanes.shape[0]):
        p = presets[i]
        c = cfg[p]
        m = c[_NCARDS]
        for j in range(m):
            deck[j] = decks[p, j]
        for j in range(m - 1, 0, -1):  # Fisher-Yates
            r = _splitmix(state) % (j + 1)
            t = deck[j]
            deck[j] = deck[r]
            deck[r] = t
        dealer = _splitmix(state) % c[_N]
        out_dealers[i] = dealer
        _deal(st, lanes[i], lay, cfg, xtable, p, deck, dealer)


# ---------------------------------------------------------------------------------------------- Python side


class Batch:
    """``size`` hands of ``presets`` (sharing one encoding) at ``players`` seats, played in lockstep.

    Each lane holds one hand. :meth:`deal` and :meth:`deal_all` deal lanes (a shuffled deck and a random dealer,
    from ``seed``); :meth:`load` deals a lane the deck and dealer of a :class:`~brisca.game.Game` (for tests and
    replays). :meth:`observe` advances the live lanes to their next decision and returns the inputs and masks of
    the seats to act; :meth:`act` applies one action id a row. A lane whose hand ends stops being live until it
    is dealt again; :meth:`reward` and :meth:`result` read it then.
    """

    def __init__(self, presets: Sequence[str | Rules], players: int = 2, size: int = 256, seed: int = 0,
                 cues: bool = False) -> None:
        if np is None:
            raise ImportError("brisca.envs.batch needs numpy: pip install 'brisca[fast]'")
        if not presets:
            raise ValueError("a batch needs at least one preset")
        self.rules = [make_rules(p) for p in presets]
        self.players = n = players
        for r in self.rules:
            if not covers(r, n):
                raise ValueError(f"the batch does not play {r.variant} at {n} players (brisca.envs.batch.covers)")
        encoders = [ObservationEncoder(r, n) for r in self.rules]
        if len({tuple((f.name, f.offset, f.shape) for f in e.fields) for e in encoders}) != 1:
            raise ValueError("these presets do not share one encoding; batch them apart")
        if len({e.codec.actions for e in encoders}) != 1:
            raise ValueError("these presets do not share one action space; batch them apart")
        self.encoder = enc = encoders[0]
        self.codec = enc.codec
        #: Whether the inputs end with the :func:`~brisca.envs.encode.cues` (a network trained with them).
        self.cues = cues
        #: The network's input: the encoding, one input a preset, and the cues where asked.
        self.inputs = enc.size + len(self.rules) + (cue_size(n) if cues else 0)
        h = self.rules[0].hand_size
        decks = [r.deck_cards(n) for r in self.rules]
        if len({(r.hand_size, r.talon, len(d)) for r, d in zip(self.rules, decks, strict=True)}) != 1:
            raise ValueError("these presets deal different hands or decks; batch them apart")
        self.hand_size = h
        talon = self.rules[0].talon
        #: A seat's slots in a lane: its hand, and the talon it may take.
        self._stride = stride = h + talon
        self.stock_size = s = len(decks[0]) - h * n
        self.sides = self.rules[0].sides(n)
        offsets = [0] * _L_WIDTH
        dealt_out = any(r.dealt_out and not r.auction for r in self.rules)
        widths = {_L_HANDS: n * stride, _L_HLEN: n, _L_STOCK: s, _L_TRICK: n, _L_PTS: n, _L_MAYX: n,
                  _L_PLAYED: 48, _L_CAPT: 48, _L_KNOWN: 48, _L_SIGH: n, _L_SIGT: n, _L_BIDS: n, _L_PASSED: n,
                  _L_TALON: talon, _L_DISC: talon, _L_WON: n, _L_DECLS: n, _L_ORDER: len(decks[0]) if dealt_out else 0,
                  _L_SEEN: n, _L_VOID: n, _L_TWIN: len(decks[0]) // n + 1, _L_VT: 4, _L_MCARD: n, _L_WIN: n}
        at = 0
        for f in range(_L_WIDTH):
            offsets[f] = at
            at += widths.get(f, 1)
        self._lay = np.array([*offsets, at], np.int64)
        self.size = size
        self.st = np.zeros((size, at), np.int64)
        cfg = np.zeros((len(self.rules), _CFG), np.int64)
        ids = self.codec.ids
        for i, r in enumerate(self.rules):
            signals = r.signals != "off" and self.sides < n
            xmode = {"off": _X_OFF, "any_time": _X_ANY}.get(r.trump_exchange, _X_AFTER_WIN)
            cfg[i] = [n, self.sides, stride, s, xmode, n if r.trump_exchange == "before_penultimate" else 0,
                      int(r.exchange_chain), int(r.partners_look), int(r.hand_winner == "least"),
                      int(r.tie == "most_cards"), r.last_trick_bonus, int(r.pair_bonus), len(decks[i]),
                      int(r.kill_three), int(r.open_hands),
                      {"off": _SIG_OFF, "partner": _SIG_PARTNER, "open": _SIG_OPEN}[r.signals] if signals else _SIG_OFF,
                      *(ids[Signal(name)] if signals and name in SIGNAL_SETS[r.signal_set] and (
                          r.signal_asks or name not in ASK_SIGNALS) else -1 for name in _SIG_ORDER),
                      *(int(rank in r.strength_order()[:2]) for rank in range(1, 13)),
                      *self._auction(r), *(int(c in decks[i]) for c in ALL_CARDS), *self._talon(r, decks[i]),
                      *self._dealt_out(r), *r.strength_table]
        self._cfg = cfg
        self._strength = np.array([r.strength_table for r in self.rules], np.int64)
        self._points = np.array([r.point_table for r in self.rules], np.int64)
        self._xtable = np.array([[-1 if c is None else c.index for c in r.exchange_table] for r in self.rules],
                                np.int64)
        self._decks = np.full((len(self.rules), 48), -1, np.int64)
        for i, d in enumerate(decks):
            self._decks[i, :len(d)] = [c.index for c in d]
        at_enc = {f.name: f.offset for f in enc.fields}
        self._enc = np.array([at_enc.get(name, -1) for name in _ENC_FIELDS] + [enc.size], np.int64)
        # The encoder's scales, computed as it computes them (the same doubles, so the same float32 values).
        self._scales = np.array([[max(1, len(d) - r.hand_size * n), 1.0 / float(deck_points(r, n)),
                                  1.0 / float(r.hand_size + r.talon), float(r.max_bid)]
                                 for r, d in zip(self.rules, decks, strict=True)], np.float64)
        self._state = np.zeros(1, np.uint64)
        self.seed(seed)
        self.live = np.zeros(size, np.int64)
        self.dealers = np.zeros(size, np.int64)
        self._obs = np.zeros((size, self.inputs), np.float32)
        self._mask = np.zeros((size, self.codec.size), np.bool_)
        self._lanes = np.zeros(size, np.int64)
        self._seats = np.zeros(size, np.int64)
        #: The most legal actions a seat may have: its cards, the exchange, the declarations and the signals; the
        #: pass and every bid; every card to call; or every pair of its cards to lay down.
        self._buf = np.zeros(max(stride + 6 + len(_SIG_ORDER), 1 + int(cfg[:, _NBIDS].max()), 48,
                                 math.comb(stride, talon)), np.int64)
        self._forced = np.zeros(1, np.int64)
        self._acted = 0
        self._totals = np.zeros(max(2, self.sides), np.int64)
        self._stack: tuple[Any, ...] | None = None  # (made by the first :meth:`solve`)

    def _auction(self, r: Rules) -> list[int]:
        """The auction's part of a preset's configuration row (all zero without an auction)."""
        if not r.auction:
            return [0] * (_CALLID + 1 - _AUCT)
        ids = self.codec.ids
        return [1, r.min_bid, r.bid_step, r.max_bid, (r.max_bid - r.min_bid) // r.bid_step + 1,
                int(r.all_pass == "last_must_bid"), -1 if r.auction_direction == "against_play" else 1,
                int(r.call_time == "after_first_trick"), ids[PASS], ids[Bid(r.min_bid)], ids.get(CALLS[0], -1)]

    def _talon(self, r: Rules, deck: Sequence[Card]) -> list[int]:
        """The talon's, the named trump's and the declarations' part of a preset's configuration row."""
        ids = self.codec.ids
        order = sorted(deck)
        pos = {c: i for i, c in enumerate(order)}
        first = ids[Discard(*order[:2])] if r.talon else -1
        return [r.talon, int(r.contract == "solo"), first, ids[TrumpChoice(Suit(0))] if r.trump_from == "named" else -1,
                ids[Declare(Suit(0))] if r.declarations in ("on_lead", "vales") else -1, len(deck),
                *(pos.get(c, -1) for c in ALL_CARDS)]

    def _dealt_out(self, r: Rules) -> list[int]:
        """The part of a preset's configuration row for every card dealt without an auction (Brisca porteña): the
        way of dealing, the cutter, the duties, capote, the vales, and the ways the cutter may choose."""
        if not r.dealt_out or r.auction:
            return [0] * (_STRG - _DOUT)
        ids = self.codec.ids
        chooses = r.deal == "cutter_chooses"
        ways = list(r.cut_ways) if chooses else []
        cuts = [ids[Cut(w)] for w in ways] + [-1] * (3 - len(ways))
        return [1, 0 if chooses else _WAYS[r.deal], 1 if r.cutter == "right" else -1,
                _FOLLOWS[r.follow],
                int(r.lead_two == "guarded"), int(r.capote != "off"), int(r.declarations == "vales"),
                ids[PASS] if r.declarations == "vales" else -1, int(r.golpe_partner_shows),
                *cuts, *([_WAYS[w] for w in ways] + [-1] * (3 - len(ways)))]

    # -- dealing

    def seed(self, seed: int) -> None:
        """Start the deals' random numbers again from ``seed``: the same seed deals the same hands."""
        self._state[0] = np.uint64((seed * 0x9E3779B97F4A7C15 + 0x1234567) % (1 << 64))

    def deal(self, lanes: Sequence[int] | Any, presets: Sequence[int] | Any | None = None) -> None:
        """Deal the ``lanes`` new hands (of preset indices ``presets``, by default drawn at random)."""
        lanes = np.asarray(lanes, np.int64)
        if presets is None:
            presets = np.array([_splitmix_py(self._state) % len(self.rules) for _ in range(len(lanes))], np.int64)
        presets = np.asarray(presets, np.int64)
        dealers = np.zeros(len(lanes), np.int64)
        _deal_random(self.st, lanes, presets, self._lay, self._cfg, self._decks, self._state, self._xtable, dealers)
        self.dealers[lanes] = dealers
        self.live[lanes] = 1

    def deal_all(self) -> None:
        """Deal every lane a new hand."""
        self.deal(np.arange(self.size))

    def load(self, lane: int, game: Game, preset: int = 0) -> None:
        """Deal lane ``lane`` the deck and dealer of ``game`` (whose rules are preset ``preset`` of the batch)."""
        deck = np.array([c.index for c in game.deck], np.int64)
        _deal(self.st, lane, self._lay, self._cfg, self._xtable, preset, deck, game.dealer)
        self.dealers[lane] = game.dealer
        self.live[lane] = 1

    def replay(self, lanes: Any, decks: Any, dealers: Any, ids: Any, counts: Any, presets: Any | None = None) -> None:
        """Set many lanes to hands in progress at once: lane ``lanes[i]`` is dealt ``decks[i]`` (card indices, top
        first, as :attr:`Game.deck <brisca.game.Game.deck>`) with dealer ``dealers[i]``, then plays its first
        ``counts[i]`` action ids ``ids[i]`` (a game's history, forced moves included). A search's sampled worlds
        are loaded so, one compiled call for all of them. ``ValueError`` if a row's actions are not legal."""
        lanes = np.ascontiguousarray(lanes, np.int64)
        if presets is None:
            presets = np.zeros(len(lanes), np.int64)
        bad = _replay(self.st, lanes, np.ascontiguousarray(presets, np.int64), np.ascontiguousarray(decks, np.int64),
                      np.ascontiguousarray(dealers, np.int64), np.ascontiguousarray(ids, np.int64),
                      np.ascontiguousarray(counts, np.int64), self._lay, self._cfg, self._strength, self._points,
                      self._xtable)
        self.dealers[lanes] = dealers
        if bad:
            self.live[lanes] = 0
            raise ValueError(f"row {bad - 1}: its actions are not legal in the hand its deck deals")
        self.live[lanes] = 1 - self.st[lanes, self._lay[_L_OVER]]

    def replay_each(self, lanes: Any, decks: Any, dealers: Any, ids: Any, counts: Any) -> Any:
        """:meth:`replay` (preset 0) that refuses no call: which rows' actions were legal in the hand their deck
        deals (a boolean a row); lanes of the others are not live. A search checks drawn worlds so."""
        lanes = np.ascontiguousarray(lanes, np.int64)
        ok = np.zeros(len(lanes), np.int64)
        _replay_each(self.st, lanes, np.zeros(len(lanes), np.int64), np.ascontiguousarray(decks, np.int64),
                     np.ascontiguousarray(dealers, np.int64), np.ascontiguousarray(ids, np.int64),
                     np.ascontiguousarray(counts, np.int64), self._lay, self._cfg, self._strength, self._points,
                     self._xtable, ok)
        self.dealers[lanes] = dealers
        self.live[lanes] = ok * (1 - self.st[lanes, self._lay[_L_OVER]])
        return ok.astype(np.bool_)

    # -- playing

    def observe(self) -> tuple[Any, Any, Any, Any]:
        """Advance every live lane to its next decision; the network inputs (``float32``) and legal masks of the
        seats to decide, and which lane and seat each row is. Views of the batch's buffers: the next call
        overwrites them."""
        k = _observe(self.st, self.live, self._lay, self._cfg, self._strength, self._points, self._xtable, self._enc,
                     self._scales, len(self.rules), self.cues, self._obs, self._mask, self._lanes, self._seats,
                     self._buf, self._forced)
        return self._obs[:k], self._mask[:k], self._lanes[:k], self._seats[:k]

    @property
    def forced(self) -> int:
        """How many actions :meth:`observe` has played because they were the only legal ones."""
        return int(self._forced[0])

    @property
    def moves(self) -> int:
        """How many actions the lanes have taken: those of :meth:`act` and the forced ones."""
        return self._acted + self.forced

    def act(self, lanes: Any, ids: Any) -> None:
        """Apply action id ``ids[i]`` in lane ``lanes[i]`` (by the seat to act there)."""
        lanes = np.asarray(lanes, np.int64)
        ids = np.asarray(ids, np.int64)
        bad = _apply_rows(self.st, lanes, ids, len(lanes), self._lay, self._cfg, self._strength, self._points,
                          self._xtable)
        if bad:
            raise ValueError(f"{bad} of {len(lanes)} actions are not legal in their lanes")
        self._acted += len(lanes)

    def legal_ids(self, lane: int) -> list[int]:
        """The legal action ids of the seat to act in ``lane`` (the engine's order)."""
        out = np.zeros(len(self._buf), np.int64)
        m = _legal(self.st, lane, self._lay, self._cfg, out)
        return [int(x) for x in out[:m]]

    def apply(self, lane: int, aid: int) -> None:
        """Apply one action id in one lane (no forced moves are played)."""
        if not _apply(self.st, lane, self._lay, self._cfg, self._strength, self._points, self._xtable, aid):
            raise ValueError(f"action id {aid} is not legal in lane {lane}")

    def turn(self, lane: int) -> int | None:
        """The seat to act in ``lane``, or ``None`` once its hand is over."""
        return None if self.is_over(lane) else int(self.st[lane, self._lay[_L_TURN]])

    def is_over(self, lane: int) -> bool:
        return bool(self.st[lane, self._lay[_L_OVER]])

    def hand(self, lane: int, seat: int) -> list[int]:
        """The cards (indices) ``seat`` holds in ``lane``, in order. Engine-level access: players read inputs."""
        at = self._lay[_L_HANDS] + seat * self._stride
        return [int(c) for c in self.st[lane, at:at + self.st[lane, self._lay[_L_HLEN] + seat]]]

    def stock(self, lane: int) -> list[int]:
        """The stock of ``lane`` (indices), bottom (the face-up card) first. Engine-level access."""
        at = self._lay[_L_STOCK]
        return [int(c) for c in self.st[lane, at:at + self.st[lane, self._lay[_L_SLEN]]]]

    def preset(self, lane: int) -> int:
        return int(self.st[lane, self._lay[_L_PRESET]])

    def privileged(self, lanes: Any, seats: Any) -> Any:
        """What each of ``seats`` cannot see in its lane of ``lanes`` (:func:`privileged_size` ``float32`` a
        row): the other seats' hands and the stock's order. Engine-level access, for a critic that learns values
        in training (:mod:`brisca.learn.selfplay`, ``--critic full``); no player reads it."""
        lanes = np.ascontiguousarray(lanes, np.int64)
        out = np.empty((len(lanes), privileged_size(self.players)), np.float32)
        _privileged(self.st, lanes, np.ascontiguousarray(seats, np.int64), self._lay, self._cfg, out)
        return out

    def features(self, lane: int, seat: int, out: Any | None = None) -> Any:
        """``seat``'s input in ``lane`` (any seat, to act or not)."""
        if out is None:
            out = np.zeros(self.inputs, np.float32)
        _encode(self.st, lane, seat, self._lay, self._cfg, self._enc, self._scales, out, len(self.rules),
                self._strength, self.cues)
        return out

    def result(self, lane: int) -> tuple[tuple[int, ...], int | None]:
        """A finished hand's side totals and winning side (``None``: none)."""
        win = _totals(self.st, lane, self._lay, self._cfg, self._totals)
        return tuple(int(x) for x in self._totals[:self.sides]), None if win < 0 else int(win)

    def contract(self, lane: int) -> tuple[int, int | None, int] | None:
        """The contract of ``lane`` once its declarer has called his card or named the trump: the declarer, the
        called card's holder (the declarer himself, alone; ``None`` without a called card) and the points bid;
        ``None`` before, without an auction, or when everybody passed. Engine-level access (the partner is hidden
        from the seats until the card is played)."""
        row = self.st[lane]
        lay = self._lay
        if row[lay[_L_DECL]] < 0 or row[lay[_L_TRUMP]] < 0:
            return None
        partner = int(row[lay[_L_PARTNER]]) if row[lay[_L_CALLED]] >= 0 else None
        return int(row[lay[_L_DECL]]), partner, int(row[lay[_L_HIGH]])

    def reward(self, lane: int, seat: int) -> float:
        """:func:`brisca.agents.net.reward` for ``seat`` of a finished hand."""
        return float(_reward(self.st, lane, seat, self._lay, self._cfg, self._totals))

    def rewards(self, lanes: Any) -> Any:
        """Every seat's reward in each of ``lanes`` (finished): ``(len(lanes), players)``."""
        out = np.empty((len(lanes), self.players), np.float64)
        for i, lane in enumerate(lanes):
            for s in range(self.players):
                out[i, s] = _reward(self.st, int(lane), s, self._lay, self._cfg, self._totals)
        return out

    def margins(self, lanes: Any, sides: Any, weight: float) -> Any:
        """:func:`brisca.agents.exact.margin` of each finished lane in ``lanes`` for side ``sides[i]`` (or one side
        for all): the result (1, 1/2, 0) plus ``weight`` a point of margin."""
        lanes = np.ascontiguousarray(lanes, np.int64)
        sides_of = np.broadcast_to(np.asarray(sides, np.int64), lanes.shape).copy()
        out = np.empty(len(lanes), np.float64)
        _margins(self.st, lanes, sides_of, float(weight), self._lay, self._cfg, self._totals, out)
        return out

    def solve(self, lanes: Any, seat: int, ids: Sequence[int]) -> tuple[Any, int]:
        """Each of ``ids`` (actions of ``seat``, to act in every one of ``lanes``) valued in each lane as if every
        seat saw every card there: the hand played to its end, ``seat``'s side (the contract's, once made)
        maximising ``seat``'s :meth:`reward` and every other seat minimising it, all by the rules of the lane's
        preset (duties, vales, capote, contracts). A ``(len(lanes), len(ids))`` array (NaN where an id is not
        legal) and the decisions searched. Exact, so costly early in a hand: an endgame's search."""
        lanes = np.ascontiguousarray(lanes, np.int64)
        ids_a = np.ascontiguousarray(ids, np.int64)
        if self._stack is None:  # the search's stack, made once a batch: a row of each array a decision down
            depth = self.players * self._stride * (self.players + 1) + 4  # (a card each, a vale window each)
            self._stack = (np.empty((depth, self.st.shape[1]), np.int64), np.zeros((depth, len(self._buf)), np.int64),
                           np.zeros((depth, 3), np.float64), np.zeros((depth, 3), np.int64),
                           np.zeros(self.players, np.int64))
        sc, bufs, ab, mi, ally = self._stack
        out = np.empty((len(lanes), len(ids_a)), np.float64)
        nodes = np.zeros(1, np.int64)
        _solve(self.st, lanes, int(seat), ids_a, self._lay, self._cfg, self._strength, self._points, self._xtable,
               sc, bufs, ab, mi, self._totals, ally, out, nodes)
        return out, int(nodes[0])



def _splitmix_py(state: Any) -> int:
    """:func:`_splitmix` from Python (the compiled one where numba is installed)."""
    return int(_splitmix(state))


# ---------------------------------------------------------------------------------------------- policy helpers


def _first_layer(x: Any, w: Any, b: Any, out: Any) -> None:
    """``relu(x @ w + b)`` for a batch of sparse rows (an encoded view sets a few dozen of its hundreds of
    inputs): each row's nonzero inputs add their rows of ``w``, a fraction of the dense product's work."""
    hidden = w.shape[1]
    acc = np.empty(hidden, np.float32)
    for r in range(x.shape[0]):
        for j in range(hidden):
            acc[j] = b[j]
        xr = x[r]
        for i in range(x.shape[1]):
            v = xr[i]
            if v != 0.0:
                for j in range(hidden):
                    acc[j] += v * w[i, j]
        for j in range(hidden):
            out[r, j] = acc[j] if acc[j] > 0.0 else 0.0


if COMPILED:  # (the order of the sums is free: vectorised)
    _first_layer = _numba_njit(cache=True, nogil=True, fastmath=True)(_first_layer)


@_njit
def _sample(logits: Any, mask: Any, u: Any, ids: Any, logp: Any) -> None:
    """For each row, an action id drawn from the softmax of its legal logits by the uniform ``u[row]``, and its
    log-probability (the legal ids in order, each taking its share of [0, 1))."""
    for r in range(logits.shape[0]):
        top = -np.inf
        for a in range(logits.shape[1]):
            if mask[r, a] and logits[r, a] > top:
                top = logits[r, a]
        total = 0.0
        for a in range(logits.shape[1]):
            if mask[r, a]:
                total += np.exp(np.float64(logits[r, a]) - top)
        target = u[r] * total
        acc = 0.0
        pick = -1
        for a in range(logits.shape[1]):
            if mask[r, a]:
                pick = a
                acc += np.exp(np.float64(logits[r, a]) - top)
                if acc > target:
                    break
        ids[r] = pick
        logp[r] = np.float64(logits[r, pick]) - top - np.log(total)


def forward(net_arrays: dict[str, Any], obs: Any) -> tuple[Any, Any]:
    """A network's logits and values for a batch of sparse inputs: :meth:`Net.forward
    <brisca.agents.net.Net.forward>`, with the first layer summed over the nonzero inputs only."""
    a = net_arrays
    h = np.empty((len(obs), a["b1"].shape[0]), np.float32)
    _first_layer(obs, a["w1"], a["b1"], h)
    h2 = h @ a["w2"]
    h2 += a["b2"]
    np.maximum(h2, 0.0, out=h2)
    return h2 @ a["wp"] + a["bp"], (h2 @ a["wv"] + a["bv"])[:, 0]


def policy(net_arrays: dict[str, Any], obs: Any, mask: Any, u: Any) -> tuple[Any, Any, Any]:
    """A network's sampled action ids, their log-probabilities and the values for a batch of sparse inputs (as
    :func:`forward` and a softmax over the legal ids); ``u``: one uniform number a row."""
    logits, values = forward(net_arrays, obs)
    ids = np.empty(len(obs), np.int64)
    logp = np.empty(len(obs), np.float64)
    _sample(logits, mask, u, ids, logp)
    return ids, logp, values


def greedy(net_arrays: dict[str, Any], obs: Any, mask: Any) -> Any:
    """A network's highest-scored legal action id for each row of sparse inputs (the first of equals), as
    :meth:`Net.choose <brisca.agents.net.Net.choose>` picks it."""
    logits = forward(net_arrays, obs)[0]
    logits[~mask] = -np.inf
    return logits.argmax(axis=1)


@_njit
def _quantize(obs: Any, rows: Any, out: Any) -> None:
    """``out[i] = rint(obs[rows[i]] * 255)`` as ``uint8`` (the inputs kept for learning, a byte each; the
    product in ``float32``, rounded half to even, as numpy computes it)."""
    scale = np.float32(255.0)
    for i in range(rows.shape[0]):
        src = obs[rows[i]]
        dst = out[i]
        for j in range(src.shape[0]):
            v = src[j]
            dst[j] = 0 if v == 0.0 else np.uint8(np.rint(v * scale))


def quantize(obs: Any, rows: Any) -> Any:
    """The rows ``rows`` of ``obs`` as bytes: ``np.rint(obs[rows] * 255).astype(np.uint8)``, in one pass."""
    rows = np.asarray(rows, np.int64)
    out = np.empty((len(rows), obs.shape[1]), np.uint8)
    _quantize(obs, rows, out)
    return out


def warm() -> None:
    """Compile (or load from numba's cache) every compiled function here, once, in this process: worker processes
    started afterwards load the cache instead of compiling (and writing it) side by side."""
    if np is None:
        return
    batch = Batch(["spanish"], 2, size=2, seed=0)
    batch.deal_all()
    batch.features(0, 0)
    batch.privileged([0, 1], [0, 1])
    batch.legal_ids(0)
    while True:
        obs, mask, lanes, _seats = batch.observe()
        if not len(lanes):
            break
        ids, _logp, _values = policy({"w1": np.zeros((obs.shape[1], 2), np.float32), "b1": np.zeros(2, np.float32),
                                      "w2": np.zeros((2, 2), np.float32), "b2": np.zeros(2, np.float32),
                                      "wp": np.zeros((2, mask.shape[1]), np.float32),
                                      "bp": np.zeros(mask.shape[1], np.float32), "wv": np.zeros((2, 1), np.float32),
                                      "bv": np.zeros(1, np.float32)}, obs, mask, np.zeros(len(obs)))
        quantize(obs, np.arange(len(obs)))
        batch.act(lanes, ids)
    batch.rewards(np.arange(2))
    batch.result(0)
    batch.deal([0])
    batch.apply(0, batch.legal_ids(0)[0])
