"""``brisca play --variant NAME``: every preset in the terminal, with the draw for the dealer and the cut,
signals, arrastro, claims, known cards and the ends of hands each preset has.

End to end through a real process like ``test_cli_play.py`` (its helpers are reused: no traceback and
no escape code anywhere); the searches for a deal that shows something run in process, on the library.
"""

from __future__ import annotations

import io
import itertools
import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from brisca.actions import SIGNALS, Arrastro, Claim, Play, Signal
from brisca.agents import make_agent
from brisca.cards import Card, Rank
from brisca.cli.play import Outcome, Table, TerminalGame, agent_seed, signal_key, table_rng
from brisca.game import Match, View, cut, draw_for_dealer, shuffled
from brisca.i18n import Messages
from brisca.record import load as load_record_file
from brisca.rulebook import SIGNAL_NAMES
from brisca.rules import Rules, make_rules
from test_cli_play import brisca, replay

#: Moves for any prompt: an empty line takes a random cut (and shows the table again at a move),
#: then the first card the duties allow among the first three.
MOVES = "\n1\n2\n3\n" * 400


def play(*args: str, stdin: str = MOVES) -> str:
    """``brisca play ARGS`` that must exit 0; its transcript."""
    proc = brisca("play", *args, stdin=stdin)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    return proc.stdout


def load_record(path: Path) -> Any:
    with path.open(encoding="utf-8") as fp:
        return load_record_file(fp)


def record_of(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def seat_of(label: str) -> int:
    """The seat an English label names: "You" is seat 0 here, "Seat 2 (easy, partner)" is 2."""
    if label == "You":
        return 0
    found = re.match(r"Seat (\d+)", label)
    assert found, label
    return int(found.group(1))


# ---------------------------------------------------------------- every preset, a whole match

PRESETS = [
    ("spanish", 2, (), "en"),
    ("spanish", 3, (), "es"),
    ("spanish", 6, (), "en"),
    ("briscola", 2, (), "en"),
    ("briscola", 3, (), "it"),
    ("briscola", 4, (), "en"),
    ("briscola", 4, ("teams=false",), "en"),
    ("bixkla", 4, (), "en"),
    ("lombard", 2, (), "es"),
    ("tuscan", 3, (), "en"),
    ("mexican", 2, (), "en"),
    ("mexican", 4, (), "it"),
    ("muerte-al-tres", 4, (), "en"),
    ("mariaje", 2, ("match=target_points", "target_points=60"), "en"),
    ("scoperta", 2, (), "en"),
    ("scoperta", 4, (), "en"),
]
#: A card as the screen shows it: the deck's notation, then the card's name in the language of the screen.
NOTATION_RE = {"spanish": r"\b(?:[1-9]|1[0-2])[OCEB]", "italian": r"\b[A2-9FCR][DCSB]"}
NAME_RE = {
    "en": r"\w+ of (?:coins|cups|swords|clubs)\b",
    "es": r"\w+ de (?:oros|copas|espadas|bastos)\b",
    "it": r"\w+ di (?:denari|coppe|spade|bastoni)\b",
}
OVER = {"en": "Match over", "es": "Fin de la partida", "it": "Partita finita"}


@pytest.mark.parametrize(("variant", "players", "rules", "lang"), PRESETS)
def test_every_preset_plays_a_whole_match(
    variant: str, players: int, rules: tuple[str, ...], lang: str, tmp_path: Path
) -> None:
    record = tmp_path / "match.json"
    extra = [a for r in rules for a in ("-r", r)]
    length = {"target_hands": "target_hands=1", "fixed_hands": "hands=1"}.get(make_rules(variant).match)
    if length:
        extra += ["-r", length]
    out = play("--variant", variant, "-p", str(players), *extra, "--ai", "random", "--seed", "3",
               "--lang", lang, "--save", str(record))
    assert OVER[lang] in out
    summary = replay(record)
    assert summary["match_over"] is True
    assert summary["players"] == players and summary["variant"] == variant
    preset = make_rules(variant, dict(r.split("=") for r in rules))
    # The notation is the deck's (Italian for the briscola family), the names the screen's language.
    shown = re.findall(rf"({NOTATION_RE['spanish']}|{NOTATION_RE['italian']}) ((?:\w+ )+?(?:of|de|di) \w+)", out)
    assert shown
    for notation, name in shown:
        assert re.fullmatch(NOTATION_RE[preset.card_names], notation), (notation, name)
        assert re.fullmatch(NAME_RE[lang], name), (notation, name)
        assert Card.parse(notation) is Card.parse(name)
    if lang != "en":
        return
    assert "Drawing for the deal (whoever draws the highest card deals):" in out
    assert re.search(r"^Hand 1\. Dealer: .*\. Trump: ", out, re.MULTILINE)
    if variant == "mexican":
        assert "In this game the side with the fewest points wins the hand." in out
    if variant == "scoperta":  # open hands: every other hand is on the table screen
        for seat in range(1, players):
            assert re.search(rf"^(Known cards)? +Seat {seat} \(easy[^)]*\): [A2-7FCR][DCSB] ", out, re.MULTILINE)
    if variant == "mariaje":
        assert "Match points" in out
        assert summary["match_points"][summary["match_winner"]] >= 60


def test_the_rules_of_the_preset_are_in_the_help() -> None:
    out = play("--variant", "mexican", "--no-cut", "--lang", "en", stdin="?\nq\n")
    assert "the side with the fewest points wins the hand" in out
    out = play("--variant", "muerte-al-tres", "--no-cut", "--lang", "es", stdin="?\nq\n")
    assert "Muerte al tres: el as de triunfo no se puede jugar antes que el tres de triunfo" in out
    out = play("-p", "4", "-r", "signals=open", "-r", "arrastro=true", "-r", "claim=true", "--no-cut",
               "--lang", "it", stdin="?\nq\n")
    assert "Segnali, visti da tutti" in out and "s1 asso di briscola, " in out and "(trump-ace)" not in out
    assert "Arrastro: uscendo con l'asso di briscola" in out
    assert "Rivendicare (r)" in out


def test_bonuses_are_listed_at_the_end_of_a_hand() -> None:
    out = play("-r", "last_trick_bonus=10", "-r", "target_hands=1", "--ai", "random", "--seed", "2",
               "--lang", "en")
    assert re.search(r"^(You|Seat 1 \(easy\)): bonus for last trick, 10 points\.$", out, re.MULTILINE)


# ---------------------------------------------------------------- the draw for the dealer and the cut


def _dealer_and_rounds(seed: int, players: int) -> tuple[int, list[list[Card]]]:
    return draw_for_dealer(make_rules("spanish"), players, table_rng(seed))


def test_the_draw_for_the_dealer_is_shown_and_the_highest_card_deals(tmp_path: Path) -> None:
    tie = next(s for s in range(500) if len(_dealer_and_rounds(s, 4)[1]) > 1)  # a draw with a tie
    record = tmp_path / "match.json"
    out = play("-p", "4", "--seed", str(tie), "--ai", "random", "--lang", "en", "-r", "target_hands=1",
               "--save", str(record))
    block = out.split("Drawing for the deal (whoever draws the highest card deals):\n", 1)[1]
    block, dealer_line = block.split("Whoever draws the highest card deals: ", 1)
    assert "tie for the highest card and draw again:" in block
    rounds = re.split(r"^.* tie for the highest card and draw again:\n", block, flags=re.MULTILINE)
    strength = make_rules("spanish").strength_table
    last = re.findall(r"^  (.+): (\d+[OCEB]) ", rounds[-1], re.MULTILINE)
    assert len(rounds[0].strip().splitlines()) == 4  # every seat draws in the first round
    best = max(last, key=lambda row: strength[Card.parse(row[1]).index])
    dealer = seat_of(dealer_line.split(".\n", 1)[0])
    assert seat_of(best[0]) == dealer
    assert all(strength[Card.parse(c).index] < strength[Card.parse(best[1]).index] for s, c in last if s != best[0])
    assert record_of(record)["hands"][0]["dealer"] == dealer == _dealer_and_rounds(tie, 4)[0]
    cutter = (dealer - 1) % 4  # the player to the dealer's left cuts
    if cutter:
        assert re.search(rf"^Seat {cutter} \(easy[^)]*\) cuts the deck at \d+ cards\.$", out, re.MULTILINE)
    else:
        assert "You cut the deck: how many cards (4-36)?" in out


def test_a_human_cut_puts_the_cut_card_on_top_and_wrong_cuts_are_refused(tmp_path: Path) -> None:
    seed, players = 1, 2
    dealer, _rounds = _dealer_and_rounds(seed, players)
    seat = (dealer - 1) % players  # sit where the cut falls to us
    record = tmp_path / "cut.json"
    out = play("--seed", str(seed), "--seat", str(seat), "--lang", "en", "-r", "target_hands=1",
               "--save", str(record), stdin="2\nzz\n37\n10\n" + MOVES)
    for wrong in ("2", "zz", "37"):
        assert f'Cut between 4 and 36 cards (Enter: a random cut), not "{wrong}".' in out
    assert "You cut the deck at 10 cards." in out
    shuffled_deck = shuffled(make_rules("spanish").deck_cards(players), seed)
    expected = cut(shuffled_deck, 10)
    first = record_of(record)["hands"][0]
    assert first["deck"] == [str(c) for c in expected]
    assert first["deck"][0] == str(shuffled_deck[10])  # the 11th card is on top
    assert first["dealer"] == dealer


def test_computers_cut_every_hand_and_the_record_keeps_the_cut_decks(tmp_path: Path) -> None:
    record = tmp_path / "match.json"
    out = play("-p", "3", "--seed", "8", "--ai", "random", "--lang", "en", "--save", str(record))
    hands = record_of(record)["hands"]
    cuts = re.findall(r"^(?:Seat (\d) \(easy\) cuts|You cut) the deck at (\d+) cards\.$", out, re.MULTILINE)
    assert len(cuts) == len(hands) > 1
    for hand, (seat, _at) in zip(hands, cuts, strict=True):
        assert int(seat or 0) == (hand["dealer"] - 1) % 3
    assert replay(record)["match_over"] is True


def test_the_same_seed_and_input_give_the_same_cut_game() -> None:
    args = ("-p", "4", "--seed", "21", "--ai", "random", "--lang", "en", "-r", "signals=partner")
    assert play(*args) == play(*args)


def test_leaving_at_the_cut_prompt(tmp_path: Path) -> None:
    seed = 1
    dealer, _rounds = _dealer_and_rounds(seed, 2)
    record = tmp_path / "never.json"
    args = ("--seed", str(seed), "--seat", str((dealer - 1) % 2), "--lang", "en", "--save", str(record))
    out = play(*args, stdin="q\n")
    assert "You leave the match." in out
    assert not record.exists()  # nothing was dealt, nothing to keep
    out = play(*args, stdin="")
    assert "End of input: the match is left unfinished." in out


def _table_session(variant: str, players: int, seed: int, options: dict[str, object]) -> tuple[Outcome, str, Match]:
    """A whole match in process, dealt as at a table (draw and cuts), against random players."""
    rules = make_rules(variant, options)
    buf = io.StringIO()
    console = Console(file=buf, no_color=True, highlight=False, markup=False, emoji=False, soft_wrap=True)
    feed = itertools.cycle(["", "1", "2", "3"])
    agents = {s: make_agent("random", seed=agent_seed(seed, s)) for s in range(1, players)}
    game = TerminalGame(Table(rules, players, seed), 0, agents, Messages("en"), console, ai_name="easy",
                        read_line=lambda: next(feed), echo=True)
    return game.run(), buf.getvalue(), game.match


def test_a_tie_replayed_by_the_same_dealer() -> None:
    for seed in range(200):
        outcome, out, match = _table_session("briscola", 2, seed, {"target_hands": 1})
        assert outcome is Outcome.FINISHED
        if "The hand is tied: the same dealer deals it again." in out:
            break
    else:
        pytest.fail("no tied hand")
    tied = next(i for i, g in enumerate(match.games) if (r := g.result()) is not None and r.replay)
    assert match.games[tied + 1].dealer == match.games[tied].dealer
    assert match.games[tied + 1].deal_number == match.games[tied].deal_number


# ---------------------------------------------------------------- signals


def test_partner_signals_are_shown_and_opponents_signals_are_not(tmp_path: Path) -> None:
    for seed in range(1, 30):
        record = tmp_path / f"signals{seed}.json"
        out = play("-p", "4", "-r", "signals=partner", "-r", "target_hands=1", "--ai", "random",
                   "--seed", str(seed), "--lang", "en", "--no-cut", "--save", str(record))
        made = [a for h in record_of(record)["hands"] for a in h["actions"] if "signal" in a]
        if {a["seat"] for a in made} >= {1, 2, 3}:
            break
    else:
        pytest.fail("no match where every computer signals")
    for action in made:
        name = SIGNAL_NAMES[action["signal"]]["en"]
        if action["seat"] == 2:
            assert f"Seat 2 (easy, partner) signals: {name}." in out
    assert not re.search(r"^Seat [13] \(easy\) signals", out, re.MULTILINE)
    assert re.search(r"^Partner signals +Seat 2 \(easy, partner\): ", out, re.MULTILINE)
    names = "|".join(re.escape(n["en"]) for n in SIGNAL_NAMES.values())
    assert not re.search(rf"Seat [13] \(easy\): ({names})", out)


def test_open_signals_are_shown_to_everybody() -> None:
    out = play("-p", "4", "-r", "signals=open", "-r", "target_hands=1", "--ai", "random", "--seed", "1",
               "--lang", "en", "--no-cut")
    assert re.search(r"^Seat [13] \(easy\) signals: ", out, re.MULTILINE)
    assert re.search(r"^Signals +Seat \d", out, re.MULTILINE)


def test_greedy_players_do_not_signal(tmp_path: Path) -> None:
    record = tmp_path / "greedy.json"
    play("-p", "4", "-r", "signals=partner", "-r", "target_hands=1", "--seed", "4", "--lang", "en", "--no-cut",
         "--save", str(record))
    assert not [a for h in record_of(record)["hands"] for a in h["actions"] if "signal" in a and a["seat"]]


def test_the_person_signals_by_key_by_name_and_in_any_language(tmp_path: Path) -> None:
    seed = 2
    view = Match("spanish", 4, seed=seed, options={"signals": "partner", "signal_asks": True}).game.view(0)
    offered = [a.name for a in view.legal_actions if isinstance(a, Signal)]
    untrue = next(n for n in SIGNALS if n not in offered)
    first = offered[0]
    record = tmp_path / "mine.json"
    stdin = (f"{signal_key(first)}\n{signal_key(first)}\nsignal {untrue}\ns11\nseña nada\nsignal\n"
             "signal ask-cards\npide puntos\n") + MOVES
    out = play("-p", "4", "-r", "signals=partner", "-r", "signal_asks=true", "--ai", "random", "--seed", str(seed),
               "--lang", "en", "--no-cut", "--save", str(record), stdin=stdin)
    assert f"  [{signal_key(first)}] signal: {SIGNAL_NAMES[first]['en']}" in out
    assert f"You signal: {SIGNAL_NAMES[first]['en']}." in out
    assert f"You have already signalled {SIGNAL_NAMES[first]['en']} this turn." in out
    assert f"You may not signal {SIGNAL_NAMES[untrue]['en']}: signals must be true." in out
    assert "There is no signal s11: signals go from s1 to s10." in out
    assert 'There is no signal "nada". Type signal to see the ones you may make now.' in out
    # "signal" alone lists the signals that may be made now, with the keys the table and the help use
    menu = out.split("Type signal to see the ones you may make now.", 1)[1].split("Signals you may make now:", 1)[1]
    listed = re.findall(r"^  \[(s\d+)\] signal: (.+)$", menu, re.MULTILINE)
    now = Match("spanish", 4, seed=seed, options={"signals": "partner"}).game
    now.apply(Signal(first))
    still = [a.name for a in now.view(0).legal_actions if isinstance(a, Signal)]
    assert listed[: len(still)] == [(signal_key(n), SIGNAL_NAMES[n]["en"]) for n in still]
    mine = [a for a in record_of(record)["hands"][0]["actions"] if a["seat"] == 0]
    expected = [first, "ask-cards", "ask-points"] if first != "ask-cards" else [first, "ask-points"]
    assert [a.get("signal") for a in mine[: len(expected)]] == expected
    assert "play" in mine[len(expected)]
    assert re.search(r"^Partner signals +You: ", out, re.MULTILINE)


def test_nobody_asks_for_signals_under_the_club_rule() -> None:
    """004: 'No se deben hacer señas falsas, ni tampoco pedirlas': the Spanish preset offers no ask, and says why."""
    out = play("-p", "4", "-r", "signals=partner", "--ai", "random", "--seed", "2", "--lang", "en", "--no-cut",
               stdin="signal ask-cards\npide puntos\n?\nq\n")
    assert out.count("Nobody may ask for signals in these rules") == 2
    assert "Nobody asks for signals." in out  # the help says so
    assert "(ask-cards)" not in out.split("Keys", 1)[1]  # and lists no ask among the signals


def test_italian_signals_and_saying_them_aloud() -> None:
    """002's own table under briscola, and 'combination': a signal said aloud ('say s6') for everybody."""
    seed = next(s for s in range(50) if any(
        isinstance(a, Signal) and a.name == "high-card"
        for a in Match("briscola", 4, seed=s, options={"signals": "combination"}).game.view(0).legal_actions))
    out = play("--variant", "briscola", "-p", "4", "-r", "signals=combination", "--ai", "random", "--seed", str(seed),
               "--lang", "en", "--no-cut", stdin="?\nsay s6\ns6\nsignal briscas\nq\n")
    assert "s6 high card in another suit (high-card)" in out  # the help lists 002's table, s1 to s6
    assert "s7" not in out.split("Keys", 1)[1].split("Your move", 1)[0]
    assert "You signal: high card in another suit." in out
    assert "You have already signalled high card in another suit this turn." in out
    assert "is not one of the signals of these rules" in out


def test_signals_are_refused_where_they_are_not_played() -> None:
    out = play("--no-cut", "--seed", "1", "--lang", "en", stdin="s1\nsignal briscas\nq\n")
    assert out.count("Signals are not played in these rules.") == 2


# ---------------------------------------------------------------- arrastro


def _seed_where_the_person_leads_the_ace_of_trumps() -> int:
    for seed in range(300):
        view = Match("spanish", 2, seed=seed, options={"arrastro": True}).game.view(0)
        if any(isinstance(a, Arrastro) for a in view.legal_actions):
            return seed
    raise AssertionError("no such seed")


def test_arrastro_is_offered_and_called(tmp_path: Path) -> None:
    seed = _seed_where_the_person_leads_the_ace_of_trumps()
    ace = next(a.card for a in Match("spanish", 2, seed=seed, options={"arrastro": True}).game.view(0).legal_actions
               if isinstance(a, Arrastro))
    record = tmp_path / "arrastro.json"
    out = play("-r", "arrastro=true", "--seed", str(seed), "--lang", "en", "--no-cut", "--save", str(record),
               stdin="a\n" + MOVES)
    assert f"  [a] lead {ace} {ace.name('en')} (trump) calling arrastro" in out
    assert ", a arrastro," in out
    assert f"You lead {ace} {ace.name('en')} (trump) calling arrastro: the others must play their best card." in out
    assert record_of(record)["hands"][0]["actions"][0] == {"seat": 0, "play": str(ace), "arrastro": True}
    # By notation, too.
    out = play("-r", "arrastro=true", "--seed", str(seed), "--lang", "en", "--no-cut", stdin=f"{ace}!\nq\n")
    assert "calling arrastro: the others" in out


def _seed_where_a_computer_calls_arrastro() -> tuple[int, Card]:
    """A seed where the computer at seat 0 leads the first trick calling arrastro, and the person at
    seat 1 then holds a card the arrastro forbids."""
    for seed in range(500):
        game = Match("spanish", 2, seed=seed, options={"arrastro": True}).game
        action = make_agent("random", seed=agent_seed(seed, 0)).act(game.view(0))
        if isinstance(action, Arrastro):
            game.apply(action)
            view = game.view(1)
            plays = {a.card for a in view.legal_actions if isinstance(a, Play)}
            barred = [c for c in view.hand if c not in plays]
            if barred:
                return seed, barred[0]
    raise AssertionError("no such seed")


def test_a_trick_under_arrastro_is_shown_and_its_duty_explained() -> None:
    seed, barred = _seed_where_a_computer_calls_arrastro()
    out = play("-r", "arrastro=true", "--seed", str(seed), "--seat", "1", "--ai", "random", "--lang", "en",
               "--no-cut", stdin=f"{barred}\n" + MOVES)
    assert re.search(r"^Seat 0 \(easy\) leads 1[OCEB] .* calling arrastro", out, re.MULTILINE)
    assert re.search(r"^Arrastro +called: each player must play their best card", out, re.MULTILINE)
    assert re.search(r"^Arrastro has been called: you must play your best card \(\S+\)\.$", out, re.MULTILINE)


def test_arrastro_is_refused_where_it_is_not_played() -> None:
    out = play("--no-cut", "--seed", "1", "--lang", "en", stdin="a\nq\n")
    assert "Arrastro is not played in these rules." in out


# ---------------------------------------------------------------- claims, muerte al tres


def _session(variant: str, seed: int, options: dict[str, object], lines: list[str]) -> tuple[str, Match]:
    match = Match(variant, 2, seed=seed, options=options)
    buf = io.StringIO()
    console = Console(file=buf, no_color=True, highlight=False, markup=False, emoji=False, soft_wrap=True)
    feed = itertools.cycle(lines)
    game = TerminalGame(match, 0, {1: make_agent("random", seed=seed)}, Messages("en"), console,
                        ai_name="easy", read_line=lambda: next(feed), echo=True)
    assert game.run() is Outcome.FINISHED
    return buf.getvalue(), match


def test_a_claim_is_offered_made_and_told() -> None:
    for seed in range(100):
        out, match = _session("spanish", seed, {"claim": True}, ["r", "1", "2", "3"])
        if "You claim the rest of the hand." in out:
            break
    else:
        pytest.fail("no deal let the person claim")
    assert "  [r] claim the rest of the hand: you hold the best trumps" in out and "your side" not in out
    assert ", r claim," in out
    assert "A claim is made when leading, once the stock is gone." in out  # "r" tried too early
    claimed = next(g for g in match.games if g.claim is not None and g.claim[0] == 0)
    _seat, cards, points = claimed.claim  # type: ignore[misc]
    shown = re.search(r"^Claimed by You: (.*) \((\d+) points\)\.$", out, re.MULTILINE)
    assert shown
    assert sorted(re.findall(r"\d+[OCEB]", shown.group(1))) == sorted(str(c) for c in cards)
    assert int(shown.group(2)) == points
    assert isinstance(claimed.history[-1][1], Claim)


def test_a_sides_claim_is_told_and_nobody_is_offered_one() -> None:
    """``claim_by: side``: "r" says why nobody claims, and the claim made for a side is told like one made."""
    for seed in range(100):
        out, match = _session("spanish", seed, {"claim": True, "claim_by": "side"}, ["r", "1", "2", "3"])
        claimed = [g for g in match.games if g.claim is not None]
        if claimed:
            break
    else:
        pytest.fail("no hand ended on a side's claim")
    assert "Nobody claims in these rules: a side's claim is made for it" in out
    assert ", r claim," not in out and "[r] claim" not in out
    assert re.search(r"^(You claim the rest of the hand\.|Seat 1 \(easy\) claims the rest of the hand)", out,
                     re.MULTILINE)
    assert re.search(r"^Claimed by (You|Seat 1 \(easy\)): ", out, re.MULTILINE)
    assert not any(isinstance(a, Claim) for g in claimed for _s, a in g.history)


def test_muerte_al_tres_ends_the_hand_when_the_three_is_killed() -> None:
    for seed in range(200):
        out, match = _session("muerte-al-tres", seed, {}, ["1", "2", "3"])
        killed = [g for g in match.games if (r := g.result()) is not None and r.reason == "three-killed"]
        if killed:
            break
    else:
        pytest.fail("no hand where the ace killed the three")
    assert re.search(r"^Muerte al tres \((You|Seat 1 \(easy\))\): 1[OCEB] ace of \w+ takes 3[OCEB] three of \w+,"
                     r" and the hand ends at once\.$", out, re.MULTILINE)


# ---------------------------------------------------------------- only the view


def test_the_screen_is_built_from_the_view_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Signals, known cards, claims and the cut are all told from the person's view: no hand, no stock,
    no claim is read from the engine."""
    from brisca.game import Game

    def forbidden(self: Game, *args: object) -> object:
        raise AssertionError("the terminal read engine-level state")

    monkeypatch.setattr(Game, "stock", forbidden)
    monkeypatch.setattr(Game, "claim", property(forbidden))
    real_hand = Game.hand

    def hand(self: Game, seat: int) -> tuple[Card, ...]:
        caller = sys._getframe(1).f_code
        assert Path(caller.co_filename).parent.name == "game", f"{caller.co_name} read a hand directly"
        return real_hand(self, seat)

    monkeypatch.setattr(Game, "hand", hand)
    cases: list[tuple[str, int, dict[str, object]]] = [
        ("scoperta", 4, {"target_hands": 1}),
        ("spanish", 4, {"signals": "partner", "claim": True, "arrastro": True, "deal_look": True,
                        "target_hands": 1}),
        ("muerte-al-tres", 2, {"claim": True, "target_hands": 1}),
    ]
    for variant, players, options in cases:
        outcome, out, _match = _table_session(variant, players, 5, options)
        assert outcome is Outcome.FINISHED
        assert "Match over." in out


# ---------------------------------------------------------------- notations, names, and the screen's polish


def _briscola_hand(seed: int) -> tuple[Card, ...]:
    return Match("briscola", 2, seed=seed).game.view(0).hand


def _seed_where(test: Any) -> int:
    return next(s for s in range(200) if test(_briscola_hand(s)))


def test_briscola_in_italian_shows_and_reads_the_italian_notation(tmp_path: Path) -> None:
    seed = _seed_where(lambda h: sum(c.rank != Rank.JACK for c in h) >= 2)
    hand = _briscola_hand(seed)
    first, second = [c for c in hand if c.rank != Rank.JACK][:2]
    record = tmp_path / "briscola.json"
    stdin = f"10C\n{first.text('italian').lower()}\n{second}\nq\n"  # Italian notation, then the Spanish one
    out = play("--variant", "briscola", "--lang", "it", "--seed", str(seed), "--no-cut", "--ai", "random",
               "--save", str(record), stdin=stdin)
    for card in hand:
        assert f"] {card.text('italian')} {card.name('it')}" in out  # like [1] RD re di denari
    assert not re.search(r"\b\d+[OE]\b", out)  # no Spanish suit letter anywhere on the screen
    assert '"10C" è ambiguo: il 10 è il fante nel mazzo spagnolo e il re nel conto italiano.' in out
    assert "Scrivi FC fante di coppe o RC re di coppe." in out
    assert f"Giochi {first.text('italian')} {first.name('it')}" in out
    assert f"Giochi {second.text('italian')} {second.name('it')}" in out
    assert "La tua mossa (1-3 o una carta come " in out
    # the record keeps the Spanish notation, and loads
    saved = json.loads(record.read_text(encoding="utf-8"))
    mine = [a["play"] for a in saved["hands"][0]["actions"] if a["seat"] == 0 and "play" in a]
    assert mine[:2] == [str(first), str(second)]
    assert load_record(record).replay()


def test_an_english_screen_names_italian_cards_in_english() -> None:
    seed = 3
    hand = _briscola_hand(seed)
    out = play("--variant", "briscola", "--lang", "en", "--seed", str(seed), "--no-cut", stdin="?\nq\n")
    for card in hand:
        assert f"] {card.text('italian')} {card.name('en')}" in out  # like [1] RD king of coins
    assert not re.search(r" di (denari|coppe|spade|bastoni)\b", out)
    assert "D coins (denari), C cups (coppe), S swords (spade), B clubs (bastoni)" in out  # the help's legend
    assert "Cards from high to low: A 3 R C F 7 6 5 4 2." in out
    assert "Points: A=11, 3=10, R=4, C=3, F=2;" in out
    # a Spanish screen: Spanish names, the deck's notation
    out = play("--variant", "briscola", "--lang", "es", "--seed", str(seed), "--no-cut", stdin="q\n")
    for card in hand:
        assert f"] {card.text('italian')} {card.name('es')}" in out
    # and a Spanish deck on an Italian screen: the Spanish notation, Italian names
    spanish = Match("spanish", 2, seed=seed).game.view(0).hand
    out = play("--lang", "it", "--seed", str(seed), "--no-cut", stdin="q\n")
    for card in spanish:
        assert f"] {card} {card.name('it')}" in out


def test_the_hand_is_sorted_by_suit_and_rank_on_demand() -> None:
    rules = make_rules("spanish")
    seed = next(s for s in range(200)
                if list(Match(rules, 2, seed=s).game.view(0).hand)
                != _sorted(Match(rules, 2, seed=s).game.view(0), rules))
    view = Match(rules, 2, seed=seed).game.view(0)
    order = _sorted(view, rules)
    out = play("--seed", str(seed), "--no-cut", "--lang", "en", stdin="?\ng\n1\nq\n")
    assert "  g             sort your hand by suit and rank" in out
    assert "Your hand is sorted by suit and rank (g: back to the order it came in)." in out
    after = out.split("Your hand is sorted by suit and rank", 1)[1]
    shown = re.findall(r"^  \[(\d)\] (\S+) ", after.split("Your move", 1)[0], re.MULTILINE)
    assert [(int(i), Card.parse(c)) for i, c in shown] == list(enumerate(order, 1))
    assert re.search(rf"^You play {order[0]} ", after, re.MULTILINE)  # positions count in the order shown
    out = play("--seed", str(seed), "--no-cut", "--lang", "es", stdin="g\ng\nq\n")
    assert "Tu mano está en el orden en que llegó (g: ordenada por palo y valor)." in out


def _sorted(view: View, rules: Rules) -> list[Card]:
    """Trumps first, then the suits in order O C E B; in a suit, from the strongest card down."""
    strength = rules.strength_table
    return sorted(view.hand, key=lambda c: (c.suit is not view.trump, int(c.suit), -strength[c.index]))


def test_long_input_is_quoted_back_cut_short() -> None:
    junk = "z" * 6000
    out = play("--seed", "1", "--no-cut", "--lang", "en", stdin=f"{junk}\n9{'9' * 5000}\nq\n")
    assert "z" * 41 not in out and "9" * 41 not in out
    assert f'I do not understand "{"z" * 39}…". Type a card like ' in out
    assert f"There is no card number {'9' * 39}… in your hand" in out
    out = play("--seed", "1", "--lang", "en", stdin=f"{junk}\nq\n")  # at the cut prompt
    assert f'not "{"z" * 39}…".' in out and "z" * 41 not in out


def test_the_goal_is_worded_for_one_hand_and_for_several() -> None:
    one = {"en": "the first to win a hand wins the match", "es": "gana la partida quien gane una mano",
           "it": "vince la partita chi vince una mano"}
    two = {"en": "the first to win 2 hands wins the match", "es": "gana la partida quien gane 2 manos",
           "it": "vince la partita chi vince 2 mani"}
    for lang in ("en", "es", "it"):
        assert f"({one[lang]})" in play("-r", "target_hands=1", "--no-cut", "--lang", lang, stdin="q\n")
        assert f"({two[lang]})" in play("--no-cut", "--lang", lang, stdin="q\n")
    out = play("--variant", "mariaje", "-r", "match=target_points", "-r", "target_points=60", "--no-cut",
               "--lang", "en", stdin="q\n")
    assert "(the first to reach 60 points wins the match)" in out


def test_computer_players_are_named_by_their_level() -> None:
    assert "  1  Seat 1 (normal)" in play("--no-cut", "--lang", "en", stdin="q\n")  # the default
    assert "  1  Seat 1 (normal)" in play("--no-cut", "--ai", "greedy", "--lang", "en", stdin="q\n")
    assert "  1  Seat 1 (easy)" in play("--no-cut", "--ai", "random", "--lang", "en", stdin="q\n")
    assert "  1  Seat 1 (heuristic)" in play("--no-cut", "--ai", "heuristic", "--lang", "en", stdin="q\n")


def test_the_help_lists_only_the_keys_these_rules_play() -> None:
    plain = play("--variant", "briscola", "--no-cut", "--lang", "en", stdin="?\nq\n")
    keys = plain.split("Keys\n", 1)[1].split("Rules\n", 1)[0]
    assert "\n  x " not in keys and "\n  a " not in keys and "s1, s2" not in keys  # no exchange in briscola
    assert "the Spanish notation is read too (12O for RD), but not 10: write F or R" in keys
    out = play("-p", "4", "-r", "signals=partner", "-r", "arrastro=true", "--no-cut", "--lang", "en",
               stdin="?\nsignal\nq\n")
    keys = out.split("Keys\n", 1)[1].split("Rules\n", 1)[0]
    # The ace to type is the ace of this hand's trumps (1C when cups are trumps), not always the ace of coins.
    trump = re.search(r"Trump: (coins|cups|swords|clubs)", out)
    assert trump is not None
    ace = "1" + {"coins": "O", "cups": "C", "swords": "E", "clubs": "B"}[trump.group(1)]
    for line in ("  x             exchange the trump", "  a             lead the ace of trumps calling arrastro"
                 f" (also {ace}!)", "  s1, s2 ...    make a signal (also signal NAME; signal alone lists the ones you"
                 " may make now)"):
        assert line in keys
    # "signal" alone answers with the signals the table offers, under the same keys
    table = re.findall(r"^  \[(s\d+)\] signal: (.+)$", out.split("Your move", 1)[0], re.MULTILINE)
    menu = out.split("Signals you may make now:\n", 1)[1] if table else ""
    assert table and re.findall(r"^  \[(s\d+)\] signal: (.+)$", menu.split("Your move", 1)[0], re.MULTILINE) == table


# ---------------------------------------------------------------- the exchange announced (001), out of turn (000)


def test_the_announced_exchange_is_offered_told_and_settled() -> None:
    """001: the person lays the trump under the face-up card ("x" or "announce 7O"), the screen shows it there,
    and the end of it is told: the face-up card taken after a trick won, or the trump back in hand."""
    made = back = False
    for seed in range(60):
        out, match = _session("spanish", seed, {"trump_exchange": "announced"}, ["x", "1", "2", "3"])
        if "You lay " not in out:
            continue
        assert re.search(r"^  \[x\] lay \S+ .* under the face-up \S+ .*: you take it when you win your next trick",
                         out, re.MULTILINE)
        assert ", x announce the exchange," in out
        assert re.search(r"^Under the face-up +You: \S+", out, re.MULTILINE)
        made = made or re.search(r"^You take the face-up \S+ .*; \S+ .* stays face up in its place\.$", out,
                                 re.MULTILINE) is not None
        back = back or re.search(r"^The face-up card has been drawn: \S+ .* comes back to your hand\.$", out,
                                 re.MULTILINE) is not None
        assert any(type(a).__name__ == "Announce" and s == 0 for g in match.games for s, a in g.history)
        if made and back:
            break
    assert made and back, (made, back)


def test_a_computer_announces_and_the_screen_says_so() -> None:
    for seed in range(60):
        match = Match("spanish", 2, seed=seed, options={"trump_exchange": "announced"})
        buf = io.StringIO()
        console = Console(file=buf, no_color=True, highlight=False, markup=False, emoji=False, soft_wrap=True)
        game = TerminalGame(match, 0, {1: make_agent("greedy", seed=seed)}, Messages("en"), console,
                            ai_name="easy", read_line=itertools.cycle(["1", "2", "3"]).__next__, echo=True)
        assert game.run() is Outcome.FINISHED
        out = buf.getvalue()
        if re.search(r"^Seat 1 \(easy\) lays \S+ .* under the face-up \S+ .*: the exchange is made when they win",
                     out, re.MULTILINE):
            assert re.search(r"^Under the face-up +Seat 1 \(easy\): \S+", out, re.MULTILINE)
            return
    pytest.fail("no computer announced an exchange")


def test_the_exchange_out_of_turn_is_offered_to_the_person_while_a_computer_is_to_play() -> None:
    """000: "at any time, even while playing a trick": while the computer is to play, the person is offered the
    exchange (once a trick) and takes it; the record keeps the person's seat at that place, and replays."""
    from brisca.record import MatchRecord, loads

    for seed in range(80):
        match = Match("spanish", 2, seed=seed, options={"trump_exchange": "out_of_turn"})
        buf = io.StringIO()
        console = Console(file=buf, no_color=True, highlight=False, markup=False, emoji=False, soft_wrap=True)

        def answer(buf: io.StringIO = buf) -> str:
            return "x" if buf.getvalue().endswith("(x exchange, Enter go on): ") else "1"

        game = TerminalGame(match, 0, {1: make_agent("greedy", seed=seed)}, Messages("en"), console,
                            ai_name="easy", read_line=answer, echo=True)
        assert game.run() is Outcome.FINISHED
        out = buf.getvalue()
        offer = re.search(r"^You may exchange (\S+) .* for the face-up (\S+) .* now, out of turn", out, re.MULTILINE)
        if offer is None:
            continue
        assert f"You exchange {offer.group(1)} " in out[offer.end():]
        out_of_turn = []
        for g in match.games:
            replayed = Match(match.rules, 2, deck=g.deck, dealer=g.dealer).game
            for seat, action in g.history:
                if seat != replayed.turn:
                    out_of_turn.append(action)
                replayed.apply(action, seat)
        assert out_of_turn and all(type(a).__name__ == "Exchange" for a in out_of_turn)
        back = loads(MatchRecord.from_match(match).dumps())
        assert [g.history for g in back.replay()] == [g.history for g in match.games]  # type: ignore[union-attr]
        return
    pytest.fail("no deal offered the exchange out of turn")


def test_the_help_names_the_announced_exchange() -> None:
    out, _match = _session("spanish", 1, {"trump_exchange": "announced"}, ["?", "1", "2", "3"])
    assert "announce the exchange: lay the 7 or the 2 under the face-up card" in out
    assert "announced: laid under the face-up card, taken when you win your next trick" in out
