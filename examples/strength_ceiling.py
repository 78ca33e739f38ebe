"""How far can a Brisca player get against `random` and `greedy` when it sees every card?

An *oracle* is the expert's search run on the true deal instead of sampled worlds: it
knows every hand and the order of the stock, and plays each candidate out with the same
heuristic rollouts (exactly once the stock is gone and few cards are left). No fair
player can see more, so its score is a practical ceiling for the expert's goals.

    python examples/strength_ceiling.py --opponent random --deals 200

``--seer expert`` plays a real agent instead, its view showing the other seat's whole hand
(not the stock's order): what the hidden hand is worth to that very player.

Duplicate deals as in the arena: each deal is played twice with the seats swapped; a win
scores 1, a drawn hand 1/2.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import random

from brisca import Game, View
from brisca.agents import make_agent
from brisca.agents.search import EXACT_CARDS, playout, solve, team_of
from brisca.arena import wilson

#: Solve exactly once this many cards are left in the hands and the stock together (the oracle knows the stock).
SOLVE_AT = 12
ORACLE: dict[str, object] = {"solve_at": SOLVE_AT, "expect": "heuristic", "rollouts": 64, "sees": "all"}


def oracle_move(game: Game, weight: float = 0.01) -> object:
    seat = game.turn
    assert seat is not None
    legal = game.legal_actions()
    if len(legal) == 1:
        return legal[0]
    if ORACLE["expect"] == "random":
        return random_aware_move(game, weight)
    side = team_of(game, seat)
    exact = EXACT_CARDS.get(game.players, 0)
    left = game.stock_count + sum(len(game.hand(s)) for s in range(game.players))
    best, best_value = legal[0], -math.inf
    for action in legal:
        g = game.clone()
        g.apply(action)
        value = solve(g, side) if left <= ORACLE["solve_at"] else playout(g, side, exact, weight)  # type: ignore[operator]
        if value > best_value:
            best, best_value = action, value
    return best


def random_aware_move(game: Game, weight: float) -> object:
    """The oracle expecting a random opponent: each candidate played out ``rollouts`` times on the true deal, the
    other seat moving uniformly at random, this seat by the heuristic (the compiled kernel: ``brisca[fast]``)."""
    from brisca.agents.kernel import kernel_for
    from brisca.agents.search import MIX_ONE

    kernel = kernel_for(game.rules, game.players)
    assert kernel is not None, "--expect random needs the kernel: pip install 'brisca[fast]'"
    seat = game.turn
    assert seat is not None
    count = int(ORACLE["rollouts"])  # type: ignore[call-overload]
    legal = list(game.legal_actions())
    mix = [0 if s == seat else MIX_ONE for s in range(game.players)]
    side = team_of(game, seat)
    worlds = [game] * count
    if ORACLE["sees"] == "hand":  # the other hand, not the stock's order: worlds with the stock shuffled
        from brisca.worlds import WorldSampler

        view = game.view(seat)
        other = 1 - seat
        known = {c for s, c in view.known if s == other}
        hidden = [c for c in game.hand(other) if c not in known]
        sampler = WorldSampler(view)
        worlds = [sampler.draw(RNG, 2, {other: hidden}) for _ in range(count)]
    values, _points = kernel.evaluate(worlds, legal, [side] * count, weight, (), mix,
                                      [RNG.getrandbits(31) for _ in range(count)])
    totals = values.sum(axis=0)
    return legal[int(totals.argmax())]


RNG = random.Random(0)


def seer_view(game: Game, seat: int) -> View:
    """The seat's view with the other seat's whole hand shown, as if every card of it had been seen."""
    view = game.view(seat)
    other = 1 - seat
    shown = {c for _s, c in view.known}
    return dataclasses.replace(view, known=view.known + tuple((other, c) for c in game.hand(other) if c not in shown))


def play(deal_seed: int, oracle_seat: int, opponent: str, variant: str, seer: str | None = None,
         fair: bool = False) -> float:
    game = Game(variant, 2, seed=deal_seed)
    other = make_agent(opponent, seed=deal_seed * 2 + oracle_seat)
    me = make_agent(seer, seed=deal_seed * 2 + 1 - oracle_seat) if seer else None
    while not game.is_over():
        if game.turn == oracle_seat:
            game.apply(oracle_move(game) if me is None else me.act(
                game.view(oracle_seat) if fair else seer_view(game, oracle_seat)))  # type: ignore[arg-type]
        else:
            game.apply(other.act(game.view(game.turn)))
    result = game.result()
    assert result is not None
    if result.winner is None:
        return 0.5
    return float(result.winner == game.side_of(oracle_seat))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--opponent", default="random")
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--variant", default="spanish")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--expect", choices=("heuristic", "random"), default="heuristic",
                        help="what the oracle's rollouts expect of the other seat (random: needs brisca[fast])")
    parser.add_argument("--rollouts", type=int, default=64, help="rollouts a candidate with --expect random")
    parser.add_argument("--sees", choices=("all", "hand"), default="all",
                        help="with --expect random: every card, or the other hand but not the stock's order")
    parser.add_argument("--seer", metavar="AGENT",
                        help="instead of the oracle: this agent, its view showing the other hand (not the stock)")
    parser.add_argument("--fair", action="store_true",
                        help="with --seer: the agent's own view after all (the control, on the same deals)")
    parser.add_argument("--solve-at", type=int, default=SOLVE_AT,
                        help="solve exactly with this many cards left in hands and stock (default %(default)s)")
    args = parser.parse_args()
    if args.fair and not args.seer:
        parser.error("--fair is the control of --seer AGENT: name the agent")
    ORACLE.update(solve_at=args.solve_at, expect=args.expect, rollouts=args.rollouts, sees=args.sees)
    rng = random.Random(args.seed)
    scores = []
    for _ in range(args.deals):
        deal = rng.randrange(2**32)
        scores += [play(deal, seat, args.opponent, args.variant, args.seer, args.fair) for seat in (0, 1)]
    n = len(scores)
    p = sum(scores) / n
    low, high = wilson(p, n)
    who = f"{args.seer} seeing the other hand" if args.seer else "oracle"
    if args.seer and args.fair:
        who = args.seer
    print(f"{who} vs {args.opponent} ({args.variant}, 2 players): {p:.3f} over {n} games"
          f" (95% {low:.3f}-{high:.3f})")


if __name__ == "__main__":
    main()
