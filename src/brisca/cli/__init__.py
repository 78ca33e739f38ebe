"""The ``brisca`` command: play in the terminal, replay records, benchmark the engine.

User errors (a bad record, an unknown variant or option, a file that is not
there) print one line on standard error and exit with status 2, never a traceback.
Output cut short by its reader (``brisca rules spanish | head -1``) ends the
command quietly, with the status a shell gives a process ended by SIGPIPE (141).
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
from collections.abc import Sequence

from brisca import __version__
from brisca.cli.serve import add_serve_options
from brisca.errors import BriscaError
from brisca.rules import parse_option_text


def _rule_options(texts: Sequence[str] | None) -> dict[str, object]:
    """``--rule name=value`` options as a dict (validated later, against the variant)."""
    return dict(parse_option_text(t) for t in texts or ())


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="brisca",
        description="Brisca, the Spanish trick-taking card game, and its family.",
    )
    parser.add_argument("--version", action="version", version=f"brisca {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    play = sub.add_parser("play", help="play a match in the terminal against computer players")
    play.add_argument("--variant", default="spanish", help="preset to play (default: spanish)")
    play.add_argument("--players", "-p", type=int, default=None,
                      help="number of players (default 2, or the preset's only count: 4 chilean, 3 rematada,"
                           " 5 chiamata)")
    play.add_argument("--rule", "-r", action="append", metavar="NAME=VALUE", help="override a rule option")
    play.add_argument("--ai", default="normal",
                      help="computer players: easy, normal (the default), hard, expert (or random, greedy, heuristic,"
                           " module:Class)")
    play.add_argument("--think", type=float, help="seconds a move for searching computer players (expert)")
    play.add_argument("--lang", choices=("es", "en", "it"), help="language (default: from the locale)")
    play.add_argument("--seed", type=int, help="seed for a reproducible deal")
    play.add_argument("--save", metavar="FILE", help="save the match record to FILE")
    play.add_argument("--name", help="your name at the table")
    play.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    play.add_argument("--no-color", action="store_true", help="plain text, no colours")
    play.add_argument("--no-cut", action="store_true", help="no draw for the dealer and no cut (the last seat deals)")

    replay = sub.add_parser("replay", help="check and replay a brisca-record/1 file, print the result as JSON")
    replay.add_argument("file", nargs="+", help="record file, or - for standard input (several with --analyse)")
    replay.add_argument("--indent", type=int, default=None, help="indent the JSON output")
    replay.add_argument("--analyse", "--analyze", action="store_true",
                        help="value every decision from its seat's view, mark mistakes (docs/analysis.md)")
    replay.add_argument("--seed", type=int, default=0, help="with --analyse: the search's seed (default 0)")
    replay.add_argument("--think", type=float, default=None,
                        help="with --analyse: seconds a decision at most (default 1)")
    replay.add_argument("--worlds", type=int, default=None,
                        help="with --analyse: worlds searched a decision (default 200)")
    replay.add_argument("--jobs", "-j", type=int, default=1,
                        help="with --analyse: processes (default 1; 0: every core)")
    replay.add_argument("--ray", nargs="?", const="local", metavar="ADDRESS",
                        help="with --analyse: search on a Ray cluster, as brisca arena --ray does")
    replay.add_argument("--json", action="store_true", help="with --analyse: the analysis as JSON")
    replay.add_argument("--lang", choices=("es", "en", "it"),
                        help="with --analyse: the table's language (default: from the locale, LANGUAGE first)")

    verify = sub.add_parser("verify", help="check that every deal of a web table's record is the deck it committed to")
    verify.add_argument("file", help="record file, or - for standard input")
    verify.add_argument("--published", action="append", metavar="HASHES",
                        help="the commitments shown at the table, in hand order (spaces or commas between them)")

    bench = sub.add_parser("bench", help="engine throughput, with ratios against naipes when installed")
    bench.add_argument("--seconds", type=float, default=1.0, help="time per measurement (default 1)")
    bench.add_argument("--players", type=int, action="append", help="player counts (default 2 3 4 6)")
    bench.add_argument("--json", action="store_true", help="print the results as JSON")
    bench.add_argument("--seed", type=int, default=1)
    bench.add_argument("--selfplay", action="store_true",
                       help="the trainer's self-play instead: hands in lockstep against one at a time (numpy, numba)")
    bench.add_argument("--lanes", type=int, default=1024, help="with --selfplay: hands in lockstep (default 1024)")
    bench.add_argument("--presets", default="spanish,briscola",
                       help="with --selfplay: the presets, comma-separated (default spanish,briscola; with"
                            " --players, at that one player count)")

    arena = sub.add_parser("arena", help="agents play duplicate deals; results with 95%% intervals")
    arena.add_argument("agents", nargs="+", help="two or more agents (one or more with --versus): random, greedy, "
                       "heuristic, expert, module:Class")
    arena.add_argument("--variant", default="spanish")
    arena.add_argument("--players", "-p", type=int, default=None,
                       help="number of players (default 2, or the preset's only count)")
    arena.add_argument("--rule", "-r", action="append", metavar="NAME=VALUE", help="override a rule option")
    arena.add_argument("--games", "-g", type=int, default=100, help="duplicate deals per pair (default 100)")
    arena.add_argument("--think", type=float, help="seconds a move for searching agents")
    arena.add_argument("--jobs", "-j", type=int, default=1, help="processes (default 1; 0: every core)")
    arena.add_argument("--seed", type=int, default=0)
    arena.add_argument("--versus", metavar="AGENT",
                       help="a gauntlet: each agent plays only this one (measure a change: new old --versus random)")
    arena.add_argument("--json", action="store_true", help="print the results as JSON")
    arena.add_argument("--ray", nargs="?", const="local", metavar="ADDRESS",
                       help="play the deals on a Ray cluster (pip install 'brisca[ray]'): with no ADDRESS a local"
                            " one started here, else the address of a running cluster (auto, ray://host:10001)")

    sub.add_parser("train", help="self-play training of the net player (brisca train --help)",
                   add_help=False)
    sub.add_parser("loadtest", help="load and kill -9 durability test of the web table (brisca loadtest --help)",
                   add_help=False)

    serve = sub.add_parser("serve", help="the web table: play in the browser, against people and bots")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    serve.add_argument("--db", metavar="URL", help="database: a SQLite file or URL, or postgresql://... "
                       "(default: SQLite in the user's data directory)")
    serve.add_argument("--redis", metavar="URL",
                       help="serve one site from several processes (and machines): redis://host:6379/0, shared by "
                            "them all, with a shared --db postgresql://... (docs/hosting.md)")
    serve.add_argument("--log-level", default="info", choices=("critical", "error", "warning", "info", "debug"))
    add_serve_options(serve)

    variants = sub.add_parser("variants", help="list the rule presets")
    variants.add_argument("--lang", choices=("es", "en", "it"), help="language (default: from the locale)")
    rules = sub.add_parser("rules", help="print the rules of a preset")
    rules.add_argument("name", help="the preset, e.g. spanish, briscola, bixkla")
    rules.add_argument("--lang", choices=("es", "en", "it"), help="language (default: from the locale)")
    rules.add_argument("--rule", "-r", action="append", metavar="NAME=VALUE", help="override a rule option")
    rules.add_argument("--markdown", action="store_true",
                       help="the documentation page in that language (in English with the sources' readings)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    try:
        try:
            status = _run(argv)
        except SystemExit as exc:  # argparse's --help and usage errors: flush what they wrote here too
            sys.stdout.flush()
            raise exc
        sys.stdout.flush()  # a reader gone before the last write shows here, inside the try
    except BrokenPipeError:
        return _reader_gone()
    return status


def _reader_gone() -> int:
    """Standard output's reader has gone (``| head``): nothing more can be shown, and that is no error.

    Standard output is pointed at the null device so that the interpreter's own flush at exit
    does not fail again and print "Exception ignored ... BrokenPipeError".
    """
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # no file descriptor behind sys.stdout (a test's StringIO)
        pass
    return 128 + int(getattr(signal, "SIGPIPE", 13))


def _loadtest(words: list[str]) -> int:
    from brisca.server import missing_web_extra

    missing = missing_web_extra()
    if missing:
        print(f"brisca loadtest: error: the load test needs the 'web' extra ({', '.join(missing)} missing):"
              " pip install 'brisca[web]'", file=sys.stderr)
        return 2
    from brisca.server.loadtest import main as loadtest_main

    try:
        return loadtest_main(words, prog="brisca loadtest")
    except SystemExit as exc:  # argparse's own exits (--help, a bad option) keep their status
        if isinstance(exc.code, str):
            print(f"brisca {exc.code.replace('loadtest: ', 'loadtest: error: ', 1)}", file=sys.stderr)
            return 2
        raise


def _current_folder_importable() -> None:
    """Modules in the current folder import, as under ``python -m``: ``brisca arena mybots:FirstCard random``
    finds ``mybots.py`` beside the person typing it. The installed ``brisca`` script puts only its own folder
    on the path."""
    here = os.getcwd()
    if not any(os.path.abspath(p or os.curdir) == here for p in sys.path):
        sys.path.insert(0, here)


def _run(argv: Sequence[str] | None) -> int:
    _current_folder_importable()
    parser = build_parser()
    words = list(sys.argv[1:] if argv is None else argv)
    if words[:1] == ["train"]:  # its options are the trainer's own (brisca.learn.command)
        from brisca.learn.command import main as train_main  # (numpy missing: one line, from there)

        return train_main(words[1:])
    if words[:1] == ["loadtest"]:  # its options are the load test's own (brisca.server.loadtest)
        return _loadtest(words[1:])
    args = parser.parse_args(argv)
    try:
        if args.command == "replay":
            from brisca.cli.replay import run_analyse, run_replay

            if args.analyse:
                return run_analyse(args)
            if (len(args.file) > 1 or args.json or args.jobs != 1 or args.ray or args.think or args.worlds
                    or args.lang):
                raise BriscaError("one record at a time, and --think, --worlds, --jobs, --ray, --json and --lang go"
                                  " with --analyse")
            return run_replay(args.file[0], indent=args.indent)
        if args.command == "verify":
            from brisca.cli.verify import run_verify

            return run_verify(args.file, args.published)
        if args.command == "bench" and args.selfplay:
            for name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
                os.environ.setdefault(name, "1")  # one core: numpy's BLAS reads these when it starts
            from brisca.learn import bench as selfplay

            if not selfplay.available():
                print("brisca bench: error: --selfplay needs numpy (and numba to be fast): pip install 'brisca[fast]'",
                      file=sys.stderr)
                return 2
            if args.players and len(args.players) > 1:
                raise BriscaError("--selfplay measures one player count: give --players once")
            presets = [p.strip() for p in args.presets.split(",") if p.strip()]
            if not presets:
                raise BriscaError("--presets names no preset")
            try:
                return selfplay.run(seconds=args.seconds if args.seconds != 1.0 else 10.0, lanes=args.lanes,
                                    as_json=args.json, seed=args.seed, presets=presets,
                                    players=args.players[0] if args.players else 2)
            except ValueError as exc:  # an unknown preset, a player count it does not play, two encodings
                raise BriscaError(f"--presets: {exc}") from None
        if args.command == "bench":
            from brisca.bench import run_bench

            return run_bench(seconds=args.seconds, players=args.players, as_json=args.json, seed=args.seed)
        if args.command == "arena":
            from brisca.cli.arena import run_arena_cli

            return run_arena_cli(args, _rule_options(args.rule))
        if args.command == "serve":
            from brisca.cli.serve import run_serve_cli

            return run_serve_cli(args)
        if args.command == "variants":
            from brisca.i18n import Messages, default_lang
            from brisca.rulebook import preset_table

            lang = args.lang or default_lang()
            msg = Messages(lang)
            for line in preset_table(lang, lambda counts: msg("variants_players", counts=counts)):
                print(line)
            return 0
        if args.command == "rules":
            from brisca.i18n import default_lang
            from brisca.rulebook import rules_markdown, rules_text
            from brisca.rules import make_rules

            chosen = make_rules(args.name, _rule_options(args.rule))
            lang = args.lang or default_lang()
            print(rules_markdown(chosen, lang) if args.markdown else rules_text(chosen, lang))
            return 0
        if args.command in ("play", None):
            if args.command is None:
                args = parser.parse_args(["play"])
            from brisca.cli.play import run_play

            return run_play(args, _rule_options(args.rule))
    except BriscaError as exc:
        print(f"brisca: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        raise  # main ends quietly: the reader of standard output has gone
    except OSError as exc:
        print(f"brisca: error: {exc.strerror or exc}: {getattr(exc, 'filename', '') or ''}".rstrip(": "),
              file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
    parser.print_help()
    return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
