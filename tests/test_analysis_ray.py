"""The analysis on a local Ray cluster: the same analysis as in one process."""

from __future__ import annotations

import os

import pytest

from brisca import Game
from brisca.agents import make_agent
from brisca.analysis import analyse
from brisca.record import Record

if os.environ.get("BRISCA_REQUIRE_RAY") != "1":
    pytest.importorskip("ray", reason="the 'ray' extra is not installed")


def test_ray_gives_the_analysis_of_a_local_run() -> None:
    game = Game("briscola", 2, seed=8)
    agents = [make_agent("greedy", seed=s) for s in range(2)]
    while not game.is_over():
        game.apply(agents[game.turn].act(game.view(game.turn)))  # type: ignore[index]
    record = Record.from_game(game)
    local = analyse(record, seed=2, worlds=8, think=30.0)
    spread = analyse(record, seed=2, worlds=8, think=30.0, ray="local")
    assert spread.to_json() == local.to_json()
    assert len(spread.decisions) >= 15
