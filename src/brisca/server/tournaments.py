"""A tournament's pairings and standings: pure functions over entrant numbers, no server, no database.

Entrants are numbered ``0 .. n - 1`` at the start (in the order they joined, or by rating). A table of a round
is a :class:`Pairing`: the entrant at each seat, ``None`` for a bot. Seat ``s`` plays for side ``s % sides`` (the
engine's rule), so a table of 4 in partnerships is seats 0 and 2 against 1 and 3.

**The system.** A round robin when every entrant can meet every other within the rounds asked for
(:func:`round_robin` finds the schedule; at tables of 2, the circle method: ``n - 1`` rounds, ``n`` for an odd
``n``); a Swiss tournament (:func:`swiss_round`) of the rounds asked for otherwise: those of equal score meet, a
score group's top half against its bottom half (:func:`fold`), nobody twice where a round allows it.

**Bots.** Where the entrants do not fill every table, bots fill the empty seats of the last table (one table short
at most); it goes to those who had a bot at their table least often, the lowest placed first. A bot is no entrant:
it has no standing; a person's result with or against bots counts as any other, and in the tie-breaks a bot
opponent counts :data:`BOT_SCORE` of a point for each round played (as a virtual opponent does in Swiss
tie-breaks).

**Partnerships.** At a table of two sides of two or three, partners are chosen so that nobody partners the same
entrant twice where the table allows; between splits alike, the sides are balanced by standing (snake order: the
first and the last against the second and the third). Every member of a side scores the side's result.

**Scores.** A won match is 1 point to each person of the winning side, a lost one 0; a match that ends level is
1/2 to everyone at the table; a table closed without a result (nobody at it for the idle time, the limit on
hands) is 0 to everyone.

**Tie-breaks** (:func:`standings`), after the score. Swiss: Buchholz (each table's average score of one's
opponents, added up), then Sonneborn-Berger (each table's average opponents' score times one's own score there),
then the card points one's side took. Round robin: head to head (the points scored at tables with an opponent
of the same score), then the card points taken. Then the order of entry; entrants equal in all of them share a
rank.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

#: What a bot opponent counts in the tie-breaks, a round it has played.
BOT_SCORE = 0.5
#: Steps (an entrant considered for a seat) a Swiss round's search takes before it settles for the fewest repeated
#: meetings.
SEARCH_BUDGET = 200_000


@dataclass(frozen=True)
class Layout:
    """The tables of a tournament: ``players`` seats each, ``sides`` sides (``players // sides`` to a side)."""

    players: int
    sides: int

    def __post_init__(self) -> None:
        if self.players < 2 or self.sides < 2 or self.players % self.sides:
            raise ValueError(f"a table of {self.players} seats in {self.sides} sides is not a table")

    @property
    def team(self) -> int:
        return self.players // self.sides

    def side(self, seat: int) -> int:
        return seat % self.sides

    def tables(self, entrants: int) -> int:
        """How many tables ``entrants`` people take (the last one filled with bots)."""
        return -(-entrants // self.players)


@dataclass(frozen=True)
class Pairing:
    """One table of a round: the entrant at each seat (``None``: a bot)."""

    seats: tuple[int | None, ...]

    @property
    def people(self) -> tuple[int, ...]:
        return tuple(e for e in self.seats if e is not None)


@dataclass(frozen=True)
class Result:
    """A table's outcome: its seats, the side that won (``None``: level or no result), whether the match was
    played to its end (``False``: the table was closed without a result), and each side's card points."""

    seats: tuple[int | None, ...]
    winner: int | None
    finished: bool = True
    points: tuple[int, ...] = ()

    def score(self, seat: int, layout: Layout) -> float:
        """What the person at ``seat`` scores here."""
        if not self.finished:
            return 0.0
        if self.winner is None:
            return 0.5
        return 1.0 if layout.side(seat) == self.winner else 0.0


@dataclass(frozen=True)
class Standing:
    """An entrant's place: ``rank`` (1 first; equal only where every tie-break is), ``score`` and the tie-breaks
    by name, as :func:`standings` computes them."""

    entrant: int
    rank: int
    score: float
    tiebreaks: Mapping[str, float] = field(default_factory=dict)
    played: int = 0


# ---------------------------------------------------------------------- who met whom


def met_pairs(results: Iterable[Result | Pairing]) -> Counter[frozenset[int]]:
    """How often each two entrants sat at one table."""
    out: Counter[frozenset[int]] = Counter()
    for r in results:
        people = [e for e in r.seats if e is not None]
        for a, b in itertools.combinations(people, 2):
            out[frozenset((a, b))] += 1
    return out


def partner_pairs(results: Iterable[Result | Pairing], layout: Layout) -> Counter[frozenset[int]]:
    """How often each two entrants played on one side."""
    out: Counter[frozenset[int]] = Counter()
    for r in results:
        for a, b in itertools.combinations(range(len(r.seats)), 2):
            ea, eb = r.seats[a], r.seats[b]
            if ea is not None and eb is not None and layout.side(a) == layout.side(b):
                out[frozenset((ea, eb))] += 1
    return out


def bot_tables(results: Iterable[Result | Pairing]) -> Counter[int]:
    """How often each entrant had a bot at the table."""
    out: Counter[int] = Counter()
    for r in results:
        if None in r.seats:
            out.update(e for e in r.seats if e is not None)
    return out


def seat_table(members: Sequence[int], layout: Layout, partners: Mapping[frozenset[int], int]) -> Pairing:
    """Seat ``members`` (best placed first; fewer than ``layout.players``: bots take the rest) at one table: the
    split into sides with the fewest repeated partnerships, the most balanced among those."""
    people = list(members)
    slots: list[int | None] = [*people, *([None] * (layout.players - len(people)))]
    if layout.team == 1:
        return Pairing(tuple(slots))
    # Snake order gives the balanced split: side 0 takes places 0 and 3, side 1 places 1 and 2 (for two sides).
    snake = [i if (i // layout.sides) % 2 == 0 else (i // layout.sides) * layout.sides + layout.sides - 1 -
             i % layout.sides for i in range(layout.players)]
    best: tuple[int, int, tuple[int | None, ...]] | None = None
    for order in _splits(layout):
        sides = [[slots[i] for i in group] for group in order]
        repeats = sum(partners.get(frozenset((a, b)), 0) for side in sides
                      for a, b in itertools.combinations([e for e in side if e is not None], 2))
        seats: list[int | None] = [None] * layout.players
        for side_number, side in enumerate(sides):
            for k, entrant in enumerate(side):
                seats[k * layout.sides + side_number] = entrant
        imbalance = sum(abs(people.index(e) - snake[s]) for s, e in enumerate(seats) if e is not None)
        key = (repeats, imbalance, tuple(seats))
        if best is None or key[:2] < best[:2]:
            best = key
    assert best is not None
    return Pairing(best[2])


def _splits(layout: Layout) -> Iterable[list[tuple[int, ...]]]:
    """Every way to split places ``0 .. players - 1`` into ``sides`` groups of ``team`` (as lists of groups)."""

    def split(rest: tuple[int, ...]) -> Iterable[list[tuple[int, ...]]]:
        if not rest:
            yield []
            return
        first = rest[0]
        for others in itertools.combinations(rest[1:], layout.team - 1):
            group = (first, *others)
            left = tuple(p for p in rest if p not in group)
            for more in split(left):
                yield [group, *more]

    yield from split(tuple(range(layout.players)))


# ---------------------------------------------------------------------- round robin


def round_robin(entrants: int, layout: Layout, limit: int) -> list[list[Pairing]] | None:
    """The schedule in which every entrant meets every other at least once, or ``None`` if that needs more than
    ``limit`` rounds. At tables of 2, the circle method (each meets each exactly once); at larger tables, rounds
    built to seat together those who have not met yet."""
    if entrants < 2:
        return None
    if layout.players == 2:
        rounds = circle(entrants)
        return rounds if len(rounds) <= limit else None
    schedule: list[list[Pairing]] = []
    everyone = frozenset(frozenset(p) for p in itertools.combinations(range(entrants), 2))
    while set(met_pairs(p for r in schedule for p in r)) < everyone:
        if len(schedule) >= limit:
            return None
        played = [p for r in schedule for p in r]
        schedule.append(_cover_round(entrants, layout, played))
    return schedule


def circle(entrants: int) -> list[list[Pairing]]:
    """The circle method for tables of 2: entrant 0 stays, the others turn; with an odd number, whoever would
    meet the missing entrant plays a bot. Seats alternate from round to round.

    >>> [[p.seats for p in tables] for tables in circle(4)]
    [[(0, 3), (2, 1)], [(2, 0), (3, 1)], [(0, 1), (3, 2)]]
    """
    ring: list[int | None] = list(range(entrants))
    if entrants % 2:
        ring.append(None)
    n = len(ring)
    rounds: list[list[Pairing]] = []
    for r in range(n - 1):
        tables = []
        for i in range(n // 2):
            a, b = ring[i], ring[n - 1 - i]
            if a is None or (b is not None and (r + i) % 2):
                a, b = b, a
            tables.append(Pairing((a, b)))
        # The table with a bot last.
        tables.sort(key=lambda p: None in p.seats)
        rounds.append(tables)
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return rounds


def _cover_round(entrants: int, layout: Layout, played: Sequence[Pairing]) -> list[Pairing]:
    met = met_pairs(played)
    partners = partner_pairs(played, layout)
    with_bots = bot_tables(played)
    left = list(range(entrants))
    sizes = _table_sizes(entrants, layout)

    def unmet(a: int, among: Iterable[int]) -> int:
        return sum(1 for b in among if b != a and not met[frozenset((a, b))])

    tables: list[list[int]] = []
    # The short table first, for those who had a bot least often.
    for size in sorted(sizes):
        if size < layout.players:
            first = min(left, key=lambda e: (with_bots[e], -unmet(e, left), e))
        else:
            first = min(left, key=lambda e: (-unmet(e, left), e))
        table = [first]
        left.remove(first)
        while len(table) < size:
            pick = min(left, key=lambda e: (-sum(not met[frozenset((e, m))] for m in table), -unmet(e, left), e))
            table.append(pick)
            left.remove(pick)
        tables.append(table)
    tables.sort(key=len, reverse=True)
    return [seat_table(t, layout, partners) for t in tables]


def _table_sizes(entrants: int, layout: Layout) -> list[int]:
    """The people at each table: full tables, and the rest at the last one."""
    full, rest = divmod(entrants, layout.players)
    return [layout.players] * full + ([rest] if rest else [])


# ---------------------------------------------------------------------- Swiss


def swiss_round(entrants: int, results: Sequence[Result], layout: Layout) -> list[Pairing]:
    """The next round of a Swiss tournament: the entrants in order of standing, each group of equal score dealt
    into a table's slices (:func:`fold`), each table made of the next in that order who have not met, searched so
    that nobody meets again where that can be avoided (within :data:`SEARCH_BUDGET` steps; past them, each table
    takes those who have met its people least).

    >>> [p.seats for p in swiss_round(6, [], Layout(2, 2))]
    [(0, 3), (1, 4), (2, 5)]
    """
    table = standings(entrants, results, layout, "swiss")
    order = [s.entrant for s in table]
    score = {s.entrant: s.score for s in table}
    met = met_pairs(results)
    partners = partner_pairs(results, layout)
    with_bots = bot_tables(results)
    sizes = _table_sizes(entrants, layout)
    short = sizes[-1] if sizes[-1] < layout.players else 0
    place = {e: i for i, e in enumerate(order)}
    budget = [SEARCH_BUDGET]

    def fresh(group: Sequence[int]) -> bool:
        return all(not met[frozenset((a, b))] for a, b in itertools.combinations(group, 2))

    def groups(group: list[int], others: list[int], start: int) -> Iterator[list[int]]:
        """The tables of ``group`` and players of ``others`` (from ``start``) who have not met, in order."""
        if len(group) == layout.players:
            yield group
            return
        for i in range(start, len(others)):
            budget[0] -= 1
            if budget[0] < 0:
                return
            e = others[i]
            if all(not met[frozenset((e, g))] for g in group):
                yield from groups([*group, e], others, i + 1)

    def fill(rest: list[int]) -> list[list[int]] | None:
        if not rest:
            return []
        first, others = rest[0], rest[1:]
        for group in groups([first], others, 0):
            more = fill([e for e in others if e not in group])
            if more is not None:
                return [group, *more]
        return None

    found: list[list[int]] | None = None
    # The short table (bots in its other seats): those with a bot least often, the lowest placed first.
    candidates = ([()] if not short else
                  itertools.combinations(sorted(order, key=lambda e: (with_bots[e], -place[e])), short))
    for low in candidates:
        budget[0] -= 1
        if budget[0] < 0:
            break
        if not fresh(low):
            continue
        rest = fold([e for e in order if e not in low], score, layout.players)
        tables = fill(rest)
        if tables is not None:
            found = [*tables, *([sorted(low, key=place.__getitem__)] if low else [])]
            break
    if found is None:
        found = _fewest_repeats(order, sizes, met, with_bots, place)
    return [seat_table(t, layout, partners) for t in found]


def fold(order: Sequence[int], score: Mapping[int, float], players: int) -> list[int]:
    """``order`` with each group of equal score dealt into ``players`` slices and taken a seat from each in turn:
    at tables of 2, a group's first meets the first of its second half (1 against 5 of 8), as in Swiss's Dutch
    system; the group's leftovers come after it, to float down to the next."""
    out: list[int] = []
    for _, group in itertools.groupby(order, key=lambda e: score[e]):
        members = list(group)
        whole = len(members) - len(members) % players
        size = whole // players
        slices = [members[i * size:(i + 1) * size] for i in range(players)]
        out += [e for k in range(size) for e in (s[k] for s in slices)] + members[whole:]
    return out


def _fewest_repeats(order: Sequence[int], sizes: Sequence[int], met: Counter[frozenset[int]],
                    with_bots: Counter[int], place: Mapping[int, int]) -> list[list[int]]:
    """Tables in order of standing where no repeat-free round was found: each seat filled by the next placed
    entrant who has met the table's people least."""
    left = list(order)
    tables: list[list[int]] = []
    short = [s for s in sizes if s < max(sizes)]
    if short:
        low = sorted(left, key=lambda e: (with_bots[e], -place[e]))[: short[0]]
        left = [e for e in left if e not in low]
    for size in sizes[: len(sizes) - len(short)]:
        table = [left.pop(0)]
        while len(table) < size:
            pick = min(left, key=lambda e: (sum(met[frozenset((e, m))] for m in table), place[e]))
            table.append(pick)
            left.remove(pick)
        tables.append(table)
    if short:
        tables.append(sorted(low, key=place.__getitem__))
    return tables


# ---------------------------------------------------------------------- standings


def scores(entrants: int, results: Iterable[Result], layout: Layout) -> list[float]:
    """Each entrant's score."""
    out = [0.0] * entrants
    for r in results:
        for seat, e in enumerate(r.seats):
            if e is not None:
                out[e] += r.score(seat, layout)
    return out


def standings(entrants: int, results: Sequence[Result], layout: Layout, system: str) -> list[Standing]:
    """Every entrant in order: score, then the tie-breaks of ``system`` (``swiss`` or ``round_robin``; see the
    module), then the order of entry. Entrants equal on all of them share a rank."""
    score = scores(entrants, results, layout)
    played = [0] * entrants
    points = [0.0] * entrants
    buchholz = [0.0] * entrants
    sonneborn = [0.0] * entrants
    # A bot opponent: BOT_SCORE a round played (the rounds played so far: the most tables anyone sat at).
    bot_value = BOT_SCORE * max((sum(1 for r in results if e in r.seats) for e in range(entrants)), default=0)
    for r in results:
        for seat, e in enumerate(r.seats):
            if e is None:
                continue
            played[e] += 1
            if r.finished and r.points:
                points[e] += r.points[layout.side(seat)]
            opponents = [score[o] if o is not None else bot_value
                         for s2, o in enumerate(r.seats) if layout.side(s2) != layout.side(seat)]
            average = sum(opponents) / len(opponents)
            buchholz[e] += average
            sonneborn[e] += average * r.score(seat, layout)
    keys: list[tuple[str, list[float]]]
    if system == "swiss":
        keys = [("buchholz", buchholz), ("sonneborn_berger", sonneborn), ("points", points)]
    else:
        head = [0.0] * entrants
        for r in results:
            for seat, e in enumerate(r.seats):
                if e is None:
                    continue
                tied = [o for s2, o in enumerate(r.seats) if o is not None and o != e
                        and layout.side(s2) != layout.side(seat) and score[o] == score[e]]
                if tied:
                    head[e] += r.score(seat, layout)
        keys = [("head_to_head", head), ("points", points)]

    def key(e: int) -> tuple[float, ...]:
        return (-score[e], *(-values[e] for _, values in keys))

    order = sorted(range(entrants), key=lambda e: (key(e), e))
    out: list[Standing] = []
    for i, e in enumerate(order):
        rank = out[-1].rank if out and key(order[i - 1]) == key(e) else i + 1
        out.append(Standing(e, rank, score[e], {name: round(values[e], 3) for name, values in keys}, played[e]))
    return out


def plan(entrants: int, rounds: int, layout: Layout) -> tuple[str, list[list[Pairing]] | None]:
    """The system for ``entrants`` and the ``rounds`` asked for: ``("round_robin", schedule)`` where a round robin
    fits in them, else ``("swiss", None)``."""
    schedule = round_robin(entrants, layout, rounds)
    return ("round_robin", schedule) if schedule is not None else ("swiss", None)


__all__ = ["BOT_SCORE", "Layout", "Pairing", "Result", "Standing", "bot_tables", "circle", "fold", "met_pairs",
           "partner_pairs", "plan", "round_robin", "scores", "seat_table", "standings", "swiss_round"]
