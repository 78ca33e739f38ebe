"""``brisca play``: a person plays a whole match in the terminal against computer players.

The person's screen is built only from ``game.view(seat)``, the engine's one
projection of what a seat may see, and computer seats act on their own views:
the terminal can show nothing the rules hide. Input is read a line at a time
with :func:`input`, so a match can be driven through a pipe (the tests do).

A match starts as at a real table (:class:`Table`): each seat draws a card, the
highest deals (by rank, or by face value under ``dealer_draw: face_value``), and before every deal the
cutter (the player to the dealer's left, or to his right under ``cutter: right``) cuts the
deck; the record keeps each deck as dealt, after the cut. ``--no-cut`` skips the
draw and the cuts (the last seat deals first). Under ``partners: draw`` the draw is
for partners and seats (:class:`~brisca.game.PartnerDraw`, kept in the record, with or
without ``--no-cut``): the person and the computers take the seats it gives them.

This module holds the entry point and the match loop (:class:`TerminalGame`: deal, turns, the end of each
hand); the rest of the terminal game is split by what it does, each a base class of :class:`TerminalGame`:
:mod:`~brisca.cli.screen` names things and draws the table, :mod:`~brisca.cli.moves` reads and parses a
move, :mod:`~brisca.cli.narration` tells what happened, :mod:`~brisca.cli.helptext` is the help,
:mod:`~brisca.cli.cut` the draws and the cut, and :mod:`~brisca.cli.words` the words typed at the prompts.
"""

from __future__ import annotations

import argparse
import errno
import io
import os
import random
import sys
from collections.abc import Callable, Mapping

from rich.console import Console

from brisca.actions import PASS, Action, Declare, Exchange, Signal
from brisca.agents import LEVELS, Agent, make_agent
from brisca.cards import Lang
from brisca.cli.cut import DrawAndCut, Table, table_rng
from brisca.cli.helptext import HelpScreen
from brisca.cli.moves import MoveReader
from brisca.cli.narration import Narrator
from brisca.cli.words import (
    ARRASTRO_WORDS,
    BID_WORDS,
    CALL_WORDS,
    CLAIM_WORDS,
    CUT_WORDS,
    DECLARE_WORDS,
    DISCARD_WORDS,
    ECHO_MAX,
    EXCHANGE_WORDS,
    HELP_WORDS,
    HINT_WORDS,
    LAST_WORDS,
    PASS_WORDS,
    QUIT_WORDS,
    RANK_WORDS,
    SAY_WORDS,
    SIGNAL_ORDER,
    SIGNAL_WORDS,
    SORT_WORDS,
    TRUMP_WORDS,
    VALE_WORDS,
    Outcome,
    clip,
    signal_key,
    signal_order,
)
from brisca.errors import BriscaError, RulesError
from brisca.game import Match
from brisca.i18n import Messages, default_lang
from brisca.record import MatchRecord, dump
from brisca.rulebook import card_notation
from brisca.rules import make_rules

# The terminal game's names: those defined here, and those of the modules beside it, importable from here too.
__all__ = [
    "ARRASTRO_WORDS", "BID_WORDS", "CALL_WORDS", "CLAIM_WORDS", "CUT_WORDS", "DECLARE_WORDS", "DISCARD_WORDS",
    "ECHO_MAX", "EXCHANGE_WORDS", "HELP_WORDS", "LAST_WORDS", "PASS_WORDS", "QUIT_WORDS", "RANK_WORDS", "SAY_WORDS",
    "SIGNAL_ORDER", "SIGNAL_WORDS", "SORT_WORDS", "TRUMP_WORDS", "VALE_WORDS",
    "Outcome", "Table", "TerminalGame", "agent_seed", "clip", "level_label", "run_play", "save_record",
    "signal_key", "signal_order", "table_rng",
]


def level_label(ai: str) -> str:
    """How computer players are named on screen: by their level (``normal``), also when given as the level's
    agent (``greedy``); other agents by their name without the module (``module:Class`` shows ``Class``)."""
    if ai in LEVELS:
        return ai
    for level, agent in LEVELS.items():
        if ai == agent:
            return level
    return ai.rpartition(":")[2]


class _Console(Console):
    """The terminal's console. Its reader gone mid-match (``brisca play | head``) raises BrokenPipeError like any
    other failed write, so the record is still saved and ``brisca`` ends quietly; rich's own handler would exit
    on the spot."""

    def on_broken_pipe(self) -> None:
        self.quiet = True
        raise BrokenPipeError(errno.EPIPE, os.strerror(errno.EPIPE))


def run_play(args: argparse.Namespace, options: dict[str, object]) -> int:
    """Play a match from the parsed ``brisca play`` arguments; 0 when it ends or the player leaves.

    Bad options raise :class:`BriscaError`, which ``main`` turns into one line on stderr.
    """
    lang: Lang = args.lang or default_lang()
    msg = Messages(lang)
    rules = make_rules(args.variant, options)
    # No --players given: two where the preset allows it, else the one count it is played by.
    players: int = args.players if args.players is not None else (
        2 if 2 in rules.player_counts else rules.player_counts[0]
    )
    rules.check_players(players)
    seat: int = args.seat
    if not 0 <= seat < players:
        raise RulesError(msg("err_bad_seat", seat=seat, players=players, max=players - 1))
    agents = {s: make_agent(args.ai, seed=agent_seed(args.seed, s)) for s in range(players) if s != seat}
    think = getattr(args, "think", None)
    if think is not None:
        if think <= 0:
            raise BriscaError(f"--think must be a positive number of seconds, not {think}")
        for agent in agents.values():
            if hasattr(agent, "think"):
                agent.think = think
    start: Match | Table
    if getattr(args, "no_cut", False):
        start = Match(rules, players, seed=args.seed)
    else:
        start = Table(rules, players, args.seed)
    _tolerant_streams()
    # --no-color: no escape code at all (no colour, and no bold either), as on a terminal without styles.
    console = _Console(
        no_color=args.no_color, highlight=False, markup=False, emoji=False, soft_wrap=not sys.stdout.isatty(),
        color_system=None if args.no_color else "auto",
    )
    save_path: str | None = args.save
    if save_path:  # fail on an unwritable path now, not after a whole match
        if isinstance(start, Match):
            save_record(save_path, start)
        else:
            _check_writable(save_path)
    stdin_is_tty = sys.stdin is not None and sys.stdin.isatty()
    session = TerminalGame(
        start, seat, agents, msg, console, ai_name=level_label(args.ai), name=args.name,
        echo=not stdin_is_tty, checkpoint=(lambda: save_record(save_path, session.match)) if save_path else None,
    )
    try:
        outcome = session.run()
    except KeyboardInterrupt:
        console.print()
        console.print(msg("interrupted"))
        _save_and_report(save_path, session, console, msg)
        return 130
    except Exception:
        if save_path and session.dealt:  # an agent that broke the rules or crashed: keep what was played
            save_record(save_path, session.match)
        raise
    if outcome is Outcome.QUIT:
        console.print(msg("quit"))
    elif outcome is Outcome.EOF:
        console.print()
        console.print(msg("eof"))
    _save_and_report(save_path, session, console, msg)
    return 0


def agent_seed(seed: int | None, seat: int) -> int | None:
    """A seed for the agent at ``seat`` drawn from the match seed, so ``--seed`` fixes the whole game.

    Derived through a string seed (hashed with SHA-512 by :mod:`random`), so seats and
    nearby match seeds get unrelated streams.
    """
    if seed is None:
        return None
    return random.Random(f"brisca-agent:{seed}:{seat}").getrandbits(32)


def save_record(path: str, match: Match) -> None:
    """Write the match as played so far as a ``brisca-record/1`` file."""
    with open(path, "w", encoding="utf-8") as fp:
        dump(MatchRecord.from_match(match), fp)


def _check_writable(path: str) -> None:
    """Raise :class:`OSError` now if ``path`` cannot be written, leaving no file behind."""
    existed = os.path.exists(path)
    with open(path, "a", encoding="utf-8"):
        pass
    if not existed:
        os.remove(path)


def _save_and_report(path: str | None, session: TerminalGame, console: Console, msg: Messages) -> None:
    if path and session.dealt:  # nothing to keep when the player leaves before the first deal
        save_record(path, session.match)
        console.print(msg("saved", path=path))


def _tolerant_streams() -> None:
    """A terminal whose encoding lacks a character (``ñ``, ``·``) gets a ``?``, not a traceback."""
    for stream in (sys.stdout, sys.stdin):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="replace")


class TerminalGame(DrawAndCut, Narrator, MoveReader, HelpScreen):
    """One person against computer players, for a whole match, in a rich console.

    ``match`` is a match already dealt, or a :class:`Table` whose first dealer is
    drawn and whose every deck is cut before it is dealt. ``read_line`` returns the
    next line typed (without its newline) and raises :class:`EOFError` at the end
    of input; ``echo`` repeats the line after the prompt, which keeps a piped
    session's transcript readable; ``checkpoint`` is called after every hand
    (``--save`` writes the record there too).
    """

    def __init__(
        self,
        match: Match | Table,
        seat: int,
        agents: Mapping[int, Agent],
        msg: Messages,
        console: Console,
        *,
        ai_name: str = "",
        name: str | None = None,
        read_line: Callable[[], str] = input,
        echo: bool = False,
        checkpoint: Callable[[], None] | None = None,
    ) -> None:
        self.table = match if isinstance(match, Table) else None
        self._match = match if isinstance(match, Match) else None
        self.seat = seat
        self.agents = agents
        self.msg = msg
        self.lang = msg.lang
        self.console = console
        self.ai_name = ai_name
        self.name = name
        self.read_line = read_line
        self.echo = echo
        self.checkpoint = checkpoint
        self.rules = match.rules
        self.players = match.players
        rules, players = self.rules, self.players
        self.notation = card_notation(rules)
        self.card_lang = self.lang
        self.sorted_hand = False
        self.teams = rules.sides(players) < players
        self.my_side = rules.side_of(seat, players)
        self.player = seat
        self._draw = None
        self._rng = self.table.rng() if self.table is not None else random.Random()
        # The narration's state (see Narrator): nothing told yet.
        self._trump = None
        self._told_actions = 0
        self._told_exchanges = 0
        self._told_tricks = 0
        self._announced = None
        self._offered = None
        self._hand_seen = frozenset()
        self._phase = "play"
        self._contract_told = False
        self._partner_told = False

    def run(self) -> Outcome:
        """Play hands until a side wins the match, the person quits or the input ends."""
        self._welcome()
        if self.rules.partners == "draw":
            self._draw_for_partners()
        self._show_seating()
        if self._match is None:
            stopped = self._first_deal()
            if stopped is not None:
                return stopped
        while True:
            self._start_hand()
            stopped = self._play_hand()
            if stopped is not None:
                return stopped
            self._end_hand()
            if self.checkpoint is not None:
                self.checkpoint()
            if self.match.is_over():
                self._end_match()
                return Outcome.FINISHED
            stopped = self._next_deal()
            if stopped is not None:
                return stopped

    def _play_hand(self) -> Outcome | None:
        game = self.match.game
        while not game.is_over():
            turn = game.turn
            if turn == self.seat and game.legal_actions() == [PASS] and getattr(game, "phase", "") == "mark":
                game.apply(PASS)  # nothing to mark: asked only because a king or knight of the side is down
            elif turn == self.seat:
                stopped = self._human_turn()
                if stopped is not None:
                    return stopped
            else:
                assert turn is not None
                stopped = self._offer_out_of_turn()
                if stopped is not None:
                    return stopped
                if game.turn == turn:  # (an exchange out of turn leaves the turn where it was)
                    game.apply(self.agents[turn].act(game.view(turn)))
            self._narrate()
        return None

    def _offer_out_of_turn(self) -> Outcome | None:
        """Under ``trump_exchange: out_of_turn`` (Encyclopedia: "at any time, even while playing a trick"), while
        another seat is to act, offer the person its exchange: once a trick, and again after the stock changes."""
        view = self.view()
        if not view.out_of_turn or view.face_up is None:
            return None
        moment = (len(view.tricks), view.stock_count)
        if self._offered == moment:
            return None
        self._offered = moment
        action = view.out_of_turn[0]
        assert isinstance(action, Exchange)
        prompt = self.msg("prompt_out_of_turn", give=self.card_str(action.card), take=self.card_str(view.face_up))
        while True:
            line = self._read(prompt)
            if line is None:
                return Outcome.EOF
            key = line.strip().lower()
            if not key:
                return None
            if key in QUIT_WORDS:
                return Outcome.QUIT
            try:
                chosen = action if key in EXCHANGE_WORDS else Action.parse(line.strip(), self.notation)
            except BriscaError:
                chosen = None
            if chosen is not action:
                self._error(self.msg("err_out_of_turn"))
                continue
            self.match.game.apply(action, self.seat)
            self._narrate()
            return None

    def _human_turn(self) -> Outcome | None:
        """Ask until a legal move is applied; wrong input explains itself and leaves the game as it was.

        A signal is made without ending the turn: it is told, and the person moves on.
        """
        self.show_table()
        while True:
            view = self.view()
            line = self._ask(view)
            if line is None:
                return Outcome.EOF
            key = line.strip().lower()
            if not key and view.phase == "mark":
                key, line = "pass", "pass"  # Enter lets the vale go (for now)
            if not key:
                self.show_table()
            elif key in HELP_WORDS:
                self.show_help()
            elif key in QUIT_WORDS:
                return Outcome.QUIT
            elif key in LAST_WORDS:
                self.show_last_trick(view)
            elif key in HINT_WORDS:
                self.show_hint(view)
            elif key in SIGNAL_WORDS and view.phase == "play":
                self.show_signals(view)
            elif key in SORT_WORDS:
                self.sorted_hand = not self.sorted_hand
                self.say("hand_sorted" if self.sorted_hand else "hand_unsorted")
                self.show_table()
            else:
                move = self.parse_move(line.strip(), view)
                if isinstance(move, str):
                    self._error(move)
                    continue
                try:
                    self.match.game.apply(move)
                except BriscaError as exc:
                    self._error(self.msg("err_illegal", reason=exc))
                    continue
                if isinstance(move, Signal | Declare) and self.match.game.turn == self.seat:
                    self._narrate()  # said before playing (or a vale marked, another still to mark): the turn goes on
                    continue
                return None
