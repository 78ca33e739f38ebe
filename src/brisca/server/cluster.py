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
  subscriber (``PUBSUB NUMSUB``), close the connections they forwarded to it (the clients reconnect, to any
  process, with their last event number), and take its tables over from the database (``FOR UPDATE SKIP
  LOCKED``: each table to one of them). A process that hangs keeps its channel but stops renewing its leases:
  its tables are taken over when their leases end (``lease_seconds``).

Redis keeps nothing here: losing it stops the forwarding (the processes' own connections go on), never a move.
The database is the only source of truth, as for one process.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
import socket
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql

from brisca.server.db import LeaseRow
from brisca.server.manager import TABLE_ID, Manager
from brisca.server.store import TableState
from brisca.server.table import (
    CLOSE,
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
#: Tables taken over at most in one look (the other processes take the rest).
TAKE_AT_ONCE = 64
#: The writes of :class:`~brisca.server.store.Store` that change a table (their first argument is its id).
TABLE_WRITES = frozenset({"set_version", "write_join", "write_close", "write_hand", "write_action", "write_finish"})

LEASES = cast(sa.Table, LeaseRow.__table__)
_TABLES = sa.table("brisca_tables", sa.column("id"), sa.column("status"), sa.column("owner"))
_SEATS = sa.table("brisca_seats", sa.column("table_id"), sa.column("bot"))
_DEAD = sa.bindparam("dead", type_=postgresql.ARRAY(sa.String), value=[])


class LeaseLost(TableError):
    """This process no longer holds the table's lease: another runs it now."""

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


# ------------------------------------------------------------------------------------------------ leases


class Leases:
    """The lease rows (synchronous: run off the event loop or, as :meth:`fence`, in the store's writer).

    Times are the database's (``now()``), so the machines' clocks do not matter.
    """

    def __init__(self, engine: sa.Engine, node: str, seconds: float) -> None:
        self.engine, self.node, self.seconds = engine, node, seconds

    def _params(self, **more: Any) -> dict[str, Any]:
        return {"me": self.node, "ttl": f"{self.seconds} seconds", **more}

    def acquire(self, table_id: str, dead: Sequence[str] = ()) -> int | None:
        """Take the table's lease if it is free, ended, held by a dead process or by this one: its new epoch."""
        query = sa.text(
            "INSERT INTO brisca_leases (table_id, owner, epoch, expires_at)"
            " VALUES (:t, :me, 1, now() + CAST(:ttl AS interval))"
            " ON CONFLICT (table_id) DO UPDATE SET owner = :me, epoch = brisca_leases.epoch + 1,"
            " expires_at = now() + CAST(:ttl AS interval)"
            " WHERE brisca_leases.expires_at < now() OR brisca_leases.owner = ANY(:dead)"
            " OR brisca_leases.owner = :me RETURNING epoch").bindparams(_DEAD)
        with self.engine.begin() as c:
            epoch = c.execute(query, self._params(t=table_id, dead=list(dead))).scalar()
        return None if epoch is None else int(epoch)

    def holder(self, table_id: str) -> tuple[str, bool] | None:
        """Who holds the table's lease, and whether it is still running (``None``: nobody)."""
        query = sa.select(LEASES.c.owner, LEASES.c.expires_at > sa.func.now()).where(LEASES.c.table_id == table_id)
        with self.engine.connect() as c:
            row = c.execute(query).first()
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
            return [str(o) for o in c.execute(sa.select(LEASES.c.owner).distinct().where(LEASES.c.owner != self.node))
                    .scalars()]

    def take_orphans(self, dead: Sequence[str], limit: int = TAKE_AT_ONCE) -> dict[str, int]:
        """Take over open tables whose lease ended or whose holder is dead, and open tables with no lease (from
        a single-process server, or a process killed between creating a table and leasing it). Locked rows are
        skipped: processes taking over at once share the tables out. ``table -> epoch``."""
        taken = sa.text(
            "UPDATE brisca_leases SET owner = :me, epoch = epoch + 1, expires_at = now() + CAST(:ttl AS interval)"
            " WHERE table_id IN (SELECT l.table_id FROM brisca_leases l JOIN brisca_tables t ON t.id = l.table_id"
            "  WHERE t.status IN ('waiting', 'playing') AND (l.expires_at < now() OR l.owner = ANY(:dead))"
            "  ORDER BY random() LIMIT :n FOR UPDATE OF l SKIP LOCKED)"
            " RETURNING table_id, epoch").bindparams(_DEAD)
        leaseless = sa.text(
            "INSERT INTO brisca_leases (table_id, owner, epoch, expires_at)"
            " SELECT t.id, :me, 1, now() + CAST(:ttl AS interval) FROM brisca_tables t"
            " WHERE t.status IN ('waiting', 'playing')"
            " AND NOT EXISTS (SELECT 1 FROM brisca_leases l WHERE l.table_id = t.id) ORDER BY random() LIMIT :n"
            " ON CONFLICT (table_id) DO NOTHING RETURNING table_id, epoch")
        # Leases of finished or closed tables whose holder is gone: nobody needs to run those.
        stale = sa.text(
            "DELETE FROM brisca_leases l USING brisca_tables t WHERE t.id = l.table_id"
            " AND t.status NOT IN ('waiting', 'playing') AND (l.expires_at < now() OR l.owner = ANY(:dead))"
        ).bindparams(_DEAD)
        with self.engine.begin() as c:
            out = {str(t): int(e) for t, e in c.execute(taken, self._params(dead=list(dead), n=limit))}
            if len(out) < limit:
                out |= {str(t): int(e) for t, e in c.execute(leaseless, self._params(n=limit - len(out)))}
            c.execute(stale, {"dead": list(dead)})
        return out

    def fence(self, c: sa.Connection, epochs: dict[str, int]) -> list[str]:
        """In a write's transaction: lock the leases of these tables (``table -> epoch`` this process holds) for
        share, so that no other process takes one over before the commit; the tables whose lease is no longer
        this process's at that epoch."""
        query = (sa.select(LEASES.c.table_id, LEASES.c.epoch)
                 .where(LEASES.c.owner == self.node, LEASES.c.table_id.in_(sorted(epochs)))
                 .order_by(LEASES.c.table_id).with_for_update(read=True))
        held = {str(t): int(e) for t, e in c.execute(query)}
        return [t for t, epoch in epochs.items() if held.get(t) != epoch]

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


def channel(node: str) -> str:
    """A process's Redis channel: everything sent to it."""
    return f"brisca:node:{node}"


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
    """

    def __init__(self, url: str, node: str, handle: Callable[[str, list[Message], list[str]], None],
                 unreachable: Callable[[str], None]) -> None:
        self.url, self.node, self.handle, self.unreachable = url, node, handle, unreachable
        self.redis: Redis | None = None
        self.pubsub: PubSub | None = None
        self._pending: dict[str, _Outgoing] = {}
        self._flush_planned = False
        self._queue: asyncio.Queue[list[tuple[str, str, bytes]]] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        #: Called when this process's subscription was lost and made again (messages may have been missed).
        self.resubscribed: Callable[[], None] = lambda: None
        self.subscribed = asyncio.Event()

    async def start(self) -> None:
        from redis.asyncio import Redis

        self.redis = Redis.from_url(self.url, health_check_interval=0, socket_connect_timeout=5)
        await self.redis.ping()
        await self._subscribe()
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._reader(), name="bus-reader"),
                       loop.create_task(self._writer(), name="bus-writer")]

    async def _subscribe(self) -> None:
        assert self.redis is not None
        if self.pubsub is not None:
            with contextlib.suppress(Exception):
                await cast(Any, self.pubsub).aclose()  # untyped in redis-py
        self.pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        await self.pubsub.subscribe(channel(self.node))
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
            payload = "\n".join([json.dumps({"from": self.node, "ops": out.ops}, ensure_ascii=False), *out.texts])
            batch.append((node, channel(node), payload.encode("utf-8", "surrogatepass")))
        self._queue.put_nowait(batch)

    async def _writer(self) -> None:
        """Publish in order: one task, one pipeline at a time (a second connection could overtake the first)."""
        assert self.redis is not None
        while True:
            batch = await self._queue.get()
            self._busy = True
            try:
                while not self._queue.empty():
                    batch.extend(self._queue.get_nowait())
                async with self.redis.pipeline(transaction=False) as pipe:
                    for _, name, payload in batch:
                        pipe.publish(name, payload)
                    counts = await pipe.execute()
                for (node, _, _), count in zip(batch, counts, strict=True):
                    if count == 0:  # nobody reads that channel: the process is gone
                        self.unreachable(node)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("could not publish %d messages to Redis", len(batch))
                await asyncio.sleep(0.2)
            finally:
                self._busy = False

    # -------------------------------------------------------------- receiving

    async def _reader(self) -> None:
        while True:
            try:
                assert self.pubsub is not None
                message = await self.pubsub.get_message(timeout=1.0)
                if message is None or message.get("type") != "message":
                    continue
                self._read(message["data"])
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("lost the Redis subscription; subscribing again")
                self.subscribed.clear()
                await asyncio.sleep(0.2)
                with contextlib.suppress(Exception):
                    await self._subscribe()
                    self.resubscribed()

    def _read(self, data: bytes) -> None:
        text = data.decode("utf-8", "surrogatepass")
        head, _, rest = text.partition("\n")
        header = json.loads(head)
        texts = rest.split("\n") if rest else []
        try:
            self.handle(str(header["from"]), header["ops"], texts)
        except Exception:
            log.exception("a message from %s could not be handled", header.get("from"))

    # -------------------------------------------------------------- the other processes

    async def listeners(self, nodes: Sequence[str]) -> dict[str, int] | None:
        """How many connections read each process's channel (0: it is gone), with this process's own (``None``
        when Redis cannot say)."""
        if self.redis is None:
            return None
        names = [channel(n) for n in {self.node, *nodes}]
        try:
            counts = await self.redis.pubsub_numsub(*names)
        except Exception:
            return None
        found = {(k.decode() if isinstance(k, bytes) else str(k)): int(v) for k, v in counts}
        return {n: found.get(channel(n), 0) for n in {self.node, *nodes}}

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

    def submit(self, command: Command) -> None:
        cluster = self.cluster
        if not isinstance(command, Hello | Act | Chat | Ping | Leave | SeatCommand):
            return
        conn = command.conn
        if isinstance(command, Leave):
            key = self.keys.pop(conn, None)
            if key is not None:
                cluster.local.pop(key, None)
                cluster.bus.send(self.node, {"op": "leave", "t": self.id, "c": key})
            return
        if self._stopped:  # the owner is gone: the connection is being closed, the client comes back
            return
        key = self.keys.get(conn)
        if key is None:
            key = self.keys[conn] = cluster.new_key()
            cluster.local[key] = (conn, self)
        op: Message = {"t": self.id, "c": key}
        if isinstance(command, Hello):
            op |= {"op": "hello", "token": command.token, "last": command.last}
        elif isinstance(command, Act):
            op |= {"op": "act", "action": command.action, "id": command.id}
        elif isinstance(command, Chat):
            op |= {"op": "chat", "text": command.text, "id": command.id}
        elif isinstance(command, SeatCommand):
            op |= {"op": "seat", "what": command.what, "id": command.id}
        else:
            op |= {"op": "ping", "id": command.id}
        cluster.bus.send(self.node, op)

    async def stop(self) -> None:
        self._stopped = True

    def let_go(self) -> None:
        """The owner is gone or gave the table up: close this process's connections to it (they reconnect)."""
        self._stopped = True
        for conn, key in list(self.keys.items()):
            self.cluster.local.pop(key, None)
            conn.send(CLOSE)
        self.keys.clear()

    async def join(self, name: str, seat: int | None, user_id: int | None = None,
                   account: str | None = None) -> tuple[int, str]:
        async def here(actor: TableActor) -> Message:
            seat_taken, token = await actor.join(name, seat, user_id, account)
            return {"seat": seat_taken, "token": token}

        answer = await self.cluster.ask(self, {"kind": "join", "name": name, "seat": seat, "user_id": user_id,
                                               "account": account}, here)
        return int(answer["seat"]), str(answer["token"])

    async def cancel(self, owner: str) -> None:
        async def here(actor: TableActor) -> Message:
            await actor.cancel(owner)
            return {}

        await self.cluster.ask(self, {"kind": "cancel", "owner": owner}, here)

    async def info(self) -> Message:
        """The table as everyone sees it (:meth:`TableActor.table_json`), from its owner."""
        async def here(actor: TableActor) -> Message:
            return {"table": actor.table_json()}

        answer = await self.cluster.ask(self, {"kind": "table"}, here)
        table: Message = answer["table"]
        return table


# ------------------------------------------------------------------------------------------------ the manager


class ClusterManager(Manager):
    """This process's tables in a cluster: those whose lease it holds run here (their actors); the others are
    reached through their owner (:class:`RemoteTable`). Made from the process's :class:`Manager`, whose settings
    it keeps (:func:`start_cluster`)."""

    def __init__(self, manager: Manager, redis_url: str, lease_seconds: float = LEASE_SECONDS) -> None:
        if manager.store.engine.dialect.name != "postgresql":
            raise ValueError("several processes share one PostgreSQL database (--db postgresql://...), not "
                             f"{manager.store.engine.dialect.name}")
        # The settings of the process's manager (its store, limits, takeover and the like), whatever they are.
        self.__dict__.update(manager.__dict__)
        self.node = node_name()
        self.leases = Leases(self.store.engine, self.node, lease_seconds)
        self.bus = Bus(redis_url, self.node, self._receive, self._unreachable)
        self.bus.resubscribed = self._resubscribed
        #: The leases this process holds: table -> epoch (read by the store's writer thread, in the fence).
        self.epochs: dict[str, int] = {}
        #: Tables of other processes that this process's connections use.
        self.routes: dict[str, RemoteTable] = {}
        #: Connections of other processes to this process's tables: (process, key) -> connection.
        self.remote: dict[tuple[str, int], RemoteConnection] = {}
        #: This process's connections to other processes' tables: key -> (connection, route).
        self.local: dict[int, tuple[Connection, RemoteTable]] = {}
        #: Processes whose channel nobody read at the last look.
        self.dead: set[str] = set()
        self._keys = 0
        self._requests: dict[str, asyncio.Future[Message]] = {}
        self._wake = asyncio.Event()
        self._watcher: asyncio.Task[None] | None = None
        self._background: set[asyncio.Task[Any]] = set()
        self._losing: set[str] = set()
        self.loop: asyncio.AbstractEventLoop | None = None
        self.store.fence = self._fence

    async def start(self) -> None:
        self.loop = asyncio.get_running_loop()
        await self.bus.start()
        await self._take_orphans()
        self._watcher = self.loop.create_task(self._watch(), name="cluster-watch")

    def resume(self) -> None:
        """Nothing to load at once: the tables left without an owner are taken over as the cluster is watched."""

    def new_key(self) -> int:
        self._keys += 1
        return self._keys

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    # -------------------------------------------------------------- where a table runs

    def route(self, table_id: str) -> TableActor | None:
        """The table's actor here, or a :class:`RemoteTable` that forwards to its owner; ``None``: no such table,
        or closed. A table nobody runs (its owner gone) is taken over here."""
        if not TABLE_ID.match(table_id):
            return None
        actor = self.actors.get(table_id)
        if actor is not None and not actor.stopped:
            return None if actor.status == "closed" else actor
        remote = self.routes.get(table_id)
        if remote is not None and not remote.stopped and remote.node not in self.dead:
            return remote
        for _ in range(3):
            holder = self.leases.holder(table_id)
            if holder is not None and holder[0] != self.node and holder[1] and holder[0] not in self.dead:
                route = self.routes[table_id] = RemoteTable(self, table_id, holder[0])
                return route
            status = self.store.status(table_id)
            if status is None or status == "closed":
                return None
            epoch = self.leases.acquire(table_id, sorted(self.dead))
            if epoch is None:
                continue  # taken by another process meanwhile: forward to it
            self.epochs[table_id] = epoch
            actor = Manager.get(self, table_id)
            if actor is None:
                self.epochs.pop(table_id, None)
                self.leases.release([table_id])
            return actor
        return None

    def get(self, table_id: str) -> TableActor | None:
        """The table's actor in this process (taking the table over if nobody runs it); ``None`` otherwise."""
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
        return super()._actor(state)

    async def release(self, actor: TableActor) -> None:
        await super().release(actor)
        for key, rconn in list(self.remote.items()):
            if rconn.table_id == actor.id:
                del self.remote[key]
        if self.epochs.pop(actor.id, None) is not None:
            await asyncio.to_thread(self.leases.release, [actor.id])

    def open_counts(self, owner: str) -> tuple[int, int, int]:
        """The caps on open tables count the whole site's tables (the database), not this process's."""
        return self.leases.open_tables(owner)

    async def table_info(self, actor: TableActor) -> Message:
        if isinstance(actor, RemoteTable):
            return await actor.info()
        return await super().table_info(actor)

    async def describe(self, table_ids: Sequence[str]) -> dict[str, Message]:
        """The tables of other processes, as everyone sees them: asked of their owners (those that answer)."""
        holders = await asyncio.to_thread(self._holders, list(table_ids))
        by_node: dict[str, list[str]] = {}
        for table_id, owner in holders.items():
            if owner != self.node and owner not in self.dead:
                by_node.setdefault(owner, []).append(table_id)
        answers = await asyncio.gather(*(self._request(node, {"kind": "describe", "ids": ids}, timeout=1.0)
                                         for node, ids in by_node.items()), return_exceptions=True)
        out: dict[str, Message] = {}
        for answer in answers:
            if isinstance(answer, dict):
                out |= answer.get("tables") or {}
        return out

    def _holders(self, table_ids: list[str]) -> dict[str, str]:
        if not table_ids:
            return {}
        query = sa.select(LEASES.c.table_id, LEASES.c.owner).where(LEASES.c.table_id.in_(table_ids),
                                                                    LEASES.c.expires_at > sa.func.now())
        with self.store.engine.connect() as c:
            return {str(t): str(o) for t, o in c.execute(query)}

    async def health(self) -> Message:
        report = await super().health()
        redis = await self.bus.ping()
        report |= {"ok": bool(report["database"]) and redis, "node": self.node, "redis": redis,
                   "leases": len(self.epochs), "forwarded_connections": len(self.local),
                   "connections_from_other_processes": len(self.remote)}
        return report

    # -------------------------------------------------------------- leases

    def _fence(self, c: sa.Connection, batch: Sequence[tuple[Callable[..., None], tuple[Any, ...]]]) -> None:
        """The store's check before a batch commits: every table it writes is still this process's."""
        tables = {args[0] for fn, args in batch if getattr(fn, "__name__", "") in TABLE_WRITES and args}
        if not tables:
            return
        lost = self.leases.fence(c, {t: self.epochs.get(t, -1) for t in tables})
        if lost:
            if self.loop is not None:
                self.loop.call_soon_threadsafe(self._spawn, self._lose(lost))
            raise LeaseLost(lost)

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
                for conn in list(actor.conns):
                    conn.send(CLOSE)
                for key, rconn in list(self.remote.items()):
                    if rconn.table_id == table_id:
                        del self.remote[key]
                await Manager.release(self, actor)
            finally:
                self._losing.discard(table_id)

    async def _renew(self) -> None:
        before = dict(self.epochs)
        held = await asyncio.to_thread(self.leases.renew)
        lost = [t for t, epoch in before.items() if held.get(t) != epoch and self.epochs.get(t) == epoch]
        if lost:
            await self._lose(lost)

    async def _take_orphans(self) -> None:
        """Take over the tables nobody runs: their lease ended, their owner is dead, or they have none."""
        taken = await asyncio.to_thread(self.leases.take_orphans, sorted(self.dead))
        # A table a client asked for meanwhile may already be here at a newer epoch (route): that one stays.
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
        states = await asyncio.to_thread(lambda: [(t, self.store.load(t)) for t in fresh])
        gone, started = [], 0
        for table_id, state in states:
            if self.epochs.get(table_id) != fresh[table_id] or table_id in self.actors:
                continue  # taken again meanwhile (by route, at a newer epoch)
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
            await asyncio.to_thread(self.leases.release, gone)
        log.info("took over %d tables", started)

    # -------------------------------------------------------------- the other processes

    async def _watch(self) -> None:
        """Every 0.5 s: which processes are gone (and their tables taken over at once); every 2 s: the tables whose
        lease ended; four times a lease: this process's leases renewed."""
        tick = 0
        renew_every = max(1, round(self.leases.seconds / 4 / WATCH_EVERY))
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), WATCH_EVERY)
            self._wake.clear()
            tick += 1
            try:
                slow = tick % SLOW_LOOK_EVERY == 0
                await self._check_processes(slow)
                if tick % renew_every == 0:
                    await self._renew()
                if slow or self.dead:
                    await self._take_orphans()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the look after the cluster failed")

    async def _check_processes(self, slow: bool = True) -> None:
        """Which processes are gone (nobody reads their channel): let go of what depended on them (``slow``: the
        forwarded connections of tables another process took over, too)."""
        owners = await asyncio.to_thread(self.leases.owners)
        nodes = set(owners) | {r.node for r in self._forwarding()} | {n for n, _ in self.remote}
        counts = await self.bus.listeners(sorted(nodes))
        if counts is None or counts.get(self.node, 0) == 0:
            return  # Redis cannot tell, or this process is not subscribed itself: judge nobody
        self.dead = {n for n in nodes if counts.get(n, 0) == 0}
        for node in self.dead:
            self._forget(node)
        for table_id, route in list(self.routes.items()):
            if not route.keys:  # only a cache: a connection about to say hello keeps its route (in self.local)
                del self.routes[table_id]
        # A process that hangs keeps its channel, but its leases end and other processes take its tables: the
        # connections forwarded to it start over with the new owner.
        routes = self._forwarding()
        if not slow or not routes:
            return
        holders = await asyncio.to_thread(self._holders, sorted({r.id for r in routes}))
        for route in routes:
            if holders.get(route.id, route.node) != route.node:
                self._let_go(route)

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
        """A process is gone or stopping: close the connections forwarded to it, drop those it forwarded here."""
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

    def _resubscribed(self) -> None:
        """Messages to this process may have been missed: every connection that went through Redis starts over."""
        for route in self._forwarding():
            route.let_go()
        self.routes.clear()
        for key, rconn in list(self.remote.items()):
            del self.remote[key]
            rconn.send(CLOSE)
            actor = self.actors.get(rconn.table_id)
            if actor is not None:
                actor.submit(Leave(rconn))

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
                    if index < 0:  # closed by the table (closed for good, or the client too slow): forgotten
                        self.local.pop(key, None)
                        route.keys.pop(conn, None)
                        conn.send(CLOSE)
                        self.bus.send(sender, {"op": "leave", "t": route.id, "c": key})
                    else:
                        conn.send(texts[index])
            elif kind in ("hello", "act", "chat", "ping", "leave", "seat"):
                self._table_op(sender, op)
            elif kind == "moved":
                entry = self.local.pop(int(op["c"]), None)
                if entry is not None:
                    entry[1].keys.pop(entry[0], None)
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
            elif kind == "bye":
                self._forget(sender)

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
            self.remote.pop(key, None)
            self.bus.send(sender, {"op": "moved", "t": table_id, "c": op["c"]})
            return
        rconn = self.remote.get(key)
        if rconn is None:
            rconn = self.remote[key] = RemoteConnection(node=sender, key=key[1], table_id=table_id, bus=self.bus)
        if kind == "hello":
            actor.submit(Hello(rconn, op.get("token"), op.get("last")))
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
            if kind == "describe":
                reply["tables"] = {t: a.table_json() for t in op.get("ids", [])
                                   if (a := self.actors.get(t)) is not None and not a.stopped and t in self.epochs}
            else:
                actor = self.actors.get(str(op.get("t")))
                if actor is None or actor.stopped or actor.id not in self.epochs:
                    reply["error"] = "moved"
                elif kind == "join":
                    seat, token = await actor.join(str(op["name"]), op.get("seat"), op.get("user_id"),
                                                   op.get("account"))
                    reply |= {"seat": seat, "token": token}
                elif kind == "table":
                    reply["table"] = actor.table_json()
                elif kind == "cancel":
                    await actor.cancel(str(op.get("owner")))
                else:
                    reply |= {"error": "malformed", "message": f"unknown request {kind!r}"}
        except TableError as exc:
            reply |= {"error": exc.code, "message": exc.message}
        except Exception as exc:
            log.exception("a request from %s failed", sender)
            reply |= {"error": "internal", "message": f"internal error: {type(exc).__name__}"}
        self.bus.send(sender, reply)

    async def _request(self, node: str, body: Message, timeout: float = REQUEST_TIMEOUT) -> Message:
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
                  here: Callable[[TableActor], Any]) -> Message:
        """A request about a table of another process; if the table moved here meanwhile, ``here(actor)``."""
        for _ in range(3):
            answer = await self._request(route.node, {**body, "t": route.id})
            error = answer.get("error")
            if error is None:
                return answer
            if error != "moved":
                raise TableError(str(error), str(answer.get("message", "")))
            if self.routes.get(route.id) is route:
                del self.routes[route.id]
            route.let_go()
            target = self.route(route.id)
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
        if self._watcher is not None:
            self._watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._watcher
        routes = self._forwarding()
        for route in routes:
            route.let_go()
        await super().stop()
        held = list(self.epochs)
        self.epochs.clear()
        with contextlib.suppress(Exception):
            await asyncio.to_thread(self.leases.release, held)
        for node in {n for n, _ in self.remote} | {r.node for r in routes}:
            self.bus.send(node, {"op": "bye"})
        self.routes.clear()
        self.remote.clear()
        await self.bus.close()


async def start_cluster(manager: Manager, redis_url: str, lease_seconds: float = LEASE_SECONDS) -> ClusterManager:
    """This process joining the cluster: a :class:`ClusterManager` with the settings of ``manager``, connected
    to Redis, and looking after its leases and the other processes."""
    cluster = ClusterManager(manager, redis_url, lease_seconds)
    await cluster.start()
    return cluster
