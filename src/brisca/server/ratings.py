"""Per-preset ratings with openskill (Plackett-Luce), teams included."""

from __future__ import annotations

from collections.abc import Mapping, Sequence, Set

from openskill.models import PlackettLuce

_MODEL = PlackettLuce()
#: The ``(mu, sigma)`` of a name never rated yet.
START: tuple[float, float] = (float(_MODEL.rating().mu), float(_MODEL.rating().sigma))


def ordinal(rating: tuple[float, float]) -> float:
    """The one number a rating is ranked and shown by: ``mu - 3 sigma`` (0 for a new name)."""
    mu, sigma = rating
    return mu - 3 * sigma


def rate(current: Mapping[str, tuple[float, float]], teams: Sequence[Sequence[str]],
         winner: int | None, *, loser: int | None = None) -> dict[str, tuple[float, float]]:
    """New ``(mu, sigma)`` for every name after a match; ``winner`` is the winning side (None: a draw).

    ``loser``: rate the match instead as side ``loser`` losing to all the others (who tie among themselves).
    """
    rated = [[_MODEL.rating(*current[n], name=n) if n in current else _MODEL.rating(name=n) for n in team]
             for team in teams]
    if loser is not None:
        ranks = [2.0 if side == loser else 1.0 for side in range(len(teams))]
    else:
        ranks = [1.0 if winner is None or side == winner else 2.0 for side in range(len(teams))]
    out: dict[str, tuple[float, float]] = {}
    for team in _MODEL.rate(rated, ranks=ranks):
        for r in team:
            if r.name is not None:
                out[r.name] = (float(r.mu), float(r.sigma))
    return out


#: The distinct opponents kept per rating (an established rating needs no more than this many).
KEPT_OPPONENTS = 32


def provisional(games: int, opponents: int, need_games: int, need_opponents: int) -> bool:
    """Whether a rating of ``games`` rated matches against ``opponents`` distinct opponents is provisional
    (:attr:`brisca.server.limits.Limits.provisional_games`, ``provisional_opponents``)."""
    return games < need_games or opponents < min(need_opponents, KEPT_OPPONENTS)


def opponents_of(keys: Sequence[str | None], sides: int) -> dict[str, list[str]]:
    """Each rating key at a table -> the keys of the other sides' seats (its opponents in this match)."""
    named = [(seat, k) for seat, k in enumerate(keys) if k is not None]
    return {k: sorted({o for seat2, o in named if seat2 % sides != seat % sides and o != k}) for seat, k in named}


def rate_table(current: Mapping[str, tuple[float, float]], keys: Sequence[str | None], sides: int,
               winner: int | None, gone: Set[int] = frozenset(), *, games: Mapping[str, int] | None = None,
               provisional_games: int = 0, opponents: Mapping[str, int] | None = None,
               provisional_opponents: int = 0,
               addresses: Mapping[str, Set[str]] | None = None) -> dict[str, tuple[float, float]]:
    """The ratings a finished table changes: ``{key: (mu, sigma)}`` (empty: the match is not rated).

    ``keys``: each seat's rating key: ``bot:<level>`` for a bot, an account's normalised username, or
    ``None`` for a guest. Seat ``s`` plays for side ``s % sides``. ``gone``: the seats of people a stand-in
    bot was still playing for when the match ended (they left and did not come back).

    - A match is rated only when no guest held a seat and at least one seat is an account's: a guest's
      name is free text anyone can type, and bots playing bots would only move the bots' ratings.
    - Leaving is resigning: a person gone at the end is rated as having lost the match to the other side(s),
      whatever the stand-in made of it (otherwise leaving a lost game would protect a rating). Nobody else
      at the table is rated for that match: they did not beat (or lose to) that person. Partners who both
      left are both rated as losing. A person who came back before the end is rated as usual.
    - ``addresses``: the client addresses each account played from (by key). Two accounts of different sides
      that share one are not rated against each other: the match is not rated (one person playing both
      sides would otherwise feed one account with the other's losses).
    - ``games``, ``opponents``: the rated matches each key has played of this preset, and the distinct
      opponents it met in them. An account with fewer than ``provisional_games`` or ``provisional_opponents``
      is provisional: while one sits at the table, only the provisional accounts' ratings change (an account
      made to lose cannot feed an established one, nor a bot).
    """
    if any(k is None for k in keys) or all(k is None or k.startswith("bot:") for k in keys):
        return {}
    named = [k for k in keys if k is not None]
    if addresses is not None and shared_address(named, sides, addresses):
        return {}
    teams = [[named[s] for s in range(len(named)) if s % sides == side] for side in range(sides)]
    left = {s for s in gone if not named[s].startswith("bot:")}
    if not left:
        out = rate(current, teams, winner)
    else:
        out = {}
        for side in sorted({s % sides for s in left}):
            resigned = rate(current, teams, winner, loser=side)
            out |= {named[s]: resigned[named[s]] for s in left if s % sides == side}
    counts, met = games or {}, opponents or {}
    new = {k for k in named if not k.startswith("bot:")
           and provisional(counts.get(k, 0), met.get(k, 0), provisional_games, provisional_opponents)}
    if new:
        out = {k: r for k, r in out.items() if k in new}
    return out


def shared_address(keys: Sequence[str], sides: int, addresses: Mapping[str, Set[str]]) -> bool:
    """Whether two accounts on different sides (seat ``s`` plays for ``s % sides``) played from one address."""
    for i, first in enumerate(keys):
        for j in range(i + 1, len(keys)):
            second = keys[j]
            if i % sides != j % sides and first != second \
                    and addresses.get(first, set()) & addresses.get(second, set()):
                return True
    return False
