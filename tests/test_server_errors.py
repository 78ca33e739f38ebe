"""Bad messages get typed errors; the state does not change and the connection stays open."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from test_server_common import Conn, create, deadline, join_all, match_of, serve


def _table(client: Any) -> tuple[str, Conn, Conn, Conn]:
    table_id = create(client, players=2)
    tokens = join_all(client, table_id, 2)
    return table_id, Conn(client, table_id, token=tokens[0]), Conn(client, table_id, token=tokens[1]), \
        Conn(client, table_id)


def _unchanged(client: Any, table_id: str, before: tuple[int, int]) -> None:
    match = match_of(client, table_id)
    actor = client.app.state.manager.actors[table_id]
    assert (actor.version, actor.action_count) == before
    assert actor._task is not None and not actor._task.done()
    assert len(match.game.history) == actor.action_count - sum(len(g.history) for g in match.games[:-1])


def test_typed_errors_leave_the_state_unchanged(tmp_path: Path) -> None:
    with deadline(30), serve(str(tmp_path / "db.sqlite3"), max_message=512) as client:
        table_id, a, b, spectator = _table(client)
        actor = client.app.state.manager.actors[table_id]
        before = (actor.version, actor.action_count)
        game = match_of(client, table_id).game
        assert game.turn == 0
        theirs = str(game.hand(1)[0])
        mine = str(game.hand(0)[0])
        cases: list[tuple[Conn, Any, str]] = [
            (b, {"type": "play", "action": str(game.hand(1)[0])}, "not_your_turn"),
            (spectator, {"type": "play", "action": mine}, "not_your_turn"),
            (a, {"type": "play", "action": theirs}, "illegal"),
            (a, {"type": "play", "action": {"play": theirs}}, "illegal"),
            (a, {"type": "play", "action": "zz"}, "malformed"),
            (a, {"type": "play", "action": {"play": 5}}, "malformed"),
            (a, {"type": "play", "action": {"play": "1O", "claim": True}}, "malformed"),
            (a, {"type": "play", "action": ["1O"]}, "malformed"),
            (a, {"type": "play", "action": None}, "malformed"),
            (a, {"type": "play"}, "malformed"),
            (a, {"type": "play", "action": "x" * 100}, "malformed"),
            (a, {"type": "fly"}, "malformed"),
            (a, {"type": "chat", "text": ""}, "malformed"),
            (a, {"type": "chat", "text": 7}, "malformed"),
            (a, {"type": "hello", "token": "forged"}, "bad_token"),
            (a, {"type": "hello", "token": 12}, "bad_token"),
            (a, {"type": "hello", "last": -1}, "malformed"),
            (a, {"type": "hello", "last": True}, "malformed"),
            (a, "x" * 600, "too_large"),
            (a, "{{{ not json", "malformed"),
            (a, "[1, 2, 3]", "malformed"),
            (a, "null", "malformed"),
            (a, b"\xff\xfe", "malformed"),
            (a, {"type": "play", "action": mine, "id": {"deep": 1}}, "malformed"),
        ]
        for conn, message, code in cases:
            conn.send(message if not isinstance(message, dict) else json.dumps(message))
            got = conn.sync()
            errors = [m for m in got if m["type"] == "error"]
            assert [e["code"] for e in errors] == [code], (message, got)
            assert not [m for m in got if m["type"] == "event"]
            _unchanged(client, table_id, before)
        # A bad token did not take the seat away: seat 0 still plays, and gets an ack with its id.
        answer = a.request({"type": "play", "action": mine})
        assert answer["type"] == "ack"
        spectator.sync()
        assert spectator.state is not None and spectator.state["view"]["trick"] == [mine]
        # A hand that is not at the table never reaches a player: the error says why.
        answer = a.request({"type": "play", "action": mine})
        assert answer == {"type": "error", "code": "not_your_turn", "message": answer["message"], "id": answer["id"]}


def test_messages_before_hello_and_unknown_tables(tmp_path: Path) -> None:
    with deadline(20), serve(str(tmp_path / "db.sqlite3")) as client:
        table_id = create(client, players=2)
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            ws.send_json({"type": "play", "action": "1O", "id": 1})
            assert ws.receive_json()["code"] == "malformed"
            ws.send_json({"type": "chat", "text": "hi", "id": 2})
            assert ws.receive_json()["code"] == "malformed"
            ws.send_json({"type": "ping", "id": 3})
            assert ws.receive_json() == {"type": "pong", "id": 3}
        with client.websocket_connect("/ws/nosuchtable") as ws:
            assert ws.receive_json()["code"] == "not_found"
        # Joining: a taken seat, a full table.
        join_all(client, table_id, 2)
        assert client.post(f"/api/tables/{table_id}/join", json={"name": "late"}).status_code == 409
        other = create(client, players=2)
        assert client.post(f"/api/tables/{other}/join", json={"name": "a", "seat": 1}).json()["seat"] == 1
        assert client.post(f"/api/tables/{other}/join", json={"name": "b", "seat": 1}).status_code == 409
        assert client.post(f"/api/tables/{other}/join", json={"name": ""}).status_code == 422


def test_rate_limit(tmp_path: Path) -> None:
    with deadline(20), serve(str(tmp_path / "db.sqlite3"), rate=0.5, burst=5) as client:
        table_id = create(client, players=2)
        conn = Conn(client, table_id)
        for i in range(20):
            conn.send({"type": "ping", "id": i})
        codes = []
        while len(codes) < 20:
            m = conn.recv()
            codes.append(m.get("code", m["type"]))
        assert "rate" in codes and "pong" in codes


_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
_messages = st.one_of(
    _json,
    st.fixed_dictionaries(
        {"type": st.sampled_from(["hello", "play", "chat", "ping", "nope"])},
        optional={"action": _json | st.sampled_from(["1O", "3C", "x7B", "claim", "signal briscas", "1O!"]),
                  "token": _json, "last": _json, "text": _json, "id": _json},
    ),
)


def test_fuzzed_messages_never_crash_the_table(tmp_path: Path) -> None:
    with deadline(50), serve(str(tmp_path / "db.sqlite3")) as client:
        table_id, a, _b, spectator = _table(client)
        actor = client.app.state.manager.actors[table_id]

        @settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
        @given(message=_messages)
        def send(message: object) -> None:
            before = (actor.version, actor.action_count)
            a.send(json.dumps(message))
            got = a.sync()
            acks = [m for m in got if m["type"] == "ack"]
            for m in got:
                assert m["type"] in ("error", "ack", "event", "welcome", "sync", "pong"), m
                if m["type"] == "error":
                    assert m["code"] in ("illegal", "malformed", "not_your_turn", "bad_token", "rate", "too_large")
            if not acks:
                assert actor.action_count == before[1]
            assert not actor._task.done()

        send()
        # The table still works for everybody.
        spectator.sync()
        assert client.get(f"/api/tables/{table_id}").json()["status"] in ("playing", "finished")


def test_a_client_that_does_not_read_is_closed(monkeypatch: Any) -> None:
    import asyncio

    from brisca.server import table

    monkeypatch.setattr(table, "OUTBOX_LIMIT", 5)

    async def flood() -> None:
        conn = table.Connection(subscribed=True)
        for i in range(8):
            conn.send({"type": "event", "v": i})
        assert conn.overflowed and not conn.subscribed
        assert conn.outbox.qsize() == 1 and conn.outbox.get_nowait() is table.CLOSE

    asyncio.run(flood())


def test_a_failed_write_refuses_the_move_and_changes_nothing(tmp_path: Path, monkeypatch: Any) -> None:
    with deadline(20), serve(str(tmp_path / "db.sqlite3")) as client:
        table_id, a, b, spectator = _table(client)
        actor = client.app.state.manager.actors[table_id]
        before = (actor.version, actor.action_count)
        game = match_of(client, table_id).game
        card = str(game.hand(0)[0])

        def broken(*args: object) -> None:
            raise OSError("disk full")

        monkeypatch.setattr(actor.store, "write_action", broken)
        answer = a.request({"type": "play", "action": card})
        assert answer["code"] == "internal"
        _unchanged(client, table_id, before)
        assert str(game.hand(0)[0]) == card and game.trick == ()
        assert not [m for m in spectator.sync() if m["type"] == "event"]
        monkeypatch.undo()
        assert a.request({"type": "play", "action": card})["type"] == "ack"
        assert [m["v"] for m in b.sync() if m["type"] == "event"] == [before[0] + 1]


def test_a_connection_whose_table_was_let_go_is_told_and_welcomed_again_not_carried_over(tmp_path: Path) -> None:
    """A table let go while a connection that said hello to it stays open (the manager released it; the database
    stopped it): that connection's next message is turned away (``unavailable``, with its id) and the connection
    closed, so the client reconnects and is welcomed by the table as it is now. It is never handed, unwelcomed, to
    the table loaded again, whose broadcasts it would not get and whose state it was never told."""
    with deadline(60), serve(str(tmp_path / "db.sqlite3")) as client:
        table_id = create(client, players=2)
        tokens = join_all(client, table_id, 2)
        conns = [Conn(client, table_id, token=t) for t in tokens]
        manager: Any = client.app.state.manager  # type: ignore[attr-defined]
        old = manager.actors[table_id]
        client.portal.call(manager.release, old)
        assert old.stopped and table_id not in manager.actors
        answer = conns[0].request({"type": "chat", "text": "still here?"})
        assert answer["code"] == "unavailable", answer
        assert table_id not in manager.actors  # nothing loaded for a connection that cannot be told
        try:
            conns[0].recv()
            closed = False
        except Exception:
            closed = True
        assert closed
        # Reconnected with its last number, it is welcomed by the table loaded again, and hears what happens there.
        again = Conn(client, table_id, token=tokens[0], last=conns[1].v)
        assert manager.actors[table_id] is not old
        assert again.request({"type": "chat", "text": "back"})["type"] == "ack"
        again.sync()
        assert any(m.get("kind") == "chat" and m.get("text") == "back" for m in again.messages)
