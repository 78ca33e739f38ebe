"""Before the first deal, as at a real table: the draw for partners or for the dealer, and the cut.

:class:`Table` is a match still to be dealt (its decks and its random source, fixed by the seed);
:class:`DrawAndCut` shows the draws and asks the person for the cut when it is theirs. Every later deal is
cut here too. ``brisca play --no-cut`` starts from a dealt match and skips the draw for the dealer and the cuts.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rich.text import Text

from brisca.agents import Agent
from brisca.cards import Card
from brisca.cli.screen import Screen
from brisca.cli.words import QUIT_WORDS, Outcome, clip, typed_number
from brisca.game import (
    MIN_CUT,
    DealerDraw,
    Match,
    PartnerDraw,
    cut,
    draw_for_partners,
    draw_leaders,
    shuffled,
)
from brisca.rules import Rules


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

    def deal(self, dealer: int, deck: Sequence[Card], draw: PartnerDraw | None = None,
             dealer_draw: DealerDraw | None = None) -> Match:
        """The match, its first hand dealt by ``dealer`` from ``deck`` (already cut), after ``draw`` or
        ``dealer_draw`` if any (kept in the match, and so in its record)."""
        return Match(self.rules, self.players, dealer=dealer, seed=_derived_seed(self.seed, "match"), deck=deck,
                     draw=draw, dealer_draw=dealer_draw)


class DrawAndCut(Screen):
    """The draw for partners and seats, the draw for the dealer, and the cut before each deal: shown, and asked
    of the person when the cut is theirs (a computer's cut is drawn)."""

    table: Table | None
    agents: Mapping[int, Agent]
    #: The person's place before a draw for partners (``seat`` is then where the draw seats them).
    player: int
    _draw: PartnerDraw | None
    _rng: random.Random

    def _first_deal(self) -> Outcome | None:
        """Draw for the dealer (unless the draw for partners chose him), have the deck cut, deal the first hand."""
        assert self.table is not None
        dealer_draw = None
        if self._draw is not None:
            dealer = self._draw.dealer
        else:
            dealer_draw = DealerDraw.drawn(self.rules, self.players, self._rng)
            dealer = dealer_draw.dealer
            self._tell_draw([[c for _s, c in r] for r in dealer_draw.rounds])
        deck = self.table.first_deck()
        at = self._cut(dealer, len(deck))
        if isinstance(at, Outcome):
            return at
        self._match = self.table.deal(dealer, cut(deck, at), self._draw, dealer_draw)
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
            elif key.isascii() and key.isdecimal() and low <= typed_number(key) <= high:
                at = int(key)
            else:
                self._error(self.msg("err_cut", text=clip(line.strip()), min=low, max=high))
                continue
            self.say("you_cut", at=at)
            return at
