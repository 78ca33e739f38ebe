"""``brisca verify RECORD``: check that every deal of a record is the deck its table committed to.

The web table publishes, when it deals, the SHA-256 commitment of the deck and a secret salt
(:mod:`brisca.commitment`); the finished record reveals both. This command recomputes every
commitment from the record's deck and salt, replays the record, and, given the commitments a player
saw during the game (``--published``), checks that the record carries those same ones.
"""

from __future__ import annotations

import re
import sys

from brisca import record as rec
from brisca.cli.replay import read_record
from brisca.errors import BriscaError

_HASH = re.compile(r"[0-9a-fA-F]{64}")


class VerifyFailed(BriscaError):
    """The record does not hold its commitments (exit status 1, not a user error)."""


def published_hashes(texts: list[str] | None) -> list[str]:
    """The commitments given on the command line (separated by spaces or commas), in hand order."""
    out: list[str] = []
    for text in texts or ():
        for part in re.split(r"[\s,]+", text.strip()):
            if not part:
                continue
            if not _HASH.fullmatch(part):
                raise BriscaError(f"--published takes SHA-256 commitments (64 hex digits), not {part[:20]!r}")
            out.append(part.lower())
    return out


def verify(record: rec.Record | rec.MatchRecord, published: list[str]) -> list[str]:
    """Lines saying what was checked; :class:`VerifyFailed` lists what failed."""
    match = rec.MatchRecord.of(record)
    problems = match.verify_deals()
    if published:
        if len(published) != len(match.hands):
            problems.append(f"{len(published)} published commitments for {len(match.hands)} hands")
        for i, (seen, hand) in enumerate(zip(published, match.hands, strict=False)):
            if hand.commitment is not None and hand.commitment != seen:
                problems.append(f"hand {i + 1}: the record's commitment {hand.commitment[:12]}… is not the one "
                                f"published at the table ({seen[:12]}…)")
    if not problems:  # a deck that is not the one committed to need not replay: that is said already
        try:
            match.replay()
        except BriscaError as exc:
            problems.append(f"the record does not replay: {exc}")
    if problems:
        raise VerifyFailed("; ".join(problems))
    n = len(match.hands)
    lines = [f"{n} hand{'s' if n != 1 else ''}: every deck matches the commitment published at its deal"]
    if published:
        lines.append("the commitments are the ones published at the table")
    if match.seed is not None:
        lines.append(f"a practice table: its decks come from seed {match.seed} (anyone could predict them)")
    return lines


def run_verify(path: str, published: list[str] | None = None) -> int:
    """Check the record at ``path``: 0 when every deal holds, 1 when one does not (one line on stderr)."""
    record = read_record(path)
    try:
        lines = verify(record, published_hashes(published))
    except VerifyFailed as exc:
        print(f"brisca: verify: {path}: {exc}", file=sys.stderr)
        return 1
    for line in lines:
        print(f"{path}: {line}")
    return 0
