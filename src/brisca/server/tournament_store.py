"""Tournaments in the database: made, joined and left, started, and each round paired once.

Every change is one transaction. The start and each next round are guarded by an update of the tournament's row
(``status = 'open'`` to ``'playing'``; ``round = r`` to ``r + 1``) that only one process can make: whoever's update
changes the row pairs the round, in the same transaction that stores the round's tables, so that a site of several
processes (or a restart mid-way) pairs every round exactly once. The tables are ordinary tables of the site
(``brisca_tables``, owned by ``tournament:<id>``), with every seat given: the entrants' seats, and bots in the
seats the entrants do not fill; whichever process loads them plays them.

An entrant holds a token (its hash stored). The token of their seat at a round's table is derived from it
(:func:`seat_token`): the server gives it to whoever shows the entrant's token, or to the entrant's account.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, cast

import sqlalchemy as sa

from brisca.errors import BriscaError
from brisca.record import MatchRecord
from brisca.record import loads as load_record
from brisca.rules import Rules, make_rules
from brisca.server.clock import Clock
from brisca.server.db import (
    EntrantRow,
    GameRow,
    RatingRow,
    SeatRow,
    TableRow,
    TournamentRow,
    TournamentTableRow,
    UserRow,
    _now,
)
from brisca.server.limits import Limits
from brisca.server.store import hash_token
from brisca.server.table import TOURNAMENT_OWNER
from brisca.server.tournaments import Layout, Pairing, Result, plan, standings, swiss_round
from brisca.server.tournaments import round_robin as round_robin_schedule

TOURNAMENT_ID = re.compile(r"^[A-Za-z0-9_-]{4,32}$")
#: The owner of the tournaments the server's configuration offers.
HOST = "host"
#: The statuses of a tournament that count against the caps.
LIVE = ("open", "playing")

_T = cast(sa.Table, TournamentRow.__table__)
_E = cast(sa.Table, EntrantRow.__table__)
_TT = cast(sa.Table, TournamentTableRow.__table__)
_TABLES = cast(sa.Table, TableRow.__table__)
_SEATS = cast(sa.Table, SeatRow.__table__)
_GAMES = cast(sa.Table, GameRow.__table__)
_USERS = cast(sa.Table, UserRow.__table__)
_RATINGS = cast(sa.Table, RatingRow.__table__)


class TournamentError(Exception):
    """A request about a tournament refused: ``status`` is its HTTP status."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass(frozen=True)
class Settings:
    """What a tournament is made with (checked by its maker: :mod:`brisca.server.tournament_api`)."""

    name: str
    preset: str
    options: dict[str, Any]
    players: int
    rounds: int
    clock: Clock
    rated: bool
    start: str
    max_entrants: int
    owner: str
    bot: str = "normal"
    bot_delay: float = 0.6


def table_rules(preset: str, options: dict[str, Any], players: int) -> Rules:
    """The rules of a tournament's tables: the preset's, with partners fixed where it draws for them (the pairing
    chooses the partners)."""
    rules = make_rules(preset, options)
    if rules.partners == "draw" and rules.sides(players) < players:
        rules = make_rules(preset, {**options, "partners": "fixed"})
    return rules


def layout_of(preset: str, options: dict[str, Any], players: int) -> Layout:
    return Layout(players, table_rules(preset, options, players).sides(players))


def seat_token(entrant_hash: str, table_id: str, seat: int) -> str:
    """The token of an entrant's seat at a table, from the hash of the entrant's token: only the server, which
    keeps that hash, can make it, and only for whoever shows the entrant's token (or account)."""
    return hmac.new(entrant_hash.encode(), f"{table_id}:{seat}".encode(), hashlib.sha256).hexdigest()[:40]


def _new_id() -> str:
    return secrets.token_urlsafe(9).replace("-", "x").replace("_", "y")


class TournamentStore:
    """The tournaments of a site's database (synchronous: the API runs each call in a thread)."""

    def __init__(self, engine: sa.Engine, limits: Limits) -> None:
        self.engine = engine
        self.limits = limits

    # ------------------------------------------------------------------ making, joining, leaving

    def create(self, settings: Settings) -> str:
        """A new tournament, within the caps on tournaments not finished (the site's, and an account's). One the host
        offers that another process of the site has just made is not made twice (its id is returned)."""
        try:
            return self._create(settings)
        except sa.exc.IntegrityError:
            if settings.owner != HOST:
                raise
        with self.engine.connect() as c:
            return str(c.execute(sa.select(_T.c.id).where(_T.c.owner == HOST, _T.c.name == settings.name)
                                 .order_by(_T.c.created_at.desc())).scalars().first())

    def _create(self, settings: Settings) -> str:
        limits = self.limits
        with self.engine.begin() as c:
            live = c.execute(sa.select(sa.func.count()).select_from(_T).where(_T.c.status.in_(LIVE))).scalar_one()
            if live >= limits.max_tournaments:
                raise TournamentError(409, f"this server has {live} tournaments open or playing, its limit of "
                                           f"{limits.max_tournaments}: try again when one ends")
            if settings.owner.startswith("user:"):
                mine = c.execute(sa.select(sa.func.count()).select_from(_T).where(
                    _T.c.status.in_(LIVE), _T.c.owner == settings.owner)).scalar_one()
                if mine >= limits.max_tournaments_account:
                    raise TournamentError(409, f"you have {mine} tournaments open or playing, this server's limit "
                                               f"of {limits.max_tournaments_account}: wait for one to end")
            if settings.owner == HOST:
                # The host's: its id follows from its name and how many of that name are over, so that the
                # processes of a site that offer it at once make it once (the second insert is refused).
                made = c.execute(sa.select(sa.func.count()).select_from(_T).where(
                    _T.c.owner == HOST, _T.c.name == settings.name, _T.c.status.not_in(LIVE))).scalar_one()
                digest = hashlib.sha256(settings.name.encode()).hexdigest()[:12]
                tournament_id = f"h{digest}x{made}"
            else:
                tournament_id = _new_id()
            c.execute(_T.insert().values(
                id=tournament_id, name=settings.name, preset=settings.preset, options=settings.options,
                players=settings.players, rounds=settings.rounds, clock_move=settings.clock.move,
                clock_reserve=settings.clock.reserve, bot_delay=settings.bot_delay, bot=settings.bot,
                rated=settings.rated, start=settings.start, max_entrants=settings.max_entrants, owner=settings.owner,
                status="open", round=0, created_at=_now()))
        return tournament_id

    def host_made(self, name: str) -> bool:
        """Whether the server's configuration made a tournament of this name that is not finished."""
        with self.engine.connect() as c:
            return c.execute(sa.select(_T.c.id).where(_T.c.owner == HOST, _T.c.name == name,
                                                      _T.c.status.in_(LIVE))).first() is not None

    def _row(self, c: sa.Connection, tournament_id: str, lock: bool = False) -> Any:
        if not TOURNAMENT_ID.match(tournament_id):
            raise TournamentError(404, "no such tournament")
        query = sa.select(_T).where(_T.c.id == tournament_id)
        row = c.execute(query.with_for_update() if lock else query).first()
        if row is None:
            raise TournamentError(404, "no such tournament")
        return row

    def join(self, tournament_id: str, name: str, user_id: int | None) -> tuple[int, str, bool]:
        """Enter a person (an account's, or a guest's by name): their entrant id, their token, and whether the
        tournament is now full and starts when full."""
        with self.engine.begin() as c:
            t = self._row(c, tournament_id, lock=True)
            if t.status != "open":
                raise TournamentError(409, "this tournament has started: joining is over")
            if t.rated and user_id is None:
                raise TournamentError(403, "a rated tournament is for accounts: log in to join it")
            entrants = c.execute(sa.select(_E.c.name, _E.c.user_id).where(_E.c.tournament_id == tournament_id)).all()
            if user_id is not None and any(e.user_id == user_id for e in entrants):
                raise TournamentError(409, "you have joined this tournament already")
            if any(e.name.casefold() == name.casefold() for e in entrants):
                raise TournamentError(409, f"name: {name} is taken in this tournament; pick another")
            if len(entrants) >= t.max_entrants:
                raise TournamentError(409, f"this tournament is full ({t.max_entrants} entrants)")
            token = secrets.token_urlsafe(24)
            entrant_id = c.execute(_E.insert().values(
                tournament_id=tournament_id, name=name, user_id=user_id, token_hash=hash_token(token),
                joined_at=_now())).inserted_primary_key
            assert entrant_id is not None
            # Counted again after the insert (which holds the write lock): two joins at once cannot both take the
            # last place.
            count = c.execute(sa.select(sa.func.count()).select_from(_E)
                              .where(_E.c.tournament_id == tournament_id)).scalar_one()
            if count > t.max_entrants:
                raise TournamentError(409, f"this tournament is full ({t.max_entrants} entrants)")
            full = t.start == "full" and count >= t.max_entrants
        return int(entrant_id[0]), token, full

    def _entrant(self, c: sa.Connection, tournament_id: str, token: str | None, user_id: int | None) -> Any:
        """The entrant of a token, or else of an account (``None``: neither is one)."""
        if token is not None:
            found = c.execute(sa.select(_E).where(_E.c.tournament_id == tournament_id,
                                                  _E.c.token_hash == hash_token(token))).first()
            if found is not None:
                return found
        if user_id is not None:
            return c.execute(sa.select(_E).where(_E.c.tournament_id == tournament_id,
                                                 _E.c.user_id == user_id)).first()
        return None

    def leave(self, tournament_id: str, token: str | None, user_id: int | None) -> None:
        """An entrant leaves, before the start."""
        with self.engine.begin() as c:
            t = self._row(c, tournament_id, lock=True)
            entrant = self._entrant(c, tournament_id, token, user_id)
            if entrant is None:
                raise TournamentError(403, "you are not in this tournament")
            if t.status != "open":
                raise TournamentError(409, "this tournament has started: its entrants play it to the end")
            c.execute(_E.delete().where(_E.c.id == entrant.id))

    def seat(self, tournament_id: str, token: str | None, user_id: int | None) -> dict[str, Any]:
        """Who the token (or account) is in the tournament, their seat at the current round's table (its token) if
        they have one, and whether the account made the tournament."""
        with self.engine.connect() as c:
            t = self._row(c, tournament_id)
            entrant = self._entrant(c, tournament_id, token, user_id)
            creator = user_id is not None and t.owner == f"user:{user_id}"
            if entrant is None:
                return {"entrant": None, "table": None, "creator": creator}
            out: dict[str, Any] = {"entrant": {"id": entrant.id, "number": entrant.number, "name": entrant.name},
                                   "table": None, "creator": creator}
            if entrant.number is None or t.status != "playing":
                return out
            for board in c.execute(sa.select(_TT).where(_TT.c.tournament_id == tournament_id,
                                                        _TT.c.round == t.round)):
                if entrant.number in board.seats:
                    seat = list(board.seats).index(entrant.number)
                    out["table"] = {"table_id": board.table_id, "url": f"/t/{board.table_id}", "seat": seat,
                                    "token": seat_token(entrant.token_hash, board.table_id, seat)}
            return out

    def cancel(self, tournament_id: str, owner: str) -> None:
        """Its creator calls the tournament off before it starts (it no longer counts against the caps)."""
        with self.engine.begin() as c:
            t = self._row(c, tournament_id, lock=True)
            if owner != t.owner:
                raise TournamentError(403, "only its creator cancels this tournament")
            if t.status != "open":
                raise TournamentError(409, "this tournament has started: its entrants play it to the end")
            c.execute(_T.update().where(_T.c.id == tournament_id, _T.c.status == "open")
                      .values(status="cancelled", finished_at=_now()))

    # ------------------------------------------------------------------ the start and the rounds

    def start(self, tournament_id: str, owner: str | None) -> list[str]:
        """Start the tournament (``owner``: who asks, checked against its creator; ``None``: the server, once it
        is full): the entrants numbered in the order they joined (a rated tournament's by rating, the highest
        first), the system chosen, the first round's tables stored. Their ids (none where another process started
        it first)."""
        with self.engine.begin() as c:
            t = self._row(c, tournament_id, lock=True)
            if owner is not None and owner != t.owner:
                raise TournamentError(403, "only its creator starts this tournament")
            if t.status != "open":
                if owner is None:
                    return []
                raise TournamentError(409, "this tournament has started already")
            joined = c.execute(sa.select(_E.c.id, _USERS.c.username).outerjoin(_USERS, _USERS.c.id == _E.c.user_id)
                               .where(_E.c.tournament_id == tournament_id).order_by(_E.c.joined_at, _E.c.id)).all()
            if t.rated:  # seeded by rating, the highest first (a new account's is 0); else in the order they joined
                names = [e.username for e in joined if e.username is not None]
                rated = {r.name: r.mu - 3 * r.sigma for r in c.execute(
                    sa.select(_RATINGS.c.name, _RATINGS.c.mu, _RATINGS.c.sigma)
                    .where(_RATINGS.c.preset == t.preset, _RATINGS.c.name.in_(names)))}
                joined = sorted(joined, key=lambda e: -rated.get(e.username, 0.0))
            entrants = [e.id for e in joined]
            if len(entrants) < 2:
                raise TournamentError(409, "a tournament starts with 2 entrants at least")
            layout = layout_of(t.preset, dict(t.options), t.players)
            system, schedule = plan(len(entrants), t.rounds, layout)
            total = len(schedule) if schedule is not None else t.rounds
            changed = c.execute(_T.update().where(_T.c.id == tournament_id, _T.c.status == "open").values(
                status="playing", round=1, system=system, total_rounds=total, started_at=_now())).rowcount
            if changed != 1:
                return []
            for number, entrant_id in enumerate(entrants):
                c.execute(_E.update().where(_E.c.id == entrant_id).values(number=number))
            first = schedule[0] if schedule is not None else swiss_round(len(entrants), [], layout)
            return self._store_round(c, t, 1, first)

    def _store_round(self, c: sa.Connection, t: Any, number: int, pairings: Sequence[Pairing]) -> list[str]:
        """A round's tables, every seat given (entrants' and bots'), and the boards that name them."""
        entrants = {e.number: e for e in c.execute(sa.select(_E.c.number, _E.c.name, _E.c.user_id, _E.c.token_hash)
                                                    .where(_E.c.tournament_id == t.id))}
        rules = table_rules(t.preset, dict(t.options), t.players)
        now = _now()
        made = []
        for board, pairing in enumerate(pairings):
            table_id = _new_id()
            c.execute(_TABLES.insert().values(
                id=table_id, preset=rules.variant, options=rules.overrides(), players=t.players,
                seed=secrets.randbits(63), bot_delay=t.bot_delay, status="waiting", version=0, created_at=now,
                seeded=False, hints=False, owner=f"{TOURNAMENT_OWNER}{t.id}", last_active=now,
                clock_move=t.clock_move, clock_reserve=t.clock_reserve, unrated=not t.rated))
            for seat, entrant in enumerate(pairing.seats):
                if entrant is None:
                    c.execute(_SEATS.insert().values(table_id=table_id, seat=seat, name=f"bot:{t.bot}", bot=t.bot))
                else:
                    e = entrants[entrant]
                    c.execute(_SEATS.insert().values(
                        table_id=table_id, seat=seat, name=e.name, user_id=e.user_id,
                        token_hash=hash_token(seat_token(e.token_hash, table_id, seat))))
            c.execute(_TT.insert().values(tournament_id=t.id, round=number, board=board, table_id=table_id,
                                          seats=list(pairing.seats)))
            made.append(table_id)
        return made

    def advance(self, tournament_id: str) -> list[str]:
        """Where every table of the round being played is over: its results stored, and the next round paired
        (or the tournament finished), once, by whichever process's guarded update changes the row. The ids of the
        new round's tables (none: the round goes on, or another process paired it)."""
        with self.engine.begin() as c:
            t = self._row(c, tournament_id)
            if t.status != "playing":
                return []
            boards = c.execute(sa.select(_TT.c.board, _TT.c.table_id, _TT.c.seats, _TABLES.c.status)
                               .join(_TABLES, _TABLES.c.id == _TT.c.table_id)
                               .where(_TT.c.tournament_id == tournament_id, _TT.c.round == t.round)).all()
            if any(b.status in LIVE_TABLES for b in boards):
                return []
            last = t.round >= (t.total_rounds or t.rounds)
            guard = _T.update().where(_T.c.id == tournament_id, _T.c.status == "playing", _T.c.round == t.round)
            guard = guard.values(status="finished", finished_at=_now()) if last else guard.values(round=t.round + 1)
            if c.execute(guard).rowcount != 1:
                return []
            layout = layout_of(t.preset, dict(t.options), t.players)
            for b in boards:
                finished, winner, points = self._result(c, b.table_id, b.status, layout)
                c.execute(_TT.update().where(_TT.c.tournament_id == tournament_id, _TT.c.round == t.round,
                                             _TT.c.board == b.board)
                          .values(finished=finished, winner=winner, points=points))
            if last:
                return []
            n = c.execute(sa.select(sa.func.count()).select_from(_E).where(
                _E.c.tournament_id == tournament_id, _E.c.number.is_not(None))).scalar_one()
            if t.system == "round_robin":
                schedule = round_robin_schedule(n, layout, t.total_rounds)
                assert schedule is not None
                pairings = schedule[t.round]
            else:
                pairings = swiss_round(n, self._results(c, tournament_id), layout)
            return self._store_round(c, t, t.round + 1, pairings)

    @staticmethod
    def _result(c: sa.Connection, table_id: str, status: str, layout: Layout) -> tuple[bool, int | None, list[int]]:
        """A table's result: whether its match was played to a result, the winning side, each side's card points."""
        if status != "finished":
            return False, None, [0] * layout.sides
        game = c.execute(sa.select(_GAMES.c.winner, _GAMES.c.record).where(_GAMES.c.table_id == table_id)).first()
        if game is None:
            return False, None, [0] * layout.sides
        points = [0] * layout.sides
        try:
            for hand in MatchRecord.of(load_record(game.record)).replay():
                result = hand.result()
                if result is not None:
                    for side, p in enumerate(result.side_points[: layout.sides]):
                        points[side] += p
        except BriscaError:
            pass  # a record that does not replay (it did when stored): its points are left out
        return True, game.winner, points

    @staticmethod
    def _results(c: sa.Connection, tournament_id: str) -> list[Result]:
        rows = c.execute(sa.select(_TT).where(_TT.c.tournament_id == tournament_id, _TT.c.finished.is_not(None))
                         .order_by(_TT.c.round, _TT.c.board))
        return [Result(tuple(r.seats), r.winner, bool(r.finished), tuple(r.points or ())) for r in rows]

    def expire_open(self) -> int:
        """Call off the accounts' tournaments open for longer than ``limits.tournament_open_for`` (the host's
        offered ones wait for their entrants); how many."""
        cutoff = _now() - timedelta(seconds=self.limits.tournament_open_for)
        with self.engine.begin() as c:
            return int(c.execute(_T.update().where(_T.c.status == "open", _T.c.owner != HOST,
                                                   _T.c.created_at < cutoff)
                                 .values(status="cancelled", finished_at=_now())).rowcount)

    def playing(self) -> list[str]:
        """The tournaments in play (each looked at for a round that is over)."""
        with self.engine.connect() as c:
            return [str(t) for t in c.execute(sa.select(_T.c.id).where(_T.c.status == "playing")).scalars()]

    # ------------------------------------------------------------------ reading

    def listing(self, limit: int = 50) -> list[dict[str, Any]]:
        """The tournaments open or playing, newest first, then the latest finished."""
        with self.engine.connect() as c:
            counts = (sa.select(_E.c.tournament_id, sa.func.count().label("n")).group_by(_E.c.tournament_id)
                      .subquery())
            query = (sa.select(_T, sa.func.coalesce(counts.c.n, 0).label("entrants"))
                     .outerjoin(counts, counts.c.tournament_id == _T.c.id))
            live = c.execute(query.where(_T.c.status.in_(LIVE)).order_by(_T.c.created_at.desc()).limit(limit)).all()
            done = c.execute(query.where(_T.c.status == "finished").order_by(_T.c.finished_at.desc())
                             .limit(max(0, min(limit, 20)))).all()
        return [{**_summary(r), "entrants": int(r.entrants)} for r in [*live, *done]]

    def show(self, tournament_id: str) -> dict[str, Any]:
        """A tournament as everyone sees it: its settings, entrants, the pairings of its rounds (their tables and
        results), and the standings."""
        with self.engine.connect() as c:
            t = self._row(c, tournament_id)
            entrants = c.execute(sa.select(_E.c.id, _E.c.number, _E.c.name, _E.c.user_id, _USERS.c.username)
                                 .outerjoin(_USERS, _USERS.c.id == _E.c.user_id)
                                 .where(_E.c.tournament_id == tournament_id)
                                 .order_by(_E.c.number, _E.c.joined_at, _E.c.id)).all()
            boards = c.execute(sa.select(_TT, _TABLES.c.status).join(_TABLES, _TABLES.c.id == _TT.c.table_id)
                               .where(_TT.c.tournament_id == tournament_id)
                               .order_by(_TT.c.round, _TT.c.board)).all()
            results = self._results(c, tournament_id)
        by_number = {e.number: e for e in entrants if e.number is not None}
        layout = layout_of(t.preset, dict(t.options), t.players)

        def who(number: int | None) -> dict[str, Any]:
            if number is None:
                return {"entrant": None, "name": None, "bot": t.bot}
            e = by_number.get(number)
            return {"entrant": number, "name": None if e is None else e.name, "bot": None,
                    "account": None if e is None else e.username}

        rounds: dict[int, list[dict[str, Any]]] = {}
        for b in boards:
            rounds.setdefault(b.round, []).append({
                "board": b.board, "table_id": b.table_id, "url": f"/t/{b.table_id}", "status": b.status,
                "seats": [who(n) for n in b.seats], "over": b.finished is not None,
                "finished": b.finished, "winner": b.winner, "points": b.points})
        table = []
        if t.status != "open":
            for s in standings(len(by_number), results, layout, t.system or "swiss"):
                table.append({"rank": s.rank, **who(s.entrant), "score": s.score, "played": s.played,
                              "tiebreaks": dict(s.tiebreaks)})
        return {**_summary(t), "sides": layout.sides,
                "entrants": [{"number": e.number, "name": e.name, "account": e.username} for e in entrants],
                "pairings": [{"round": r, "tables": tables} for r, tables in sorted(rounds.items())],
                "standings": table}

    def owner(self, tournament_id: str) -> str:
        with self.engine.connect() as c:
            return str(self._row(c, tournament_id).owner)


#: A table whose match is not over.
LIVE_TABLES = ("waiting", "playing")


def _summary(t: Any) -> dict[str, Any]:
    return {"id": t.id, "url": f"/tournaments/{t.id}", "name": t.name, "preset": t.preset, "options": t.options,
            "players": t.players, "rounds": t.rounds, "total_rounds": t.total_rounds, "round": t.round,
            "system": t.system, "clock": {"move": t.clock_move, "reserve": t.clock_reserve}, "rated": t.rated,
            "start": t.start, "max_entrants": t.max_entrants, "status": t.status, "bot": t.bot,
            "host": t.owner == HOST, "created_at": t.created_at.isoformat(),
            "started_at": None if t.started_at is None else t.started_at.isoformat(),
            "finished_at": None if t.finished_at is None else t.finished_at.isoformat()}


__all__ = ["TOURNAMENT_ID", "Settings", "TournamentError", "TournamentStore", "layout_of", "seat_token",
           "table_rules"]
