"""The help screen: the keys these rules use and a summary of the rules in play, read from the rules.

Only the keys and rules of the preset being played are listed (no exchange key without an exchange), so
the help is worked out from :class:`~brisca.rules.Rules` rather than written per variant.
"""

from __future__ import annotations

from brisca.cards import ITALIAN, SPANISH, Card, Rank, Suit
from brisca.cli.screen import Screen
from brisca.cli.words import signal_key, signal_order


class HelpScreen(Screen):
    """``?`` at the prompt: the keys, the ranks and points, the duty to follow, the exchange, the goal, and a
    line for each rule beyond the plain game."""

    def help_keys(self) -> str:
        """The keys of the help, one a line: only those these rules play (no exchange key without an exchange)."""
        rules, msg, n = self.rules, self.msg, self.notation
        examples = [Card.parse(c).text(n) for c in ("3O", "12E")]
        ace = self._trump_ace()
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
        if rules.claim and rules.claim_by == "seat":
            keys.append(("r", msg("help_key_claim")))
        if rules.signals != "off" and self.teams:
            keys.append(("s1, s2 ...", msg("help_key_signal")))
        if rules.declarations != "off":
            keys.append((f"declare {n.suit_letter(Suit.OROS)}", msg("help_key_declare", suits=self._suit_choices())))
        keys += [
            ("g", msg("help_key_sort")),
            ("l", msg("help_key_last")),
            ("h", msg("help_key_hint")),
            (msg("help_empty_line"), msg("help_key_table")),
            ("?", msg("help_key_help")),
            ("q", msg("help_key_quit")),
        ]
        width = max(14, *(len(k) + 2 for k, _ in keys))
        return "".join(f"  {k.ljust(width)}{text}\n" for k, text in keys)

    def _trump_ace(self) -> str:
        """The ace of trumps as typed to call arrastro (``1C`` when cups are trumps); the ace of coins stands
        for it before the trump is known."""
        return Card(Rank.ACE, self._trump if self._trump is not None else Suit.OROS).text(self.notation)

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
            lines.append(msg("rule_arrastro", ace=self._trump_ace()))
        if rules.claim:
            lines.append(msg("rule_claim_side" if rules.claim_by == "side"
                             else "rule_claim" if self.teams else "rule_claim_solo"))
        if rules.kill_three:
            lines.append(msg("rule_kill_three"))
        if rules.signals != "off" and self.teams:
            names = [n for n in signal_order(rules) if rules.signal_asks or n not in ("ask-points", "ask-cards")]
            # The name typed after ``signal`` in the person's language; in English the engine's name too (a record's).
            engine = self.lang == "en"
            listed = ", ".join(f"{signal_key(n, rules)} {self.signal_name(n)}" + (f" ({n})" if engine else "")
                               for n in names)
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
        if rules.capote != "off":
            lines.append(msg("rule_capote" if rules.capote == "hand" else "rule_capote_match"))
        return lines
