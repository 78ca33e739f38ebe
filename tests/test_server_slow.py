"""Slow tables, played over days, against a real server on a clock of the test's own: they sleep between moves
(their actors let go), wake on a move or on their deadline, and are listed where it is one's turn."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from brisca.server.limits import Limits, Rate
from test_server_accounts import _as, _csrf, _signup
from test_server_clock import FakeClock, _my_turn
from test_server_common import Conn, deadline, serve
from test_server_leave import _known

DAY = 86400.0


def _limits(**more: Any) -> Limits:
    loose = Rate(10_000, 10_000)
    return Limits(min_bot_delay=0, max_open_tables=4, rate_login=loose, rate_create=loose, rate_join=loose,
                  rate_password=loose, provisional_games=0, max_connections=10_000, hello_timeout=600, **more)


def _sweep(client: Any) -> None:
    client.portal.call(client.app.state.manager.sweep)


def _actors(client: Any) -> dict[str, Any]:
    actors: dict[str, Any] = client.app.state.manager.actors
    return actors


def _slow_table(client: Any, **more: Any) -> dict[str, Any]:
    r = client.post("/api/tables", json={"players": 2, "bots": {"1": "easy"}, "bot_delay": 0, "sit": True,
                                         "clock": "days", **more}, headers=_csrf(client))
    assert r.status_code == 200, r.text
    made: dict[str, Any] = r.json()
    return made


def test_a_slow_table_sleeps_between_moves_and_wakes_on_a_move_or_its_deadline(tmp_path: Path) -> None:
    clock = FakeClock()
    db = str(tmp_path / "db.sqlite3")
    with deadline(60), serve(db, now=clock, takeover_after=None) as client:
        _signup(client, "Ana")
        made = _slow_table(client)
        table_id = made["table_id"]
        ana = Conn(client, table_id, token=made["token"])
        state = _my_turn(ana)
        assert state["table"]["clock"]["text"] == "1 d + 2 d"
        due = state["table"]["clock"]["deadline"]
        assert due == clock.t + 3 * DAY
        _sweep(client)
        assert table_id in _actors(client)  # Ana is here: it stays awake
        ana.close()
        _sweep(client)
        assert table_id not in _actors(client)  # asleep: nothing of it in memory

        mine = client.get("/api/my/tables").json()["tables"]
        assert [(t["table_id"], t["your_turn"], t["deadline"], t["slow"]) for t in mine] == [
            (table_id, True, due, True)]
        assert table_id not in {t["table_id"] for t in client.get("/api/lobby").json()["playing"]}
        assert table_id not in _actors(client)  # the lobby did not wake it

        # A move wakes it: Ana comes back, plays, and it sleeps again on her next turn.
        ana = Conn(client, table_id, token=made["token"])
        state = _my_turn(ana)
        assert state["table"]["clock"]["deadline"] == due  # the deadline it slept with
        clock.t += DAY / 2
        assert ana.request({"type": "play", "action": state["view"]["legal"][0]["text"]})["type"] == "ack"
        state = _my_turn(ana)
        due = state["table"]["clock"]["deadline"]
        assert due == clock.t + 3 * DAY  # half a day into her move's day: her reserve is whole
        ana.close()
        _sweep(client)
        assert table_id not in _actors(client)

        # Its deadline wakes it: the clock ran out, the table's bot played for Ana, and it sleeps again.
        clock.t = due + 1
        _sweep(client)
        give_up = time.monotonic() + 30
        while client.get(f"/api/tables/{table_id}").json()["seats"][0]["clock"]["timeouts"] != 1:
            assert time.monotonic() < give_up, "the woken table did not play for Ana"
            time.sleep(0.05)
        while table_id in _actors(client):
            assert time.monotonic() < give_up, "the table did not go back to sleep"
            _sweep(client)
            time.sleep(0.05)

    # A restart leaves it asleep; its deadline still wakes it.
    with deadline(60), serve(db, now=clock, takeover_after=None) as client:
        assert table_id not in _actors(client)
        _as(client, None)
        assert client.get("/api/my/tables").status_code == 401


def test_slow_tables_are_for_accounts_within_their_own_cap(tmp_path: Path) -> None:
    with deadline(60), serve(str(tmp_path / "db.sqlite3"), limits=_limits(max_slow_tables=2)) as client:
        guest = client.post("/api/tables", json={"players": 2, "clock": "days", "name": "Cris"})
        assert guest.status_code == 403 and "log in" in guest.json()["detail"] and _known(guest.json()["detail"])
        _signup(client, "Ana")
        made = [_slow_table(client, bots={}) for _ in range(2)]
        third = client.post("/api/tables", json={"players": 2, "clock": "days", "sit": True}, headers=_csrf(client))
        assert third.status_code == 409 and "2 open slow tables" in third.json()["detail"]
        assert _known(third.json()["detail"])
        # They do not count in the open tables a person may have: those still open.
        assert client.post("/api/tables", json={"players": 2, "sit": True}, headers=_csrf(client)).status_code == 200
        too_long = client.post("/api/tables", json={"players": 2, "clock": {"move": 8 * DAY, "reserve": 0}},
                               headers=_csrf(client))
        assert too_long.status_code == 400 and _known(too_long.json()["detail"])
        bots_only = client.post("/api/tables", json={"players": 2, "bots": {"0": "easy", "1": "easy"},
                                                     "clock": "days"}, headers=_csrf(client))
        assert bots_only.status_code == 400 and _known(bots_only.json()["detail"])
        # Waiting for a second account, they sleep, and the lobby lists them (read from the database, not woken).
        _sweep(client)
        slow_ids = {m["table_id"] for m in made}
        assert not slow_ids & set(_actors(client))
        lobby = client.get("/api/lobby").json()
        assert slow_ids <= {t["table_id"] for t in lobby["open"]}
        assert {t["clock"] for t in lobby["open"] if t["table_id"] in slow_ids} == {"1 d + 2 d"}
        assert not slow_ids & set(_actors(client))
        _as(client, None)
        joined = client.post(f"/api/tables/{made[0]['table_id']}/join", json={"name": "Cris"})
        assert joined.status_code == 403 and _known(joined.json()["detail"])


def test_many_slow_tables_asleep_hold_nothing_in_memory(tmp_path: Path) -> None:
    with deadline(120), serve(str(tmp_path / "db.sqlite3"), limits=_limits(max_slow_tables=100)) as client:
        _signup(client, "Ana")
        made = [_slow_table(client)["table_id"] for _ in range(40)]
        _sweep(client)
        assert not set(made) & set(_actors(client))
        mine = client.get("/api/my/tables").json()["tables"]
        assert {t["table_id"] for t in mine} == set(made)
        assert client.get("/healthz").json()["tables_loaded"] == len(_actors(client))


def test_serve_flags_bound_the_slow_tables() -> None:
    import argparse

    import pytest

    from brisca.cli.serve import add_serve_options, limits
    from brisca.errors import BriscaError

    parser = argparse.ArgumentParser()
    add_serve_options(parser)
    chosen = limits(parser.parse_args(["--max-slow-move", "7200", "--max-slow-reserve", "0", "--max-slow-tables", "3"]))
    assert (chosen.max_slow_move, chosen.max_slow_reserve, chosen.max_slow_tables) == (7200, 0, 3)
    for bad in (["--max-slow-move", "60"], ["--max-slow-tables", "-1"], ["--max-slow-reserve", "many"]):
        with pytest.raises(BriscaError):
            limits(parser.parse_args(bad))
