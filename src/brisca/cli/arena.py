"""``brisca arena``: the arena from the command line, with a progress bar."""

from __future__ import annotations

import argparse
import json
import os
import sys

from brisca.arena import format_table, run_arena
from brisca.errors import BriscaError
from brisca.rules import make_rules


def run_arena_cli(args: argparse.Namespace, options: dict[str, object]) -> int:
    if len(args.agents) + (args.versus is not None) < 2:
        raise BriscaError("the arena needs at least two agents")
    if args.games < 1:
        raise BriscaError("--games must be at least 1")
    jobs = args.jobs if args.jobs > 0 else (os.cpu_count() or 1)
    from rich.progress import Progress

    with Progress(transient=True, disable=args.json or not sys.stderr.isatty()) as bar:
        task = bar.add_task("arena", total=None)

        def tick(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        players = args.players
        if players is None:  # two where the preset allows it, else the one count it is played by
            counts = make_rules(args.variant, options).player_counts
            players = 2 if 2 in counts else counts[0]
        result = run_arena(args.agents, args.variant, players, args.games, args.think, jobs, args.seed,
                           options, tick, args.versus, args.ray)
    print(json.dumps(result.to_json(), indent=1) if args.json else format_table(result))
    return 0
