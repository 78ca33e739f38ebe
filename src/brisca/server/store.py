"""The database side of the tables: small synchronous writes, each one committed before a broadcast.

The tables' writes go through :meth:`Store.write`: every write that came in while the previous batch was
being committed goes in the next batch, in one transaction, its rows sent with one ``executemany`` a
statement (a group commit). Each table still waits for its own write to be committed before it
broadcasts, and a batch that fails is tried again one write at a time, so one bad write fails alone.

A write that a stalled database (a connection that neither answers nor fails) has not committed within
:data:`WRITE_TIMEOUT` seconds fails with :class:`~brisca.server.db.DatabaseStalled`: its table answers the player
and stops, rather than hold everyone for the length of the stall. The writer thread stuck in it is left to finish
alone (a fresh one takes the next batch, on another connection), and the stall is logged once when it begins and
once when a write is committed again.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, cast

import sqlalchemy as sa
from sqlalchemy.orm import Session

from brisca.server.clock import SLOW_MOVE, Clock, ClockWrite
from brisca.server.db import (
    ActionRow,
    DatabaseStalled,
    GameRow,
    HandRow,
    RatingRow,
    SeatRow,
    TableRow,
    UserRow,
    _now,
    make_engine,
    upgrade,
)

_TABLES = cast(sa.Table, TableRow.__table__)
_SEATS = cast(sa.Table, SeatRow.__table__)
_HANDS = cast(sa.Table, HandRow.__table__)
_ACTIONS = cast(sa.Table, ActionRow.__table__)
#: A change made by a person (``b_active``: its time) also sets ``last_active``; a bot's keeps it (``None``).
_ACTIVE = sa.func.coalesce(sa.bindparam("b_active", type_=sa.DateTime), _TABLES.c.last_active)
#: A write that carries the clock (``b_clock`` true) sets the turn's deadline; another keeps it.
_CLOCKED = sa.bindparam("b_clock", type_=sa.Boolean)
_DEADLINE = sa.case((_CLOCKED, sa.bindparam("b_deadline", type_=sa.Float)), else_=_TABLES.c.clock_deadline)
_CLOCK_ACTION = sa.case((_CLOCKED, sa.bindparam("b_clock_action", type_=sa.Integer)), else_=_TABLES.c.clock_action)
_CLOCK_SEAT = sa.case((_CLOCKED, sa.bindparam("b_clock_seat", type_=sa.Integer)), else_=_TABLES.c.clock_seat)
_SET_VERSION = (_TABLES.update().where(_TABLES.c.id == sa.bindparam("b_id"))
                .values(version=sa.bindparam("b_version"), last_active=_ACTIVE, clock_deadline=_DEADLINE,
                        clock_action=_CLOCK_ACTION, clock_seat=_CLOCK_SEAT))
_SET_VERSION_STATUS = (_TABLES.update().where(_TABLES.c.id == sa.bindparam("b_id"))
                       .values(version=sa.bindparam("b_version"), status=sa.bindparam("b_status"),
                               last_active=_ACTIVE, clock_deadline=_DEADLINE, clock_action=_CLOCK_ACTION,
                               clock_seat=_CLOCK_SEAT))
_SET_CLOCK = (_TABLES.update().where(_TABLES.c.id == sa.bindparam("b_id"))
              .values(clock_deadline=sa.bindparam("b_deadline"), clock_action=sa.bindparam("b_clock_action"),
                      clock_seat=sa.bindparam("b_clock_seat")))
_SET_SEAT_CLOCK = (_SEATS.update()
                   .where(_SEATS.c.table_id == sa.bindparam("b_table"), _SEATS.c.seat == sa.bindparam("b_seat"))
                   .values(reserve=sa.bindparam("b_reserve"), timeouts=sa.bindparam("b_timeouts"),
                           missed=sa.bindparam("b_missed")))
_SET_SEAT = (_SEATS.update()
             .where(_SEATS.c.table_id == sa.bindparam("b_table"), _SEATS.c.seat == sa.bindparam("b_seat"))
             .values(name=sa.bindparam("b_name"), token_hash=sa.bindparam("b_hash"), user_id=sa.bindparam("b_user")))
#: A seat taken by whoever the draw for partners put there (a bot too).
_MOVE_SEAT = (_SEATS.update()
              .where(_SEATS.c.table_id == sa.bindparam("b_table"), _SEATS.c.seat == sa.bindparam("b_seat"))
              .values(name=sa.bindparam("b_name"), bot=sa.bindparam("b_bot"), token_hash=sa.bindparam("b_hash"),
                      user_id=sa.bindparam("b_user")))
_SET_REASON = _TABLES.update().where(_TABLES.c.id == sa.bindparam("b_id")).values(
    closed_reason=sa.bindparam("b_reason"))
_INSERT_HAND = _HANDS.insert()
_INSERT_ACTION = _ACTIONS.insert()

log = logging.getLogger("brisca.server")

#: Seconds a write may wait to be committed (its turn in the batches included) before its table is answered: the
#: player hears from the table within this and the time to answer, whatever the database does.
WRITE_TIMEOUT = 5.0


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class SeatInfo:
    seat: int
    name: str | None = None
    bot: str | None = None
    token_hash: str | None = None
    #: The account holding the seat (``None``: a guest, a bot, or free).
    user_id: int | None = None
    #: That account's (normalised) username: not a column of the seat, read with it.
    account: str | None = None
    #: The seat's clock (:class:`~brisca.server.clock.SeatClock`): reserve left (``None``: all of it), time-outs.
    reserve: float | None = None
    timeouts: int = 0
    missed: int = 0

    @property
    def guest(self) -> bool:
        """A person without an account sits here (or sat here, and resigned: the seat keeps their name)."""
        return self.bot is None and self.name is not None and self.user_id is None


@dataclass
class TableState:
    """A table as stored: enough to rebuild its match by replaying the actions on the stored decks."""

    id: str
    preset: str
    options: dict[str, Any]
    players: int
    seed: int
    bot_delay: float
    status: str
    version: int
    seats: list[SeatInfo]
    decks: list[list[str]] = field(default_factory=list)
    #: Each hand's salt and commitment (:mod:`brisca.commitment`), as the decks.
    salts: list[str | None] = field(default_factory=list)
    commitments: list[str | None] = field(default_factory=list)
    #: The deals come from ``seed`` (a practice table: one person at most).
    seeded: bool = False
    #: Who opened it: ``guest:<address>`` or ``user:<id>`` (``None``: a table from before owners).
    owner: str | None = None
    #: ``(hand_number, seat, action_json)`` in order of action number.
    actions: list[tuple[int, int, dict[str, Any]]] = field(default_factory=list)
    #: Anyone seated may ask for a hint on their turn (a table never rated).
    hints: bool = False
    #: A finished match's winning side, as stored with it (``None``: level, or not finished).
    winner: int | None = None
    #: The move clock (``None``: a table from before the clock), the turn's deadline and the action it was set at.
    clock: Clock | None = None
    clock_deadline: float | None = None
    clock_action: int | None = None
    #: Never rated, whoever sits at it (a table of a tournament that is not rated).
    unrated: bool = False


#: A write waiting in a batch: the ``write_*`` method and its arguments (the table's id first), and the lease
#: epoch the writer holds the table under (``None``: one process, or whatever epoch this process holds).
Write = tuple[Callable[..., None], tuple[Any, ...], int | None]


class Fenced(Exception):
    """A write refused because the table's lease is not the writer's: another process runs the table, or a newer
    actor of this process does (its picture of the table may lack this write). The writer stops."""


class Store:
    def __init__(self, url: str | None) -> None:
        self.engine = make_engine(url)
        upgrade(self.engine)
        #: Reads of several statements that must agree with each other (a table's row and its actions): in one
        #: snapshot on PostgreSQL, whose default isolation gives each statement its own, so that a write
        #: committed between two of them (one left running through a stall, say) cannot mix two versions.
        #: SQLite's reads run on the event loop between whole commits.
        self.snapshots = (self.engine if self.engine.dialect.name == "sqlite"
                          else self.engine.execution_options(isolation_level="REPEATABLE READ"))
        #: Inside a batch: its connection, and the rows waiting for each statement (run with executemany).
        self._batch = threading.local()
        #: SQLite commits on the event loop: a batch is a few executemany calls and a WAL append, and a writer
        #: thread would wait for the GIL after every row (sqlite3 releases it around each step). PostgreSQL
        #: waits on the network and on its disk: that is done in a writer thread.
        self.inline = self.engine.dialect.name == "sqlite"
        self._writer: ThreadPoolExecutor | None = None
        self._queue: list[tuple[Write, asyncio.Future[None]]] = []
        self._draining = False
        self._drainer: asyncio.Task[None] | None = None
        self._stop = threading.Event()
        self._checkpointer: threading.Thread | None = None
        #: Checked in each batch's transaction before it commits (a cluster's table leases: every table it writes
        #: is still its writer's, at the writer's epoch, :mod:`brisca.server.cluster`); it raises to refuse the
        #: batch. ``None``: one process, nothing to check.
        self.fence: Callable[[sa.Connection, Sequence[Write]], None] | None = None
        #: Seconds a write may wait to be committed (PostgreSQL; SQLite's commits are the event loop's own).
        self.write_timeout = WRITE_TIMEOUT
        #: ``time.monotonic()`` when a write was first left uncommitted past the timeout, until one is committed.
        self.stalled_since: float | None = None
        #: Batches given up on (their writers were answered) that may still commit, by the tables they write.
        self._adrift: dict[str, set[asyncio.Future[list[Exception | None]]]] = {}
        if self.inline:
            self._checkpointer = threading.Thread(target=self._checkpoints, name="brisca-checkpoint", daemon=True)
            self._checkpointer.start()

    def dispose(self) -> None:
        self._stop.set()
        if self._checkpointer is not None:
            self._checkpointer.join()
            self._checkpointer = None
        if self._writer is not None:
            self._writer.shutdown(wait=True)
            self._writer = None
        self.engine.dispose()

    #: Seconds between two checkpoints of SQLite's write-ahead log.
    CHECKPOINT_EVERY = 1.0

    def _checkpoints(self) -> None:
        """SQLite: copy the write-ahead log into the database now and then, off the event loop.

        A passive checkpoint waits for no one: the commits on the event loop go on meanwhile.
        """
        while not self._stop.wait(self.CHECKPOINT_EVERY):
            try:
                with self.engine.connect() as c:
                    c.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")
            except Exception:  # a busy or closed database: try again later
                continue

    # ------------------------------------------------------------------ group commit

    async def write(self, fn: Callable[..., None], *args: Any, lease: int | None = None) -> None:
        """Run ``fn(*args)`` (one of the ``write_*`` methods) in a batch; return once the batch is committed.
        ``lease``: the epoch the writer holds the table under, for the fence.

        Writes that arrive while a batch commits (or in the same turn of the event loop) go together in the
        next batch, in one transaction. On PostgreSQL, :class:`~brisca.server.db.DatabaseStalled` after
        :attr:`write_timeout` seconds: a write still waiting for its batch is never sent; one sent may or may not
        be committed when the database answers again.
        """
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        entry = ((fn, args, lease), future)
        self._queue.append(entry)
        if not self._draining:
            self._draining = True
            self._drainer = loop.create_task(self._drain())
        if self.inline:
            await future
            return
        try:
            await asyncio.wait_for(asyncio.shield(future), self.write_timeout)
        except TimeoutError:
            with contextlib.suppress(ValueError):
                self._queue.remove(entry)  # not sent: it never will be
            future.add_done_callback(_consume)
            self._stalled()
            raise DatabaseStalled(f"the database did not commit a write within {self.write_timeout:g} s") from None

    def _stalled(self) -> None:
        if self.stalled_since is None:
            self.stalled_since = time.monotonic()
            log.warning("the database has not committed a write for %g s: the tables that wait for one answer "
                        "their players and stop; they are loaded again when it answers", self.write_timeout)

    def _committed(self) -> None:
        if self.stalled_since is not None:
            log.warning("the database commits writes again (they stalled for %.1f s)",
                        time.monotonic() - self.stalled_since)
            self.stalled_since = None

    def probe(self) -> None:
        """A write that changes nothing: a transaction through the writer, to see whether writes go through."""
        with self._begin():
            pass

    async def _drain(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            while self._queue:
                batch, self._queue = self._queue, []
                work = [write for write, _ in batch]
                try:
                    if self.inline:
                        errors = self._commit_batch(work)
                    else:
                        if self._writer is None:
                            self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="brisca-writer")
                        running = loop.run_in_executor(self._writer, self._commit_batch, work)
                        done, _ = await asyncio.wait({running}, timeout=self.write_timeout)
                        if not done:
                            # Stuck on a connection that neither answers nor fails: its writers have been answered
                            # (DatabaseStalled); the thread finishes alone, and the next batch takes a fresh one.
                            self._writer.shutdown(wait=False)
                            self._writer = None
                            self._drift(running, work)
                            self._stalled()
                            continue
                        errors = running.result()
                except BaseException as exc:  # the loop is going away: fail what waits
                    for _, future in batch:
                        if not future.done():
                            future.set_exception(exc if isinstance(exc, Exception) else RuntimeError("stopped"))
                    raise
                if not self.inline and any(err is None for err in errors):
                    self._committed()
                for (_, future), err in zip(batch, errors, strict=True):
                    if not future.done():
                        if err is None:
                            future.set_result(None)
                        else:
                            future.set_exception(err)
                if self.inline:
                    await asyncio.sleep(0)  # let the tables run before the next batch
        finally:
            self._draining = False

    def _drift(self, running: asyncio.Future[list[Exception | None]], work: list[Write]) -> None:
        """``running`` was given up on: until it ends, the tables it writes are not read back (:meth:`settled`)."""
        tables = {args[0] for _, args, _ in work if args and isinstance(args[0], str)}
        for table_id in tables:
            self._adrift.setdefault(table_id, set()).add(running)

        def ended(done: asyncio.Future[list[Exception | None]]) -> None:
            for table_id in tables:
                left = self._adrift.get(table_id)
                if left is not None:
                    left.discard(done)
                    if not left:
                        del self._adrift[table_id]
            self._late(done)

        running.add_done_callback(ended)

    async def settled(self, table_id: str) -> None:
        """Wait for the writes to ``table_id`` given up on in a stall to end, committed or not, before the table
        is read back: read while one of them still may commit, the table would be played on from a picture that
        lacks a move the database takes a moment later. At most :attr:`write_timeout` seconds: a connection
        stuck for good never ends, and should it commit after all, the move played in its place conflicts with
        it (the actions' numbers are unique) and the table is loaded again."""
        waiting = self._adrift.get(table_id)
        if waiting:
            await asyncio.wait(set(waiting), timeout=self.write_timeout)

    def _late(self, running: asyncio.Future[list[Exception | None]]) -> None:
        """A batch given up on came to an end: committed, the database answers again."""
        if not running.cancelled() and running.exception() is None and None in running.result():
            self._committed()

    def _commit_batch(self, batch: list[Write]) -> list[Exception | None]:
        """The whole batch in one transaction, or, if that fails, each write alone."""
        if len(batch) > 1 or self.fence is not None:
            try:
                self._together(batch)
                return [None] * len(batch)
            except Exception as exc:
                if len(batch) == 1:
                    return [exc]
        errors: list[Exception | None] = []
        for write in batch:
            try:
                if self.fence is None:
                    fn, args, _ = write
                    fn(*args)
                else:
                    self._together([write])
                errors.append(None)
            except Exception as exc:
                errors.append(exc)
        return errors

    def _together(self, batch: list[Write]) -> None:
        """Writes in one transaction, their rows sent with one ``executemany`` a statement, behind the fence."""
        with self.engine.begin() as c:
            self._batch.connection, self._batch.rows, self._batch.versions = c, {}, {}
            try:
                if self.fence is not None:
                    self.fence(c, batch)
                for fn, args, _ in batch:
                    fn(*args)
                for statement, rows in self._batch.rows.items():
                    c.execute(statement, rows)
                versions = self._batch.versions.items()
                plain = [_version_row(t, v, st, a, k) for t, (v, st, a, k) in versions if not st]
                with_status = [_version_row(t, v, st, a, k) for t, (v, st, a, k) in versions if st]
                if plain:
                    c.execute(_SET_VERSION, plain)
                if with_status:
                    c.execute(_SET_VERSION_STATUS, with_status)
            finally:
                self._batch.connection = self._batch.rows = self._batch.versions = None

    @contextlib.contextmanager
    def _begin(self) -> Iterator[sa.Connection]:
        """The batch's connection inside a batch; else a transaction of its own."""
        c = getattr(self._batch, "connection", None)
        if c is not None:
            yield c
        else:
            with self.engine.begin() as c:
                yield c

    def _run(self, c: sa.Connection, statement: sa.Executable, row: dict[str, Any]) -> None:
        """Execute now, or, inside a batch, with the batch's other rows for the same statement."""
        rows: dict[sa.Executable, list[dict[str, Any]]] | None = getattr(self._batch, "rows", None)
        if rows is None:
            c.execute(statement, row)
        else:
            rows.setdefault(statement, []).append(row)

    def create_table(self, state: TableState) -> None:
        with Session(self.engine) as s, s.begin():
            s.add(TableRow(id=state.id, preset=state.preset, options=state.options, players=state.players,
                           seed=state.seed, bot_delay=state.bot_delay, status=state.status, version=state.version,
                           seeded=state.seeded, owner=state.owner, last_active=_now(), hints=state.hints,
                           clock_move=None if state.clock is None else state.clock.move,
                           clock_reserve=None if state.clock is None else state.clock.reserve,
                           unrated=state.unrated))
            s.flush()
            for info in state.seats:
                s.add(SeatRow(table_id=state.id, seat=info.seat, name=info.name, bot=info.bot,
                              token_hash=info.token_hash, user_id=info.user_id))

    def delete_new_table(self, table_id: str, version: int = 0) -> bool:
        """Delete a table nothing happened at yet (waiting, at ``version`` at most: 0, nobody sat; 1, its creator
        alone): one whose creation was answered as failed. Whether it was there to delete."""
        with self.engine.begin() as c:
            fresh = c.execute(sa.select(_TABLES.c.id).where(_TABLES.c.id == table_id, _TABLES.c.status == "waiting",
                                                            _TABLES.c.version <= version).with_for_update()).first()
            if fresh is None:
                return False
            c.execute(_SEATS.delete().where(_SEATS.c.table_id == table_id))
            c.execute(_TABLES.delete().where(_TABLES.c.id == table_id))
        return True

    def _version(self, c: sa.Connection, table_id: str, version: int, status: str | None = None,
                 active: datetime | None = None, clock: ClockWrite | None = None) -> None:
        """Set the table's version (and status, ``last_active`` for a person's change, the clock's deadline), once
        per batch; the seats whose clocks changed are written at once."""
        if clock is not None:
            for seat, sc in clock.seats:
                self._run(c, _SET_SEAT_CLOCK, {"b_table": table_id, "b_seat": seat, "b_reserve": sc.reserve,
                                               "b_timeouts": sc.timeouts, "b_missed": sc.missed})
        versions: dict[str, _Versioned] | None = getattr(self._batch, "versions", None)
        if versions is not None:  # in a batch: the table's last version (and status, activity, clock) wins
            _, before, was_active, was_clock = versions.get(table_id, (0, None, None, None))
            versions[table_id] = (version, status or before, active or was_active, clock or was_clock)
        else:
            c.execute(_SET_VERSION if status is None else _SET_VERSION_STATUS,
                      _version_row(table_id, version, status, active, clock))

    # The writes on the path of every move use SQLAlchemy Core: the ORM's bookkeeping costs more than SQLite.

    def set_version(self, table_id: str, version: int, active: datetime | None = None,
                    clock: ClockWrite | None = None) -> None:
        with self._begin() as c:
            self._version(c, table_id, version, None, active, clock)

    def write_clock(self, table_id: str, clock: ClockWrite) -> None:
        """The clock alone (a turn's clock started, the table's version unchanged)."""
        with self._begin() as c:
            for seat, sc in clock.seats:
                self._run(c, _SET_SEAT_CLOCK, {"b_table": table_id, "b_seat": seat, "b_reserve": sc.reserve,
                                               "b_timeouts": sc.timeouts, "b_missed": sc.missed})
            self._run(c, _SET_CLOCK, {"b_id": table_id, "b_deadline": clock.deadline,
                                      "b_clock_action": clock.action, "b_clock_seat": clock.seat})

    def write_join(self, table_id: str, info: SeatInfo, version: int) -> None:
        with self._begin() as c:
            self._run(c, _SET_SEAT, {"b_table": table_id, "b_seat": info.seat, "b_name": info.name,
                                     "b_hash": info.token_hash, "b_user": info.user_id})
            self._version(c, table_id, version, None, _now())

    def write_close(self, table_id: str, seats: Sequence[int], version: int, preset: str = "",
                    ratings: dict[str, tuple[float, float]] | None = None,
                    opponents: dict[str, list[str]] | None = None, reason: str | None = None) -> None:
        """The table is closed (``reason``: why): these seats (its people's) are freed, their tokens hold nothing
        any more; ``ratings`` of ``preset``: those the close changes (people who resigned or left, rated as
        losing), and ``opponents``: whom each rated key played against."""
        with self._begin() as c:
            for seat in seats:
                self._run(c, _SET_SEAT, {"b_table": table_id, "b_seat": seat, "b_name": None, "b_hash": None,
                                         "b_user": None})
            if ratings:
                with Session(bind=c) as s:
                    _store_ratings(s, preset, ratings, opponents)
                    s.flush()
            if reason is not None:
                self._run(c, _SET_REASON, {"b_id": table_id, "b_reason": reason[:200]})
            self._version(c, table_id, version, "closed")

    def write_hand(self, table_id: str, hand_number: int, deck: Sequence[str], version: int,
                   salt: str | None = None, commitment: str | None = None,
                   seats: Sequence[SeatInfo] | None = None) -> None:
        """A hand dealt; ``seats``: who sits where from now on (the draw for partners, with the first hand)."""
        with self._begin() as c:
            for info in seats or ():
                self._run(c, _MOVE_SEAT, {"b_table": table_id, "b_seat": info.seat, "b_name": info.name,
                                          "b_bot": info.bot, "b_hash": info.token_hash, "b_user": info.user_id})
            self._run(c, _INSERT_HAND, {"table_id": table_id, "hand_number": hand_number, "deck": list(deck),
                                        "salt": salt, "commitment": commitment})
            self._version(c, table_id, version, "playing")

    def write_action(self, table_id: str, number: int, hand_number: int, seat: int, action: dict[str, Any],
                     version: int, by_person: bool = False, clock: ClockWrite | None = None) -> None:
        """An action (``clock``: the next turn's deadline, and the clocks it changed)."""
        with self._begin() as c:
            now = _now()
            self._run(c, _INSERT_ACTION, {"table_id": table_id, "action_number": number, "hand_number": hand_number,
                                          "seat": seat, "action": action, "created_at": now})
            self._version(c, table_id, version, None, now if by_person else None, clock)

    def write_finish(self, table_id: str, game: GameRow, ratings: dict[str, tuple[float, float]],
                     version: int, opponents: dict[str, list[str]] | None = None) -> None:
        """The finished match, and the ratings it changed (``opponents``: whom each rated key played against)."""
        with self._begin() as c, Session(bind=c) as s:
            s.add(game)
            _store_ratings(s, game.preset, ratings, opponents)
            s.flush()
            self._version(c, table_id, version, "finished")

    def ratings(self, preset: str, names: Sequence[str]) -> dict[str, tuple[float, float]]:
        with Session(self.engine) as s:
            rows = s.scalars(sa.select(RatingRow).where(RatingRow.preset == preset, RatingRow.name.in_(list(names))))
            return {r.name: (r.mu, r.sigma) for r in rows}

    def rated_games(self, preset: str, names: Sequence[str]) -> dict[str, int]:
        """How many rated matches of ``preset`` each of ``names`` has played (absent: none)."""
        return {name: games for name, (games, _) in self.rating_counts(preset, names).items()}

    def rating_counts(self, preset: str, names: Sequence[str]) -> dict[str, tuple[int, int]]:
        """Each of ``names`` rated in ``preset`` -> (its rated matches, the distinct opponents it met in them)."""
        with Session(self.engine) as s:
            rows = s.execute(sa.select(RatingRow.name, RatingRow.games, RatingRow.opponents)
                             .where(RatingRow.preset == preset, RatingRow.name.in_(list(names))))
            return {name: (int(games or 0), len(met or ())) for name, games, met in rows}

    def leaderboard(self, preset: str, limit: int = 100, provisional_games: int = 0,
                    provisional_opponents: int = 0) -> list[dict[str, Any]]:
        """The rated accounts (by display name, with ``account``: the username) and bots of a preset, best first;
        the accounts whose rating is still provisional (:func:`brisca.server.ratings.provisional`) are left off."""
        from brisca.server.ratings import provisional

        query = (sa.select(RatingRow, UserRow.display).outerjoin(UserRow, UserRow.username == RatingRow.name)
                 .where(RatingRow.preset == preset))
        with Session(self.engine) as s:
            found = [(r, display) for r, display in s.execute(query)
                     if r.name.startswith("bot:") or (display is not None and not provisional(
                         r.games, len(r.opponents or ()), provisional_games, provisional_opponents))]
        found.sort(key=lambda rd: -(rd[0].mu - 3 * rd[0].sigma))
        return [{"name": display or r.name, "account": r.name if display is not None else None, "mu": r.mu,
                 "sigma": r.sigma, "ordinal": r.mu - 3 * r.sigma, "games": r.games,
                 "opponents": len(r.opponents or ())} for r, display in found[:limit]]

    def games(self, limit: int = 100, offset: int = 0) -> list[dict[str, Any]]:
        with Session(self.engine) as s:
            rows = s.scalars(sa.select(GameRow).order_by(GameRow.finished_at.desc()).limit(limit).offset(offset))
            return [{"table_id": r.table_id, "preset": r.preset, "players": r.players, "names": r.names,
                     "winner": r.winner, "finished_at": r.finished_at.isoformat()} for r in rows]

    def record(self, table_id: str) -> str | None:
        with Session(self.engine) as s:
            row = s.get(GameRow, table_id)
            return None if row is None else row.record

    def table_ids(self, statuses: Sequence[str]) -> list[str]:
        with Session(self.engine) as s:
            return list(s.scalars(sa.select(TableRow.id).where(TableRow.status.in_(list(statuses)))))

    # The slow tables (:data:`~brisca.server.clock.SLOW_MOVE`), which sleep between moves: found in the database.

    def slow_open(self, owner: str) -> int:
        """How many open slow tables ``owner`` has."""
        query = (sa.select(sa.func.count()).select_from(_TABLES)
                 .where(_TABLES.c.owner == owner, _TABLES.c.status.in_(["waiting", "playing"]), _SLOW))
        with self.engine.connect() as c:
            return int(c.execute(query).scalar_one())

    def due_slow(self, now: float, limit: int = 200) -> list[str]:
        """The slow tables in play whose clock has run out at ``now`` (seconds since the epoch), first due first."""
        query = (sa.select(_TABLES.c.id).where(_TABLES.c.status == "playing", _SLOW,
                                                _TABLES.c.clock_deadline <= now)
                 .order_by(_TABLES.c.clock_deadline).limit(limit))
        with self.engine.connect() as c:
            return [str(t) for t in c.scalars(query)]

    def awake_table_ids(self, now: float) -> list[str]:
        """The open tables to start with the server: every one but the slow tables that sleep (not yet due)."""
        asleep = sa.and_(_SLOW, sa.or_(_TABLES.c.status == "waiting", _TABLES.c.clock_deadline.is_(None),
                                       _TABLES.c.clock_deadline > now))
        query = sa.select(_TABLES.c.id).where(_TABLES.c.status.in_(["waiting", "playing"]), sa.not_(asleep))
        with self.engine.connect() as c:
            return [str(t) for t in c.scalars(query)]

    def my_tables(self, user_id: int, limit: int = 100) -> list[dict[str, Any]]:
        """The open tables where the account holds a seat: its seat, the seat whose clock runs and until when,
        those whose turn it is first (the soonest deadline first), then the newest."""
        query = (sa.select(_TABLES.c.id, _TABLES.c.preset, _TABLES.c.players, _TABLES.c.status,
                           _TABLES.c.clock_move, _TABLES.c.clock_reserve, _TABLES.c.clock_seat,
                           _TABLES.c.clock_deadline, _TABLES.c.created_at, _SEATS.c.seat)
                 .join(_SEATS, _SEATS.c.table_id == _TABLES.c.id)
                 .where(_SEATS.c.user_id == user_id, _SEATS.c.token_hash.is_not(None),
                        _TABLES.c.status.in_(["waiting", "playing"]))
                 .order_by(_TABLES.c.created_at.desc()).limit(limit))
        with self.engine.connect() as c:
            rows = list(c.execute(query))
        out = [{"table_id": r.id, "preset": r.preset, "players": r.players, "status": r.status, "seat": r.seat,
                "clock": None if r.clock_move is None else Clock(r.clock_move, r.clock_reserve or 0.0),
                "your_turn": r.status == "playing" and r.clock_seat == r.seat and r.clock_deadline is not None,
                "deadline": r.clock_deadline if r.clock_seat == r.seat else None,
                "created_at": r.created_at.isoformat()} for r in rows]
        out.sort(key=lambda t: (not t["your_turn"], t["deadline"] or 0.0))
        return out

    def ping(self) -> bool:
        """Whether the database answers."""
        try:
            with self.engine.connect() as c:
                c.execute(sa.text("SELECT 1"))
            return True
        except Exception:
            return False

    def closed_reason(self, table_id: str) -> str | None:
        """Why a closed table closed (``None``: not closed, or closed before the reasons were kept)."""
        with self.engine.connect() as c:
            reason: str | None = c.execute(sa.select(_TABLES.c.closed_reason).where(
                _TABLES.c.id == table_id, _TABLES.c.status == "closed")).scalar()
            return reason

    def status(self, table_id: str) -> str | None:
        """The stored status of a table (``None``: no such table)."""
        with self.engine.connect() as c:
            status: str | None = c.execute(sa.select(_TABLES.c.status).where(_TABLES.c.id == table_id)).scalar()
            return status

    def load(self, table_id: str) -> TableState | None:
        """A table as the database holds it, read in one snapshot (:attr:`snapshots`)."""
        with Session(self.snapshots) as s:
            row = s.get(TableRow, table_id)
            if row is None:
                return None
            seats = [SeatInfo(r.seat, r.name, r.bot, r.token_hash, r.user_id, username, r.reserve, r.timeouts or 0,
                              r.missed or 0) for r, username in
                     s.execute(sa.select(SeatRow, UserRow.username).outerjoin(UserRow, UserRow.id == SeatRow.user_id)
                               .where(SeatRow.table_id == table_id).order_by(SeatRow.seat))]
            hands = list(s.scalars(sa.select(HandRow).where(HandRow.table_id == table_id)
                                   .order_by(HandRow.hand_number)))
            actions = [(r.hand_number, r.seat, r.action) for r in
                       s.scalars(sa.select(ActionRow).where(ActionRow.table_id == table_id)
                                 .order_by(ActionRow.action_number))]
            winner = s.scalar(sa.select(GameRow.winner).where(GameRow.table_id == table_id)) \
                if row.status == "finished" else None
            return TableState(row.id, row.preset, dict(row.options), row.players, row.seed, row.bot_delay,
                              row.status, row.version, seats, [h.deck for h in hands], [h.salt for h in hands],
                              [h.commitment for h in hands], bool(row.seeded), row.owner, actions, bool(row.hints),
                              winner,
                              None if row.clock_move is None else Clock(row.clock_move, row.clock_reserve or 0.0),
                              row.clock_deadline, row.clock_action, bool(row.unrated))


#: A slow table (:data:`~brisca.server.clock.SLOW_MOVE`).
_SLOW = sa.func.coalesce(_TABLES.c.clock_move, 0.0) >= SLOW_MOVE

#: A table's row in a batch: its last version, status, activity and clock.
_Versioned = tuple[int, str | None, datetime | None, ClockWrite | None]


def _version_row(table_id: str, version: int, status: str | None, active: datetime | None,
                 clock: ClockWrite | None) -> dict[str, Any]:
    """The parameters of :data:`_SET_VERSION` (and, with a status, :data:`_SET_VERSION_STATUS`)."""
    row: dict[str, Any] = {"b_id": table_id, "b_version": version, "b_active": active, "b_clock": clock is not None,
                           "b_deadline": None if clock is None else clock.deadline,
                           "b_clock_action": None if clock is None else clock.action,
                           "b_clock_seat": None if clock is None else clock.seat}
    if status is not None:
        row["b_status"] = status
    return row


def _consume(future: asyncio.Future[None]) -> None:
    """A write's outcome nobody waits for any more (its writer was answered): read, so that asyncio does not report
    it as never retrieved."""
    if not future.cancelled():
        future.exception()


def _store_ratings(s: Session, preset: str, ratings: dict[str, tuple[float, float]],
                   opponents: dict[str, list[str]] | None = None) -> None:
    """New ratings of ``preset``, each counting one more game, and the opponents it was played against (the
    distinct ones kept, :data:`brisca.server.ratings.KEPT_OPPONENTS` at most)."""
    from brisca.server.ratings import KEPT_OPPONENTS

    for name, (mu, sigma) in ratings.items():
        row = s.get(RatingRow, (preset, name))
        met = (opponents or {}).get(name, [])
        if row is None:
            s.add(RatingRow(preset=preset, name=name, mu=mu, sigma=sigma, games=1,
                            opponents=sorted(set(met))[:KEPT_OPPONENTS]))
        else:
            known = list(row.opponents or ())
            known += [o for o in sorted(set(met)) if o not in known][:max(0, KEPT_OPPONENTS - len(known))]
            row.mu, row.sigma, row.games, row.opponents = mu, sigma, row.games + 1, known


# ---------------------------------------------------------------------------------------------------------------
# Reads for the web pages (the lobby, the history, the leaderboard): select only the columns they show.


def live_tables(store: Store, status: str, limit: int = 50, slow: bool = True) -> list[tuple[str, str]]:
    """``(table_id, created_at)`` (ISO time) of the tables with this status, newest first (``slow``: the slow
    tables among them)."""
    query = (sa.select(_TABLES.c.id, _TABLES.c.created_at).where(_TABLES.c.status == status)
             .order_by(_TABLES.c.created_at.desc(), _TABLES.c.id).limit(limit))
    if not slow:
        query = query.where(sa.not_(_SLOW))
    with store.engine.connect() as c:
        return [(row.id, row.created_at.isoformat()) for row in c.execute(query)]


_GAMES = cast(sa.Table, GameRow.__table__)
_USERS = cast(sa.Table, UserRow.__table__)
_GAME_COLUMNS = (_GAMES.c.table_id, _GAMES.c.preset, _GAMES.c.players, _GAMES.c.names, _GAMES.c.winner,
                 _GAMES.c.finished_at, _TABLES.c.options, _TABLES.c.created_at)


def _seat_owners(c: sa.Connection, table_ids: Sequence[str]) -> dict[str, tuple[list[bool], list[str | None]]]:
    """For each table: which seats a guest held, and the username of each seat's account (``None``: none)."""
    query = (sa.select(_SEATS.c.table_id, _SEATS.c.seat, _SEATS.c.bot, _SEATS.c.name, _SEATS.c.user_id,
                       _USERS.c.username)
             .outerjoin(_USERS, _USERS.c.id == _SEATS.c.user_id)
             .where(_SEATS.c.table_id.in_(list(table_ids))).order_by(_SEATS.c.table_id, _SEATS.c.seat))
    out: dict[str, tuple[list[bool], list[str | None]]] = {}
    for r in c.execute(query):
        guests, accounts = out.setdefault(r.table_id, ([], []))
        guests.append(r.bot is None and r.name is not None and r.user_id is None)  # resigned guests too
        accounts.append(r.username)
    return out


def _game_rows(c: sa.Connection, query: sa.Select[Any], with_record: bool = False) -> list[dict[str, Any]]:
    rows = list(c.execute(query))
    owners = _seat_owners(c, [r.table_id for r in rows]) if rows else {}
    out = []
    for r in rows:
        guests, accounts = owners.get(r.table_id, ([False] * r.players, [None] * r.players))
        game = {"table_id": r.table_id, "preset": r.preset, "players": r.players, "names": list(r.names),
                "winner": r.winner, "finished_at": r.finished_at.isoformat(), "options": dict(r.options or {}),
                "started_at": r.created_at.isoformat(), "guests": guests, "accounts": accounts}
        if with_record:
            game["record"] = r.record
        out.append(game)
    return out


def finished_games(store: Store, limit: int = 50, offset: int = 0,
                   preset: str | None = None) -> list[dict[str, Any]]:
    """The finished games, newest first, with their table's rule options and start time (not the records),
    and for each seat whether a guest held it (``guests``) and its account's username (``accounts``)."""
    query = (sa.select(*_GAME_COLUMNS).join(_TABLES, _TABLES.c.id == _GAMES.c.table_id)
             .order_by(_GAMES.c.finished_at.desc(), _GAMES.c.table_id).limit(limit).offset(offset))
    if preset is not None:
        query = query.where(_GAMES.c.preset == preset)
    with store.engine.connect() as c:
        return _game_rows(c, query)


def finished_game(store: Store, table_id: str) -> dict[str, Any] | None:
    """One finished game as :func:`finished_games` lists it, with its record text under ``"record"``."""
    query = (sa.select(*_GAME_COLUMNS, _GAMES.c.record).join(_TABLES, _TABLES.c.id == _GAMES.c.table_id)
             .where(_GAMES.c.table_id == table_id))
    with store.engine.connect() as c:
        found = _game_rows(c, query, with_record=True)
    return found[0] if found else None


def player_games(store: Store, user_id: int, limit: int = 20) -> list[dict[str, Any]]:
    """The finished games where the account held a seat, newest first, as :func:`finished_games` lists them."""
    mine = sa.select(_SEATS.c.table_id).where(_SEATS.c.user_id == user_id)
    query = (sa.select(*_GAME_COLUMNS).join(_TABLES, _TABLES.c.id == _GAMES.c.table_id)
             .where(_GAMES.c.table_id.in_(mine))
             .order_by(_GAMES.c.finished_at.desc(), _GAMES.c.table_id).limit(limit))
    with store.engine.connect() as c:
        return _game_rows(c, query)


def player_ratings(store: Store, username: str) -> list[dict[str, Any]]:
    """The ratings of an account (its normalised username), one per preset, most games first."""
    ratings = cast(sa.Table, RatingRow.__table__)
    query = (sa.select(ratings).where(ratings.c.name == username)
             .order_by(ratings.c.games.desc(), ratings.c.preset))
    with store.engine.connect() as c:
        return [{"preset": r.preset, "mu": r.mu, "sigma": r.sigma, "ordinal": r.mu - 3 * r.sigma, "games": r.games,
                 "opponents": len(r.opponents or ())} for r in c.execute(query)]


def rated_presets(store: Store) -> list[dict[str, Any]]:
    """The presets with ratings: how many names are rated in each, most first."""
    ratings = cast(sa.Table, RatingRow.__table__)
    query = (sa.select(ratings.c.preset, sa.func.count().label("rated"))
             .group_by(ratings.c.preset).order_by(sa.func.count().desc(), ratings.c.preset))
    with store.engine.connect() as c:
        return [{"preset": r.preset, "rated": int(r.rated)} for r in c.execute(query)]
