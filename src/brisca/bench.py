"""``brisca bench``: engine throughput, reported as ratios against a reference run in the same process.

Machines here are noisy, so absolute figures mean little; each measurement is
paired with the peer package ``naipes`` 0.1.0 (``pip install brisca[bench]``)
driven the same way, alternating rounds, and the ratio is what we track.

What "the same way" means: a fresh shuffled deal, then until the hand is over
ask for the legal moves and apply a uniformly random one (``random.Random``).
"""

from __future__ import annotations

import json
import random
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

from brisca.game import Game
from brisca.rules import find_variant

#: What the reference of the ratios is, in the report's words.
NAIPES = "naipes 0.1.0, another Python package that plays brisca"


def _timed(fn: Callable[[int], None], seconds: float) -> float:
    """Calls of ``fn(batch)`` per second, best of a few rounds of about ``seconds`` in all."""
    batch = 1
    while True:  # grow the batch until one call takes about a tenth of the time
        t = time.perf_counter()
        fn(batch)
        dt = time.perf_counter() - t
        if dt > seconds / 10 or batch > 1 << 22:
            break
        batch *= 2
    rounds = max(3, int(seconds / max(dt, 1e-9)))
    best = dt
    for _ in range(min(rounds, 10)):
        t = time.perf_counter()
        fn(batch)
        best = min(best, time.perf_counter() - t)
    return batch / best


def brisca_hands(players: int, seed: int = 1) -> Callable[[int], None]:
    """Random full hands through the public engine."""
    rules = find_variant("spanish")
    rng = random.Random(seed)
    choice = rng.choice

    def run(n: int) -> None:
        for _ in range(n):
            game = Game(rules, players, seed=rng)
            while not game.is_over():
                game.apply(choice(game.legal_actions()))

    return run


def naipes_hands(seed: int = 1) -> Callable[[int], None] | None:
    """Random full 2-player hands through naipes 0.1.0, or ``None`` when it is not installed."""
    try:
        from naipes.games.brisca import GameState  # type: ignore[import-not-found, import-untyped, unused-ignore]
    except ImportError:
        return None
    rng = random.Random(seed)
    counter = [seed]

    def run(n: int) -> None:
        for _ in range(n):
            counter[0] += 1
            state = GameState.new(counter[0])
            while not state.is_finished():
                player = state.leader if state.pending_leader_card is None else state.pending_leader.other()
                state.play_card(player, rng.randrange(len(state.hand_of(player))))

    return run


def paired_ratio(reference: Callable[[int], None], ours: Callable[[int], None], seconds: float) -> dict[str, Any]:
    """Alternate short rounds of the two and take the median of the per-round ratios.

    Pairing rounds a few milliseconds apart cancels most of the machine's load swings,
    which move both sides of a pair together.
    """
    def batch_for(fn: Callable[[int], None]) -> int:
        n = 1
        while True:
            t = time.perf_counter()
            fn(n)
            if time.perf_counter() - t > 0.02:
                return n
            n *= 2

    nr, no = batch_for(reference), batch_for(ours)
    ratios: list[float] = []
    ref_rates: list[float] = []
    our_rates: list[float] = []
    deadline = time.perf_counter() + seconds
    while len(ratios) < 5 or time.perf_counter() < deadline:
        t0 = time.perf_counter()
        reference(nr)
        t1 = time.perf_counter()
        ours(no)
        t2 = time.perf_counter()
        ref_rates.append(nr / (t1 - t0))
        our_rates.append(no / (t2 - t1))
        ratios.append(our_rates[-1] / ref_rates[-1])
    return {
        "naipes_hands_per_second": statistics.median(ref_rates),
        "brisca_2p_paired_hands_per_second": statistics.median(our_rates),
        "ratio_vs_naipes": statistics.median(ratios),
        "ratio_rounds": len(ratios),
        "ratio_quartiles": statistics.quantiles(ratios, n=4),
    }


def _repeat(fn: Callable[[], object]) -> Callable[[int], None]:
    def run(n: int) -> None:
        for _ in range(n):
            fn()

    return run


def _midgame(players: int, seed: int) -> Game:
    game = Game("spanish", players, seed=seed)
    rng = random.Random(seed)
    for _ in range(players * 3):
        game.apply(rng.choice(game.legal_actions()))
    return game


def measure(seconds: float = 1.0, players: Sequence[int] | None = None, seed: int = 1) -> dict[str, Any]:
    """Run every measurement; returns a JSON-ready dict."""
    counts = list(players or (2, 3, 4, 6))
    out: dict[str, Any] = {"seconds": seconds, "hands_per_second": {}, "ratio_vs_naipes": None}
    reference = naipes_hands(seed)
    if reference is not None:
        out.update(paired_ratio(reference, brisca_hands(2, seed), seconds))
    for n in counts:
        out["hands_per_second"][str(n)] = _timed(brisca_hands(n, seed), seconds)
    game = _midgame(2, seed)
    out["clone_us"] = 1e6 / _timed(_repeat(game.clone), seconds)
    out["legal_actions_us"] = 1e6 / _timed(_repeat(game.legal_actions), seconds)
    out["view_us"] = 1e6 / _timed(_repeat(lambda: game.view(game.turn)), seconds)
    return out


def run_bench(seconds: float = 1.0, players: Sequence[int] | None = None, as_json: bool = False, seed: int = 1) -> int:
    """Print the benchmark as a table (or JSON)."""
    res = measure(seconds, players, seed)
    if as_json:
        print(json.dumps(res, indent=1))
        return 0
    print("brisca bench: random playouts of the spanish preset through the public engine")
    print(f"  reference: {NAIPES}, driven the same way in the same process")
    for n, rate in res["hands_per_second"].items():
        print(f"  {n} players: {rate:10,.0f} hands/s")
    print(f"  clone:          {res['clone_us']:6.2f} us   (2 players, mid-hand)")
    print(f"  legal_actions:  {res['legal_actions_us']:6.2f} us")
    print(f"  view:           {res['view_us']:6.2f} us")
    if res["ratio_vs_naipes"] is None:
        print("  naipes not installed (pip install 'brisca[bench]'): no reference ratio")
    else:
        print(
            f"  vs naipes 0.1.0, 2 players, same process: {res['brisca_2p_paired_hands_per_second']:,.0f}"
            f" / {res['naipes_hands_per_second']:,.0f} hands/s = {res['ratio_vs_naipes']:.2f}x"
            f" (median of {res['ratio_rounds']} paired rounds; quartiles "
            f"{res['ratio_quartiles'][0]:.2f}-{res['ratio_quartiles'][2]:.2f})"
        )
    return 0
