"""A compiled playout kernel (numba) for the expert's search on the plain games.

:func:`brisca.agents.rollout.playout` finishes a sampled world with the heuristic's
judgment (``RolloutPolicy`` and :func:`brisca.agents.heuristic.choose`) and scores it with
:func:`brisca.agents.exact.margin`. This module does the very same thing on numpy
arrays in one ``@njit`` function: the engine's rules of the plain fast path (tricks,
draws from the stock, the trump exchange, the end of the hand, last-trick and pair
bonuses, ``hand_winner`` and ``tie: most_cards``) and the rollout policy, move for move.
The tests hold it to the Python path over thousands of random positions: the same
value, the same final points and the same moves.

Covered: rules with :attr:`~brisca.rules.Rules.plain` true (so not dealt out, and no ``capote``,
which the ruled engine scores), and those plus ``kill_three`` (the ace of trumps a prisoner until the
three of trumps is out; the hand won at once when the ace takes the three) and partner signals (which
the rollouts never make, as the Python rollout policy never does).
Everything else falls back to the Python playout. numba is optional (the ``fast``
extra): without it :data:`AVAILABLE` is false and nothing here is used.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import math
import os
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from brisca.actions import EXCHANGES, PLAYS, Action, Exchange, Play
from brisca.agents.exact import stock_hidden, team_of
from brisca.agents.learned import LEAD as _LEAD_FEATURES
from brisca.agents.learned import WEIGHTS, applies
from brisca.agents.rollout import lcg
from brisca.cards import Card
from brisca.game import Game, View
from brisca.rules import Rules, find_variant
from brisca.worlds import WorldError, WorldSampler

try:  # the ``fast`` extra
    import numpy as np
    from numba import njit as _numba_njit

    AVAILABLE = True
    #: Why the kernel is not available ("" when it is).
    MISSING = ""
except ImportError as exc:  # pragma: no cover - depends on the environment
    AVAILABLE = False
    MISSING = f"numba is not installed ({exc})"


def _njit(fn: Callable[..., Any]) -> Callable[..., Any]:
    if not AVAILABLE:
        return fn
    compiled: Callable[..., Any] = _numba_njit(cache=True, nogil=True)(fn)
    return compiled


#: Codes of the actions the kernel takes and records: a card index for a play, EXCHANGE + index for an exchange.
EXCHANGE = 100
#: No candidate: play out the position as it stands (the debug entry point).
NONE = -1

# cfg fields
(_N, _SIDES, _H, _S, _TRUMP, _GIVE_UNTIL, _CHAIN, _TURNED, _LTB, _PAIR, _LEAST, _MOST_CARDS, _ENDGAME, _KILL,
 _LEARNED) = range(15)


@functools.cache
def covers(rules: Rules) -> bool:
    """Whether the kernel plays these rules exactly: the plain fast path (no capote), also with ``kill_three``
    and partner signals (which the rollouts never make: they change nothing on the table)."""
    plain = rules.plain or dataclasses.replace(rules, kill_three=False, signals="off").plain
    return plain and not rules.dealt_out and rules.capote == "off" and rules.contract == "off"


def enabled() -> bool:
    """Whether numba is importable and not switched off by ``BRISCA_KERNEL=0``."""
    return AVAILABLE and os.environ.get("BRISCA_KERNEL", "1") != "0"


# ---------------------------------------------------------------------------------------------- the kernel

#: The rollouts' random numbers, compiled from the very function the Python playout calls.
_lcg = _njit(lcg)


@_njit
def _key_ps(points: Any, strength: Any, c: int) -> int:
    return int(points[c] * 64 + strength[c])


#: What :func:`_cheapest` looks among: plain cards worth at most 4, trumps, any card.
_SMALL_PLAIN, _TRUMPS, _ANY = range(3)


@_njit
def _cheapest(hand: Any, hl: int, trump: int, strength: Any, points: Any, kind: int) -> int:
    """The least valuable card of a kind (points, then rank; the first of equals), or -1 if none."""
    pick = -1
    pk = 1 << 30
    for i in range(hl):
        c = hand[i]
        suit = c // 12
        if (kind == _SMALL_PLAIN and (suit == trump or points[c] > 4)) or (kind == _TRUMPS and suit != trump):
            continue
        k = _key_ps(points, strength, c)
        if k < pk:
            pk = k
            pick = c
    return pick


@_njit
def _choose(hand: Any, hl: int, trick: Any, tl: int, best: int, trump: int, strength: Any, points: Any,
            partner_winning: bool, opponents_after: bool, trumps_out: int, top: Any) -> int:
    """:func:`brisca.agents.heuristic.choose` on card indices (first of equals, as Python's min and max)."""
    nplain = 0
    for i in range(hl):
        if hand[i] // 12 != trump:
            nplain += 1
    # cheapest discard: the lowest plain card by (points, strength), else the weakest trump
    disc = -1
    dk = 1 << 30
    if nplain:
        for i in range(hl):
            c = hand[i]
            if c // 12 != trump:
                k = _key_ps(points, strength, c)
                if k < dk:
                    dk = k
                    disc = c
    else:
        for i in range(hl):
            c = hand[i]
            if strength[c] < dk:
                dk = strength[c]
                disc = c
    if tl == 0:
        # _lead: the richest master, the weakest worthless card, the cheapest small one, the cheapest trump
        pick = -1
        pk = -1
        for i in range(hl):
            c = hand[i]
            s = c // 12
            if s != trump and points[c] > 0 and strength[c] > top[s] and trumps_out == 0 and points[c] > pk:
                pk = points[c]
                pick = c
        if pick >= 0:
            return pick
        pk = 1 << 30
        for i in range(hl):
            c = hand[i]
            if c // 12 != trump and points[c] == 0 and strength[c] < pk:
                pk = strength[c]
                pick = c
        if pick >= 0:
            return pick
        for kind in (_SMALL_PLAIN, _TRUMPS):
            pick = int(_cheapest(hand, hl, trump, strength, points, kind))
            if pick >= 0:
                return pick
        return int(_cheapest(hand, hl, trump, strength, points, _ANY))
    on_table = 0
    for i in range(tl):
        on_table += points[trick[i]]
    bs = best // 12
    if partner_winning:
        if not opponents_after:
            # load the partner's trick with points not otherwise won: max by (points, -strength)
            pick = -1
            pk = -(1 << 30)
            for i in range(hl):
                c = hand[i]
                s = c // 12
                if s != trump and points[c] > 0 and not (strength[c] > top[s] and trumps_out == 0):
                    k = points[c] * 64 + (63 - strength[c])
                    if k > pk:
                        pk = k
                        pick = c
            if pick >= 0:
                return pick
        return disc
    if bs != trump:
        nbeat = 0
        for i in range(hl):
            c = hand[i]
            if c // 12 == bs and strength[c] > strength[best]:
                nbeat += 1
        if nbeat:
            pick = -1
            if not opponents_after:
                pk = -1
                for i in range(hl):
                    c = hand[i]
                    if c // 12 == bs and strength[c] > strength[best]:
                        k = _key_ps(points, strength, c)
                        if k > pk:
                            pk = k
                            pick = c
                return pick
            if trumps_out == 0:
                pk = -1
                for i in range(hl):
                    c = hand[i]
                    if c // 12 == bs and strength[c] > strength[best] and points[c] > pk:
                        pk = points[c]
                        pick = c
                return pick
            pk = 1 << 30
            for i in range(hl):
                c = hand[i]
                if c // 12 == bs and strength[c] > strength[best] and strength[c] < pk:
                    pk = strength[c]
                    pick = c
            return pick
    cheapest = -1
    ck = 1 << 30
    for i in range(hl):
        c = hand[i]
        if c // 12 == trump and (bs != trump or strength[c] > strength[best]):
            k = _key_ps(points, strength, c)
            if k < ck:
                ck = k
                cheapest = c
    if cheapest >= 0 and (on_table >= 10 or (points[cheapest] < 10 and on_table + points[disc] >= 3)):
        return cheapest
    return disc


@_njit
def _learned(hand: Any, hl: int, trick: Any, tl: int, best: int, trump: int, strength: Any, points: Any,
             partner_winning: bool, opponents_after: bool, trumps_out: int, top: Any, stock: int, w: Any) -> int:
    """:func:`brisca.agents.learned.choose_learned` on card indices: the features of
    :func:`brisca.agents.learned.features` weighed by ``w`` as they are computed (nothing allocated)."""
    end = 1 if stock == 0 else 0
    pick = hand[0]
    high = 0
    table = 0
    for i in range(tl):
        table += points[trick[i]]
    bs = best // 12 if tl else -1
    pw = 1 if partner_winning else 0
    oa = 1 if opponents_after else 0
    late = 1 if 0 < stock <= 8 else 0
    for i in range(hl):
        c = hand[i]
        s = c // 12
        tr = 1 if s == trump else 0
        p = points[c]
        st = strength[c]
        master = 1 if st > top[s] and (tr == 1 or trumps_out == 0) else 0
        if tl == 0:
            nsuit = 0
            ntr = 0
            for j in range(hl):
                nsuit += 1 if hand[j] // 12 == s else 0
                ntr += 1 if hand[j] // 12 == trump else 0
            exposed = 1 if st < top[s] else 0
            rich = 1 if p >= 10 else 0
            v = (w[0] * p + w[1] * tr + w[2] * tr * p + w[3] * st + w[4] * tr * st + w[5] * master
                 + w[6] * master * p + w[7] * nsuit + w[8] * end * tr + w[9] * end * p + w[10] * end * tr * st
                 + w[11] * exposed * p + w[12] * tr * trumps_out + w[13] * tr * ntr + w[14] * late * tr
                 + w[15] * late * p + w[16] * (1 if p == 0 else 0) * (1 - tr) + w[17] * tr * rich
                 + w[18] * (1 - tr) * rich * exposed)
        else:
            wins = 1 if (s == bs and st > strength[best]) or (tr == 1 and bs != trump) else 0
            f = _LEAD_FEATURES
            v = (w[f] * p + w[f + 1] * tr + w[f + 2] * wins + w[f + 3] * wins * table + w[f + 4] * wins * p
                 + w[f + 5] * (1 - wins) * p + w[f + 6] * wins * tr + w[f + 7] * wins * tr * table
                 + w[f + 8] * wins * tr * p + w[f + 9] * st + w[f + 10] * tr * st + w[f + 11] * pw * p
                 + w[f + 12] * pw * (1 - oa) * p + w[f + 13] * wins * oa + w[f + 14] * end * tr
                 + w[f + 15] * end * wins * table + w[f + 16] * master * (1 - wins) + w[f + 17] * tr * trumps_out
                 + w[f + 18] * master * p + w[f + 19] * end * p)
        if i == 0 or v > high:
            pick = c
            high = v
    return int(pick)


@_njit
def _beats(c: int, best: int, trump: int, strength: Any) -> bool:
    if c // 12 == best // 12:
        return bool(strength[c] > strength[best])
    return c // 12 == trump


@_njit
def _legal(cfg: Any, hands: Any, hlen: Any, seat: int, three_out: bool, buf: Any) -> tuple[Any, int]:
    """The cards ``seat`` may play, in hand order: its hand, less the ace of trumps while it is a prisoner
    (``kill_three``: until the three of trumps is out, unless it is the last card). ``buf`` holds them then."""
    hl = hlen[seat]
    if cfg[_KILL] == 0 or three_out or hl <= 1:
        return hands[seat], hl
    ace = cfg[_TRUMP] * 12
    j = 0
    for i in range(hl):
        c = hands[seat, i]
        if c != ace:
            buf[j] = c
            j += 1
    if j == hl:
        return hands[seat], hl
    return buf, j


@_njit
def _killer(cfg: Any, trick: Any, last: int) -> int:
    """``kill_three``: the seat whose ace of trumps met the three of trumps in the trick just done (``last``
    played its last card), which ends the hand and wins it for that seat's side; else -1."""
    if cfg[_KILL] == 0:
        return -1
    n = cfg[_N]
    ace = cfg[_TRUMP] * 12
    at = -1
    three = False
    for i in range(n):
        if trick[i] == ace:
            at = i
        elif trick[i] == ace + 2:
            three = True
    if at < 0 or not three:
        return -1
    return int((last + 1 + at) % n)  # the leader is last + 1 (mod n); the ace was played ``at`` seats after


@_njit
def _choose_least(hand: Any, hl: int, trick: Any, tl: int, best: int, trump: int, strength: Any, points: Any,
                  partner_winning: bool) -> int:
    """:func:`brisca.agents.heuristic._choose_least` on card indices (first of equals, as Python's min and max)."""
    pick = -1
    if tl == 0:
        # lead: the plain card (else any) by fewest points, then weakest: trumps rank after every plain card
        pk = 1 << 30
        for i in range(hl):
            c = hand[i]
            k = _key_ps(points, strength, c) + (1 << 20 if c // 12 == trump else 0)
            if k < pk:
                pk = k
                pick = c
        return pick
    if not partner_winning:
        # the richest card that loses the trick: max by (points, strength)
        pk = -1
        for i in range(hl):
            c = hand[i]
            if not _beats(c, best, trump, strength):
                k = _key_ps(points, strength, c)
                if k > pk:
                    pk = k
                    pick = c
        if pick >= 0:
            return pick
    # the trick is taken anyway: fewest points, then strongest
    pk = 1 << 30
    for i in range(hl):
        c = hand[i]
        k = points[c] * 64 + (63 - strength[c])
        if k < pk:
            pk = k
            pick = c
    return pick


@_njit
def _greedy(hand: Any, hl: int, trick: Any, tl: int, best: int, trump: int, strength: Any, points: Any) -> int:
    """:func:`brisca.agents.simple.greedy_card` on card indices (first of equals, as Python's min)."""
    pick = -1
    if tl > 0:
        bsuit = best // 12
        if bsuit != trump:
            for i in range(hl):
                c = hand[i]
                if c // 12 == bsuit and strength[c] > strength[best] and (pick == -1 or strength[c] < strength[pick]):
                    pick = c
            if pick != -1:
                return pick
        on_table = 0
        for i in range(tl):
            on_table += points[trick[i]]
        if on_table >= 10:
            for i in range(hl):
                c = hand[i]
                if c // 12 == trump and (bsuit != trump or strength[c] > strength[best]) and (
                        pick == -1 or strength[c] < strength[pick]):
                    pick = c
            if pick != -1:
                return pick
    else:
        for i in range(hl):
            c = hand[i]
            if c // 12 != trump and points[c] == 0 and (pick == -1 or strength[c] < strength[pick]):
                pick = c
        if pick != -1:
            return pick
    for i in range(hl):
        c = hand[i]
        if c // 12 != trump and (pick == -1 or strength[c] < strength[pick]):
            pick = c
    if pick != -1:
        return pick
    for i in range(hl):
        c = hand[i]
        if pick == -1 or strength[c] < strength[pick]:
            pick = c
    return pick


@_njit
def _score(cfg: Any, pts: Any, capt: Any, lastw: int, side: int, weight: float, killer: int) -> float:
    """A finished hand's value for ``side``: :func:`brisca.agents.exact.margin` on the kernel's state (``killer``:
    the seat that killed the three, whose side wins; no last-trick bonus then)."""
    n = cfg[_N]
    sides = cfg[_SIDES]
    trump = cfg[_TRUMP]
    totals = np.zeros(sides, np.int64)
    for s in range(n):
        totals[s % sides] += pts[s]
    if cfg[_LTB] != 0 and lastw >= 0 and killer < 0:
        totals[lastw % sides] += cfg[_LTB]
    if cfg[_PAIR] != 0:
        for sd in range(sides):
            for su in range(4):
                if capt[su * 12 + 11] == sd and capt[su * 12 + 10] == sd:
                    totals[sd] += 40 if su == trump else 20
    bestv = totals[0]
    for sd in range(1, sides):
        if (cfg[_LEAST] != 0 and totals[sd] < bestv) or (cfg[_LEAST] == 0 and totals[sd] > bestv):
            bestv = totals[sd]
    ntied = 0
    win = -1
    for sd in range(sides):
        if totals[sd] == bestv:
            ntied += 1
            win = sd
    if killer >= 0:
        win = killer % sides
    elif ntied > 1:
        win = -1
        if cfg[_MOST_CARDS] != 0:
            cards = np.zeros(sides, np.int64)
            for i in range(48):
                if capt[i] >= 0:
                    cards[capt[i]] += 1
            most = -1
            for sd in range(sides):
                if totals[sd] == bestv and cards[sd] > most:
                    most = cards[sd]
            nl = 0
            for sd in range(sides):
                if totals[sd] == bestv and cards[sd] == most:
                    nl += 1
                    win = sd
            if nl != 1:
                win = -1
    others = 0
    least = cfg[_LEAST] != 0
    if sides > 1:
        others = (1 << 62) if least else -(1 << 62)
        for sd in range(sides):
            if sd != side and ((least and totals[sd] < others) or (not least and totals[sd] > others)):
                others = totals[sd]
    lead = others - totals[side] if least else totals[side] - others
    won = 0.5 if win == -1 else (1.0 if win == side else 0.0)
    return float(won + lead * weight)


@_njit
def _play_card(cfg: Any, strength: Any, points: Any, hands: Any, hlen: Any, trick: Any, tlen: int, best: int,
               bseat: int, seat: int, pts: Any, capt: Any, lastw: int, c: int) -> tuple[int, int, int, int, int]:
    """Play card ``c`` for ``seat`` (the arrays change in place; the caller draws from the stock): the new trick
    length (0 once the trick is done), best card and seat, the seat to act and the last trick's winner."""
    n = cfg[_N]
    sides = cfg[_SIDES]
    trump = cfg[_TRUMP]
    hl = hlen[seat]
    j = 0
    for i in range(hl):
        if hands[seat, i] != c:
            hands[seat, j] = hands[seat, i]
            j += 1
    hlen[seat] = hl - 1
    if tlen:
        if c // 12 == best // 12:
            if strength[c] > strength[best]:
                best = c
                bseat = seat
        elif c // 12 == trump:
            best = c
            bseat = seat
    else:
        best = c
        bseat = seat
    trick[tlen] = c
    tlen += 1
    if tlen < n:
        return tlen, best, bseat, (seat + 1) % n, lastw
    winner = bseat
    tp = 0
    for i in range(n):
        tp += points[trick[i]]
        capt[trick[i]] = winner % sides
    pts[winner] += tp
    return 0, best, bseat, winner, winner


@_njit
def _exact(cfg: Any, strength: Any, points: Any, hands: Any, hlen: Any, trick: Any, tlen: int, best: int, bseat: int,
           turn: int, pts: Any, capt: Any, lastw: int, side: int, weight: float, greedy: Any, mix: Any,
           three_out: bool) -> float:
    """:func:`brisca.agents.exact.expect` on the kernel's state, two players and the stock gone: this side's best
    move, the other's by its model (the greedy rule, or random moves by its ``mix`` share and its best otherwise),
    the same sums in the same order (so the same value to the last bit)."""
    if hlen[0] == 0 and hlen[1] == 0:
        return float(_score(cfg, pts, capt, lastw, side, weight, -1))
    seat = turn
    order = np.empty(hlen[seat], np.int64)
    # The legal cards land in ``order`` itself when the prisoner ace is left out: the insertion sort below reads
    # card i before it writes at i, and never beyond, so it sorts them in place.
    hand, hl = _legal(cfg, hands, hlen, seat, three_out, order)
    mine = seat % cfg[_SIDES] == side
    count = 0
    if not mine and greedy[seat] != 0:
        order[0] = _greedy(hand, hl, trick, tlen, best, cfg[_TRUMP], strength, points)
        count = 1
    else:
        for i in range(hl):  # strongest first, equals in hand order (as ``_ordered`` sorts)
            c = hand[i]
            k = count
            while k > 0 and strength[order[k - 1]] < strength[c]:
                order[k] = order[k - 1]
                k -= 1
            order[k] = c
            count += 1
    top = -np.inf
    worst = np.inf
    total = 0.0
    for k in range(count):
        h2 = hands.copy()
        l2 = hlen.copy()
        t2 = trick.copy()
        p2 = pts.copy()
        c2 = capt.copy()
        tl, b, bs, tn, lw = _play_card(cfg, strength, points, h2, l2, t2, tlen, best, bseat, seat, p2, c2, lastw,
                                       order[k])
        killer = _killer(cfg, t2, seat) if tl == 0 else -1
        if killer >= 0:
            v = float(_score(cfg, p2, c2, lw, side, weight, killer))
        else:
            v = _exact(cfg, strength, points, h2, l2, t2, tl, b, bs, tn, p2, c2, lw, side, weight, greedy, mix,
                       three_out or order[k] == cfg[_TRUMP] * 12 + 2)
        if count == 1 and not mine and greedy[seat] != 0:
            return float(v)
        top = max(top, v)
        worst = min(worst, v)
        total += v
    if mine:
        return float(top)
    share = mix[seat] / 32768
    if share == 0:
        return float(worst)
    return float(share * total / count + (1 - share) * worst)

@_njit
def _playout_one(cfg: Any, strength: Any, points: Any, xtable: Any, row: Any, cand: int, side: int,
                 weight: float, seat_out: Any, moves: Any, greedy: Any, mix: Any, seed: int, lw: Any,
                 stop: int, out_row: Any, opts: Any) -> float:
    """Apply ``cand`` to the position encoded in ``row``, finish the hand with the rollout policy (the greedy
    rule for the seats flagged in ``greedy``; a uniformly random move, with chance ``mix[seat] / 32768``, for
    the seats read as partly random; the random numbers from :func:`brisca.agents.rollout.lcg` started at
    ``seed``; the policy's card choice the heuristic's, or with ``cfg[_LEARNED]`` the learned one weighed by
    ``lw``) and return :func:`brisca.agents.exact.margin`; the final seat points go to ``seat_out`` and the
    moves (codes, -1 after the last) to ``moves`` when it has room.

    With ``stop`` set it stops instead at ``side``'s first choice (two legal moves or more) after the candidate
    (with no candidate, from the start): the position goes to ``out_row`` (encoded as ``row``), and to ``opts``
    the number of legal moves, the policy's move and the legal moves' codes (``opts[0]`` stays 0 if the hand
    ends first)."""
    n = cfg[_N]
    sides = cfg[_SIDES]
    hmax = cfg[_H]
    smax = cfg[_S]
    trump = cfg[_TRUMP]
    give_until = cfg[_GIVE_UNTIL]
    # --- decode (see Kernel.encode for the layout)
    hands = np.empty((n, hmax), np.int64)
    hlen = np.empty(n, np.int64)
    p = 0
    for s in range(n):
        for i in range(hmax):
            hands[s, i] = row[p]
            p += 1
    for s in range(n):
        hlen[s] = row[p]
        p += 1
    stock = np.empty(smax + 1, np.int64)
    for i in range(smax):
        stock[i] = row[p]
        p += 1
    slen = row[p]
    p += 1
    trick = np.empty(n, np.int64)
    for i in range(n):
        trick[i] = row[p]
        p += 1
    tlen = row[p]
    turn = row[p + 2]
    best = row[p + 3]
    bseat = row[p + 4]
    give = row[p + 5]
    over = row[p + 6]
    lastw = row[p + 7]
    p += 8
    pts = np.empty(n, np.int64)
    for s in range(n):
        pts[s] = row[p]
        p += 1
    mayx = np.empty(n, np.int64)
    for s in range(n):
        mayx[s] = row[p]
        p += 1
    capt = np.empty(48, np.int64)
    for i in range(48):
        capt[i] = row[p]
        p += 1
    # the policy's card counting: every card not yet played (in a hand or the stock)
    unplayed = np.zeros(48, np.bool_)
    top = np.zeros(4, np.int64)
    nm = 0
    state = seed & 0x7FFFFFFF
    if cand == -1:
        for s in range(n):
            for i in range(hlen[s]):
                unplayed[hands[s, i]] = True
        for i in range(slen):
            unplayed[stock[i]] = True
    # kill_three: whether the three of trumps is out (played: in no hand and not in the stock), and who killed it
    three = trump * 12 + 2
    three_out = True
    if cfg[_KILL] != 0:
        for s in range(n):
            for i in range(hlen[s]):
                if hands[s, i] == three:
                    three_out = False
        for i in range(slen):
            if stock[i] == three:
                three_out = False
    killer = -1
    buf = np.empty(hmax, np.int64)
    while not over:
        if cfg[_ENDGAME] != 0 and n == 2 and slen == 0 and tlen == 0 and (nm > 0 or cand == -1):
            # two players, the stock gone: nothing is hidden; finish exactly against the models, as the expert does
            for s in range(n):
                seat_out[s] = pts[s]
            if nm < moves.shape[0]:
                moves[nm] = -1
            return float(_exact(cfg, strength, points, hands, hlen, trick, tlen, best, bseat, turn, pts, capt, lastw,
                          side, weight, greedy, mix, three_out))
        seat = turn
        hl = hlen[seat]
        hand, ll = _legal(cfg, hands, hlen, seat, three_out, buf)  # the cards it may play
        code = -1
        xl = False
        if nm == 0 and cand != -1:
            code = cand
        else:
            # legal: the hand, and the exchange when allowed (the policy takes it whenever it is legal)
            if give >= 0 and mayx[seat] != 0:
                for i in range(hl):
                    if hands[seat, i] == give:
                        xl = True
                        break
            wild = False
            if mix[seat] > 0:
                state = _lcg(state)
                wild = (state >> 16) < mix[seat]
            if wild:
                state = _lcg(state)
                j = (state >> 16) % (ll + 1 if xl else ll)
                code = 100 + give if j == ll else hand[j]
            elif xl:
                code = 100 + give
            if code == -1:
                if ll == 1:
                    code = hand[0]
                elif greedy[seat] != 0:
                    code = _greedy(hand, ll, trick, tlen, best, trump, strength, points)
                else:
                    sd = seat % sides
                    pw = tlen > 0 and bseat % sides == sd
                    if cfg[_LEAST] != 0:
                        code = _choose_least(hand, ll, trick, tlen, best, trump, strength, points, pw)
                    else:
                        oa = False
                        for i in range(1, n - tlen):
                            if ((seat + i) % n) % sides != sd:
                                oa = True
                                break
                        inhand = np.zeros(48, np.bool_)  # its whole hand, the prisoner ace too: none of it is out
                        for i in range(hl):
                            inhand[hands[seat, i]] = True
                        tout = 0
                        for s4 in range(4):
                            top[s4] = 0
                        for c in range(48):
                            if unplayed[c]:
                                if c // 12 == trump:
                                    tout += 1
                                if not inhand[c] and strength[c] > top[c // 12]:
                                    top[c // 12] = strength[c]
                        for i in range(hl):
                            if hands[seat, i] // 12 == trump:
                                tout -= 1
                        if cfg[_LEARNED] != 0:
                            code = _learned(hand, ll, trick, tlen, best, trump, strength, points, pw, oa, tout, top,
                                            slen, lw)
                        else:
                            code = _choose(hand, ll, trick, tlen, best, trump, strength, points, pw, oa, tout, top)
        if stop != 0 and (nm > 0 or cand == -1) and seat % sides == side:
            for i in range(ll):
                opts[2 + i] = hand[i]
            m = ll
            if xl:
                opts[2 + m] = 100 + give
                m += 1
            if m > 1:
                opts[0] = m
                opts[1] = code
                _encode(out_row, n, hmax, smax, hands, hlen, stock, slen, trick, tlen, turn, best, bseat, give, over,
                        lastw, pts, mayx, capt)
                return 0.0
        if nm < moves.shape[0]:
            moves[nm] = code
        nm += 1
        if code >= 100:
            # the trump exchange: the given trump goes under the stock, the face-up card to the hand
            g = code - 100
            j = 0
            for i in range(hl):
                if hands[seat, i] != g:
                    hands[seat, j] = hands[seat, i]
                    j += 1
            hands[seat, hl - 1] = stock[0]
            stock[0] = g
            give = -1
            if slen > 0 and cfg[_TURNED] != 0 and slen > give_until and cfg[_CHAIN] != 0:
                give = xtable[g]
        else:
            c = code
            unplayed[c] = False
            three_out = three_out or c == three
            tlen, best, bseat, turn, lastw = _play_card(cfg, strength, points, hands, hlen, trick, tlen, best, bseat,
                                                        seat, pts, capt, lastw, c)
            if tlen == 0:
                killer = _killer(cfg, trick, seat)
                if killer >= 0:  # the ace of trumps took the three: the hand ends at once, nobody draws
                    break
            if tlen == 0:  # the trick is done: its winner (now to lead) may exchange, and the stock is drawn
                winner = turn
                mayx[winner] = 1
                if slen > 0:
                    for i in range(n):
                        s = (winner + i) % n
                        slen -= 1
                        hands[s, hlen[s]] = stock[slen]
                        hlen[s] += 1
                    if slen <= give_until:
                        give = -1
                elif hlen[winner] == 0:
                    over = 1
        if nm == 1 and cand != -1:
            # the candidate is applied: now the policy counts what has not been played
            for s in range(n):
                for i in range(hlen[s]):
                    unplayed[hands[s, i]] = True
            for i in range(slen):
                unplayed[stock[i]] = True
    if nm < moves.shape[0]:
        moves[nm] = -1
    for s in range(n):
        seat_out[s] = pts[s]
    return float(_score(cfg, pts, capt, lastw, side, weight, killer))


@_njit
def _encode(out: Any, n: int, hmax: int, smax: int, hands: Any, hlen: Any, stock: Any, slen: int, trick: Any,
            tlen: int, turn: int, best: int, bseat: int, give: int, over: int, lastw: int, pts: Any, mayx: Any,
            capt: Any) -> None:
    """Write a playout's position to ``out`` in the layout of :meth:`Kernel.encode` (the leader as the turn:
    nothing reads it)."""
    p = 0
    for s in range(n):
        for i in range(hmax):
            out[p] = hands[s, i] if i < hlen[s] else -1
            p += 1
    for s in range(n):
        out[p] = hlen[s]
        p += 1
    for i in range(smax):
        out[p] = stock[i] if i < slen else -1
        p += 1
    out[p] = slen
    p += 1
    for i in range(n):
        out[p] = trick[i] if i < tlen else -1
        p += 1
    out[p] = tlen
    out[p + 1] = turn
    out[p + 2] = turn
    out[p + 3] = best
    out[p + 4] = bseat
    out[p + 5] = give
    out[p + 6] = over
    out[p + 7] = lastw
    p += 8
    for s in range(n):
        out[p] = pts[s]
        p += 1
    for s in range(n):
        out[p] = mayx[s]
        p += 1
    for i in range(48):
        out[p] = capt[i]
        p += 1


@_njit
def _nested(cfg: Any, strength: Any, points: Any, xtable: Any, row: Any, cand: int, side: int, weight: float,
            seat_out: Any, moves: Any, greedy: Any, mix: Any, seed: int, lw: Any, nest: int, work: Any, inner: Any,
            opts: Any, scratch: Any) -> float:
    """Two players: play ``cand`` (``NONE``: nothing) and on by the policy up to ``side``'s next choice, make that
    choice by ``nest`` worlds redrawn from what ``side`` sees there (the other hand and the stock shuffled, a card
    the other seat is known to hold from an exchange too; the turned card stays), every legal move played out in
    each by the policy (the policy's own move kept unless another is worth more), then finish this world from
    the move chosen (written to ``opts[1]``). The choice depends on the hidden cards as a set, never on where
    this world put them."""
    opts[0] = 0
    v = _playout_one(cfg, strength, points, xtable, row, cand, side, weight, seat_out, moves, greedy, mix, seed,
                     lw, 1, work, opts)
    m = opts[0]
    if m == 0:
        return float(v)
    n = cfg[_N]
    hmax = cfg[_H]
    smax = cfg[_S]
    other = 1 - side
    base = n * hmax + n  # the stock's first slot
    slen = work[base + smax]
    first = 1 if cfg[_TURNED] != 0 else 0
    olen = work[n * hmax + other]
    size = olen + max(0, slen - first)
    pos = np.empty(size, np.int64)
    j = 0
    for i in range(olen):
        pos[j] = other * hmax + i
        j += 1
    for i in range(first, slen):
        pos[j] = base + i
        j += 1
    real = work.copy()
    for i in range(1, size):  # the hidden cards in order (insertion sort): the redraw depends on the set alone
        a = work[pos[i]]
        j = i - 1
        while j >= 0 and work[pos[j]] > a:
            work[pos[j + 1]] = work[pos[j]]
            j -= 1
        work[pos[j + 1]] = a
    codes = opts[2:2 + m].copy()
    pol = opts[1]
    sums = np.zeros(m, np.float64)
    state = seed & 0x7FFFFFFF
    for _k in range(nest):
        for i in range(work.shape[0]):
            inner[i] = work[i]
        for i in range(size - 1, 0, -1):  # Fisher-Yates over the hidden places
            state = _lcg(state)
            r = (state >> 16) % (i + 1)
            a = inner[pos[i]]
            inner[pos[i]] = inner[pos[r]]
            inner[pos[r]] = a
        state = _lcg(state)
        for b in range(m):
            sums[b] += _playout_one(cfg, strength, points, xtable, inner, codes[b], side, weight, scratch, moves,
                                    greedy, mix, state, lw, 0, inner, opts)
    pick = pol
    top = -1e300
    for b in range(m):
        if codes[b] == pol:
            top = sums[b]
    for b in range(m):
        if sums[b] > top:
            top = sums[b]
            pick = codes[b]
    opts[1] = pick
    return float(_playout_one(cfg, strength, points, xtable, real, pick, side, weight, seat_out, moves, greedy, mix,
                        _lcg(state), lw, 0, work, opts))


@_njit
def _batch(cfg: Any, strength: Any, points: Any, xtable: Any, rows: Any, cands: Any, sides_of: Any,
           weight: float, values: Any, seat_points: Any, greedy: Any, mix: Any, seeds: Any, lw: Any,
           nest: int) -> None:
    """Every candidate in every world: ``values[w, k]`` and the final ``seat_points[w, k]`` (world ``w``'s random
    moves from ``seeds[w]``, the same for every candidate: their luck cancels in the comparison). ``nest``: two
    players, the side's next choice made by :func:`_nested` over that many redrawn worlds (0: by the policy)."""
    moves = np.empty(0, np.int64)
    width = rows.shape[1]
    work = np.empty(width, np.int64)
    inner = np.empty(width, np.int64)
    opts = np.zeros(cfg[_H] + 3, np.int64)
    scratch = np.empty(cfg[_N], np.int64)
    for w in range(rows.shape[0]):
        for k in range(cands.shape[0]):
            side = sides_of[w]
            if nest > 0 and cfg[_N] == 2 and greedy[1 - side] == 0:
                values[w, k] = _nested(cfg, strength, points, xtable, rows[w], cands[k], side, weight,
                                       seat_points[w, k], moves, greedy, mix, seeds[w], lw, nest, work, inner, opts,
                                       scratch)
            else:
                values[w, k] = _playout_one(cfg, strength, points, xtable, rows[w], cands[k], side, weight,
                                            seat_points[w, k], moves, greedy, mix, seeds[w], lw, 0, work, opts)


# ------------------------------------------------------------------------------------- exact search with a stock


@_njit
def _offsets(cfg: Any) -> tuple[int, int, int, int, int, int, int, int]:
    """Where the parts of a row of :meth:`Kernel.encode` start: the hand sizes, the stock, its size, the trick,
    its size (then the leader, turn, best card and seat, exchangeable trump, over, last winner), the seat
    points, the may-exchange flags and the captured cards."""
    n = cfg[_N]
    hl0 = n * cfg[_H]
    st = hl0 + n
    sl = st + cfg[_S]
    tr = sl + 1
    tl = tr + n
    pt = tl + 8
    return hl0, st, sl, tr, tl, pt, pt + n, pt + 2 * n


@_njit
def _row_apply(cfg: Any, strength: Any, points: Any, xtable: Any, row: Any, code: int) -> int:
    """Apply a card play or an exchange (``code``) to the position encoded in ``row`` (the layout of
    :meth:`Kernel.encode`), in place, as :func:`_playout_one` plays it: the trick, its points, the draws from the
    stock, the exchange's rights and the end of the hand. Returns the seat that killed the three (``kill_three``:
    the hand ends there) or -1."""
    n = cfg[_N]
    hmax = cfg[_H]
    hl0, st, sl, tr, tl, pt, mx, cp = _offsets(cfg)
    seat = row[tl + 2]
    hl = row[hl0 + seat]
    base = seat * hmax
    if code >= 100:  # the trump exchange: the given trump goes under the stock, the face-up card to the hand
        g = code - 100
        j = 0
        for i in range(hl):
            if row[base + i] != g:
                row[base + j] = row[base + i]
                j += 1
        row[base + hl - 1] = row[st]
        row[st] = g
        give = -1
        slen = row[sl]
        if slen > 0 and cfg[_TURNED] != 0 and slen > cfg[_GIVE_UNTIL] and cfg[_CHAIN] != 0:
            give = xtable[g]
        row[tl + 5] = give
        return -1
    c = code
    j = 0
    for i in range(hl):
        if row[base + i] != c:
            row[base + j] = row[base + i]
            j += 1
    row[base + hl - 1] = -1
    row[hl0 + seat] = hl - 1
    tlen = row[tl]
    best = row[tl + 3]
    bseat = row[tl + 4]
    if tlen == 0 or _beats(c, best, cfg[_TRUMP], strength):
        best = c
        bseat = seat
    row[tr + tlen] = c
    tlen += 1
    row[tl + 3] = best
    row[tl + 4] = bseat
    if tlen < n:
        row[tl] = tlen
        row[tl + 2] = (seat + 1) % n
        return -1
    sides = cfg[_SIDES]
    winner = bseat
    tp = 0
    for i in range(n):
        tp += points[row[tr + i]]
        row[cp + row[tr + i]] = winner % sides
    row[pt + winner] += tp
    row[tl] = 0
    row[tl + 1] = winner
    row[tl + 2] = winner
    row[tl + 7] = winner
    killer = _killer(cfg, row[tr:tr + n], seat)
    if killer >= 0:
        return int(killer)
    row[mx + winner] = 1
    slen = row[sl]
    if slen > 0:
        for i in range(n):
            s = (winner + i) % n
            slen -= 1
            row[s * hmax + row[hl0 + s]] = row[st + slen]
            row[st + slen] = -1
            row[hl0 + s] += 1
        row[sl] = slen
        if slen <= cfg[_GIVE_UNTIL]:
            row[tl + 5] = -1
    elif row[hl0 + winner] == 0:
        row[tl + 6] = 1
    return -1


@_njit
def _row_score(cfg: Any, row: Any, side: int, weight: float, killer: int) -> float:
    n = cfg[_N]
    pt = n * cfg[_H] + n + cfg[_S] + 1 + n + 8
    return float(_score(cfg, row[pt:pt + n], row[pt + 2 * n:pt + 2 * n + 48], row[pt - 1], side, weight, killer))


@_njit
def _row_moves(cfg: Any, strength: Any, points: Any, row: Any, three_out: bool, out: Any, keys: Any) -> int:
    """The legal moves of the seat to act, the likeliest best first (alpha-beta cuts sooner): the exchange; to
    lead, the strongest card first; to answer, the cards that take the trick, cheapest first, then the others,
    fewest points first (trumps last in each). Their count."""
    n = cfg[_N]
    hmax = cfg[_H]
    hl0 = n * hmax
    tl = hl0 + n + cfg[_S] + 1 + n
    seat = row[tl + 2]
    hl = row[hl0 + seat]
    base = seat * hmax
    count = 0
    give = row[tl + 5]
    if give >= 0 and row[tl + 8 + n + seat] != 0:
        for i in range(hl):
            if row[base + i] == give:
                out[0] = 100 + give
                count = 1
                break
    ace = cfg[_TRUMP] * 12
    prisoner = cfg[_KILL] != 0 and not three_out and hl > 1
    first = count
    tlen = row[tl]
    best = row[tl + 3]
    trump = cfg[_TRUMP]
    for i in range(hl):
        c = row[base + i]
        if prisoner and c == ace:
            continue
        if tlen == 0:
            key = -strength[c]
        else:
            key = strength[c] + (100 if c // 12 == trump else 0)
            if not _beats(c, best, trump, strength):
                key += 1000 + 50 * points[c]
        k = count
        while k > first and keys[k - 1] > key:
            out[k] = out[k - 1]
            keys[k] = keys[k - 1]
            k -= 1
        out[k] = c
        keys[k] = key
        count += 1
    return count


#: Entries of the exact search's transposition table (a power of two; 4.5 MB), kept across a call's worlds.
TABLE_SIZE = 1 << 18
# the offsets of the Zobrist keys in one table of random 64-bit numbers (:func:`_zobrist`)
_ZH, _ZS, _ZT, _ZP, _ZX = 0, 2 * 48, 2 * 48 + 48 * 48, 2 * 48 + 48 * 48 + 4 * 48, 2 * 48 + 48 * 48 + 8 * 48
_ZSIZE = _ZX + 2 * 256 + 49 + 2 * 48 + 16


@_njit
def _zobrist() -> Any:
    """The random numbers of the position keys (splitmix64 from a fixed seed: the same in every process)."""
    z = np.empty(_ZSIZE, np.uint64)
    x = np.uint64(0x9E3779B97F4A7C15)
    for i in range(_ZSIZE):
        x = x + np.uint64(0x9E3779B97F4A7C15)
        y = x
        y = (y ^ (y >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        y = (y ^ (y >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        z[i] = y ^ (y >> np.uint64(31))
    return z


@_njit
def _row_key(cfg: Any, z: Any, row: Any, side: int) -> Any:
    """A 64-bit key of everything the rest of the hand depends on, two players: the hands (as sets), the stock
    in order, the trick, the turn, the points, the exchange's card and rights, and the captured cards where the
    score reads them."""
    n = cfg[_N]
    hmax = cfg[_H]
    hl0, st, sl, tr, tl, pt, _mx, _cp = _offsets(cfg)
    h = z[_ZX + 2 * 256 + 49 + 2 * 48 + side]
    for s in range(2):
        for i in range(row[hl0 + s]):
            h ^= z[_ZH + s * 48 + row[s * hmax + i]]
    for i in range(row[sl]):
        h ^= z[_ZS + (i % 48) * 48 + row[st + i]]
    for i in range(row[tl]):
        h ^= z[_ZT + i * 48 + row[tr + i]]
    h ^= z[_ZX + 2 * 256 + 49 + 2 * 48 + 2 + row[tl + 2]]
    for s in range(2):
        h ^= z[_ZX + s * 256 + (row[pt + s] & 255)]
        if row[pt + n + s] != 0:
            h ^= z[_ZX + 2 * 256 + 49 + 2 * 48 + 4 + s]
    h ^= z[_ZX + 2 * 256 + 1 + row[tl + 5]]
    if cfg[_PAIR] != 0 or cfg[_MOST_CARDS] != 0:
        cp = pt + 2 * n
        for c in range(48):
            if row[cp + c] >= 0:
                h ^= z[_ZX + 2 * 256 + 49 + row[cp + c] * 48 + c]
    return h


@_njit
def _row_search(cfg: Any, strength: Any, points: Any, xtable: Any, rows: Any, moves: Any, side: int, weight: float,
                three_out: bool, nodes: Any, z: Any, tkeys: Any, tvals: Any, tflags: Any) -> float:
    """:func:`brisca.agents.exact.solve` on the position ``rows[0]`` with its stock in a known order: alpha-beta,
    ``side`` to maximise, over the cards and the exchange, with a row and the moves a ply in ``rows`` and
    ``moves`` (scratch), and with two players a transposition table (``tkeys``, ``tvals``, ``tflags``: 1 exact,
    2 at least, 3 at most; keys by :func:`_row_key`). Iterative: numba's cache cannot link a function that calls
    itself."""
    n = cfg[_N]
    tl = n * cfg[_H] + n + cfg[_S] + 1 + n
    sides = cfg[_SIDES]
    three = cfg[_TRUMP] * 12 + 2
    plies = rows.shape[0]
    count = np.zeros(plies, np.int64)
    nxt = np.zeros(plies, np.int64)
    best = np.zeros(plies, np.float64)
    alpha = np.zeros(plies, np.float64)
    beta = np.zeros(plies, np.float64)
    alpha0 = np.zeros(plies, np.float64)
    beta0 = np.zeros(plies, np.float64)
    keys = np.zeros(plies, np.uint64)
    mine = np.zeros(plies, np.bool_)
    out = np.zeros(plies, np.bool_)
    order = np.empty(moves.shape[1], np.int64)  # (the move ordering's keys, scratch)
    table = n == 2 and tkeys.shape[0] > 0
    mask = np.uint64(tkeys.shape[0] - 1) if table else np.uint64(0)
    if rows[0, tl + 6] != 0:
        return float(_row_score(cfg, rows[0], side, weight, -1))
    d = 0
    alpha[0] = -np.inf
    beta[0] = np.inf
    alpha0[0] = -np.inf
    beta0[0] = np.inf
    out[0] = three_out
    mine[0] = rows[0, tl + 2] % sides == side
    best[0] = -np.inf if mine[0] else np.inf
    count[0] = _row_moves(cfg, strength, points, rows[0], three_out, moves[0], order)
    if table:
        keys[0] = _row_key(cfg, z, rows[0], side)
    nodes[0] += 1
    while True:
        if nxt[d] < count[d] and alpha[d] < beta[d]:
            code = moves[d, nxt[d]]
            nxt[d] += 1
            child = rows[d + 1]
            for i in range(child.shape[0]):
                child[i] = rows[d, i]
            killer = _row_apply(cfg, strength, points, xtable, child, code)
            hit = False
            if killer >= 0 or child[tl + 6] != 0:
                v = _row_score(cfg, child, side, weight, killer)
                hit = True
            elif table:
                key = _row_key(cfg, z, child, side)
                slot = int(key & mask)
                if tkeys[slot] == key:
                    f = tflags[slot]
                    tv = tvals[slot]
                    if f == 1 or (f == 2 and tv >= beta[d]) or (f == 3 and tv <= alpha[d]):
                        v = tv
                        hit = True
                keys[d + 1] = key
            if not hit:  # one ply down
                d += 1
                nodes[0] += 1
                alpha[d] = alpha[d - 1]
                beta[d] = beta[d - 1]
                alpha0[d] = alpha[d]
                beta0[d] = beta[d]
                out[d] = out[d - 1] or code == three
                mine[d] = child[tl + 2] % sides == side
                best[d] = -np.inf if mine[d] else np.inf
                nxt[d] = 0
                count[d] = _row_moves(cfg, strength, points, child, out[d], moves[d], order)
                continue
        else:  # this position is done: its value goes to its parent (and to the table)
            v = best[d]
            if table:
                slot = int(keys[d] & mask)
                tkeys[slot] = keys[d]
                tvals[slot] = v
                tflags[slot] = 3 if v <= alpha0[d] else (2 if v >= beta0[d] else 1)
            if d == 0:
                return float(v)
            d -= 1
        if mine[d]:
            if v > best[d]:
                best[d] = v
            if v > alpha[d]:
                alpha[d] = v
        else:
            if v < best[d]:
                best[d] = v
            if v < beta[d]:
                beta[d] = v


@_njit
def _solve_batch(cfg: Any, strength: Any, points: Any, xtable: Any, worlds: Any, cands: Any, sides_of: Any,
                 weight: float, values: Any, nodes: Any, tkeys: Any, tvals: Any, tflags: Any) -> None:
    """``values[w, k]``: the exact value for ``sides_of[w]`` of candidate ``k`` in world ``w`` (its stock in the
    order the row gives), both sides playing their best to the end of the hand; with two players, through the
    transposition table ``tkeys``, ``tvals``, ``tflags`` (empty: none), which may carry over from an earlier call
    on the same rules, trump and side."""
    n = cfg[_N]
    hmax = cfg[_H]
    width = worlds.shape[1]
    depth = n * hmax + cfg[_S] + 8
    rows = np.empty((depth + 2, width), np.int64)
    moves = np.empty((depth + 2, hmax + 1), np.int64)
    z = _zobrist()
    three = cfg[_TRUMP] * 12 + 2
    hl0 = n * hmax
    st = hl0 + n
    for w in range(worlds.shape[0]):
        three_out = True  # the three of trumps is out once it is in no hand and not in the stock
        for s in range(n):
            for i in range(worlds[w, hl0 + s]):
                if worlds[w, s * hmax + i] == three:
                    three_out = False
        for i in range(worlds[w, st + cfg[_S]]):
            if worlds[w, st + i] == three:
                three_out = False
        for k in range(cands.shape[0]):
            for i in range(width):
                rows[0, i] = worlds[w, i]
            killer = _row_apply(cfg, strength, points, xtable, rows[0], cands[k])
            if killer >= 0:
                values[w, k] = _row_score(cfg, rows[0], sides_of[w], weight, killer)
            else:
                values[w, k] = _row_search(cfg, strength, points, xtable, rows, moves, sides_of[w], weight,
                                           three_out or cands[k] == three, nodes, z, tkeys, tvals, tflags)


# ---------------------------------------------------------------------------------------------- Python side


def action_code(action: Action) -> int:
    """The kernel's code for a card play or an exchange."""
    if action.__class__ is Play:
        return int(action.card.index)
    if type(action) is Exchange:
        return EXCHANGE + action.card.index
    raise ValueError(f"the kernel plays cards and exchanges, not {action}")


def code_action(code: int) -> Action:
    """The action a kernel code stands for."""
    return EXCHANGES[code - EXCHANGE] if code >= EXCHANGE else PLAYS[code]


class Kernel:
    """The kernel set up for one rules and player count: tables, and the encoding of a game's state."""

    def __init__(self, rules: Rules, players: int) -> None:
        if not AVAILABLE:
            raise RuntimeError(MISSING)
        if not covers(rules):
            raise ValueError(f"the kernel does not cover these rules ({rules.variant})")
        self.rules = rules
        self.players = n = players
        layout = rules.layout(n)
        self.sides = layout.sides
        self.hmax = rules.hand_size + 1
        self.smax = max(1, len(layout.cards) - rules.hand_size * n)
        self.strength = np.array(rules.strength_table, np.int64)
        self.points = np.array(rules.point_table, np.int64)
        self.xtable = np.array([-1 if c is None else c.index for c in rules.exchange_table], np.int64)
        self._track = rules.pair_bonus or rules.tie == "most_cards"
        self._cfg_base = [n, self.sides, self.hmax, self.smax, 0,
                          n if rules.trump_exchange == "before_penultimate" else 0,
                          int(rules.exchange_chain), int(not rules.trump_rotation), rules.last_trick_bonus,
                          int(rules.pair_bonus), int(rules.hand_winner == "least"), int(rules.tie == "most_cards"), 0,
                          int(rules.kill_three), 0]
        self._no_capt = [-1] * 48
        self.learned_weights = np.array(WEIGHTS, np.int64)

    def cfg(self, game: Game, learned: bool = False) -> Any:
        cfg = list(self._cfg_base)
        cfg[_TRUMP] = int(game.trump)
        cfg[_LEARNED] = int(learned and applies(game.rules, game.players))
        return np.array(cfg, np.int64)

    def encode(self, game: Game) -> list[int]:
        """One row of ints: the hands (in order), their sizes, the stock (bottom first, as the engine keeps it),
        the trick, leader, turn, best card and seat, the exchangeable trump, over, the last trick's winner, the
        seat points, the may-exchange flags and, where the rules need it, the side that took each card."""
        hmax, smax = self.hmax, self.smax
        row: list[int] = []
        hands = game._hands
        for h in hands:
            row.extend([a.card.index for a in h])
            row.extend([-1] * (hmax - len(h)))
        row.extend([len(h) for h in hands])
        stock = game._stock
        row.extend([a.card.index for a in stock])
        row.extend([-1] * (smax - len(stock)))
        row.append(len(stock))
        trick = game._trick
        row.extend([c.index for c in trick])
        row.extend([-1] * (self.players - len(trick)))
        tricks = game._tricks
        give = game._give
        row += [len(trick), game._leader, game._turn, game._best.index, game._best_seat,
                -1 if give is None else give.card.index, int(game._over), tricks[-1][2] if tricks else -1]
        row.extend(game._points)
        row.extend([int(x) for x in game._may_exchange])
        if self._track:
            capt = [-1] * 48
            sides = self.sides
            for _leader, cards, winner, _pts in tricks:
                for c in cards:
                    capt[c.index] = winner % sides
            row.extend(capt)
        else:
            row.extend(self._no_capt)
        return row

    def evaluate(self, worlds: Sequence[Game], candidates: Sequence[Action], sides: Sequence[int],
                 weight: float, greedy: Sequence[int] = (), mix: Sequence[int] = (),
                 seeds: Sequence[int] = (), endgame: bool = False, learned: bool = False,
                 nest: int = 0) -> tuple[Any, Any]:
        """For each world and candidate: the value of playing it and finishing by the rollout policy (what
        ``playout`` returns on a clone with the candidate applied, ``greedy`` seats playing the greedy rule,
        ``mix``, the world's seed, ``endgame`` and ``learned`` as there), and the final seat points (with
        ``endgame``, those when the exact endgame begins). ``nest``: two players, the side's next choice after
        the candidate made by a search over that many worlds redrawn from what it sees (:func:`_nested`), where
        the opponent is not played by the greedy rule (``expert[nest=K]``, off by default: it measured no gain;
        examples/next_choice.py, docs/strength.md)."""
        rows = np.array([self.encode(g) for g in worlds], np.int64)
        cands = np.array([action_code(a) for a in candidates], np.int64)
        values = np.empty((len(worlds), len(candidates)), np.float64)
        seat_points = np.empty((len(worlds), len(candidates), self.players), np.int64)
        cfg = self.cfg(worlds[0], learned)
        cfg[_ENDGAME] = int(endgame)
        _batch(cfg, self.strength, self.points, self.xtable, rows, cands,
               np.array(sides, np.int64), float(weight), values, seat_points, self._flags(greedy),
               self._mix(mix), np.array(list(seeds) or [0] * len(worlds), np.int64), self.learned_weights, nest)
        return values, seat_points

    def finish(self, games: Sequence[Game], sides: Sequence[int], weight: float, greedy: Sequence[int] = (),
               mix: Sequence[int] = (), seeds: Sequence[int] = (), learned: bool = False,
               nest: int = 0) -> list[float]:
        """Each game finished as it stands by the rollout policy: its value for its side (what ``playout``
        returns on it), in one call. ``nest``: as in :meth:`evaluate`, the side's first choice searched."""
        rows = np.array([self.encode(g) for g in games], np.int64)
        values = np.empty((len(games), 1), np.float64)
        seat_points = np.empty((len(games), 1, self.players), np.int64)
        _batch(self.cfg(games[0], learned), self.strength, self.points, self.xtable, rows, np.array([NONE], np.int64),
               np.array(sides, np.int64), float(weight), values, seat_points, self._flags(greedy), self._mix(mix),
               np.array(list(seeds) or [0] * len(games), np.int64), self.learned_weights, nest)
        return [float(v) for v in values[:, 0]]

    def solve(self, rows: Any, candidates: Sequence[Action], sides: Sequence[int], game: Game,
              weight: float = 1 / 600, table: bool | tuple[Any, Any, Any] = True) -> tuple[Any, int]:
        """For each world (a row of :meth:`encode`, its stock in a known order) and candidate: the exact value
        (:func:`brisca.agents.exact.solve` after the candidate) when both sides play their best to the end; and the
        positions searched. ``game`` gives the trump (every world shares it). ``table``: with two players, search
        through a transposition table (the same values, fewer positions): a new one (``True``), none (``False``),
        or one of :meth:`table` kept across calls for the same game, side and weight."""
        rows = np.ascontiguousarray(rows, np.int64)
        cands = np.array([action_code(a) for a in candidates], np.int64)
        values = np.empty((rows.shape[0], len(candidates)), np.float64)
        nodes = np.zeros(1, np.int64)
        if table is True:
            table = self.table(rows)
        elif table is False:
            table = (np.zeros(0, np.uint64), np.zeros(0, np.float64), np.zeros(0, np.int8))
        _solve_batch(self.cfg(game), self.strength, self.points, self.xtable, rows, cands,
                     np.array(sides, np.int64), float(weight), values, nodes, *table)
        return values, int(nodes[0])

    def table(self, rows: Any) -> tuple[Any, Any, Any]:
        """An empty transposition table for :meth:`solve` sized for these worlds."""
        size = self._table(np.asarray(rows, np.int64))
        return np.zeros(size, np.uint64), np.zeros(size, np.float64), np.zeros(size, np.int8)

    def _table(self, rows: Any) -> int:
        """Entries of the transposition table for these worlds: fewer where few cards are left (its zeroing is
        then most of the time), :data:`TABLE_SIZE` from 14 cards in hands and stock."""
        if not len(rows):
            return 1
        n, hmax = self.players, self.hmax
        cards = int(rows[0, n * hmax:n * hmax + n].sum() + rows[0, n * hmax + n + self.smax])
        return TABLE_SIZE >> max(0, min(8, 2 * (14 - cards)))

    def _flags(self, greedy: Sequence[int]) -> Any:
        flags = np.zeros(self.players, np.int64)
        for s in greedy:
            flags[s] = 1
        return flags

    def _mix(self, mix: Sequence[int]) -> Any:
        return np.array(list(mix) or [0] * self.players, np.int64)

    def playout(self, game: Game, side: int, weight: float = 1 / 600, greedy: Sequence[int] = (),
                mix: Sequence[int] = (), seed: int = 0, learned: bool = False
                ) -> tuple[float, tuple[int, ...], list[Action]]:
        """The debug entry point: finish ``game`` as it stands; the value, the final seat points and the moves."""
        row = np.array(self.encode(game), np.int64)
        seat_points = np.empty(self.players, np.int64)
        moves = np.full(200, -1, np.int64)
        value = _playout_one(self.cfg(game, learned), self.strength, self.points, self.xtable, row, NONE, side,
                             float(weight), seat_points, moves, self._flags(greedy), self._mix(mix), seed,
                             self.learned_weights, 0, row, moves)
        out = []
        for code in moves:
            if code < 0:
                break
            out.append(code_action(int(code)))
        return float(value), tuple(int(x) for x in seat_points), out


#: Reads worlds for :func:`stock_choice`'s ``reader``: the log-likelihood of each world (a complete game the view
#: allows, past included) given the other seats' choices seen (:meth:`brisca.agents.net.Net.likelihoods`).
Reader = Callable[[View, Sequence[Game]], Any]


def stock_choice(view: View, hidden: int = 3, worlds: int = 200, seed: int = 0,
                 prefer: Action | None = None, deadline: float | None = None, reader: Reader | None = None,
                 pasts: int = 6, clock: Callable[[], float] = time.perf_counter) -> Action | None:
    """Two players, at most ``hidden`` hidden cards left in the stock: the move worth most on average over the
    worlds the view allows (which unseen cards the opponent holds, the order of the rest in the stock), each
    solved exactly to the end by the compiled search (:meth:`Kernel.solve`); every world
    when they are at most ``worlds``, else that many drawn (from ``seed``). Among moves worth the same
    it keeps ``prefer``. Past ``deadline`` (a value of ``clock``) it stops at the next 16 worlds solved
    and weighs those. ``None`` elsewhere, and where the kernel does not cover the game.

    Without a ``reader`` every hand the opponent may hold counts the same. With one, each hand counts by how well
    it explains the opponent's choices: the mean of ``exp(reader(...))`` over ``pasts`` worlds with that hand
    (when it received each card is drawn too: the choices were made from past hands), the drawn worlds taken
    from those weights.

    Each world is solved as if both sides knew it (the stock's order included): near the end of the stock that
    costs little, and the average over worlds is what :func:`~brisca.agents.exact.last_draw_choice` computes
    with one hidden card."""
    seat = view.seat
    left = stock_hidden(view)
    if seat is None or left is None or left > hidden or len(view.legal_actions) < 2:
        return None
    kernel = kernel_for(view.rules, 2)
    if kernel is None:
        return None
    other = 1 - seat
    unseen = list(view.unseen_cards())
    slots = len(unseen) - left
    try:
        codes = [action_code(a) for a in view.legal_actions]
    except ValueError:
        return None
    try:
        sampler = WorldSampler(view)
    except WorldError:
        return None
    rng = random.Random(seed)
    orders = math.factorial(left)
    hands = list(itertools.combinations(unseen, slots))
    drawn: dict[tuple[Card, ...], Game] = {}  # a world for each hand (its future: the hand and the stock's cards)
    chances: dict[tuple[Card, ...], float] = {}
    if reader is not None:
        drawn, chances = _read_hands(view, sampler, hands, rng, reader, pasts)
        if not chances:
            return None
    plan: list[tuple[tuple[Card, ...], list[tuple[int, ...]], float]]
    if len(hands) * orders <= worlds:
        every = list(itertools.permutations(range(left)))
        plan = [(h, every, chances.get(h, 0.0) if reader is not None else 1.0) for h in hands]
    else:  # (hand, order): the hand drawn by its chance (uniform without a reader), the order as a shuffle
        picks: dict[tuple[Card, ...], list[tuple[int, ...]]] = {}
        known, weights = list(chances), list(chances.values())  # (empty without a reader)
        for _ in range(worlds):
            if reader is not None:
                h = rng.choices(known, weights)[0]
            else:
                h = tuple(sorted(rng.sample(unseen, slots), key=unseen.index))
            order = list(range(left))
            rng.shuffle(order)
            picks.setdefault(h, []).append(tuple(order))
        plan = [(h, perms, 1.0) for h, perms in picks.items()]
    rows = []
    row_weights = []
    first: Game | None = None
    base = kernel.players * kernel.hmax + kernel.players  # the stock's first place in a row
    for held, perms, chance in plan:
        if chance <= 0.0:
            continue
        world = drawn.get(held)
        if world is None:
            try:
                world = sampler.draw(rng, 2, {other: list(held)})
            except WorldError:
                continue  # the view rules this hand out
        first = first or world
        row = kernel.encode(world)
        rest = {c.index for c in unseen if c not in held}
        places = [i for i in range(base, base + len(world._stock)) if row[i] in rest]
        if len(places) != left:
            return None  # the stock's hidden cards are not where the kernel's encoding puts them
        cards = [row[i] for i in places]
        for perm in perms:
            for i, j in zip(places, perm, strict=True):
                row[i] = cards[j]
            rows.append(list(row))
            row_weights.append(chance)
    if first is None:
        return None
    shuffled = list(range(len(rows)))
    rng.shuffle(shuffled)  # (so that the worlds weighed by a deadline are a fair draw of them)
    worlds_rows = np.array(rows, np.int64)[shuffled]
    row_w = np.array(row_weights, np.float64)[shuffled]
    side = team_of(first, seat)
    table = kernel.table(worlds_rows)
    totals = np.zeros(len(codes), np.float64)
    for start in range(0, len(worlds_rows), 16):  # a deadline is checked every 16 worlds
        chunk = worlds_rows[start:start + 16]
        values, _nodes = kernel.solve(chunk, view.legal_actions, [side] * len(chunk), first, table=table)
        totals += (values * row_w[start:start + 16, None]).sum(axis=0)
        if deadline is not None and clock() > deadline:
            break
    top = float(totals.max())
    tie = 1e-9 * max(1.0, float(row_w.sum()))
    if prefer is not None and action_code(prefer) in codes and totals[codes.index(action_code(prefer))] >= top - tie:
        return prefer
    return view.legal_actions[int(totals.argmax())]


def endgame_worlds(view: View, count: int, seed: int = 0) -> list[Game]:
    """Up to ``count`` worlds the view allows once the stock is gone (the other seats' hands dealt from the cards
    the seat has not seen, honouring what the view shows: the cards played and shown, and a seat's voids where the
    rules oblige it to follow or beat), by :class:`~brisca.worlds.WorldSampler`; it reads the view alone, never the
    game. Every world once where they are at most ``count`` (say a partner's hand shown: two hidden hands of three
    cards are 20 worlds), else ``count`` drawn from ``seed``. Empty where the stock is not gone or the view allows
    no world."""
    if view.seat is None or view.stock_count or view.phase != "play" or count < 1:
        return []
    try:
        sampler = WorldSampler(view)
    except WorldError:
        return []
    rng = random.Random(seed)
    out: list[Game] = []
    every = _every_deal(view, count)
    if every is not None:  # few enough: each deal of the unseen cards once (those the view rules out left out)
        for deal in every:
            try:
                out.append(sampler.draw(rng, 2, deal))
            except WorldError:
                continue
        if out:
            return out
    for _ in range(count):
        try:
            out.append(sampler.draw(rng))
        except WorldError:
            break
    return out


def _every_deal(view: View, most: int) -> list[dict[int, list[Card]]] | None:
    """Every way to deal the cards the seat has not seen to the other seats' unknown places (those not shown to
    it), when they are at most ``most`` and the stock is gone; else ``None``."""
    seat = view.seat
    unseen = list(view.unseen_cards())
    slots = {s: view.hand_sizes[s] - sum(1 for k, _c in view.known if k == s)
             for s in range(view.players) if s != seat}
    if any(n < 0 for n in slots.values()) or sum(slots.values()) != len(unseen):
        return None
    total, left = 1, len(unseen)
    for n in slots.values():
        total *= math.comb(left, n)
        left -= n
    if total > most:
        return None
    deals: list[dict[int, list[Card]]] = [{}]
    for s, n in slots.items():
        if not n:
            continue
        grown = []
        for deal in deals:
            used = {c for cards in deal.values() for c in cards}
            rest = [c for c in unseen if c not in used]
            for held in itertools.combinations(rest, n):
                grown.append({**deal, s: list(held)})
        deals = grown
    return deals


def worlds_choice(view: View, worlds: int = 200, seed: int = 0, prefer: Action | None = None,
                  tricks: int = 3, deeper: int = 0) -> Action | None:
    """Any number of players, the stock gone (the other seats' hands the only hidden cards): the move worth most on
    average over ``worlds`` worlds drawn from the view (:func:`endgame_worlds`), each solved exactly to the end of
    the hand by the compiled search (:meth:`Kernel.solve`: the seat's side maximising its result, partners with it,
    every other seat minimising it). Among moves worth the same (within a ten-thousandth of a point of margin) it
    keeps ``prefer``. Where the kernel does not play the rules (every card dealt, duties to follow, vales, contracts)
    the lockstep batch solves the worlds instead, once the seat holds at most ``tricks`` cards (``deeper`` worlds
    a card before: :func:`ruled_worlds_choice`). ``None`` where the stock is not gone, the seat has one move, or
    neither covers the game (numba missing): the caller plays its own move then.

    Each world is solved as if every seat knew it, and with three seats or more in their own sides the others are
    taken as allied against the seat (the paranoid reading): both err on the safe side."""
    seat = view.seat
    if seat is None or view.stock_count or view.phase != "play" or len(view.legal_actions) < 2:
        return None
    kernel = None if view.rules.dealt_out else kernel_for(view.rules, view.players)
    if kernel is None:
        return ruled_worlds_choice(view, worlds, seed, prefer, tricks, deeper)
    try:
        codes = [action_code(a) for a in view.legal_actions]
    except ValueError:
        return None
    drawn = endgame_worlds(view, worlds, seed)
    if not drawn:
        return None
    side = team_of(drawn[0], seat)
    rows, counts = np.unique(np.array([kernel.encode(w) for w in drawn], np.int64), axis=0, return_counts=True)
    values, _nodes = kernel.solve(rows, view.legal_actions, [side] * len(rows), drawn[0], table=False)
    totals = (values * counts[:, None]).sum(axis=0) / len(drawn)  # (each world drawn twice or more solved once)
    top = float(totals.max())
    if prefer is not None:
        try:
            code = action_code(prefer)
        except ValueError:
            code = NONE
        if code in codes and totals[codes.index(code)] >= top - 1e-4 / 600:
            return prefer
    return view.legal_actions[int(totals.argmax())]


#: The lockstep batches that solve worlds by a game's rules, one a configuration (:func:`ruled_worlds_choice`).
_SOLVERS: dict[tuple[Rules, int], Any] = {}


def ruled_worlds_choice(view: View, worlds: int = 200, seed: int = 0, prefer: Action | None = None,
                        tricks: int = 3, deeper: int = 0) -> Action | None:
    """:func:`worlds_choice` by the engine's rules themselves, for the games the kernel does not play (every card
    dealt, duties to follow and beat, vales, a contract and a called partner, capote): once the seat holds at most
    ``tricks`` cards, each world drawn from the view is loaded into a lane of the compiled lockstep batch
    (:class:`~brisca.envs.batch.Batch`, held to the engine move for move) and every move valued exactly there
    (:meth:`Batch.solve <brisca.envs.batch.Batch.solve>`: the seat's side, the contract's once it is made, maximising
    the seat's reward and every other seat minimising it). The move worth most on average, ``prefer`` among equals.
    ``deeper``: with one card more, the same over that many worlds where they are drawn as whole decks (every card
    dealt, no hidden discard: :meth:`WorldSampler.deck <brisca.worlds.WorldSampler.deck>`). ``None`` where the
    seat holds more cards, has one move, or the batch does not play the game."""
    seat = view.seat
    if seat is None or view.phase != "play" or len(view.legal_actions) < 2 or view.stock_count or not enabled():
        return None
    held = view.hand_sizes[seat]
    if held > tricks + (1 if deeper else 0):
        return None
    from brisca.envs.batch import Batch, covers  # (the batch compiles on first use)

    key = (view.rules, view.players)
    batch = _SOLVERS.get(key)
    if batch is None or batch.size < 2 * worlds:
        if not covers(view.rules, view.players):
            return None
        if len(_SOLVERS) >= 32:
            _SOLVERS.clear()
        batch = _SOLVERS[key] = Batch([view.rules], view.players, size=2 * worlds)
    codec = batch.codec.ids
    try:
        ids = [codec[a] for a in view.legal_actions]
    except KeyError:
        return None
    lanes = _load_worlds(view, batch, worlds if held <= tricks else min(worlds, deeper), seed, held <= tricks)
    if lanes is None:
        return None
    wanted = set(ids)  # (a world where another seat is asked, or other moves are legal, breaks the view)
    lanes = np.array([lane for lane in lanes if batch.turn(int(lane)) == seat
                      and set(batch.legal_ids(int(lane))) == wanted], np.int64)
    if not len(lanes):
        return None
    values, _nodes = batch.solve(lanes, seat, ids)  # (every id legal in every lane kept: no NaN)
    totals = values.mean(axis=0)
    top = float(totals.max())
    if prefer is not None and prefer in view.legal_actions and totals[view.legal_actions.index(prefer)] >= top - 1e-6:
        return prefer
    return view.legal_actions[int(totals.argmax())]


def _load_worlds(view: View, batch: Any, worlds: int, seed: int, replayed: bool = True) -> Any:
    """Up to ``worlds`` worlds the view allows, loaded into the first lanes of ``batch``; their lanes, or ``None``.
    In a dealt-out game the decks are drawn unchecked and the batch's compiled replay of the history keeps those
    that fit it (twice as many drawn); elsewhere :func:`endgame_worlds` checks each on the engine, if
    ``replayed``."""
    codec = batch.codec.ids
    rng = random.Random(seed)
    try:
        sampler = WorldSampler(view)
        first = sampler.deck(rng)
    except WorldError:
        return None
    if first is not None:
        decks = [first]
        try:
            while len(decks) < min(2 * worlds, batch.size):
                deck = sampler.deck(rng)
                assert deck is not None
                decks.append(deck)
        except WorldError:
            pass
        k = len(decks)
        history = np.array([codec[a] for _s, a in view.history] or [0], np.int64)
        ok = batch.replay_each(np.arange(k), np.array([[c.index for c in d] for d in decks], np.int64),
                               np.full(k, view.dealer, np.int64), np.broadcast_to(history, (k, len(history))),
                               np.full(k, len(view.history), np.int64))
        lanes = np.flatnonzero(ok)[:worlds]
        return lanes if len(lanes) else None
    drawn = endgame_worlds(view, worlds, seed) if replayed else []
    if not drawn or batch.size < len(drawn):
        return None
    steps = max(len(w.history) for w in drawn)
    moves = np.zeros((len(drawn), max(steps, 1)), np.int64)
    for i, w in enumerate(drawn):
        moves[i, :len(w.history)] = [codec[a] for _s, a in w.history]
    try:
        batch.replay(np.arange(len(drawn)), np.array([[c.index for c in w.deck] for w in drawn], np.int64),
                     np.array([w.dealer for w in drawn], np.int64), moves,
                     np.array([len(w.history) for w in drawn], np.int64))
    except ValueError:
        return None
    return np.arange(len(drawn))


def _read_hands(view: View, sampler: WorldSampler, hands: Sequence[tuple[Card, ...]], rng: random.Random,
                reader: Reader, pasts: int) -> tuple[dict[tuple[Card, ...], Game], dict[tuple[Card, ...], float]]:
    """For each hand the opponent may hold: a world with it, and its chance (relative) given the opponent's
    choices: the mean likelihood over ``pasts`` worlds with that hand, each with its own past (at most 360 worlds
    in all: fewer pasts a hand where the hands are many)."""
    assert view.seat is not None
    other = 1 - view.seat
    each = max(1, min(pasts, 360 // max(1, len(hands))))
    pool: list[Game] = []
    owner: list[tuple[Card, ...]] = []
    for h in hands:
        for _ in range(each):
            try:
                pool.append(sampler.draw(rng, 2, {other: list(h)}, past=True))
            except WorldError:
                break  # the view rules this hand out
            owner.append(h)
    if not pool:
        return {}, {}
    logs = np.asarray(reader(view, pool), np.float64)
    likely = np.exp(logs - logs.max())
    drawn: dict[tuple[Card, ...], Game] = {}
    sums: dict[tuple[Card, ...], list[float]] = {}
    for world, h, p in zip(pool, owner, likely, strict=True):
        drawn.setdefault(h, world)
        sums.setdefault(h, []).append(float(p))
    return drawn, {h: sum(ps) / len(ps) for h, ps in sums.items()}


_KERNELS: dict[tuple[Rules, int], Kernel] = {}


def warm() -> None:
    """Load (or compile) the kernel now, once a process, so that no move's time budget pays for it.

    Its entry points from Python (the batch of worlds, the debug playout, the exact search) are compiled together:
    numba's cache keeps ``_exact``, which calls itself, as a symbol that only the process that compiled it can
    resolve, so a process that loads the batch from the cache and then compiles the playout alone fails to link it."""
    if not enabled() or _KERNELS:
        return
    game = Game("spanish", 2, seed=0)
    k = kernel_for(find_variant("spanish"), 2)
    if k is not None:
        k.evaluate([game], game.legal_actions(), [0], 0.01, (1,))
        k.playout(game, 0)
        while len(game._stock) > 2:  # (the exact search from a position near the end)
            game.apply(game.legal_actions()[0])
        k.solve(np.array([k.encode(game)], np.int64), game.legal_actions()[:1], [0], game)


def kernel_for(rules: Rules, players: int) -> Kernel | None:
    """The kernel for these rules, or ``None`` when numba is missing or switched off, or the rules are not covered."""
    if not enabled() or not covers(rules):
        return None
    key = (rules, players)
    k = _KERNELS.get(key)
    if k is None:
        k = _KERNELS[key] = Kernel(rules, players)
    return k


__all__ = ["AVAILABLE", "MISSING", "Kernel", "action_code", "code_action", "covers", "enabled", "endgame_worlds",
           "kernel_for", "stock_choice", "warm", "worlds_choice"]
