"""The tournaments' HTTP API, and what plays them: each round's tables started where they are stored, and the
next round paired when the last table of a round ends (:mod:`brisca.server.tournament_store`).

A round moves on when a table of this process ends (its actor tells the manager), and at every look of
:meth:`Tournaments.sweep` (a restart, a table that ended in another process): whichever looks first pairs the
round, once, by the database's guarded update.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Literal

from fastapi import FastAPI, HTTPException, Request
from pydantic import BaseModel, Field

from brisca.agents import LEVELS
from brisca.errors import BriscaError
from brisca.server.accounts import LoginSession
from brisca.server.db import in_thread, unreachable
from brisca.server.limits import Limiter, Limits, client_address
from brisca.server.manager import (
    MAX_PLAYERS,
    ClockSpec,
    Manager,
    Name,
    RuleOptions,
    check_match_length,
    client_rules,
    table_clock,
)
from brisca.server.tournament_store import HOST, TOURNAMENT_ID, Settings, TournamentError, TournamentStore, table_rules

log = logging.getLogger("brisca.server")


class CreateTournament(BaseModel, extra="forbid"):
    """A tournament as its creator asks for it (checked against the server's limits besides)."""

    name: Name
    preset: str = Field(default="spanish", min_length=1, max_length=64)
    options: RuleOptions = Field(default_factory=dict)
    #: Seats at each table.
    players: int = Field(default=2, ge=2, le=MAX_PLAYERS)
    rounds: int = Field(default=3, ge=1, le=100)
    #: The tables' move clock, as a table's: the preset's ``default``, ``fast``, ``slow``, or one's own (not a slow
    #: table's: a round waits for its last table).
    clock: Literal["default", "fast", "slow"] | ClockSpec = "default"
    rated: bool = False
    #: ``creator``: its creator starts it; ``full``: it starts once ``max_entrants`` have joined.
    start: Literal["creator", "full"] = "creator"
    max_entrants: int = Field(default=16, ge=2, le=1000)
    #: The level of the bots that fill the empty seats of a round's last table.
    bot: str = Field(default="normal", max_length=16)
    bot_delay: float = Field(default=0.6, ge=0, le=10, allow_inf_nan=False)


class JoinTournament(BaseModel, extra="forbid"):
    #: A guest's name (someone logged in enters under their account's).
    name: Name | None = None


class EntrantToken(BaseModel, extra="forbid"):
    #: The token the join gave (someone logged in may leave it out: their account says who they are).
    token: str | None = Field(default=None, max_length=128)


def settings_of(spec: CreateTournament, owner: str, limits: Limits) -> Settings:
    """``spec`` checked: the preset and its options, the players, the clock and the caps (``HTTPException``)."""
    rules = client_rules(spec.preset, spec.options)
    try:
        rules.check_players(spec.players)
        rules = table_rules(spec.preset, spec.options, spec.players)
    except BriscaError as exc:
        raise HTTPException(400, str(exc)) from None
    check_match_length(rules, limits)
    if spec.bot not in LEVELS:
        raise HTTPException(400, f"bot: unknown bot level {spec.bot!r}; levels: {', '.join(LEVELS)}")
    clock = table_clock(spec.clock, rules, limits)
    if clock.slow:
        raise HTTPException(400, "clock: a tournament's tables are not slow tables (a round waits for its last"
                                 " table)")
    if spec.rounds > limits.max_tournament_rounds:
        raise HTTPException(400, f"rounds: at most {limits.max_tournament_rounds} on this server, not {spec.rounds}")
    if spec.max_entrants > limits.max_entrants:
        raise HTTPException(400, f"max_entrants: at most {limits.max_entrants} on this server, not "
                                 f"{spec.max_entrants}")
    return Settings(spec.name, rules.variant, rules.overrides(), spec.players, spec.rounds, clock, spec.rated,
                    spec.start, spec.max_entrants, owner, spec.bot, spec.bot_delay)


class Tournaments:
    """The tournaments of the site: the database's (:class:`TournamentStore`) and the tables of their rounds,
    started in this process."""

    def __init__(self, manager: Manager) -> None:
        self.manager = manager
        self.store = TournamentStore(manager.store.engine, manager.limits)
        self._tasks: set[asyncio.Task[None]] = set()
        #: The tournaments the host offers (``brisca serve --tournament``): each made again once it is over.
        self.offered: list[CreateTournament] = []
        manager.on_table_over = self.table_over

    async def offer(self) -> None:
        """Make each tournament the host offers that is not open or playing now."""
        for spec in self.offered:
            if not await in_thread(self.store.host_made, spec.name):
                await self.create(spec, HOST)

    async def create(self, spec: CreateTournament, owner: str) -> str:
        settings = settings_of(spec, owner, self.manager.limits)
        made: str = await self._call(self.store.create, settings)
        return made

    async def _call(self, fn: Callable[..., Any], *args: Any) -> Any:
        try:
            return await in_thread(fn, *args)
        except TournamentError as exc:
            raise HTTPException(exc.status, exc.message) from None

    async def start(self, tournament_id: str, owner: str | None) -> None:
        await self._open_tables(await self._call(self.store.start, tournament_id, owner))

    async def advance(self, tournament_id: str) -> None:
        """Pair the next round if the current one is over (once on the site), and start its tables."""
        await self._open_tables(await in_thread(self.store.advance, tournament_id))

    async def _open_tables(self, table_ids: list[str]) -> None:
        for table_id in table_ids:
            try:
                await self.manager.locate(table_id)
            except Exception as exc:  # another process (or the next look, or a restart) starts it
                log.warning("tournament table %s could not be started here: %s", table_id, type(exc).__name__)

    def table_over(self, table_id: str) -> None:
        """A table of this process ended: if it is a tournament's, its round may be over."""
        actor = self.manager.actors.get(table_id)
        tournament_id = None if actor is None else actor.tournament
        if tournament_id is None:
            return
        task = asyncio.get_running_loop().create_task(self._advance_logged(tournament_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _advance_logged(self, tournament_id: str) -> None:
        try:
            await self.advance(tournament_id)
        except Exception as exc:
            if not unreachable(exc):
                log.exception("tournament %s: its next round could not be paired", tournament_id)

    async def sweep(self) -> None:
        """Look at every tournament in play: a round whose tables all ended (here, elsewhere, before a restart) is
        paired on. The accounts' tournaments open past ``limits.tournament_open_for`` are called off."""
        expired = await in_thread(self.store.expire_open)
        if expired:
            log.info("%d open tournament(s) not started in %g s called off", expired,
                     self.store.limits.tournament_open_for)
        for tournament_id in await in_thread(self.store.playing):
            await self._advance_logged(tournament_id)
        await self.offer()

    async def wait(self) -> None:
        """Until the rounds being paired now are (a test's, or the server's stop)."""
        while self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)


def add_routes(app: FastAPI, tournaments: Callable[[], Tournaments], limiter: Limiter,
               guard: Callable[[Request], Awaitable[LoginSession | None]],
               viewer: Callable[[Request], Awaitable[LoginSession | None]],
               seat_name: Callable[[LoginSession | None, str | None], Awaitable[str]]) -> None:
    """The tournaments' endpoints (docs/protocol.md, "Tournaments")."""

    def checked(tournament_id: str) -> str:
        if not TOURNAMENT_ID.match(tournament_id):
            raise HTTPException(404, "no such tournament")
        return tournament_id

    @app.get("/api/tournaments")
    async def list_tournaments() -> dict[str, Any]:
        """The tournaments open or playing, newest first, then the latest finished."""
        return {"tournaments": await in_thread(tournaments().store.listing)}

    @app.post("/api/tournaments")
    async def create_tournament(request: Request, spec: CreateTournament) -> dict[str, Any]:
        """A new tournament of the account logged in."""
        session = await guard(request)
        if session is None:
            raise HTTPException(401, "log in to make a tournament")
        limiter.check("create", client_address(request.client))
        tournament_id = await tournaments().create(spec, f"user:{session.user.id}")
        return {"id": tournament_id, "url": f"/tournaments/{tournament_id}"}

    @app.get("/api/tournaments/{tournament_id}")
    async def show_tournament(tournament_id: str) -> dict[str, Any]:
        found: dict[str, Any] = await tournaments()._call(tournaments().store.show, checked(tournament_id))
        return found

    @app.post("/api/tournaments/{tournament_id}/join")
    async def join_tournament(request: Request, tournament_id: str, body: JoinTournament) -> dict[str, Any]:
        """Enter: a guest by name, someone logged in as their account. The token says who one is from now on."""
        session = await guard(request)
        limiter.check("join", client_address(request.client))
        checked(tournament_id)
        name = await seat_name(session, body.name)
        t = tournaments()
        entrant, token, full = await t._call(t.store.join, tournament_id, name,
                                             None if session is None else session.user.id)
        if full:
            await t.start(tournament_id, None)
        return {"id": tournament_id, "entrant": entrant, "token": token, "name": name}

    @app.post("/api/tournaments/{tournament_id}/leave")
    async def leave_tournament(request: Request, tournament_id: str, body: EntrantToken) -> dict[str, Any]:
        session = await guard(request)
        t = tournaments()
        await t._call(t.store.leave, checked(tournament_id), body.token, None if session is None else session.user.id)
        return {"id": tournament_id, "left": True}

    @app.post("/api/tournaments/{tournament_id}/start")
    async def start_tournament(request: Request, tournament_id: str) -> dict[str, Any]:
        session = await guard(request)
        if session is None:
            raise HTTPException(401, "log in first")
        await tournaments().start(checked(tournament_id), f"user:{session.user.id}")
        return {"id": tournament_id, "status": "playing"}

    @app.post("/api/tournaments/{tournament_id}/cancel")
    async def cancel_tournament(request: Request, tournament_id: str) -> dict[str, Any]:
        """Its creator calls it off before the start."""
        session = await guard(request)
        if session is None:
            raise HTTPException(401, "log in first")
        t = tournaments()
        await t._call(t.store.cancel, checked(tournament_id), f"user:{session.user.id}")
        return {"id": tournament_id, "status": "cancelled"}

    @app.post("/api/tournaments/{tournament_id}/me")
    async def my_place(request: Request, tournament_id: str, body: EntrantToken) -> dict[str, Any]:
        """Who the token (or account) is in the tournament, and their seat at the round's table with its token."""
        session = await viewer(request)
        t = tournaments()
        found: dict[str, Any] = await t._call(t.store.seat, checked(tournament_id), body.token,
                                              None if session is None else session.user.id)
        return found


__all__ = ["CreateTournament", "Tournaments", "add_routes", "settings_of"]
