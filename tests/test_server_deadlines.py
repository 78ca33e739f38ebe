"""Requests whose database does not answer: the account endpoints that hash a password and the analysis routes
answer 503 at the reads' deadline (``brisca.server.db.CALL_TIMEOUT``), as every other read does, instead of
holding the request for ever. The database's calls are stalled by a fake that waits until the test ends."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from brisca.server import db
from brisca.server.accounts import Accounts
from brisca.server.store import Store
from test_server_common import deadline, serve

PASSWORD = "correct horse battery"
#: The reads' deadline in these tests (seconds): short, so that a stall is seen at once.
SHORT = 0.3


class Stall:
    """Stalls database calls: each method named waits, as on a database that does not answer, until the server
    of :meth:`serving` stops (it waits for its threads); the reads' deadline is :data:`SHORT` from then on."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.monkeypatch = monkeypatch
        self.released = threading.Event()
        self.calls = 0

    def __call__(self, cls: type, name: str) -> None:
        def stalled(*args: Any, **kwargs: Any) -> Any:
            self.calls += 1
            self.released.wait(30)
            raise RuntimeError("the stalled call was answered after all")

        self.monkeypatch.setattr(cls, name, stalled)
        self.monkeypatch.setattr(db, "CALL_TIMEOUT", SHORT)

    @contextlib.contextmanager
    def serving(self, tmp_path: Path) -> Iterator[Any]:
        with deadline(30), serve(str(tmp_path / "db.sqlite3")) as client:
            try:
                yield client
            finally:
                self.released.set()


@pytest.fixture
def stall(monkeypatch: pytest.MonkeyPatch) -> Stall:
    return Stall(monkeypatch)


def _csrf(client: Any) -> dict[str, str]:
    token = client.get("/api/me").json()["csrf"]
    return {} if token is None else {"X-CSRF-Token": token}


def _unavailable(response: Any) -> None:
    assert response.status_code == 503, response.text
    assert response.json()["detail"] == "the database does not answer: try again in a moment"
    assert response.headers["retry-after"]


@pytest.mark.parametrize("path", ["/api/signup", "/api/login"])
def test_signing_up_or_logging_in_on_a_stalled_database_answers_503(tmp_path: Path, stall: Stall, path: str) -> None:
    with stall.serving(tmp_path) as client:
        stall(Accounts, "signup" if path.endswith("signup") else "login")
        _unavailable(client.post(path, json={"username": "Ana", "password": PASSWORD}))
        # The hashing turn was given back: the next request is answered too, not turned away as busy.
        _unavailable(client.post(path, json={"username": "Bea", "password": PASSWORD}))
        assert stall.calls == 2
        assert client.get("/api/me").json()["user"] is None


def test_changing_a_password_on_a_stalled_database_answers_503(tmp_path: Path, stall: Stall) -> None:
    with stall.serving(tmp_path) as client:
        signed = client.post("/api/signup", json={"username": "Ana", "password": PASSWORD}, headers=_csrf(client))
        assert signed.status_code == 200, signed.text
        stall(Accounts, "change_password")
        _unavailable(client.post("/api/password", json={"old": PASSWORD, "new": PASSWORD + "!"},
                                 headers=_csrf(client)))
        assert client.get("/api/me").json()["user"]["username"] == "ana"  # still logged in


@pytest.mark.parametrize(("method", "path", "cls", "name"), [
    ("get", "/api/games/{id}/analysis", Store, "record"),
    ("post", "/api/games/{id}/analysis", Store, "record"),
    ("get", "/api/players/ana/analysis", Accounts, "find"),
])
def test_the_analysis_routes_on_a_stalled_database_answer_503(tmp_path: Path, stall: Stall, method: str, path: str,
                                                              cls: type, name: str) -> None:
    with stall.serving(tmp_path) as client:
        stall(cls, name)
        _unavailable(getattr(client, method)(path.format(id="a" * 12)))
        assert stall.calls == 1


def test_a_table_whose_creation_times_out_is_not_stored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Its creation answered 503, a table does not exist: when the write commits after all, the table is deleted
    (nobody knows its id: left, it would wait empty in the lobby). A creation in time is stored and runs."""
    import asyncio

    from brisca.server.manager import CreateTable, Manager

    store = Store(str(tmp_path / "db.sqlite3"))
    store.inline = False  # the path of a database on another server (PostgreSQL): its calls have a deadline
    manager = Manager(store)
    release = threading.Event()
    stored: list[str] = []
    create = Store.create_table

    def slow_create(self: Store, state: Any) -> None:
        release.wait(30)
        create(self, state)
        stored.append(state.id)

    async def scenario() -> None:
        monkeypatch.setattr(db, "CALL_TIMEOUT", SHORT)
        monkeypatch.setattr(Store, "create_table", slow_create)
        with pytest.raises(db.DatabaseStalled):
            await manager.open_table(CreateTable(players=2), "guest:a")
        release.set()  # the database answers after all: the row is committed, then deleted
        for _ in range(200):
            if stored and store.status(stored[0]) is None and not manager._late:
                break
            await asyncio.sleep(0.05)
        assert stored and store.status(stored[0]) is None and store.table_ids(["waiting"]) == []
        assert manager.actors == {}
        monkeypatch.setattr(Store, "create_table", create)
        actor = await manager.open_table(CreateTable(players=2), "guest:a")
        assert store.status(actor.id) == "waiting" and manager.actors == {actor.id: actor}
        assert not store.delete_new_table("nosuchtable0")
        await manager.stop()

    try:
        asyncio.run(asyncio.wait_for(scenario(), 30))
    finally:
        release.set()
        store.dispose()


def test_a_table_whose_creator_s_seat_times_out_is_not_stored(tmp_path: Path, stall: Stall) -> None:
    """The table is stored, but the creator's seat is not in time: the creation is answered 503 and the table is
    deleted (whether or not the seat's write commits afterwards)."""
    seen: list[str] = []
    write_join = Store.write_join

    def slow_join(self: Store, table_id: str, *args: Any) -> None:
        seen.append(table_id)
        stall.released.wait(30)
        write_join(self, table_id, *args)

    with stall.serving(tmp_path) as client:
        manager = client.app.state.manager
        store = manager.store
        store.inline, store.write_timeout = False, SHORT  # a database on another server (PostgreSQL)
        stall.monkeypatch.setattr(Store, "write_join", slow_join)
        stall.monkeypatch.setattr(db, "CALL_TIMEOUT", SHORT)
        made = client.post("/api/tables", json={"players": 2, "name": "Ana"})
        assert made.status_code == 503 and "did not answer" in made.json()["detail"], made.text
        assert len(seen) == 1
        stall.released.set()  # the seat's write goes through now, after the answer
        at = time.monotonic()
        while (store.status(seen[0]) is not None or manager._late) and time.monotonic() - at < 20:
            time.sleep(0.05)
        assert store.status(seen[0]) is None and seen[0] not in manager.actors
        assert client.get(f"/api/tables/{seen[0]}").status_code == 404
