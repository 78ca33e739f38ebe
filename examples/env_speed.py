"""Environment steps per second: the raw engine against the PettingZoo, Gymnasium and OpenSpiel interfaces, and
the lockstep batch (brisca.envs.batch) with its Gymnasium vector environment.

Every loop plays uniformly random legal actions, hand after hand, in the same
process; the loops take turns in short rounds so that the machine's noise hits
them alike, and the report gives each loop's median rate and its median ratio
to the raw engine over the paired rounds. A *step* is one seat's action
(OpenSpiel's chance nodes, one per card dealt, are not counted as steps but
their time is). Needs ``pip install 'brisca[rl,openspiel]'``; loops whose
package is missing are skipped (the batch needs numpy, and numba to be fast: the ``fast`` extra).

    python examples/env_speed.py --preset spanish --players 2 --rounds 7 --seconds 0.5
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from brisca import Game
from brisca.rules import find_variant

Loop = Callable[[float], int]  # runs for about `seconds`, returns the steps made


def engine_loop(preset: str, players: int, view: bool) -> Loop:
    rules = find_variant(preset)
    rng = random.Random(1)

    def run(seconds: float) -> int:
        steps = 0
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            game = Game(rules, players, seed=rng)
            while not game.is_over():
                if view:
                    game.view(game.turn)
                legal = game.legal_actions()
                game.apply(legal[rng.randrange(len(legal))])
                steps += 1
        return steps

    return run


def pettingzoo_loop(preset: str, players: int, wrapped: bool) -> Loop:
    import numpy as np

    from brisca.envs import pettingzoo as bz

    env = bz.env(preset=preset, players=players) if wrapped else bz.raw_env(preset=preset, players=players)
    env.reset(seed=1)
    rng = random.Random(1)

    def run(seconds: float) -> int:
        steps = 0
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            env.reset()
            for _agent in env.agent_iter():
                obs, _reward, term, trunc, _info = env.last()
                if term or trunc:
                    env.step(None)
                    continue
                legal = np.flatnonzero(obs["action_mask"])
                env.step(int(legal[rng.randrange(len(legal))]))
                steps += 1
        return steps

    return run


def gymnasium_loop(preset: str, players: int) -> Loop:
    import numpy as np

    from brisca.envs.gymnasium import BriscaEnv

    env = BriscaEnv(preset, players, opponents="random")
    env.reset(seed=1)
    rng = random.Random(1)

    def run(seconds: float) -> int:
        steps = 0
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            _obs, info = env.reset()
            done = False
            while not done:
                legal = np.flatnonzero(info["action_mask"])
                _obs, _r, done, _t, info = env.step(int(legal[rng.randrange(len(legal))]))
                steps += 1
        # The opponents' moves are steps too (they go through the engine and their own views).
        return steps * players

    return run


def batch_loop(preset: str, players: int, lanes: int) -> Loop:
    """All seats of ``lanes`` hands in lockstep (brisca.envs.batch): observe, then a uniform legal id a row."""
    import numpy as np

    from brisca.envs.batch import Batch

    batch = Batch([preset], players, size=lanes, seed=1)
    rng = np.random.default_rng(1)

    def run(seconds: float) -> int:
        start = batch.moves
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            batch.deal_all()
            while True:
                _obs, mask, at, _seats = batch.observe()
                if not len(at):
                    break
                order = np.cumsum(mask, axis=1) - 1
                pick = (rng.random(len(at)) * mask.sum(axis=1)).astype(np.int64)
                batch.act(at, (order == pick[:, None]).argmax(axis=1))
        return batch.moves - start

    return run


def vector_loop(preset: str, players: int, envs: int) -> Loop:
    """The Gymnasium vector environment against random opponents: a uniform legal action for every learner."""
    import numpy as np

    from brisca.envs.gymnasium import BriscaVectorEnv

    env = BriscaVectorEnv(envs, preset, players, opponent="random", seed=1)
    _obs, info = env.reset(seed=1)
    rng = np.random.default_rng(1)
    state = {"info": info}

    def run(seconds: float) -> int:
        start = env.batch.moves
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            mask = state["info"]["action_mask"]
            order = np.cumsum(mask, axis=1) - 1
            pick = (rng.random(len(mask)) * mask.sum(axis=1)).astype(np.int64)
            _o, _r, _t, _tr, state["info"] = env.step((order == pick[:, None]).argmax(axis=1))
        # every seat's moves, the opponents' and the forced ones too
        return env.batch.moves - start

    return run


def openspiel_loop(preset: str, players: int, tensors: bool) -> Loop:
    import pyspiel

    import brisca.envs.openspiel  # noqa: F401 - registers the game

    game = pyspiel.load_game("brisca", {"preset": preset, "players": players})
    rng = random.Random(1)

    def run(seconds: float) -> int:
        steps = 0
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                    continue
                if tensors:
                    state.information_state_tensor(state.current_player())
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
                steps += 1
        return steps

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--preset", default="spanish", help="the preset played (default: spanish)")
    parser.add_argument("--players", type=int, default=2, help="players at each table (default: 2)")
    parser.add_argument("--rounds", type=int, default=7, help="rounds of every loop, taken in turn")
    parser.add_argument("--seconds", type=float, default=0.5, help="seconds per loop per round")
    args = parser.parse_args()

    loops: dict[str, Loop] = {
        "engine (legal_actions + apply)": engine_loop(args.preset, args.players, view=False),
        "engine + a View per step": engine_loop(args.preset, args.players, view=True),
    }
    optional: list[tuple[str, Callable[[], Loop]]] = [
        ("pettingzoo raw_env (obs + mask)", lambda: pettingzoo_loop(args.preset, args.players, wrapped=False)),
        ("pettingzoo env() (wrapped)", lambda: pettingzoo_loop(args.preset, args.players, wrapped=True)),
        ("gymnasium vs random (all seats)", lambda: gymnasium_loop(args.preset, args.players)),
        ("batch x256, all seats, obs + mask", lambda: batch_loop(args.preset, args.players, 256)),
        ("gym vector env x256 vs random", lambda: vector_loop(args.preset, args.players, 256)),
        ("openspiel (no observations)", lambda: openspiel_loop(args.preset, args.players, tensors=False)),
        ("openspiel + info-state tensor", lambda: openspiel_loop(args.preset, args.players, tensors=True)),
    ]
    for name, make in optional:
        try:
            loops[name] = make()
        except ImportError as exc:
            print(f"skipping {name}: {exc}")
        except ValueError as exc:  # the batch plays the games it covers only (brisca.envs.batch.covers)
            print(f"skipping {name}: {exc}")
    rates: dict[str, list[float]] = {name: [] for name in loops}
    for loop in loops.values():  # warm up
        loop(0.1)
    for _ in range(args.rounds):
        for name, loop in loops.items():
            start = time.perf_counter()
            steps = loop(args.seconds)
            rates[name].append(steps / (time.perf_counter() - start))
    base = rates["engine (legal_actions + apply)"]
    print(f"{args.preset}, {args.players} players, {args.rounds} rounds of {args.seconds}s per loop")
    print(f"{'loop':<34} {'steps/s (median)':>17} {'engine / loop (median, quartiles)':>36}")
    for name, r in rates.items():
        ratios = sorted(b / x for b, x in zip(base, r, strict=True))
        q = statistics.quantiles(ratios, n=4) if len(ratios) > 1 else [ratios[0]] * 3
        print(f"{name:<34} {statistics.median(r):>17,.0f} {q[1]:>17.1f}x ({q[0]:.1f}-{q[2]:.1f})")


if __name__ == "__main__":
    main()
