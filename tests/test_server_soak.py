"""Thousands of WebSocket connections opened and closed on loopback: the server's memory stays bounded.

A real ``brisca serve`` (uvicorn, asyncio's selector loop) on 127.0.0.1; batches of connections open at
once, each says hello and reads its welcome, then all close. The server's resident memory after the
warm-up and at the end are compared: what connections leave behind must be freed, not accumulate.

Time: about 60 s on a shared 2-core machine (``pytest tests/test_server_soak.py``).
"""

from __future__ import annotations

import asyncio
import gc
import json
import socket
import weakref
from pathlib import Path

import pytest

from brisca.server.collector import Collector, break_transport_cycles
from test_server_bounds import _server

pytestmark = pytest.mark.slow  # thousands of connections: a stage of its own in CI (tests/conftest.py)

websockets = pytest.importorskip("websockets")

#: Connections open at once, batches after the warm-up, and the warm-up's batches.
BATCH, BATCHES, WARM_UP = 100, 30, 5
#: Resident memory the server may gain after the warm-up, over BATCH * BATCHES connections, and over the
#: second half of them (MiB): the connections' working set settles, what they would leak would not.
GROWTH, SECOND_HALF = 48, 8


def _rss(pid: int) -> float:
    """The resident memory of process ``pid``, in MiB."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


async def _settled(pid: int) -> float:
    """The resident memory of the server ``pid`` once its collector has made a full pass and handed freed memory
    back (every ``idle_check_every`` = 5 s, after ``--full-collection-after`` closed connections): the lowest
    over a little more than one such period."""
    lowest = _rss(pid)
    for _ in range(25):
        await asyncio.sleep(0.25)
        lowest = min(lowest, _rss(pid))
    return lowest


async def _batch(url: str, n: int) -> None:
    conns = [await websockets.connect(url) for _ in range(n)]
    for ws in conns:
        await ws.send(json.dumps({"type": "hello"}))
    for ws in conns:
        assert json.loads(await ws.recv())["type"] == "welcome"
    for ws in conns:
        await ws.close()


def test_a_closed_connection_is_freed_without_the_collector() -> None:
    """asyncio's socket transport of a closed connection goes at once (Python 3.11 kept it in a cycle)."""
    break_transport_cycles()

    async def main() -> weakref.ref[asyncio.BaseTransport]:
        server = await asyncio.start_server(lambda r, w: w.close(), "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        ref = weakref.ref(writer.transport)
        await reader.read()  # the server closed its side
        writer.close()
        await writer.wait_closed()
        server.close()
        await server.wait_closed()
        del reader, writer
        return ref

    gc.disable()
    try:
        ref = asyncio.run(main())
        assert ref() is None
    finally:
        gc.enable()


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="resident memory is read from /proc")
def test_thousands_of_connections_leave_the_memory_bounded(tmp_path: Path) -> None:
    with _server(tmp_path, "--max-connections", str(BATCH + 10), "--full-collection-after", str(BATCH)) as (port, proc):
        async def main() -> tuple[float, float, float]:
            import urllib.request

            body = json.dumps({"players": 2, "name": "Ana"}).encode()
            request = urllib.request.Request(f"http://127.0.0.1:{port}/api/tables", data=body,
                                             headers={"content-type": "application/json"})
            table_id = json.load(await asyncio.to_thread(urllib.request.urlopen, request, timeout=30))["table_id"]
            url = f"ws://127.0.0.1:{port}/ws/{table_id}"
            for _ in range(WARM_UP):
                await _batch(url, BATCH)
            warm = await _settled(proc.pid)
            for _ in range(BATCHES // 2):
                await _batch(url, BATCH)
            half = await _settled(proc.pid)
            for _ in range(BATCHES - BATCHES // 2):
                await _batch(url, BATCH)
            return warm, half, await _settled(proc.pid)

        warm, half, end = asyncio.run(asyncio.wait_for(main(), 240))
        seen = f"{BATCH * BATCHES} connections: {warm:.1f} -> {half:.1f} -> {end:.1f} MiB"
        print(seen)  # pytest -s shows it
        assert end - warm < GROWTH and end - half < SECOND_HALF, seen
        with socket.create_connection(("127.0.0.1", port), timeout=5):
            pass  # still serving


def test_a_full_collection_comes_after_so_many_connections_or_seconds() -> None:
    now = [0.0]
    collector = Collector(every=60, after=3, clock=lambda: now[0])
    assert not collector.tick()
    collector.closed()
    collector.closed()
    assert not collector.tick()
    collector.closed()
    assert collector.tick() and collector.closed_since == 0  # the third connection closed
    now[0] = 59.0
    assert not collector.tick()
    now[0] = 60.0
    assert collector.tick()  # a minute passed
    assert not collector.tick()
