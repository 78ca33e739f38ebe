"""The AI players: exact endgames against brute force, legal moves everywhere, determinism, time, strength."""

from __future__ import annotations

import math
import random
from collections.abc import Callable

import pytest

from brisca import Card, Game, View
from brisca.actions import Signal
from brisca.agents import LEVELS, AgentError, ExpertAgent, GreedyAgent, HeuristicAgent, NetAgent, make_agent
from brisca.agents.search import best_exact, exact_choice, expect, margin, outcome, solve
from brisca.arena import run_arena
from brisca.rules import find_variant, variant_names


def brute(game: Game, side: int, value: Callable[[Game, int], float] = margin) -> float:
    """Minimax over every line, no pruning: the oracle the solver is checked against (``value`` scores a
    finished hand)."""
    if game.is_over():
        return value(game, side)
    values = []
    for action in game.legal_actions():
        if isinstance(action, Signal):
            continue
        child = game.clone()
        child.apply(action)
        values.append(brute(child, side, value))
    mine = game.side_of(game.turn) == side  # type: ignore[arg-type]
    return max(values) if mine else min(values)


def _endgame(players: int, seed: int, options: dict[str, object] | None = None) -> Game | None:
    """A random position with the stock gone (and, for more than 2 players, few cards left)."""
    game = Game("spanish", players, seed=seed, options=options)
    rng = random.Random(seed)
    limit = {2: 6, 3: 6, 4: 8}[players]
    while not game.is_over() and (game.stock_count or sum(len(game.hand(s)) for s in range(players)) > limit):
        game.apply(rng.choice(game.legal_actions()))
    return None if game.is_over() else game


def _two_player_endgames(count: int) -> list[tuple[Game, int]]:
    """Two-player positions with the stock gone (from the first ``count`` seeds), each with the seat to move."""
    out = []
    for seed in range(count):
        game = _endgame(2, seed)
        if game is not None and game.turn is not None:
            out.append((game, game.turn))
    return out


@pytest.mark.parametrize("players", [2, 3, 4])
def test_solver_matches_brute_force(players: int) -> None:
    checked = 0
    for seed in range(25):
        game = _endgame(players, seed)
        if game is None:
            continue
        assert_exact(game)
        checked += 1
    assert checked >= 15


def assert_exact(game: Game, value: Callable[[Game, int], float] = margin) -> None:
    """The solver's value, and the value of the move :func:`best_exact` picks, equal brute force's (each
    finished hand scored by ``value``)."""
    assert game.turn is not None
    side = game.side_of(game.turn)
    assert math.isclose(solve(game, side), brute(game, side, value))
    action, best = best_exact(game, game.turn)
    child = game.clone()
    child.apply(action)
    assert math.isclose(brute(child, side, value), brute(game, side, value))
    assert math.isclose(best, brute(game, side, value))


def test_solver_with_duties_of_play() -> None:
    for seed in range(15):
        game = _endgame(2, seed, {"follow": "suit_beat_trump"})
        if game is None:
            continue
        side = game.side_of(game.turn)  # type: ignore[arg-type]
        assert math.isclose(solve(game, side), brute(game, side))


def test_two_player_endgames_are_played_exactly() -> None:
    """With the stock gone two players see everything: the expert's move is optimal, whatever its seed."""
    checked = 0
    for seed, (game, seat) in enumerate(_two_player_endgames(40)):
        side = game.side_of(seat)
        best = brute(game, side)
        values = {}
        for a in game.legal_actions():
            child = game.clone()
            child.apply(a)
            values[a] = brute(child, side)
        if len(set(values.values())) == 1:
            continue  # every move is as good: nothing to check
        choice = HeuristicAgent().act(game.view(seat))
        assert math.isclose(values[choice], best), (seed, choice, values)
        exact = exact_choice(game.view(seat))
        assert exact is not None and math.isclose(values[exact], best)
        # The expert plays for its opponent's expected mistakes, but only among the moves that end as well
        # (won, drawn or lost) as the best against any defence.
        choice = ExpertAgent(seed=seed, sims=5).act(game.view(seat))
        assert outcome(values[choice]) == outcome(best), (seed, choice, values)
        checked += 1
    assert checked >= 10


def _expectimax(game: Game, side: int, best: bool = False) -> float:
    """The value when every other side plays uniformly random card plays (``best``: the best defence), with no
    pruning: the oracle for :func:`expect` with a wild opponent (and for the solver)."""
    if game.is_over():
        return margin(game, side)
    values = []
    for action in game.legal_actions():
        child = game.clone()
        child.apply(action)
        values.append(_expectimax(child, side, best))
    if game.side_of(game.turn) == side:  # type: ignore[arg-type]
        return max(values)
    return min(values) if best else sum(values) / len(values)


def test_the_endgame_against_models_of_play() -> None:
    """:func:`expect` is minimax with no model, the chance average against a random player, and follows a greedy
    player's own moves; its mixtures weigh the two."""
    checked = 0
    for game, seat in _two_player_endgames(30):
        side, other = game.side_of(seat), 1 - seat
        assert math.isclose(expect(game, side), brute(game, side))
        chance = _expectimax(game, side)
        assert math.isclose(expect(game, side, wild={other: 1.0}), chance)
        mixed = expect(game, side, wild={other: 0.25})
        assert brute(game, side) - 1e-9 <= mixed <= chance + 1e-9
        follow = game.clone()  # the greedy player's moves, from its own agent and view; ours by minimax
        greedy = GreedyAgent()
        while not follow.is_over():
            turn = follow.turn
            assert turn is not None
            follow.apply(greedy.act(follow.view(turn)) if turn == other else best_exact(follow, turn, [other])[0])
        assert math.isclose(expect(game, side, [other]), margin(follow, side))
        checked += 1
    assert checked >= 15


def _at_the_last_draw(preset: str, seed: int, before: Callable[[View], object] | None = None
                      ) -> tuple[Game, View, dict[frozenset[Card], Game]]:
    """A random 2-player hand played to the stock's last trick (one hidden card left in it; with an odd seed the
    opponent has led), the view of the seat to act, and every world that view allows (sampled until none is new),
    keyed by the opponent's hand. ``before``, if given, must answer ``None`` two tricks earlier."""
    from brisca.worlds import sample_world

    game = Game(preset, 2, seed=seed)
    rng = random.Random(seed)
    while game.stock_count > 4:
        game.apply(rng.choice(game.legal_actions()))
    if before is not None:
        assert before(game.view(game.turn)) is None
    while game.stock_count > 2:
        game.apply(rng.choice(game.legal_actions()))
    if seed % 2:
        game.apply(rng.choice(game.legal_actions()))
    seat = game.turn
    assert seat is not None
    view = game.view(seat)
    worlds = {}
    for _ in range(120):
        world = sample_world(view, rng)
        worlds[frozenset(world.hand(1 - seat))] = world
    return game, view, worlds


def test_the_last_draw_is_searched_over_every_world() -> None:
    """One hidden card left in the stock: the expert's move is the best on average over every world its view
    allows (found here by sampling worlds until no new one turns up), each played to the end against a random
    opponent by an independent expectimax."""
    checked = 0
    for seed in range(40):
        game, view, worlds = _at_the_last_draw("spanish", seed)
        seat = view.seat
        assert seat is not None
        assert len(worlds) == len(view.unseen_cards())  # one card of them in the stock, the rest in the hand
        side = game.side_of(seat)
        values = {}
        for action in game.legal_actions():
            total = 0.0
            for world in worlds.values():
                child = world.clone()
                child.apply(action)
                total += _expectimax(child, side)
            values[action] = total / len(worlds)
        agent = ExpertAgent(seed=seed, sims=5, read="off", weight=1 / 600)
        choice = agent.act(view)
        assert agent.last_worlds == len(worlds)
        assert math.isclose(values[choice], max(values.values())), (seed, choice, values)
        checked += len(set(values.values())) > 1
    assert checked >= 20


def test_hard_solves_the_last_draw_over_every_world() -> None:
    """``last_draw_choice`` (``net[endgame=draw]``): one hidden card left in the stock, the move best on average
    over every world the view allows, each solved against the best defence by an independent brute force; no
    choice before that (two hidden cards in the stock) or with four players."""
    from brisca.agents.exact import last_draw_choice

    checked = 0
    for seed in range(30):
        game, view, worlds = _at_the_last_draw("briscola" if seed % 3 else "spanish", seed, last_draw_choice)
        seat = view.seat
        assert seat is not None
        values = {}
        for action in game.legal_actions():
            values[action] = 0.0
            for world in worlds.values():
                child = world.clone()
                child.apply(action)
                values[action] += _expectimax(child, game.side_of(seat), best=True)
        choice = last_draw_choice(view)
        assert choice is not None and math.isclose(values[choice], max(values.values())), (seed, choice, values)
        checked += len(set(values.values())) > 1
    assert checked >= 10
    four = Game("spanish", 4, seed=1)
    while four.stock_count > 4:
        four.apply(four.legal_actions()[0])
    assert last_draw_choice(four.view(four.turn)) is None
    assert isinstance(make_agent("net[endgame=draw]"), NetAgent)


class Ticks:
    """A clock for the agents' time budgets that moves ``step`` seconds each time it is read, and never otherwise:
    a search's time is then the count of its reads, the same on any machine (``step=0``: it stands still, and no
    budget ever runs out)."""

    def __init__(self, step: float) -> None:
        self.step = step
        self.now = 0.0
        self.reads = 0

    def __call__(self) -> float:
        self.reads += 1
        now = self.now
        self.now += self.step
        return now


def test_the_last_draw_keeps_to_the_time_budget() -> None:
    """The exact search of the last trick of the stock gives up past the budget: the move still comes, from the
    fewest worlds the sampled-world search answers with."""
    game = Game("spanish", 2, seed=5)
    rng = random.Random(5)
    while game.stock_count > 2:
        game.apply(rng.choice(game.legal_actions()))
    view = game.view(game.turn)
    hurried = ExpertAgent(seed=0, think=0.001, clock=Ticks(1.0))  # the budget spent at the first look
    assert hurried.act(view) in view.legal_actions
    assert 1 <= hurried.last_worlds < len(view.unseen_cards())
    patient = ExpertAgent(seed=0, think=0.001, clock=Ticks(0.0))
    patient.act(view)
    assert patient.last_worlds == len(view.unseen_cards())  # with time to spare it searched every world


def test_lost_endgames_are_played_for_the_greedy_players_mistakes() -> None:
    """Against a greedy player the expert's endgame never ends worse than the best defence allows, and wins more
    than minimax play does."""
    better = 0.0
    for game, seat in _two_player_endgames(120):
        ends = []
        for greedy in ((), (1 - seat,)):
            g = game.clone()
            while not g.is_over():
                turn = g.turn
                assert turn is not None
                g.apply(GreedyAgent().act(g.view(turn)) if turn != seat else best_exact(g, turn, greedy)[0])
            ends.append(outcome(margin(g, g.side_of(seat))))
        assert ends[1] >= outcome(solve(game, game.side_of(seat))), game  # never below what any defence allows
        better += ends[1] - ends[0]
    assert better >= 1


def _positions(variant: str, players: int, count: int, moves: int = 40, first: int = 0) -> list[Game]:
    """Positions after fewer than ``moves`` random moves from the seeds ``first`` to ``count`` (those not over)."""
    out = []
    for seed in range(first, count):
        game = Game(variant, players, seed=seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(0, moves)):
            if game.is_over():
                break
            game.apply(rng.choice(game.legal_actions()))
        if not game.is_over():
            out.append(game)
    return out


CONFIGS = [(v, n) for v in variant_names() for n in find_variant(v).player_counts]


def _only_legal_actions(variant: str, players: int, seeds: range) -> None:
    agents = [make_agent(name, seed=1) for name in ("random", "greedy", "heuristic", "heuristic[policy=learned]")]
    agents.append(ExpertAgent(seed=1, sims=2))
    agents.append(ExpertAgent(seed=1, sims=2, rollout="learned"))
    for game in _positions(variant, players, seeds.stop, first=seeds.start):
        seat = game.turn
        assert seat is not None
        view = game.view(seat)
        for agent in agents:
            action = agent.act(view)
            assert action in game.legal_actions(), (type(agent).__name__, action)


@pytest.mark.parametrize(("variant", "players"), CONFIGS)
def test_agents_only_return_legal_actions(variant: str, players: int) -> None:
    _only_legal_actions(variant, players, range(0, 6))


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "players"), CONFIGS)
def test_agents_only_return_legal_actions_in_more_positions(variant: str, players: int) -> None:
    _only_legal_actions(variant, players, range(6, 30))


def test_agents_finish_games_under_every_option() -> None:
    options = {"follow": "suit_beat_trump", "arrastro": True, "claim": True, "signals": "partner", "kill_three": True}
    for seed in range(4):
        game = Game("spanish", 4, seed=seed, options=options)
        agents = [HeuristicAgent(), ExpertAgent(seed=seed, sims=2), make_agent("greedy"), make_agent("random", 3)]
        while not game.is_over():
            seat = game.turn
            assert seat is not None
            action = agents[seat].act(game.view(seat))
            game.apply(action)
        assert game.result() is not None


def test_expert_is_deterministic_for_a_seed() -> None:
    game = _positions("spanish", 2, 3)[1]
    view = game.view(game.turn)
    moves = {ExpertAgent(seed=4, sims=30).act(view) for _ in range(3)}
    assert len(moves) == 1


@pytest.mark.parametrize("search", ["pimc", "ismcts"])
def test_expert_honours_its_time_budget(search: str) -> None:
    """Only the deadline stops it here (no cap, never sure): it searches until its clock reaches the budget, and
    reads the clock once or twice more at most on its way out."""
    game = Game("spanish", 2, seed=2)
    clock = Ticks(0.01)
    agent = ExpertAgent(seed=0, think=0.25, sure=0, cap=10**9, search=search, clock=clock)
    agent.act(game.view(game.turn))
    assert 0.25 <= clock.now - clock.step <= 0.25 + 3 * clock.step, clock.now  # the last time read
    assert agent.last_worlds > 5


def test_expert_stops_early_once_its_choice_is_settled() -> None:
    """A budget is an upper bound: a clear choice (or the cap of worlds) ends the search sooner. The clock stands
    still, so that only the cap or a settled choice can end it."""
    game = Game("spanish", 2, seed=2)
    capped = ExpertAgent(seed=0, think=3.0, cap=100, clock=Ticks(0.0))
    capped.act(game.view(game.turn))
    assert 100 <= capped.last_worlds < 100 + 8  # the cap is checked after each batch of worlds
    clock = Ticks(0.001)  # one read a world: 3,000 worlds at most
    settled = ExpertAgent(seed=0, think=3.0, sure=0.5, cap=10**9, clock=clock)
    clear = Game("spanish", 2, seed=0)  # a first move the search tells apart within a few hundred worlds
    settled.act(clear.view(clear.turn))
    assert settled.last_worlds > 0 and clock.now < 3.0  # neither the clock nor the cap: the settled choice ended it
    with pytest.raises(ValueError, match="clock is a function"):
        ExpertAgent(clock="fast")  # type: ignore[arg-type]
    with pytest.raises(AgentError, match="clock is a function"):
        make_agent("expert[clock=fast]")


def test_levels_plugins_and_options() -> None:
    assert set(LEVELS) == {"easy", "normal", "hard", "expert", "hard-v1", "expert-v1"}
    hard = make_agent("hard-v1")
    assert isinstance(hard, HeuristicAgent) and hard.policy == "learned"
    assert isinstance(make_agent("hard"), NetAgent)  # the network; hard-v1 where it does not cover the game
    rules = make_agent("hard-v1[policy=rules]")  # a level's options, those given on top
    assert isinstance(rules, HeuristicAgent) and rules.policy == "rules"
    assert isinstance(make_agent("brisca.agents.search:ExpertAgent"), ExpertAgent)
    agent = make_agent("expert[sims=12,think=0.1]")
    assert isinstance(agent, ExpertAgent) and agent.sims == 12 and agent.think == 0.1
    from brisca.agents import AgentError

    for bad in ("expert[sims]", "greedy[depth=3]", "nosuch", "nosuch.module:Thing"):
        with pytest.raises(AgentError):
            make_agent(bad)


@pytest.mark.slow
def test_strength_smoke() -> None:
    """Loose bounds on small duplicate runs (the full measurements are benchmarks, in docs/strength.md)."""
    row = run_arena(["heuristic", "greedy"], games=150, seed=3).pair_table()[0]
    assert row["a"] == "heuristic" and row["score"] >= 0.57, row
    row = run_arena(["expert[sims=8]", "random"], games=12, seed=3).pair_table()[0]
    assert row["a"] == "expert[sims=8]" and row["score"] >= 0.7, row


def test_inference_weighs_worlds_by_how_well_they_explain_the_plays() -> None:
    from brisca.agents.search import rollout_action, world_likelihood
    from brisca.worlds import sample_world

    rng = random.Random(3)
    lower = 0
    for seed in range(20):
        game = Game("spanish", 2, seed=seed)
        # Seat 1 plays as the model says; seat 0 at random.
        for _ in range(14):
            action = rollout_action(game) if game.turn == 1 else rng.choice(game.legal_actions())
            game.apply(action)
        assert world_likelihood(game, 0, 0.3) == 1.0  # the true deal explains every play
        weights = [world_likelihood(sample_world(game.view(0), rng), 0, 0.3) for _ in range(10)]
        assert all(0 < w <= 1 for w in weights)
        lower += sum(w < 1 for w in weights)
    assert lower > 0  # some sampled worlds hold cards the model would have played otherwise


@pytest.mark.slow
def test_strength_smoke_against_greedy() -> None:
    """The expert reads the greedy player and expects its rule: it should beat it clearly even with few worlds."""
    # 120 games: 0.692 with the reading, 0.471 without it (``expert-v1[sims=20,read=off]``, the same deals). The
    # fixed level: ``expert`` adds the network's values where numpy is installed.
    row = run_arena(["expert-v1[sims=20]", "greedy"], games=60, seed=5, jobs=2).pair_table()[0]
    assert row["a"] == "expert-v1[sims=20]" and row["score"] >= 0.65, row


def test_expert_options_refuse_bad_values_clearly() -> None:
    from brisca.agents import AgentError

    for bad, message in (("expert[predict=maybe]", "predict is on or off"),
                         ("expert[kernel=fast]", "kernel is on or off"),
                         ("expert[cap=x]", "cap is a number"), ("expert[sure=abc]", "sure is a number"),
                         ("expert[wild=2]", "wild is a share from 0 to 1"), ("expert[wild=x]", "wild is a number"),
                         ("expert[doubt=1]", "doubt is a chance from 0 to below 1"),
                         ("expert[doubt=x]", "doubt is a number"),
                         ("expert[skilled=1]", "skilled is a chance from 0 to below 1"),
                         ("expert[skilled=-0.1]", "skilled is a chance from 0 to below 1"),
                         ("expert[skilled=x]", "skilled is a number"),
                         ("expert[endgame=exact]", "endgame is on or off")):
        with pytest.raises(AgentError, match=message):
            make_agent(bad)
    assert make_agent("expert[predict=off,kernel=0]").predict is False  # type: ignore[attr-defined]


def test_rollouts_expect_random_moves_from_the_opponents_no_model_reads() -> None:
    """``wild``: the opponents the reading could not explain make random moves in the rollouts; partners, seats
    read as greedy and seats not yet read keep their models."""
    from brisca.agents.search import MIX_ONE

    view = Game("spanish", 2, seed=1).view(0)
    agent = ExpertAgent(sims=10)
    assert agent.wild == 1.0
    assert agent._mix(view, []) == (0, MIX_ONE)
    assert agent._mix(view, [1]) == ()
    assert ExpertAgent(sims=10, wild=0.25)._mix(view, []) == (0, MIX_ONE // 4)
    assert ExpertAgent(sims=10, wild=0)._mix(view, []) == ()
    four = Game("spanish", 4, seed=1).view(0)  # seat 2 is seat 0's partner
    assert agent._mix(four, [3]) == (0, MIX_ONE, 0, 0)


def test_an_unread_opponent_is_weighed_between_random_and_skilled_play() -> None:
    """``skilled``: an opponent the greedy reading drops makes random moves in the rollouts in proportion to the
    posterior chance that it plays at random rather than like the heuristic: high for a random player once it
    has played a while, low for the heuristic; with ``skilled=0`` all random (as before), never for partners."""
    from brisca.agents.search import MIX_ONE

    shares: dict[str, list[int]] = {"random": [], "heuristic": []}
    for opponent, got in shares.items():
        for seed in range(6):
            game = Game("spanish", 2, seed=seed)
            agents = [make_agent("heuristic"), make_agent(opponent, seed=seed)]
            while game.stock_count > 8 or game.turn != 0:
                seat = game.turn
                assert seat is not None
                game.apply(agents[seat].act(game.view(seat)))
            view = game.view(0)
            agent = ExpertAgent(sims=10, skilled=0.5)
            agent._randomness = agent._random_chances(view)
            got.append(agent._mix(view, [])[1])
            assert ExpertAgent(sims=10).skilled == 0.5  # the default
            plain = ExpertAgent(sims=10, skilled=0)
            plain._randomness = plain._random_chances(view)
            assert plain._randomness == {} and plain._mix(view, []) == (0, MIX_ONE)
            off = ExpertAgent(sims=10, skilled=0.5, wild=0)
            assert off._random_chances(view) == {} and off._mix(view, []) == ()
    assert sum(shares["random"]) / 6 > 0.8 * MIX_ONE, shares
    assert sum(shares["heuristic"]) / 6 < 0.4 * MIX_ONE, shares
    assert min(shares["random"]) > max(shares["heuristic"]), shares
    four = Game("spanish", 4, seed=1)
    for _ in range(8):
        four.apply(make_agent("random", seed=1).act(four.view(four.turn)))  # type: ignore[arg-type]
    assert set(ExpertAgent(sims=10, skilled=0.5)._random_chances(four.view(0))) == {1, 3}  # opponents only


def test_a_seat_read_as_greedy_is_doubted_by_the_evidence_of_its_plays() -> None:
    """``doubt``: each opponent still read as greedy is taken as random with the posterior chance that it is, which
    falls as its plays keep fitting the greedy rule better than random ones would; partners are never doubted."""
    game = Game("spanish", 2, seed=3)
    bots = [make_agent("heuristic", seed=1), make_agent("greedy", seed=2)]
    chances = []
    while len(game.history) < 24:
        seat = game.turn
        if seat == 0 and any(s == 1 for s, _a in game.history):
            chances.append(ExpertAgent(sims=10, doubt=0.3)._doubts(game.view(0), [1])[1])
        game.apply(bots[seat].act(game.view(seat)))  # type: ignore[index]
    assert all(0 < c < 1 for c in chances)
    assert chances[-1] < 0.05 < chances[0]  # a greedy player's plays convince
    view = game.view(0)
    assert ExpertAgent(sims=10, doubt=0)._doubts(view, [1]) == {}
    assert ExpertAgent(sims=10)._doubts(view, [1]) == {}  # off by default
    assert ExpertAgent(sims=10, doubt=0.3, wild=0)._doubts(view, [1]) == {}
    low = ExpertAgent(sims=10, doubt=0.1)._doubts(view, [1])[1]
    assert low < ExpertAgent(sims=10, doubt=0.9)._doubts(view, [1])[1]
    four = Game("spanish", 4, seed=1)
    while len(four.history) < 6:
        four.apply(four.legal_actions()[0])
    assert ExpertAgent(sims=10, doubt=0.3)._doubts(four.view(0), [1, 3]) == {}  # two players only: the filter is exact


def test_a_wild_seat_plays_uniformly_at_random_in_the_rollouts() -> None:
    """A seat with a share of 1 plays each legal card about equally often (the first card it plays, over many
    seeds); the other seats' moves and a share of 0 leave the rollout as it was."""
    from collections import Counter

    from brisca.agents.search import MIX_ONE, playout

    game = Game("spanish", 2, seed=7)
    plain = game.clone()
    value = playout(plain, 0, 0, 0.01)
    same = game.clone()
    assert playout(same, 0, 0, 0.01, (), (0, 0), 99) == value and same.history == plain.history
    turn = game.turn
    firsts: Counter[str] = Counter()
    for seed in range(600):
        g = game.clone()
        mix = tuple(MIX_ONE if s == turn else 0 for s in range(2))
        playout(g, 0, 0, 0.01, (), mix, seed)
        firsts[str(g.history[0][1])] += 1
        assert g.is_over()
    assert len(firsts) == len(game.legal_actions())
    assert all(150 <= count <= 250 for count in firsts.values()), firsts
