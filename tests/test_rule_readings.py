"""The last readings of the rule sources (``shared/seeds/``) on hand-built positions, each test quoting its source.

A vale nobody can hold (003), one pair scored once, a hand as a complete game (002), capote winning the match
(000), Mexico's eleven (000), options that say what they do, records that keep the draw for the first dealer, the
dealer's partner showing his last card in a golpe (003) and 002's auction against the play. Where a position is
played, the independent referee (``tests/variant_referee.py``) plays it too and must agree.
"""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from brisca import Game, Match, RecordError, RulesError, find_variant, make_rules
from brisca.actions import PASS, PLAYS, Action, Bid, Pass, Play
from brisca.cards import Card
from brisca.game import DealerDraw
from brisca.record import MatchRecord, loads
from brisca.rulebook import docs_index, preset_table, rules_lines
from brisca.rules import variant_names
from test_chilean_duties import alce_deck
from variant_referee import Hand, replay_record

ROOT = Path(__file__).resolve().parents[1]


def options_of(variant: str, **overrides: object) -> dict[str, Any]:
    """The preset's option values with ``overrides``, as the referee reads them."""
    rules = find_variant(variant).with_options(overrides)
    return json.loads(json.dumps(rules.options())) | {"removed": {str(n): list(c) for n, c in rules.removed}}


def both(variant: str, deck: list[str], dealer: int = 3, **overrides: object) -> tuple[Game, Hand]:
    """The engine's hand and the referee's, dealt from ``deck`` (top card first)."""
    game = Game(variant, 4, dealer=dealer, deck=deck, options=overrides)
    return game, Hand(options_of(variant, **overrides), 4, dealer, deck)


def play(game: Game, ref: Hand, cards: str) -> None:
    """Play ``cards`` in turn on both, letting every vale go (both must ask the same seats)."""
    for card in cards.split():
        while game.phase == "mark":  # type: ignore[attr-defined]
            seat = game.turn
            assert ref.phase == "mark" and ref.turn == seat
            game.apply(PASS)
            ref.act(seat, {"pass": True})  # type: ignore[arg-type]
        seat = game.turn
        assert ref.turn == seat
        game.apply(PLAYS[Card.parse(card).index])
        ref.act(seat, {"play": card})  # type: ignore[arg-type]


def asked(game: Game, ref: Hand) -> list[int]:
    """The seats asked about a vale now, by the engine; the referee asks the same."""
    if game.phase != "mark":  # type: ignore[attr-defined]
        assert ref.phase != "mark"
        return []
    assert ref.phase == "mark" and ref.turn == game.turn
    return list(game._window)  # type: ignore[attr-defined]


# ------------------------------------------------------------------ 1. a vale nobody can hold

#: Dealt alce by seat 3: seat 0 (the cutter) leads; the dealer's last card, the trump card, is the king of oros.
TURNED_KING = [
    "1C 3C 5C 6C 1E 2E 3E 1B 2B 3B",
    "4C 7C 4E 5E 6E 4B 5B 6B 1O 3O",
    "2O 11O 10O 7E 10E 11E 12E 7B 10B 11B",
    "2C 10C 11C 12C 12B 4O 5O 6O 7O 12O",
]


def test_no_vale_is_asked_when_the_other_card_is_the_dealers_trump_card() -> None:
    """003: 'El triunfo es la única carta no jugada que debe estar visible para todos'. The dealer (seat 3) holds
    the king of oros face up; seat 2 plays the knight of oros: its side cannot hold the pair, and nobody is asked
    (the example of the issue: seat 0 used to be asked, and could only pass)."""
    game, ref = both("chilean", alce_deck(TURNED_KING), deal="alce")
    assert game.turned == Card.parse("12O")
    play(game, ref, "1C 4C 11O")
    assert asked(game, ref) == []
    assert game.turn == ref.turn == 3 and game.phase == "play"  # type: ignore[attr-defined]


def test_the_vale_is_asked_while_the_other_card_is_hidden() -> None:
    """The same trick with the king of oros in seat 1's hand, unseen, and the 7 turned: seat 2's side might hold
    the pair as far as anybody sees, so seats 0 and 2, their cards down, are asked (003: 'su pareja lo marca sin
    importar si lo juega o no en aquella jugada')."""
    hands = [h.split() for h in TURNED_KING]
    hands[1][hands[1].index("3O")], hands[3][hands[3].index("12O")] = "12O", "3O"
    hands[3].remove("7O")
    hands[3].append("7O")  # the dealer's last card, the trump card
    game, ref = both("chilean", alce_deck([" ".join(h) for h in hands]), deal="alce")
    assert game.turned == Card.parse("7O")
    play(game, ref, "1C 4C 11O")
    assert asked(game, ref) == [0, 2]


def golpe_deck(hands: list[str]) -> list[str]:
    """The deck that deals ``hands`` (seat 0 first) ten in a row, seat 3 dealing: the last card of the deck is
    the trump card, the last of seats 0 and 2 (the dealer's opponents) are shown."""
    return [c for h in hands for c in h.split()]


GOLPE = [
    "1C 3C 5C 6C 1E 2E 3E 1B 2B 11C",
    "12C 4C 7C 4E 5E 6E 4B 5B 6B 3O",
    "2O 12O 11O 10O 7E 10E 11E 12E 7B 10B",
    "2C 10C 3B 11B 12B 4O 5O 6O 1O 7O",
]


def test_no_vale_is_asked_when_the_other_card_was_shown_in_a_golpe() -> None:
    """003, golpe: '10 seguidas para su contrincante de la derecha, las 9 primeras boca abajo y la última de
    muestra'. Seat 0's last card, the knight of copas, is shown; seat 1 plays the king of copas: nobody is asked."""
    game, ref = both("chilean", golpe_deck(GOLPE), deal="golpe")
    assert (0, Card.parse("11C")) in game.view(1).shown
    play(game, ref, "1C 12C")
    assert asked(game, ref) == []
    assert game.turn == ref.turn == 2


def test_the_dealers_partner_may_show_his_last_card_in_a_golpe() -> None:
    """003, golpe: '10 para su pareja con la opción, pero no obligación, de mostrar la última'. Hidden by
    default; under ``golpe_partner_shows`` (the table's agreement) seat 1's last card, the 3 of oros, is shown to
    all, as the opponents' last cards are."""
    hidden, _ref = both("chilean", golpe_deck(GOLPE), deal="golpe")
    shown, ref = both("chilean", golpe_deck(GOLPE), deal="golpe", golpe_partner_shows=True)
    card = (1, Card.parse("3O"))
    assert card not in hidden.view(0).shown and card not in hidden.view(2).known
    assert card in shown.view(0).shown and card in shown.view(2).known and card in shown.view(None).known
    assert (1, "3O") in ref.shown
    assert shown.legal_actions() == hidden.legal_actions()  # what is shown changes what is seen, not the play


def test_a_card_the_dealers_partner_shows_answers_the_vale_too() -> None:
    """Seat 1's shown last card is the knight of espadas: seat 2, an opponent, plays the king of espadas and
    nobody is asked; without the showing, seats 0 and 2 are."""
    hands = [h.split() for h in GOLPE]
    hands[1][-1], hands[2][hands[2].index("11E")] = "11E", "3O"
    deck = golpe_deck([" ".join(h) for h in hands])
    for shows, want in ((True, []), (False, [0, 2])):
        game, ref = both("chilean", deck, deal="golpe", golpe_partner_shows=shows)
        play(game, ref, "1E 4E 12E")
        assert asked(game, ref) == want, shows


#: Dealt pelada by seat 3 below the top card, the 3 of oros (the trump card, the dealer's): ten in a row to each.
PELADA = [
    "11B 7C 1O 3C 5C 6C 1E 2E 3E 1B",
    "12B 4C 10C 4E 5E 6E 4B 5B 6B 3B",
    "2O 12O 11O 10O 7E 10E 11E 12E 7B 10B",
    "2C 11C 12C 2B 4O 5O 6O 7O 1C",
]


def test_no_vale_is_asked_when_the_other_card_was_shown_in_a_pelada() -> None:
    """003, pelada: each opponent's first card is shown, and the next while they are trumps. Seat 0's first card,
    the knight of bastos, is shown (no trump: the showing stops there); the cutter leads a trump, seat 1, void,
    throws the king of bastos, and nobody is asked."""
    deck = ["3O", *(c for h in PELADA for c in h.split())]  # the top card, the dealer's trump card, then ten in a row
    game, ref = both("chilean", deck, deal="pelada")
    assert game.turned == Card.parse("3O") and (0, Card.parse("11B")) in game.view(1).shown
    play(game, ref, "1O 12B")  # the cutter leads a trump (pelada); seat 1, void, throws the king of bastos
    assert asked(game, ref) == []


# ------------------------------------------------------------------ 2. one pair scored once


def test_a_pair_is_never_scored_twice() -> None:
    """``pair_bonus`` scores a pair captured, ``declarations`` a pair declared: both on would score one pair
    twice (rematada's declarer reached 238 of the 230 points there are). The combination is refused in one line,
    also from a record, and the terminal says it without a traceback."""
    with pytest.raises(RulesError, match="twice") as err:
        find_variant("rematada").with_options(pair_bonus=True)
    assert "\n" not in str(err.value)
    with pytest.raises(RulesError, match="twice"):
        find_variant("chilean").with_options(pair_bonus=True)
    assert find_variant("rematada").with_options(pair_bonus=True, declarations="off").pair_bonus
    data = {"format": "brisca-record/1", "variant": "rematada", "rules": {"pair_bonus": True}, "players": 3,
            "dealer": 2, "deck": [str(c) for c in find_variant("rematada").deck_cards(3)], "actions": []}
    with pytest.raises(RecordError, match="twice"):
        loads(json.dumps(data))
    out = subprocess.run([sys.executable, "-m", "brisca", "rules", "rematada", "-r", "pair_bonus=true"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and out.stdout == ""
    assert len(out.stderr.splitlines()) == 1 and "twice" in out.stderr and "Traceback" not in out.stderr


# ------------------------------------------------------------------ 3. a hand as a complete game


def random_match(variant: str, players: int, seed: int, **overrides: object) -> Match:
    rng = random.Random(seed)
    match = Match(variant, players, seed=seed, options=overrides)
    while True:
        while not match.game.is_over():
            match.game.apply(rng.choice(match.game.legal_actions()))
        if match.is_over():
            return match
        match.next_hand()


@pytest.mark.parametrize(("players", "overrides", "hands"), [(2, {}, 1), (3, {}, 1), (4, {"teams": False}, 1),
                                                            (4, {}, 2)])
def test_a_briscola_hand_is_a_complete_game_each_for_himself(players: int, overrides: dict[str, Any],
                                                              hands: int) -> None:
    """002, two players: 'Each hand is usually played as a complete game, with the player capturing the most
    points in cards during the hand declared the winner. If each player captures exactly 60 points, the hand is a
    tie and a replacement hand should be played'; three: 'if two or more players are tied for the highest score
    at the end of a hand, a replacement hand should be played out amongst all three players'; four without
    partners alike; in partnerships 'the first to win two hands'. Ties replayed, the first hand won (two in
    partnerships) ends the match."""
    rules = find_variant("briscola").with_options(overrides)
    assert rules.hands_to_win(players) == hands
    for seed in range(12):
        match = random_match("briscola", players, seed, **overrides)
        results = match.results
        assert all(r.replay for r in results[:-1]) if hands == 1 else max(match.hands_won) == 2
        assert match.winner is not None and match.hands_won[match.winner] == hands
        record = json.loads(MatchRecord.from_match(match).dumps())
        want = replay_record(record, options_of("briscola", **overrides))
        assert want["match_winner"] == match.winner and want["hands_won"] == list(match.hands_won)


def test_the_briscola_page_says_which_count_plays_one_hand() -> None:
    lines = rules_lines(find_variant("briscola"), "en")
    assert "Match: the first side to win 2 hands; the deal passes to the next seat." in lines
    assert "Each for himself (2 or 3 players), a hand is the whole match." in lines
    assert find_variant("bixkla").target_hands_alone == 0  # 002's Bixkla plays 'a set number of hands'


# ------------------------------------------------------------------ 4. capote wins the match

#: Dealt alce by seat 3: seat 0 holds nine trumps (oros) and the ace of copas, the dealer one trump, the 4 of oros.
CAPOTE = [
    "1O 2O 12O 11O 10O 7O 6O 5O 3O 1C",
    "2C 3C 4C 5C 6C 7C 10C 11C 12C 1E",
    "2E 3E 4E 5E 6E 7E 10E 11E 12E 1B",
    "2B 3B 4B 5B 6B 7B 10B 11B 12B 4O",
]


def play_capote(match: Match) -> None:
    """Seat 0 leads its trumps high to low, then the ace of copas; the others play their first legal card."""
    game = match.game
    order = [Card.parse(c) for c in ["1O", "2O", "12O", "11O", "10O", "7O", "6O", "5O", "3O", "1C"]]
    while not game.is_over():
        legal = game.legal_actions()
        if game.phase == "mark":  # type: ignore[attr-defined]
            game.apply(PASS)
        elif game.turn == 0:
            game.apply(next(PLAYS[c.index] for c in order if PLAYS[c.index] in legal))
        else:
            game.apply(next(a for a in legal if isinstance(a, Play)))


@pytest.mark.parametrize(("capote", "over"), [("match", True), ("hand", False), ("off", False)])
def test_capote_wins_the_match(capote: str, over: bool) -> None:
    """000: 'In certain playstyles, capturing all tricks allows a player to win the game in a single deal rather
    than requiring multiple hands to reach the target'. Seat 0's side takes all ten tricks of a match to three
    hands: under ``capote: match`` the match is over, won by that side; under ``hand`` (003) the hand alone."""
    match = Match("chilean", 4, dealer=3, deck=alce_deck(CAPOTE),
                  options={"deal": "alce", "capote": capote, "target_hands": 3})
    play_capote(match)
    result = match.game.result()
    assert result is not None and {t.winner % 2 for t in match.game.tricks} == {0}
    assert result.reason == ("points" if capote == "off" else "capote")
    assert match.is_over() is over and match.winner == (0 if over else None)
    want = replay_record(json.loads(MatchRecord.from_match(match).dumps()),
                         options_of("chilean", deal="alce", capote=capote, target_hands=3))
    assert want["match_over"] is over and want["match_winner"] == match.winner
    if over:
        with pytest.raises(Exception, match="over"):
            match.next_hand()


def test_capote_reads_old_records() -> None:
    """Records written when capote was true or false read as ``hand`` and ``off``."""
    assert make_rules("spanish", {"capote": True}).capote == "hand"
    assert make_rules("chilean", {"capote": False}).capote == "off"
    assert find_variant("chilean").capote == "hand"
    with pytest.raises(RulesError, match="contract"):
        find_variant("rematada").with_options(capote="match")


# ------------------------------------------------------------------ 5. Mexico's eleven


def finished_hands(players: int, seeds: range, **overrides: object) -> list[Game]:
    out = []
    for seed in seeds:
        rng = random.Random(seed)
        game = Game("mexican", players, seed=seed, options=overrides)
        while not game.is_over():
            game.apply(rng.choice(game.legal_actions()))
        out.append(game)
    return out


def test_within_eleven_wins_over_eleven_loses() -> None:
    """000, Mexican Brisca: 'The objective is not to add more than 11 total points at the end of the game.' Under
    ``point_limit: 11`` every side within 11 wins the hand (116-4-0 among three: the 4 and the 0 both do), a side
    over 11 loses, and when every side is over 11 nobody wins and the hand does not count."""
    seen = {"one": 0, "several": 0, "none": 0}
    for players, overrides in ((3, {}), (4, {"teams": False}), (2, {})):
        for game in finished_hands(players, range(150), point_limit=11, **overrides):
            result = game.result()
            assert result is not None
            within = tuple(i for i, p in enumerate(result.side_points) if p <= 11)
            assert result.winners == within
            if len(within) == 1:
                assert result.winner == within[0] and result.reason == "within-limit"
                seen["one"] += 1
            elif within:
                assert result.winner is None and result.shared == within and result.reason == "within-limit"
                seen["several"] += 1
            else:
                assert result.winner is None and result.reason == "over-limit" and not result.replay
                seen["none"] += 1
    assert all(seen.values()), seen


def test_the_eleven_in_a_match_and_on_the_page() -> None:
    """Each side within 11 is credited one hand won; a hand nobody wins counts for nobody. The preset plays the
    fewest points and says why; the eleven is an option of it."""
    match = random_match("mexican", 3, 4, point_limit=11, target_hands=2)
    wins = [0, 0, 0]
    for r in match.results:
        for side in r.winners:
            wins[side] += 1
    assert list(match.hands_won) == wins
    mexican = find_variant("mexican")
    assert mexican.point_limit == 0 and mexican.hand_winner == "least"
    assert any("point_limit: 11" in r for r in mexican.readings)
    assert any("11" in line and "nobody wins" in line for line in rules_lines(mexican.with_options(point_limit=11)))
    with pytest.raises(RulesError, match="hand_winner: least"):
        find_variant("spanish").with_options(point_limit=11)


# ------------------------------------------------------------------ 6. options that say what they do


@pytest.mark.parametrize(("variant", "options", "needs"), [
    ("spanish", {"hands": 5}, "'match: fixed_hands'"),
    ("spanish", {"target_points": 200}, "'match: target_points'"),
    ("spanish", {"target_game_points": 5}, "'match: game_points'"),
    ("chiamata", {"target_hands": 3}, "'match: target_hands'"),
    ("chilean", {"target_hands_alone": 1}, "'match: target_hands' and a player count where each plays"),
    ("spanish", {"min_bid": 70}, "an auction ('bidding')"),
    ("spanish", {"max_bid": 100}, "'bidding: points'"),
    ("spanish", {"auction_direction": "against_play"}, "an auction ('bidding')"),
    ("spanish", {"cut_ways": ["golpe", "pelada"]}, "'deal: cutter_chooses'"),
    ("chilean", {"deal": "alce", "golpe_partner_shows": True}, "'deal: golpe'"),
    ("spanish", {"partners": "draw", "dealer_draw": "face_value"}, "'partners: fixed'"),
    ("briscola", {"exchange_chain": False}, "a trump exchange"),
    ("spanish", {"signal_set": "italian"}, "'signals'"),
    ("spanish", {"follow_from": "empty_stock"}, "a duty of play"),
    ("mexican", {"point_limit": 11, "tie": "replay"}, "'contract: off' and 'point_limit: 0'"),
])
def test_an_option_with_no_effect_is_refused(variant: str, options: dict[str, Any], needs: str) -> None:
    """An option the others leave without effect is refused, in one line naming the option that would make it
    count, never silently kept."""
    name = next(n for n in options if n not in ("deal", "partners", "point_limit"))
    with pytest.raises(RulesError) as err:
        find_variant(variant).with_options(options)
    assert str(err.value).startswith(f"option {name!r} has no effect here: it counts only with {needs}")
    assert "\n" not in str(err.value)


def test_options_that_count_are_kept() -> None:
    spanish = find_variant("spanish")
    assert spanish.with_options(match="fixed_hands", hands=5).hands == 5
    assert spanish.with_options({"hands": 5, "match": "fixed_hands"}).hands == 5  # order does not matter
    assert spanish.with_options(spanish.options()) == spanish  # the preset's own values given back change nothing
    assert find_variant("chilean").with_options(cut_ways=["alce", "pelada"]).cut_ways == ("alce", "pelada")
    assert find_variant("chilean").with_options(golpe_partner_shows=True).golpe_partner_shows
    out = subprocess.run([sys.executable, "-m", "brisca", "rules", "spanish", "-r", "hands=5"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and out.stderr.strip().endswith("it counts only with 'match: fixed_hands'")
    assert len(out.stderr.splitlines()) == 1


def test_any_time_and_out_of_turn_say_different_things() -> None:
    """000's 'at any time, even while playing a trick, provided that the player in question has won at least one
    trick' is ``out_of_turn``; ``any_time`` drops the trick won, which no source has, and says so."""
    spanish = find_variant("spanish")
    for lang in ("en", "es", "it"):
        any_time = set(rules_lines(spanish.with_options(trump_exchange="any_time"), lang))
        out_of_turn = set(rules_lines(spanish.with_options(trump_exchange="out_of_turn"), lang))
        assert len(any_time - out_of_turn) == 1 and len(out_of_turn - any_time) == 1
    english = rules_lines(spanish.with_options(trump_exchange="any_time"), "en")
    assert any("even before you have won one" in s for s in english)
    from brisca.rules import OPTIONS

    assert "a reading no source gives" in OPTIONS["trump_exchange"].help
    assert any("No source has it" in r for r in spanish.readings)


def test_brisca_variants_keeps_its_columns() -> None:
    """``brisca variants``: the titles and the player counts start at the same column on every line, also after
    the longest preset names (``lombard-kept-ranks``, ``tuscan-kept-ranks``)."""
    def columns(lines: list[str]) -> set[tuple[int, ...]]:
        """Where each column after the first starts (columns are two spaces apart or more, words one)."""
        return {tuple(m.start(1) for m in re.finditer(r"\s{2,}(\S)", line)) for line in lines}

    for lang in ("en", "es", "it"):
        lines = preset_table(lang)
        assert len(lines) == len(variant_names()) and len(columns(lines)) == 1, lines
    out = subprocess.run([sys.executable, "-m", "brisca", "variants", "--lang", "en"], capture_output=True,
                         text=True, timeout=60)
    lines = out.stdout.splitlines()
    assert any(line.startswith("tuscan-kept-ranks  ") for line in lines)
    assert len(columns(lines)) == 1, lines


# ------------------------------------------------------------------ 7. records say everything


def test_the_records_table_lists_every_action() -> None:
    """docs/rules.md lists every action a record can hold, and the match record's draws."""
    index = docs_index()
    table = index[index.index("## Record actions"):index.index("## Options")]
    for form in ('"cut": "golpe"', '"pass": true', '"announce": "7B"', '"aloud": true', "out_of_turn",
                 "asked about a vale", '"dealer_draw"', '"draw"', '"seating"'):
        assert form in table, form
    assert (ROOT / "docs" / "rules.md").read_text(encoding="utf-8") == index


def test_the_draw_for_the_first_dealer_is_kept_and_checked() -> None:
    """003: 'Quien obtenga el número mayor (de 1 a 10, el rey vale 10, el caballo 9 y la sota 8) las reparte. De
    haber empate, la pareja que sume más números gana.' The draw is kept in the match record; a replay checks that
    it is a draw the rules allow and that its highest card deals the first hand."""
    rules = find_variant("chilean")
    draw = DealerDraw.from_rounds(rules, 4, [tuple(zip(range(4), map(Card.parse, ["7C", "4C", "12E", "7B"]),
                                                           strict=True))])
    assert draw.dealer == 2  # the rey counts 10
    level = [tuple(zip(range(4), map(Card.parse, ["7C", "4C", "4E", "7B"]), strict=True))]  # 7+4 against 4+7
    with pytest.raises(RulesError, match="level"):
        DealerDraw.from_rounds(rules, 4, level)
    drawn = DealerDraw.from_rounds(rules, 4, [*level, ((0, Card.parse("12B")), (3, Card.parse("4C")))])
    assert drawn.dealer == 0
    match = Match("chilean", 4, seed=3, dealer_draw=drawn)
    assert match.game.dealer == 0
    data = json.loads(MatchRecord.from_match(match).dumps())
    assert data["dealer_draw"] == [{"seats": [0, 1, 2, 3], "cards": ["7C", "4C", "4E", "7B"]},
                                   {"seats": [0, 3], "cards": ["12B", "4C"]}]
    loaded = loads(json.dumps(data))
    assert isinstance(loaded, MatchRecord) and loaded.dealer_draw == drawn
    assert loaded.replay()[0].dealer == 0
    wrong = json.loads(json.dumps(data))
    wrong["dealer_draw"][1]["cards"] = ["4B", "12C"]  # seat 3 now draws higher: it deals, not seat 0
    with pytest.raises(RecordError, match="the draw for the dealer makes seat 3 the first dealer, not seat 0"):
        loads(json.dumps(wrong)).replay()  # type: ignore[union-attr]
    bad = json.loads(json.dumps(data))
    bad["dealer_draw"] = bad["dealer_draw"][:1]
    with pytest.raises(RecordError, match="level and must draw again"):
        loads(json.dumps(bad))
    with pytest.raises(RulesError, match="seat 1"):
        Match("chilean", 4, dealer=1, dealer_draw=drawn)


def test_a_terminal_match_records_its_draw_for_the_dealer(tmp_path: Path) -> None:
    """``brisca play --save``: the draw the terminal shows is the one the record keeps, and it replays."""
    saved = tmp_path / "match.json"
    out = subprocess.run([sys.executable, "-m", "brisca", "play", "--ai", "random", "--seed", "3", "--lang", "en",
                          "--save", str(saved)], capture_output=True, text=True, timeout=120, input="quit\n")
    assert out.returncode == 0 and saved.exists(), out.stderr
    data = json.loads(saved.read_text(encoding="utf-8"))
    assert "dealer_draw" in data
    dealer = data["hands"][0]["dealer"]
    assert DealerDraw.from_rounds(find_variant("spanish"), data["players"], [
        tuple(zip(r["seats"], map(Card.parse, r["cards"]), strict=True)) for r in data["dealer_draw"]]).dealer == dealer
    replayed = subprocess.run([sys.executable, "-m", "brisca", "replay", str(saved)], capture_output=True,
                              text=True, timeout=120)
    assert replayed.returncode == 0, replayed.stderr


# ------------------------------------------------------------------ 8. 002's auction against the play


def test_the_auction_can_run_against_the_play() -> None:
    """002, Briscola Chiamata: 'a bidding round begins, starting with the player to the dealer's immediate right
    and continuing in a counter-clockwise direction around the table', while play starts 'at the dealer's
    immediate left' and goes clockwise. Under ``auction_direction: against_play`` seat 4 deals, seat 3 bids
    first, then 2, 1, 0 and the dealer; the bidder still leads."""
    deck = [str(c) for c in find_variant("chiamata").deck_cards(5)]
    game = Game("chiamata", 5, dealer=4, deck=deck, options={"auction_direction": "against_play"})
    ref = Hand(options_of("chiamata", auction_direction="against_play"), 5, 4, deck)
    turns = []
    script: list[Action] = [Bid(61), PASS, Bid(65), PASS, PASS, PASS]
    for action in script:
        turns.append(game.turn)
        assert ref.turn == game.turn
        ref.act(game.turn, action.to_json())  # type: ignore[arg-type]
        game.apply(action)
    assert turns == [3, 2, 1, 0, 4, 3]
    assert game.phase == ref.phase == "call" and game.turn == ref.turn == 1  # type: ignore[attr-defined]
    with_play = Game("chiamata", 5, dealer=4, deck=deck)
    assert with_play.turn == 0
    assert isinstance(script[1], Pass)
    assert any("against_play" in r for r in find_variant("chiamata").readings)
    lines = rules_lines(find_variant("chiamata").with_options(auction_direction="against_play"), "it")
    assert any("al contrario" in line for line in lines)


# ------------------------------------------------------------------ the bots play every reading


@pytest.mark.parametrize(("variant", "players", "overrides"), [
    ("chilean", 4, {"golpe_partner_shows": True, "capote": "match"}),
    ("chilean", 4, {"deal": "pelada"}),
    ("mexican", 3, {"point_limit": 11}),
    ("briscola", 3, {}),
    ("chiamata", 5, {"auction_direction": "against_play"}),
    ("rematada", 3, {"auction_direction": "against_play"}),
])
def test_the_built_in_players_play_the_readings(variant: str, players: int, overrides: dict[str, Any]) -> None:
    """The heuristic and the expert (sampling worlds from the views) play whole hands under each reading, every
    action legal."""
    from brisca.agents import ExpertAgent, HeuristicAgent

    agents = [HeuristicAgent(), ExpertAgent(seed=1, sims=2)]
    for seed in range(2):
        game = Game(variant, players, seed=seed, options=overrides)
        while not game.is_over():
            seat = game.turn
            assert seat is not None
            action = agents[seat % 2].act(game.view(seat))
            assert action in game.legal_actions()
            game.apply(action)
        assert game.result() is not None
