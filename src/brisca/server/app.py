"""The FastAPI application: HTTP API, the WebSocket of each table, and the static front end."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import math
import threading
import time
from collections import Counter, OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any, ParamSpec, TypeVar
from urllib.parse import urlsplit

from fastapi import FastAPI, HTTPException, Query, Request, WebSocket, WebSocketDisconnect
from fastapi import Path as PathParam
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field

from brisca.errors import BriscaError
from brisca.record import loads as load_record
from brisca.rules import Rules, find_variant, make_rules, variant_names
from brisca.server import store as queries
from brisca.server.accounts import AccountError, Accounts, LoginSession, csrf_matches, normalize
from brisca.server.analyses import add_routes as add_analysis_routes
from brisca.server.bodysize import BodyLimit
from brisca.server.clock import SPEEDS, Clock, clock_text, default_clock, pick_clock
from brisca.server.collector import Collector
from brisca.server.db import UNREACHABLE, in_thread, unreachable, within_deadline
from brisca.server.devices import DEVICE_COOKIE, DEVICE_DAYS
from brisca.server.limits import (
    AccountThrottled,
    Limiter,
    Limits,
    RateLimited,
    RedisLimiter,
    TokenBucket,
    client_address,
)
from brisca.server.manager import TABLE_ID, CreateTable, Manager, Name, Seat
from brisca.server.names import check_name
from brisca.server.pagetext import page_script
from brisca.server.ratings import provisional
from brisca.server.serialize import replay_json
from brisca.server.store import Store
from brisca.server.table import (
    CLOSE,
    SEAT_COMMANDS,
    Act,
    Chat,
    Connection,
    Hello,
    Leave,
    Ping,
    SeatCommand,
    TableActor,
    TableError,
    error,
)
from brisca.server.text import clean_text
from brisca.server.tournament_api import CreateTournament, Tournaments
from brisca.server.tournament_api import add_routes as add_tournament_routes

log = logging.getLogger("brisca.server")
T = TypeVar("T")
P = ParamSpec("P")
STATIC = Path(__file__).parent / "static"
MESSAGE_TYPES = ("hello", "play", "chat", "ping", "leave", "resign", "back")


#: Bounds of what a client may send beyond a table (:mod:`brisca.server.manager`): page offsets.
MAX_OFFSET = 10**6
#: How a preset is named where the database is searched by it (nothing a database could choke on).
PRESET_NAME = r"^[A-Za-z0-9_.-]{1,64}$"
CHAT_LIMIT = 500


class JoinSeat(BaseModel):
    #: A guest's name; ignored for someone logged in (their account's name is used).
    name: Name | None = None
    seat: Seat | None = None


def _field(loc: tuple[int | str, ...]) -> str:
    """Where a validation error is, as ``bots.3`` (the request part left out; what the client typed, bounded)."""
    parts = [str(p) for p in loc]
    if len(parts) > 1 and parts[0] in ("body", "query", "path", "header", "cookie"):
        parts = parts[1:]
    # A map's key that is itself wrong (``[key]`` follows it) is whatever the client sent ("NaN", say): named as a
    # key, not echoed.
    parts = ["<key>" if i + 1 < len(parts) and parts[i + 1] == "[key]" else p for i, p in enumerate(parts)]
    cleaned = ("".join(c if c.isprintable() else "?" for c in p[:32]) for p in parts[:6])
    return ".".join(cleaned) or "request"


def _validation_message(err: Any) -> str:
    msg = str(err.get("msg", "invalid"))
    if err.get("type") == "value_error":
        msg = msg.removeprefix("Value error, ")
    return msg


def validation_reply(exc: RequestValidationError) -> JSONResponse:
    """422, ``detail``: the first problem as text naming its field; ``errors``: every one. The input itself
    (which may be NaN or a huge number, and which the client has) is never echoed back."""
    errors = [{"field": "body" if e.get("type") == "json_invalid" else _field(tuple(e.get("loc", ()))),
               "message": _validation_message(e)} for e in exc.errors()[:20]]
    if not errors:
        errors = [{"field": "request", "message": "invalid request"}]
    first = errors[0]
    detail = first["message"] if first["message"].startswith(f"{first['field']}:") else \
        f"{first['field']}: {first['message']}"
    return JSONResponse({"detail": detail, "errors": errors}, status_code=422)


class Credentials(BaseModel):
    username: str = Field(max_length=200)
    password: str = Field(max_length=1000)


class NewPassword(BaseModel):
    old: str = Field(max_length=1000)
    new: str = Field(max_length=1000)


#: The login session's cookie.
SESSION_COOKIE = "brisca_session"
#: The header that carries the session's CSRF token on every POST.
CSRF_HEADER = "X-CSRF-Token"
#: The longest guest name.
GUEST_NAME_LIMIT = 24


#: Replays of finished games kept in memory.
REPLAY_CACHE = 32


def _rules(preset: str, options: dict[str, Any]) -> Rules | None:
    try:
        return make_rules(preset, options)
    except BriscaError:
        return None


def _title(preset: str) -> str:
    try:
        return find_variant(preset).title
    except BriscaError:
        return preset


#: Seconds a seated person may be gone, mid-match, before a bot plays their seat (``brisca serve``'s default).
TAKEOVER_AFTER = 60.0
#: Seconds between the end of a hand and the next deal: the hand's result stays on the table meanwhile.
HAND_PAUSE = 8.0



def bounded(fn: Callable[P, T]) -> Callable[P, Awaitable[T]]:
    """A synchronous endpoint that reads the database, run in a thread and answered within
    :data:`~brisca.server.db.CALL_TIMEOUT` seconds (else ``503``): a stalled connection holds no request for ever."""

    @functools.wraps(fn)
    async def run(*args: P.args, **kwargs: P.kwargs) -> T:
        return await in_thread(functools.partial(fn, *args, **kwargs))

    return run


def _clock_json(clock: Clock) -> dict[str, Any]:
    return {**clock.json(), "text": clock_text(clock)}


def create_app(db_url: str | None = None, *, max_message: int = 4096, rate: float = 20.0,
               burst: int = 40, takeover_after: float | None = TAKEOVER_AFTER,
               limits: Limits | None = None, secure_cookies: bool = False, redis_url: str | None = None,
               hand_pause: float = HAND_PAUSE, clock: Callable[[], float] = time.monotonic,
               now: Callable[[], float] | None = None, tournaments: Sequence[CreateTournament] = ()) -> FastAPI:
    """The web table. ``db_url``: SQLite path or URL, or ``postgresql://...`` (default: the user's data dir).

    ``takeover_after``: seconds after a seated person's last connection closes (mid-match) before a bot
    plays the seat, until they reconnect with their seat token; ``None``: seats wait for their people.
    ``rate``, ``burst``: each connection's messages a second. ``limits``: every other limit (rates per client
    address, caps on open tables and match lengths, idle tables; :class:`~brisca.server.limits.Limits`).
    ``secure_cookies``: the session cookie is ``Secure`` even for a plain-HTTP request (behind a proxy that
    ends TLS); it always is for an HTTPS one. ``hand_pause``: seconds between the end of a hand and the next
    deal, while every page shows the hand's result with a countdown (0: deal at once).
    ``redis_url``: this process is one of several serving the site (``db_url`` a PostgreSQL database they share;
    :mod:`brisca.server.cluster`). ``clock``: the rates' clock (seconds, monotonic; a test's fake one). ``now``:
    the time the move clocks read (seconds since the epoch; a test's own clock). ``tournaments``: the
    tournaments the host offers (made at the start unless one of the same name is open or playing; each starts
    when full).
    """
    if takeover_after is not None and not 0 <= takeover_after <= 86400:
        raise ValueError("takeover_after is from 0 to 86400 seconds")
    if not 0 <= hand_pause <= 600:
        raise ValueError("hand_pause is from 0 to 600 seconds")
    limits = limits or Limits()
    if any(t.start != "full" for t in tournaments):
        raise ValueError("a tournament the host offers starts when full (start: full): nobody else may start it")
    #: The rates per client address: table creation, joins, chat, and sign-ups and logins together (with
    #: several processes, the site's buckets in Redis).
    limiter = Limiter(limits, clock) if redis_url is None else RedisLimiter(limits, redis_url, clock=clock)
    #: Login attempts per account, from every address together (a browser known to the account is not counted).
    account_limiter = (Limiter(limits, clock, capacity=limits.max_accounts) if redis_url is None
                       else RedisLimiter(limits, redis_url, prefix="brisca:account", clock=clock,
                                         capacity=limits.max_accounts))

    async def close_idle_tables(manager: Manager, collector: Collector) -> None:
        while True:
            await asyncio.sleep(limits.idle_check_every)
            try:
                await manager.sweep()
            except Exception:  # the next look tries again
                log.exception("the look for idle tables failed")
            try:
                await app.state.tournaments.sweep()
            except Exception as exc:  # the next look tries again
                if not unreachable(exc):
                    log.exception("the look at the tournaments in play failed")
            collector.tick()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(db_url)
        manager = Manager(store, takeover_after, limits, hand_pause, now)
        if redis_url is not None:  # one of several processes: tables leased in the database, messages over Redis
            from brisca.server.cluster import start_cluster

            manager = await start_cluster(manager, redis_url)
        app.state.manager = manager
        app.state.tournaments = Tournaments(manager)
        app.state.tournaments.offered = list(tournaments)
        await app.state.tournaments.offer()
        app.state.accounts = Accounts(store.engine)
        app.state.hashing = asyncio.Semaphore(limits.max_hashing)
        await asyncio.to_thread(app.state.accounts.purge)
        manager.resume()
        # Everything loaded so far lives as long as the server: kept out of the collector's passes, which
        # come less often, and in full after so many connections or seconds (brisca.server.collector).
        collector = app.state.collector = Collector(limits.full_collection_every, limits.full_collection_after)
        collector.start()
        sweeper = asyncio.get_running_loop().create_task(close_idle_tables(manager, collector), name="idle-tables")
        try:
            yield
        finally:
            sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await sweeper
            await app.state.tournaments.wait()
            collector.stop()
            await manager.stop()
            if getattr(app.state, "analyst", None) is not None:
                app.state.analyst.close()
            store.dispose()

    app = FastAPI(title="brisca", lifespan=lifespan)
    app.add_middleware(BodyLimit, limit=limits.max_body)
    app.state.limits = limits
    app.state.limiter = limiter
    app.state.account_limiter = account_limiter
    #: Open WebSocket connections per client address.
    connections: Counter[str] = Counter()
    app.state.connections = connections

    @app.exception_handler(RateLimited)
    async def rate_limited(request: Request, exc: RateLimited) -> JSONResponse:
        return JSONResponse({"detail": exc.message}, status_code=429, headers={"Retry-After": str(exc.seconds)})

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        return validation_reply(exc)

    async def database_unreachable(request: Request, exc: Exception) -> JSONResponse:
        # A read the database did not answer (down, or stalled past its deadline): said once by the store and the
        # health, not once a request.
        return JSONResponse({"detail": "the database does not answer: try again in a moment"},
                            status_code=503, headers={"Retry-After": "2"})

    for unreachable_error in UNREACHABLE:
        app.add_exception_handler(unreachable_error, database_unreachable)

    @app.exception_handler(Exception)
    async def internal_error(request: Request, exc: Exception) -> JSONResponse:
        # The last resort (the tests show none happens): a JSON body the page can show, never the traceback.
        log.error("%s %s failed", request.method, request.url.path, exc_info=exc)
        return JSONResponse({"detail": "internal server error"}, status_code=500)

    def manager() -> Manager:
        m: Manager = app.state.manager
        return m

    async def is_closed(table_id: str) -> bool:
        if TABLE_ID.match(table_id) is None:
            return False
        return await in_thread(manager().store.status, table_id) == "closed"

    async def closed_text(table_id: str) -> str:
        """What a closed table says to whoever opens it: that it is closed, and why where that was kept."""
        reason = await in_thread(manager().store.closed_reason, table_id)
        return "this table is closed" if reason is None else f"this table is closed ({reason})"

    def accounts() -> Accounts:
        a: Accounts = app.state.accounts
        return a

    # ------------------------------------------------------------------ accounts and their sessions

    async def viewer(request: Request) -> LoginSession | None:
        """The login session of the request's cookie (``None``: a guest, or a session over)."""
        token = request.cookies.get(SESSION_COOKIE)
        return None if token is None else await in_thread(accounts().session, token)

    async def guard(request: Request) -> LoginSession | None:
        """Every POST: refuse one from another site (``Origin``), and, when it carries a live session cookie,
        one without the session's CSRF token in ``X-CSRF-Token`` (double submit). The session, if any."""
        origin = request.headers.get("origin")
        if origin is not None and origin_host(origin) != request.headers.get("host", "").lower():
            raise HTTPException(403, "cross-site request refused (its Origin is not this site)")
        session = await viewer(request)
        if session is not None and not csrf_matches(session, request.headers.get(CSRF_HEADER)):
            raise HTTPException(403, f"missing or wrong {CSRF_HEADER} header (reload the page)")
        return session

    def me(session: LoginSession | None) -> dict[str, Any]:
        if session is None:
            return {"user": None, "csrf": None}
        return {"user": {"username": session.user.username, "display": session.user.display},
                "csrf": session.csrf}

    def logged_in(request: Request, token: str, session: LoginSession, device: str | None = None) -> JSONResponse:
        """The reply of a login: the session's cookie, and the browser's device cookie (``device``)."""
        response = JSONResponse(me(session))
        secure = secure_cookies or request.url.scheme == "https"
        max_age = int(accounts().session_length.total_seconds())
        response.set_cookie(SESSION_COOKIE, token, max_age=max_age, path="/", httponly=True, samesite="lax",
                            secure=secure)
        if device is not None:
            set_device(request, response, device)
        return response

    def set_device(request: Request, response: Response, device: str) -> None:
        response.set_cookie(DEVICE_COOKIE, device, max_age=DEVICE_DAYS * 86400, path="/api/", httponly=True,
                            samesite="strict", secure=secure_cookies or request.url.scheme == "https")

    async def account_throttle(request: Request, username: str) -> None:
        """A login attempt to the account ``username`` from a browser not known to it takes a token of the
        account's bucket (:attr:`Limits.rate_account`), or is refused with 429 and ``Retry-After``."""
        if await in_thread(accounts().known_device, username, request.cookies.get(DEVICE_COOKIE)):
            return
        wait = account_limiter.retry_after("account", normalize(username)[:96])
        if wait is not None:
            raise AccountThrottled(wait)

    def logged_out(request: Request) -> JSONResponse:
        response = JSONResponse(me(None))
        response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="lax",
                               secure=secure_cookies or request.url.scheme == "https")
        return response

    async def hashing(fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` (an Argon2 hash or check) in a thread, at most ``limits.max_hashing`` at once: each
        takes 64 MiB and a core for a moment, so many at once would take the server's memory. A request that
        waits more than ``limits.hash_wait`` seconds for its turn gets 503, and so does one whose call takes more
        than :data:`~brisca.server.db.CALL_TIMEOUT` seconds (the database does not answer)."""
        semaphore: asyncio.Semaphore = app.state.hashing
        try:
            async with asyncio.timeout(limits.hash_wait):
                await semaphore.acquire()
        except TimeoutError:
            raise HTTPException(503, "the server is busy checking passwords; try again in a moment",
                                headers={"Retry-After": "5"}) from None
        # The turn is given back when the thread is done, even if the request is cancelled meanwhile.
        work = asyncio.ensure_future(asyncio.to_thread(fn, *args))
        work.add_done_callback(lambda _: semaphore.release())
        # Its account's rows are read and written too: a stalled database answers 503 at the reads' deadline.
        return await within_deadline(work)

    @app.get("/api/me")
    async def who(request: Request) -> dict[str, Any]:
        """The person logged in (``user``: null for a guest) and the CSRF token their page sends back."""
        return me(await viewer(request))

    @app.post("/api/signup")
    async def signup(request: Request, body: Credentials) -> JSONResponse:
        """A new account, logged in at once."""
        await guard(request)
        limiter.check("login", client_address(request.client))
        try:
            user = await hashing(accounts().signup, body.username, body.password)
        except AccountError as exc:
            raise HTTPException(400, str(exc)) from None
        token, session = await in_thread(accounts().start_session, user)
        return logged_in(request, token, session, await in_thread(accounts().device, user.id))

    @app.post("/api/login")
    async def login(request: Request, body: Credentials) -> JSONResponse:
        """Log in. Login attempts are rated per client address and per account (:func:`account_throttle`)."""
        old = await guard(request)
        limiter.check("login", client_address(request.client))
        await account_throttle(request, body.username)
        try:
            user = await hashing(accounts().login, body.username, body.password)
        except AccountError as exc:
            raise HTTPException(401, str(exc)) from None
        if old is not None:
            await in_thread(accounts().end_session, request.cookies.get(SESSION_COOKIE))
        token, session = await in_thread(accounts().start_session, user)
        return logged_in(request, token, session, await in_thread(accounts().device, user.id))

    @app.post("/api/logout")
    async def logout(request: Request) -> JSONResponse:
        if await guard(request) is not None:
            await in_thread(accounts().end_session, request.cookies.get(SESSION_COOKIE))
        return logged_out(request)

    @app.post("/api/password")
    async def change_password(request: Request, body: NewPassword) -> JSONResponse:
        """A new password for the account logged in; its other sessions end (this one goes on), and only this
        browser stays known to it (the device cookies made under the old password are worthless)."""
        session = await guard(request)
        if session is None:
            raise HTTPException(401, "log in first")
        limiter.check("password", client_address(request.client))
        try:
            await hashing(accounts().change_password, session.user.id, body.old, body.new,
                          request.cookies.get(SESSION_COOKIE))
        except AccountError as exc:
            raise HTTPException(400, str(exc)) from None
        response = JSONResponse(me(session))
        device = await in_thread(accounts().device, session.user.id)
        if device is not None:
            set_device(request, response, device)
        return response

    @app.get("/api/my/tables")
    async def my_tables(request: Request) -> dict[str, Any]:
        """The open tables where the person logged in holds a seat, those whose turn is theirs first (slow tables
        too, asleep or not: read from the database)."""
        session = await viewer(request)
        if session is None:
            raise HTTPException(401, "log in first")
        store = manager().store
        rows = (store.my_tables(session.user.id) if store.inline
                else await in_thread(store.my_tables, session.user.id))
        tables = [{**{k: v for k, v in r.items() if k != "clock"}, "url": f"/t/{r['table_id']}",
                   "title": _title(r["preset"]), "slow": r["clock"] is not None and r["clock"].slow,
                   "clock": None if r["clock"] is None else _clock_json(r["clock"])} for r in rows]
        return {"now": manager().now(), "tables": tables}

    @app.get("/api/players/{username}")
    @bounded
    def player(username: str) -> dict[str, Any]:
        """An account's page: its ratings per preset and its latest finished games."""
        user = accounts().find(username) if len(username) <= 64 else None
        if user is None:
            raise HTTPException(404, "no such player")
        store = manager().store
        ratings = [{**r, "title": _title(r["preset"]), "provisional": provisional(
            r["games"], r["opponents"], limits.provisional_games, limits.provisional_opponents)}
                   for r in queries.player_ratings(store, user.username)]
        games = [game_entry(row) for row in queries.player_games(store, user.id)]
        return {"username": user.username, "display": user.display, "ratings": ratings, "games": games}

    async def seat_name(session: LoginSession | None, name: str | None) -> str:
        """The name a seat is taken under: the account's, or a guest's own, checked."""
        if session is not None:
            return session.user.display
        if name is None:
            raise HTTPException(400, "a guest sits with a name")
        try:
            name = check_name(clean_text(name, what="name", limit=GUEST_NAME_LIMIT))
        except ValueError as exc:
            raise HTTPException(400, str(exc)) from None
        if await in_thread(accounts().taken, name):
            raise HTTPException(409, f"name: {name} is an account's name (log in to play as {name})")
        return name

    async def actor_or_404(table_id: str) -> TableActor:
        try:
            actor = await manager().locate(table_id)
        except Exception as exc:
            if not unreachable(exc):
                raise
            raise HTTPException(503, "the database does not answer: try again in a moment",
                                headers={"Retry-After": "2"}) from None
        if actor is None:
            if await is_closed(table_id):
                raise HTTPException(410, await closed_text(table_id))
            raise HTTPException(404, "no such table")
        return actor

    add_tournament_routes(app, lambda: app.state.tournaments, limiter, guard, viewer, seat_name)

    @app.get("/api/presets")
    def presets() -> list[dict[str, Any]]:
        out = []
        for name in variant_names():
            rules = find_variant(name)
            clocks = {speed: pick_clock(rules, speed) for speed in SPEEDS}
            out.append({"name": name, "title": rules.title, "players": list(rules.player_counts),
                        "clock": _clock_json(default_clock(rules)),
                        "clocks": {speed: _clock_json(clock) for speed, clock in clocks.items()}})
        return out

    @app.post("/api/tables")
    async def create_table(request: Request, spec: CreateTable) -> dict[str, Any]:
        session = await guard(request)
        address = client_address(request.client)
        limiter.check("create", address)
        sits = spec.name is not None or (spec.sit and session is not None)
        name = await seat_name(session, spec.name) if sits else None
        owner = f"guest:{address}" if session is None else f"user:{session.user.id}"
        actor = await manager().open_table(spec, owner, sits=sits)
        out: dict[str, Any] = {"table_id": actor.id, "url": f"/t/{actor.id}"}
        if name is not None:
            try:
                seat, token = await _join(actor, name, None, session, address)
            except HTTPException as exc:
                if exc.status_code == 503 and not manager().store.inline:  # answered 503: no table either
                    await manager().drop_new(actor)
                raise
            out |= {"seat": seat, "token": token}
        return out

    async def _join(actor: TableActor, name: str, seat: int | None,
                    session: LoginSession | None, address: str) -> tuple[int, str]:
        user = None if session is None else session.user
        try:
            return await actor.join(name, seat, None if user is None else user.id,
                                    None if user is None else user.username, address)
        except TableError as exc:
            # "unavailable", "moved": another process runs the table and did not answer, or it is changing hands.
            raise HTTPException(410 if exc.code == "closed" else 503 if exc.code in ("unavailable", "moved")
                                else 403 if exc.code == "forbidden" else 409, exc.message) from None

    @app.get("/api/tables/{table_id}")
    async def get_table(table_id: str) -> dict[str, Any]:
        try:
            return await manager().read_table(table_id, actor_or_404)
        except TableError as exc:  # its owner, changing hands, or out of reach, and no stored state to show
            raise HTTPException(503 if exc.code in ("unavailable", "moved") else 409, exc.message,
                                headers={"Retry-After": "1"}) from None

    @app.post("/api/tables/{table_id}/join")
    async def join(request: Request, table_id: str, body: JoinSeat) -> dict[str, Any]:
        session = await guard(request)
        address = client_address(request.client)
        limiter.check("join", address)
        actor = await actor_or_404(table_id)
        name = await seat_name(session, body.name)
        seat, token = await _join(actor, name, body.seat, session, address)
        return {"table_id": table_id, "seat": seat, "token": token}

    @app.post("/api/tables/{table_id}/cancel")
    async def cancel(request: Request, table_id: str) -> dict[str, Any]:
        """Its creator (the same account, or for a guest the same address) closes a table before its match."""
        session = await guard(request)
        owner = f"guest:{client_address(request.client)}" if session is None else f"user:{session.user.id}"
        try:
            await (await actor_or_404(table_id)).cancel(owner)
        except TableError as exc:
            raise HTTPException({"forbidden": 403, "closed": 410, "unavailable": 503, "moved": 503}.get(exc.code, 409),
                                exc.message) from None
        return {"table_id": table_id, "status": "closed"}

    # ------------------------------------------------------------------ the lobby, the history, the ratings

    def lobby_entry(table_id: str, info: dict[str, Any], created_at: str) -> dict[str, Any]:
        seats = [{"seat": s["seat"], "name": s["name"], "bot": s["bot"], "guest": s["guest"],
                  "account": s["account"], "rating": s.get("rating"), "provisional": s.get("provisional", False)}
                 for s in info["seats"]]
        return {
            "table_id": table_id, "url": f"/t/{table_id}", "preset": info["preset"],
            "title": _title(info["preset"]), "options": info["options"], "players": info["players"],
            "sides": info["sides"], "status": info["status"], "seats": seats,
            "free": [s["seat"] for s in seats if s["name"] is None and s["bot"] is None],
            "hand_number": info["hand_number"], "hands_won": info["hands_won"],
            "match_points": info["match_points"], "created_at": created_at, "practice": info["practice"],
            "hints": bool(info.get("hints")),
            "clock": None if info.get("clock") is None else info["clock"]["text"],
        }

    @app.get("/api/lobby")
    async def lobby(limit: Annotated[int, Query(ge=0, le=MAX_OFFSET)] = 50) -> dict[str, list[dict[str, Any]]]:
        """Open tables (waiting, with a free seat) and games in progress (to watch), newest first.

        The database lists them (off the event loop); each table's actor, on the loop, describes it.
        """
        limit = max(1, min(limit, 200))
        out: dict[str, list[dict[str, Any]]] = {"open": [], "playing": []}
        for status, key in (("waiting", "open"), ("playing", "playing")):
            try:
                # The slow tables in play sleep: they are listed where their people see them (/api/my/tables), not
                # among the games to watch.
                listed = await in_thread(queries.live_tables, manager().store, status, limit, status == "waiting")
            except Exception as exc:  # the database does not answer: the tables this process (and others) run
                if not unreachable(exc):
                    raise
                listed = await manager().live_without_database(status, limit)
            others = await manager().describe([t for t, _ in listed if t not in manager().actors])
            for table_id, created_at in listed:
                actor = manager().actors.get(table_id)
                info = actor.snapshot(None)["table"] if actor is not None else others.get(table_id)
                if info is None:
                    continue  # not live in this process (it could not be resumed), nor in another that answered
                entry = lobby_entry(table_id, info, created_at)
                if entry["status"] != status or (key == "open" and not entry["free"]):
                    continue  # it moved on since the query
                out[key].append(entry)
        return out

    def game_entry(row: dict[str, Any]) -> dict[str, Any]:
        rules = _rules(row["preset"], row["options"])
        sides = rules.sides(row["players"]) if rules is not None else row["players"]
        winner = row["winner"]
        winners = [] if winner is None else [n for seat, n in enumerate(row["names"]) if seat % sides == winner]
        return {**{k: v for k, v in row.items() if k != "record"}, "title": _title(row["preset"]),
                "sides": sides, "winners": winners, "url": f"/games/{row['table_id']}",
                "record_url": f"/api/games/{row['table_id']}/record"}

    @app.get("/api/games")
    @bounded
    def games(limit: Annotated[int, Query(ge=0, le=MAX_OFFSET)] = 50,
              offset: Annotated[int, Query(ge=0, le=MAX_OFFSET)] = 0,
              preset: Annotated[str | None, Query(pattern=PRESET_NAME)] = None) -> list[dict[str, Any]]:
        """Finished games, newest first: preset, names, the winning side and its names, dates, links."""
        rows = queries.finished_games(manager().store, max(1, min(limit, 500)), max(0, offset), preset)
        return [game_entry(row) for row in rows]

    def finished_or_404(table_id: str) -> dict[str, Any]:
        row = queries.finished_game(manager().store, table_id) if TABLE_ID.match(table_id) else None
        if row is None:
            raise HTTPException(404, "no finished game with this id")
        return row

    @app.get("/api/games/{table_id}")
    @bounded
    def game(table_id: str) -> dict[str, Any]:
        return game_entry(finished_or_404(table_id))

    @app.get("/api/games/{table_id}/record")
    @bounded
    def record(table_id: str) -> Response:
        text = manager().store.record(table_id) if TABLE_ID.match(table_id) else None
        if text is None:
            raise HTTPException(404, "no finished game with this id")
        return Response(text, media_type="application/json",
                        headers={"Content-Disposition": f'attachment; filename="brisca-{table_id}.json"'})

    #: Replays computed lately (a finished game never changes): table id -> replay.
    replays: OrderedDict[str, dict[str, Any]] = OrderedDict()
    replays_lock = threading.Lock()  # the sync endpoints run in a thread pool

    @app.get("/api/games/{table_id}/replay")
    @bounded
    def replay(table_id: str) -> dict[str, Any]:
        """Every position of a finished game, computed by the engine from its record, all hands shown."""
        with replays_lock:
            cached = replays.get(table_id)
            if cached is not None:
                replays.move_to_end(table_id)
                return cached
        row = finished_or_404(table_id)
        try:
            steps = replay_json(load_record(row["record"]))
        except BriscaError as exc:
            raise HTTPException(500, f"the stored record does not replay: {exc}") from None
        cached = {**game_entry(row), **steps}
        with replays_lock:
            replays[table_id] = cached
            while len(replays) > REPLAY_CACHE:
                replays.popitem(last=False)
        return cached

    add_analysis_routes(app, lambda: manager().store, lambda name: accounts().find(name), actor_or_404)

    @app.get("/api/ratings")
    @bounded
    def rated() -> list[dict[str, Any]]:
        """The presets that have ratings, with how many names each rates."""
        return [{**r, "title": _title(r["preset"])} for r in queries.rated_presets(manager().store)]

    @app.get("/api/ratings/{preset}")
    @bounded
    def ratings(preset: Annotated[str, PathParam(pattern=PRESET_NAME)],
                limit: Annotated[int, Query(ge=0, le=MAX_OFFSET)] = 100) -> list[dict[str, Any]]:
        """The leaderboard of a preset: by openskill ordinal (mu - 3 sigma), each name rated in its side. An
        account whose rating is provisional (fewer rated matches than ``limits.provisional_games``, or fewer
        distinct opponents than ``limits.provisional_opponents``) is not on it: its page shows it, marked so."""
        board = manager().store.leaderboard(preset, max(1, min(limit, 1000)), limits.provisional_games,
                                            limits.provisional_opponents)
        return [{"rank": i + 1, **row, "provisional": False} for i, row in enumerate(board)]

    #: Client addresses refused WebSocket connections for sending messages over ``limits.max_frame`` too often:
    #: until when (the event loop's clock), the least recently barred first.
    barred: OrderedDict[str, float] = OrderedDict()
    app.state.barred = barred

    def oversized(address: str) -> None:
        """A connection of ``address`` closed (1009) for a message over ``limits.max_frame``: counted against the
        address, which is barred from new connections once its rate (``limits.rate_oversize``) is spent."""
        wait = limiter.retry_after("oversize", address)
        if wait is None:
            return
        barred[address] = asyncio.get_running_loop().time() + wait
        barred.move_to_end(address)
        while len(barred) > limits.max_addresses:
            barred.popitem(last=False)

    @app.websocket("/ws/{table_id}")
    async def websocket(ws: WebSocket, table_id: str) -> None:
        await ws.accept()
        address = client_address(ws.client)
        until = barred.get(address)
        if until is not None:
            wait = until - asyncio.get_running_loop().time()
            if wait > 0:
                limited = RateLimited("oversize", wait)
                await ws.send_json(error("rate", limited.message) | {"retry_after": limited.seconds})
                await ws.close(code=4429)
                return
            del barred[address]
        if connections[address] >= limits.max_connections:
            await ws.send_json(error("too_many_connections", f"at most {limits.max_connections} connections at "
                                     "once from one address; close one first"))
            await ws.close(code=4429)
            return
        connections[address] += 1
        try:
            await serve_connection(ws, table_id, address)
        finally:
            connections[address] -= 1
            if connections[address] <= 0:
                del connections[address]
            collector: Collector | None = getattr(app.state, "collector", None)
            if collector is not None:
                collector.closed()

    async def serve_connection(ws: WebSocket, table_id: str, address: str) -> None:
        """One WebSocket connection to a table, until either side closes it (or it never says hello)."""
        try:
            found = await manager().locate(table_id)
        except Exception as exc:
            if not unreachable(exc):
                raise
            await ws.send_json(error("unavailable", "the database does not answer: reconnecting"))
            await ws.close(code=1013)
            return
        if found is None:
            if await is_closed(table_id):
                await ws.send_json(error("closed", await closed_text(table_id)))
                await ws.close(code=4410)
            else:
                await ws.send_json(error("not_found", "no such table"))
                await ws.close(code=4404)
            return
        actor = found
        conn = Connection()
        pump = asyncio.create_task(_pump(ws, conn))
        bucket = TokenBucket(rate, burst)
        loop = asyncio.get_running_loop()
        #: Until the client says hello, it has ``limits.hello_timeout`` seconds from the connection.
        hello_by: float | None = loop.time() + limits.hello_timeout
        try:
            while True:
                if hello_by is None:
                    raw = await ws.receive()
                else:
                    try:
                        async with asyncio.timeout_at(hello_by):
                            raw = await ws.receive()
                    except TimeoutError:
                        await ws.send_json(error("hello_timeout", f"no hello within {limits.hello_timeout:g} s"))
                        await ws.close(code=4408)
                        break
                if raw["type"] == "websocket.disconnect":
                    if raw.get("code") == 1009:  # the transport read a message over limits.max_frame
                        oversized(address)
                    break
                text = raw.get("text")
                if not bucket.allow():
                    conn.send(error("rate", "too many messages; slow down"))
                    continue
                if message_size(text if text is not None else raw.get("bytes") or b"") > max_message:
                    conn.send(error("too_large", f"messages are at most {max_message} bytes (UTF-8)"))
                    continue
                if text is None:
                    conn.send(error("malformed", "messages are JSON in text frames, not binary frames"))
                    continue
                # Let go before this connection said hello (finished, or stopped by the database): found again where
                # it runs now. One that said hello to it stays with it: its message is turned away (``unavailable``)
                # and the connection closed, so that the client reconnects and is told the table as it is now, rather
                # than act on its old picture at a table that never welcomed it.
                if actor.stopped and hello_by is not None:
                    try:
                        again = await manager().locate(table_id)
                    except Exception as exc:
                        if not unreachable(exc):
                            raise
                        await ws.close(code=1013)
                        break
                    if again is None:
                        await ws.send_json(error("closed", "this table is closed"))
                        await ws.close(code=4410)
                        break
                    actor = again
                try:
                    if _dispatch(actor, conn, text, limiter, address) == "hello":
                        hello_by = None
                except Exception:  # the last resort: the connection outlives any one message
                    log.exception("table %s: a message could not be read", actor.id)
                    conn.send(error("malformed", "this message could not be read"))
        except WebSocketDisconnect:
            pass
        finally:
            actor.submit(Leave(conn))
            pump.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await pump

    @app.get("/healthz")
    async def healthz() -> JSONResponse:
        """For a load balancer: 200 when this process can serve its own tables (it and its database answer), else
        503; its process id, the tables it runs, and, in a cluster, whether the bus between processes (Redis) is
        up (``redis``): without it the process still serves its own tables."""
        report = await manager().health()
        return JSONResponse(report, status_code=200 if report["ok"] else 503)

    # The pages: the one page of the front end, whatever the path (not part of the API's schema).
    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/t/{table_id}", include_in_schema=False)
    def table_page(table_id: str) -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/games", include_in_schema=False)
    @app.get("/games/{table_id}", include_in_schema=False)
    @app.get("/leaderboard", include_in_schema=False)
    @app.get("/leaderboard/{preset}", include_in_schema=False)
    @app.get("/login", include_in_schema=False)
    @app.get("/account", include_in_schema=False)
    @app.get("/players/{username}", include_in_schema=False)
    @app.get("/my", include_in_schema=False)
    @app.get("/tournaments", include_in_schema=False)
    @app.get("/tournaments/{tournament_id}", include_in_schema=False)
    def other_page() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    # The page's texts in every language, from the catalogs (brisca.server.pagetext), before the page's scripts.
    @app.get("/messages.js", include_in_schema=False)
    def page_messages() -> Response:
        return Response(page_script(), media_type="text/javascript; charset=utf-8")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app


async def _pump(ws: WebSocket, conn: Connection) -> None:
    while True:
        message = await conn.outbox.get()
        if message is CLOSE:
            with contextlib.suppress(Exception):
                await ws.close(code=1013)
            return
        if not isinstance(message, str):
            message = json.dumps(message, ensure_ascii=False)
            if not message.isascii():
                try:
                    message.encode("utf-8")
                except UnicodeEncodeError:  # a lone surrogate (from a client's "\ud800"): escaped, it is valid
                    message = json.dumps(json.loads(message))
        try:
            # Events come as JSON already (made once for every connection of an audience).
            await ws.send_text(message)
        except (WebSocketDisconnect, RuntimeError):
            return


class _Refused(ValueError):
    """A message's JSON that is read no further: why, in words."""


def _no_constant(name: str) -> object:
    raise _Refused(f"{name} is not a number here")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _Refused("numbers are finite")
    return value


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > 18:
        raise _Refused("whole numbers are at most 18 digits")
    return int(text)


#: How deep a message's JSON may nest (a play message's action is the deepest: 3).
MAX_DEPTH = 8


def _depth(value: object, limit: int = MAX_DEPTH) -> bool:
    """Whether ``value`` nests at most ``limit`` levels of lists and objects."""
    if isinstance(value, dict):
        return limit > 0 and all(_depth(v, limit - 1) for v in value.values())
    if isinstance(value, list):
        return limit > 0 and all(_depth(v, limit - 1) for v in value)
    return True


def origin_host(origin: str) -> str | None:
    """The ``host[:port]`` of an ``Origin`` header, lower case (``None``: not a URL, as ``http://[``)."""
    try:
        return urlsplit(origin).netloc.lower()
    except ValueError:
        return None


def message_size(data: str | bytes) -> int:
    """The size of a message in bytes (UTF-8 for a text frame), as the limit counts it."""
    if isinstance(data, bytes) or data.isascii():
        return len(data)
    return len(data.encode("utf-8", "surrogatepass"))


def read_message(data: str) -> object:
    """A client message's JSON: no NaN or Infinity, no huge numbers, no deep nesting (``_Refused`` or
    ``ValueError`` otherwise)."""
    message = json.loads(data, parse_constant=_no_constant, parse_float=_finite, parse_int=_bounded_int)
    if not _depth(message):
        raise _Refused(f"messages nest at most {MAX_DEPTH} levels")
    return message


def _dispatch(actor: TableActor, conn: Connection, data: str, limiter: Limiter | None = None,
              address: str = "unknown") -> str | None:
    """Check one client message and hand it to the table's actor; a bad one gets a typed error. The type of
    the message handed on (``None``: refused here)."""
    try:
        message = read_message(data)
    except _Refused as exc:
        conn.send(error("malformed", f"not a message: {exc}"))
        return None
    except (ValueError, RecursionError):
        conn.send(error("malformed", "not JSON"))
        return None
    if not isinstance(message, dict):
        conn.send(error("malformed", "a message is a JSON object"))
        return None
    msg_id = message.get("id")
    if msg_id is not None and not ((isinstance(msg_id, str) and len(msg_id) <= 64)
                                   or (type(msg_id) is int and abs(msg_id) < 2**53)):
        conn.send(error("malformed", "'id' is a short string or an integer"))
        return None
    kind = message.get("type")
    if not isinstance(kind, str) or kind not in MESSAGE_TYPES:
        conn.send(error("malformed", f"unknown message type; types: {', '.join(MESSAGE_TYPES)}", msg_id))
        return None
    if kind == "ping":
        actor.submit(Ping(conn, msg_id))
    elif kind in SEAT_COMMANDS:
        actor.submit(SeatCommand(conn, kind, msg_id))
    elif kind == "hello":
        token, last = message.get("token"), message.get("last")
        if token is not None and not (isinstance(token, str) and len(token) <= 128 and token.isascii()):
            conn.send(error("bad_token", "'token' is the seat token string", msg_id))
            return None
        if last is not None and (type(last) is not int or not 0 <= last < 2**53):
            conn.send(error("malformed", "'last' is the number of the last event seen", msg_id))
            return None
        actor.submit(Hello(conn, token, last, address))
    elif kind == "play":
        if "action" not in message:
            conn.send(error("malformed", "a play message names its 'action'", msg_id))
            return None
        actor.submit(Act(conn, message["action"], msg_id))
    elif kind == "chat":
        try:
            text = clean_text(message.get("text"), what="text", limit=CHAT_LIMIT)
        except ValueError as exc:
            conn.send(error("malformed", str(exc), msg_id))
            return None
        if limiter is not None and (wait := limiter.retry_after("chat", address)) is not None:
            limited = RateLimited("chat", wait)
            conn.send(error("rate", limited.message, msg_id) | {"retry_after": limited.seconds})
            return None
        actor.submit(Chat(conn, text, msg_id))
    return kind
