"""Per-preset ratings with openskill (Plackett-Luce), teams included."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from openskill.models import PlackettLuce

_MODEL = PlackettLuce()


def rate(current: Mapping[str, tuple[float, float]], teams: Sequence[Sequence[str]],
         winner: int | None) -> dict[str, tuple[float, float]]:
    """New ``(mu, sigma)`` for every name after a match; ``winner`` is the winning side (None: a draw)."""
    rated = [[_MODEL.rating(*current[n], name=n) if n in current else _MODEL.rating(name=n) for n in team]
             for team in teams]
    ranks = [1.0 if winner is None or side == winner else 2.0 for side in range(len(teams))]
    out: dict[str, tuple[float, float]] = {}
    for team in _MODEL.rate(rated, ranks=ranks):
        for r in team:
            if r.name is not None:
                out[r.name] = (float(r.mu), float(r.sigma))
    return out
