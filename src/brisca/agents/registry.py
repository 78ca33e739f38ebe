"""The agents by name: :func:`make_agent` and the table it reads (:data:`AGENTS`, :data:`LEVELS`).

A module of its own so that an agent may make another by name (the network's fallback) without importing the
package that lists it: :mod:`brisca.agents` fills :data:`AGENTS` with the built-ins.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from brisca.agents.base import Agent
from brisca.errors import BriscaError

#: The agents by name (the built-ins, registered by :mod:`brisca.agents`).
AGENTS: dict[str, Callable[..., Agent]] = {}
#: Levels for people: a beginner can beat ``easy``. ``hard`` is the self-play network (:mod:`brisca.agents.net`),
#: with two players exact from the stock's last trick on, with more the move best over twenty worlds of the hidden
#: hands once the stock is gone (eight with six players), each solved exactly (``endgame=worlds``), where one is
#: trained for the game (:func:`brisca.agents.net.games`), else ``hard-v1``: the heuristic with the learned linear
#: card choice; in the games that deal every card, ``hard-v1`` with the endgame solved over worlds by the game's
#: own rules (:func:`brisca.agents.kernel.ruled_worlds_choice`).
#: ``expert``, with two players where the network covers the game: the network's move, then from five hidden cards
#: left in the stock the move best over the worlds the view allows, each solved exactly, and the search's own
#: exact play after that; with four, the search of sampled worlds with the network's values at its leaves;
#: elsewhere ``expert-v1``, the search with the heuristic's rollouts alone. The ``-v1`` levels stay fixed, so that
#: every change is measured against the same opponents (docs/strength.md).
LEVELS: dict[str, str] = {"easy": "random", "normal": "greedy", "hard": "net[endgame=worlds,worlds=20,many=8]",
                          "expert": "expert[net=on,early=net,hidden=5]", "hard-v1": "heuristic[policy=learned]",
                          "expert-v1": "expert[net=off]"}


class AgentError(BriscaError):
    """An agent name that names no agent."""


def make_agent(name: str, seed: int | None = None) -> Agent:
    """The built-in agent ``name``, or the class at ``"module:Class"``, seeded with ``seed``.

    Options follow in brackets: ``"expert[sims=200]"``, ``"expert[think=0.2]"``.
    """
    name, options = _split(name)
    if name in LEVELS:  # a level: its agent and options, those given here on top
        name, preset = _split(LEVELS[name])
        options = {**preset, **options}
    factory = AGENTS.get(name)
    if factory is None and ":" in name:
        module_name, _, attr = name.partition(":")
        try:
            module = importlib.import_module(module_name)
            factory = getattr(module, attr)
        except (ImportError, AttributeError) as exc:
            raise AgentError(f"cannot load agent {name!r}: {exc}") from None
    if factory is None:
        raise AgentError(f"unknown agent {name!r}; built-in: {', '.join(AGENTS)}, or module:Class")
    try:
        return factory(seed=seed, **options)
    except TypeError as exc:
        if options:
            raise AgentError(f"agent {name!r} does not take {', '.join(options)}: {exc}") from None
        return factory()
    except ValueError as exc:  # an option's value the agent refuses
        raise AgentError(f"agent {name!r}: {exc}") from None


def _split(name: str) -> tuple[str, dict[str, object]]:
    """``"expert[sims=200]"`` -> ``("expert", {"sims": 200})``."""
    options: dict[str, object] = {}
    if name.endswith("]") and "[" in name:
        name, _, raw = name[:-1].partition("[")
        for item in filter(None, (x.strip() for x in raw.split(","))):
            key, eq, value = item.partition("=")
            if not eq or not key.strip():
                raise AgentError(f"agent options are written name[key=value,...], not {item!r}")
            options[key.strip()] = _number(value.strip())
    return name, options


def _number(text: str) -> object:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


__all__ = ["AGENTS", "LEVELS", "AgentError", "make_agent"]
