"""Reading plays with a model (brisca.agents.inference): sound for a player of that model, dropped for others."""

from __future__ import annotations

import itertools
import math
import random

import pytest

from brisca import Card, Game
from brisca.actions import Play
from brisca.agents import AgentError, make_agent
from brisca.agents.inference import SLACK, beliefs, greedy_evidence, greedy_lacks, read_hands, skill_evidence
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


def _until_second_free_play(variant: str, seed: int, opponent: str) -> Game | None:
    """A 2-player game stopped right after seat 1's second card play (``None`` if seat 1 exchanged first)."""
    game = Game(variant, 2, seed=seed)
    bots = [make_agent("heuristic", seed=seed), make_agent(opponent, seed=seed + 1)]
    plays = 0
    while plays < 2:
        seat = game.turn
        action = bots[seat].act(game.view(seat))  # type: ignore[index]
        if seat == 1 and action.__class__.__name__ != "Play":
            return None
        game.apply(action)
        plays += seat == 1
    return game


@pytest.mark.parametrize("seed", range(6))
def test_the_evidence_is_the_exact_bayes_factor_of_greedy_against_random(seed: int) -> None:
    """Brute force over every hand seat 1 can have been dealt and every card it can have drawn, as the viewer
    (seat 0) sees it: the likelihood of its two plays under the greedy reading and at random."""
    game = _until_second_free_play("briscola", seed, "greedy" if seed % 2 else "random")
    assert game is not None
    view = game.view(0)
    rules = game.rules
    replay = Game(rules, 2, dealer=game.dealer, deck=game.deck)
    plays: list[tuple[int, Card, list[Card]]] = []
    for t, (s, a) in enumerate(view.history, start=1):
        if s == 1:
            plays.append((t, a.card, list(replay.trick)))  # type: ignore[attr-defined]
        replay.apply(a)
    (_t1, c1, trick1), (t2, c2, trick2) = plays
    args = (view.trump, rules.strength_table, rules.point_table)
    lacks1 = greedy_lacks(c1, trick1, *args)  # type: ignore[arg-type]
    lacks2 = greedy_lacks(c2, trick2, *args)  # type: ignore[arg-type]
    seen = set(view.received) | ({view.turned} if view.turned else set())
    seen |= {a.card for s, a in view.history[:t2 - 1] if s == 0}  # type: ignore[attr-defined]
    pool = [c for c in rules.deck_cards(2) if c not in seen]
    greedy = at_random = 0.0
    posterior: dict[int, float] = {}  # the greedy player's hand after its second play, by its cards' bits
    for hand in itertools.combinations(pool, 3):
        if c1 not in hand:
            continue
        ok1 = not any(p(c) for c in hand for p in lacks1)
        for z in pool:
            if z in hand:
                continue
            later = (*[c for c in hand if c is not c1], z)
            if c2 not in later:
                continue
            at_random += 1 / 9
            fits = ok1 and not any(p(c) for c in later for p in lacks2)
            greedy += fits
            if fits:
                bits = sum(1 << c.index for c in later if c is not c2)
                posterior[bits] = posterior.get(bits, 0.0) + 1
    expected = math.log(greedy / at_random) if greedy else -math.inf
    assert greedy_evidence(view)[1] == pytest.approx(expected, abs=1e-9)
    assert greedy_evidence(view)[0] == 0.0
    reading = read_hands(view)
    assert reading is not None
    states = reading.hands[1][0].states
    assert set(states) == set(posterior)
    for bits, weight in posterior.items():
        assert states[bits] == pytest.approx(weight / greedy, abs=1e-9)


def test_the_evidence_tells_greedy_players_from_random_ones() -> None:
    """By the end of the stock, a greedy player's plays favour the greedy reading, a random player's do not."""
    for opponent, favoured in (("greedy", 19), ("random", 0)):
        ahead = 0
        for seed in range(20):
            game = _play("spanish", 2, {}, seed, ["heuristic", opponent], moves=30)
            ahead += greedy_evidence(game.view(0))[1] > 0
        assert ahead >= favoured if favoured else ahead <= 2, (opponent, ahead)


def test_the_skill_evidence_tells_skilled_players_from_random_ones() -> None:
    """By the end of the stock, the heuristic's plays favour the heuristic (skilled) model, a random player's do
    not; the viewer's own plays are never weighed, and the cache changes nothing."""
    ahead = {"heuristic": 0, "random": 0}
    for opponent in ahead:
        for seed in range(12):
            game = _play("spanish", 2, {}, seed, ["heuristic", opponent], moves=30)
            view = game.view(0)
            cache: dict[object, float] = {}
            evidence = skill_evidence(view, cache=cache)
            assert evidence is not None and evidence[0] == 0.0
            assert cache and skill_evidence(view, cache=cache) == evidence == skill_evidence(view)
            ahead[opponent] += evidence[1] > 0
    assert ahead["heuristic"] >= 9 and ahead["random"] <= 2, ahead
    for variant, players in (("chilean", 4), ("rematada", 3), ("chiamata", 5)):  # the test does not apply
        assert skill_evidence(_play(variant, players, {}, 1, ["random"], moves=12).view(0)) is None


def test_the_skill_evidence_of_one_play_is_the_share_of_hands_that_explain_it() -> None:
    """Brute force over every hand the first player can hold (the viewer's cards and the face-up trump aside):
    the factor of its lead is the share of those hands from which the heuristic leads that card, against a
    random player's 1 in 3, smoothed by :data:`SLACK`."""
    from brisca.agents.heuristic import Situation, choose

    for seed in range(4):
        game = Game("spanish", 2, seed=seed)
        leader = game.turn
        assert leader is not None
        viewer = 1 - leader
        card = make_agent("random", seed=seed).act(game.view(leader)).card  # type: ignore[attr-defined]
        game.apply(Play(card))
        view = game.view(viewer)
        rules = game.rules
        trump = view.trump
        assert trump is not None
        pool = [c for c in rules.deck_cards(2) if c not in view.hand and c is not view.face_up and c is not card]
        hits = total = 0
        for rest in itertools.combinations(pool, 2):
            hand = (card, *rest)
            out = [c for c in rules.deck_cards(2) if c not in hand]
            top = [max([rules.strength_table[c.index] for c in out if c.suit == s], default=0) for s in range(4)]
            trumps = sum(1 for c in out if c.suit is trump)
            total += 1
            hits += choose(Situation(hand, (), trump, rules.strength_table, rules.point_table, False, True, trumps,
                                     top)) is card
        expected = math.log(3 * (1 - SLACK) * hits / total + SLACK)
        evidence = skill_evidence(view)
        assert evidence is not None and evidence[leader] == pytest.approx(expected)


def test_a_tracked_hand_is_dealt_by_its_chances_and_fits_the_model() -> None:
    """``Reading.deal``: the worlds built on the hands it deals replay the history, and each card turns up about
    as often as the filter's chance of it being held; the greedy player's real cards all have a chance."""
    game = _play("spanish", 2, {}, 4, ["heuristic", "greedy"], moves=15)
    while game.turn != 0:
        game.apply(make_agent("greedy").act(game.view(1)))  # type: ignore[arg-type]
    view = game.view(0)
    reading = read_hands(view, [1])
    assert reading is not None
    sampler = WorldSampler(view, beliefs(view))
    assert sampler.believed == (1,)
    greedy = reading.hands[1][0]
    chance: dict[Card, float] = {}
    for bits, p in greedy.states.items():
        for i in range(64):
            if bits >> i & 1:
                chance[reading.cards[i]] = chance.get(reading.cards[i], 0.0) + p
        if greedy.pending:
            free = [i for i in range(64) if reading.unknown >> i & 1 and not bits >> i & 1]
            for i in free:
                chance[reading.cards[i]] = chance.get(reading.cards[i], 0.0) + p / len(free)
    known = {c for s, c in view.known if s == 1}
    assert all(chance.get(c, 0.0) > 0 for c in game.hand(1) if c not in known)
    rng = random.Random(5)
    seen: dict[Card, int] = {}
    deals = 1000
    for _ in range(deals):
        hand = reading.deal(1, rng)
        assert hand is not None
        world = sampler.draw(rng, 2, {1: hand})
        assert set(hand) | known == set(world.hand(1))
        for c in hand:
            seen[c] = seen.get(c, 0) + 1
    assert set(seen) <= set(chance)
    for card, p in chance.items():
        assert abs(seen.get(card, 0) / deals - p) < 0.05, (card, p)
