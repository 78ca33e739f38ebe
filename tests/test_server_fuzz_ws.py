"""The table's WebSocket fuzzed (hypothesis), and the inputs an attacker found, kept as plain regressions.

Every message (any JSON value, message objects with fields of any type, NaN, huge numbers, deep nesting,
text and binary frames, text over the size limit in UTF-8 bytes) gets exactly one answer, a typed error or
a valid one; the connection stays open; a refused message leaves the table as it was (its version, its
seats, every seat's view). The examples are derandomized and no example database is kept.

Time: 7 s for the module (9 s with pytest's start) on a shared 2-core machine, measured with
``pytest tests/test_server_fuzz_ws.py``.
"""

from __future__ import annotations

import asyncio
import json
import unicodedata
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from brisca.server.app import _pump, message_size
from brisca.server.table import Connection
from test_server_common import Conn, create, deadline, join_all, serve

#: The error codes a client's mistake may get (never "internal").
CLIENT_ERRORS = {"illegal", "malformed", "not_your_turn", "bad_token", "too_large"}
MAX_MESSAGE = 4096


def _state(client: Any, table_id: str) -> tuple[Any, ...]:
    """What a refused message must not change: the table as the API shows it, and every audience's view."""
    actor = client.app.state.manager.actors[table_id]
    table = client.get(f"/api/tables/{table_id}").json()
    views = [actor.snapshot(seat)["view"] for seat in (None, *range(actor.players))]
    return table, views, actor.action_count


_scalar = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(),
    st.sampled_from([2**53, 2**63, 10**18, 10**19, -(10**40), float("nan"), float("inf")]),
    st.text(max_size=16), st.sampled_from(["\x00", "hi\u202e", "\u200d", "1O", "3C", "claim", "x" * 70]),
)
_json = st.recursive(
    _scalar, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
_message = st.fixed_dictionaries(
    {"type": st.sampled_from(["hello", "play", "chat", "ping", "nope"]) | _scalar},
    optional={"action": _json | st.sampled_from(["1O", "3C", "x7B", "claim", "signal briscas", "1O!"])
              | st.fixed_dictionaries({"play": _json}),
              "token": _json, "last": _json, "text": _json, "id": _json},
)


def _deep(levels: int) -> str:
    return "[" * levels + "]" * levels


_frame = st.one_of(
    _json.map(json.dumps),  # any JSON value (NaN and Infinity as Python writes them)
    _message.map(json.dumps),
    st.text(max_size=60),  # any text, JSON or not
    st.binary(max_size=60),  # binary frames, invalid UTF-8 included
    st.integers(1, 40).map(lambda n: '{"type": "ping", "x": ' + _deep(n) + "}"),
    st.integers(MAX_MESSAGE // 2 + 1, MAX_MESSAGE).map(lambda n: json.dumps({"type": "chat", "text": "é" * n},
                                                                             ensure_ascii=False)),
    st.sampled_from(['{"type": "ping", "id": 1' + "0" * 30 + "}", '{"type": "hello", "last": 1e999}',
                     '{"type": "chat", "text": "\\ud800"}', '{"type": "ping", "id": "\\udfff"}',
                     '{"type": "hello", "token": "\\ud800"}', '{"type": "play", "action": "\\ud800"}',
                     '{"type": "play", "action": {"play": "\\ud800"}}']),
)


def _table(client: Any) -> tuple[str, Conn, Conn, str]:
    table_id = create(client, players=2)
    tokens = join_all(client, table_id, 2)
    return table_id, Conn(client, table_id, token=tokens[0]), Conn(client, table_id), tokens[0]


def test_fuzzed_frames_get_one_answer_and_refused_ones_change_nothing(tmp_path: Path) -> None:
    with deadline(100), serve(str(tmp_path / "db.sqlite3"), max_message=MAX_MESSAGE) as client:
        table_id, player, spectator, token = _table(client)
        actor = client.app.state.manager.actors[table_id]
        # Seat 0 on a second device too: a hello that makes the fuzzed connection a spectator is no absence.
        keeper = Conn(client, table_id, token=token)

        @settings(max_examples=1000, deadline=None, derandomize=True, database=None,
                  suppress_health_check=list(HealthCheck))
        @given(frame=_frame)
        def send(frame: str | bytes) -> None:
            before = _state(client, table_id)
            player.send(frame)
            got = player.sync()
            answers = [m for m in got if m["type"] in ("error", "ack", "pong", "welcome")]
            assert len(answers) == 1, (frame, got)
            for m in got:
                assert m["type"] in ("error", "ack", "event", "welcome", "sync", "pong"), m
            answer = answers[0]  # a hello's welcome changes nothing either (seat 0 stays connected)
            if answer["type"] == "error":
                assert answer["code"] in CLIENT_ERRORS and isinstance(answer["message"], str), answer
            size = len(frame) if isinstance(frame, bytes) else len(frame.encode("utf-8", "surrogatepass"))
            if size > MAX_MESSAGE:
                assert answer.get("code") == "too_large", (frame[:40], answer)
            elif isinstance(frame, bytes):
                assert answer.get("code") == "malformed", (frame, answer)
            for m in got:  # what a table shows everyone carries nothing invisible
                if m.get("kind") == "chat":
                    assert not {unicodedata.category(c) for c in m["text"]} & {"Cc", "Cf", "Cs", "Co", "Cn"}, m
            if answer["type"] != "ack":
                assert _state(client, table_id) == before, frame
            if answer["type"] == "welcome" and player.seat != 0:  # a hello without the token: take the seat back
                player.send({"type": "hello", "token": token})
                player.sync()
            assert actor._task is not None and not actor._task.done()

        send()
        # The table still works for everybody, and nobody's connection was closed.
        assert [m for m in spectator.sync() if m["type"] == "error"] == []
        assert keeper.seat == 0 and [m for m in keeper.sync() if m["type"] == "error"] == []
        assert client.get(f"/api/tables/{table_id}").json()["status"] == "playing"


# ---------------------------------------------------------------------- the inputs an attacker found


def test_the_attackers_http_inputs_are_4xx_with_a_string_detail(tmp_path: Path) -> None:
    with deadline(30), serve(str(tmp_path / "db.sqlite3")) as client:
        raw = {"content-type": "application/json"}
        r = client.post("/api/tables", content=b'{"seed": ' + str(10**40).encode() + b"}", headers=raw)
        assert r.status_code == 422 and r.json()["detail"].startswith("seed: "), r.text
        r = client.post("/api/tables", content=b'{"players": NaN}', headers=raw)
        assert r.status_code == 422 and r.json()["detail"].startswith("players: "), r.text
        assert r.json()["errors"] == [{"field": "players", "message": r.json()["errors"][0]["message"]}]
        assert "NaN" not in r.text
        r = client.get("/api/games?offset=99999999999999999999999")
        assert r.status_code == 422 and r.json()["detail"].startswith("offset: "), r.text
        for body in ('{"bot_delay": Infinity}', '{"options": {"deck": NaN}}', '{"bots": {"99": "easy"}}',
                     '{"options": {"points": [[[1]]]}}', '{"players": 2, "options": {"x": 1e400}}'):
            r = client.post("/api/tables", content=body.encode(), headers=raw)
            assert r.status_code == 422 and isinstance(r.json()["detail"], str), (body, r.text)
        # A rule option's value of an odd type is the client's mistake: 400, naming the option.
        r = client.post("/api/tables", json={"options": {"exchange_with": {"7": {"a": 1}}}})
        assert r.status_code in (400, 422) and "exchange_with" in r.json()["detail"], r.text
        r = client.post("/api/tables", json={"options": {"target_hands": "²"}})  # a digit to str.isdigit, not to int
        assert r.status_code == 400 and "target_hands" in r.json()["detail"], r.text
        r = client.post("/api/tables", json={"options": {"rank_order": "1 1"}})
        assert r.status_code == 400 and "rank_order" in r.json()["detail"], r.text
        # The server still answers afterwards.
        assert client.get("/api/presets").status_code == 200


def test_names_and_chat_refuse_nul_and_bidi_overrides(tmp_path: Path) -> None:
    with deadline(30), serve(str(tmp_path / "db.sqlite3")) as client:
        for bad, code in (("Ana\x00", "U+0000"), ("Ana\u202e", "U+202E")):
            r = client.post("/api/tables", json={"name": bad})
            assert r.status_code == 422 and code in r.json()["detail"] and r.json()["detail"].startswith("name: ")
            table_id = create(client, players=2)
            r = client.post(f"/api/tables/{table_id}/join", json={"name": bad})
            assert r.status_code == 422 and code in r.json()["detail"], r.text
        table_id = create(client, players=2)
        tokens = join_all(client, table_id, 2)
        conn = Conn(client, table_id, token=tokens[0])
        for bad, code in (("hi\x00", "U+0000"), ("hi\u202eolleh", "U+202E")):
            answer = conn.request({"type": "chat", "text": bad})
            assert answer["type"] == "error" and answer["code"] == "malformed" and code in answer["message"]
        assert conn.request({"type": "chat", "text": "  hola  "})["type"] == "ack"
        assert [m["text"] for m in conn.messages if m.get("kind") == "chat"] == ["hola"]


def test_the_size_limit_counts_utf8_bytes(tmp_path: Path) -> None:
    assert message_size("é" * 4000) == 8000 and message_size("e" * 4000) == 4000 and message_size(b"\xff") == 1
    with deadline(30), serve(str(tmp_path / "db.sqlite3"), max_message=4096) as client:
        table_id = create(client, players=2)
        tokens = join_all(client, table_id, 2)
        conn = Conn(client, table_id, token=tokens[0])
        v = client.get(f"/api/tables/{table_id}").json()["version"]
        conn.send(json.dumps({"type": "chat", "text": "é" * 4000}, ensure_ascii=False))  # 4000 characters
        assert [m["code"] for m in conn.sync() if m["type"] == "error"] == ["too_large"]
        conn.send(b'{"type": "ping"}')
        assert [m["code"] for m in conn.sync() if m["type"] == "error"] == ["malformed"]
        assert client.get(f"/api/tables/{table_id}").json()["version"] == v
        assert conn.request({"type": "chat", "text": "é" * 400})["type"] == "ack"  # 800 bytes: fine


def test_a_lone_surrogate_in_an_answer_is_sent_escaped() -> None:
    """A client's "\\ud800" (valid JSON, not valid UTF-8 once decoded) comes back escaped, not as a crash."""

    class Socket:
        def __init__(self) -> None:
            self.sent: list[bytes] = []

        async def send_text(self, text: str) -> None:
            self.sent.append(text.encode("utf-8"))  # what a real WebSocket does with the text

        async def close(self, code: int) -> None:
            pass

    async def run() -> list[bytes]:
        socket, conn = Socket(), Connection()
        conn.send({"type": "error", "code": "malformed", "message": "m", "id": "\ud800é"})
        conn.send({"type": "pong", "id": "é"})
        task = asyncio.create_task(_pump(socket, conn))  # type: ignore[arg-type]
        for _ in range(10):
            await asyncio.sleep(0)
        task.cancel()
        return socket.sent

    sent = asyncio.run(run())
    assert [json.loads(s)["id"] for s in sent] == ["\ud800é", "é"]
    assert "é" in sent[1].decode()  # the usual answers stay unescaped
