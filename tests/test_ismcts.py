"""The information-set tree search (``expert[search=ismcts]``): legal everywhere, seeded, and the same judgment
as the sampled-world search where the choice is clear (its time budget: tests/test_search.py)."""

from __future__ import annotations

import random

import pytest

from brisca import Game
from brisca.agents import AgentError, ExpertAgent, make_agent
from brisca.agents.ismcts import tree_search
from brisca.agents.search import playout
from brisca.worlds import WorldSampler
from test_search import CONFIGS, _positions


@pytest.mark.parametrize(("variant", "players"), CONFIGS)
def test_the_tree_search_only_returns_legal_actions(variant: str, players: int) -> None:
    agent = ExpertAgent(seed=1, sims=3, search="ismcts")
    for game in _positions(variant, players, 12):
        seat = game.turn
        assert seat is not None
        action = agent.act(game.view(seat))
        assert action in game.legal_actions(), action


def test_the_tree_search_finishes_games_of_four_with_every_option() -> None:
    options = {"follow": "suit_beat_trump", "arrastro": True, "claim": True, "signals": "partner", "kill_three": True}
    for seed in range(3):
        game = Game("spanish", 4, seed=seed, options=options)
        agents = [ExpertAgent(seed=seed, sims=4, search="ismcts"), make_agent("greedy"),
                  ExpertAgent(seed=seed, sims=4, search="ismcts", kernel=False), make_agent("random", 3)]
        while not game.is_over():
            seat = game.turn
            assert seat is not None
            game.apply(agents[seat].act(game.view(seat)))
        assert game.result() is not None


def test_one_iteration_a_candidate_is_one_rollout_each() -> None:
    """With one world and as many iterations as candidates, each candidate is tried once at the root, and its value
    is the rollout policy's finish of that world: the tree search starts where the sampled-world search does."""
    for seed in range(6):
        game = _positions("spanish", 2, 6, moves=12)[seed]
        seat = game.turn
        assert seat is not None
        view = game.view(seat)
        world = WorldSampler(view).draw(random.Random(seed))
        candidates = list(view.legal_actions)
        greedy = (1 - seat,)  # deterministic rollouts: the other seat plays the greedy rule
        visits, means = tree_search(world.clone, seat, candidates, random.Random(0), len(candidates),
                                    greedy=greedy)
        assert visits == [1] * len(candidates)
        for action, mean in zip(candidates, means, strict=True):
            child = world.clone()
            child.apply(action)
            assert mean == pytest.approx(playout(child, seat, 0, 0.01, greedy))


@pytest.mark.slow  # 200 worlds played out for each move of 80 positions, then the tree search
def test_the_tree_search_agrees_with_the_sampled_worlds_where_the_choice_is_clear() -> None:
    """Where the sampled-world search, over many worlds, puts one move far ahead, the tree search picks it too."""
    checked = agreed = 0
    for game in _positions("spanish", 2, 80, moves=16):
        seat = game.turn
        assert seat is not None
        view = game.view(seat)
        if len(view.legal_actions) < 2 or not game.stock_count:
            continue
        sampler = WorldSampler(view)
        rng = random.Random(1)
        worlds = [sampler.draw(rng) for _ in range(200)]
        values = []
        for action in view.legal_actions:
            total = 0.0
            for w in worlds:
                child = w.clone()
                child.apply(action)
                total += playout(child, seat, 0, 0.01, (), (0, 32768) if seat == 0 else (32768, 0), 7)
            values.append(total / len(worlds))
        ranked = sorted(values, reverse=True)
        if ranked[0] - ranked[1] < 0.2:
            continue
        checked += 1
        move = ExpertAgent(seed=2, sims=300, search="ismcts", skilled=0).act(view)
        agreed += move == view.legal_actions[values.index(ranked[0])]
    assert checked >= 5
    assert agreed == checked


def test_the_tree_search_is_deterministic_for_a_seed() -> None:
    game = _positions("spanish", 2, 4)[2]
    view = game.view(game.turn)
    moves = {ExpertAgent(seed=4, sims=30, search="ismcts").act(view) for _ in range(3)}
    assert len(moves) == 1


def test_search_options_refuse_bad_values_clearly() -> None:
    for bad, message in (("expert[search=mcts]", "search is pimc or ismcts"),
                         ("expert[search=ismcts,explore=-1]", "explore is 0 or more"),
                         ("expert[widen=0]", "widen above 0"), ("expert[explore=x]", "explore is a number")):
        with pytest.raises(AgentError, match=message):
            make_agent(bad)
    agent = make_agent("expert[search=ismcts,explore=0.3,widen=2]")
    assert isinstance(agent, ExpertAgent) and (agent.search, agent.explore, agent.widen) == ("ismcts", 0.3, 2.0)
