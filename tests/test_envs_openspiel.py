"""The OpenSpiel game: OpenSpiel's random_sim_test and API tests for every preset and player count, and more."""

from __future__ import annotations

import random
from typing import Any

import pytest

from brisca import Game, find_variant, variant_names

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

from brisca.envs import openspiel as bo  # noqa: E402
from brisca.envs.encode import shuffle_hidden  # noqa: E402

#: Every preset at every player count.
ALL = [(name, n) for name in variant_names() for n in find_variant(name).player_counts]
#: Option mixtures beyond the presets (as the game's ``options`` parameter).
MIXTURES = [
    (4, "signals:open;arrastro:true;follow:suit_beat_trump"),
    (6, "signals:partner;deal_look:true;kill_three:true"),
    (3, "claim:true;last_trick_bonus:10;pair_bonus:true;deck:48"),
    (4, "claim:true;partners_look:true;trump_exchange:any_time"),
    (2, "trump_rotation:true;follow:suit_trump"),
    (4, "open_hands:true;signals:open"),
    (2, "trump_exchange:announced"),
    (4, "trump_exchange:announced;exchange_chain:false;kill_three:true"),
    (3, "trump_exchange:out_of_turn"),
]


def load(preset: str, players: int, options: str = "", reward: str = "win") -> Any:
    return pyspiel.load_game("brisca", {"preset": preset, "players": players, "options": options, "reward": reward})


@pytest.mark.parametrize(("preset", "players"), ALL, ids=[f"{p}-{n}" for p, n in ALL])
def test_random_sim_test(preset: str, players: int) -> None:
    pyspiel.random_sim_test(load(preset, players), num_sims=3, serialize=True, verbose=False)


@pytest.mark.parametrize(("players", "options"), MIXTURES, ids=[o[:30] for _n, o in MIXTURES])
def test_random_sim_test_with_options(players: int, options: str) -> None:
    pyspiel.random_sim_test(load("spanish", players, options, "points"), num_sims=2, serialize=True, verbose=False)


def _api_cases() -> list[tuple[str, str]]:
    names = [(f"{p}{n}", f"brisca(players={n},preset={p})") for p, n in ALL]
    return [*names, ("mixture", "brisca(players=4,options=signals:open;arrastro:true;follow:suit)")]


@pytest.mark.parametrize(("name", "game_string"), _api_cases(), ids=[n for n, _g in _api_cases()])
def test_openspiel_api_tests(name: str, game_string: str) -> None:
    """OpenSpiel's own partial-tree API tests (open_spiel/integration_tests/api_test.py)."""
    import unittest

    api = pytest.importorskip("open_spiel.integration_tests.api_test")
    case = type(f"EnforceAPI_{name}", (api.EnforceAPIOnPartialTreeBase,), {})
    case.game_name = name
    case.game = pyspiel.load_game(game_string)
    result = unittest.TestResult()
    unittest.defaultTestLoader.loadTestsFromTestCase(case).run(result)
    assert result.testsRun >= 5
    assert not result.failures and not result.errors, [str(e[1]) for e in result.failures + result.errors]


def test_game_info_is_built_per_instance() -> None:
    two, six = load("spanish", 2), load("spanish", 6)
    assert (two.num_players(), six.num_players()) == (2, 6)
    assert two.num_distinct_actions() == six.num_distinct_actions() == 111
    assert two.max_chance_outcomes() == 48 and two.max_chance_nodes_in_history() == 40
    assert two.max_game_length() == 40 + 3 and six.max_game_length() == 36 + 3
    assert (two.min_utility(), two.max_utility()) == (-1.0, 1.0)
    three = load("briscola", 3, reward="points")
    assert three.min_utility() < 0 < three.max_utility() and three.max_game_length() == 39
    bix = load("bixkla", 4)
    assert bix.max_game_length() == 40 * 7  # signals: Briscola's six (002) a turn at most
    assert two.observation_tensor_shape() == [490] and two.information_state_tensor_shape() == [538]
    assert str(pyspiel.load_game("brisca(players=3,preset=briscola)")) == (
        "brisca(dealer=-1,players=3,preset=briscola,reward=win)"
    )
    with pytest.raises(Exception, match="played by"):
        load("bixkla", 2)
    assert bo.parse_options("deck:48; follow:suit;claim:true") == {"deck": 48, "follow": "suit", "claim": True}


def test_chance_nodes_deal_card_by_card() -> None:
    game = load("spanish", 2)
    state = game.new_initial_state()
    deck = Game("spanish", 2, seed=4).deck
    for k, card in enumerate(deck):
        assert state.is_chance_node()
        outcomes = state.chance_outcomes()
        assert len(outcomes) == 40 - k and sum(p for _a, p in outcomes) == pytest.approx(1.0)
        assert state.action_to_string(pyspiel.PlayerId.CHANCE, card.index) == f"Deal:{card}"
        state.apply_action(card.index)
    assert state.current_player() == 0 and state.game.deck == deck
    assert [state.action_to_string(0, a) for a in state.legal_actions()] == [
        str(a) for a in sorted(Game("spanish", 2, deck=deck).legal_actions(), key=lambda a: a.card.index)
    ]


def _play(game: Any, rng: random.Random, stop: int) -> Any:
    state = game.new_initial_state()
    while not state.is_terminal() and len(state.history()) < stop:
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _p in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize(("preset", "players", "options"), [
    ("spanish", 2, ""), ("bixkla", 4, ""), ("briscola", 4, ""), ("scoperta", 3, ""),
    ("spanish", 4, "signals:open;arrastro:true;follow:suit_beat_trump"),
    ("spanish", 4, "signals:partner;deal_look:true;kill_three:true"),
])
def test_observations_never_depend_on_hidden_cards(preset: str, players: int, options: str) -> None:
    game = load(preset, players, options)
    rng = random.Random(2)
    types = [pyspiel.IIGObservationType(perfect_recall=r, public_info=pub, private_info=priv)
             for r in (False, True) for pub, priv in ((True, pyspiel.PrivateInfoType.SINGLE_PLAYER),
                                                       (True, pyspiel.PrivateInfoType.NONE),
                                                       (False, pyspiel.PrivateInfoType.SINGLE_PLAYER))]
    observers = [game.make_py_observer(t) for t in types]
    for _ in range(12):
        state = _play(game, rng, rng.randrange(len(game.new_initial_state().chance_outcomes()) + 1, 90))
        if state.is_terminal():
            continue
        for player in range(players):
            other = state.clone()
            other._core.game = shuffle_hidden(state.game, player, rng)
            assert other.information_state_string(player) == state.information_state_string(player)
            assert other.observation_string(player) == state.observation_string(player)
            assert other.information_state_tensor(player) == state.information_state_tensor(player)
            assert other.observation_tensor(player) == state.observation_tensor(player)
            for obs in observers:
                obs.set_from(state, player)
                before = (obs.tensor.copy(), obs.string_from(state, player))
                obs.set_from(other, player)
                assert np.array_equal(before[0], obs.tensor) and before[1] == obs.string_from(other, player)


@pytest.mark.parametrize(("preset", "players", "options"), [
    ("spanish", 2, ""), ("spanish", 6, ""), ("bixkla", 4, ""), ("briscola", 4, ""), ("scoperta", 2, ""),
    ("muerte-al-tres", 3, ""),
    ("spanish", 4, "signals:partner;deal_look:true;kill_three:true"),
    ("spanish", 4, "signals:open;arrastro:true;follow:suit_trump"),
    ("spanish", 2, "trump_rotation:true"),
])
def test_resampling_keeps_the_information_state(preset: str, players: int, options: str) -> None:
    game = load(preset, players, options)
    rng = random.Random(6)
    deal = len(game.new_initial_state().chance_outcomes())
    checked = 0
    for _ in range(10):
        state = _play(game, rng, rng.randrange(deal + 1, deal + 45))
        if state.is_terminal():
            continue
        for player in range(players):
            key = state.information_state_string(player)
            world = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
            assert world.information_state_string(player) == key
            assert world.information_state_tensor(player) == state.information_state_tensor(player)
            assert world.current_player() == state.current_player()
            assert world.legal_actions(player) == state.legal_actions(player)
            # The draw depends on what the player knows only: the same seed gives the same deck from either world.
            assert bo.sample_deck(world.game, player, random.Random(1)) == bo.sample_deck(
                state.game, player, random.Random(1)
            )
            assert bo.resample_game(world.game, player, random.Random(2))[0].deck == bo.resample_game(
                state.game, player, random.Random(2)
            )[0].deck
            checked += 1
    assert checked


def test_resampling_varies_the_hidden_cards() -> None:
    game = load("spanish", 2)
    state = _play(game, random.Random(1), 40 + 6)
    decks = {tuple(bo.sample_deck(state.game, 0, random.Random(s))) for s in range(20)}
    assert len(decks) > 10
    mine = state.game.view(0).received
    assert all(d[0] == state.game.deck[0] for d in decks) and mine


def test_ismcts_runs_with_the_resampler() -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    game = load("spanish", 2)
    rand = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(game=game, evaluator=mcts.RandomRolloutEvaluator(1, rand), uct_c=2.0,
                           max_simulations=20, random_state=rand)
    bot.set_resampler(bo.resampler(0))
    state = _play(game, random.Random(3), 40 + 4)
    for _ in range(3):
        while state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(int(action))


def test_clone_and_serialize_are_independent() -> None:
    game = load("bixkla", 4)
    state = _play(game, random.Random(5), 40 + 10)
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert len(clone.history()) == len(state.history()) + 1
    assert state.game is not clone.game and str(state) != str(clone)
    again = game.deserialize_state(state.serialize())
    assert str(again) == str(state) and again.history() == state.history()
