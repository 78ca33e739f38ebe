"""What one client can make the server spend: request bodies, password hashing, WebSocket connections."""

from __future__ import annotations

import contextlib
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect

from brisca.server.accounts import AccountError
from brisca.server.limits import Limits, Rate
from test_server_accounts import PASSWORD, _csrf, _signup
from test_server_common import address, create, deadline, serve

FAST = Rate(1e9, 1_000_000)
LOOSE = Limits(rate_create=FAST, rate_join=FAST, rate_chat=FAST, rate_login=FAST, rate_password=FAST)


# ------------------------------------------------------------------ bodies


def test_a_body_past_the_limit_is_refused_before_it_is_read(tmp_path: Path) -> None:
    with deadline(30), serve(str(tmp_path / "db.sqlite3"), limits=LOOSE.replace(max_body=1000)) as client:
        padded = {"players": 2, "name": "Ana", "options": {}, "pad": "x" * 2000}
        r = client.post("/api/tables", json=padded)
        assert r.status_code == 413 and r.json() == {"detail": "a request's body is at most 1000 bytes"}
        # Streamed without a length (chunked): counted as it comes, refused at the chunk past the limit.
        sent = []

        def chunks() -> Iterator[bytes]:
            for _ in range(50):
                sent.append(1)
                yield b" " * 100
        r = client.post("/api/tables", content=chunks(), headers={"content-type": "application/json"})
        assert r.status_code == 413 and "at most 1000 bytes" in r.json()["detail"]
        r = client.post("/api/tables", content=b"{}", headers={"content-length": "x2"})
        assert r.status_code == 400 and "Content-Length" in r.json()["detail"]
        # Bodies under the limit, chunked or not, go through.
        assert client.post("/api/tables", json={"players": 2}).status_code == 200
        assert client.post("/api/tables", content=iter([b'{"players"', b": 2}"]),
                           headers={"content-type": "application/json"}).status_code == 200
        assert len(client.app.state.manager.actors) == 2  # type: ignore[attr-defined]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextlib.contextmanager
def _server(tmp_path: Path, *flags: str) -> Iterator[tuple[int, subprocess.Popen[bytes]]]:
    """``brisca serve`` on 127.0.0.1, answering ``/healthz``; stopped at the end."""
    port = _free_port()
    log = (tmp_path / "serve.log").open("wb")
    proc = subprocess.Popen([sys.executable, "-m", "brisca", "serve", "--host", "127.0.0.1", "--port", str(port),
                             "--db", str(tmp_path / "db.sqlite3"), *flags], stdout=log, stderr=subprocess.STDOUT)
    try:
        end = time.monotonic() + 60
        while True:
            assert proc.poll() is None, (tmp_path / "serve.log").read_text()
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
                break
            assert time.monotonic() < end, "the server did not start"
            time.sleep(0.2)
        yield port, proc
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


def test_a_huge_declared_body_is_answered_before_a_byte_of_it_is_sent(tmp_path: Path) -> None:
    """Over a real socket: 100 MiB announced, none sent, and the 413 comes back at once."""
    with deadline(90), _server(tmp_path) as (port, _proc), socket.create_connection(("127.0.0.1", port)) as s:
        s.settimeout(10)
        s.sendall(b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                  b"Content-Length: 104857600\r\n\r\n")
        answer = b""
        while b"\r\n\r\n" not in answer:
            answer += s.recv(4096)
        assert answer.startswith(b"HTTP/1.1 413"), answer[:200]


# ------------------------------------------------------------------ passwords


def test_password_changes_are_rate_limited_like_logins(tmp_path: Path) -> None:
    limits = LOOSE.replace(rate_password=Rate(1, 2))
    with deadline(30), serve(str(tmp_path / "db.sqlite3"), limits=limits) as client:
        _signup(client, "Ana")
        guesses = [client.post("/api/password", json={"old": f"guess {i:04}", "new": "x" * 9}, headers=_csrf(client))
                   for i in range(3)]
        assert [r.status_code for r in guesses] == [400, 400, 429]
        detail = guesses[2].json()["detail"]  # a minute for a token, less the time the two checks took
        assert detail.startswith("too many password changes from your address; try again in ")
        assert 50 <= int(guesses[2].headers["Retry-After"]) <= 60
        with address(client, "192.0.2.7"):  # another address has its own bucket
            r = client.post("/api/password", json={"old": PASSWORD, "new": "another secret"}, headers=_csrf(client))
            assert r.status_code == 200


class _SlowLogin:
    """Stands for :meth:`Accounts.login`: takes ``seconds`` and counts how many run at once."""

    def __init__(self, seconds: float) -> None:
        self.seconds, self.running, self.most = seconds, 0, 0
        self.lock = threading.Lock()

    def __call__(self, username: object, password: object) -> Any:
        with self.lock:
            self.running += 1
            self.most = max(self.most, self.running)
        time.sleep(self.seconds)
        with self.lock:
            self.running -= 1
        raise AccountError("wrong username or password")


def _logins(client: Any, n: int) -> list[Any]:
    out: list[Any] = [None] * n

    def one(i: int) -> None:
        out[i] = client.post("/api/login", json={"username": f"u{i}", "password": PASSWORD})
    threads = [threading.Thread(target=one, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return out


def test_password_hashing_is_bounded_and_a_long_wait_gets_503(tmp_path: Path) -> None:
    with deadline(60), serve(str(tmp_path / "db.sqlite3"), limits=LOOSE.replace(max_hashing=2)) as client:
        slow = _SlowLogin(0.3)
        client.app.state.accounts.login = slow  # type: ignore[attr-defined]
        answers = _logins(client, 8)
        assert [r.status_code for r in answers] == [401] * 8  # every one was checked, two at a time
        assert slow.most == 2
    with deadline(60), serve(str(tmp_path / "db2.sqlite3"), limits=LOOSE.replace(max_hashing=1, hash_wait=0.2)) \
            as client:
        slow = _SlowLogin(1.0)
        client.app.state.accounts.login = slow  # type: ignore[attr-defined]
        answers = _logins(client, 4)
        codes = sorted(r.status_code for r in answers)
        assert codes[0] == 401 and codes[-1] == 503 and slow.most == 1
        busy = next(r for r in answers if r.status_code == 503)
        assert busy.headers["Retry-After"] == "5" and "busy" in busy.json()["detail"]


# ------------------------------------------------------------------ WebSocket connections


def test_connections_are_capped_per_address(tmp_path: Path) -> None:
    with deadline(30), serve(str(tmp_path / "db.sqlite3"), limits=LOOSE.replace(max_connections=3)) as client:
        table_id = create(client, players=2)
        with contextlib.ExitStack() as stack:
            for _ in range(3):
                ws = stack.enter_context(client.websocket_connect(f"/ws/{table_id}"))
                ws.send_json({"type": "hello"})
                assert ws.receive_json()["type"] == "welcome"
            with client.websocket_connect(f"/ws/{table_id}") as extra:
                refused = extra.receive_json()
                assert refused["code"] == "too_many_connections" and "at most 3" in refused["message"]
                with pytest.raises(WebSocketDisconnect) as closed:
                    extra.receive_json()
                assert closed.value.code == 4429
            with address(client, "192.0.2.8"), client.websocket_connect(f"/ws/{table_id}") as other:
                other.send_json({"type": "hello"})
                assert other.receive_json()["type"] == "welcome"  # another address: its own count
        # All closed: the address may connect again.
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            ws.send_json({"type": "hello"})
            assert ws.receive_json()["type"] == "welcome"
        assert client.app.state.connections == {}  # type: ignore[attr-defined]


def test_a_connection_that_never_says_hello_is_closed(tmp_path: Path) -> None:
    with deadline(30), serve(str(tmp_path / "db.sqlite3"), limits=LOOSE.replace(hello_timeout=0.3)) as client:
        table_id = create(client, players=2)
        with client.websocket_connect(f"/ws/{table_id}") as silent:
            silent.send_json({"type": "ping", "id": 1})  # anything but a hello does not count
            assert silent.receive_json() == {"type": "pong", "id": 1}
            refused = silent.receive_json()
            assert refused["code"] == "hello_timeout" and "0.3 s" in refused["message"]
            with pytest.raises(WebSocketDisconnect) as closed:
                silent.receive_json()
            assert closed.value.code == 4408
        with client.websocket_connect(f"/ws/{table_id}") as polite:
            polite.send_json({"type": "hello"})
            assert polite.receive_json()["type"] == "welcome"
            time.sleep(0.6)
            polite.send_json({"type": "ping", "id": 2})
            while (m := polite.receive_json()).get("type") != "pong":  # the table's snapshot comes first
                assert m["type"] == "sync", m
            assert m == {"type": "pong", "id": 2}  # past the timeout, still open


def test_serve_flags_set_the_bounds() -> None:
    import argparse

    from brisca.cli.serve import add_serve_options, limits
    from brisca.errors import BriscaError

    parser = argparse.ArgumentParser()
    add_serve_options(parser)
    chosen = limits(parser.parse_args(["--max-body", "100", "--max-connections", "2", "--hello-timeout", "1.5",
                                       "--provisional-games", "0", "--rate-password", "5/1", "--max-hashing", "1",
                                       "--hash-wait", "2", "--full-collection-after", "10",
                                       "--full-collection-every", "5"]))
    assert (chosen.max_body, chosen.max_connections, chosen.hello_timeout, chosen.provisional_games) == (100, 2, 1.5, 0)
    assert (chosen.rate_password, chosen.max_hashing, chosen.hash_wait) == (Rate(5, 1), 1, 2.0)
    assert (chosen.full_collection_after, chosen.full_collection_every) == (10, 5.0)
    chosen = limits(parser.parse_args(["--rate-account", "3/4", "--provisional-opponents", "2"]))
    assert (chosen.rate_account, chosen.provisional_opponents) == (Rate(3, 4), 2)
    assert limits(parser.parse_args(["--rate-account", "6"])).rate_account == Rate(6, 10)  # the default burst
    for bad in (["--max-body", "0"], ["--max-connections", "0"], ["--hash-wait", "0"], ["--hello-timeout", "-1"],
                ["--max-hashing", "many"], ["--full-collection-every", "0"], ["--provisional-games", "-1"],
                ["--provisional-opponents", "-1"], ["--rate-account", "0"], ["--rate-account", "x/2"]):
        with pytest.raises(BriscaError):
            limits(parser.parse_args(bad))
    help_text = parser.format_help()
    for flag in ("--max-body", "--max-connections", "--hello-timeout", "--rate-password", "--max-hashing",
                 "--rate-account", "--provisional-opponents"):
        assert flag in help_text
