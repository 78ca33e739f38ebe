"""The measuring scripts under examples/ that docs/strength.md quotes: they run, and measure what they say."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

from brisca import Game

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_seer_sees_the_other_hand_and_not_the_stock() -> None:
    ceiling = _load("strength_ceiling")
    game = Game("spanish", 2, seed=4)
    for _ in range(5):  # a few tricks in, with cards played and drawn
        game.apply(game.legal_actions()[0])
    seat = game.turn
    assert seat is not None
    plain, seen = game.view(seat), ceiling.seer_view(game, seat)
    other = 1 - seat
    assert {c for s, c in seen.known if s == other} == set(game.hand(other))
    assert {c for s, c in plain.known if s == other} != set(game.hand(other))  # the plain view hides some of it
    assert seen.hand == plain.hand and seen.stock_count == plain.stock_count
    # What is left unseen is exactly the stock's face-down cards: their order stays hidden.
    assert len(seen.unseen_cards()) == game.stock_count - (plain.face_up is not None)


def test_the_ceiling_script_plays_a_seer() -> None:
    out = subprocess.run([sys.executable, str(EXAMPLES / "strength_ceiling.py"), "--seer", "greedy", "--deals", "2",
                          "--seed", "1"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("greedy seeing the other hand vs random (spanish, 2 players):")
    assert "over 4 games" in out.stdout
    lone = subprocess.run([sys.executable, str(EXAMPLES / "strength_ceiling.py"), "--fair"], capture_output=True,
                          text=True, timeout=120)
    assert lone.returncode == 2 and "--fair is the control of --seer" in lone.stderr
