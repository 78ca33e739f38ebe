"""Computer players. An agent sees only a seat's :class:`~brisca.game.View` and returns a legal action.

Built-ins are found by name (``random``, ``greedy``, ``heuristic``, ``expert``, or the
levels ``easy``, ``normal``, ``hard``, ``expert``); any other agent class plugs
in as ``"package.module:ClassName"``::

Every built-in plays every phase of every preset: outside the card play (bids, calls,
discards, naming the trump, declarations) ``greedy``, ``heuristic`` and ``expert``
share the judgment of :mod:`brisca.agents.auction`; in the play the expert searches
worlds sampled from its view (:mod:`brisca.worlds`), dealt-out games included.

    >>> from brisca import Game
    >>> agent = make_agent("greedy")
    >>> game = Game("spanish", 2, seed=1)
    >>> agent.act(game.view(game.turn)) in game.legal_actions()
    True
"""

from __future__ import annotations

from brisca.agents.base import Agent
from brisca.agents.heuristic import HeuristicAgent
from brisca.agents.net import NetAgent
from brisca.agents.registry import AGENTS, LEVELS, AgentError, make_agent
from brisca.agents.search import ExpertAgent
from brisca.agents.simple import GreedyAgent, RandomAgent

AGENTS.update({
    "random": RandomAgent,
    "greedy": GreedyAgent,
    "heuristic": HeuristicAgent,
    "expert": ExpertAgent,
    "net": NetAgent,
})

__all__ = ["AGENTS", "LEVELS", "Agent", "AgentError", "ExpertAgent", "GreedyAgent", "HeuristicAgent", "NetAgent",
           "RandomAgent", "make_agent"]
