"""The terminal's words in each language: titles, levels, the grammar of one, the rows as a terminal wraps them,
plain text under ``--no-color``, vales and rematada's scores told by what they are worth, and the suggestions
of the command line."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

from brisca.agents import Agent, make_agent
from brisca.cli.play import TerminalGame
from brisca.game import Match
from brisca.i18n import Messages
from brisca.rulebook import title_in
from brisca.rules import find_variant, make_rules, variant_names
from test_cli_play import _env, brisca, play

SRC = Path(__file__).resolve().parent.parent / "src"


def _run(variant: str, players: int, seed: int, lang: str = "en", *, width: int = 100, soft_wrap: bool = False,
         ai: str = "normal", person: Agent | None = None, lines: list[str] | None = None, seat: int = 0) -> str:
    """A whole match in process, the person's moves chosen by ``person`` (greedy) or read from ``lines``;
    the transcript as a terminal ``width`` columns wide shows it (``soft_wrap``: as a pipe gets it)."""
    rules = make_rules(variant)
    buf = io.StringIO()
    console = Console(file=buf, width=width, no_color=True, color_system=None, highlight=False, markup=False,
                      emoji=False, soft_wrap=soft_wrap)
    me = person or make_agent("greedy", seed=99)
    agents = {s: make_agent("greedy", seed=s) for s in range(players) if s != seat}
    feed = iter(lines or [])
    game: TerminalGame

    def answer() -> str:
        if lines is not None:
            return next(feed)
        view = game.view()
        return "pass" if view.phase == "mark" else me.act(view).text(game.notation)

    game = TerminalGame(Match(rules, players, seed=seed), seat, agents, Messages(lang), console, ai_name=ai,  # type: ignore[arg-type]
                        read_line=answer, echo=True)
    game.run()
    return buf.getvalue()


@pytest.mark.parametrize("lang", ["es", "it"])
@pytest.mark.parametrize("name", variant_names())
def test_a_spanish_or_italian_screen_names_the_preset_in_its_language(name: str, lang: str) -> None:
    rules = find_variant(name)
    players = 2 if 2 in rules.player_counts else rules.player_counts[0]
    out = play("--variant", name, "--lang", lang, "-p", str(players), stdin="q\n").stdout
    first = out.splitlines()[0]
    assert f"Brisca: {title_in(rules, lang)}, " in first
    if title_in(rules, lang) != rules.title:
        assert rules.title not in out


@pytest.mark.parametrize(("lang", "ai", "shown"), [
    ("es", "expert", "Jugador 1 (experto)"), ("es", "easy", "Jugador 1 (fácil)"), ("es", "hard", "Jugador 1 (difícil)"),
    ("it", "normal", "Giocatore 1 (normale)"), ("it", "expert", "Giocatore 1 (esperto)"),
    ("en", "greedy", "Seat 1 (normal)"), ("it", "heuristic", "Giocatore 1 (heuristic)"),
])
def test_the_computer_levels_speak_the_screen_language(lang: str, ai: str, shown: str) -> None:
    out = play("--lang", lang, "--ai", ai, stdin="q\n").stdout
    assert f"  1  {shown}\n" in out


def test_one_partner_is_named_in_the_singular() -> None:
    es = play("-p", "4", "--lang", "es", stdin="q\n").stdout
    assert "Tu compañero: Jugador 2 (normal, compañero)." in es and "Tus compañeros" not in es
    six = play("-p", "6", "--lang", "en", stdin="q\n").stdout
    assert "Your partners: Seat 2 (normal, partner), Seat 4 (normal, partner)." in six


def test_the_last_card_is_asked_for_without_a_range() -> None:
    out = _run("spanish", 2, 1, lines=["1"] * 200)
    prompts = re.findall(r"^Your move \((1-\d+|1) or", out, re.MULTILINE)
    assert "1" in prompts and "1-3" in prompts
    assert "(1-1 " not in out


def test_the_person_dealing_a_cut_hand_is_told_in_the_second_person() -> None:
    """Under ``deal: cutter_chooses`` the dealer may be the person: "You deal hand 2", never "Tú reparte"."""
    out = _run("chilean", 4, 1, "es", seat=3)  # the last seat deals the first hand
    assert "Repartes tú la mano 1; corta Jugador 0 (normal), que elige cómo se reparte." in out
    assert "Tú reparte" not in out


def _tables(out: str) -> list[list[str]]:
    """The rows of each table drawn: from the line under its title to the person's hand."""
    tables, current = [], None
    for line in out.splitlines():
        if line.startswith("─") and " · " in line:
            current = []
        elif current is not None and re.match(r"^(Tu mano|Your hand):", line):
            tables.append(current)
            current = None
        elif current is not None:
            current.append(line)
    return tables


@pytest.mark.parametrize(("variant", "players", "width"), [("chilean", 4, 60), ("chiamata", 5, 110),
                                                           ("rematada", 3, 60)])
def test_rows_wrap_under_their_column(variant: str, players: int, width: int) -> None:
    """A row longer than the terminal continues under its value, not under the names (the points row at 60
    columns, the chiamata auction at 110); a pipe gets each row on one line."""
    wide = _tables(_run(variant, players, 3, "es", width=1000))
    names = {re.split(r"\s{2,}", row, maxsplit=1)[0] for table in wide for row in table if row[:1].strip()}
    narrow = _tables(_run(variant, players, 3, "es", width=width))
    assert len(narrow) == len(wide)
    wrapped = 0
    for table in narrow:
        column = len(re.match(r"^\S.*?\s{2,}", table[0]).group(0))  # type: ignore[union-attr]
        for row in table:
            assert len(row) <= width
            if row[:1].strip():
                assert row[:column].rstrip() in names, (variant, row)
            else:
                assert row.startswith(" " * column) and row[column:column + 1].strip(), (variant, row)
                wrapped += 1
    assert wrapped, f"{variant}: no row wrapped at {width} columns"
    piped = _tables(_run(variant, players, 3, "es", width=width, soft_wrap=True))
    assert piped == wide


def test_no_color_sends_no_escape_code_even_to_a_terminal() -> None:
    """``--no-color`` on a terminal (rich forced to think it writes to one): no colour and no bold either."""
    env = _env({"FORCE_COLOR": "1", "TTY_COMPATIBLE": "1"})
    proc = subprocess.run([sys.executable, "-m", "brisca", "play", "--no-cut", "--lang", "en", "--no-color"],
                          input="q\n", capture_output=True, text=True, env=env, timeout=60)
    assert proc.returncode == 0 and "You leave the match." in proc.stdout
    assert "\x1b" not in proc.stdout
    coloured = subprocess.run([sys.executable, "-m", "brisca", "play", "--no-cut", "--lang", "en"],
                              input="q\n", capture_output=True, text=True, env=env, timeout=60)
    assert "\x1b[1m" in coloured.stdout  # the same terminal without --no-color: bold and colours


def _vale_lines(out: str) -> list[tuple[str, str]]:
    """(the line before, the line) for every vale told."""
    rows = out.splitlines()
    return [(rows[i - 1], row) for i, row in enumerate(rows) if "declare vales" in row or "declares vales" in row]


def test_a_vale_marked_after_its_trick_names_who_took_it() -> None:
    """Chilean vales: one declared once its trick is won says which side takes the points; one declared while the
    trick is played says the side that wins it will."""
    told = [pair for seed in range(1, 7) for pair in _vale_lines(_run("chilean", 4, seed, width=400))]
    after = [(before, line) for before, line in told if " wins the trick " in before or "You win the trick" in before]
    assert after, "no vale was marked after its trick"
    for _before, line in after:
        assert line.endswith(", who won the trick."), line
        assert "for the side that wins this trick" not in line
    assert any(line.endswith("for the side that wins this trick.") for _b, line in told)


def test_rematada_tells_the_game_points_of_a_hand() -> None:
    out = _run("rematada", 3, 3, "es", width=400)
    assert "Puntos de juego ganados en esta mano: Tú " in out
    assert "Puntos de la partida" not in out


@pytest.mark.parametrize("lang", ["es", "en", "it"])
def test_the_arrastro_help_names_the_ace_of_this_hands_trumps(lang: str) -> None:
    rules = make_rules("spanish", {"arrastro": True})
    for seed in range(20):
        trump = Match(rules, 2, seed=seed).game.view(0).trump
        if trump is not None and trump.name != "OROS":
            break
    buf = io.StringIO()
    console = Console(file=buf, width=400, color_system=None, highlight=False, markup=False, emoji=False)
    feed = iter(["?", "q"])
    game = TerminalGame(Match(rules, 2, seed=seed), 0, {1: make_agent("greedy", seed=1)}, Messages(lang), console,
                        read_line=lambda: next(feed))
    game.run()
    assert trump is not None
    ace = f"1{game.notation.suit_letter(trump)}!"
    help_text = buf.getvalue()
    assert f"{ace})" in help_text and "1O!" not in help_text


def test_an_unknown_preset_suggests_a_name_of_its_own_list() -> None:
    proc = brisca("rules", "nope")
    assert proc.returncode == 2
    line = proc.stderr.strip()
    hint = re.search(r"did you mean '([^']+)'\?", line)
    assert hint is not None
    listed = line.split("; known: ", 1)[1]
    assert re.search(rf"\b{re.escape(hint.group(1))}\b", listed), line
    assert "scoperta (also briscola-scoperta, open)" in listed


def test_the_benchmark_says_what_naipes_is() -> None:
    from brisca.bench import NAIPES

    proc = brisca("bench", "--seconds", "0.02", "--players", "2")
    assert proc.returncode == 0
    assert f"reference: {NAIPES}" in proc.stdout and "another Python package that plays brisca" in NAIPES


def test_the_command_line_finds_a_module_in_the_current_folder(tmp_path: Path) -> None:
    """``brisca arena mybots:FirstCard random`` from the folder that holds ``mybots.py``, as the installed script
    runs it (``-P``: the current folder is not put on the path by Python)."""
    (tmp_path / "mybots_here.py").write_text(
        "class FirstCard:\n    def act(self, view):\n        return view.legal_actions[0]\n", encoding="utf-8")
    env = _env({"PYTHONPATH": str(SRC)})
    args = [sys.executable, "-P", "-c", "import sys; from brisca.cli import main; sys.exit(main())",
            "arena", "mybots_here:FirstCard", "random", "--games", "2", "--json"]
    proc = subprocess.run(args, cwd=tmp_path, capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "mybots_here:FirstCard" in proc.stdout
    elsewhere = subprocess.run(args, cwd=tmp_path.parent, capture_output=True, text=True, env=env, timeout=120)
    assert elsewhere.returncode == 2 and "No module named 'mybots_here'" in elsewhere.stderr
    assert os.getcwd() != str(tmp_path)


@pytest.mark.parametrize(("lang", "hint", "help_line"), [
    ("en", "  h  ", "this help (also help, ayuda, aiuto)"),
    ("es", "  h  ", "esta ayuda (también help, ayuda, aiuto)"),
    ("it", "  h  ", "questo aiuto (anche help, ayuda, aiuto)"),
])
def test_the_help_gives_h_to_the_hint_alone(lang: str, hint: str, help_line: str) -> None:
    out = play("--lang", lang, stdin="?\nq\n").stdout
    keys = out.split("\n", 1)[1]
    assert help_line in keys
    assert [line for line in keys.splitlines() if line.startswith(hint)] and "(also h," not in out
    assert "(también h," not in out and "(anche h," not in out


@pytest.mark.parametrize(("lang", "shown"), [("es", "s1 as de triunfo, "), ("it", "s1 asso di briscola, ")])
def test_the_signals_are_listed_in_the_screens_language_alone(lang: str, shown: str) -> None:
    out = play("-p", "4", "-r", "signals=partner", "--lang", lang, stdin="?\nq\n").stdout
    assert shown in out
    assert "(trump-ace)" not in out and "(no-trumps)" not in out
    english = play("-p", "4", "-r", "signals=partner", "--lang", "en", stdin="?\nq\n").stdout
    assert "(trump-ace)" in english  # in English the engine's name is the screen's


@pytest.mark.parametrize(("lang", "header", "dealer", "card_deals"), [
    ("en", "Drawing for the deal (whoever draws the highest card deals):", "Whoever draws the highest card deals: ",
     "The highest card deals"),
    ("es", "Sorteo del reparto (reparte quien saca la carta más alta):", "Reparte quien saca la carta más alta: ",
     "Reparte la carta más alta"),
    ("it", "Sorteggio del mazziere (distribuisce chi pesca la carta più alta):",
     "Distribuisce chi pesca la carta più alta: ", "Distribuisce la carta più alta"),
])
def test_a_player_deals_not_a_card(lang: str, header: str, dealer: str, card_deals: str) -> None:
    out = brisca("play", "--seed", "1", "--lang", lang, stdin="q\n").stdout
    assert header in out and dealer in out and card_deals not in out


@pytest.mark.parametrize(("lang", "team"), [("es", "equipo"), ("it", "squadra")])
def test_two_players_are_not_called_a_team(lang: str, team: str) -> None:
    out = play("--lang", lang, stdin="?\nq\n").stdout
    assert team not in out.lower()
    assert ("gana la mano quien suma más puntos" if lang == "es" else "vince la mano chi fa più punti") in out
    claims = play("-r", "claim=true", "--lang", lang, stdin="?\nq\n").stdout
    assert team not in claims.lower()
    held = "si sales y tienes los mejores triunfos" if lang == "es" else "se esci e hai le briscole migliori"
    assert held in claims
    least = play("--variant", "mexican", "-p", "2", "--lang", lang, stdin="?\nq\n").stdout  # the fewest points win
    assert team not in least.lower()
    assert ("gana la mano quien suma menos puntos" if lang == "es" else "vince la mano chi fa meno punti") in least


@pytest.mark.parametrize(("lang", "position", "unknown"), [
    ("en", "it holds one card, number 1.", "its position 1, or"),
    ("es", "solo tienes una, la 1.", "su posición 1, o"),
    ("it", "ne hai una sola, la 1.", "la sua posizione 1, o"),
])
def test_one_card_left_is_not_a_range(lang: str, position: str, unknown: str) -> None:
    out = _run("spanish", 2, 1, lang, lines=["9", "zz", "1"] * 40)
    assert position in out and unknown in out
    assert not re.search(r"\b1 (to|a|da) 1\b", out) and "1-1" not in out


def test_a_new_game_says_what_it_is_before_asking_for_the_cut() -> None:
    for lang, goal in (("en", "Goal: the first to win 2 hands wins the match."), ("es", "Objetivo: "),
                       ("it", "Obiettivo: ")):
        out = brisca("play", "--seed", "1", "--lang", lang, stdin="q\n").stdout
        assert goal in out
        assert out.index(goal) < out.index("(4-36)")  # the cut's prompt


@pytest.mark.parametrize(("language", "expected"), [("it", "Giochi al posto 0"), ("es:it", "Juegas en el puesto 0"),
                                                    ("fr:it", "Giochi al posto 0")])
def test_the_language_list_of_gettext_is_read(language: str, expected: str) -> None:
    out = play(stdin="q\n", env={"LANGUAGE": language, "LANG": "en_US.UTF-8"}).stdout
    assert expected in out.splitlines()[0]
