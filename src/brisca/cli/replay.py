"""``brisca replay FILE``: check a record, replay it, print the outcome as one JSON object; with ``--analyse``,
every decision valued from its seat's view (:mod:`brisca.analysis`)."""

from __future__ import annotations

import argparse
import json
import os
import sys

from brisca import record as rec
from brisca.errors import RecordError


def read_record(path: str) -> rec.Record | rec.MatchRecord:
    """The record at ``path`` (``-``: standard input), read; :class:`RecordError` if it is not one."""
    if path == "-":
        raw = sys.stdin.buffer.read()
    else:
        with open(path, "rb") as fp:
            raw = fp.read()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RecordError(f"not a record: the file is not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    return rec.loads(text)


def run_replay(path: str, indent: int | None = None) -> int:
    """Replay the record at ``path`` (``-``: standard input); errors raise :class:`RecordError`."""
    record = read_record(path)
    if isinstance(record, rec.MatchRecord):
        out = rec.match_summary(record, record.replay())
    else:
        out = rec.summary(record.replay())
    print(json.dumps(out, indent=indent, ensure_ascii=False))
    return 0


def run_analyse(args: argparse.Namespace) -> int:
    """``brisca replay --analyse FILE...``: each record's analysis, as a table (or JSON with ``--json``)."""
    from brisca.analysis import THINK, WORLDS, AnalysisError, analyse_many, format_text
    from brisca.i18n import default_lang

    think = THINK if args.think is None else args.think
    worlds = WORLDS if args.worlds is None else args.worlds
    if not think > 0 or worlds < 1 or args.jobs < 0:
        raise AnalysisError("--think is a number of seconds above 0, --worlds 1 or more and --jobs 0 or more")
    if args.file.count("-") > 1:
        raise AnalysisError("standard input (-) can be read once")
    records = [read_record(path) for path in args.file]
    jobs = args.jobs or os.cpu_count() or 1
    found = analyse_many(records, seed=args.seed, worlds=worlds, think=think, jobs=jobs, ray=args.ray)
    if args.json:
        data = [a.to_json() for a in found]
        print(json.dumps(data[0] if len(data) == 1 else data, indent=args.indent, ensure_ascii=False))
        return 0
    for path, analysis in zip(args.file, found, strict=True):
        if len(found) > 1:
            print(f"== {path}")
        print(format_text(analysis, lang=args.lang or default_lang()))
    return 0
