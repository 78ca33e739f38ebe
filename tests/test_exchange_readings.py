"""The trump exchange as 001 and 000 read it, and Briscola's regional values with the rank order kept.

Positions are built from crafted decks (``reference.build_deck``), and each test's docstring quotes the
passage of the rule sources (``shared/seeds/``) it follows.
"""

from __future__ import annotations

from typing import Any

import pytest

from brisca import Announce, Card, Exchange, Game, IllegalActionError, Play, RecordError, RulesError, find_variant
from brisca.record import Record, loads, summary
from reference import build_deck

C = Card.parse
ANNOUNCED = {"trump_exchange": "announced"}
OUT_OF_TURN = {"trump_exchange": "out_of_turn"}


def cs(text: str) -> tuple[Card, ...]:
    return tuple(C(t) for t in text.split())


def game_with(players: int, dealer: int, hands: dict[int, list[str]], turned: str, stock: list[str] | None = None,
              options: dict[str, Any] | None = None, variant: str = "spanish") -> Game:
    return Game(variant, players, dealer=dealer, deck=build_deck(players, dealer, hands, turned, stock or ()),
                options=options)


def legal(game: Game, seat: int | None = None) -> set[str]:
    return {str(a) for a in game.legal_actions(seat)}


def play(game: Game, *actions: str) -> None:
    for a in actions:
        game.apply(a)


def replayed(game: Game) -> Game:
    """The game rebuilt from its record's JSON text."""
    back = loads(Record.from_game(game).dumps())
    assert isinstance(back, Record)
    return back.replay()


# --------------------------------------------------------------------------- announced (001)

#: Two players, dealer 1: seat 0 leads holding the 7 of trumps; the ace of oros is turned up.
TWO = {0: ["7O", "1C", "4B"], 1: ["2C", "5B", "6E"]}
TWO_STOCK = ["3E", "2O", "4C", "5C"]


def test_an_announced_exchange_is_made_as_the_announcer_wins_its_next_trick() -> None:
    """001: "To exchange it, the player must notify his opponent by placing his trump two or seven under the
    face-up trump. Then, the next time after the player wins a trick, before the stock on the table is finished,
    he can add the face-up trump to his hand."

    Seat 0 lays the 7 under the face-up ace before it has won anything; it then plays with two cards, the 7 in
    everybody's sight. It wins the trick with the ace of cups, takes the face-up ace before the draw (so it draws
    the 3 of swords after it), and the 7 stays in the stock as the face-up card, which seat 1 then announces with
    its 2 (a 7 given can be taken with the 2: ``exchange_chain``).
    """
    game = game_with(2, 1, TWO, "1O", TWO_STOCK, ANNOUNCED)
    assert legal(game) == {"7O", "1C", "4B", "announce 7O"}  # no trick won needed: the win comes after
    assert "x7O" not in legal(game)
    game.apply("announce 7O")
    assert game.turn == 0 and game.hand(0) == cs("1C 4B") and game.face_up is C("1O")
    for viewer in (None, 0, 1):
        view = game.view(viewer)
        assert view.announced == (0, C("7O")) and view.hand_sizes == (2, 3)
        assert C("7O") not in view.unseen_cards()
    assert game.view(1).known == ()  # the 7 lies under the face-up card, in no hand
    assert legal(game) == {"1C", "4B"}  # one announcement at a time
    play(game, "1C", "2C")
    assert game.tricks[-1].winner == 0
    assert game.hand(0) == cs("4B 1O 3E") and game.hand(1) == cs("5B 6E 2O")
    assert game.exchanges == ((0, C("7O"), C("1O")),) and game.face_up is C("7O")
    assert game.view(1).announced is None and (0, C("1O")) in game.view(1).known
    assert legal(game) == {"4B", "1O", "3E"}
    play(game, "4B")
    assert legal(game) == {"5B", "6E", "2O", "announce 2O"}
    game.apply("announce 2O")
    assert game.view(0).announced == (1, C("2O"))
    play(game, "5B")  # seat 1 wins: it takes the 7 and leaves the 2 face up
    assert game.exchanges[-1] == (1, C("2O"), C("7O")) and game.face_up is C("2O")
    assert summary(game)["announcements"] == [
        {"seat": 0, "card": "7O", "result": "exchanged"}, {"seat": 1, "card": "2O", "result": "exchanged"}]
    assert replayed(game).history == game.history and replayed(game).hand(0) == game.hand(0)


#: Six players (the 2s out), dealer 5: seat 0 leads each trick's order 0..5 after seat 1 and seat 2 win.
SIX = {0: ["7O", "4C", "4E"], 1: ["1C", "1E", "4B"], 2: ["5C", "5E", "1B"], 3: ["6C", "6E", "6B"],
       4: ["7C", "7E", "7B"], 5: ["10C", "10E", "10B"]}
#: Round 1 (seat 1 first, seat 0 last: 3B), round 2 (seat 0 last again: 10O), then the last round.
SIX_STOCK = ["11C", "11E", "11B", "12C", "12E", "3B", "12B", "3C", "3E", "11O", "12O", "10O"]


def six_player_game() -> Game:
    game = game_with(6, 5, SIX, "1O", SIX_STOCK, ANNOUNCED)
    assert game.turn == 0 and game.stock_count == 18  # three rounds of draws
    return game


def test_the_trump_goes_back_when_the_face_up_card_is_drawn_first() -> None:
    """001: "If he does not win any trick before the face-up trump is drawn from the stock, then, he simply takes
    his two or seven back."

    Seat 0 announces in the first trick and wins none of the three tricks the stock lasts: the face-up ace is
    drawn last, by seat 1 after seat 2's trick, and the 7 goes back to seat 0, which then holds three cards like
    everybody (the 7 known to all: it lay face up).
    """
    game = six_player_game()
    game.apply("announce 7O")
    play(game, "4C", "1C", "5C", "6C", "7C", "10C")  # seat 1 wins; seat 0 draws 3B last
    assert game.view(3).hand_sizes == (2, 3, 3, 3, 3, 3) and game.view(3).announced == (0, C("7O"))
    play(game, "1E", "5E", "6E", "7E", "10E", "4E")  # seat 1 wins; seat 0 draws 10O last
    assert game.hand(0) == cs("3B 10O") and game.stock_count == 6
    play(game, "4B", "1B", "6B", "7B", "10B", "3B")  # seat 2 wins: 2, 3, 4, 5, 0 draw, seat 1 takes the ace
    assert game.tricks[-1].winner == 2 and game.stock_count == 0
    assert C("1O") in game.hand(1) and game.hand(0)[-1] is C("7O") and len(game.hand(0)) == 3
    assert {len(game.hand(s)) for s in range(6)} == {3}
    assert game.exchanges == () and game.taken_back == ((0, C("7O")),)
    view = game.view(3)
    assert view.announced is None and {(0, C("7O")), (1, C("1O"))} <= set(view.known)
    assert summary(game)["announcements"] == [{"seat": 0, "card": "7O", "result": "taken back"}]
    assert replayed(game).hand(0) == game.hand(0)


def test_an_exchange_announced_in_the_last_round_is_made_before_the_last_draw() -> None:
    """001: "the next time after the player wins a trick, before the stock on the table is finished, he can add
    the face-up trump to his hand."

    The stock lasts until the draws that follow the third trick. Seat 0 announces in that trick and wins it with
    the 10 of trumps: it takes the face-up ace as it wins, before the draw, so the stock is not finished; the 7
    takes the ace's place at the bottom of the stock, and seat 5, last to draw, draws the 7 (in everybody's
    sight), not the ace.
    """
    game = six_player_game()
    play(game, "4C", "1C", "5C", "6C", "7C", "10C", "1E", "5E", "6E", "7E", "10E", "4E")
    play(game, "4B", "1B", "6B", "7B", "10B")
    assert game.turn == 0 and game.hand(0) == cs("7O 3B 10O")
    game.apply("announce 7O")
    game.apply("10O")
    assert game.tricks[-1].winner == 0 and game.stock_count == 0
    assert game.hand(0)[:2] == cs("3B 1O") and len(game.hand(0)) == 3
    assert game.hand(5)[-1] is C("7O")
    assert game.exchanges == ((0, C("7O"), C("1O")),)
    known = set(game.view(2).known)
    assert {(0, C("1O")), (5, C("7O"))} <= known
    assert game.received(5)[-1] is C("7O")  # what seat 5 drew
    assert replayed(game).hand(5) == game.hand(5)


def test_what_may_not_be_announced_and_why() -> None:
    """001: "To exchange it, the player must notify his opponent by placing his trump two or seven under the
    face-up trump": under this reading the exchange is always announced first, never made at once.

    The refusals say why: an exchange made at once, a card that does not take the face-up card, a card not held,
    a second announcement while one waits. A seat keeps a card to play (with one card only it may not lay it).
    """
    game = game_with(2, 1, TWO, "1O", TWO_STOCK, ANNOUNCED)
    with pytest.raises(IllegalActionError, match="announce"):
        game.apply("x7O")
    with pytest.raises(IllegalActionError, match="taken with 7O"):
        game.apply("announce 2O")
    game.apply(Announce(C("7O")))
    with pytest.raises(IllegalActionError, match="already laid 7O"):
        game.apply("announce 7O")
    rest = [c for c in find_variant("spanish").deck_cards(2) if str(c) not in ("7O", "2C", "1O")]
    one = Game("spanish", 2, dealer=1, deck=[C("7O"), C("2C"), C("1O"), *rest],
               options={**ANNOUNCED, "hand_size": 1})
    assert one.hand(0) == cs("7O") and one.face_up is C("1O") and legal(one) == {"7O"}
    with pytest.raises(IllegalActionError, match="keep a card"):
        one.apply("announce 7O")
    other = game_with(2, 1, TWO, "1O", TWO_STOCK, {"trump_exchange": "after_win"})
    with pytest.raises(IllegalActionError, match="not announced"):
        other.apply("announce 7O")
    assert Announce(C("7O")).to_json() == {"announce": "7O"} and str(Announce(C("7O"))) == "announce 7O"


# --------------------------------------------------------------------------- out of turn (000)


def test_an_exchange_out_of_turn_even_while_playing_a_trick() -> None:
    """000: "If the card that is turned as trumps is greater than Seven, it can be exchanged for the Seven of the
    same suit by any player who has it, at any time, even while playing a trick, provided that the player in
    question has won at least one trick."

    Seat 0 wins the first trick and leads the second; while seat 1 is to play, seat 0 exchanges its 7 for the
    face-up ace. The turn stays with seat 1, and the record says who exchanged, where, so it replays exactly.
    """
    game = game_with(2, 1, TWO, "1O", TWO_STOCK, OUT_OF_TURN)
    assert legal(game, 1) == set() and legal(game) == {"7O", "1C", "4B"}  # nobody has won a trick yet
    play(game, "1C", "2C", "4B")
    assert game.turn == 1
    assert legal(game, 0) == {"x7O"} and legal(game) == {"5B", "6E", "2O"}
    assert game.view(0).out_of_turn == (Exchange(C("7O")),) and game.view(0).legal_actions == ()
    assert game.view(1).out_of_turn == () and game.view(None).out_of_turn == ()
    game.apply("x7O", seat=0)
    assert game.turn == 1 and game.history[-1] == (0, Exchange(C("7O")))
    assert C("1O") in game.hand(0) and game.face_up is C("7O") and legal(game, 0) == set()
    data = Record.from_game(game).to_json()
    assert data["actions"][-1] == {"seat": 0, "exchange": "7O"}
    assert replayed(game).history == game.history and replayed(game).turn == 1
    game.apply("5B")
    assert game.tricks[-1].winner == 1


def test_only_the_exchange_is_made_out_of_turn() -> None:
    """000 allows the exchange "at any time"; nothing else is played out of turn, and under the other readings
    not even the exchange (the seat waits for its turn)."""
    game = game_with(2, 1, TWO, "1O", TWO_STOCK, OUT_OF_TURN)
    play(game, "1C", "2C", "4B")
    with pytest.raises(IllegalActionError, match="out of turn: seat 1 is to act, not seat 0"):
        game.apply("3E", seat=0)
    with pytest.raises(IllegalActionError, match="taken with 7O, not 2O"):
        game.apply("x2O", seat=0)
    with pytest.raises(RulesError):
        game.legal_actions(seat=2)
    after_win = game_with(2, 1, TWO, "1O", TWO_STOCK)
    play(after_win, "1C", "2C", "4B")
    assert legal(after_win, 0) == set() and after_win.view(0).out_of_turn == ()
    with pytest.raises(IllegalActionError, match="out of turn"):
        after_win.apply("x7O", seat=0)
    after_win.apply("5B", seat=1)  # the seat to act may be named too
    assert after_win.tricks[-1].winner == 1
    bad = Record.from_game(after_win)
    bad.actions.append((0, Exchange(C("7O"))))
    bad.actions.insert(3, bad.actions.pop())
    with pytest.raises(RecordError, match="action 3: out of turn"):
        bad.replay()


# --------------------------------------------------------------------------- values with the ranks kept (000)


def trick_of(variant: str, lead: str, follow: str) -> tuple[int, int]:
    """Seat 0 leads ``lead``, seat 1 follows with ``follow``: the trick's winner and points."""
    game = game_with(2, 1, {0: [lead, "4B", "5B"], 1: [follow, "4E", "5E"]}, "6O", variant=variant)
    play(game, lead, follow)
    return game.tricks[0].winner, game.tricks[0].points


def test_lombard_values_with_the_ranks_kept() -> None:
    """000: "In parts of Lombardy and Piedmont a Seven is worth 10 points and a Three is worth nothing."

    Only the values change in ``lombard-kept-ranks``: the three still takes the seven, for 10 points (the seven's);
    in ``lombard`` the ranks move with the values, and the seven takes the three.
    """
    assert trick_of("lombard-kept-ranks", "7C", "3C") == (1, 10)
    assert trick_of("lombard", "7C", "3C") == (0, 10)
    assert trick_of("lombard-kept-ranks", "10C", "7C") == (0, 12)  # a jack takes a seven
    assert find_variant("lombard-kept-ranks").strength_order() == find_variant("briscola").strength_order()
    assert find_variant("lombard-kept-ranks").points == find_variant("lombard").points


def test_tuscan_values_with_the_ranks_kept() -> None:
    """000: "In parts of Tuscany the values of the Jack and Knight are reversed."

    In ``tuscan-kept-ranks`` the jack scores 3 and the knight 2, and the knight still takes the jack; in ``tuscan``
    the jack takes the knight.
    """
    assert trick_of("tuscan-kept-ranks", "10C", "11C") == (1, 5)
    assert trick_of("tuscan", "10C", "11C") == (0, 5)
    game = game_with(2, 1, {0: ["10C", "4B", "5B"], 1: ["4C", "4E", "5E"]}, "6O", variant="tuscan-kept-ranks")
    play(game, "10C", "4C")
    assert game.tricks[0].points == 3
    assert find_variant("tuscan-kept-ranks").strength_order() == find_variant("briscola").strength_order()


def test_every_play_is_still_a_play() -> None:
    """(The new action sits beside the others: a card play stays a play under every exchange reading.)"""
    for options in (ANNOUNCED, OUT_OF_TURN):
        game = game_with(2, 1, TWO, "1O", TWO_STOCK, options)
        assert Play(C("1C")) in game.legal_actions()
