"""The expert's rollout policy (``brisca.agents.rollout``): what it counts, and what the greedy seats in it play."""

from __future__ import annotations

import random

import pytest

from brisca import Game
from brisca.actions import Play, Signal
from brisca.agents import rollout
from brisca.agents.heuristic import Situation
from brisca.agents.rollout import RolloutPolicy, greedy_action
from brisca.agents.simple import greedy_card
from brisca.cards import Card, Rank


def _positions(variant: str, players: int, seeds: range, keep: object) -> list[Game]:
    """Positions of random games where ``keep(game)`` holds (at most one a game)."""
    out = []
    for seed in seeds:
        rng = random.Random(seed)
        game = Game(variant, players, seed=seed)
        while not game.is_over():
            if keep(game):  # type: ignore[operator]
                out.append(game)
                break
            game.apply(rng.choice(game.legal_actions()))
    return out


def _prisoner(game: Game) -> bool:
    """The seat to play holds the ace of trumps and may not play it (muerte al tres)."""
    ace = Play(Card(Rank.ACE, game.trump))
    hand = game.hand(game.turn)  # type: ignore[arg-type]
    return ace.card in hand and len(hand) > 1 and ace not in game.legal_actions()


def test_the_policy_counts_the_prisoner_ace_as_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    """The ace of trumps it may not play yet is still in its hand: not a trump out, not the top trump out."""
    seen: list[Situation] = []
    real = rollout.choose

    def spy(s: Situation) -> Card:
        seen.append(s)
        return real(s)

    monkeypatch.setattr(rollout, "choose", spy)
    games = _positions("muerte-al-tres", 2, range(60), _prisoner)
    assert len(games) >= 10
    counted = 0
    for game in games:
        seen.clear()
        RolloutPolicy(game).action(game)
        if not seen:
            continue  # the exchange, or one card to play: nothing counted
        counted += 1
        s = seen[0]
        ace = Card(Rank.ACE, game.trump)
        hand = game.hand(game.turn)  # type: ignore[arg-type]
        assert ace not in s.hand
        played = {c for t in game.tricks for c in t.cards} | set(game.trick)
        trumps = [c for c in game.rules.layout(2).cards if c.suit is game.trump and c not in played]
        assert s.trumps_out == sum(1 for c in trumps if c not in hand)
        strength = game.rules.strength_table
        assert s.top_out[game.trump] == max((strength[c.index] for c in trumps if c not in hand), default=0)
        assert s.top_out[game.trump] < strength[ace.index]
    assert counted >= 10, "the spy saw too few card choices: does the policy still call this choose?"


def test_greedy_seats_never_signal_in_the_rollouts() -> None:
    """Bixkla: where a signal is legal too, a seat read as greedy plays the greedy rule's card (it used to hand
    the move to the heuristic)."""
    games = _positions("bixkla", 4, range(40), lambda g: any(isinstance(a, Signal) for a in g.legal_actions()))
    assert len(games) >= 10
    for game in games:
        legal = game.legal_actions()
        cards = [a.card for a in legal if isinstance(a, Play)]
        expected = greedy_card(cards, game.trick, game.trump, game.rules.strength_table, game.rules.point_table)
        assert greedy_action(game) == Play(expected)
