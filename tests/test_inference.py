"""Reading plays with a model (brisca.agents.inference): sound for a player of that model, dropped for others."""

from __future__ import annotations

import random

import pytest

from brisca import Card, Game
from brisca.agents import AgentError, make_agent
from brisca.agents.inference import beliefs, greedy_lacks
from brisca.worlds import WorldSampler

# Plain games where greedy choices are free for a while, with and without duties and exchanges.
CONFIGS = [("spanish", 2, {}), ("spanish", 4, {}), ("briscola", 2, {}), ("spanish", 3, {}),
           ("spanish", 2, {"follow": "suit_trump", "follow_from": "empty_stock"}), ("bixkla", 4, {})]


def _play(variant: str, players: int, options: dict[str, object], seed: int, agents: list[str],
          moves: int | None = None) -> Game:
    game = Game(variant, players, seed=seed, options=options)
    bots = [make_agent(agents[s % len(agents)], seed=seed + s) for s in range(players)]
    done = 0
    while not game.is_over() and (moves is None or done < moves):
        game.apply(bots[game.turn].act(game.view(game.turn)))  # type: ignore[index]
        done += 1
    return game


def _hand_before(game: Game, t: int, seat: int) -> tuple[Card, ...]:
    """``seat``'s hand just before the ``t``-th action of ``game``'s history (counted from 1)."""
    replay = Game(game.rules, game.players, dealer=game.dealer, deck=game.deck, deal_number=game.deal_number)
    for _s, action in game.history[:t - 1]:
        replay.apply(action)
    return replay.hand(seat)


@pytest.mark.parametrize(("variant", "players", "options"), CONFIGS)
def test_a_greedy_player_never_holds_what_the_model_says_it_lacked(
        variant: str, players: int, options: dict[str, object]) -> None:
    checked = 0
    for seed in range(12):
        game = _play(variant, players, options, seed, ["greedy"])
        for viewer in range(players):
            read = beliefs(game.view(viewer))
            assert read[viewer] == []
            for seat in range(players):
                for t, lacks in read[seat]:
                    held = _hand_before(game, int(t), seat)
                    assert not [c for c in held if lacks(c)], (seed, seat, t, game.history[int(t) - 1])
                    checked += 1
    assert checked > 100


def test_the_model_reads_real_information() -> None:
    rules = Game("spanish", 2).rules
    trump = Card.parse("4C").suit
    strength, points = rules.strength_table, rules.point_table
    # Following a king of golds with the ace of golds, a greedy player held no gold between them (the 3).
    lacks = greedy_lacks(Card.parse("1O"), [Card.parse("12O")], trump, strength, points)
    assert any(p(Card.parse("3O")) for p in lacks)
    assert not any(p(Card.parse("2O")) or p(Card.parse("3E")) for p in lacks)
    # Throwing a 2 of swords on a 3 of golds (10 points): it held neither a winning gold nor any trump,
    # nor a plain card lower than the 2 (there is none); a 5 of swords or a king of golds it may have held.
    lacks = greedy_lacks(Card.parse("2E"), [Card.parse("3O")], trump, strength, points)
    assert all(any(p(c) for p in lacks) for c in map(Card.parse, ("1O", "2C", "4C")))
    assert not any(p(Card.parse("5E")) or p(Card.parse("12O")) for p in lacks)
    # Leading a trump: it held no plain card at all, and no lower trump.
    lacks = greedy_lacks(Card.parse("5C"), [], trump, strength, points)
    assert all(any(p(c) for p in lacks) for c in map(Card.parse, ("2O", "1E", "4C")))
    assert not any(p(Card.parse("7C")) for p in lacks)


def test_worlds_honour_the_beliefs_about_a_greedy_opponent() -> None:
    for seed in range(6):
        game = _play("spanish", 2, {}, seed, ["expert[sims=20]", "greedy"], moves=14)
        view = game.view(0)
        read = beliefs(view)
        sampler = WorldSampler(view, read)
        assert sampler.believed == (1,)
        rng = random.Random(seed)
        for _ in range(5):
            world = sampler.draw(rng)
            for t, lacks in read[1]:
                assert not [c for c in _hand_before(world, int(t), 1) if lacks(c)]


def test_a_seat_that_plays_against_the_model_is_read_by_the_rules_alone() -> None:
    dropped = 0
    for seed in range(20):
        game = _play("spanish", 2, {}, seed, ["random"], moves=30)
        view = game.view(0)
        sampler = WorldSampler(view, beliefs(view))
        if sampler.believed == ():
            dropped += 1
        world = sampler.draw(random.Random(seed))  # worlds are still drawn: never a dead end
        assert world.hand(0) == view.hand
    assert dropped >= 10  # a random player soon makes a play no greedy hand explains


def test_the_expert_reads_with_the_model_only_when_asked() -> None:
    game = _play("spanish", 2, {}, 3, ["greedy"], moves=9)
    view = game.view(game.turn)  # type: ignore[arg-type]
    on = make_agent("expert[sims=60,read=greedy]", seed=1)
    off = make_agent("expert[sims=60,read=off]", seed=1)
    assert on.act(view) in view.legal_actions and off.act(view) in view.legal_actions
    assert make_agent("expert[sims=60]", seed=1).read == "greedy"  # type: ignore[attr-defined]
    with pytest.raises(AgentError, match="read is one of"):
        make_agent("expert[read=psychic]")
