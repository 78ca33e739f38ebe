"""``brisca replay FILE``: check a record, replay it, print the outcome as one JSON object."""

from __future__ import annotations

import json
import sys

from brisca import record as rec


def run_replay(path: str, indent: int | None = None) -> int:
    """Replay the record at ``path`` (``-``: standard input); errors raise :class:`RecordError`."""
    if path == "-":
        text = sys.stdin.read()
    else:
        with open(path, encoding="utf-8") as fp:
            text = fp.read()
    record = rec.loads(text)
    if isinstance(record, rec.MatchRecord):
        out = rec.match_summary(record, record.replay())
    else:
        out = rec.summary(record.replay())
    print(json.dumps(out, indent=indent, ensure_ascii=False))
    return 0
