"""Golden records: ``python -m brisca replay FILE`` against outputs computed by the independent referee.

The expected files are written by ``tests/golden/make_golden.py`` from
``tests/reference.py`` alone; the engine never produced them.  Bad records must
exit non-zero with exactly one line on standard error, naming the action index
when an action is at fault, and never a traceback.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from reference import replay_record

GOLDEN = Path(__file__).resolve().parent / "golden"
BAD = GOLDEN / "bad"
RECORDS = sorted(GOLDEN.glob("*.record.json"))
BAD_SPECS = sorted(BAD.glob("*.expect.json"))
KEYS = ("trump", "tricks", "seat_points", "team_points", "winner")

sys.path.insert(0, str(GOLDEN))
from make_golden import expected as referee_expected  # noqa: E402


def replay(path: Path | str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "brisca", "replay", str(path)],
        input=stdin,
        capture_output=True,
        timeout=60,
    )


def expected_for(path: Path) -> Any:
    return json.loads(path.with_name(path.name.replace(".record.json", ".expected.json")).read_text("utf-8"))


def test_there_are_golden_records_of_every_kind() -> None:
    names = {p.name.replace(".record.json", "") for p in RECORDS}
    assert {"two_players_exchange_chain", "three_players", "four_players", "six_players", "deck48_three_players",
            "stops_early", "match_two_players", "draw_two_players"} <= names
    kinds = {json.loads(p.read_text("utf-8"))["players"] for p in RECORDS}
    assert kinds == {2, 3, 4, 6}
    assert len(BAD_SPECS) >= 20


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.name.replace(".record.json", ""))
def test_golden_replay(path: Path) -> None:
    proc = replay(path)
    assert proc.returncode == 0, proc.stderr.decode()
    assert proc.stderr == b""
    out = json.loads(proc.stdout)
    want = expected_for(path)
    if "hands" in want:
        assert [{k: h[k] for k in KEYS} for h in out["hands"]] == want["hands"]
        assert out["hands_won"] == want["hands_won"]
        assert out["match_winner"] == want["match_winner"]
    else:
        got = {k: out[k] for k in KEYS}
        for trick_got, trick_want in zip(got["tricks"], want["tricks"], strict=False):
            assert trick_got == trick_want  # the first trick that differs, for a readable failure
        assert got == want


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.name.replace(".record.json", ""))
def test_expected_files_are_the_referees(path: Path) -> None:
    """The expected outputs are exactly what the referee computes (run make_golden.py after changing it)."""
    assert referee_expected(json.loads(path.read_text("utf-8"))) == expected_for(path)


def test_stops_early_checked_by_hand() -> None:
    """The values reasoned out in make_golden.py's docstring, independently of both referee and engine."""
    want = {
        "trump": "O",
        "tricks": [
            {"leader": 0, "cards": ["1C", "3C"], "winner": 0, "points": 21},
            {"leader": 0, "cards": ["4C", "10O"], "winner": 1, "points": 2},
        ],
        "seat_points": [21, 2],
        "team_points": [21, 2],
        "winner": None,
    }
    path = GOLDEN / "stops_early.record.json"
    record = json.loads(path.read_text("utf-8"))
    assert record["deck"][:11] == ["1C", "3C", "4C", "2O", "5B", "6E", "7O", "12C", "10O", "11E", "3O"]
    assert [(a["seat"], a["play"]) for a in record["actions"]] == [
        (0, "1C"), (1, "3C"), (0, "4C"), (1, "10O"), (1, "6E")
    ]
    assert expected_for(path) == want
    out = json.loads(replay(path).stdout)
    assert {k: out[k] for k in KEYS} == want


def test_golden_hands_show_what_they_claim() -> None:
    chain = replay_record(json.loads((GOLDEN / "two_players_exchange_chain.record.json").read_text("utf-8")))
    assert [(e["seat"], e["gave"], e["took"]) for e in chain["exchanges"]][:2] == [(0, "7O", "1O"), (1, "2O", "7O")]
    draw = expected_for(GOLDEN / "draw_two_players.record.json")
    assert draw["seat_points"] == [60, 60] and draw["winner"] is None
    draw4 = expected_for(GOLDEN / "draw_four_players.record.json")
    assert draw4["team_points"] == [60, 60] and draw4["winner"] is None
    match = expected_for(GOLDEN / "match_two_players.record.json")
    assert [h["winner"] for h in match["hands"]][1] is None
    assert match["match_winner"] is not None and max(match["hands_won"]) == 2
    d48 = json.loads((GOLDEN / "deck48_three_players.record.json").read_text("utf-8"))
    assert d48["rules"] == {"deck": 48} and len(d48["deck"]) == 48
    early = expected_for(GOLDEN / "stops_early_four_players.record.json")
    assert early["winner"] is None and len(early["tricks"]) < 10


@pytest.mark.parametrize("spec_path", BAD_SPECS, ids=lambda p: p.name.replace(".expect.json", ""))
def test_bad_record(spec_path: Path) -> None:
    spec = json.loads(spec_path.read_text("utf-8"))
    record = spec_path.with_name(spec_path.name.replace(".expect.json", ".json"))
    proc = replay(record)
    err = proc.stderr.decode("utf-8", "replace")
    assert proc.returncode != 0
    assert "Traceback" not in err, err[-2000:]
    lines = err.strip().splitlines()
    assert len(lines) == 1, err[-2000:]
    line = lines[0]
    assert proc.stdout == b""
    if spec["index"] is not None:
        assert re.search(rf"\b(action|index)\s*#?{spec['index']}\b", line, re.IGNORECASE), line
    if spec["fragment"]:
        assert re.search(spec["fragment"], line, re.IGNORECASE), line
    if spec["hand"]:
        assert spec["hand"] in line, line


@pytest.mark.parametrize("spec_path", [p for p in BAD_SPECS if json.loads(p.read_text("utf-8"))["index"] is not None],
                         ids=lambda p: p.name.replace(".expect.json", ""))
def test_bad_records_are_bad_by_the_rules(spec_path: Path) -> None:
    """The referee refuses each bad action record exactly at the index the test expects."""
    spec = json.loads(spec_path.read_text("utf-8"))
    data = json.loads(spec_path.with_name(spec_path.name.replace(".expect.json", ".json")).read_text("utf-8"))
    with pytest.raises(ValueError, match=rf"^action {spec['index']}:"):
        replay_record(data)
    # and everything before it is legal
    hands = data.get("hands")
    if hands is None:
        replay_record({**data, "actions": data["actions"][: spec["index"]]})
