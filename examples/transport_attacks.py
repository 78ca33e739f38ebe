"""Measures what docs/security.md ("Connections and frames") quotes: a real ``brisca serve`` on 127.0.0.1 under
two attacks from other loopback addresses (127.0.0.2, ...: all of 127.0.0.0/8 is loopback).

    python examples/transport_attacks.py frames   # 20 WebSocket frames of 4 MiB from 4 addresses: the memory
    python examples/transport_attacks.py silent   # 600 silent TCP connections from one address: how long they
                                                  # stay, and how fast the lobby answers another address meanwhile

Flags after ``--`` go to ``brisca serve`` (``-- --max-frame 16777216``: uvicorn's own bound). Linux only (it
reads /proc).
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import json
import os
import select
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections import Counter
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def memory(pid: int) -> dict[str, float]:
    """VmRSS and VmHWM (the peak) of ``pid``, in MiB."""
    found = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, rest = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            found[key] = int(rest.split()[0]) / 1024
    return found


def connect(port: int, source: str, timeout: float = 10) -> socket.socket:
    s = socket.socket()
    s.bind((source, 0))
    s.settimeout(timeout)
    s.connect(("127.0.0.1", port))
    return s


def upgrade(port: int, source: str, table_id: str) -> socket.socket:
    s = connect(port, source)
    key = base64.b64encode(os.urandom(16))
    s.sendall(b"GET /ws/" + table_id.encode() + b" HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
              b"Connection: Upgrade\r\nSec-WebSocket-Key: " + key + b"\r\nSec-WebSocket-Version: 13\r\n\r\n")
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = s.recv(1)
        if not chunk:
            raise ConnectionError(f"no handshake: {head!r}")
        head += chunk
    return s


def frame(size: int) -> bytes:
    """A masked text frame of ``size`` bytes (a mask of zeros)."""
    length = struct.pack("!BQ", 0x80 | 127, size) if size >= 2**16 else struct.pack("!BH", 0x80 | 126, size)
    return b"\x81" + length + b"\0\0\0\0" + b"x" * size


def close_code(s: socket.socket) -> str:
    """The code of the server's close frame, or what happened instead (within the socket's timeout)."""
    data = b""
    try:
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
            while len(data) >= 2:
                length, at = data[1] & 0x7F, 2
                if length == 126:
                    length, at = struct.unpack("!H", data[2:4])[0], 4
                elif length == 127:
                    length, at = struct.unpack("!Q", data[2:10])[0], 10
                if len(data) < at + length:
                    break
                if data[0] & 0x0F == 8:
                    return str(struct.unpack("!H", data[at:at + 2])[0])
                data = data[at + length:]
    except TimeoutError:
        return "still open"
    except OSError as exc:
        return type(exc).__name__
    return "closed without a close frame"


def start(workdir: Path, flags: list[str]) -> tuple[subprocess.Popen[bytes], int]:
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "brisca", "serve", "--port", str(port), "--db",
                             str(workdir / "db.sqlite3"), "--log-level", "warning", *flags],
                            stdout=subprocess.DEVNULL, stderr=(workdir / "serve.log").open("wb"))
    for _ in range(300):
        with contextlib.suppress(OSError), urllib.request.urlopen(f"http://127.0.0.1:{port}/api/presets", timeout=2):
            return proc, port
        time.sleep(0.1)
    proc.kill()
    raise SystemExit(f"the server did not start: {(workdir / 'serve.log').read_text()}")


def frames(port: int, pid: int, count: int, size_mib: int, addresses: int) -> None:
    request = urllib.request.Request(f"http://127.0.0.1:{port}/api/tables", data=b'{"bots": {"1": "easy"}}',
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as r:
        table_id = json.load(r)["table_id"]
    with upgrade(port, "127.0.0.100", table_id):
        pass
    time.sleep(1)
    Path(f"/proc/{pid}/clear_refs").write_text("5")  # the peak from now on
    before = memory(pid)["VmRSS"]
    codes: Counter[str] = Counter()
    payload = frame(size_mib * 2**20)

    def attack(source: str, n: int) -> None:
        for _ in range(n):
            try:
                s = upgrade(port, source, table_id)
            except OSError as exc:
                codes[f"refused ({type(exc).__name__})"] += 1
                continue
            with s:
                s.settimeout(3)
                try:
                    s.sendall(payload)
                except OSError as exc:
                    codes[f"cut while sending ({type(exc).__name__})"] += 1
                    continue
                codes[close_code(s)] += 1

    sources = [f"127.0.0.{2 + i}" for i in range(addresses)]
    threads = [threading.Thread(target=attack, args=(src, count // addresses + (i < count % addresses)))
               for i, src in enumerate(sources)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    time.sleep(2)
    after = memory(pid)
    print(f"{count} frames of {size_mib} MiB from {addresses} addresses: resident memory {before:.1f} MiB before, "
          f"peak {after['VmHWM']:.1f} MiB (+{after['VmHWM'] - before:.1f}), {after['VmRSS']:.1f} MiB after; "
          f"close codes: {dict(codes)}")


def closed(s: socket.socket) -> bool:
    if not select.select([s], [], [], 0)[0]:
        return False
    try:
        return s.recv(1) == b""
    except OSError:
        return True


def lobby(port: int) -> float:
    """Seconds ``GET /api/lobby`` from 127.0.0.3 takes (``inf``: no answer within 5 s)."""
    t0 = time.monotonic()
    try:
        with connect(port, "127.0.0.3", timeout=5) as s:
            s.sendall(b"GET /api/lobby HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            answer = b""
            while chunk := s.recv(65536):
                answer += chunk
        return time.monotonic() - t0 if answer.startswith(b"HTTP/1.1 200") else float("inf")
    except OSError:
        return float("inf")


def silent(port: int, count: int, limit: float) -> None:
    t0 = time.monotonic()
    socks, failed = [], 0
    for _ in range(count):
        try:
            socks.append(connect(port, "127.0.0.2"))
        except OSError:
            failed += 1
    done: dict[int, float] = {}
    slowest = 0.0
    while len(done) < len(socks) and time.monotonic() - t0 < limit:
        for i, s in enumerate(socks):
            if i not in done and closed(s):
                done[i] = time.monotonic() - t0
        slowest = max(slowest, lobby(port))
        time.sleep(0.5)
    for s in socks:
        s.close()
    at_once = sum(1 for t in done.values() if t < 2)
    last = max(done.values(), default=0.0)
    print(f"{count} silent connections from one address ({failed} not connected): {at_once} closed within 2 s, "
          f"{len(done)} closed within {last:.1f} s, {len(socks) - len(done)} still open after {limit:g} s; "
          f"the lobby from another address answered in {slowest * 1000:.0f} ms at the slowest")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("attack", choices=("frames", "silent"))
    parser.add_argument("--count", type=int, help="frames (20) or connections (600)")
    parser.add_argument("--size", type=int, default=4, help="MiB a frame (frames)")
    parser.add_argument("--addresses", type=int, default=4, help="addresses sending frames (frames)")
    parser.add_argument("--limit", type=float, default=90, help="seconds to wait for the connections (silent)")
    argv = sys.argv[1:]
    serve = argv[argv.index("--") + 1:] if "--" in argv else []
    args = parser.parse_args(argv[:len(argv) - len(serve) - (1 if "--" in argv else 0)])
    with tempfile.TemporaryDirectory() as folder:
        proc, port = start(Path(folder), serve)
        try:
            if args.attack == "frames":
                frames(port, proc.pid, args.count or 20, args.size, args.addresses)
            else:
                silent(port, args.count or 600, args.limit)
        finally:
            proc.terminate()
            proc.wait(15)


if __name__ == "__main__":
    main()
