"""The database side of the tables: small synchronous writes, each one committed before a broadcast."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, cast

import sqlalchemy as sa
from sqlalchemy.orm import Session

from brisca.server.db import (
    ActionRow,
    GameRow,
    HandRow,
    RatingRow,
    SeatRow,
    TableRow,
    _now,
    make_engine,
    upgrade,
)

_TABLES = cast(sa.Table, TableRow.__table__)
_SEATS = cast(sa.Table, SeatRow.__table__)
_HANDS = cast(sa.Table, HandRow.__table__)
_ACTIONS = cast(sa.Table, ActionRow.__table__)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class SeatInfo:
    seat: int
    name: str | None = None
    bot: str | None = None
    token_hash: str | None = None


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
    #: ``(hand_number, seat, action_json)`` in order of action number.
    actions: list[tuple[int, int, dict[str, Any]]] = field(default_factory=list)


class Store:
    def __init__(self, url: str | None) -> None:
        self.engine = make_engine(url)
        upgrade(self.engine)

    def dispose(self) -> None:
        self.engine.dispose()

    def create_table(self, state: TableState) -> None:
        with Session(self.engine) as s, s.begin():
            s.add(TableRow(id=state.id, preset=state.preset, options=state.options, players=state.players,
                           seed=state.seed, bot_delay=state.bot_delay, status=state.status, version=state.version))
            s.flush()
            for info in state.seats:
                s.add(SeatRow(table_id=state.id, seat=info.seat, name=info.name, bot=info.bot,
                              token_hash=info.token_hash))

    def _version(self, c: sa.Connection, table_id: str, version: int, status: str | None = None) -> None:
        values: dict[str, Any] = {"version": version}
        if status is not None:
            values["status"] = status
        c.execute(_TABLES.update().where(_TABLES.c.id == table_id).values(**values))

    # The writes on the path of every move use SQLAlchemy Core: the ORM's bookkeeping costs more than SQLite.

    def set_version(self, table_id: str, version: int) -> None:
        with self.engine.begin() as c:
            self._version(c, table_id, version)

    def write_join(self, table_id: str, info: SeatInfo, version: int) -> None:
        with self.engine.begin() as c:
            c.execute(_SEATS.update().where(_SEATS.c.table_id == table_id, _SEATS.c.seat == info.seat)
                      .values(name=info.name, token_hash=info.token_hash))
            self._version(c, table_id, version)

    def write_hand(self, table_id: str, hand_number: int, deck: Sequence[str], version: int) -> None:
        with self.engine.begin() as c:
            c.execute(_HANDS.insert().values(table_id=table_id, hand_number=hand_number, deck=list(deck)))
            self._version(c, table_id, version, "playing")

    def write_action(self, table_id: str, number: int, hand_number: int, seat: int, action: dict[str, Any],
                     version: int) -> None:
        with self.engine.begin() as c:
            c.execute(_ACTIONS.insert().values(table_id=table_id, action_number=number, hand_number=hand_number,
                                               seat=seat, action=action, created_at=_now()))
            self._version(c, table_id, version)

    def write_finish(self, table_id: str, game: GameRow, ratings: dict[str, tuple[float, float]],
                     version: int) -> None:
        with Session(self.engine) as s, s.begin():
            s.add(game)
            for name, (mu, sigma) in ratings.items():
                row = s.get(RatingRow, (game.preset, name))
                if row is None:
                    s.add(RatingRow(preset=game.preset, name=name, mu=mu, sigma=sigma, games=1))
                else:
                    row.mu, row.sigma, row.games = mu, sigma, row.games + 1
            s.flush()
            self._version(s.connection(), table_id, version, "finished")

    def ratings(self, preset: str, names: Sequence[str]) -> dict[str, tuple[float, float]]:
        with Session(self.engine) as s:
            rows = s.scalars(sa.select(RatingRow).where(RatingRow.preset == preset, RatingRow.name.in_(list(names))))
            return {r.name: (r.mu, r.sigma) for r in rows}

    def leaderboard(self, preset: str, limit: int = 100) -> list[dict[str, Any]]:
        with Session(self.engine) as s:
            rows = sorted(s.scalars(sa.select(RatingRow).where(RatingRow.preset == preset)),
                          key=lambda r: -(r.mu - 3 * r.sigma))
            out = [{"name": r.name, "mu": r.mu, "sigma": r.sigma, "ordinal": r.mu - 3 * r.sigma, "games": r.games}
                   for r in rows]
        return out[:limit]

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

    def load(self, table_id: str) -> TableState | None:
        with Session(self.engine) as s:
            row = s.get(TableRow, table_id)
            if row is None:
                return None
            seats = [SeatInfo(r.seat, r.name, r.bot, r.token_hash) for r in
                     s.scalars(sa.select(SeatRow).where(SeatRow.table_id == table_id).order_by(SeatRow.seat))]
            decks = [r.deck for r in s.scalars(sa.select(HandRow).where(HandRow.table_id == table_id)
                                                .order_by(HandRow.hand_number))]
            actions = [(r.hand_number, r.seat, r.action) for r in
                       s.scalars(sa.select(ActionRow).where(ActionRow.table_id == table_id)
                                 .order_by(ActionRow.action_number))]
            return TableState(row.id, row.preset, dict(row.options), row.players, row.seed, row.bot_delay,
                              row.status, row.version, seats, decks, actions)


# ---------------------------------------------------------------------------------------------------------------
# Reads for the web pages (the lobby, the history, the leaderboard): select only the columns they show.


def live_tables(store: Store, status: str, limit: int = 50) -> list[tuple[str, str]]:
    """``(table_id, created_at)`` (ISO time) of the tables with this status, newest first."""
    query = (sa.select(_TABLES.c.id, _TABLES.c.created_at).where(_TABLES.c.status == status)
             .order_by(_TABLES.c.created_at.desc(), _TABLES.c.id).limit(limit))
    with store.engine.connect() as c:
        return [(row.id, row.created_at.isoformat()) for row in c.execute(query)]


def finished_games(store: Store, limit: int = 50, offset: int = 0,
                   preset: str | None = None) -> list[dict[str, Any]]:
    """The finished games, newest first, with their table's rule options and start time (not the records)."""
    games = cast(sa.Table, GameRow.__table__)
    query = (sa.select(games.c.table_id, games.c.preset, games.c.players, games.c.names, games.c.winner,
                       games.c.finished_at, _TABLES.c.options, _TABLES.c.created_at)
             .join(_TABLES, _TABLES.c.id == games.c.table_id)
             .order_by(games.c.finished_at.desc(), games.c.table_id).limit(limit).offset(offset))
    if preset is not None:
        query = query.where(games.c.preset == preset)
    with store.engine.connect() as c:
        return [{"table_id": r.table_id, "preset": r.preset, "players": r.players, "names": list(r.names),
                 "winner": r.winner, "finished_at": r.finished_at.isoformat(), "options": dict(r.options or {}),
                 "started_at": r.created_at.isoformat()} for r in c.execute(query)]


def finished_game(store: Store, table_id: str) -> dict[str, Any] | None:
    """One finished game as :func:`finished_games` lists it, with its record text under ``"record"``."""
    games = cast(sa.Table, GameRow.__table__)
    query = (sa.select(games.c.table_id, games.c.preset, games.c.players, games.c.names, games.c.winner,
                       games.c.finished_at, games.c.record, _TABLES.c.options, _TABLES.c.created_at)
             .join(_TABLES, _TABLES.c.id == games.c.table_id).where(games.c.table_id == table_id))
    with store.engine.connect() as c:
        r = c.execute(query).first()
    if r is None:
        return None
    return {"table_id": r.table_id, "preset": r.preset, "players": r.players, "names": list(r.names),
            "winner": r.winner, "finished_at": r.finished_at.isoformat(), "options": dict(r.options or {}),
            "started_at": r.created_at.isoformat(), "record": r.record}


def rated_presets(store: Store) -> list[dict[str, Any]]:
    """The presets with ratings: how many names are rated in each, most first."""
    ratings = cast(sa.Table, RatingRow.__table__)
    query = (sa.select(ratings.c.preset, sa.func.count().label("rated"))
             .group_by(ratings.c.preset).order_by(sa.func.count().desc(), ratings.c.preset))
    with store.engine.connect() as c:
        return [{"preset": r.preset, "rated": int(r.rated)} for r in c.execute(query)]
