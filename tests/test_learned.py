"""The learned card choice (``brisca.agents.learned``): its features, its score, and the players that use it.

That the compiled kernel plays it as Python does is tests/test_kernel.py's ("learned").
"""

from __future__ import annotations

import pytest

from brisca.agents import AgentError, make_agent
from brisca.agents.heuristic import Situation
from brisca.agents.learned import FOLLOW, LEAD, WEIGHTS, applies, choose_learned, features, score
from brisca.arena import run_arena
from brisca.cards import Card, Suit, parse_cards
from brisca.game import Game
from brisca.rules import find_variant

RULES = find_variant("spanish")
STRENGTH, POINTS = RULES.strength_table, RULES.point_table


def _situation(hand: str, trick: str = "", trump: str = "O", trumps_out: int = 8) -> Situation:
    top = [10, 10, 10, 10]  # every ace still out
    return Situation(parse_cards(hand), parse_cards(trick), Suit.parse(trump), STRENGTH, POINTS, False,
                     not trick, trumps_out, top)


def test_a_lead_and_a_follow_fill_their_own_features() -> None:
    hand = [c.index for c in parse_cards("1C 4E 2O")]
    ace = Card.parse("1C").index
    led = features(ace, int(Suit.parse("O")), STRENGTH, POINTS, hand, [], -1, False, True, 8, [10] * 4, 20)
    assert len(led) == LEAD + FOLLOW == len(WEIGHTS)
    assert any(led[:LEAD]) and not any(led[LEAD:])
    king = Card.parse("12C").index
    followed = features(ace, int(Suit.parse("O")), STRENGTH, POINTS, hand, [king], king, False, False, 8, [10] * 4, 20)
    assert not any(followed[:LEAD]) and any(followed[LEAD:])
    # The ace beats the king: "wins" and "wins times the points on the table" (the king's 4).
    assert followed[LEAD + 2] == 1 and followed[LEAD + 3] == 4


def test_the_score_is_the_weighed_sum_of_the_features() -> None:
    hand = [c.index for c in parse_cards("1C 4E 2O")]
    for card in hand:
        f = features(card, 0, STRENGTH, POINTS, hand, [], -1, False, True, 8, [10] * 4, 4)
        assert score(card, 0, STRENGTH, POINTS, hand, [], -1, False, True, 8, [10] * 4, 4) == sum(
            w * x for w, x in zip(WEIGHTS, f, strict=True))


def test_the_choice_is_the_highest_score_the_first_of_equals() -> None:
    s = _situation("4E 5C 6B")
    assert choose_learned(s, 20, (0,) * len(WEIGHTS)) == Card.parse("4E")  # all equal: the first card
    weights = [0] * len(WEIGHTS)
    weights[3] = 1  # leading: the strongest card
    assert choose_learned(s, 20, weights) == Card.parse("6B")


def test_the_fit_plays_like_a_player() -> None:
    """What any decent player does, as the fitted weights read it: trump an ace (11 points) with a worthless trump
    rather than throw a card; second to a worthless card, take it with the ace of its suit (11 points banked, no
    card can beat it); leading, keep the ace of trumps back."""
    assert choose_learned(_situation("2O 4E 12B", "1C"), 20) == Card.parse("2O")
    assert choose_learned(_situation("1C 5E 6B", "4C"), 20) == Card.parse("1C")
    assert choose_learned(_situation("1O 4E 12B"), 20) != Card.parse("1O")


def test_the_learned_heuristic_beats_the_rules_heuristic() -> None:
    """A smoke test (docs/strength.md has the full runs: 0.581 over 4,000 games)."""
    row = run_arena(["heuristic[policy=learned]", "heuristic"], games=150, seed=3).pair_table()[0]
    assert row["a"] == "heuristic[policy=learned]" and row["score"] > 0.5, row


def _moves(agent: str, variant: str, players: int, seed: int) -> list[str]:
    game = Game(find_variant(variant), players, seed=seed)
    agents = [make_agent(agent, seed=seat) for seat in range(players)]
    moves = []
    while not game.is_over():
        seat = game.turn
        assert seat is not None
        action = agents[seat].act(game.view(seat))
        moves.append(str(action))
        game.apply(action)
    return moves


def test_the_learned_choice_plays_only_the_games_it_was_fitted_to() -> None:
    """Two players, the most points winning: elsewhere (four players, ``mexican``) the rules play, move for move."""
    assert applies(RULES, 2) and not applies(RULES, 4) and not applies(find_variant("mexican"), 2)
    for variant, players in (("spanish", 4), ("mexican", 2)):
        for seed in range(3):
            assert _moves("heuristic[policy=learned]", variant, players, seed) == _moves("heuristic", variant,
                                                                                         players, seed)
    assert any(_moves("heuristic[policy=learned]", "spanish", 2, seed) != _moves("heuristic", "spanish", 2, seed)
               for seed in range(3))


def test_bad_policy_names_get_one_clear_message() -> None:
    with pytest.raises(AgentError, match="policy is rules or learned"):
        make_agent("heuristic[policy=clever]")
    with pytest.raises(AgentError, match="rollout is heuristic, learned or net"):
        make_agent("expert[rollout=clever]")
