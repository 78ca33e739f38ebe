"""The measuring scripts under examples/ that docs/strength.md quotes: they run, and measure what they say."""

from __future__ import annotations

import ast
import importlib.util
import json
import math
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

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


def test_the_training_script_records_values_and_fits_weights(tmp_path: Path) -> None:
    """``record`` writes each card decision with a value for every playable card; ``fit`` turns them into weights
    (as many as :mod:`brisca.agents.learned` reads) and reports the regrets. It needs the kernel (numba)."""
    from brisca.agents import kernel
    from brisca.agents.learned import WEIGHTS

    if not kernel.AVAILABLE:
        if os.environ.get("BRISCA_REQUIRE_KERNEL") == "1":
            pytest.fail(f"BRISCA_REQUIRE_KERNEL=1 but the kernel is unavailable: {kernel.MISSING}", pytrace=False)
        pytest.skip(f"the training script needs numba: {kernel.MISSING}")
    data = tmp_path / "d.jsonl"
    script = str(EXAMPLES / "train_rollout_policy.py")
    out = subprocess.run([sys.executable, script, "record", "--games", "4", "--worlds", "8", "--seed", "3", "--out",
                          str(data)], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    rows = [json.loads(line) for line in data.read_text().splitlines()]
    assert len(rows) >= 30  # two players' card decisions with a choice, in four games
    for row in rows:
        assert len(row["q"]) == len(row["cards"]) >= 2
        assert all(-2 < q < 2 for q in row["q"])  # a win's worth, and a margin's
    again = tmp_path / "again.jsonl"
    subprocess.run([sys.executable, script, "record", "--games", "4", "--worlds", "8", "--seed", "3", "--out",
                    str(again)], check=True, timeout=300)
    assert again.read_text() == data.read_text()  # seeded: the same games and values
    iterated = tmp_path / "iterated.jsonl"
    subprocess.run([sys.executable, script, "record", "--games", "4", "--worlds", "8", "--seed", "3", "--rollout",
                    "learned", "--out", str(iterated)], check=True, timeout=300)
    assert iterated.read_text() != data.read_text()  # the learned choice finishing the worlds values them otherwise
    out = subprocess.run([sys.executable, script, "fit", str(data)], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "heuristic  held out regret" in out.stdout and "learned    train    regret" in out.stdout
    weights = out.stdout.split("WEIGHTS = ")[1].strip()
    assert len(ast.literal_eval(weights)) == len(WEIGHTS)


def test_the_next_choice_script_measures_a_searched_choice() -> None:
    """``next_choice.py``: positions with the heuristic to move, and each ``nest`` its rise over the heuristic's own
    choice; ``nest`` 0 against itself rises by nothing. It needs the kernel (numba)."""
    from brisca.agents import kernel

    if not kernel.AVAILABLE:
        if os.environ.get("BRISCA_REQUIRE_KERNEL") == "1":
            pytest.fail(f"BRISCA_REQUIRE_KERNEL=1 but the kernel is unavailable: {kernel.MISSING}", pytrace=False)
        pytest.skip(f"the next-choice script needs numba: {kernel.MISSING}")
    script = _load("next_choice")
    games = script.positions(6, seed=2)
    assert len(games) == 6
    assert all(not g.is_over() and len(g.legal_actions()) > 1 for g in games)
    assert [script.won(v) for v in (1.3, 0.5, -0.2, 1.01, -0.01)] == [1.0, 0.5, 0.0, 1.0, 0.0]
    out = subprocess.run([sys.executable, str(EXAMPLES / "next_choice.py"), "--positions", "4", "--worlds", "20",
                          "--nests", "0", "4"], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    rows = [line.split("|") for line in out.stdout.splitlines() if line.startswith("| 0 ") or line.startswith("| 4 ")]
    assert len(rows) == 2
    assert rows[0][2].strip() == "+0.0000" and rows[0][4].strip() == "+0.0000"


def test_late_regret_solves_information_states_exactly() -> None:
    """``late_regret.py``'s expectimax over the seat's information states, against a random opponent. At the last
    trick of the stock a card played leaves nothing more to choose before all is known, so its value is the average
    over every world of the world's own expectimax (:func:`brisca.agents.search.expect`); an exchange, after which the
    seat still chooses a card without seeing the world, is worth at most that. Two tricks from the end the seat's
    next choice is made without seeing the world: never worth more than choosing with it, and somewhere less."""
    from brisca.actions import Play
    from brisca.agents.search import expect

    script = _load("late_regret")
    seen_fusion = False
    for stock, seeds in ((2, range(12)), (4, range(4))):
        for seed in seeds:
            game = script.position(seed, stock, follow=bool(seed % 2))
            me = game.turn
            assert me is not None
            solver = script.Exact(me)
            worlds = solver.worlds(game)
            assert math.isclose(sum(p for p, _w in worlds), 1.0)
            hidden = len(game.view(me).unseen_cards())
            assert len({(frozenset(w.hand(1 - me)), w.stock) for _p, w in worlds}) == len(worlds)
            assert len(worlds) == math.comb(hidden, len(game.hand(1 - me))) * math.factorial(stock - 1)
            values = solver.values(game)
            assert set(values) == set(game.legal_actions())
            for action, value in values.items():
                peeking = 0.0
                for p, world in worlds:
                    child = world.clone()
                    child.apply(action)
                    peeking += p * expect(child, game.side_of(me), (), {1 - me: 1.0}, 0.0)
                assert 0.0 <= value <= peeking + 1e-9
                if stock == 2 and type(action) is Play:
                    assert math.isclose(value, peeking, abs_tol=1e-9), (seed, action)
                seen_fusion |= value < peeking - 1e-6
    assert seen_fusion


def test_the_late_regret_script_runs() -> None:
    out = subprocess.run([sys.executable, str(EXAMPLES / "late_regret.py"), "--hands", "2", "--stock", "2"],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith("stock  0:") and lines[1].startswith("stock  2:")
    assert lines[-1].startswith("all: ") and "over 2 hands" in lines[-1]


def test_the_weigh_regret_script_runs() -> None:
    """``weigh_regret.py`` (it needs the kernel): plays its hands and reports the paired difference."""
    from brisca.agents import kernel

    if not kernel.AVAILABLE:
        if os.environ.get("BRISCA_REQUIRE_KERNEL") == "1":
            pytest.fail(f"BRISCA_REQUIRE_KERNEL=1 but the kernel is unavailable: {kernel.MISSING}", pytrace=False)
        pytest.skip(f"the script needs numba: {kernel.MISSING}")
    out = subprocess.run([sys.executable, str(EXAMPLES / "weigh_regret.py"), "--hands", "2", "--hidden", "3",
                          "--seed", "4"], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("spanish, the network against net, 2 hands: ")
    assert "where the weighed choice differs" in out.stdout


def test_the_critic_fit_script_runs() -> None:
    """``critic_fit.py`` (it needs the lockstep batch compiled): both values' held-out errors, pass by pass."""
    from brisca.envs.batch import COMPILED

    if not COMPILED:
        if os.environ.get("BRISCA_REQUIRE_KERNEL") == "1":
            pytest.fail("BRISCA_REQUIRE_KERNEL=1 but numba is not installed", pytrace=False)
        pytest.skip("the script needs numba")
    out = subprocess.run([sys.executable, str(EXAMPLES / "critic_fit.py"), "--parts", "2", "--games", "24",
                          "--passes", "2"], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert "decisions of 48 hands" in lines[0] and "held out" in lines[0]
    for line, name in zip(lines[1:], ("view", "view and hidden cards"), strict=True):
        head, errors = line.split(" by pass ")
        assert head == f"{name}: held-out squared error"
        values = [float(e) for e in errors.split()]
        assert len(values) == 3 and all(0 < v < 3 for v in values)
    # both start from the network's own value: the same error before the first pass
    assert lines[1].split()[-3] == lines[2].split()[-3]


@pytest.mark.parametrize("name", sorted(p.stem for p in EXAMPLES.glob("*.py") if "argparse" in p.read_text("utf-8")))
def test_each_script_s_help_says_what_it_does_in_whole_sentences(name: str) -> None:
    """``--help`` shows the docstring's first paragraph, all of it (not its first line, cut mid-sentence)."""
    first = (EXAMPLES / f"{name}.py").read_text("utf-8").split('"""')[1].split("\n\n")[0]
    assert first.rstrip().endswith((".", "?", ")")), first
    out = subprocess.run([sys.executable, str(EXAMPLES / f"{name}.py"), "--help"], capture_output=True, text=True,
                         timeout=120)
    if out.returncode and "No module named" in out.stderr:
        pytest.skip(f"{name} needs an extra: {out.stderr.strip().splitlines()[-1]}")
    assert out.returncode == 0, out.stderr
    assert " ".join(out.stdout.split()).count(" ".join(first.split())) == 1


def test_the_slow_tables_script_measures_a_server_holding_them_asleep() -> None:
    """``slow_tables_memory.py``: a real ``brisca serve`` lets every slow table go once it waits for its person."""
    out = subprocess.run([sys.executable, str(EXAMPLES / "slow_tables_memory.py"), "--tables", "3"],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith("    0 slow tables:") and lines[-2].startswith("    3 slow tables:")
    assert lines[-2].endswith("0 tables loaded")
    assert lines[-1] == "/api/my/tables lists 3 (the account's turn at 3)"


def test_the_ruled_endgame_script_counts_the_decisions_searched() -> None:
    """The tree the rules' endgame search visits grows with the cards in hand: from three cards it is many times
    the size of two (what docs/strength.md quotes for ``deeper``). It needs the kernel (numba)."""
    from brisca.agents import kernel

    if not kernel.AVAILABLE:
        if os.environ.get("BRISCA_REQUIRE_KERNEL") == "1":
            pytest.fail(f"BRISCA_REQUIRE_KERNEL=1 but the kernel is unavailable: {kernel.MISSING}", pytrace=False)
        pytest.skip(f"the script needs numba: {kernel.MISSING}")
    sizes = _load("ruled_endgame_size").sizes("chilean", 4, 3, 6, 3)
    assert set(sizes) == {2, 3}
    (two, nodes_two, _l2, _s2), (three, nodes_three, _l3, _s3) = sizes[2], sizes[3]
    assert two and three
    assert nodes_three / three > 5 * nodes_two / two
