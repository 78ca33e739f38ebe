"""What ``brisca serve`` accepts at the socket: WebSocket frames bounded at the transport, silent connections
closed, open connections capped per address and per process (src/brisca/server/transport.py).

A real ``brisca serve`` on 127.0.0.1; the clients are raw sockets bound to other loopback addresses
(127.0.0.2, 127.0.0.3, ...: all of 127.0.0.0/8 is loopback), so that each is an address of its own.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import select
import socket
import struct
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from brisca.server.limits import Limits
from brisca.server.transport import Gate, TrustedProxies, address_key, connection_cap
from test_server_bounds import _server
from test_server_common import deadline

pytest.importorskip("uvicorn")
pytest.importorskip("websockets")


# ------------------------------------------------------------------ a raw client


def _connect(port: int, source: str) -> socket.socket:
    s = socket.socket()
    s.bind((source, 0))
    s.settimeout(10)
    s.connect(("127.0.0.1", port))
    return s


def _upgrade(port: int, source: str, table_id: str) -> socket.socket:
    """A WebSocket connection from ``source`` to the table, its handshake done (no compression)."""
    s = _connect(port, source)
    key = base64.b64encode(os.urandom(16))
    s.sendall(b"GET /ws/" + table_id.encode() + b" HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
              b"Connection: Upgrade\r\nSec-WebSocket-Key: " + key + b"\r\nSec-WebSocket-Version: 13\r\n\r\n")
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = s.recv(1)
        assert chunk, head
        head += chunk
    assert head.startswith(b"HTTP/1.1 101"), head
    return s


def _header(length: int, opcode: int = 1) -> bytes:
    """A masked client frame's header for ``length`` bytes of payload (a mask of zeros: the payload as is)."""
    if length < 126:
        size = struct.pack("!B", 0x80 | length)
    elif length < 2**16:
        size = struct.pack("!BH", 0x80 | 126, length)
    else:
        size = struct.pack("!BQ", 0x80 | 127, length)
    return struct.pack("!B", 0x80 | opcode) + size + b"\0\0\0\0"


def _exactly(s: socket.socket, n: int) -> bytes:
    data = b""
    while len(data) < n:
        chunk = s.recv(n - len(data))
        if not chunk:
            raise EOFError(data)
        data += chunk
    return data


def _frame(s: socket.socket) -> tuple[int, bytes]:
    """The server's next frame: its opcode and payload."""
    first, second = _exactly(s, 2)
    length = second & 0x7F
    if length == 126:
        length = struct.unpack("!H", _exactly(s, 2))[0]
    elif length == 127:
        length = struct.unpack("!Q", _exactly(s, 8))[0]
    return first & 0x0F, _exactly(s, length)


def _message(s: socket.socket) -> dict[str, object]:
    opcode, payload = _frame(s)
    assert opcode == 1, (opcode, payload)
    message: dict[str, object] = json.loads(payload)
    return message


def _close_code(s: socket.socket) -> int:
    """The code of the server's close frame, the messages before it skipped."""
    while True:
        opcode, payload = _frame(s)
        if opcode == 8:
            code: int = struct.unpack("!H", payload[:2])[0]
            return code


def _peak_and_now(pid: int) -> tuple[float, float]:
    """The process's peak and current resident memory, in MiB."""
    values = {}
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            key, _, rest = line.partition(":")
            if key in ("VmHWM", "VmRSS"):
                values[key] = int(rest.split()[0]) / 1024
    return values["VmHWM"], values["VmRSS"]


def _table(port: int) -> str:
    request = urllib.request.Request(f"http://127.0.0.1:{port}/api/tables", data=b'{"bots": {"1": "easy"}}',
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        table_id: str = json.load(answer)["table_id"]
    return table_id


# ------------------------------------------------------------------ frames


def test_a_frame_over_the_bound_closes_1009_and_counts_against_its_address(tmp_path: Path) -> None:
    """Frames of 4 MiB from four addresses: each connection is closed without its payload being held (the peak
    memory barely moves); the frame's header alone gets 1009; an address past its rate of such closes is
    refused new connections (4429); a message a little over 4096 bytes is answered and the connection goes on."""
    flags = ("--log-level", "warning", "--rate-oversize", "6/2", "--head-timeout", "1", "--max-open-per-address", "3")
    with deadline(120), _server(tmp_path, *flags) as (port, proc):
        table_id = _table(port)
        with _upgrade(port, "127.0.0.8", table_id):
            pass  # the first connection's imports and buffers
        time.sleep(0.5)
        Path(f"/proc/{proc.pid}/clear_refs").write_text("5")  # the peak starts again from now
        _, before = _peak_and_now(proc.pid)
        big = _header(4 * 2**20) + b"x" * (4 * 2**20)
        for source in ("127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5"):
            for _ in range(2):
                with _upgrade(port, source, table_id) as s, contextlib.suppress(OSError, EOFError):
                    s.sendall(big)
                    _close_code(s)
        peak, _ = _peak_and_now(proc.pid)
        # 32 MiB sent; read whole (uvicorn's default bound, 16 MiB), the peak grew by 6 MiB a frame.
        assert peak - before < 16, (before, peak)

        for expected in (1009, 1009):  # the header says 4 MiB: closed before a byte of its payload
            with _upgrade(port, "127.0.0.6", table_id) as s:
                s.sendall(_header(4 * 2**20))
                assert _close_code(s) == expected
        with _upgrade(port, "127.0.0.6", table_id) as s:
            s.sendall(_header(4 * 2**20))
            assert _close_code(s) == 1009  # the rate spent: barred from now on
        with _upgrade(port, "127.0.0.6", table_id) as s:
            refused = _message(s)
            assert refused["code"] == "rate" and "oversized WebSocket messages" in str(refused["message"])
            assert _close_code(s) == 4429

        with _upgrade(port, "127.0.0.7", table_id) as s:  # over the protocol's 4096, under the transport's 8192
            text = json.dumps({"type": "chat", "text": "x" * 5000}).encode()
            s.sendall(_header(len(text)) + text)
            assert _message(s)["code"] == "too_large"
            hello = json.dumps({"type": "hello"}).encode()
            s.sendall(_header(len(hello)) + hello)
            assert _message(s)["type"] == "welcome"
            time.sleep(2)  # past the head timeout: a WebSocket sent its head long ago, and stays
            ping = json.dumps({"type": "ping", "id": 1}).encode()
            s.sendall(_header(len(ping)) + ping)
            while (reply := _message(s))["type"] != "pong":
                pass
            assert reply["id"] == 1
        for _ in range(5):  # one after another from one address (its cap: 3): each closed one is let go
            with _upgrade(port, "127.0.0.9", table_id) as s:
                s.sendall(_header(len(hello)) + hello)
                assert _message(s)["type"] == "welcome"
                s.sendall(_header(2, opcode=8) + struct.pack("!H", 1000))
                assert _close_code(s) == 1000
                assert s.recv(1) == b""


# ------------------------------------------------------------------ silent connections


def _closed(s: socket.socket) -> bool:
    """Whether the server closed ``s`` (without waiting)."""
    if not select.select([s], [], [], 0)[0]:
        return False
    try:
        return s.recv(1) == b""
    except ConnectionResetError:
        return True


def _wait_closed(socks: list[socket.socket], count: int, within: float) -> int:
    """Wait until ``count`` of ``socks`` are closed by the server (at most ``within`` seconds): how many are."""
    closed: set[int] = set()
    end = time.monotonic() + within
    while len(closed) < count and time.monotonic() < end:
        closed |= {i for i, s in enumerate(socks) if i not in closed and _closed(s)}
        time.sleep(0.05)
    return len(closed)


def _lobby(port: int, source: str) -> int:
    """``GET /api/lobby`` from ``source``: its status (a connection that does not answer within 15 s fails: the
    site's 5 s, with room for a busy machine; examples/transport_attacks.py measures the time itself)."""
    with _connect(port, source) as s:
        s.settimeout(15)
        s.sendall(b"GET /api/lobby HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        answer = b""
        while chunk := s.recv(65536):
            answer += chunk
    return int(answer.split(b" ", 2)[1])


@contextlib.contextmanager
def _many(port: int, source: str, n: int) -> Iterator[list[socket.socket]]:
    socks = [_connect(port, source) for _ in range(n)]
    try:
        yield socks
    finally:
        for s in socks:
            s.close()


def test_silent_connections_are_capped_and_closed(tmp_path: Path) -> None:
    """60 silent connections from one address: 20 (its cap) stay, the others are closed at accept; past the
    process's cap (30) another address's are closed too; every silent one is closed once the head timeout has
    passed, and so is one whose head trickles in a line a second; the lobby answers another address meanwhile;
    the refusals are one line of the log."""
    flags = ("--log-level", "warning", "--head-timeout", "4", "--max-open-per-address", "20",
             "--max-open-connections", "30")
    with deadline(120), _server(tmp_path, *flags) as (port, _proc):
        started = time.monotonic()
        with _many(port, "127.0.0.2", 60) as silent:
            assert _wait_closed(silent, 40, within=30) == 40
            assert sum(_closed(s) for s in silent) == 40  # 20 left, until their head timeout
            assert _lobby(port, "127.0.0.4") == 200
            with _many(port, "127.0.0.3", 15) as more:  # the process holds 20: room for 10 of these
                assert _wait_closed(more, 5, within=30) == 5
                slow = _connect(port, "127.0.0.5")  # the process is full: refused at once
                assert _wait_closed([slow], 1, within=30) == 1
                slow.close()
                assert _wait_closed(silent, 60, within=30) == 60  # the head timeout
                assert _wait_closed(more, 15, within=30) == 15
        with _connect(port, "127.0.0.5") as slow:  # a head that trickles in: closed all the same
            slow.sendall(b"GET /api/tables HTTP/1.1\r\n")
            begun = time.monotonic()
            while not _closed(slow) and time.monotonic() - begun < 30:
                with contextlib.suppress(OSError):
                    slow.sendall(b"X-Slow: 1\r\n")
                time.sleep(1)
            assert _closed(slow) or slow.recv(1) == b""
            assert time.monotonic() - begun >= 3
        assert _lobby(port, "127.0.0.4") == 200
        elapsed = time.monotonic() - started
        log = (tmp_path / "serve.log").read_text()
        assert 1 <= log.count("connections refused") <= 1 + elapsed // 60, log
        assert "over the cap of 20 open connections an address" in log


# ------------------------------------------------------------------ the gate's own rules


def test_the_gate_counts_addresses_trusts_proxies_and_logs_once_a_minute(caplog: pytest.LogCaptureFixture) -> None:
    now = [0.0]
    gate = Gate(Limits(max_open_per_address=2, max_open_connections=5), TrustedProxies("127.0.0.1,10.0.0.0/8"),
                clock=lambda: now[0])
    assert [gate.admit(i, "203.0.113.9") for i in range(3)] == [True, True, False]
    assert all(gate.admit(10 + i, "10.1.2.3") for i in range(3))  # a proxy: the process's cap only
    assert not gate.admit(20, "198.51.100.1")  # 5 open: the process is full
    gate.release(0)
    gate.release(0)  # twice: once
    assert gate.counts["203.0.113.9"] == 1 and len(gate.open) == 4
    assert gate.admit(21, "198.51.100.1")
    assert len([r for r in caplog.records if "connections refused" in r.message]) == 1
    now[0] = 30.0
    for i in range(100):
        gate.admit(100 + i, "203.0.113.9")
    assert len([r for r in caplog.records if "connections refused" in r.message]) == 1
    now[0] = 61.0
    gate.admit(300, "203.0.113.9")  # (without an event loop, the line waits for the next refusal)
    lines = [r.message for r in caplog.records if "connections refused" in r.message]
    assert len(lines) == 2 and "in the last 61 s: 102 over the process's cap of 5 open connections" in lines[1]
    assert "anything" in TrustedProxies("*") and "10.9.9.9" not in TrustedProxies("127.0.0.1,/tmp/s.sock")


def test_an_ipv6_address_counts_as_its_64() -> None:
    gate = Gate(Limits(max_open_per_address=2))
    assert gate.admit(1, "2001:db8:1:2::1") and gate.admit(2, "2001:db8:1:2:ffff::9")
    assert not gate.admit(3, "2001:db8:1:2::3")  # the same /64
    assert gate.admit(4, "2001:db8:1:3::1")  # another one
    assert gate.admit(5, "::ffff:192.0.2.1") and gate.admit(6, "192.0.2.1") and not gate.admit(7, "192.0.2.1")
    assert address_key("unknown") == "unknown"


def test_the_process_cap_stays_under_the_open_files_limit() -> None:
    assert connection_cap(Limits(), 1024).max_open_connections == 1024 - 256
    assert connection_cap(Limits(), 100_000).max_open_connections == Limits().max_open_connections
    assert connection_cap(Limits(), None) == Limits()
