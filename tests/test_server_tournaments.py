"""Tournaments against a real server on a clock of the test's own: made, joined and left, started; each round's
tables played out by the move clock's time-outs (nobody connects), the next round paired once; the standings, the
ratings of a rated one, a restart mid-tournament, the limits, and bad input."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy.orm import Session

from brisca.cli import main
from brisca.server.clock import Clock
from brisca.server.db import TournamentRow, TournamentTableRow, _now
from brisca.server.limits import Limits, Rate
from brisca.server.store import Store
from brisca.server.tournament_api import CreateTournament
from brisca.server.tournament_store import Settings, TournamentStore
from test_server_accounts import PASSWORD, _as, _csrf, _signup
from test_server_clock import FakeClock
from test_server_common import address, deadline, serve
from test_server_leave import _known

#: One hand a match, a short clock: a round is a handful of time-outs, then the bots that took the seats.
QUICK = {"preset": "spanish", "options": {"target_hands": 1}, "clock": {"move": 5, "reserve": 0}, "bot_delay": 0}


def _limits(**changes: Any) -> Limits:
    loose = Rate(10_000, 10_000)
    return Limits(min_bot_delay=0, max_open_tables=4, max_bot_tables=2, rate_login=loose, rate_create=loose,
                  rate_join=loose, rate_password=loose, provisional_games=0, provisional_opponents=0,
                  max_connections=10_000, hello_timeout=600).replace(**changes)


def _make(client: Any, **spec: Any) -> str:
    r = client.post("/api/tournaments", json={"name": "Friday", **QUICK, **spec}, headers=_csrf(client))
    assert r.status_code == 200, r.text
    tournament_id: str = r.json()["id"]
    return tournament_id


def _join(client: Any, tournament_id: str, name: str | None = None) -> dict[str, Any]:
    r = client.post(f"/api/tournaments/{tournament_id}/join", json={} if name is None else {"name": name},
                    headers=_csrf(client))
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


def _show(client: Any, tournament_id: str) -> dict[str, Any]:
    r = client.get(f"/api/tournaments/{tournament_id}")
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


def _play_round(client: Any, clock: FakeClock, tournament_id: str) -> dict[str, Any]:
    """Time passes until the round being played is over (each person's clock runs out twice, then a bot plays
    their seat); the tournament once the next round is paired or it is over."""
    before = _show(client, tournament_id)
    manager = client.app.state.manager
    while True:
        now = _show(client, tournament_id)
        if now["round"] != before["round"] or now["status"] != before["status"]:
            return now
        clock.t += 6
        for actor in list(manager.actors.values()):
            if actor.tournament == tournament_id:
                client.portal.call(actor.check_clock)
        time.sleep(0.01)  # the bots' moves, on the server's loop


def _rows(client: Any, row: Any, **where: Any) -> list[Any]:
    with Session(client.app.state.manager.store.engine) as s:
        return list(s.scalars(sa.select(row).filter_by(**where)))


def test_a_swiss_tournament_of_guests_played_by_the_clock(tmp_path: Path) -> None:
    clock = FakeClock()
    with deadline(120), serve(str(tmp_path / "db.sqlite3"), now=clock, takeover_after=None) as client:
        _signup(client, "organiser")
        tournament_id = _make(client, rounds=2, max_entrants=8)
        _as(client, None)
        names = ["Ana", "Bo", "Cy", "Di", "Ed"]
        joined = {n: _join(client, tournament_id, n) for n in names}
        assert _show(client, tournament_id)["status"] == "open"
        # Ed leaves before the start; his token leaves nothing twice.
        left = client.post(f"/api/tournaments/{tournament_id}/leave", json={"token": joined["Ed"]["token"]})
        assert left.status_code == 200
        again = client.post(f"/api/tournaments/{tournament_id}/leave", json={"token": joined["Ed"]["token"]})
        assert again.status_code == 403 and _known(again.json()["detail"])
        # Only its creator starts it.
        assert client.post(f"/api/tournaments/{tournament_id}/start").status_code == 401
        _signup(client, "intruder")
        refused = client.post(f"/api/tournaments/{tournament_id}/start", headers=_csrf(client))
        assert refused.status_code == 403 and _known(refused.json()["detail"])
        _as(client, None)
        r = client.post("/api/login", json={"username": "organiser", "password": PASSWORD}, headers=_csrf(client))
        assert r.status_code == 200
        assert client.post(f"/api/tournaments/{tournament_id}/start", headers=_csrf(client)).status_code == 200
        _as(client, None)

        shown = _show(client, tournament_id)
        # Four entrants, two rounds asked for: a round robin needs three, so Swiss.
        assert (shown["status"], shown["system"], shown["round"], shown["total_rounds"]) == ("playing", "swiss", 1, 2)
        first = shown["pairings"][0]["tables"]
        assert len(first) == 2 and all(s["bot"] is None for t in first for s in t["seats"])
        seated = sorted(s["name"] for t in first for s in t["seats"])
        assert seated == ["Ana", "Bo", "Cy", "Di"]
        # Joining after the start is refused.
        late = client.post(f"/api/tournaments/{tournament_id}/join", json={"name": "Late"})
        assert late.status_code == 409 and "started" in late.json()["detail"] and _known(late.json()["detail"])

        # Each entrant's token gives their seat at this round's table, and that seat's token holds it.
        mine = client.post(f"/api/tournaments/{tournament_id}/me", json={"token": joined["Ana"]["token"]}).json()
        assert mine["entrant"]["name"] == "Ana"
        table = mine["table"]
        actor = client.app.state.manager.actors[table["table_id"]]
        assert actor.seat_of(table["token"]) == table["seat"]
        assert actor.seats[table["seat"]].name == "Ana"
        info = client.get(f"/api/tables/{table['table_id']}").json()
        assert info["tournament"] == tournament_id and info["rated"] is False
        stranger = client.post(f"/api/tournaments/{tournament_id}/me", json={"token": "nope"}).json()
        assert stranger == {"entrant": None, "table": None, "creator": False}

        after_one = _play_round(client, clock, tournament_id)
        assert after_one["round"] == 2 and after_one["status"] == "playing"
        done = after_one["pairings"][0]["tables"]
        assert all(t["over"] and t["finished"] for t in done)
        # Round 2: the winners of round 1 meet, and so do the losers; nobody meets again.
        winners = {s["name"] for t in done for i, s in enumerate(t["seats"]) if i % 2 == t["winner"]}
        second = after_one["pairings"][1]["tables"]
        if all(t["winner"] is not None for t in done):  # (a match may end level, 60 to 60)
            assert frozenset(winners) in {frozenset(s["name"] for s in t["seats"]) for t in second}
        met = {frozenset(s["name"] for s in t["seats"]) for t in done}
        assert not met & {frozenset(s["name"] for s in t["seats"]) for t in second}
        standings = after_one["standings"]
        assert standings[0]["rank"] == 1 and len(standings) == 4
        assert [s["score"] for s in standings] == sorted((s["score"] for s in standings), reverse=True)
        assert {"buchholz", "sonneborn_berger", "points"} == set(standings[0]["tiebreaks"])

        final = _play_round(client, clock, tournament_id)
        assert final["status"] == "finished" and final["round"] == 2
        assert sum(s["score"] for s in final["standings"]) == 4  # two rounds of two matches, a point each
        # Each round paired once: two rounds of two tables, nothing more.
        boards = _rows(client, TournamentTableRow, tournament_id=tournament_id)
        assert sorted((b.round, b.board) for b in boards) == [(1, 0), (1, 1), (2, 0), (2, 1)]
        # Looking again pairs nothing more.
        client.portal.call(client.app.state.tournaments.sweep)
        assert len(_rows(client, TournamentTableRow, tournament_id=tournament_id)) == 4
        listed = client.get("/api/tournaments").json()["tournaments"]
        assert [t["status"] for t in listed if t["id"] == tournament_id] == ["finished"]


def test_a_round_robin_with_a_bot_and_the_next_round_paired_once(tmp_path: Path) -> None:
    clock = FakeClock()
    with deadline(120), serve(str(tmp_path / "db.sqlite3"), now=clock, takeover_after=None) as client:
        _signup(client, "organiser")
        tournament_id = _make(client, rounds=5, max_entrants=3, start="full", bot="easy")
        _as(client, None)
        for name in ("Ana", "Bo"):
            _join(client, tournament_id, name)
        assert _show(client, tournament_id)["status"] == "open"
        _join(client, tournament_id, "Cy")  # the third: full, it starts
        shown = _show(client, tournament_id)
        assert (shown["status"], shown["system"], shown["total_rounds"]) == ("playing", "round_robin", 3)
        tables = shown["pairings"][0]["tables"]
        assert len(tables) == 2 and [s["bot"] for s in tables[-1]["seats"]].count("easy") == 1

        store = client.app.state.tournaments.store
        while _show(client, tournament_id)["status"] != "finished":
            _play_round(client, clock, tournament_id)
        # Paired again after the fact, each round stays as it was.
        assert store.advance(tournament_id) == []
        boards = _rows(client, TournamentTableRow, tournament_id=tournament_id)
        assert sorted(b.round for b in boards) == [1, 1, 2, 2, 3, 3]
        final = _show(client, tournament_id)
        met = [frozenset(s["name"] for s in t["seats"] if s["name"]) for r in final["pairings"] for t in r["tables"]]
        for pair in (frozenset(p) for p in (("Ana", "Bo"), ("Ana", "Cy"), ("Bo", "Cy"))):
            assert met.count(pair) == 1  # each met each once
        # Each had the bot once; the bot has no standing.
        bot_tables = [frozenset(s["name"] for s in t["seats"] if s["name"]) for r in final["pairings"]
                      for t in r["tables"] if any(s["bot"] for s in t["seats"])]
        assert sorted(next(iter(b)) for b in bot_tables) == ["Ana", "Bo", "Cy"]
        assert sorted(s["name"] for s in final["standings"]) == ["Ana", "Bo", "Cy"]
        assert set(final["standings"][0]["tiebreaks"]) == {"head_to_head", "points"}


def test_a_rated_tournament_rates_its_tables_and_is_for_accounts(tmp_path: Path) -> None:
    clock = FakeClock()
    with deadline(120), serve(str(tmp_path / "db.sqlite3"), now=clock, takeover_after=None) as client:
        _signup(client, "organiser")
        tournament_id = _make(client, rounds=1, max_entrants=2, start="full", rated=True)
        _as(client, None)
        refused = client.post(f"/api/tournaments/{tournament_id}/join", json={"name": "Carla"})
        assert refused.status_code == 403 and "accounts" in refused.json()["detail"]
        assert _known(refused.json()["detail"])
        for user, host in (("alba", "10.0.0.1"), ("bruno", "10.0.0.2")):
            with address(client, host):
                _as(client, None)
                _signup(client, user)
                joined = _join(client, tournament_id)
                assert joined["name"] == user
                dup = client.post(f"/api/tournaments/{tournament_id}/join", json={}, headers=_csrf(client))
                assert dup.status_code == 409 and _known(dup.json()["detail"])  # joined already, or started
        shown = _show(client, tournament_id)
        table_id = shown["pairings"][0]["tables"][0]["table_id"]
        assert client.get(f"/api/tables/{table_id}").json()["rated"] is True
        final = _play_round(client, clock, tournament_id)
        assert final["status"] == "finished"
        # Rated as an ordinary rated table: both let their clocks run out until a bot took their seats, so each
        # is rated as having lost (as a person who left); the match's result still scores the standings.
        ratings = {r["name"]: r for r in client.get("/api/ratings/spanish").json()}
        assert {"alba", "bruno"} <= set(ratings)
        assert all(ratings[n]["games"] == 1 and ratings[n]["ordinal"] < 0 for n in ("alba", "bruno"))
        assert [s["score"] for s in final["standings"]] == [1, 0]

        # The next rated tournament is seeded by rating: bruno (rated higher now) is entrant 0, though alba joined
        # first.
        with client.app.state.manager.store.engine.begin() as c:
            c.execute(sa.text("UPDATE brisca_ratings SET mu = 40 WHERE name = 'bruno'"))
        _as(client, None)
        r = client.post("/api/login", json={"username": "organiser", "password": PASSWORD}, headers=_csrf(client))
        assert r.status_code == 200
        second = _make(client, name="Second", rounds=1, max_entrants=2, start="full", rated=True)
        for user, host in (("alba", "10.0.0.1"), ("bruno", "10.0.0.2")):
            with address(client, host):
                _as(client, None)
                r = client.post("/api/login", json={"username": user, "password": PASSWORD}, headers=_csrf(client))
                assert r.status_code == 200
                _join(client, second)
        entrants = _show(client, second)["entrants"]
        assert [(e["number"], e["name"]) for e in entrants] == [(0, "bruno"), (1, "alba")]


def test_a_restart_mid_tournament_plays_on(tmp_path: Path) -> None:
    db = str(tmp_path / "db.sqlite3")
    clock = FakeClock()
    with deadline(120):
        with serve(db, now=clock, takeover_after=None) as client:
            _signup(client, "organiser")
            tournament_id = _make(client, rounds=2, max_entrants=2, start="full")
            _as(client, None)
            for name in ("Ana", "Bo"):
                _join(client, tournament_id, name)
            assert _show(client, tournament_id)["round"] == 1
        with serve(db, now=clock, takeover_after=None) as client:
            # The first round's table is loaded again with the server, and played to its end: two entrants make a
            # round robin of one round, so the tournament ends with it.
            final = _play_round(client, clock, tournament_id)
            assert final["status"] == "finished" and final["total_rounds"] == 1


def test_limits_and_bad_input(tmp_path: Path) -> None:
    limits = _limits(max_tournaments=2, max_tournaments_account=1, max_entrants=4, max_tournament_rounds=3)
    with deadline(60), serve(str(tmp_path / "db.sqlite3"), limits=limits) as client:
        # A guest makes none.
        r = client.post("/api/tournaments", json={"name": "Mine", **QUICK})
        assert r.status_code == 401
        _signup(client, "first")
        for body, words in (({"name": "x", **QUICK, "rounds": 4}, "rounds: at most 3"),
                            ({"name": "x", **QUICK, "max_entrants": 5}, "max_entrants: at most 4"),
                            ({"name": "x", **QUICK, "preset": "nope"}, "nope"),
                            ({"name": "x", **QUICK, "players": 5}, "5"),
                            ({"name": "x", **QUICK, "bot": "godlike"}, "unknown bot level"),
                            ({"name": "x", **QUICK, "clock": "days"}, "clock"),
                            ({"name": "x", **QUICK, "clock": {"move": 1, "reserve": 0}}, "clock")):
            r = client.post("/api/tournaments", json=body, headers=_csrf(client))
            assert r.status_code in (400, 422) and words in r.json()["detail"], (body, r.text)
            if "at most" in words:  # what the page's form can ask for: shown in the reader's language
                assert _known(r.json()["detail"])
        for malformed in ("[1, 2", "[]", '{"name": ""}', '{"name": "x", "rounds": "many"}',
                          '{"name": "x", "extra": 1}', '{"name": "x", "max_entrants": 1}'):
            r = client.post("/api/tournaments", content=malformed,
                            headers={**_csrf(client), "Content-Type": "application/json"})
            assert r.status_code == 422, malformed
        assert client.get("/api/tournaments").json()["tournaments"] == []  # nothing made by any of that
        # Made and called off: it no longer counts against the caps, and nobody joins it.
        called_off = _make(client, max_entrants=2)
        cancelled = client.post(f"/api/tournaments/{called_off}/cancel", headers=_csrf(client))
        assert cancelled.status_code == 200 and _show(client, called_off)["status"] == "cancelled"
        late = client.post(f"/api/tournaments/{called_off}/join", json={}, headers=_csrf(client))
        assert late.status_code == 409 and _known(late.json()["detail"])
        made = _make(client, max_entrants=2)
        r = client.post("/api/tournaments", json={"name": "Second", **QUICK, "max_entrants": 4}, headers=_csrf(client))
        assert r.status_code == 409 and "limit of 1" in r.json()["detail"] and _known(r.json()["detail"])
        _as(client, None)
        _signup(client, "second")
        _make(client, name="Other", max_entrants=4)
        _as(client, None)
        _signup(client, "third")
        r = client.post("/api/tournaments", json={"name": "Third", **QUICK, "max_entrants": 4}, headers=_csrf(client))
        assert r.status_code == 409 and "limit of 2" in r.json()["detail"] and _known(r.json()["detail"])
        # Only its creator calls one off.
        refused = client.post(f"/api/tournaments/{made}/cancel", headers=_csrf(client))
        assert refused.status_code == 403 and _known(refused.json()["detail"])
        assert _show(client, made)["status"] == "open"
        _as(client, None)
        # Unknown tournaments, malformed ids and bodies.
        for path in ("/api/tournaments/nosuchthing", "/api/tournaments/%20bad%20"):
            assert client.get(path).status_code == 404
        assert client.post("/api/tournaments/nosuchthing/join", json={"name": "Ana"}).status_code == 404
        assert client.post(f"/api/tournaments/{made}/join", json={"name": ""}).status_code == 422
        assert client.post(f"/api/tournaments/{made}/join", json={}).status_code == 400  # a guest has a name
        assert client.post(f"/api/tournaments/{made}/join", json={"name": "first"}).status_code == 409  # an account's
        assert client.post(f"/api/tournaments/{made}/leave", json={"token": "x" * 129}).status_code == 422
        assert client.post(f"/api/tournaments/{made}/me", json={"token": 5}).status_code == 422
        _join(client, made, "Ana")
        dup = client.post(f"/api/tournaments/{made}/join", json={"name": "ana"})
        assert dup.status_code == 409 and "taken" in dup.json()["detail"] and _known(dup.json()["detail"])
        _join(client, made, "Bo")
        over = client.post(f"/api/tournaments/{made}/join", json={"name": "Cy"})
        assert over.status_code == 409 and "full" in over.json()["detail"] and _known(over.json()["detail"])
        # The creator starts it with its two entrants (no more could join).
        assert len(_show(client, made)["entrants"]) == 2


def test_a_tournament_the_host_offers_is_made_once(tmp_path: Path) -> None:
    db = str(tmp_path / "db.sqlite3")
    offered = CreateTournament(name="Daily", max_entrants=4, start="full", rounds=2)
    for _ in range(2):
        with deadline(60), serve(db, tournaments=[offered]) as client:
            listed = client.get("/api/tournaments").json()["tournaments"]
            assert [(t["name"], t["host"], t["status"]) for t in listed] == [("Daily", True, "open")]
            assert len(_rows(client, TournamentRow)) == 1
    with deadline(60), serve(db, tournaments=[offered]) as client:
        # Once it is over, the next look offers it again.
        with client.app.state.manager.store.engine.begin() as c:
            c.execute(sa.text("UPDATE brisca_tournaments SET status = 'finished'"))
        client.portal.call(client.app.state.tournaments.sweep)
        listed = client.get("/api/tournaments").json()["tournaments"]
        assert [(t["name"], t["status"]) for t in listed] == [("Daily", "open"), ("Daily", "finished")]


def _paired_once(url: str) -> None:
    """Two looks at one tournament at once, its round over: exactly one pairs the next round."""
    store = Store(url)
    try:
        tournaments = TournamentStore(store.engine, Limits())
        settings = Settings("Once", "spanish", {}, 2, 3, Clock(15, 60), False, "creator", 8, "user:1")
        tournament_id = tournaments.create(settings)
        for name in ("Ana", "Bo", "Cy", "Di"):
            tournaments.join(tournament_id, name, None)
        first = tournaments.start(tournament_id, "user:1")
        assert len(first) == 2 and tournaments.advance(tournament_id) == []  # its tables are not over
        with store.engine.begin() as c:
            c.execute(sa.text("UPDATE brisca_tables SET status = 'closed' WHERE owner = :o"),
                      {"o": f"tournament:{tournament_id}"})
        barrier = threading.Barrier(2)

        def look() -> list[str]:
            barrier.wait()
            return tournaments.advance(tournament_id)

        with ThreadPoolExecutor(2) as pool:
            made = [f.result() for f in [pool.submit(look), pool.submit(look)]]
        assert sorted(len(m) for m in made) == [0, 2]
        shown = tournaments.show(tournament_id)
        assert shown["round"] == 2 and [len(r["tables"]) for r in shown["pairings"]] == [2, 2]
        # A table closed without a result scores nobody anything.
        assert all(s["score"] == 0 for s in shown["standings"])
    finally:
        store.dispose()


def test_the_next_round_is_paired_once_on_sqlite(tmp_path: Path) -> None:
    _paired_once(str(tmp_path / "db.sqlite3"))


@pytest.mark.cluster
def test_the_next_round_is_paired_once_on_postgresql() -> None:
    from test_server_cluster import _schema_url

    for url in _schema_url():
        _paired_once(url)


@pytest.mark.parametrize(("flag", "said"), [
    ("[1]", "--tournament is a JSON object, not '[1]'"),
    ("{", "--tournament is a JSON object"),
    ('{"name": "Daily", "start": "creator"}', "--tournament: a tournament the host offers starts when full"),
    ('{"name": ""}', "--tournament: name: "),
    ('{"name": "Daily", "rounds": 99}', "--tournament: rounds: at most 15 on this server, not 99"),
    ('{"name": "Daily", "preset": "nope"}', "--tournament: unknown"),
])
def test_a_bad_tournament_flag_is_one_line(flag: str, said: str, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--db", str(tmp_path / "db.sqlite3"), "--tournament", flag]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and err.startswith(f"brisca: error: {said}"), err


@pytest.mark.cluster
def test_a_tournament_on_a_site_of_two_processes(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Two processes over one PostgreSQL database and Redis both offer the same tournament: it is made once; people
    join it through either; its rounds, their tables run by whichever process started them, are paired once each
    while both processes look at it."""
    from brisca.server import loadtest
    from test_server_cluster import _get, _post, _schema_url
    from test_server_cluster import redis_url as site_redis

    redis = site_redis.__wrapped__()  # type: ignore[attr-defined]
    offered = {"name": "Site cup", "max_entrants": 4, "rounds": 2, "options": {"target_hands": 1},
               "clock": {"move": 1, "reserve": 0}, "bot_delay": 0}
    monkeypatch.setattr(loadtest, "UNLIMITED", [*loadtest.UNLIMITED, "--tournament", json.dumps(offered),
                                                "--min-clock-move", "1"])
    for url in _schema_url():
        servers = [loadtest.Server(url, loadtest.free_port(), tmp_path / f"server{i}.log", redis=redis)
                   for i in range(2)]
        for s in servers:
            s.start()
        try:
            asyncio.run(asyncio.wait_for(loadtest._ready(servers), 60))
            one, two = (s.base for s in servers)
            listed = [t for t in _get(one, "/api/tournaments")["tournaments"] if t["name"] == "Site cup"]
            assert len(listed) == 1 and _get(two, "/api/tournaments")["tournaments"] == listed
            tournament_id = listed[0]["id"]
            for base, name in ((one, "Ana"), (two, "Bo"), (one, "Cy"), (two, "Di")):
                _post(base, f"/api/tournaments/{tournament_id}/join", {"name": name})
            with deadline(120):
                while (shown := _get(one, f"/api/tournaments/{tournament_id}"))["status"] != "finished":
                    time.sleep(0.2)
            assert [len(r["tables"]) for r in shown["pairings"]] == [2, 2]
            assert sum(s["score"] for s in shown["standings"]) == 4 - sum(
                t["finished"] is False for r in shown["pairings"] for t in r["tables"])
            assert _get(two, f"/api/tournaments/{tournament_id}") == shown
            # Once over, both offer it again: one new tournament of that name, open.
            with deadline(30):
                while not [t for t in _get(two, "/api/tournaments")["tournaments"]
                           if t["name"] == "Site cup" and t["status"] == "open"]:
                    time.sleep(0.2)
            names = [(t["name"], t["status"]) for t in _get(one, "/api/tournaments")["tournaments"]]
            assert names == [("Site cup", "open"), ("Site cup", "finished")]
        finally:
            for s in servers:
                s.stop()


def test_a_round_that_ended_while_no_process_looked_is_paired_at_the_next_look(tmp_path: Path) -> None:
    db = str(tmp_path / "db.sqlite3")
    clock = FakeClock()
    with deadline(60):
        with serve(db, now=clock, takeover_after=None) as client:
            _signup(client, "organiser")
            tournament_id = _make(client, rounds=2, max_entrants=4, start="full")
            _as(client, None)
            for name in ("Ana", "Bo", "Cy", "Di"):
                _join(client, tournament_id, name)
            first = [t["table_id"] for t in _show(client, tournament_id)["pairings"][0]["tables"]]
        # Its tables ended while no process ran (say, closed by another process that stopped before it paired on).
        store = Store(db)
        with store.engine.begin() as c:
            c.execute(sa.text("UPDATE brisca_tables SET status = 'closed' WHERE owner = :o"),
                      {"o": f"tournament:{tournament_id}"})
        store.dispose()
        with serve(db, now=clock, takeover_after=None) as client:
            assert _show(client, tournament_id)["round"] == 1
            client.portal.call(client.app.state.tournaments.sweep)  # what every process does every few seconds
            shown = _show(client, tournament_id)
            assert shown["round"] == 2 and all(not t["finished"] for t in shown["pairings"][0]["tables"])
            second = [t["table_id"] for t in shown["pairings"][1]["tables"]]
            assert len(second) == 2 and not set(second) & set(first)
            assert all(client.app.state.manager.actors[t].status == "playing" for t in second)


def test_partners_at_tables_of_four_score_their_sides_result(tmp_path: Path) -> None:
    """Five entrants at tables of four: a full table, and one person with three bots. The draw for partners asked
    for is played fixed (the pairing chose the partners); each person scores their side's result."""
    clock = FakeClock()
    with deadline(120), serve(str(tmp_path / "db.sqlite3"), now=clock, takeover_after=None) as client:
        _signup(client, "organiser")
        tournament_id = _make(client, players=4, rounds=1, max_entrants=5, start="full",
                              options={"target_hands": 1, "partners": "draw"})
        assert _show(client, tournament_id)["options"] == {"target_hands": 1}  # the preset's own: fixed partners
        _as(client, None)
        for name in ("Ana", "Bo", "Cy", "Di", "Ed"):
            _join(client, tournament_id, name)
        shown = _show(client, tournament_id)
        tables = shown["pairings"][0]["tables"]
        assert [sum(s["bot"] is not None for s in t["seats"]) for t in tables] == [0, 3]
        # The seats the pairing gave are the seats played (no draw moves anyone).
        for t in tables:
            actor = client.app.state.manager.actors[t["table_id"]]
            assert [s.name for s in actor.seats] == [s["name"] or f"bot:{s['bot']}" for s in t["seats"]]
        final = _play_round(client, clock, tournament_id)
        assert final["status"] == "finished"
        score = {s["name"]: s["score"] for s in final["standings"]}
        for t in final["pairings"][0]["tables"]:
            people = [(seat % 2, s["name"]) for seat, s in enumerate(t["seats"]) if s["name"]]
            for side, name in people:
                expected = 0.5 if t["winner"] is None else float(t["winner"] == side)
                assert score[name] == expected, (name, t)


def test_an_open_tournament_nobody_starts_is_called_off_and_frees_the_caps(tmp_path: Path) -> None:
    """``tournament_open_for``: an account's tournament still open that long after it was made is called off at the
    next look (it no longer counts against the caps); a younger one, and the host's offered one, stay open."""
    db = str(tmp_path / "db.sqlite3")
    offered = CreateTournament(name="Daily", max_entrants=4, start="full", rounds=2)
    limits = _limits(max_tournaments_account=1, tournament_open_for=3600)
    with deadline(60), serve(db, limits=limits, tournaments=[offered]) as client:
        _signup(client, "organiser")
        old = _make(client, name="Forgotten")
        refused = client.post("/api/tournaments", json={"name": "Another", **QUICK}, headers=_csrf(client))
        assert refused.status_code == 409, refused.text  # the account's one tournament is the forgotten one
        with client.app.state.manager.store.engine.begin() as c:
            c.execute(sa.text("UPDATE brisca_tournaments SET created_at = :t"),
                      {"t": _now() - timedelta(seconds=3601)})
        client.portal.call(client.app.state.tournaments.sweep)
        assert _show(client, old)["status"] == "cancelled"
        listed = client.get("/api/tournaments").json()["tournaments"]
        assert [(t["name"], t["status"]) for t in listed if t["host"]] == [("Daily", "open")]
        young = _make(client, name="Another")  # the cap is free again
        client.portal.call(client.app.state.tournaments.sweep)
        assert _show(client, young)["status"] == "open"


def test_a_bad_tournament_open_for_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--db", str(tmp_path / "db.sqlite3"), "--tournament-open-for", "10"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "tournament_open_for is from 60 seconds to 30 days" in err, err
