"""The Chilean duties of play (source 003) on hand-built positions: follow, beat and trump the opponents, and
the descanso of a seat whose partner holds the trick (``follow: descanso``, the ``chilean`` preset), against
the older reading where the partner's card is beaten and trumped too (``follow: suit_beat_trump``).

Each position is dealt ``alce`` (packets of 5, the cutter's choice) by seat 3, so seat 0 (the cutter)
leads, seats 0 and 2 play
against seats 1 and 3, and the dealer's last card, the 10 of oros, makes oros trumps.  Every position is
checked against the engine and against the independent referee (``tests/variant_referee.py``).
"""

from __future__ import annotations

import json

import pytest

from brisca import BriscaError, Game, find_variant, parse_cards
from brisca.actions import PASS, PLAYS, Cut, Declare, Play
from brisca.cards import Card
from brisca.errors import IllegalActionError
from brisca.game import draw_for_dealer, draw_leaders, face_values
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
    game.apply(Cut("alce"))  # 003: the cutter chooses the way; these positions are dealt alce
    ref.act(0, {"cut": "alce"})
    for card in plays.split():
        pass_windows(game, ref)
        seat = game.turn
        assert seat is not None and ref.turn == seat
        game.apply(PLAYS[Card.parse(card).index])
        ref.act(seat, {"play": card})
    pass_windows(game, ref)
    assert str(game.trump) == "O"
    return game, ref


def pass_windows(game: Game, ref: Hand) -> None:
    """Let every vale go while seats whose card is down are asked (both must ask the same seats)."""
    while getattr(game, "phase", "") == "mark":
        seat = game.turn
        assert seat is not None and ref.turn == seat and ref.phase == "mark"
        game.apply(PASS)
        ref.act(seat, {"pass": True})


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


# ------------------------------------------------------------------ vales marked after the card is down

#: Seat 0 holds the knight of copas, seat 2 its king; the trump card is the 10 of oros (seat 3, dealing).
VALE_HANDS = [
    "11C 4C 5C 6C 1E 2E 3E 1B 2B 3B",
    "7C 10C 4E 5E 6E 4B 5B 6B 1O 3O",
    "12C 2O 12O 11O 7E 10E 11E 12E 7B 10B",
    "1C 2C 3C 11B 12B 4O 5O 6O 7O 10O",
]


def test_the_partner_marks_after_its_card_is_down() -> None:
    """003: 'si un jugador lanza el rey de copas ... si no lo tiene y su pareja sí lo tiene, su pareja lo marca sin
    importar si lo juega o no en aquella jugada'. Seat 0 led 4C and holds the knight; its partner, seat 2, plays
    the king after it: seat 0, its card down, may mark the vale."""
    game, ref = position("", hands=VALE_HANDS)
    for card in ("4C", "7C", "12C"):
        seat = game.turn
        game.apply(PLAYS[Card.parse(card).index])
        ref.act(seat, {"play": card})  # type: ignore[arg-type]
    assert game.phase == ref.phase == "mark"  # type: ignore[attr-defined]
    assert game.turn == ref.turn == 0
    assert Declare(Card.parse("1C").suit) in game.legal_actions()
    assert ref.legal() == [{"declare": "C"}, {"pass": True}]
    game.apply("declare C")
    ref.act(0, {"declare": "C"})
    # Seat 2, whose card is down too, is asked as well: who is asked follows the cards on the table, not the hands.
    assert game.turn == ref.turn == 2 and game.legal_actions() == [PASS]
    game.apply(PASS)
    ref.act(2, {"pass": True})
    assert game.phase == "play" and game.turn == 3  # type: ignore[attr-defined]
    game.apply("2C")
    ref.act(3, {"play": "2C"})
    pass_windows(game, ref)  # (after the last card seat 0 and seat 2 are asked again: nothing left to mark)
    result_trick = game.tricks[0]
    assert result_trick.winner == 3  # the 2 of copas takes the king: the vale goes to the trick's winners (003)
    while not game.is_over():
        pass_windows(game, ref)
        if game.is_over():
            break
        seat = game.turn
        action = next(a for a in game.legal_actions() if isinstance(a, Play))
        game.apply(action)
        ref.act(seat, action.to_json())  # type: ignore[arg-type]
    result = game.result()
    assert result is not None
    assert any(b.side == 1 and b.points == 20 for b in result.bonuses)


def test_a_vale_is_not_marked_once_the_trick_is_gathered() -> None:
    """003: 'de cerrarse la jugada, no se podrá marcar después'. Seat 0 lets it go after each card; the trick
    gathered, the knight of copas no longer makes a vale."""
    game, ref = position("4C 7C 12C 2C", hands=VALE_HANDS)
    assert game.turn == ref.turn == 3 and game.phase == "play"  # type: ignore[attr-defined]
    with pytest.raises(IllegalActionError, match="declared in the trick"):
        game.apply("declare C")
    with pytest.raises(RefereeError):
        ref.act(3, {"declare": "C"})


def test_seats_are_asked_after_every_card_until_the_trick_closes() -> None:
    """Marking is open from the card that shows the pair to the end of the trick: seat 0 is asked after seat 2's
    card and again after seat 3's, and a vale marked after the last card counts for that trick."""
    game, ref = position("", hands=VALE_HANDS)
    asked = []
    for card in ("4C", "7C", "12C", "2C"):
        seat = game.turn
        game.apply(PLAYS[Card.parse(card).index])
        ref.act(seat, {"play": card})  # type: ignore[arg-type]
        while game.phase == "mark":  # type: ignore[attr-defined]
            asked.append((card, game.turn))
            if card == "2C" and game.turn == 0:
                game.apply("declare C")
                ref.act(0, {"declare": "C"})
            else:
                game.apply(PASS)
                ref.act(game.history[-1][0], {"pass": True})
    assert asked == [("12C", 0), ("12C", 2), ("2C", 0), ("2C", 2)]
    assert game.view(1).declarations == ((0, Card.parse("1C").suit),)
    assert ref.declared == [(0, "C", 0)]  # declared in the first trick, after its last card


# ------------------------------------------------------------------ the cut and the draw for the dealer


def test_the_cutter_is_the_opponent_on_the_dealers_right_and_chooses_the_way() -> None:
    """003: 'El contrincante de su derecha, alzará el mazo' and 'tiene la opción de ejecutarlo de cualquiera de las
    tres maneras'; the seat after the dealer, who leads ('Parte o sale quien alzó el mazo')."""
    game = Game("chilean", 4, dealer=1, seed=5)
    assert game.phase == "cut" and game.turn == game.cutter == 2  # type: ignore[attr-defined]
    assert [str(a) for a in game.legal_actions()] == ["cut alce", "cut golpe", "cut pelada"]
    view = game.view(0)
    assert view.hand == () and view.trump is None and view.deal_way == ""  # nothing is dealt before the cut
    game.apply("cut pelada")
    assert game.phase == "play" and game.turn == 2 and game.deal_way == "pelada"  # type: ignore[attr-defined]
    assert game.view(3).deal_way == "pelada" and game.trump is game.turned.suit  # type: ignore[union-attr]
    assert Game("spanish", 4, dealer=1).cutter == 0  # elsewhere the seat before the dealer cuts


def test_two_agreed_ways_and_never_one() -> None:
    """003: 'a menos que se haya previamente establecido reducir el juego a dos tipos de alce. Nunca puede jugarse
    con un solo tipo de alce'."""
    game = Game("chilean", 4, seed=2, options={"cut_ways": ["golpe", "pelada"]})
    assert [str(a) for a in game.legal_actions()] == ["cut golpe", "cut pelada"]
    with pytest.raises(IllegalActionError, match="chooses among golpe, pelada"):
        game.apply("cut alce")
    assert game.phase == "cut"  # type: ignore[attr-defined]
    with pytest.raises(BriscaError, match="at least two"):
        find_variant("chilean").with_options(cut_ways=["alce"])


def test_the_draw_for_the_dealer_counts_face_values() -> None:
    """003: 'Quien obtenga el número mayor (de 1 a 10, el rey vale 10, el caballo 9 y la sota 8) las reparte. De
    haber empate, la pareja que sume más números gana.'"""
    chilean = find_variant("chilean")
    spanish = find_variant("spanish").with_options(teams=True)
    cards = parse_cards("12O 1C 11E 2B")
    assert draw_leaders(chilean, 4, [0, 1, 2, 3], cards) == [0]  # the rey, 10: the ace counts 1
    assert draw_leaders(spanish, 4, [0, 1, 2, 3], cards) == [1]  # by rank order the ace is highest
    # Reyes for seat 0 and seat 3: seat 0's pair adds 10 + 1, seat 3's 9 + 10: seat 3's pair wins the deal.
    assert draw_leaders(chilean, 4, [0, 1, 2, 3], parse_cards("12O 11C 1E 12B")) == [3]
    # Partners tied for the highest: their pair deals, and the two draw again.
    assert draw_leaders(chilean, 4, [0, 1, 2, 3], parse_cards("12O 7C 12E 2B")) == [0, 2]
    dealer, rounds = draw_for_dealer(chilean, 4, 11)
    values = face_values(chilean)
    assert values[Card.parse("12O").index] == 10 and values[Card.parse("10O").index] == 8
    assert values[Card.parse("1O").index] == 1
    drawing = [0, 1, 2, 3]
    for cards in rounds:  # each round leaves those still in the running; the last leaves the dealer alone
        drawing = draw_leaders(chilean, 4, drawing, cards)
    assert drawing == [dealer]
