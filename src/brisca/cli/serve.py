"""``brisca serve``: the web table under uvicorn."""

from __future__ import annotations

import argparse

from brisca.errors import BriscaError

#: Seconds a seated person may be gone, mid-match, before a bot plays their seat.
DEFAULT_TAKEOVER_AFTER = 60.0


def add_serve_options(serve: argparse.ArgumentParser) -> None:
    """The options of ``brisca serve`` beyond host, port, database and log level."""
    serve.add_argument("--takeover-after", type=float, default=DEFAULT_TAKEOVER_AFTER, metavar="SECONDS",
                       help="a seated person gone this long mid-match has a bot play for them until they come back "
                            f"(default {DEFAULT_TAKEOVER_AFTER:g}; 0: at once; -1: never)")


def takeover_after(args: argparse.Namespace) -> float | None:
    """``--takeover-after`` checked: seconds, or ``None`` for never."""
    value = getattr(args, "takeover_after", DEFAULT_TAKEOVER_AFTER)
    if value is None or value == -1:
        return None
    if not 0 <= value <= 86400:
        raise BriscaError(f"--takeover-after is from 0 to 86400 seconds (or -1: never), not {value:g}")
    return float(value)


def run_serve_cli(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from brisca.server import create_app
    except ImportError as exc:  # pragma: no cover - the server dependencies are in the main install
        raise BriscaError(f"the web table needs its dependencies: {exc}") from None
    if not 0 < args.port < 65536:
        raise BriscaError(f"--port must be from 1 to 65535, not {args.port}")
    after = takeover_after(args)
    print(f"brisca: serving on http://{args.host}:{args.port}/")
    uvicorn.run(create_app(args.db, takeover_after=after), host=args.host, port=args.port,
                log_level=args.log_level)
    return 0
