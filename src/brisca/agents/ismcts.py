"""Information-set Monte Carlo tree search: the other way to search hidden information, kept to measure against
the sampled-world search (``expert[search=ismcts]``; docs/strength.md has the comparison).

The tree holds only the searching seat's own decisions, and each node is one of its information
sets: what it has seen since the root (its own moves, the other seats' plays, the hand it holds
after the draws). Every iteration draws a world from the view, walks down the tree choosing the
seat's moves by UCB among those the world allows (a world where it did not draw a card cannot
play it), plays the other seats by the same models the sampled-world search expects of them,
and finishes the hand with the rollout policy from the first move it adds to the tree. Where
the sampled-world search judges each world as if it were known, the tree pools every world
that looks the same to the seat: it never picks a later move knowing the hidden cards.

A node tries the rollout policy's move first and widens to others as its visits grow, so a
node seen once scores what a rollout would; the root tries every candidate.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from brisca.actions import Action, Claim, Signal
from brisca.agents.exact import margin, team_of
from brisca.agents.rollout import RolloutPolicy, apply_tracked, playout, policy_move
from brisca.game import Game
from brisca.worlds import WorldError

#: Iterations a batch: their leaves are finished together (by the compiled kernel, in one call), and each sees
#: the others' visits before their values (a virtual loss). The same with and without the kernel: the same moves.
_BATCH = 8


class Node:
    """One information set of the searching seat: per action ``[visits, total value, times available]``."""

    __slots__ = ("children", "stats", "visits")

    def __init__(self) -> None:
        self.visits = 0
        self.stats: dict[Action, list[float]] = {}
        self.children: dict[tuple[Any, ...], Node] = {}


def _options(game: Game) -> list[Action]:
    """The seat's own choices in the tree: card plays, exchanges, declarations (never a signal or a claim, which
    the root handles and the rollout policy makes when it may)."""
    return [a for a in game.legal_actions() if not isinstance(a, Signal | Claim)]


def tree_search(draw: Callable[[], Game], seat: int, candidates: Sequence[Action], rng: random.Random,
                iterations: int, deadline: float = math.inf, weight: float = 0.01,
                greedy: Sequence[int] = (), mix: Sequence[int] = (), explore: float = 1.0, widen: float = 4.0,
                fast: Any = None, learned: bool = False,
                clock: Callable[[], float] = time.perf_counter) -> tuple[list[int], list[float]]:
    """Search from the root information set (worlds from ``draw``, ``seat`` to choose among ``candidates``) for
    ``iterations`` iterations or until ``deadline`` (a value of ``clock``); each candidate's visits and mean value (see
    :func:`brisca.agents.exact.margin`). ``fast``: the compiled kernel, to finish the leaves; ``learned``: the
    rollout policy's card choice is the learned one."""
    root = Node()
    done = 0
    while done < iterations and (done == 0 or clock() < deadline):
        leaves: list[tuple[Game, int, int]] = []
        paths: list[list[tuple[Node, Action]]] = []
        values: list[float] = []
        for _ in range(min(_BATCH, iterations - done)):
            try:
                game = draw()
            except WorldError:
                break
            side = team_of(game, seat)
            state = rng.getrandbits(31)
            policy = RolloutPolicy(game, learned)
            node = root
            path: list[tuple[Node, Action]] = []
            while True:
                options = list(candidates) if node is root else _options(game)
                if not options:
                    break
                if len(options) == 1:
                    action, added = options[0], False
                else:
                    action, added = _select(node, options, game, policy, node is root, explore, widen)
                    path.append((node, action))
                apply_tracked(game, policy, action)
                if added:
                    break
                seen = []
                while not game.is_over() and game._turn != seat:
                    move, state = policy_move(game, policy, state, greedy, mix)
                    seen.append(move)
                    apply_tracked(game, policy, move)
                if game.is_over():
                    break
                key = (action, tuple(seen), tuple(sorted(a.card.index for a in game._hands[seat])))
                child = node.children.get(key)
                if child is None:
                    child = node.children[key] = Node()
                node = child
            paths.append(path)
            if game.is_over():
                values.append(margin(game, side, weight))
            else:
                values.append(math.nan)
                leaves.append((game, side, len(paths) - 1))
        if not paths:
            break
        if leaves:
            seeds = [rng.getrandbits(31) for _ in leaves]
            if fast is not None:
                finished = fast.finish([g for g, _s, _i in leaves], [s for _g, s, _i in leaves], weight, greedy,
                                       mix, seeds, learned)
            else:
                finished = [playout(g, s, 0, weight, greedy, mix, seed, learned=learned)
                            for (g, s, _i), seed in zip(leaves, seeds, strict=True)]
            for (_g, _s, i), value in zip(leaves, finished, strict=True):
                values[i] = value
        for path, value in zip(paths, values, strict=True):
            for node, action in path:
                node.stats[action][1] += value
        done += len(paths)
    visits = []
    means = []
    for a in candidates:
        st = root.stats.get(a)
        visits.append(int(st[0]) if st else 0)
        means.append(st[1] / st[0] if st and st[0] else -math.inf)
    return visits, means


def _select(node: Node, options: Sequence[Action], game: Game, policy: Any, root: bool, explore: float,
            widen: float) -> tuple[Action, bool]:
    """The node's move in this world, and whether it is new to the node. Counts the visit at once (a virtual
    loss: the rest of a batch sees it taken, its value comes at the backup)."""
    stats = node.stats
    node.visits += 1
    untried = [a for a in options if a not in stats]
    tried = len(options) - len(untried)
    if untried and (root or tried == 0 or node.visits > widen * tried):
        pick = untried[0]
        if not root:
            choice = policy.action(game)
            if choice in untried:
                pick = choice
        for a in options:
            if a in stats:
                stats[a][2] += 1
        stats[pick] = [1.0, 0.0, 1.0]
        return pick, True
    best: Action | None = None
    score = -math.inf
    for a in options:
        st = stats.get(a)
        if st is None:
            continue
        st[2] += 1
        value = st[1] / st[0] + explore * math.sqrt(math.log(st[2]) / st[0])
        if value > score:
            best, score = a, value
    assert best is not None
    stats[best][0] += 1
    return best, False


def choose(visits: Sequence[int], means: Sequence[float]) -> int:
    """The root's choice: the most visited candidate, the better mean on a tie."""
    return max(range(len(visits)), key=lambda i: (visits[i], means[i]))


__all__ = ["Node", "choose", "tree_search"]
