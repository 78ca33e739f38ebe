"""The Chilean duties of play (source 003) on hand-built positions: follow, beat and trump the opponents, and
the descanso of a seat whose partner holds the trick (``follow: descanso``, the ``chilean`` preset), against
the older reading where the partner's card is beaten and trumped too (``follow: suit_beat_trump``).

Each position is dealt ``alce`` (packets of 5) by seat 3, so seat 0 (the cutter) leads, seats 0 and 2 play
against seats 1 and 3, and the dealer's last card, the 10 of oros, makes oros trumps.  Every position is
checked against the engine and against the independent referee (``tests/variant_referee.py``).
"""

from __future__ import annotations

import json

import pytest

from brisca import Game, find_variant
from brisca.actions import PLAYS, Play
from brisca.cards import Card
from brisca.errors import IllegalActionError
from variant_referee import Hand, RefereeError

#: seat -> its ten cards; the last card of seat 3 (the dealer) is the trump card, 10 of oros.
HANDS = [
    "1C 3C 5C 6C 1E 2E 3E 1B 2B 3B",
    "4C 7C 4E 5E 6E 4B 5B 6B 1O 3O",
    "2O 12O 11O 7E 10E 11E 12E 7B 10B 11B",
    "2C 10C 11C 12C 12B 4O 5O 6O 7O 10O",
]


def alce_deck(hands: list[str]) -> list[str]:
    """The deck that deals ``hands`` (seat 0 first) in packets of 5, seat 3 dealing."""
    cards = [h.split() for h in hands]
    assert sorted(len(h) for h in cards) == [10] * 4
    return [c for k in (0, 5) for h in cards for c in h[k:k + 5]]


def position(plays: str, follow: str = "descanso", hands: list[str] = HANDS) -> tuple[Game, Hand]:
    """The engine and the referee after ``plays`` (cards in turn from seat 0)."""
    deck = alce_deck(hands)
    game = Game("chilean", 4, dealer=3, deck=deck, options={"follow": follow})
    rules = find_variant("chilean").with_options(follow=follow)
    options = json.loads(json.dumps(rules.options())) | {"removed": {str(n): list(c) for n, c in rules.removed}}
    ref = Hand(options, 4, 3, deck)
    for card in plays.split():
        seat = game.turn
        assert seat is not None and ref.turn == seat
        game.apply(PLAYS[Card.parse(card).index])
        ref.act(seat, {"play": card})
    assert str(game.trump) == "O"
    return game, ref


def playable(game: Game, ref: Hand) -> set[str]:
    """The cards the seat to play may play; the engine and the referee must agree."""
    mine = {str(a.card) for a in game.legal_actions() if isinstance(a, Play)}
    assert ref.turn is not None
    assert set(ref.playable(ref.turn)) == mine
    return mine


def refused(game: Game, ref: Hand, card: str) -> str:
    """The engine's reason for refusing ``card``; the referee refuses it too."""
    seat = game.turn
    assert seat is not None
    with pytest.raises(IllegalActionError) as exc:
        game.apply(PLAYS[Card.parse(card).index])
    with pytest.raises(RefereeError):
        ref.act(seat, {"play": card})
    return str(exc.value)


def test_the_worked_example_rests_with_any_card() -> None:
    """003: 'Si un jugador, por ejemplo, parte con el as de copas siendo oro el triunfo, su contrincante contesta
    con el 3 de copas y su pareja no tiene copas, entonces su pareja descansará con alguna carta que estime
    conveniente ... Se puede correr el riesgo de echar una brisca, se puede descansar con una carta innecesaria o
    se puede asegurar la jugada con un triunfo alto'.  Seat 0 leads 1C, seat 1 plays 4C, seat 2 has no copas."""
    game, ref = position("1C 4C")
    assert playable(game, ref) == set(HANDS[2].split())  # a brisca (2O), a useless card (7B), a high trump
    game.apply(PLAYS[Card.parse("7B").index])
    ref.act(2, {"play": "7B"})
    assert playable(game, ref) == {"2C", "10C", "11C", "12C"}  # seat 3: follow copas (none beats the ace)


def test_the_old_reading_trumps_the_partner() -> None:
    """``suit_beat_trump`` reads 003's 'Si no tiene cartas de la pinta pedida, deberá fallarla con una carta de la
    pinta del triunfo' alone: the same seat must trump its partner's ace."""
    game, ref = position("1C 4C", "suit_beat_trump")
    assert playable(game, ref) == {"2O", "12O", "11O"}
    assert "must play one of" in refused(game, ref, "7B")


def test_following_lower_under_the_partner_is_legal() -> None:
    """003: 'deben siempre intentar cargar a su contrincante': the duty to beat is owed to the opponent.  Seat 0
    leads the jack of espadas, seat 1 follows low; seat 2 may play its 7 under its partner's jack."""
    hands = [
        "1C 3C 5C 6C 1E 10E 3E 1B 2B 3B",
        "4C 7C 4E 5E 6E 4B 5B 6B 1O 3O",
        "2O 12O 11O 7E 2E 11E 12E 7B 10B 11B",
        "2C 10C 11C 12C 12B 4O 5O 6O 7O 10O",
    ]
    game, ref = position("10E 5E", hands=hands)
    assert playable(game, ref) == {"7E", "2E", "11E", "12E"}
    old, old_ref = position("10E 5E", "suit_beat_trump", hands=hands)
    assert playable(old, old_ref) == {"2E", "11E", "12E"}
    game.apply(PLAYS[Card.parse("7E").index])
    ref.act(2, {"play": "7E"})
    # Seat 3 has no espadas and its partner does not hold the trick: it must trump the opponent's jack.
    assert playable(game, ref) == {"4O", "5O", "6O", "7O", "10O"}


def test_beating_is_still_owed_to_the_opponent() -> None:
    """003: 'Cargar las cartas es obligatorio, a menos que no se pueda ... De tener cartas mayores de la pinta
    pedida y no cargar la jugada, se cobrará renuncio'.  Seat 1 must beat seat 0's card when it can."""
    game, ref = position("3C")
    assert playable(game, ref) == {"4C", "7C"}  # both beat the 3 (the lowest card)
    game, ref = position("5C")
    assert playable(game, ref) == {"7C"}
    assert "must play one of 7C" in refused(game, ref, "4C")


def test_the_suit_led_is_followed_after_a_trump() -> None:
    """003: 'La pinta siempre debe ser la pedida, no importa si el jugador previo puso triunfo, se debe lanzar la
    pinta pedida.  El primer jugador, por ejemplo, tira el as de copas siendo oro el triunfo y el segundo jugador
    no tiene copas, y la falla con triunfo; si el tercer jugador, es decir la pareja del primero, tiene sólo el
    dos de copas, deberá tirarlo por obligación a la mesa o se cobrará renuncio'."""
    hands = [
        "1C 3C 4C 5C 1E 2E 4O 1B 2B 3B",
        "4E 7E 10E 11E 12E 4B 5B 6B 1O 3O",
        "2C 12O 11O 7B 10B 11B 5O 3E 5E 6E",
        "6C 7C 10C 11C 12C 12B 6O 7O 2O 10O",
    ]
    game, ref = position("1C", hands=hands)
    assert playable(game, ref) == {"1O", "3O"}  # seat 1 has no copas: it trumps the ace
    game.apply(PLAYS[Card.parse("3O").index])
    ref.act(1, {"play": "3O"})
    assert playable(game, ref) == {"2C"}
    assert "must play one of 2C" in refused(game, ref, "11O")


def test_a_partner_holding_by_a_trump_is_no_descanso() -> None:
    """The reading for a partner who holds the trick only by a trump: 003 gives the descanso with plain cards, 'El
    jugador dará descansos a su pareja, cuando tenga cartas grandes (que no sean triunfo) de alguna pinta que su
    pareja no tiene', and the lead is then the opponents', which the seat is told to trump, 'si no tienen la
    pinta, fallarles el pedido'.  Seat 0 leads the ace of copas, seat 1 trumps it with the 3 of oros, seat 2
    follows; seat 3, seat 1's partner, has no copas: it must trump, and may not throw a plain card instead."""
    hands = [
        "1C 3E 5E 6E 1E 2E 12C 1B 2B 3B",
        "4E 7E 10E 11E 12E 4B 5B 6B 1O 3O",
        "2C 3C 4C 5C 6C 7C 10C 11C 12O 11O",
        "7B 10B 11B 12B 2O 4O 5O 6O 7O 10O",
    ]
    game, ref = position("1C 3O 4C", hands=hands)
    assert ref.table[1] == (1, "3O")  # seat 1 holds the trick by a trump
    assert playable(game, ref) == {"2O", "4O", "5O", "6O", "7O", "10O"}
    assert "must play one of" in refused(game, ref, "12B")


def test_a_trump_led_by_the_partner_need_not_be_beaten() -> None:
    """'cargar a su contrincante': a seat follows its partner's trump lead with any trump, not only a higher one."""
    hands = [
        "12O 3C 5C 6C 1E 2E 3E 1B 2B 3B",
        "4C 7C 4E 5E 6E 4B 5B 6B 1C 3O",
        "2O 1O 11O 7E 10E 11E 12E 7B 10B 11B",
        "2C 10C 11C 12C 12B 4O 5O 6O 7O 10O",
    ]
    game, ref = position("12O", hands=hands)
    assert playable(game, ref) == {"3O"}  # seat 1, an opponent: its only trump
    game, ref = position("12O 3O", hands=hands)
    assert playable(game, ref) == {"2O", "1O", "11O"}  # not only the ace and the 2, which beat the king
    old, old_ref = position("12O 3O", "suit_beat_trump", hands=hands)
    assert playable(old, old_ref) == {"2O", "1O"}


def test_the_preset_reads_descanso() -> None:
    rules = find_variant("chilean")
    assert rules.follow == "descanso"
    assert any("descansará" in r for r in rules.readings)
    assert any("que no sean triunfo" in r for r in rules.readings)
    assert any("suit_beat_trump" in r for r in rules.readings)
