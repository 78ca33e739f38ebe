"""Finished games analysed on request, in the background, and each analysis kept with its game's record.

A replay page asks for its game's analysis (:mod:`brisca.analysis`: every decision valued from its seat's
view, mistakes marked); only a finished game has a record to analyse, so nothing is ever analysed while a
game is live, nor a seat's hidden cards before the game is over. The work is bounded for the whole site: at
most :data:`MAX_QUEUED` analyses wait or run at once (counted in the database, which every process serving
the site shares), each in a worker process of its own so that the tables' event loop never waits for it, one
at a time a process. A queued analysis whose process stopped is taken as lost after :data:`STALE` and may be
asked for again. The result is stored (``brisca_analyses``) and served from there ever after.

The figures per account (:func:`player_stats`) come from the stored analyses of its games. At a practice table
(never a rated one) a seated person may ask for a hint on their turn: the best move for their own view, searched
by the same reading (:func:`brisca.analysis.read_view`) in a thread, one at a time a table
(:meth:`brisca.server.table.TableActor.hint`), by the process that runs the table wherever it is asked.
"""

from __future__ import annotations

import json
import logging
import multiprocessing
import threading
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import Future, ProcessPoolExecutor
from datetime import UTC, datetime, timedelta
from typing import Any, cast

import sqlalchemy as sa
from fastapi import FastAPI, HTTPException
from pydantic import BaseModel, Field

from brisca import analysis
from brisca.analysis import analyse
from brisca.record import loads
from brisca.server.db import AnalysisRow, GameRow, SeatRow, in_thread, make_engine
from brisca.server.manager import TABLE_ID
from brisca.server.store import Store
from brisca.server.table import TableActor, TableError

log = logging.getLogger("brisca.server")

#: Analyses queued or running at once on the site: more requests are refused until one is done.
MAX_QUEUED = 4
#: A queued analysis older than this is taken as lost (its process stopped) and may be asked for again.
STALE = timedelta(minutes=30)
#: Worlds searched a decision, and seconds at most: the analysis's own defaults (:func:`brisca.analysis.analyse`),
#: so that the page and ``brisca replay --analyse`` give the same judgement of a game.
WORLDS = analysis.WORLDS
THINK = analysis.THINK
#: Seconds at least between two writes of an analysis's progress.
PROGRESS_EVERY = 1.0

_ANALYSES = cast(sa.Table, AnalysisRow.__table__)
_GAMES = cast(sa.Table, GameRow.__table__)
_SEATS = cast(sa.Table, SeatRow.__table__)


class AnalysisBusy(Exception):
    """The site's queue of analyses is full."""


def _now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


def analyse_text(text: str, worlds: int = WORLDS, think: float = THINK, url: str | None = None,
                 table_id: str | None = None) -> str:
    """The analysis of the record ``text`` as JSON text (a worker process's job). With the database's ``url`` and
    the game's ``table_id``, its progress (moves done, of how many) is written to the game's queued row as it goes,
    at most once every :data:`PROGRESS_EVERY` seconds, for the page to show."""
    progress = None
    engine: sa.Engine | None = None
    if url is not None and table_id is not None:
        engine = make_engine(url)
        last = [0.0]

        def progress(done: int, total: int) -> None:
            now = time.monotonic()
            if now - last[0] < PROGRESS_EVERY and done < total:
                return
            last[0] = now
            assert engine is not None
            try:
                with engine.begin() as c:
                    c.execute(_ANALYSES.update().where(_ANALYSES.c.table_id == table_id,
                                                       _ANALYSES.c.status == "queued")
                              .values(result=f"{done}/{total}"))
            except sa.exc.SQLAlchemyError as exc:  # the progress is a courtesy: the analysis goes on without it
                log.warning("the progress of the analysis of game %s could not be written: %s", table_id, exc)
    try:
        found = analyse(loads(text), seed=0, worlds=worlds, think=think, progress=progress)
    finally:
        if engine is not None:
            engine.dispose()
    return json.dumps(found.to_json(), separators=(",", ":"))


class Analyst:
    """The site's analyses in one process: requests counted against the site's bound, the work in a worker
    process, the results written to the database."""

    def __init__(self, engine: sa.Engine, worlds: int = WORLDS, think: float = THINK) -> None:
        self.engine = engine
        self.worlds = worlds
        self.think = think
        self._pool: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()

    def status(self, table_id: str) -> dict[str, Any]:
        """``{"status": "none"}``, ``queued`` (with how many were asked for before it, and once under way its
        ``progress``: moves done, of how many), ``done`` (with the analysis) or ``failed``."""
        with self.engine.connect() as c:
            row = c.execute(sa.select(_ANALYSES).where(_ANALYSES.c.table_id == table_id)).first()
            if row is None or (row.status == "queued" and row.requested_at < _now() - STALE):
                return {"status": "none"}
            if row.status == "queued":
                ahead = c.execute(sa.select(sa.func.count()).select_from(_ANALYSES).where(
                    _ANALYSES.c.status == "queued", _ANALYSES.c.requested_at < row.requested_at,
                    _ANALYSES.c.requested_at >= _now() - STALE)).scalar_one()
                out: dict[str, Any] = {"status": "queued", "ahead": int(ahead)}
                done, slash, total = (row.result or "").partition("/")
                if slash and done.isdigit() and total.isdigit():
                    out["progress"] = {"done": int(done), "total": int(total)}
                return out
        if row.status == "done":
            return {"status": "done", "analysis": json.loads(row.result or "{}")}
        return {"status": "failed", "reason": row.result or ""}

    def request(self, table_id: str, record: str) -> dict[str, Any]:
        """Queue the analysis of a finished game (``record``: its record's text), unless it is queued or done
        already; :class:`AnalysisBusy` when the site's queue is full. The status after it."""
        now = _now()
        with self.engine.begin() as c:
            row = c.execute(sa.select(_ANALYSES.c.status, _ANALYSES.c.requested_at)
                            .where(_ANALYSES.c.table_id == table_id)).first()
            if row is not None and (row.status == "done" or (row.status == "queued"
                                                               and row.requested_at >= now - STALE)):
                queue = False
            else:
                waiting = c.execute(sa.select(sa.func.count()).select_from(_ANALYSES).where(
                    _ANALYSES.c.status == "queued", _ANALYSES.c.requested_at >= now - STALE)).scalar_one()
                if waiting >= MAX_QUEUED:
                    raise AnalysisBusy(f"{waiting} analyses are waiting already; ask again in a while")
                values = {"status": "queued", "result": None, "requested_at": now, "finished_at": None}
                if row is None:
                    c.execute(_ANALYSES.insert().values(table_id=table_id, **values))
                else:
                    c.execute(_ANALYSES.update().where(_ANALYSES.c.table_id == table_id).values(**values))
                queue = True
        if queue:
            url = self.engine.url.render_as_string(hide_password=False)
            future = self._workers().submit(analyse_text, record, self.worlds, self.think, url, table_id)
            future.add_done_callback(lambda f: self._finished(table_id, f))
        return self.status(table_id)

    def _workers(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._pool is None:
                # A fresh interpreter (not a fork of the server's threads), one analysis at a time.
                self._pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))
            return self._pool

    def _finished(self, table_id: str, future: Future[str]) -> None:
        try:
            result, status = future.result(), "done"
        except Exception as exc:  # the record did not analyse, or the worker died: said, and may be asked again
            log.warning("the analysis of game %s failed: %s", table_id, exc)
            result, status = f"{type(exc).__name__}: {exc}"[:500], "failed"
        try:
            with self.engine.begin() as c:
                c.execute(_ANALYSES.update().where(_ANALYSES.c.table_id == table_id)
                          .values(status=status, result=result, finished_at=_now()))
        except sa.exc.SQLAlchemyError:  # the server is stopping: the row stays queued, and goes stale
            log.warning("the analysis of game %s could not be stored", table_id)

    def close(self) -> None:
        """Stop the worker (an analysis under way is dropped; its row goes stale)."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            # The worker is stopped, not waited for: an analysis can take a minute, the server's stop cannot.
            workers = list((getattr(pool, "_processes", None) or {}).values())
            pool.shutdown(wait=False, cancel_futures=True)
            for worker in workers:
                worker.terminate()


def player_stats(engine: sa.Engine, user_id: int) -> list[dict[str, Any]]:
    """An account's play by preset, from the analyses of its finished games: games and hands analysed,
    decisions searched, the average loss a decision (see :mod:`brisca.analysis`), mistakes and blunders a hand."""
    query = (sa.select(_GAMES.c.preset, _SEATS.c.seat, _ANALYSES.c.result)
             .join(_ANALYSES, _ANALYSES.c.table_id == _GAMES.c.table_id)
             .join(_SEATS, _SEATS.c.table_id == _GAMES.c.table_id)
             .where(_SEATS.c.user_id == user_id, _ANALYSES.c.status == "done"))
    totals: dict[str, dict[str, float]] = {}
    with engine.connect() as c:
        for preset, seat, text in c.execute(query):
            data = json.loads(text or "{}")
            mine = [m for m in data.get("moves", []) if m.get("seat") == seat and "loss" in m]
            t = totals.setdefault(preset, {"games": 0, "hands": 0, "decisions": 0, "loss": 0.0, "mistakes": 0,
                                           "blunders": 0})
            t["games"] += 1
            t["hands"] += len({m["hand"] for m in data.get("moves", [])})
            t["decisions"] += len(mine)
            t["loss"] += sum(m["loss"] for m in mine)
            t["mistakes"] += sum(1 for m in mine if m.get("mark") == "mistake")
            t["blunders"] += sum(1 for m in mine if m.get("mark") == "blunder")
    out = []
    for preset, t in sorted(totals.items(), key=lambda kv: (-kv[1]["games"], kv[0])):
        hands = t["hands"] or 1
        out.append({"preset": preset, "games": int(t["games"]), "hands": int(t["hands"]),
                    "decisions": int(t["decisions"]),
                    "loss": round(t["loss"] / t["decisions"], 4) if t["decisions"] else 0.0,
                    "mistakes_per_hand": round(t["mistakes"] / hands, 3),
                    "blunders_per_hand": round(t["blunders"] / hands, 3)})
    return out


class HintRequest(BaseModel):
    #: The seat token of the person asking (their seat's view is the only one the hint reads).
    token: str = Field(max_length=200)


def add_routes(app: FastAPI, store: Callable[[], Store], find_user: Callable[[str], Any],
               route: Callable[[str], Awaitable[TableActor]]) -> None:
    """The analysis endpoints: a finished game's (asked for, then read), an account's figures, and the hint at a
    practice table (``route``: the actor of a table, here or standing for its owner; an HTTP error where none)."""

    def analyst() -> Analyst:
        found: Analyst | None = getattr(app.state, "analyst", None)
        if found is None or found.engine is not store().engine:
            found = app.state.analyst = Analyst(store().engine)
        return found

    def finished_record(table_id: str) -> str:
        text = store().record(table_id) if TABLE_ID.match(table_id) else None
        if text is None:
            raise HTTPException(404, "no finished game with this id")
        return text

    # Each read runs in a thread within the reads' deadline (brisca.server.db.CALL_TIMEOUT): a database that does
    # not answer gets 503, not a request held for ever.

    @app.get("/api/games/{table_id}/analysis")
    async def game_analysis(table_id: str) -> dict[str, Any]:
        """A finished game's analysis: ``none`` (not asked for), ``queued``, ``done`` (with it) or ``failed``."""
        await in_thread(finished_record, table_id)
        return await in_thread(analyst().status, table_id)

    @app.post("/api/games/{table_id}/analysis")
    async def ask_analysis(table_id: str) -> dict[str, Any]:
        """Ask for a finished game's analysis, made in the background (429 while the site's queue is full). Asked
        again after a 503, it is queued once."""
        record = await in_thread(finished_record, table_id)
        try:
            return await in_thread(analyst().request, table_id, record)
        except AnalysisBusy as exc:
            raise HTTPException(429, str(exc), headers={"Retry-After": "60"}) from None

    @app.post("/api/tables/{table_id}/hint")
    async def table_hint(table_id: str, body: HintRequest) -> dict[str, Any]:
        """The best move for the asking seat, from its own view, at a practice table, on its turn (a rated table
        gives none: 403); ``{"hint": null}`` where the expert does not search the choice. Asked of the process
        that runs the table, wherever the request arrives."""
        if not TABLE_ID.match(table_id):
            raise HTTPException(404, "no such table")
        actor = await route(table_id)
        try:
            return await actor.hint(body.token)
        except TableError as exc:
            status = {"not_found": 404, "forbidden": 403, "bad_token": 403, "not_your_turn": 409, "busy": 429,
                      "unavailable": 503, "moved": 503}.get(exc.code, 409)
            retry = {"Retry-After": "1"} if status in (429, 503) else None
            raise HTTPException(status, exc.message, headers=retry) from None

    @app.get("/api/players/{username}/analysis")
    async def player_analysis(username: str) -> list[dict[str, Any]]:
        """An account's play by preset, from the analyses of its finished games (:func:`player_stats`)."""
        user = await in_thread(find_user, username) if len(username) <= 64 else None
        if user is None:
            raise HTTPException(404, "no such player")
        return await in_thread(player_stats, store().engine, user.id)
