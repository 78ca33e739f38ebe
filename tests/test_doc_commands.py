"""Every ``brisca`` command the README and docs/ show runs as written, or, where it cannot run offline in a few
seconds, parses; and no page of docs/ reads as a lab notebook.

The Python examples run as doctests (README.md, docs/library.md: pyproject's ``--doctest-glob``) and in
test_docs.py / test_examples.py; this file takes the shell blocks (```sh). Commands of other tools in them
(``pip``, ``mkdocs``, ``curl``, ``pybabel``) are not the project's and are not run here.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from brisca.cli import build_parser

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PAGES = [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]

#: Commands that do not end by themselves or need what a test machine lacks: their arguments are parsed by the
#: real parser, and the reason is said here. Anything else is run.
NOT_RUN = {
    "serve": "serves until stopped; its arguments parse, and tests/test_server_cli.py starts it",
    "verify": "needs a record from a web table; tests/test_server_fair_deals.py verifies real ones",
    "--ray": "needs a Ray cluster; tests/test_arena_ray.py runs the arena on a local one",
}


def shell_commands() -> list[tuple[str, list[str]]]:
    """``(page, argv)`` of every ``brisca`` command in the shell blocks of the README and docs/."""
    out = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for block in re.findall(r"```(?:sh|bash|shell)\n(.*?)```", text, re.S):
            for line in block.replace("\\\n", " ").splitlines():
                words = shlex.split(line, comments=True)
                command: list[str] = []
                for word in [*words, "&&"]:
                    if word in ("&&", "|", ";"):
                        if command and command[0].endswith("brisca") and "/" not in command[0]:
                            out.append((page.relative_to(ROOT).as_posix(), command[1:]))
                        command = []
                    else:
                        command.append(word)
    return out


COMMANDS = shell_commands()


def _why_not_run(argv: list[str]) -> str | None:
    for key, why in NOT_RUN.items():
        if key in argv[:1] or (key.startswith("--") and key in argv):
            return why
    return None


def test_the_docs_show_the_commands_of_each_part() -> None:
    seen = {argv[0] for _page, argv in COMMANDS}
    assert {"play", "variants", "rules", "arena", "serve", "replay", "verify"} <= seen
    assert ("docs/players.md", ["arena", "mybots:FirstCard", "random", "--games", "200"]) in COMMANDS


@pytest.mark.parametrize(("page", "argv"), COMMANDS, ids=[" ".join(a)[:60] for _p, a in COMMANDS])
def test_a_documented_command_parses(page: str, argv: list[str]) -> None:
    try:
        build_parser().parse_args(argv)
    except SystemExit as exc:  # --help prints and exits 0; an unknown option exits 2
        assert exc.code == 0 and "--help" in argv, f"{page}: brisca {' '.join(argv)}"


def _runnable(argv: list[str]) -> list[str]:
    """The command as the test runs it: arena matches shortened to one deal a pair, searching players given
    little time a move; everything else as written."""
    out = list(argv)
    if out[0] == "arena":
        for flag in ("--games", "-g"):
            if flag in out:
                out[out.index(flag) + 1] = "1"
        if not any(f in out for f in ("--games", "-g")):
            out += ["--games", "1"]
        if any(a.startswith("expert") for a in out) and "--think" not in out:
            out += ["--think", "0.01"]
    if out[0] == "play" and any(a.startswith("expert") for a in out) and "--think" not in out:
        out += ["--think", "0.01"]
    return out


@pytest.mark.parametrize(("page", "argv"), [c for c in COMMANDS if _why_not_run(c[1]) is None],
                         ids=[" ".join(a)[:60] for _p, a in COMMANDS if _why_not_run(a) is None])
def test_a_documented_command_runs(page: str, argv: list[str], tmp_path: Path) -> None:
    """Run from an empty folder holding what the docs had the reader make: docs/players.md's ``mybots.py``, and a
    match record ``game.json``."""
    players = (DOCS / "players.md").read_text(encoding="utf-8")
    code = re.search(r"```python\n(.*?)```", players, re.S)
    assert code is not None
    (tmp_path / "mybots.py").write_text(code.group(1) + "\nMyPlayer = FirstCard\n", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k not in ("LANG", "LC_ALL", "LC_MESSAGES", "LANGUAGE", "COLUMNS")}
    env["PYTHONPATH"] = str(ROOT / "src")
    env["PYTHONIOENCODING"] = "utf-8"
    cli = [sys.executable, "-P", "-c", "import sys; from brisca.cli import main; sys.exit(main())"]
    if argv[0] == "replay":
        made = subprocess.run([*cli, "play", "--no-cut", "--ai", "random", "--seed", "1", "--save", "game.json"],
                              cwd=tmp_path, input="1\n" * 300, capture_output=True, text=True, env=env, timeout=120)
        assert made.returncode == 0, made.stderr
    proc = subprocess.run([*cli, *_runnable(argv)], cwd=tmp_path, input="q\n", capture_output=True, text=True,
                          env=env, timeout=300)
    assert proc.returncode == 0, f"{page}: brisca {' '.join(argv)}: {proc.stderr}"
    assert "Traceback" not in proc.stderr
    assert proc.stdout.strip()


#: Words of a lab notebook: how the work went, not what the software is and does (the project's standard).
NOTEBOOK = (
    r"what was changed", r"\bit used to\b", r"\bother sessions?\b", r"\bthis session\b", r"before the changes",
    r"left to do", r"the goals? (?:was|were)\b", r"the next step", r"tried, did not help",
    r"not measured yet", r"measured here", r"\bas before\b", r"\b20\d\d-[01]\d-[0-3]\d\b", r"\bTODO\b",
    r"not (?:built|done|there) yet", r"\bthis PR\b", r"\bwas changed\b",
)


@pytest.mark.parametrize("page", sorted(p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md")))
def test_no_page_reads_as_a_lab_notebook(page: str) -> None:
    """A page says what is: how the project got there belongs in CHANGELOG.md, what remains in "Known limits"."""
    text = (DOCS / page).read_text(encoding="utf-8")
    found = sorted({m.group(0) for pattern in NOTEBOOK for m in re.finditer(pattern, text, re.IGNORECASE)})
    assert not found, f"docs/{page}: {found}"


def test_the_readme_research_example_runs() -> None:
    """README's Python blocks that are not doctests (the research environments, which need the ``rl`` extra)."""
    pytest.importorskip("pettingzoo")
    pytest.importorskip("gymnasium")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = [b for b in re.findall(r"```python\n(.*?)```", readme, re.S) if ">>>" not in b]
    assert blocks and any('pettingzoo.make("aec", "brisca/spanish-v0")' in b for b in blocks)
    for block in blocks:
        scope: dict[str, object] = {}
        exec(compile(block, "README.md", "exec"), scope)
        if "env" in scope:
            assert scope["env"].agents == ["player_0", "player_1"]  # type: ignore[attr-defined]
