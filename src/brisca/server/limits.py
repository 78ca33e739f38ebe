"""The web table's limits: rates per client address, caps per table owner, idle tables, and what one client
may make the server spend (bodies, password hashes, connections).

Every limit is a field of :class:`Limits`, with its default; ``create_app(limits=...)`` and ``brisca serve``'s
flags change them (docs/hosting-table.md, "Limits"; docs/security.md). The rates are token buckets, one per kind
of request and client address (:class:`Limiter`), kept in a bounded LRU so that many addresses cannot grow the
memory without end (an address pushed out starts again with a full bucket). Several processes serving one site
share their buckets in Redis (:class:`RedisLimiter`), so an address gets the same rates whichever process it
reaches.
"""

from __future__ import annotations

import dataclasses
import logging
import math
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Rate:
    """``per_minute`` requests a minute on average, ``burst`` at once."""

    per_minute: float
    burst: int

    def __post_init__(self) -> None:
        if not (self.per_minute > 0 and self.burst >= 1):
            raise ValueError(f"a rate is more than 0 a minute with a burst of 1 or more, not {self}")

    @classmethod
    def parse(cls, text: str, default_burst: int) -> Rate:
        """``"PER_MINUTE"`` or ``"PER_MINUTE/BURST"``."""
        per, _, burst = text.partition("/")
        return cls(float(per), int(burst) if burst else default_burst)

    def __str__(self) -> str:
        return f"{self.per_minute:g}/{self.burst}"


#: What each rate limits, in the messages of a refusal.
WHAT = {"create": "tables opened", "join": "seats taken", "chat": "chat messages", "login": "login attempts",
        "password": "password changes", "oversize": "oversized WebSocket messages", "account": "login attempts"}


@dataclass(frozen=True)
class Limits:
    """Every limit of the web table, with its default (``brisca serve``'s flags name them in ``--help``)."""

    #: Per client address: tables opened, seats taken (HTTP joins), chat messages (all of its connections
    #: together), login attempts (sign-ups and logins), password changes (each checks the current password).
    rate_create: Rate = field(default_factory=lambda: Rate(10, 5))
    rate_join: Rate = field(default_factory=lambda: Rate(30, 10))
    rate_chat: Rate = field(default_factory=lambda: Rate(30, 10))
    rate_login: Rate = field(default_factory=lambda: Rate(10, 5))
    rate_password: Rate = field(default_factory=lambda: Rate(10, 5))
    #: Per client address: WebSocket connections closed (1009) for a message over ``max_frame``; past the rate,
    #: the address's new WebSocket connections are refused (4429) until a token is back.
    rate_oversize: Rate = field(default_factory=lambda: Rate(6, 3))
    #: Per account, from every address together: login attempts to it (an attacker's many addresses guess one
    #: account's password no faster than this). A browser that logged in to the account before (its device
    #: cookie, :mod:`brisca.server.devices`) is not counted, so the owner is not locked out by the guesses.
    rate_account: Rate = field(default_factory=lambda: Rate(2, 10))
    #: Accounts whose login bucket is remembered (the least recently tried are forgotten first).
    max_accounts: int = 10_000
    #: Argon2 hashes computed at once by this process (each takes 64 MiB and a core for a moment); a login,
    #: sign-up or password change waits for a turn at most ``hash_wait`` seconds, then gets 503.
    max_hashing: int = 2
    hash_wait: float = 10.0
    #: Bytes an HTTP request's body may have (413 beyond, refused before more is read).
    max_body: int = 65_536
    #: WebSocket connections open at once from one client address (the next one is closed, code 4429).
    max_connections: int = 16
    #: Seconds a WebSocket connection may stay open before its hello (then it is closed, code 4408).
    hello_timeout: float = 10.0
    #: Bytes of a WebSocket message (a frame, or frames reassembled and inflated) the transport reads: one over
    #: it closes the connection (1009) before its payload is read. Above the protocol's 4,096 bytes, so that a
    #: message a little too long is answered ``too_large`` and the connection goes on.
    max_frame: int = 8192
    #: TCP connections (HTTP or WebSocket) open at once from one address, and in all on this process: the next
    #: one is closed as soon as it is accepted (:mod:`brisca.server.transport`; a trusted proxy's address
    #: counts towards the process's cap only).
    max_open_per_address: int = 128
    max_open_connections: int = 10_000
    #: Seconds a TCP connection may take to send a whole request head, from its first byte (or from being
    #: accepted): then it is closed.
    head_timeout: float = 10.0
    #: An account's rating of a preset is provisional until it has played ``provisional_games`` rated matches
    #: of it against ``provisional_opponents`` distinct opponents (accounts, or bots: each level one): meanwhile
    #: its matches move its own rating only, never an established account's (an account made to lose does not
    #: feed another), and it is left off the leaderboard (an account fed by puppets does not top it).
    provisional_games: int = 10
    provisional_opponents: int = 3
    #: Open (waiting or playing) tables one owner may have: a guest (``guest:<address>``), an account (``user:<id>``).
    max_open_tables: int = 3
    max_open_tables_account: int = 5
    #: Open tables with every seat a bot (to watch): per owner, and on the whole server.
    max_bot_tables: int = 1
    max_bot_tables_total: int = 20
    #: Seconds between two bot moves, at least, at a table with no person's seat.
    min_bot_delay: float = 0.5
    #: The move clock a table's creator may pick (:mod:`brisca.server.clock`): a move's base from
    #: ``min_clock_move`` to ``max_clock_move`` seconds, a person's reserve at most ``max_clock_reserve`` seconds.
    min_clock_move: float = 5.0
    max_clock_move: float = 600.0
    max_clock_reserve: float = 3600.0
    #: Slow tables (a move's time of an hour or more, :data:`~brisca.server.clock.SLOW_MOVE`): a move's time and
    #: a reserve at most, and the open slow tables one account may have (they sleep between moves: they do not
    #: count in ``max_open_tables_account``).
    max_slow_move: float = 604800.0
    max_slow_reserve: float = 1209600.0
    max_slow_tables: int = 20
    #: Tournaments (:mod:`brisca.server.tournaments`): those not finished (open or playing) on the whole server and
    #: of one account, the entrants one may take, its rounds.
    max_tournaments: int = 20
    max_tournaments_account: int = 2
    max_entrants: int = 64
    max_tournament_rounds: int = 15
    #: Seconds an account's tournament may stay open (waiting for its start): then it is called off, so that
    #: tournaments nobody starts do not hold the caps above for ever.
    tournament_open_for: float = 86400.0
    #: The match length a table may ask for (its options ``target_hands``, ``target_points``, and
    #: ``target_game_points`` and ``hands`` under the hands' cap).
    max_target_hands: int = 10
    max_target_points: int = 1000
    #: Hands one match may deal, whatever its options (ties replayed, low card points...): then it is closed.
    max_hands: int = 60
    #: Seconds a waiting or playing table may go with nobody connected and no change made by a person (a
    #: bot-only table: with nobody watching) before it is closed.
    idle_after: float = 1800.0
    #: Seconds between two looks for idle tables.
    idle_check_every: float = 5.0
    #: Client addresses whose buckets are remembered (the least recently seen are forgotten first).
    max_addresses: int = 10_000
    #: A full pass of the garbage collector once this many connections have closed since the last one, or
    #: this many seconds have passed (:mod:`brisca.server.collector`): what connections leave in reference
    #: cycles is freed within that many connections or seconds.
    full_collection_after: int = 1000
    full_collection_every: float = 60.0

    def __post_init__(self) -> None:
        for name in ("max_open_tables", "max_open_tables_account", "max_bot_tables", "max_bot_tables_total",
                     "max_target_hands", "max_target_points", "max_hands", "max_addresses", "provisional_games",
                     "provisional_opponents"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} is 0 or more, not {getattr(self, name)}")
        if not 1 <= self.min_clock_move <= self.max_clock_move <= 86400 or not 0 <= self.max_clock_reserve <= 86400:
            raise ValueError("the clock's limits: 1 <= min_clock_move <= max_clock_move <= 86400 seconds, and "
                             "max_clock_reserve from 0 to 86400 seconds")
        if not 3600 <= self.max_slow_move <= 30 * 86400 or not 0 <= self.max_slow_reserve <= 60 * 86400:
            raise ValueError("max_slow_move is from 3600 seconds to 30 days, max_slow_reserve from 0 to 60 days")
        if self.max_tournaments < 0 or self.max_tournaments_account < 0:
            raise ValueError("max_tournaments and max_tournaments_account are 0 or more")
        if not 2 <= self.max_entrants <= 1000 or not 1 <= self.max_tournament_rounds <= 100:
            raise ValueError(f"max_entrants is from 2 to 1000 (not {self.max_entrants}), max_tournament_rounds from "
                             f"1 to 100 (not {self.max_tournament_rounds})")
        if not 60 <= self.tournament_open_for <= 30 * 86400:
            raise ValueError(f"tournament_open_for is from 60 seconds to 30 days, not {self.tournament_open_for:g}")
        if self.max_slow_tables < 0:
            raise ValueError(f"max_slow_tables is 0 or more, not {self.max_slow_tables}")
        if not 0 <= self.min_bot_delay <= 10:
            raise ValueError(f"min_bot_delay is from 0 to 10 seconds, not {self.min_bot_delay:g}")
        if not self.idle_after > 0 or not self.idle_check_every > 0:
            raise ValueError("idle_after and idle_check_every are more than 0 seconds")
        for name in ("max_hashing", "max_body", "max_connections", "full_collection_after", "max_open_per_address",
                     "max_open_connections", "max_accounts"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} is 1 or more, not {getattr(self, name)}")
        if not self.full_collection_every > 0:
            raise ValueError(f"full_collection_every is more than 0 seconds, not {self.full_collection_every:g}")
        if not 0 < self.hash_wait <= 600 or not 0 < self.hello_timeout <= 600 or not 0 < self.head_timeout <= 600:
            raise ValueError("hash_wait, hello_timeout and head_timeout are more than 0 and at most 600 seconds")
        if not 4096 <= self.max_frame <= 16 * 2**20:
            raise ValueError(f"max_frame is from 4096 (the largest message) to 16777216 bytes, not {self.max_frame}")

    @property
    def idle_text(self) -> str:
        """``idle_after`` for people: ``30 min``, ``45 s``."""
        after = self.idle_after
        return f"{after / 60:g} min" if after >= 60 else f"{after:g} s"

    def replace(self, **changes: Any) -> Limits:
        return dataclasses.replace(self, **changes)

    def open_tables_for(self, owner: str) -> int:
        """The cap on open tables of ``owner``: accounts (``user:...``) have their own."""
        return self.max_open_tables_account if owner.startswith("user:") else self.max_open_tables

    def rate(self, kind: str) -> Rate:
        rate: Rate = getattr(self, f"rate_{kind}")
        return rate


class RateLimited(Exception):
    """Too many requests of one kind from one address. The app answers it with HTTP 429, ``Retry-After``
    (:attr:`seconds`) and ``{"detail": message}``."""

    def __init__(self, kind: str, retry_after: float) -> None:
        self.kind, self.retry_after = kind, retry_after
        #: Whole seconds to wait.
        self.seconds = max(1, math.ceil(retry_after))
        self.message = self.say()
        super().__init__(self.message)

    def say(self) -> str:
        return f"too many {WHAT.get(self.kind, self.kind)} from your address; try again in {self.seconds} s"


class AccountThrottled(RateLimited):
    """Too many login attempts to one account, from all addresses together (:attr:`Limits.rate_account`)."""

    def __init__(self, retry_after: float) -> None:
        super().__init__("account", retry_after)

    def say(self) -> str:
        return (f"too many login attempts for this account; try again in {self.seconds} s, or from a browser that "
                "logged in to it before")


class Limiter:
    """Token buckets per ``(kind, address)``: ``kind`` is one of :data:`WHAT` (its rate from :class:`Limits`).

    ``check`` takes a token or raises :class:`RateLimited`; ``retry_after`` takes one or says how long to wait.
    Thread-safe (synchronous endpoints run in a thread pool).
    """

    def __init__(self, limits: Limits, clock: Callable[[], float] = time.monotonic, *,
                 capacity: int | None = None) -> None:
        self.limits = limits
        self.clock = clock
        #: Buckets remembered (``limits.max_addresses`` unless given).
        self.capacity = limits.max_addresses if capacity is None else capacity
        #: ``(kind, address)`` -> its bucket, least recently used first.
        self.buckets: OrderedDict[tuple[str, str], TokenBucket] = OrderedDict()
        self._lock = threading.Lock()

    def retry_after(self, kind: str, address: str) -> float | None:
        """Take a token: ``None``; or, when there is none, the seconds until there is one."""
        key = (kind, address)
        with self._lock:
            now = self.clock()
            bucket = self.buckets.get(key)
            if bucket is None:
                rate = self.limits.rate(kind)
                bucket = self.buckets[key] = TokenBucket(rate.per_minute / 60, rate.burst, now)
                while len(self.buckets) > self.capacity:
                    self.buckets.popitem(last=False)
            else:
                self.buckets.move_to_end(key)
            return bucket.take(now)

    def check(self, kind: str, address: str) -> None:
        """Take a token, or raise :class:`RateLimited` (the app answers it with HTTP 429 and ``Retry-After``)."""
        wait = self.retry_after(kind, address)
        if wait is not None:
            raise RateLimited(kind, wait)


class TokenBucket:
    """``rate`` tokens a second, ``burst`` at most: one connection's own limit, and each bucket of a
    :class:`Limiter`."""

    def __init__(self, rate: float, burst: int, now: float | None = None) -> None:
        self.rate, self.burst = rate, float(burst)
        self.tokens, self.stamp = float(burst), time.monotonic() if now is None else now

    def take(self, now: float) -> float | None:
        """Take a token: ``None``; or, when there is none, the seconds until there is one."""
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return None
        return (1 - self.tokens) / self.rate

    def allow(self) -> bool:
        return self.take(time.monotonic()) is None


#: Takes a token from the bucket at KEYS[1] (a hash: tokens, stamp), ARGV: rate a second, burst, TTL in
#: seconds. Returns -1 when a token was taken, else the microseconds until there is one. The clock is the Redis
#: server's (``TIME``), so the processes' clocks do not matter.
_TAKE = """
local now = redis.call('TIME')
local t = tonumber(now[1]) + tonumber(now[2]) / 1e6
local rate, burst = tonumber(ARGV[1]), tonumber(ARGV[2])
local held = redis.call('HMGET', KEYS[1], 'tokens', 'stamp')
local tokens, stamp = tonumber(held[1]), tonumber(held[2])
if tokens == nil then tokens, stamp = burst, t end
tokens = math.min(burst, tokens + math.max(0, t - stamp) * rate)
local wait = -1
if tokens >= 1 then tokens = tokens - 1 else wait = math.ceil((1 - tokens) / rate * 1e6) end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'stamp', tostring(t))
redis.call('EXPIRE', KEYS[1], ARGV[3])
return wait
"""

log = logging.getLogger("brisca.server.limits")


class RedisLimiter(Limiter):
    """The token buckets of :class:`Limiter`, kept in Redis: one bucket per ``(kind, address)`` for every
    process serving the site (``brisca serve --redis``), taken atomically by a script on the Redis server.

    A bucket full again is forgotten (its key expires). While Redis cannot be reached each process falls back
    to its own buckets (:class:`Limiter`'s), so the limits still hold, per process, and no request fails
    because of them; the calls wait at most ``timeout`` seconds for Redis.
    """

    def __init__(self, limits: Limits, url: str, *, prefix: str = "brisca:rate", timeout: float = 0.25,
                 clock: Callable[[], float] = time.monotonic, capacity: int | None = None) -> None:
        super().__init__(limits, clock, capacity=capacity)
        import redis  # the cluster extra

        self.prefix = prefix
        self.redis = redis.Redis.from_url(url, socket_timeout=timeout, socket_connect_timeout=timeout)
        self._take = self.redis.register_script(_TAKE)
        self._errors: tuple[type[Exception], ...] = (redis.RedisError, OSError)
        #: Whether the last call reached Redis (a change is logged once, not at every request).
        self.shared = True

    def retry_after(self, kind: str, address: str) -> float | None:
        rate = self.limits.rate(kind)
        per_second = rate.per_minute / 60
        ttl = max(1, math.ceil(rate.burst / per_second))
        try:
            wait = int(self._take(keys=[f"{self.prefix}:{kind}:{address}"], args=[per_second, rate.burst, ttl]))
        except self._errors as exc:
            if self.shared:
                log.warning("Redis cannot be reached (%s): this process limits rates on its own", exc)
                self.shared = False
            return super().retry_after(kind, address)
        if not self.shared:
            log.warning("Redis is back: the rates are the site's again")
            self.shared = True
        return None if wait < 0 else wait / 1e6


def client_address(client: Any) -> str:
    """The address of a request's or WebSocket's ``client`` (``None`` when the server does not know it)."""
    host = getattr(client, "host", None)
    return host if isinstance(host, str) and host else "unknown"
