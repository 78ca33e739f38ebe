"""The compiled playout kernel (brisca.agents.kernel) against the Python rollout, move for move.

Skips without numba (the ``fast`` extra) unless BRISCA_REQUIRE_KERNEL=1, which makes it fail instead.
"""

from __future__ import annotations

import itertools
import math
import os
import random
from collections.abc import Iterator

import pytest

from brisca.actions import Signal
from brisca.agents import kernel
from brisca.agents.search import MIX_ONE, ExpertAgent, playout
from brisca.cards import Card
from brisca.game import Game
from brisca.rules import Rules, find_variant, variant_names
from brisca.worlds import sample_world

if not kernel.AVAILABLE:
    if os.environ.get("BRISCA_REQUIRE_KERNEL") == "1":
        pytest.fail(f"BRISCA_REQUIRE_KERNEL=1 but the kernel is unavailable: {kernel.MISSING}", pytrace=False)
    pytest.skip(f"the playout kernel needs numba (pip install 'brisca[fast]'): {kernel.MISSING}",
                allow_module_level=True)

#: Options the kernel covers (the plain fast path, ``kill_three`` and signals), each on top of the spanish preset.
OPTION_SETS: list[dict[str, object]] = [
    {"trump_exchange": "any_time"},
    {"trump_exchange": "before_penultimate"},
    {"exchange_chain": False},
    {"trump_exchange": "off"},
    {"last_trick_bonus": 10},
    {"pair_bonus": True},
    {"pair_bonus": True, "last_trick_bonus": 10, "tie": "most_cards"},
    {"tie": "most_cards"},
    {"hand_winner": "least"},
    {"trump_rotation": True},
    {"deck": 48},
    {"deck": 48, "trump_exchange": "any_time", "exchange_with": {"2": [1, 3, 12, 11, 10, 9, 8, 7]}},
    {"teams": False},
    {"hand_size": 4},
    {"rank_order": [3, 1, 12, 11, 10, 7, 6, 5, 4, 2], "points": {"1": 10, "3": 11, "2": 5}},
    {"open_hands": True},
    {"partners_look": True, "deal_look": True},
    {"kill_three": True},
    {"kill_three": True, "hand_winner": "least", "hand_size": 4},
    {"kill_three": True, "last_trick_bonus": 10, "pair_bonus": True, "tie": "most_cards"},
    {"kill_three": True, "trump_exchange": "any_time", "rank_order": [3, 1, 12, 11, 10, 7, 6, 5, 4, 2]},
    {"signals": "partner", "kill_three": True},
]


def covered_rules() -> list[tuple[str, Rules]]:
    out = [(name, find_variant(name)) for name in variant_names() if kernel.covers(find_variant(name))]
    base = find_variant("spanish")
    out += [(f"spanish{opts}", base.with_options(opts)) for opts in OPTION_SETS]
    return out


CASES = [(label, rules, n) for label, rules in covered_rules() for n in rules.player_counts]


def test_covers_the_plain_presets() -> None:
    covered = {name for name in variant_names() if kernel.covers(find_variant(name))}
    assert {"spanish", "briscola", "lombard", "tuscan", "mexican", "mariaje", "scoperta", "muerte-al-tres",
            "bixkla"} <= covered
    for name in variant_names():
        rules = find_variant(name)
        assert kernel.covers(rules) == ((rules.plain or name in ("muerte-al-tres", "bixkla")) and not rules.dealt_out)
    assert not kernel.covers(find_variant("spanish").with_options({"capote": True}))
    assert not kernel.covers(find_variant("spanish").with_options({"follow": "suit"}))
    assert not kernel.covers(find_variant("muerte-al-tres").with_options({"follow": "suit"}))
    assert not kernel.covers(find_variant("muerte-al-tres").with_options({"arrastro": True}))


def random_position(rules: Rules, n: int, rng: random.Random) -> Game:
    """A hand played some random way (exchanges included) to a random point short of its end."""
    game = Game(rules, n, seed=rng.randrange(1 << 30))
    total = len(rules.deck_cards(n))
    stop = rng.randrange(total)
    while not game.is_over() and len(game.history) < stop:
        legal = game.legal_actions()
        exchanges = [a for a in legal if a.__class__.__name__ == "Exchange"]
        game.apply(exchanges[0] if exchanges and rng.random() < 0.5 else rng.choice(legal))
    return game


def live_positions(rules: Rules, n: int, rng: random.Random, tries: int) -> Iterator[Game]:
    """``tries`` random positions (:func:`random_position`), those not over yet; drawn lazily, so a test that draws
    from ``rng`` between positions sees the same numbers as a loop that builds each in turn."""
    for _ in range(tries):
        game = random_position(rules, n, rng)
        if not game.is_over():
            yield game


def assert_same_playout(k: kernel.Kernel, game: Game, side: int, weight: float, greedy: tuple[int, ...],
                        mix: tuple[int, ...], seed: int, learned: bool = False) -> Game:
    """The kernel finishes ``game`` as the Python playout does (the same moves, points and value, exactly: the
    same arithmetic); the game Python finished."""
    value, points, moves = k.playout(game.clone(), side, weight, greedy, mix, seed, learned)
    py = game.clone()
    expected = playout(py, side, 0, weight, greedy, mix, seed, learned=learned)
    assert moves == [a for _s, a in py.history[len(game.history):]], f"moves differ in {game!r}"
    assert points == py.seat_points
    assert value == expected
    return py


@pytest.mark.parametrize("models", ["heuristic", "mixed", "wild", "learned"])
@pytest.mark.parametrize(("label", "rules", "n"), CASES, ids=[f"{c[0]}-{c[2]}p" for c in CASES])
def test_kernel_agrees_with_python_playout(label: str, rules: Rules, n: int, models: str) -> None:
    """Mixed: some seats (a random set each time) play the greedy rule, as seats the search has read as greedy.
    Wild: on top of that, seats make random moves some of the time (and one seat all of the time), from a seed.
    Learned: as wild, the policy's card choice the learned one (:mod:`brisca.agents.learned`)."""
    learned = models == "learned"
    rng = random.Random(f"{label}-{n}-{models}")
    k = kernel.Kernel(rules, n)
    checked = 0
    for game in live_positions(rules, n, rng, 80):
        side = rng.randrange(rules.sides(n))
        weight = rng.choice([1 / 600, 0.01, 0.37])
        greedy = tuple(s for s in range(n) if models != "heuristic" and rng.random() < 0.5)
        mix: tuple[int, ...] = ()
        seed = rng.randrange(1 << 40)
        if models in ("wild", "learned"):
            always = rng.randrange(n)
            mix = tuple(MIX_ONE if s == always else rng.choice([0, 0, 1, MIX_ONE // 3, MIX_ONE - 1])
                        for s in range(n))
        assert_same_playout(k, game, side, weight, greedy, mix, seed, learned)
        # Every candidate of the position at once, as the search calls it.
        candidates = [a for a in game.legal_actions() if not isinstance(a, Signal)]  # as the search takes them
        values, seat_points = k.evaluate([game], candidates, [side], weight, greedy, mix, [seed], learned=learned)
        for j, action in enumerate(candidates):
            g = game.clone()
            g.apply(action)
            assert values[0, j] == playout(g, side, 0, weight, greedy, mix, seed, learned=learned)
            assert tuple(seat_points[0, j]) == g.seat_points
        checked += 1
    assert checked >= 60


@pytest.mark.parametrize("variant", ["spanish", "mariaje", "mexican", "muerte-al-tres"])
@pytest.mark.parametrize("n", [2, 3, 4])
def test_kernel_agrees_on_sampled_worlds(variant: str, n: int) -> None:
    """The worlds the search really plays: sampled from a seat's view, batched many to a call."""
    rules = find_variant(variant)
    rng = random.Random(n)
    k = kernel.Kernel(rules, n)
    for game in live_positions(rules, n, rng, 15):
        view = game.view(game.turn)
        worlds = [sample_world(view, rng) for _ in range(4)]
        candidates = list(view.legal_actions)
        sides = [w.side_of(view.seat) for w in worlds]  # type: ignore[arg-type]
        values, _points = k.evaluate(worlds, candidates, sides, 0.01)
        for i, w in enumerate(worlds):
            for j, action in enumerate(candidates):
                g = w.clone()
                g.apply(action)
                assert values[i, j] == playout(g, sides[i], 0, 0.01)


@pytest.mark.parametrize("options", [{}, {"last_trick_bonus": 10, "pair_bonus": True, "tie": "most_cards"},
                                     {"hand_winner": "least"}, {"deck": 48}, {"kill_three": True},
                                     {"kill_three": True, "last_trick_bonus": 10, "pair_bonus": True}])
def test_kernel_values_the_endgame_exactly_as_python_does(options: dict[str, object]) -> None:
    """With ``endgame`` the two-player rollouts end in :func:`expect` once the stock is gone: the kernel's own
    expectation gives the same value to the last bit, the opponent greedy, random, partly random or minimising."""
    rules = find_variant("spanish").with_options(options)
    rng = random.Random(11)
    k = kernel.Kernel(rules, 2)
    checked = 0
    for trial in range(40):
        game = random_position(rules, 2, rng)
        if game.is_over():
            continue
        view = game.view(game.turn)
        seat = view.seat
        assert seat is not None
        worlds = [sample_world(view, rng) for _ in range(3)]
        candidates = list(view.legal_actions)
        greedy = (1 - seat,) if trial % 4 == 0 else ()
        mix = [(0, MIX_ONE, MIX_ONE // 3, 0)[trial % 4] if s != seat else 0 for s in range(2)]
        sides = [w.side_of(seat) for w in worlds]
        seeds = [rng.getrandbits(31) for _ in worlds]
        values, _points = k.evaluate(worlds, candidates, sides, 0.01, greedy, mix, seeds, endgame=True)
        for i, w in enumerate(worlds):
            for j, action in enumerate(candidates):
                g = w.clone()
                g.apply(action)
                assert values[i, j] == playout(g, sides[i], 0, 0.01, greedy, mix, seeds[i], endgame=True)
                checked += 1
    assert checked >= 60


def test_kernel_finishes_games_as_python_does() -> None:
    """``Kernel.finish`` (the tree search's leaves): each game as it stands, finished as ``playout`` would."""
    rules = find_variant("spanish")
    rng = random.Random(5)
    for n in (2, 4):
        k = kernel.Kernel(rules, n)
        for game in live_positions(rules, n, rng, 10):
            view = game.view(game.turn)
            worlds = [sample_world(view, rng) for _ in range(4)]
            sides = [w.side_of(view.seat) for w in worlds]  # type: ignore[arg-type]
            mix = [MIX_ONE // 2] * n
            seeds = [rng.getrandbits(31) for _ in worlds]
            values = k.finish(worlds, sides, 0.01, (), mix, seeds)
            assert values == [playout(w.clone(), s, 0, 0.01, (), mix, seed)
                              for w, s, seed in zip(worlds, sides, seeds, strict=True)]


@pytest.mark.parametrize("options", [{}, {"doubt": 0.5, "track": True}, {"search": "ismcts"}, {"endgame": True},
                                     {"rollout": "learned"}, {"rollout": "learned", "search": "ismcts"}])
def test_expert_plays_the_same_with_and_without_the_kernel(options: dict[str, object]) -> None:
    """With a fixed number of worlds the kernel only makes the search faster: the same moves (also when the
    opponent's type is drawn for each block of worlds and its hand dealt by the filter)."""
    for n in (2, 4):
        for seed in range(3):
            game = Game("spanish", n, seed=seed)
            fast = ExpertAgent(seed=seed, sims=12, **options)  # type: ignore[arg-type]
            slow = ExpertAgent(seed=seed, sims=12, kernel=False, **options)  # type: ignore[arg-type]
            while not game.is_over():
                view = game.view(game.turn)
                action = fast.act(view)
                assert slow.act(view) is action
                game.apply(action)


def test_kernel_off_switch(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = find_variant("spanish")
    assert kernel.kernel_for(rules, 2) is not None
    assert kernel.kernel_for(rules.with_options({"follow": "suit"}), 2) is None
    monkeypatch.setenv("BRISCA_KERNEL", "0")
    assert kernel.kernel_for(rules, 2) is None


def test_kernel_plays_the_kill_as_python_does() -> None:
    """Muerte al tres: playouts from random positions, 2 and 4 players, where the prisoner ace and the kill really
    happen (a good share of them end with the ace taking the three), all equal to the Python playout."""
    rules = find_variant("muerte-al-tres")
    rng = random.Random(1)
    kills = 0
    for n in (2, 4):
        k = kernel.Kernel(rules, n)
        for game in live_positions(rules, n, rng, 100):
            py = assert_same_playout(k, game, 0, 0.01, (), (), rng.getrandbits(31))
            result = py.result()
            assert result is not None
            kills += result.reason == "three-killed"
    assert kills >= 30


NEST_CASES = [(label, rules) for label, rules, n in CASES if n == 2]


def _arrays(k: kernel.Kernel, game: Game, learned: bool = False) -> tuple[object, ...]:
    return (k.cfg(game, learned), k.strength, k.points, k.xtable)


@pytest.mark.parametrize(("label", "rules"), NEST_CASES, ids=[c[0] for c in NEST_CASES])
def test_a_playout_stopped_at_the_next_choice_goes_on_as_before(label: str, rules: Rules) -> None:
    """The searched next choice (``nest``) stops a playout at the side's next choice and finishes it from there:
    stopped, written out and taken up again with the policy's own move, it ends exactly as the whole playout."""
    np = pytest.importorskip("numpy")
    k = kernel.Kernel(rules, 2)
    rng = random.Random(17)
    stops = 0
    for game in live_positions(rules, 2, rng, 40):
        side = game.turn
        row = np.array(k.encode(game), np.int64)
        greedy, mix = np.zeros(2, np.int64), np.zeros(2, np.int64)  # the heuristic everywhere: no random moves
        for action in game.legal_actions():
            if isinstance(action, Signal):
                continue
            code = kernel.action_code(action)
            whole = np.empty(2, np.int64)
            value = kernel._playout_one(*_arrays(k, game), row, code, side, 0.01, whole, np.empty(0, np.int64),
                                        greedy, mix, 0, k.learned_weights, 0, row, row)
            work = np.empty_like(row)
            opts = np.zeros(k.hmax + 3, np.int64)
            kernel._playout_one(*_arrays(k, game), row, code, side, 0.01, np.empty(2, np.int64),
                                np.empty(0, np.int64), greedy, mix, 0, k.learned_weights, 1, work, opts)
            if opts[0] == 0:
                continue  # the hand ended before the side had a choice
            stops += 1
            assert opts[1] in opts[2:2 + opts[0]]  # the policy's move is one of the legal moves written out
            points = np.empty(2, np.int64)
            again = kernel._playout_one(*_arrays(k, game), work, opts[1], side, 0.01, points, np.empty(0, np.int64),
                                        greedy, mix, 0, k.learned_weights, 0, work, work)
            assert (again, list(points)) == (value, list(whole)), label
    assert stops > 20


def test_the_searched_next_choice_never_sees_where_the_hidden_cards_lie() -> None:
    """The choice ``nest`` makes depends on the hidden cards (the other hand and the stock under the turned card) as a
    set: the same whichever way a world dealt them. Its value for a greedy-read opponent: the policy's (no search)."""
    np = pytest.importorskip("numpy")
    rules = find_variant("spanish")
    k = kernel.Kernel(rules, 2)
    rng = random.Random(3)
    searched = 0
    for game in live_positions(rules, 2, rng, 60):
        me, other = game.turn, 1 - game.turn
        row = np.array(k.encode(game), np.int64)
        base = 2 * k.hmax + 2  # the stock's first slot
        places = [other * k.hmax + i for i in range(len(game._hands[other]))]
        places += [base + i for i in range(1, row[base + k.smax])]
        moved = row.copy()
        cards = [int(row[p]) for p in places]
        rng.shuffle(cards)
        for p, c in zip(places, cards, strict=True):
            moved[p] = c
        mix = np.zeros(2, np.int64)
        mix[other] = MIX_ONE
        picks = []
        for r in (row, moved):
            opts = np.zeros(k.hmax + 3, np.int64)
            kernel._nested(*_arrays(k, game), r, kernel.NONE, me, 0.01, np.empty(2, np.int64), np.empty(0, np.int64),
                           np.zeros(2, np.int64), mix, 7, k.learned_weights, 8, np.empty_like(r), np.empty_like(r),
                           opts, np.empty(2, np.int64))
            picks.append(int(opts[1]) if opts[0] else None)
        assert picks[0] == picks[1]
        if picks[0] is not None:
            searched += 1
            assert kernel.code_action(picks[0]) in game.legal_actions()
        seeds = [5, 6]
        plain = k.finish([game, game], [me, me], 0.01, (other,), (), seeds)
        assert k.finish([game, game], [me, me], 0.01, (other,), (), seeds, nest=8) == plain
    assert searched > 20


def test_the_expert_searches_its_rollouts_next_choice_with_nest() -> None:
    """``expert[nest=K]`` (the experiment of docs/strength.md): legal moves, the same for a seed, its own values;
    it needs the kernel."""
    game = Game("spanish", 2, seed=11)
    nested, again, plain = (ExpertAgent(seed=4, sims=16, nest=8), ExpertAgent(seed=4, sims=16, nest=8),
                            ExpertAgent(seed=4, sims=16))
    differ = 0
    while not game.is_over():
        view = game.view(game.turn)
        action = nested.act(view)
        assert action in view.legal_actions and again.act(view) is action
        differ += plain.act(view) is not action
        game.apply(action)
    assert differ > 0  # the searched choices change some values enough to change a move
    with pytest.raises(ValueError, match="nest"):
        ExpertAgent(nest=8, kernel=False)
    with pytest.raises(ValueError, match="nest"):
        ExpertAgent(nest=-1)


TWO_PLAYER = [(label, rules) for label, rules, n in CASES if n == 2]


@pytest.mark.parametrize(("label", "rules"), TWO_PLAYER, ids=[c[0] for c in TWO_PLAYER])
def test_the_compiled_search_solves_as_python_does(label: str, rules: Rules) -> None:
    """``Kernel.solve``: with the stock's order known, every candidate's exact value as
    :func:`brisca.agents.exact.solve` gives it after the candidate, both sides at their best (the exchange, the
    draws, the prisoner ace and the kill, the bonuses and the ties), from a few cards left in the stock to the
    end."""
    from brisca.agents.exact import solve, team_of

    rng = random.Random(f"solve-{label}")
    k = kernel.Kernel(rules, 2)
    checked = 0
    for _ in range(40):
        game = Game(rules, 2, seed=rng.randrange(1 << 30))
        stop = rng.choice([0, 2, 4])
        while not game.is_over() and (game.stock_count > stop or rng.random() < 0.3):
            legal = game.legal_actions()
            exchanges = [a for a in legal if a.__class__.__name__ == "Exchange"]
            game.apply(exchanges[0] if exchanges and rng.random() < 0.5 else rng.choice(legal))
        if game.is_over():
            continue
        seat = game.turn
        assert seat is not None
        side = team_of(game, seat)
        candidates = [a for a in game.legal_actions() if not isinstance(a, Signal)]
        values, _nodes = k.solve([k.encode(game)], candidates, [side], game)
        for j, action in enumerate(candidates):
            child = game.clone()
            child.apply(action)
            assert values[0, j] == pytest.approx(solve(child, side), abs=1e-12), (label, action)
        checked += 1
    assert checked >= 25


def test_the_stock_is_searched_over_every_world_three_cards_from_its_end() -> None:
    """``stock_choice`` (``net[endgame=draw,hidden=3]``): three hidden cards left in the stock, the move best on
    average over every world the view allows (the opponent's hand and the stock's order: 120 worlds), each solved
    against the best defence by the Python solver, independently of the compiled one; none with more hidden
    cards, or with four players."""
    from brisca.agents.exact import solve
    from brisca.agents.kernel import stock_choice
    from brisca.worlds import WorldSampler

    checked = 0
    for seed in range(6):
        game = Game("briscola" if seed % 2 else "spanish", 2, seed=seed)
        rng = random.Random(seed)
        while game.stock_count > 6:
            game.apply(rng.choice(game.legal_actions()))
        assert stock_choice(game.view(game.turn), hidden=3) is None  # five hidden cards: not with hidden=3
        while game.stock_count > 4:
            game.apply(rng.choice(game.legal_actions()))
        if seed % 4 > 1:  # the opponent has led
            game.apply(rng.choice(game.legal_actions()))
        seat = game.turn
        assert seat is not None
        view = game.view(seat)
        unseen = list(view.unseen_cards())
        slots = view.hand_sizes[1 - seat] - sum(1 for s, _c in view.known if s == 1 - seat)
        sampler = WorldSampler(view)
        values = dict.fromkeys(game.legal_actions(), 0.0)
        worlds = 0
        for held in itertools.combinations(unseen, slots):
            base = sampler.draw(rng, 2, {1 - seat: list(held)})
            places = [i for i, a in enumerate(base._stock) if a.card not in held and a.card in unseen]
            assert len(places) == 3
            for order in itertools.permutations([base._stock[i] for i in places]):
                world = base.clone()
                for i, a in zip(places, order, strict=True):
                    world._stock[i] = a
                worlds += 1
                for action in values:
                    child = world.clone()
                    child.apply(action)
                    values[action] += solve(child, game.side_of(seat))
        assert worlds == math.comb(len(unseen), slots) * 6
        choice = stock_choice(view, hidden=3, worlds=worlds)
        assert choice is not None and math.isclose(values[choice], max(values.values())), (seed, choice, values)
        checked += len(set(values.values())) > 1
    assert checked >= 3
    four = Game("spanish", 4, seed=1)
    while four.stock_count > 4:
        four.apply(four.legal_actions()[0])
    assert stock_choice(four.view(four.turn)) is None


def test_the_expert_plays_the_network_then_solves_the_stock() -> None:
    """``expert[early=net,hidden=3]`` with two players: the network's move while more than three cards of the stock
    are hidden, from three on the move best over every world (``stock_choice``: 120 worlds, all of them, the
    network's move among equals); the options refuse what they cannot mean."""
    from brisca.agents import AgentError, make_agent
    from brisca.agents.exact import stock_hidden
    from brisca.agents.kernel import stock_choice
    from brisca.agents.net import load_net

    for seed, preset in ((3, "spanish"), (4, "briscola")):
        agent = make_agent("expert[net=on,early=net,hidden=3,sims=5]", seed=seed)
        shelf = load_net()
        assert shelf is not None
        net = shelf.pick(find_variant(preset), 2)
        assert net is not None
        game = Game(preset, 2, seed=seed)
        rng = random.Random(seed)
        solved = 0
        while game.stock_count > 2:
            seat = game.turn
            assert seat is not None
            view = game.view(seat)
            left = stock_hidden(view)
            assert left is not None
            if len(view.legal_actions) > 1:
                choice = agent.act(view)
                if left > 3:
                    assert choice == net.choose(view)
                else:
                    assert choice == stock_choice(view, 3, 200, prefer=net.choose(view))
                    solved += 1
            game.apply(rng.choice(game.legal_actions()))
        assert solved >= 1
    for bad in ("expert[early=tree]", "expert[hidden=0]", "expert[worlds=0]", "net[hidden=0]", "net[weigh=greedy]",
                "expert[weigh=heuristic]"):
        with pytest.raises(AgentError):
            make_agent(bad)


def test_the_stock_choice_weighs_the_opponents_hands_by_a_reader() -> None:
    """``stock_choice(..., reader=...)``: a reader that counts every world the same chooses as the uniform weighing
    does (every world solved: 120 at three hidden cards); one that believes only the opponent's true hand chooses
    the move best over the stock's orders with that hand, each solved by the Python solver."""
    import numpy as np

    from brisca.agents.exact import solve
    from brisca.agents.kernel import stock_choice
    from brisca.worlds import WorldSampler

    checked = 0
    for seed in range(6):
        game = Game("briscola" if seed % 2 else "spanish", 2, seed=seed + 20)
        rng = random.Random(seed)
        while game.stock_count > 4:
            game.apply(rng.choice(game.legal_actions()))
        seat = game.turn
        assert seat is not None
        view = game.view(seat)
        other = 1 - seat
        held = sorted(a.card for a in game._hands[other])
        unseen = list(view.unseen_cards())
        base = WorldSampler(view).draw(rng, 2, {other: held})
        places = [i for i, a in enumerate(base._stock) if a.card in unseen and a.card not in held]
        assert len(places) == 3
        values = dict.fromkeys(game.legal_actions(), 0.0)
        for order in itertools.permutations([base._stock[i] for i in places]):
            world = base.clone()
            for i, a in zip(places, order, strict=True):
                world._stock[i] = a
            for action in values:
                child = world.clone()
                child.apply(action)
                values[action] += solve(child, game.side_of(seat))

        def believer(_view: object, worlds: list[Game], other: int = other, held: list[Card] = held) -> object:
            return np.array([0.0 if sorted(a.card for a in w._hands[other]) == held else -60.0 for w in worlds])

        choice = stock_choice(view, hidden=3, reader=believer)
        assert choice is not None and math.isclose(values[choice], max(values.values())), (seed, choice, values)
        uniform = stock_choice(view, hidden=3, seed=seed)
        same = stock_choice(view, hidden=3, seed=seed, reader=lambda _v, worlds: np.zeros(len(worlds)))
        assert uniform == same
        checked += len(set(values.values())) > 1
    assert checked >= 3


def test_the_players_that_weigh_by_the_network_play_legal_moves_to_the_end() -> None:
    """``net[endgame=draw,weigh=net]`` (the stock's last trick weighed) and ``expert[...,hidden=3,weigh=net]`` play
    whole hands of both presets against each other."""
    from brisca.agents import make_agent

    for seed, preset in ((5, "spanish"), (6, "briscola")):
        agents = [make_agent("net[endgame=draw,weigh=net]", seed=seed),
                  make_agent("expert[net=on,early=net,hidden=3,weigh=net,sims=5]", seed=seed)]
        game = Game(preset, 2, seed=seed)
        while not game.is_over():
            seat = game.turn
            assert seat is not None
            action = agents[seat].act(game.view(seat))
            assert action in game.legal_actions()
            game.apply(action)


def test_the_network_reads_the_opponents_choices_world_by_world() -> None:
    """``Net.likelihoods``: in each world the log of the chance, the network's softmax with a share ``floor`` spread
    evenly, of every choice the opponent was seen to make, as the engine's own views give it; the last ``last``
    choices only where asked; with ``floor=1`` every world the same (uniform choices tell nothing)."""
    import numpy as np

    from brisca.agents.net import load_net
    from brisca.worlds import WorldSampler

    shelf = load_net()
    assert shelf is not None
    for seed, preset in ((1, "spanish"), (2, "briscola")):
        net = shelf.pick(find_variant(preset), 2)
        assert net is not None
        game = Game(preset, 2, seed=seed)
        while game.stock_count > 8:
            game.apply(net.choose(game.view(game.turn)))
        seat = game.turn
        assert seat is not None
        view = game.view(seat)
        rng = random.Random(seed)
        worlds = [WorldSampler(view).draw(rng, past=True) for _ in range(6)]
        for last in (None, 2):
            got = net.likelihoods(view, worlds, 0.25, last)
            for world, value in zip(worlds, got, strict=True):
                replay = Game(view.rules, 2, dealer=view.dealer, deck=list(world.deck))
                logs = []
                for s, action in view.history:
                    if s != seat:
                        theirs = replay.view(s)
                        logits, _value = net.evaluate(theirs)
                        p = np.exp(np.array(logits) - max(logits))
                        p /= p.sum()
                        logs.append(math.log(0.75 * p[theirs.legal_actions.index(action)] + 0.25 / len(logits)))
                    replay.apply(action, s)
                want = sum(logs if last is None else logs[-last:])
                assert math.isclose(value, want, abs_tol=1e-3), (seed, last, value, want)
        flat = net.likelihoods(view, worlds, 1.0)
        assert np.allclose(flat, flat[0]) and flat[0] < 0
