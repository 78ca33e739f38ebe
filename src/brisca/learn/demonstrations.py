"""Demonstrations: hands of one of the project's players at every seat, its decisions kept as the policy's
targets and the hands' rewards as the values' (the imitation that starts a run, ``--imitate``, and the expert
iteration's search, ``--search-every``)."""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from brisca.agents.net import Net, reward
from brisca.game import Game
from brisca.learn.network import task_meta
from brisca.rules import make_rules


def demonstrate(task: dict[str, Any]) -> dict[str, Any]:
    """Play ``task["games"]`` hands of ``task["agent"]`` at every seat; its decisions (each seat's encoded view, the
    legal mask, the action it chose) and, for each, the hand's reward for the seat that decided."""
    from brisca.agents.registry import make_agent

    n = task["players"]
    net = Net(task["weights"], task_meta(task))
    rng = random.Random(task["seed"])
    rules = [make_rules(p) for p in task["presets"]]
    obs: list[Any] = []
    masks: list[Any] = []
    acts: list[int] = []
    rets: list[float] = []
    x = np.zeros(net.inputs, np.float32)
    for _ in range(task["games"]):
        p = rng.randrange(len(rules))
        game = Game(rules[p], n, dealer=rng.randrange(n), seed=rng.getrandbits(32))
        agents = [make_agent(task["agent"], seed=rng.getrandbits(32)) for _ in range(n)]
        codec = net.encoder(p).codec
        seats: list[int] = []
        while not game.is_over():
            seat = game.turn
            assert seat is not None
            view = game.view(seat)
            action = agents[seat].act(view)
            if len(view.legal_actions) > 1:
                net.features(view, p, x)
                mask = np.zeros(codec.size, np.bool_)
                mask[[codec.ids[a] for a in view.legal_actions]] = True
                obs.append(np.rint(x * 255).astype(np.uint8))
                masks.append(mask)
                acts.append(codec.ids[action])
                seats.append(seat)
            game.apply(action)
        rets.extend(reward(game, seat) for seat in seats)
    return {"obs": np.stack(obs), "mask": np.stack(masks), "act": np.array(acts, np.int64),
            "ret": np.array(rets, np.float32), "games": task["games"]}
