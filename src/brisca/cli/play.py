"""``brisca play``: a person plays a whole match in the terminal against computer players.

The person's screen is built only from ``game.view(seat)``, the engine's one
projection of what a seat may see, and computer seats act on their own views:
the terminal can show nothing the rules hide. Input is read a line at a time
with :func:`input`, so a match can be driven through a pipe (the tests do).
"""

from __future__ import annotations

import argparse
import enum
import io
import random
import string
import sys
from collections.abc import Callable, Mapping, Sequence

from rich.console import Console
from rich.text import Text

from brisca.actions import Action, Exchange, Play
from brisca.agents import Agent, make_agent
from brisca.cards import Card, Lang, Suit
from brisca.errors import BriscaError, RulesError
from brisca.game import Match, Trick, View
from brisca.i18n import Messages, default_lang
from brisca.record import MatchRecord, dump

#: Words typed at the prompt, in any of the three languages whatever the chosen one.
HELP_WORDS = frozenset({"?", "h", "help", "ayuda", "aiuto"})
QUIT_WORDS = frozenset({"q", "quit", "exit", "salir", "esci"})
LAST_WORDS = frozenset({"l", "last", "ultima", "última"})
EXCHANGE_WORDS = frozenset({"x", "c", "cambiar", "cambio", "scambia", "scambio", "exchange"})

_SUIT_STYLE: dict[Suit, str] = {
    Suit.OROS: "yellow",
    Suit.COPAS: "red",
    Suit.ESPADAS: "bright_blue",
    Suit.BASTOS: "green",
}
_FORMATTER = string.Formatter()


class Outcome(enum.Enum):
    """How a session ended: the match was played out, the person left, or the input ran dry."""

    FINISHED = "finished"
    QUIT = "quit"
    EOF = "eof"


def run_play(args: argparse.Namespace, options: dict[str, object]) -> int:
    """Play a match from the parsed ``brisca play`` arguments; 0 when it ends or the player leaves.

    Bad options raise :class:`BriscaError`, which ``main`` turns into one line on stderr.
    """
    lang: Lang = args.lang or default_lang()
    msg = Messages(lang)
    match = Match(args.variant, args.players, seed=args.seed, options=options)
    seat: int = args.seat
    if not 0 <= seat < match.players:
        raise RulesError(msg("err_bad_seat", seat=seat, players=match.players, max=match.players - 1))
    agents = {s: make_agent(args.ai, seed=agent_seed(args.seed, s)) for s in range(match.players) if s != seat}
    _tolerant_streams()
    console = Console(
        no_color=args.no_color, highlight=False, markup=False, emoji=False, soft_wrap=not sys.stdout.isatty()
    )
    save_path: str | None = args.save
    if save_path:
        save_record(save_path, match)  # fail on an unwritable path now, not after a whole match
    stdin_is_tty = sys.stdin is not None and sys.stdin.isatty()
    session = TerminalGame(
        match, seat, agents, msg, console, ai_name=args.ai.rpartition(":")[2], name=args.name,
        echo=not stdin_is_tty, checkpoint=(lambda: save_record(save_path, match)) if save_path else None,
    )
    try:
        outcome = session.run()
    except KeyboardInterrupt:
        console.print()
        console.print(msg("interrupted"))
        _save_and_report(save_path, match, console, msg)
        return 130
    except Exception:
        if save_path:  # an agent that broke the rules or crashed: keep what was played
            save_record(save_path, match)
        raise
    if outcome is Outcome.QUIT:
        console.print(msg("quit"))
    elif outcome is Outcome.EOF:
        console.print()
        console.print(msg("eof"))
    _save_and_report(save_path, match, console, msg)
    return 0


def agent_seed(seed: int | None, seat: int) -> int | None:
    """A seed for the agent at ``seat`` drawn from the match seed, so ``--seed`` fixes the whole game.

    Derived through a string seed (hashed with SHA-512 by :mod:`random`), so seats and
    nearby match seeds get unrelated streams.
    """
    if seed is None:
        return None
    return random.Random(f"brisca-agent:{seed}:{seat}").getrandbits(32)


def _card_of(action: Action) -> Card | None:
    """The card an action names, if any (plays, exchanges and the card actions of variants)."""
    card = getattr(action, "card", None)
    return card if isinstance(card, Card) else None


def save_record(path: str, match: Match) -> None:
    """Write the match as played so far as a ``brisca-record/1`` file."""
    with open(path, "w", encoding="utf-8") as fp:
        dump(MatchRecord.from_match(match), fp)


def _save_and_report(path: str | None, match: Match, console: Console, msg: Messages) -> None:
    if path:
        save_record(path, match)
        console.print(msg("saved", path=path))


def _tolerant_streams() -> None:
    """A terminal whose encoding lacks a character (``ñ``, ``·``) gets a ``?``, not a traceback."""
    for stream in (sys.stdout, sys.stdin):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="replace")


class TerminalGame:
    """One person against computer players, for a whole match, in a rich console.

    ``read_line`` returns the next line typed (without its newline) and raises
    :class:`EOFError` at the end of input; ``echo`` repeats the line after the
    prompt, which keeps a piped session's transcript readable; ``checkpoint`` is
    called after every hand (``--save`` writes the record there too).
    """

    def __init__(
        self,
        match: Match,
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
        self.match = match
        self.seat = seat
        self.agents = agents
        self.msg = msg
        self.lang: Lang = msg.lang
        self.console = console
        self.ai_name = ai_name
        self.name = name
        self.read_line = read_line
        self.echo = echo
        self.checkpoint = checkpoint
        rules, players = match.rules, match.players
        self.teams = rules.sides(players) < players
        self.my_side = rules.side_of(seat, players)
        # Per-hand narration state: how much of the view's public history has been told.
        self._trump: Suit = match.game.trump
        self._told_actions = 0
        self._told_exchanges = 0
        self._told_tricks = 0
        self._hand_seen: frozenset[Card] = frozenset()

    # ------------------------------------------------------------------ the match

    def run(self) -> Outcome:
        """Play hands until a side wins the match, the person quits or the input ends."""
        self._welcome()
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
            self.match.next_hand()

    def view(self) -> View:
        """The person's view of the current hand: everything on their screen comes from here."""
        return self.match.game.view(self.seat)

    def _play_hand(self) -> Outcome | None:
        game = self.match.game
        while not game.is_over():
            turn = game.turn
            if turn == self.seat:
                stopped = self._human_turn()
                if stopped is not None:
                    return stopped
            else:
                assert turn is not None
                game.apply(self.agents[turn].act(game.view(turn)))
            self._narrate()
        return None

    def _human_turn(self) -> Outcome | None:
        """Ask until a legal move is applied; wrong input explains itself and leaves the game as it was."""
        self.show_table()
        while True:
            view = self.view()
            line = self._ask(view)
            if line is None:
                return Outcome.EOF
            key = line.strip().lower()
            if not key:
                self.show_table()
            elif key in HELP_WORDS:
                self.show_help()
            elif key in QUIT_WORDS:
                return Outcome.QUIT
            elif key in LAST_WORDS:
                self.show_last_trick(view)
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
                return None

    def _ask(self, view: View) -> str | None:
        extra = self.msg("prompt_exchange") if any(isinstance(a, Exchange) for a in view.legal_actions) else ""
        example = str(view.hand[0]) if view.hand else "3O"
        prompt = self.msg("prompt", n=len(view.hand), example=example, exchange=extra)
        self.console.print(Text(prompt, style="bold"), end="")
        self.console.file.flush()
        try:
            line = self.read_line()
        except EOFError:
            return None
        if self.echo:
            self.console.print(line)
        return line

    # ------------------------------------------------------------------ input

    def parse_move(self, text: str, view: View) -> Action | str:
        """The action ``text`` asks for, or the message explaining why it cannot be one.

        Only what the screen can explain (a position, a card not held, the exchange) is
        checked here; anything else is left to the engine, whose refusal is shown.
        """
        hand = view.hand
        key = text.lower()
        action: Action
        if key.isascii() and key.isdecimal():
            n = int(key)
            if not 1 <= n <= len(hand):
                return self.msg("err_position", n=key, max=len(hand))
            action = Play(hand[n - 1])
        elif key in EXCHANGE_WORDS:
            return self.exchange_move(view)
        else:
            try:
                action = Action.parse(text)
            except BriscaError:
                return self.msg("err_unknown", text=text, max=len(hand))
        if isinstance(action, Exchange):
            legal = self.exchange_move(view)
            if isinstance(legal, Exchange) and legal is not action:
                return self.msg("err_need_card", take=self.card_str(legal.card), give=self.card_str(action.card))
            return legal
        card = _card_of(action)
        if card is not None and card not in hand:
            return self.msg("err_not_held", card=self.card_str(card))
        plays = [a.card for a in view.legal_actions if isinstance(a, Play)]
        if isinstance(action, Play) and plays and action.card not in plays:  # a duty of these rules
            return self.msg("err_must_play", card=self.card_str(action.card), cards=", ".join(map(str, plays)))
        return action

    def exchange_move(self, view: View) -> Action | str:
        """The legal trump exchange, or why there is none now (worked out from the view and the rules)."""
        for action in view.legal_actions:
            if isinstance(action, Exchange):
                return action
        rules = view.rules
        face = view.face_up
        if rules.trump_exchange == "off":
            return self.msg("err_exchange_off")
        if face is None:
            return self.msg("err_no_face_up")
        give = rules.exchange_table[face.index]
        if give is None:
            return self.msg("err_face_up_fixed", card=self.card_str(face))
        if give not in view.hand:
            return self.msg("err_need_card", take=self.card_str(face), give=self.card_str(give))
        if rules.trump_exchange == "after_win" and not any(t.winner == view.seat for t in view.tricks):
            return self.msg("err_must_win")
        return self.msg("err_exchange_not_now")

    # ------------------------------------------------------------------ names

    def label(self, seat: int) -> str:
        """How a seat is named on screen: the person's name or "You", else "Seat 2 (greedy, partner)"."""
        if seat == self.seat:
            return self.name or self.msg("you")
        tags = [self.ai_name] if self.ai_name else []
        if self.teams and self.match.rules.side_of(seat, self.match.players) == self.my_side:
            tags.append(self.msg("partner"))
        base = self.msg("seat", n=seat)
        return f"{base} ({', '.join(tags)})" if tags else base

    def side_label(self, side: int) -> str:
        """A side's name: a seat's label when each plays alone, else "Your side (seats 0, 2)"."""
        if not self.teams:
            return self.label(side)
        rules, players = self.match.rules, self.match.players
        seats = ", ".join(str(s) for s in range(players) if rules.side_of(s, players) == side)
        key = "your_side" if side == self.my_side else "other_side"
        return f"{self.msg(key)} ({self.msg('seats', seats=seats)})"

    def card_str(self, card: Card) -> str:
        """A card as notation and name, ``3O tres de oros``."""
        return f"{card} {card.name(self.lang)}"

    def card_text(self, card: Card, *, mark: bool = True) -> Text:
        """A card in its suit's colour; a trump is bold and tagged so it shows without colour too."""
        text = Text(self.card_str(card), style=_SUIT_STYLE[card.suit])
        if mark and card.suit is self._trump:
            text.append(f" ({self.msg('trump_tag')})")
            text.stylize("bold")
        return text

    def _points_text(self, points: Sequence[int]) -> str:
        return " · ".join(f"{self.side_label(side)} {p}" for side, p in enumerate(points))

    # ------------------------------------------------------------------ output

    def say(self, key: str, style: str = "", **fields: object) -> None:
        """Print a message whose fields may be styled :class:`Text` (cards in their colours)."""
        self.console.print(self.styled(key, **fields), style=style)

    def styled(self, key: str, **fields: object) -> Text:
        """The message ``key`` as :class:`Text`, keeping the style of fields that are Text."""
        out = Text()
        for literal, field, _spec, _conv in _FORMATTER.parse(self.msg.template(key)):
            out.append(literal)
            if field is not None:
                value = fields[field]
                out.append(value if isinstance(value, Text) else str(value))
        return out

    def _error(self, message: str) -> None:
        self.console.print(Text(message, style="bold red"))

    def _welcome(self) -> None:
        match = self.match
        rules = match.rules
        self.say("welcome", style="bold", title=rules.title, players=match.players, seat=self.seat)
        self.console.print(self.msg("seating"))
        for s in range(match.players):
            you = f" ({self.msg('you')})" if s == self.seat and self.name else ""
            self.console.print(f"  {s}  {self.label(s)}{you}")
        partners = match.game.view(self.seat).partners()
        if partners:
            self.say("partners", who=", ".join(self.label(s) for s in partners))

    def _start_hand(self) -> None:
        view = self.view()
        self._trump = view.trump
        self._told_actions = self._told_exchanges = self._told_tricks = 0
        self._hand_seen = frozenset(view.hand)
        self.console.print()
        suit = Text(view.trump.name_in(self.lang), style=f"bold {_SUIT_STYLE[view.trump]}")
        hand, dealer = len(self.match.games), self.label(view.dealer)
        if view.turned is None:  # trumps chosen without turning a card (trump rotation)
            self.say("new_hand_no_turn", style="bold", hand=hand, who=dealer, suit=suit)
        else:
            self.say("new_hand", style="bold", hand=hand, who=dealer, suit=suit,
                     card=self.card_text(view.turned, mark=False))

    def show_table(self) -> None:
        """Draw the person's side of the table, from their view only."""
        view = self.view()
        msg = self.msg
        self.console.print()
        self.console.rule(Text(msg("header", hand=len(self.match.games), trick=len(view.tricks) + 1), style="bold"))
        rows: list[tuple[str, Text | str]] = [
            (msg("trump"), Text(view.trump.name_in(self.lang), style=f"bold {_SUIT_STYLE[view.trump]}")),
        ]
        if view.face_up is not None:
            face_up = self.card_text(view.face_up, mark=False)
            rows.append((msg("stock"), self.styled("stock_face_up", count=view.stock_count, card=face_up)))
        elif view.stock_count:
            rows.append((msg("stock"), msg("stock_count", count=view.stock_count)))
        else:
            rows.append((msg("stock"), msg("stock_empty")))
        rows.append((msg("points"), self._points_text(view.side_points)))
        rows.append(self.match_score())
        if view.tricks:
            last = view.tricks[-1]
            won_with = self.card_text(self._winning_card(last, view))
            rows.append((msg("last_trick"), self.styled(
                "last_trick_line", who=self.label(last.winner), card=won_with, points=last.points
            )))
        else:
            rows.append((msg("last_trick"), msg("none_yet")))
        if view.trick:
            for i, (seat, card) in enumerate(zip(view.trick_seats(), view.trick, strict=True)):
                played = Text(f"{self.label(seat)}: ").append(self.card_text(card))
                rows.append((msg("on_table") if i == 0 else "", played))
        else:
            rows.append((msg("on_table"), msg("empty_table")))
        partners = view.partners()
        if partners:
            rows.append((msg("partners_row"), ", ".join(self.label(s) for s in partners)))
        rows.append((msg("turn"), self.label(view.turn) if view.turn is not None else "-"))
        width = max(len(name) for name, _value in rows) + 2
        for name, value in rows:
            self.console.print(Text().append(name.ljust(width), style="bold").append(value))
        self.console.print(Text(f"{msg('your_hand')}:", style="bold"))
        plays = {a.card for a in view.legal_actions if isinstance(a, Play)}
        for i, card in enumerate(view.hand, 1):
            line = Text(f"  [{i}] ").append(self.card_text(card))
            if view.legal_actions and card not in plays:
                line.append(f" ({msg('not_playable')})", style="dim")
            self.console.print(line)
        for action in view.legal_actions:
            if isinstance(action, Exchange) and view.face_up is not None:
                option = self.styled(
                    "exchange_option", give=self.card_text(action.card, mark=False),
                    take=self.card_text(view.face_up, mark=False),
                )
                self.console.print(Text("  [x] ").append(option))
            elif not isinstance(action, Play):
                self.console.print(Text(f"  [{action}]"))

    def show_help(self) -> None:
        """Keys and a summary of the rules in play (ranks, points, exchange, duty to follow), read from the rules."""
        rules = self.match.rules
        msg = self.msg
        suits = ", ".join(f"{s.letter} {s.name_in(self.lang)}" for s in Suit)
        by_rank = dict(rules.points)
        points = ", ".join(f"{rank}={by_rank[rank]}" for rank in rules.strength_order() if by_rank.get(rank))
        order = rules.strength_order()
        ranks = set(order)
        pairs = [
            msg("exchange_rule", give=give, take=" ".join(str(r) for r in taken if r in ranks))
            for give, taken in rules.exchange_with
            if give in ranks
        ]
        if rules.trump_exchange == "off" or not pairs:
            exchange = msg("exchange_none")
        else:
            when = msg("exchange_after_win") if rules.trump_exchange == "after_win" else rules.trump_exchange
            exchange = f"{'; '.join(pairs)} ({when})."
        label, goal = self._match_goal()
        follow = msg(f"follow_{rules.follow}") if f"follow_{rules.follow}" in msg else rules.follow
        if rules.follow != "none" and rules.follow_from == "empty_stock":
            follow = msg("follow_empty_stock", rule=follow)
        self.console.print(msg(
            "help", suits=suits, order=" ".join(map(str, order)), points=points, follow=follow,
            exchange=exchange, goal=goal, label=label.lower(),
        ))

    def show_last_trick(self, view: View) -> None:
        """Show the last finished trick of this hand again: each card with who played it, and who won."""
        if not view.tricks:
            self.console.print(self.msg("last_none"))
            return
        trick = view.tricks[-1]
        self.say("last_header", who=self.label(trick.leader))
        for i, card in enumerate(trick.cards):
            line = Text(f"  {self.label(trick.seat_of(i, view.players))}: ")
            line.append(self.card_text(card))
            self.console.print(line)
        self._tell_trick(trick, view)

    # ------------------------------------------------------------------ narration

    def _narrate(self) -> None:
        """Tell what happened since the last call, from the person's view: moves, then a finished trick."""
        view = self.view()
        for seat, action in view.history[self._told_actions:]:
            self._tell_action(seat, action, view)
        self._told_actions = len(view.history)
        finished = view.tricks[self._told_tricks:]
        for trick in finished:
            self._tell_trick(trick, view)
        self._told_tricks = len(view.tricks)
        if finished:
            for card in view.hand:
                if card not in self._hand_seen:
                    self.say("you_draw", card=self.card_text(card))
        self._hand_seen = frozenset(view.hand)

    def _tell_action(self, seat: int, action: Action, view: View) -> None:
        you = seat == self.seat
        if isinstance(action, Exchange):
            event = view.exchanges[self._told_exchanges]
            self._told_exchanges += 1
            give, take = self.card_text(event.given, mark=False), self.card_text(event.taken, mark=False)
            if you:
                self.say("you_exchange", give=give, take=take)
            else:
                self.say("exchanges", who=self.label(seat), give=give, take=take)
            return
        card = _card_of(action)
        if card is None:  # an action of a variant that plays no card: its notation says what it is
            self.say("you_act" if you else "acts", who=self.label(seat), action=str(action))
            return
        shown = self.card_text(card)
        if not isinstance(action, Play):  # a play with something more (an arrastro): keep its notation
            shown.append(f" [{action}]")
        if you:
            self.say("you_play", card=shown)
        else:
            self.say("plays", who=self.label(seat), card=shown)

    def _tell_trick(self, trick: Trick, view: View) -> None:
        card = self.card_text(self._winning_card(trick, view))
        if trick.winner == self.seat:
            self.say("you_win_trick", style="bold", card=card, points=trick.points)
        else:
            self.say("wins_trick", style="bold", who=self.label(trick.winner), card=card, points=trick.points)

    @staticmethod
    def _winning_card(trick: Trick, view: View) -> Card:
        for i, card in enumerate(trick.cards):
            if trick.seat_of(i, view.players) == trick.winner:
                return card
        raise AssertionError("the winner of a trick played a card in it")  # pragma: no cover

    def _end_hand(self) -> None:
        view = self.view()
        result = view.result
        assert result is not None
        self.console.rule()
        self.say("hand_over", style="bold", hand=len(self.match.games), points=self._points_text(result.side_points))
        if result.winner is None:
            self.say("hand_replay" if result.replay else "hand_draw", style="bold")
        elif result.winner == self.my_side:
            self.say("hand_won_you", style="bold green")
        else:
            self.say("hand_won", style="bold", who=self.side_label(result.winner))
        label, score = self.match_score()
        self.console.print(f"{label}: {score}.")
        self.console.print()

    def match_score(self) -> tuple[str, str]:
        """The match standing as the rules count it (hands won, or points over the hands) and the goal."""
        label, goal = self._match_goal()
        score = self.match.points if self.match.rules.match == "target_points" else self.match.hands_won
        return label, f"{self._points_text(score)} ({goal})"

    def _match_goal(self) -> tuple[str, str]:
        rules, msg = self.match.rules, self.msg
        if rules.match == "target_points":
            label, target = msg("match_points"), rules.target_points
        else:
            label, target = msg("hands_won"), rules.target_hands
        if rules.trump_rotation:
            return label, msg("goal_rotation", deal=min(len(self.match.games), 4))
        return label, msg("goal_target", target=target)

    def _end_match(self) -> None:
        winner = self.match.winner
        self.console.rule()
        if winner is None:  # a match of a fixed number of deals can end level
            self.say("match_level", style="bold")
        elif winner == self.my_side:
            self.say("match_over", style="bold", who=self.side_label(winner))
            self.say("match_won_you", style="bold green")
        else:
            self.say("match_over", style="bold", who=self.side_label(winner))
            self.say("match_lost", style="bold")
