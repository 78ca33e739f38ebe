"""A load benchmark of the web table, and its ``kill -9`` durability check (not a CI test).

Run ``brisca loadtest --tables 500 --seconds 60`` (or ``python -m brisca.server.loadtest``): it starts
``brisca serve`` as a subprocess on a free port of 127.0.0.1, creates ``--tables`` tables whose seats are all
held by bots on the client side, each with its seat token over its own WebSocket, and lets them play for
``--seconds``. Each client plays a random legal action from its own view, after a think time of ``--pace``
seconds on average (uniform from half to one and a half times it): ``--pace 1`` is a human-like table, one
action a second; ``--pace 0`` plays as fast as the server answers (the maximum throughput). A finished match
is replaced by a new table, so ``--tables`` stay in play all along.

It reports the tables, the connections, the actions a second, and the latency from a client's sending an
action to its receiving the broadcast of that action (``own``), and to the other seats' receiving it
(``others``): p50, p95, p99 and the maximum, over the measured window (after every table is seated and
connected). The server's CPU (one core is 100%) and the client's event loop lag come with them: the clients
run in this one process, and a lag there is counted in the latencies.

``--kill-after S`` checks durability instead: after ``S`` seconds of play the server gets ``SIGKILL`` (as
many times as ``--kills``), is started again on the same database and port, every client reconnects with
its seat token and the last event number it saw, and the matches are played to their end. Then nothing may
be lost or duplicated: every acknowledged action, and every action any client saw broadcast, is at its
place in the finished record, exactly once; the stored action numbers are gapless; each connection saw
gapless event numbers that never went back; and every record replays (:mod:`brisca.record`). The exit
status is 1 when any check fails.

``--processes N --redis URL`` (with ``--db postgresql://...``) runs the same against N ``brisca serve`` processes
serving one site (docs/hosting.md): table ``i`` is created on process ``i mod N``, its seats join and connect
through different processes, and the report adds each process's share (the actions acknowledged to its clients,
their latency, its CPU, the tables it runs at the end). With ``--kill-after``, the process running the most tables
is the one killed; the others take its tables over (``takeover_s``), its clients reconnect to the next process,
and it is started again before the next kill (not after the last one: the others finish the matches).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import math
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

Message = dict[str, Any]
#: ``(hand number, number of actions in that hand once this one is in)``: an action's place in a match.
Key = tuple[int, int]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def percentile(values: Sequence[float], q: float) -> float | None:
    """The ``q``-th percentile (nearest rank) of ``values``; ``None`` when empty."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, min(len(ordered), math.ceil(q / 100 * len(ordered))))
    return ordered[rank - 1]


def _cpu_seconds(pid: int) -> float:
    """User and system CPU time of a process (Linux ``/proc``); 0 where it cannot be read."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def _cpu_by_name(name: str) -> float:
    """User and system CPU time of every process of this machine whose command is ``name`` (Linux ``/proc``):
    the database's or Redis's share of a run, when they run here."""
    total = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue
        if text[text.find("(") + 1:text.rfind(")")] == name:
            total += _cpu_seconds(int(stat.parent.name))
    return total


def _cpu_pressure() -> float:
    """Microseconds that some task on this machine waited for a CPU (Linux PSI); 0 where unknown."""
    try:
        first = Path("/proc/pressure/cpu").read_text().splitlines()[0]
        return float(first.rsplit("total=", 1)[1])
    except (OSError, IndexError, ValueError):
        return 0.0


# ---------------------------------------------------------------------------------------------- the server


#: Every client of the benchmark is one address that opens and seats hundreds of tables: the limits on
#: one address (docs/hosting-table.md, "Limits") are lifted.
UNLIMITED = ["--rate-create", "1e9/1000000", "--rate-join", "1e9/1000000", "--max-open-tables", "1000000",
             "--max-connections", "1000000"]


class Server:
    """``brisca serve`` in a subprocess, on 127.0.0.1 (``redis``: one of several processes serving one site)."""

    def __init__(self, db: str, port: int, log: Path, takeover_after: float = -1, redis: str | None = None) -> None:
        self.db, self.port, self.log_path, self.takeover_after = db, port, log, takeover_after
        self.redis = redis
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0
        #: The process id of an external server (``--url``), for its CPU time.
        self.pid = 0

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        self.starts += 1
        with self.log_path.open("ab") as log:
            log.write(f"--- start {self.starts}\n".encode())
            log.flush()
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "brisca", "serve", "--host", "127.0.0.1", "--port", str(self.port),
                 "--db", self.db, "--log-level", "warning", "--takeover-after", str(self.takeover_after),
                 "--hand-pause", "0", *UNLIMITED, *(["--redis", self.redis] if self.redis else [])],
                stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            )

    async def ready(self, timeout: float = 60.0) -> float:
        """Wait until it answers HTTP; the seconds that took."""
        t0 = time.monotonic()
        while True:
            if self.proc is None or self.proc.poll() is not None:
                raise RuntimeError(f"the server exited; see {self.log_path}:\n{self.log_tail()}")
            try:
                await http(self.base + "/api/presets")
                return time.monotonic() - t0
            except OSError:
                if time.monotonic() - t0 > timeout:
                    raise RuntimeError(f"the server did not answer within {timeout:g} s") from None
                await asyncio.sleep(0.05)

    def kill(self) -> None:
        """``kill -9``."""
        if self.proc is not None and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait()

    def stop(self, timeout: float = 15.0) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.kill()

    async def health(self) -> Message:
        """Its ``GET /healthz``: its process, and the tables it runs."""
        answer: Message = await http(self.base + "/healthz")
        return answer

    def cpu_seconds(self) -> float:
        if self.proc is None:
            return _cpu_seconds(self.pid) if self.pid else 0.0
        return _cpu_seconds(self.proc.pid)

    def log_tail(self, chars: int = 3000) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-chars:]
        except OSError:
            return ""


def _http_sync(url: str, body: Message | None, raw: bool = False) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method="GET" if body is None else "POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        text = response.read().decode()
    return text if raw else json.loads(text)


async def http(url: str, body: Message | None = None, raw: bool = False) -> Any:
    """One HTTP request (the standard library's client, off the event loop): the decoded JSON answer
    (``raw``: its text)."""
    return await asyncio.to_thread(_http_sync, url, body, raw)


# ---------------------------------------------------------------------------------------------- the clients


@dataclass
class Stats:
    own: list[float] = field(default_factory=list)
    others: list[float] = field(default_factory=list)
    #: ``(when it was sent, latency)`` of every own-seat broadcast, to find when the slow ones were.
    own_at: list[tuple[float, float]] = field(default_factory=list)
    acks: int = 0
    sent: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    matches_finished: int = 0
    reconnects: int = 0
    lag: list[float] = field(default_factory=list)

    def error(self, code: str) -> None:
        self.errors[code] = self.errors.get(code, 0) + 1


@dataclass
class ProcessStats:
    """What the clients connected to one process measured."""

    own: list[float] = field(default_factory=list)
    others: list[float] = field(default_factory=list)
    acks: int = 0


@dataclass
class SeatLog:
    """What one seat's clients did and saw, for the durability checks."""

    #: ``key -> action text`` of every action acknowledged to this seat (or found committed after a crash).
    acked: dict[Key, str] = field(default_factory=dict)
    #: Acknowledged twice at the same place (never expected).
    double_acks: int = 0
    #: ``key -> (seat, text)`` of every action broadcast to this seat.
    seen: dict[Key, tuple[int, str]] = field(default_factory=dict)
    #: Event numbers that skipped, repeated or went back, on one connection.
    problems: list[str] = field(default_factory=list)
    #: Sends cut off by a crash that turned out to be in the database (their ack was lost).
    recovered: int = 0
    #: Sends cut off by a crash that never reached the database (played again).
    dropped: int = 0
    #: Sends cut off by a crash when the server, back, had already dealt the next hand (the seat's view no
    #: longer shows the hand): the record tells whether they were kept. Never acknowledged, so either is right.
    unresolved: dict[Key, str] = field(default_factory=dict)


class Run:
    """Shared by every client: the clock, the options and the measurements.

    ``base``: the server's URL, or the URLs of the processes serving one site: table ``i`` is created on process
    ``i``, its seat ``s`` joins and connects through process ``i + s`` (so a table's seats use different
    processes), and a client that reconnects goes to the next process.
    """

    def __init__(self, base: str | Sequence[str], pace: float, players: int, preset: str, seed: int) -> None:
        self.bases = [base] if isinstance(base, str) else list(base)
        self.base = self.bases[0]
        self.ws_base = "ws" + self.base[4:]
        #: Measured by the clients of each process.
        self.per_process = [ProcessStats() for _ in self.bases]
        self.pace = pace
        self.players = players
        self.preset = preset
        self.rng = random.Random(seed)
        self.stats = Stats()
        self.measuring = False
        self.stopping = False
        self.tables: list[TableClient] = []
        self.finished: list[TableClient] = []
        self.replace_finished = True
        self.setup_gate = asyncio.Semaphore(16)
        #: Tasks started in the background (asyncio keeps only weak references to tasks).
        self.background: set[asyncio.Task[Any]] = set()

    def spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self.background.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[Any]) -> None:
        self.background.discard(task)
        if not task.cancelled() and task.exception() is not None and not self.stopping:
            print(f"loadtest: a task failed: {task.exception()!r}", file=sys.stderr)

    def think(self) -> float:
        return 0.0 if self.pace <= 0 else self.rng.uniform(0.5 * self.pace, 1.5 * self.pace)

    async def new_table(self, number: int) -> TableClient:
        """Create a table, take every seat over HTTP, connect every seat over its WebSocket."""
        async with self.setup_gate:
            created = await http(self.url(number) + "/api/tables",
                                 {"preset": self.preset, "players": self.players, "bot_delay": 0, "name": "load0"})
            tokens = [created["token"]]
            for seat in range(1, self.players):
                joined = await http(f"{self.url(number + seat)}/api/tables/{created['table_id']}/join",
                                    {"name": f"load{seat}"})
                assert joined["seat"] == seat, joined
                tokens.append(joined["token"])
        table = TableClient(self, number, created["table_id"], tokens)
        self.tables.append(table)
        await table.connect()
        return table

    def url(self, index: int) -> str:
        """The URL of process ``index`` (modulo their number)."""
        return self.bases[index % len(self.bases)]

    def table_finished(self, table: TableClient) -> None:
        if table in self.tables:
            self.tables.remove(table)
            self.finished.append(table)
            if self.measuring:
                self.stats.matches_finished += 1
            if self.replace_finished and not self.stopping:
                self.spawn(self.new_table(table.number))


class TableClient:
    """The clients of one table's seats, and when each action was sent (to time its broadcast)."""

    def __init__(self, run: Run, number: int, table_id: str, tokens: list[str]) -> None:
        self.run, self.number, self.id = run, number, table_id
        self.seats = [SeatClient(self, seat, token) for seat, token in enumerate(tokens)]
        self.sent_at: dict[Key, float] = {}
        self.done = asyncio.Event()
        self.record: str | None = None

    async def connect(self) -> None:
        await asyncio.gather(*(s.start() for s in self.seats))

    def observe(self, key: Key, own: bool, now: float, process: int = 0) -> None:
        t0 = self.sent_at.get(key)
        if t0 is not None and self.run.measuring:
            (self.run.stats.own if own else self.run.stats.others).append(now - t0)
            per = self.run.per_process[process]
            (per.own if own else per.others).append(now - t0)
            if own:
                self.run.stats.own_at.append((t0, now - t0))

    def over(self) -> None:
        if not self.done.is_set():
            self.done.set()
            self.run.table_finished(self)


class SeatClient:
    """One seat's bot: a WebSocket with its seat token; reconnects with the last event number it saw."""

    def __init__(self, table: TableClient, seat: int, token: str) -> None:
        self.table, self.seat, self.token = table, seat, token
        self.run = table.run
        #: The process this seat's client connects through (the next one at each reconnection).
        self.process = (table.number + seat) % len(self.run.bases)
        self.v: int | None = None
        self.state: Message | None = None
        self.ws: Any = None
        #: The action sent and not yet answered: ``(key, text, message id)``.
        self.pending: tuple[Key, str, int] | None = None
        self.thinking: asyncio.TimerHandle | None = None
        self.log = SeatLog()
        self.ids = 0
        self.connected = asyncio.Event()
        self.task: asyncio.Task[None] | None = None
        #: This seat saw the end of the match (it still waits for the answer to its last action).
        self.saw_end = False
        #: This seat is done: the match is over and its last action answered.
        self.finished = False

    async def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self.loop())
        await self.connected.wait()

    async def loop(self) -> None:
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed, InvalidHandshake

        first = True
        while not self.finished and not self.table.done.is_set():
            url = f"ws{self.run.url(self.process)[4:]}/ws/{self.table.id}"
            try:
                async with connect(url, ping_interval=None, open_timeout=30, close_timeout=2,
                                   max_size=2**22) as ws:
                    self.ws = ws
                    if not first:
                        self.run.stats.reconnects += 1
                    first = False
                    hello: Message = {"type": "hello", "token": self.token}
                    if self.v is not None and self.pending is None:
                        # With an action unanswered, ask for a snapshot: it tells whether the action was kept.
                        hello["last"] = self.v
                    await ws.send(json.dumps(hello))
                    async for raw in ws:
                        self.handle(json.loads(raw))
                        if self.finished or self.table.done.is_set():
                            break
            except (TimeoutError, OSError, ConnectionClosed, InvalidHandshake):
                pass
            finally:
                self.ws = None
                if self.thinking is not None:
                    self.thinking.cancel()
                    self.thinking = None
            if not self.finished and not self.table.done.is_set():
                self.process = (self.process + 1) % len(self.run.bases)  # any process will do
                await asyncio.sleep(0.05)  # the server is gone: try again until it is back

    # ------------------------------------------------------------------ messages

    def handle(self, m: Message) -> None:
        kind = m.get("type")
        now = time.perf_counter()
        if kind == "welcome":
            self.connected.set()
        elif kind == "event":
            v = m["v"]
            if self.v is not None and v != self.v + 1:
                self.log.problems.append(f"seat {self.seat}: event {v} after {self.v}")
            self.v = v
            if "state" in m:
                self.state = m["state"]
            if m.get("kind") == "action" and self.state is not None:
                action = m["action"]
                key = (self.state["table"]["hand_number"], len(self.state["view"]["history"]))
                self.log.seen[key] = (action["seat"], action["text"])
                self.table.observe(key, action["seat"] == self.seat, now, self.process)
            elif m.get("kind") == "match_over":
                self._end()
                return
        elif kind == "sync":
            if self.v is not None and m["v"] < self.v:
                self.log.problems.append(f"seat {self.seat}: snapshot {m['v']} after event {self.v}")
            self.v, self.state = m["v"], m["state"]
            self._settle_after_crash()
            if self.state is not None and self.state["table"]["status"] == "finished":
                self._end()
                return
        elif kind == "ack":
            if self.pending is not None and m.get("id") == self.pending[2]:
                key, text, _ = self.pending
                if key in self.log.acked:
                    self.log.double_acks += 1
                self.log.acked[key] = text
                self.pending = None
                self.run.stats.acks += self.run.measuring
                self.run.per_process[self.process].acks += self.run.measuring
                if self.saw_end:
                    self._end()
        elif kind == "error":
            code = str(m.get("code"))
            self.run.stats.error(code)
            if self.pending is not None and m.get("id") == self.pending[2]:
                self.pending = None
        self._maybe_act()

    def _end(self) -> None:
        """The match is over: this seat is done once its last action is answered; the table, once all are."""
        self.saw_end = True
        if self.pending is None and not self.finished:
            self.finished = True
            if all(s.finished for s in self.table.seats):
                self.table.over()

    def _settle_after_crash(self) -> None:
        """After a snapshot (a reconnection), an unanswered action is either in the match or it is not."""
        if self.pending is None or self.state is None:
            return
        (hand, index), text, _ = self.pending
        history = self.state["view"]["history"] if self.state["view"] else []
        if self.state["table"]["hand_number"] != hand or len(history) < index:
            if self.state["table"]["hand_number"] is not None and self.state["table"]["hand_number"] > hand:
                self.log.unresolved[(hand, index)] = text
            else:
                self.log.dropped += 1
            self.pending = None
            return
        done = history[index - 1]
        if done["seat"] == self.seat and done["text"] == text:
            self.log.acked[(hand, index)] = text
            self.log.recovered += 1
        else:
            self.log.dropped += 1
        self.pending = None

    def _maybe_act(self) -> None:
        state = self.state
        if (self.pending is not None or self.thinking is not None or self.ws is None or self.run.stopping
                or state is None or state["table"]["status"] != "playing" or state["view"] is None):
            return
        view = state["view"]
        if view["turn"] != self.seat or not view["legal"]:
            return
        delay = self.run.think()
        self.thinking = asyncio.get_running_loop().call_later(delay, self._send)

    def _send(self) -> None:
        self.thinking = None
        state, ws = self.state, self.ws
        if ws is None or self.pending is not None or self.run.stopping or state is None or state["view"] is None:
            return
        view = state["view"]
        if view["turn"] != self.seat or not view["legal"] or state["table"]["status"] != "playing":
            return
        legal = self.run.rng.choice(view["legal"])
        self.ids += 1
        key = (state["table"]["hand_number"], len(view["history"]) + 1)
        self.pending = (key, legal["text"], self.ids)
        self.table.sent_at[key] = time.perf_counter()
        self.run.stats.sent += 1
        self.run.spawn(_quietly(ws.send(json.dumps({"type": "play", "action": legal["text"], "id": self.ids}))))


async def _quietly(send: Any) -> None:
    """A send on a connection that may have just closed: the reconnection deals with it."""
    with contextlib.suppress(Exception):
        await send


async def _lag_monitor(run: Run, every: float = 0.01) -> None:
    """How late this process's event loop wakes up: a client-side share of every latency."""
    loop = asyncio.get_running_loop()
    while True:
        t0 = loop.time()
        await asyncio.sleep(every)
        if run.measuring:
            run.stats.lag.append(loop.time() - t0 - every)


# ---------------------------------------------------------------------------------------------- the runs


def _ms(value: float | None) -> float | None:
    return None if value is None else round(value * 1000, 2)


def _latency(values: Sequence[float]) -> dict[str, Any]:
    return {"n": len(values), "p50_ms": _ms(percentile(values, 50)), "p95_ms": _ms(percentile(values, 95)),
            "p99_ms": _ms(percentile(values, 99)), "max_ms": _ms(max(values) if values else None)}


def _slowest_seconds(stats: Stats, start: float, count: int = 5) -> list[dict[str, Any]]:
    """The seconds of the window with the slowest own-seat broadcasts: a stall shows as one bad second."""
    seconds: dict[int, list[float]] = {}
    for t0, latency in stats.own_at:
        seconds.setdefault(int(t0 - start), []).append(latency)
    worst = sorted(seconds.items(), key=lambda kv: -max(kv[1]))[:count]
    return [{"second": s, "actions": len(v), "p50_ms": _ms(percentile(v, 50)), "max_ms": _ms(max(v))}
            for s, v in sorted(worst)]


def _db_url(db: str | None, folder: Path) -> str:
    return db if db else str(folder / "loadtest.sqlite3")


def _servers(url: str, folder: Path, processes: int, redis: str | None) -> list[Server]:
    """The ``brisca serve`` processes of a run: one, or ``processes`` sharing a PostgreSQL database and Redis."""
    if processes > 1 and not redis:
        raise SystemExit("loadtest: --processes above 1 needs --redis (and a --db postgresql://...)")
    if redis and not url.startswith("postgres"):
        raise SystemExit("loadtest: --redis needs --db postgresql://... (the processes share one database)")
    return [Server(url, free_port(), folder / f"server{i}.log", redis=redis) for i in range(processes)]


async def _ready(servers: Sequence[Server]) -> float:
    """Start time of the slowest process; one at a time first (the first upgrades the database's schema)."""
    first = await servers[0].ready()
    rest = await asyncio.gather(*(s.ready() for s in servers[1:]))
    return max([first, *rest])


async def bench(tables: int, seconds: float, *, db: str | None = None, players: int = 2, pace: float = 1.0,
                preset: str = "spanish", seed: int = 1, workdir: Path | None = None,
                external: str | None = None, server_pid: int = 0, processes: int = 1,
                redis: str | None = None) -> dict[str, Any]:
    """The load benchmark: ``tables`` tables in play for ``seconds``; the report as a dict.

    ``external``: the URL (``http://127.0.0.1:PORT``) of a server already running, to use instead of starting one.
    ``processes`` (with ``redis`` and a PostgreSQL ``db``): that many processes serve the site, each table's seats
    connected through different ones; the report has each process's share (``per_process``).
    """
    folder = Path(workdir or tempfile.mkdtemp(prefix="brisca-load-"))
    url = _db_url(db, folder)
    servers = _servers(url, folder, processes, redis)
    server = servers[0]
    if external:
        server.port, server.pid = int(external.rsplit(":", 1)[1].strip("/")), server_pid
    else:
        for s in servers:
            s.start()
    run = Run([s.base for s in servers], pace, players, preset, seed)
    monitor = asyncio.get_running_loop().create_task(_lag_monitor(run))
    try:
        startup = 0.0 if external else await _ready(servers)
        t0 = time.monotonic()
        await asyncio.gather(*(run.new_table(i) for i in range(tables)))
        setup = time.monotonic() - t0
        # The clients' long-lived objects (1000 connections...) out of the garbage collector's way: its
        # pauses in this process would be counted as the server's latency.
        gc.collect()
        gc.freeze()
        cpu0 = [s.cpu_seconds() for s in servers]
        services0 = [_cpu_by_name("postgres"), _cpu_by_name("redis-server")]
        own0, w0, p0 = time.process_time(), time.monotonic(), time.perf_counter()
        pressure0 = _cpu_pressure()
        run.measuring = True
        await asyncio.sleep(seconds)
        run.measuring = False
        window = time.monotonic() - w0
        cpu = [s.cpu_seconds() - c for s, c in zip(servers, cpu0, strict=True)]
        services = [_cpu_by_name("postgres") - services0[0], _cpu_by_name("redis-server") - services0[1]]
        client_cpu = time.process_time() - own0
        pressure = (_cpu_pressure() - pressure0) / 1e6 / window
        healths: list[Any] = []
        if redis:
            healths = await asyncio.gather(*(s.health() for s in servers), return_exceptions=True)
        run.stopping = True
        open_tables = len(run.tables)
        for table in list(run.tables):
            table.done.set()
            for seat in table.seats:
                if seat.ws is not None:
                    with contextlib.suppress(Exception):
                        await seat.ws.close()
    finally:
        monitor.cancel()
        for s in servers:
            s.stop()
    stats = run.stats
    load = os.getloadavg()
    report: dict[str, Any] = {
        "mode": "bench", "db": "postgresql" if url.startswith("postgres") else "sqlite", "preset": preset,
        "processes": processes, "redis": bool(redis),
        "players": players, "pace_s": pace, "tables": tables, "connections": tables * players,
        "tables_open_at_end": open_tables, "server_start_s": round(startup, 2), "setup_s": round(setup, 2),
        "window_s": round(window, 2), "actions": stats.acks, "actions_per_s": round(stats.acks / window, 1),
        "matches_finished": stats.matches_finished,
        "latency_own": _latency(stats.own), "latency_others": _latency(stats.others),
        "server_cpu_pct": round(100 * sum(cpu) / window, 1), "client_cpu_pct": round(100 * client_cpu / window, 1),
        "client_loop_lag": _latency(stats.lag), "slowest_seconds": _slowest_seconds(stats, p0),
        "errors": stats.errors, "machine_cpu_pressure_pct": round(100 * pressure, 1),
        "loadavg_at_end": [round(x, 2) for x in load],
        "cpus": os.cpu_count(),
        # Every postgres and redis-server process of the machine (those of other work on it too).
        "postgres_cpu_pct": round(100 * services[0] / window, 1), "redis_cpu_pct": round(100 * services[1] / window, 1),
        "server_cpu_ms_per_action": round(1000 * sum(cpu) / max(1, stats.acks), 2),
    }
    if processes > 1 or redis:
        report["per_process"] = [
            {"port": s.port, "cpu_pct": round(100 * c / window, 1),
             "tables_owned_at_end": h.get("tables_owned") if isinstance(h, dict) else None,
             "actions_per_s": round(per.acks / window, 1), "latency_own": _latency(per.own),
             "latency_others": _latency(per.others)}
            for s, c, per, h in zip(servers, cpu, run.per_process, healths or [None] * len(servers), strict=True)]
    return report


async def durability(tables: int, *, db: str | None = None, players: int = 2, pace: float = 0.05,
                     kill_after: float = 1.0, kills: int = 1, deadline: float = 120.0, preset: str = "spanish",
                     seed: int = 1, workdir: Path | None = None, processes: int = 1,
                     redis: str | None = None) -> dict[str, Any]:
    """``kill -9`` the server mid-game (``kills`` times, ``kill_after`` seconds of play apart), restart it on the
    same database, play every match to its end, and check that nothing was lost or duplicated.

    With ``processes`` (and ``redis``, on PostgreSQL): the process running the most tables is killed each time;
    the others take its tables over (``takeover_s``: until none of its open tables is left to it), its clients
    reconnect to the next process, and it is started again (a new process) before the next kill; after the last
    kill the others finish the matches without it.
    """
    folder = Path(workdir or tempfile.mkdtemp(prefix="brisca-kill-"))
    url = _db_url(db, folder)
    servers = _servers(url, folder, processes, redis)
    for server in servers:
        server.start()
    run = Run([server.base for server in servers], pace, players, preset, seed)
    run.replace_finished = False
    run.measuring = True
    kills_done: list[dict[str, Any]] = []
    #: Processes of a site restarting after a kill, timed while the others play on.
    restarts: list[tuple[dict[str, Any], asyncio.Task[float]]] = []
    t_end = time.monotonic() + deadline
    try:
        await _ready(servers)
        all_tables = await asyncio.gather(*(run.new_table(i) for i in range(tables)))
        for _ in range(kills):
            await asyncio.sleep(kill_after)
            victim, node, owned = servers[0], None, None
            if redis:
                # A process still restarting after the kill before does not answer: it runs no table yet.
                answers = await asyncio.gather(*(server.health() for server in servers), return_exceptions=True)
                healths: list[dict[str, Any]] = [h if isinstance(h, dict) else {"node": "", "tables_owned": -1}
                                                 for h in answers]
                index = max(range(len(servers)), key=lambda i: int(healths[i]["tables_owned"]))
                victim, node, owned = servers[index], healths[index]["node"], healths[index]["tables_owned"]
            in_flight = sum(seat.pending is not None for t in all_tables for seat in t.seats)
            mid_game = sum(bool(t.seats[0].log.seen) and not t.done.is_set() for t in all_tables)
            acked = sum(len(seat.log.acked) for t in all_tables for seat in t.seats)
            killed_at = time.monotonic()
            victim.kill()
            done: dict[str, Any] = {"acked_before": acked, "in_flight": in_flight, "tables_mid_game": mid_game}
            if node is not None:
                done |= {"port": victim.port, "tables_owned": owned,
                         "takeover_s": round(await _taken_over(url, node, killed_at), 2)}
            if node is None:  # the only server: play waits for it
                victim.start()
                done["restart_s"] = round(await victim.ready(), 2)
            elif len(kills_done) + 1 < kills:  # the others play on while it restarts (the others go on without it
                victim.start()                 # after the last kill)
                restarts.append((done, asyncio.create_task(victim.ready())))
            kills_done.append(done)
        for done, ready in restarts:
            done["restart_s"] = round(await ready, 2)
        left = max(1.0, t_end - time.monotonic())
        try:
            await asyncio.wait_for(asyncio.gather(*(t.done.wait() for t in all_tables)), left)
        except TimeoutError:
            raise RuntimeError(f"not every match ended within {deadline:g} s: "
                               + "; ".join(_unfinished(all_tables)[:10])
                               + await _where_they_run(url, servers, all_tables)) from None
        live = next(server for server in servers if server.proc is not None and server.proc.poll() is None)
        for t in all_tables:
            t.record = await http(f"{live.base}/api/games/{t.id}/record", raw=True)
        stored = await asyncio.to_thread(_stored_action_numbers, url, [t.id for t in all_tables])
    finally:
        run.stopping = True
        for t in run.tables:
            t.done.set()
        for t in [*run.tables, *run.finished]:
            for s in t.seats:
                if s.ws is not None:
                    with contextlib.suppress(Exception):
                        await s.ws.close()
        for server in servers:
            server.stop()
    checks = check_tables(all_tables, stored)
    return {"mode": "kill", "db": "postgresql" if url.startswith("postgres") else "sqlite", "tables": tables,
            "processes": processes, "players": players, "connections": tables * players, "pace_s": pace,
            "kills": kills_done, "reconnects": run.stats.reconnects, "errors": run.stats.errors, **checks}


def _unfinished(tables: Sequence[TableClient]) -> list[str]:
    """Where the tables that did not finish stand, seat by seat (for the report of a run that timed out)."""
    out = []
    for t in tables:
        if t.done.is_set():
            continue
        seats = []
        for seat in t.seats:
            state = seat.state or {}
            table, view = state.get("table") or {}, state.get("view") or {}
            seats.append(f"seat {seat.seat}: process {seat.process}, connected {seat.ws is not None}, v {seat.v}, "
                         f"pending {seat.pending}, status {table.get('status')}, turn {view.get('turn')}, "
                         f"finished {seat.finished}")
        out.append(f"table {t.id}: " + ", ".join(seats))
    return out


async def _where_they_run(url: str, servers: Sequence[Server], tables: Sequence[TableClient]) -> str:
    """For the report of a run that timed out: each process's name and what it logged last, and which process
    holds each unfinished table's lease."""
    parts = []
    for i, server in enumerate(servers):
        try:
            node = str((await asyncio.wait_for(server.health(), 5))["node"])
        except Exception as exc:
            node = f"({type(exc).__name__})"
        parts.append(f"\n--- process {i}: {node}; its log ends:\n{server.log_tail(1500)}")
    if url.startswith("postgres"):
        def holders() -> dict[str, str]:
            import sqlalchemy as sa

            from brisca.server.db import make_engine

            engine = make_engine(url)
            try:
                with engine.connect() as c:
                    return {str(t): f"{o} (epoch {e})" for t, o, e in
                            c.execute(sa.text("SELECT table_id, owner, epoch FROM brisca_leases"))}
            finally:
                engine.dispose()

        with contextlib.suppress(Exception):
            found = await asyncio.to_thread(holders)
            parts.append("\n--- leases of the unfinished tables: " + ", ".join(
                f"{t.id}: {found.get(t.id, 'none')}" for t in tables if not t.done.is_set()))
    return "".join(parts)


async def _taken_over(url: str, node: str, since: float, timeout: float = 30.0) -> float:
    """Seconds from ``since`` until no open table's lease is left to the (killed) process ``node``."""
    import sqlalchemy as sa

    from brisca.server.db import make_engine

    engine = make_engine(url)
    query = sa.text("SELECT count(*) FROM brisca_leases l JOIN brisca_tables t ON t.id = l.table_id"
                    " WHERE l.owner = :node AND t.status IN ('waiting', 'playing')")
    try:
        while True:
            with engine.connect() as c:
                left = c.execute(query, {"node": node}).scalar()
            if not left or time.monotonic() - since > timeout:
                return time.monotonic() - since
            await asyncio.sleep(0.05)
    finally:
        engine.dispose()


def _stored_action_numbers(url: str, table_ids: list[str]) -> dict[str, list[int]]:
    import sqlalchemy as sa

    from brisca.server.db import make_engine

    engine = make_engine(url)
    try:
        with engine.connect() as c:
            rows = c.execute(sa.text("SELECT table_id, action_number FROM brisca_actions ORDER BY action_number"))
            out: dict[str, list[int]] = {t: [] for t in table_ids}
            for table_id, number in rows:
                if table_id in out:
                    out[table_id].append(number)
            return out
    finally:
        engine.dispose()


def check_tables(tables: Sequence[TableClient], stored: dict[str, list[int]]) -> dict[str, Any]:
    """Compare what the clients were acknowledged and saw with the finished records and the stored actions."""
    from brisca.game import Match
    from brisca.record import MatchRecord, loads

    lost, duplicated, misplaced, acked, seen, problems = 0, 0, 0, 0, 0, []
    recovered = dropped = replayed = total = kept_unanswered = 0
    for table in tables:
        logs = [s.log for s in table.seats]
        if table.record is None:
            problems.append(f"table {table.id}: no record")
            continue
        record = loads(table.record)
        if not isinstance(record, MatchRecord):
            problems.append(f"table {table.id}: not a match record")
            continue
        games = record.replay()
        match = Match.of_games(record.make_rules(), record.players, games)
        replayed += match.is_over()
        histories = [[(seat, str(action)) for seat, action in game.history] for game in games]
        count = sum(len(h) for h in histories)
        total += count
        numbers = stored.get(table.id, [])
        if numbers != list(range(count)):
            duplicated += max(0, len(numbers) - count)
            problems.append(f"table {table.id}: stored action numbers {numbers[:5]}... for {count} actions")
        for seat, log in enumerate(logs):
            duplicated += log.double_acks
            recovered += log.recovered
            dropped += log.dropped
            problems.extend(f"table {table.id}: {p}" for p in log.problems)
            for (hand, index), text in log.acked.items():
                acked += 1
                if hand >= len(histories) or index > len(histories[hand]):
                    lost += 1
                elif histories[hand][index - 1] != (seat, text):
                    misplaced += 1
            for (hand, index), text in log.unresolved.items():
                kept = hand < len(histories) and index <= len(histories[hand]) \
                    and histories[hand][index - 1] == (seat, text)
                kept_unanswered += kept
                dropped += not kept
            for (hand, index), (who, text) in log.seen.items():
                seen += 1
                if hand >= len(histories) or index > len(histories[hand]):
                    lost += 1
                elif histories[hand][index - 1] != (who, text):
                    misplaced += 1
        # Every action of the record was sent by the seat it names, at that place (nothing made up or doubled).
        for hand, history in enumerate(histories):
            for index, (seat, text) in enumerate(history, 1):
                if logs[seat].acked.get((hand, index)) not in (None, text):
                    misplaced += 1
    return {"actions_in_records": total, "acked_checked": acked, "broadcasts_checked": seen,
            "acks_recovered_from_state": recovered, "kept_unanswered_past_a_hand": kept_unanswered,
            "sends_lost_in_crash_and_replayed": dropped,
            "records_replayed": replayed, "lost": lost, "duplicated": duplicated, "misplaced": misplaced,
            "problems": problems[:20], "ok": not (lost or duplicated or misplaced or problems)
            and replayed == len(tables)}


# ---------------------------------------------------------------------------------------------- the command


def _print_report(report: dict[str, Any]) -> None:
    if report["mode"] == "bench":
        own, others = report["latency_own"], report["latency_others"]
        print(f"{report['db']}: {report['tables']} tables, {report['connections']} connections, pace "
              f"{report['pace_s']:g} s: {report['actions_per_s']} actions/s over {report['window_s']} s; "
              f"own p50/p95/p99 {own['p50_ms']}/{own['p95_ms']}/{own['p99_ms']} ms (max {own['max_ms']}), "
              f"others p50/p95/p99 {others['p50_ms']}/{others['p95_ms']}/{others['p99_ms']} ms; server CPU "
              f"{report['server_cpu_pct']}%, client CPU {report['client_cpu_pct']}%, client loop lag p99 "
              f"{report['client_loop_lag']['p99_ms']} ms; postgres CPU {report['postgres_cpu_pct']}%, redis CPU "
              f"{report['redis_cpu_pct']}%; machine CPU pressure {report['machine_cpu_pressure_pct']}%, "
              f"load {report['loadavg_at_end'][0]}", file=sys.stderr)
        for i, p in enumerate(report.get("per_process", [])):
            own = p["latency_own"]
            print(f"  process {i} (port {p['port']}): {p['actions_per_s']} actions/s acknowledged to its clients, "
                  f"own p50/p99 {own['p50_ms']}/{own['p99_ms']} ms, CPU {p['cpu_pct']}%, "
                  f"{p['tables_owned_at_end']} tables run at the end", file=sys.stderr)
    else:
        verdict = "OK" if report["ok"] else "FAILED"
        print(f"{report['db']}: {report['tables']} tables, kills {report['kills']}: {verdict}: "
              f"{report['acked_checked']} acks and {report['broadcasts_checked']} broadcasts checked against "
              f"{report['actions_in_records']} recorded actions; lost {report['lost']}, duplicated "
              f"{report['duplicated']}, misplaced {report['misplaced']}", file=sys.stderr)
    print(json.dumps(report, indent=2))


def main(argv: Sequence[str] | None = None, prog: str = "python -m brisca.server.loadtest") -> int:
    parser = argparse.ArgumentParser(prog=prog, description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100, help="tables in play at once (default 100)")
    parser.add_argument("--seconds", type=float, default=30.0,
                        help="the measured window (bench), or the deadline to finish every match (kill mode)")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--preset", default="spanish")
    parser.add_argument("--db", metavar="URL", help="a SQLite file or postgresql://... (default: a new SQLite file)")
    parser.add_argument("--pace", type=float, default=None,
                        help="mean seconds between two actions at a table (default 1; 0.05 with --kill-after; "
                             "0: as fast as the server answers)")
    parser.add_argument("--kill-after", type=float, metavar="SECONDS",
                        help="durability mode: kill -9 the server after this many seconds of play")
    parser.add_argument("--kills", type=int, default=1, help="how many times to kill it (kill mode)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--url", help="bench a server already running at this http://127.0.0.1:PORT instead")
    parser.add_argument("--server-pid", type=int, default=0, help="with --url: its process id, for its CPU time")
    parser.add_argument("--workdir", type=Path, help="where the SQLite file and the server's log go")
    parser.add_argument("--processes", type=int, default=1,
                        help="serve the site from this many processes (with --redis and --db postgresql://...)")
    parser.add_argument("--redis", metavar="URL", help="the processes' Redis (brisca serve --redis)")
    args = parser.parse_args(argv)
    if args.kill_after is not None:
        report = asyncio.run(durability(args.tables, db=args.db, players=args.players,
                                        pace=0.05 if args.pace is None else args.pace, kill_after=args.kill_after,
                                        kills=args.kills, deadline=args.seconds, preset=args.preset,
                                        seed=args.seed, workdir=args.workdir, processes=args.processes,
                                        redis=args.redis))
        _print_report(report)
        return 0 if report["ok"] else 1
    report = asyncio.run(bench(args.tables, args.seconds, db=args.db, players=args.players,
                               pace=1.0 if args.pace is None else args.pace, preset=args.preset, seed=args.seed,
                               workdir=args.workdir, external=args.url, server_pid=args.server_pid,
                               processes=args.processes, redis=args.redis))
    _print_report(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
