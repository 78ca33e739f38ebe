"""A web table served on 127.0.0.1 by uvicorn in a thread, for tests over real sockets (no tests here).

The application is built in the test's process, so a test can hand it a fake clock; clients reach it over TCP,
each from its own loopback address (``127.0.0.2``, ``127.0.0.3``...: the whole of 127.0.0.0/8 is this machine),
which the server sees as the client's address.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import uvicorn


@contextlib.contextmanager
def live(app: Any, seconds: float = 30.0) -> Iterator[str]:
    """Serve ``app`` on 127.0.0.1 (a free port) until the block ends; yields its base URL."""
    config = uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning", lifespan="on")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="live-server", daemon=True)
    thread.start()
    try:
        end = time.monotonic() + seconds
        while not server.started:
            assert thread.is_alive() and time.monotonic() < end, "the server did not start"
            time.sleep(0.02)
        port = server.servers[0].sockets[0].getsockname()[1]
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(seconds)
        assert not thread.is_alive(), "the server did not stop"


def client(url: str, host: str = "127.0.0.1", **kwargs: Any) -> httpx.Client:
    """An HTTP client of the server at ``url`` whose connections come from the loopback address ``host``."""
    return httpx.Client(base_url=url, transport=httpx.HTTPTransport(local_address=host), timeout=30, **kwargs)
