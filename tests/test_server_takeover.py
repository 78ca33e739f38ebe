"""A seated person gone too long: a bot plays the seat (announced first) until they come back with their token."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from test_server_common import Conn, deadline, match_of, serve

GRACE = 0.4


def _is(kind: str, seat: int) -> Any:
    return lambda m: m.get("type") == "event" and m.get("kind") == kind and m.get("seat") == seat


def test_an_absent_seat_is_played_by_a_bot_until_its_player_returns(tmp_path: Path) -> None:
    with deadline(40), serve(str(tmp_path / "db.sqlite3"), takeover_after=GRACE) as client:
        made = client.post("/api/tables", json={"players": 2, "bots": {"1": "easy"}, "bot_delay": 0.05,
                                                "seed": 8, "name": "Ana"}).json()
        table_id, token = made["table_id"], made["token"]
        me = Conn(client, table_id, token=token)
        watcher = Conn(client, table_id)
        assert watcher.state is not None and watcher.state["table"]["takeover_after"] == GRACE

        # Gone, and back within the grace period: the countdown is announced, then called off.
        me.close()
        away = watcher.until(_is("away", 0))[-1]
        assert away["seconds"] == GRACE and away["state"]["table"]["seats"][0]["away"]
        me = Conn(client, table_id, token=token)
        back = watcher.until(_is("back", 0))[-1]
        assert back["standin"] is False and not back["state"]["table"]["seats"][0]["away"]
        time.sleep(2 * GRACE)
        watcher.sync()
        assert not [m for m in watcher.messages if m.get("kind") == "takeover"]
        # Nobody plays for a person who is here: if it is their turn, the table waits for them.
        match = match_of(client, table_id)
        if match.game.turn == 0:
            count = len(match.game.history)
            time.sleep(0.3)
            assert len(match_of(client, table_id).game.history) == count

        # Gone for longer than the grace period: a bot plays the seat.
        me.close()
        watcher.until(_is("away", 0))
        gone = time.monotonic()
        took = watcher.until(_is("takeover", 0))[-1]
        assert time.monotonic() - gone >= GRACE * 0.8
        assert took["bot"] == "normal" and took["state"]["table"]["seats"][0]["standin"] == "normal"
        played = watcher.until(lambda m: m.get("kind") == "action" and m["action"]["seat"] == 0)
        assert played[-1]["state"]["table"]["status"] == "playing"

        # The person comes back with the seat token: the seat is theirs again, and only they play it.
        me = Conn(client, table_id, token=token)
        assert me.seat == 0
        back = watcher.until(_is("back", 0))[-1]
        assert back["standin"] is True and back["state"]["table"]["seats"][0]["standin"] is None
        me.sync()
        assert me.state is not None
        deadline_at = time.monotonic() + 10
        while me.state["view"]["turn"] != 0:  # wait for our turn
            assert time.monotonic() < deadline_at
            me.recv()
        count = len(match_of(client, table_id).game.history)
        time.sleep(max(0.3, 2 * GRACE))
        assert len(match_of(client, table_id).game.history) == count  # no bot moved for us
        legal = me.state["view"]["legal"][0]
        assert me.request({"type": "play", "action": legal["text"]})["type"] == "ack"
        me.close()
        watcher.close()


def test_a_seat_never_connected_is_taken_over_after_the_start(tmp_path: Path) -> None:
    """Bea never connects: her seat is announced away once the match starts, then a bot plays it. Cy, the other
    person, stays, so the table plays on to the end of the match (were every person's seat played by a bot, it
    would close one grace period later: the next test)."""
    with deadline(30), serve(str(tmp_path / "db.sqlite3"), takeover_after=GRACE) as client:
        made = client.post("/api/tables", json={"players": 2, "name": "Bea",
                                                "options": {"target_hands": 1}}).json()
        table_id = made["table_id"]
        joined = client.post(f"/api/tables/{table_id}/join", json={"name": "Cy"}).json()
        cy = Conn(client, table_id, token=joined["token"])
        assert cy.seat == 1
        cy.until(_is("away", 0))
        message = cy.until(_is("takeover", 0))[-1]
        # Cy plays his turns; the stand-in plays Bea's, to the end of the match.
        while message.get("kind") != "match_over":
            view = (message.get("state") or {}).get("view")
            if message.get("type") == "event" and view and view["turn"] == 1 and view["legal"]:
                cy.send({"type": "play", "action": view["legal"][0]["text"]})
            message = cy.recv()
        # The person's name stays on the seat and in the history.
        info = client.get(f"/api/tables/{table_id}").json()
        assert info["status"] == "finished" and info["seats"][0]["name"] == "Bea"
        assert info["seats"][0]["standin"] is None and not info["seats"][0]["away"]
        assert client.get("/api/games").json()[0]["names"][:2] == ["Bea", "Cy"]
        # A finished table stays watchable.
        watcher = Conn(client, table_id)
        assert watcher.state is not None and watcher.state["table"]["status"] == "finished"
        watcher.close()
        cy.close()


def test_a_table_whose_only_person_never_connects_closes_one_grace_period_after_the_takeover(
        tmp_path: Path) -> None:
    """Every person's seat played by a stand-in: the table closes one more grace period after the takeover, and a
    watcher hears why before its connection closes. (The bots wait 1 s a move: the match cannot end first.)"""
    with deadline(30), serve(str(tmp_path / "db.sqlite3"), takeover_after=GRACE) as client:
        made = client.post("/api/tables", json={"players": 2, "bots": {"1": "easy"}, "bot_delay": 1,
                                                "seed": 9, "name": "Bea"}).json()
        watcher = Conn(client, made["table_id"])
        watcher.until(_is("away", 0))
        took = watcher.until(_is("takeover", 0))[-1]
        closed = watcher.until(lambda m: m.get("kind") == "closed")[-1]
        assert closed["reason"] == "everyone at it left"
        assert closed["state"]["table"]["version"] - took["state"]["table"]["version"] <= 2  # a move, at most
        assert not [m for m in watcher.messages if m.get("kind") == "match_over"]
        assert client.get(f"/api/tables/{made['table_id']}").status_code == 410
        watcher.close()


def test_no_takeover_when_it_is_off(tmp_path: Path) -> None:
    with deadline(20), serve(str(tmp_path / "db.sqlite3"), takeover_after=None) as client:
        made = client.post("/api/tables", json={"players": 2, "bots": {"1": "easy"}, "bot_delay": 0,
                                                "seed": 10, "name": "Caz"}).json()
        me = Conn(client, made["table_id"], token=made["token"])
        watcher = Conn(client, made["table_id"])
        me.close()
        time.sleep(0.5)
        watcher.sync()
        assert not [m for m in watcher.messages if m.get("kind") in ("away", "takeover")]
        assert match_of(client, made["table_id"]).game.turn == 0  # the table waits for its person
        watcher.close()


def test_no_takeover_while_a_person_may_be_connected_elsewhere(tmp_path: Path) -> None:
    """Where several processes serve the site and this one cannot hear from the others (Redis down), a person
    away from this process may have their page open on another: their seat waits, and is taken over only once
    their presence can be known again."""
    with deadline(30), serve(str(tmp_path / "db.sqlite3"), takeover_after=GRACE) as client:
        made = client.post("/api/tables", json={"players": 2, "bots": {"1": "easy"}, "bot_delay": 0,
                                                "seed": 8, "name": "Dan"}).json()
        me = Conn(client, made["table_id"], token=made["token"])
        watcher = Conn(client, made["table_id"])
        unknown = [True]
        client.app.state.manager.actors[made["table_id"]].presence_unknown = lambda: unknown[0]  # type: ignore[attr-defined]
        me.close()
        watcher.until(_is("away", 0))
        time.sleep(5 * GRACE)
        watcher.sync()
        assert not [m for m in watcher.messages if m.get("kind") == "takeover"]
        unknown[0] = False
        gone = time.monotonic()
        watcher.until(_is("takeover", 0))
        assert time.monotonic() - gone < 10  # at the next look (every 2 s)
        watcher.close()
