"""Finished games analysed on request at the web table: queued, bounded, stored, never while live; and an
account's figures from the analyses of its games."""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from brisca import record as brisca_record
from brisca.actions import Action
from brisca.analysis import analyse, move_words
from brisca.server import analyses
from brisca.server.analyses import Analyst
from test_server_common import Conn, create, deadline, serve

PASSWORD = "a long enough password"


def _finished(client: TestClient, seed: int = 5) -> str:
    table_id = create(client, preset="spanish", players=2, bots={"0": "easy", "1": "normal"}, seed=seed,
                      options={"target_hands": 1})
    spectator = Conn(client, table_id)
    spectator.until(lambda m: m.get("kind") == "match_over" or (
        m.get("type") == "sync" and m["state"]["table"]["status"] == "finished"))
    spectator.close()
    return table_id


def _quick(client: TestClient) -> None:
    """Few worlds a decision: the tests check the plumbing, brisca.analysis's tests the values. (Four worlds never
    take a minute: no decision is cut by the clock.)"""
    app: Any = client.app
    app.state.analyst = Analyst(app.state.manager.store.engine, worlds=4, think=60.0)


def _until_done(client: TestClient, table_id: str) -> dict[str, Any]:
    end = time.monotonic() + 150
    while time.monotonic() < end:
        body: dict[str, Any] = client.get(f"/api/games/{table_id}/analysis").json()
        if body["status"] in ("done", "failed"):
            return body
        assert body["status"] == "queued"
        time.sleep(0.5)
    raise AssertionError("the analysis did not finish")


def test_a_finished_game_is_analysed_on_request_and_kept(tmp_path: Path) -> None:
    with deadline(240), serve(str(tmp_path / "db.sqlite3")) as client:
        _quick(client)
        table_id = _finished(client)
        assert client.get(f"/api/games/{table_id}/analysis").json() == {"status": "none"}
        asked = client.post(f"/api/games/{table_id}/analysis")
        assert asked.status_code == 200 and asked.json()["status"] in ("queued", "done")
        body = _until_done(client, table_id)
        assert body["status"] == "done", body
        data = body["analysis"]
        record = brisca_record.loads(client.get(f"/api/games/{table_id}/record").text)
        assert isinstance(record, brisca_record.MatchRecord)
        assert len(data["moves"]) == sum(len(h.actions) for h in record.hands)
        assert [m["action"] for m in data["moves"]] == [str(a) for h in record.hands for _s, a in h.actions]
        # The same analysis as the library's (none of its decisions ran out of time).
        if not any(m.get("cut") for m in data["moves"]):
            assert data["moves"] == analyse(record, seed=0, worlds=4, think=60.0).to_json()["moves"]
        # Asked again: it is kept, not made again.
        again = client.post(f"/api/games/{table_id}/analysis").json()
        assert again["status"] == "done" and again["analysis"] == data


def test_an_analysis_under_way_shows_its_progress(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with deadline(240), serve(str(tmp_path / "db.sqlite3")) as client:
        table_id = _finished(client)
        engine = client.app.state.manager.store.engine  # type: ignore[attr-defined]
        with engine.begin() as c:  # queued, as a request leaves it for its worker
            c.execute(sa.text("INSERT INTO brisca_analyses (table_id, status, requested_at) VALUES "
                              "(:id, 'queued', :now)"), {"id": table_id, "now": datetime.now(UTC).replace(tzinfo=None)})
        assert client.get(f"/api/games/{table_id}/analysis").json() == {"status": "queued", "ahead": 0}
        seen: list[tuple[int, int]] = []
        real = analyses.analyse

        def watched(*args: Any, **kwargs: Any) -> Any:  # what the page would read after each move's write
            inner = kwargs["progress"]

            def progress(done: int, total: int) -> None:
                inner(done, total)
                body = client.get(f"/api/games/{table_id}/analysis").json()
                seen.append((body["progress"]["done"], body["progress"]["total"]))
            return real(*args, **{**kwargs, "progress": progress})

        monkeypatch.setattr(analyses, "PROGRESS_EVERY", 0.0)
        monkeypatch.setattr(analyses, "analyse", watched)
        record = client.get(f"/api/games/{table_id}/record").text
        url = engine.url.render_as_string(hide_password=False)
        data = json.loads(analyses.analyse_text(record, 2, 5.0, url, table_id))
        total = len(data["moves"])
        assert seen == [(k, total) for k in range(1, total + 1)]


def test_no_analysis_of_a_live_game_or_of_no_game(tmp_path: Path) -> None:
    with deadline(60), serve(str(tmp_path / "db.sqlite3")) as client:
        _quick(client)
        r = client.post("/api/tables", json={"players": 2, "bots": {"1": "normal"}, "bot_delay": 0, "name": "Ana"})
        live = r.json()["table_id"]
        assert client.get(f"/api/tables/{live}").json()["status"] != "finished"
        assert client.post(f"/api/games/{live}/analysis").status_code == 404
        assert client.get(f"/api/games/{live}/analysis").status_code == 404
        assert client.post("/api/games/nosuchgame/analysis").status_code == 404
        assert client.get("/api/games/x/analysis").status_code == 404


def test_the_sites_queue_is_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with deadline(120), serve(str(tmp_path / "db.sqlite3")) as client:
        _quick(client)
        first, second = _finished(client, 5), _finished(client, 6)
        monkeypatch.setattr(analyses, "MAX_QUEUED", 1)
        assert client.post(f"/api/games/{first}/analysis").json()["status"] in ("queued", "done")
        if client.get(f"/api/games/{first}/analysis").json()["status"] == "queued":
            full = client.post(f"/api/games/{second}/analysis")
            assert full.status_code == 429 and "waiting" in full.json()["detail"]
            assert client.get(f"/api/games/{second}/analysis").json() == {"status": "none"}
        assert _until_done(client, first)["status"] == "done"
        # Once it is done the queue has room again.
        assert client.post(f"/api/games/{second}/analysis").status_code == 200
        assert _until_done(client, second)["status"] == "done"


def test_an_accounts_figures_come_from_its_analysed_games(tmp_path: Path) -> None:
    with deadline(240), serve(str(tmp_path / "db.sqlite3")) as client:
        _quick(client)
        csrf = {"X-CSRF-Token": client.get("/api/me").json()["csrf"] or ""}
        made = client.post("/api/signup", json={"username": "Ana", "password": PASSWORD}, headers=csrf)
        assert made.status_code == 200, made.text
        csrf = {"X-CSRF-Token": client.get("/api/me").json()["csrf"]}
        assert client.get("/api/players/ana/analysis").json() == []
        r = client.post("/api/tables", json={"players": 2, "bots": {"1": "normal"}, "bot_delay": 0, "seed": 3,
                                             "sit": True, "options": {"target_hands": 1}}, headers=csrf)
        assert r.status_code == 200, r.text
        body = r.json()
        conn = Conn(client, body["table_id"], token=body["token"])
        while True:
            state = conn.state
            if state is not None and state["table"]["status"] == "finished":
                break
            view = None if state is None else state["view"]
            if state is not None and state["table"]["status"] == "playing" and view and view["turn"] == 0 \
                    and view["legal"]:
                legal = view["legal"][-1]
                answer = conn.request({"type": "play", "action": {k: v for k, v in legal.items() if k != "text"}})
                assert answer["type"] == "ack", answer
                continue
            conn.recv()
        conn.close()
        table_id = body["table_id"]
        client.post(f"/api/games/{table_id}/analysis")
        data = _until_done(client, table_id)["analysis"]
        stats = client.get("/api/players/ana/analysis").json()
        mine = [m for m in data["moves"] if m["seat"] == 0 and "loss" in m]
        assert len(stats) == 1 and stats[0]["preset"] == "spanish" and stats[0]["games"] == 1
        assert stats[0]["decisions"] == len(mine) > 0
        assert stats[0]["loss"] == pytest.approx(sum(m["loss"] for m in mine) / len(mine), abs=1e-4)
        hands = len({m["hand"] for m in data["moves"]})
        marks = [m["mark"] for m in mine]
        assert stats[0]["mistakes_per_hand"] == pytest.approx(marks.count("mistake") / hands, abs=1e-3)
        assert client.get("/api/players/nobody/analysis").status_code == 404


def _my_turn(conn: Conn) -> dict[str, Any]:
    while True:
        state = conn.state
        if state is not None and state["table"]["status"] == "playing" and state["view"] \
                and state["view"]["turn"] == conn.seat and state["view"]["legal"]:
            return state
        conn.recv()


def test_a_hint_at_a_practice_table_on_ones_own_turn(tmp_path: Path) -> None:
    with deadline(60), serve(str(tmp_path / "db.sqlite3")) as client:
        r = client.post("/api/tables", json={"players": 2, "bots": {"1": "normal"}, "bot_delay": 0, "seed": 4,
                                             "name": "Ana"})
        body = r.json()
        conn = Conn(client, body["table_id"], token=body["token"])
        state = _my_turn(conn)
        assert state["table"]["practice"]
        hint = client.post(f"/api/tables/{body['table_id']}/hint", json={"token": body["token"]})
        assert hint.status_code == 200, hint.text
        found = hint.json()["hint"]
        assert found["text"] in [a["text"] for a in state["view"]["legal"]]
        assert 0 <= found["win"] <= 1 and 1 <= found["worlds"] <= 200
        # The move in words, as the terminal's hint and analysis say it, in every language.
        action = Action.from_json(found["action"])
        assert found["words"] == {lang: move_words(action, lang) for lang in ("es", "it", "en")}
        # The hint changed nothing at the table: the same move is still asked for.
        assert client.get(f"/api/tables/{body['table_id']}").json()["status"] == "playing"
        wrong = client.post(f"/api/tables/{body['table_id']}/hint", json={"token": "not-a-token"})
        assert wrong.status_code == 403
        assert client.post("/api/tables/nosuchtable/hint", json={"token": body["token"]}).status_code == 404
        conn.close()


def test_no_hint_at_a_table_that_is_not_for_practice(tmp_path: Path) -> None:
    with deadline(60), serve(str(tmp_path / "db.sqlite3")) as client:
        r = client.post("/api/tables", json={"players": 2, "bots": {"1": "normal"}, "bot_delay": 0, "name": "Ana"})
        body = r.json()
        conn = Conn(client, body["table_id"], token=body["token"])
        state = _my_turn(conn)
        assert not state["table"]["practice"]
        refused = client.post(f"/api/tables/{body['table_id']}/hint", json={"token": body["token"]})
        assert refused.status_code == 403 and "hints" in refused.json()["detail"]
        assert not state["table"]["hints"]
        conn.close()


def test_a_table_made_with_hints_gives_them_to_every_seat_and_is_never_rated(tmp_path: Path) -> None:
    with deadline(90), serve(str(tmp_path / "db.sqlite3")) as client:
        r = client.post("/api/tables", json={"players": 2, "bot_delay": 0, "name": "Ana", "hints": True})
        assert r.status_code == 200, r.text
        made = r.json()
        table_id = made["table_id"]
        lobby = client.get("/api/lobby").json()
        assert [e["hints"] for e in lobby["open"] if e["table_id"] == table_id] == [True]
        joined = client.post(f"/api/tables/{table_id}/join", json={"name": "Bea"}).json()
        conns = [Conn(client, table_id, token=made["token"]), Conn(client, table_id, token=joined["token"])]
        tokens = [made["token"], joined["token"]]
        actor: Any = client.app.state.manager.actors[table_id]  # type: ignore[attr-defined]
        assert actor.hints and not actor.rated and not actor.seeded
        first = conns[0]
        while not (first.state and first.state["table"]["status"] == "playing" and first.state["view"]
                   and first.state["view"]["turn"] is not None):
            first.recv()
        seat = first.state["view"]["turn"]
        asked: set[int] = set()
        for _ in range(2):  # the leader, then the other seat: each on its own turn a hint, the other refused
            state = _my_turn(conns[seat])
            assert state["table"]["hints"] and not state["table"]["practice"]
            hint = client.post(f"/api/tables/{table_id}/hint", json={"token": tokens[seat]})
            assert hint.status_code == 200, hint.text
            assert hint.json()["hint"]["action"] in [{k: v for k, v in a.items() if k != "text"}
                                                     for a in state["view"]["legal"]]
            other = client.post(f"/api/tables/{table_id}/hint", json={"token": tokens[1 - seat]})
            assert other.status_code == 409
            asked.add(seat)
            legal = state["view"]["legal"][0]
            answer = conns[seat].request({"type": "play", "action": {k: v for k, v in legal.items() if k != "text"}})
            assert answer["type"] == "ack", answer
            seat = 1 - seat
        assert asked == {0, 1}
        for conn in conns:
            conn.close()


def test_hints_are_a_yes_or_no(tmp_path: Path) -> None:
    with deadline(30), serve(str(tmp_path / "db.sqlite3")) as client:
        r = client.post("/api/tables", json={"players": 2, "bot_delay": 0, "name": "Ana", "hints": "many"})
        assert r.status_code == 422 and "hints" in r.json()["detail"]
