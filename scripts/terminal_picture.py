"""The picture of the terminal game in docs/playing.md: ``python scripts/terminal_picture.py [OUT.svg]``.

Plays the opening of a real match of ``brisca play`` (the terminal game itself, :class:`TerminalGame`, on a
seeded deal: every run draws the same picture) on a console that records what it prints, the person's moves
typed as a person would, and writes the screen as SVG with rich's ``export_svg`` (default
``docs/img/terminal-game.svg``). The same match in a terminal::

    brisca play -p 4 --ai normal --seed 11 --no-cut      # then type 1
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

from rich.console import Console

from brisca.agents import make_agent
from brisca.cli.play import TerminalGame, agent_seed
from brisca.game import Match
from brisca.i18n import Messages

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "img" / "terminal-game.svg"
SEED = 11
PLAYERS = 4
#: What the person types, one line a prompt; the picture ends at the prompt after the last of them.
TYPED = ["1"]
WIDTH = 92


def record_screen(width: int = WIDTH) -> Console:
    """The console, after the opening of the match has been played on it."""
    console = Console(record=True, width=width, force_terminal=True, color_system="truecolor", highlight=False,
                      markup=False, emoji=False, file=io.StringIO())
    typed = iter(TYPED)

    def read_line() -> str:
        try:
            return next(typed)
        except StopIteration:
            raise EOFError from None

    agents = {s: make_agent("normal", seed=agent_seed(SEED, s)) for s in range(1, PLAYERS)}
    game = TerminalGame(Match("spanish", PLAYERS, seed=SEED), 0, agents, Messages("en"), console,
                        ai_name="normal", read_line=read_line, echo=True)
    game.run()
    console.print()
    return console


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else OUT
    console = record_screen()
    out.write_text(console.export_svg(title=f"brisca play -p {PLAYERS} --seed {SEED} --no-cut"), encoding="utf-8")
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
