"""One asyncio actor per table: it alone changes the match, and it numbers every event.

Commands (joins, hellos, actions, chat, bot moves) go through the actor's queue in order.
An action is checked by the engine, written to the database, then broadcast; each
connection receives each event built from its own :meth:`~brisca.game.Game.view`
(spectators: ``view(None)``), or a stub ``{"v": n}`` when the event is not for it.

Each event is turned into JSON once per audience (not once per connection), and the recent events
are kept as that text for reconnections: a few strings per event rather than the many small objects
of its snapshots, which the garbage collector would otherwise scan over and over under load. An
event's spectator text is only made while a spectator is connected; a spectator who comes back after
a gap without one gets a snapshot instead of the missed events.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import hmac
import json
import logging
import random
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from brisca.actions import Action, Arrastro, Discard, Play, Signal
from brisca.agents import Agent, make_agent
from brisca.commitment import commit, new_salt, practice_deck, secure_deck
from brisca.errors import BriscaError, IllegalActionError, InvalidActionError
from brisca.game import Game, Match, PartnerDraw, draw_for_partners
from brisca.record import MatchRecord, Resignation
from brisca.rules import Rules, make_rules
from brisca.server.clock import FORFEIT_AFTER, HANDOVER_AFTER, ClockWrite, SeatClock, clock_text, spent
from brisca.server.db import DatabaseStalled, GameRow, _now, conflicting, unreachable
from brisca.server.serialize import action_json, view_json
from brisca.server.store import Fenced, SeatInfo, Store, TableState, hash_token

log = logging.getLogger("brisca.server")
#: The owner of a tournament's tables: this, then the tournament's id.
TOURNAMENT_OWNER = "tournament:"

#: Events kept in memory for reconnection; an older last-seen number gets a full snapshot.
HISTORY_LIMIT = 2000
#: Levels whose moves take long enough to run off the event loop.
SLOW_BOTS = {"expert", "hard", "heuristic"}
#: Seconds between two looks at an absent person's seat whose takeover is put off (their presence unknown).
PRESENCE_RECHECK = 2.0
#: The level of the bot that plays for an absent player.
STANDIN_LEVEL = "normal"
#: Client addresses remembered per account at a table (to see two accounts played from one address).
ADDRESSES_PER_ACCOUNT = 32
Message = dict[str, Any]


class TableError(Exception):
    """A refused command, with its typed code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


#: The hint at a practice table: worlds searched, and seconds at most.
HINT_WORLDS = 200
HINT_THINK = 1.0

#: Messages waiting for one connection beyond which it is too slow and is closed.
OUTBOX_LIMIT = 5000
#: Put in an outbox to close the connection.
CLOSE: Message = {"type": "close"}


@dataclass(eq=False)
class Connection:
    """One client connection: what the actor sends it goes through ``outbox`` in order."""

    #: Messages, or events already in JSON (the same text for every connection of an audience).
    outbox: asyncio.Queue[Message | str] = field(default_factory=asyncio.Queue)
    seat: int | None = None
    subscribed: bool = False
    overflowed: bool = False

    def send(self, message: Message | str) -> None:
        if self.overflowed:
            return
        if self.outbox.qsize() >= OUTBOX_LIMIT:
            # A client that does not read: drop what waits and close it; it reconnects with its last number.
            self.overflowed, self.subscribed = True, False
            while not self.outbox.empty():
                self.outbox.get_nowait()
            self.outbox.put_nowait(CLOSE)
            return
        self.outbox.put_nowait(message)


@dataclass
class Join:
    name: str
    seat: int | None
    reply: asyncio.Future[tuple[int, str]]
    #: The account taking the seat (its id and username); ``None``: a guest.
    user_id: int | None = None
    account: str | None = None
    #: The client address the seat is taken from.
    address: str | None = None


@dataclass
class Hello:
    conn: Connection
    token: str | None
    last: int | None
    #: The client address of the connection.
    address: str | None = None


@dataclass
class Leave:
    conn: Connection


@dataclass
class Act:
    conn: Connection
    action: object
    id: object = None


@dataclass
class Chat:
    conn: Connection
    text: str
    id: object = None


@dataclass
class SeatCommand:
    """A seated person about their own seat: ``leave`` (before the match starts: the seat is freed) or ``resign``
    (during the match: a bot plays the seat to the end, and the person is rated as having lost)."""

    conn: Connection
    what: str
    id: object = None


@dataclass
class Cancel:
    """The table's creator (``owner``, as :meth:`~brisca.server.manager.Manager.create` names it) closes it
    before its match starts."""

    owner: str
    reply: asyncio.Future[None]


@dataclass
class Abandoned:
    """Every person's seat has been played by a bot for a grace period: close the table (unless ``epoch`` is
    stale)."""

    epoch: int


@dataclass
class Ping:
    """Answered by the actor, so its pong follows every answer to the commands sent before it."""

    conn: Connection
    id: object = None


@dataclass
class BotTick:
    action_number: int


@dataclass
class TakeOver:
    """The grace period of an absent seat ran out: a bot plays it (unless ``epoch`` is stale)."""

    seat: int
    epoch: int


@dataclass
class CheckPresence:
    """Start the countdown of every seat nobody is connected to (after a start or a restart)."""


@dataclass
class ClockTick:
    """The clock of the seat to act may have run out (unless ``action_number`` is stale): its move is played for
    it when it has."""

    action_number: int


@dataclass
class NextDeal:
    """The pause after a hand is over: deal the next hand (unless ``hands`` is stale)."""

    #: How many hands the match had dealt when the pause began.
    hands: int


@dataclass
class Stop:
    pass


@dataclass
class Close:
    """Close the table (idle, or its match too long): it leaves the lobby, its seats are freed."""

    reason: str
    #: Set once the table is closed (and stored so).
    done: asyncio.Future[None] | None = None


#: Statuses of a table still open (in the lobby, counted in its owner's open tables).
OPEN = ("waiting", "playing")


@dataclass
class StartIfFull:
    pass


Command = (Join | Hello | Leave | Act | Chat | Ping | BotTick | TakeOver | CheckPresence | Stop | StartIfFull
           | Close | NextDeal | SeatCommand | Cancel | Abandoned | ClockTick)
#: What a seated person may say about their own seat (``back``: take it back from the bot its clock gave it to).
SEAT_COMMANDS = ("leave", "resign", "back")


def bot_wait(game: Game, delay: float) -> float:
    """Seconds a bot waits before its move: ``delay``, twice that right after a trick is taken (so people see
    the trick go to its winner before the next card comes)."""
    history = game.history
    taken = not game.trick and bool(history) and isinstance(history[-1][1], Play | Arrastro)
    return delay * 2 if taken else delay


def error(code: str, message: str, msg_id: object = None) -> Message:
    out: Message = {"type": "error", "code": code, "message": message}
    if msg_id is not None:
        out["id"] = msg_id
    return out


class TableActor:
    """One table. ``takeover_after``: seconds a seated person may be without a connection, while the
    match is on, before a bot plays the seat until they come back (``None``: never). ``max_hands``: the hands
    its match may deal before the table is closed (``None``: no limit). ``hand_pause``: seconds between the
    end of a hand and the next deal, while the hand's result stays on the table for everyone to read.
    ``provisional_games``, ``provisional_opponents``: :attr:`brisca.server.limits.Limits.provisional_games`
    and ``provisional_opponents``. ``now``: the time, in seconds since the epoch, that the move clock reads (its
    deadlines are stored so; a test gives a clock of its own)."""

    def __init__(self, store: Store, state: TableState, takeover_after: float | None = None,
                 max_hands: int | None = None, hand_pause: float = 0.0, provisional_games: int = 0,
                 provisional_opponents: int = 0, now: Callable[[], float] | None = None) -> None:
        self.store = store
        self.now: Callable[[], float] = now or time.time
        #: The move clock (:mod:`brisca.server.clock`; ``None``: a table from before it), and as it is shown.
        self.clock = state.clock
        self._clock_shown: Message | None = None if state.clock is None else {
            **state.clock.json(), "text": clock_text(state.clock), "handover_after": HANDOVER_AFTER}
        #: When the clock of the seat to act runs out (``None``: no clock runs), and the action count it was set at.
        self.deadline: float | None = None
        self.deadline_action: int | None = None
        #: The clock's timer set last: ``(action count, deadline)``, and its handle (cancelled when a new one is set).
        self._armed: tuple[int, float] | None = None
        self._clock_timer: asyncio.TimerHandle | None = None
        self.max_hands = max_hands
        self.hand_pause = hand_pause
        #: ``time.monotonic()`` at which the next hand is dealt, during the pause after a hand (else ``None``).
        self.next_deal_at: float | None = None
        #: The rating (its ordinal, mu - 3 sigma) for this preset of each account seated here, by username (seats
        #: may move; accounts do not).
        self.account_ratings: dict[str, float] = {}
        #: The ratings the finished match changed: ``{"seat", "before", "after"}`` ordinals (empty: not rated).
        self.rating_changes: list[dict[str, Any]] = []
        #: The client addresses each account seated here took its seat or connected to it from, by username
        #: (this process's, since it ran the table): two accounts of one address are not rated against each other.
        self.addresses: dict[str, set[str]] = {}
        #: Rated matches of a preset during which an account's rating is provisional
        #: (:func:`~brisca.server.ratings.rate_table`).
        self.provisional_games = provisional_games
        self.provisional_opponents = provisional_opponents
        #: The accounts seated here whose rating of this preset is provisional (or who have none yet).
        self.provisional_accounts: set[str] = set()
        #: ``time.monotonic()`` of the last change a person made, or of the last connection's coming or going
        #: (a restart starts it again: people get a whole idle period to come back).
        self.last_active = time.monotonic()
        #: Why the table was closed (``status == "closed"``).
        self.closed_reason: str | None = None
        self.id = state.id
        self.preset = state.preset
        self.options = state.options
        self.rules: Rules = make_rules(state.preset, state.options)
        self.players = state.players
        self.seed = state.seed
        #: A practice table: its deals come from ``seed``, which its one person chose.
        self.seeded = state.seeded
        #: Anyone seated may ask for a hint on their turn (a practice table's, or asked for at its making): such a
        #: table is never rated, since a hint is the expert's play.
        self.hints = state.hints or state.seeded
        #: Never rated (a table of a tournament that is not rated).
        self.unrated = state.unrated
        #: Told the table's id once its match is over or the table is closed (a tournament's round may be over).
        self.on_over: Callable[[str], None] | None = None
        self.owner = state.owner
        self.bot_delay = state.bot_delay
        self.status = state.status
        self.version = state.version
        self.seats = state.seats
        self.commands: asyncio.Queue[Command] = asyncio.Queue()
        self.conns: set[Connection] = set()
        #: The epoch of the table's lease this actor runs under, where several processes serve one site (set by
        #: the cluster's manager): its writes are fenced by it, not by whatever lease the process holds later.
        self.lease: int | None = None
        #: ``(v, JSON text for each audience)``; audience ``None`` is the spectators' (absent when none watched).
        self.events: list[tuple[int, dict[int | None, str]]] = []
        self.agents: dict[int, Agent] = {
            s.seat: make_agent(s.bot, seed=(state.seed + s.seat) % 2**32) for s in self.seats if s.bot
        }
        self.takeover_after = takeover_after
        #: Absent seats whose grace period runs: seat -> (epoch of its TakeOver, loop time it ends).
        self.away: dict[int, tuple[int, float]] = {}
        #: Seats of absent people played by a bot: seat -> agent.
        self.standins: dict[int, Agent] = {}
        #: Whether a person may be connected to the table through another process that this one cannot hear from
        #: now (set by the cluster's manager): no stand-in takes a seat meanwhile.
        self.presence_unknown: Callable[[], bool] = lambda: False
        self._epoch = 0
        self.match: Match | None = None
        self.action_count = 0
        self.decks = [list(d) for d in state.decks]
        #: Each hand's salt (secret until the match is over) and commitment (public from the deal).
        self.salts = list(state.salts)
        self.commitments = list(state.commitments)
        self._task: asyncio.Task[None] | None = None
        self._stopped = False
        #: A hint is being searched (one at a time a table).
        self.hinting = False
        #: The seats whose people resigned: a bot plays them to the end of the match (their token holds nothing).
        self.resigned: set[int] = set()
        #: Those seats in the order their people resigned (after a restart: in seat order).
        self.resignations: list[int] = []
        #: How a finished match ended: the side that won (``None``: level), and whether by resignation.
        self.final_winner: int | None = state.winner
        self.by_resignation = False
        #: Bumped whenever a person's seat changes hands: a pending :class:`Abandoned` with an older one is stale.
        self._abandon_epoch = 0
        self._replay(state)
        if state.clock_action == self.action_count and state.clock_deadline is not None:
            self.deadline, self.deadline_action = state.clock_deadline, state.clock_action
        if self.status in ("playing", "finished"):  # a person's seat without a token: its person resigned
            for info in self.seats:
                if info.bot is None and info.token_hash is None:
                    self._resign_seat(info.seat)
                    self.resignations.append(info.seat)
            if self.status == "finished":
                self.standins.clear()
                match = self.match
                self.by_resignation = match is not None and not match.is_over()

    # ------------------------------------------------------------------ rebuilding

    def partner_draw(self) -> PartnerDraw | None:
        """The draw for partners and seats under ``partners: draw``: drawn from the table's seed, so a restart
        draws it again the same (the seats it gave are stored with the first hand)."""
        if self.rules.partners != "draw":
            return None
        return draw_for_partners(self.rules, self.players, random.Random(f"brisca-partners:{self.seed}"))

    def _replay(self, state: TableState) -> None:
        """Rebuild the match from the stored decks and actions (a restart loses nothing)."""
        if not state.decks:
            return
        match = Match(self.rules, self.players, deck=state.decks[0], draw=self.partner_draw())
        for hand_number, seat, data in state.actions:
            while hand_number > len(match.games) - 1:
                match.next_hand(deck=state.decks[len(match.games)])
            action = Action.from_json(data)
            if match.game.turn != seat and action not in match.game.legal_actions(seat):
                raise BriscaError(f"table {self.id}: stored action {self.action_count} is out of turn")
            match.game.apply(action, seat)  # (a seat not to act: its exchange under out_of_turn)
            self.action_count += 1
        while len(match.games) < len(state.decks):
            match.next_hand(deck=state.decks[len(match.games)])
        self.match = match

    # ------------------------------------------------------------------ running

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self.run(), name=f"table-{self.id}")

    @property
    def stopped(self) -> bool:
        """Stopped (the server stops, or the manager let the table go): its commands are no longer read."""
        return self._stopped

    async def stop(self) -> None:
        self._stopped = True
        self._disarm_clock()
        if self._task is not None:
            self.commands.put_nowait(Stop())
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    def submit(self, command: Command) -> None:
        if self._stopped:  # stopped, or stopping: its queue may never be read again
            self._turn_away(command, "this table stopped here")
            return
        self.commands.put_nowait(command)

    @property
    def tournament(self) -> str | None:
        """The tournament this table is a round's table of (``None``: none)."""
        owner = self.owner or ""
        return owner[len(TOURNAMENT_OWNER):] if owner.startswith(TOURNAMENT_OWNER) else None

    @property
    def bot_only(self) -> bool:
        """Every seat a bot's: a table to watch, never rated."""
        return all(s.bot is not None for s in self.seats)

    def idle_for(self, now: float) -> float:
        """Seconds since a person last changed the table or was connected to it (0 while someone is)."""
        return 0.0 if self.conns else now - self.last_active

    async def cancel(self, owner: str) -> None:
        """Close the table before its match starts, as its creator ``owner`` asks (``TableError`` otherwise)."""
        reply: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.submit(Cancel(owner, reply))
        await reply

    async def hint(self, token: str) -> dict[str, Any]:
        """The best move for the seat of ``token`` on its turn at a practice table, from that seat's view alone
        (``{"hint": None}`` where the expert values nothing); ``TableError`` where no hint may be given."""
        from brisca.analysis import read_view

        if not self.hints:
            raise TableError("forbidden", "this table gives no hints: only a table made with hints does (never a"
                                          " rated one)")
        match = self.match
        if match is None or self._stopped:
            raise TableError("not_your_turn", "a hint is for your own turn, once the cards are dealt")
        seat = self.seat_of(token)
        game = match.game
        if self.status != "playing" or game.is_over() or game.turn != seat:
            raise TableError("not_your_turn", "a hint is for your own turn")
        if self.hinting:
            raise TableError("busy", "a hint is being searched at this table already")
        view = game.view(seat)  # taken here, on the table's loop: the search reads this view and nothing else
        self.hinting = True
        try:
            found = await asyncio.to_thread(read_view, view, len(view.history), HINT_WORLDS, HINT_THINK)
        finally:
            self.hinting = False
        if found is None:
            return {"hint": None}
        best = found[0].best
        return {"hint": {"action": best.action.to_json(), "text": str(best.action), "words": best.to_json()["words"],
                         "win": round(best.win, 4),
                         "margin": round(best.margin, 2), "worlds": found[0].worlds}}

    async def join(self, name: str, seat: int | None, user_id: int | None = None,
                   account: str | None = None, address: str | None = None) -> tuple[int, str]:
        """Seat a person: an account's (``user_id``, ``account``: its username) or a guest's, from the client
        ``address``."""
        if self._stopped:
            raise TableError("unavailable", "this table is being loaded again: try again")
        reply: asyncio.Future[tuple[int, str]] = asyncio.get_running_loop().create_future()
        self.submit(Join(name, seat, reply, user_id, account, address))
        return await reply

    def _seen(self, account: str | None, address: str | None) -> None:
        """Remember that ``account`` played here from ``address``."""
        if account is not None and address is not None:
            known = self.addresses.setdefault(account, set())
            if len(known) < ADDRESSES_PER_ACCOUNT:
                known.add(address)

    async def _load_ratings(self) -> None:
        """The current rating of every account seated here (shown at its seat, marked when provisional; a bot
        shows its level)."""
        from brisca.server.ratings import ordinal, provisional

        names = sorted({s.account for s in self.seats if s.bot is None and s.account is not None})
        if not names or self.seeded or self.hints:  # (shown beside a guest too, though such a match is not rated)
            return
        found = await asyncio.to_thread(self.store.ratings, self.preset, names)
        counts = await asyncio.to_thread(self.store.rating_counts, self.preset, names)
        self.account_ratings = {name: round(ordinal(rating), 1) for name, rating in found.items()}
        self.provisional_accounts = {name for name in names if provisional(
            *counts.get(name, (0, 0)), self.provisional_games, self.provisional_opponents)}

    async def _recover(self) -> None:
        """Finish what a crash (or a failed write) cut short: the start, a deal after a hand, the end of the match."""
        match = self.match
        if self.status == "waiting":
            await self._start_if_full()
        elif self.status == "playing" and match is not None and match.game.is_over():
            self._plan_deal()
            await self._after_hand()

    async def _after_hand(self) -> None:
        """A hand is over: end the match, or deal the next hand (or close the table at ``max_hands``)."""
        match = self.match
        assert match is not None
        if match.is_over():
            await self._finish()
        elif self.max_hands is not None and len(match.games) >= self.max_hands:
            await self._close(f"its match reached this server's limit on hands ({self.max_hands}) without a winner")
        elif self.next_deal_at is not None:
            # The hand's result stays on the table for the pause; a stale NextDeal (a second one planned by
            # a recovery) finds the hand dealt and does nothing.
            delay = max(0.0, self.next_deal_at - time.monotonic())
            asyncio.get_running_loop().call_later(delay, self.commands.put_nowait, NextDeal(len(match.games)))
        else:
            await self._deal()

    def _plan_deal(self) -> None:
        """A hand is over: when another hand follows and the table pauses between hands, set when it is dealt
        (before the hand's end is announced, so the announcement carries the countdown)."""
        match = self.match
        assert match is not None
        more = not match.is_over() and (self.max_hands is None or len(match.games) < self.max_hands)
        self.next_deal_at = time.monotonic() + self.hand_pause if more and self.hand_pause > 0 else None

    async def _next_deal(self, command: NextDeal) -> None:
        match = self.match
        if (self.status == "playing" and match is not None and len(match.games) == command.hands
                and match.game.is_over() and not match.is_over()):
            await self._deal()

    async def _write(self, fn: Callable[..., None], *args: Any) -> None:
        """One database write, off the event loop (group-committed with other tables' writes); the actor
        waits for it to be committed (its commands stay in order)."""
        await self.store.write(fn, *args, lease=self.lease)

    async def run(self) -> None:
        try:
            await self._load_ratings()
            await self._recover()
            await self._resume_clock()
            self._check_presence_later()
        except Fenced:
            # The recovery's write (the next hand's deal, say) was refused: the table runs elsewhere now, or under a
            # newer actor here. This actor stops, as after a command's write refused so; played on, it would hold
            # its players at a table whose hand is over and never dealt.
            self._stop_here("this table moved")
            return
        except Exception as exc:
            if unreachable(exc) and not self.store.inline:
                log.warning("table %s: the database did not answer its recovery; loaded again when next asked for",
                            self.id)
                self._stop_here("the database did not answer")
                return
            log.exception("table %s: could not recover", self.id)
        # Whatever else ends the loop (a cancellation, a bug outside any one command) must not leave the table
        # silent: it stops, its connections are closed and its commands turned away, so that its clients reconnect
        # and find it loaded again.
        try:
            await self._read_commands()
        except asyncio.CancelledError:
            if not self._stopped:
                self._stop_here("this table stopped here")
            raise
        except Exception:
            log.exception("table %s: its actor stopped", self.id)
            self._stop_here("this table stopped here")

    async def _read_commands(self) -> None:
        self._schedule_bot()
        self._arm_clock()
        while True:
            command = await self.commands.get()
            if isinstance(command, Stop):
                self._turn_away_queued("this table stopped here")
                return
            try:
                await self._handle(command)
            except TableError as exc:
                self._refuse(command, exc)
                if isinstance(exc, Fenced):  # the table runs elsewhere now, or under a newer actor here
                    self._stop_here("this table moved")
                    return
            except Exception as exc:  # the actor must outlive any one command
                if unreachable(exc) and not self.store.inline:
                    self._lost_database(command, exc)
                    return
                if conflicting(exc):
                    self._behind_the_database(command)
                    return
                log.exception("table %s: command %r failed", self.id, command)
                self._refuse(command, TableError("internal", f"internal error: {type(exc).__name__}"))
                with contextlib.suppress(Exception):
                    await self._recover()
            self._schedule_bot()
            self._arm_clock()

    def _lost_database(self, command: Command, exc: Exception) -> None:
        """A write did not reach the database, or its answer did not come back: whether it was committed is not
        known here. The table stops (its connections are closed: the clients reconnect, and find it loaded again
        from what the database holds)."""
        # A stall is said once for the process (by the store), not once a table.
        (log.info if isinstance(exc, DatabaseStalled) else log.warning)(
            "table %s: the database did not answer; the table is loaded again when next asked for", self.id)
        self._refuse(command, TableError("unavailable", "the database did not answer: reconnecting"))
        # Everyone at the table hears it now, not only the player whose move it was: their connections close.
        told = getattr(command, "conn", None)
        for conn in self.conns:
            if conn is not told:
                conn.send(error("unavailable", "the database did not answer: reconnecting"))
        self._stop_here("the database did not answer")

    def _behind_the_database(self, command: Command) -> None:
        """A write the database refused because it holds that row already: another process ran this table after
        this actor's picture of it was read. The table stops (its connections are closed: the clients reconnect,
        and find it loaded again from what the database holds)."""
        log.warning("table %s: the database holds moves this server did not know; the table is loaded again",
                    self.id)
        self._refuse(command, TableError("unavailable", "this table is being loaded again: reconnecting"))
        self._stop_here("the table is being loaded again")

    def _stop_here(self, why: str) -> None:
        """Stop reading commands: the connections are closed, what waits is turned away (``why``)."""
        self._stopped = True
        self._disarm_clock()
        for conn in list(self.conns):
            conn.send(CLOSE)
        self.conns.clear()
        self._turn_away_queued(why)

    def _turn_away_queued(self, why: str) -> None:
        while not self.commands.empty():
            self._turn_away(self.commands.get_nowait(), why)

    def _turn_away(self, command: Command, why: str) -> None:
        """A command for a table no longer run here (let go, moved, or stopped by the database): a connection's is
        answered ``unavailable`` and the connection closed (its client reconnects and finds where the table runs
        now, rather than wait for an answer that cannot come); a join or a close is refused."""
        exc = TableError("unavailable", f"{why}: try again")
        if isinstance(command, Hello | Act | Chat | Ping):
            command.conn.send(error(exc.code, exc.message, getattr(command, "id", None)))
            command.conn.send(CLOSE)
        else:
            self._refuse(command, exc)

    def _closed_error(self) -> TableError:
        return TableError("closed", f"this table is closed ({self.closed_reason or 'no longer open'})")

    def _refuse(self, command: Command, exc: TableError) -> None:
        if isinstance(command, Join):
            if not command.reply.done():
                command.reply.set_exception(exc)
        elif isinstance(command, Close):
            if command.done is not None and not command.done.done():
                command.done.set_exception(exc)
        elif isinstance(command, Cancel):
            if not command.reply.done():
                command.reply.set_exception(exc)
        elif isinstance(command, Hello | Act | Chat | SeatCommand):
            command.conn.send(error(exc.code, exc.message, getattr(command, "id", None)))

    async def _handle(self, command: Command) -> None:
        if isinstance(command, Hello | Leave | Join | Act | Chat | SeatCommand | Cancel):
            self.last_active = time.monotonic()
        if self.status == "closed":
            if isinstance(command, Join | Hello | Act | Chat | SeatCommand | Cancel):
                raise self._closed_error()
            if isinstance(command, Close) and command.done is not None and not command.done.done():
                command.done.set_result(None)
            elif isinstance(command, Leave):
                self.conns.discard(command.conn)
            elif isinstance(command, Ping):
                command.conn.send({"type": "pong"} | ({"id": command.id} if command.id is not None else {}))
            return
        if isinstance(command, Join):
            await self._join(command)
        elif isinstance(command, Hello):
            before = command.conn.seat
            self._hello(command)
            await self._presence({before, command.conn.seat})
        elif isinstance(command, Leave):
            self.conns.discard(command.conn)
            await self._presence({command.conn.seat})
        elif isinstance(command, Act):
            await self._act(command)
        elif isinstance(command, Chat):
            await self._chat(command)
        elif isinstance(command, Ping):
            command.conn.send({"type": "pong"} | ({"id": command.id} if command.id is not None else {}))
        elif isinstance(command, BotTick):
            await self._bot(command)
        elif isinstance(command, TakeOver):
            await self._take_over(command)
        elif isinstance(command, CheckPresence):
            await self._presence({s.seat for s in self.seats})
        elif isinstance(command, StartIfFull):
            await self._start_if_full()
        elif isinstance(command, NextDeal):
            await self._next_deal(command)
        elif isinstance(command, ClockTick):
            await self._clock_tick(command)
        elif isinstance(command, Close):
            await self._close(command.reason)
            if command.done is not None and not command.done.done():
                command.done.set_result(None)
        elif isinstance(command, SeatCommand):
            await {"leave": self._leave, "resign": self._resign, "back": self._back}[command.what](command)
        elif isinstance(command, Cancel):
            await self._cancel(command)
        elif isinstance(command, Abandoned) and command.epoch == self._abandon_epoch and self._everyone_gone():
            await self._abandon("everyone at it left")

    # ------------------------------------------------------------------ events

    def snapshot(self, audience: int | None, table: Message | None = None) -> Message:
        """The table and the viewer's view of the current hand (``table``: :meth:`table_json`, when made already)."""
        match = self.match
        view = None if match is None else view_json(match.game.view(audience))
        return {"table": self.table_json() if table is None else table, "view": view}

    def table_json(self) -> Message:
        """The table as everyone sees it."""
        match = self.match
        return {
            "id": self.id,
            "preset": self.preset,
            "options": self.options,
            "players": self.players,
            "sides": self.rules.sides(self.players),
            "status": self.status,
            "version": self.version,
            "seats": [{"seat": s.seat, "name": s.name, "bot": s.bot, "guest": s.guest, "account": s.account,
                       "away": s.seat in self.away, "standin": STANDIN_LEVEL if s.seat in self.standins else None,
                       "rating": None if s.account is None else self.account_ratings.get(s.account),
                       "provisional": s.account is not None and s.account in self.provisional_accounts,
                       "resigned": s.seat in self.resigned,
                       "clock": None if self.clock is None or s.bot is not None else self._seat_clock(s.seat).json()}
                      for s in self.seats],
            "clock": self.clock_json(),
            "bot_delay": self.bot_delay,
            "hand_pause": self.hand_pause,
            "next_hand_in": None if self.next_deal_at is None
            else round(max(0.0, self.next_deal_at - time.monotonic()), 1),
            "rating_changes": self.rating_changes,
            "takeover_after": self.takeover_after,
            "practice": self.seeded,
            "hints": self.hints,
            "rated": self.rated,
            "tournament": self.tournament,
            "seed": self.seed if self.seeded else None,
            "commitments": self.commitments,
            "hand_number": None if match is None else len(match.games) - 1,
            "match": self.rules.match,
            "card_names": self.rules.card_names,
            "target_hands": self.rules.hands_to_win(self.players),
            "target_points": self.rules.target_points,
            "target_game_points": self.rules.target_game_points,
            "hands": self.rules.hands,
            "deals_done": None if match is None else match.deals_done,
            "partners": self.rules.partners,
            "draw": None if match is None or match.draw is None else draw_json(match.draw),
            "hands_won": None if match is None else list(match.hands_won),
            "game_points": None if match is None else list(match.game_points),
            "match_points": None if match is None else list(match.points),
            "match_over": self.status == "finished" or (match is not None and match.is_over()),
            "match_winner": self.final_winner if self.status == "finished" else None if match is None
            else match.winner,
            # How the match ended: "resigned" (every other side's people resigned), "played" (to its end); and
            # why a closed table closed.
            "ended": None if self.status != "finished" else "resigned" if self.by_resignation else "played",
            "closed_reason": self.closed_reason,
        }

    def clock_json(self) -> Message | None:
        """The move clock as everyone sees it: its times, and whose clock runs until when (seconds since the
        epoch, by the server's clock: a welcome gives its time, ``now``, to set a page's clock by)."""
        if self._clock_shown is None:
            return None
        turn = self.match.game.turn if self.match is not None and self.deadline is not None else None
        running = turn is not None and self._clocked(turn)
        return {**self._clock_shown, "seat": turn if running else None,
                "deadline": self.deadline if running else None,
                "base_until": None if not running or turn is None else self.deadline_base(turn),
                "forfeit_after": FORFEIT_AFTER if self.rated else None}

    def deadline_base(self, seat: int) -> float | None:
        """When the move's base runs out for the seat to act (then its reserve runs)."""
        if self.deadline is None:
            return None
        return self.deadline - self._seat_clock(seat).reserve

    @property
    def slow(self) -> bool:
        """Played over days (:data:`~brisca.server.clock.SLOW_MOVE`): it sleeps between moves."""
        return self.clock is not None and self.clock.slow

    def sleepable(self) -> bool:
        """A slow table waiting for a person who is not here: let go, it sleeps (nothing in memory, no task) until
        a move or its deadline wakes it."""
        if not self.slow or self._stopped or self.conns or self.hinting or not self.commands.empty():
            return False
        if self.status == "waiting":
            return True
        match = self.match
        if self.status != "playing" or match is None or match.game.is_over():
            return False
        return self.deadline is not None and self._clocked(match.game.turn)

    @property
    def rated(self) -> bool:
        """Whether the match may change ratings (and its clock's time-outs lose it): never at a practice table nor
        at one with hints, and only where every person's seat is an account's."""
        return not self.seeded and not self.hints and not self.unrated and not self.bot_only and all(
            s.bot is not None or s.user_id is not None for s in self.seats)

    def _audiences(self) -> list[int | None]:
        """Every seat (a seat's events are kept for its reconnection), and the spectators while any watch."""
        watched = any(c.subscribed and c.seat is None for c in self.conns)
        return [*range(self.players), None] if watched else list(range(self.players))

    def _emit(self, kind: str, public: Message, visible: Callable[[int | None], bool] | None = None,
              own: Callable[[int | None], Message] | None = None) -> None:
        """Number one event (the version is already stored) and send it to every subscribed connection
        (``own``: what each audience is told of itself besides)."""
        v = self.version
        messages: dict[int | None, str] = {}
        table = self.table_json()
        for audience in self._audiences():
            if visible is not None and not visible(audience):
                message: Message = {"type": "event", "v": v, "kind": "stub"}
            else:
                message = {"type": "event", "v": v, "kind": kind, **public, **(own(audience) if own else {}),
                           "state": self.snapshot(audience, table)}
            messages[audience] = json.dumps(message, ensure_ascii=False)
        self.events.append((v, messages))
        if len(self.events) > HISTORY_LIMIT:
            del self.events[: len(self.events) - HISTORY_LIMIT]
        for conn in self.conns:
            if conn.subscribed:
                conn.send(messages[conn.seat])

    # ------------------------------------------------------------------ commands

    async def _join(self, command: Join) -> None:
        if self.status != "waiting":
            raise TableError("illegal", "the table is full")
        free = [s for s in self.seats if s.bot is None and s.token_hash is None]
        if command.seat is not None:
            free = [s for s in free if s.seat == command.seat]
        if not free:
            raise TableError("illegal", "no free seat" if command.seat is None else f"seat {command.seat} is taken")
        if self.slow and command.user_id is None:
            raise TableError("forbidden", "a slow table is for accounts: log in to sit at it")
        if command.user_id is not None and any(s.user_id == command.user_id for s in self.seats):
            raise TableError("illegal", "you already hold a seat at this table")
        info = free[0]
        token = secrets.token_urlsafe(24)
        await self._write(self.store.write_join, self.id,
                          SeatInfo(info.seat, command.name, None, hash_token(token), command.user_id),
                          self.version + 1)
        self.version += 1
        info.name, info.token_hash = command.name, hash_token(token)
        info.user_id, info.account = command.user_id, command.account
        self._seen(command.account, command.address)
        await self._load_ratings()
        if not command.reply.done():
            command.reply.set_result((info.seat, token))
        self._emit("joined", {"seat": info.seat, "name": command.name})
        await self._start_if_full()

    async def _start_if_full(self) -> None:
        if self.status == "waiting" and all(s.bot is not None or s.token_hash is not None for s in self.seats):
            await self._deal()

    def seat_of(self, token: str) -> int:
        """The seat ``token`` holds here (``TableError`` where it holds none)."""
        wanted = hash_token(token)
        for info in self.seats:
            if info.token_hash is not None and hmac.compare_digest(info.token_hash, wanted):
                return info.seat
        raise TableError("bad_token", "this token holds no seat at this table")

    def _hello(self, command: Hello) -> None:
        conn = command.conn
        seat: int | None = None
        if command.token is not None:
            seat = self.seat_of(command.token)
            self._seen(self.seats[seat].account, command.address)
        conn.seat, conn.subscribed = seat, True
        self.conns.add(conn)
        conn.send({"type": "welcome", "table_id": self.id, "seat": seat, "v": self.version,
                   "now": round(self.now(), 3)})
        last = command.last
        first = self.events[0][0] if self.events else self.version + 1
        if last is not None and last == self.version:
            return
        missed = [messages.get(seat) for v, messages in self.events if last is not None and v > last]
        if last is not None and first - 1 <= last < self.version and None not in missed:
            for text in missed:
                assert text is not None
                conn.send(text)
            return
        conn.send({"type": "sync", "v": self.version, "state": self.snapshot(seat)})

    async def _act(self, command: Act) -> None:
        conn = command.conn
        if not conn.subscribed:
            raise TableError("malformed", "say hello first")
        if conn.seat is None:
            raise TableError("not_your_turn", "spectators do not play")
        if self.status != "playing" or self.match is None:
            why = "the match is over" if self.status == "finished" else "the match has not started"
            raise TableError("illegal", why)
        game = self.match.game
        late = f"it is seat {game.turn}'s turn, not seat {conn.seat}'s"
        if game.turn != conn.seat and game.rules.trump_exchange != "out_of_turn":
            raise TableError("not_your_turn", late)
        raw = command.action
        try:
            if isinstance(raw, str):
                if len(raw) > 40:
                    raise InvalidActionError("not an action")
                action = Action.parse(raw)
            elif isinstance(raw, dict):
                action = Action.from_json(raw)
            else:
                raise InvalidActionError("an action is its notation (\"3O\") or an object ({\"play\": \"3O\"})")
        except InvalidActionError as exc:
            raise TableError("malformed", str(exc)) from None
        except Exception as exc:  # any odd shape of action is the client's mistake, not the table's
            raise TableError("malformed", f"not an action: {exc}") from None
        # A seat not to act may make only what the rules let it make out of turn (its exchange under
        # trump_exchange: out_of_turn), and always as the connection's own seat.
        if game.turn != conn.seat and action not in game.legal_actions(conn.seat):
            raise TableError("not_your_turn", late)
        await self._commit(conn.seat, action, by_person=True)
        self._ack(conn, command.id)

    def _ack(self, conn: Connection, msg_id: object) -> None:
        """Tell the sender its command took effect, at the version it made (with its id, if it gave one)."""
        ack: Message = {"type": "ack", "v": self.version}
        if msg_id is not None:
            ack["id"] = msg_id
        conn.send(ack)

    async def _chat(self, command: Chat) -> None:
        conn = command.conn
        if not conn.subscribed:
            raise TableError("malformed", "say hello first")
        name = "spectator" if conn.seat is None else (self.seats[conn.seat].name or f"seat {conn.seat}")
        await self._write(self.store.set_version, self.id, self.version + 1, _now())
        self.version += 1
        self._emit("chat", {"seat": conn.seat, "name": name, "text": command.text})
        self._ack(conn, command.id)

    async def _bot(self, command: BotTick) -> None:
        match = self.match
        if self.status != "playing" or match is None or command.action_number != self.action_count:
            return
        seat = match.game.turn
        agent = self._agent(seat)
        if seat is None or agent is None:
            return
        view = match.game.view(seat)
        level = self.seats[seat].bot or (STANDIN_LEVEL if seat in self.standins else "")
        action = await asyncio.to_thread(agent.act, view) if level in SLOW_BOTS else agent.act(view)
        if command.action_number == self.action_count and self._agent(seat) is agent:
            await self._commit(seat, action)

    def _agent(self, seat: int | None) -> Agent | None:
        """The bot that plays ``seat``: its own, or the stand-in of an absent person."""
        if seat is None:
            return None
        return self.agents.get(seat) or self.standins.get(seat)

    def _schedule_bot(self) -> None:
        match = self.match
        if self.status != "playing" or match is None or self._agent(match.game.turn) is None:
            return
        tick = BotTick(self.action_count)
        asyncio.get_running_loop().call_later(bot_wait(match.game, self.bot_delay), self.commands.put_nowait, tick)

    # ------------------------------------------------------------------ absent players

    def _connected(self, seat: int) -> bool:
        return any(c.seat == seat and c.subscribed for c in self.conns)

    async def _event(self, kind: str, public: Message, clock: ClockWrite | None = None) -> None:
        """A numbered event that changes nothing in the match (its number is stored first, with ``clock``)."""
        await self._write(self.store.set_version, self.id, self.version + 1, None, clock)
        self.version += 1
        self._apply_clock(clock)
        self._emit(kind, public)

    def _check_presence_later(self) -> None:
        """After a start or a restart, people get one grace period to connect before their countdown starts."""
        if self.takeover_after is not None and self.status == "playing":
            asyncio.get_running_loop().call_later(self.takeover_after, self.commands.put_nowait, CheckPresence())

    async def _presence(self, seats: set[int | None]) -> None:
        """Start the countdown of these seats if their people are all gone; give a seat back to whoever returns.

        Announced to the table: ``away`` (with the seconds before a bot plays the seat), ``takeover``
        when the bot takes it, ``back`` when its person returns (with their seat token).
        """
        if self.takeover_after is None:
            return
        playing = self.status == "playing" and self.match is not None
        for info in self.seats:
            seat = info.seat
            if seat not in seats or info.bot is not None or info.token_hash is None:
                continue
            here = self._connected(seat)
            if here or not playing:
                self._abandon_epoch += 1  # someone is back: an Abandoned planned before is stale
                was_away, was_standin = self.away.pop(seat, None), self.standins.pop(seat, None)
                if playing and (was_away is not None or was_standin is not None):
                    await self._event("back", {"seat": seat, "standin": was_standin is not None},
                                      self._clock_back(seat))
            elif seat not in self.away and seat not in self.standins:
                self._epoch += 1
                loop = asyncio.get_running_loop()
                self.away[seat] = (self._epoch, loop.time() + self.takeover_after)
                loop.call_later(self.takeover_after, self.commands.put_nowait, TakeOver(seat, self._epoch))
                await self._event("away", {"seat": seat, "seconds": self.takeover_after})

    async def _take_over(self, command: TakeOver) -> None:
        seat = command.seat
        pending = self.away.get(seat)
        if pending is None or pending[0] != command.epoch or self._connected(seat) or self.status != "playing":
            return
        if self.presence_unknown():  # their page may be open on another process: looked at again later
            loop = asyncio.get_running_loop()
            self.away[seat] = (command.epoch, loop.time() + PRESENCE_RECHECK)
            loop.call_later(PRESENCE_RECHECK, self.commands.put_nowait, command)
            return
        del self.away[seat]
        self.standins[seat] = make_agent(STANDIN_LEVEL, seed=(self.seed + 7919 * (seat + 1)) % 2**32)
        await self._event("takeover", {"seat": seat, "bot": STANDIN_LEVEL})
        self._plan_abandon()

    def _plan_abandon(self) -> None:
        if self._everyone_gone() and self.takeover_after is not None:
            # Every person gone: one more grace period for someone to come back, then the table closes (a bot
            # match nobody plays would otherwise go on to its end).
            self._abandon_epoch += 1
            asyncio.get_running_loop().call_later(self.takeover_after, self.commands.put_nowait,
                                                  Abandoned(self._abandon_epoch))

    # ------------------------------------------------------------------ the move clock

    def _clocked(self, seat: int | None) -> bool:
        """Whether a clock runs for ``seat`` on its turn: a person's, played by them (not by a bot)."""
        if self.clock is None or seat is None or self.status != "playing" or self.match is None:
            return False
        info = self.seats[seat]
        return info.bot is None and info.token_hash is not None and seat not in self.standins

    def _seat_clock(self, seat: int) -> SeatClock:
        info = self.seats[seat]
        full = 0.0 if self.clock is None else self.clock.reserve
        return SeatClock(full if info.reserve is None else info.reserve, info.timeouts, info.missed)

    def _apply_clock(self, clock: ClockWrite | None) -> None:
        """What a write stored of the clock, now true here."""
        if clock is None:
            return
        for seat, sc in clock.seats:
            info = self.seats[seat]
            info.reserve, info.timeouts, info.missed = sc.reserve, sc.timeouts, sc.missed
        self.deadline, self.deadline_action = clock.deadline, clock.action

    def _clock_for(self, game: Game, actions: int, now: float, changed: dict[int, SeatClock],
                   keep: bool) -> ClockWrite:
        """The clock once ``actions`` are played and ``game`` is where they leave it: the deadline of its seat to
        act (``keep``: the running one), with the seats' clocks ``changed``."""
        turn = None if game.is_over() else game.turn
        deadline: float | None = None
        if turn is not None and self._clocked(turn):
            if keep and self.deadline is not None:
                deadline = self.deadline
            else:
                assert self.clock is not None
                reserve = changed[turn].reserve if turn in changed else self._seat_clock(turn).reserve
                deadline = now + self.clock.move + reserve
        return ClockWrite(deadline, actions, tuple(sorted(changed.items())), None if deadline is None else turn)

    def _clock_after(self, seat: int, after: Game, by_person: bool, timed_out: SeatClock | None) -> ClockWrite | None:
        """The clock after ``seat``'s move (``after``: the game once it is made): what the mover spent comes off
        its reserve, and the next seat's clock starts (a move out of turn keeps the running one)."""
        if self.clock is None or self.match is None:
            return None
        game = self.match.game
        now = self.now()
        changed: dict[int, SeatClock] = {}
        running = self.deadline is not None and self.deadline_action == self.action_count
        if timed_out is not None:
            changed[seat] = timed_out
        elif by_person and game.turn == seat and self._clocked(seat):
            sc = self._seat_clock(seat)
            left = spent(self.clock, sc, self.deadline, now) if running and self.deadline is not None else sc.reserve
            if left != sc.reserve or sc.missed:
                changed[seat] = SeatClock(left, sc.timeouts, 0)
        keep = running and after.turn == game.turn and seat != game.turn
        return self._clock_for(after, self.action_count + 1, now, changed, keep)

    def _clock_back(self, seat: int) -> ClockWrite | None:
        """The clock when ``seat``'s person takes it back from a bot: its time-outs in a row start again, and its
        clock starts if it is its turn."""
        if self.clock is None or self.match is None:
            return None
        sc = self._seat_clock(seat)
        changed = {seat: SeatClock(sc.reserve, sc.timeouts, 0)} if sc.missed else {}
        game = self.match.game
        running = self.deadline is not None and self.deadline_action == self.action_count and game.turn != seat
        return self._clock_for(game, self.action_count, self.now(), changed, running)

    async def _start_clock(self) -> None:
        """Start the clock of the seat to act, unless it runs already (a deal, a restart)."""
        if self.clock is None or self.match is None:
            return
        game = self.match.game
        turn = None if game.is_over() else game.turn
        if not self._clocked(turn):
            self.deadline = None
            return
        if self.deadline is not None and self.deadline_action == self.action_count:
            return
        clock = self._clock_for(game, self.action_count, self.now(), {}, False)
        await self._write(self.store.write_clock, self.id, clock)
        self._apply_clock(clock)

    async def _resume_clock(self) -> None:
        """After a restart (or a takeover by this process): the stored deadline holds; one that passed while no
        process ran the table gives the seat one move's base from now (its reserve is spent)."""
        match = self.match
        if self.clock is None or match is None or self.status != "playing":
            return
        turn = match.game.turn
        now = self.now()
        # A slow table woken by its deadline: the clock ran out (a process down a while is nothing beside a day).
        if (self.deadline is not None and self.deadline < now and self._clocked(turn) and turn is not None
                and not self.slow):
            sc = self._seat_clock(turn)
            clock = ClockWrite(now + self.clock.move, self.action_count, ((turn, SeatClock(0.0, sc.timeouts,
                                                                                            sc.missed)),), turn)
            await self._write(self.store.write_clock, self.id, clock)
            self._apply_clock(clock)
        await self._start_clock()

    def _arm_clock(self) -> None:
        """A timer for the running clock's deadline (once for each turn's deadline)."""
        if self.deadline is None or self.status != "playing":
            return
        armed = (self.action_count, self.deadline)
        if self._armed == armed:
            return
        self._armed = armed
        if self._clock_timer is not None:
            self._clock_timer.cancel()
        delay = max(0.0, self.deadline - self.now())
        self._clock_timer = asyncio.get_running_loop().call_later(delay, self.commands.put_nowait,
                                                                  ClockTick(self.action_count))

    def _disarm_clock(self) -> None:
        if self._clock_timer is not None:
            self._clock_timer.cancel()
            self._clock_timer = None

    def check_clock(self) -> None:
        """Look at the clock now (its timer does so at the deadline; a test that moves its clock calls this)."""
        self.submit(ClockTick(self.action_count))

    async def _clock_tick(self, command: ClockTick) -> None:
        match = self.match
        if (self.deadline is None or command.action_number != self.action_count or self.status != "playing"
                or match is None or not self._clocked(match.game.turn)):
            return
        if self.now() < self.deadline:
            self._armed = None  # early (a clock set back, a timer's slack): armed again for what is left
            return
        seat = match.game.turn
        assert seat is not None
        await self._time_out(seat)

    async def _time_out(self, seat: int) -> None:
        """The seat's clock ran out: the table's bot plays its move; repeated time-outs give the seat to the bot
        (:data:`~brisca.server.clock.HANDOVER_AFTER` in a row) or, on a rated table, lose the match
        (:data:`~brisca.server.clock.FORFEIT_AFTER` in it)."""
        assert self.match is not None
        sc = self._seat_clock(seat)
        after = SeatClock(0.0, sc.timeouts + 1, sc.missed + 1)
        agent = make_agent(STANDIN_LEVEL, seed=(self.seed + 7919 * (seat + 1) + self.action_count) % 2**32)
        action = agent.act(self.match.game.view(seat))
        log.info("table %s: seat %d's clock ran out (%d time-outs in the match, %d in a row)", self.id, seat,
                 after.timeouts, after.missed)
        await self._commit(seat, action, timed_out=after)
        if self.status != "playing":
            return
        if self.rated and after.timeouts >= FORFEIT_AFTER:
            await self._resign_now(seat, None, clock=True)
        elif after.missed >= HANDOVER_AFTER and seat not in self.standins:
            self.standins[seat] = make_agent(STANDIN_LEVEL, seed=(self.seed + 7919 * (seat + 1)) % 2**32)
            self.away.pop(seat, None)
            if self.match.game.turn == seat:  # (the next seat's clock, started by the move, runs on)
                self.deadline = None
            await self._event("takeover", {"seat": seat, "bot": STANDIN_LEVEL, "clock": True})
            self._plan_abandon()

    async def _back(self, command: SeatCommand) -> None:
        """A person whose seat a bot plays (their clock ran out, or they were away) takes it back."""
        seat = self._seated_conn(command)
        if self.status != "playing" or seat not in self.standins or seat in self.resigned:
            raise TableError("illegal", "no bot is playing your seat")
        del self.standins[seat]
        self.away.pop(seat, None)
        self._abandon_epoch += 1
        await self._event("back", {"seat": seat, "standin": True}, self._clock_back(seat))
        self._ack(command.conn, command.id)

    # ------------------------------------------------------------------ leaving, resigning, cancelling

    def _people(self) -> list[int]:
        return [s.seat for s in self.seats if s.bot is None]

    def _everyone_gone(self) -> bool:
        """Mid-match, a bot plays every person's seat (they resigned, or left and did not come back)."""
        people = self._people()
        return self.status == "playing" and bool(people) and all(seat in self.standins for seat in people)

    def _seated_conn(self, command: SeatCommand) -> int:
        conn = command.conn
        if not conn.subscribed:
            raise TableError("malformed", "say hello first")
        if conn.seat is None:
            raise TableError("illegal", "you hold no seat at this table")
        return conn.seat

    async def _leave(self, command: SeatCommand) -> None:
        """Before the start: the seat is free again; the connection watches. A table whose people all left
        closes."""
        seat = self._seated_conn(command)
        if self.status != "waiting":
            raise TableError("illegal", "the match has started: resign instead")
        info = self.seats[seat]
        name = info.name
        await self._write(self.store.write_join, self.id, SeatInfo(seat), self.version + 1)
        self.version += 1
        info.name = info.token_hash = info.user_id = info.account = None
        command.conn.seat = None
        self._ack(command.conn, command.id)
        self._emit("left", {"seat": seat, "name": name})
        if all(self.seats[p].token_hash is None for p in self._people()):
            await self._close("everyone who sat at it left")

    def _resign_seat(self, seat: int) -> None:
        self.resigned.add(seat)
        self.away.pop(seat, None)
        if seat not in self.standins:
            self.standins[seat] = make_agent(STANDIN_LEVEL, seed=(self.seed + 7919 * (seat + 1)) % 2**32)

    async def _resign(self, command: SeatCommand) -> None:
        """During the match: the person's token holds nothing any more, and a bot plays the seat to the end. When
        the people of every side but one have resigned, the match is over and that side has won (rated, recorded,
        in the history); otherwise the match goes on, and the person is rated as having lost (as one who leaves).
        A resigned seat in a team game: its partner plays on beside the bot, and the side loses only when all its
        people have resigned. When nobody is left playing (the others are away), the table closes."""
        seat = self._seated_conn(command)
        if self.status != "playing" or self.match is None:
            raise TableError("illegal", "the match has not started: leave instead" if self.status == "waiting"
                             else "the match is over")
        await self._resign_now(seat, command)

    async def _resign_now(self, seat: int, command: SeatCommand | None, clock: bool = False) -> None:
        """``seat``'s person resigns: as they asked (``command``), or as their clock ran out too often
        (``clock``)."""
        info = self.seats[seat]
        await self._write(self.store.write_join, self.id,
                          SeatInfo(seat, info.name, None, None, info.user_id), self.version + 1)
        self.version += 1
        info.token_hash = None
        self._resign_seat(seat)
        for conn in self.conns:
            if conn.seat == seat:
                conn.seat = None
        if command is not None:
            self._ack(command.conn, command.id)
        self._emit("resigned", {"seat": seat, "name": info.name, "bot": STANDIN_LEVEL} | ({"clock": True} if clock
                                                                                          else {}))
        standing = self._standing_sides()
        if len(standing) == 1:
            # Every other side's people resigned: the match is over, the side left the winner.
            self.resignations.append(seat)
            await self._finish(Resignation(tuple(self.resignations), standing[0]))
            return
        self.resignations.append(seat)
        sides = self.rules.sides(self.players)
        left = {p % sides for p in self._people() if p not in self.standins}
        if not left:  # nobody plays any more (the others are away, their sides still in): nobody won
            await self._abandon(f"{info.name or f'seat {seat}'} resigned")

    def _standing_sides(self) -> list[int]:
        """The sides still in the match: every side but those whose people all resigned (a side of bots only,
        or with a person playing on, stands)."""
        sides = self.rules.sides(self.players)
        people = self._people()
        out = [side for side in range(sides)
               if not any(p % sides == side for p in people)
               or any(p % sides == side and p not in self.resigned for p in people)]
        return out

    async def _cancel(self, command: Cancel) -> None:
        if command.owner != self.owner:
            raise TableError("forbidden", "only whoever created this table may cancel it")
        if self.status != "waiting":
            raise TableError("illegal", "its match has started: a seated person may resign instead")
        await self._close("its creator cancelled it")
        if not command.reply.done():
            command.reply.set_result(None)

    async def _abandon(self, reason: str) -> None:
        """Close the table mid-match: each person a bot plays for (resigned, or gone) is rated as having lost
        (:func:`~brisca.server.ratings.rate_table`), nobody else."""
        from brisca.server.ratings import opponents_of, rate_table

        ratings: dict[str, tuple[float, float]] = {}
        keys = [f"bot:{s.bot}" if s.bot else s.account for s in self.seats]
        gone = {seat for seat in self.standins if self.seats[seat].bot is None}
        if self.rated and gone:
            rated = [k for k in keys if k is not None]
            current = await asyncio.to_thread(self.store.ratings, self.preset, rated) if rated else {}
            ratings = rate_table(current, keys, self.rules.sides(self.players), None, gone)
        await self._close(reason, ratings, opponents_of(keys, self.rules.sides(self.players)))

    # ------------------------------------------------------------------ the match

    async def _commit(self, seat: int, action: Action, by_person: bool = False,
                      timed_out: SeatClock | None = None) -> None:
        """Check (the engine, on a copy), write, apply, then broadcast; the next hand is dealt when one ends.
        ``timed_out``: the move was played for a person whose clock ran out (their clock from now).

        Nobody, not even an HTTP read of the table, sees a move before it is in the database.
        """
        assert self.match is not None
        match, game = self.match, self.match.game
        after = game.clone()
        try:
            after.apply(action, seat)
        except InvalidActionError as exc:
            raise TableError("malformed", str(exc)) from None
        except IllegalActionError as exc:
            raise TableError("illegal", str(exc)) from None
        clock = self._clock_after(seat, after, by_person, timed_out)
        number, hand = self.action_count, len(match.games) - 1
        await self._write(self.store.write_action, self.id, number, hand, seat, action.to_json(), self.version + 1,
                          by_person, clock)
        game.apply(action, seat)
        self.version += 1
        self.action_count += 1
        self._apply_clock(clock)

        def visible(audience: int | None) -> bool:
            if type(action) is not Signal and type(action) is not Discard:
                return True
            seen = game.view(audience).history
            return bool(seen) and seen[-1] == (seat, action)

        if game.is_over():
            self._plan_deal()
        public: Message = {"action": action_json(seat, action), "hand_over": game.is_over()}
        if timed_out is not None:
            public["timeout"] = True
        self._emit("action", public, visible)
        if game.is_over():
            await self._after_hand()

    async def _close(self, reason: str, ratings: dict[str, tuple[float, float]] | None = None,
                     opponents: dict[str, list[str]] | None = None) -> None:
        """Closed for good: stored first (with ``ratings``: the losses of people who resigned or left), then
        announced; the people's seats are freed (their tokens hold nothing), its connections are closed, and
        every later command is refused."""
        if self.status not in OPEN:
            return
        people = [s.seat for s in self.seats if s.bot is None]
        await self._write(self.store.write_close, self.id, people, self.version + 1, self.preset, ratings or {},
                          opponents, reason)
        self.version += 1
        self.status, self.closed_reason = "closed", reason
        self.deadline = None
        for info in self.seats:
            if info.bot is None:
                info.name = info.token_hash = None
        self.away.clear()
        self.standins.clear()
        self._emit("closed", {"reason": reason})
        for conn in self.conns:
            conn.send(CLOSE)
        self.conns.clear()
        self._over()

    async def _deal(self) -> None:
        hand_number = 0 if self.match is None else len(self.match.games)
        cards = self.rules.deck_cards(self.players)
        order = practice_deck(cards, self.seed, hand_number) if self.seeded else secure_deck(cards)
        deck = [str(c) for c in order]
        salt = new_salt()
        commitment = commit(deck, salt)
        draw = self.partner_draw() if self.match is None else None
        # The seats the draw gives are stored with the first hand, in one write: a restart finds both or neither.
        seats = self._seated_by(draw) if draw is not None else None
        await self._write(self.store.write_hand, self.id, hand_number, deck, self.version + 1 + (draw is not None),
                          salt, commitment, seats)
        if draw is not None and seats is not None:
            self._take_seats(draw, seats)
        self.version += 1
        self.decks.append(deck)
        self.salts.append(salt)
        self.commitments.append(commitment)
        if self.match is None:
            self.match = Match(self.rules, self.players, deck=deck, draw=draw)
        else:
            self.match.next_hand(deck=deck)
        self.status = "playing"
        self.next_deal_at = None
        await self._start_clock()
        self._emit("deal", {"hand_number": hand_number, "commitment": commitment})
        if hand_number == 0:
            self._check_presence_later()

    def _seated_by(self, draw: PartnerDraw) -> list[SeatInfo]:
        """The seats after the draw: whoever joined seat ``p`` (player ``p``) moves to ``draw.seating[p]``."""
        moved = [dataclasses.replace(self.seats[draw.player_at(seat)], seat=seat) for seat in range(self.players)]
        return moved

    def _take_seats(self, draw: PartnerDraw, seats: list[SeatInfo]) -> None:
        """Move everybody (people, bots, connections) to the seats the draw gave, and tell the table: each
        audience is told its own new seat (``you``), which a reconnection's welcome also gives."""
        new = draw.seating
        self.seats = seats
        self.agents = {new[p]: agent for p, agent in self.agents.items()}
        self.standins = {new[p]: agent for p, agent in self.standins.items()}
        self.away = {new[p]: due for p, due in self.away.items()}
        for conn in self.conns:
            if conn.seat is not None:
                conn.seat = new[conn.seat]
        self.version += 1
        public = {"draw": draw_json(draw), "moves": list(new)}
        self._emit("partners", public, own=lambda audience: {"you": audience})

    def record(self) -> MatchRecord:
        """The match's record with every hand's salt and commitment (and a practice table's seed)."""
        assert self.match is not None
        made = MatchRecord.from_match(self.match)
        hands = [dataclasses.replace(hand, salt=salt, commitment=commitment)
                 for hand, salt, commitment in zip(made.hands, self.salts, self.commitments, strict=False)]
        return dataclasses.replace(made, hands=hands, seed=self.seed if self.seeded else None)

    async def _finish(self, resignation: Resignation | None = None) -> None:
        """Store the finished match and its ratings (:func:`~brisca.server.ratings.rate_table`: accounts and
        bots, never guests; a person a stand-in was still playing for has resigned). ``resignation``: the match
        ends before its end, the people of every side but the winner's having resigned; it is rated, recorded
        and in the history as any other (its record says so)."""
        from brisca.server.ratings import START, opponents_of, ordinal, rate_table

        assert self.match is not None
        match = self.match
        made = self.record()
        if resignation is not None:
            made = dataclasses.replace(made, resigned=resignation)
        record = made.dumps()
        winner = match.winner if resignation is None else resignation.winner
        names = [f"bot:{s.bot}" if s.bot else (s.name or f"seat {s.seat}") for s in self.seats]
        keys = [f"bot:{s.bot}" if s.bot else s.account for s in self.seats]
        # Who left and did not come back loses alone; who resigned lost with their side (rated as such when
        # the resignation ends the match, as having left otherwise).
        gone = {seat for seat in self.standins if self.seats[seat].bot is None
                and (resignation is None or seat not in self.resigned)}
        ratings: dict[str, tuple[float, float]] = {}
        # Never rated: a practice table (its person could know every deal), a table with hints; ``rate_table``
        # rates only tables with no guest and an account (so never bots alone).
        if self.rated:
            rated = [k for k in keys if k is not None]
            current = await asyncio.to_thread(self.store.ratings, self.preset, rated) if rated else {}
            counts = await asyncio.to_thread(self.store.rating_counts, self.preset, rated) if rated else {}
            ratings = rate_table(current, keys, self.rules.sides(self.players), winner, gone,
                                 games={k: n for k, (n, _) in counts.items()},
                                 provisional_games=self.provisional_games,
                                 opponents={k: met for k, (_, met) in counts.items()},
                                 provisional_opponents=self.provisional_opponents, addresses=self.addresses)
            self.rating_changes = [
                {"seat": seat, "before": round(ordinal(current.get(key, START)), 2),
                 "after": round(ordinal(ratings[key]), 2)}
                for seat, key in enumerate(keys) if key is not None and key in ratings]
        row = GameRow(table_id=self.id, preset=self.preset, players=self.players, names=names,
                      winner=winner, record=record)
        await self._write(self.store.write_finish, self.id, row, ratings, self.version + 1,
                          opponents_of(keys, self.rules.sides(self.players)))
        self.version += 1
        self.status = "finished"
        self.final_winner, self.by_resignation = winner, resignation is not None
        self.next_deal_at = None
        self.deadline = None
        self.away.clear()
        self.standins.clear()
        over: Message = {"winner": winner, "record": f"/api/games/{self.id}/record"}
        if resignation is not None:
            over["resigned"] = list(resignation.seats)
        self._emit("match_over", over)
        self._over()

    def _over(self) -> None:
        if self.on_over is not None:
            try:
                self.on_over(self.id)
            except Exception:  # the table's own end is stored and told: whoever listens looks again later
                log.exception("table %s: its end could not be told", self.id)


def draw_json(draw: PartnerDraw) -> Message:
    """The draw for partners as the table shows it: each round's cards by the seat their drawer sits at now,
    the seats from the highest card to the lowest, and the first dealer's seat."""
    new = draw.seating
    return {
        "rounds": [[{"seat": new[p], "card": str(c)} for p, c in r] for r in draw.rounds],
        "order": [new[p] for p in draw.order],
        "dealer": draw.dealer,
    }
