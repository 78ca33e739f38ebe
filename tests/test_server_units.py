"""Small parts of the web table: database URLs, ratings, the JSON of a view."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("sqlalchemy")
pytest.importorskip("openskill")

from brisca.game import Game
from brisca.server.db import DatabaseStalled, default_url, in_thread, normalize_url, postgresql_bounds, unreachable
from brisca.server.ratings import rate
from brisca.server.serialize import view_json


def test_database_urls(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert normalize_url("postgresql://postgres@127.0.0.1/test") == "postgresql+psycopg://postgres@127.0.0.1/test"
    assert normalize_url("postgres://u@h/db") == "postgresql+psycopg://u@h/db"
    assert normalize_url("/tmp/x.sqlite3") == "sqlite:////tmp/x.sqlite3"
    assert normalize_url("sqlite:///a.db") == "sqlite:///a.db"
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    url = default_url()
    assert url.startswith("sqlite:///") and url.endswith("brisca.sqlite3") and str(tmp_path) in url
    assert (tmp_path / "brisca").is_dir()


def test_postgresql_connections_carry_their_bounds() -> None:
    """The server's timeouts go in the start-up packet, after the URL's own options (a search path is kept)."""
    bounds = postgresql_bounds("postgresql+psycopg://u@h/db?options=-csearch_path%3Dmine")
    assert bounds["options"].split(" ")[0] == "-csearch_path=mine"
    for setting in ("statement_timeout=15000", "lock_timeout=5000", "idle_in_transaction_session_timeout=15000"):
        assert f"-c {setting}" in bounds["options"]
    assert (bounds["connect_timeout"], bounds["tcp_user_timeout"], bounds["keepalives"]) == (5, 10000, 1)
    assert postgresql_bounds("postgresql+psycopg://u@h/db")["options"].startswith("-c statement_timeout=")


def test_a_call_the_database_does_not_answer_fails_at_its_deadline() -> None:
    import asyncio
    import threading

    release = threading.Event()

    async def call() -> None:
        try:
            await in_thread(release.wait, 60.0, timeout=0.2)
        finally:
            release.set()  # the thread left to finish alone ends (asyncio.run waits for it)

    with pytest.raises(DatabaseStalled) as caught:
        asyncio.run(asyncio.wait_for(call(), 30))
    assert unreachable(caught.value)


def test_team_ratings_move_the_winners_up() -> None:
    first = rate({}, [["ana", "bea"], ["carl", "dan"]], 0)
    assert first["ana"][0] > 25 > first["carl"][0]
    assert first["ana"] == first["bea"] and first["ana"][1] < 25 / 3
    draw = rate(first, [["ana", "bea"], ["carl", "dan"]], None)
    assert draw["ana"][0] < first["ana"][0] and draw["carl"][0] > first["carl"][0]
    three = rate({}, [["a"], ["b"], ["c"]], 2)
    assert three["c"][0] > three["a"][0]


def test_a_view_as_json_has_only_the_seat_s_hand() -> None:
    game = Game("spanish", 2, seed=3)
    mine, theirs = view_json(game.view(0)), view_json(game.view(1))
    assert mine["hand"] == [str(c) for c in game.hand(0)]
    assert not set(mine["hand"]) & set(theirs["hand"])
    assert view_json(game.view(None))["hand"] == [] and view_json(game.view(None))["legal"] == []
    assert [a["text"] for a in mine["legal"]] == [str(a) for a in game.legal_actions()]


def test_the_migration_builds_exactly_the_models(tmp_path: Path) -> None:
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from brisca.server.db import Base
    from brisca.server.store import Store

    store = Store(str(tmp_path / "db.sqlite3"))
    Store(str(tmp_path / "db.sqlite3")).dispose()  # a second upgrade finds nothing to do
    with store.engine.connect() as conn:
        assert compare_metadata(MigrationContext.configure(conn), Base.metadata) == []
    store.dispose()


def test_a_table_is_read_back_only_once_its_writes_given_up_on_have_ended(tmp_path: Path) -> None:
    """:meth:`Store.settled`: a batch given up on in a stall may still commit; the tables it writes wait for its
    end before they are loaded again (other tables do not), and for :attr:`Store.write_timeout` at most."""
    import asyncio

    from brisca.server.store import Store

    store = Store(str(tmp_path / "db.sqlite3"))

    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        stuck: asyncio.Future[list[Exception | None]] = loop.create_future()
        store._drift(stuck, [(store.set_version, ("t1", 3), None), (store.set_version, ("t2", 5), None)])
        waiting = asyncio.ensure_future(store.settled("t1"))
        await store.settled("t3")  # not in the batch: at once
        for _ in range(5):
            await asyncio.sleep(0)
        assert not waiting.done()
        stuck.set_result([None, None])
        await asyncio.wait_for(waiting, 30)
        assert store._adrift == {}
        # One that never ends is waited for write_timeout seconds, then the table is read.
        store.write_timeout = 0.01
        never: asyncio.Future[list[Exception | None]] = loop.create_future()
        store._drift(never, [(store.set_version, ("t1", 4), None)])
        await asyncio.wait_for(store.settled("t1"), 30)
        assert not never.done() and set(store._adrift) == {"t1"}
        never.cancel()

    try:
        asyncio.run(scenario())
    finally:
        store.dispose()
