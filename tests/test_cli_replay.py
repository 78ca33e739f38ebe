"""``brisca replay``: standard input, records that stop early, the shape of the JSON it prints, and errors."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from brisca import Game, Match
from brisca.cli import main
from brisca.record import MatchRecord, Record
from brisca.record import loads as rec_loads
from reference import referee

GOLDEN = Path(__file__).resolve().parent / "golden"


def run(args: list[str], stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "brisca", *args], input=stdin, capture_output=True, timeout=60)


def played(players: int, seed: int, steps: int | None = None, options: dict[str, Any] | None = None) -> Game:
    rng = random.Random(seed)
    game = Game("spanish", players, seed=seed, options=options)
    n = 0
    while not game.is_over() and (steps is None or n < steps):
        game.apply(rng.choice(game.legal_actions()))
        n += 1
    return game


def check_shape(out: dict[str, Any], players: int) -> None:
    assert out["trump"] in ("O", "C", "E", "B")
    assert isinstance(out["tricks"], list)
    for trick in out["tricks"]:
        assert set(trick) >= {"leader", "cards", "winner", "points"}
        assert isinstance(trick["leader"], int) and 0 <= trick["leader"] < players
        assert isinstance(trick["winner"], int) and 0 <= trick["winner"] < players
        assert isinstance(trick["points"], int) and trick["points"] >= 0
        assert len(trick["cards"]) == players and all(isinstance(c, str) for c in trick["cards"])
    assert isinstance(out["seat_points"], list) and len(out["seat_points"]) == players
    sides = 2 if players in (4, 6) else players
    assert isinstance(out["team_points"], list) and len(out["team_points"]) == sides
    assert out["winner"] is None or (isinstance(out["winner"], int) and 0 <= out["winner"] < sides)
    assert sum(out["seat_points"]) == sum(out["team_points"]) == sum(t["points"] for t in out["tricks"])


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_replay_from_stdin(players: int) -> None:
    game = played(players, players)
    text = Record.from_game(game).dumps()
    proc = run(["replay", "-"], text.encode())
    assert proc.returncode == 0, proc.stderr.decode()
    assert proc.stderr == b""
    lines = proc.stdout.decode().strip().splitlines()
    assert len(lines) == 1  # one JSON object, on one line without --indent
    out = json.loads(lines[0])
    check_shape(out, players)
    assert sum(out["seat_points"]) == 120
    ref = referee(players, game.dealer, [str(c) for c in game.deck],
                  [(s, a.kind, str(a.card)) for s, a in game.history])
    assert {k: out[k] for k in ("trump", "tricks", "seat_points", "team_points", "winner")} == {
        k: ref[k] for k in ("trump", "tricks", "seat_points", "team_points", "winner")
    }


def test_stdin_and_file_agree(tmp_path: Path) -> None:
    text = Record.from_game(played(4, 9, options={"deck": 48})).dumps(indent=2)
    path = tmp_path / "hand.json"
    path.write_text(text, encoding="utf-8")
    from_file = run(["replay", str(path)])
    from_stdin = run(["replay", "-"], text.encode())
    assert from_file.returncode == from_stdin.returncode == 0
    assert json.loads(from_file.stdout) == json.loads(from_stdin.stdout)


@pytest.mark.parametrize(("players", "steps"), [(2, 0), (2, 1), (2, 5), (3, 10), (4, 17), (6, 6)])
def test_record_that_stops_early(players: int, steps: int) -> None:
    game = played(players, 40 + steps, steps)
    assert not game.is_over()
    proc = run(["replay", "-"], Record.from_game(game).dumps().encode())
    assert proc.returncode == 0, proc.stderr.decode()
    out = json.loads(proc.stdout)
    check_shape(out, players)
    assert out["winner"] is None
    assert len(out["tricks"]) == len(game.tricks)
    assert out["seat_points"] == list(game.seat_points)
    ref = referee(players, game.dealer, [str(c) for c in game.deck],
                  [(s, a.kind, str(a.card)) for s, a in game.history])
    assert out["tricks"] == ref["tricks"] and out["seat_points"] == ref["seat_points"]


def test_indent_option(tmp_path: Path) -> None:
    path = tmp_path / "hand.json"
    path.write_text(Record.from_game(played(2, 1)).dumps(), encoding="utf-8")
    proc = run(["replay", "--indent", "2", str(path)])
    assert proc.returncode == 0
    assert len(proc.stdout.decode().splitlines()) > 10
    check_shape(json.loads(proc.stdout), 2)


def test_match_record_from_stdin() -> None:
    rng = random.Random(2)
    match = Match("spanish", 4, seed=2)
    while True:
        while not match.game.is_over():
            match.game.apply(rng.choice(match.game.legal_actions()))
        if match.is_over():
            break
        match.next_hand()
    proc = run(["replay", "-"], MatchRecord.from_match(match).dumps().encode())
    assert proc.returncode == 0, proc.stderr.decode()
    out = json.loads(proc.stdout)
    assert len(out["hands"]) == len(match.games)
    for hand in out["hands"]:
        check_shape(hand, 4)
    assert out["match_winner"] == match.winner


def test_in_process_main(capsys: pytest.CaptureFixture[str]) -> None:
    path = GOLDEN / "stops_early.record.json"
    assert main(["replay", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["seat_points"] == [21, 2] and out["winner"] is None


@pytest.mark.parametrize(
    ("stdin", "fragment"),
    [
        (b"", "JSON"),
        (b"{", "JSON"),
        (b"not json at all", "JSON"),
        (b'{"format": "brisca-record/1", "variant": "spanish", "players": 2}', "dealer"),
        (b'{"format": "brisca-record/1", "variant": "nope", "players": 2, "dealer": 0, "deck": []}', "nope"),
        (b"\xff\xfe\x00{", ""),
    ],
)
def test_bad_stdin_is_one_line(stdin: bytes, fragment: str) -> None:
    proc = run(["replay", "-"], stdin)
    err = proc.stderr.decode("utf-8", "replace")
    assert proc.returncode != 0
    assert "Traceback" not in err, err[-1500:]
    assert len(err.strip().splitlines()) == 1, err[-1500:]
    assert fragment in err
    assert proc.stdout == b""


def test_missing_file_is_one_line(tmp_path: Path) -> None:
    for path in (tmp_path / "nope.json", tmp_path):
        proc = run(["replay", str(path)])
        err = proc.stderr.decode()
        assert proc.returncode != 0
        assert "Traceback" not in err
        assert len(err.strip().splitlines()) == 1


def test_bad_action_names_its_index() -> None:
    game = played(3, 3)
    data = json.loads(Record.from_game(game).dumps())
    data["actions"][7]["seat"] = (data["actions"][7]["seat"] + 1) % 3
    proc = run(["replay", "-"], json.dumps(data).encode())
    err = proc.stderr.decode()
    assert proc.returncode != 0
    assert len(err.strip().splitlines()) == 1
    assert "action 7" in err


def test_every_command_has_working_help() -> None:
    import subprocess
    import sys

    for command in ([], ["play"], ["replay"], ["bench"], ["variants"], ["rules"], ["arena"], ["serve"]):
        out = subprocess.run([sys.executable, "-m", "brisca", *command, "--help"], capture_output=True, text=True,
                             timeout=60)
        assert out.returncode == 0 and "usage:" in out.stdout, (command, out.stderr)


# ---------------------------------------------------------------- output cut short by its reader


def test_rules_piped_into_head_ends_without_a_traceback() -> None:
    proc = subprocess.run(f"{sys.executable} -m brisca rules spanish --lang en | head -1", shell=True,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0
    assert proc.stdout == "Brisca (Spanish)\n"
    assert proc.stderr == ""


@pytest.mark.parametrize("command", [
    ["rules", "spanish"], ["rules", "briscola", "--markdown"], ["variants"], ["--help"],
    ["replay", str(GOLDEN / "match_two_players.record.json")],
    ["play", "--seed", "1", "--lang", "en", "--ai", "random"],
])
def test_every_command_ends_quietly_when_its_reader_has_gone(command: list[str]) -> None:
    """Standard output is a pipe whose reader has already gone: the first write fails, and the command ends with
    nothing on standard error (no "Broken pipe", no "Exception ignored"), as a shell tool ended by SIGPIPE."""
    read, write = os.pipe()
    os.close(read)
    try:
        proc = subprocess.run([sys.executable, "-m", "brisca", *command], stdout=write, stderr=subprocess.PIPE,
                              input=b"1\n" * 200, timeout=60)
    finally:
        os.close(write)
    assert proc.stderr.decode() == ""
    assert proc.returncode in (0, 141)
    if command[0] != "--help":  # argparse swallows its own write errors and exits 0
        assert proc.returncode == 141


def test_a_match_whose_reader_has_gone_keeps_its_record(tmp_path: Path) -> None:
    """``brisca play --save FILE | head``: the match stops at the first write that fails, and its record is saved."""
    record = tmp_path / "cut-short.json"
    proc = subprocess.run(f"{sys.executable} -m brisca play --no-cut --seed 1 --lang en --ai random --save {record}"
                          " | head -40", shell=True, input="1\n" * 300, capture_output=True, text=True, timeout=60)
    assert proc.stderr == ""
    assert len(proc.stdout.splitlines()) == 40
    loaded = MatchRecord.of(rec_loads(record.read_text(encoding="utf-8")))
    assert loaded.replay()
