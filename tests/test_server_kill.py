"""``kill -9`` of the server mid-game (twice), on SQLite: nothing acknowledged or broadcast is lost or doubled.

A real ``brisca serve`` subprocess on 127.0.0.1, 20 tables of two client-side bots each over WebSockets
(:mod:`brisca.server.loadtest`); every client reconnects with its seat token and last event number after
each restart, and the matches are played to their end. The same checks with three processes serving one site,
the owner of the most tables killed: ``tests/test_server_cluster.py``.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

pytest.importorskip("websockets")

from brisca.game import Match
from brisca.record import MatchRecord
from brisca.server import loadtest
from brisca.server.loadtest import SeatLog, check_tables

pytestmark = pytest.mark.cluster  # a stage of its own in CI (tests/conftest.py)

TABLES = 20


def test_kill_9_mid_game_loses_and_duplicates_nothing(tmp_path: Path) -> None:
    run = loadtest.durability(TABLES, pace=0.03, kill_after=0.8, kills=2, deadline=40.0, workdir=tmp_path)
    report: dict[str, Any] = asyncio.run(asyncio.wait_for(run, 75))
    assert report["problems"] == []
    assert (report["lost"], report["duplicated"], report["misplaced"]) == (0, 0, 0)
    # Both kills came mid-game (the first at every table), with moves acknowledged before each and more after.
    first, second = report["kills"]
    assert first["tables_mid_game"] == TABLES and second["tables_mid_game"] >= TABLES // 2
    assert 0 < first["acked_before"] < second["acked_before"] < report["acked_checked"]
    # Every client came back after each restart, every match ended, and every record replays.
    assert report["reconnects"] >= 2 * 2 * TABLES
    assert report["records_replayed"] == TABLES
    # Every action of every record was acknowledged to its seat, or found in the match after a crash (in
    # the snapshot, or, when the next hand was dealt meanwhile, in the record), and broadcast to both seats.
    assert report["acked_checked"] + report["kept_unanswered_past_a_hand"] == report["actions_in_records"]
    assert report["broadcasts_checked"] >= 2 * report["actions_in_records"] - 4 * TABLES
    assert report["ok"]


def _finished_table(seed: int) -> tuple[SimpleNamespace, Match]:
    """A table whose clients were acknowledged and shown exactly what the record holds."""
    rng = random.Random(seed)
    match = Match("spanish", 2, seed=seed)
    logs = [SeatLog(), SeatLog()]
    while True:
        game = match.game
        while not game.is_over():
            seat, action = game.turn, rng.choice(game.legal_actions())
            assert seat is not None
            game.apply(action)
            key = (len(match.games) - 1, len(game.history))
            logs[seat].acked[key] = str(action)
            for log in logs:
                log.seen[key] = (seat, str(action))
        if match.is_over():
            break
        match.next_hand()
    table = SimpleNamespace(id=f"t{seed}", record=MatchRecord.from_match(match).dumps(),
                            seats=[SimpleNamespace(log=log) for log in logs])
    return table, match


def _stored(table: Any, match: Match) -> dict[str, list[int]]:
    return {table.id: list(range(sum(len(g.history) for g in match.games)))}


def test_the_checks_catch_a_lost_a_doubled_and_a_wrong_action() -> None:
    table, match = _finished_table(3)
    report = check_tables([table], _stored(table, match))  # type: ignore[list-item]
    assert report["ok"] and report["acked_checked"] == report["actions_in_records"] > 0

    # An acknowledged action past the end of the record: lost.
    lost, match = _finished_table(4)
    lost.seats[0].log.acked[(len(match.games) - 1, 999)] = "1O"
    assert check_tables([lost], _stored(lost, match))["lost"] == 1  # type: ignore[list-item]

    # The record holds another action where a seat was acknowledged its own: misplaced.
    wrong, match = _finished_table(5)
    key = next(iter(wrong.seats[1].log.acked))
    wrong.seats[1].log.acked[key] = "xx"
    assert check_tables([wrong], _stored(wrong, match))["misplaced"] >= 1  # type: ignore[list-item]

    # One action stored twice (its number repeated), or a number skipped.
    doubled, match = _finished_table(6)
    stored = _stored(doubled, match)
    stored[doubled.id].insert(5, 5)
    result = check_tables([doubled], stored)  # type: ignore[list-item]
    assert result["duplicated"] == 1 and not result["ok"]
    gap = _stored(doubled, match)
    del gap[doubled.id][7]
    assert not check_tables([doubled], gap)["ok"]  # type: ignore[list-item]

    # A connection that saw an event number twice, or a snapshot older than an event it had.
    seen_twice, match = _finished_table(7)
    seen_twice.seats[0].log.problems.append("seat 0: event 12 after 12")
    assert not check_tables([seen_twice], _stored(seen_twice, match))["ok"]  # type: ignore[list-item]


def test_a_client_notices_a_skipped_repeated_or_older_event_number() -> None:
    async def feed() -> list[str]:
        run = loadtest.Run("http://127.0.0.1:1", pace=0, players=2, preset="spanish", seed=1)
        table = loadtest.TableClient(run, 0, "t0", ["a", "b"])
        seat = table.seats[0]
        for message in ({"type": "welcome", "seat": 0, "v": 4},
                        {"type": "event", "v": 5, "kind": "chat"}, {"type": "event", "v": 6, "kind": "chat"},
                        {"type": "event", "v": 6, "kind": "chat"}, {"type": "event", "v": 8, "kind": "chat"},
                        {"type": "welcome", "seat": 0, "v": 8}):
            seat.handle(message)
        assert len(seat.log.problems) == 2
        state = {"table": {"status": "playing", "hand_number": 0}, "view": None}
        seat.handle({"type": "sync", "v": 7, "state": state})  # older than event 8: something was lost
        seat.handle({"type": "sync", "v": 9, "state": state})
        return seat.log.problems

    problems = asyncio.run(feed())
    assert problems == ["seat 0: event 6 after 6", "seat 0: event 8 after 6", "seat 0: snapshot 7 after event 8"]
