"""The arena on a local Ray cluster plays the same deals, with the same report, as without Ray."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from brisca.arena import run_arena
from brisca.cli import main
from brisca.errors import BriscaError

if os.environ.get("BRISCA_REQUIRE_RAY") != "1":
    pytest.importorskip("ray", reason="the 'ray' extra is not installed")


def test_ray_gives_the_scores_of_a_local_run() -> None:
    local = run_arena(["random", "greedy"], games=2000, seed=11)
    spread = run_arena(["random", "greedy"], games=2000, seed=11, ray="local")
    assert [(d.pair, d.deal, d.scores) for d in spread.deals] == [(d.pair, d.deal, d.scores) for d in local.deals]
    assert spread.pair_table() == local.pair_table()
    assert local.games == 4000


def test_ray_missing_is_one_clear_error(monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(BriscaError, match=r"pip install 'brisca\[ray\]'"):
        run_arena(["random", "greedy"], games=2, ray="local")
    assert main(["arena", "random", "greedy", "--games", "2", "--ray"]) == 2
    assert capsys.readouterr().err.strip() == "brisca: error: --ray needs Ray: pip install 'brisca[ray]'"


def test_self_play_on_ray_learns_what_local_processes_learn(tmp_path: Path) -> None:
    """``brisca train --ray``: the same seeds, the same hands, the same network as the run on local workers."""
    pytest.importorskip("numpy")
    from brisca.agents.net import Net
    from brisca.learn.train import parser, train

    def run(out: Path, *more: str) -> Any:
        args = ["--out", str(out), "--presets", "spanish", "--workers", "2", "--games", "4", "--updates", "2",
                "--hidden", "16", "--minibatch", "128", "--epochs", "1", "--eval-every", "0", "--backend", "numpy",
                "--seed", "5", *more]
        train(parser().parse_args(args), "brisca train (test)")
        curve = [json.loads(line) for line in (out / "curve.jsonl").read_text().splitlines()]
        assert {r["play_on"] for r in curve} == {"ray" if "--ray" in more else "processes"}
        return Net.load(out / "net.npz"), [(r["update"], r["games"], r["samples"]) for r in curve]

    local, local_curve = run(tmp_path / "local")
    spread, spread_curve = run(tmp_path / "ray", "--ray")
    assert spread_curve == local_curve and [u for u, _g, _s in local_curve] == [1, 2]
    assert local_curve[-1][1] == 2 * 2 * 4  # two updates of two tasks of four hands
    assert set(spread.arrays) == set(local.arrays)
    for name, array in local.arrays.items():
        assert (spread.arrays[name] == array).all(), name
