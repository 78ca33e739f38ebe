"""What ``brisca serve`` accepts at the socket, before a request reaches the application.

uvicorn, as it comes, keeps a TCP connection that never sends a request for ever, takes as many connections as
the process has file descriptors (then ``accept`` fails, and is logged, in a loop), and reads WebSocket frames
of up to 16 MiB before the application's 4,096-byte rule can refuse them. So the server runs uvicorn's h11
protocol with a :class:`Gate` in front:

- a connection from an address that already holds ``Limits.max_open_per_address`` open connections (an IPv6
  address counts as its /64), or past ``Limits.max_open_connections`` on the whole process, is closed as soon as
  it is accepted, before a byte is read; the addresses uvicorn trusts for ``X-Forwarded-For`` (a reverse
  proxy: ``FORWARDED_ALLOW_IPS``, 127.0.0.1 by default) count towards the process's cap only, since every
  client behind them shares them;
- a connection that has not sent a whole request head within ``Limits.head_timeout`` seconds of its first
  byte (or of being accepted) is closed, however slowly the head trickles in;
- a WebSocket frame (a message, reassembled and inflated) over ``Limits.max_frame`` bytes closes its
  connection with 1009, as the frame's header says its length, before its payload is read.

What is refused is logged once a minute at most, with its counts, never once a connection. :func:`raise_open_files`
raises the process's descriptor limit to its hard limit, and the process's cap stays under it.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import math
import socket
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

import h11
import uvicorn
from uvicorn.config import Config
from uvicorn.protocols.http.h11_impl import H11Protocol

from brisca.server.limits import Limits

log = logging.getLogger("brisca.server.transport")

#: File descriptors kept out of the process's connection cap: the database's pools, Redis, the log, the
#: static files being sent.
RESERVED_FILES = 256
#: Seconds between two log lines about refused connections.
LOG_EVERY = 60.0


def peer_address(transport: asyncio.BaseTransport) -> str:
    """The address of a connection's other end (``"unknown"`` for a Unix socket)."""
    peer = transport.get_extra_info("peername")
    if isinstance(peer, tuple | list) and peer and isinstance(peer[0], str):
        return peer[0]
    return "unknown"


class TrustedProxies:
    """The addresses uvicorn takes ``X-Forwarded-For`` from (its ``forwarded_allow_ips``: addresses, networks,
    ``*``). Entries that are no IP address (a Unix socket's name) are left out."""

    def __init__(self, spec: str | list[str]) -> None:
        entries = [e.strip() for e in (spec.split(",") if isinstance(spec, str) else spec) if e.strip()]
        self.everyone = "*" in entries
        self.networks: list[ipaddress.IPv4Network | ipaddress.IPv6Network] = []
        for entry in entries:
            try:
                self.networks.append(ipaddress.ip_network(entry, strict=False))
            except ValueError:
                continue

    def __contains__(self, address: str) -> bool:
        if self.everyone:
            return True
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(ip in net for net in self.networks)


def address_key(address: str) -> str:
    """What the cap per address counts ``address`` as: itself, or for IPv6 its /64, the prefix one subscriber
    gets (an attacker has the whole of it)."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is None:
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip.ipv4_mapped) if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped else address


class Gate:
    """The open connections per address and in all, and what was refused since the last log line.

    ``clock`` is a monotonic clock (a fake one in the unit tests).
    """

    def __init__(self, limits: Limits, trusted: TrustedProxies | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.per_address = limits.max_open_per_address
        self.total = limits.max_open_connections
        self.head_timeout = limits.head_timeout
        self.trusted = trusted or TrustedProxies([])
        self.clock = clock
        #: Open connections: each one's address, and how many each address holds.
        self.open: dict[int, str] = {}
        self.counts: Counter[str] = Counter()
        #: Since the last log line: refused over the address's cap (by address), over the process's, closed late.
        self.refused_address: Counter[str] = Counter()
        self.refused_total = 0
        self.too_slow = 0
        self._logged = -math.inf
        self._planned: asyncio.TimerHandle | None = None
        #: uvicorn's WebSocket protocol classes, each made to let this gate know when a connection closes.
        self.websocket_classes: dict[type[Any], type[Any]] = {}

    def admit(self, key: int, address: str) -> bool:
        """Whether a connection just accepted from ``address`` may stay open (it is counted if so)."""
        self.release(key)  # (a key of a connection whose end went unseen is counted once, not for ever)
        if len(self.open) >= self.total:
            self.refused_total += 1
            self._report()
            return False
        if address in self.trusted:
            address = f"{address} (trusted)"
        else:
            address = address_key(address)
            if self.counts[address] >= self.per_address:
                self.refused_address[address] += 1
                self._report()
                return False
        self.open[key] = address
        self.counts[address] += 1
        return True

    def release(self, key: int) -> None:
        """A connection closed (once for each one admitted; again changes nothing)."""
        address = self.open.pop(key, None)
        if address is None:
            return
        self.counts[address] -= 1
        if self.counts[address] <= 0:
            del self.counts[address]

    def late(self) -> None:
        """A connection closed for sending no whole request head in time."""
        self.too_slow += 1
        self._report()

    def _report(self) -> None:
        """The log line now if none was written this minute, else once the minute is over."""
        if self._planned is not None:
            return
        wait = self._logged + LOG_EVERY - self.clock()
        if wait <= 0:
            self.flush()
            return
        with contextlib.suppress(RuntimeError):  # no loop (a unit test): said at the next refusal after the minute
            self._planned = asyncio.get_running_loop().call_later(wait, self.flush)

    def flush(self) -> None:
        """One log line with what was refused since the last one (none when nothing was)."""
        self._planned = None
        addresses = len(self.refused_address)
        by_address = sum(self.refused_address.values())
        if not (by_address or self.refused_total or self.too_slow):
            return
        parts = []
        if by_address:
            parts.append(f"{by_address} from {addresses} address{'es' if addresses != 1 else ''} over the cap of "
                         f"{self.per_address} open connections an address")
        if self.refused_total:
            parts.append(f"{self.refused_total} over the process's cap of {self.total} open connections")
        if self.too_slow:
            parts.append(f"{self.too_slow} closed with no whole request head within {self.head_timeout:g} s")
        since = "" if self._logged == -math.inf else f" in the last {self.clock() - self._logged:.0f} s"
        log.warning("connections refused%s: %s", since, "; ".join(parts))
        self._logged = self.clock()
        self.refused_address.clear()
        self.refused_total = self.too_slow = 0


class _GatedWebSocket:
    """Mixed into uvicorn's WebSocket protocol: the connection it took over from HTTP is let go by the gate
    when it closes."""

    gate: Gate

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)  # type: ignore[misc]
        transport = getattr(self, "transport", None)
        if transport is not None:
            self.gate.release(id(transport))


def _gated_websocket(base: type[Any], gate: Gate) -> type[Any]:
    """uvicorn's WebSocket protocol class ``base`` for ``gate`` (made once)."""
    made = gate.websocket_classes.get(base)
    if made is None:
        made = gate.websocket_classes[base] = type(f"Gated{base.__name__}", (_GatedWebSocket, base), {"gate": gate})
    return made


class GatedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol behind a :class:`Gate`: refused at accept past a cap, closed without a whole
    request head in time. Made for one gate by :func:`gated_protocol`."""

    gate: Gate

    def __init__(self, config: Config, server_state: Any, app_state: dict[str, Any],
                 _loop: asyncio.AbstractEventLoop | None = None) -> None:
        super().__init__(config, server_state, app_state, _loop)
        if self.ws_protocol_class is not None:
            self.ws_protocol_class = _gated_websocket(self.ws_protocol_class, self.gate)
        self._admitted = False
        self._head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        if not self.gate.admit(id(transport), peer_address(transport)):
            transport.close()
            return
        self._admitted = True
        super().connection_made(transport)
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        if not self._admitted:
            return
        self._disarm()
        self.gate.release(id(self.transport))
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            self._arm()  # a head begun (or not even that, on a connection kept alive): its clock runs
        else:
            self._disarm()

    def _arm(self) -> None:
        if self._head_timer is None:
            self._head_timer = self.loop.call_later(self.gate.head_timeout, self._too_slow)

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _too_slow(self) -> None:
        self._head_timer = None
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            self.gate.late()
            self.transport.close()


def gated_protocol(gate: Gate) -> type[GatedH11Protocol]:
    """The HTTP protocol class for uvicorn's ``Config(http=...)``, behind ``gate``."""
    return type("GatedH11Protocol", (GatedH11Protocol,), {"gate": gate})


def raise_open_files() -> int | None:
    """Raise this process's soft limit on open files to its hard limit (each connection is one): the limit
    now, or ``None`` where the system has no such limit (Windows)."""
    try:
        import resource
    except ImportError:
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and soft != hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
        except (ValueError, OSError):
            pass
    return None if soft == resource.RLIM_INFINITY else soft


def connection_cap(limits: Limits, open_files: int | None) -> Limits:
    """``limits`` with the process's cap on connections under the descriptor limit (less what it keeps for
    its database, Redis and files), so that ``accept`` never runs out of descriptors."""
    if open_files is None or limits.max_open_connections <= open_files - RESERVED_FILES:
        return limits
    return limits.replace(max_open_connections=max(1, open_files - RESERVED_FILES))


def listen(host: str, port: int) -> socket.socket:
    """The server's listening socket, bound now (``OSError`` when the port is taken or the host not here), so
    that nothing says "serving" before it is sure to."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET  # as uvicorn binds: "localhost" is 127.0.0.1
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host.strip("[]"), port))
        sock.set_inheritable(True)
    except OSError:
        sock.close()
        raise
    return sock


class Server(uvicorn.Server):
    """uvicorn's server, which says it serves (``started``) once it listens and the application has started."""

    def __init__(self, config: Config, started: Callable[[], None]) -> None:
        super().__init__(config)
        self._said = started

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        if self.started and not self.should_exit:
            self._said()


def serve(app: Any, sock: socket.socket, limits: Limits, log_level: str = "info",
          started: Callable[[], None] = lambda: None) -> bool:
    """Serve ``app`` on the bound socket ``sock`` until a signal stops it, behind a :class:`Gate` for
    ``limits``, its WebSocket messages bounded by ``limits.max_frame``; ``started`` is called once it serves.
    Whether it started (the application's start-up may fail)."""
    config = Config(app, log_level=log_level, ws_max_size=limits.max_frame)
    config.http = gated_protocol(Gate(limits, TrustedProxies(config.forwarded_allow_ips)))
    server = Server(config, started)
    server.run(sockets=[sock])
    return server.started
