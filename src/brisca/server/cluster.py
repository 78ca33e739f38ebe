"""Many table servers, one site: table leases in PostgreSQL and a message bus over Redis.

``brisca serve --db postgresql://... --redis redis://...`` on several processes (and machines) behind any HTTP
load balancer. Each table is run by one process at a time, its *owner*: the process holding the table's row in
``brisca_leases`` (its id, an epoch raised at every change of hands, and an end renewed while it runs). A client
may connect to any process:

- A process that holds no lease for a table forwards its connections' messages (hello, play, chat, ping, the
  leaving) to the owner over Redis pub/sub, on the owner's channel; the owner's actor treats them as it treats
  its own connections' (:class:`RemoteConnection`), and what it sends them (welcomes, events, acks, errors)
  comes back on the forwarding process's channel, in order: each process publishes from one task, and reads its
  one channel on one connection. An event is sent once per process per audience, not once per connection.
- Every write of a table carries a check of its lease in the same transaction (``SELECT ... FOR SHARE``, a
  *fence*): a process that lost a table (paused past its lease, cut off) cannot write to it, and another cannot
  take it over while a write is being committed. Every action is still committed before it is broadcast.
- A process killed with ``kill -9`` drops its Redis connection at once: the others see its channel without a
  subscriber (``PUBSUB NUMSUB``) for :data:`DEAD_GRACE` seconds while they read their own (a Redis restart, which
  leaves every channel unread a moment, judges nobody), close the connections they forwarded to it (the clients
  reconnect, to any process, with their last event number), and take its tables over from the database (``FOR
  UPDATE SKIP LOCKED``: each table to one of them). A process that hangs keeps its channel but stops renewing its
  leases: its tables are taken over when their leases end and a grace as long passes (a process cut off from the
  database a while renews them when it answers again).
- A process running more than its share of the site's tables hands some, one at a time, to the process running
  the fewest (after a takeover, an outage, or a new process), until none runs two more than another.

Redis keeps nothing here: losing it stops the forwarding (the processes' own connections go on, the forwarded
ones are closed so that their clients reconnect, to the process running their table), never a move. A message
that cannot be delivered is never dropped unseen (:class:`Bus`). The database is the only source of truth, as
for one process; it is reached from threads with bounded waits (:mod:`brisca.server.db`), and a table whose write
gets no answer stops and is loaded again from it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import os
import secrets
import socket
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast
from urllib.parse import urlsplit, urlunsplit

import sqlalchemy as sa
from fastapi import HTTPException
from sqlalchemy.dialects import postgresql

from brisca.server.clock import SLOW_MOVE
from brisca.server.db import CALL_TIMEOUT, DatabaseStalled, LeaseRow, in_thread, make_engine, unreachable
from brisca.server.manager import TABLE_ID, Manager
from brisca.server.store import Fenced, TableState, Write
from brisca.server.table import (
    CLOSE,
    HINT_THINK,
    OPEN,
    SEAT_COMMANDS,
    Act,
    Chat,
    Command,
    Connection,
    Hello,
    Leave,
    Message,
    Ping,
    SeatCommand,
    TableActor,
    TableError,
    error,
)

if TYPE_CHECKING:
    from redis.asyncio import Redis
    from redis.asyncio.client import PubSub

log = logging.getLogger("brisca.server.cluster")

#: Seconds a lease lasts unless renewed (a process that hangs loses its tables after this long).
LEASE_SECONDS = 10.0
#: Seconds between two looks at the other processes (their Redis channels) and at tables left without an owner.
WATCH_EVERY = 0.5
#: Every how many looks the slower ones are made: tables whose lease ended, forwarded tables that changed hands.
SLOW_LOOK_EVERY = 4
#: Seconds an HTTP request forwarded to a table's owner (a join, the table's state) waits for its answer.
REQUEST_TIMEOUT = 5.0
#: Seconds a connection forwarded to a table's owner waits for any word from it after a command (a hello, a move, a
#: ping) before it starts over (closed: its client reconnects and catches up). The owner answers each command at
#: once unless a lost process or message got in the way that nothing else noticed.
FORWARD_TIMEOUT = 30.0
#: Seconds a Redis command (a publish, a look at the channels) may take before Redis is taken to be down.
REDIS_TIMEOUT = 5.0
#: Pauses before each try of a publish: a stale connection fails once, a fresh one then goes through.
PUBLISH_RETRIES = (0.0, 0.05, 0.25, 0.5)
#: Seconds a process's channel must go unread, while this process reads its own all along, before that process
#: is taken to be dead (a Redis restart leaves every channel unread until the processes subscribe again).
DEAD_GRACE = 3.0
#: Seconds after the bus comes up again during which no stand-in takes a seat: the pages held by other processes
#: while it was down reconnect meanwhile (their backoff is 10 s at most).
PRESENCE_GRACE = 15.0
#: Seconds a page's connection is held open, the second time it reaches a process that cannot forward it (the bus
#: down), before it is closed; twice as long each further time, up to HOLD_MOST.
HOLD_FIRST = 5.0
HOLD_MOST = 30.0
#: Refusals remembered while the bus is down (tables and seat tokens; past it, every hello is refused at once).
REFUSALS_KEPT = 10000
#: Threads for the database calls made off the event loop (requests, the looks at the cluster).
DATABASE_THREADS = 32
#: Tables a process hands to another in one look, when it runs more than its share.
SPREAD_AT_ONCE = 4
#: Tables taken over at most in one look (the other processes take the rest).
TAKE_AT_ONCE = 64
#: The writes of :class:`~brisca.server.store.Store` that change a table (their first argument is its id).
TABLE_WRITES = frozenset({"set_version", "write_join", "write_close", "write_hand", "write_action", "write_finish"})

LEASES = cast(sa.Table, LeaseRow.__table__)
#: The row of the leases that holds the site's name (no table's id: those are 4 to 32 letters, digits, - and _).
SITE = "~site"
_TABLES = sa.table("brisca_tables", sa.column("id"), sa.column("status"), sa.column("owner"))
_SEATS = sa.table("brisca_seats", sa.column("table_id"), sa.column("bot"))
_DEAD = sa.bindparam("dead", type_=postgresql.ARRAY(sa.String), value=[])

#: A slow table asleep (:data:`~brisca.server.clock.SLOW_MOVE`): waiting for people, or its deadline not yet come.
_ASLEEP = ("(COALESCE(t.clock_move, 0) >= :slow AND (t.status = 'waiting' OR t.clock_deadline IS NULL"
           " OR t.clock_deadline > extract(epoch from now())))")


class LeaseLost(TableError, Fenced):
    """The writer no longer holds the table's lease: another process runs it now, or another actor of this one."""

    def __init__(self, table_ids: Sequence[str]) -> None:
        super().__init__("moved", "this table moved to another server: reconnect")
        self.table_ids = list(table_ids)


def node_name() -> str:
    """This process's name in the cluster: host, process id, and a random part (a restarted process is new)."""
    return f"{socket.gethostname()[:40]}:{os.getpid()}:{secrets.token_hex(4)}"


def missing_cluster_extra() -> bool:
    """Whether the Redis client (the ``cluster`` extra) cannot be imported here."""
    import importlib.util

    return importlib.util.find_spec("redis") is None


def check_database(url: str | None) -> None:
    """The cluster shares one PostgreSQL database (leases need its row locks; SQLite is one machine's file)."""
    if url is None or not url.startswith(("postgresql", "postgres")):
        raise ValueError("--redis needs --db postgresql://...: the processes share one PostgreSQL database")


#: Seconds ``brisca serve`` waits for Redis to answer before it starts without it.
REDIS_CHECK_TIMEOUT = 2.0


def shown_redis(url: str) -> str:
    """A Redis URL without its user name and password, for messages and logs."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    try:
        port = f":{parts.port}" if parts.port is not None else ""
    except ValueError:
        port = ""
    return urlunsplit((parts.scheme, host + port, parts.path, "", ""))


def check_redis(url: str, timeout: float = REDIS_CHECK_TIMEOUT) -> str | None:
    """Before serving: ``ValueError`` (one line) for a ``--redis`` URL that cannot work (not a Redis URL, or
    refused by the Redis that answers it: a wrong user or password, a database it does not have). Redis that does
    not answer is no such error, since it may come back: why, in a few words (``None`` when it answers)."""
    import redis

    shown = shown_redis(url)
    database = urlsplit(url).path.strip("/")
    if url.startswith(("redis://", "rediss://")) and database and not database.isdigit():
        raise ValueError(f"--redis {shown}: the database is a number (redis://host:6379/0), not {database!r}")
    try:
        client = redis.Redis.from_url(url, socket_timeout=timeout, socket_connect_timeout=timeout)
    except ValueError as exc:
        raise ValueError(f"--redis: not a Redis URL (redis://host:6379/0): {exc}") from None
    try:
        client.ping()
    except (redis.AuthenticationError, redis.ResponseError) as exc:  # it answered, and said no
        raise ValueError(f"--redis {shown}: Redis refuses: {exc}") from None
    except (redis.RedisError, OSError) as exc:
        return str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    finally:
        client.close()
    return None


# ------------------------------------------------------------------------------------------------ leases


class Leases:
    """The lease rows (synchronous: run off the event loop or, as :meth:`fence`, in the store's writer).

    Times are the database's (``now()``), so the machines' clocks do not matter.
    """

    def __init__(self, engine: sa.Engine, node: str, seconds: float, grace: float | None = None) -> None:
        self.engine, self.node, self.seconds = engine, node, seconds
        #: Seconds past its end before a lease of a process not known to be dead may be taken: time for a
        #: process that could not reach the database a while (an outage of it) to renew its leases.
        self.grace = seconds if grace is None else grace

    def _params(self, **more: Any) -> dict[str, Any]:
        return {"me": self.node, "ttl": f"{self.seconds} seconds", "grace": f"{self.grace} seconds", **more}

    def acquire(self, table_id: str, dead: Sequence[str] = ()) -> int | None:
        """Take the table's lease if it is free, ended, held by a dead process or by this one: its new epoch."""
        query = sa.text(
            "INSERT INTO brisca_leases (table_id, owner, epoch, expires_at)"
            " VALUES (:t, :me, 1, now() + CAST(:ttl AS interval))"
            " ON CONFLICT (table_id) DO UPDATE SET owner = :me, epoch = brisca_leases.epoch + 1,"
            " expires_at = now() + CAST(:ttl AS interval)"
            " WHERE brisca_leases.expires_at < now() - CAST(:grace AS interval) OR brisca_leases.owner = ANY(:dead)"
            " OR brisca_leases.owner = :me RETURNING epoch").bindparams(_DEAD)
        with self.engine.begin() as c:
            epoch = c.execute(query, self._params(t=table_id, dead=list(dead))).scalar()
        return None if epoch is None else int(epoch)

    def holder(self, table_id: str) -> tuple[str, bool] | None:
        """Who holds the table's lease, and whether it is still running, its grace included (``None``: nobody)."""
        query = sa.text("SELECT owner, expires_at > now() - CAST(:grace AS interval) FROM brisca_leases"
                        " WHERE table_id = :t")
        with self.engine.connect() as c:
            row = c.execute(query, self._params(t=table_id)).first()
        return None if row is None else (str(row[0]), bool(row[1]))

    def renew(self) -> dict[str, int]:
        """Extend every lease this process holds: ``table -> epoch`` of those it still holds.

        The rows are locked in the order of their ids, as the fence locks them: the two cannot deadlock.
        """
        query = sa.text(
            "UPDATE brisca_leases SET expires_at = now() + CAST(:ttl AS interval) WHERE table_id IN"
            " (SELECT table_id FROM brisca_leases WHERE owner = :me ORDER BY table_id FOR UPDATE)"
            " AND owner = :me RETURNING table_id, epoch")
        with self.engine.begin() as c:
            return {str(t): int(e) for t, e in c.execute(query, self._params())}

    def release(self, table_ids: Sequence[str]) -> None:
        """Give the leases up (a table let go, or this process stopping): another process may take them at once."""
        if not table_ids:
            return
        with self.engine.begin() as c:
            c.execute(LEASES.delete().where(LEASES.c.owner == self.node, LEASES.c.table_id.in_(list(table_ids))))

    def owners(self) -> list[str]:
        """The processes holding leases (this one left out)."""
        with self.engine.connect() as c:
            return [str(o) for o in c.execute(sa.select(LEASES.c.owner).distinct().where(
                LEASES.c.owner != self.node, LEASES.c.table_id != SITE)).scalars()]

    def take_orphans(self, dead: Sequence[str], limit: int = TAKE_AT_ONCE) -> dict[str, int]:
        """Take over open tables whose lease ended or whose holder is dead, and open tables with no lease (from
        a single-process server, or a process killed between creating a table and leasing it), but not the slow
        tables that sleep (those a move wakes, or their deadline: :meth:`Manager.sweep`). Locked rows are
        skipped: processes taking over at once share the tables out. ``table -> epoch``."""
        taken = sa.text(
            "UPDATE brisca_leases SET owner = :me, epoch = epoch + 1, expires_at = now() + CAST(:ttl AS interval)"
            " WHERE table_id IN (SELECT l.table_id FROM brisca_leases l JOIN brisca_tables t ON t.id = l.table_id"
            "  WHERE t.status IN ('waiting', 'playing') AND NOT " + _ASLEEP +
            "  AND (l.expires_at < now() - CAST(:grace AS interval) OR l.owner = ANY(:dead))"
            "  ORDER BY random() LIMIT :n FOR UPDATE OF l SKIP LOCKED)"
            " RETURNING table_id, epoch").bindparams(_DEAD)
        leaseless = sa.text(
            "INSERT INTO brisca_leases (table_id, owner, epoch, expires_at)"
            " SELECT t.id, :me, 1, now() + CAST(:ttl AS interval) FROM brisca_tables t"
            " WHERE t.status IN ('waiting', 'playing') AND NOT " + _ASLEEP +
            " AND NOT EXISTS (SELECT 1 FROM brisca_leases l WHERE l.table_id = t.id) ORDER BY random() LIMIT :n"
            " ON CONFLICT (table_id) DO NOTHING RETURNING table_id, epoch")
        # Leases of finished or closed tables whose holder is gone: nobody needs to run those.
        stale = sa.text(
            "DELETE FROM brisca_leases l USING brisca_tables t WHERE t.id = l.table_id"
            " AND t.status NOT IN ('waiting', 'playing')"
            " AND (l.expires_at < now() - CAST(:grace AS interval) OR l.owner = ANY(:dead))"
        ).bindparams(_DEAD)
        with self.engine.begin() as c:
            out = {str(t): int(e) for t, e in c.execute(taken, self._params(dead=list(dead), n=limit, slow=SLOW_MOVE))}
            if len(out) < limit:
                out |= {str(t): int(e) for t, e in c.execute(leaseless, self._params(n=limit - len(out),
                                                                                      slow=SLOW_MOVE))}
            c.execute(stale, self._params(dead=list(dead)))
        return out

    def site(self) -> str:
        """The site's name: made by the first process of the site, kept in the database (a row of the leases that
        names no table), the same for every process that shares the database."""
        made = secrets.token_hex(8)
        with self.engine.begin() as c:
            c.execute(sa.text("INSERT INTO brisca_leases (table_id, owner, epoch, expires_at) VALUES (:t, :site, 0,"
                              " 'infinity') ON CONFLICT (table_id) DO NOTHING"), {"t": SITE, "site": made})
            return str(c.execute(sa.select(LEASES.c.owner).where(LEASES.c.table_id == SITE)).scalar_one())

    def mine(self) -> dict[str, int]:
        """The leases this process holds: ``table -> epoch`` (those handed to it by another among them)."""
        with self.engine.connect() as c:
            return {str(t): int(e) for t, e in c.execute(
                sa.select(LEASES.c.table_id, LEASES.c.epoch).where(LEASES.c.owner == self.node))}

    def counts(self) -> dict[str, int]:
        """How many open tables each process runs (its leases still running)."""
        query = sa.text(
            "SELECT l.owner, count(*) FROM brisca_leases l JOIN brisca_tables t ON t.id = l.table_id"
            " WHERE t.status IN ('waiting', 'playing') AND l.expires_at > now() GROUP BY l.owner")
        with self.engine.connect() as c:
            return {str(o): int(n) for o, n in c.execute(query)}

    def hand_over(self, table_id: str, epoch: int, to: str) -> bool:
        """Give a table this process runs (at ``epoch``, its actor stopped) to the process ``to``, at a new epoch;
        whether it was still this process's to give."""
        query = sa.text(
            "UPDATE brisca_leases SET owner = :to, epoch = epoch + 1, expires_at = now() + CAST(:ttl AS interval)"
            " WHERE table_id = :t AND owner = :me AND epoch = :e RETURNING epoch")
        with self.engine.begin() as c:
            return c.execute(query, self._params(t=table_id, e=epoch, to=to)).first() is not None

    def fence(self, c: sa.Connection, tables: Sequence[str]) -> dict[str, int]:
        """In a write's transaction: lock the leases of these tables for share, so that no other process takes one
        over before the commit; ``table -> epoch`` of those this process holds."""
        query = (sa.select(LEASES.c.table_id, LEASES.c.epoch)
                 .where(LEASES.c.owner == self.node, LEASES.c.table_id.in_(sorted(tables)))
                 .order_by(LEASES.c.table_id).with_for_update(read=True))
        return {str(t): int(e) for t, e in c.execute(query)}

    def open_tables(self, owner: str) -> tuple[int, int, int]:
        """The site's open tables of ``owner``, those of bots only among them, and every open table of bots only."""
        people = sa.exists().where(_SEATS.c.table_id == _TABLES.c.id, _SEATS.c.bot.is_(None))
        live = _TABLES.c.status.in_(list(OPEN))
        query = sa.select(
            sa.func.count().filter(_TABLES.c.owner == owner),
            sa.func.count().filter(_TABLES.c.owner == owner, ~people),
            sa.func.count().filter(~people),
        ).select_from(_TABLES).where(live)
        with self.engine.connect() as c:
            mine, mine_bots, bots = c.execute(query).one()
        return int(mine), int(mine_bots), int(bots)


# ------------------------------------------------------------------------------------------------ the bus


def channel(node: str, site: str = "") -> str:
    """A process's Redis channel: everything sent to it (``site``: the site's name in its database, so that the
    processes of several sites sharing one Redis never count each other)."""
    return f"brisca:{site}:node:{node}" if site else f"brisca:node:{node}"


@dataclass
class _Outgoing:
    """What waits to be sent to one process: operations, and the texts they refer to (each text once)."""

    ops: list[Message]
    texts: list[str]
    index: dict[int, int]


class Bus:
    """Redis pub/sub between the processes: one channel a process, read on one connection, written by one task.

    A message is a JSON list of operations on its first line, then the texts (events already in JSON, which
    never hold a raw newline) that the operations name by number, one a line. Everything sent to a process in
    one turn of the event loop goes in one message, in order; an event text sent to many connections of that
    process goes once.

    No message is dropped unseen: a publish that fails is tried again on a fresh connection; one that still fails,
    or that no process read (``PUBLISH`` counted no subscriber), is reported (``undelivered``), and the connections
    that depended on it are closed so that their clients reconnect and catch up. A lost subscription is reported
    at once (``lost``: what was sent to this process meanwhile may be gone). The messages to each process are
    numbered: the reader drops one read twice and reports a skipped number (``gap``). Redis's state is logged
    once a change (``up``), never once a failed call.
    """

    def __init__(self, url: str, node: str, handle: Callable[[str, list[Message], list[str]], None],
                 unreachable: Callable[[str], None]) -> None:
        self.url, self.node, self.handle, self.unreachable = url, node, handle, unreachable
        #: The site's name (:meth:`Leases.site`), in every channel's name.
        self.site = ""
        self.redis: Redis | None = None
        self.pubsub: PubSub | None = None
        self._pending: dict[str, _Outgoing] = {}
        self._flush_planned = False
        self._queue: asyncio.Queue[list[tuple[str, str, bytes]]] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        #: Called when this process's subscription was lost (messages to it may have been missed).
        self.lost: Callable[[], None] = lambda: None
        #: Called with a process that a message could not be delivered to.
        self.undelivered: Callable[[str], None] = lambda node: None
        #: Called when Redis becomes reachable (``True``) or not (``False``).
        self.changed: Callable[[bool], None] = lambda up: None
        #: Called with a process from which messages were missed (their numbers skipped).
        self.gap: Callable[[str], None] = lambda node: None
        #: The number of the last message sent to each process, and of the last one read from each.
        self._sent: dict[str, int] = {}
        self._read_from: dict[str, int] = {}
        self.subscribed = asyncio.Event()
        #: The parts that cannot reach Redis now ("reader", "writer"); Redis is up when none.
        self._broken: set[str] = set()
        #: ``loop.time()`` when Redis was last found up.
        self.up_since = 0.0
        self._reported = False

    @property
    def up(self) -> bool:
        """Whether this process both reads its channel and publishes."""
        return not self._broken and self.subscribed.is_set()

    def _trouble(self, part: str, exc: BaseException) -> None:
        self._broken.add(part)
        self._report(exc)

    def _fine(self, part: str) -> None:
        self._broken.discard(part)
        self._report(None)

    def _report(self, exc: BaseException | None) -> None:
        """One log line, and one call of :attr:`changed`, when Redis goes down or comes back."""
        up = self.up
        if up == self._reported:
            return
        self._reported = up
        if up:
            self.up_since = asyncio.get_running_loop().time()
            log.warning("Redis answers again: the processes' bus is up")
        else:
            why = "" if exc is None else f" ({type(exc).__name__}: {str(exc)[:200]})"
            log.warning("Redis does not answer%s: the processes' bus is down; this process serves its own tables, "
                        "its connections to other processes' tables are closed (their clients reconnect)", why)
        self.changed(up)

    async def start(self) -> None:
        from redis import RedisError
        from redis.asyncio import Redis

        self.redis = Redis.from_url(self.url, health_check_interval=0, socket_connect_timeout=5,
                                    socket_timeout=REDIS_TIMEOUT)
        loop = asyncio.get_running_loop()
        try:
            await self.redis.ping()
            await self._subscribe()
        except (RedisError, OSError) as exc:  # down at start: the reader subscribes once Redis answers
            self._broken.add("reader")
            log.warning("Redis does not answer (%s: %s): this process serves its own tables, and joins the other "
                        "processes when Redis answers", type(exc).__name__, str(exc)[:200])
        else:
            self._reported, self.up_since = True, loop.time()
        self._tasks = [loop.create_task(self._reader(), name="bus-reader"),
                       loop.create_task(self._writer(), name="bus-writer")]

    async def _subscribe(self) -> None:
        assert self.redis is not None
        if self.pubsub is not None:
            with contextlib.suppress(Exception):
                await cast(Any, self.pubsub).aclose()  # untyped in redis-py
        self.pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        await self.pubsub.subscribe(channel(self.node, self.site))
        self.subscribed.set()

    async def close(self) -> None:
        self.flush()
        # What was sent before closing goes out (the processes forwarding to this one are told to let go).
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._drained(), 2.0)
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self.pubsub is not None:
            with contextlib.suppress(Exception):
                await cast(Any, self.pubsub).aclose()  # untyped in redis-py
        if self.redis is not None:
            with contextlib.suppress(Exception):
                await self.redis.aclose()

    async def _drained(self) -> None:
        while not self._queue.empty() or self._busy:
            await asyncio.sleep(0.01)

    _busy = False

    # -------------------------------------------------------------- sending

    def send(self, node: str, op: Message, text: str | None = None) -> None:
        """Queue one operation for ``node`` (``text``: an event's JSON it carries, as ``op["i"]``)."""
        out = self._pending.get(node)
        if out is None:
            out = self._pending[node] = _Outgoing([], [], {})
        if text is not None:
            op["i"] = self._text(out, text)
        out.ops.append(op)
        self._plan()

    def deliver(self, node: str, key: int, message: Message | str) -> None:
        """A message for connection ``key`` of ``node`` (:data:`~brisca.server.table.CLOSE`: close it)."""
        out = self._pending.get(node)
        if out is None:
            out = self._pending[node] = _Outgoing([], [], {})
        if message is CLOSE:
            index = -1
        else:
            index = self._text(out, message if isinstance(message, str) else json.dumps(message))
        last = out.ops[-1] if out.ops else None
        if last is not None and last["op"] == "d":
            last["items"].append([key, index])
        else:
            out.ops.append({"op": "d", "items": [[key, index]]})
        self._plan()

    @staticmethod
    def _text(out: _Outgoing, text: str) -> int:
        index = out.index.get(id(text))
        if index is None:
            index = out.index[id(text)] = len(out.texts)
            out.texts.append(text)
        return index

    def _plan(self) -> None:
        if not self._flush_planned:
            self._flush_planned = True
            asyncio.get_running_loop().call_soon(self.flush)

    def flush(self) -> None:
        """Hand what waits to the writer: one message a process."""
        self._flush_planned = False
        if not self._pending:
            return
        pending, self._pending = self._pending, {}
        batch = []
        for node, out in pending.items():
            seq = self._sent[node] = self._sent.get(node, 0) + 1
            head = json.dumps({"from": self.node, "seq": seq, "ops": out.ops}, ensure_ascii=False)
            payload = "\n".join([head, *out.texts])
            batch.append((node, channel(node, self.site), payload.encode("utf-8", "surrogatepass")))
        self._queue.put_nowait(batch)

    async def _writer(self) -> None:
        """Publish in order: one task, one pipeline at a time (a second connection could overtake the first)."""
        while True:
            batch = await self._queue.get()
            self._busy = True
            try:
                while not self._queue.empty():
                    batch.extend(self._queue.get_nowait())
                counts = await self._publish(batch)
                for node in sorted({node for node, _, _ in batch} if counts is None else
                                   {node for (node, _, _), count in zip(batch, counts, strict=True) if count == 0}):
                    # Not delivered: the connections that waited for it start over (nobody reads that channel:
                    # the process may be gone, have a look now).
                    self.undelivered(node)
                    if counts is not None:
                        self.unreachable(node)
            except asyncio.CancelledError:
                raise
            except Exception:  # a bug here must not stop the bus
                log.exception("could not publish %d messages to Redis", len(batch))
            finally:
                self._busy = False

    async def _publish(self, batch: list[tuple[str, str, bytes]]) -> list[int] | None:
        """Publish a batch, tried again on a fresh connection when one fails (a pooled connection Redis closed
        when it restarted fails once); how many read each message, or ``None``: Redis cannot be reached."""
        assert self.redis is not None
        error: BaseException | None = None
        start = asyncio.get_running_loop().time()
        for pause in PUBLISH_RETRIES:
            if pause:
                if asyncio.get_running_loop().time() - start > REDIS_TIMEOUT:
                    break  # Redis stalls rather than refuses: no more waiting
                await asyncio.sleep(pause)
            try:
                async with self.redis.pipeline(transaction=False) as pipe:
                    for _, name, payload in batch:
                        pipe.publish(name, payload)
                    counts = [int(c) for c in await pipe.execute()]
                self._fine("writer")
                return counts
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                error = exc
        assert error is not None
        self._trouble("writer", error)
        return None

    # -------------------------------------------------------------- receiving

    async def _reader(self) -> None:
        wait = 0.0
        while True:
            try:
                if not self.subscribed.is_set():
                    await asyncio.sleep(wait)
                    await self._subscribe()
                    wait = 0.0
                    # Redis answers: publishing is tried again as it comes (nothing else may be sent until the bus
                    # is up again, since no connection is forwarded while it is down).
                    self._broken.discard("writer")
                    self._fine("reader")
                assert self.pubsub is not None and self.redis is not None
                if "writer" in self._broken:  # a publish failed and nothing else may come to try: ask Redis
                    with contextlib.suppress(Exception):
                        await asyncio.wait_for(self.redis.ping(), 2.0)
                        self._fine("writer")
                message = await self.pubsub.get_message(timeout=1.0)
                if message is None or message.get("type") != "message":
                    continue
                self._read(message["data"])
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                lost = self.subscribed.is_set()
                self.subscribed.clear()
                self._trouble("reader", exc)
                if lost:  # what was published to this process meanwhile is gone: its connections start over
                    self.lost()
                wait = min(1.0, max(0.2, 2 * wait))

    def _read(self, data: bytes) -> None:
        try:
            text = data.decode("utf-8", "surrogatepass")
            head, _, rest = text.partition("\n")
            header = json.loads(head)
            texts = rest.split("\n") if rest else []
            sender, seq = str(header["from"]), header.get("seq")
            if isinstance(seq, int):
                last = self._read_from.get(sender)
                if last is not None and seq <= last:
                    return  # read twice (a publish tried again after Redis had taken it)
                self._read_from[sender] = seq
                if last is not None and seq > last + 1:
                    self.gap(sender)
            self.handle(sender, header["ops"], texts)
        except Exception:
            log.exception("a message on the bus could not be handled")

    # -------------------------------------------------------------- the other processes

    async def listeners(self, nodes: Sequence[str]) -> dict[str, int] | None:
        """How many connections read each process's channel (0: it is gone), with this process's own (``None``
        when Redis cannot say)."""
        if self.redis is None or not self.up:
            return None
        names = [channel(n, self.site) for n in {self.node, *nodes}]
        try:
            counts = await self.redis.pubsub_numsub(*names)
        except Exception:
            return None
        found = {(k.decode() if isinstance(k, bytes) else str(k)): int(v) for k, v in counts}
        return {n: found.get(channel(n, self.site), 0) for n in {self.node, *nodes}}

    async def nodes(self) -> set[str] | None:
        """The processes reading their channel now (``None`` when Redis cannot say)."""
        if self.redis is None or not self.up:
            return None
        try:
            names = await self.redis.pubsub_channels(channel("*", self.site))
        except Exception:
            return None
        prefix = channel("", self.site)
        return {(n.decode() if isinstance(n, bytes) else str(n)).removeprefix(prefix) for n in names}

    async def ping(self) -> bool:
        if self.redis is None:
            return False
        try:
            return bool(await asyncio.wait_for(self.redis.ping(), 2.0))
        except Exception:
            return False


# ------------------------------------------------------------------------------------------------ connections


@dataclass(eq=False)
class RemoteConnection(Connection):
    """At a table's owner: a client connected to another process. What the actor sends it goes over the bus."""

    node: str = ""
    key: int = 0
    table_id: str = ""
    bus: Bus | None = None

    def send(self, message: Message | str) -> None:
        if self.bus is not None:
            self.bus.deliver(self.node, self.key, message)


class RemoteTable(TableActor):
    """At a process that does not own the table: stands for its actor. The commands of this process's connections
    go to the owner over the bus; :meth:`join` and :meth:`info` ask it and wait for the answer.

    Not a table: none of the actor's state is here (its ``__init__`` is not run).
    """

    def __init__(self, cluster: ClusterManager, table_id: str, node: str) -> None:
        self.cluster, self.id, self.node = cluster, table_id, node
        self._stopped = False
        self.status = "remote"
        #: This process's connections to the table and their keys on the bus.
        self.keys: dict[Connection, int] = {}
        #: The keys with a command sent since the owner last sent them anything: since when (``loop.time()``).
        self.asked: dict[int, float] = {}

    def submit(self, command: Command) -> None:
        cluster = self.cluster
        if not isinstance(command, Hello | Act | Chat | Ping | Leave | SeatCommand):
            return
        conn = command.conn
        if isinstance(command, Leave):
            cluster.held.pop(conn, None)
            key = self.keys.get(conn)
            if key is not None:
                self.drop(conn, key)
                cluster.bus.send(self.node, {"op": "leave", "t": self.id, "c": key})
            return
        if self._stopped:  # the owner is gone: the connection is being closed, the client comes back
            return
        if not cluster.bus.up:
            self._hold(command)
            return
        key = self.keys.get(conn)
        if key is None:
            key = self.keys[conn] = cluster.new_key()
            cluster.local[key] = (conn, self)
        op: Message = {"t": self.id, "c": key}
        if isinstance(command, Hello):
            op |= {"op": "hello", "token": command.token, "last": command.last, "address": command.address}
        elif isinstance(command, Act):
            op |= {"op": "act", "action": command.action, "id": command.id}
        elif isinstance(command, Chat):
            op |= {"op": "chat", "text": command.text, "id": command.id}
        elif isinstance(command, SeatCommand):
            op |= {"op": "seat", "what": command.what, "id": command.id}
        else:
            op |= {"op": "ping", "id": command.id}
        cluster.bus.send(self.node, op)
        self.asked.setdefault(key, asyncio.get_running_loop().time())

    def _hold(self, command: Hello | Act | Chat | Ping | SeatCommand) -> None:
        """Nothing reaches the owner (the bus is down). A page's first hello through this process is refused and
        its connection closed: its page reconnects, to another process if the load balancer spreads them, and
        reaches the table's in a few tries. A page that comes back here (a sticky load balancer keeps it on this
        process) is told so and held open, each time twice as long (:data:`HOLD_FIRST` to :data:`HOLD_MOST`
        seconds), rather than refused twice a second; all are closed when the bus is up again, so that their
        pages reconnect and are forwarded. Its person stays present meanwhile: no stand-in takes a seat while
        the bus is down (:meth:`ClusterManager.presence_unknown`)."""
        conn, cluster = command.conn, self.cluster
        if isinstance(command, Ping):
            conn.send({"type": "pong"} | ({"id": command.id} if command.id is not None else {}))
            return
        if not isinstance(command, Hello):
            conn.send(error("unavailable", "the server running this table cannot be reached from here; waiting "
                            "for it", command.id))
            return
        if conn in cluster.held:
            return
        key = (self.id, command.token)
        refused = cluster.refused.get(key, 0)
        if refused == 0 or len(cluster.refused) >= REFUSALS_KEPT:
            if len(cluster.refused) < REFUSALS_KEPT:
                cluster.refused[key] = 1
            conn.send(error("unavailable", "the server running this table cannot be reached from here: reconnecting"))
            conn.send(CLOSE)
            return
        cluster.refused[key] = refused + 1
        cluster.held[conn] = self
        conn.send(error("unavailable", "the server running this table cannot be reached from here; waiting for it"))
        wait = min(HOLD_FIRST * 2 ** (refused - 1), HOLD_MOST)
        asyncio.get_running_loop().call_later(wait, cluster.let_held_go, conn)

    async def stop(self) -> None:
        self._stopped = True

    def drop(self, conn: Connection, key: int) -> None:
        """Forget one of this process's connections to the table (closed, or told to start over)."""
        self.keys.pop(conn, None)
        self.asked.pop(key, None)
        self.cluster.local.pop(key, None)

    def let_go(self) -> None:
        """The owner is gone or gave the table up: close this process's connections to it (they reconnect)."""
        self._stopped = True
        for conn, key in list(self.keys.items()):
            self.cluster.local.pop(key, None)
            conn.send(CLOSE)
        self.keys.clear()
        self.asked.clear()

    def unanswered(self, now: float) -> None:
        """Close this process's connections whose commands the owner has not answered for :data:`FORWARD_TIMEOUT`
        seconds (the owner gone or stuck without its being noticed): their clients reconnect, to whichever process
        runs the table now, and catch up."""
        late = {key for key, since in self.asked.items() if now - since > FORWARD_TIMEOUT}
        if not late:
            return
        log.warning("table %s: %d connections had no answer from %s for %g s: they start over", self.id, len(late),
                    self.node, FORWARD_TIMEOUT)
        for conn, key in [(c, k) for c, k in self.keys.items() if k in late]:
            self.drop(conn, key)
            conn.send(CLOSE)
            self.cluster.bus.send(self.node, {"op": "leave", "t": self.id, "c": key})
        for key in late:
            self.asked.pop(key, None)

    async def join(self, name: str, seat: int | None, user_id: int | None = None,
                   account: str | None = None, address: str | None = None) -> tuple[int, str]:
        async def here(actor: TableActor) -> Message:
            seat_taken, token = await actor.join(name, seat, user_id, account, address)
            return {"seat": seat_taken, "token": token}

        answer = await self.cluster.ask(self, {"kind": "join", "name": name, "seat": seat, "user_id": user_id,
                                               "account": account, "address": address}, here)
        return int(answer["seat"]), str(answer["token"])

    async def cancel(self, owner: str) -> None:
        async def here(actor: TableActor) -> Message:
            await actor.cancel(owner)
            return {}

        await self.cluster.ask(self, {"kind": "cancel", "owner": owner}, here)

    async def hint(self, token: str) -> dict[str, Any]:
        """The hint, searched by the table's owner (it holds the seat's view)."""
        async def here(actor: TableActor) -> Message:
            return await actor.hint(token)

        answer = await self.cluster.ask(self, {"kind": "hint", "token": token}, here,
                                        timeout=HINT_THINK + REQUEST_TIMEOUT)
        return {"hint": answer.get("hint")}  # without the bus's own fields

    async def info(self) -> Message:
        """The table as everyone sees it (:meth:`TableActor.table_json`), from its owner."""
        async def here(actor: TableActor) -> Message:
            return {"table": actor.table_json()}

        answer = await self.cluster.ask(self, {"kind": "table"}, here)
        table: Message = answer["table"]
        return table


# ------------------------------------------------------------------------------------------------ the manager


#: Tables whose last read each process keeps, to answer reads during an outage.
READS_KEPT = 1024


class ClusterManager(Manager):
    """This process's tables in a cluster: those whose lease it holds run here (their actors); the others are
    reached through their owner (:class:`RemoteTable`). Made from the process's :class:`Manager`, whose settings
    it keeps (:func:`start_cluster`).

    The database calls run in threads, never on the event loop, and the leases are renewed by a task of their
    own (a slow database delays nothing else). A process is dead when its channel stays unread for
    :data:`DEAD_GRACE` seconds while this process reads its own (a Redis restart does not count), or when its
    leases ended :attr:`Leases.grace` seconds ago (it stopped renewing them). A process running more than its share
    of the tables hands some to the process running the fewest (after an outage, a takeover or a restart).
    """

    def __init__(self, manager: Manager, redis_url: str, lease_seconds: float = LEASE_SECONDS) -> None:
        if manager.store.engine.dialect.name != "postgresql":
            raise ValueError("several processes share one PostgreSQL database (--db postgresql://...), not "
                             f"{manager.store.engine.dialect.name}")
        # The settings of the process's manager (its store, limits, takeover and the like), whatever they are.
        self.__dict__.update(manager.__dict__)
        self.node = node_name()
        # The leases have a pool of connections of their own: a stalled database that holds every connection of
        # the store's pool does not hold up their renewal once it answers again.
        url = self.store.engine.url.render_as_string(hide_password=False)
        self.lease_engine = make_engine(url)
        self.leases = Leases(self.lease_engine, self.node, lease_seconds)
        self.bus = Bus(redis_url, self.node, self._receive, self._unreachable)
        self.bus.lost = self._through_redis_lost
        self.bus.undelivered = self._forget
        self.bus.changed = self._bus_changed
        self.bus.gap = self._missed_from
        #: The leases this process holds: table -> epoch (read by the store's writer thread, in the fence).
        self.epochs: dict[str, int] = {}
        #: Tables of other processes that this process's connections use.
        self.routes: dict[str, RemoteTable] = {}
        #: Connections of other processes to this process's tables: (process, key) -> connection.
        self.remote: dict[tuple[str, int], RemoteConnection] = {}
        #: This process's connections to other processes' tables: key -> (connection, route).
        self.local: dict[int, tuple[Connection, RemoteTable]] = {}
        #: Processes judged dead (their channel unread for DEAD_GRACE seconds).
        self.dead: set[str] = set()
        #: This process's connections to other processes' tables that said hello while the bus was down: kept open
        #: until it is up again (then closed: their pages reconnect and are forwarded).
        self.held: dict[Connection, RemoteTable] = {}
        #: How many times each table's seat token (``None``: a spectator) was refused here while the bus is down.
        self.refused: dict[tuple[str, str | None], int] = {}
        #: The last answer to a read of each table (a bounded LRU): what a read gets when neither the table's process
        #: nor the database answers (an outage), rather than an error.
        self._read_last: OrderedDict[str, Message] = OrderedDict()
        #: Processes whose channel was found unread: since when (``loop.time()``).
        self._missing: dict[str, float] = {}
        #: Whether the database answered the last renewal of the leases (its state is logged when it changes).
        self.database_up = True
        self._uneven = 0
        #: Leases of this process without an actor at the last renewal.
        self._unclaimed: set[str] = set()
        self._keys = 0
        self._requests: dict[str, asyncio.Future[Message]] = {}
        self._wake = asyncio.Event()
        self._watcher: asyncio.Task[None] | None = None
        self._renewer: asyncio.Task[None] | None = None
        self._lease_thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="brisca-leases")
        self._background: set[asyncio.Task[Any]] = set()
        self._losing: set[str] = set()
        self._failures: dict[str, float] = {}
        self.loop: asyncio.AbstractEventLoop | None = None
        self.store.fence = self._fence

    async def start(self) -> None:
        self.loop = asyncio.get_running_loop()
        # Threads enough that calls waiting on a stalled database leave room for the others (the store's writes and
        # the leases have threads of their own).
        self.loop.set_default_executor(ThreadPoolExecutor(max_workers=DATABASE_THREADS,
                                                          thread_name_prefix="brisca-db"))
        self.bus.site = await self._db(self.leases.site)
        await self.bus.start()
        await self._take_orphans()
        self._watcher = self.loop.create_task(self._watch(), name="cluster-watch")
        self._renewer = self.loop.create_task(self._renewing(), name="cluster-leases")

    def resume(self) -> None:
        """Nothing to load at once: the tables left without an owner are taken over as the cluster is watched."""

    def new_key(self) -> int:
        self._keys += 1
        return self._keys

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _db(self, fn: Callable[..., Any], *args: Any) -> Any:
        """A database call in a thread, waited for :data:`~brisca.server.db.CALL_TIMEOUT` seconds at most."""
        return await in_thread(fn, *args)

    def _failed(self, what: str, exc: BaseException) -> None:
        """A look that failed: said once a minute at most (the database's and Redis's outages are said by their
        own watchers)."""
        if unreachable(exc) or not self.bus.up:
            return
        now = time.monotonic()
        if now - self._failures.get(what, -math.inf) >= 60:
            self._failures[what] = now
            log.error("%s failed: %s: %s", what, type(exc).__name__, exc)

    # -------------------------------------------------------------- where a table runs

    def _usable(self, table_id: str) -> TableActor | None:
        """The table's actor here or its route, when known (no database call)."""
        actor = self.actors.get(table_id)
        if actor is not None and not actor.stopped:
            return actor
        remote = self.routes.get(table_id)
        if remote is not None and not remote.stopped and remote.node not in self.dead:
            return remote
        return None

    async def locate(self, table_id: str) -> TableActor | None:
        """The table's actor here, or a :class:`RemoteTable` that forwards to its owner; ``None``: no such table,
        or closed. A table nobody runs (its owner gone) is taken over here. The database is read in threads."""
        if not TABLE_ID.match(table_id):
            return None
        known = self._usable(table_id)
        if known is not None:
            return None if known.status == "closed" else known
        for _ in range(3):
            holder = await self._db(self.leases.holder, table_id)
            if holder is not None and holder[0] != self.node and holder[1] and holder[0] not in self.dead:
                route = self.routes[table_id] = RemoteTable(self, table_id, holder[0])
                return route
            status = await self._db(self.store.status, table_id)
            if status is None or status == "closed":
                return None
            epoch = await self._db(self.leases.acquire, table_id, sorted(self.dead))
            if epoch is None:
                continue  # taken by another process meanwhile: forward to it
            self.epochs[table_id] = max(epoch, self.epochs.get(table_id, 0))
            await self.store.settled(table_id)
            state = await self._db(self.store.load, table_id)
            actor = self._loaded(table_id, state)
            if actor is not None and actor.lease == epoch - 1:
                # Started meanwhile (another connection's locate) under the epoch just before this one: nobody else
                # held the table in between, so its picture is whole; it writes under the new epoch.
                actor.lease = epoch
            if actor is None:
                self.epochs.pop(table_id, None)
                await self._db(self.leases.release, [table_id])
            return actor
        return None

    def route(self, table_id: str) -> TableActor | None:
        """:meth:`locate` without the database (the tables run here, or known to run elsewhere)."""
        known = self._usable(table_id)
        return None if known is None or known.status == "closed" else known

    def get(self, table_id: str) -> TableActor | None:
        """The table's actor in this process, if it runs here."""
        actor = self.route(table_id)
        return None if isinstance(actor, RemoteTable) else actor

    def claim(self, table_id: str) -> None:
        epoch = self.leases.acquire(table_id)
        if epoch is None:
            raise TableError("moved", f"table {table_id} is run by another server")
        self.epochs[table_id] = epoch

    def _actor(self, state: TableState) -> TableActor:
        if state.id not in self.epochs:
            self.claim(state.id)
        actor = super()._actor(state)
        actor.lease = self.epochs[state.id]
        actor.presence_unknown = self.presence_unknown
        return actor

    async def release(self, actor: TableActor) -> None:
        await super().release(actor)
        for key, rconn in list(self.remote.items()):
            if rconn.table_id == actor.id:
                del self.remote[key]
        if self.epochs.pop(actor.id, None) is not None:
            with contextlib.suppress(Exception):  # the lease ends by itself otherwise
                await self._db(self.leases.release, [actor.id])

    def open_counts(self, owner: str) -> tuple[int, int, int]:
        """The caps on open tables count the whole site's tables (the database), not this process's."""
        return self.leases.open_tables(owner)

    async def table_info(self, actor: TableActor) -> Message:
        if isinstance(actor, RemoteTable):
            return await actor.info()
        return await super().table_info(actor)

    async def read_table(self, table_id: str, find: Callable[[str], Awaitable[TableActor]]) -> Message:
        """The table from its owner; as the database holds it when the owner cannot be asked (Redis down); from
        whichever process runs it when neither the database nor the owner known here answers."""
        found = await self._read(table_id, find)
        self._read_last[table_id] = found
        self._read_last.move_to_end(table_id)
        while len(self._read_last) > READS_KEPT:
            self._read_last.popitem(last=False)
        return found

    async def _read(self, table_id: str, find: Callable[[str], Awaitable[TableActor]]) -> Message:
        try:
            actor = await find(table_id)
        except HTTPException as exc:
            if exc.status_code != 503:
                raise
            found = await self._read_without_database(table_id)
            if found is None:
                if table_id in self._read_last:
                    return self._read_last[table_id]
                raise
            return found
        if not isinstance(actor, RemoteTable):
            return await super().table_info(actor)
        try:
            return await actor.info()
        except TableError as exc:
            if exc.code not in ("unavailable", "moved"):
                raise
        try:
            stored: dict[str, Message] = await self._db(self._stored, [table_id])
            if table_id in stored:
                return stored[table_id]
        except Exception as exc:
            if not unreachable(exc):
                raise
        found = await self._read_without_database(table_id)
        if found is None:
            if table_id in self._read_last:
                return self._read_last[table_id]
            raise TableError("unavailable", "neither the server running this table nor the database answers; "
                                            "try again")
        return found

    async def _read_without_database(self, table_id: str) -> Message | None:
        """A table as the process running it shows it (this one, or whichever answers over the bus)."""
        actor = self.actors.get(table_id)
        if actor is not None:  # (stopped while its write found no database, or its lease unconfirmed: as it stood)
            return actor.table_json()
        nodes = sorted((await self.bus.nodes() or set()) - {self.node})
        answers = await asyncio.gather(*(self._request(n, {"kind": "describe", "ids": [table_id]}, timeout=2.0)
                                         for n in nodes), return_exceptions=True)
        for answer in answers:
            if isinstance(answer, dict) and table_id in (answer.get("tables") or {}):
                found: Message = answer["tables"][table_id]
                return found
        return None

    def _stored(self, table_ids: Sequence[str]) -> dict[str, Message]:
        """Tables as the database holds them (everything committed; nothing in flight), as everyone sees them."""
        out: dict[str, Message] = {}
        for table_id in table_ids:
            state = self.store.load(table_id)
            if state is not None:
                out[table_id] = TableActor(self.store, state).table_json()
        return out

    async def describe(self, table_ids: Sequence[str]) -> dict[str, Message]:
        """The tables of other processes, as everyone sees them: asked of their owners; those that cannot be asked
        (Redis down, an owner that did not answer) as the database holds them."""
        try:
            holders: dict[str, str] = await self._db(self._holders, list(table_ids))
        except Exception as exc:  # the database stopped answering since the lobby's list: those are left out
            if not unreachable(exc):
                raise
            return {}
        by_node: dict[str, list[str]] = {}
        for table_id, owner in holders.items():
            if owner != self.node and owner not in self.dead:
                by_node.setdefault(owner, []).append(table_id)
        out: dict[str, Message] = {}
        if self.bus.up:
            answers = await asyncio.gather(*(self._request(node, {"kind": "describe", "ids": ids}, timeout=1.0)
                                             for node, ids in by_node.items()), return_exceptions=True)
            for answer in answers:
                if isinstance(answer, dict):
                    out |= answer.get("tables") or {}
        missing = [t for ids in by_node.values() for t in ids if t not in out]
        if missing:
            try:
                out |= await self._db(self._stored, missing)
            except Exception as exc:  # neither the owners nor the database: those tables are left out
                if not unreachable(exc):
                    raise
        return out

    def _holders(self, table_ids: list[str]) -> dict[str, str]:
        if not table_ids:
            return {}
        query = sa.text("SELECT table_id, owner FROM brisca_leases WHERE table_id = ANY(:ids)"
                        " AND expires_at > now() - CAST(:grace AS interval)").bindparams(
            sa.bindparam("ids", type_=postgresql.ARRAY(sa.String)))
        with self.lease_engine.connect() as c:
            return {str(t): str(o) for t, o in c.execute(query, self.leases._params(ids=table_ids))}

    async def health(self) -> Message:
        """This process serves its own tables when its database answers (``ok``); the bus between the processes
        (``redis``) is reported, and does not make a process unhealthy: without it, each serves its own tables."""
        report = await super().health()
        redis = self.bus.up and await self.bus.ping()
        report |= {"ok": bool(report["ok"]), "node": self.node, "redis": redis,
                   "leases": len(self.epochs), "forwarded_connections": len(self.local),
                   "connections_from_other_processes": len(self.remote)}
        return report

    # -------------------------------------------------------------- leases

    def _fence(self, c: sa.Connection, batch: Sequence[Write]) -> None:
        """The store's check before a batch commits: every table it writes is still its writer's, at the epoch the
        writer runs under (an actor being stopped here while a newer one loads the table must not write)."""
        wanted = {(args[0], self.epochs.get(args[0], -1) if lease is None else lease)
                  for fn, args, lease in batch if getattr(fn, "__name__", "") in TABLE_WRITES and args}
        if not wanted:
            return
        held = self.leases.fence(c, sorted({t for t, _ in wanted}))
        refused = [(t, epoch) for t, epoch in wanted if held.get(t) != epoch]
        if refused:
            # The process lost what it believes it holds: let those tables go (a stale writer only stops itself).
            lost = [t for t, epoch in refused if self.epochs.get(t) == epoch]
            if lost and self.loop is not None:
                self.loop.call_soon_threadsafe(self._spawn, self._lose(lost))
            raise LeaseLost(sorted({t for t, _ in refused}))

    async def _lose(self, table_ids: Sequence[str]) -> None:
        """Another process took these tables over: stop their actors here, close their connections (the clients
        reconnect and reach the new owner)."""
        for table_id in table_ids:
            if table_id in self._losing:
                continue
            self._losing.add(table_id)
            try:
                self.epochs.pop(table_id, None)
                actor = self.actors.get(table_id)
                if actor is None:
                    continue
                log.warning("table %s: its lease is another server's now; letting it go", table_id)
                await self._let_table_go(actor)
            finally:
                self._losing.discard(table_id)

    async def _let_table_go(self, actor: TableActor) -> None:
        """Close the table's connections (here and through other processes) and stop its actor."""
        for conn in list(actor.conns):
            conn.send(CLOSE)
        for key, rconn in list(self.remote.items()):
            if rconn.table_id == actor.id:
                del self.remote[key]
        await Manager.release(self, actor)

    async def _renewing(self) -> None:
        """Renew this process's leases four times a lease, on a schedule of their own; when the database does not
        answer, try again every half second (and say so once)."""
        every = self.leases.seconds / 4
        loop = asyncio.get_running_loop()
        while True:
            try:
                before = dict(self.epochs)
                held = await self._renew(loop)
                if not self.database_up:
                    self.database_up = True
                    log.warning("the database answers again")
                lost = [t for t, epoch in before.items() if held.get(t) != epoch and self.epochs.get(t) == epoch]
                if lost:
                    await self._lose(lost)
                # Leases handed to this process whose word ("adopt") did not come: started at the second look.
                unclaimed = {t for t in held if t not in self.epochs and t not in self._losing}
                if unclaimed & self._unclaimed:
                    self._spawn(self._adopt())
                self._unclaimed = unclaimed
                # Tables whose actor stopped when the database did not answer a write: loaded again.
                for table_id in [t for t in held if t in self.epochs and t not in self._losing]:
                    actor = self.actors.get(table_id)
                    if actor is not None and actor.stopped and actor.status != "closed":
                        self._spawn(self._reload(table_id))
                await asyncio.sleep(every)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if self.database_up and unreachable(exc):
                    self.database_up = False
                    log.warning("the database does not answer (%s): the tables wait; their leases are renewed as "
                                "soon as it answers", type(exc).__name__)
                elif not unreachable(exc):
                    self._failed("renewing the leases", exc)
                await asyncio.sleep(0.5)

    async def _renew(self, loop: asyncio.AbstractEventLoop) -> dict[str, int]:
        """:meth:`Leases.renew` in the leases' thread, waited for :data:`~brisca.server.db.CALL_TIMEOUT` seconds at
        most: a thread stuck on a connection that does not answer is left to finish alone, a fresh one renews."""
        running = loop.run_in_executor(self._lease_thread, self.leases.renew)
        done, _ = await asyncio.wait({running}, timeout=CALL_TIMEOUT)
        if not done:
            self._lease_thread.shutdown(wait=False)
            self._lease_thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="brisca-leases")
            running.add_done_callback(lambda f: f.cancelled() or f.exception())
            raise DatabaseStalled(f"the leases were not renewed within {CALL_TIMEOUT:g} s")
        held: dict[str, int] = running.result()
        return held

    async def _reload(self, table_id: str) -> None:
        with contextlib.suppress(Exception):
            await self.locate(table_id)

    async def _take_orphans(self) -> None:
        """Take over the tables nobody runs: their lease ended, their owner is dead, or they have none."""
        taken = await self._db(self.leases.take_orphans, sorted(self.dead))
        if taken:
            await self._start_taken(taken, "took over %d tables")

    async def _adopt(self) -> None:
        """Start the tables another process handed to this one."""
        held = await self._db(self.leases.mine)
        fresh = {t: e for t, e in held.items() if t not in self.epochs and t not in self._losing}
        if fresh:
            await self._start_taken(fresh, "was handed %d tables")

    async def _start_taken(self, taken: dict[str, int], said: str) -> None:
        # A table a client asked for meanwhile may already be here at a newer epoch (locate): that one stays.
        fresh = {t: epoch for t, epoch in taken.items() if self.epochs.get(t, -1) < epoch}
        if not fresh:
            return
        for table_id in fresh:  # an actor of an earlier lease of this process, lost meanwhile: rebuilt
            old = self.actors.get(table_id)
            if old is not None:
                for conn in list(old.conns):
                    conn.send(CLOSE)
                await Manager.release(self, old)
        self.epochs.update(fresh)
        states = await self._db(lambda: [(t, self.store.load(t)) for t in fresh])
        gone, started = [], 0
        for table_id, state in states:
            if self.epochs.get(table_id) != fresh[table_id] or table_id in self.actors:
                continue  # taken again meanwhile (by locate, at a newer epoch)
            if state is None or state.status not in OPEN:
                gone.append(table_id)
                self.epochs.pop(table_id, None)
                continue
            try:
                actor = self._actor(state)
            except Exception:
                log.exception("table %s could not be taken over", table_id)
                continue
            self.actors[table_id] = actor
            actor.start()
            started += 1
        if gone:
            await self._db(self.leases.release, gone)
        if started:
            log.info(said, started)

    # -------------------------------------------------------------- the other processes

    async def _watch(self) -> None:
        """Every 0.5 s: which processes are gone (and their tables taken over at once); every 2 s: the tables whose
        lease ended, and whether the tables are spread evenly."""
        tick = 0
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), WATCH_EVERY)
            self._wake.clear()
            tick += 1
            now = asyncio.get_running_loop().time()
            for route in self._forwarding():
                route.unanswered(now)
            slow = tick % SLOW_LOOK_EVERY == 0
            looks: list[tuple[str, Awaitable[None]]] = [("the look at the other processes",
                                                         self._check_processes(slow))]
            if slow or self.dead:
                looks.append(("the look for tables without an owner", self._take_orphans()))
            if slow:
                looks.append(("the look at how the tables are spread", self._spread()))
            for what, look in looks:
                try:
                    await look
                except asyncio.CancelledError:
                    raise
                except Exception as exc:
                    self._failed(what, exc)

    async def _check_processes(self, slow: bool = True) -> None:
        """Which processes are gone (nobody reads their channel, for DEAD_GRACE seconds, while Redis was up all
        along): let go of what depended on them (``slow``: the forwarded connections of tables another process took
        over, too)."""
        owners = await self._db(self.leases.owners)
        nodes = set(owners) | {r.node for r in self._forwarding()} | {n for n, _ in self.remote}
        counts = await self.bus.listeners(sorted(nodes))
        if counts is None or counts.get(self.node, 0) == 0:
            self._missing.clear()  # Redis cannot tell, or this process is not subscribed itself: judge nobody
            return
        now = asyncio.get_running_loop().time()
        for node in nodes:
            if counts.get(node, 0):
                self._missing.pop(node, None)
            else:
                self._missing.setdefault(node, now)
        for node in [n for n in self._missing if n not in nodes]:
            del self._missing[node]
        dead = {n for n, since in self._missing.items() if now - since >= DEAD_GRACE}
        for node in dead - self.dead:
            log.warning("process %s is gone (its channel unread for %g s): its tables are taken over", node,
                        DEAD_GRACE)
            self._forget(node)
        self.dead = dead
        for table_id, route in list(self.routes.items()):
            if not route.keys:  # only a cache: a connection about to say hello keeps its route (in self.local)
                del self.routes[table_id]
        # A process that hangs keeps its channel, but its leases end and other processes take its tables: the
        # connections forwarded to it start over with the new owner.
        routes = self._forwarding()
        if not slow or not routes:
            return
        holders = await self._db(self._holders, sorted({r.id for r in routes}))
        for route in routes:
            if holders.get(route.id, route.node) != route.node:
                self._let_go(route)

    async def _spread(self) -> None:
        """Hand tables to the process running the fewest while this one runs more than its share and two more than
        that one (seen at two looks running): after an outage, a takeover or a restart, the tables spread again."""
        nodes = await self.bus.nodes()
        if nodes is None or self.node not in nodes or len(nodes) < 2 or not self.database_up:
            self._uneven = 0
            return
        counts = await self._db(self.leases.counts)
        live = {n: counts.get(n, 0) for n in nodes}
        mine = live[self.node]
        fair = math.ceil(sum(live.values()) / len(live))
        if mine <= fair or mine - min(live.values()) < 2:
            self._uneven = 0
            return
        self._uneven += 1
        if self._uneven < 2:
            return
        self._uneven = 0
        running = sorted((a for a in self.actors.values() if not a.stopped and a.status in OPEN
                          and a.id in self.epochs and a.id not in self._losing), key=lambda a: len(a.conns))
        for actor in running[:min(mine - fair, SPREAD_AT_ONCE)]:
            target = min(live, key=lambda n: live[n])
            if live[self.node] - live[target] < 2:
                break
            if await self._hand_over(actor, target):
                live[target] += 1
                live[self.node] -= 1

    async def _hand_over(self, actor: TableActor, target: str) -> bool:
        """Give a table to another process: its actor stopped here first (its connections closed: the clients
        reconnect, to any process), then its lease given, and the process told to start it."""
        table_id = actor.id
        epoch = self.epochs.get(table_id)
        if epoch is None:
            return False
        self._losing.add(table_id)
        try:
            await self._let_table_go(actor)
            self.epochs.pop(table_id, None)
            given = await self._db(self.leases.hand_over, table_id, epoch, target)
        finally:
            self._losing.discard(table_id)
        if given:
            self.bus.send(target, {"op": "adopt"})
            log.info("table %s handed to %s (this process ran more than its share)", table_id, target)
        return bool(given)

    def _forwarding(self) -> list[RemoteTable]:
        """The routes to other processes' tables in use: those of this process's connections, and those cached."""
        found = {id(route): route for _, route in self.local.values()}
        found.update((id(route), route) for route in self.routes.values())
        return list(found.values())

    def _let_go(self, route: RemoteTable) -> None:
        route.let_go()
        if self.routes.get(route.id) is route:
            del self.routes[route.id]

    def _forget(self, node: str) -> None:
        """A process is gone or stopping, or a message to it was lost: close the connections forwarded to it, drop
        those it forwarded here (it closes them on its side)."""
        for route in self._forwarding():
            if route.node == node:
                self._let_go(route)
        for key, rconn in list(self.remote.items()):
            if rconn.node == node:
                del self.remote[key]
                actor = self.actors.get(rconn.table_id)
                if actor is not None:
                    actor.submit(Leave(rconn))

    def _unreachable(self, node: str) -> None:
        """A message to ``node`` found no reader: look at the processes now rather than at the next tick."""
        self._wake.set()

    def _through_redis_lost(self) -> None:
        """Messages to or from this process may have been lost: every connection that went through Redis starts
        over (its client reconnects and catches up), and the processes they went to or came from are told to start
        theirs over too (when Redis is up: Redis may have cut this process's subscription alone)."""
        peers = {r.node for r in self._forwarding()} | {n for n, _ in self.remote}
        for route in self._forwarding():
            route.let_go()
        self.routes.clear()
        for key, rconn in list(self.remote.items()):
            del self.remote[key]
            rconn.send(CLOSE)
            actor = self.actors.get(rconn.table_id)
            if actor is not None:
                actor.submit(Leave(rconn))
        for future in self._requests.values():
            if not future.done():
                future.set_exception(TableError("unavailable", "the server running this table cannot be reached"))
        for node in peers:
            self.bus.send(node, {"op": "reset"})

    def _missed_from(self, node: str) -> None:
        """Messages from ``node`` were lost on the way: the connections between the two processes start over, on
        both sides (their clients reconnect and catch up)."""
        self._forget(node)
        self.bus.send(node, {"op": "reset"})

    def _bus_changed(self, up: bool) -> None:
        self._missing.clear()
        self.refused.clear()
        if not up:
            self._through_redis_lost()
            return
        held, self.held = self.held, {}
        for conn in held:
            conn.send(CLOSE)

    def let_held_go(self, conn: Connection) -> None:
        """A connection held while the bus is down has waited its time: closed (its page reconnects)."""
        if self.held.pop(conn, None) is not None:
            conn.send(CLOSE)

    def presence_unknown(self) -> bool:
        """Whether a person's page may be connected to another process without this one hearing of it: the bus
        is down, or came up less than :data:`PRESENCE_GRACE` seconds ago (the pages held elsewhere reconnecting).
        No stand-in takes a seat meanwhile."""
        loop = self.loop
        return not self.bus.up or (loop is not None and loop.time() - self.bus.up_since < PRESENCE_GRACE)

    # -------------------------------------------------------------- messages

    def _receive(self, sender: str, ops: list[Message], texts: list[str]) -> None:
        for op in ops:
            kind = op.get("op")
            if kind == "d":
                for key, index in op["items"]:
                    entry = self.local.get(key)
                    if entry is None:
                        continue
                    conn, route = entry
                    route.asked.pop(key, None)
                    if index < 0:  # closed by the table (closed for good, or the client too slow): forgotten
                        route.drop(conn, key)
                        conn.send(CLOSE)
                        self.bus.send(sender, {"op": "leave", "t": route.id, "c": key})
                    else:
                        conn.send(texts[index])
            elif kind in ("hello", "act", "chat", "ping", "leave", "seat"):
                self._table_op(sender, op)
            elif kind == "moved":
                entry = self.local.get(int(op["c"]))
                if entry is not None:
                    entry[1].drop(entry[0], int(op["c"]))
                    entry[0].send(CLOSE)
                    if entry[1].node == sender:  # the route's other connections start over too
                        self._let_go(entry[1])
                moved = self.routes.get(str(op["t"]))
                if moved is not None and moved.node == sender:
                    self._let_go(moved)
            elif kind == "req":
                self._spawn(self._answer(sender, op))
            elif kind == "rep":
                future = self._requests.pop(str(op.get("rid")), None)
                if future is not None and not future.done():
                    future.set_result(op)
            elif kind in ("bye", "reset"):
                self._forget(sender)
            elif kind == "adopt":
                self._spawn(self._adopt())

    def _table_op(self, sender: str, op: Message) -> None:
        """A command of another process's connection to a table of this one."""
        key = (sender, int(op["c"]))
        kind = op["op"]
        if kind == "leave":
            gone = self.remote.pop(key, None)
            actor = None if gone is None else self.actors.get(gone.table_id)
            if gone is not None and actor is not None:
                actor.submit(Leave(gone))
            return
        table_id = str(op["t"])
        actor = self.actors.get(table_id)
        if actor is None or actor.stopped or table_id not in self.epochs:
            if table_id in self.epochs and table_id not in self._losing:  # stopped by the database: loaded again
                self._spawn(self._reload(table_id))
            self.remote.pop(key, None)
            self.bus.send(sender, {"op": "moved", "t": table_id, "c": op["c"]})
            return
        rconn = self.remote.get(key)
        if rconn is None:
            rconn = self.remote[key] = RemoteConnection(node=sender, key=key[1], table_id=table_id, bus=self.bus)
        if kind == "hello":
            actor.submit(Hello(rconn, op.get("token"), op.get("last"), op.get("address")))
        elif kind == "act":
            actor.submit(Act(rconn, op.get("action"), op.get("id")))
        elif kind == "chat":
            actor.submit(Chat(rconn, str(op.get("text")), op.get("id")))
        elif kind == "seat" and op.get("what") in SEAT_COMMANDS:
            actor.submit(SeatCommand(rconn, str(op.get("what")), op.get("id")))
        else:
            actor.submit(Ping(rconn, op.get("id")))

    async def _answer(self, sender: str, op: Message) -> None:
        """Answer another process's request: a join, a table's state, the lobby's tables."""
        reply: Message = {"op": "rep", "rid": op.get("rid")}
        try:
            kind = op.get("kind")
            # An actor stopped by the database (loaded again when next asked for) still shows what was committed.
            if kind == "describe":
                # A table stopped here by a write the database did not take is described as it stood: a read
                # during an outage gets the table, not an error.
                reply["tables"] = {t: a.table_json() for t in op.get("ids", [])
                                   if (a := self.actors.get(t)) is not None and (t in self.epochs or a.stopped)}
            else:
                actor = self.actors.get(str(op.get("t")))
                if actor is None or actor.id not in self.epochs or (actor.stopped and kind != "table"):
                    reply["error"] = "moved"
                elif kind == "join":
                    seat, token = await actor.join(str(op["name"]), op.get("seat"), op.get("user_id"),
                                                   op.get("account"), op.get("address"))
                    reply |= {"seat": seat, "token": token}
                elif kind == "table":
                    reply["table"] = actor.table_json()
                elif kind == "cancel":
                    await actor.cancel(str(op.get("owner")))
                elif kind == "hint":
                    reply |= await actor.hint(str(op.get("token")))
                else:
                    reply |= {"error": "malformed", "message": f"unknown request {kind!r}"}
        except TableError as exc:
            reply |= {"error": exc.code, "message": exc.message}
        except Exception as exc:
            log.exception("a request from %s failed", sender)
            reply |= {"error": "internal", "message": f"internal error: {type(exc).__name__}"}
        self.bus.send(sender, reply)

    async def _request(self, node: str, body: Message, timeout: float = REQUEST_TIMEOUT) -> Message:
        if not self.bus.up:
            raise TableError("unavailable", "the server running this table cannot be reached from here; try again")
        rid = secrets.token_hex(8)
        future: asyncio.Future[Message] = asyncio.get_running_loop().create_future()
        self._requests[rid] = future
        self.bus.send(node, {"op": "req", "rid": rid, **body})
        try:
            return await asyncio.wait_for(future, timeout)
        except TimeoutError:
            raise TableError("unavailable", "the server running this table did not answer; try again") from None
        finally:
            self._requests.pop(rid, None)

    async def ask(self, route: RemoteTable, body: Message,
                  here: Callable[[TableActor], Any], timeout: float = REQUEST_TIMEOUT) -> Message:
        """A request about a table of another process; if the table moved here meanwhile, ``here(actor)``."""
        for _ in range(3):
            answer = await self._request(route.node, {**body, "t": route.id}, timeout)
            error = answer.get("error")
            if error is None:
                return answer
            if error != "moved":
                raise TableError(str(error), str(answer.get("message", "")))
            if self.routes.get(route.id) is route:
                del self.routes[route.id]
            route.let_go()
            try:
                target = await self.locate(route.id)
            except Exception as exc:
                if not unreachable(exc):
                    raise
                raise TableError("unavailable", "the database does not answer: try again in a moment") from None
            if target is None:
                raise TableError("not_found", "no such table")
            if not isinstance(target, RemoteTable):
                result: Message = await here(target)
                return result
            route = target
        raise TableError("unavailable", "the table is moving between servers; try again")

    async def stop(self) -> None:
        """Let the tables go: their actors stop, their leases are given up (another process takes them at once),
        and the processes forwarding to this one are told."""
        for task in (self._watcher, self._renewer):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        routes = self._forwarding()
        for route in routes:
            route.let_go()
        await super().stop()
        held = list(self.epochs)
        self.epochs.clear()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(asyncio.to_thread(self.leases.release, held), 5.0)
        for node in {n for n, _ in self.remote} | {r.node for r in routes}:
            self.bus.send(node, {"op": "bye"})
        self.routes.clear()
        self.remote.clear()
        await self.bus.close()
        self._lease_thread.shutdown(wait=False)
        self.lease_engine.dispose()


async def start_cluster(manager: Manager, redis_url: str, lease_seconds: float = LEASE_SECONDS) -> ClusterManager:
    """This process joining the cluster: a :class:`ClusterManager` with the settings of ``manager``, connected
    to Redis, and looking after its leases and the other processes."""
    cluster = ClusterManager(manager, redis_url, lease_seconds)
    await cluster.start()
    return cluster
