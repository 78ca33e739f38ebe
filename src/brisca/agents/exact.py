"""Complete games searched exactly: what the expert plays once nothing that matters is hidden.

A finished hand's value for a side (:func:`margin`, the sides by :func:`team_of`), alpha-beta over a
perfect-information position (:func:`solve`), the expectimax against models of the other seats' play
(:func:`expect`, with the greedy rule's move :func:`greedy_action`), and the one world a view allows once
the stock is gone and at most one hand is unknown (:func:`exact_world`, :func:`exact_choice`). The heuristic
plays :func:`exact_choice` at the end of a hand; the rollouts and the searches value their worlds with these.
"""

from __future__ import annotations

import math
import random
from collections.abc import Collection, Mapping

from brisca.actions import PLAYS, Action, Announce, Exchange, Play, Signal
from brisca.agents.simple import greedy_card
from brisca.game import Game, View
from brisca.worlds import WorldError, sample_world

#: Solve exactly (instead of rolling out) when at most this many cards are left in hands, stock gone.
EXACT_CARDS = {2: 8, 3: 9, 4: 8, 5: 5, 6: 6}
#: Play an exact endgame against the models of the other seats (:func:`best_exact`) at most this many cards from
#: the end (two players: always; the chance nodes of a random player cannot be cut).
MODEL_CARDS = 8


def team_of(game: Game, seat: int) -> int:
    """The team ``seat`` plays for in a complete game: its side, or under a contract 0 for the declarer's
    side (the declarer and the called card's holder) and 1 for the defenders (engine-level: a sampled world
    knows the hidden partner)."""
    contract = getattr(game, "contract", None)
    if contract is not None and game.rules.contract != "off":
        return 0 if seat in contract.side() else 1
    return game.side_of(seat)


def margin(game: Game, side: int, weight: float = 1 / 600) -> float:
    """A finished hand's value for ``side``: 1 for a win, 0.5 a draw, 0 a loss, plus ``weight`` a point of margin.

    The margin term breaks ties between equally winning lines and, weighted up, lowers the
    variance of a search's estimates (points move far more smoothly than wins). Under a
    contract ``side`` is a :func:`team_of` and the margin is the declarer's side's points
    over (or under) the contract; under ``hand_winner: least`` it counts the points a side
    stays below the others.
    """
    result = game.result()
    assert result is not None
    if result.scores is not None:
        c = result.contract
        if c is None:
            return 0.5
        lead = sum(result.side_points[s] for s in c.side()) - c.points
        made = result.reason == "made"
        return float(made == (side == 0)) + (lead if side == 0 else -lead) * weight
    pts = result.side_points
    rest = [p for i, p in enumerate(pts) if i != side]
    if game.rules.hand_winner == "least":  # fewer points is better: the margin counts below the closest other side
        lead = (min(rest) if rest else 0) - pts[side]
    else:
        lead = pts[side] - (max(rest) if rest else 0)
    won = 0.5 if result.winner is None else float(result.winner == side)
    return won + lead * weight


def solve(game: Game, side: int, alpha: float = -math.inf, beta: float = math.inf) -> float:
    """The exact value (see :func:`margin`) of a perfect-information position for ``side``, by alpha-beta."""
    if game.is_over():
        return margin(game, side)
    maximizing = team_of(game, game.turn) == side  # type: ignore[arg-type]
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


def expect(game: Game, side: int, greedy: Collection[int] = (), wild: Mapping[int, float] | None = None,
           weight: float = 1 / 600) -> float:
    """The value (see :func:`margin`) of a perfect-information position for ``side`` when the other side plays by
    models: a seat in ``greedy`` plays the greedy rule, a seat with a share ``p`` in ``wild`` makes a uniformly
    random card play (or the exchange) with chance ``p`` and its side's best move otherwise, the rest their side's
    best.

    Chance nodes cannot be cut as alpha-beta cuts, so this walks the whole tree: keep it to a few cards.
    """
    if game.is_over():
        return margin(game, side, weight)
    seat = game.turn
    assert seat is not None
    mine = team_of(game, seat) == side
    if not mine and seat in greedy:
        action = greedy_action(game)
        if action is not None:
            child = game.clone()
            child.apply(action)
            return expect(child, side, greedy, wild, weight)
    values = []
    for action in _ordered(game):
        child = game.clone()
        child.apply(action)
        values.append((action, expect(child, side, greedy, wild, weight)))
    if mine:
        return max(v for _a, v in values)
    worst = min(v for _a, v in values)
    share = (wild or {}).get(seat, 0.0)
    if not share:
        return worst
    plays = [v for a, v in values if a.__class__ in (Play, Exchange, Announce)] or [v for _a, v in values]
    return share * sum(plays) / len(plays) + (1 - share) * worst


def outcome(value: float) -> float:
    """The result inside a :func:`margin` value (1, 1/2 or 0), with the margin term (at most 0.2) taken off."""
    return round(value * 2) / 2


def best_exact(game: Game, seat: int, greedy: Collection[int] = (),
               wild: Mapping[int, float] | None = None) -> tuple[Action, float]:
    """The best action for ``seat`` (to act) in a perfect-information position, and its value.

    With models of the other side's play (``greedy``, ``wild``: see :func:`expect`) the action is still one that
    reaches the best result against any play (win, draw or loss, by :func:`solve`); among those, the one worth
    most against the models. A lost position is then played for the mistakes the opponent is expected to make,
    and nothing is risked: against the best replies every such action ends the same way.
    """
    side = team_of(game, seat)
    models = bool(greedy or wild) and _cards_left(game) <= MODEL_CARDS
    scored = []
    for action in _ordered(game):
        child = game.clone()
        child.apply(action)
        value = solve(child, side)
        key = (outcome(value), expect(child, side, greedy, wild)) if models else (value, 0.0)
        scored.append((key, value, action))
    _key, value, action = max(scored, key=lambda kva: kva[0])
    return action, value


def _cards_left(game: Game) -> int:
    return sum(len(game.hand(s)) for s in range(game.players))


def exact_choice(view: View) -> Action | None:
    """The exact best action when the view hides nothing that matters (the stock gone and at most one
    hand unknown), and the rest is small enough to search; else ``None``."""
    world = exact_world(view)
    return None if world is None or view.seat is None else best_exact(world, view.seat)[0]


def last_draw_choice(view: View) -> Action | None:
    """Two players, one hidden card left in the stock (and the face-up trump): the move worth most on average over
    every world the view allows (a handful: which unseen card is the stock's, the opponent holding the others),
    each solved to the end against the best defence; ``None`` elsewhere. After this trick both draw and nothing
    is hidden, so the average is the move's exact value, but for the opponent answering this trick as if it knew
    the world (solving is pessimistic there)."""
    seat = view.seat
    if (seat is None or len(view.legal_actions) < 2 or sum(view.hand_sizes) + view.stock_count > MODEL_CARDS
            or stock_hidden(view) != 1):
        return None  # (more than one hidden card in the stock: their order would matter too)
    other = 1 - seat
    unseen = list(view.unseen_cards())
    from brisca.worlds import WorldSampler

    try:
        sampler = WorldSampler(view)
    except WorldError:
        return None
    rng = random.Random(0)  # each world is given whole: nothing is left to chance
    totals = [0.0] * len(view.legal_actions)
    for stock in unseen:
        try:
            world = sampler.draw(rng, 2, {other: [c for c in unseen if c is not stock]})
        except WorldError:
            continue  # the view rules this hand out
        side = team_of(world, seat)
        for i, action in enumerate(view.legal_actions):
            child = world.clone()
            child.apply(action)
            totals[i] += solve(child, side)
    return view.legal_actions[max(range(len(totals)), key=totals.__getitem__)]


def stock_hidden(view: View) -> int | None:
    """Two players in the play with cards left in the stock: how many of them the seat has not seen (the unseen
    cards less those the opponent holds unknown); ``None`` elsewhere."""
    seat = view.seat
    if view.players != 2 or seat is None or not view.stock_count or view.rules.dealt_out or view.phase != "play":
        return None
    other = 1 - seat
    slots = view.hand_sizes[other] - sum(1 for s, _c in view.known if s == other)
    left = len(view.unseen_cards()) - slots
    return left if left >= 1 and slots >= 0 else None


def exact_world(view: View) -> Game | None:
    """The one world the view allows, when it hides nothing that matters (the stock gone and at most one hand
    unknown) and the rest is small enough to solve; else ``None``."""
    if view.stock_count or view.seat is None or not view.legal_actions or view.phase != "play":
        return None
    if view.rules.talon and not view.discards:
        return None  # the declarer's face-down discards are hidden: more than one world
    hidden = [s for s in range(view.players) if s != view.seat and view.hand_sizes[s] > sum(
        1 for k, _c in view.known if k == s)]
    if len(hidden) > 1 or sum(view.hand_sizes) > EXACT_CARDS.get(view.players, 6) + 4:
        return None
    try:
        return sample_world(view, seed=0)
    except WorldError:
        return None


def greedy_action(game: Game) -> Action | None:
    """The greedy rule's move in a complete game (it always takes the exchange, and never signals); ``None``
    where the choice is not a plain card play (the rollout policy decides those)."""
    legal = game.legal_actions()
    cards = []
    for a in legal:
        if a.__class__ is Exchange or a.__class__ is Announce:
            return a
        if a.__class__ is Play:
            cards.append(a.card)
        elif a.__class__ is not Signal:
            return None
    rules = game.rules
    return PLAYS[greedy_card(cards, game._trick, game.trump, rules.strength_table, rules.point_table).index]


__all__ = ["EXACT_CARDS", "MODEL_CARDS", "best_exact", "exact_choice", "exact_world", "expect", "greedy_action",
           "last_draw_choice", "margin", "outcome", "solve", "stock_hidden", "team_of"]
