"""The arena on a local Ray cluster plays the same deals, with the same report, as without Ray."""

from __future__ import annotations

import os
import sys

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
