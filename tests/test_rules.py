"""Rules as data: the registry, options and their validation, decks per player count."""

from __future__ import annotations

from typing import Any

import pytest

from brisca import Card, Game, Rules, RulesError, find_variant, make_rules, variant_names
from brisca.cards import ALL_CARDS
from brisca.rules import OPTIONS, parse_option_text

SPANISH = find_variant("spanish")


def cards(text: str) -> set[Card]:
    return {Card.parse(t) for t in text.split()}


# ------------------------------------------------------------------ registry


def test_spanish_is_registered() -> None:
    assert "spanish" in variant_names()
    assert isinstance(SPANISH, Rules)
    assert SPANISH.variant == "spanish"


@pytest.mark.parametrize("name", ["spanish", "SPANISH", " Spanish ", "brisca", "Brisca", "es"])
def test_find_variant_names_and_aliases(name: str) -> None:
    assert find_variant(name) is SPANISH


def test_unknown_variant() -> None:
    with pytest.raises(RulesError, match=r"unknown variant 'nope'.*spanish"):
        find_variant("nope")
    with pytest.raises(RulesError, match=r"did you mean 'spanish'"):
        find_variant("spanih")
    with pytest.raises(RulesError):
        find_variant(3)  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="unknown variant"):
        Game("poker", 2)


def test_spanish_defaults() -> None:
    assert SPANISH.deck == 40
    assert SPANISH.player_counts == (2, 3, 4, 6)
    assert SPANISH.hand_size == 3
    assert SPANISH.trump_exchange == "after_win"
    assert SPANISH.target_hands == 2
    assert SPANISH.strength_order() == (1, 3, 12, 11, 10, 7, 6, 5, 4, 2)
    assert dict(SPANISH.points) == {1: 11, 3: 10, 12: 4, 11: 3, 10: 2}


# ------------------------------------------------------------------- options


def test_unknown_option() -> None:
    with pytest.raises(RulesError, match=r"unknown rule option 'dek' \(did you mean 'deck'\?\)"):
        SPANISH.with_options({"dek": 48})
    with pytest.raises(RulesError, match=r"unknown rule option 'zzzzzz'.*known:.*deck"):
        SPANISH.with_options(zzzzzz=1)
    with pytest.raises(RulesError, match="unknown rule option"):
        Game("spanish", 2, options={"jokers": True})
    with pytest.raises(RulesError, match="unknown rule option"):
        make_rules("spanish", {"decks": 48})


@pytest.mark.parametrize(
    ("name", "value", "fragment"),
    [
        ("deck", 41, "must be one of 40, 48"),
        ("deck", 36, "must be one of 40, 48"),
        ("deck", "many", "must be a whole number"),
        ("deck", 40.0, "must be a whole number"),
        ("deck", True, "must be a whole number"),
        ("deck", None, "must be a whole number"),
        ("target_hands", 0, "at least 1"),
        ("target_hands", -2, "at least 1"),
        ("target_hands", "two", "whole number"),
        ("trump_exchange", "sometimes", "must be one of off, after_win"),
        ("trump_exchange", 1, "must be one of off, after_win"),
        ("trump_exchange", None, "must be one of"),
        ("teams", "perhaps", "true or false"),
        ("rank_order", [1, 2, 3], "rank_order"),
        ("rank_order", [1, 1, 3, 12, 11, 10, 7, 6, 5, 4, 2], "twice"),
        ("rank_order", 7, "list of ranks"),
        ("rank_order", ["1", "Z"], "rank_order"),
        ("points", [11, 10], "map ranks to points"),
        ("points", {"1": -1}, "at least 0"),
        ("points", {"Z": 1}, "points"),
        ("exchange_with", 7, "exchange_with"),
        ("exchange_with", {"7": 5}, "exchange_with"),
        ("exchange_with", {"8": [1]}, "8 or 9"),
        ("hand_size", 0, "at least 1"),
        ("hand_size", 20, "too few"),
    ],
)
def test_bad_option_values(name: str, value: object, fragment: str) -> None:
    with pytest.raises(RulesError, match=fragment) as info:
        SPANISH.with_options({name: value})
    assert name in str(info.value) or fragment in ("too few", "8 or 9", "twice")


def test_option_values_are_coerced() -> None:
    assert SPANISH.with_options(deck="48").deck == 48
    assert SPANISH.with_options(trump_exchange=False).trump_exchange == "off"
    assert SPANISH.with_options(trump_exchange=True).trump_exchange == "after_win"
    assert SPANISH.with_options(trump_exchange="off").trump_exchange == "off"
    assert SPANISH.with_options(teams="no").teams is False
    assert SPANISH.with_options(target_hands=3).target_hands == 3


def test_with_options_leaves_the_preset_alone() -> None:
    changed = SPANISH.with_options(deck=48, target_hands=5)
    assert (changed.deck, changed.target_hands) == (48, 5)
    assert (SPANISH.deck, SPANISH.target_hands) == (40, 2)
    assert find_variant("spanish").deck == 40
    assert SPANISH.with_options({}) is SPANISH
    assert SPANISH.with_options() is SPANISH


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"deck": 48},
        {"trump_exchange": "off"},
        {"target_hands": 3},
        {"deck": 48, "trump_exchange": "off", "target_hands": 1},
        {"teams": False},
        {"hand_size": 4},
        {"exchange_with": {"7": [1, 3]}},
        {"rank_order": [3, 1, 12, 11, 10, 7, 6, 5, 4, 2]},
        {"points": {"1": 11, "3": 10, "12": 4, "11": 3, "10": 2, "7": 1}},
    ],
)
def test_with_options_overrides_round_trip(options: dict[str, Any]) -> None:
    rules = SPANISH.with_options(options)
    assert rules.overrides() == options
    assert SPANISH.with_options(rules.overrides()) == rules
    assert make_rules("spanish", rules.overrides()) == rules
    assert rules.options() == {**SPANISH.options(), **options}


def test_options_lists_every_option() -> None:
    assert set(SPANISH.options()) == set(OPTIONS)
    assert SPANISH.options()["deck"] == 40
    assert SPANISH.options()["trump_exchange"] == "after_win"
    for option in OPTIONS.values():
        assert option.help


def test_default_values_are_no_override() -> None:
    """Options set to what the preset already has are no override: rules equal, and nothing to record."""
    same = SPANISH.with_options(SPANISH.options())
    assert same.overrides() == {}
    assert same == SPANISH
    points = SPANISH.with_options(points={"1": 11, "3": 10, "12": 4, "11": 3, "10": 2})
    assert points.overrides() == {}
    assert points == SPANISH


def test_parse_option_text() -> None:
    assert parse_option_text("deck=48") == ("deck", 48)
    assert parse_option_text("trump_exchange=off") == ("trump_exchange", "off")
    assert parse_option_text(" teams = false") == ("teams", False)
    with pytest.raises(RulesError, match="name=value"):
        parse_option_text("deck")
    with pytest.raises(RulesError, match="name=value"):
        parse_option_text("=48")


# ------------------------------------------------------------------- players


@pytest.mark.parametrize("players", [0, 1, 5, 7, 8, -2, True, "2", None, 2.0])
def test_bad_player_counts(players: object) -> None:
    with pytest.raises(RulesError, match=r"played by 2, 3, 4, 6 players"):
        SPANISH.check_players(players)  # type: ignore[arg-type]
    with pytest.raises(RulesError):
        Game("spanish", players)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("players", "deck", "size", "removed"),
    [
        (2, 40, 40, ""),
        (3, 40, 39, "2O"),
        (4, 40, 40, ""),
        (6, 40, 36, "2O 2C 2E 2B"),
        (2, 48, 48, ""),
        (3, 48, 48, ""),
        (4, 48, 48, ""),
        (6, 48, 48, ""),
    ],
)
def test_deck_per_player_count(players: int, deck: int, size: int, removed: str) -> None:
    rules = SPANISH.with_options(deck=deck)
    in_play = rules.deck_cards(players)
    assert len(in_play) == size
    assert len(set(in_play)) == size
    full = {c for c in ALL_CARDS if deck == 48 or int(c.rank) not in (8, 9)}
    assert full - set(in_play) == cards(removed)
    assert sum(rules.card_points(c) for c in in_play) == 120
    assert size % players == 0
    game = Game(rules, players, seed=1)
    assert sorted(game.deck) == sorted(in_play)
    assert game.stock_count == size - 3 * players


def test_sides() -> None:
    assert [SPANISH.sides(n) for n in (2, 3, 4, 6)] == [2, 3, 2, 2]
    assert [SPANISH.side_of(s, 4) for s in range(4)] == [0, 1, 0, 1]
    assert [SPANISH.side_of(s, 6) for s in range(6)] == [0, 1, 0, 1, 0, 1]
    assert [SPANISH.side_of(s, 3) for s in range(3)] == [0, 1, 2]
    assert [SPANISH.side_of(s, 2) for s in range(2)] == [0, 1]


# --------------------------------------------------------------- card tables


def test_strength_orders() -> None:
    assert SPANISH.with_options(deck=48).strength_order() == (1, 3, 12, 11, 10, 9, 8, 7, 6, 5, 4, 2)
    for rules in (SPANISH, SPANISH.with_options(deck=48)):
        order = rules.strength_order()
        table = rules.strength_table
        for suit in "OCEB":
            strengths = [table[Card.parse(f"{r}{suit}").index] for r in order]
            assert strengths == sorted(strengths, reverse=True)
            assert len(set(strengths)) == len(strengths)


def test_points() -> None:
    expected = {1: 11, 3: 10, 12: 4, 11: 3, 10: 2}
    for rules in (SPANISH, SPANISH.with_options(deck=48)):
        for card in ALL_CARDS:
            assert rules.card_points(card) == expected.get(int(card.rank), 0)


def _exchange_map(rules: Rules) -> dict[str, str]:
    return {str(ALL_CARDS[i]): str(give) for i, give in enumerate(rules.exchange_table) if give is not None}


def test_exchange_table() -> None:
    expected40 = {}
    expected48 = {}
    for suit in "OCEB":
        for r in (1, 3, 12, 11, 10):
            expected40[f"{r}{suit}"] = expected48[f"{r}{suit}"] = f"7{suit}"
        for r in (9, 8):
            expected48[f"{r}{suit}"] = f"7{suit}"
        for r in (4, 5, 6, 7):
            expected40[f"{r}{suit}"] = expected48[f"{r}{suit}"] = f"2{suit}"
    assert _exchange_map(SPANISH) == expected40
    assert _exchange_map(SPANISH.with_options(deck=48)) == expected48
    assert _exchange_map(SPANISH.with_options(trump_exchange="off")) == {}


def test_describe_mentions_the_essentials() -> None:
    text = SPANISH.describe()
    assert "40 cards" in text and "after_win" in text
    assert "48 cards" in SPANISH.with_options(deck=48).describe()


def test_capote_takes_the_ruled_engine_so_it_is_scored() -> None:
    import random

    rules = find_variant("spanish").with_options(capote=True)
    assert not rules.plain
    found = False
    for seed in range(3000):
        game = Game(rules, 2, seed=seed)
        rng = random.Random(seed)
        while not game.is_over():
            game.apply(rng.choice(game.legal_actions()))
        result = game.result()
        assert result is not None
        every = {t.winner for t in game.tricks}
        if len(every) == 1:
            assert result.reason == "capote" and result.winner == every.pop()
            found = True
            break
    assert found


def test_the_exchange_readings_of_001_and_000_are_option_values() -> None:
    """001's announced exchange takes the ruled engine (a trump out of its hand for a while); 000's exchange out of
    turn keeps the plain fast path (the seat to act is served as under after_win). Both keep the exchange table."""
    announced = SPANISH.with_options(trump_exchange="announced")
    out_of_turn = SPANISH.with_options(trump_exchange="out_of_turn")
    assert not announced.plain and out_of_turn.plain and SPANISH.plain
    assert announced.exchange_table == out_of_turn.exchange_table == SPANISH.exchange_table
    assert announced.overrides() == {"trump_exchange": "announced"}
    help_text = OPTIONS["trump_exchange"].help
    assert "placing his trump two or seven under the face-up trump" in help_text  # 001
    assert "even while playing a trick" in help_text  # 000
    assert type(Game(announced, 2, seed=1)).__name__ == "RuledGame" and type(Game(out_of_turn, 2, seed=1)) is Game
