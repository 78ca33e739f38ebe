"""A TCP proxy for the fault-injection tests: put in front of PostgreSQL or Redis, it passes the bytes through
until it is told to stall them (:meth:`FaultProxy.pause`; :meth:`FaultProxy.pause_open`: only those of the
connections open now), to drop every connection and refuse new ones (:meth:`FaultProxy.cut`), or to pass them
again (:meth:`FaultProxy.restore`).

It runs its own event loop in a thread, so that a test (or the processes it starts) may block meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable
from typing import Any


class FaultProxy:
    """127.0.0.1:``port`` (a free port) to ``target_host:target_port``."""

    def __init__(self, target_port: int, target_host: str = "127.0.0.1") -> None:
        self.target = (target_host, target_port)
        self.port = 0
        #: "open": bytes pass; "paused": connections stay, bytes wait; "cut": connections dropped, new ones closed.
        self.mode = "open"
        self._loop = asyncio.new_event_loop()
        self._flowing: asyncio.Event | None = None
        self._writers: set[asyncio.StreamWriter] = set()
        #: Each connection's own flow (cleared: its bytes wait, whatever the others do).
        self._flows: list[asyncio.Event] = []
        self._server: asyncio.Server | None = None
        self._thread = threading.Thread(target=self._loop.run_forever, name="fault-proxy", daemon=True)

    def __enter__(self) -> FaultProxy:
        self._thread.start()
        self._call(self._start)
        return self

    def __exit__(self, *exc: object) -> None:
        self._call(self._close)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(5)

    def _call(self, fn: Callable[[], Any]) -> Any:
        async def run() -> Any:
            result = fn()
            return await result if asyncio.iscoroutine(result) else result

        return asyncio.run_coroutine_threadsafe(run(), self._loop).result(10)

    async def _start(self) -> None:
        self._flowing = asyncio.Event()
        self._flowing.set()
        self._server = await asyncio.start_server(self._accept, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]

    async def _close(self) -> None:
        assert self._server is not None
        self._server.close()
        self._drop()

    # -------------------------------------------------------------- what the test does

    def pause(self) -> None:
        """Stall: every byte either way waits (the connections stay open, new ones are accepted and wait too)."""
        self._call(self._pause)

    def pause_open(self) -> None:
        """Stall the connections open now (every byte either way waits); those opened later pass."""
        self._call(self._pause_open)

    def cut(self) -> None:
        """Down: every connection is closed, and each new one is closed as soon as it is accepted."""
        self._call(self._cut)

    def restore(self) -> None:
        """Pass the bytes again (those that waited first)."""
        self._call(self._restore)

    def _pause(self) -> None:
        assert self._flowing is not None
        self.mode = "paused"
        self._flowing.clear()

    def _pause_open(self) -> None:
        for flow in self._flows:
            flow.clear()

    def _cut(self) -> None:
        self.mode = "cut"
        self._drop()

    def _restore(self) -> None:
        assert self._flowing is not None
        self.mode = "open"
        self._flowing.set()
        for flow in self._flows:
            flow.set()

    def _drop(self) -> None:
        for writer in list(self._writers):
            writer.transport.abort()
        self._writers.clear()

    # -------------------------------------------------------------- the relay

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        assert self._flowing is not None
        if self.mode == "cut":
            writer.transport.abort()
            return
        self._writers.add(writer)
        try:
            await self._flowing.wait()
            if self.mode == "cut" or writer not in self._writers:
                return
            up_reader, up_writer = await asyncio.open_connection(*self.target)
        except OSError:
            writer.transport.abort()
            self._writers.discard(writer)
            return
        if writer not in self._writers:  # cut meanwhile
            up_writer.transport.abort()
            return
        self._writers.add(up_writer)
        flow = asyncio.Event()
        flow.set()
        self._flows.append(flow)
        await asyncio.gather(self._pump(reader, up_writer, flow), self._pump(up_reader, writer, flow))
        self._flows.remove(flow)
        for w in (writer, up_writer):
            self._writers.discard(w)
            w.transport.abort()

    async def _pump(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, flow: asyncio.Event) -> None:
        assert self._flowing is not None
        with contextlib.suppress(OSError, ConnectionError):
            while True:
                data = await reader.read(65536)
                if not data:
                    break
                await self._flowing.wait()
                await flow.wait()
                if writer.transport.is_closing():
                    break
                writer.write(data)
                await writer.drain()
        writer.transport.abort()
