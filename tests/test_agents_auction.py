"""The players outside the card play: bids, calls, discards, trumps and declarations; the expert in dealt-out games."""

from __future__ import annotations

import random

import pytest

from brisca import Game
from brisca.actions import PASS, Bid, Call, Declare, Discard, Play, RankBid, TrumpChoice
from brisca.agents import ExpertAgent, HeuristicAgent, make_agent
from brisca.agents.auction import best_estimate, estimate
from brisca.cards import Card, Suit, parse_cards
from brisca.rules import find_variant


def deal(variant: str, hands: dict[int, str], dealer: int, seed: int = 0, **options: object) -> Game:
    """A game of ``variant`` where the seats in ``hands`` hold exactly those cards (the rest at random)."""
    rules = find_variant(variant).with_options(options)
    players = rules.player_counts[0]
    cards = rules.deck_cards(players)
    canon = Game(rules, players, dealer=dealer, deck=cards)
    where = {c: i for i, c in enumerate(cards)}
    deck: list[Card | None] = [None] * len(cards)
    fixed: set[Card] = set()
    for seat, text in hands.items():
        mine = parse_cards(text)
        for pos_card, card in zip(canon.dealt_hand(seat), mine, strict=True):
            deck[where[pos_card]] = card
        fixed.update(mine)
    rest = [c for c in cards if c not in fixed]
    random.Random(seed).shuffle(rest)
    for i in range(len(deck)):
        if deck[i] is None:
            deck[i] = rest.pop()
    return Game(rules, players, dealer=dealer, deck=deck)  # type: ignore[arg-type]


AGENTS = [HeuristicAgent(), make_agent("greedy"), ExpertAgent(seed=1, sims=4), ExpertAgent(seed=1, sims=4, bid="sim")]

REMATADA_STRONG = "1O 3O 12O 11O 10O 7O 1C 3C 1E 3E"
REMATADA_WEAK = "5O 6O 7C 5C 6E 7E 5B 6B 7B 10C"
CHIAMATA_STRONG = "1O 12O 11O 7O 6O 1C 3C 1E"
CHIAMATA_WEAK = "4O 5C 6E 7B 4C 5E 6B 2O"


@pytest.mark.parametrize("agent", AGENTS, ids=["heuristic", "greedy", "expert", "expert-bid-sim"])
def test_a_strong_hand_bids_and_a_weak_one_passes(agent: object) -> None:
    for variant, strong, weak, low in (("rematada", REMATADA_STRONG, REMATADA_WEAK, 100),
                                       ("chiamata", CHIAMATA_STRONG, CHIAMATA_WEAK, 61)):
        n = find_variant(variant).player_counts[0]
        game = deal(variant, {0: strong}, dealer=n - 1)
        assert agent.act(game.view(0)) == Bid(low)  # type: ignore[attr-defined]
        game = deal(variant, {0: weak}, dealer=n - 1)
        assert agent.act(game.view(0)) == PASS  # type: ignore[attr-defined]


def test_bids_follow_the_estimate() -> None:
    """A strong hand raises while the price is below its estimate, and stops above it."""
    rules = find_variant("rematada")
    est, suit = best_estimate(rules, parse_cards(REMATADA_STRONG))
    assert suit is Suit.OROS and 130 <= est <= 230
    game = deal("rematada", {1: REMATADA_STRONG}, dealer=2)
    game.apply(Bid(120))
    assert HeuristicAgent().act(game.view(1)) == Bid(130)
    game = deal("rematada", {1: REMATADA_STRONG}, dealer=2)
    game.apply(Bid(int(est) // 10 * 10 + 10 if est < 220 else 220))
    assert HeuristicAgent().act(game.view(1)) == PASS
    # The estimate grows with trumps and with points.
    assert estimate(rules, parse_cards("1O 3O 5C"), Suit.OROS) > estimate(rules, parse_cards("4O 5O 5C"), Suit.OROS)


def test_the_last_seat_bids_when_it_must() -> None:
    """Rematada: when two have passed and nobody has bid, the last must bid the minimum, weak hand or not."""
    game = deal("rematada", {1: REMATADA_WEAK}, dealer=1)
    game.apply(PASS)
    game.apply(PASS)
    assert game.turn == 1
    for agent in AGENTS:
        assert agent.act(game.view(1)) == Bid(100)


def test_the_call_is_the_best_card_missing_in_the_best_suit() -> None:
    game = deal("chiamata", {0: CHIAMATA_STRONG}, dealer=4)
    game.apply(Bid(61))
    for _ in range(4):
        game.apply(PASS)
    assert game.phase == "call" and game.turn == 0
    for agent in AGENTS:
        assert agent.act(game.view(0)) == Call(Card.parse("3O"))


def test_low_card_bidding_names_a_rank_it_lacks_in_its_best_suit() -> None:
    game = deal("chiamata", {0: CHIAMATA_STRONG}, dealer=4, bidding="low_card")
    action = HeuristicAgent().act(game.view(0))
    assert action == RankBid(3)  # the three of oros: the best card it lacks in its best suit
    game.apply(action)
    for _ in range(4):
        game.apply(PASS)
    assert game.phase == "trump"
    choice = HeuristicAgent().act(game.view(0))
    assert choice == TrumpChoice(Suit.OROS)
    weak = deal("chiamata", {0: CHIAMATA_WEAK}, dealer=4, bidding="low_card")
    assert HeuristicAgent().act(weak.view(0)) == PASS


def test_discards_keep_the_trumps_and_the_trump_is_the_longest_suit() -> None:
    hand = "1O 3O 12O 7O 6O 5O 3C 12C 11E 5B"
    for seed in range(6):
        game = deal("rematada", {0: hand}, dealer=2, seed=seed)
        game.apply(Bid(100))
        game.apply(PASS)
        game.apply(PASS)
        assert game.phase == "discard"
        view = game.view(0)
        for agent in AGENTS:
            discard = agent.act(view)
            assert isinstance(discard, Discard) and len(discard.cards) == 2
            assert set(discard.cards) <= set(view.hand)
            assert not any(c.suit is Suit.OROS for c in discard.cards), discard
        game.apply(HeuristicAgent().act(view))
        assert game.phase == "trump"
        for agent in AGENTS:
            assert agent.act(game.view(0)) == TrumpChoice(Suit.OROS)


def test_discard_banks_unsafe_points() -> None:
    """A lone three of a side suit (the ace is out) is discarded: its 10 points are safe in the pile."""
    hand = "1O 3O 12O 11O 7O 6O 5O 3C 7E 5B"
    game = deal("rematada", {0: hand}, dealer=2, seed=3)
    game.apply(Bid(100))
    game.apply(PASS)
    game.apply(PASS)
    discard = HeuristicAgent().act(game.view(0))
    assert isinstance(discard, Discard) and Card.parse("3C") in discard.cards


def _positions(variant: str, count: int, options: dict[str, object] | None = None) -> list[Game]:
    out = []
    players = find_variant(variant).player_counts[0]
    for seed in range(count):
        game = Game(variant, players, seed=seed, options=options, dealer=seed % players)
        rng = random.Random(seed)
        agents = [HeuristicAgent() if s % 2 else make_agent("random", seed) for s in range(players)]
        while not game.is_over():
            out.append(game.clone())
            game.apply(agents[game.turn].act(game.view(game.turn)))  # type: ignore[index]
            if rng.random() < 0.02:
                break
    return out


def test_declarations_on_lead_are_always_made() -> None:
    seen = 0
    for game in _positions("rematada", 40):
        view = game.view(game.turn)
        if any(isinstance(a, Declare) for a in view.legal_actions):
            assert isinstance(HeuristicAgent().act(view), Declare)
            seen += 1
    assert seen >= 3


def test_vales_are_declared_only_when_the_trick_is_safe() -> None:
    """Chilean vales go to the side that wins the trick: declare only when no opponent plays after."""
    declared = 0
    for game in _positions("chilean", 60):
        seat = game.turn
        view = game.view(seat)
        if not any(isinstance(a, Declare) for a in view.legal_actions):
            continue
        action = HeuristicAgent().act(view)
        if isinstance(action, Declare):
            if view.phase == "mark":  # marked with its card down (003): only once its side has the trick
                if view.trick:
                    after = [(view.leader + i) % 4 for i in range(len(view.trick), 4)]
                    assert all(view.side_of(s) == view.side_of(seat) for s in after)  # type: ignore[arg-type]
                    winner = view.trick_winner()
                else:
                    winner = view.tricks[-1].winner
                assert winner is not None and view.side_of(winner) == view.side_of(seat)  # type: ignore[arg-type]
            else:
                after = [(seat + i) % 4 for i in range(1, 4 - len(view.trick))]  # type: ignore[operator]
                assert all(view.side_of(s) == view.side_of(seat) for s in after)  # type: ignore[arg-type]
            declared += 1
    assert declared >= 1


@pytest.mark.parametrize(("variant", "options"), [("chilean", {}), ("chilean", {"deal": "pelada"}),
                                                  ("rematada", {}), ("chiamata", {}), ("chiamata-buia", {})])
def test_the_expert_searches_sampled_worlds_in_the_play(variant: str, options: dict[str, object]) -> None:
    """In the play the expert draws worlds (no stock, hidden hands); in the auction it bids like the heuristic."""
    searched = 0
    for game in _positions(variant, 12, options)[::6]:
        view = game.view(game.turn)
        expert = ExpertAgent(seed=2, sims=3)
        action = expert.act(view)
        assert action in game.legal_actions()
        if view.phase != "play" or view.call_pending:  # (a blind call's first trick: the heuristic plays it)
            assert action == HeuristicAgent().act(view)
        elif len([a for a in view.legal_actions if isinstance(a, Play | Declare)]) > 1:
            searched += expert.last_worlds == 3
    assert searched >= 4


def test_agents_finish_dealt_out_hands() -> None:
    for variant, n in (("chilean", 4), ("rematada", 3), ("chiamata", 5), ("chiamata-buia", 5)):
        for seed in range(2):
            game = Game(variant, n, seed=seed)
            agents = [ExpertAgent(seed=seed, sims=2), HeuristicAgent(), make_agent("greedy"), make_agent("random", 1),
                      HeuristicAgent()][:n]
            while not game.is_over():
                game.apply(agents[game.turn].act(game.view(game.turn)))  # type: ignore[index]
            result = game.result()
            assert result is not None
            if result.scores is not None:
                assert result.reason in ("made", "set", "all-passed")


def test_bidding_by_simulation_weighs_the_same_deals_for_each_choice() -> None:
    """``simulated_bid``: a legal pass or lowest bid in a point auction, the same for the same seed, ``None``
    elsewhere (the play, low-card bidding); an expert with ``bid=sim`` bids through it."""
    from brisca.agents.bidding import simulated_bid

    for variant in ("rematada", "chiamata"):
        n = find_variant(variant).player_counts[0]
        for seed in range(3):
            game = Game(variant, n, seed=seed)
            view = game.view(game.turn)
            lowest = min((a for a in view.legal_actions if isinstance(a, Bid)), key=lambda b: b.points)
            action = simulated_bid(view, random.Random(seed), worlds=6)
            assert action in (PASS, lowest)
            assert simulated_bid(view, random.Random(seed), worlds=6) == action
    low = Game("chiamata", 5, seed=1, options={"bidding": "low_card"})
    assert simulated_bid(low.view(low.turn), random.Random(0), worlds=2) is None
    game = deal("rematada", {0: REMATADA_STRONG}, dealer=2)
    while game.phase == "bid":
        game.apply(HeuristicAgent().act(game.view(game.turn)))
    assert simulated_bid(game.view(game.turn), random.Random(0), worlds=2) is None
    with pytest.raises(Exception, match="bid is rules or sim"):
        make_agent("expert[bid=maybe]")


def test_bidding_by_simulation_counts_what_the_match_counts() -> None:
    """Under game points a set contract costs the declarer as much as a made one gains (one game point each
    way), and a hand nobody bid is worth nothing: what ``simulated_bid`` weighs each world by."""
    from brisca.agents.bidding import _play_out
    from brisca.game import hand_game_points

    game = deal("rematada", {0: REMATADA_STRONG}, dealer=2, match="game_points")
    worth = _play_out(game.clone(), 0, Bid(100), HeuristicAgent())
    played = game.clone()
    played.apply(Bid(100))
    while not played.is_over():
        played.apply(HeuristicAgent().act(played.view(played.turn)))
    result = played.result()
    assert result is not None and result.contract is not None and result.contract.declarer == 0
    points = hand_game_points(played.rules, 3, result)
    assert worth == points[0] - (points[1] + points[2]) / 2 and worth in (1.0, -1.0)
