"""OpenSpiel's Python IS-MCTS plays Brisca, resampling the hidden cards from what it knows.

The bot is ``open_spiel.python.algorithms.ismcts.ISMCTSBot`` with random rollouts;
its resampler is :func:`brisca.envs.openspiel.resampler`, which draws the cards
the searching seat has not seen (other hands, the stock) consistently with its
information state. It plays duplicate hands against uniformly random play: each
deal twice, the bot in each seat. Needs ``pip install 'brisca[openspiel]'``.

    python examples/openspiel_ismcts.py --preset spanish --players 2 --deals 10 --simulations 100
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from brisca import Game
from brisca.envs import openspiel as bo


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--preset", default="spanish")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--deals", type=int, default=10, help="deals, each played twice (the bot in each seat)")
    parser.add_argument("--simulations", type=int, default=100, help="IS-MCTS simulations per move")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    game = pyspiel.load_game("brisca", {"preset": args.preset, "players": args.players})
    rand = np.random.RandomState(args.seed)
    bot = ismcts.ISMCTSBot(
        game=game,
        evaluator=mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rand),
        uct_c=2.0,
        max_simulations=args.simulations,
        random_state=rand,
        final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
    )
    bot.set_resampler(bo.resampler(args.seed))
    rng = random.Random(args.seed)
    wins = draws = played = 0
    returns = 0.0
    start = time.perf_counter()
    for deal in range(args.deals):
        deck = Game(args.preset, args.players, seed=rng.randrange(2**32)).deck
        for bot_seat in range(2):  # the bot plays the seats of side 0, then of side 1 (all of a side's seats)
            state = game.new_initial_state()
            for card in deck:
                state.apply_action(card.index)
            while not state.is_terminal():
                player = state.current_player()
                if player % 2 == bot_seat:
                    action = int(bot.step(state))
                else:
                    legal = state.legal_actions()
                    action = legal[rng.randrange(len(legal))]
                state.apply_action(action)
            r = state.returns()[bot_seat]
            returns += r
            wins += r > 0
            draws += r == 0
            played += 1
        print(f"deal {deal + 1}: bot won {wins}/{played} (draws {draws}), {time.perf_counter() - start:.0f}s")
    print(f"IS-MCTS ({args.simulations} simulations) vs random, {args.preset} {args.players}p: "
          f"won {wins} of {played} ({100 * wins / played:.0f}%), mean return {returns / played:+.2f}")


if __name__ == "__main__":
    main()
