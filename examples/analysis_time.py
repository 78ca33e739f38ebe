"""How long the analysis of a hand takes (brisca.analysis), at its default worlds and think time.

Plays ``--hands`` hands of a preset between heuristic players (seeded), analyses each record as
``brisca replay --analyse`` does, one process, and prints the seconds per hand and per searched decision
(median and mean), and how many decisions the clock cut short. With ``--solve 10,12,14``, instead: how long
the face-up reading's exact solve of every legal move takes once that many cards are left in the hands and the
stock (at most and on average over the hands), which is what sets ``FACE_UP_CARDS``; with ``--compiled`` too, by
the compiled solver (the ``fast`` extra), with the positions it searched, which is what sets
``FACE_UP_KERNEL_CARDS``.

    python examples/analysis_time.py --variant spanish --players 2 --hands 10
    python examples/analysis_time.py --variant spanish --players 2 --hands 6 --solve 10,12,14
    python examples/analysis_time.py --variant spanish --players 2 --hands 6 --solve 16,18,20,22 --compiled
"""

from __future__ import annotations

import argparse
import statistics
import time

from brisca import Game
from brisca.actions import Signal
from brisca.agents import make_agent
from brisca.agents.exact import solve, team_of
from brisca.agents.search import SOLVE_WEIGHT
from brisca.analysis import THINK, WORLDS, analyse
from brisca.record import Record


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="spanish")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--hands", type=int, default=10)
    parser.add_argument("--worlds", type=int, default=WORLDS)
    parser.add_argument("--think", type=float, default=THINK)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--solve", default="", help="card counts (comma-separated): time the face-up solve instead")
    parser.add_argument("--compiled", action="store_true", help="with --solve: the compiled solver's")
    args = parser.parse_args()
    if args.solve and args.compiled:
        for cards in (int(c) for c in args.solve.split(",")):
            found = [_compiled_time(_played(args.variant, args.players, args.seed + k, cards))
                     for k in range(args.hands)]
            times, nodes = [f[0] for f in found], [f[1] for f in found]
            print(f"{args.variant}, {args.players} players, {cards} cards left: every legal move solved by the"
                  f" compiled solver in at most {max(times):.3f} s (mean {statistics.mean(times):.3f} s), at most"
                  f" {max(nodes)} positions (mean {statistics.mean(nodes):.0f}) over {args.hands} hands")
        return
    if args.solve:
        for cards in (int(c) for c in args.solve.split(",")):
            times = [_solve_time(_played(args.variant, args.players, args.seed + k, cards)) for k in range(args.hands)]
            print(f"{args.variant}, {args.players} players, {cards} cards left: every legal move solved in at most"
                  f" {max(times):.3f} s (mean {statistics.mean(times):.3f} s) over {args.hands} hands")
        return
    analyse(Record.from_game(_played(args.variant, args.players, 0)), worlds=4)  # the compiled kernel, warmed
    per_hand, per_decision, cut = [], [], 0
    for k in range(args.hands):
        record = Record.from_game(_played(args.variant, args.players, args.seed + k))
        start = time.perf_counter()
        result = analyse(record, seed=k, worlds=args.worlds, think=args.think)
        seconds = time.perf_counter() - start
        decisions = len(result.decisions)
        per_hand.append(seconds)
        per_decision.append(seconds / max(1, decisions))
        cut += sum(1 for m in result.decisions if m.cut)
        print(f"hand {k + 1}: {decisions} decisions searched in {seconds:.1f} s")
    print(f"{args.variant}, {args.players} players, {args.worlds} worlds and at most {args.think} s a decision:"
          f" {statistics.median(per_hand):.1f} s a hand (median; mean {statistics.mean(per_hand):.1f}),"
          f" {1000 * statistics.median(per_decision):.0f} ms a decision (median), {cut} decisions cut by the clock")


def _played(variant: str, players: int, seed: int, left: int = 0) -> Game:
    """A hand played by heuristic players to its end, or until ``left`` cards are left in the hands and stock."""
    game = Game(variant, players, seed=seed)
    agents = [make_agent("heuristic", seed=seed * 10 + s) for s in range(players)]
    while not game.is_over() and sum(len(game.hand(s)) for s in range(players)) + game.stock_count > left:
        game.apply(agents[game.turn].act(game.view(game.turn)))  # type: ignore[index]
    return game


def _solve_time(game: Game) -> float:
    """Seconds to solve every legal move of the seat to act with every card known (the face-up reading)."""
    seat = game.turn
    assert seat is not None
    start = time.perf_counter()
    for action in game.legal_actions():
        if not isinstance(action, Signal):
            child = game.clone()
            child.apply(action)
            solve(child, team_of(child, seat))
    return time.perf_counter() - start


def _compiled_time(game: Game) -> tuple[float, int]:
    """Seconds and positions for the compiled solver to solve every legal move of the seat to act, every card
    known (the face-up reading from :data:`brisca.analysis.FACE_UP_CARDS` cards up), after one warm-up call."""
    from brisca.agents.kernel import kernel_for

    seat = game.turn
    assert seat is not None
    fast = kernel_for(game.rules, game.players)
    if fast is None:
        raise SystemExit("the compiled solver does not cover these rules, or numba is missing (the fast extra)")
    legal = [a for a in game.legal_actions() if not isinstance(a, Signal)]
    rows = [fast.encode(game)]
    fast.solve(rows, legal[:1], [team_of(game, seat)], game, SOLVE_WEIGHT, table=False)  # compiled before timing
    start = time.perf_counter()
    _values, nodes = fast.solve(rows, legal, [team_of(game, seat)], game, SOLVE_WEIGHT)
    return time.perf_counter() - start, nodes


if __name__ == "__main__":
    main()
