"""``brisca serve``: the web table under uvicorn."""

from __future__ import annotations

import argparse

from brisca.errors import BriscaError


def run_serve_cli(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from brisca.server import create_app
    except ImportError as exc:  # pragma: no cover - the server dependencies are in the main install
        raise BriscaError(f"the web table needs its dependencies: {exc}") from None
    if not 0 < args.port < 65536:
        raise BriscaError(f"--port must be from 1 to 65535, not {args.port}")
    print(f"brisca: serving on http://{args.host}:{args.port}/")
    uvicorn.run(create_app(args.db), host=args.host, port=args.port, log_level=args.log_level)
    return 0
