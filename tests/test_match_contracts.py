"""Matches and records of the games with an auction: match points, void hands, replay output."""

from __future__ import annotations

import json
import random

import pytest

from brisca import Game, Match
from brisca.actions import PASS, Action, Bid, Call, Discard, Pass, TrumpChoice
from brisca.record import MatchRecord, Record, loads, match_summary, summary
from brisca.rulebook import rules_text
from brisca.rules import find_variant


def _play_out(game: Game, rng: random.Random) -> None:
    while not game.is_over():
        acts = game.legal_actions()
        # Random bidding ends in hopeless contracts; pass more often so that contracts are made too.
        if PASS in acts and rng.random() < 0.6:
            game.apply(PASS)
        else:
            game.apply(rng.choice(acts))


# Rematada's first-article reading (the bids added up to 500): its preset counts game points instead.
@pytest.mark.parametrize(("variant", "players", "options"),
                         [("rematada", 3, {"match": "target_points"}), ("chiamata", 5, {})])
def test_a_match_adds_up_the_match_points_and_ends_at_the_target(
        variant: str, players: int, options: dict[str, object]) -> None:
    rng = random.Random(5)
    match = Match(variant, players, seed=11, options=options)
    while True:
        _play_out(match.game, rng)
        if match.is_over():
            break
        match.next_hand()
    totals = [0] * players
    for r in match.results:
        assert r.scores is not None
        for s, p in enumerate(r.scores):
            totals[s] += p
    assert list(match.points) == totals
    target = find_variant(variant).target_points
    winner = match.winner
    assert winner is not None and totals[winner] >= target
    assert all(p < totals[winner] for s, p in enumerate(totals) if s != winner)
    # The match record replays to the same games and the same summary.
    record = MatchRecord.from_match(match)
    again = loads(record.dumps())
    assert isinstance(again, MatchRecord)
    games = again.replay()
    out = match_summary(again, games)
    assert out["match_winner"] == winner and out["match_points"] == totals
    for hand, game in zip(out["hands"], match.games, strict=True):
        result = game.result()
        assert result is not None
        assert hand["scores"] == list(result.scores or ())


def test_chiamata_scores_sum_to_zero_and_follow_the_table() -> None:
    for seed in range(60):
        game = Game("chiamata", 5, seed=seed)
        _play_out(game, random.Random(seed))
        result = game.result()
        assert result is not None and result.scores is not None
        assert sum(result.scores) == 0
        c = result.contract
        if c is None:
            assert result.reason == "all-passed" and result.scores == (0,) * 5
            continue
        sign = 1 if result.reason == "made" else -1
        assert result.reason in ("made", "set")
        assert result.scores[c.declarer] == sign * (4 if c.alone else 2)
        if not c.alone:
            assert c.partner is not None and result.scores[c.partner] == sign
        side = c.side()
        taken = sum(result.side_points[s] for s in side)
        assert (taken >= c.points) == (result.reason == "made")


def test_a_void_hand_passes_the_deal_and_counts_nothing() -> None:
    match = Match("chiamata", 5, seed=1)
    for _ in range(5):
        match.game.apply(PASS)
    result = match.game.result()
    assert result is not None and result.reason == "all-passed" and result.scores == (0,) * 5
    assert match.game.contract is None
    assert match.next_dealer == (match.game.dealer + 1) % 5
    first_dealer = match.game.dealer
    match.next_hand()
    assert match.game.dealer == (first_dealer + 1) % 5 and match.points == (0,) * 5


def test_rematada_last_seat_must_bid_and_the_summary_tells_the_contract() -> None:
    game = Game("rematada", 3, seed=4)
    game.apply(PASS)
    game.apply(PASS)
    acts = game.legal_actions()
    assert PASS not in acts and acts[0] == Bid(100)
    game.apply(Bid(100))
    declarer = game.turn
    assert declarer == game.dealer and game.phase == "discard"
    hand = game.hand(declarer)
    assert len(hand) == 12 and set(game.talon) <= set(hand)
    discard = Discard(*sorted(hand)[:2])
    game.apply(discard)
    game.apply(TrumpChoice(game.talon[0].suit))
    assert game.phase == "play" and game.turn == declarer
    out = summary(game)
    assert out["auction"] == [{"seat": 0, "pass": True}, {"seat": 1, "pass": True}, {"seat": 2, "bid": 100}]
    assert out["contract"]["declarer"] == declarer and out["contract"]["points"] == 100
    assert out["discards"] == [str(c) for c in discard.cards]
    assert out["talon"] == [str(c) for c in game.talon]
    # Everybody sees the talon now, only the declarer his discards.
    for seat in range(3):
        view = game.view(seat)
        assert view.talon == game.talon
        assert view.discards == (discard.cards if seat == declarer else ())
        assert all(not isinstance(a, Discard) for s, a in view.history if s != seat)


def test_a_called_card_makes_the_trump_and_the_hidden_partner() -> None:
    game = Game("chiamata", 5, seed=9)
    game.apply(Bid(61))
    for _ in range(4):
        game.apply(PASS)
    assert game.phase == "call" and game.turn == 0
    holder = 3
    card = game.hand(holder)[0]
    game.apply(Call(card))
    contract = game.contract
    assert contract is not None and contract.partner == holder and contract.trump is card.suit
    assert game.trump is card.suit and game.turn == 0
    for seat in (None, 0, 1, 2, 3, 4):
        view = game.view(seat)
        assert view.contract is not None and view.contract.partner is None
        assert view.contract.called == card
    json.dumps(summary(game))


def test_bad_auction_input_is_refused_and_changes_nothing() -> None:
    game = Game("rematada", 3, seed=2)
    game.apply(Bid(120))
    before = Record.from_game(game).to_json()
    for bad in ("bid 110", "bid 125", "bid 240", "bid rank 3", "1O", "trump O", "discard 1O 3O", "call 3O"):
        with pytest.raises(Exception) as info:
            game.apply(Action.parse(bad))
        assert str(info.value)
        assert Record.from_game(game).to_json() == before
    assert isinstance(game.legal_actions()[0], Pass)


@pytest.mark.parametrize("lang", ["en", "es", "it"])
@pytest.mark.parametrize("variant", ["chilean", "rematada", "chiamata"])
def test_the_rule_pages_describe_the_auction_and_the_deal(variant: str, lang: str) -> None:
    text = rules_text(find_variant(variant), lang)  # type: ignore[arg-type]
    markers = {
        "chilean": {"en": "Vales", "es": "Vales", "it": "Vales"},
        "rematada": {"en": "talon", "es": "talón", "it": "monte"},
        "chiamata": {"en": "hidden partner", "es": "compañero oculto", "it": "socio segreto"},
    }
    assert markers[variant][lang] in text
