"""The web table's limits: rates per client address, caps on open tables and match lengths, idle tables."""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi import Request

from brisca.errors import BriscaError
from brisca.server import create_app
from brisca.server.limits import Limiter, Limits, Rate, RateLimited, client_address
from test_server_common import Conn, TestClient, create, deadline, serve

#: Rates no test here reaches unless it means to.
FAST = Rate(1e9, 1_000_000)
LOOSE = Limits(rate_create=FAST, rate_join=FAST, rate_chat=FAST, rate_login=FAST)
#: Idle tables are looked for every 0.1 s and closed after 0.5 s.
IDLE = LOOSE.replace(idle_after=0.5, idle_check_every=0.1, min_bot_delay=0)


def as_address(client: Any, host: str) -> None:
    """The test client's next requests and connections come from ``host``."""
    client._transport.client = (host, 50000)


def until(pred: Any, seconds: float = 10.0) -> None:
    end = time.monotonic() + seconds
    while not pred():
        assert time.monotonic() < end, "the condition never came true"
        time.sleep(0.05)


def lobby_ids(client: Any) -> set[str]:
    lobby = client.get("/api/lobby").json()
    return {t["table_id"] for key in ("open", "playing") for t in lobby[key]}


# ------------------------------------------------------------------ the spam of one address


def test_table_spam_is_refused_with_a_reason(tmp_path: Path) -> None:
    """One address, tables of four bots at bot_delay 0 and a match to 10**15 points: refused, then capped."""
    # The defaults, but for a burst of 8 tables rather than 5: enough to reach each refusal in turn.
    with deadline(30), serve(str(tmp_path / "db.sqlite3"), limits=Limits(rate_create=Rate(10, 8))) as client:
        bots = {str(s): "easy" for s in range(4)}
        spam = {"players": 4, "bots": bots, "bot_delay": 0, "options": {"target_points": 10**15,
                                                                       "match": "target_points"}}
        r = client.post("/api/tables", json=spam)  # past any option's bound: refused before the rules see it
        assert r.status_code == 422 and "'target_points'" in r.json()["detail"]
        r = client.post("/api/tables", json={**spam, "options": {"target_points": 5000, "match": "target_points"}})
        assert r.status_code == 400 and "'target_points' is at most 1000" in r.json()["detail"]
        r = client.post("/api/tables", json={**spam, "options": {"target_hands": 10**15}})
        assert r.status_code == 422 and "'target_hands'" in r.json()["detail"]
        r = client.post("/api/tables", json={**spam, "options": {"target_hands": 50}})
        assert r.status_code == 400 and "'target_hands' is at most 10" in r.json()["detail"]
        r = client.post("/api/tables", json={**spam, "options": {}})
        assert r.status_code == 400 and "bot_delay is at least 0.5" in r.json()["detail"]
        # Bots only, to watch: one per owner.
        assert client.post("/api/tables", json={**spam, "options": {}, "bot_delay": 0.5}).status_code == 200
        r = client.post("/api/tables", json={**spam, "options": {}, "bot_delay": 0.5})
        assert r.status_code == 409 and "bots only" in r.json()["detail"]
        # Many tables from one address: three open at most, and 8 at once (each try counts), then 10 a minute.
        assert create(client, players=2, bot_delay=0.6) and create(client, players=2, bot_delay=0.6)
        r = client.post("/api/tables", json={"players": 2})
        assert r.status_code == 409 and "3 open tables, this server's limit of 3" in r.json()["detail"]
        r = client.post("/api/tables", json={"players": 2})
        assert r.status_code == 429 and "tables opened" in r.json()["detail"]
        assert int(r.headers["Retry-After"]) >= 1
        assert len(client.app.state.manager.actors) == 3  # type: ignore[attr-defined]
        # Another address has its own bucket and its own tables.
        as_address(client, "203.0.113.9")
        r = client.post("/api/tables", json={"players": 2})
        assert r.status_code == 200
        actor = client.app.state.manager.actors[r.json()["table_id"]]  # type: ignore[attr-defined]
        assert actor.owner == "guest:203.0.113.9"


def test_bot_only_tables_are_capped_on_the_whole_server(tmp_path: Path) -> None:
    limits = LOOSE.replace(max_bot_tables=5, max_bot_tables_total=2)
    with deadline(20), serve(str(tmp_path / "db.sqlite3"), limits=limits) as client:
        spec = {"players": 2, "bots": {"0": "easy", "1": "easy"}, "bot_delay": 10}
        for host in ("198.51.100.1", "198.51.100.2"):
            as_address(client, host)
            assert client.post("/api/tables", json=spec).status_code == 200
        as_address(client, "198.51.100.3")
        r = client.post("/api/tables", json=spec)
        assert r.status_code == 409 and "this server has 2 open tables of bots only" in r.json()["detail"]
        assert client.post("/api/tables", json={"players": 2, "bots": {"1": "easy"}}).status_code == 200


def test_match_length_caps(tmp_path: Path) -> None:
    limits = LOOSE.replace(max_target_hands=3, max_target_points=200)
    with deadline(20), serve(str(tmp_path / "db.sqlite3"), limits=limits) as client:
        for options, detail in (({"target_hands": 4}, "option 'target_hands' is at most 3 on this server, not 4"),
                                ({"match": "target_points", "target_points": 201},
                                 "option 'target_points' is at most 200 on this server, not 201")):
            r = client.post("/api/tables", json={"players": 2, "options": options})
            assert (r.status_code, r.json()["detail"]) == (400, detail)
        assert client.post("/api/tables", json={"players": 2, "options": {"target_hands": 3}}).status_code == 200
        # A preset's own length counts too (rematada: to 500 points).
        r = client.post("/api/tables", json={"preset": "rematada", "players": 3})
        assert r.status_code == 400 and "'target_points' is at most 200" in r.json()["detail"]
    # The defaults let every preset be played as it is.
    from brisca.rules import find_variant, variant_names

    for name in variant_names():
        rules = find_variant(name)
        assert rules.target_hands <= Limits().max_target_hands and rules.target_points <= Limits().max_target_points


def test_a_match_past_max_hands_is_closed(tmp_path: Path) -> None:
    limits = LOOSE.replace(max_hands=1, min_bot_delay=0)
    with deadline(30), serve(str(tmp_path / "db.sqlite3"), limits=limits) as client:
        # Three hands to win: the first hand cannot end the match (a big win counts two).
        table_id = create(client, players=2, bots={"0": "easy", "1": "easy"}, options={"target_hands": 3})
        watcher = Conn(client, table_id)
        closed = watcher.until(lambda m: m.get("kind") == "closed")[-1]
        assert closed["reason"] == "its match reached this server's limit on hands (1) without a winner"
        assert closed["state"]["table"]["status"] == "closed"
        watcher.close()
        assert client.get(f"/api/tables/{table_id}").status_code == 410
        assert table_id not in lobby_ids(client) and client.get("/api/games").json() == []


# ------------------------------------------------------------------ rates per address


def test_create_join_and_chat_are_rate_limited_per_address_and_refilled(tmp_path: Path) -> None:
    two_a_second = Rate(120, 2)
    limits = LOOSE.replace(rate_create=two_a_second, rate_join=two_a_second, rate_chat=Rate(120, 3))
    with deadline(30), serve(str(tmp_path / "db.sqlite3"), limits=limits) as client:
        table_id = create(client, players=4)
        create(client, players=2)
        r = client.post("/api/tables", json={"players": 2})
        assert r.status_code == 429 and r.headers["Retry-After"] == "1"
        assert r.json()["detail"] == "too many tables opened from your address; try again in 1 s"
        time.sleep(0.6)
        assert client.post("/api/tables", json={"players": 2}).status_code == 200

        tokens = [client.post(f"/api/tables/{table_id}/join", json={"name": n}).json()["token"] for n in "ab"]
        r = client.post(f"/api/tables/{table_id}/join", json={"name": "c"})
        assert r.status_code == 429 and "seats taken" in r.json()["detail"]
        as_address(client, "192.0.2.44")  # another address: its own bucket
        assert client.post(f"/api/tables/{table_id}/join", json={"name": "c"}).status_code == 200
        as_address(client, "testclient")
        time.sleep(0.6)
        assert client.post(f"/api/tables/{table_id}/join", json={"name": "d"}).status_code == 200

        # Chat: one bucket for all the connections of an address.
        first, second = Conn(client, table_id, token=tokens[0]), Conn(client, table_id, token=tokens[1])
        answers = [conn.request({"type": "chat", "text": "hola"}) for conn in (first, second, first, second)]
        assert [a["type"] for a in answers] == ["ack", "ack", "ack", "error"]
        assert answers[-1]["code"] == "rate" and "chat messages" in answers[-1]["message"]
        assert answers[-1]["retry_after"] == 1
        second.sync()  # only chat is limited
        time.sleep(0.6)
        assert second.request({"type": "chat", "text": "ya"})["type"] == "ack"
        first.close()
        second.close()


def test_other_endpoints_use_the_limiter_for_logins(tmp_path: Path) -> None:
    app = create_app(str(tmp_path / "db.sqlite3"), limits=LOOSE.replace(rate_login=Rate(1, 2)))

    @app.post("/probe-login")
    def login(request: Request) -> dict[str, bool]:
        request.app.state.limiter.check("login", client_address(request.client))
        return {"ok": True}

    with deadline(20), TestClient(app) as client:
        assert [client.post("/probe-login").status_code for _ in range(2)] == [200, 200]
        r = client.post("/probe-login")
        assert (r.status_code, r.headers["Retry-After"]) == (429, "60")
        assert r.json() == {"detail": "too many login attempts from your address; try again in 60 s"}


def test_the_limiter_refills_keeps_addresses_apart_and_forgets_the_oldest() -> None:
    now = [0.0]
    limiter = Limiter(Limits(rate_login=Rate(6, 2), max_addresses=3), clock=lambda: now[0])
    limiter.check("login", "a")
    limiter.check("login", "a")
    with pytest.raises(RateLimited) as refused:
        limiter.check("login", "a")
    assert refused.value.seconds == 10 and "login attempts" in refused.value.message
    limiter.check("login", "b")  # another address
    now[0] = 10.0
    limiter.check("login", "a")  # one token back after 10 s (6 a minute)
    assert limiter.retry_after("login", "a") == pytest.approx(10.0)
    for address in "cdefg":
        limiter.check("login", address)
    assert len(limiter.buckets) == 3 and ("login", "a") not in limiter.buckets


# ------------------------------------------------------------------ idle tables


def test_an_idle_table_is_closed_and_stays_closed_after_a_restart(tmp_path: Path) -> None:
    db = str(tmp_path / "db.sqlite3")
    with deadline(30):
        with serve(db, limits=IDLE) as client:
            waiting = create(client, players=2, bots={"1": "easy"})
            made = client.post("/api/tables", json={"players": 3, "bots": {"2": "easy"}, "name": "Ana"}).json()
            seated, token = made["table_id"], made["token"]
            assert {waiting, seated} <= lobby_ids(client)
            until(lambda: client.get(f"/api/tables/{waiting}").status_code == 410)
            until(lambda: client.get(f"/api/tables/{seated}").status_code == 410)
            assert lobby_ids(client) == set()
            assert client.app.state.manager.actors == {}  # type: ignore[attr-defined]
            r = client.post(f"/api/tables/{waiting}/join", json={"name": "Bea"})
            # It says why it closed, to whoever opens it afterwards.
            assert (r.status_code, r.json()["detail"]) == (410, "this table is closed (nobody was at it for 0.5 s)")
            with client.websocket_connect(f"/ws/{seated}") as ws:
                said = ws.receive_json()
                assert said["code"] == "closed" and said["message"].endswith("(nobody was at it for 0.5 s)")
        # A restarted server does not bring them back.
        with serve(db, limits=IDLE) as client:
            assert client.app.state.manager.actors == {}  # type: ignore[attr-defined]
            assert lobby_ids(client) == set()
            assert client.post(f"/api/tables/{seated}/join", json={"name": "Bea"}).status_code == 410
            with client.websocket_connect(f"/ws/{seated}") as ws:
                ws.send_json({"type": "hello", "token": token})
                assert ws.receive_json()["code"] == "closed"
    from brisca.server.store import Store

    store = Store(db)
    try:
        state = store.load(seated)
        assert state is not None and state.status == "closed"
        assert all(s.name is None and s.token_hash is None for s in state.seats if s.bot is None)
    finally:
        store.dispose()


def test_a_table_with_a_person_connected_is_not_closed(tmp_path: Path) -> None:
    with deadline(30), serve(str(tmp_path / "db.sqlite3"), limits=IDLE) as client:
        made = client.post("/api/tables", json={"players": 3, "bots": {"2": "easy"}, "name": "Ana"}).json()
        me = Conn(client, made["table_id"], token=made["token"])
        time.sleep(1.5)  # three idle periods
        assert client.get(f"/api/tables/{made['table_id']}").json()["status"] == "waiting"
        assert me.request({"type": "chat", "text": "still here"})["type"] == "ack"
        me.close()
        until(lambda: client.get(f"/api/tables/{made['table_id']}").status_code == 410)


def test_a_watched_bot_table_stays_and_an_unwatched_one_closes(tmp_path: Path) -> None:
    with deadline(30), serve(str(tmp_path / "db.sqlite3"), limits=IDLE) as client:
        table_id = create(client, players=2, bots={"0": "easy", "1": "easy"}, bot_delay=0.05,
                          options={"target_hands": 10})
        watcher = Conn(client, table_id)
        time.sleep(1.2)
        assert client.get(f"/api/tables/{table_id}").json()["status"] == "playing"  # its bots move on
        watcher.close()
        until(lambda: client.get(f"/api/tables/{table_id}").status_code == 410)
        assert table_id not in lobby_ids(client)


def test_a_finished_game_stays_listed_after_the_idle_tables_are_closed(tmp_path: Path) -> None:
    with deadline(30), serve(str(tmp_path / "db.sqlite3"), limits=IDLE) as client:
        table_id = create(client, players=2, bots={"0": "easy", "1": "easy"}, options={"target_hands": 1})
        watcher = Conn(client, table_id)  # watched: not closed before it ends
        watcher.until(lambda m: m.get("kind") == "match_over" or (
            m.get("type") == "sync" and m["state"]["table"]["status"] == "finished"))
        watcher.close()
        manager = client.app.state.manager  # type: ignore[attr-defined]
        until(lambda: table_id not in manager.actors)  # let go of once idle; kept in the database
        assert [g["table_id"] for g in client.get("/api/games").json()] == [table_id]
        assert client.get(f"/api/tables/{table_id}").json()["status"] == "finished"
        assert client.get(f"/api/games/{table_id}/replay").status_code == 200
        # Bots against bots: kept, never rated.
        assert client.get("/api/ratings").json() == []


# ------------------------------------------------------------------ brisca serve's flags


def test_serve_flags_set_the_limits() -> None:
    from brisca.cli.serve import add_serve_options, limits

    parser = argparse.ArgumentParser()
    add_serve_options(parser)
    assert limits(parser.parse_args([])) == Limits()
    chosen = limits(parser.parse_args(["--rate-create", "4/2", "--rate-chat", "90", "--max-open-tables", "7",
                                       "--idle-after", "60", "--min-bot-delay", "1.5", "--max-hands", "9"]))
    assert chosen.rate_create == Rate(4, 2) and chosen.rate_chat == Rate(90, Limits().rate_chat.burst)
    assert (chosen.max_open_tables, chosen.idle_after, chosen.min_bot_delay, chosen.max_hands) == (7, 60, 1.5, 9)
    for bad in (["--rate-join", "fast"], ["--rate-join", "0"], ["--max-open-tables", "-1"], ["--idle-after", "0"]):
        with pytest.raises(BriscaError):
            limits(parser.parse_args(bad))
    help_text = parser.format_help()
    for flag in ("--rate-create", "--rate-login", "--max-open-tables-account", "--max-bot-tables-total",
                 "--max-target-points", "--idle-after"):
        assert flag in help_text
    assert "(default 1800)" in help_text and "(default 10/5)" in help_text
