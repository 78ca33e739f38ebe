"""Bidding by simulation: a bid weighed over sampled deals, each played to the end of the hand.

The rule-based bidder (:func:`brisca.agents.auction.choose_bid`) bids when a linear estimate of the hand's
points reaches the price. This one asks the deals instead: for each choice the auction offers now (pass, or
the lowest bid allowed: a higher one only costs when the lowest would do, since the others can still raise),
the same worlds consistent with the seat's view (:class:`~brisca.worlds.WorldSampler`) are played out from
both, every seat (this one included) then bidding, discarding, naming trump, calling and playing as the
heuristic player does, the expert's rollout policy. Each world is worth what the match counts for this seat
(its match points, or its game points under ``match: game_points``) less the other seats' mean. Where the
worlds' mean gain of bidding over passing is clear of its standard error (:data:`SURE`), it decides; else the
rule-based bidder's choice stands.

The worlds deal the unseen cards at random: what the others' bids say about their hands is not read (nor is it
by the rule-based bidder). Low-card bidding (naming a rank) keeps the rule-based bidder.

    >>> import random
    >>> from brisca import Game
    >>> game = Game("rematada", 3, seed=2)
    >>> action = simulated_bid(game.view(game.turn), random.Random(1), worlds=4)
    >>> action in game.legal_actions()
    True
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence

from brisca.actions import PASS, Action, Bid
from brisca.agents.auction import choose_bid
from brisca.agents.exact import margin, team_of
from brisca.agents.heuristic import HeuristicAgent
from brisca.game import Game, View, hand_standing
from brisca.worlds import WorldError, WorldSampler

#: How many standard errors the deals' mean gain must clear before they overrule the rule-based bidder: the two
#: choices are weighed on the same worlds, so the difference is measured with far less noise than either value,
#: but a few dozen worlds still leave choices that are nearly worth the same to the rule.
SURE = 1.0


def simulated_bid(view: View, rng: random.Random, worlds: int = 48, deadline: float | None = None,
                  clock: Callable[[], float] = time.perf_counter) -> Action | None:
    """Pass or the lowest bid, as ``worlds`` sampled deals weigh them (fewer once ``deadline``, a
    value of ``clock``, has passed), or ``None`` outside a point auction."""
    if view.phase != "bid" or view.seat is None:
        return None
    legal = view.legal_actions
    bids = sorted((a for a in legal if isinstance(a, Bid)), key=lambda b: b.points)
    if not bids:
        return None
    ruled = choose_bid(view)
    if not (PASS in legal and ruled in (PASS, bids[0])):
        return ruled
    try:
        sampler = WorldSampler(view)
    except WorldError:
        return ruled
    player = HeuristicAgent()
    gains: list[float] = []  # per world: what bidding is worth more than passing
    for done in range(worlds):
        if deadline is not None and done and clock() > deadline:
            break
        try:
            world = sampler.draw(rng)
        except WorldError:
            continue
        gains.append(_play_out(world.clone(), view.seat, bids[0], player) - _play_out(world, view.seat, PASS, player))
    if len(gains) < 2:
        return ruled
    mean = sum(gains) / len(gains)
    spread = math.sqrt(sum((g - mean) ** 2 for g in gains) / (len(gains) - 1) / len(gains))
    if abs(mean) <= SURE * spread:
        return ruled
    return bids[0] if mean > 0 else PASS


def bid_values(view: View, candidates: Sequence[Action], rng: random.Random, worlds: int = 48,
               deadline: float | None = None, weight: float = 1 / 600,
               clock: Callable[[], float] = time.perf_counter) -> list[list[float]]:
    """For each of ``worlds`` sampled deals (fewer once ``deadline``, a value of ``clock``, has passed), each
    candidate's value for the seat's side (:func:`~brisca.agents.exact.margin`: the result, and ``weight`` a point
    of margin) once it is taken and everybody plays on as the heuristic player: the deals :func:`simulated_bid`
    weighs, read as a win and a margin (for the analysis of a bid,
    :meth:`brisca.agents.search.ExpertAgent.appraise`)."""
    assert view.seat is not None
    try:
        sampler = WorldSampler(view)
    except WorldError:
        return []
    player = HeuristicAgent()
    rows: list[list[float]] = []
    for done in range(worlds):
        if deadline is not None and done and clock() > deadline:
            break
        try:
            world = sampler.draw(rng)
        except WorldError:
            continue
        row = []
        for action in candidates:
            game = world.clone()
            _play_out(game, view.seat, action, player)
            row.append(margin(game, team_of(game, view.seat), weight))
        rows.append(row)
    return rows


def _play_out(game: Game, seat: int, action: Action, player: HeuristicAgent) -> float:
    """What the hand is worth to ``seat`` once ``action`` is taken and everybody plays on as ``player``."""
    game.apply(action)
    while not game.is_over():
        turn = game.turn
        assert turn is not None
        game.apply(player.act(game.view(turn)))
    result = game.result()
    assert result is not None
    standing = hand_standing(game.rules, game.players, result)
    mine = game.side_of(seat)
    others = [p for side, p in enumerate(standing) if side != mine]
    return standing[mine] - (sum(others) / len(others) if others else 0.0)


__all__ = ["bid_values", "simulated_bid"]
