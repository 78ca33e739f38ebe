"""Helpers for the web table tests (no tests here): a client wrapper and the leak check."""

from __future__ import annotations

import contextlib
import re
import signal
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

with warnings.catch_warnings():
    # Starlette's test client asks for httpx2 in newer releases; httpx still works.
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from brisca.cards import Card
from brisca.game import Match
from brisca.server import create_app
from brisca.server.limits import Limits, Rate

CARD = re.compile(r"^(1[0-2]|[1-9])[OCEB]$")
#: Connections still open: closed when their server stops, so a failing test cannot hang on exit.
_OPEN: list[Conn] = []


@contextlib.contextmanager
def deadline(seconds: int) -> Iterator[None]:
    """Fail instead of hanging when the server never answers."""

    def expire(signum: int, frame: object) -> None:
        raise TimeoutError(f"no answer within {seconds} s")

    old = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


@contextlib.contextmanager
def serve(db: str, **kwargs: Any) -> Iterator[TestClient]:
    kwargs.setdefault("rate", 10_000.0)
    # The next hand is dealt at once (the pause between hands is for people reading the result).
    kwargs.setdefault("hand_pause", 0)
    kwargs.setdefault("burst", 10_000)
    # The tests play whole matches of bots only at bot_delay 0 (the default minimum, 0.5 s a move, would
    # make them minutes long); every test client is one address ("testclient"), and the lobby's test holds
    # four tables open at once, two of them bots only; the accounts' tests log in, sign up and try names many
    # times. Their accounts' first matches move every rating (no provisional period: the rating tests follow
    # one or two matches). Their connections, all from that one address, are not capped, and may wait for
    # their hello as long as a test takes. The limits' own tests (test_server_limits.py, test_server_bounds.py)
    # set the limits they check.
    loose = Rate(10_000, 10_000)
    kwargs.setdefault("limits", Limits(min_bot_delay=0, max_open_tables=4, max_bot_tables=2,
                                       rate_login=loose, rate_create=loose, rate_join=loose,
                                       rate_password=loose, provisional_games=0, provisional_opponents=0,
                                       max_connections=10_000,
                                       hello_timeout=600))
    with TestClient(create_app(db, **kwargs)) as client:
        try:
            yield client
        finally:
            while _OPEN:
                with contextlib.suppress(Exception):
                    _OPEN[-1].close()


@contextlib.contextmanager
def address(client: TestClient, host: str) -> Iterator[None]:
    """The requests and connections ``client`` makes meanwhile come from the client address ``host`` (else
    all come from ``testclient``): two people at two addresses."""
    transport: Any = client._transport
    old = transport.client
    transport.client = (host, 50000)
    try:
        yield
    finally:
        transport.client = old


class Conn:
    """One WebSocket connection; keeps every message it received."""

    def __init__(self, client: TestClient, table_id: str, token: str | None = None, last: int | None = None) -> None:
        self._cm = client.websocket_connect(f"/ws/{table_id}")
        self.ws = self._cm.__enter__()
        _OPEN.append(self)
        self.messages: list[dict[str, Any]] = []
        self.state: dict[str, Any] | None = None
        self.v: int | None = None
        self._pings = 0
        hello: dict[str, Any] = {"type": "hello"}
        if token is not None:
            hello["token"] = token
        if last is not None:
            hello["last"] = last
        self.send(hello)
        welcome = self.recv()
        assert welcome["type"] == "welcome", welcome
        self.welcome = welcome
        self.seat: int | None = welcome["seat"]
        self.v = last
        self.sync()

    def send(self, message: Any) -> None:
        if isinstance(message, str | bytes):
            if isinstance(message, bytes):
                self.ws.send_bytes(message)
            else:
                self.ws.send_text(message)
        else:
            self.ws.send_json(message)

    def recv(self) -> dict[str, Any]:
        m: dict[str, Any] = self.ws.receive_json()
        self.messages.append(m)
        if m.get("type") == "event":
            if self.v is not None:
                assert m["v"] == self.v + 1, f"gap or duplicate: {self.v} then {m['v']}"
            self.v = m["v"]
            if "state" in m:
                self.state = m["state"]
        elif m.get("type") == "welcome":
            self.v = None  # a fresh hello: replayed events or a snapshot follow
        elif m.get("type") == "sync":
            self.v = m["v"]
            self.state = m["state"]
        return m

    def until(self, pred: Any) -> list[dict[str, Any]]:
        out = []
        while True:
            m = self.recv()
            out.append(m)
            if pred(m):
                return out

    def sync(self) -> list[dict[str, Any]]:
        """Everything the server queued for this connection so far (a ping's pong comes after it)."""
        self._pings += 1
        tag = f"sync-{self._pings}"
        self.send({"type": "ping", "id": tag})
        return self.until(lambda m: m.get("type") == "pong" and m.get("id") == tag)[:-1]

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        """Send a message with an id; return its ack or error (events before it are kept)."""
        self._pings += 1
        message = {**message, "id": f"r{self._pings}"}
        self.send(message)
        got = self.until(lambda m: m.get("type") in ("ack", "error") and m.get("id") == message["id"])
        return got[-1]

    def close(self) -> None:
        if self in _OPEN:
            _OPEN.remove(self)
            self._cm.__exit__(None, None, None)


def create(client: TestClient, **spec: Any) -> str:
    spec.setdefault("bot_delay", 0)
    r = client.post("/api/tables", json=spec)
    assert r.status_code == 200, r.text
    table_id: str = r.json()["table_id"]
    return table_id


def join_all(client: TestClient, table_id: str, players: int) -> list[str]:
    tokens = []
    for i in range(players):
        r = client.post(f"/api/tables/{table_id}/join", json={"name": f"p{i}"})
        assert r.status_code == 200, r.text
        assert r.json()["seat"] == i
        tokens.append(r.json()["token"])
    return tokens


def match_of(client: TestClient, table_id: str) -> Match:
    match = client.app.state.manager.actors[table_id].match  # type: ignore[attr-defined]
    assert match is not None
    return match


def cards_in(obj: Any) -> set[str]:
    found: set[str] = set()
    if isinstance(obj, str):
        if CARD.match(obj):
            found.add(obj)
        elif obj[:1] == "x" and CARD.match(obj[1:]):
            found.add(obj[1:])
        elif obj[-1:] == "!" and CARD.match(obj[:-1]):
            found.add(obj[:-1])
    elif isinstance(obj, dict):
        for k, v in obj.items():
            found |= cards_in(k) | cards_in(v)
    elif isinstance(obj, list):
        for v in obj:
            found |= cards_in(v)
    return found


def check_no_leak(message: dict[str, Any], seat: int | None, match: Match) -> None:
    """Nothing in ``message`` names another seat's hidden card or a face-down stock card."""
    assert "deck" not in str(message)
    assert "salt" not in str(message)  # a deal's salt is revealed by the finished record only
    state = message.get("state")
    if state is None:
        assert set(message) <= {"type", "v", "kind", "seat", "name", "text", "table_id", "code", "message", "id",
                                "now"}
        return
    if state["view"] is None:
        return
    game = match.games[state["table"]["hand_number"]]
    seen = cards_in(message)
    view = game.view(seat)
    known = {str(c) for _s, c in view.known}
    for other in range(game.players):
        if other == seat:
            continue
        hidden = {str(c) for c in game.hand(other)} - known
        assert not (seen & hidden), f"seat {seat} saw seat {other}'s {seen & hidden}"
    face_down = {str(c) for c in game.stock()} - ({str(game.face_up)} if game.face_up else set())
    assert not (seen & face_down), f"seat {seat} saw stock cards {seen & face_down}"
    if seat is not None:
        assert state["view"]["hand"] == [str(c) for c in game.hand(seat)]
    assert all(isinstance(Card.parse(c), Card) for c in seen)
