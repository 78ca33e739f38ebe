"""The ``learned`` card choice: a linear score over a few features of each playable card.

The weights were fitted (``examples/train_rollout_policy.py``) to the expert's own judgment: at
its card decisions in 2-player games, the value of each card over sampled worlds with the
heuristic finishing the hand. Choosing the card the fit scores highest is one step of policy
iteration on the heuristic, cheap enough to play the expert's rollouts, where a stronger
policy makes every rollout's value (and so the search) sharper. It reads only what the
heuristic reads (:class:`~brisca.agents.situation.Situation`) and the stock's size.

The features and weights are whole numbers, so the score is exact, and the compiled playout
kernel (:func:`brisca.agents.kernel._learned`) computes the very same one.
"""

from __future__ import annotations

from collections.abc import Sequence

from brisca.agents.situation import Situation
from brisca.cards import Card
from brisca.game import winning_index
from brisca.rules import Rules

#: Features of a card led (the first ``LEAD``) and of a card played to a trick (the rest); see :func:`features`.
LEAD = 19
FOLLOW = 20

#: The fitted weights (a thousandth of a win, the margin's points weighed as the expert weighs them), from
#: ``examples/train_rollout_policy.py record --games 600 --seed 101`` then ``fit`` (docs/strength.md).
WEIGHTS: tuple[int, ...] = (-19, -155, 6, 2, 0, 3, -1, 8, 92, 12, -13, 8, 7, 46, -45, 11, -38, 19, -107, -3, -85,
                             -69, 42, 22, -25, 27, 2, 1, 3, -14, 0, 0, 0, 40, -2, -78, 6, -25, 9)


def applies(rules: Rules, players: int) -> bool:
    """Whether the learned choice plays these games: it was fitted to 2-player games won by the most points.

    With four players it never saw a partner's trick and scored 0.43 against greedy where the heuristic's rules
    score 0.55 (docs/strength.md), so there the rules play.
    """
    return players == 2 and rules.hand_winner != "least"


def features(card: int, trump: int, strength: Sequence[int], points: Sequence[int], hand: Sequence[int],
             trick: Sequence[int], best: int, partner_winning: bool, opponents_after: bool, trumps_out: int,
             top: Sequence[int], stock: int) -> list[int]:
    """The features of playing ``card`` (an index) from ``hand`` (the playable cards' indices): ``LEAD`` of
    them for a lead (the rest 0), then ``FOLLOW`` for a card played to ``trick`` (whose winning card is ``best``).
    ``top`` is the strongest card of each suit still out, ``stock`` the cards left to draw (the face-up one too).
    """
    s = card // 12
    tr = int(s == trump)
    p = points[card]
    st = strength[card]
    master = int(st > top[s] and (tr == 1 or trumps_out == 0))
    end = int(stock == 0)
    if not trick:
        nsuit = 0
        ntr = 0
        for h in hand:
            nsuit += h // 12 == s
            ntr += h // 12 == trump
        late = int(0 < stock <= 8)
        exposed = int(st < top[s])
        rich = int(p >= 10)
        return [p, tr, tr * p, st, tr * st, master, master * p, nsuit, end * tr, end * p, end * tr * st,
                exposed * p, tr * trumps_out, tr * ntr, late * tr, late * p, int(p == 0) * (1 - tr), tr * rich,
                (1 - tr) * rich * exposed] + [0] * FOLLOW
    bs = best // 12
    wins = int((s == bs and st > strength[best]) or (tr == 1 and bs != trump))
    table = 0
    for c in trick:
        table += points[c]
    pw = int(partner_winning)
    oa = int(opponents_after)
    return [0] * LEAD + [p, tr, wins, wins * table, wins * p, (1 - wins) * p, wins * tr, wins * tr * table,
                         wins * tr * p, st, tr * st, pw * p, pw * (1 - oa) * p, wins * oa, end * tr,
                         end * wins * table, master * (1 - wins), tr * trumps_out, master * p, end * p]


def score(card: int, trump: int, strength: Sequence[int], points: Sequence[int], hand: Sequence[int],
          trick: Sequence[int], best: int, partner_winning: bool, opponents_after: bool, trumps_out: int,
          top: Sequence[int], stock: int, weights: Sequence[int] = WEIGHTS) -> int:
    """The fitted score of playing ``card`` (see :func:`features`)."""
    total = 0
    for w, f in zip(weights, features(card, trump, strength, points, hand, trick, best, partner_winning,
                                      opponents_after, trumps_out, top, stock), strict=True):
        total += w * f
    return total


def choose_learned(s: Situation, stock: int, weights: Sequence[int] = WEIGHTS) -> Card:
    """The card the fit scores highest (the first of equals, in the hand's order)."""
    assert s.trump is not None, "fitted to two-player games, which have a trump from the deal"
    trump = int(s.trump)
    hand = [c.index for c in s.hand]
    trick = [c.index for c in s.trick]
    best = -1
    if trick:
        best = s.best.index if s.best is not None else trick[winning_index(s.trick, s.trump, s.strength)]
    pick = s.hand[0]
    high = 0
    for i, card in enumerate(s.hand):
        v = score(card.index, trump, s.strength, s.points, hand, trick, best, s.partner_winning, s.opponents_after,
                  s.trumps_out, s.top_out, stock, weights)
        if i == 0 or v > high:
            pick, high = card, v
    return pick


__all__ = ["FOLLOW", "LEAD", "WEIGHTS", "applies", "choose_learned", "features", "score"]
