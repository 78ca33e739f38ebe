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
"""

from __future__ import annotations

import argparse
import enum
import errno
import io
import os
import random
import re
import string
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from rich.console import Console
from rich.text import Text

from brisca.actions import (
    CUT_WAYS,
    PASS,
    SIGNAL_SETS,
    SIGNALS,
    Action,
    Announce,
    Arrastro,
    Bid,
    Call,
    Claim,
    Cut,
    Declare,
    Discard,
    Exchange,
    Pass,
    Play,
    RankBid,
    Signal,
    TrumpChoice,
)
from brisca.agents import LEVELS, Agent, make_agent
from brisca.cards import ITALIAN, LANGS, SPANISH, Card, Lang, Rank, Suit
from brisca.errors import BriscaError, InvalidCardError, RulesError
from brisca.game import (
    MIN_CUT,
    Contract,
    HandResult,
    Match,
    PartnerDraw,
    Trick,
    View,
    cut,
    draw_for_dealer,
    draw_for_partners,
    draw_leaders,
    shuffled,
)
from brisca.i18n import Messages, default_lang
from brisca.record import MatchRecord, dump
from brisca.rulebook import SIGNAL_NAMES, card_notation
from brisca.rules import Rules, make_rules

#: Words typed at the prompt, in any of the three languages whatever the chosen one.
HELP_WORDS = frozenset({"?", "h", "help", "ayuda", "aiuto"})
QUIT_WORDS = frozenset({"q", "quit", "exit", "salir", "esci"})
LAST_WORDS = frozenset({"l", "last", "ultima", "última"})
EXCHANGE_WORDS = frozenset({"x", "c", "cambiar", "cambio", "scambia", "scambio", "exchange"})
ARRASTRO_WORDS = frozenset({"a", "arrastro", "arrastre"})
CLAIM_WORDS = frozenset({"r", "claim", "reclamar", "reclamo", "rivendica"})
#: Sorting the hand by suit and rank, and back. ``g`` (group): ``o`` and ``s`` name suits at the trump prompt.
SORT_WORDS = frozenset({"g", "sort", "ordenar", "ordena", "ordina", "ordinare"})
#: Words that may stand before a signal's name: ``signal trump-ace``, ``seña as de triunfo``.
SIGNAL_WORDS = ("signal", "seña", "sena", "segnale")
_SIGNAL_KEY = re.compile(r"s(\d+)")
#: A card written with the number 10, which the Italian notation does not read (see brisca.cards).
_TEN = re.compile(r"(?<![0-9])10([ocebds])(?![a-z])")
#: The games with an auction: words for a pass, and words that may stand before a bid, a rank, a discard,
#: a trump, a call or a declaration (``bid 110``, ``puja 110``, ``descarto 1 2``, ``chiamo 3O``, ``canto O``).
PASS_WORDS = frozenset({"p", "pass", "paso", "pasar", "passo"})
BID_WORDS = ("bid", "puja", "pujo", "apuesto", "offro", "offerta")
RANK_WORDS = ("rank", "rango", "valore")
DISCARD_WORDS = ("discard", "descarto", "descartar", "scarto", "scarta")
TRUMP_WORDS = ("trump", "triunfo", "pinta", "briscola")
CALL_WORDS = ("call", "llamo", "llamar", "chiamo", "chiama")
DECLARE_WORDS = ("declare", "canto", "cantar", "accuso", "accusa", "dichiaro")
#: Words that say a signal aloud (``signals: combination``): ``say s1``, ``digo briscas``.
SAY_WORDS = ("say", "aloud", "digo", "decir", "dico", "dire")
#: Words that name the way the cutter has the deck dealt, besides the way itself (``cut golpe``, ``corto 2``).
CUT_WORDS = ("cut", "corto", "cortar", "alzo", "alzar", "taglio", "taglia")
#: Words that mark a vale, besides the declaration words (``vale``, ``vale O``).
VALE_WORDS = ("vale", "lata", "v")
#: The signals in a fixed order: ``s1`` is always the first (``trump-ace``), whatever is offered.
SIGNAL_ORDER: tuple[str, ...] = SIGNAL_SETS["spanish"]

_SUIT_STYLE: dict[Suit, str] = {
    Suit.OROS: "yellow",
    Suit.COPAS: "red",
    Suit.ESPADAS: "bright_blue",
    Suit.BASTOS: "green",
}
_FORMATTER = string.Formatter()
#: Typed text quoted back in an error message is cut to this many characters.
ECHO_MAX = 40


def clip(text: str, limit: int = ECHO_MAX) -> str:
    """``text`` cut to ``limit`` characters with an ellipsis: bad input is quoted back, not pasted back whole."""
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _number(digits: str) -> int:
    """A typed number; one too long to be any position, cut or bid reads as a huge one (not a million digits)."""
    return int(digits) if len(digits) <= 9 else 10**9


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
    console = _Console(
        no_color=args.no_color, highlight=False, markup=False, emoji=False, soft_wrap=not sys.stdout.isatty()
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


def _derived_seed(seed: int | None, what: str) -> int | None:
    """A seed for one use (``what``) drawn from the match seed, unrelated to the seed's other uses."""
    if seed is None:
        return None
    return random.Random(f"brisca-{what}:{seed}").getrandbits(32)


def table_rng(seed: int | None) -> random.Random:
    """The random source of the table (the draw for the dealer, the computers' cuts, random cuts)."""
    return random.Random(_derived_seed(seed, "table"))


@dataclass(frozen=True)
class Table:
    """A match still to be dealt the way a real table deals it: a draw for the dealer, then a cut.

    The first deck is ``shuffled(rules.deck_cards(players), seed)``, the deck ``Match(seed=seed)``
    deals uncut; the draw and the computers' cuts come from :func:`table_rng`, later decks from
    the match's own source, seeded from ``seed`` too: the same seed and input give the same game.
    """

    rules: Rules
    players: int
    seed: int | None = None

    def first_deck(self) -> tuple[Card, ...]:
        """The shuffled deck of the first hand, before the cut."""
        return shuffled(self.rules.deck_cards(self.players), self.seed)

    def rng(self) -> random.Random:
        return table_rng(self.seed)

    def deal(self, dealer: int, deck: Sequence[Card], draw: PartnerDraw | None = None) -> Match:
        """The match, its first hand dealt by ``dealer`` from ``deck`` (already cut), after ``draw`` if any."""
        return Match(self.rules, self.players, dealer=dealer, seed=_derived_seed(self.seed, "match"), deck=deck,
                     draw=draw)


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


class TerminalGame:
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
        self.lang: Lang = msg.lang
        self.console = console
        self.ai_name = ai_name
        self.name = name
        self.read_line = read_line
        self.echo = echo
        self.checkpoint = checkpoint
        self.rules: Rules = match.rules
        self.players: int = match.players
        rules, players = self.rules, self.players
        #: Cards are written in the deck's notation (Italian for the briscola family: ``RD``) and named in the
        #: language of the screen (``re di denari``, ``rey de oros``, ``king of coins``), whatever the deck.
        self.notation = card_notation(rules)
        #: The language cards are named in: the screen's, for every deck.
        self.card_lang: Lang = self.lang
        #: Whether the hand is shown sorted by suit and rank (toggled with ``g``) or in the order it came in.
        self.sorted_hand = False
        self.teams = rules.sides(players) < players
        self.my_side = rules.side_of(seat, players)
        #: The person's place before a draw for partners (``seat`` is then where the draw seats them).
        self.player = seat
        self._draw: PartnerDraw | None = None
        self._rng = self.table.rng() if self.table is not None else random.Random()
        # Per-hand narration state: how much of the view's public history has been told.
        self._trump: Suit | None = None
        self._told_actions = 0
        self._told_exchanges = 0
        self._told_tricks = 0
        #: The trump laid under the face-up card as last told (``trump_exchange: announced``).
        self._announced: tuple[int, Card] | None = None
        #: When the exchange out of turn was last offered (tricks, stock): offered once a trick, not at every move.
        self._offered: tuple[int, int] | None = None
        self._hand_seen: frozenset[Card] = frozenset()
        # Games with an auction: the phase last told, and whether the contract and the partner have been told.
        self._phase = "play"
        self._contract_told = False
        self._partner_told = False

    @property
    def match(self) -> Match:
        """The match being played (once the first hand is dealt)."""
        if self._match is None:
            raise RuntimeError("the first hand has not been dealt yet")
        return self._match

    @property
    def dealt(self) -> bool:
        """Whether the first hand has been dealt (a :class:`Table` deals it in :meth:`run`)."""
        return self._match is not None

    # ------------------------------------------------------------------ the match

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

    def view(self) -> View:
        """The person's view of the current hand: everything on their screen comes from here."""
        return self.match.game.view(self.seat)

    # ------------------------------------------------------------------ the draw and the cut

    def _first_deal(self) -> Outcome | None:
        """Draw for the dealer (unless the draw for partners chose him), have the deck cut, deal the first hand."""
        assert self.table is not None
        if self._draw is not None:
            dealer = self._draw.dealer
        else:
            dealer, rounds = draw_for_dealer(self.rules, self.players, self._rng)
            self._tell_draw(rounds)
        deck = self.table.first_deck()
        at = self._cut(dealer, len(deck))
        if isinstance(at, Outcome):
            return at
        self._match = self.table.deal(dealer, cut(deck, at), self._draw)
        return None

    def _draw_for_partners(self) -> None:
        """``partners: draw``: show the draw (the match's, or the table's own), then seat everybody by it."""
        draw = self._match.draw if self._match is not None else draw_for_partners(self.rules, self.players, self._rng)
        assert draw is not None
        self._draw = draw
        self.console.print()
        self.say("draw_partners_header" if self.teams else "draw_seats_header", style="bold")
        for i, drawn in enumerate(draw.rounds):
            if i:
                self.say("draw_tie", who=", ".join(self.player_label(p) for p, _c in drawn))
            for player, card in drawn:
                self.console.print(Text(f"  {self.player_label(player)}: ").append(self.card_text(card, mark=False)))
        if self.teams:
            half = self.players // 2
            self.say("draw_sides", high=" + ".join(self.player_label(p) for p in draw.order[:half]),
                     low=" + ".join(self.player_label(p) for p in draw.order[half:]))
        self.say("draw_dealer", style="bold", who=self.player_label(draw.order[0]))
        for player in draw.order:
            self.say("draw_seat", who=self.player_label(player), seat=draw.seating[player])
        self.seat = draw.seating[self.player]
        self.my_side = self.rules.side_of(self.seat, self.players)
        self.agents = {draw.seating[p]: agent for p, agent in self.agents.items()}

    def player_label(self, player: int) -> str:
        """A player before the draw seats him: the person's name or "You", else "Player 2"."""
        return (self.name or self.msg("you")) if player == self.player else self.msg("player", n=player)

    def _next_deal(self) -> Outcome | None:
        """Deal the next hand: shuffled, cut by the player to the new dealer's left (at a table)."""
        match = self.match
        if self.table is None:
            match.next_hand()
            return None
        deck = match.shuffle()
        at = self._cut(match.next_dealer, len(deck))
        if isinstance(at, Outcome):
            return at
        match.next_hand(deck=cut(deck, at))
        return None

    def _tell_draw(self, rounds: Sequence[Sequence[Card]]) -> None:
        """Show each round of the draw for the dealer: ties for the highest card draw again."""
        drawing = list(range(self.players))
        self.console.print()
        self.say("draw_header_face" if self.rules.dealer_draw == "face_value" else "draw_header", style="bold")
        for i, cards in enumerate(rounds):
            if i:
                self.say("draw_again", who=", ".join(self.label(s) for s in drawing))
            for seat, card in zip(drawing, cards, strict=True):
                self.console.print(Text(f"  {self.label(seat)}: ").append(self.card_text(card, mark=False)))
            drawing = draw_leaders(self.rules, self.players, drawing, cards)
        self.say("draw_dealer", style="bold", who=self.label(drawing[0]))

    def _cut(self, dealer: int, size: int) -> int | Outcome:
        """How many cards the cutter (``cutter``: the player to the dealer's left, or his right) cuts: asked of the
        person, drawn for a computer."""
        cutter = (dealer + (1 if self.rules.cutter == "right" else -1)) % self.players
        low, high = MIN_CUT, size - MIN_CUT
        if cutter != self.seat:
            at = self._rng.randint(low, high)
            self.say("cuts", who=self.label(cutter), at=at)
            return at
        while True:
            line = self._read(self.msg("cut_prompt", dealer=self.label(dealer), min=low, max=high))
            if line is None:
                return Outcome.EOF
            key = line.strip().lower()
            if key in QUIT_WORDS:
                return Outcome.QUIT
            if not key:
                at = self._rng.randint(low, high)
            elif key.isascii() and key.isdecimal() and low <= _number(key) <= high:
                at = int(key)
            else:
                self._error(self.msg("err_cut", text=clip(line.strip()), min=low, max=high))
                continue
            self.say("you_cut", at=at)
            return at

    # ------------------------------------------------------------------ a hand

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
        """Under ``trump_exchange: out_of_turn`` (000: "at any time, even while playing a trick"), while another
        seat is to act, offer the person its exchange: once a trick, and again after the stock changes."""
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

    def _ask(self, view: View) -> str | None:
        if view.phase not in ("play",):
            return self._read(self.auction_prompt(view))
        legal = view.legal_actions
        extra = self.msg("prompt_exchange") if any(isinstance(a, Exchange) for a in legal) else ""
        if any(isinstance(a, Announce) for a in legal):
            extra = self.msg("prompt_announce")
        if any(isinstance(a, Arrastro) for a in legal):
            extra += self.msg("prompt_arrastro")
        if any(isinstance(a, Claim) for a in legal):
            extra += self.msg("prompt_claim")
        signals = [signal_key(a.name, view.rules) for a in legal if isinstance(a, Signal) and not a.aloud]
        if signals:
            extra += self.msg("prompt_signal", keys="/".join(signals))
        if any(isinstance(a, Signal) and a.aloud for a in legal):
            extra += self.msg("prompt_say")
        declares = [a.text(self.notation) for a in legal if isinstance(a, Declare)]
        if declares:
            extra += self.msg("prompt_declare", keys=" / ".join(declares))
        return self._read(self.msg("prompt", n=len(view.hand), example=self.example(view), exchange=extra))

    def example(self, view: View) -> str:
        """A card to show as an example of the notation: the first one shown in the person's hand."""
        hand = self.shown_hand(view)
        return (hand[0] if hand else Card(Rank.THREE, Suit.OROS)).text(self.notation)

    def shown_hand(self, view: View) -> tuple[Card, ...]:
        """The person's hand in the order the screen shows it (and positions count): as it came in, or sorted
        by suit (trumps first) and, within a suit, from the highest card to the lowest in these rules."""
        if not self.sorted_hand:
            return view.hand
        strength = view.rules.strength_table
        trump = view.trump
        return tuple(sorted(view.hand, key=lambda c: (c.suit is not trump, c.suit, -strength[c.index])))

    def _read(self, prompt: str) -> str | None:
        """Show ``prompt`` and read a line; ``None`` at the end of input."""
        self.console.print(Text(prompt, style="bold"), end="")
        self.console.file.flush()
        try:
            line = self.read_line()
        except EOFError:
            return None
        if self.echo:
            self.console.print(clip(line))
        return line

    # ------------------------------------------------------------------ input

    def parse_move(self, text: str, view: View) -> Action | str:
        """The action ``text`` asks for, or the message explaining why it cannot be one.

        Only what the screen can explain (a position, a card not held, the exchange, a
        signal, arrastro, a claim, a duty of play) is checked here; anything else is
        left to the engine, whose refusal is shown.
        """
        if view.phase != "play":
            return self.parse_auction(text, view)
        hand = self.shown_hand(view)
        key = text.lower()
        action: Action
        declared = _after_word(" ".join(key.split()), DECLARE_WORDS)
        if declared is not None:
            return self.declare_move(declared, text, view)
        if key.isascii() and key.isdecimal():
            n = _number(key)
            if not 1 <= n <= len(hand):
                return self.msg("err_position", n=clip(key), max=len(hand))
            action = Play(hand[n - 1])
        elif key in EXCHANGE_WORDS:
            return self.exchange_move(view)
        elif key in ARRASTRO_WORDS:
            return self.arrastro_move(view)
        elif key in CLAIM_WORDS:
            return self.claim_move(view)
        else:
            said = _after_word(" ".join(key.split()), SAY_WORDS)
            signal = self.signal_move(text if said is None else said, view, aloud=said is not None)
            if signal is not None:
                return signal
            ten = self.ambiguous_ten(text)
            if ten is not None:
                return ten
            try:
                action = Action.parse(text, self.notation)
            except BriscaError:
                return self.msg("err_unknown", text=clip(text), max=len(hand), example=self.example(view))
        if isinstance(action, Call) and view.call_pending:
            return self.msg("err_call_after_first_trick")
        if isinstance(action, Bid | RankBid | Pass | Discard | TrumpChoice | Call):
            return self.msg("err_auction_over" if view.rules.auction else "err_no_auction")
        if isinstance(action, Exchange | Announce):
            legal = self.exchange_move(view)
            if isinstance(legal, Exchange | Announce) and legal.card is not action.card:
                return self.msg("err_need_card", take=self.card_str(view.face_up or legal.card),
                                give=self.card_str(legal.card))
            return legal
        card = _card_of(action)
        if card is not None and card not in hand:
            return self.msg("err_not_held", card=self.card_str(card))
        if isinstance(action, Arrastro) and action not in view.legal_actions:
            return self.arrastro_move(view)
        plays = [a.card for a in view.legal_actions if isinstance(a, Play)]
        if isinstance(action, Play) and plays and action.card not in plays:  # a duty of these rules
            return self.duty_message(action.card, plays, view)
        return action

    def ambiguous_ten(self, text: str) -> str | None:
        """Why a card written with 10 is refused in the Italian notation (the fante, or the re counted 10?),
        naming both cards it could be; ``None`` when ``text`` writes no such card."""
        found = _TEN.search(text.lower()) if self.notation is ITALIAN else None
        if found is None:
            return None
        suit = Suit.parse(found.group(1))
        jack, king = Card(Rank.JACK, suit), Card(Rank.KING, suit)
        typed = text[found.start():found.end()] if len(text) == len(text.lower()) else found.group(0)
        return self.msg("err_ten", text=typed, jack=self.card_str(jack), king=self.card_str(king))

    def duty_message(self, card: Card, plays: Sequence[Card], view: View) -> str:
        """Why ``card`` may not be played now though it is held: arrastro, the prisoner ace, or the duty to follow."""
        cards = ", ".join(c.text(self.notation) for c in plays)
        rules = view.rules
        if view.arrastro and view.trick:
            return self.msg("err_arrastro", cards=cards)
        if rules.kill_three and view.trump is not None and card == Card(Rank.ACE, view.trump):
            return self.msg("err_ace_prisoner")
        if not view.trick and view.deal_way == "pelada" and not view.tricks and card.suit is not view.trump:
            return self.msg("err_pelada_lead", cards=cards)
        if not view.trick and rules.lead_two == "guarded" and card.rank == Rank.TWO:
            return self.msg("err_lead_two", card=self.card_str(card))
        return self.msg("err_must_play", card=self.card_str(card), cards=cards)

    def exchange_move(self, view: View) -> Action | str:
        """The legal trump exchange (announced, under ``trump_exchange: announced``), or why there is none now
        (worked out from the view and the rules)."""
        for action in view.legal_actions:
            if isinstance(action, Exchange | Announce):
                return action
        rules = view.rules
        face = view.face_up
        if rules.trump_exchange == "off":
            return self.msg("err_exchange_off")
        if face is None:
            return self.msg("err_no_face_up")
        if view.announced is not None:
            seat, card = view.announced
            return self.msg("err_announced_waits", card=self.card_str(card), who=self.label(seat))
        give = rules.exchange_table[face.index]
        if give is None:
            return self.msg("err_face_up_fixed", card=self.card_str(face))
        if give not in view.hand:
            return self.msg("err_need_card", take=self.card_str(face), give=self.card_str(give))
        if rules.trump_exchange == "announced" and len(view.hand) <= 1:
            return self.msg("err_keep_a_card")
        if rules.trump_exchange in ("after_win", "out_of_turn", "before_penultimate") and not any(
                t.winner == view.seat for t in view.tricks):
            return self.msg("err_must_win")
        return self.msg("err_exchange_not_now")

    def arrastro_move(self, view: View) -> Action | str:
        """Leading the ace of trumps calling arrastro, or why it cannot be called now."""
        for action in view.legal_actions:
            if isinstance(action, Arrastro):
                return action
        if not view.rules.arrastro or view.trump is None:
            return self.msg("err_arrastro_off")
        ace = Card(Rank.ACE, view.trump)
        if view.trick or ace not in view.hand:
            return self.msg("err_arrastro_lead", card=self.card_str(ace))
        return self.msg("err_ace_prisoner")

    def claim_move(self, view: View) -> Action | str:
        """The claim of the rest of the hand, or why it cannot be made now."""
        for action in view.legal_actions:
            if isinstance(action, Claim):
                return action
        if not view.rules.claim:
            return self.msg("err_claim_off")
        if view.stock_count or view.trick:
            return self.msg("err_claim_not_now")
        return self.msg("err_claim_fails")

    def signal_move(self, text: str, view: View, aloud: bool = False) -> Action | str | None:
        """The signal ``text`` asks for (``s1``, ``signal trump-ace``, a signal's name in any language; said aloud
        after ``say``), why it cannot be made now, or ``None`` when ``text`` is not about signals."""
        key = " ".join(text.lower().split())
        order = signal_order(view.rules)
        number = _SIGNAL_KEY.fullmatch(key)
        if number:
            n = _number(number.group(1))
            if not 1 <= n <= len(order):
                return self.msg("err_signal_position", n=clip(number.group(1)), max=len(order))
            name = order[n - 1]
        else:
            word = next((w for w in SIGNAL_WORDS if key == w or key.startswith((w + " ", w + ":"))), None)
            rest = key if word is None else key[len(word):].strip(" :")
            found = _signal_named(rest)
            if found is None:
                if word is None and not aloud:
                    return None
                if view.rules.signals == "off" or not self.teams:
                    return self.msg("err_signals_off")
                return self.msg("err_signal_unknown", text=clip(rest or text))
            name = found
        action = Signal(name, aloud=aloud)
        return action if action in view.legal_actions else self.signal_refusal(name, view, aloud)

    def show_signals(self, view: View) -> None:
        """The signals the person may make now, each with its key, as the table lists them; or why there are none."""
        if view.rules.signals == "off" or not self.teams:
            self._error(self.msg("err_signals_off"))
            return
        offered = [a for a in view.legal_actions if isinstance(a, Signal) and not a.aloud]
        if not offered:
            self.console.print(self.msg("signals_none_now"))
            return
        self.console.print(self.msg("signals_menu"))
        for action in offered:
            said = self.msg("signal_option", signal=self.signal_name(action.name))
            self.console.print(Text(f"  [{signal_key(action.name, view.rules)}] {said}"))

    def signal_refusal(self, name: str, view: View, aloud: bool = False) -> str:
        """Why the signal ``name`` cannot be made now, worked out from the view."""
        rules = view.rules
        if rules.signals == "off" or not self.teams:
            return self.msg("err_signals_off")
        if name not in signal_order(rules):
            return self.msg("err_signal_not_in_set", signal=self.signal_name(name))
        if name in ("ask-points", "ask-cards") and not rules.signal_asks:
            return self.msg("err_signal_ask", signal=self.signal_name(name))
        if aloud and rules.signals != "combination":
            return self.msg("err_say_off")
        made: list[str] = []  # the signals this seat has made since its last card
        for seat, action in view.history:
            if seat == self.seat:
                if isinstance(action, Signal):
                    made.append(action.name)
                elif _card_of(action) is not None and not isinstance(action, Exchange):
                    made.clear()
        if name in made:
            return self.msg("err_signal_done", signal=self.signal_name(name))
        return self.msg("err_signal_untrue", signal=self.signal_name(name))

    # ------------------------------------------------------------------ the auction and what follows it

    def auction_prompt(self, view: View) -> str:
        """What the person may do now in the auction, the discard, the naming of trumps or the call."""
        rules, msg, legal = view.rules, self.msg, view.legal_actions
        if view.phase == "cut":
            ways = [a.way for a in legal if isinstance(a, Cut)]
            return msg("prompt_cut", dealer=self.label(view.dealer),
                       ways=", ".join(f"{CUT_WAYS.index(w) + 1} {w}" for w in ways))
        if view.phase == "mark":
            keys = " / ".join(str(a) for a in legal if isinstance(a, Declare))
            return msg("prompt_mark", keys=keys)
        if view.phase == "bid":
            if rules.bidding == "low_card":
                ranks = self._rank_bids(view)
                if not ranks:
                    return msg("prompt_rank_none")
                return msg("prompt_rank", ranks=", ".join(self._rank_text(r) for r in ranks))
            if not any(isinstance(a, Bid) for a in legal):
                return msg("prompt_bid_none", max=rules.max_bid)
            return msg("prompt_bid" if PASS in legal else "prompt_bid_must", range=self._bid_range(view))
        if view.phase == "discard":
            n = len(view.talon)
            example = " ".join(c.text(self.notation) for c in self.shown_hand(view)[:n])
            return msg("prompt_discard", n=n, example=example)
        suits = self._suit_choices()
        if view.phase == "trump":
            high = self._high_bid(view)
            if isinstance(high, RankBid):
                return msg("prompt_trump_rank", rank=self._rank_text(high.rank), suits=suits)
            return msg("prompt_trump", suits=suits)
        return msg("prompt_call", example=self._call_example(view))

    def parse_auction(self, text: str, view: View) -> Action | str:
        """The bid, pass, discard, trump or call ``text`` asks for, or why it cannot be one."""
        key = " ".join(text.lower().split())
        msg, legal = self.msg, view.legal_actions
        if view.phase == "cut":
            return self.cut_move(key, text, view)
        if view.phase == "mark":
            return self.mark_move(key, text, view)
        if view.phase == "bid":
            return self.bid_move(key, text, view)
        if view.phase == "discard":
            rest = _after_word(key, DISCARD_WORDS)
            return self.discard_move(key if rest is None else rest, view)
        if view.phase == "trump":
            rest = _after_word(key, TRUMP_WORDS)
            try:
                suit = Suit.parse(key if rest is None else rest)
            except InvalidCardError:
                return msg("err_not_suit", text=clip(text), suits=self._suit_choices())
            return TrumpChoice(suit)
        rest = _after_word(key, CALL_WORDS)
        ten = self.ambiguous_ten(text)
        if ten is not None:
            return ten
        try:
            card = Card.parse(key if rest is None else rest, self.notation)
        except InvalidCardError:
            return msg("err_call_unknown", text=clip(text), example=self._call_example(view))
        if Call(card) not in legal:
            if card in view.played_cards():  # Chiamata Buia: the call comes after the first trick
                return msg("err_call_played", card=self.card_str(card), example=self._call_example(view))
            return msg("err_call_deck", card=self.card_str(card))
        return Call(card)

    def cut_move(self, key: str, text: str, view: View) -> Action | str:
        """The way the person, cutting, has the deck dealt (``golpe``, ``2``, ``cut golpe``), or why it is none."""
        rest = _after_word(key, CUT_WORDS)
        word = key if rest is None else rest
        ways = [a.way for a in view.legal_actions if isinstance(a, Cut)]
        if word.isascii() and word.isdecimal() and 1 <= int(word) <= len(CUT_WAYS):
            word = CUT_WAYS[int(word) - 1]
        if word in ways:
            return Cut(word)
        return self.msg("err_cut_way", text=text, ways=", ".join(ways))

    def mark_move(self, key: str, text: str, view: View) -> Action | str:
        """Marking a vale once the person's card is down (``vale``, ``vale O``, ``declare O``), or letting it go."""
        if key in PASS_WORDS:
            return PASS
        declares = [a for a in view.legal_actions if isinstance(a, Declare)]
        rest = _after_word(key, (*VALE_WORDS, *DECLARE_WORDS))
        if rest is None:
            return self.msg("err_mark", text=text, keys=" / ".join(map(str, declares)))
        if not rest and len(declares) == 1:
            return declares[0]
        try:
            suit = Suit.parse(rest)
        except InvalidCardError:
            return self.msg("err_mark", text=text, keys=" / ".join(map(str, declares)))
        if Declare(suit) not in declares:
            return self.msg("err_mark", text=text, keys=" / ".join(map(str, declares)))
        return Declare(suit)

    def bid_move(self, key: str, text: str, view: View) -> Action | str:
        """A bid (a number of points, or a rank under ``bidding: low_card``) or a pass, or why it cannot be made."""
        rules, msg, legal = view.rules, self.msg, view.legal_actions
        if key in PASS_WORDS:
            return PASS if PASS in legal else msg("err_must_bid", low=rules.min_bid)
        rest = _after_word(key, BID_WORDS)
        rest = key if rest is None else rest
        if rules.bidding == "low_card":
            ranked = _after_word(rest, RANK_WORDS)
            return self.rank_bid_move(rest if ranked is None else ranked, text, view)
        if not (rest.isascii() and rest.isdecimal()):
            return msg("err_not_bid", text=clip(text), range=self._bid_range(view))
        n = _number(rest)
        low = self._lowest_bid(view)
        if low > rules.max_bid:
            return msg("err_bid_none", max=rules.max_bid)
        if n < low:
            return msg("err_bid_low", low=low, n=n)
        if n > rules.max_bid:
            return msg("err_bid_high", max=rules.max_bid, n=clip(rest))
        if (n - low) % rules.bid_step:
            return msg("err_bid_step", step=rules.bid_step, low=low, n=n)
        return Bid(n)

    def rank_bid_move(self, rest: str, text: str, view: View) -> Action | str:
        """A rank named in a low-card auction, or why it cannot be named now."""
        msg = self.msg
        allowed = self._rank_bids(view)
        ranks = ", ".join(self._rank_text(r) for r in allowed)
        try:
            action = RankBid(int(Rank.parse(rest, self.notation)))
        except BriscaError:
            return msg("err_not_rank", text=clip(text), ranks=ranks or msg("pass_word"))
        if action in view.legal_actions:
            return action
        if action.rank not in view.rules.strength_order():
            return msg("err_not_rank", text=clip(text), ranks=ranks or msg("pass_word"))
        high = self._high_bid(view)
        low = self._rank_text(high.rank) if isinstance(high, RankBid) else "-"
        if not allowed:
            return msg("err_rank_none", low=low)
        return msg("err_rank_high", rank=self._rank_text(action.rank), low=low, ranks=ranks)

    def discard_move(self, rest: str, view: View) -> Action | str:
        """The cards laid into the person's pile, by position or notation (``1 5``, ``5O 6C``)."""
        msg, hand, n = self.msg, self.shown_hand(view), len(view.talon)
        example = " ".join(c.text(self.notation) for c in hand[:n])
        cards: list[Card] = []
        for token in rest.replace(",", " ").split():
            if token.isascii() and token.isdecimal():
                i = _number(token)
                if not 1 <= i <= len(hand):
                    return msg("err_position", n=clip(token), max=len(hand))
                card = hand[i - 1]
            else:
                ten = self.ambiguous_ten(token)
                if ten is not None:
                    return ten
                try:
                    card = Card.parse(token, self.notation)
                except InvalidCardError:
                    return msg("err_discard_unknown", text=clip(token), example=example)
                if card not in hand:
                    return msg("err_not_held", card=self.card_str(card))
            cards.append(card)
        if len(set(cards)) != len(cards):
            return msg("err_discard_twice")
        if len(cards) != n:
            return msg("err_discard_count", n=n, k=len(cards))
        return Discard(*cards)

    def declare_move(self, rest: str, text: str, view: View) -> Action | str:
        """A declaration of a king-knight pair (``declare O``), or why it cannot be made now."""
        msg, rules = self.msg, view.rules
        offered = [a for a in view.legal_actions if isinstance(a, Declare)]
        if not rest and len(offered) == 1:
            return offered[0]
        try:
            suit = Suit.parse(rest)
        except InvalidCardError:
            return msg("err_not_suit", text=clip(rest or text), suits=self._suit_choices())
        action = Declare(suit)
        if action in offered:
            return action
        if rules.declarations == "off":
            return msg("err_declare_off")
        if any(s is suit for _seat, s in view.declarations):
            return msg("err_declare_done", suit=suit.name_in(self.lang))
        return msg(f"err_declare_{rules.declarations}")

    def _high_bid(self, view: View) -> Action | None:
        """The bid that stands: the last one that was not a pass (bids only ever go up, or down in rank)."""
        return next((a for _s, a in reversed(view.bids) if not isinstance(a, Pass)), None)

    def _lowest_bid(self, view: View) -> int:
        rules = view.rules
        high = self._high_bid(view)
        return high.points + rules.bid_step if isinstance(high, Bid) else rules.min_bid

    def _bid_range(self, view: View) -> str:
        rules = view.rules
        low = self._lowest_bid(view)
        if rules.bid_step > 1:
            return self.msg("bid_range_step", low=low, max=rules.max_bid, step=rules.bid_step)
        return self.msg("bid_range", low=low, max=rules.max_bid)

    @staticmethod
    def _rank_bids(view: View) -> list[int]:
        return [a.rank for a in view.legal_actions if isinstance(a, RankBid)]

    def _rank_text(self, rank: int) -> str:
        return f"{Rank(rank).text(self.notation)} ({Rank(rank).name_in(self.lang)})"

    def _suit_choices(self) -> str:
        """The suits with their letters in the deck's notation: ``D oros (denari)`` when the notation's language
        is not the screen's, so the letter explains itself."""
        n = self.notation
        out = []
        for s in Suit:
            name = s.name_in(self.lang)
            if n.lang != self.lang and s.name_in(n.lang) != name:
                name += f" ({s.name_in(n.lang)})"
            out.append(f"{n.suit_letter(s)} {name}")
        return ", ".join(out)

    def _call_example(self, view: View) -> str:
        """A card to show in the call prompt: the first the person does not hold (calling one's own is allowed),
        and that was not played in a first trick before the call."""
        mine = set(view.hand) | set(view.played_cards())
        card = next((c for c in view.rules.deck_cards(view.players) if c not in mine), Card(Rank.THREE, Suit.OROS))
        return card.text(self.notation)

    def bid_text(self, action: Action) -> str:
        """A bid as the auction shows it: ``110``, ``3 (tres)`` or the word for a pass."""
        if isinstance(action, Bid):
            return str(action.points)
        if isinstance(action, RankBid):
            return self._rank_text(action.rank)
        return self.msg("pass_word")

    def cards_text(self, cards: Sequence[Card], *, mark: bool = True) -> Text:
        line = Text()
        for k, card in enumerate(cards):
            if k:
                line.append(", ")
            line.append(self.card_text(card, mark=mark))
        return line

    def declare_points(self, suit: Suit, view: View) -> int:
        """What a declared king-knight pair scores: 40 in trumps, 20 otherwise."""
        return 40 if suit is view.trump else 20

    # ------------------------------------------------------------------ names

    def label(self, seat: int) -> str:
        """How a seat is named on screen: the person's name or "You", else "Seat 2 (greedy, partner)"."""
        if seat == self.seat:
            return self.name or self.msg("you")
        tags = [self.ai_name] if self.ai_name else []
        if self.teams and self.rules.side_of(seat, self.players) == self.my_side:
            tags.append(self.msg("partner"))
        base = self.msg("seat", n=seat)
        return f"{base} ({', '.join(tags)})" if tags else base

    def side_label(self, side: int) -> str:
        """A side's name: a seat's label when each plays alone, else "Your side (seats 0, 2)"."""
        if not self.teams:
            return self.label(side)
        rules, players = self.rules, self.players
        seats = ", ".join(str(s) for s in range(players) if rules.side_of(s, players) == side)
        key = "your_side" if side == self.my_side else "other_side"
        return f"{self.msg(key)} ({self.msg('seats', seats=seats)})"

    def card_str(self, card: Card) -> str:
        """A card as notation and name: ``3O tres de oros``; ``RD re di denari`` in an Italian preset on an Italian
        screen, ``RD king of coins`` on an English one (the notation is the deck's, the name the screen's)."""
        return f"{card.text(self.notation)} {card.name(self.lang)}"

    def card_text(self, card: Card, *, mark: bool = True) -> Text:
        """A card in its suit's colour; a trump is bold and tagged so it shows without colour too."""
        text = Text(self.card_str(card), style=_SUIT_STYLE[card.suit])
        if mark and card.suit is self._trump:
            text.append(f" ({self.msg('trump_tag')})")
            text.stylize("bold")
        return text

    def suit_text(self, suit: Suit) -> Text:
        return Text(suit.name_in(self.lang), style=f"bold {_SUIT_STYLE[suit]}")

    def signal_name(self, name: str) -> str:
        """A signal's name in the person's language: ``as de triunfo``."""
        return SIGNAL_NAMES.get(name, {}).get(self.lang, name)

    def bonus_why(self, why: str) -> str:
        """The engine's reason for a bonus (``last trick``, ``king and knight of oros``) in the person's language."""
        if why == "last trick":
            return self.msg("bonus_last_trick")
        for suit in Suit:
            king, knight = Card(Rank.KING, suit), Card(Rank.KNIGHT, suit)
            if why == f"king and knight of {suit.name_in('en')}":
                return self.msg("bonus_pair", king=self.card_str(king), knight=self.card_str(knight))
            if why == f"king and knight of {suit.name_in('en')} declared":
                return self.msg("bonus_declared", king=self.card_str(king), knight=self.card_str(knight))
        return why

    def _points_text(self, points: Sequence[int], declared: Sequence[int] = ()) -> str:
        """Each side's points; with ``declared``, the declarations are added in and shown apart."""
        out = []
        for side, p in enumerate(points):
            extra = declared[side] if side < len(declared) else 0
            shown = f"{self.side_label(side)} {p + extra}"
            if extra:
                shown += f" ({self.msg('declared_points', points=extra)})"
            out.append(shown)
        return " · ".join(out)

    def declared_points(self, view: View) -> list[int]:
        """The points each side has scored so far by declaring king-knight pairs: at once when declared on lead,
        to the winner of the trick when vales (a pair declared in the trick still on the table is pending)."""
        rules = view.rules
        sides = rules.sides(view.players)
        out = [0] * sides
        if rules.declarations == "off" or view.trump is None:
            return out
        played = 0  # cards played so far
        history = view.history
        for i, (seat, action) in enumerate(history):
            if isinstance(action, Play | Arrastro):
                played += 1
            elif isinstance(action, Declare):
                points = self.declare_points(action.suit, view)
                if rules.declarations != "vales":
                    out[rules.side_of(seat, view.players)] += points
                else:
                    # Declared as a card of the pair is played (the seat's next action plays it): that card's
                    # trick; else marked once the seat's card was down (003): the trick of the last card played.
                    nxt = history[i + 1] if i + 1 < len(history) else None
                    with_card = (nxt is not None and nxt[0] == seat and isinstance(nxt[1], Play | Arrastro)
                                 and nxt[1].card.suit is action.suit)
                    trick = played // view.players if with_card or not played else (played - 1) // view.players
                    if trick < len(view.tricks):
                        out[rules.side_of(view.tricks[trick].winner, view.players)] += points
        return out

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
        rules, players = self.rules, self.players
        if rules.partners == "draw":
            self.say("welcome_draw", style="bold", title=rules.title, players=players)
        else:
            self.say("welcome", style="bold", title=rules.title, players=players, seat=self.seat)

    def _show_seating(self) -> None:
        """Who sits where (after the draw for partners, if any), the person's partners, the goal."""
        rules, players = self.rules, self.players
        self.console.print(self.msg("seating"))
        for s in range(players):
            you = f" ({self.msg('you')})" if s == self.seat and self.name else ""
            self.console.print(f"  {s}  {self.label(s)}{you}")
        partners = [s for s in range(players) if s != self.seat and rules.side_of(s, players) == self.my_side]
        if partners:
            self.say("partners", who=", ".join(self.label(s) for s in partners))
        if rules.hand_winner == "least":
            self.say("goal_least", style="bold")

    def _start_hand(self) -> None:
        view = self.view()
        self._trump = view.trump
        self._told_actions = self._told_exchanges = self._told_tricks = 0
        self._announced = self._offered = None
        self._hand_seen = frozenset(view.hand)
        self._phase = view.phase
        self._contract_told = self._partner_told = False
        self.console.print()
        hand, dealer = len(self.match.games), self.label(view.dealer)
        if view.phase == "cut":  # (deal: cutter_chooses) nothing is dealt until the cutter has chosen
            key = "new_hand_cut_you" if view.cutter == self.seat else "new_hand_cut"
            self.say(key, style="bold", hand=hand, who=dealer, cutter=self.label(view.cutter))
            return
        self._tell_deal(view)

    def _tell_deal(self, view: View) -> None:
        """The deal: the trump (or the auction to come), the way it was dealt, the cards shown."""
        rules = view.rules
        hand, dealer = len(self.match.games), self.label(view.dealer)
        self._hand_seen = frozenset(view.hand)
        if view.trump is None:  # named or called after the auction (Chiamata Buia: after the first trick)
            key = "new_hand_buia" if rules.call_time == "after_first_trick" else "new_hand_auction"
            self.say(key, style="bold", hand=hand, who=dealer)
        elif view.turned is None:  # trumps chosen without turning a card (trump rotation)
            self.say("new_hand_no_turn", style="bold", hand=hand, who=dealer, suit=self.suit_text(view.trump))
        elif rules.trump_from == "dealer":
            self.say("new_hand_dealer_card", style="bold", hand=hand, who=dealer, suit=self.suit_text(view.trump),
                     card=self.card_text(view.turned, mark=False))
        else:
            self.say("new_hand", style="bold", hand=hand, who=dealer, suit=self.suit_text(view.trump),
                     card=self.card_text(view.turned, mark=False))
        if view.deal_way in ("alce", "golpe", "pelada"):
            self.say("deal_way", way=self.msg(f"deal_{view.deal_way}"))
        shown: dict[int, list[Card]] = {}
        for seat, card in view.shown:
            shown.setdefault(seat, []).append(card)
        for seat, cards in sorted(shown.items()):
            self.say("shown_at_deal", who=self.label(seat), cards=self.cards_text(cards))
        if rules.talon:
            self.say("talon_face_down", n=rules.talon)
        if rules.auction and view.phase == "bid" and view.turn is not None:
            if rules.bidding == "low_card":
                self.say("auction_starts_low", who=self.label(view.turn), points=rules.min_bid)
            else:
                self.say("auction_starts", who=self.label(view.turn), range=self._bid_range(view))

    def show_table(self) -> None:
        """Draw the person's side of the table, from their view only."""
        view = self.view()
        msg = self.msg
        rules = view.rules
        auction = view.phase not in ("play", "mark")
        # A call after the first trick (Chiamata Buia) comes with the trick on the table: it stays in sight.
        played = not auction or bool(view.tricks)
        self.console.print()
        hand = len(self.match.games)
        title = (msg("header_cut", hand=hand) if view.phase == "cut"
                 else msg("header", hand=hand, trick=len(view.tricks) + 1) if played
                 else msg("header_auction", hand=hand))
        self.console.rule(Text(title, style="bold"))
        rows: list[tuple[str, Text | str]] = [(msg("trump"), self._trump_value(view))]
        if rules.dealt_out:
            if rules.talon:
                rows.append((msg("talon_row"), self._talon_value(view)))
        elif view.face_up is not None:
            face_up = self.card_text(view.face_up, mark=False)
            rows.append((msg("stock"), self.styled("stock_face_up", count=view.stock_count, card=face_up)))
        elif view.stock_count:
            rows.append((msg("stock"), msg("stock_count", count=view.stock_count)))
        else:
            rows.append((msg("stock"), msg("stock_empty")))
        if rules.auction:
            rows.extend(self._auction_rows(view))
        if played:
            rows.append((msg("points"), self._points_text(view.side_points, self.declared_points(view))))
        rows.append(self.match_score())
        if played:
            rows.extend(self._trick_rows(view))
        partners = view.partners()
        if partners:
            rows.append((msg("partners_row"), ", ".join(self.label(s) for s in partners)))
        rows.extend(self._signal_rows(view))
        rows.extend(self._declaration_rows(view))
        rows.extend(self._known_rows(view))
        if view.announced is not None:  # (001) the trump under the face-up card, in everybody's sight
            seat, card = view.announced
            rows.append((msg("announced_row"), Text(f"{self.label(seat)}: ").append(self.card_text(card))))
        rows.append((msg("turn"), self.label(view.turn) if view.turn is not None else "-"))
        width = max(len(name) for name, _value in rows) + 2
        for name, value in rows:
            self.console.print(Text().append(name.ljust(width), style="bold").append(value))
        self.console.print(Text(f"{msg('your_hand')}:", style="bold"))
        plays = {a.card for a in view.legal_actions if isinstance(a, Play)}
        for i, card in enumerate(self.shown_hand(view), 1):
            line = Text(f"  [{i}] ").append(self.card_text(card))
            if view.legal_actions and not auction and card not in plays:
                line.append(f" ({msg('not_playable')})", style="dim")
            self.console.print(line)
        if auction:  # the prompt says what may be done: a list of every legal bid or discard would be long
            return
        for action in view.legal_actions:
            if isinstance(action, Exchange | Announce) and view.face_up is not None:
                option = self.styled(
                    "announce_option" if isinstance(action, Announce) else "exchange_option",
                    give=self.card_text(action.card, mark=False), take=self.card_text(view.face_up, mark=False),
                )
                self.console.print(Text("  [x] ").append(option))
            elif isinstance(action, Arrastro):
                option = self.styled("arrastro_option", card=self.card_text(action.card))
                self.console.print(Text("  [a] ").append(option))
            elif isinstance(action, Claim):
                self.console.print(Text(f"  [r] {msg('claim_option')}"))
            elif isinstance(action, Signal):
                key = signal_key(action.name, view.rules)
                said = msg("say_option" if action.aloud else "signal_option", signal=self.signal_name(action.name))
                self.console.print(Text(f"  [{'say ' + key if action.aloud else key}] {said}"))
            elif isinstance(action, Declare):
                option = self.styled("declare_option", suit=self.suit_text(action.suit),
                                     points=self.declare_points(action.suit, view))
                self.console.print(Text(f"  [{action.text(self.notation)}] ").append(option))
            elif not isinstance(action, Play):
                self.console.print(Text(f"  [{action.text(self.notation)}]"))

    def _trick_rows(self, view: View) -> list[tuple[str, Text | str]]:
        """The last finished trick and the cards on the table."""
        msg = self.msg
        rows: list[tuple[str, Text | str]] = []
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
            if view.arrastro:
                rows.append((msg("arrastro_row"), msg("arrastro_on")))
        else:
            rows.append((msg("on_table"), msg("empty_table")))
        return rows

    def _trump_value(self, view: View) -> Text:
        """The trump suit, or that the auction decides it; with the dealer's trump card while he holds it."""
        if view.trump is None:
            if view.phase == "cut":
                return Text(self.msg("trump_after_cut"))
            blind = view.call_pending or (view.phase == "call" and bool(view.tricks))  # Chiamata Buia
            return Text(self.msg("trump_after_first_trick" if blind else "trump_pending"))
        out = self.suit_text(view.trump)
        turned = view.turned
        if view.rules.trump_from == "dealer" and turned is not None and turned not in view.played_cards():
            card = self.card_text(turned, mark=False)
            if view.dealer == self.seat:
                out.append(" · ").append(self.styled("trump_card_yours", card=card))
            else:
                out.append(" · ").append(self.styled("trump_card_dealer", card=card, who=self.label(view.dealer)))
        return out

    def _talon_value(self, view: View) -> Text:
        """The talon: face down during the auction, then the cards the auction's winner showed and took."""
        if not view.talon:
            return Text(self.msg("talon_down", n=view.rules.talon))
        high = next((s for s, a in reversed(view.bids) if not isinstance(a, Pass)), None)
        who = self.label(high) if high is not None else "-"
        return self.styled("talon_up", cards=self.cards_text(view.talon), who=who)

    def _auction_rows(self, view: View) -> list[tuple[str, Text | str]]:
        """The auction while it lasts (each seat's bids and the bid that stands), then the contract."""
        msg = self.msg
        rows: list[tuple[str, Text | str]] = []
        contract = view.contract
        if view.phase == "bid":
            said = " · ".join(f"{self.label(s)}: {self.bid_text(a)}" for s, a in view.bids)
            rows.append((msg("auction_row"), said or msg("none_yet")))
            high = next(((s, a) for s, a in reversed(view.bids) if not isinstance(a, Pass)), None)
            key = "lowest_rank_row" if view.rules.bidding == "low_card" else "high_bid_row"
            value = msg("high_bid_value", bid=self.bid_text(high[1]), who=self.label(high[0])) if high else msg(
                "none_yet")
            rows.append((msg(key), value))
        elif contract is None:  # won, the talon or the trump or the call still to come
            high = next(((s, a) for s, a in reversed(view.bids) if not isinstance(a, Pass)), None)
            if high is not None:
                rows.append((msg("auction_row"), msg("high_bid_value", bid=self.bid_text(high[1]),
                                                      who=self.label(high[0]))))
        else:
            rows.append((msg("contract_row"), self.styled(
                "contract_value", who=self.label(contract.declarer), bid=self.bid_text(contract.bid),
                points=contract.points)))
            if contract.called is not None:
                rows.append((msg("called_row"), self.card_text(contract.called).append(" · ").append(
                    self._partner_text(contract, view))))
        return rows

    def _partner_text(self, contract: Contract, view: View) -> str:
        """Who holds the called card, as far as the person knows: the view's partner, or their own hand."""
        msg = self.msg
        if contract.partner is not None:
            if contract.partner == contract.declarer:
                return msg("partner_alone", who=self.label(contract.declarer))
            return msg("partner_known", who=self.label(contract.partner))
        if contract.called is not None and contract.called in view.hand:
            return msg("partner_you_alone" if contract.declarer == self.seat else "partner_you_secret")
        return msg("partner_hidden")

    def _declaration_rows(self, view: View) -> list[tuple[str, Text | str]]:
        """The king-knight pairs declared so far in this hand, with what each scores."""
        rows: list[tuple[str, Text | str]] = []
        for i, (seat, suit) in enumerate(view.declarations):
            line = Text(f"{self.label(seat)}: ").append(self.suit_text(suit)).append(
                f" ({self.declare_points(suit, view)})")
            rows.append((self.msg("declarations_row") if i == 0 else "", line))
        return rows

    def _signal_rows(self, view: View) -> list[tuple[str, Text | str]]:
        """The signals this seat may see in this hand (View.signals), grouped by who made them."""
        mode = view.rules.signals
        if mode == "off" or not self.teams:
            return []
        title = self.msg("signals_partner_row" if mode == "partner" else "signals_open_row")
        grouped: dict[int, list[str]] = {}
        for seat, name in view.signals:
            names = grouped.setdefault(seat, [])
            if self.signal_name(name) not in names:
                names.append(self.signal_name(name))
        if not grouped:
            return [(title, self.msg("no_signals"))]
        return [
            (title if i == 0 else "", f"{self.label(seat)}: {', '.join(names)}")
            for i, (seat, names) in enumerate(sorted(grouped.items()))
        ]

    def _known_rows(self, view: View) -> list[tuple[str, Text | str]]:
        """Cards this seat knows in other hands (open hands, partners' cards, exchanged and last-drawn cards)."""
        grouped: dict[int, list[Card]] = {}
        for seat, card in view.known:
            grouped.setdefault(seat, []).append(card)
        rows: list[tuple[str, Text | str]] = []
        for i, (seat, cards) in enumerate(sorted(grouped.items())):
            line = Text(f"{self.label(seat)}: ")
            for k, card in enumerate(cards):
                if k:
                    line.append(", ")
                line.append(self.card_text(card))
            rows.append((self.msg("known_row") if i == 0 else "", line))
        return rows

    def help_keys(self) -> str:
        """The keys of the help, one a line: only those these rules play (no exchange key without an exchange)."""
        rules, msg, n = self.rules, self.msg, self.notation
        examples = [Card.parse(c).text(n) for c in ("3O", "12E")]
        ace = Card(Rank.ACE, Suit.OROS).text(n)
        keys: list[tuple[str, str]] = [
            ("1, 2, 3 ...", msg("help_key_position")),
            (f"{examples[0]}, {examples[1].lower()} ...", msg("help_key_card", suits=self._suit_choices())),
        ]
        if n is ITALIAN:
            keys.append(("", msg("help_key_notation", spanish=Card.parse("12O").text(SPANISH),
                                 italian=Card.parse("12O").text(n))))
        if rules.trump_exchange != "off" and not rules.dealt_out and not rules.trump_rotation:
            keys.append(("x", msg("help_key_announce" if rules.trump_exchange == "announced" else "help_key_exchange")))
        if rules.arrastro:
            keys.append(("a", msg("help_key_arrastro", ace=ace)))
        if rules.claim:
            keys.append(("r", msg("help_key_claim")))
        if rules.signals != "off" and self.teams:
            keys.append(("s1, s2 ...", msg("help_key_signal")))
        if rules.declarations != "off":
            keys.append((f"declare {n.suit_letter(Suit.OROS)}", msg("help_key_declare", suits=self._suit_choices())))
        keys += [
            ("g", msg("help_key_sort")),
            ("l", msg("help_key_last")),
            (msg("help_empty_line"), msg("help_key_table")),
            ("?", msg("help_key_help")),
            ("q", msg("help_key_quit")),
        ]
        width = max(14, *(len(k) + 2 for k, _ in keys))
        return "".join(f"  {k.ljust(width)}{text}\n" for k, text in keys)

    def show_help(self) -> None:
        """Keys and a summary of the rules in play (ranks, points, exchange, duty to follow), read from the rules."""
        rules = self.rules
        msg = self.msg
        n = self.notation
        by_rank = dict(rules.points)
        order = rules.strength_order()
        points = ", ".join(f"{Rank(rank).text(n)}={by_rank[rank]}" for rank in order if by_rank.get(rank))
        ranks = set(order)
        pairs = [
            msg("exchange_rule", give=Rank(give).text(n), take=" ".join(Rank(r).text(n) for r in taken if r in ranks))
            for give, taken in rules.exchange_with
            if give in ranks
        ]
        if rules.trump_exchange == "off" or not pairs:
            exchange = msg("exchange_none")
        else:
            key = f"exchange_when_{rules.trump_exchange}"
            when = (msg("exchange_after_win") if rules.trump_exchange == "after_win"
                    else msg(key) if key in msg else rules.trump_exchange)
            exchange = f"{'; '.join(pairs)} ({when})."
        label, goal = self._match_goal()
        follow = msg(f"follow_{rules.follow}") if f"follow_{rules.follow}" in msg else rules.follow
        if rules.follow != "none" and rules.follow_from == "empty_stock":
            follow = msg("follow_empty_stock", rule=follow)
        special = "".join(f"\n  {line}" for line in self._special_rules())
        hand_goal = msg("hand_goal_contract" if rules.contract != "off" else f"hand_goal_{rules.hand_winner}")
        self.console.print(msg(
            "help", keys=self.help_keys(), order=" ".join(Rank(r).text(n) for r in order), points=points,
            follow=follow, next_trick=msg("next_trick_lead" if rules.dealt_out else "next_trick_draw"),
            exchange=exchange, goal=goal, label=label.lower(), hand_goal=hand_goal, special=special,
        ))

    def _special_rules(self) -> list[str]:
        """One line for each rule beyond the plain game that these rules play."""
        rules, msg = self.rules, self.msg
        lines: list[str] = []
        if rules.arrastro:
            lines.append(msg("rule_arrastro", ace=Card(Rank.ACE, Suit.OROS).text(self.notation)))
        if rules.claim:
            lines.append(msg("rule_claim"))
        if rules.kill_three:
            lines.append(msg("rule_kill_three"))
        if rules.signals != "off" and self.teams:
            names = [n for n in signal_order(rules) if rules.signal_asks or n not in ("ask-points", "ask-cards")]
            listed = ", ".join(f"{signal_key(n, rules)} {self.signal_name(n)} ({n})" for n in names)
            lines.append(msg(f"rule_signals_{rules.signals}", names=listed))
            if not rules.signal_asks and rules.signal_set == "spanish":
                lines.append(msg("rule_signals_no_asks"))
        if rules.open_hands:
            lines.append(msg("rule_open_hands"))
        if rules.deal_look and self.teams:
            lines.append(msg("rule_deal_look"))
        if rules.partners_look and self.teams:
            lines.append(msg("rule_partners_look"))
        if rules.pair_bonus:
            lines.append(msg("rule_pair_bonus"))
        if rules.last_trick_bonus:
            lines.append(msg("rule_last_trick_bonus", points=rules.last_trick_bonus))
        if rules.tie == "replay":
            lines.append(msg("rule_tie_replay"))
        lines.extend(self._dealt_out_rules())
        return lines

    def _dealt_out_rules(self) -> list[str]:
        """Lines for the games that deal every card: the trump card, the auction, the contract, declarations."""
        rules, msg = self.rules, self.msg
        n = self.notation
        suit_key = n.suit_letter(Suit.OROS)
        lines: list[str] = []
        if rules.trump_from == "dealer":
            lines.append(msg("rule_trump_dealer"))
        if rules.deal == "cutter_chooses":
            lines.append(msg("rule_cutter_chooses", ways=", ".join(rules.cut_ways)))
        if rules.deal in ("pelada", "cutter_chooses") and "pelada" in (rules.deal, *rules.cut_ways):
            lines.append(msg("rule_pelada"))
        if rules.lead_two == "guarded":
            lines.append(msg("rule_lead_two"))
        if rules.bidding == "points":
            step = msg("bid_step_text", step=rules.bid_step) if rules.bid_step > 1 else ""
            lines.append(msg("rule_auction_points", min=rules.min_bid, max=rules.max_bid, step=step))
        elif rules.bidding == "low_card":
            lines.append(msg("rule_auction_low", min=rules.min_bid, suit_key=suit_key))
        if rules.auction:
            lines.append(msg("rule_last_must_bid" if rules.all_pass == "last_must_bid" else "rule_all_pass_void",
                             min=rules.min_bid))
        if rules.talon:
            lines.append(msg("rule_talon", n=rules.talon, suit_key=suit_key,
                             discard_example=" ".join(Card.parse(c).text(n) for c in ("5O", "6C"))))
        if rules.auction and rules.trump_from == "called" and rules.bidding != "low_card":
            lines.append(msg("rule_called_buia" if rules.call_time == "after_first_trick" else "rule_called",
                             call_example=Card.parse("3O").text(n)))
        if rules.contract in ("solo", "called"):
            lines.append(msg(f"rule_contract_{rules.contract}"))
        if rules.declarations in ("vales", "on_lead"):
            lines.append(msg(f"rule_declarations_{rules.declarations}", suit_key=suit_key))
        if rules.capote:
            lines.append(msg("rule_capote"))
        return lines

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
        self._trump = view.trump
        for seat, action in view.history[self._told_actions:]:
            self._tell_action(seat, action, view)
        self._told_actions = len(view.history)
        if view.rules.auction:
            self._tell_auction_events(view)
        finished = view.tricks[self._told_tricks:]
        for trick in finished:
            self._tell_trick(trick, view)
        self._told_tricks = len(view.tricks)
        self._tell_announced(view)
        if finished:
            for card in view.hand:
                if card not in self._hand_seen:
                    self.say("you_draw", card=self.card_text(card))
        self._hand_seen = frozenset(view.hand)

    def _tell_announced(self, view: View) -> None:
        """An announced exchange (001) settled after a trick: made (the announcer won it) or taken back (the face-up
        card drawn first). Exchanges made at once were told with their actions."""
        for event in view.exchanges[self._told_exchanges:]:
            you = event.seat == self.seat
            self.say("announced_made_you" if you else "announced_made", who=self.label(event.seat),
                     give=self.card_text(event.given, mark=False), take=self.card_text(event.taken, mark=False))
        self._told_exchanges = len(view.exchanges)
        before, self._announced = self._announced, view.announced
        if before is not None and view.announced is None and not any(
                e.seat == before[0] and e.given is before[1] for e in view.exchanges):
            seat, card = before
            self.say("announced_back_you" if seat == self.seat else "announced_back", who=self.label(seat),
                     give=self.card_text(card, mark=False))

    def _tell_auction_events(self, view: View) -> None:
        """What the view shows has changed beyond the actions told: the auction won, the talon shown, another
        seat's discard (face down), the contract, and the partner once the called card is played."""
        before, phase = self._phase, view.phase
        self._phase = phase
        if before == "bid" and phase != "bid" and view.turn is not None:
            # The auction is over and its winner acts next: he takes the talon, names the trump or calls.
            high = self._high_bid(view)
            winner = view.turn
            if high is not None:
                self.say("you_win_auction" if winner == self.seat else "auction_won", style="bold",
                         who=self.label(winner), bid=self.bid_text(high))
            if view.call_pending:
                self.say("you_call_after_first_trick" if winner == self.seat else "call_after_first_trick",
                         who=self.label(winner))
            if view.talon:
                key = "you_take_talon" if winner == self.seat else "talon_shown"
                self.say(key, who=self.label(winner), cards=self.cards_text(view.talon, mark=False))
        if before == "discard" and phase != "discard" and view.turn != self.seat:
            self.say("discards_hidden", who=self.label(view.turn) if view.turn is not None else "-",
                     n=len(view.talon))
        contract = view.contract
        if contract is None:
            return
        if not self._contract_told:
            self._contract_told = True
            who, mine = self.label(contract.declarer), contract.declarer == self.seat
            self.say("contract_line_you" if mine else "contract_line", style="bold", who=who,
                     points=contract.points, suit=self.suit_text(contract.trump))
            if contract.called is not None:
                self.say("contract_called_you" if mine else "contract_called", card=self.card_text(contract.called),
                         who=who)
                if contract.called in view.hand:  # the person knows from their own hand, and only they do
                    if contract.declarer == self.seat:
                        self.say("you_alone", card=self.card_text(contract.called))
                    else:
                        self.say("you_are_partner", card=self.card_text(contract.called), who=who)
        if contract.called is not None and contract.partner is not None and not self._partner_told:
            self._partner_told = True
            card, declarer, partner = self.card_text(contract.called), contract.declarer, contract.partner
            if partner == declarer:
                key = "alone_revealed_you" if declarer == self.seat else "alone_revealed"
                self.say(key, style="bold", card=card, who=self.label(declarer))
            elif partner == self.seat:
                self.say("partner_revealed_you", style="bold", card=card, who=self.label(declarer))
            elif declarer == self.seat:
                self.say("partner_revealed_yours", style="bold", card=card, who=self.label(partner))
            else:
                self.say("partner_revealed", style="bold", card=card, who=self.label(partner),
                         declarer=self.label(declarer))

    def _tell_action(self, seat: int, action: Action, view: View) -> None:
        you = seat == self.seat
        who = self.label(seat)
        if isinstance(action, Bid):
            self.say("you_bid" if you else "bids", who=who, points=action.points)
            return
        if isinstance(action, RankBid):
            self.say("you_name_rank" if you else "names_rank", who=who, rank=self._rank_text(action.rank))
            return
        if isinstance(action, Cut):
            self.say("you_cut_way" if you else "cuts_way", who=who, way=action.way)
            self._tell_deal(view)
            return
        if isinstance(action, Pass):
            if not (view.tricks or view.trick):  # (a pass after a card lets a vale go: nothing is said at a table)
                self.say("you_pass" if you else "passes", who=who)
            return
        if isinstance(action, Discard):  # the view holds only the person's own discard
            points = sum(view.rules.card_points(c) for c in action.cards)
            self.say("you_discard" if you else "discards", who=who, cards=self.cards_text(action.cards, mark=False),
                     points=points)
            return
        if isinstance(action, TrumpChoice):
            self.say("you_name_trump" if you else "names_trump", who=who, suit=self.suit_text(action.suit))
            return
        if isinstance(action, Call):
            self.say("you_call" if you else "calls", who=who, card=self.card_text(action.card, mark=False))
            return
        if isinstance(action, Declare):
            key = ("you_declare" if you else "declares") + ("_vales" if view.rules.declarations == "vales" else "")
            self.say(key, style="bold", who=who, suit=self.suit_text(action.suit),
                     points=self.declare_points(action.suit, view))
            return
        if isinstance(action, Announce):
            self._announced = (seat, action.card)
            face = view.turned if view.face_up is None else view.face_up
            take = self.card_text(face, mark=False) if face is not None else Text("-")
            self.say("you_announce" if you else "announces", who=who, give=self.card_text(action.card, mark=False),
                     take=take)
            return
        if isinstance(action, Exchange):
            event = view.exchanges[self._told_exchanges]
            self._told_exchanges += 1
            give, take = self.card_text(event.given, mark=False), self.card_text(event.taken, mark=False)
            if you:
                self.say("you_exchange", give=give, take=take)
            else:
                self.say("exchanges", who=who, give=give, take=take)
            return
        if isinstance(action, Signal):
            if (seat, action.name) in view.signals:  # the view says which signals this seat may see
                self.say("you_signal" if you else "signal_made", who=who, signal=self.signal_name(action.name))
            return
        if isinstance(action, Claim):
            self.say("you_claim" if you else "claims", style="bold", who=who)
            return
        card = _card_of(action)
        if card is None:  # an action of a variant that plays no card: its notation says what it is
            self.say("you_act" if you else "acts", who=who, action=action.text(self.notation))
            return
        shown = self.card_text(card)
        if isinstance(action, Arrastro):
            self.say("you_arrastro" if you else "plays_arrastro", style="bold", who=who, card=shown)
        elif not isinstance(action, Play):  # a play with something more: keep its notation
            shown.append(f" [{action.text(self.notation)}]")
            self.say("you_play" if you else "plays", who=who, card=shown)
        elif you:
            self.say("you_play", card=shown)
        else:
            self.say("plays", who=who, card=shown)

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
        if result.scores is not None:
            self._end_contract_hand(view, result)
            return
        self.console.rule()
        if result.reason == "three-killed":
            self._tell_three_killed(view)
        if view.history and isinstance(view.history[-1][1], Claim):
            self._tell_claimed(view.history[-1][0], view)
        self.say("hand_over", style="bold", hand=len(self.match.games), points=self._points_text(result.side_points))
        for bonus in result.bonuses:
            self.say("bonus_line", who=self.side_label(bonus.side), why=self.bonus_why(bonus.why), points=bonus.points)
        if view.rules.hand_winner == "least":
            self.say("goal_least")
        if result.reason == "capote" and result.winner is not None:
            self.say("capote", style="bold", who=self.side_label(result.winner))
        if result.shared:
            self.say("hand_shared", style="bold", who=", ".join(self.side_label(s) for s in result.shared))
        elif result.winner is None:
            self.say("hand_replay" if result.replay else "hand_draw", style="bold")
        elif result.winner == self.my_side:
            self.say("hand_won_you", style="bold green")
        else:
            self.say("hand_won", style="bold", who=self.side_label(result.winner))
        label, score = self.match_score()
        self.console.print(f"{label}: {score}.")
        self.console.print()

    def _end_contract_hand(self, view: View, result: HandResult) -> None:
        """A hand with a contract: void when everybody passed; else made or set, and the match points it gives."""
        self.console.rule()
        hand = len(self.match.games)
        contract = view.contract
        if result.reason == "all-passed" or contract is None:
            self.say("hand_void", style="bold", hand=hand, who=self.label(self.match.next_dealer))
        else:
            self.say("hand_over", style="bold", hand=hand, points=self._points_text(result.side_points))
            for bonus in result.bonuses:
                self.say("bonus_line", who=self.side_label(bonus.side), why=self.bonus_why(bonus.why),
                         points=bonus.points)
            side = [contract.declarer] + [s for s in contract.side() if s != contract.declarer]
            took = sum(result.side_points[s] for s in side)
            who = " + ".join(self.label(s) for s in side)
            made = result.reason == "made"
            self.say("contract_made" if made else "contract_set", style="bold", who=who, points=contract.points,
                     took=took)
            signed = view.rules.contract == "called"
            scores = " · ".join(
                f"{self.label(s)} {v:+d}" if signed else f"{self.label(s)} {v}"
                for s, v in enumerate(result.scores or ())
            )
            self.say("hand_scores", scores=scores)
        label, score = self.match_score()
        self.console.print(f"{label}: {score}.")
        self.console.print()

    def _tell_three_killed(self, view: View) -> None:
        """Muerte al tres: the ace of trumps took the three of trumps, which ended the hand."""
        if view.trump is None:
            return
        ace = Card(Rank.ACE, view.trump)
        for trick in reversed(view.tricks):
            if ace in trick.cards:
                killer = trick.seat_of(trick.cards.index(ace), view.players)
                three = Card(Rank.THREE, view.trump)
                self.say("three_killed", style="bold", who=self.label(killer),
                         ace=self.card_text(ace, mark=False), three=self.card_text(three, mark=False))
                return

    def _tell_claimed(self, seat: int, view: View) -> None:
        """The cards a claim took: once the stock is gone, every card not yet played was in a hand."""
        played = set(view.played_cards())
        cards = [c for c in view.rules.deck_cards(view.players) if c not in played]
        line = Text()
        for k, card in enumerate(cards):
            if k:
                line.append(", ")
            line.append(self.card_text(card))
        points = sum(view.rules.card_points(c) for c in cards)
        self.say("claimed", who=self.label(seat), cards=line, points=points)

    def match_score(self) -> tuple[str, str]:
        """The match standing as the rules count it (hands won, points or game points) and the goal."""
        label, goal = self._match_goal()
        return label, f"{self._points_text(self.match.score)} ({goal})"

    def _match_goal(self) -> tuple[str, str]:
        rules, msg = self.rules, self.msg
        if rules.match == "target_points":
            label, target = msg("match_points"), rules.target_points
        elif rules.match == "game_points":
            label, target = msg("game_points"), rules.target_game_points
        else:
            label, target = msg("hands_won"), rules.target_hands
        if rules.trump_rotation:
            deals = len(self.match.games) if self.dealt else 1
            return label, msg("goal_rotation", deal=min(deals, 4))
        if rules.match == "fixed_hands":
            match = self.match
            deal = match.deals_done + (0 if match.game.is_over() else 1)
            if deal > rules.hands or (deal == rules.hands and match.game.is_over() and match.winner is None):
                return label, msg("goal_fixed_level", n=rules.hands)
            return label, msg("goal_fixed", deal=deal, n=rules.hands)
        if rules.match == "target_points":
            return label, msg("goal_points", target=target)
        if rules.match == "game_points":
            return label, msg("goal_game_points", target=target)
        if target == 1:
            return label, msg("goal_hands_one")
        return label, msg("goal_hands", target=target)

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


def signal_order(rules: Rules | None = None) -> tuple[str, ...]:
    """The signals of the rules' ``signal_set`` in order: ``s1`` is always the first (``trump-ace``)."""
    return SIGNAL_SETS[rules.signal_set] if rules is not None else SIGNAL_ORDER


def signal_key(name: str, rules: Rules | None = None) -> str:
    """The key that makes a signal at the prompt: ``s1`` for ``trump-ace``, in the order of the rules' set."""
    return f"s{signal_order(rules).index(name) + 1}"


def _after_word(key: str, words: Sequence[str]) -> str | None:
    """What follows one of ``words`` at the start of ``key`` (``""`` for the word alone), or ``None``."""
    for word in words:
        if key == word:
            return ""
        if key.startswith(word + " "):
            return key[len(word) + 1:].strip()
    return None


def _signal_named(text: str) -> str | None:
    """The signal a name stands for: its key (``trump-ace``) or its name in any language (``as de triunfo``)."""
    key = " ".join(text.lower().split())
    if key in SIGNALS:
        return key
    for name, names in SIGNAL_NAMES.items():
        if any(key == names[lang].lower() for lang in LANGS if lang in names):
            return name
    return None
