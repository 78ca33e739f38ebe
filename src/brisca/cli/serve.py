"""``brisca serve``: the web table under uvicorn."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from brisca.errors import BriscaError

if TYPE_CHECKING:
    from brisca.server.limits import Limits

#: Seconds a seated person may be gone, mid-match, before a bot plays their seat.
DEFAULT_TAKEOVER_AFTER = 60.0
#: Seconds between the end of a hand and the next deal.
DEFAULT_HAND_PAUSE = 8.0


def add_serve_options(serve: argparse.ArgumentParser) -> None:
    """The options of ``brisca serve`` beyond host, port, database and log level."""
    serve.add_argument("--takeover-after", type=float, default=DEFAULT_TAKEOVER_AFTER, metavar="SECONDS",
                       help="a seated person gone this long mid-match has a bot play for them until they come back "
                            f"(default {DEFAULT_TAKEOVER_AFTER:g}; 0: at once; -1: never)")
    serve.add_argument("--hand-pause", type=float, default=DEFAULT_HAND_PAUSE, metavar="SECONDS",
                       help="seconds between the end of a hand and the next deal, while the hand's result shows "
                            f"with a countdown (default {DEFAULT_HAND_PAUSE:g}; 0: deal at once)")
    serve.add_argument("--tournament", action="append", metavar="JSON", default=None,
                       help="a tournament this server offers, as a JSON object (docs/hosting-table.md, Tournaments): "
                            'e.g. \'{"name": "Daily", "rounds": 3, "max_entrants": 8}\'; it starts when full, and is '
                            "made again once it is over; may be given more than once")
    add_limit_options(serve)


def host_tournaments(args: argparse.Namespace, chosen: Limits) -> list[Any]:
    """The ``--tournament`` objects checked (one line saying what is wrong otherwise): each starts when full."""
    import json

    from fastapi import HTTPException
    from pydantic import ValidationError

    from brisca.server.tournament_api import CreateTournament, settings_of

    out = []
    for text in getattr(args, "tournament", None) or []:
        try:
            data = json.loads(text)
        except ValueError:
            data = None
        if not isinstance(data, dict):
            raise BriscaError(f"--tournament is a JSON object, not {text[:60]!r}")
        data.setdefault("start", "full")
        if data["start"] != "full":
            raise BriscaError("--tournament: a tournament the host offers starts when full ('start': 'full')")
        try:
            spec = CreateTournament.model_validate(data)
            settings_of(spec, "host", chosen)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first.get("loc", ())) or "tournament"
            raise BriscaError(f"--tournament: {where}: {first.get('msg', 'invalid')}") from None
        except HTTPException as exc:
            raise BriscaError(f"--tournament: {exc.detail}") from None
        out.append(spec)
    return out


#: ``brisca serve``'s flags for the limits: flag -> (field of Limits, metavar, what it limits).
LIMIT_FLAGS: dict[str, tuple[str, str, str]] = {
    "--rate-create": ("rate_create", "PER_MINUTE[/BURST]", "tables opened per client address"),
    "--rate-join": ("rate_join", "PER_MINUTE[/BURST]", "seats taken per client address"),
    "--rate-chat": ("rate_chat", "PER_MINUTE[/BURST]", "chat messages per client address, all its connections"),
    "--rate-login": ("rate_login", "PER_MINUTE[/BURST]", "login attempts per client address"),
    "--rate-password": ("rate_password", "PER_MINUTE[/BURST]", "password changes per client address"),
    "--rate-oversize": ("rate_oversize", "PER_MINUTE[/BURST]", "WebSocket connections closed for a message over "
                        "--max-frame, per client address; past it, the address's new WebSocket connections are "
                        "refused"),
    "--rate-account": ("rate_account", "PER_MINUTE[/BURST]", "login attempts per account, from every address "
                       "together (a browser that logged in to it before is not counted)"),
    "--max-hashing": ("max_hashing", "N", "Argon2 password hashes computed at once (64 MiB each)"),
    "--hash-wait": ("hash_wait", "SECONDS", "a login waits this long for a turn to hash, then gets 503"),
    "--max-body": ("max_body", "BYTES", "bytes of an HTTP request's body (413 beyond)"),
    "--max-connections": ("max_connections", "N", "WebSocket connections open at once per client address"),
    "--hello-timeout": ("hello_timeout", "SECONDS", "a WebSocket connection that has not said hello this long "
                        "is closed"),
    "--max-frame": ("max_frame", "BYTES", "bytes of a WebSocket message the server reads: a larger one closes its "
                    "connection (1009)"),
    "--max-open-per-address": ("max_open_per_address", "N", "TCP connections open at once from one address (a "
                               "proxy trusted for X-Forwarded-For: not counted); more are closed at accept"),
    "--max-open-connections": ("max_open_connections", "N", "TCP connections open at once on this process (at most"
                               " the open files limit less 256); more are closed at accept"),
    "--head-timeout": ("head_timeout", "SECONDS", "a TCP connection that has not sent a whole request head this "
                       "long is closed"),
    "--provisional-games": ("provisional_games", "N", "rated matches of a preset an account's rating is "
                            "provisional for (off the leaderboard, moving no established account's)"),
    "--provisional-opponents": ("provisional_opponents", "N", "distinct opponents an account meets in rated "
                                "matches of a preset before its rating is established"),
    "--max-open-tables": ("max_open_tables", "N", "open (waiting or playing) tables of one guest"),
    "--max-open-tables-account": ("max_open_tables_account", "N", "open tables of one account"),
    "--max-bot-tables": ("max_bot_tables", "N", "open tables of bots only, per owner"),
    "--max-bot-tables-total": ("max_bot_tables_total", "N", "open tables of bots only, on the whole server"),
    "--min-bot-delay": ("min_bot_delay", "SECONDS", "seconds between bot moves, at least, at a table of bots only"),
    "--min-clock-move": ("min_clock_move", "SECONDS", "a table's move clock gives each move this long at least"),
    "--max-clock-move": ("max_clock_move", "SECONDS", "a table's move clock gives each move this long at most"),
    "--max-clock-reserve": ("max_clock_reserve", "SECONDS", "a table's move clock gives each person this reserve "
                            "at most"),
    "--max-slow-move": ("max_slow_move", "SECONDS", "a slow table (a move's time of an hour or more) gives each move "
                        "this long at most"),
    "--max-slow-reserve": ("max_slow_reserve", "SECONDS", "a slow table gives each person this reserve at most"),
    "--max-slow-tables": ("max_slow_tables", "N", "open slow tables of one account"),
    "--max-tournaments": ("max_tournaments", "N", "tournaments not finished (open or playing) on the whole server"),
    "--max-tournaments-account": ("max_tournaments_account", "N", "tournaments not finished that one account made"),
    "--max-entrants": ("max_entrants", "N", "entrants one tournament may take"),
    "--max-tournament-rounds": ("max_tournament_rounds", "N", "rounds of one tournament"),
    "--tournament-open-for": ("tournament_open_for", "SECONDS", "an account's tournament not started this long "
                              "after it was made is called off"),
    "--max-target-hands": ("max_target_hands", "N", "the options target_hands, target_game_points and hands, at most"),
    "--max-target-points": ("max_target_points", "N", "the option target_points, at most"),
    "--max-hands": ("max_hands", "N", "hands one match may deal before its table is closed"),
    "--full-collection-after": ("full_collection_after", "N", "a full pass of the garbage collector once this "
                                "many connections have closed"),
    "--full-collection-every": ("full_collection_every", "SECONDS", "a full pass of the garbage collector this "
                                "often at least"),
    "--idle-after": ("idle_after", "SECONDS", "an open table with nobody at it and no change by a person this "
                     "long is closed (bots only: nobody watching)"),
}


def add_limit_options(serve: argparse.ArgumentParser) -> None:
    """The limits of ``brisca serve`` (docs/hosting-table.md, "Limits"), each with its default."""
    from brisca.server.limits import Limits

    defaults = Limits()
    group = serve.add_argument_group(
        "limits", "against abuse (docs/hosting-table.md, Limits); a client address is the one uvicorn sees (behind a"
                  " proxy on 127.0.0.1: its X-Forwarded-For)")
    for flag, (name, metavar, what) in LIMIT_FLAGS.items():
        default = getattr(defaults, name)
        shown = f"{default:g}" if isinstance(default, float) else str(default)
        group.add_argument(flag, dest=f"limit_{name}", metavar=metavar, default=None,
                           help=f"{what} (default {shown})")


def limits(args: argparse.Namespace) -> Limits:
    """The :class:`~brisca.server.limits.Limits` of the flags given (the others keep their defaults)."""
    from brisca.server.limits import Limits, Rate

    defaults = Limits()
    changes: dict[str, Any] = {}
    for flag, (name, _, _) in LIMIT_FLAGS.items():
        text = getattr(args, f"limit_{name}", None)
        if text is None:
            continue
        default = getattr(defaults, name)
        try:
            if isinstance(default, Rate):
                changes[name] = Rate.parse(text, default.burst)
            else:
                changes[name] = type(default)(text)
        except ValueError as exc:
            if not isinstance(default, Rate):
                kind = "a whole number" if isinstance(default, int) else "a number"
                raise BriscaError(f"{flag} is {kind}, not {text!r}") from None
            raise BriscaError(f"{flag}: {exc}") from None
    try:
        return defaults.replace(**changes)
    except ValueError as exc:
        raise BriscaError(str(exc)) from None


def takeover_after(args: argparse.Namespace) -> float | None:
    """``--takeover-after`` checked: seconds, or ``None`` for never."""
    value = getattr(args, "takeover_after", DEFAULT_TAKEOVER_AFTER)
    if value is None or value == -1:
        return None
    if not 0 <= value <= 86400:
        raise BriscaError(f"--takeover-after is from 0 to 86400 seconds (or -1: never), not {value:g}")
    return float(value)


def run_serve_cli(args: argparse.Namespace) -> int:
    """Everything that can be found wrong is one line and status 2 before anything says it serves: the
    options, ``--redis`` (Redis that does not answer is no error: the process joins when it does), the database,
    the port. "serving on" is printed once the process listens and its tables are loaded."""
    from brisca.server import missing_web_extra

    missing = missing_web_extra()
    if missing:
        raise BriscaError(f"the web table needs the 'web' extra ({', '.join(missing)} missing):"
                          " pip install 'brisca[web]'")
    from brisca.server import create_app
    from brisca.server.transport import connection_cap, listen, raise_open_files, serve

    if not 0 < args.port < 65536:
        raise BriscaError(f"--port must be from 1 to 65535, not {args.port}")
    after = takeover_after(args)
    chosen = limits(args)
    offered = host_tournaments(args, chosen)
    redis_url = getattr(args, "redis", None)
    redis_down: str | None = None
    if redis_url is not None:
        from brisca.server.cluster import check_database, check_redis, missing_cluster_extra, shown_redis

        try:
            check_database(args.db)
        except ValueError as exc:
            raise BriscaError(str(exc)) from None
        if missing_cluster_extra():
            raise BriscaError("--redis needs the 'cluster' extra (redis missing): pip install 'brisca[cluster]'")
        try:
            redis_down = check_redis(redis_url)
        except ValueError as exc:
            raise BriscaError(str(exc)) from None
    pause = float(getattr(args, "hand_pause", DEFAULT_HAND_PAUSE))
    if not 0 <= pause <= 600:
        raise BriscaError(f"--hand-pause is from 0 to 600 seconds, not {pause:g}")
    from brisca.server.db import check_reachable

    try:  # a wrong URL, or a server that never answers, is one line (within the connect timeout), not a traceback
        check_reachable(args.db)
    except ValueError as exc:
        raise BriscaError(str(exc)) from None
    open_files = raise_open_files()
    chosen = connection_cap(chosen, open_files)
    try:
        sock = listen(args.host, args.port)
    except OSError as exc:
        raise BriscaError(f"cannot listen on {args.host}:{args.port}: {exc.strerror or exc}") from None
    if redis_url is not None and redis_down is not None:
        print(f"brisca: Redis at {shown_redis(redis_url)} does not answer ({redis_down}): this process serves its "
              "own tables, and joins the other processes when Redis answers", file=sys.stderr, flush=True)
    files = "no limit" if open_files is None else f"{open_files}"
    said = (f"brisca: serving on http://{args.host}:{args.port}/ (open files: {files}; connections: at most "
            f"{chosen.max_open_connections}, {chosen.max_open_per_address} an address)")
    app = create_app(args.db, takeover_after=after, limits=chosen, redis_url=redis_url, hand_pause=pause,
                     tournaments=offered)
    started = serve(app, sock, chosen, args.log_level, lambda: print(said, flush=True))
    return 0 if started else 3
