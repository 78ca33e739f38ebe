"""One hand of Brisca and a match: deal, tricks, draws, the trump exchange, errors, undo, clone, results.

Positions are built from crafted decks (``reference.build_deck`` places each
card where the deal rules put it), so every expectation here is derived from
the rules, not from the engine.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from brisca import (
    Action,
    Card,
    Exchange,
    Game,
    IllegalActionError,
    InvalidActionError,
    InvalidDeckError,
    Match,
    Play,
    RulesError,
)
from brisca.cards import ALL_CARDS
from brisca.game import HandResult, Trick
from reference import Referee, build_deck

C = Card.parse


def cs(text: str) -> tuple[Card, ...]:
    return tuple(C(t) for t in text.split())


def game_with(
    players: int,
    dealer: int,
    hands: dict[int, list[str]],
    turned: str,
    stock: Sequence[str] = (),
    options: dict[str, Any] | None = None,
) -> Game:
    deck48 = bool(options and options.get("deck") == 48)
    deck = build_deck(players, dealer, hands, turned, stock, deck48)
    return Game("spanish", players, dealer=dealer, deck=deck, options=options)


def play(game: Game, *actions: str) -> None:
    for a in actions:
        game.apply(a)


def legal(game: Game) -> set[str]:
    return {str(a) for a in game.legal_actions()}


def snapshot(game: Game) -> dict[str, Any]:
    """Every slot of the game (deep-copied) and every view: what "unchanged" means."""
    out: dict[str, Any] = {}
    for slot in Game.__slots__:
        value = getattr(game, slot)
        out[slot] = value if slot in ("rules", "_layout") else copy.deepcopy(value)
    out["views"] = [game.view(s) for s in (None, *range(game.players))]
    out["legal"] = list(game.legal_actions())
    return out


def finish(game: Game, rng: random.Random, policy: Callable[[Game], Action] | None = None) -> None:
    while not game.is_over():
        game.apply(policy(game) if policy else rng.choice(game.legal_actions()))


# ----------------------------------------------------------------------- deal


@pytest.mark.parametrize("players", [2, 3, 4, 6])
@pytest.mark.parametrize("deck_size", [40, 48])
def test_deal_order(players: int, deck_size: int) -> None:
    """One card at a time from the top, starting with the seat after the dealer, three rounds."""
    rng = random.Random(players * 100 + deck_size)
    for dealer in range(players):
        options = {"deck": deck_size}
        deck = list(Game("spanish", players, options=options).rules.deck_cards(players))
        rng.shuffle(deck)
        game = Game("spanish", players, dealer=dealer, deck=deck, options=options)
        assert game.deck == tuple(deck)
        n = players
        for seat in range(n):
            k = (seat - dealer - 1) % n
            assert game.hand(seat) == (deck[k], deck[k + n], deck[k + 2 * n]), (seat, dealer)
        assert game.turned is deck[3 * n]
        assert game.trump is deck[3 * n].suit
        assert game.stock_count == len(deck) - 3 * n


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_turned_card_is_face_up_at_the_bottom_of_the_stock(players: int) -> None:
    """The card turned up is the face-up card and the last one drawn; the stock is drawn from the top."""
    deck = list(Game("spanish", players).rules.deck_cards(players))
    random.Random(players).shuffle(deck)
    game = Game("spanish", players, dealer=players - 1, deck=deck)
    n = players
    assert game.face_up is deck[3 * n]
    assert game.stock() == (*deck[3 * n + 1:], deck[3 * n])
    assert game.view(0).face_up is deck[3 * n]


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_first_leader_is_after_the_dealer(players: int) -> None:
    for dealer in range(players):
        game = Game("spanish", players, dealer=dealer, seed=dealer)
        assert game.turn == game.leader == (dealer + 1) % players
        assert set(game.legal_actions()) == {Play(c) for c in game.hand(game.turn)}
    game = Game("spanish", players, seed=1)
    assert game.dealer == players - 1 and game.turn == 0


def test_seeded_deals_are_reproducible() -> None:
    assert Game("spanish", 4, seed=11).deck == Game("spanish", 4, seed=11).deck
    assert Game("spanish", 4, seed=11).deck != Game("spanish", 4, seed=12).deck
    assert Game("spanish", 4, seed=random.Random(3)).deck == Game("spanish", 4, seed=random.Random(3)).deck


def test_deck_given_as_strings_or_cards() -> None:
    deck = [str(c) for c in Game("spanish", 2, seed=4).deck]
    a = Game("spanish", 2, deck=deck)
    b = Game("spanish", 2, deck=[C(t) for t in deck])
    c = Game("spanish", 2, deck=[t.lower() for t in deck])
    assert a.deck == b.deck == c.deck == tuple(C(t) for t in deck)


@pytest.mark.parametrize(
    ("players", "change"),
    [
        (2, lambda d: d[:-1]),  # a card short
        (2, lambda d: [*d, "8O"]),  # a card too many, not in a 40-card deck
        (2, lambda d: [*d[:-1], d[0]]),  # a duplicate
        (2, lambda d: [*d[:-1], "9B"]),  # a card not in a 40-card deck
        (3, lambda d: [*d, "2O"]),  # the 2 of oros is out with 3 players
        (6, lambda d: [*d[:-1], "2E"]),  # the 2s are out with 6 players
        (2, lambda d: [*d[:-1], "zz"]),  # not a card
    ],
)
def test_bad_decks(players: int, change: Callable[[list[str]], list[str]]) -> None:
    deck = [str(c) for c in Game("spanish", players, seed=1).deck]
    with pytest.raises(InvalidDeckError, match="bad deck"):
        Game("spanish", players, deck=change(deck))
    assert issubclass(InvalidDeckError, RulesError)


@pytest.mark.parametrize("dealer", [-1, 2, 5, True, "0", 1.0])
def test_bad_dealer(dealer: object) -> None:
    with pytest.raises(RulesError, match="dealer"):
        Game("spanish", 2, dealer=dealer)  # type: ignore[arg-type]


# --------------------------------------------------------------------- tricks


HANDS2 = {0: ["1C", "4C", "5B"], 1: ["3C", "2O", "6E"]}


@pytest.mark.parametrize(
    ("lead", "follow", "winner", "points", "why"),
    [
        ("1C", "2O", 1, 11, "a trump beats the ace of the suit led"),
        ("1C", "3C", 0, 21, "the ace beats the three"),
        ("4C", "3C", 1, 10, "the higher card of the suit led wins"),
        ("4C", "6E", 0, 0, "a card off suit loses, however high"),
        ("1C", "6E", 0, 11, "off suit loses"),
        ("5B", "6E", 0, 0, "off suit loses even when the lead is low"),
        ("5B", "3C", 0, 10, "a high card of another suit loses"),
    ],
)
def test_two_player_trick(lead: str, follow: str, winner: int, points: int, why: str) -> None:
    game = game_with(2, 1, HANDS2, turned="7O")
    assert game.trump.letter == "O"
    play(game, lead, follow)
    (trick,) = game.tricks
    assert trick == Trick(0, cs(f"{lead} {follow}"), winner, points), why
    assert game.seat_points[winner] == points
    assert game.turn == game.leader == winner
    assert game.trick == ()


def test_highest_trump_wins_among_several() -> None:
    hands = {0: ["4C", "1E", "2B"], 1: ["2O", "7E", "3B"], 2: ["1C", "5O", "6B"], 3: ["3O", "12E", "4B"]}
    # 4 players, dealer 3: seat 0 leads.
    game = game_with(4, 3, hands, turned="7O")
    play(game, "4C", "2O", "1C", "3O")  # seat 1 trumps, seat 3 over-trumps; the ace of the suit led loses
    assert game.tricks[-1] == Trick(0, cs("4C 2O 1C 3O"), 3, 21)
    assert game.seat_points == (0, 0, 0, 21)
    assert game.side_points == (0, 21)


def test_lead_of_trump_and_off_suit() -> None:
    hands = {0: ["5O", "1E", "2B"], 1: ["3E", "7E", "3B"], 2: ["1C", "4O", "6B"], 3: ["10O", "12E", "4B"]}
    game = game_with(4, 3, hands, turned="7O")
    play(game, "5O", "3E", "4O", "10O")  # trump led; the sota of trumps is highest
    assert game.tricks[-1] == Trick(0, cs("5O 3E 4O 10O"), 3, 12)


def test_first_of_the_suit_led_when_nobody_follows() -> None:
    hands = {0: ["2C", "1E", "2B"], 1: ["3E", "7E", "3B"], 2: ["1B", "4O", "6B"]}
    game = game_with(3, 2, hands, turned="7O")
    play(game, "2C", "3E", "1B")
    assert game.tricks[-1] == Trick(0, cs("2C 3E 1B"), 0, 21)
    assert game.seat_points == (21, 0, 0)


def test_forty_eight_card_ranks() -> None:
    """With 48 cards the 9 and 8 rank between the sota and the 7, and score nothing."""
    hands = {0: ["9C", "8C", "7C"], 1: ["10C", "9E", "8B"]}
    game = game_with(2, 1, hands, turned="4O", options={"deck": 48})
    play(game, "9C", "10C")
    assert game.tricks[-1] == Trick(0, cs("9C 10C"), 1, 2)
    game = game_with(2, 1, hands, turned="4O", options={"deck": 48})
    play(game, "8C", "9E")
    assert game.tricks[-1] == Trick(0, cs("8C 9E"), 0, 0)
    hands = {0: ["7C", "1E", "2B"], 1: ["8C", "9E", "8B"]}
    game = game_with(2, 1, hands, turned="4O", options={"deck": 48})
    play(game, "7C", "8C")
    assert game.tricks[-1] == Trick(0, cs("7C 8C"), 1, 0)


def test_any_card_may_be_played() -> None:
    """No duty to follow suit or to win."""
    game = game_with(2, 1, HANDS2, turned="7O")
    play(game, "4C")
    assert legal(game) == {"3C", "2O", "6E"}


# ---------------------------------------------------------------------- draws


def test_draw_order_winner_first() -> None:
    hands = {0: ["4C", "1E", "2B"], 1: ["2C", "7E", "3B"], 2: ["1C", "5O", "6B"], 3: ["5C", "12E", "4B"]}
    game = game_with(4, 3, hands, turned="7O", stock=["3O", "3C", "10E", "11B", "1O"])
    play(game, "4C", "2C", "1C", "5C")  # seat 2 wins
    assert game.tricks[-1].winner == 2
    assert game.hand(2) == cs("5O 6B 3O")
    assert game.hand(3) == cs("12E 4B 3C")
    assert game.hand(0) == cs("1E 2B 10E")
    assert game.hand(1) == cs("7E 3B 11B")
    assert game.turn == game.leader == 2
    assert game.stock_count == 40 - 12 - 4
    assert game.stock()[0] is C("1O")
    assert game.face_up is C("7O")


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_last_card_drawn_is_the_face_up_card(players: int) -> None:
    rng = random.Random(players)
    game = Game("spanish", players, seed=players)
    turned = game.turned
    while game.stock_count:
        before = game.stock_count
        finish_trick(game, rng)
        assert game.stock_count == before - players
        if game.stock_count:
            assert game.face_up is turned
            assert {len(game.hand(s)) for s in range(players)} == {3}
    last = game.tricks[-1].winner
    last_seat = (last - 1) % players
    assert game.hand(last_seat)[-1] is turned
    assert game.face_up is None
    assert (last_seat, turned) in game.view(None).known


def finish_trick(game: Game, rng: random.Random) -> None:
    count = len(game.tricks)
    while len(game.tricks) == count:
        plays = [a for a in game.legal_actions() if isinstance(a, Play)]
        game.apply(rng.choice(plays))


@pytest.mark.parametrize("players", [2, 3, 4, 6])
@pytest.mark.parametrize("deck_size", [40, 48])
def test_hand_plays_out(players: int, deck_size: int) -> None:
    rng = random.Random(7)
    game = Game("spanish", players, seed=3, options={"deck": deck_size})
    size = len(game.deck)
    while not game.is_over():
        assert game.result() is None
        assert game.turn is not None and game.legal_actions()
        finish_trick(game, rng)
        sizes = {len(game.hand(s)) for s in range(players)}
        assert len(sizes) == 1
        if game.stock_count:
            assert sizes == {3}
    assert len(game.tricks) == size // players
    assert game.turn is None
    assert game.legal_actions() == []
    assert sum(game.seat_points) == 120
    assert all(len(game.hand(s)) == 0 for s in range(players))
    with pytest.raises(IllegalActionError, match="over"):
        game.apply(Play(game.tricks[-1].cards[0]))
    with pytest.raises(IllegalActionError):
        game.apply(Exchange(C("7O")))


# -------------------------------------------------------------- the exchange

# Two players, dealer 1, seat 0 leads.  Trump oros, 1O turned up.
CHAIN_HANDS = {0: ["1C", "7O", "4B"], 1: ["2C", "5B", "6E"]}
CHAIN_STOCK = ["3E", "2O", "4C", "5C"]


def test_exchange_seven_then_two_takes_the_seven() -> None:
    game = game_with(2, 1, CHAIN_HANDS, turned="1O", stock=CHAIN_STOCK)
    assert game.face_up is C("1O")
    assert "x7O" not in legal(game)  # seat 0 has not won a trick yet
    play(game, "1C", "2C")  # seat 0 wins; draws 3E, seat 1 draws 2O
    assert game.hand(0) == cs("7O 4B 3E") and game.hand(1) == cs("5B 6E 2O")
    assert legal(game) == {"7O", "4B", "3E", "x7O"}
    game.apply("x7O")
    assert game.turn == 0  # still seat 0's turn
    assert game.face_up is C("7O")
    assert set(game.hand(0)) == set(cs("4B 3E 1O"))
    assert legal(game) == {"4B", "3E", "1O"}
    assert game.exchanges[-1] == (0, C("7O"), C("1O"))
    assert (0, C("1O")) in game.view(1).known
    assert game.history[-1] == (0, Exchange(C("7O")))
    play(game, "4B")
    assert legal(game) == {"5B", "6E", "2O"}  # seat 1 holds the 2 but has not won yet
    with pytest.raises(IllegalActionError):
        game.apply("x2O")
    play(game, "5B")  # the 5 beats the 4: seat 1 wins, draws 4C; seat 0 draws 5C
    assert game.turn == 1
    assert legal(game) == {"6E", "2O", "4C", "x2O"}
    game.apply("x2O")  # the 2 takes the 7 that was given
    assert game.turn == 1
    assert game.face_up is C("2O")
    assert set(game.hand(1)) == set(cs("6E 4C 7O"))
    assert game.exchanges == ((0, C("7O"), C("1O")), (1, C("2O"), C("7O")))
    assert legal(game) == {"6E", "4C", "7O"}  # nothing takes a face-up 2
    known = game.view(None).known
    assert (0, C("1O")) in known and (1, C("7O")) in known


HIGH_40 = ["1", "3", "12", "11", "10"]
LOW = ["4", "5", "6", "7"]


@pytest.mark.parametrize(
    ("turned", "deck_size", "allowed"),
    [(f"{r}O", 40, "x7O") for r in HIGH_40]
    + [(f"{r}O", 40, "x2O") for r in LOW]
    + [("2O", 40, None)]
    + [(f"{r}O", 48, "x7O") for r in [*HIGH_40, "9", "8"]]
    + [(f"{r}O", 48, "x2O") for r in LOW]
    + [("2O", 48, None)],
)
def test_exchange_which_card_for_which(turned: str, deck_size: int, allowed: str | None) -> None:
    held = ["1C"] + [c for c in ("7O", "2O") if c != turned]
    if len(held) < 3:
        held.append("3B")
    game = game_with(2, 1, {0: held, 1: ["2C", "4B", "5B"]}, turned=turned, options={"deck": deck_size})
    play(game, "1C", "2C")  # seat 0 wins a trick
    exchanges = {a for a in legal(game) if a.startswith("x")}
    assert exchanges == ({allowed} if allowed else set())
    before = snapshot(game)
    for bad in ("x7O", "x2O", "x7C", "x2C", "x1C", "x3B"):
        if bad != allowed:
            with pytest.raises(IllegalActionError):
                game.apply(bad)
            assert snapshot(game) == before, bad
    if allowed:
        game.apply(allowed)
        assert game.face_up is C(allowed[1:])
        assert C(turned) in game.hand(0)
        assert C(allowed[1:]) not in game.hand(0)
        assert game.turn == 0
        assert game.stock_count == before["views"][0].stock_count


def test_seven_turned_up_is_taken_by_the_two() -> None:
    game = game_with(2, 1, {0: ["1C", "2O", "4B"], 1: ["2C", "5B", "6E"]}, turned="7O")
    play(game, "1C", "2C")
    game.apply("x2O")
    assert game.face_up is C("2O") and C("7O") in game.hand(0)


def test_exchange_needs_a_trick_won_by_the_seat_itself() -> None:
    """In partnerships, a partner's trick does not count."""
    hands = {0: ["2C", "7O", "4B"], 1: ["4C", "7E", "3B"], 2: ["1C", "6C", "6B"], 3: ["5C", "7C", "5B"]}
    game = game_with(4, 3, hands, turned="1O")
    play(game, "2C", "4C", "1C", "5C")  # seat 2 wins; seat 0 is its partner
    play(game, "6C", "7C")  # seat 2 leads, seat 3 follows; now seat 0
    assert game.turn == 0
    assert "x7O" not in legal(game)
    with pytest.raises(IllegalActionError, match="win"):
        game.apply("x7O")


def test_exchange_when_following() -> None:
    hands = {0: ["2C", "4B", "5E"], 1: ["1C", "7O", "6B"]}
    game = game_with(2, 1, hands, turned="1O", stock=["3E", "1B", "4C", "5C"])
    play(game, "2C", "1C")  # seat 1 wins, draws 3E; seat 0 draws 1B
    play(game, "6B", "1B")  # seat 0 wins
    play(game, "5E")  # seat 0 leads; seat 1 follows, having won a trick
    assert game.turn == 1
    assert "x7O" in legal(game)
    game.apply("x7O")
    assert game.turn == 1 and C("1O") in game.hand(1)
    game.apply("1O")
    assert game.tricks[-1].winner == 1


def test_exchange_refused_when_off() -> None:
    game = game_with(2, 1, CHAIN_HANDS, turned="1O", stock=CHAIN_STOCK, options={"trump_exchange": "off"})
    play(game, "1C", "2C")
    assert legal(game) == {"7O", "4B", "3E"}
    before = snapshot(game)
    with pytest.raises(IllegalActionError):
        game.apply("x7O")
    assert snapshot(game) == before


def test_exchange_refused_for_a_card_not_held() -> None:
    game = game_with(2, 1, {0: ["1C", "3B", "4B"], 1: ["2C", "7O", "6E"]}, turned="1O")
    play(game, "1C", "2C")
    assert "x7O" not in legal(game)
    with pytest.raises(IllegalActionError):
        game.apply("x7O")


def test_exchange_available_exactly_while_face_up_in_stock() -> None:
    """Seat 0 keeps the 7 of trumps: it may give it at each of its turns after its first trick, until the
    face-up card is drawn; then never again."""
    game = game_with(2, 1, CHAIN_HANDS, turned="1O", stock=CHAIN_STOCK)

    def keep_seven(g: Game) -> Action:
        plays = [a for a in g.legal_actions() if isinstance(a, Play) and a.card is not C("7O")]
        return plays[0] if plays else Play(C("7O"))

    seen_with_stock = seen_without = 0
    while not game.is_over():
        if game.turn == 0 and C("7O") in game.hand(0):
            won = any(t.winner == 0 for t in game.tricks)
            expected = won and game.stock_count > 0
            assert ("x7O" in legal(game)) == expected, (len(game.tricks), game.stock_count)
            if not expected:
                with pytest.raises(IllegalActionError):
                    game.apply("x7O")
            seen_with_stock += won and game.stock_count > 0
            seen_without += game.stock_count == 0
        game.apply(keep_seven(game))
    assert seen_with_stock and seen_without


# ----------------------------------------------------- errors leave no trace


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_illegal_actions_raise_and_change_nothing(players: int) -> None:
    rng = random.Random(players)
    game = Game("spanish", players, seed=players)
    step = 0
    while not game.is_over():
        if step % 3 == 0:
            before = snapshot(game)
            ok = set(game.legal_actions())
            for card in game.rules.deck_cards(players):
                for action in (Play(card), Exchange(card)):
                    if action not in ok:
                        with pytest.raises(IllegalActionError):
                            game.apply(action)
            assert snapshot(game) == before
        game.apply(rng.choice(game.legal_actions()))
        step += 1


def test_card_of_another_seat_is_not_held() -> None:
    game = game_with(2, 1, HANDS2, turned="7O")
    with pytest.raises(IllegalActionError, match="does not hold 3C"):
        game.apply("3C")  # seat 1's card, but seat 0 is to act
    play(game, "1C")
    with pytest.raises(IllegalActionError, match="does not hold"):
        game.apply("4C")  # seat 0's card, seat 1 is to act
    with pytest.raises(IllegalActionError):
        game.apply("1C")  # already played


@pytest.mark.parametrize(
    "bad", ["", "hello", "x", "xx7O", "13O", "8O8", 42, None, 3.5, ("play", "3O"), C("1C"), {"play": "1C"}]
)
def test_malformed_actions(bad: object) -> None:
    game = game_with(2, 1, HANDS2, turned="7O")
    before = snapshot(game)
    with pytest.raises(InvalidActionError):
        game.apply(bad)  # type: ignore[arg-type]
    assert snapshot(game) == before


def test_actions_by_notation() -> None:
    game = game_with(2, 1, HANDS2, turned="7O")
    game.apply(" 1c ")
    game.apply(Play(C("3C")))
    assert game.history == ((0, Play(C("1C"))), (1, Play(C("3C"))))


# ------------------------------------------------------------- undo and clone


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_undo_restores_exact_state(players: int) -> None:
    rng = random.Random(players + 10)
    game = Game("spanish", players, seed=players + 10)
    with pytest.raises(IllegalActionError, match="undo"):
        game.undo()
    while not game.is_over():
        legal_now = game.legal_actions()
        # prefer exchanges so that undo also crosses them
        action = next((a for a in legal_now if isinstance(a, Exchange)), rng.choice(legal_now))
        before = snapshot(game)
        game.apply(action)
        after = snapshot(game)
        assert game.undo() is action
        assert snapshot(game) == before
        game.apply(action)
        assert snapshot(game) == after
    history = game.history
    for seat_action in reversed(history):
        assert game.undo() is seat_action[1]
    assert game.history == ()
    assert snapshot(game) == snapshot(Game("spanish", players, deck=game.deck))


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_clone_is_independent(players: int) -> None:
    rng = random.Random(players + 20)
    game = Game("spanish", players, seed=players + 20)
    while not game.is_over():
        twin = game.clone()
        assert snapshot(twin) == snapshot(game)
        before = snapshot(game)
        twin.apply(rng.choice(twin.legal_actions()))
        assert snapshot(game) == before
        twin_state = snapshot(twin)
        game.apply(rng.choice(game.legal_actions()))
        assert snapshot(twin) == twin_state
    assert copy.copy(game).is_over()


# ------------------------------------------------------------------- results


def _search_final(game: Game, want: Callable[[Game], bool], tries: int = 20000, seed: int = 0) -> list[Action]:
    """Random play-outs from ``game`` until one ends in a position ``want`` accepts; its actions."""
    rng = random.Random(seed)
    for _ in range(tries):
        g = game.clone()
        done: list[Action] = []
        while not g.is_over():
            action = rng.choice(g.legal_actions())
            g.apply(action)
            done.append(action)
        if want(g):
            return done
    raise AssertionError("no play-out found")


def test_result_of_a_won_hand() -> None:
    game = Game("spanish", 2, seed=2)
    assert game.result() is None
    finish(game, random.Random(2))
    result = game.result()
    assert isinstance(result, HandResult)
    assert result.seat_points == game.seat_points
    assert sum(result.seat_points) == 120
    assert result.side_points == game.seat_points
    if result.seat_points[0] != 60:
        assert result.winner == (0 if result.seat_points[0] > 60 else 1)


def test_partnership_result() -> None:
    for players in (4, 6):
        game = Game("spanish", players, seed=5)
        finish(game, random.Random(5))
        result = game.result()
        assert result is not None
        sides = (sum(result.seat_points[0::2]), sum(result.seat_points[1::2]))
        assert result.side_points == sides
        assert result.winner == (None if sides[0] == sides[1] else int(sides[1] > sides[0]))
        assert game.side_of(3) == 1 and game.side_of(4) == 0


def test_drawn_hand_is_detected() -> None:
    game = Game("spanish", 2, seed=9)
    for action in _search_final(game, lambda g: g.seat_points == (60, 60)):
        game.apply(action)
    result = game.result()
    assert result is not None
    assert result.seat_points == (60, 60)
    assert result.winner is None


def test_three_player_tie_for_the_most_is_a_draw() -> None:
    game = Game("spanish", 3, seed=4)

    def tie(g: Game) -> bool:
        pts = sorted(g.seat_points)
        return pts[1] == pts[2]

    for action in _search_final(game, tie):
        game.apply(action)
    result = game.result()
    assert result is not None and result.winner is None
    # and a tie that is not for the most does not draw the hand
    game = Game("spanish", 3, seed=4)
    for action in _search_final(game, lambda g: sorted(g.seat_points)[0] == sorted(g.seat_points)[1] != 40):
        game.apply(action)
    result = game.result()
    assert result is not None and result.winner == max(range(3), key=lambda s: game.seat_points[s])


def test_crafted_draw_sixty_sixty() -> None:
    """A deck and actions found with the referee that end 60-60; the engine must agree."""
    players, dealer = 2, 1
    deck = build_deck(2, 1, {0: ["1O", "3C", "4E"], 1: ["1C", "3O", "5E"]}, turned="7B")
    rng = random.Random(1)
    for _ in range(20000):
        ref = Referee(players, dealer, deck)
        while not ref.over:
            ref.act(ref.turn, *_kind(rng.choice(sorted(ref.legal()))))  # type: ignore[arg-type]
        if ref.seat_points == [60, 60]:
            break
    else:
        raise AssertionError("no 60-60 found")
    game = Game("spanish", players, dealer=dealer, deck=deck)
    for seat, kind, card in ref.actions:
        assert game.turn == seat
        game.apply(("x" if kind == "exchange" else "") + card)
    assert game.seat_points == (60, 60)
    result = game.result()
    assert result is not None
    assert (result.seat_points, result.side_points, result.winner) == ((60, 60), (60, 60), None)


def _kind(action: str) -> tuple[str, str]:
    return ("exchange", action[1:]) if action.startswith("x") else ("play", action)


# --------------------------------------------------------------------- views


def test_views() -> None:
    game = game_with(2, 1, HANDS2, turned="7O")
    v0, v1, spectator = game.view(0), game.view(1), game.view(None)
    assert v0.hand == cs("1C 4C 5B") and v1.hand == cs("3C 2O 6E")
    assert spectator.hand == () and spectator.legal_actions == ()
    assert set(v0.legal_actions) == set(game.legal_actions()) and v1.legal_actions == ()
    assert v0.hand_sizes == (3, 3) and v0.stock_count == 34
    assert v0.trump.letter == "O" and v0.turned is C("7O")
    with pytest.raises(RulesError):
        game.view(2)
    with pytest.raises(RulesError):
        game.view(-1)
    play(game, "1C")
    v1 = game.view(1)
    assert v1.trick == cs("1C") and v1.trick_seats() == (0,) and v1.trick_winner() == 0
    assert v1.played_cards() == cs("1C")
    assert set(v1.unseen_cards()) == set(game.rules.deck_cards(2)) - set(cs("1C 3C 2O 6E 7O"))


# ---------------------------------------------------------------------- match


def _play_hand(match: Match, rng: random.Random) -> None:
    finish(match.game, rng)


def test_match_progression_and_dealer_rotation() -> None:
    for players in (2, 3, 4, 6):
        rng = random.Random(players)
        match = Match("spanish", players, seed=players)
        dealers = [match.game.dealer]
        assert dealers == [players - 1]
        with pytest.raises(IllegalActionError, match="not over"):
            match.next_hand()
        while True:
            _play_hand(match, rng)
            if match.is_over():
                break
            assert match.winner is None
            match.next_hand()
            dealers.append(match.game.dealer)
        assert dealers == [(players - 1 + i) % players for i in range(len(dealers))]
        assert len(match.games) == len(dealers) == len(match.results)
        wins = match.hands_won
        assert max(wins) == 2 and wins.count(2) == 1
        assert match.winner == wins.index(2)
        decisive = [r.winner for r in match.results if r.winner is not None]
        assert decisive[-1] == match.winner
        assert [decisive.count(s) for s in range(len(wins))] == list(wins)
        with pytest.raises(IllegalActionError, match="match is over"):
            match.next_hand()


def test_match_dealer_option_and_target() -> None:
    match = Match("spanish", 4, dealer=1, seed=3, options={"target_hands": 1})
    assert match.game.dealer == 1 and match.game.turn == 2
    rng = random.Random(3)
    _play_hand(match, rng)
    while not match.is_over():  # only a drawn hand lets the match go on
        assert match.results[-1].winner is None
        match.next_hand()
        _play_hand(match, rng)
    assert match.winner == match.results[-1].winner
    assert sum(match.hands_won) == 1


def test_match_drawn_hand_does_not_count() -> None:
    rng = random.Random(8)
    match = Match("spanish", 2, seed=8)
    _play_hand(match, rng)
    first = match.results[0].winner
    assert first is not None and match.hands_won[first] == 1
    deck = Game("spanish", 2, seed=77).deck
    game = match.next_hand(deck=deck)
    assert game.deck == deck and game.dealer == 0
    for action in _search_final(game, lambda g: g.seat_points == (60, 60)):
        game.apply(action)
    assert game.result() is not None and game.result().winner is None  # type: ignore[union-attr]
    assert match.hands_won[first] == 1 and sum(match.hands_won) == 1
    assert not match.is_over() and match.winner is None
    game = match.next_hand()
    assert game.dealer == 1
    # play hands until the first side reaches two won hands
    while True:
        _play_hand(match, rng)
        if match.is_over():
            break
        match.next_hand()
    assert max(match.hands_won) == 2
    assert len([r for r in match.results if r.winner is not None]) == sum(match.hands_won)


def test_match_rejects_bad_setup() -> None:
    with pytest.raises(RulesError):
        Match("spanish", 5)
    with pytest.raises(RulesError):
        Match("nope", 2)
    with pytest.raises(RulesError):
        Match("spanish", 2, options={"target_hands": 0})


def test_all_cards_used_in_48_card_games() -> None:
    game = Game("spanish", 3, seed=1, options={"deck": 48})
    assert set(game.deck) == set(ALL_CARDS)


# ------------------------------------------------------------------ tie: shared
# 001: "The player who gets the highest score wins the hand. When two or more players make the same highest score,
# the hand is awarded by all of them."  000 (second article): "Ties in a hand's points are shared among the tied
# players."  001: "If two or more players reach that number of hands at the same time, the game continues until the
# tie is broken."

#: Each for himself, 3 players, dealer 1: seats 0 and 2 take 52 points each, seat 1 takes 16.
SHARED_DECK = str.split(
    "11C 12O 5E 11B 7B 10O 2B 10C 12C 10E 4O 4B 7C 11E 3O 12B 1C 6E 2E 2C 5C 1B 7O 1E 12E 4E 5O 11O 6O 6C 3B 10B 6B"
    " 5B 1O 3C 3E 4C 7E"
)
SHARED_PLAYS = str.split(
    "2B 12O 10O 4O 10C 7C 11B 4B 12B 5E 11E 7B 6E 3O 12C 11C 5C 1B 4E 5O 1C 2C 2E 3B 10B 12E 6O 6B 5B 3E 1E 1O 3C 6C"
    " 7E 10E 7O 4C 11O"
)


def _shared_hand(tie: str) -> Game:
    game = Game("spanish", 3, dealer=1, deck=SHARED_DECK, options={"tie": tie})
    for play in SHARED_PLAYS:
        game.apply(play)
    return game


def test_a_tie_for_the_most_is_awarded_to_every_tied_side_under_tie_shared() -> None:
    result = _shared_hand("shared").result()
    assert result is not None
    assert result.side_points == (52, 16, 52)
    # No single winner for code that reads only ``winner``; the sides awarded are listed.
    assert result.winner is None and result.reason == "shared" and not result.replay
    assert result.shared == (0, 2) and result.winners == (0, 2)
    assert result.margin == 0


def test_the_same_tie_under_the_other_tie_values() -> None:
    drawn = _shared_hand("draw").result()
    assert drawn is not None and drawn.winner is None and drawn.reason == "tie"
    assert drawn.shared == () and drawn.winners == ()
    replay = _shared_hand("replay").result()
    assert replay is not None and replay.replay and replay.shared == ()
    won = Game("spanish", 2, seed=2)
    finish(won, random.Random(2))
    result = won.result()
    assert result is not None and result.shared == ()
    assert result.winners == (() if result.winner is None else (result.winner,))


def test_a_tie_not_for_the_most_is_not_shared() -> None:
    game = Game("spanish", 3, seed=4, options={"tie": "shared"})
    for action in _search_final(game, lambda g: sorted(g.seat_points)[0] == sorted(g.seat_points)[1] != 40):
        game.apply(action)
    result = game.result()
    assert result is not None and result.shared == ()
    assert result.winner == max(range(3), key=lambda s: game.seat_points[s])


def test_four_players_each_for_himself_share_a_tie() -> None:
    game = Game("spanish", 4, seed=7, options={"tie": "shared", "teams": False})

    def tie(g: Game) -> bool:
        pts = sorted(g.seat_points)
        return pts[2] == pts[3]

    for action in _search_final(game, tie):
        game.apply(action)
    result = game.result()
    assert result is not None and result.reason == "shared" and result.winner is None
    best = max(game.seat_points)
    assert result.winners == tuple(s for s in range(4) if game.seat_points[s] == best)
    assert len(result.winners) >= 2


def test_a_shared_hand_counts_one_hand_to_each_tied_side_and_a_level_target_plays_on() -> None:
    match = Match("spanish", 3, dealer=1, deck=SHARED_DECK, options={"tie": "shared", "target_hands": 1})
    for play in SHARED_PLAYS:
        match.game.apply(play)
    assert match.hands_won == (1, 0, 1)
    # Seats 0 and 2 reach the one hand together: no winner yet, the match continues.
    assert match.winner is None and not match.is_over()
    assert match.next_dealer == 2
    match.next_hand()
    assert match.game.dealer == 2


def test_a_shared_hand_and_big_win() -> None:
    match = Match("spanish", 3, dealer=1, deck=SHARED_DECK, options={"tie": "shared", "big_win": True})
    for play in SHARED_PLAYS:
        match.game.apply(play)
    assert match.hands_won == (1, 0, 1)
