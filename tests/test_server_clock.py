"""The move clock, against a real server on a clock of the test's own: a person who never moves holds the table
at most the clock's time, their move played by the table's bot; repeated time-outs give the seat to the bot, or
lose a rated match; the deadline and the reserves survive a restart."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from brisca.rules import make_rules
from brisca.server.clock import FORFEIT_AFTER, HANDOVER_AFTER, Clock, default_clock, spent
from brisca.server.ratings import START
from test_server_accounts import _as, _csrf, _signup
from test_server_common import Conn, address, deadline, serve
from test_server_leave import _known


class FakeClock:
    """The time the server's move clocks read: it moves only when a test moves it."""

    def __init__(self) -> None:
        self.t = 1_800_000_000.0

    def __call__(self) -> float:
        return self.t


def _event(kind: str, **fields: Any) -> Any:
    return lambda m: m.get("type") == "event" and m.get("kind") == kind and all(
        m.get(k) == v for k, v in fields.items())


def _my_turn(conn: Conn) -> dict[str, Any]:
    """The state once it is ``conn``'s seat's turn and its clock runs (the bots play meanwhile)."""
    conn.sync()
    while True:
        state = conn.state
        if (state is not None and state["view"] is not None and state["view"]["turn"] == conn.seat
                and state["table"]["clock"]["seat"] == conn.seat):
            return state
        conn.recv()


def _turn_of(me: Conn, other: Conn) -> dict[str, Any]:
    """The state once it is ``me``'s turn, ``other`` playing its first legal move whenever its turn comes."""
    while True:
        other.sync()
        state = other.state
        if (state is not None and state["view"] is not None and state["view"]["turn"] == other.seat
                and state["table"]["clock"]["seat"] == other.seat):
            assert other.request({"type": "play", "action": state["view"]["legal"][0]["text"]})["type"] == "ack"
            continue
        me.sync()
        state = me.state
        if (state is not None and state["view"] is not None and state["view"]["turn"] == me.seat
                and state["table"]["clock"]["seat"] == me.seat):
            return state


def _look(client: Any, table_id: str) -> None:
    """Have the table look at its clock now (its own timer would, at the deadline by the real clock)."""
    client.portal.call(client.app.state.manager.actors[table_id].check_clock)


def _timed_out(conn: Conn, seat: int) -> list[dict[str, Any]]:
    return conn.until(lambda m: _event("action", timeout=True)(m) and m["action"]["seat"] == seat)


def _new_table(client: Any, clock: Any, **spec: Any) -> dict[str, Any]:
    made: dict[str, Any] = client.post("/api/tables", json={"players": 2, "bots": {"1": "easy"}, "bot_delay": 0,
                                                            "clock": clock, **spec}, headers=_csrf(client)).json()
    return made


def test_a_connected_person_who_never_moves_holds_the_table_at_most_the_clock(tmp_path: Path) -> None:
    clock = FakeClock()
    with deadline(60), serve(str(tmp_path / "db.sqlite3"), now=clock, takeover_after=None) as client:
        made = client.post("/api/tables", json={"players": 2, "bot_delay": 0, "name": "Ana",
                                                "clock": {"move": 10, "reserve": 30}}).json()
        table_id = made["table_id"]
        bo_token = client.post(f"/api/tables/{table_id}/join", json={"name": "Bo"}).json()["token"]
        ana, bo = Conn(client, table_id, token=made["token"]), Conn(client, table_id, token=bo_token)
        assert ana.welcome["now"] == clock.t  # the server's time, for the page to set its clock by
        state = _turn_of(ana, bo)
        shown = state["table"]["clock"]
        assert (shown["move"], shown["reserve"], shown["text"]) == (10, 30, "10 s + 30 s")
        assert shown["deadline"] == clock.t + 40 and shown["base_until"] == clock.t + 10
        assert shown["forfeit_after"] is None  # a guests' table is not rated
        assert state["table"]["seats"][0]["clock"] == {"reserve": 30, "timeouts": 0}

        clock.t += 39.9  # the move's base and most of the reserve: still hers to play
        _look(client, table_id)
        assert not [m for m in ana.sync() if m.get("kind") == "action"]
        clock.t += 0.2
        _look(client, table_id)
        out = _timed_out(ana, 0)[-1]
        assert out["state"]["table"]["seats"][0]["clock"] == {"reserve": 0, "timeouts": 1}

        # Her next move has the move's base alone (her reserve is spent); a second time-out in a row gives her
        # seat to the bot, which plays it without waiting.
        state = _turn_of(ana, bo)
        assert state["table"]["clock"]["deadline"] == clock.t + 10
        clock.t += 10.5
        _look(client, table_id)
        _timed_out(ana, 0)
        taken = ana.until(_event("takeover", seat=0))[-1]
        assert HANDOVER_AFTER == 2 and taken["clock"] is True
        assert taken["state"]["table"]["seats"][0]["standin"] == "normal"
        since = len(ana.messages)

        def bot_played() -> list[dict[str, Any]]:
            ana.sync()
            return [m for m in ana.messages[since:] if _event("action")(m) and m["action"]["seat"] == 0]

        while not bot_played():  # Bo plays whenever his turn comes (the deal decides who leads); the bot, Ana's
            bo.sync()
            state = bo.state
            assert state is not None and state["view"]["turn"] in (0, 1)
            if state["view"]["turn"] == 1:
                assert bo.request({"type": "play", "action": state["view"]["legal"][0]["text"]})["type"] == "ack"
        played = bot_played()[0]
        assert "timeout" not in played and played["state"]["table"]["clock"]["seat"] != 0  # no clock for a bot

        # She takes her seat back; her clock runs again on her turn.
        assert ana.request({"type": "back"})["type"] == "ack"
        back = [m for m in ana.messages if _event("back", seat=0)(m)][-1]  # announced before the ack
        assert back["state"]["table"]["seats"][0]["standin"] is None
        refused = ana.request({"type": "back"})["message"]
        assert refused == "no bot is playing your seat" and _known(refused)
        state = _turn_of(ana, bo)
        assert state["table"]["clock"]["seat"] == 0 and state["table"]["seats"][0]["clock"]["timeouts"] == 2
        ana.close()
        bo.close()


def test_a_move_in_time_spends_the_reserve_and_the_clock_survives_a_restart(tmp_path: Path) -> None:
    db = str(tmp_path / "db.sqlite3")
    clock = FakeClock()
    with deadline(60), serve(db, now=clock, takeover_after=None) as client:
        made = _new_table(client, {"move": 10, "reserve": 30}, name="Ana")
        table_id = made["table_id"]
        me = Conn(client, table_id, token=made["token"])
        state = _my_turn(me)
        clock.t += 15  # 5 s beyond the move's base: they come off her reserve
        assert me.request({"type": "play", "action": state["view"]["legal"][0]["text"]})["type"] == "ack"
        state = _my_turn(me)
        assert state["table"]["seats"][0]["clock"] == {"reserve": 25, "timeouts": 0}
        due = state["table"]["clock"]["deadline"]
        assert due == clock.t + 10 + 25
        me.close()

    with deadline(60), serve(db, now=clock, takeover_after=None) as client:
        info = client.get(f"/api/tables/{table_id}").json()  # loads it again from the database
        assert info["clock"]["deadline"] == due and info["clock"]["seat"] == 0
        assert info["seats"][0]["clock"] == {"reserve": 25, "timeouts": 0}
        watcher = Conn(client, table_id)
        clock.t = due + 0.1
        _look(client, table_id)
        _timed_out(watcher, 0)
        watcher.close()

    # Down past the deadline: the table, loaded again, gives the seat one move's base from then.
    with deadline(60), serve(db, now=clock, takeover_after=None) as client:
        me = Conn(client, table_id, token=made["token"])
        state = _my_turn(me)
        due = state["table"]["clock"]["deadline"]
        me.close()
    clock.t = due + 500
    with deadline(60), serve(db, now=clock, takeover_after=None) as client:
        info = client.get(f"/api/tables/{table_id}").json()
        assert info["clock"]["deadline"] == clock.t + 10 and info["seats"][0]["clock"]["reserve"] == 0


def test_a_rated_match_is_lost_after_its_time_outs(tmp_path: Path) -> None:
    clock = FakeClock()
    with deadline(60), serve(str(tmp_path / "db.sqlite3"), now=clock, takeover_after=None) as client:
        _signup(client, "Ana")
        made = client.post("/api/tables", json={"players": 2, "bot_delay": 0, "sit": True,
                                                "clock": {"move": 5, "reserve": 0}}, headers=_csrf(client)).json()
        table_id = made["table_id"]
        ana = Conn(client, table_id, token=made["token"])
        _as(client, None)
        with address(client, "192.0.2.7"):  # two people: one address would leave the match unrated
            _signup(client, "Beto")
            joined = client.post(f"/api/tables/{table_id}/join", json={}, headers=_csrf(client))
            assert joined.status_code == 200, joined.text
            bo = Conn(client, table_id, token=joined.json()["token"])
        assert _turn_of(ana, bo)["table"]["clock"]["forfeit_after"] == FORFEIT_AFTER == 3
        for n in range(1, FORFEIT_AFTER + 1):
            _turn_of(ana, bo)
            clock.t += 5.5
            _look(client, table_id)
            if n < FORFEIT_AFTER:
                _timed_out(ana, 0)
            if n == HANDOVER_AFTER:
                ana.until(_event("takeover", seat=0))
                assert ana.request({"type": "back"})["type"] == "ack"
        resigned = ana.until(_event("resigned", seat=0))[-1]
        assert resigned["clock"] is True
        over = ana.until(lambda m: m.get("kind") == "match_over")[-1]  # Ana's side resigned: Bo's side wins
        assert over["resigned"] == [0] and over["winner"] == 1
        rating = {r["preset"]: r for r in client.get("/api/players/ana").json()["ratings"]}["spanish"]
        assert rating["games"] == 1 and rating["mu"] < START[0]
        ana.close()
        bo.close()


def test_the_creator_picks_the_clock_within_the_servers_limits(tmp_path: Path) -> None:
    with deadline(60), serve(str(tmp_path / "db.sqlite3")) as client:
        def made(clock: Any, preset: str = "spanish", players: int = 2) -> Any:
            return client.post("/api/tables", json={"preset": preset, "players": players, "clock": clock})

        def shown(response: Any) -> Any:
            assert response.status_code == 200, response.text
            return client.get(f"/api/tables/{response.json()['table_id']}").json()["clock"]

        preset = shown(made("default"))
        assert (preset["move"], preset["reserve"]) == (15, 60)
        assert shown(made("fast"))["text"] == "10 s + 30 s"
        assert shown(made({"move": 45, "reserve": 120}))["text"] == "45 s + 2 min"
        lobby = client.get("/api/tables").json()
        for bad, status, where in (({"move": 2, "reserve": 0}, 400, "from 5 to 600 s"),
                                   ({"move": 30, "reserve": 10_000}, 400, "at most 3600 s"),
                                   ({"move": 30}, 422, "clock"), ("sometimes", 422, "clock"),
                                   ({"move": 30, "reserve": 0, "extra": 1}, 422, "clock"),
                                   ({"move": float("nan"), "reserve": 0}, 422, "clock")):
            if isinstance(bad, dict) and bad.get("move") != bad.get("move"):
                r = client.post("/api/tables", content='{"players": 2, "clock": {"move": NaN, "reserve": 0}}',
                                headers={"content-type": "application/json"})
            else:
                r = made(bad)
            assert r.status_code == status, (bad, r.text)
            assert where in r.text, r.text
            if status == 400:
                assert _known(r.json()["detail"])  # the page shows it in the reader's language
        assert client.get("/api/tables").json() == lobby  # nothing made


def test_bots_have_no_clock(tmp_path: Path) -> None:
    with deadline(60), serve(str(tmp_path / "db.sqlite3")) as client:
        table_id = client.post("/api/tables", json={"players": 2, "bots": {"0": "easy", "1": "easy"},
                                                    "bot_delay": 0.5}).json()["table_id"]
        info = client.get(f"/api/tables/{table_id}").json()
        assert info["status"] == "playing"
        assert info["clock"]["seat"] is None and info["clock"]["deadline"] is None
        assert [s["clock"] for s in info["seats"]] == [None, None]


def test_the_presets_clocks_and_the_reserve_spent() -> None:
    assert default_clock(make_rules("spanish", {})) == Clock(15, 60)
    assert default_clock(make_rules("chiamata", {})) == Clock(20, 120)  # an auction: more to think about
    assert default_clock(make_rules("bixkla", {})) == Clock(20, 90)  # partners' signals
    from brisca.server.clock import SeatClock

    seat = SeatClock(30.0)
    assert spent(Clock(10, 30), seat, deadline=140.0, now=105.0) == 30.0  # within the move's base
    assert spent(Clock(10, 30), seat, deadline=140.0, now=125.0) == 15.0
    assert spent(Clock(10, 30), seat, deadline=140.0, now=150.0) == 0.0


def test_serve_flags_bound_the_clock(tmp_path: Path) -> None:
    import argparse

    import pytest

    from brisca.cli.serve import add_serve_options, limits
    from brisca.errors import BriscaError

    parser = argparse.ArgumentParser()
    add_serve_options(parser)
    chosen = limits(parser.parse_args(["--min-clock-move", "20", "--max-clock-move", "40",
                                       "--max-clock-reserve", "100"]))
    assert (chosen.min_clock_move, chosen.max_clock_move, chosen.max_clock_reserve) == (20, 40, 100)
    for bad in (["--min-clock-move", "0"], ["--min-clock-move", "50", "--max-clock-move", "40"],
                ["--max-clock-reserve", "-1"], ["--max-clock-move", "soon"]):
        with pytest.raises(BriscaError):
            limits(parser.parse_args(bad))
    assert "--max-clock-reserve" in parser.format_help()
    with deadline(30), serve(str(tmp_path / "db.sqlite3"), limits=chosen) as client:
        # The preset's own clock (15 s a move, a minute in reserve) is brought within this server's limits; a
        # client's own clock outside them is refused.
        made = client.post("/api/tables", json={"players": 2}).json()["table_id"]
        assert client.get(f"/api/tables/{made}").json()["clock"]["text"] == "20 s + 1 min"
        refused = client.post("/api/tables", json={"players": 2, "clock": {"move": 15, "reserve": 60}})
        assert refused.status_code == 400 and "from 20 to 40 s" in refused.json()["detail"]
        assert client.post("/api/tables", json={"players": 2, "clock": {"move": 30, "reserve": 100}}).status_code == 200
