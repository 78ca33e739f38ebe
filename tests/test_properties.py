"""Property tests over random games of every player count and deck size."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from brisca import Action, Card, Game, InvalidActionError, InvalidCardError, RecordError, View
from brisca import record as rec
from brisca.actions import ANNOUNCES, EXCHANGES, PLAYS, Announce, Exchange
from brisca.cards import ALL_CARDS, LANGS

PLAYERS = st.sampled_from([2, 3, 4, 6])
DECKS = st.sampled_from([40, 48])
SEEDS = st.integers(0, 2**32 - 1)
EXCHANGE = st.sampled_from(["after_win", "off", "announced", "out_of_turn"])


def new_game(players: int, deck: int, exchange: str, seed: int) -> tuple[Game, random.Random]:
    rng = random.Random(seed)
    game = Game(
        "spanish", players, dealer=rng.randrange(players), seed=rng.randrange(2**32),
        options={"deck": deck, "trump_exchange": exchange},
    )
    return game, rng


def pick(game: Game, rng: random.Random) -> Action:
    legal = game.legal_actions()
    exchanges = [a for a in legal if isinstance(a, Exchange | Announce)]
    if exchanges and rng.random() < 0.5:  # exchanges are rare: take them often
        return exchanges[0]
    return rng.choice(legal)


def step(game: Game, rng: random.Random) -> None:
    """One random move: now and then another seat's exchange out of turn, where the rules allow one."""
    others = [(s, a) for s in range(game.players) if s != game.turn for a in game.legal_actions(s)]
    if others and rng.random() < 0.5:
        seat, action = others[0]
        game.apply(action, seat)
    else:
        game.apply(pick(game, rng))


def announced(game: Game) -> tuple[int, Card] | None:
    """The trump laid under the face-up card (``trump_exchange: announced``), in no hand meanwhile."""
    return getattr(game, "announced", None)


def all_cards_now(game: Game) -> list[Card]:
    cards: list[Card] = []
    for seat in range(game.players):
        cards.extend(game.hand(seat))
    cards.extend(game.stock())
    cards.extend(game.trick)
    for trick in game.tricks:
        cards.extend(trick.cards)
    laid = announced(game)
    if laid is not None:
        cards.append(laid[1])
    return cards


def check_invariants(game: Game) -> None:
    cards = all_cards_now(game)
    assert Counter(cards) == Counter(game.deck), "cards not conserved"
    assert len(set(cards)) == len(cards), "a card twice"
    assert sorted(game.deck) == sorted(game.rules.deck_cards(game.players))
    n = game.players
    sizes = [len(game.hand(s)) for s in range(n)]
    laid = announced(game)
    if laid is not None:  # the announcer plays with a card fewer while its trump lies under the face-up card
        sizes[laid[0]] += 1
        assert game.stock_count > 0 and game.rules.trump_exchange == "announced"
    if not game.trick:
        assert len(set(sizes)) == 1, f"hand sizes {sizes} after a complete trick"
        if game.stock_count:
            assert sizes == [3] * n
    else:
        seats = [(game.leader + i) % n for i in range(len(game.trick))]
        for s in range(n):
            assert sizes[s] == sizes[game.leader] + (0 if s in seats else 1)
    assert game.stock_count % n == 0
    assert sum(game.seat_points) == sum(t.points for t in game.tricks)
    if game.is_over():
        assert game.legal_actions() == []
        assert game.turn is None
    else:
        assert game.legal_actions(), "no legal action before the end"
        assert game.turn is not None


@settings(max_examples=300, deadline=None)
@given(PLAYERS, DECKS, EXCHANGE, SEEDS)
def test_random_games_keep_their_invariants(players: int, deck: int, exchange: str, seed: int) -> None:
    game, rng = new_game(players, deck, exchange, seed)
    check_invariants(game)
    while not game.is_over():
        for seat in range(players):  # every legal action (out of turn too) applies without error
            for action in game.legal_actions(seat):
                twin = game.clone()
                twin.apply(action, seat)
                check_invariants(twin)
                assert twin.turn == game.turn or seat == game.turn
        step(game, rng)
        check_invariants(game)
    assert sum(game.seat_points) == 120
    assert sum(game.side_points) == 120
    result = game.result()
    assert result is not None and sum(result.side_points) == 120
    assert len(game.tricks) == len(game.deck) // players
    if exchange == "off":
        assert game.exchanges == ()
    if exchange != "out_of_turn":  # every exchange by the seat to act
        assert all(not isinstance(a, Exchange) or s == turn for (s, a), turn in zip(game.history, turns(game),
                                                                                    strict=True))
    assert announced(game) is None  # settled once the stock is gone


def turns(game: Game) -> list[int | None]:
    """The seat to act before each action of the history (replayed)."""
    replay = Game(game.rules, game.players, dealer=game.dealer, deck=game.deck)
    out = []
    for seat, action in game.history:
        out.append(replay.turn)
        replay.apply(action, seat)
    return out


# ---------------------------------------------------------------- no leaks


def hidden_twin(game: Game, seat: int | None, rng: random.Random) -> Game:
    """A clone that differs only in what ``seat`` cannot see: the cards of the other hands and the face-down
    stock are shuffled among themselves, except cards the view lists as known (left where they are)."""
    view = game.view(seat)
    known = set(view.known)
    twin = game.clone()
    slots: list[tuple[list[Any], int]] = []
    for s in range(game.players):
        if s == seat:
            continue
        hand = twin._hands[s]
        slots.extend((hand, i) for i, a in enumerate(hand) if (s, a.card) not in known)
    stock = twin._stock
    slots.extend((stock, i) for i in range(1, len(stock)))  # stock[0] is the face-up card
    cards = [where[i] for where, i in slots]
    rng.shuffle(cards)
    for (where, i), card in zip(slots, cards, strict=True):
        where[i] = card
    return twin


def cards_in_view(view: View) -> set[Card]:
    cards = set(view.hand) | set(view.trick)
    for trick in view.tricks:
        cards |= set(trick.cards)
    cards |= {a.card for _s, a in view.history}
    for e in view.exchanges:
        cards |= {e.given, e.taken}
    cards |= {c for _s, c in view.known}
    cards |= {a.card for a in view.legal_actions}
    cards |= {a.card for a in view.out_of_turn}
    if view.announced is not None:
        cards.add(view.announced[1])
    cards |= {view.turned}
    if view.face_up is not None:
        cards.add(view.face_up)
    return cards


@settings(max_examples=300, deadline=None)
@given(PLAYERS, DECKS, EXCHANGE, SEEDS, st.integers(0, 60))
def test_views_never_leak(players: int, deck: int, exchange: str, seed: int, steps: int) -> None:
    game, rng = new_game(players, deck, exchange, seed)
    for _ in range(steps):
        if game.is_over():
            break
        step(game, rng)
    for seat in (None, *range(players)):
        view = game.view(seat)
        for _ in range(3):
            twin = hidden_twin(game, seat, rng)
            assert Counter(all_cards_now(twin)) == Counter(all_cards_now(game))
            assert twin.view(seat) == view
        allowed = set(view.hand) | set(view.played_cards()) | {view.turned} | {c for _s, c in view.known}
        if view.face_up is not None:
            allowed.add(view.face_up)
        if view.announced is not None:  # face up under the face-up card, for everybody
            assert view.announced == announced(game)
            allowed.add(view.announced[1])
        leaked = cards_in_view(view) - allowed
        assert not leaked, f"view of seat {seat} shows {leaked}"
        assert len(view.hand) == (0 if seat is None else len(game.hand(seat)))
        if seat is None:
            assert view.hand == () and view.legal_actions == () and view.out_of_turn == ()
        elif seat == game.turn:
            assert set(view.legal_actions) == set(game.legal_actions()) and view.out_of_turn == ()
        else:
            assert view.legal_actions == () and view.out_of_turn == tuple(game.legal_actions(seat))
        # In the spanish preset nothing is known of another hand but cards that were face up on the table:
        # the turned card, the cards given in exchanges (which became the face-up card) and announced trumps.
        once_face_up = {view.turned} | {e.given for e in view.exchanges} | {
            a.card for _s, a in view.history if isinstance(a, Announce)}
        for s, card in view.known:
            assert card in game.hand(s)
            assert card in once_face_up, f"view of seat {seat} knows {card} in seat {s}'s hand"


# ---------------------------------------------------------- fixed points


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(ALL_CARDS), st.sampled_from(LANGS))
def test_card_print_parse(card: Card, lang: str) -> None:
    assert Card.parse(str(card)) is card
    assert Card.parse(str(card).lower()) is card
    assert Card.parse(card.name(lang)) is card  # type: ignore[arg-type]
    assert Card.parse(card.name(lang).upper()) is card  # type: ignore[arg-type]


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(PLAYS + EXCHANGES + ANNOUNCES))
def test_action_print_parse(action: Action) -> None:
    assert Action.parse(str(action)) is action
    assert Action.parse(str(action).lower()) is action
    assert Action.from_json(action.to_json()) is action
    assert type(action)(action.card) is action


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=12))
def test_parsing_text_fails_cleanly(text: str) -> None:
    try:
        card = Card.parse(text)
    except InvalidCardError:
        pass
    else:
        assert Card.parse(str(card)) is card
    try:
        action = Action.parse(text)
    except InvalidActionError:
        pass
    else:
        assert Action.parse(str(action)) is action


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 60) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=200, deadline=None)
@given(JSON, st.dictionaries(st.sampled_from(["variant", "players", "dealer", "deck", "actions", "rules"]), JSON),
       st.sampled_from([("spanish", 2), ("chiamata", 5), ("chiamata-buia", 5)]))
def test_records_fail_cleanly(junk: Any, fields: dict[str, Any], game: tuple[str, int]) -> None:
    """Arbitrary JSON, or a record header with arbitrary fields: a record or a RecordError, nothing else."""
    import json

    variant, players = game
    for data in (junk, {"format": "brisca-record/1", "variant": variant, "players": players, "dealer": 1, **fields}):
        try:
            record = rec.loads(json.dumps(data))
            record.replay()
        except RecordError as exc:
            assert "\n" not in str(exc)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from([2, 3, 4, 6]), st.booleans(), SEEDS)
def test_the_draw_for_partners_seats_everybody_once(players: int, teams: bool, seed: int) -> None:
    """A draw for partners gives each player one seat; the highest deals from seat 0; with two sides the higher half
    sits on the even seats; its recorded rounds rebuild it."""
    from brisca import PartnerDraw, make_rules
    from brisca.game import draw_for_partners

    rules = make_rules("spanish", {"partners": "draw", "teams": teams})
    draw = draw_for_partners(rules, players, seed)
    assert sorted(draw.seating) == list(range(players)) and sorted(draw.order) == list(range(players))
    assert draw.dealer == 0 and draw.seating[draw.order[0]] == 0
    strength = rules.strength_table
    first = dict(draw.rounds[0])
    ranked = [strength[first[p].index] for p in draw.order]
    assert ranked == sorted(ranked, reverse=True)  # ties broken by later rounds keep the first round's order
    if rules.sides(players) < players:
        high = set(draw.order[: players // 2])
        assert {p for p in range(players) if draw.seating[p] % 2 == 0} == high
    assert PartnerDraw.from_rounds(rules, players, draw.rounds) == draw


@settings(max_examples=100, deadline=None)
@given(JSON, st.sampled_from(["draw", "seating"]))
def test_match_records_with_a_bad_draw_fail_cleanly(junk: Any, field: str) -> None:
    """A match record under partners: draw with arbitrary draw or seating fields: a record or a RecordError."""
    import json

    data = {"format": "brisca-record/1", "variant": "spanish", "rules": {"partners": "draw"}, "players": 4,
            "draw": [{"players": [0, 1, 2, 3], "cards": ["1O", "3O", "12O", "11O"]}], "seating": [0, 2, 1, 3],
            "hands": [{"dealer": 0, "deck": [str(c) for c in Game("spanish", 4, seed=1).deck], "actions": []}]}
    data[field] = junk
    try:
        record = rec.loads(json.dumps(data))
        record.replay()
    except RecordError as exc:
        assert "\n" not in str(exc)
