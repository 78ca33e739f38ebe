"""Cards, suits and ranks: notation, names in three languages, interning, decks."""

from __future__ import annotations

import copy
import pickle

import pytest

import brisca
from brisca import Card, InvalidCardError, Rank, Suit, parse_cards, spanish_deck
from brisca.cards import ALL_CARDS, LANGS

RANK_NAMES = {
    "es": ["as", "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve", "sota", "caballo", "rey"],
    "en": ["ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "jack", "knight", "king"],
    "it": ["asso", "due", "tre", "quattro", "cinque", "sei", "sette", "otto", "nove", "fante", "cavallo", "re"],
}
SUIT_NAMES = {
    "es": ["oros", "copas", "espadas", "bastos"],
    "en": ["coins", "cups", "swords", "clubs"],
    "it": ["denari", "coppe", "spade", "bastoni"],
}
JOIN = {"es": "de", "en": "of", "it": "di"}


def test_there_are_48_distinct_cards() -> None:
    assert len(ALL_CARDS) == 48
    assert len(set(ALL_CARDS)) == 48
    assert sorted(c.index for c in ALL_CARDS) == list(range(48))
    assert {(int(c.rank), c.suit.letter) for c in ALL_CARDS} == {(r, s) for r in range(1, 13) for s in "OCEB"}


@pytest.mark.parametrize("card", ALL_CARDS, ids=str)
def test_notation_round_trip(card: Card) -> None:
    text = str(card)
    assert text == f"{int(card.rank)}{card.suit.letter}"
    assert Card.parse(text) is card
    assert Card.parse(text.lower()) is card
    assert Card.parse(f"  {text.lower()} \n") is card
    assert Card(card.rank, card.suit) is card
    assert Card(int(card.rank), int(card.suit)) is card
    assert Card.from_index(card.index) is card
    assert card.index == int(card.suit) * 12 + int(card.rank) - 1


@pytest.mark.parametrize("card", ALL_CARDS, ids=str)
@pytest.mark.parametrize("lang", LANGS)
def test_names_in_three_languages(card: Card, lang: str) -> None:
    name = card.name(lang)  # type: ignore[arg-type]
    expected = f"{RANK_NAMES[lang][int(card.rank) - 1]} {JOIN[lang]} {SUIT_NAMES[lang][int(card.suit)]}"
    assert name == expected
    assert Card.parse(name) is card
    assert Card.parse(name.upper()) is card
    assert Card.parse(name.title()) is card


def test_names_are_unique_per_language() -> None:
    for lang in LANGS:
        assert len({c.name(lang) for c in ALL_CARDS}) == 48  # type: ignore[arg-type]


def test_some_names() -> None:
    assert Card.parse("1O").name() == "as de oros"
    assert Card.parse("12E").name("en") == "king of swords"
    assert Card.parse("11C").name("it") == "cavallo di coppe"
    assert Card.parse("10B").name("es") == "sota de bastos"
    assert Card.parse("AS DE OROS") is Card.parse("1o")
    assert Card.parse("Knight of Cups") is Card.parse("11C")
    assert Card.parse("fante di spade") is Card.parse("10E")


@pytest.mark.parametrize("card", ALL_CARDS, ids=str)
def test_repr_pastes_back(card: Card) -> None:
    namespace: dict[str, object] = {}
    exec("from brisca import Card", namespace)
    assert eval(repr(card), namespace) is card
    assert repr(card) == f"Card.parse({str(card)!r})"


def test_suits_and_ranks_parse() -> None:
    for suit in Suit:
        assert Suit.parse(suit.letter) is suit
        assert Suit.parse(suit.letter.lower()) is suit
        assert str(suit) == suit.letter
        for lang in LANGS:
            assert Suit.parse(suit.name_in(lang)) is suit  # type: ignore[arg-type]
            assert Suit.parse(suit.name_in(lang).upper()) is suit  # type: ignore[arg-type]
    assert [s.letter for s in Suit] == ["O", "C", "E", "B"]
    for r in Rank:
        assert Rank.parse(str(r.value)) is r
        assert str(r) == str(r.value)
        for lang in LANGS:
            assert Rank.parse(r.name_in(lang)) is r  # type: ignore[arg-type]
    assert Rank.JACK == 10 and Rank.KNIGHT == 11 and Rank.KING == 12


@pytest.mark.parametrize(
    "text",
    ["", " ", "0O", "13O", "3X", "O3", "3", "O", "3OO", "as de", "ace of", "1 O", "3o3", "x3O", "-1O", "3.0O"],
)
def test_bad_card_text_raises(text: str) -> None:
    with pytest.raises(InvalidCardError):
        Card.parse(text)


@pytest.mark.parametrize("value", [None, 3, 3.0, b"3O", ["3O"]])
def test_non_string_raises_invalid_card(value: object) -> None:
    with pytest.raises(InvalidCardError):
        Card.parse(value)  # type: ignore[arg-type]


def test_bad_card_error_message_is_helpful() -> None:
    with pytest.raises(InvalidCardError, match="13Z"):
        Card.parse("13Z")
    assert issubclass(InvalidCardError, ValueError)
    assert issubclass(InvalidCardError, brisca.BriscaError)


@pytest.mark.parametrize(("rank", "suit"), [(0, 0), (13, 0), (1, 4), (1, -1), (-3, 2)])
def test_bad_constructor_raises(rank: int, suit: int) -> None:
    with pytest.raises(InvalidCardError):
        Card(rank, suit)


@pytest.mark.parametrize("text", ["", "Z", "oro", "12"])
def test_bad_suit_raises(text: str) -> None:
    with pytest.raises(InvalidCardError):
        Suit.parse(text)


@pytest.mark.parametrize("text", ["", "0", "13", "O", "ases"])
def test_bad_rank_raises(text: str) -> None:
    with pytest.raises(InvalidCardError):
        Rank.parse(text)


def test_cards_are_immutable_and_interned() -> None:
    card = Card.parse("3O")
    with pytest.raises(AttributeError):
        card.rank = Rank.ACE  # type: ignore[misc]
    assert copy.copy(card) is card
    assert copy.deepcopy(card) is card
    assert pickle.loads(pickle.dumps(card)) is card
    assert hash(card) == hash(Card.parse("3o"))
    assert card == Card.parse("tres de oros")
    assert card != Card.parse("3C")


def test_parse_cards() -> None:
    assert parse_cards("1O 3c, 12e") == [Card.parse("1O"), Card.parse("3C"), Card.parse("12E")]
    assert parse_cards(["7b", "2O"]) == [Card.parse("7B"), Card.parse("2O")]
    assert parse_cards("") == []
    with pytest.raises(InvalidCardError):
        parse_cards("1O 13O")


def test_spanish_deck() -> None:
    d40 = spanish_deck()
    assert len(d40) == 40 and len(set(d40)) == 40
    assert not [c for c in d40 if c.rank in (Rank.EIGHT, Rank.NINE)]
    d48 = spanish_deck(48)
    assert len(d48) == 48 and set(d48) == set(ALL_CARDS)
    assert set(d40) < set(d48)
    assert list(d40) == sorted(d40)
    with pytest.raises(InvalidCardError):
        spanish_deck(36)
