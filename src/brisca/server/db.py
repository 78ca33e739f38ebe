"""Persistence: SQLAlchemy models, the engine for a URL, and the Alembic upgrade run at startup.

SQLite by default (a file in the user's data directory), PostgreSQL by URL. Every accepted
action is written, keyed by ``(table_id, action_number)``, before it is broadcast; the stored
decks and actions rebuild any table after a restart.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

import sqlalchemy as sa
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

T = TypeVar("T")

def _now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


class Base(DeclarativeBase):
    pass


class TableRow(Base):
    __tablename__ = "brisca_tables"

    id: Mapped[str] = mapped_column(sa.String(32), primary_key=True)
    preset: Mapped[str] = mapped_column(sa.String(64))
    options: Mapped[dict[str, Any]] = mapped_column(sa.JSON)
    players: Mapped[int] = mapped_column(sa.Integer)
    seed: Mapped[int] = mapped_column(sa.BigInteger)
    bot_delay: Mapped[float] = mapped_column(sa.Float, default=0.0)
    status: Mapped[str] = mapped_column(sa.String(16), default="waiting", index=True)
    version: Mapped[int] = mapped_column(sa.Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(sa.DateTime, default=_now)
    #: The deals come from ``seed``, chosen by the client: a practice table, one person at most.
    seeded: Mapped[bool] = mapped_column(sa.Boolean, default=False)
    #: Anyone seated may ask for a hint on their turn: a table never rated.
    hints: Mapped[bool] = mapped_column(sa.Boolean, default=False, server_default=sa.false())
    #: Who opened it (``user:<id>`` or ``guest:<address>``): the caps on open tables count by owner.
    owner: Mapped[str | None] = mapped_column(sa.String(80), nullable=True, index=True)
    #: The last change at the table (idle tables are closed).
    last_active: Mapped[datetime | None] = mapped_column(sa.DateTime, nullable=True)
    #: Why a closed table closed (the reason its page showed), for whoever opens it afterwards.
    closed_reason: Mapped[str | None] = mapped_column(sa.String(200), nullable=True)
    #: The move clock (:mod:`brisca.server.clock`): seconds a move, and each person's reserve (``None``: a table
    #: from before the clock, which has none).
    clock_move: Mapped[float | None] = mapped_column(sa.Float, nullable=True)
    clock_reserve: Mapped[float | None] = mapped_column(sa.Float, nullable=True)
    #: When the clock of the seat to act runs out (seconds since the epoch; ``None``: no clock runs), and how many
    #: actions had been played when it was set (a deadline of an earlier turn is stale).
    clock_deadline: Mapped[float | None] = mapped_column(sa.Float, nullable=True)
    clock_action: Mapped[int | None] = mapped_column(sa.Integer, nullable=True)
    #: The seat whose clock runs (``None``: none): whose turn it is, for the pages that list a person's tables.
    clock_seat: Mapped[int | None] = mapped_column(sa.Integer, nullable=True)
    #: Never rated, whoever sits at it (a table of a tournament that is not rated).
    unrated: Mapped[bool] = mapped_column(sa.Boolean, default=False, server_default=sa.false())


class LeaseRow(Base):
    """Which process runs a table, when several serve one site (:mod:`brisca.server.cluster`)."""

    __tablename__ = "brisca_leases"

    table_id: Mapped[str] = mapped_column(sa.String(32), primary_key=True)
    #: The process's name (host, process id, a random part).
    owner: Mapped[str] = mapped_column(sa.String(64), index=True)
    #: Raised each time the table changes hands: every write checks it.
    epoch: Mapped[int] = mapped_column(sa.Integer)
    #: Renewed while the process runs; after it, another process may take the table over (the database's clock).
    expires_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True))


class SeatRow(Base):
    __tablename__ = "brisca_seats"

    table_id: Mapped[str] = mapped_column(sa.String(32), sa.ForeignKey("brisca_tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(sa.Integer, primary_key=True)
    name: Mapped[str | None] = mapped_column(sa.String(64), nullable=True)
    bot: Mapped[str | None] = mapped_column(sa.String(32), nullable=True)
    token_hash: Mapped[str | None] = mapped_column(sa.String(64), nullable=True)
    #: The account holding the seat (``None``: a guest, a bot, or free).
    user_id: Mapped[int | None] = mapped_column(sa.Integer, nullable=True, index=True)
    #: The seat's clock: the reserve left when its turn began (``None``: the whole reserve), its time-outs in the
    #: match, and those in a row.
    reserve: Mapped[float | None] = mapped_column(sa.Float, nullable=True)
    timeouts: Mapped[int] = mapped_column(sa.Integer, default=0, server_default="0")
    missed: Mapped[int] = mapped_column(sa.Integer, default=0, server_default="0")


class HandRow(Base):
    __tablename__ = "brisca_hands"

    table_id: Mapped[str] = mapped_column(sa.String(32), sa.ForeignKey("brisca_tables.id"), primary_key=True)
    hand_number: Mapped[int] = mapped_column(sa.Integer, primary_key=True)
    deck: Mapped[list[str]] = mapped_column(sa.JSON)
    #: Revealed with the record; ``commitment`` = SHA-256 of the salt and the deck, published at the deal.
    salt: Mapped[str | None] = mapped_column(sa.String(64), nullable=True)
    commitment: Mapped[str | None] = mapped_column(sa.String(64), nullable=True)


class ActionRow(Base):
    __tablename__ = "brisca_actions"
    __table_args__ = (sa.UniqueConstraint("table_id", "action_number", name="uq_brisca_actions_number"),)

    id: Mapped[int] = mapped_column(sa.Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(sa.String(32), sa.ForeignKey("brisca_tables.id"), index=True)
    action_number: Mapped[int] = mapped_column(sa.Integer)
    hand_number: Mapped[int] = mapped_column(sa.Integer)
    seat: Mapped[int] = mapped_column(sa.Integer)
    action: Mapped[dict[str, Any]] = mapped_column(sa.JSON)
    created_at: Mapped[datetime] = mapped_column(sa.DateTime, default=_now)


class GameRow(Base):
    __tablename__ = "brisca_games"

    table_id: Mapped[str] = mapped_column(sa.String(32), sa.ForeignKey("brisca_tables.id"), primary_key=True)
    preset: Mapped[str] = mapped_column(sa.String(64), index=True)
    players: Mapped[int] = mapped_column(sa.Integer)
    names: Mapped[list[str]] = mapped_column(sa.JSON)
    winner: Mapped[int | None] = mapped_column(sa.Integer, nullable=True)
    record: Mapped[str] = mapped_column(sa.Text)
    finished_at: Mapped[datetime] = mapped_column(sa.DateTime, default=_now)


class AnalysisRow(Base):
    """A finished game's analysis (:mod:`brisca.analysis`), asked for on its replay page and made in the
    background (:mod:`brisca.server.analyses`)."""

    __tablename__ = "brisca_analyses"

    table_id: Mapped[str] = mapped_column(sa.String(32), sa.ForeignKey("brisca_games.table_id"), primary_key=True)
    #: ``queued``, ``done`` or ``failed``.
    status: Mapped[str] = mapped_column(sa.String(16), index=True)
    #: The analysis as JSON text (``done``), or why it failed.
    result: Mapped[str | None] = mapped_column(sa.Text, nullable=True)
    requested_at: Mapped[datetime] = mapped_column(sa.DateTime, default=_now)
    finished_at: Mapped[datetime | None] = mapped_column(sa.DateTime, nullable=True)


class RatingRow(Base):
    __tablename__ = "brisca_ratings"

    preset: Mapped[str] = mapped_column(sa.String(64), primary_key=True)
    name: Mapped[str] = mapped_column(sa.String(64), primary_key=True)
    mu: Mapped[float] = mapped_column(sa.Float)
    sigma: Mapped[float] = mapped_column(sa.Float)
    games: Mapped[int] = mapped_column(sa.Integer, default=0)
    #: The distinct opponents (rating keys) of its rated matches, as many as an established rating needs
    #: (:data:`brisca.server.ratings.KEPT_OPPONENTS` at most); ``None``: none recorded.
    opponents: Mapped[list[str] | None] = mapped_column(sa.JSON, nullable=True)


class TournamentRow(Base):
    """A tournament (:mod:`brisca.server.tournaments`, :mod:`brisca.server.tournament_store`)."""

    __tablename__ = "brisca_tournaments"

    id: Mapped[str] = mapped_column(sa.String(32), primary_key=True)
    name: Mapped[str] = mapped_column(sa.String(64))
    preset: Mapped[str] = mapped_column(sa.String(64))
    options: Mapped[dict[str, Any]] = mapped_column(sa.JSON)
    #: Seats at each of its tables.
    players: Mapped[int] = mapped_column(sa.Integer)
    #: The rounds asked for (a round robin that fits in them takes fewer).
    rounds: Mapped[int] = mapped_column(sa.Integer)
    clock_move: Mapped[float] = mapped_column(sa.Float)
    clock_reserve: Mapped[float] = mapped_column(sa.Float)
    bot_delay: Mapped[float] = mapped_column(sa.Float)
    #: The bot level that fills empty seats.
    bot: Mapped[str] = mapped_column(sa.String(16))
    rated: Mapped[bool] = mapped_column(sa.Boolean)
    #: ``creator``: its creator starts it; ``full``: it starts when ``max_entrants`` have joined.
    start: Mapped[str] = mapped_column(sa.String(16))
    max_entrants: Mapped[int] = mapped_column(sa.Integer)
    #: ``user:<id>``, or ``host`` for one the server's configuration made.
    owner: Mapped[str] = mapped_column(sa.String(80), index=True)
    #: ``open`` (people join and leave), ``playing``, ``finished``, ``cancelled`` (by its creator, before the start).
    status: Mapped[str] = mapped_column(sa.String(16), index=True)
    #: ``round_robin`` or ``swiss`` (chosen at the start), and the rounds it plays.
    system: Mapped[str | None] = mapped_column(sa.String(16), nullable=True)
    total_rounds: Mapped[int | None] = mapped_column(sa.Integer, nullable=True)
    #: The round being played (0 before the start): raised once a round, by the one update that pairs the next.
    round: Mapped[int] = mapped_column(sa.Integer, default=0, server_default="0")
    created_at: Mapped[datetime] = mapped_column(sa.DateTime, default=_now)
    started_at: Mapped[datetime | None] = mapped_column(sa.DateTime, nullable=True)
    finished_at: Mapped[datetime | None] = mapped_column(sa.DateTime, nullable=True)


class EntrantRow(Base):
    """A person in a tournament: ``number`` is given at the start, in the order they joined."""

    __tablename__ = "brisca_entrants"
    __table_args__ = (sa.UniqueConstraint("tournament_id", "name", name="uq_brisca_entrants_name"),
                      sa.UniqueConstraint("tournament_id", "user_id", name="uq_brisca_entrants_user"))

    id: Mapped[int] = mapped_column(sa.Integer, primary_key=True, autoincrement=True)
    tournament_id: Mapped[str] = mapped_column(sa.String(32), sa.ForeignKey("brisca_tournaments.id"), index=True)
    name: Mapped[str] = mapped_column(sa.String(64))
    user_id: Mapped[int | None] = mapped_column(sa.Integer, nullable=True)
    #: SHA-256 of the entrant's token (the token itself is never stored).
    token_hash: Mapped[str] = mapped_column(sa.String(64))
    number: Mapped[int | None] = mapped_column(sa.Integer, nullable=True)
    joined_at: Mapped[datetime] = mapped_column(sa.DateTime, default=_now)


class TournamentTableRow(Base):
    """A table of a tournament's round, and its result once read (``finished`` ``None``: not yet)."""

    __tablename__ = "brisca_tournament_tables"

    tournament_id: Mapped[str] = mapped_column(sa.String(32), sa.ForeignKey("brisca_tournaments.id"),
                                               primary_key=True)
    round: Mapped[int] = mapped_column(sa.Integer, primary_key=True)
    board: Mapped[int] = mapped_column(sa.Integer, primary_key=True)
    table_id: Mapped[str] = mapped_column(sa.String(32), sa.ForeignKey("brisca_tables.id"), unique=True)
    #: The entrant number at each seat (``None``: a bot).
    seats: Mapped[list[int | None]] = mapped_column(sa.JSON)
    finished: Mapped[bool | None] = mapped_column(sa.Boolean, nullable=True)
    winner: Mapped[int | None] = mapped_column(sa.Integer, nullable=True)
    #: Each side's card points in the match.
    points: Mapped[list[int] | None] = mapped_column(sa.JSON, nullable=True)


class UserRow(Base):
    __tablename__ = "brisca_users"

    id: Mapped[int] = mapped_column(sa.Integer, primary_key=True, autoincrement=True)
    #: Normalised (NFKC, lower case): unique, and what ratings are keyed by.
    username: Mapped[str] = mapped_column(sa.String(32), unique=True)
    #: As the person typed it at sign-up.
    display: Mapped[str] = mapped_column(sa.String(32))
    #: Its look-alike key (:func:`brisca.server.names.lookalike`): unique, so that no two accounts look alike
    #: (``None``: an account from before the keys whose key another, older account holds).
    lookalike: Mapped[str | None] = mapped_column(sa.String(96), unique=True, index=True, nullable=True)
    password_hash: Mapped[str] = mapped_column(sa.String(255))
    created_at: Mapped[datetime] = mapped_column(sa.DateTime, default=_now)


class SessionRow(Base):
    __tablename__ = "brisca_sessions"

    #: SHA-256 of the session cookie's value (the cookie itself is never stored).
    token_hash: Mapped[str] = mapped_column(sa.String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(sa.Integer, sa.ForeignKey("brisca_users.id"), index=True)
    #: The token the page sends back in a header with every change (double submit against CSRF).
    csrf: Mapped[str] = mapped_column(sa.String(64))
    created_at: Mapped[datetime] = mapped_column(sa.DateTime, default=_now)
    expires_at: Mapped[datetime] = mapped_column(sa.DateTime)


def default_url() -> str:
    """SQLite in the user's data directory."""
    from platformdirs import user_data_dir

    folder = Path(user_data_dir("brisca", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'brisca.sqlite3'}"


def normalize_url(url: str) -> str:
    """``postgresql://`` means psycopg 3 here; a bare path means a SQLite file."""
    if url.startswith(("postgresql://", "postgres://")):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    if "://" not in url:
        return f"sqlite:///{url}"
    return url


#: PostgreSQL's bounds, each the library's or the server's own setting: seconds to open a connection (a server
#: that accepts but never answers fails after this; libpq's ``connect_timeout``), a statement may run
#: (``statement_timeout``), a statement may wait for a row or table lock (``lock_timeout``: a write held up by
#: another process's transaction fails rather than holds its table), a session may sit in a transaction without
#: a word from its client (``idle_in_transaction_session_timeout``: the server ends the transaction of a client
#: cut off mid-write, and frees its locks), and a request may wait for a free connection of the pool
#: (SQLAlchemy's ``pool_timeout``).
CONNECT_TIMEOUT = 5
STATEMENT_TIMEOUT = 15.0
LOCK_TIMEOUT = 5.0
IDLE_IN_TRANSACTION_TIMEOUT = 15.0
POOL_TIMEOUT = 5.0
#: Seconds of unacknowledged data before the kernel drops the connection (libpq's ``tcp_user_timeout``), and the
#: TCP keepalives: a server gone from the network is noticed without waiting for the system's minutes.
TCP_USER_TIMEOUT = 10.0
KEEPALIVES = {"keepalives": 1, "keepalives_idle": 5, "keepalives_interval": 2, "keepalives_count": 3}
#: Seconds a call made from a thread may wait for the database (a read of a request, a look of the cluster)
#: before its caller is answered: a socket the database stopped answering has no timeout of the driver's.
CALL_TIMEOUT = 5.0


class DatabaseStalled(Exception):
    """The database did not answer within a deadline of ours (its connection neither answers nor fails): the
    call may still go through later, as a write cut short may or may not have been committed."""


def make_engine(url: str | None) -> sa.Engine:
    """The engine of a URL; PostgreSQL's with the bounds above, so that no call waits on it for ever."""
    url = normalize_url(url or default_url())
    if url.startswith("sqlite"):
        engine = sa.create_engine(url, connect_args={"check_same_thread": False})

        @sa.event.listens_for(engine, "connect")
        def _pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            # NORMAL: a commit survives the server's crash (kill -9), not a power cut; no fsync at each commit.
            cursor.execute("PRAGMA synchronous=NORMAL")
            # No checkpoint inside a commit (it copies the log into the database and syncs it, which can
            # take a while): the store checkpoints from a thread of its own (see Store), and the last
            # connection to close does too.
            cursor.execute("PRAGMA wal_autocheckpoint=0")
            cursor.execute(f"PRAGMA journal_size_limit={64 * 2**20}")  # the log file's size after a checkpoint
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        return engine
    return sa.create_engine(url, pool_pre_ping=True, pool_timeout=POOL_TIMEOUT,
                            connect_args=postgresql_bounds(url))


def postgresql_bounds(url: str) -> dict[str, Any]:
    """libpq's parameters for the bounds above. The server's settings go in the start-up packet (``options``, after
    any the URL gives, such as a ``search_path``): set before the first statement, within the connect timeout."""
    given = sa.engine.make_url(url).query.get("options", "")
    settings = {"statement_timeout": STATEMENT_TIMEOUT, "lock_timeout": LOCK_TIMEOUT,
                "idle_in_transaction_session_timeout": IDLE_IN_TRANSACTION_TIMEOUT}
    options = [given] if isinstance(given, str) else list(given)
    options += [f"-c {name}={int(seconds * 1000)}" for name, seconds in settings.items()]
    return {"connect_timeout": CONNECT_TIMEOUT, "options": " ".join(o for o in options if o),
            "tcp_user_timeout": int(TCP_USER_TIMEOUT * 1000), **KEEPALIVES}


async def in_thread(fn: Callable[..., T], *args: Any, timeout: float | None = None) -> T:
    """``fn(*args)`` (a database call) in a thread, waited for ``timeout`` seconds at most (:data:`CALL_TIMEOUT`
    unless given; then :class:`DatabaseStalled`; the thread finishes alone, its connection held until the
    database answers or the kernel gives it up)."""
    return await within_deadline(asyncio.ensure_future(asyncio.to_thread(fn, *args)), timeout)


async def within_deadline(work: asyncio.Future[T], timeout: float | None = None) -> T:
    """``work`` (a database call under way in a thread), waited for ``timeout`` seconds at most
    (:data:`CALL_TIMEOUT` unless given), then :class:`DatabaseStalled`. ``work`` itself is not cancelled: what
    waits on its end (a semaphore's release) still follows the thread."""
    limit = CALL_TIMEOUT if timeout is None else timeout
    try:
        return await asyncio.wait_for(asyncio.shield(work), limit)
    except TimeoutError:
        # Its end, whatever it is, is not waited for: retrieved, so that a late failure is not reported twice.
        work.add_done_callback(lambda f: f.cancelled() or f.exception())
        raise DatabaseStalled(f"the database did not answer within {limit:g} s") from None


def check_reachable(url: str | None) -> None:
    """Before serving: a PostgreSQL URL names a server that answers (within :data:`CONNECT_TIMEOUT` seconds);
    ``ValueError`` with one line saying why not. (A SQLite file is made when missing.)"""
    text = normalize_url(url or default_url())
    if text.startswith("sqlite"):
        return
    try:
        shown = sa.engine.make_url(text).render_as_string(hide_password=True)
    except sa.exc.ArgumentError:
        raise ValueError(f"--db: not a database URL: {url!r}") from None
    try:
        engine = make_engine(text)
    except Exception as exc:
        raise ValueError(f"--db {shown}: {_first_line(exc)}") from None
    try:
        with engine.connect() as c:
            c.execute(sa.text("SELECT 1"))
    except Exception as exc:
        raise ValueError(f"the database at {shown} cannot be reached: {_first_line(exc)}") from None
    finally:
        engine.dispose()


def _first_line(exc: BaseException) -> str:
    """The driver's own words, without SQLAlchemy's links and the statement."""
    inner = getattr(exc, "orig", None) or exc
    lines = [line.strip() for line in str(inner).splitlines() if line.strip()]
    return lines[0] if lines else type(inner).__name__


def unreachable(exc: BaseException) -> bool:
    """Whether ``exc`` says the database could not be reached or did not answer in time (not that it refused a
    statement): whether a write it cut short may or may not have been committed."""
    return isinstance(exc, UNREACHABLE) or (isinstance(exc, sa.exc.DBAPIError) and exc.connection_invalidated)


#: The exceptions that say the database could not be reached or did not answer in time.
UNREACHABLE = (DatabaseStalled, sa.exc.OperationalError, sa.exc.InterfaceError, sa.exc.TimeoutError)


def conflicting(exc: BaseException) -> bool:
    """Whether ``exc`` says the database already holds what a write would add (another process wrote it): the
    writer's picture of the table is behind the database's."""
    return isinstance(exc, sa.exc.IntegrityError)


def upgrade(engine: sa.Engine) -> None:
    """Bring the database to the newest schema with Alembic (the migrations ship in the package)."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    with engine.begin() as connection:
        if engine.dialect.name == "postgresql":
            # Processes started together (several serving one site) upgrade one at a time: the others wait for
            # the first's upgrade longer than for a lock of the tables.
            connection.execute(sa.text("SET LOCAL lock_timeout = '120s'"))
            connection.execute(sa.text("SELECT pg_advisory_xact_lock(8127001)"))
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
