"""What do the expert's last decisions of a hand lose against a random player?

Against a random player (its moves uniform over its legal actions) a 2-player hand is, for the
other seat, a game against chance alone: the worlds its view allows are equally likely (a random
player's plays say nothing about the cards it keeps), and the exact value of each move can be
computed by expectimax over the seat's *information states* (the opponent's replies and the
draws are chance; the seat's own later moves are chosen without seeing the hidden cards). That
is feasible for the last tricks of the stock: this plays ``expert`` (seat 0 or 1 in turn) against
``random``, and at each of the expert's decisions with at most ``--stock`` cards left in the
stock computes every legal action's exact chance of winning (a drawn hand 1/2) and the
expert's regret: the best action's chance minus that of the action it played. The heuristic's
choice in the same positions is scored too, for scale.

    python examples/late_regret.py --hands 100 --stock 4
    python examples/late_regret.py --time 12 --stock 4    # how long the exact search takes

The sum of the mean regrets per hand over the stock sizes is what exact play of those decisions
would add to the expert's score against random (to within the evidence ignored here: a random
player that could take the trump exchange and did not is a little less likely to hold the card).
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
import statistics
import time
from collections import defaultdict
from collections.abc import Sequence

from brisca import Game
from brisca.actions import Action, Play
from brisca.agents import make_agent
from brisca.agents.search import expect, margin, team_of

World = tuple[float, Game]


class Exact:
    """Expectimax for seat ``me`` against a random opponent, over the worlds of its information state."""

    def __init__(self, me: int) -> None:
        self.me = me
        self.other = 1 - me
        self.cache: dict[tuple[object, ...], float] = {}

    def worlds(self, game: Game) -> list[World]:
        """Every world ``me``'s view of ``game`` allows (the other hand and the stock's hidden order), equally
        likely."""
        view = game.view(self.me)
        known = [c for s, c in view.known if s == self.other]
        unseen = list(view.unseen_cards())
        slots = view.hand_sizes[self.other] - len(known)
        hidden_stock = view.stock_count - (1 if view.face_up is not None else 0)
        assert slots + hidden_stock == len(unseen), (slots, hidden_stock, unseen)
        plays = {a.card: a for a in game._hands[self.other]}
        plays.update({a.card: a for a in game._stock})
        out = []
        for hand in itertools.combinations(unseen, slots):
            rest = [c for c in unseen if c not in hand]
            for order in itertools.permutations(rest):
                w = game.clone()
                w._hands[self.other] = [plays[c] for c in known] + [plays[c] for c in hand]
                face = w._stock[:1] if view.face_up is not None else []
                w._stock = face + [plays[c] for c in order]
                out.append(w)
        return [(1 / len(out), w) for w in out]

    def values(self, game: Game) -> dict[Action, float]:
        """Each legal action's exact chance of winning for ``me`` (to act in ``game``)."""
        worlds = self.worlds(game)
        return {a: self._after(worlds, a) for a in game.legal_actions()}

    def _end(self, game: Game) -> float:
        if game.is_over():
            return margin(game, team_of(game, self.me), 0.0)
        key = (tuple(sorted(c.card.index for c in game._hands[0])), tuple(sorted(c.card.index for c in game._hands[1])),
               tuple(game._points), game._turn, tuple(c.index for c in game._trick))
        value = self.cache.get(key)
        if value is None:
            value = self.cache[key] = expect(game, team_of(game, self.me), (), {self.other: 1.0}, 0.0)
        return value

    def _node(self, worlds: Sequence[World]) -> float:
        first = worlds[0][1]
        if first.is_over() or first.stock_count == 0:  # nothing hidden any more
            return sum(p * self._end(g) for p, g in worlds)
        if first.turn == self.me:
            return max(self._after(worlds, a) for a in first.legal_actions())
        groups: dict[tuple[object, ...], list[World]] = defaultdict(list)
        for p, g in worlds:
            acts = g.legal_actions()
            for a in acts:
                child = g.clone()
                child.apply(a)
                groups[(a, tuple(child._hands[self.me]))].append((p / len(acts), child))
        return sum(self._node(group) for group in groups.values())

    def _after(self, worlds: Sequence[World], action: Action) -> float:
        groups: dict[tuple[object, ...], list[World]] = defaultdict(list)
        for p, g in worlds:
            child = g.clone()
            child.apply(action)
            groups[tuple(child._hands[self.me])].append((p, child))
        return sum(self._node(group) for group in groups.values())


def regrets(hands: int, stock: int, seed: int, variant: str, verbose: bool = False
            ) -> dict[int, list[tuple[float, float]]]:
    """For each stock size (at most ``stock``), the expert's and the heuristic's regret at every expert decision
    with more than one legal action, over ``hands`` hands."""
    out: dict[int, list[tuple[float, float]]] = defaultdict(list)
    for h in range(hands):
        me = h % 2
        game = Game(variant, 2, seed=seed * 100_000 + h)
        bots = {me: make_agent("expert", seed=h), 1 - me: make_agent("random", seed=h)}
        heuristic = make_agent("heuristic")
        while not game.is_over():
            seat = game.turn
            assert seat is not None
            view = game.view(seat)
            action = bots[seat].act(view)
            if seat == me and game.stock_count <= stock and len(view.legal_actions) > 1:
                values = Exact(me).values(game)
                best = max(values.values())
                row = (best - values[action], best - values[heuristic.act(view)])
                out[game.stock_count].append(row)
                if verbose:
                    print(f"hand {h} stock {game.stock_count} expert {row[0]:.6f} heuristic {row[1]:.6f}", flush=True)
            game.apply(action)
    return out


def position(seed: int, stock: int, follow: bool, variant: str = "spanish") -> Game:
    """A 2-player position of random play with ``stock`` cards left, the opponent's lead on the table when
    ``follow``."""
    game = Game(variant, 2, seed=seed)
    rng = random.Random(seed)
    while game.stock_count > stock:
        game.apply(rng.choice(game.legal_actions()))
    if follow:
        game.apply(rng.choice([a for a in game.legal_actions() if type(a) is Play]))
    return game


def timings(positions: int, stock: int, variant: str) -> list[float]:
    """Seconds :meth:`Exact.values` takes on positions of random play with ``stock`` cards left (half of them with
    the opponent's lead on the table)."""
    out = []
    for seed in range(positions):
        game = position(seed, stock, bool(seed % 2), variant)
        assert game.turn is not None
        start = time.perf_counter()
        Exact(game.turn).values(game)
        out.append(time.perf_counter() - start)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=100)
    parser.add_argument("--stock", type=int, default=4,
                        help="the largest stock to solve at (2 or 4: at most a second or two a decision; 6: minutes)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variant", default="spanish")
    parser.add_argument("--verbose", action="store_true", help="print every decision's regrets as they come")
    parser.add_argument("--time", type=int, default=0, metavar="N",
                        help="only time the exact search on N positions of random play at --stock")
    args = parser.parse_args()
    if args.time:
        took = timings(args.time, args.stock, args.variant)
        print(f"exact search at stock {args.stock}, {args.time} positions: median {statistics.median(took):.2f} s, "
              f"fastest {min(took):.2f} s, slowest {max(took):.2f} s")
        return
    start = time.perf_counter()
    found = regrets(args.hands, args.stock, args.seed, args.variant, args.verbose)
    total = 0.0
    for size in sorted(found):
        rows = found[size]
        expert = [r[0] for r in rows]
        heur = [r[1] for r in rows]
        per_hand = sum(expert) / args.hands
        err = statistics.stdev(expert) * math.sqrt(len(expert)) / args.hands if len(expert) > 1 else 0.0
        total += per_hand
        print(f"stock {size:2d}: {len(rows):5d} decisions; expert regret {statistics.mean(expert):.4f} a decision, "
              f"{per_hand:.4f} a hand (+- {err:.4f}), not the best in {sum(e > 1e-9 for e in expert)}; "
              f"heuristic {statistics.mean(heur):.4f} a decision, {sum(heur) / args.hands:.4f} a hand")
    print(f"all: {total:.4f} a hand over {args.hands} hands ({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
