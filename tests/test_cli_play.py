"""``brisca play`` end to end: a real process, lines piped in, its transcript and record checked.

The terminal game is the only part of the project a person drives by hand, so these
tests drive it the same way (through stdin) rather than calling its internals.
"""

from __future__ import annotations

import io
import itertools
import json
import os
import re
import select
import signal
import string
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from brisca.agents import make_agent
from brisca.cards import LANGS, Card
from brisca.cli.play import Outcome, TerminalGame
from brisca.game import Match
from brisca.i18n import MESSAGES, Messages, default_lang

TIMEOUT = 60
ONES = "1\n" * 500
_LOCALE_VARS = ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE")
# Variables that would make rich colour a pipe or change its width.
_RICH_VARS = ("FORCE_COLOR", "NO_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE", "COLUMNS", "LINES", "TERM")


def _env(extra: dict[str, str] | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in _LOCALE_VARS + _RICH_VARS}
    env["PYTHONIOENCODING"] = "utf-8"
    env.update(extra or {})
    return env


def brisca(*args: str, stdin: str = "", env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """Run ``python -m brisca ARGS`` with ``stdin`` piped in; never a traceback, never an escape code."""
    proc = subprocess.run(
        [sys.executable, "-m", "brisca", *args],
        input=stdin, capture_output=True, text=True, encoding="utf-8", timeout=TIMEOUT, env=_env(env),
    )
    assert "Traceback" not in proc.stdout + proc.stderr, proc.stderr
    assert "\x1b" not in proc.stdout, "a pipe must get plain text"
    return proc


def play(*args: str, stdin: str = ONES, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``brisca play --no-cut ARGS``: the last seat deals an uncut deck, the one ``Match(seed=...)`` deals.

    These tests work out hands from ``Match(seed=...)`` and feed moves from the first line on;
    the draw for the dealer and the cut are tested in ``test_cli_play_variants.py``.
    """
    return brisca("play", "--no-cut", *args, stdin=stdin, env=env)


def replay(path: Path) -> dict[str, Any]:
    proc = brisca("replay", str(path))
    assert proc.returncode == 0, proc.stderr
    out: dict[str, Any] = json.loads(proc.stdout)
    return out


# ---------------------------------------------------------------- whole matches


def test_two_player_match_plays_to_the_end_and_saves_a_record(tmp_path: Path) -> None:
    record = tmp_path / "match.json"
    proc = play("--seed", "1", "--ai", "random", "--lang", "en", "--save", str(record))
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    winner_line = re.search(r"Match over\. Winner: (.+)\.", proc.stdout)
    assert winner_line, proc.stdout[-2000:]
    assert f"Match record saved to {record}." in proc.stdout

    summary = replay(record)
    assert summary["hands"], summary
    assert all(hand["over"] for hand in summary["hands"])
    expected = {0: "You", 1: "Seat 1 (easy)"}[summary["match_winner"]]
    assert winner_line.group(1) == expected
    assert proc.stdout.count("Hands won: ") == len(summary["hands"])


@pytest.mark.parametrize("players", [3, 4, 6])
def test_matches_with_more_players_finish(players: int, tmp_path: Path) -> None:
    record = tmp_path / "match.json"
    proc = play("-p", str(players), "--seed", "5", "--lang", "en", "--save", str(record))
    assert proc.returncode == 0, proc.stderr
    assert "Match over. Winner: " in proc.stdout
    summary = replay(record)
    assert summary["players"] == players
    assert all(hand["over"] for hand in summary["hands"])
    assert summary["match_winner"] is not None
    if players in (4, 6):
        partners = ", ".join(f"Seat {s} (normal, partner)" for s in range(2, players, 2))
        assert f"Your {'partners' if players == 6 else 'partner'}: {partners}." in proc.stdout
        assert "Your side (seats " in proc.stdout
    else:
        assert "partner" not in proc.stdout


def test_same_seed_and_input_give_the_same_game() -> None:
    first = play("--seed", "42", "--ai", "random", "--lang", "en")
    second = play("--seed", "42", "--ai", "random", "--lang", "en")
    assert first.returncode == second.returncode == 0
    assert first.stdout == second.stdout
    other = play("--seed", "43", "--ai", "random", "--lang", "en")
    assert other.stdout != first.stdout


def _seed_with_a_trump_in_hand() -> int:
    """A seed whose first deal gives seat 0 a trump, so the trump mark shows on the first screen."""
    for seed in range(100):
        view = Match("spanish", 2, seed=seed).game.view(0)
        if any(c.suit is view.trump for c in view.hand):
            return seed
    raise AssertionError("no such seed")


def test_the_table_shows_what_the_seat_may_see() -> None:
    proc = play("--seed", str(_seed_with_a_trump_in_hand()), "--lang", "en", stdin="1\n")
    out = proc.stdout
    for label in ("Trump", "Stock", "Points", "Hands won", "Last trick", "On the table", "Turn", "Your hand:"):
        assert re.search(rf"^{label}", out, re.MULTILINE), label
    assert re.search(r"^  \[1\] \d+[OCEB] \w+ of \w+", out, re.MULTILINE)
    assert "(trump)" in out
    assert re.search(r"^You play \d+[OCEB] ", out, re.MULTILINE)
    assert re.search(r"^Seat 1 \(normal\) plays \d+[OCEB] ", out, re.MULTILINE)
    assert re.search(r"wins? the trick with .*: \d+ points\.", out)


# ---------------------------------------------------------------- input


def test_wrong_input_explains_and_asks_again() -> None:
    hand = Match("spanish", 2, seed=1).game.view(0).hand
    stranger = next(c for c in Match("spanish", 2, seed=1).game.deck if c not in hand)
    stdin = f"99\nzz\n7Q\n{stranger}\n0\nx\n" + ONES
    proc = play("--seed", "1", "--lang", "en", stdin=stdin)
    assert proc.returncode == 0
    out = proc.stdout
    assert "There is no card number 99 in your hand: choose 1 to 3." in out
    assert 'I do not understand "zz".' in out
    assert 'I do not understand "7Q".' in out
    assert f"You do not hold {stranger} {stranger.name('en')}." in out
    assert "There is no card number 0 in your hand" in out
    # The exchange is not legal yet: refused with its reason.
    assert re.search(r"q quit\): x\n(To take the face-up .* you need .*|You must win a trick .*)\n", out)
    # Nothing was played by the wrong lines: the first card played is the first card held.
    first = re.search(r"^You play (\S+)", out, re.MULTILINE)
    assert first and first.group(1) == str(hand[0])
    assert "Match over. Winner: " in out


def test_cards_by_notation_and_name_case_insensitive() -> None:
    hand = Match("spanish", 2, seed=3).game.view(0).hand
    stdin = f"{str(hand[1]).lower()}\n{hand[0].name('es').upper()}\n"
    out = play("--seed", "3", "--lang", "en", stdin=stdin).stdout
    played = re.findall(r"^You play (\S+)", out, re.MULTILINE)
    assert played[:2] == [str(hand[1]), str(hand[0])]


def test_help_last_trick_and_empty_line() -> None:
    out = play("--seed", "2", "--lang", "en", stdin="l\n?\n\n1\nl\nq\n").stdout
    assert "No trick has finished yet in this hand." in out
    assert "Cards from high to low: 1 3 12 11 10 7 6 5 4 2." in out
    assert "Points: 1=11, 3=10, 12=4, 11=3, 10=2" in out
    assert "the 7 of trumps for a face-up 1 3 12 11 10" in out
    assert "You need not follow suit." in out
    assert out.count("Your hand:") == 3  # first draw, the empty line, the next turn
    assert "Last trick (led by " in out
    assert "You leave the match." in out


def test_quit_saves_and_exits_zero(tmp_path: Path) -> None:
    record = tmp_path / "quit.json"
    proc = play("--seed", "4", "--lang", "en", "--save", str(record), stdin="1\n1\nquit\n")
    assert proc.returncode == 0
    assert "You leave the match." in proc.stdout
    hands = replay(record)["hands"]
    assert len(hands) == 1 and not hands[0]["over"]
    assert len(hands[0]["tricks"]) == 2


def test_end_of_input_mid_match_saves_and_exits_zero(tmp_path: Path) -> None:
    record = tmp_path / "eof.json"
    proc = play("--seed", "7", "-p", "4", "--lang", "en", "--save", str(record), stdin="1\n" * 15)
    assert proc.returncode == 0
    assert "End of input: the match is left unfinished." in proc.stdout
    assert f"Match record saved to {record}." in proc.stdout
    summary = replay(record)
    assert summary["hands"][-1]["over"] is False
    assert summary["match_winner"] is None


@pytest.mark.skipif(os.name != "posix", reason="needs POSIX signals")
def test_interrupt_saves_and_exits_130(tmp_path: Path) -> None:
    record = tmp_path / "int.json"
    proc = subprocess.Popen(
        [sys.executable, "-m", "brisca", "play", "--no-cut", "--seed", "1", "--lang", "en", "--save", str(record)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=_env(),
        # A runner started in the background may ignore SIGINT, and children inherit that: give the
        # game the default disposition a terminal would, so Ctrl-C reaches it as KeyboardInterrupt.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert proc.stdout is not None
    seen = b""
    deadline = time.monotonic() + TIMEOUT
    while b"Your move" not in seen and time.monotonic() < deadline:
        ready, _, _ = select.select([proc.stdout], [], [], 1.0)
        if ready:
            seen += os.read(proc.stdout.fileno(), 4096)
    assert b"Your move" in seen
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=TIMEOUT)
    assert proc.returncode == 130
    assert b"Traceback" not in out + err
    assert b"Interrupted" in out
    assert replay(record)["hands"][0]["over"] is False


def test_a_duty_to_follow_is_explained_from_the_legal_moves() -> None:
    proc = play("-p", "4", "--seed", "2", "--lang", "en", "-r", "follow=suit", stdin="1\n2\n3\n" * 200)
    assert proc.returncode == 0
    assert "(not playable now)" in proc.stdout
    assert re.search(r"You may not play \S+ .*: these rules make you play one of \S+", proc.stdout)
    assert "Match over" in proc.stdout


@pytest.mark.parametrize("rule", ["trump_rotation=true", "match=target_points", "tie=replay", "claim=true",
                                  "trump_exchange=announced"])
def test_other_rule_options_play_to_the_end(rule: str) -> None:
    proc = play("-p", "4", "--seed", "3", "--lang", "en", "-r", rule)
    assert proc.returncode == 0, proc.stderr
    assert "Match over" in proc.stdout


# ---------------------------------------------------------------- languages


def test_spanish_and_italian() -> None:
    es = play("--seed", str(_seed_with_a_trump_in_hand()), "--lang", "es", stdin="1\n").stdout
    assert "Tu mano:" in es
    assert re.search(r"\d+[OCEB] \w+ de (oros|copas|espadas|bastos)", es)
    assert re.search(r"^Juegas \d+[OCEB] ", es, re.MULTILINE)
    assert "(triunfo)" in es
    it = play("--seed", "1", "--lang", "it", stdin="1\nzz\n").stdout
    assert "La tua mano:" in it
    assert re.search(r"\d+[OCEB] \w+ di (denari|coppe|spade|bastoni)", it)
    assert 'Non capisco "zz".' in it


@pytest.mark.parametrize(
    ("env", "words"),
    [
        ({"LANG": "es_ES.UTF-8"}, "Tu mano:"),
        ({"LANG": "it_IT.UTF-8"}, "La tua mano:"),
        ({"LANG": "fr_FR.UTF-8"}, "Your hand:"),
        ({"LC_ALL": "C.UTF-8", "LANG": "es_ES.UTF-8"}, "Your hand:"),
        ({"LC_MESSAGES": "it_IT", "LANG": "es_ES.UTF-8"}, "La tua mano:"),
    ],
)
def test_language_defaults_to_the_locale(env: dict[str, str], words: str) -> None:
    proc = play("--seed", "1", stdin="", env=env)
    assert proc.returncode == 0
    assert words in proc.stdout


def test_no_color_is_plain_text() -> None:
    proc = play("--seed", "1", "--no-color", "--lang", "en", stdin="1\n")
    assert proc.returncode == 0
    assert "\x1b" not in proc.stdout


# ---------------------------------------------------------------- bad options


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--players", "5"], "5"),
        (["--seat", "2"], "seat 2"),
        (["-p", "4", "--seat", "-1"], "seat -1"),
        (["--ai", "nobody"], "nobody"),
        (["--rule", "deck=41"], "deck"),
    ],
)
def test_bad_options_give_one_line_and_status_2(args: list[str], needle: str) -> None:
    proc = play(*args, "--lang", "en")
    assert proc.returncode == 2
    assert proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("brisca: error: ")
    assert needle in lines[0]


def test_unwritable_save_path_fails_before_playing(tmp_path: Path) -> None:
    proc = play("--save", str(tmp_path / "no" / "such" / "dir.json"), "--lang", "en")
    assert proc.returncode == 2
    assert len(proc.stderr.splitlines()) == 1
    assert "Your move" not in proc.stdout


# ---------------------------------------------------------------- in process


def _session(seed: int, lines: list[str]) -> tuple[Outcome, str]:
    match = Match("spanish", 2, seed=seed)
    buf = io.StringIO()
    console = Console(file=buf, no_color=True, highlight=False, markup=False, emoji=False, soft_wrap=True)
    feed = itertools.cycle(lines)
    game = TerminalGame(
        match, 0, {1: make_agent("greedy", seed=seed)}, Messages("en"), console,
        ai_name="normal", read_line=lambda: next(feed), echo=True,
    )
    return game.run(), buf.getvalue()


def test_the_exchange_is_offered_and_made() -> None:
    # Try "x" at every turn: some deal among these lets the person exchange (the engine decides when).
    for seed in range(30):
        outcome, out = _session(seed, ["x", "1"])
        assert outcome is Outcome.FINISHED
        if "You exchange " in out:
            break
    else:
        pytest.fail("no deal offered the trump exchange")
    offer = re.search(r"^  \[x\] exchange (\S+) .* for the face-up (\S+) ", out, re.MULTILINE)
    assert offer
    assert f"You exchange {offer.group(1)} " in out
    assert ", x exchange," in out  # the prompt lists the key while the exchange is legal


def test_screen_is_built_from_the_view_only(monkeypatch: pytest.MonkeyPatch) -> None:
    from brisca.game import Game

    def forbidden(self: Game, *args: object) -> object:
        raise AssertionError("the terminal read engine-level state")

    monkeypatch.setattr(Game, "stock", forbidden)
    real_hand = Game.hand

    def hand(self: Game, seat: int) -> tuple[Card, ...]:
        caller = sys._getframe(1).f_code
        assert Path(caller.co_filename).parent.name == "game", f"{caller.co_name} read a hand directly"
        return real_hand(self, seat)

    monkeypatch.setattr(Game, "hand", hand)
    outcome, out = _session(11, ["1"])
    assert outcome is Outcome.FINISHED
    assert "Match over." in out


# ---------------------------------------------------------------- i18n


def _fields(template: str) -> set[str]:
    return {name for _lit, name, _spec, _conv in string.Formatter().parse(template) if name is not None}


def test_every_message_exists_in_every_language_with_the_same_fields() -> None:
    assert set(MESSAGES) == set(LANGS)
    keys = set(MESSAGES["en"])
    for lang in LANGS:
        assert set(MESSAGES[lang]) == keys, lang
        for key in keys:
            assert _fields(MESSAGES[lang][key]) == _fields(MESSAGES["en"][key]), (lang, key)


def test_messages_format() -> None:
    assert Messages("es")("you_play", card="3O tres de oros") == "Juegas 3O tres de oros."
    assert "seat" in Messages("en") and "nope" not in Messages("en")


@pytest.mark.parametrize(
    ("env", "lang"),
    [
        ({}, "en"),
        ({"LANG": "es_ES.UTF-8"}, "es"),
        ({"LANG": "es_AR"}, "es"),
        ({"LANG": "it_IT@euro"}, "it"),
        ({"LANG": "en_GB.UTF-8"}, "en"),
        ({"LANG": "C"}, "en"),
        ({"LANG": "de_DE.UTF-8"}, "en"),
        ({"LC_ALL": "it_IT.UTF-8", "LANG": "es_ES.UTF-8"}, "it"),
        ({"LC_ALL": "", "LC_MESSAGES": "es_ES", "LANG": "it_IT"}, "es"),
        ({"LC_ALL": "POSIX", "LANG": "es_ES"}, "en"),
        # LANGUAGE, GNU gettext's list in order of preference, first where the locale is not C or POSIX.
        ({"LANGUAGE": "it", "LANG": "es_ES.UTF-8"}, "it"),
        ({"LANGUAGE": "es"}, "es"),
        ({"LANGUAGE": "fr:de:es_MX:it", "LANG": "en_US.UTF-8"}, "es"),
        ({"LANGUAGE": "fr:de", "LANG": "it_IT.UTF-8"}, "it"),
        ({"LANGUAGE": ":", "LC_ALL": "es_ES.UTF-8"}, "es"),
        ({"LANGUAGE": "it", "LC_ALL": "C"}, "en"),
        ({"LANGUAGE": "it", "LANG": "C.UTF-8"}, "en"),
    ],
)
def test_default_lang(env: dict[str, str], lang: str) -> None:
    assert default_lang(env) == lang
