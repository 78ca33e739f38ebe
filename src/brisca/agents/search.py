"""The ``expert`` player: search over worlds consistent with what it sees.

Perfect-information Monte Carlo: draw worlds from the view (:mod:`brisca.worlds`),
play every candidate action in each world, finish the hand with the heuristic's
judgment as rollout policy (or exactly, by alpha-beta, once few cards are left and
the stock is gone), and keep the action with the best average. Common worlds for
every candidate make the comparison fair: the luck of a world is the same for all.

When nothing is hidden (two players once the stock is gone) the position is solved
exactly, which :func:`solve` proves against a brute-force search in the tests.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence

from brisca.actions import Action, Claim, Exchange, Play, Signal
from brisca.agents.heuristic import Situation, choose
from brisca.agents.simple import _require_turn
from brisca.cards import Card
from brisca.game import Game, View, winning_index
from brisca.worlds import WorldError, sample_world

#: Solve exactly (instead of rolling out) when at most this many cards are left in hands, stock gone.
EXACT_CARDS = {2: 8, 3: 9, 4: 8, 5: 5, 6: 6}


def margin(game: Game, side: int) -> float:
    """A finished hand's value for ``side``: 1 for a win, 0.5 a draw, 0 a loss, plus a little per point of margin."""
    result = game.result()
    assert result is not None
    pts = result.side_points
    others = max(p for i, p in enumerate(pts) if i != side) if len(pts) > 1 else 0
    lead = pts[side] - others
    won = 0.5 if result.winner is None else float(result.winner == side)
    return won + lead / 600.0


def solve(game: Game, side: int, alpha: float = -math.inf, beta: float = math.inf) -> float:
    """The exact value (see :func:`margin`) of a perfect-information position for ``side``, by alpha-beta."""
    if game.is_over():
        return margin(game, side)
    maximizing = game.side_of(game.turn) == side  # type: ignore[arg-type]
    best = -math.inf if maximizing else math.inf
    for action in _ordered(game):
        child = game.clone()
        child.apply(action)
        value = solve(child, side, alpha, beta)
        if maximizing:
            best = max(best, value)
            alpha = max(alpha, value)
        else:
            best = min(best, value)
            beta = min(beta, value)
        if alpha >= beta:
            break
    return best


def _ordered(game: Game) -> list[Action]:
    """Legal card actions, strongest first (good moves early make alpha-beta cut sooner); signals left out."""
    strength = game.rules.strength_table
    acts = [a for a in game.legal_actions() if not isinstance(a, Signal)]
    return sorted(acts, key=lambda a: -strength[a.card.index] if hasattr(a, "card") else -99)


def best_exact(game: Game, seat: int) -> tuple[Action, float]:
    """The best action for ``seat`` (to act) in a perfect-information position, and its value."""
    side = game.side_of(seat)
    scored = []
    for action in _ordered(game):
        child = game.clone()
        child.apply(action)
        scored.append((solve(child, side), action))
    value, action = max(scored, key=lambda va: va[0])
    return action, value


def _cards_left(game: Game) -> int:
    return sum(len(game.hand(s)) for s in range(game.players))


def exact_choice(view: View) -> Action | None:
    """The exact best action when the view hides nothing that matters (the stock gone and at most one
    hand unknown), and the rest is small enough to search; else ``None``."""
    if view.stock_count or view.seat is None or not view.legal_actions:
        return None
    hidden = [s for s in range(view.players) if s != view.seat and view.hand_sizes[s] > sum(
        1 for k, _c in view.known if k == s)]
    if len(hidden) > 1 or sum(view.hand_sizes) > EXACT_CARDS.get(view.players, 6) + 4:
        return None
    try:
        world = sample_world(view, seed=0)
    except WorldError:
        return None
    return best_exact(world, view.seat)[0]


def rollout_action(game: Game) -> Action:
    """The heuristic's move in a complete (sampled) game, read from the engine directly for speed."""
    legal = game.legal_actions()
    if len(legal) == 1:
        return legal[0]
    for a in legal:
        if isinstance(a, Exchange | Claim):
            return a
    cards = [a.card for a in legal if isinstance(a, Play)]
    if not cards:
        return legal[0]
    seat = game.turn
    assert seat is not None
    trick = game.trick
    rules = game.rules
    strength = rules.strength_table
    n = game.players
    side = game.side_of(seat)
    partner_winning = False
    if trick:
        w = (game.leader + winning_index(trick, game.trump, strength)) % n
        partner_winning = game.side_of(w) == side
    after = [(seat + i) % n for i in range(1, n - len(trick))]
    opponents_after = any(game.side_of(x) != side for x in after)
    # The rollout plays with an average player's knowledge: trumps and top cards still out, from the cards gone.
    gone = _gone(game)
    top = [0, 0, 0, 0]
    trumps_out = 0
    for c in rules.layout(n).cards:
        if c not in gone and c not in cards:
            if strength[c.index] > top[c.suit]:
                top[c.suit] = strength[c.index]
            if c.suit is game.trump:
                trumps_out += 1
    card = choose(Situation(cards, trick, game.trump, strength, rules.point_table, partner_winning,
                            opponents_after, trumps_out, top))
    return Play(card)


def _gone(game: Game) -> set[Card]:
    out = {c for t in game.tricks for c in t.cards}
    out.update(game.trick)
    return out


def playout(game: Game, side: int, exact_at: int) -> float:
    """Finish ``game`` (a sampled world) with the rollout policy, exactly once small; its value for ``side``."""
    while not game.is_over():
        if game.stock_count == 0 and _cards_left(game) <= exact_at:
            return solve(game, side)
        game.apply(rollout_action(game))
    return margin(game, side)


class ExpertAgent:
    """Searches sampled worlds for ``think`` seconds a move (or exactly ``sims`` worlds, for reproducible play).

    With ``sims`` set, a given seed gives the same move every time; with a time budget
    the number of worlds depends on the machine's speed.
    """

    def __init__(self, seed: int | None = None, think: float = 0.5, sims: int | None = None) -> None:
        self.rng = random.Random(seed)
        self.think = think
        self.sims = sims
        self.last_worlds = 0

    def act(self, view: View) -> Action:
        legal = _require_turn(view)
        candidates = [a for a in legal if not isinstance(a, Signal)]
        for a in candidates:
            if isinstance(a, Claim):
                return a  # a claim that holds takes every card left: nothing can do better
        if len(candidates) == 1:
            return candidates[0]
        exact = exact_choice(view)
        if exact is not None:
            return exact
        return self._search(view, candidates)

    def _search(self, view: View, candidates: Sequence[Action]) -> Action:
        assert view.seat is not None
        side = view.side_of(view.seat)
        exact_at = EXACT_CARDS.get(view.players, 6)
        totals = [0.0] * len(candidates)
        deadline = time.perf_counter() + self.think
        worlds = 0
        while True:
            if self.sims is not None:
                if worlds >= self.sims:
                    break
            elif worlds and time.perf_counter() >= deadline:
                break
            try:
                world = sample_world(view, self.rng)
            except WorldError:
                break
            for i, action in enumerate(candidates):
                g = world.clone()
                g.apply(action)
                totals[i] += playout(g, side, exact_at)
            worlds += 1
        self.last_worlds = worlds
        if not worlds:
            return candidates[0]
        best = max(range(len(candidates)), key=lambda i: totals[i])
        return candidates[best]


__all__ = ["ExpertAgent", "best_exact", "exact_choice", "margin", "playout", "rollout_action", "solve"]
