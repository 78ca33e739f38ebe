"""Reading a move: the prompt of a turn, and the text typed at it parsed into an action or an explanation.

The screen explains what it can (a position, a card not held, the exchange, a signal, a bid out of range, a
duty of play) from the view and the rules before the engine is asked; the engine's own refusal is shown
for the rest. Kept apart from the drawing so the many ways a line can be wrong read in one place.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rich.text import Text

from brisca.actions import (
    CUT_WAYS,
    PASS,
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
from brisca.cards import ITALIAN, LANGS, Card, Rank, Suit
from brisca.cli.screen import Screen, card_of
from brisca.cli.words import (
    ARRASTRO_WORDS,
    BID_WORDS,
    CALL_WORDS,
    CLAIM_WORDS,
    CUT_WORDS,
    DECLARE_WORDS,
    DISCARD_WORDS,
    EXCHANGE_WORDS,
    PASS_WORDS,
    RANK_WORDS,
    SAY_WORDS,
    SIGNAL_WORDS,
    TRUMP_WORDS,
    VALE_WORDS,
    after_word,
    clip,
    signal_key,
    signal_order,
    typed_number,
)
from brisca.errors import BriscaError, InvalidCardError
from brisca.game import View
from brisca.rulebook import SIGNAL_NAMES

_SIGNAL_KEY = re.compile(r"s(\d+)")
#: A card written with the number 10, which the Italian notation does not read (see brisca.cards).
_TEN = re.compile(r"(?<![0-9])10([ocebds])(?![a-z])")


def _signal_named(text: str) -> str | None:
    """The signal a name stands for: its key (``trump-ace``) or its name in any language (``as de triunfo``)."""
    key = " ".join(text.lower().split())
    if key in SIGNALS:
        return key
    for name, names in SIGNAL_NAMES.items():
        if any(key == names[lang].lower() for lang in LANGS if lang in names):
            return name
    return None


class MoveReader(Screen):
    """The prompt of the person's turn and the parsing of what they type: plays, the exchange, signals,
    declarations, and the auction, the discard, the trump, the call and the cut of the dealt-out games."""

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
        key = "prompt" if len(view.hand) > 1 else "prompt_one"
        return self._read(self.msg(key, n=len(view.hand), example=self.example(view), exchange=extra))

    def show_hint(self, view: View) -> None:
        """``h``: the best move as the expert's search reads the person's own view (never the hidden cards), with
        its win chance and point margin (:func:`brisca.analysis.read_view`)."""
        from brisca.analysis import read_view

        found = read_view(view, seed=len(view.history))
        if found is None:
            self.say("hint_none")
            return
        best = found[0].best
        self.say("hint", move=self.card_str(best.action.card) if isinstance(best.action, Play) else
                 best.action.text(self.notation), win=f"{best.win:.0%}", margin=f"{best.margin:+.0f}",
                 worlds=found[0].worlds)

    def example(self, view: View) -> str:
        """A card to show as an example of the notation: the first one shown in the person's hand."""
        hand = self.shown_hand(view)
        return (hand[0] if hand else Card(Rank.THREE, Suit.OROS)).text(self.notation)

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
        declared = after_word(" ".join(key.split()), DECLARE_WORDS)
        if declared is not None:
            return self.declare_move(declared, text, view)
        if key.isascii() and key.isdecimal():
            n = typed_number(key)
            if not 1 <= n <= len(hand):
                return self.msg("err_position" if len(hand) > 1 else "err_position_one", n=clip(key), max=len(hand))
            action = Play(hand[n - 1])
        elif key in EXCHANGE_WORDS:
            return self.exchange_move(view)
        elif key in ARRASTRO_WORDS:
            return self.arrastro_move(view)
        elif key in CLAIM_WORDS:
            return self.claim_move(view)
        else:
            said = after_word(" ".join(key.split()), SAY_WORDS)
            signal = self.signal_move(text if said is None else said, view, aloud=said is not None)
            if signal is not None:
                return signal
            ten = self.ambiguous_ten(text)
            if ten is not None:
                return ten
            try:
                action = Action.parse(text, self.notation)
            except BriscaError:
                return self.msg("err_unknown" if len(hand) > 1 else "err_unknown_one", text=clip(text), max=len(hand),
                                example=self.example(view))
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
        card = card_of(action)
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
        if view.rules.claim_by == "side":
            return self.msg("err_claim_side")
        if view.stock_count or view.trick:
            return self.msg("err_claim_not_now")
        return self.msg("err_claim_fails" if self.teams else "err_claim_fails_solo")

    def signal_move(self, text: str, view: View, aloud: bool = False) -> Action | str | None:
        """The signal ``text`` asks for (``s1``, ``signal trump-ace``, a signal's name in any language; said aloud
        after ``say``), why it cannot be made now, or ``None`` when ``text`` is not about signals."""
        key = " ".join(text.lower().split())
        order = signal_order(view.rules)
        number = _SIGNAL_KEY.fullmatch(key)
        if number:
            n = typed_number(number.group(1))
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
                elif card_of(action) is not None and not isinstance(action, Exchange):
                    made.clear()
        if name in made:
            return self.msg("err_signal_done", signal=self.signal_name(name))
        return self.msg("err_signal_untrue", signal=self.signal_name(name))

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
            rest = after_word(key, DISCARD_WORDS)
            return self.discard_move(key if rest is None else rest, view)
        if view.phase == "trump":
            rest = after_word(key, TRUMP_WORDS)
            try:
                suit = Suit.parse(key if rest is None else rest)
            except InvalidCardError:
                return msg("err_not_suit", text=clip(text), suits=self._suit_choices())
            return TrumpChoice(suit)
        rest = after_word(key, CALL_WORDS)
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
        rest = after_word(key, CUT_WORDS)
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
        rest = after_word(key, (*VALE_WORDS, *DECLARE_WORDS))
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
        rest = after_word(key, BID_WORDS)
        rest = key if rest is None else rest
        if rules.bidding == "low_card":
            ranked = after_word(rest, RANK_WORDS)
            return self.rank_bid_move(rest if ranked is None else ranked, text, view)
        if not (rest.isascii() and rest.isdecimal()):
            return msg("err_not_bid", text=clip(text), range=self._bid_range(view))
        n = typed_number(rest)
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
                i = typed_number(token)
                if not 1 <= i <= len(hand):
                    return msg("err_position" if len(hand) > 1 else "err_position_one", n=clip(token), max=len(hand))
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

    @staticmethod
    def _rank_bids(view: View) -> list[int]:
        return [a.rank for a in view.legal_actions if isinstance(a, RankBid)]

    def _call_example(self, view: View) -> str:
        """A card to show in the call prompt: the first the person does not hold (calling one's own is allowed),
        and that was not played in a first trick before the call."""
        mine = set(view.hand) | set(view.played_cards())
        card = next((c for c in view.rules.deck_cards(view.players) if c not in mine), Card(Rank.THREE, Suit.OROS))
        return card.text(self.notation)
