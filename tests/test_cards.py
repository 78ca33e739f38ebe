"""Cards, suits and ranks: notation, names in three languages, interning, decks."""

from __future__ import annotations

import copy
import pickle
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import brisca
from brisca import Card, InvalidCardError, Rank, Suit, parse_cards, spanish_deck
from brisca.cards import ALL_CARDS, ITALIAN, LANGS, NOTATIONS, SPANISH, Notation, find_notation

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


# ---------------------------------------------------------------- notations: Spanish (canonical) and Italian

ITALIAN_RANKS = {1: "A", 2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", 10: "F", 11: "C", 12: "R"}


@pytest.mark.parametrize("card", ALL_CARDS, ids=str)
@pytest.mark.parametrize("notation", [SPANISH, ITALIAN, "spanish", "italian"], ids=str)
def test_every_card_round_trips_in_every_notation(card: Card, notation: Notation | str) -> None:
    text = card.text(notation)
    assert Card.parse(text, notation) is card
    assert Card.parse(text) is card  # read without being told the notation, too
    assert Card.parse(text.lower(), notation) is card
    assert find_notation(notation).parse(text) is card
    assert text == find_notation(notation).text(card)
    assert card.text(notation) == f"{card.rank.text(notation)}{card.suit.text(notation)}"


def test_the_italian_notation() -> None:
    assert [Card(r, Suit.OROS).text(ITALIAN) for r in Rank] == [f"{ITALIAN_RANKS[r]}D" for r in range(1, 13)]
    assert [Card(Rank.KING, s).text(ITALIAN) for s in Suit] == ["RD", "RC", "RS", "RB"]
    assert Card.parse("RD") is Card.parse("12O") and Card.parse("cc") is Card.parse("11C")
    assert Card.parse("FS") is Card.parse("10E") and Card.parse("as") is Card.parse("1E")
    assert Card.parse("1d") is Card.parse("AD") is Card.parse("1O")  # the Italian ace may be written 1
    assert Card.parse("7b", ITALIAN) is Card.parse("7B")
    assert Card.parse("re di denari") is Card.parse("RD")
    assert str(Card.parse("RD")) == "12O" and repr(Card.parse("RD")) == "Card.parse('12O')"  # str stays canonical
    assert ITALIAN.suit_letters == ("D", "C", "S", "B") and SPANISH.suit_letters == ("O", "C", "E", "B")
    assert repr(ITALIAN) == "find_notation('italian')" and eval(repr(ITALIAN), {"find_notation": find_notation}) \
        is ITALIAN
    assert pickle.loads(pickle.dumps(ITALIAN)) is ITALIAN
    assert NOTATIONS == {"spanish": SPANISH, "italian": ITALIAN}
    with pytest.raises(InvalidCardError, match="notation"):
        find_notation("french")
    with pytest.raises(AttributeError):
        ITALIAN.name = "x"  # type: ignore[misc]


def test_spanish_notation_is_read_in_italian_where_it_is_unambiguous() -> None:
    for card in ALL_CARDS:
        spanish = str(card)
        if card.rank == Rank.JACK:
            continue
        assert Card.parse(spanish, ITALIAN) is card  # 12O, 11C, 7B: an Italian reader takes them too
    # 10 is the Spanish jack but the king where Italians count the fante 8, the cavallo 9 and the re 10
    for text in ("10C", "10o", "10E", "10b", "10D", "10s"):
        with pytest.raises(InvalidCardError, match="ambiguous"):
            Card.parse(text, ITALIAN)
    with pytest.raises(InvalidCardError, match="ambiguous"):
        Rank.parse("10", ITALIAN)
    assert Card.parse("10C") is Card.parse("10C", SPANISH) is Card(Rank.JACK, Suit.COPAS)  # canonical: the jack
    with pytest.raises(InvalidCardError, match="ambiguous"):
        Card.parse("10D")  # an Italian suit letter with 10: refused whatever the notation
    assert Rank.parse("10") is Rank.JACK and Rank.parse("R") is Rank.KING and Rank.parse("f", ITALIAN) is Rank.JACK


def test_suit_letters_of_both_notations_never_clash() -> None:
    for suit in Suit:
        assert Suit.parse(suit.text(ITALIAN)) is suit and Suit.parse(suit.text("spanish")) is suit
    assert Suit.parse("d") is Suit.OROS and Suit.parse("S") is Suit.ESPADAS


def test_no_text_means_two_cards() -> None:
    """Every text any notation writes, and every name, reads as exactly one card: the tables agree."""
    seen: dict[str, Card] = {}
    for card in ALL_CARDS:
        texts = [card.text(n) for n in NOTATIONS.values()] + [card.name(lang) for lang in LANGS]
        for text in texts:
            assert seen.setdefault(text.lower(), card) is card, text


def test_long_bad_input_is_cut_in_the_error() -> None:
    with pytest.raises(InvalidCardError) as info:
        Card.parse("x" * 6000)
    assert len(str(info.value)) < 200 and "…" in str(info.value)
    with pytest.raises(InvalidCardError) as info:
        Suit.parse("y" * 6000)
    assert len(str(info.value)) < 200


def test_no_property_test_has_a_deadline() -> None:
    """tests/conftest.py's profile: an example may take as long as a busy machine makes it."""
    assert settings().deadline is None


@given(st.sampled_from(ALL_CARDS), st.sampled_from(list(NOTATIONS.values())),
       st.sampled_from([str.lower, str.upper, str.title]), st.text(" \t\n", max_size=3))
def test_parse_of_text_is_a_fixed_point(card: Card, notation: Notation, case: Any, pad: str) -> None:
    text = case(card.text(notation))
    assert Card.parse(pad + text + pad, notation) is card
    assert Card.parse(Card.parse(text, notation).text(notation), notation) is card


@given(st.text(max_size=8))
def test_parse_either_reads_a_card_or_raises_invalid_card(text: str) -> None:
    for notation in (None, SPANISH, ITALIAN):
        try:
            card = Card.parse(text, notation)
        except InvalidCardError:
            continue
        # whatever was read, writing it back in a notation and reading that gives the same card
        assert Card.parse(card.text(ITALIAN)) is card and Card.parse(str(card)) is card
        assert text.strip().lower() in {card.text(n).lower() for n in NOTATIONS.values()} | {
            card.name(lang) for lang in LANGS} | {f"1{card.suit.text(ITALIAN)}".lower()}


def test_actions_are_written_and_read_in_either_notation() -> None:
    from brisca.actions import Action, Arrastro, Call, Declare, Discard, Exchange, Play, RankBid, TrumpChoice

    actions: list[Action] = [Play(Card.parse("12O")), Exchange(Card.parse("7B")), Arrastro(Card.parse("1E")),
                             Call(Card.parse("11C")), Declare(Suit.ESPADAS), TrumpChoice(Suit.OROS), RankBid(10),
                             Discard(Card.parse("10O"), Card.parse("3E"))]
    italian = [a.text(ITALIAN) for a in actions]
    assert italian == ["RD", "x7B", "AS!", "call CC", "declare S", "trump D", "bid rank F", "discard FD 3S"]
    assert [a.text() for a in actions] == [str(a) for a in actions]
    for action, text in zip(actions, italian, strict=True):
        assert Action.parse(text, ITALIAN) == action
        assert Action.parse(text) == action
        assert Action.parse(str(action)) == action
