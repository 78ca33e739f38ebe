"""The arena: agents play duplicate deals, and the results come with honest intervals.

Brisca is luck-heavy, so every deal is played once per seating with the agents'
places rotated (in partnership games each agent holds a whole side): the luck of
the cards cancels and what is left is skill. A game is one hand; a win scores 1,
a drawn hand 1/2. Each agent's score comes with a 95% Wilson interval; with more
than two agents, Bradley-Terry ratings on the Elo scale with bootstrap intervals.

Games with a contract (``rematada``, ``chiamata``) have no winning side: a hand
gives each seat match points (:attr:`~brisca.game.HandResult.scores`), or game points
under ``match: game_points`` (:func:`~brisca.game.hand_standing`). There a
seating scores 1 for the first agent when its seats took more of what the match
counts on average than the other agent's seats, 1/2 when as many (a hand everybody
passed), 0 when fewer; and :meth:`ArenaResult.match_points` reports each agent's
mean per seat and hand, the measure that counts in those games' matches.

    >>> result = run_arena(["greedy", "random"], games=4, seed=1)
    >>> result.games, sorted(result.scores)
    (8, ['greedy', 'random'])
"""

from __future__ import annotations

import itertools
import math
import pickle
import random
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

from brisca.agents import make_agent
from brisca.errors import BriscaError, IllegalActionError
from brisca.game import Game, hand_standing, shuffled
from brisca.rules import make_rules

T = TypeVar("T")
R = TypeVar("R")


@dataclass
class DealResult:
    """One deal played in every seating by one pair of agents."""

    pair: tuple[str, str]
    deal: int
    #: For each seating, the score of ``pair[0]`` (1, 1/2 or 0).
    scores: list[float]
    #: Games with a contract: for each seating, the mean match points per seat of ``pair[0]`` and of ``pair[1]``.
    points: list[tuple[float, float]] = field(default_factory=list)
    #: Total seconds and moves per agent name.
    seconds: dict[str, float] = field(default_factory=dict)
    moves: dict[str, int] = field(default_factory=dict)


@dataclass
class ArenaResult:
    """Everything an arena run measured."""

    agents: list[str]
    variant: str
    players: int
    deals: list[DealResult]
    wall_seconds: float
    #: What :meth:`match_points` counts: ``match points``, or ``game points`` under ``match: game_points``.
    unit: str = "match points"

    @property
    def games(self) -> int:
        """Games played: every seat arrangement of every deal."""
        return sum(len(d.scores) for d in self.deals)

    @property
    def scores(self) -> dict[str, tuple[float, int]]:
        """Each agent's total score and games."""
        total = {a: 0.0 for a in self.agents}
        count = {a: 0 for a in self.agents}
        for d in self.deals:
            a, b = d.pair
            for s in d.scores:
                total[a] += s
                total[b] += 1 - s
                count[a] += 1
                count[b] += 1
        return {a: (total[a], count[a]) for a in self.agents}

    def pair_table(self) -> list[dict[str, Any]]:
        """For each pair: games, the first agent's score and its Wilson interval."""
        rows = []
        for pair in sorted({d.pair for d in self.deals}):
            scores = [s for d in self.deals if d.pair == pair for s in d.scores]
            n = len(scores)
            p = sum(scores) / n if n else 0.0
            lo, hi = wilson(p, n)
            rows.append({"a": pair[0], "b": pair[1], "games": n, "score": p, "low": lo, "high": hi})
        return rows

    def paired(self) -> list[dict[str, Any]]:
        """For two agents ``a`` and ``b`` that both played a third, ``opponent``, on the same deals: how much more
        ``a`` scored against it than ``b`` did, deal by deal, with a 95% interval (normal, over the deals).

        Both met the opponent on the same cards, so the luck of each deal cancels in the difference: the
        interval is far narrower than the two scores' own intervals would suggest, which is how a change to an
        agent is measured (``brisca arena new old random``). Only deals both pairs played count, and at least two.
        """
        mean: dict[tuple[str, str], dict[int, float]] = {}
        for d in self.deals:
            if d.scores:
                a, b = d.pair
                m = sum(d.scores) / len(d.scores)
                mean.setdefault((a, b), {})[d.deal] = m
                mean.setdefault((b, a), {})[d.deal] = 1 - m
        rows = []
        for a, b in itertools.combinations(self.agents, 2):
            for x in self.agents:
                if x in (a, b) or (a, x) not in mean or (b, x) not in mean:
                    continue
                mine, theirs = mean[(a, x)], mean[(b, x)]
                diffs = [mine[k] - theirs[k] for k in sorted(mine.keys() & theirs.keys())]
                n = len(diffs)
                if n < 2:
                    continue  # one deal gives no interval (and no JSON number for an infinite one)
                avg = sum(diffs) / n
                half = 1.96 * math.sqrt(sum((v - avg) ** 2 for v in diffs) / (n - 1) / n)
                rows.append({"a": a, "b": b, "opponent": x, "deals": n, "difference": avg,
                             "low": avg - half, "high": avg + half})
        return rows

    def match_points(self) -> dict[str, float]:
        """Games with a contract: each agent's mean match points per seat and hand (empty otherwise)."""
        total: dict[str, float] = {}
        count: dict[str, int] = {}
        for d in self.deals:
            for mine, theirs in d.points:
                for name, value in zip(d.pair, (mine, theirs), strict=True):
                    total[name] = total.get(name, 0.0) + value
                    count[name] = count.get(name, 0) + 1
        return {a: total[a] / count[a] for a in self.agents if count.get(a)}

    def move_ms(self) -> dict[str, float]:
        """Mean thinking time per move, per agent, in milliseconds."""
        secs: dict[str, float] = {}
        moves: dict[str, int] = {}
        for d in self.deals:
            for k, v in d.seconds.items():
                secs[k] = secs.get(k, 0.0) + v
            for k, m in d.moves.items():
                moves[k] = moves.get(k, 0) + m
        return {k: 1000 * secs[k] / moves[k] for k in secs if moves.get(k)}

    def ratings(self, rounds: int = 200, seed: int = 0) -> dict[str, tuple[float, float, float]]:
        """Bradley-Terry ratings (Elo scale, mean 0) with 95% bootstrap intervals over deals."""
        base = bradley_terry(self.agents, self.deals)
        rng = random.Random(seed)
        samples: dict[str, list[float]] = {a: [] for a in self.agents}
        for _ in range(rounds):
            pick = [self.deals[rng.randrange(len(self.deals))] for _ in self.deals]
            r = bradley_terry(self.agents, pick)
            for a in self.agents:
                samples[a].append(r[a])
        out = {}
        for a in self.agents:
            xs = sorted(samples[a])
            out[a] = (base[a], xs[int(0.025 * len(xs))], xs[min(len(xs) - 1, int(0.975 * len(xs)))])
        return out

    def to_json(self) -> dict[str, Any]:
        """The report as JSON-ready data (``brisca arena --json``)."""
        data: dict[str, Any] = {
            "variant": self.variant,
            "players": self.players,
            "games": self.games,
            "deals": len({d.deal for d in self.deals}),
            "seconds": self.wall_seconds,
            "games_per_second": self.games / self.wall_seconds if self.wall_seconds else None,
            "pairs": self.pair_table(),
            "move_ms": self.move_ms(),
        }
        points = self.match_points()
        if points:
            data["match_points"] = points
        if len(self.agents) > 2:
            data["paired"] = self.paired()
            data["elo"] = {a: {"elo": r, "low": lo, "high": hi} for a, (r, lo, hi) in self.ratings().items()}
        return data


def wilson(p: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval for a proportion ``p`` observed over ``n`` games.

    >>> [round(x, 3) for x in wilson(0.8, 100)]
    [0.711, 0.867]
    """
    if n == 0:
        return 0.0, 1.0
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def bradley_terry(agents: Sequence[str], deals: Sequence[DealResult], iterations: int = 200) -> dict[str, float]:
    """Bradley-Terry strengths by the MM algorithm, as Elo ratings centred on 0 (draws count half)."""
    wins = {a: 0.5 for a in agents}  # a half-win prior keeps unbeaten agents finite
    games: dict[tuple[str, str], float] = {}
    for d in deals:
        a, b = d.pair
        for s in d.scores:
            wins[a] += s
            wins[b] += 1 - s
            games[(a, b)] = games.get((a, b), 0) + 1
            games[(b, a)] = games.get((b, a), 0) + 1
    strength = {a: 1.0 for a in agents}
    for _ in range(iterations):
        new = {}
        for a in agents:
            denom = sum(n / (strength[a] + strength[b]) for (x, b), n in games.items() if x == a)
            new[a] = wins[a] / denom if denom else strength[a]
        mean = math.exp(sum(math.log(v) for v in new.values()) / len(new))
        strength = {a: v / mean for a, v in new.items()}
    return {a: 400 * math.log10(v) for a, v in strength.items()}


def _seatings(players: int, sides: int) -> list[list[int]]:
    """For each seating, which agent (0 or 1) sits at each seat: every seat (or side) is held by each in turn."""
    if sides == 2:
        return [[s % 2 for s in range(players)], [(s + 1) % 2 for s in range(players)]]
    # Each for himself with more than two seats: agent 0 takes one seat in turn, agent 1 the rest.
    return [[0 if s == k else 1 for s in range(players)] for k in range(players)] + [
        [1 if s == k else 0 for s in range(players)] for k in range(players)
    ]


def play_deal(
    pair: tuple[str, str],
    deal: int,
    variant: str,
    players: int,
    options: Mapping[str, object],
    seed: int,
    think: float | None,
) -> DealResult:
    """Play one deal in every seating; the score is the first agent's, per seating."""
    rules = make_rules(variant, options)
    deck = shuffled(rules.deck_cards(players), random.Random(seed * 1_000_003 + deal))
    dealer = deal % players
    sides = rules.sides(players)
    out = DealResult(pair, deal, [])
    for k, seating in enumerate(_seatings(players, sides)):
        agents = [_make(pair[seating[s]], seed * 7919 + deal * 101 + k * 13 + s, think) for s in range(players)]
        game = Game(rules, players, dealer=dealer, deck=deck)
        while not game.is_over():
            seat = game.turn
            assert seat is not None
            name = pair[seating[seat]]
            t = time.perf_counter()
            action = agents[seat].act(game.view(seat))
            out.seconds[name] = out.seconds.get(name, 0.0) + time.perf_counter() - t
            out.moves[name] = out.moves.get(name, 0) + 1
            try:
                game.apply(action)
            except BriscaError as exc:  # a malformed or illegal action: the bot's fault, named
                raise AgentMoveError(f"agent {name!r} at seat {seat} played {action}, which these rules refuse"
                                     f" (deal {deal}, seed {seed}): {exc}") from None
        result = game.result()
        assert result is not None
        if result.scores is not None:
            # A contract: compare what the match counts (its match points, or game points under
            # ``match: game_points``) that the two agents' seats took, on average per seat.
            standing = hand_standing(rules, players, result)
            means = [sum(standing[game.side_of(s)] for s in range(players) if seating[s] == k)
                     / sum(1 for s in range(players) if seating[s] == k) for k in (0, 1)]
            out.points.append((means[0], means[1]))
            out.scores.append(1.0 if means[0] > means[1] else 0.5 if means[0] == means[1] else 0.0)
            continue
        mine = [game.side_of(s) for s in range(players) if seating[s] == 0]
        if result.winner is None:
            out.scores.append(0.5)
        else:
            # Each for himself with agent 0 at several seats: a win by any of them is its win.
            out.scores.append(1.0 if result.winner in mine else 0.0)
    return out


def _make(name: str, seed: int, think: float | None) -> Any:
    agent = make_agent(name, seed=seed)
    if think is not None and hasattr(agent, "think"):
        agent.think = think
    return agent


def _job(args: tuple[Any, ...]) -> DealResult:
    return play_deal(*args)


def run_arena(
    agents: Sequence[str],
    variant: str = "spanish",
    players: int = 2,
    games: int = 100,
    think: float | None = None,
    jobs: int = 1,
    seed: int = 0,
    options: Mapping[str, object] | None = None,
    progress: Callable[[int, int], None] | None = None,
    versus: str | None = None,
    ray: str | None = None,
) -> ArenaResult:
    """Every pair of ``agents`` plays ``games`` duplicate deals (each in every seating).

    With ``versus`` (a gauntlet), each of ``agents`` plays that one opponent and not the others: the way to
    measure a change (``run_arena(["new", "old"], versus="random")``, then :meth:`ArenaResult.paired`) in half
    the games a round robin of the three would take.

    With ``ray`` the deals are played as tasks on a Ray cluster instead of local processes: ``"local"`` starts
    one on this machine, anything else is the address given to ``ray.init`` (``"auto"``, ``"ray://host:10001"``).
    Every deal is the same function of the seed wherever it runs, so the report is the same (for agents
    without a clock; a time budget makes any search depend on the machine).
    """
    rules = make_rules(variant, options)
    rules.check_players(players)
    if versus is None:
        pairs = list(itertools.combinations(agents, 2))
    elif versus in agents:
        raise BriscaError(f"{versus} is the gauntlet's opponent: it cannot also be one of the agents")
    else:
        pairs = [(a, versus) for a in agents]
        agents = [*agents, versus]
    for name in agents:
        make_agent(name)  # a bad name fails here, with a clear message, not in a worker
    tasks = [(pair, d, variant, players, dict(options or {}), seed, think) for pair in pairs for d in range(games)]
    start = time.perf_counter()
    results = run_tasks(_job, tasks, jobs, ray, progress)
    return ArenaResult(list(agents), rules.variant, players, results, time.perf_counter() - start,
                       "game points" if rules.match == "game_points" else "match points")


def run_tasks(job: Callable[[T], R], tasks: Sequence[T], jobs: int = 1, ray: str | None = None,
              progress: Callable[[int, int], None] | None = None) -> list[R]:
    """``job`` of each task, in the order given: here (``jobs`` 1), on ``jobs`` local processes, or as Ray tasks
    with ``ray`` (see :func:`run_arena`). ``job`` must be a module-level function (it is pickled to the workers).

    The arena's deals and the analysis of records (:mod:`brisca.analysis`) both run through it.

    >>> run_tasks(abs, [-1, 2, -3], jobs=1)
    [1, 2, 3]
    """
    results: list[R] = []
    if ray is not None:
        return _run_on_ray(job, tasks, ray, progress)
    if jobs <= 1:
        for i, t in enumerate(tasks):
            results.append(job(t))
            if progress:
                progress(i + 1, len(tasks))
        return results
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for i, r in enumerate(pool.map(job, tasks, chunksize=max(1, len(tasks) // (jobs * 8)))):
            results.append(r)
            if progress:
                progress(i + 1, len(tasks))
    return results


#: Seconds a Ray cluster's address may take to accept a connection and answer before it is said to be out of reach.
RAY_CONNECT_TIMEOUT = 5.0
#: An HTTP/2 client's preface and its (empty) settings: what a gRPC server answers with its own settings.
HTTP2_PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + b"\x00\x00\x00\x04\x00\x00\x00\x00\x00"


def check_ray_address(address: str, timeout: float = RAY_CONNECT_TIMEOUT) -> None:
    """Before ``ray.init``, which waits minutes for an address that never answers: ``host:port`` (or
    ``ray://host:port``, with Ray's client installed) accepts a connection and answers an HTTP/2 preface (as
    Ray's gRPC servers do) within ``timeout`` seconds in all.
    ``"local"`` and ``"auto"`` are not checked. :class:`BriscaError` with one line otherwise."""
    import importlib.util
    import socket

    if address in ("local", "auto"):
        return
    host, sep, port = address.removeprefix("ray://").rpartition(":")
    if not sep or not host or not port.isdigit():
        raise BriscaError(f"--ray: an address is host:port or ray://host:port (or auto), not {address!r}")
    if address.startswith("ray://") and importlib.util.find_spec("grpc") is None:
        raise BriscaError("a ray:// address needs Ray's client (grpcio): pip install 'brisca[ray]'")
    deadline = time.monotonic() + timeout
    try:
        conn = socket.create_connection((host.strip("[]"), int(port)), timeout)
    except OSError as exc:
        raise BriscaError(f"cannot reach the Ray cluster at {address!r} within {timeout:g} s: "
                          f"{exc.strerror or exc}") from None
    # Ray's head (and its client server) speaks gRPC, that is HTTP/2, whose server answers a client's preface
    # with its settings at once; an address that accepts and says nothing would keep ray.init for half a minute.
    with conn:
        try:
            conn.settimeout(max(0.1, deadline - time.monotonic()))
            conn.sendall(HTTP2_PREFACE)
            answer = conn.recv(1)
        except OSError as exc:
            answer, why = b"", f"{exc.strerror or exc}"
        else:
            why = "it closed the connection"
        if not answer:
            raise BriscaError(f"the Ray cluster at {address!r} accepted a connection but did not answer within "
                              f"{timeout:g} s ({why}): is it a Ray head's address?")


def _chunk(job: Callable[[T], R], tasks: bytes) -> bytes:
    """A Ray task: ``job`` of each task. Tasks and results travel as the standard library's pickles: Ray's own
    serializer does not rebuild the engine's interned cards (``Card.from_index`` fails in it)."""
    return pickle.dumps([job(t) for t in pickle.loads(tasks)])


def _run_on_ray(job: Callable[[T], R], tasks: Sequence[T], address: str,
                progress: Callable[[int, int], None] | None) -> list[R]:
    """Run ``tasks`` as Ray tasks (a few each), and return their results in the order given."""
    try:
        import ray
    except ImportError:
        raise BriscaError("--ray needs Ray: pip install 'brisca[ray]'") from None
    started = False
    if not ray.is_initialized():
        check_ray_address(address)
        try:
            ray.init(address=None if address == "local" else address, include_dashboard=False,
                     log_to_driver=False, configure_logging=False)
        except (ConnectionError, ValueError, RuntimeError) as exc:
            raise BriscaError(f"cannot reach the Ray cluster at {address!r}: {exc}") from None
        started = True
    try:
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))  # type: ignore[no-untyped-call,unused-ignore]
        size = max(1, len(tasks) // (cpus * 8))
        chunks = [tasks[i:i + size] for i in range(0, len(tasks), size)]
        remote: Any = ray.remote(_chunk)
        pending = {remote.remote(job, pickle.dumps(c)): k for k, c in enumerate(chunks)}
        done: dict[int, list[R]] = {}
        finished = 0
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            for ref in ready:
                k = pending.pop(ref)
                done[k] = pickle.loads(ray.get(ref))
                finished += len(done[k])
                if progress:
                    progress(finished, len(tasks))
        return [r for k in range(len(chunks)) for r in done[k]]
    finally:
        if started:
            ray.shutdown()


class AgentMoveError(IllegalActionError):
    """An agent in the arena chose an action the game refuses: the message names the agent, its seat and the deal,
    for the one who wrote the agent to find it."""


def format_table(result: ArenaResult) -> str:
    """The arena's report as text."""
    lines = [f"{result.variant}, {result.players} players: {result.games} games "
             f"({len({d.deal for d in result.deals})} duplicate deals) in {result.wall_seconds:.1f} s"]
    for row in result.pair_table():
        lines.append(f"  score of {row['a']} against {row['b']}: {row['score']:.3f} over {row['games']} games "
                     f"(95% {row['low']:.3f}-{row['high']:.3f})")
    paired = result.paired()
    if paired:
        lines.append("  paired on the same deals (the first one's score minus the second's, each against the third):")
        for row in paired:
            lines.append(f"    score of {row['a']} - score of {row['b']}, against {row['opponent']}: "
                         f"{row['difference']:+.3f} (95% {row['low']:+.3f} to {row['high']:+.3f}) over {row['deals']}"
                         " deals")
    if len(result.agents) > 2:
        lines.append("  Elo (Bradley-Terry, 95% bootstrap):")
        width = max(12, *map(len, result.agents))  # the names' column as wide as the longest
        for a, (r, lo, hi) in sorted(result.ratings().items(), key=lambda kv: -kv[1][0]):
            lines.append(f"    {a:{width}} {r:7.0f}  ({lo:.0f} to {hi:.0f})")
    points = result.match_points()
    if points:
        lines.append(f"  {result.unit} per seat and hand: " + ", ".join(f"{a} {p:+.2f}" for a, p in points.items()))
    for a, ms in result.move_ms().items():
        lines.append(f"  {a}: {ms:.2f} ms a move")
    lines.append(f"  {result.games / result.wall_seconds:.1f} games/s" if result.wall_seconds else "")
    return "\n".join(lines)
