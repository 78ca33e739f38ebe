"""Leaving a waiting table, resigning a match, cancelling a table one created, and the close of a table whose
people have all gone."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from brisca.server.pagetext import PAGE_EN
from brisca.server.ratings import START
from test_server_accounts import _csrf, _signup
from test_server_common import Conn, deadline, join_all, match_of, serve


def _event(kind: str, **fields: Any) -> Any:
    return lambda m: m.get("type") == "event" and m.get("kind") == kind and all(
        m.get(k) == v for k, v in fields.items())


def test_leave_frees_the_seat_before_the_start_and_the_last_one_out_closes_the_table(tmp_path: Path) -> None:
    with deadline(30), serve(str(tmp_path / "db.sqlite3")) as client:
        made = client.post("/api/tables", json={"players": 4, "bot_delay": 0, "name": "Ana"}).json()
        table_id = made["table_id"]
        bo = client.post(f"/api/tables/{table_id}/join", json={"name": "Bo"}).json()
        ana, conn = Conn(client, table_id, token=made["token"]), Conn(client, table_id, token=bo["token"])
        watcher = Conn(client, table_id)
        assert watcher.request({"type": "leave"})["code"] == "illegal"  # a spectator holds no seat

        assert conn.request({"type": "leave"})["type"] == "ack"
        left = watcher.until(_event("left", seat=1))[-1]
        assert left["name"] == "Bo" and left["state"]["table"]["seats"][1]["name"] is None
        lobby = client.get("/api/lobby").json()["open"]
        assert [t["free"] for t in lobby if t["table_id"] == table_id] == [[1, 2, 3]]
        # The old token holds nothing; the seat can be taken again, by anyone.
        again = client.websocket_connect(f"/ws/{table_id}")
        with again as ws:
            ws.send_json({"type": "hello", "token": bo["token"]})
            assert ws.receive_json()["code"] == "bad_token"
        cris = client.post(f"/api/tables/{table_id}/join", json={"name": "Cris", "seat": 1})
        assert cris.status_code == 200
        cris_conn = Conn(client, table_id, token=cris.json()["token"])

        # Resigning is for a match under way.
        assert ana.request({"type": "resign"})["code"] == "illegal"
        assert ana.request({"type": "leave"})["type"] == "ack"
        assert client.get(f"/api/tables/{table_id}").json()["status"] == "waiting"  # Cris is still at it
        assert cris_conn.request({"type": "leave"})["type"] == "ack"
        watcher.until(_event("closed"))
        assert client.get(f"/api/tables/{table_id}").status_code == 410
        for c in (ana, conn, cris_conn, watcher):
            c.close()


def test_leave_is_refused_once_the_match_is_on(tmp_path: Path) -> None:
    with deadline(30), serve(str(tmp_path / "db.sqlite3")) as client:
        table_id = client.post("/api/tables", json={"players": 2, "bot_delay": 0}).json()["table_id"]
        tokens = join_all(client, table_id, 2)
        me = Conn(client, table_id, token=tokens[0])
        refused = me.request({"type": "leave"})
        assert refused["code"] == "illegal" and "resign" in refused["message"]
        assert client.get(f"/api/tables/{table_id}").json()["seats"][0]["name"] == "p0"
        me.close()


def test_only_the_creator_cancels_a_waiting_table(tmp_path: Path) -> None:
    with deadline(30), serve(str(tmp_path / "db.sqlite3")) as client:
        table_id = client.post("/api/tables", json={"players": 2, "bot_delay": 0, "name": "Ana"}).json()["table_id"]
        watcher = Conn(client, table_id)
        _signup(client, "Dani")  # someone else: an account, not the guest who created the table
        refused = client.post(f"/api/tables/{table_id}/cancel", headers=_csrf(client))
        assert refused.status_code == 403 and "created" in refused.json()["detail"]
        assert client.get(f"/api/tables/{table_id}").json()["status"] == "waiting"
        client.post("/api/logout", headers=_csrf(client))

        cancelled = client.post(f"/api/tables/{table_id}/cancel")
        assert cancelled.status_code == 200 and cancelled.json()["status"] == "closed"
        assert "cancelled" in watcher.until(_event("closed"))[-1]["reason"]
        assert client.get(f"/api/tables/{table_id}").status_code == 410
        assert client.post(f"/api/tables/{table_id}/cancel").status_code == 410
        assert client.post("/api/tables/nosuchtable/cancel").status_code == 404
        watcher.close()

        # A match under way is not cancelled (its people resign).
        started = client.post("/api/tables", json={"players": 2, "bots": {"1": "easy"}, "bot_delay": 0,
                                                   "name": "Ana"}).json()["table_id"]
        late = client.post(f"/api/tables/{started}/cancel")
        assert late.status_code == 409 and "resign" in late.json()["detail"]


def test_resigning_hands_the_seat_to_a_bot_and_closes_a_table_left_without_opponents(tmp_path: Path) -> None:
    db = str(tmp_path / "db.sqlite3")
    with deadline(60), serve(db, takeover_after=None) as client:
        table_id = client.post("/api/tables", json={"players": 4, "bot_delay": 0}).json()["table_id"]
        tokens = join_all(client, table_id, 4)
        conns = [Conn(client, table_id, token=t) for t in tokens]
        watcher = Conn(client, table_id)
        assert conns[0].request({"type": "resign"})["type"] == "ack"
        resigned = watcher.until(_event("resigned", seat=0))[-1]
        seat = resigned["state"]["table"]["seats"][0]
        assert resigned["name"] == "p0" and seat["resigned"] and seat["standin"] == "normal"
        assert seat["name"] == "p0"  # the seat keeps its name: the results still say who played it
        assert conns[0].request({"type": "play", "action": "1O"})["code"] == "not_your_turn"  # a spectator now
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            ws.send_json({"type": "hello", "token": tokens[0]})
            assert ws.receive_json()["code"] == "bad_token"
        # People of both sides remain: the match goes on, a bot playing seat 0 whenever its turn comes.
        def bot_played() -> bool:
            watcher.sync()
            return any(m.get("kind") == "action" and m["action"]["seat"] == 0 for m in watcher.messages)

        for _ in range(4):
            if bot_played():
                break
            conn = conns[match_of(client, table_id).game.turn or 0]
            conn.sync()
            assert conn.state is not None and conn.state["view"]["turn"] == conn.seat != 0
            assert conn.request({"type": "play", "action": conn.state["view"]["legal"][0]["text"]})["type"] == "ack"
        assert bot_played()
        assert client.get(f"/api/tables/{table_id}").json()["status"] == "playing"
        for c in conns:
            c.close()
        watcher.close()

    # A restart keeps the resignation: the token still holds nothing, a bot still plays the seat.
    with deadline(60), serve(db, takeover_after=None) as client:
        info = client.get(f"/api/tables/{table_id}").json()
        assert info["seats"][0]["resigned"] and info["seats"][0]["standin"] == "normal"
        watcher = Conn(client, table_id)
        # Seat 2, p0's partner, resigns too: side 0 has nobody left, and side 1 wins the match.
        partner = Conn(client, table_id, token=tokens[2])
        assert partner.request({"type": "resign"})["type"] == "ack"
        over = watcher.until(_event("match_over"))[-1]
        assert over["winner"] == 1 and over["resigned"] == [0, 2]
        info = client.get(f"/api/tables/{table_id}").json()
        assert info["status"] == "finished" and info["ended"] == "resigned" and info["match_winner"] == 1
        game = client.get(f"/api/games/{table_id}").json()
        assert game["winner"] == 1 and game["winners"] == ["p1", "p3"]
        partner.close()
        watcher.close()


def test_a_resignation_is_a_rated_loss(tmp_path: Path) -> None:
    with deadline(30), serve(str(tmp_path / "db.sqlite3")) as client:
        _signup(client, "Ana")
        made = client.post("/api/tables", json={"players": 2, "bots": {"1": "easy"}, "bot_delay": 0, "sit": True},
                           headers=_csrf(client)).json()
        me = Conn(client, made["table_id"], token=made["token"])
        assert me.request({"type": "resign"})["type"] == "ack"
        assert me.until(_event("match_over"))[-1]["winner"] == 1  # the bot's side wins at once
        rating = {r["preset"]: r for r in client.get("/api/players/ana").json()["ratings"]}["spanish"]
        assert rating["games"] == 1 and rating["mu"] < START[0]
        me.close()


def test_a_table_whose_people_all_left_closes_after_a_second_grace_period(tmp_path: Path) -> None:
    grace = 0.3
    with deadline(30), serve(str(tmp_path / "db.sqlite3"), takeover_after=grace) as client:
        made = client.post("/api/tables", json={"players": 2, "bots": {"1": "easy"}, "bot_delay": 0.05,
                                                "name": "Ana"}).json()
        watcher = Conn(client, made["table_id"])
        watcher.until(_event("takeover", seat=0))
        closed = watcher.until(_event("closed"))
        assert closed[-1]["reason"] == "everyone at it left"
        # What the page draws: a closed table, why, and nobody's turn to come.
        table = closed[-1]["state"]["table"]
        assert table["status"] == "closed" and table["closed_reason"] == "everyone at it left"
        assert table["match_over"] is False and table["ended"] is None
        again = client.get(f"/api/tables/{made['table_id']}")
        assert again.status_code == 410 and again.json()["detail"] == "this table is closed (everyone at it left)"
        assert any(m.get("kind") == "action" and m["action"]["seat"] == 0 for m in closed)  # a bot played meanwhile
        watcher.close()


def _known(message: str) -> bool:
    """Whether the page shows ``message`` in the reader's language: one of its ``srv_*`` templates matches it."""
    for key, template in PAGE_EN.items():
        if key.startswith("srv_"):
            parts = re.split(r"(\{\w+\})", template)
            pattern = "".join(".+?" if re.fullmatch(r"\{\w+\}", p) else re.escape(p) for p in parts)
            if re.fullmatch(pattern, message):
                return True
    return False


def test_the_page_can_translate_what_the_table_says(tmp_path: Path) -> None:
    """The errors and closing reasons of joining, leaving, resigning and cancelling are the server's English texts
    the page recognises (and shows in Spanish or Italian)."""
    said: list[str] = []
    with deadline(30), serve(str(tmp_path / "db.sqlite3")) as client:
        full = client.post("/api/tables", json={"players": 2, "bot_delay": 0}).json()["table_id"]
        tokens = join_all(client, full, 2)
        said.append(client.post(f"/api/tables/{full}/join", json={"name": "Cris"}).json()["detail"])
        said.append(client.post("/api/tables/nosuchtable/join", json={"name": "Cris"}).json()["detail"])
        said.append(client.post(f"/api/tables/{full}/cancel").json()["detail"])
        me = Conn(client, full, token=tokens[0])
        said.append(me.request({"type": "leave"})["message"])
        if me.state is not None and me.state["view"]["turn"] != 0:
            said.append(me.request({"type": "play", "action": "1O"})["message"])
        watcher = Conn(client, full)
        said.append(watcher.request({"type": "resign"})["message"])

        waiting = client.post("/api/tables", json={"players": 3, "bot_delay": 0, "name": "Ana"}).json()
        said.append(client.post(f"/api/tables/{waiting['table_id']}/join", json={"seat": 0, "name": "Bo"})
                    .json()["detail"])
        ana = Conn(client, waiting["table_id"], token=waiting["token"])
        said.append(ana.request({"type": "resign"})["message"])
        assert ana.request({"type": "leave"})["type"] == "ack"
        said.append(ana.until(_event("closed"))[-1]["reason"])
        said.append(client.post(f"/api/tables/{waiting['table_id']}/join", json={"name": "Bo"}).json()["detail"])

        other = client.post("/api/tables", json={"players": 2, "bot_delay": 0}).json()["table_id"]
        watching = Conn(client, other)
        client.post(f"/api/tables/{other}/cancel")
        said.append(watching.until(_event("closed"))[-1]["reason"])
        for _ in range(4):  # up to the cap on open tables (4 in the tests' limits)
            client.post("/api/tables", json={"players": 2, "bot_delay": 0})
        said.append(client.post("/api/tables", json={"players": 2, "bot_delay": 0}).json()["detail"])
        for c in (me, watcher, ana, watching):
            c.close()
    assert len(said) >= 11
    assert [m for m in said if not _known(m)] == [], said
