"""Narration: what happened at the table, told from the person's view as the match goes on.

The deal, each move, each finished trick, the auction's events, the end of a hand and of the match are
told once each, by counting how much of the view's public history has been told: the screen never
reveals more than the view, and never tells a thing twice.
"""

from __future__ import annotations

from rich.text import Text

from brisca.actions import (
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
from brisca.cards import Card, Rank
from brisca.cli.screen import Screen, card_of
from brisca.game import HandResult, Trick, View, hand_game_points
from brisca.rulebook import title_in


class Narrator(Screen):
    """Tells the person what happened: the welcome and the seating, each deal, the moves and tricks since the
    last telling, the end of each hand and of the match."""

    # Per-hand narration state: how much of the view's public history has been told.
    _told_actions: int
    _told_exchanges: int
    _told_tricks: int
    #: The trump laid under the face-up card as last told (``trump_exchange: announced``).
    _announced: tuple[int, Card] | None
    #: When the exchange out of turn was last offered (tricks, stock): offered once a trick, not at every move.
    _offered: tuple[int, int] | None
    _hand_seen: frozenset[Card]
    # Games with an auction: the phase last told, and whether the contract and the partner have been told.
    _phase: str
    _contract_told: bool
    _partner_told: bool

    def _welcome(self) -> None:
        rules, players = self.rules, self.players
        if rules.partners == "draw":
            self.say("welcome_draw", style="bold", title=title_in(rules, self.lang), players=players)
        else:
            self.say("welcome", style="bold", title=title_in(rules, self.lang), players=players, seat=self.seat)

    def _show_seating(self) -> None:
        """Who sits where (after the draw for partners, if any), the person's partners, the goal."""
        rules, players = self.rules, self.players
        self.console.print(self.msg("seating"))
        for s in range(players):
            you = f" ({self.msg('you')})" if s == self.seat and self.name else ""
            self.console.print(f"  {s}  {self.label(s)}{you}")
        partners = [s for s in range(players) if s != self.seat and rules.side_of(s, players) == self.my_side]
        if partners:
            self.say("partners" if len(partners) > 1 else "partner_one", who=", ".join(self.label(s) for s in partners))
        if rules.hand_winner == "least":
            self.say("goal_least", style="bold")
        self.say("match_goal", goal=self._match_goal()[1])  # before the draw and the cut ask anything

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
            key = ("new_hand_cut_you" if view.cutter == self.seat
                   else "new_hand_cut_dealer_you" if view.dealer == self.seat else "new_hand_cut")
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

    def _narrate(self) -> None:
        """Tell what happened since the last call, from the person's view: moves, then a finished trick."""
        view = self.view()
        self._trump = view.trump
        for i in range(self._told_actions, len(view.history)):
            seat, action = view.history[i]
            self._tell_action(seat, action, view, i)
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
        """An announced exchange (Fournier) settled after a trick: made (the announcer won it) or taken back (the
        face-up card drawn first). Exchanges made at once were told with their actions."""
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

    def _tell_action(self, seat: int, action: Action, view: View, i: int) -> None:
        """Tell ``action``, made by ``seat``, the ``i``-th of the hand's history."""
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
            points = self.declare_points(action.suit, view)
            trick = self.vale_trick(view, i) if view.rules.declarations == "vales" else len(view.tricks)
            if trick < len(view.tricks):  # marked once the trick was won: its winners take the vale
                side = self.rules.side_of(view.tricks[trick].winner, self.players)
                self.say(key + "_won", style="bold", who=who, suit=self.suit_text(action.suit), points=points,
                         side=self.side_label(side))
                return
            self.say(key, style="bold", who=who, suit=self.suit_text(action.suit), points=points)
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
            self.say("you_claim" if you else "claims" if self.teams else "claims_solo", style="bold", who=who)
            return
        card = card_of(action)
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
        if view.claimed_by is not None:
            if not (view.history and isinstance(view.history[-1][1], Claim)):  # made for a side (claim_by: side)
                you = view.claimed_by == self.seat
                self.say("you_claim" if you else "claims", style="bold", who=self.label(view.claimed_by))
            self._tell_claimed(view.claimed_by, view)
        self.say("hand_over", style="bold", hand=len(self.match.games), points=self._points_text(result.side_points))
        for bonus in result.bonuses:
            self.say("bonus_line", who=self.side_label(bonus.side), why=self.bonus_why(bonus.why), points=bonus.points)
        if view.rules.hand_winner == "least":
            self.say("goal_least")
        if result.reason == "capote" and result.winner is not None:
            self.say("capote" if view.rules.capote == "hand" else "capote_match", style="bold",
                     who=self.side_label(result.winner))
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
            if view.rules.match == "game_points":  # the contract's score counts for nothing but its game points
                won = hand_game_points(view.rules, self.players, result)
                self.say("hand_game_points", scores=" · ".join(
                    f"{self.side_label(s)} {v}" for s, v in enumerate(won)))
            else:
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
