"""The built-in players: both always return a legal action; greedy follows its written definition.

Greedy, as defined: following, the lowest-ranked card that wins the trick without a
trump; else, if the trick holds 10 points or more, the lowest trump that wins it;
else the lowest non-trump, else the lowest trump.  Leading, the lowest non-trump
worth nothing, else the lowest non-trump, else the lowest trump.  Ties go to the
card held longest.  It always takes the trump exchange when it may.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from brisca import Announce, Card, Exchange, Game, IllegalActionError, Play, Suit, View
from brisca.agents import AgentError, GreedyAgent, RandomAgent, make_agent
from brisca.agents.base import Agent
from reference import build_deck

C = Card.parse


def position(hand: str, trick: str = "", trump: str = "O", players: int = 2, deck: int = 40,
             exchange: str | None = None) -> View:
    """A view of a seat to act holding ``hand`` (in the order held) with ``trick`` on the table."""
    game = Game("spanish", players, seed=1, options={"deck": deck})
    base = game.view(game.turn)
    cards = tuple(C(t) for t in hand.split())
    legal = tuple(Play(c) for c in cards) + ((Exchange(C(exchange)),) if exchange else ())
    return dataclasses.replace(
        base,
        hand=cards,
        trick=tuple(C(t) for t in trick.split()),
        trump=Suit.parse(trump),
        legal_actions=legal,
    )


@pytest.mark.parametrize(
    ("hand", "trick", "expected", "why"),
    [
        # leading
        ("1C 4E 5B", "", "4E", "lowest worthless non-trump"),
        ("4E 4B 1C", "", "4E", "tie between equal ranks: the card held longest"),
        ("4B 4E 1C", "", "4B", "tie between equal ranks: the card held longest"),
        ("1C 3E 2O", "", "3E", "no worthless non-trump: the lowest non-trump"),
        ("2O 10C 5O", "", "10C", "the sota is not worthless, but still the only non-trump"),
        ("7E 2E 6E", "", "2E", "lowest of several worthless"),
        ("1O 3O 12O", "", "12O", "only trumps: the lowest trump"),
        ("10O 2O 1O", "", "2O", "only trumps: the lowest trump"),
        ("12C 11E 2O", "", "11E", "lowest non-trump by rank, not by suit"),
        # following
        ("5C 1C 2O", "4C", "5C", "the lowest card that wins without a trump"),
        ("1C 2O 4E", "3C", "1C", "the ace wins the three without a trump"),
        ("12C 3C 2O", "11C", "12C", "the king is the lowest card of the suit that wins"),
        ("2O 5O 4E", "3C", "2O", "cannot win without trump, 10 points: the lowest trump"),
        ("5O 2O 4E", "3C", "2O", "lowest trump, not the first held"),
        ("2O 4E 6B", "12C", "4E", "4 points only: the lowest non-trump"),
        ("2C 2O 4E", "12C", "2C", "a low card of the suit led that does not win is just the lowest non-trump"),
        ("2O 3O", "12C", "2O", "no non-trump: the lowest trump"),
        ("2O 1O 5C", "3O", "1O", "trump led for 10: the lowest trump that wins"),
        ("2O 4O 5C", "3O", "5C", "no trump wins the 3 of trumps: the lowest non-trump"),
        ("2O 4O", "3O", "2O", "nothing wins and only trumps: the lowest trump"),
        ("3C 7O 5O", "1C 5E", "5O", "the ace is unbeatable in its suit: the lowest trump for 11 points"),
        ("3O 4O 5E", "1C 2O", "4O", "the lowest trump above the trump already played"),
        ("1O 3E 12E", "1C 2O", "1O", "only the ace of trumps wins"),
        ("6E 10E 1B", "5E 4E", "6E", "the lowest winner of the suit led"),
        ("7B 5C 2O", "10C 11C", "5C", "5 points: the lowest non-trump, not a trump"),
        ("7B 5C 2O", "3C 4B", "2O", "10 points: the lowest trump"),
    ],
)
def test_greedy_positions(hand: str, trick: str, expected: str, why: str) -> None:
    view = position(hand, trick)
    action = GreedyAgent().act(view)
    assert action == Play(C(expected)), why
    assert GreedyAgent.choose_card(view, view.hand) is C(expected)


def test_greedy_forty_eight_cards() -> None:
    view = position("7C 9C 2O", "8C", deck=48)
    assert GreedyAgent().act(view) == Play(C("9C"))
    view = position("9C 8E 4E", "", deck=48)
    assert GreedyAgent().act(view) == Play(C("4E"))  # the 4 is below the 8 and the 9


def test_greedy_takes_the_exchange() -> None:
    view = position("7O 4E 1C", "", exchange="7O")
    assert GreedyAgent().act(view) == Exchange(C("7O"))
    view = position("2O 4E 1C", "3C", exchange="2O")
    assert GreedyAgent().act(view) == Exchange(C("2O"))


def test_greedy_in_a_real_first_trick() -> None:
    # 2 players, dealer 1: seat 0 leads, seat 1 follows.  Trump oros.
    deck = build_deck(2, 1, {0: ["1C", "5E", "3B"], 1: ["2C", "12C", "6O"]}, turned="4O")
    game = Game("spanish", 2, dealer=1, deck=deck)
    greedy = GreedyAgent()
    assert greedy.act(game.view(0)) == Play(C("5E"))
    game.apply("1C")
    # the ace of the suit led cannot be beaten in suit; 11 points: the lowest trump that wins
    assert greedy.act(game.view(1)) == Play(C("6O"))


def test_agents_refuse_to_act_out_of_turn() -> None:
    game = Game("spanish", 2, seed=1)
    other = game.view(1 - game.turn)  # type: ignore[operator]
    for agent in (GreedyAgent(), RandomAgent(1)):
        with pytest.raises(IllegalActionError):
            agent.act(other)
        with pytest.raises(IllegalActionError):
            agent.act(game.view(None))


@pytest.mark.parametrize("players", [2, 3, 4, 6])
@pytest.mark.parametrize("options", [{}, {"deck": 48}, {"trump_exchange": "off"}])
def test_agents_play_legal_actions(players: int, options: dict[str, object]) -> None:
    for seed in range(4):
        game = Game("spanish", players, seed=seed, options=options)
        agents = [make_agent("greedy" if (s + seed) % 2 else "random", seed=s) for s in range(players)]
        exchanges = 0
        while not game.is_over():
            seat = game.turn
            assert seat is not None
            view = game.view(seat)
            action = agents[seat].act(view)
            assert action in game.legal_actions()
            if isinstance(agents[seat], GreedyAgent) and any(isinstance(a, Exchange) for a in view.legal_actions):
                assert isinstance(action, Exchange)
            exchanges += isinstance(action, Exchange)
            game.apply(action)
        assert sum(game.seat_points) == 120


def test_random_agent_is_seeded_and_uniform() -> None:
    view = position("1C 4E 5B", "", exchange=None)
    a, b = RandomAgent(5), RandomAgent(5)
    picks = [a.act(view) for _ in range(300)]
    assert picks == [b.act(view) for _ in range(300)]
    assert {str(p) for p in picks} == {"1C", "4E", "5B"}
    assert all(p in view.legal_actions for p in picks)
    counts = [sum(str(p) == c for p in picks) for c in ("1C", "4E", "5B")]
    assert min(counts) > 60


def test_make_agent() -> None:
    assert isinstance(make_agent("random"), RandomAgent)
    assert isinstance(make_agent("greedy"), GreedyAgent)
    assert isinstance(make_agent("brisca.agents.simple:GreedyAgent", seed=3), GreedyAgent)
    assert isinstance(make_agent("greedy"), Agent)
    with pytest.raises(AgentError, match="unknown agent"):
        make_agent("clever")
    with pytest.raises(AgentError, match="cannot load"):
        make_agent("no.such.module:Agent")
    with pytest.raises(AgentError, match="cannot load"):
        make_agent("brisca.agents.simple:NoSuchAgent")


def test_random_agent_in_long_runs_uses_exchanges() -> None:
    rng = random.Random(0)
    seen = 0
    for seed in range(40):
        game = Game("spanish", 2, seed=seed)
        agent = RandomAgent(rng.randrange(1000))
        while not game.is_over():
            action = agent.act(game.view(game.turn))
            assert action in game.legal_actions()
            seen += isinstance(action, Exchange)
            game.apply(action)
    assert seen > 0


def _positions_with(options: dict[str, object], count: int, seed: int = 0) -> list[tuple[Game, int]]:
    """``count`` random positions (2 to 6 players) with the seat to act, reached by random play that takes the
    exchanges often, out of turn too where the rules allow it (so announced trumps wait under the face-up card)."""
    rng = random.Random(seed)
    out: list[tuple[Game, int]] = []
    while len(out) < count:
        players = rng.choice([2, 3, 4, 6])
        game = Game("spanish", players, seed=rng.randrange(2**32), dealer=rng.randrange(players), options=options)
        while not game.is_over() and len(out) < count:
            seat = game.turn
            assert seat is not None
            out.append((game.clone(), seat))
            others = [(s, a) for s in range(players) if s != seat for a in game.legal_actions(s)]
            if others and rng.random() < 0.5:
                game.apply(others[0][1], others[0][0])
                continue
            legal = game.legal_actions()
            rare = [a for a in legal if not isinstance(a, Play)]
            game.apply(rng.choice(rare) if rare and rng.random() < 0.6 else rng.choice(legal))
    return out


@pytest.mark.parametrize("options", [{"trump_exchange": "announced"}, {"trump_exchange": "out_of_turn"},
                                     {"trump_exchange": "announced", "exchange_chain": False, "deck": 48}])
def test_agents_never_return_an_illegal_action_under_the_exchange_readings(options: dict[str, object]) -> None:
    """001's announced exchange and 000's exchange out of turn: thousands of positions, every built-in player
    returns a legal action for the seat to act (bots act on their turn only), and a greedy player takes the
    exchange, announced or not, whenever it may."""
    from brisca.agents import ExpertAgent, HeuristicAgent

    agents: list[Agent] = [RandomAgent(1), GreedyAgent(), HeuristicAgent(), HeuristicAgent(policy="learned")]
    taken = 0
    for game, seat in _positions_with(options, 2500):
        view = game.view(seat)
        legal = game.legal_actions()
        for agent in agents:
            action = agent.act(view)
            assert action in legal, (type(agent).__name__, action, game.history)
        greedy = agents[1].act(view)
        if any(isinstance(a, Exchange | Announce) for a in legal):
            assert isinstance(greedy, Exchange | Announce)
            taken += 1
    assert taken >= 20
    expert = ExpertAgent(seed=1, sims=2)
    for game, seat in _positions_with(options, 120, seed=1):
        assert expert.act(game.view(seat)) in game.legal_actions()


def test_agents_do_not_act_for_a_seat_that_may_only_exchange_out_of_turn() -> None:
    """Under ``out_of_turn`` a seat not to act may hold an exchange (``view.out_of_turn``); the built-in players
    still act only on their turn (the terminal and the web table offer the exchange to people)."""
    for game, _seat in _positions_with({"trump_exchange": "out_of_turn"}, 3000, seed=2):
        others = [s for s in range(game.players) if s != game.turn and game.legal_actions(s)]
        if others:
            view = game.view(others[0])
            assert view.out_of_turn and not view.legal_actions
            with pytest.raises(IllegalActionError):
                GreedyAgent().act(view)
            return
    raise AssertionError("no position with an exchange out of turn")
