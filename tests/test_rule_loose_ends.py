"""The last loose ends of the rule sources, on hand-built positions: a capote finished by a claim (Encyclopedia),
Bixkla's set number of hands (Briscola guide), and the readings offered both ways: the claim by a seat or by a side
(Encyclopedia), the face-up card to the last to draw (Briscola guide) or to the trick's winner (Encyclopedia,
second article), and Briscola Chiamata's target reached by several in one hand (Briscola guide)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from brisca import Game, Match, find_variant
from brisca.actions import CLAIM, PASS, PLAYS, Claim, Play
from brisca.cards import Card
from brisca.game.results import HandResult
from brisca.record import MatchRecord
from brisca.rulebook import rules_lines
from brisca.worlds import stock_draws
from test_chilean_duties import alce_deck
from test_rule_readings import options_of
from variant_referee import Hand, replay_record

#: Dealt alce by seat 3 (chilean): seat 0 holds nine trumps (oros) and the ace of copas, the dealer the 4 of oros.
CAPOTE = [
    "1O 2O 12O 11O 10O 7O 6O 5O 3O 1C",
    "2C 3C 4C 5C 6C 7C 10C 11C 12C 1E",
    "2E 3E 4E 5E 6E 7E 10E 11E 12E 1B",
    "2B 3B 4B 5B 6B 7B 10B 11B 12B 4O",
]

#: Dealt alce by seat 3 (chilean): the five best trumps are seat 0's, four more its partner's (seat 2), the 4 of
#: oros the dealer's; seat 0 also holds the aces of copas and espadas.
SPLIT = [
    "1O 2O 12O 11O 10O 1C 1E 2E 1B 2B",
    "4C 5C 6C 7C 10C 11C 12C 3E 4E 5E",
    "7O 6O 5O 3O 2C 3C 12E 11E 10E 7E",
    "6E 3B 4B 5B 6B 7B 10B 11B 12B 4O",
]


def lead(game: Game, cards: str) -> None:
    """Seat 0 plays ``cards`` in turn; the others play their first legal card; every vale goes unmarked."""
    wanted = [Card.parse(c) for c in cards.split()]
    while (wanted or game.trick) and not game.is_over():
        if game.phase == "mark":  # type: ignore[attr-defined]
            game.apply(PASS)
        elif game.turn == 0:
            game.apply(PLAYS[wanted.pop(0).index])
        else:
            game.apply(next(a for a in game.legal_actions() if isinstance(a, Play)))
    while not game.is_over() and game.phase == "mark":  # type: ignore[attr-defined]
        game.apply(PASS)


# ------------------------------------------------------------------ a capote finished by a claim


@pytest.mark.parametrize(("capote", "over"), [("match", True), ("hand", False)])
def test_a_side_that_won_every_trick_and_claimed_the_rest_makes_capote(capote: str, over: bool) -> None:
    """Encyclopedia: 'capturing all tricks allows a player to win the game in a single deal', and a claim takes the
    final tricks 'which they would win anyway': seat 0 wins the first two tricks, then claims the eight left with
    the eight trumps still out. Taking every trick by claim is taking every trick."""
    match = Match("chilean", 4, dealer=3, deck=alce_deck(CAPOTE),
                  options={"deal": "alce", "claim": True, "capote": capote, "target_hands": 3})
    game = match.game
    lead(game, "1O 1C")
    assert {t.winner % 2 for t in game.tricks} == {0} and len(game.tricks) == 2
    assert CLAIM in game.legal_actions()
    game.apply(CLAIM)
    result = game.result()
    assert result is not None and result.reason == "capote" and result.winner == 0
    assert match.is_over() is over and match.winner == (0 if over else None)
    want = replay_record(json.loads(MatchRecord.from_match(match).dumps()),
                         options_of("chilean", deal="alce", claim=True, capote=capote, target_hands=3))
    assert want["hands"][0]["reason"] == "capote" and want["match_winner"] == match.winner


def test_a_claim_after_a_trick_lost_is_no_capote() -> None:
    """The dealer trumps seat 0's ace of copas in the first trick: the claim later takes the rest, not every
    trick, and the hand is scored by its points."""
    match = Match("chilean", 4, dealer=3, deck=alce_deck(CAPOTE),
                  options={"deal": "alce", "claim": True, "capote": "match", "target_hands": 3})
    game = match.game
    lead(game, "1C")
    assert game.tricks[0].winner == 3
    while not game.is_over():
        legal = game.legal_actions()
        if CLAIM in legal:
            game.apply(CLAIM)
        elif game.phase == "mark":  # type: ignore[attr-defined]
            game.apply(PASS)
        else:
            game.apply(max((a for a in legal if isinstance(a, Play)),
                           key=lambda a: game.rules.strength_table[a.card.index] + 100 * (a.card.suit is game.trump)))
    result = game.result()
    assert game.claim is not None and result is not None and result.reason == "points"
    assert not match.is_over()


# ------------------------------------------------------------------ Bixkla's set number of hands


def test_bixkla_plays_a_set_number_of_hands() -> None:
    """Briscola guide: 'After a set number of hands, the team with the highest number of Game Points (equal to the
    number of Games won) is declared the winner.' The preset plays three hands, and its page says why."""
    bixkla = find_variant("bixkla")
    assert (bixkla.match, bixkla.hands) == ("fixed_hands", 3)
    assert any("'After a set number of hands" in r and "`hands: 3`" in r for r in bixkla.readings)
    assert any(line.startswith("Match: 3 hands") for line in rules_lines(bixkla))
    match = Match("bixkla", 4, seed=5)
    while not match.is_over():
        game = match.game
        while not game.is_over():
            game.apply(game.legal_actions()[0])
        if not match.is_over():
            match.next_hand()
    assert match.deals_done >= 3
    wins = match.hands_won
    assert match.winner is not None and wins[match.winner] > wins[1 - match.winner]
    if match.deals_done > 3:  # level after three: one more hand at a time until one leads
        assert sorted(wins)[0] == sorted(wins)[1] - 1


# ------------------------------------------------------------------ the claim by a seat or by a side


def test_a_seat_claims_only_on_the_trumps_it_sees() -> None:
    """``claim_by: seat``: after three tricks seat 0 holds four of the seven trumps left, its partner the other
    three (unseen, chilean partners do not look): no claim is offered, and the hand is played on."""
    game = Game("chilean", 4, dealer=3, deck=alce_deck(SPLIT), options={"deal": "alce", "claim": True})
    lead(game, "1O 1C 1E")
    assert len(game.tricks) == 3 and not game.is_over()
    assert not any(isinstance(a, Claim) for a in game.legal_actions())
    assert game.claim is None


def test_a_sides_claim_is_made_for_it() -> None:
    """``claim_by: side`` (Encyclopedia: 'if a team has in its tricks the three highest trumps, it announces this and
    collects all the cards, without having to play the final tricks'): the same position, and the hand ends as the
    third trick is gathered: seat 0 and its partner hold the seven trumps left for the seven tricks left. Nobody
    was offered the claim, so nobody learnt a partner's cards from it."""
    options = {"deal": "alce", "claim": True, "claim_by": "side"}
    game = Game("chilean", 4, dealer=3, deck=alce_deck(SPLIT), options=options)
    lead(game, "1O 1C")
    assert not game.is_over()  # eight tricks left, seven trumps
    for seat in range(4):
        assert not any(isinstance(a, Claim) for a in game.view(seat).legal_actions)
    lead(game, "1E")
    assert game.is_over() and len(game.tricks) == 3
    assert game.claim is not None and game.claim[0] == 0 and len(game.claim[1]) == 28
    assert all(a is not CLAIM for _s, a in game.history)  # made for the side: a replay makes it again
    replayed = Game("chilean", 4, dealer=3, deck=alce_deck(SPLIT), options=options)
    for seat, action in game.history:
        replayed.apply(action, seat)
    assert replayed.claim == game.claim and replayed.result() == game.result()
    result = game.result()
    assert result is not None and result.winner == 0
    with pytest.raises(Exception, match="claim_by: side"):
        Game("chilean", 4, dealer=3, deck=alce_deck(SPLIT), options=options).apply(CLAIM)


#: Dealt alce by seat 3 (chilean): the dealer's side (seats 1 and 3) holds all ten trumps, the dealer's last card
#: the 4 of oros, the trump card.
ALL_TRUMPS = [
    "1C 2C 3C 4C 5C 6C 7C 10C 11C 12C",
    "1O 2O 12O 11O 10O 1E 2E 3E 4E 5E",
    "6E 7E 10E 11E 12E 1B 2B 3B 4B 5B",
    "7O 6O 5O 3O 6B 7B 10B 11B 12B 4O",
]


def test_a_side_holding_every_trump_takes_the_hand_before_the_first_lead() -> None:
    """Every card dealt, the dealer's side holds the ten trumps for the ten tricks: under ``claim_by: side`` it
    takes the hand before anybody leads, claimed by seat 1, its first seat in turn; with ``capote`` that is taking
    every trick. The referee deals it and agrees."""
    options = {"deal": "alce", "claim": True, "claim_by": "side", "capote": "match"}
    game = Game("chilean", 4, dealer=3, deck=alce_deck(ALL_TRUMPS), options=options)
    assert game.is_over() and game.tricks == () and game.claim is not None and game.claim[0] == 1
    result = game.result()
    assert result is not None and result.reason == "capote" and result.winner == 1
    ref = Hand(options_of("chilean", **options), 4, 3, alce_deck(ALL_TRUMPS))
    assert ref.claim is not None and ref.claim["seat"] == 1 and ref.outcome()[:2] == (1, "capote")
    seat_reading = Game("chilean", 4, dealer=3, deck=alce_deck(ALL_TRUMPS), options={**options, "claim_by": "seat"})
    assert not seat_reading.is_over()  # the leader, seat 0, holds no trump: nobody may claim yet


def test_the_claim_readings_on_the_page() -> None:
    chilean = find_variant("chilean")
    seat = rules_lines(chilean.with_options(claim=True))
    side = rules_lines(chilean.with_options(claim=True, claim_by="side"))
    assert any("(its own cards and partner cards it may see)" in s for s in seat)
    assert any("a side whose hands together hold the best trumps" in s for s in side)
    for lang in ("es", "it"):
        assert rules_lines(chilean.with_options(claim=True, claim_by="side"), lang) != rules_lines(
            chilean.with_options(claim=True), lang)


# ------------------------------------------------------------------ the face-up card


def last_round(face_up_to: str) -> Game:
    """Two players: the hand played on until the stock holds one card and the face-up one."""
    game = Game("spanish", 2, dealer=1, seed=3, options={"face_up_to": face_up_to})
    while len(game.stock()) > 2:
        game.apply(next(a for a in game.legal_actions() if isinstance(a, Play)))
    return game


@pytest.mark.parametrize("face_up_to", ["last_to_draw", "trick_winner"])
def test_who_takes_the_face_up_card(face_up_to: str) -> None:
    """Briscola guide: 'the last player to draw from the pile taking the face-up, Briscola card'; Encyclopedia,
    second article: 'This card becomes the last one drawn from the [stock] by the player who wins the final trick
    before the [stock] is exhausted'. The same last trick of the stock, both readings."""
    game = last_round(face_up_to)
    top, face_up = game.stock()
    while len(game.stock()) == 2:
        game.apply(next(a for a in game.legal_actions() if isinstance(a, Play)))
    winner = game.tricks[-1].winner
    taker = winner if face_up_to == "trick_winner" else 1 - winner
    assert face_up in game.hand(taker) and top in game.hand(1 - taker)
    assert (taker, face_up) in game.view(1 - taker).known  # everybody saw who took it
    assert game.received(taker)[-1] == face_up and game.received(1 - taker)[-1] == top
    assert stock_draws(winner, 2, 2, True, face_up_to == "trick_winner")[-1] == (taker, True)
    assert game.rules.plain is (face_up_to == "last_to_draw")


def test_the_face_up_readings_on_the_page() -> None:
    spanish = find_variant("spanish")
    lines = rules_lines(spanish.with_options(face_up_to="trick_winner"))
    assert "In the last round of draws the winner of the trick takes the face-up card; the others draw the other" \
        " cards in turn." in lines
    assert not any("winner of the trick takes the face-up" in s for s in rules_lines(spanish))


# ------------------------------------------------------------------ a target reached by several in one hand


def result(scores: tuple[int, ...]) -> HandResult:
    return HandResult(scores, scores, None, (), "made", scores=scores)


def match_after(scores: list[tuple[int, ...]], reading: str) -> Match:
    """A chiamata match whose hands scored ``scores`` (match points, seat by seat)."""
    match = Match("chiamata", 5, seed=1, options={"reached_together": reading} if reading != "higher" else None)
    match.games = []
    for s in scores:
        game: Any = type("Finished", (), {"result": staticmethod(lambda s=s: result(s)), "is_over": lambda _: True})()
        match.games.append(game)
    return match


@pytest.mark.parametrize(("scores", "higher", "more_hands"), [
    # one reaches 11 alone: he wins, either way
    ([(9, 1, -1, -1, -1), (2, 1, -1, -1, -1)], 0, 0),
    # two reach it in one hand, 12 and 11: the higher wins at once; or one more hand is played
    ([(9, 9, -1, -1, -1), (3, 2, -1, -1, -1)], 0, None),
    # two reach it level: both play on
    ([(9, 9, -1, -1, -1), (2, 2, -1, -1, -1)], None, None),
])
def test_several_reaching_the_target(scores: list[tuple[int, ...]], higher: int | None,
                                     more_hands: int | None) -> None:
    """Briscola guide, Briscola Chiamata: 'If two or more players reach this total in the same hand, additional hands
    are played until one player completes a hand with more points than any other player'
    (``reached_together: more_hands``); ``higher`` gives the match to the higher total at once."""
    assert match_after(scores, "higher").winner == higher
    assert match_after(scores, "more_hands").winner == more_hands


@pytest.mark.parametrize(("further", "winner"), [
    ([(-2, 4, -1, -1, -1)], 1),  # the further hand ends with seat 1 ahead (10 to 15): seat 1, though seat 0 led
    ([(1, 0, -1, -1, -1)], 0),  # seat 0 still ahead after it
    ([(0, 1, -1, -1, -1), (-1, 2, -1, -1, -1)], 1),  # level after it (12-12): on, until one ends a hand ahead
])
def test_the_additional_hands(further: list[tuple[int, ...]], winner: int) -> None:
    """Seats 0 and 1 reach 11 in the same hand (12 and 11): the match goes on, and the first further hand that ends
    with one player ahead of every other gives him the match."""
    reached = [(9, 9, -1, -1, -1), (3, 2, -1, -1, -1)]
    match = match_after(reached + further, "more_hands")
    assert match.winner == winner and match.is_over()
    assert match_after(reached + further[:-1], "more_hands").winner is None


def test_the_target_readings_on_the_page() -> None:
    chiamata = find_variant("chiamata")
    assert chiamata.reached_together == "higher"
    lines = rules_lines(chiamata.with_options(reached_together="more_hands"))
    assert any("if several reach it in the same hand, more hands are played" in s for s in lines)
    assert any("reached_together: more_hands" in r for r in chiamata.readings)


@pytest.mark.parametrize("seed", [5, 32])
def test_the_referee_agrees_on_matches_with_more_hands(seed: int) -> None:
    """Whole chiamata matches of random play under ``reached_together: more_hands``, replayed by the referee. In
    seed 32's, seats 1 and 3 reach 4 together in the fourth hand, and the fifth leaves seat 3 at 3, ahead of every
    other but under the target: the further hand is completed with more points than any other player, and seat 3
    wins (``higher`` plays a sixth hand)."""
    rng = random.Random(seed)
    match = Match("chiamata", 5, seed=seed, options={"reached_together": "more_hands", "target_points": 4})
    while True:
        game = match.game
        while not game.is_over():
            game.apply(rng.choice(game.legal_actions()))
        if match.is_over():
            break
        match.next_hand()
    want = replay_record(json.loads(MatchRecord.from_match(match).dumps()),
                         options_of("chiamata", reached_together="more_hands", target_points=4))
    assert want["match_over"] and want["match_winner"] == match.winner
