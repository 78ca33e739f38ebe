"""Reconnection with the last event seen, and restarts of the server on SQLite and PostgreSQL."""

from __future__ import annotations

import contextlib
import os
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from brisca import record as brisca_record
from test_server_common import Conn, create, deadline, join_all, match_of, serve


def _play(conns: list[Conn], client: object, table_id: str, count: int) -> None:
    """Each seat plays the first legal action, ``count`` times."""
    for _ in range(count):
        match = match_of(client, table_id)  # type: ignore[arg-type]
        turn = match.game.turn
        assert turn is not None
        mover = conns[turn]
        mover.sync()
        assert mover.state is not None
        answer = mover.request({"type": "play", "action": mover.state["view"]["legal"][0]["text"]})
        assert answer["type"] == "ack", answer


def test_reconnection_replays_exactly_the_missed_events(tmp_path: Path) -> None:
    with deadline(30), serve(str(tmp_path / "db.sqlite3")) as client:
        table_id = create(client, players=2)
        tokens = join_all(client, table_id, 2)
        players = [Conn(client, table_id, token=t) for t in tokens]
        watcher = Conn(client, table_id)  # connected throughout: the reference
        leaver = Conn(client, table_id, token=tokens[1])
        _play(players, client, table_id, 5)
        leaver.sync()
        last = leaver.v
        assert last is not None
        leaver.close()
        watcher.sync()
        mark = len(watcher.messages)
        _play(players, client, table_id, 7)
        client.post(f"/api/tables/{table_id}/join", json={"name": "x"})  # refused: no event
        assert players[0].request({"type": "chat", "text": "hola"})["type"] == "ack"
        watcher.sync()
        missed = [m for m in watcher.messages[mark:] if m["type"] == "event"]
        assert len(missed) == 8

        back = Conn(client, table_id, token=tokens[1], last=last)
        replayed = [m for m in back.messages if m["type"] == "event"]
        assert [m["v"] for m in replayed] == list(range(last + 1, last + 9))
        assert not [m for m in back.messages if m["type"] == "sync"]
        # The same events the seat would have seen: compare with a seat-1 connection kept open.
        ref = players[1]
        ref.sync()
        ref_events = {m["v"]: m for m in ref.messages if m["type"] == "event"}
        assert all(ref_events[m["v"]] == m for m in replayed)
        assert replayed[-1]["kind"] == "chat" and replayed[-1]["text"] == "hola"

        # Up to date: nothing is replayed. Ahead of the server or no number: a full snapshot.
        current = back.v
        same = Conn(client, table_id, token=tokens[1], last=current)
        assert [m["type"] for m in same.messages] == ["welcome", "pong"]
        ahead = Conn(client, table_id, last=(current or 0) + 50)
        assert [m["type"] for m in ahead.messages] == ["welcome", "sync", "pong"]
        assert ahead.messages[1]["v"] == current and ahead.messages[1]["state"]["view"]["hand"] == []


def _postgres_url() -> Iterator[str]:
    sa = pytest.importorskip("sqlalchemy")
    pytest.importorskip("psycopg")
    base = os.environ.get("BRISCA_TEST_POSTGRES", "postgresql+psycopg://{user}@127.0.0.1:5432/test")
    schema = f"brisca_test_{uuid.uuid4().hex[:12]}"
    engine = None
    for user in ("postgres", "root"):
        candidate = sa.create_engine(base.format(user=user))
        try:
            with candidate.begin() as conn:
                conn.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
            engine, url = candidate, base.format(user=user)
            break
        except Exception:
            candidate.dispose()
    if engine is None:
        pytest.skip("no PostgreSQL server at 127.0.0.1:5432 (database test)")
    try:
        yield f"{url}?options=-csearch_path%3D{schema}"
    finally:
        with engine.begin() as conn:
            conn.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))
        engine.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield str(tmp_path / "db.sqlite3")
    else:
        yield from _postgres_url()


def test_a_restart_resumes_every_table_where_it_was(db_url: str) -> None:
    # No absent-player takeover here: closing the connections at shutdown would announce the seats away
    # (numbered events: see test_server_takeover.py), and this test compares versions across the restart.
    with deadline(40):
        with serve(db_url, takeover_after=None) as client:
            table_id = create(client, players=2)
            tokens = join_all(client, table_id, 2)
            conns = [Conn(client, table_id, token=t) for t in tokens]
            _play(conns, client, table_id, 9)
            conns[0].sync()
            before = conns[0].state
            version = conns[0].v
            history = list(match_of(client, table_id).game.history)
            waiting = create(client, players=2)
            client.post(f"/api/tables/{waiting}/join", json={"name": "solo"})
        with serve(db_url, takeover_after=None) as client:
            # Both tables are back, at the same position and version, with the same seats.
            assert set(client.app.state.manager.actors) >= {table_id, waiting}
            assert client.get(f"/api/tables/{waiting}").json()["status"] == "waiting"
            assert list(match_of(client, table_id).game.history) == history
            again = Conn(client, table_id, token=tokens[0], last=version)
            assert [m["type"] for m in again.messages] == ["welcome", "pong"]
            fresh = Conn(client, table_id, token=tokens[0], last=1)
            assert fresh.messages[1]["type"] == "sync" and fresh.v == version
            assert fresh.state == before
            conns = [fresh, Conn(client, table_id, token=tokens[1])]
            # Play on to the end of the match: the record replays.
            while not match_of(client, table_id).is_over():
                _play(conns, client, table_id, 1)
            rec = brisca_record.loads(client.get(f"/api/games/{table_id}/record").text)
            assert isinstance(rec, brisca_record.MatchRecord)
            games = rec.replay()
            assert games[0].history[:9] == tuple(history)
        with serve(db_url) as client:
            # A finished table is not resumed, but it is still there to look at.
            assert table_id not in client.app.state.manager.actors
            assert client.get(f"/api/tables/{table_id}").json()["status"] == "finished"
            late = Conn(client, table_id)
            assert late.state is not None and late.state["table"]["match_over"]
            assert late.request({"type": "play", "action": "1O"})["code"] == "not_your_turn"


def _crashed_after_a_hand(db: str, table_id: str, seed: int) -> Any:
    """A two-seat table in the database ``db`` whose first hand is played to its end and the next one never
    dealt, as a server that stopped after writing the hand's last move leaves it; that hand's game."""
    from brisca.game import Game
    from brisca.server.store import SeatInfo, Store, TableState

    store = Store(db)
    state = TableState(table_id, "spanish", {}, 2, 1, 0.0, "playing", 0,
                       [SeatInfo(0, "a", None, "h0"), SeatInfo(1, "b", None, "h1")])
    store.create_table(state)
    game = Game("spanish", 2, deck=None, seed=seed)
    store.write_hand(table_id, 0, [str(c) for c in game.deck], 1)
    number = 0
    while not game.is_over():
        seat, action = game.turn, game.legal_actions()[0]
        assert seat is not None
        game.apply(action)
        store.write_action(table_id, number, 0, seat, action.to_json(), 2 + number)
        number += 1
    store.dispose()
    return game


def test_a_crash_between_the_last_move_and_the_next_deal_is_recovered(tmp_path: Path) -> None:
    db = str(tmp_path / "db.sqlite3")
    game = _crashed_after_a_hand(db, "crashed1", 8)
    # The server stopped after writing the last move of the hand: the next hand was never dealt.
    with deadline(20), serve(db) as client:
        watcher = Conn(client, "crashed1")
        assert watcher.state is not None
        assert watcher.state["table"]["hand_number"] == 1
        match = match_of(client, "crashed1")
        assert len(match.games) == 2 and match.games[0].history == game.history and not match.game.is_over()


@contextlib.contextmanager
def _in_play(tmp_path: Path, moves: int) -> Iterator[tuple[Any, str, list[str], list[Conn], Any]]:
    """A two-person table on SQLite, ``moves`` actions into its first hand: the client, the table's id, the seat
    tokens, their connections and the table's actor."""
    with deadline(30), serve(str(tmp_path / "db.sqlite3")) as client:
        table_id = create(client, players=2)
        tokens = join_all(client, table_id, 2)
        players = [Conn(client, table_id, token=t) for t in tokens]
        _play(players, client, table_id, moves)
        yield client, table_id, tokens, players, client.app.state.manager.actors[table_id]  # type: ignore[attr-defined]


def _closed(conn: Conn) -> None:
    """What the server still sends ``conn``, until it closes the connection."""
    from starlette.websockets import WebSocketDisconnect

    with pytest.raises(WebSocketDisconnect):
        while True:
            conn.recv()


def test_an_actor_that_fails_outside_a_command_closes_its_connections(tmp_path: Path) -> None:
    """A table's actor stopped by a bug between commands does not go silent: its connections are closed (their
    clients reconnect), what reaches it later is turned away, and a new connection finds the table loaded again,
    where it stood."""
    with _in_play(tmp_path, 3) as (client, table_id, tokens, players, actor):
        before = actor.version

        def broken() -> None:
            raise RuntimeError("a bug outside any one command")

        actor._schedule_bot = broken
        players[0].send({"type": "ping", "id": "p"})
        _closed(players[0])  # the pong, then the close
        assert actor.stopped
        back = Conn(client, table_id, token=tokens[0])
        assert back.v == before and client.app.state.manager.actors[table_id] is not actor
        _play([back, Conn(client, table_id, token=tokens[1])], client, table_id, 2)


def test_a_table_behind_the_database_is_loaded_again(tmp_path: Path) -> None:
    """A move the database holds that the table's actor never made (another process ran the table meanwhile): the
    actor's next write is refused, the table stops and closes its connections rather than refuse every move from
    then on, and a reconnection finds it loaded from the database, that move included."""
    with _in_play(tmp_path, 3) as (client, table_id, tokens, players, actor):
        game = actor.match.game
        turn = game.turn
        elsewhere = game.legal_actions()[-1]
        actor.store.write_action(table_id, actor.action_count, 0, turn, elsewhere.to_json(), actor.version + 1)
        mover = players[turn]
        refused = mover.request({"type": "play", "action": str(game.legal_actions()[0])})
        assert refused["type"] == "error" and refused["code"] == "unavailable"
        _closed(mover)
        assert actor.stopped
        back = Conn(client, table_id, token=tokens[turn])
        assert back.state is not None and back.state["view"]["history"][-1]["text"] == str(elsewhere)
        assert client.app.state.manager.actors[table_id].action_count == actor.action_count + 1


def test_an_actor_whose_write_is_fenced_off_stops(tmp_path: Path) -> None:
    """A write refused by the fence (the table's lease is no longer the actor's: another process, or a newer actor,
    runs the table) is answered `moved`, and the actor stops and closes its connections, rather than refuse every
    move after it; the table is loaded again for whoever reconnects."""
    from brisca.server.store import Fenced
    from brisca.server.table import TableError

    class Moved(TableError, Fenced):
        def __init__(self) -> None:
            super().__init__("moved", "this table moved to another server: reconnect")

    def fence(c: object, batch: list[tuple[object, tuple[object, ...], int | None]]) -> None:
        if any(lease == 1 for _, _, lease in batch):
            raise Moved()

    with _in_play(tmp_path, 2) as (client, table_id, tokens, players, actor):
        actor.lease = 1
        actor.store.fence = fence
        count = actor.action_count
        mover = players[actor.match.game.turn]
        mover.sync()
        assert mover.state is not None
        refused = mover.request({"type": "play", "action": mover.state["view"]["legal"][0]["text"]})
        assert refused["type"] == "error" and refused["code"] == "moved"
        _closed(mover)
        assert actor.stopped and actor.action_count == count
        back = [Conn(client, table_id, token=t) for t in tokens]
        now = client.app.state.manager.actors[table_id]
        assert now is not actor and now.lease is None
        _play(back, client, table_id, 2)
        assert now.action_count == count + 2


def test_an_actor_whose_recovery_is_fenced_off_stops(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A table loaded with its hand over and the next one not dealt (a crash between the two): when the recovery's
    deal is refused as fenced off (another process, or a newer actor, runs the table now), the actor stops and
    closes its connections rather than hold its players at a hand that is never dealt; once the write goes
    through, a reconnection finds the table loaded again and the next hand dealt."""
    from starlette.websockets import WebSocketDisconnect

    from brisca.server.store import Fenced, Store
    from brisca.server.table import TableError

    db = str(tmp_path / "db.sqlite3")
    _crashed_after_a_hand(db, "fenced1", 9)

    class Moved(TableError, Fenced):
        def __init__(self) -> None:
            super().__init__("moved", "this table moved to another server: reconnect")

    def refused(self: Store, *args: object) -> None:
        raise Moved()

    with monkeypatch.context() as patch:
        patch.setattr(Store, "write_hand", refused)
        with deadline(30), serve(db) as client:
            manager = client.app.state.manager
            with client.websocket_connect("/ws/fenced1") as ws:  # turned away, or welcomed and then closed
                ws.send_json({"type": "hello"})
                answers = []
                with pytest.raises(WebSocketDisconnect):
                    while True:
                        answers.append(ws.receive_json())
                assert answers and answers[0]["type"] in ("welcome", "error"), answers
            actor = manager.actors.get("fenced1")
            assert actor is None or actor.stopped
            patch.undo()
            back = Conn(client, "fenced1")
            assert back.state is not None and back.state["table"]["hand_number"] == 1
            match = match_of(client, "fenced1")
            assert len(match.games) == 2 and not match.game.is_over()
