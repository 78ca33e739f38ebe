"""``brisca train`` as a person meets it: its help says every default, and a bad option, a missing dependency or a
bad run folder is one line (``brisca train: error: ...``, exit status 2) with nothing written. The runs themselves
are tested in tests/test_learn.py."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from brisca.cli import main
from brisca.learn.command import parser


def test_the_help_says_each_default() -> None:
    text = " ".join(parser().format_help().split())
    for said in ("--minutes MINUTES this invocation stops within this long", "(default: 60)",
                 "--workers WORKERS self-play processes (with --ray: tasks an update) (default: 2)",
                 "--updates UPDATES stop at this many updates (in all) (default: 1,000,000)",
                 "--eval-every EVAL_EVERY updates between evaluations (0: none) (default: 50)",
                 "--lr LR the learning rate (Adam) (default: 0.0003)", "--search-every K", "(default: 0)",
                 "brisca train --out runs/net --minutes 10 --workers 2"):
        assert said in text
    assert "default: None" not in text and "default: False" not in text


@pytest.mark.parametrize(("option", "value", "said"), [
    ("--minutes", "0", "argument --minutes: 0 is not more than 0"),
    ("--minutes", "soon", "argument --minutes: 'soon' is not a number"),
    ("--workers", "0", "argument --workers: 0 is not at least 1"),
    ("--updates", "-1", "argument --updates: -1 is not at least 0"),
    ("--league", "1.5", "argument --league: 1.5 is not at least 0 and at most 1"),
])
def test_a_bad_value_is_one_error_and_writes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                     option: str, value: str, said: str) -> None:
    out = tmp_path / "run"
    with pytest.raises(SystemExit) as stop:
        main(["train", "--out", str(out), option, value])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.splitlines()[-1] == f"brisca train: error: {said}" and "Traceback" not in err
    assert not out.exists()


def test_without_numpy_it_says_so_in_one_line(tmp_path: Path) -> None:
    """A plain install (no 'fast' or 'learn' extra): numpy cannot be imported."""
    out = tmp_path / "run"
    code = ("import sys; sys.modules['numpy'] = None\n"
            "from brisca.cli import main\n"
            f"sys.exit(main(['train', '--out', {str(out)!r}, '--minutes', '1']))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    assert done.stderr == ("brisca train: error: training needs numpy (and numba to be fast): "
                           "pip install 'brisca[fast]'\n")
    assert done.stdout == "" and not out.exists()


@pytest.mark.parametrize(("args", "said"), [
    (["--presets", "spanish,nonsense"], "--presets: "),
    (["--presets", " , "], "--presets names no preset"),
    (["--init", "missing.npz"], "--init: "),
])
def test_a_bad_run_is_one_error_and_writes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                   args: list[str], said: str) -> None:
    pytest.importorskip("numpy")
    out = tmp_path / "run"
    assert main(["train", "--out", str(out), "--workers", "1", "--backend", "numpy", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"brisca train: error: {said}") and err.count("\n") == 1
    assert not out.exists()


def test_an_out_that_is_a_file_is_one_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("numpy")
    out = tmp_path / "notes.txt"
    out.write_text("mine")
    assert main(["train", "--out", str(out), "--workers", "1"]) == 2
    assert capsys.readouterr().err == f"brisca train: error: --out {out} is a file, not a run's folder\n"
    assert out.read_text() == "mine"


def test_five_seats_are_briscola_chiamata_s() -> None:
    args = parser().parse_args(["--out", "run", "--players", "5", "--presets", "chiamata"])
    assert args.players == 5
    with pytest.raises(SystemExit):
        parser().parse_args(["--out", "run", "--players", "7"])


@pytest.mark.parametrize(("args", "said"), [
    (["--presets", "chiamata", "--players", "5", "--players", "4"], "--selfplay measures one player count"),
    (["--presets", "chiamata"], "--presets: chiamata is played by 5 players, not 2"),
    (["--presets", "spanish,chiamata", "--players", "5"], "--presets: spanish is played by"),
    (["--presets", " , "], "--presets names no preset"),
])
def test_a_bad_self_play_benchmark_is_one_error(capsys: pytest.CaptureFixture[str], args: list[str],
                                                said: str) -> None:
    """``brisca bench --selfplay`` measures presets the lockstep batch plays, at one player count."""
    pytest.importorskip("numpy")
    assert main(["bench", "--selfplay", *args]) == 2
    captured = capsys.readouterr()
    assert captured.err.startswith(f"brisca: error: {said}") and captured.err.count("\n") == 1
    assert captured.out == ""


def test_a_self_play_benchmark_of_games_the_batch_does_not_play_is_one_error(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """The lockstep batch plays every preset (chilean at 4 the last to come); should it refuse one
    (:func:`brisca.envs.batch.covers` false), the benchmark says so in one line rather than measuring nothing."""
    pytest.importorskip("numpy")
    import brisca.envs.batch as batch

    assert batch.covers("chilean", 4)
    monkeypatch.setattr(batch, "covers", lambda rules, players: False)
    assert main(["bench", "--selfplay", "--presets", "chilean", "--players", "4"]) == 2
    captured = capsys.readouterr()
    assert captured.err == ("brisca: error: --presets: the lockstep batch does not play chilean at 4 players"
                            " (brisca.envs.batch.covers)\n")
