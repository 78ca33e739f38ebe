"""``brisca replay FILE``: check a record, replay it, print the outcome as one JSON object."""

from __future__ import annotations

import json
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
