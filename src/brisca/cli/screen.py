"""The terminal's screen: how seats, sides, cards, bids and scores are named, and the table drawn.

Everything shown comes from ``game.view(seat)``; the words and the drawing are shared by every dialog of a
match (the cut, the moves, the narration, the help), which is why they sit below them in one base class.
"""

from __future__ import annotations

import string
from collections.abc import Callable, Sequence

from rich.console import Console
from rich.text import Text

from brisca.actions import Action, Announce, Arrastro, Bid, Claim, Declare, Exchange, Pass, Play, RankBid, Signal
from brisca.agents import LEVELS
from brisca.cards import Card, Lang, Notation, Rank, Suit
from brisca.cli.words import clip, signal_key
from brisca.game import Contract, Match, Trick, View
from brisca.i18n import Messages
from brisca.rulebook import SIGNAL_NAMES
from brisca.rules import Rules

_SUIT_STYLE: dict[Suit, str] = {
    Suit.OROS: "yellow",
    Suit.COPAS: "red",
    Suit.ESPADAS: "bright_blue",
    Suit.BASTOS: "green",
}
_FORMATTER = string.Formatter()
#: The computer levels of ``brisca play --ai``, each named on screen by its message ``level_NAME``.
LEVEL_KEYS = tuple(LEVELS)


def card_of(action: Action) -> Card | None:
    """The card an action names, if any (plays, exchanges and the card actions of variants)."""
    card = getattr(action, "card", None)
    return card if isinstance(card, Card) else None


class Screen:
    """What the person sees: seats, sides, cards and scores named in their language, the table drawn from
    their view, and the prompt they answer.

    The base of :class:`~brisca.cli.play.TerminalGame`, which sets the state declared here; the dialogs of
    the match (:mod:`~brisca.cli.cut`, :mod:`~brisca.cli.moves`, :mod:`~brisca.cli.narration`,
    :mod:`~brisca.cli.helptext`) build on it.
    """

    msg: Messages
    lang: Lang
    console: Console
    seat: int
    name: str | None
    ai_name: str
    read_line: Callable[[], str]
    echo: bool
    rules: Rules
    players: int
    #: Cards are written in the deck's notation (Italian for the briscola family: ``RD``) and named in the
    #: language of the screen (``re di denari``, ``rey de oros``, ``king of coins``), whatever the deck.
    notation: Notation
    #: The language cards are named in: the screen's, for every deck.
    card_lang: Lang
    #: Whether the hand is shown sorted by suit and rank (toggled with ``g``) or in the order it came in.
    sorted_hand: bool
    teams: bool
    my_side: int
    _match: Match | None
    #: The trump of the hand as last told: a card of it is tagged on screen.
    _trump: Suit | None

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

    def view(self) -> View:
        """The person's view of the current hand: everything on their screen comes from here."""
        return self.match.game.view(self.seat)

    def shown_hand(self, view: View) -> tuple[Card, ...]:
        """The person's hand in the order the screen shows it (and positions count): as it came in, or sorted
        by suit (trumps first) and, within a suit, from the highest card to the lowest in these rules."""
        if not self.sorted_hand:
            return view.hand
        strength = view.rules.strength_table
        trump = view.trump
        return tuple(sorted(view.hand, key=lambda c: (c.suit is not trump, c.suit, -strength[c.index])))

    # ------------------------------------------------------------------ the prompt and the console

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

    def print_row(self, name: str, value: Text | str, width: int) -> None:
        """A row of the table: ``name`` in a column ``width`` wide, ``value`` beside it; a value longer than the
        line wraps under itself, not under the names. Output that is not a terminal gets each row on one line."""
        value = value if isinstance(value, Text) else Text(value)
        if self.console.soft_wrap or self.console.width <= width + 10:
            self.console.print(Text().append(name.ljust(width), style="bold").append(value))
            return
        for k, line in enumerate(value.wrap(self.console, self.console.width - width)):
            line.rstrip()
            self.console.print(Text().append((name if k == 0 else "").ljust(width), style="bold").append(line))

    def _error(self, message: str) -> None:
        self.console.print(Text(message, style="bold red"))

    # ------------------------------------------------------------------ names

    def label(self, seat: int) -> str:
        """How a seat is named on screen: the person's name or "You", else "Seat 2 (greedy, partner)"."""
        if seat == self.seat:
            return self.name or self.msg("you")
        tags = [self.level_text(self.ai_name)] if self.ai_name else []
        if self.teams and self.rules.side_of(seat, self.players) == self.my_side:
            tags.append(self.msg("partner"))
        base = self.msg("seat", n=seat)
        return f"{base} ({', '.join(tags)})" if tags else base

    def level_text(self, level: str) -> str:
        """A computer level in the person's language (``experto``); another agent's name as it is."""
        return self.msg(f"level_{level}") if level in LEVEL_KEYS else level

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

    def cards_text(self, cards: Sequence[Card], *, mark: bool = True) -> Text:
        line = Text()
        for k, card in enumerate(cards):
            if k:
                line.append(", ")
            line.append(self.card_text(card, mark=mark))
        return line

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

    def bid_text(self, action: Action) -> str:
        """A bid as the auction shows it: ``110``, ``3 (tres)`` or the word for a pass."""
        if isinstance(action, Bid):
            return str(action.points)
        if isinstance(action, RankBid):
            return self._rank_text(action.rank)
        return self.msg("pass_word")

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

    def declare_points(self, suit: Suit, view: View) -> int:
        """What a declared king-knight pair scores: 40 in trumps, 20 otherwise."""
        return 40 if suit is view.trump else 20

    # ------------------------------------------------------------------ points and the match score

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
        for i, (seat, action) in enumerate(view.history):
            if isinstance(action, Declare):
                points = self.declare_points(action.suit, view)
                if rules.declarations != "vales":
                    out[rules.side_of(seat, view.players)] += points
                else:
                    trick = self.vale_trick(view, i)
                    if trick < len(view.tricks):
                        out[rules.side_of(view.tricks[trick].winner, view.players)] += points
        return out

    @staticmethod
    def vale_trick(view: View, i: int) -> int:
        """The trick (counted from 0 in the hand) whose winner takes the vale declared at ``view.history[i]``.

        Declared as a card of the pair is played (the seat's next action plays it): that card's trick; else
        marked once the seat's card was down (Porteña): the trick of the last card played before it.
        """
        history = view.history
        seat, action = history[i]
        played = sum(isinstance(a, Play | Arrastro) for _s, a in history[:i])
        nxt = history[i + 1] if i + 1 < len(history) else None
        with_card = (nxt is not None and nxt[0] == seat and isinstance(nxt[1], Play | Arrastro)
                     and isinstance(action, Declare) and nxt[1].card.suit is action.suit)
        return played // view.players if with_card or not played else (played - 1) // view.players

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
            label, target = msg("hands_won"), rules.hands_to_win(self.players)
        if rules.trump_rotation:
            deals = len(self.match.games) if self.dealt else 1
            return label, msg("goal_rotation", deal=min(deals, 4))
        if rules.match == "fixed_hands":
            if not self.dealt:  # told before the first deal
                return label, msg("goal_fixed", deal=1, n=rules.hands)
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

    # ------------------------------------------------------------------ the table

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
        if view.announced is not None:  # (Fournier) the trump under the face-up card, in everybody's sight
            seat, card = view.announced
            rows.append((msg("announced_row"), Text(f"{self.label(seat)}: ").append(self.card_text(card))))
        rows.append((msg("turn"), self.label(view.turn) if view.turn is not None else "-"))
        width = max(len(name) for name, _value in rows) + 2
        for name, value in rows:
            self.print_row(name, value, width)
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
                self.console.print(Text(f"  [r] {msg('claim_option' if self.teams else 'claim_option_solo')}"))
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
        if high == self.seat:
            return self.styled("talon_up_you", cards=self.cards_text(view.talon))
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

    @staticmethod
    def _winning_card(trick: Trick, view: View) -> Card:
        for i, card in enumerate(trick.cards):
            if trick.seat_of(i, view.players) == trick.winner:
                return card
        raise AssertionError("the winner of a trick played a card in it")  # pragma: no cover
