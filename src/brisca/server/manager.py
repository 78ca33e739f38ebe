"""The live tables of one process (:class:`Manager`) and the table a client asks for (:class:`CreateTable`).

A module of its own under both the application (:mod:`brisca.server.app`), which starts the cluster's manager
when it serves with other processes, and the cluster (:mod:`brisca.server.cluster`), whose manager extends this
one: the cluster needs nothing from the application.
"""

from __future__ import annotations

import asyncio
import logging
import math
import os
import re
import secrets
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Annotated, Any, Literal

from fastapi import HTTPException
from pydantic import AfterValidator, BaseModel, Field

from brisca.agents import LEVELS
from brisca.errors import BriscaError
from brisca.rules import Rules, find_variant, make_rules
from brisca.server.clock import Clock, pick_clock
from brisca.server.db import DatabaseStalled, in_thread, unreachable, within_deadline
from brisca.server.limits import Limits
from brisca.server.store import SeatInfo, Store, TableState
from brisca.server.table import OPEN, Close, StartIfFull, TableActor
from brisca.server.text import clean_text

log = logging.getLogger("brisca.server")
#: Tries, and seconds between them, to delete a table whose creation was answered 503.
DELETE_TRIES = 6
DELETE_RETRY = 5.0
TABLE_ID = re.compile(r"^[A-Za-z0-9_-]{4,32}$")


#: Bounds of what a client may send: seats at a table, the seed (SQLite's signed 64 bits).
MAX_PLAYERS = 8
MAX_SEED = 2**63 - 1
#: Rule options: how many, how long a name or a text value, how large a number, how many items in a list or map.
MAX_OPTIONS = 32
MAX_OPTION_TEXT = 64
MAX_OPTION_INT = 10**6
MAX_OPTION_ITEMS = 16
NAME_LIMIT = 40
#: Seconds ``GET /healthz`` waits for the database before it says it does not answer.
HEALTH_TIMEOUT = 3.0


def _scalar(value: object) -> bool:
    """A short string, a bounded whole number, a finite number, true, false or null."""
    if value is None or isinstance(value, bool):
        return True
    if isinstance(value, int):
        return abs(value) <= MAX_OPTION_INT
    if isinstance(value, float):
        return math.isfinite(value) and abs(value) <= MAX_OPTION_INT
    return isinstance(value, str) and len(value) <= MAX_OPTION_TEXT


def _option_value(value: object) -> bool:
    """A scalar, or a short list or map of scalars (or, in a map, of short lists): what the rule options take
    (``rank_order`` is a list, ``points`` and ``exchange_with`` are maps)."""
    if _scalar(value):
        return True
    if isinstance(value, list):
        return len(value) <= MAX_OPTION_ITEMS and all(_scalar(v) for v in value)
    if isinstance(value, dict):
        return len(value) <= MAX_OPTION_ITEMS and all(
            isinstance(k, str) and len(k) <= MAX_OPTION_TEXT
            and (_scalar(v) or (isinstance(v, list) and len(v) <= MAX_OPTION_ITEMS and all(map(_scalar, v))))
            for k, v in value.items())
    return False


def _check_options(options: dict[str, Any]) -> dict[str, Any]:
    for name, value in options.items():
        if not 0 < len(name) <= MAX_OPTION_TEXT or not name.isprintable():
            raise ValueError(f"an option's name is 1 to {MAX_OPTION_TEXT} printable characters")
        if not _option_value(value):
            raise ValueError(
                f"option {name!r}: a string of at most {MAX_OPTION_TEXT} characters, a number from"
                f" -{MAX_OPTION_INT} to {MAX_OPTION_INT}, true or false, or a list or map of at most"
                f" {MAX_OPTION_ITEMS} of those")
    return options


def _clean_name(value: str) -> str:
    return clean_text(value, what="name", limit=NAME_LIMIT)


#: A name people see: 1 to 40 characters once cleaned, with nothing invisible (the raw text is bounded first).
Name = Annotated[str, Field(min_length=1, max_length=4 * NAME_LIMIT), AfterValidator(_clean_name)]
Seat = Annotated[int, Field(ge=0, lt=MAX_PLAYERS)]
#: Rule options as a client sends them: a few, each a short scalar, list or map (the preset checks their values).
RuleOptions = Annotated[dict[str, Any], Field(max_length=MAX_OPTIONS), AfterValidator(_check_options)]


class ClockSpec(BaseModel, extra="forbid"):
    """A clock of the creator's own: seconds a move, and each person's reserve (within the server's limits)."""

    move: float = Field(ge=1, le=30 * 86400, allow_inf_nan=False)
    reserve: float = Field(ge=0, le=60 * 86400, allow_inf_nan=False)


class CreateTable(BaseModel):
    preset: str = Field(default="spanish", min_length=1, max_length=MAX_OPTION_TEXT)
    players: int = Field(default=2, ge=1, le=MAX_PLAYERS)
    options: RuleOptions = Field(default_factory=dict)
    #: Seat number -> bot level (easy, normal, hard, expert).
    bots: dict[Seat, Annotated[str, Field(max_length=MAX_OPTION_TEXT)]] = Field(
        default_factory=dict, max_length=MAX_PLAYERS)
    bot_delay: float = Field(default=0.6, ge=0, le=10, allow_inf_nan=False)
    #: Practice tables only (one person at most): the deals come from this seed and anyone knowing it
    #: knows every hand. Other tables shuffle from the OS CSPRNG.
    seed: int | None = Field(default=None, ge=0, le=MAX_SEED)
    #: When given, the creator takes the first free seat with this name (a guest's; someone logged in sits
    #: under their account's name, and sits when ``sit`` is true too).
    name: Name | None = None
    sit: bool = False
    #: Anyone seated may ask for the best move on their turn: the table is not rated (a practice table always
    #: gives hints).
    hints: bool = False
    #: The move clock (:mod:`brisca.server.clock`): the preset's ``default``, ``fast``, ``slow``, ``days`` (a slow
    #: table, played over days), or one's own.
    clock: Literal["default", "fast", "slow", "days"] | ClockSpec = "default"


class Manager:
    """The live tables of this process, each run by its own actor, and the caps on opening them."""

    def __init__(self, store: Store, takeover_after: float | None = None, limits: Limits | None = None,
                 hand_pause: float = 0.0, now: Callable[[], float] | None = None) -> None:
        self.store = store
        #: The time the tables' move clocks read (seconds since the epoch; a test gives a clock of its own).
        self.now: Callable[[], float] = now or time.time
        self.takeover_after = takeover_after
        self.hand_pause = hand_pause
        self.limits = limits or Limits()
        self.actors: dict[str, TableActor] = {}
        #: Told the id of each table of this process whose match is over or that closed (the tournaments listen).
        self.on_table_over: Callable[[str], None] | None = None
        #: Deletions of tables stored after their creation timed out, under way.
        self._late: set[asyncio.Task[None]] = set()

    def resume(self) -> None:
        """Start the open tables (the slow tables that sleep stay asleep until a move or their deadline)."""
        for table_id in self.store.awake_table_ids(self.now()):
            try:
                self.get(table_id)
            except Exception:  # one broken table must not keep the others down
                log.exception("table %s could not be resumed", table_id)

    def get(self, table_id: str) -> TableActor | None:
        """The table's actor (started if need be); ``None``: no such table, or closed."""
        actor = self.actors.get(table_id)
        if actor is not None and actor.status == "closed":
            return None
        if actor is not None and actor.stopped:  # it lost the database mid-write: loaded again from it
            del self.actors[table_id]
            actor = None
        if actor is None and TABLE_ID.match(table_id):
            state = self.store.load(table_id)
            if state is not None and state.status != "closed":
                actor = self._actor(state)
                self.actors[table_id] = actor
                actor.start()
        return actor

    def _actor(self, state: TableState) -> TableActor:
        actor = TableActor(self.store, state, self.takeover_after, self.limits.max_hands, self.hand_pause,
                           self.limits.provisional_games, self.limits.provisional_opponents, self.now)
        actor.on_over = self._table_over
        return actor

    def _table_over(self, table_id: str) -> None:
        if self.on_table_over is not None:
            self.on_table_over(table_id)

    # What a cluster of processes changes (brisca.server.cluster.ClusterManager): alone, a table is here or nowhere.

    def claim(self, table_id: str) -> None:
        """Before a new table is stored (in a cluster its lease is taken first: no other process may take it)."""

    def route(self, table_id: str) -> TableActor | None:
        """Where the table's commands go: its actor (in a cluster, a stand-in forwarding to another process)."""
        return self.get(table_id)

    async def table_info(self, actor: TableActor) -> dict[str, Any]:
        """The table as everyone sees it."""
        table: dict[str, Any] = actor.snapshot(None)["table"]
        return table

    async def read_table(self, table_id: str,
                         find: Callable[[str], Awaitable[TableActor]]) -> dict[str, Any]:
        """``GET /api/tables/{id}``: the table as everyone sees it (``find``: its actor, or the HTTP error); when the
        database does not answer, a table run here shows what was committed."""
        try:
            actor = await find(table_id)
        except HTTPException as exc:
            held = self.actors.get(table_id)
            if exc.status_code != 503 or held is None:
                raise
            return held.table_json()
        return await self.table_info(actor)

    async def live_without_database(self, status: str, limit: int) -> list[tuple[str, str]]:
        """The lobby's list when the database does not answer: the tables of this status run here."""
        live = [a for a in self.actors.values() if a.status == status]
        return [(a.id, "") for a in live[:limit]]

    async def describe(self, table_ids: Sequence[str]) -> dict[str, dict[str, Any]]:
        """Tables not loaded here, as everyone sees them: the slow tables that sleep, read from the database
        (there are no other processes to ask)."""
        if not table_ids:
            return {}

        def read() -> dict[str, dict[str, Any]]:
            out: dict[str, dict[str, Any]] = {}
            for table_id in table_ids:
                try:
                    state = self.store.load(table_id)
                    if state is not None and state.clock is not None and state.clock.slow:
                        out[table_id] = TableActor(self.store, state, now=self.now).table_json()
                except Exception:  # a table that cannot be read is left out of the list
                    log.exception("table %s could not be described", table_id)
            return out

        return read() if self.store.inline else await asyncio.to_thread(read)

    def open_counts(self, owner: str) -> tuple[int, int, int]:
        """The open tables of ``owner``, its tables of bots only among them, and every open table of bots only."""
        live = [a for a in self.actors.values() if a.status in OPEN and not a.slow]
        mine = [a for a in live if a.owner == owner]
        return len(mine), sum(a.bot_only for a in mine), sum(a.bot_only for a in live)

    async def health(self) -> dict[str, Any]:
        """``GET /healthz``: this process, whether its database answers, the tables it runs."""
        try:
            database = await asyncio.wait_for(asyncio.to_thread(self.store.ping), HEALTH_TIMEOUT)
        except TimeoutError:
            database = False
        # (The database not answering, a write is not tried: the writes go through when no write has stalled.)
        writes = await self.writes_go_through() if database else self.store.stalled_since is None
        live = [a for a in self.actors.values() if not a.stopped]
        return {"ok": database and writes, "pid": os.getpid(), "node": None, "database": database,
                "writes": writes, "redis": None,
                "tables_owned": sum(a.status in OPEN for a in live), "tables_loaded": len(live),
                "connections": sum(len(a.conns) for a in live)}

    async def writes_go_through(self) -> bool:
        """Whether this process's writes are committed: after a write stalled (:attr:`Store.stalled_since`), a
        write that changes nothing is tried (and its commit ends the stall)."""
        store = self.store
        if store.inline or store.stalled_since is None:
            return True
        try:
            await store.write(store.probe)
        except Exception:
            return False
        return True

    async def locate(self, table_id: str) -> TableActor | None:
        """:meth:`route`, its database reads off the event loop where the database is another server's."""
        actor = self.actors.get(table_id)
        if self.store.inline or (actor is not None and not actor.stopped) or not TABLE_ID.match(table_id):
            return self.route(table_id)
        await self.store.settled(table_id)
        return self._loaded(table_id, await in_thread(self.store.load, table_id))

    def _loaded(self, table_id: str, state: TableState | None) -> TableActor | None:
        """The actor of a table just read from the database (one started meanwhile wins)."""
        actor = self.actors.get(table_id)
        if actor is not None and not actor.stopped:
            return None if actor.status == "closed" else actor
        if state is None or state.status == "closed":
            return None
        actor = self.actors[table_id] = self._actor(state)
        actor.start()
        return actor

    async def open_table(self, spec: CreateTable, owner: str, *, sits: bool = False) -> TableActor:
        """:meth:`create`, its database work off the event loop where the database is another server's."""
        if self.store.inline:
            return self.create(spec, owner, sits=sits)
        work = asyncio.ensure_future(asyncio.to_thread(self._store_new, spec, owner, sits))
        try:
            state = await within_deadline(work)
        except DatabaseStalled:
            # Answered 503: the table must not exist. A write that commits after all is deleted then.
            work.add_done_callback(self._stored_too_late)
            raise
        return self._start_new(state)

    def _stored_too_late(self, work: asyncio.Future[TableState]) -> None:
        if work.cancelled() or work.exception() is not None:
            return
        self._delete_later(work.result().id, 0)

    async def drop_new(self, actor: TableActor) -> None:
        """A new table whose creator's seat could not be stored in time (the creation is answered 503): let go and
        deleted, with the creator's seat if that write commits after all."""
        await self.release(actor)
        self._delete_later(actor.id, 1)

    def _delete_later(self, table_id: str, version: int) -> None:
        task = asyncio.get_running_loop().create_task(self._delete_late(table_id, version))
        self._late.add(task)
        task.add_done_callback(self._late.discard)

    async def _delete_late(self, table_id: str, version: int) -> None:
        """A table whose creation was answered 503 (nobody knows its id): deleted, tried again while the database
        does not answer (:data:`DELETE_TRIES` times). Where it never does, or someone else sat meanwhile, the table
        stays, an open table like any other (it closes once idle after it is loaded; a restart loads it)."""
        for attempt in range(DELETE_TRIES):
            try:
                deleted = await in_thread(self.store.delete_new_table, table_id, version)
            except Exception as exc:
                if attempt + 1 < DELETE_TRIES and unreachable(exc):
                    await asyncio.sleep(DELETE_RETRY)
                    continue
                log.warning("table %s: its creation timed out, and it was not deleted: %s", table_id,
                            type(exc).__name__)
                return
            if deleted:
                log.info("table %s: its creation timed out; deleted", table_id)
            return

    def create(self, spec: CreateTable, owner: str, *, sits: bool = False) -> TableActor:
        """A new table of ``owner`` (``guest:<address>`` or ``user:<id>``), within the server's limits;
        ``sits``: its creator takes a seat at once."""
        return self._start_new(self._store_new(spec, owner, sits))

    def _store_new(self, spec: CreateTable, owner: str, sits: bool) -> TableState:
        """A new table checked against the limits and stored (synchronous: no actor yet)."""
        rules = client_rules(spec.preset, spec.options)
        try:
            rules.check_players(spec.players)
        except BriscaError as exc:
            raise HTTPException(400, str(exc)) from None
        for seat, level in spec.bots.items():
            if not 0 <= seat < spec.players:
                raise HTTPException(400, f"no seat {seat} at a {spec.players}-player table")
            if level not in LEVELS:
                raise HTTPException(400, f"unknown bot level {level!r}; levels: {', '.join(LEVELS)}")
        people = spec.players - len(spec.bots)
        # Whoever knows the seed knows every hand: a seeded table is a practice table, its one person the
        # creator (seated now, so nobody else can join it).
        if spec.seed is not None and (people > 1 or (people == 1 and not sits)):
            raise HTTPException(400, "seed: only a practice table may have a seed (every seat a bot but the "
                                     "creator's, taken now): anyone who knows the seed knows every hand")
        clock = self.table_clock(spec.clock, rules)
        if clock.slow:
            self.check_slow(spec, owner)
        else:
            self.check_limits(spec, rules, owner)
        seats = [SeatInfo(s, f"bot:{spec.bots[s]}" if s in spec.bots else None, spec.bots.get(s))
                 for s in range(spec.players)]
        state = TableState(
            id=secrets.token_urlsafe(9).replace("-", "x").replace("_", "y"),
            preset=rules.variant, options=rules.overrides(), players=spec.players,
            # Unseeded tables shuffle from the OS CSPRNG (brisca.commitment); their seed only seeds the bots.
            seed=spec.seed if spec.seed is not None else secrets.randbits(63),
            bot_delay=spec.bot_delay, status="waiting", version=0, seats=seats, seeded=spec.seed is not None,
            owner=owner, hints=spec.hints or spec.seed is not None, clock=clock,
        )
        self.claim(state.id)
        self.store.create_table(state)
        return state

    def _start_new(self, state: TableState) -> TableActor:
        actor = self._actor(state)
        self.actors[state.id] = actor
        actor.start()
        actor.submit(StartIfFull())
        return actor

    def table_clock(self, spec_clock: str | ClockSpec, rules: Rules) -> Clock:
        """:func:`table_clock` within this server's limits."""
        return table_clock(spec_clock, rules, self.limits)

    def check_slow(self, spec: CreateTable, owner: str) -> None:
        """A slow table: an account's, with a person's seat besides bots, within the account's cap (its open slow
        tables are counted in the database: they sleep, not in memory)."""
        if not owner.startswith("user:"):
            raise HTTPException(403, "a slow table is for accounts: log in to open one")
        if len(spec.bots) == spec.players:
            raise HTTPException(400, "a slow table has a person's seat")
        cap = self.limits.max_slow_tables
        mine = self.store.slow_open(owner)
        if mine >= cap:
            raise HTTPException(409, f"you have {mine} open slow tables, this server's limit of {cap}: finish one "
                                     "first")

    def check_match_length(self, rules: Rules) -> None:
        """:func:`check_match_length` within this server's limits."""
        check_match_length(rules, self.limits)

    def check_limits(self, spec: CreateTable, rules: Rules, owner: str) -> None:
        """The match-length caps and the minimum bot delay (400), the caps on open tables (409)."""
        limits = self.limits
        self.check_match_length(rules)
        bot_only = len(spec.bots) == spec.players
        if bot_only and spec.bot_delay < limits.min_bot_delay:
            raise HTTPException(400, f"bot_delay is at least {limits.min_bot_delay:g} s at a table with no "
                                     f"person's seat, not {spec.bot_delay:g}")
        mine, mine_bots, bots = self.open_counts(owner)
        cap = limits.open_tables_for(owner)
        if mine >= cap:
            raise HTTPException(409, f"you have {mine} open tables, this server's limit of {cap}: finish or "
                                     f"leave one first (a table nobody is at closes after {limits.idle_text})")
        if bot_only:
            if mine_bots >= limits.max_bot_tables:
                raise HTTPException(409, f"you have {limits.max_bot_tables} open table(s) of bots only, this "
                                         "server's limit: wait for its match to end")
            if bots >= limits.max_bot_tables_total:
                raise HTTPException(409, f"this server has {limits.max_bot_tables_total} open tables of bots "
                                         "only, its limit: try again when one ends")

    async def close(self, actor: TableActor, reason: str) -> None:
        """Close a table for good (stored), then let its actor go."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        actor.submit(Close(reason, done))
        await done
        await self.release(actor)

    async def release(self, actor: TableActor) -> None:
        """Stop a table's actor and forget it (a finished table is loaded again when asked for)."""
        if self.actors.get(actor.id) is actor:
            del self.actors[actor.id]
        await actor.stop()

    async def sweep(self, now: float | None = None) -> int:
        """Close the open tables idle for ``idle_after`` seconds; let idle finished ones go, and closed ones
        (a match past ``max_hands``). How many were closed."""
        now = time.monotonic() if now is None else now
        for table_id in [t for t, a in self.actors.items() if a.stopped and a.status in OPEN]:
            try:  # stopped when the database did not answer a write: loaded again (a table of bots has no client
                await self.locate(table_id)  # to ask for it)
            except Exception as exc:
                if not unreachable(exc):  # the database's being down is said once, not once a table a look
                    log.warning("table %s could not be loaded again: %s", table_id, type(exc).__name__)
        await self._sleep_and_wake()
        after = self.limits.idle_after
        # A slow table is never idle: it sleeps between moves, and its clock ends it.
        idle = [a for a in self.actors.values() if a.idle_for(now) >= after and not a.stopped and not a.slow]
        to_close = [a for a in idle if a.status in OPEN]
        done = [a for a in self.actors.values() if not a.stopped and (
            a.status == "closed" or (a.status == "finished" and a in idle))]
        reason = f"nobody was at it for {self.limits.idle_text}"
        results = await asyncio.gather(*(self.close(a, reason) for a in to_close),
                                       *(self.release(a) for a in done), return_exceptions=True)
        for actor, result in zip(to_close, results, strict=False):
            if isinstance(result, BaseException):
                log.error("table %s could not be closed: %r", actor.id, result)
        return len(to_close)

    async def _sleep_and_wake(self) -> None:
        """The slow tables waiting for a person who is not there go to sleep (their actors let go: nothing of them
        stays in memory); those whose deadline has come are woken (their clocks run out)."""
        for actor in [a for a in self.actors.values() if a.sleepable()]:
            await self.release(actor)
        try:
            due = (self.store.due_slow(self.now()) if self.store.inline
                   else await asyncio.to_thread(self.store.due_slow, self.now()))
        except Exception as exc:
            log.warning("the look for slow tables whose clock ran out failed: %s", type(exc).__name__)
            return
        for table_id in due:
            if table_id not in self.actors:
                try:
                    await self.locate(table_id)
                except Exception as exc:
                    log.warning("table %s could not be woken: %s", table_id, type(exc).__name__)

    async def stop(self) -> None:
        await asyncio.gather(*(a.stop() for a in self.actors.values()))
        self.actors.clear()


def table_clock(spec_clock: str | ClockSpec, rules: Rules, limits: Limits) -> Clock:
    """The clock the creator picked: a named one brought within this server's limits, one's own refused (400)
    outside them."""
    if isinstance(spec_clock, str):
        named = pick_clock(rules, spec_clock)
        if named.slow:
            return Clock(min(named.move, limits.max_slow_move), min(named.reserve, limits.max_slow_reserve))
        return Clock(min(max(named.move, limits.min_clock_move), limits.max_clock_move),
                     min(named.reserve, limits.max_clock_reserve))
    clock = Clock(spec_clock.move, spec_clock.reserve)
    if clock.slow:
        if clock.move > limits.max_slow_move or clock.reserve > limits.max_slow_reserve:
            raise HTTPException(400, f"clock: a slow table's move is at most {limits.max_slow_move:g} s and its "
                                     f"reserve at most {limits.max_slow_reserve:g} s on this server")
        return clock
    if not limits.min_clock_move <= clock.move <= limits.max_clock_move:
        raise HTTPException(400, f"clock: a move's time is from {limits.min_clock_move:g} to "
                                 f"{limits.max_clock_move:g} s on this server, not {clock.move:g}")
    if clock.reserve > limits.max_clock_reserve:
        raise HTTPException(400, f"clock: the reserve is at most {limits.max_clock_reserve:g} s on this "
                                 f"server, not {clock.reserve:g}")
    return clock


def check_match_length(rules: Rules, limits: Limits) -> None:
    """The match-length caps of the server's limits (400 beyond them)."""
    for option, value, cap in (("target_hands", rules.target_hands, limits.max_target_hands),
                               ("target_game_points", rules.target_game_points, limits.max_target_hands),
                               ("hands", rules.hands, limits.max_target_hands),
                               ("target_points", rules.target_points, limits.max_target_points)):
        if value > cap:
            raise HTTPException(400, f"option {option!r} is at most {cap} on this server, not {value}")


def client_rules(preset: str, options: dict[str, Any]) -> Rules:
    """The rules a client asked for; any failure is a 400 that names the preset or the option at fault."""
    try:
        return make_rules(preset, options)
    except BriscaError as exc:
        raise HTTPException(400, str(exc)) from None
    except Exception:  # an odd value the option's parser did not expect: find which option it was
        pass
    try:
        find_variant(preset)
    except BriscaError as exc:
        raise HTTPException(400, str(exc)) from None
    for name, value in options.items():
        try:
            make_rules(preset, {name: value})
        except Exception as exc:
            raise HTTPException(400, f"option {name!r}: a value this option does not take"
                                     f" ({type(exc).__name__})") from None
    raise HTTPException(400, "options: these rule options do not go together")


__all__ = ["TABLE_ID", "ClockSpec", "CreateTable", "Manager", "Name", "RuleOptions", "Seat", "check_match_length",
           "client_rules", "table_clock"]
