"""Signals (señas) on hand-built positions: 002's own table for Briscola, 002's combination of open talk and
signals, and 004's rule that nobody asks for signals. Each is checked against the referee too."""

from __future__ import annotations

import json
from typing import Any

import pytest

from brisca import Game, find_variant
from brisca.actions import Action, Signal
from brisca.errors import IllegalActionError
from variant_referee import Hand


def referee(game: Game, overrides: dict[str, Any]) -> Hand:
    rules = find_variant(game.rules.variant).with_options(overrides)
    options = json.loads(json.dumps(rules.options())) | {"removed": {str(n): list(c) for n, c in rules.removed}}
    return Hand(options, game.players, game.dealer, [str(c) for c in game.deck], game.deal_number)


def signals(game: Game, aloud: bool = False) -> set[str]:
    return {a.name for a in game.legal_actions() if isinstance(a, Signal) and a.aloud is aloud}


def deck_for(first: list[str], trump: str, players: int = 4) -> list[str]:
    """A 40-card deck dealing ``first`` (seat 0's three cards) one at a time, with ``trump`` turned up."""
    from brisca.cards import spanish_deck

    rest = [str(c) for c in spanish_deck(40) if str(c) not in (*first, trump)]
    deck = []
    for i in range(3):
        deck.append(first[i])
        deck.extend(rest[:players - 1])
        rest = rest[players - 1:]
    return [*deck, trump, *rest]


def test_italian_table() -> None:
    """002: 'Ace of briscola suit | Tighten or purse the lips ... High card in non-briscola suit | Open and close
    the mouth briefly': the ace, three, king, queen and jack of trumps, and a carico of another suit."""
    overrides = {"signals": "partner"}
    game = Game("briscola", 4, dealer=3, deck=deck_for(["1O", "3C", "5E"], "7O"), options=overrides)
    assert signals(game) == {"trump-ace", "high-card"}  # the ace of trumps, the three of copas (a carico)
    ref = referee(game, overrides)
    assert {a["signal"] for a in ref.legal() if "signal" in a} == signals(game)
    with pytest.raises(IllegalActionError, match="not one of the italian signals"):
        game.apply(Signal("briscas"))  # the Spanish name for it is not in 002's table
    plain = Game("briscola", 4, dealer=3, deck=deck_for(["12C", "5E", "4B"], "7O"), options=overrides)
    assert signals(plain) == set()  # no trump honour, no carico: nothing true to tell
    lombard = Game("lombard", 4, dealer=3, deck=deck_for(["7C", "5E", "4B"], "6O"), options=overrides)
    assert signals(lombard) == {"high-card"}  # with Lombard values the seven is a carico


def test_nobody_asks_for_signals() -> None:
    """004: 'No se deben hacer señas falsas, ni tampoco pedirlas' (the Spanish preset); 001's asks come back with
    ``signal_asks: true``."""
    deck = deck_for(["1O", "3C", "5E"], "7O")
    game = Game("spanish", 4, dealer=3, deck=deck, options={"signals": "partner"})
    assert not signals(game) & {"ask-points", "ask-cards"}
    with pytest.raises(IllegalActionError, match="nobody may ask"):
        game.apply("signal ask-cards")
    asking = Game("spanish", 4, dealer=3, deck=deck, options={"signals": "partner", "signal_asks": True})
    assert {"ask-points", "ask-cards"} <= signals(asking)
    ref = referee(game, {"signals": "partner"})
    assert not [a for a in ref.legal() if a.get("signal", "").startswith("ask-")]


def test_combination_says_aloud_or_signals_to_the_partner() -> None:
    """002, 'Combination: Another option is to allow both open communication and the usage of signaling': a seat
    may say a signal aloud (everybody hears it) or make it to its partner (only its side sees it)."""
    overrides = {"signals": "combination"}
    game = Game("briscola", 4, dealer=3, deck=deck_for(["1O", "3C", "5E"], "7O"), options=overrides)
    assert signals(game) == signals(game, aloud=True) == {"trump-ace", "high-card"}
    game.apply("say trump-ace")
    game.apply("signal high-card")
    with pytest.raises(IllegalActionError, match="already made"):
        game.apply("signal trump-ace")  # said already this turn
    assert game.view(1).signals == ((0, "trump-ace"),)  # an opponent hears what is said aloud
    assert game.view(None).signals == ((0, "trump-ace"),)
    assert game.view(2).signals == ((0, "trump-ace"), (0, "high-card"))  # the partner sees the signal too
    ref = referee(Game("briscola", 4, dealer=3, deck=game.deck, options=overrides), overrides)
    ref.act(0, {"signal": "trump-ace", "aloud": True})
    ref.act(0, {"signal": "high-card"})
    assert ref.visible_signals(1) == [(0, "trump-ace")] and len(ref.visible_signals(2)) == 2
    partner_only = Game("briscola", 4, dealer=3, deck=game.deck, options={"signals": "partner"})
    with pytest.raises(IllegalActionError, match="aloud only"):
        partner_only.apply(Signal("trump-ace", aloud=True))


@pytest.mark.parametrize("text", ["say trump-ace", "signal high-card", "cut golpe", "say ask-cards"])
def test_notation_round_trips(text: str) -> None:
    action = Action.parse(text)
    assert str(action) == text
    assert Action.parse(str(action)) is action
    assert Action.from_json(action.to_json()) is action
    assert eval(repr(action), {"Signal": Signal, "Cut": type(Action.parse("cut alce"))}) is action


def test_the_cut_and_the_windows_hide_the_hands() -> None:
    """Before the cut nobody holds a card, and who is asked to mark a vale depends on the table alone: the view of
    an opponent is the same whichever hidden hand holds the knight."""
    game = Game("chilean", 4, dealer=3, seed=4)
    assert all(game.view(s).hand == () for s in range(4))
    assert game.view(1) == Game("chilean", 4, dealer=3, seed=9).view(1)  # nothing of the deck shows


@pytest.mark.parametrize(("variant", "overrides"), [
    ("chilean", {}), ("chilean", {"cut_ways": ["golpe", "pelada"], "signals": "combination", "signal_asks": True}),
    ("briscola", {"signals": "combination"}), ("spanish", {"signals": "partner"}),
])
def test_agents_take_legal_actions_with_the_new_options(variant: str, overrides: dict[str, Any]) -> None:
    """Thousands of positions: the cut, the vale windows, 002's signals said aloud or made to the partner."""
    from brisca.agents import make_agent

    positions = 0
    for i in range(12):
        agents = [make_agent(name, seed=i) for name in ("random", "greedy", "heuristic", "random")]
        game = Game(variant, 4, seed=i, dealer=i % 4, options=overrides)
        while not game.is_over():
            seat = game.turn
            assert seat is not None
            action = agents[seat].act(game.view(seat))
            assert action in game.legal_actions()
            game.apply(action)
            positions += 1
    assert positions > 400
