"""A resignation that leaves one side in the match ends it: that side wins, and the match is recorded, rated
where rated, in the history, replayable and verifiable, for 2 to 6 players."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from brisca.cli.verify import verify
from brisca.record import RecordError, loads
from brisca.server.ratings import START
from test_server_accounts import _csrf, _signup
from test_server_common import Conn, address, deadline, join_all, serve


def _event(kind: str) -> Any:
    return lambda m: m.get("type") == "event" and m.get("kind") == kind


def _finished_by_resignation(client: Any, table_id: str, winner: int, resigned: list[int]) -> dict[str, Any]:
    """The history's entry of the game, checked: its winner, its replay and its record, which verifies."""
    game = client.get(f"/api/games/{table_id}")
    assert game.status_code == 200, game.text
    assert game.json()["winner"] == winner
    assert table_id in [g["table_id"] for g in client.get("/api/games").json()]
    replay = client.get(f"/api/games/{table_id}/replay").json()
    assert replay["winner"] == winner and replay["resigned"] == resigned and replay["steps"]
    record = loads(client.get(f"/api/games/{table_id}/record").text)
    assert record.resigned is not None and record.resigned.winner == winner  # type: ignore[union-attr]
    assert any("every deck matches" in line for line in verify(record, []))
    info = client.get(f"/api/tables/{table_id}").json()
    assert info["status"] == "finished" and info["ended"] == "resigned" and info["match_winner"] == winner
    result: dict[str, Any] = game.json()
    return result


def test_a_two_person_match_where_one_resigns_is_won_by_the_other_rated_and_in_the_history(tmp_path: Path) -> None:
    with deadline(60), serve(str(tmp_path / "db.sqlite3")) as client:
        with address(client, "198.51.100.1"):
            _signup(client, "Ana")
            made = client.post("/api/tables", json={"players": 2, "bot_delay": 0, "sit": True},
                               headers=_csrf(client)).json()
            ana = Conn(client, made["table_id"], token=made["token"])
            client.post("/api/logout", headers=_csrf(client))
        with address(client, "198.51.100.2"):
            _signup(client, "Beto")
            beto = client.post(f"/api/tables/{made['table_id']}/join", json={}, headers=_csrf(client)).json()
            beto_conn = Conn(client, made["table_id"], token=beto["token"])
        assert ana.request({"type": "resign"})["type"] == "ack"
        over = beto_conn.until(_event("match_over"))[-1]
        assert over["winner"] == 1 and over["resigned"] == [0]
        game = _finished_by_resignation(client, made["table_id"], 1, [0])
        assert game["winners"] == ["Beto"]
        ratings = {p: client.get(f"/api/players/{p}").json()["ratings"][0] for p in ("ana", "beto")}
        assert ratings["ana"]["mu"] < START[0] < ratings["beto"]["mu"]
        assert ratings["ana"]["games"] == ratings["beto"]["games"] == 1
        ana.close()
        beto_conn.close()


@pytest.mark.parametrize(("preset", "players"), [("spanish", 3), ("spanish", 4), ("chiamata", 5), ("spanish", 6)])
def test_the_last_side_left_wins_for_every_number_of_players(tmp_path: Path, preset: str, players: int) -> None:
    """Everyone resigns but seat 1: the match goes on while two sides have a person playing, then ends. In a team
    game a resigned seat is played by a bot beside its partner, and the side loses when all its people resign."""
    with deadline(60), serve(str(tmp_path / "db.sqlite3"), takeover_after=None) as client:
        table_id = client.post("/api/tables", json={"preset": preset, "players": players, "bot_delay": 0}).json()[
            "table_id"]
        tokens = join_all(client, table_id, players)
        conns = [Conn(client, table_id, token=t) for t in tokens]
        sides = client.get(f"/api/tables/{table_id}").json()["sides"]
        order = [s for s in range(players) if s % sides != 1 % sides]
        watcher = Conn(client, table_id)
        for n, seat in enumerate(order):
            assert conns[seat].request({"type": "resign"})["type"] == "ack"
            last = n == len(order) - 1
            # The match is over once its end is stored and announced (after the acknowledgement).
            said = watcher.until(_event("match_over") if last else _event("resigned"))[-1]
            assert said["state"]["table"]["status"] == ("finished" if last else "playing"), (seat, said)
        conns.append(watcher)
        game = _finished_by_resignation(client, table_id, 1 % sides, order)
        assert all(game["guests"])  # those who resigned are still marked as guests in the history
        for c in conns:
            c.close()


def test_a_record_may_not_claim_a_win_by_resignation_for_the_side_that_resigned(tmp_path: Path) -> None:
    with deadline(60), serve(str(tmp_path / "db.sqlite3")) as client:
        table_id = client.post("/api/tables", json={"players": 2, "bot_delay": 0}).json()["table_id"]
        tokens = join_all(client, table_id, 2)
        me = Conn(client, table_id, token=tokens[0])
        assert me.request({"type": "resign"})["type"] == "ack"
        me.until(_event("match_over"))
        text = client.get(f"/api/games/{table_id}/record").text
        me.close()
    forged = loads(text.replace('"winner": 1', '"winner": 0'))
    with pytest.raises(RecordError, match="resigned last"):
        forged.replay()
    with pytest.raises(RecordError, match="resigned"):
        loads(text.replace('"winner": 1}', '"winner": 7}'))
