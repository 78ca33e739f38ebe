"""A bound on the size of HTTP request bodies, enforced before they are read (an ASGI middleware).

The server's requests are small JSON objects; without a bound, one client posting a body of hundreds of
megabytes would make the server hold all of it (the endpoints read a body whole before validating it).
A declared ``Content-Length`` over the bound is refused at once, the body unread; a body without one
(``Transfer-Encoding: chunked``) is counted as it streams in and refused at the first chunk past the bound.
Both answer ``413`` with ``{"detail": ...}``, the JSON of every other refusal.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from starlette.exceptions import HTTPException

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class BodyTooLarge(HTTPException):
    """A body past the bound, found while it streamed in (the endpoint reading it answers 413)."""

    def __init__(self, limit: int) -> None:
        super().__init__(413, too_large(limit))


def too_large(limit: int) -> str:
    return f"a request's body is at most {limit} bytes"


def declared_length(scope: Scope) -> int | None:
    """The request's ``Content-Length`` (``None``: absent; -1: not a number, which is refused too)."""
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            text = value.decode("latin-1").strip()
            return int(text) if text.isdigit() and len(text) <= 18 else -1
    return None


class BodyLimit:
    """Refuse HTTP requests whose body is over ``limit`` bytes (WebSocket frames have their own bound)."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = declared_length(scope)
        if length is not None and not 0 <= length <= self.limit:
            detail = too_large(self.limit) if length > 0 else "the Content-Length header is not a number"
            await _reply(send, 413 if length > 0 else 400, detail)
            return
        seen = 0
        started = False

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    raise BodyTooLarge(self.limit)
            return message

        async def watched(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, counted, watched)
        except BodyTooLarge as exc:  # read outside an endpoint's own handling: answered here
            if started:
                raise
            await _reply(send, exc.status_code, str(exc.detail))


async def _reply(send: Send, status: int, detail: str) -> None:
    body = json.dumps({"detail": detail}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})
