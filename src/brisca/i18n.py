"""The terminal game's messages in Spanish, English and Italian, translated by the gettext catalogs.

English is the source language: each message's English :meth:`str.format` template is written here (the
rule pages' sentences in :mod:`brisca.rulebook`, the web page's in :mod:`brisca.server.pagetext`), and the
catalogs ``brisca/locale/LANG/LC_MESSAGES/brisca.mo`` translate it, read with the standard library's
:mod:`gettext`. A message's gettext context is ``AREA:KEY`` (``terminal:plays``) and its msgid is the English
text, so a changed English text leaves its translations fuzzy until they are checked, and the code keeps
calling messages by key. The tests check that every message has the same fields in every language, so
switching language can never raise a ``KeyError`` in the middle of a game::

    >>> Messages("it")("plays", who="Giocatore 1", card="3O tre di denari")
    'Giocatore 1 gioca 3O tre di denari.'
    >>> default_lang({"LANG": "es_ES.UTF-8"}), default_lang({"LC_ALL": "C", "LANG": "it_IT"})
    ('es', 'en')

:mod:`brisca.locale` reads the catalogs; ``docs/translating.md`` tells how they are extracted, translated and
compiled (Babel).
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from brisca.cards import LANGS, Lang
from brisca.locale import translated

#: The terminal game's messages in English, by key (context ``terminal:KEY`` in the catalogs).
_EN: dict[str, str] = {
    "you": "You",
    "seat": "Seat {n}",
    "partner": "partner",
    "your_side": "Your side",
    "other_side": "Other side",
    "seats": "seats {seats}",
    "level_easy": "easy",
    "level_normal": "normal",
    "level_hard": "hard",
    "level_expert": "expert",
    "level_hard-v1": "hard-v1",
    "level_expert-v1": "expert-v1",
    "welcome": "Brisca: {title}, {players} players. You play at seat {seat}.",
    "seating": "At the table:",
    "partners": "Your partners: {who}.",
    "partner_one": "Your partner: {who}.",
    "new_hand": "Hand {hand}. Dealer: {who}. Trump: {suit} (turned card {card}).",
    "new_hand_no_turn": "Hand {hand}. Dealer: {who}. Trump: {suit}.",
    "header": "Hand {hand} · trick {trick}",
    "hand_title": "Hand {hand}",
    "partners_row": "Partners",
    "trump": "Trump",
    "stock": "Stock",
    "stock_face_up": "{count} cards, face-up trump {card}",
    "stock_count": "{count} cards",
    "stock_empty": "empty (the face-up card has been drawn)",
    "points": "Points",
    "hands_won": "Hands won",
    "match_points": "Match points",
    "match_goal": "Goal: {goal}.",
    "goal_hands_one": "the first to win a hand wins the match",
    "goal_hands": "the first to win {target} hands wins the match",
    "goal_points": "the first to reach {target} points wins the match",
    "goal_game_points": "the first to {target} game points wins the match",
    "goal_rotation": "deal {deal} of 4; the most after four wins",
    "game_points": "Game points",
    "goal_fixed": "hand {deal} of {n}; the most hands won wins the match",
    "goal_fixed_level": "{n} hands played and level: one more hand at a time until a side leads",
    "last_trick": "Last trick",
    "last_trick_line": "winner: {who} · {card} · {points} points",
    "none_yet": "none yet",
    "on_table": "On the table",
    "empty_table": "nothing yet",
    "turn": "Turn",
    "your_hand": "Your hand",
    "trump_tag": "trump",
    "exchange_option": "exchange {give} for the face-up {take}",
    "prompt": "Your move (1-{n} or a card like {example}{exchange}, ? help, q quit): ",
    "prompt_one": "Your move (1 or a card like {example}{exchange}, ? help, q quit): ",
    "prompt_exchange": ", x exchange",
    "you_play": "You play {card}.",
    "you_act": "You: {action}.",
    "acts": "{who}: {action}.",
    "not_playable": "not playable now",
    "plays": "{who} plays {card}.",
    "you_exchange": "You exchange {give} for the face-up {take}.",
    "exchanges": "{who} exchanges {give} for the face-up {take}.",
    "you_win_trick": "You win the trick with {card}: {points} points.",
    "wins_trick": "{who} wins the trick with {card}: {points} points.",
    "you_draw": "You draw {card}.",
    "hand_over": "Hand {hand} over. Points: {points}.",
    "hand_won_you": "You win the hand!",
    "hand_won": "{who} wins the hand.",
    "hand_draw": "The hand is drawn: it does not count.",
    "hand_shared": "The hand is tied: it is awarded to {who}.",
    "hand_replay": "The hand is tied: the same dealer deals it again.",
    "match_over": "Match over. Winner: {who}.",
    "match_level": "Match over: it ends level, nobody wins.",
    "match_won_you": "Congratulations, you win the match!",
    "match_lost": "You lose the match. Better luck next time!",
    "last_none": "No trick has finished yet in this hand.",
    "last_header": "Last trick (led by {who}):",
    "err_position": "There is no card number {n} in your hand: choose 1 to {max}.",
    "err_position_one": "There is no card number {n} in your hand: it holds one card, number 1.",
    "err_unknown": "I do not understand \"{text}\". Type a card like {example}, its position 1 to {max}, or ? for"
                   " help.",
    "err_unknown_one": "I do not understand \"{text}\". Type a card like {example}, its position 1, or ? for help.",
    "err_ten": "\"{text}\" is ambiguous: 10 is the jack in a Spanish deck, the king in the Italian count. Type {jack}"
               " or {king}.",
    "err_not_held": "You do not hold {card}.",
    "err_must_play": "You may not play {card} now: these rules make you play one of {cards}.",
    "err_exchange_off": "The trump exchange is not played in these rules.",
    "err_no_face_up": "The face-up trump has already been drawn: there is nothing to exchange.",
    "err_face_up_fixed": "The face-up {card} cannot be exchanged.",
    "err_must_win": "You must win a trick before you may exchange the trump.",
    "err_need_card": "To take the face-up {take} you need {give}.",
    "err_illegal": "Not allowed: {reason}",
    "err_bad_seat": "there is no seat {seat} at a {players}-player table: choose a seat from 0 to {max}",
    "quit": "You leave the match.",
    "eof": "End of input: the match is left unfinished.",
    "interrupted": "Interrupted: the match is left unfinished.",
    "saved": "Match record saved to {path}.",
    "exchange_rule": "the {give} of trumps for a face-up {take}",
    "exchange_none": "there is no trump exchange in these rules.",
    "exchange_after_win": "once you have won a trick",
    "err_exchange_not_now": "You may not exchange the trump now.",
    "follow_none": "You need not follow suit",
    "follow_suit": "You must follow suit if you can",
    "follow_suit_trump": "You must follow suit if you can, else play a trump if you can",
    "follow_descanso": "You must follow suit and beat an opponent's card if you can, else follow suit, else trump"
                       " (not when your partner holds the trick with a plain card)",
    "follow_suit_beat_trump": "You must follow suit and beat the trick if you can, else follow suit, else trump",
    "follow_empty_stock": "{rule} (only once the stock is gone)",
    "draw_header": "Drawing for the deal (whoever draws the highest card deals):",
    "draw_again": "{who} tie for the highest card and draw again:",
    "draw_dealer": "Whoever draws the highest card deals: {who}.",
    "welcome_draw": "Brisca: {title}, {players} players. Seats are drawn for.",
    "player": "Player {n}",
    "draw_partners_header": ("Drawing for partners and seats (the highest cards play together, and whoever draws the"
                             " highest deals):"),
    "draw_seats_header": "Drawing for seats (whoever draws the highest card deals):",
    "draw_tie": "{who} drew cards of the same rank and draw again:",
    "draw_sides": "{high} play against {low}.",
    "draw_seat": "Seat {seat}: {who}.",
    "draw_header_face": (
        "Drawing for the deal (the highest number deals: the rey counts 10, the caballo 9, the sota 8; a tie between"
        " the pairs goes to the pair whose cards add up to more):"
    ),
    "cut_prompt": "{dealer} deals. You cut the deck: how many cards ({min}-{max})? (Enter: random) ",
    "you_cut": "You cut the deck at {at} cards.",
    "cuts": "{who} cuts the deck at {at} cards.",
    "err_cut": "Cut between {min} and {max} cards (Enter: a random cut), not \"{text}\".",
    "prompt_arrastro": ", a arrastro",
    "prompt_claim": ", r claim",
    "prompt_signal": ", {keys} signal",
    "prompt_say": ", say s1... aloud",
    "arrastro_row": "Arrastro",
    "arrastro_on": "called: each player must play their best card (highest trump, else highest card)",
    "arrastro_option": "lead {card} calling arrastro: the others must play their best card",
    "you_arrastro": "You lead {card} calling arrastro: the others must play their best card.",
    "plays_arrastro": "{who} leads {card} calling arrastro: the others must play their best card.",
    "claim_option": "claim the rest of the hand: your side holds the best trumps for every trick left",
    "claim_option_solo": "claim the rest of the hand: you hold the best trumps for every trick left",
    "you_claim": "You claim the rest of the hand.",
    "claims": "{who} claims the rest of the hand: that side holds the best trumps for every trick left.",
    "claims_solo": "{who} claims the rest of the hand, holding the best trumps for every trick left.",
    "claimed": "Claimed by {who}: {cards} ({points} points).",
    "signal_option": "signal: {signal}",
    "say_option": "say aloud: {signal}",
    "you_signal": "You signal: {signal}.",
    "signal_made": "{who} signals: {signal}.",
    "signals_partner_row": "Partner signals",
    "signals_open_row": "Signals",
    "no_signals": "none yet",
    "known_row": "Known cards",
    "three_killed": "Muerte al tres ({who}): {ace} takes {three}, and the hand ends at once.",
    "bonus_line": "{who}: bonus for {why}, {points} points.",
    "bonus_last_trick": "last trick",
    "bonus_pair": "{king} and {knight}",
    "goal_least": "In this game the side with the fewest points wins the hand.",
    "hand_goal_most": "the side with the most points wins the hand",
    "hand_goal_least": "the side with the fewest points wins the hand",
    "err_arrastro": "Arrastro has been called: you must play your best card ({cards}).",
    "err_ace_prisoner": "The ace of trumps may not be played before the three of trumps (except in the last trick).",
    "err_arrastro_off": "Arrastro is not played in these rules.",
    "err_arrastro_lead": "Arrastro is called only when leading {card}.",
    "err_claim_off": "Claims are not played in these rules.",
    "err_claim_not_now": "A claim is made when leading, once the stock is gone.",
    "err_claim_fails": "You cannot claim: your side does not hold the best trumps for every trick left.",
    "err_claim_side": (
        "Nobody claims in these rules: a side's claim is made for it as soon as its hands hold the best trumps for"
        " every trick left."
    ),
    "err_claim_fails_solo": "You cannot claim: you do not hold the best trumps for every trick left.",
    "err_signals_off": "Signals are not played in these rules.",
    "err_signal_position": "There is no signal s{n}: signals go from s1 to s{max}.",
    "err_signal_unknown": "There is no signal \"{text}\". Type signal to see the ones you may make now.",
    "err_signal_done": "You have already signalled {signal} this turn.",
    "err_signal_untrue": "You may not signal {signal}: signals must be true.",
    "err_signal_not_in_set": "{signal} is not one of the signals of these rules. Type ? to see them.",
    "err_signal_ask": "Nobody may ask for signals in these rules ({signal}).",
    "err_say_off": "Signals are said aloud only where open talk and signals are combined.",
    "rule_arrastro": (
        "Arrastro: leading the ace of trumps you may call arrastro (a, or {ace}!); every other player must then"
        " play their best card: their highest trump, else their highest card."
    ),
    "rule_claim_side": (
        "Claim: once the stock is gone, a side whose hands together hold the best trumps still out, one for every"
        " trick left, takes the rest of the hand at once."
    ),
    "rule_claim": (
        "Claim (r): once the stock is gone, when you lead and your side holds the best trumps still out, one for"
        " every trick left, you may claim the rest of the hand."
    ),
    "rule_claim_solo": (
        "Claim (r): once the stock is gone, when you lead and hold the best trumps still out, one for every trick"
        " left, you may claim the rest of the hand."
    ),
    "rule_kill_three": (
        "Muerte al tres: the ace of trumps may not be played before the three of trumps (except in the last"
        " trick); when it takes the three, the hand ends at once, won by its side."
    ),
    "rule_signals_partner": (
        "Signals, seen only by partners, made before you play,"
        " each once a turn, only when true: {names}."
    ),
    "rule_signals_open": "Signals, seen by everybody, made before you play, each once a turn, only when true: {names}.",
    "rule_signals_combination": (
        "Signals, made before you play, each once a turn, only when true, seen only by partners, or said aloud"
        " for everybody (say s1): {names}."
    ),
    "rule_signals_no_asks": "Nobody asks for signals.",
    "rule_cutter_chooses": "Before each deal the cutter, on the dealer's right, chooses how it is dealt: {ways}.",
    "rule_open_hands": "Open hands: every hand is played face up.",
    "rule_deal_look": "Partners see each other's first three cards.",
    "rule_partners_look": "Once the stock is gone, partners see each other's hands.",
    "rule_pair_bonus": (
        "A side that captures the king and the knight of one suit"
        " scores 40 more in trumps, 20 in another suit."
    ),
    "rule_last_trick_bonus": "The last trick scores {points} more.",
    "rule_tie_replay": "A tie for the most points is dealt again by the same dealer.",
    "help_key_position": "play the card in that position of your hand (as it is shown)",
    "help_key_card": "play a card by rank and suit: {suits}",
    "help_key_notation": "the Spanish notation is read too ({spanish} for {italian}), but not 10: write F or R",
    "help_key_exchange": "exchange the trump when it is allowed (also c, cambiar, scambia, exchange)",
    "help_key_arrastro": "lead the ace of trumps calling arrastro (also {ace}!)",
    "help_key_claim": "claim the rest of the hand (also claim)",
    "help_key_signal": "make a signal (also signal NAME; signal alone lists the ones you may make now)",
    "help_key_declare": "declare the king and knight of a suit, by its letter ({suits})",
    "help_key_sort": "sort your hand by suit and rank, or back to the order it came in (also sort, ordenar, ordina)",
    "help_key_last": "show the last trick again",
    "help_key_hint": "a hint: the best move from what you can see, and its win chance (also hint, pista,"
                     " suggerimento)",
    "hint": "Hint: {move}. Win chance {win}, point margin {margin}, from what you can see ({worlds} deals searched).",
    "hint_none": "No hint here: the computer makes this choice by its rules, not by searching.",
    "help_key_table": "show the table again",
    "help_empty_line": "empty line",
    "help_key_help": "this help (also help, ayuda, aiuto)",
    "help_key_quit": "leave the match (also quit, salir, esci); --save keeps the record",
    "hand_sorted": "Your hand is sorted by suit and rank (g: back to the order it came in).",
    "hand_unsorted": "Your hand is in the order it came in (g: sorted by suit and rank).",
    "declared_points": "{points} declared",
    "signals_menu": "Signals you may make now:",
    "signals_none_now": "No signal is true for you now: signals must be true.",
    "help": (
        "Keys\n"
        "{keys}"
        "Rules\n"
        "  A trick goes to the highest trump played, else to the highest card of the suit led.\n"
        "  {follow}. {next_trick}\n"
        "  Cards from high to low: {order}.\n"
        "  Points: {points}; {hand_goal}.\n"
        "  Trump exchange: {exchange}\n"
        "  Match: {goal} ({label}).{special}"
    ),
    # The dealt-out games: the deal, the auction, the talon, the contract, declarations.
    "new_hand_auction": "Hand {hand}. Dealer: {who}. The trump is decided after the auction.",
    "new_hand_buia": "Hand {hand}. Dealer: {who}. The trump is declared by the call after the first trick.",
    "new_hand_dealer_card": "Hand {hand}. Dealer: {who}. Trump: {suit}, by the dealer's card {card}, face up until he"
                            " plays it.",
    "deal_way": "Cut and deal: {way}.",
    "deal_alce": "alce (packets of 5, the dealer's last card turned)",
    "deal_golpe": "golpe (10 in a row to each player; the last card of each of the dealer's opponents shown)",
    "deal_pelada": "pelada (the top card is the trump; the first cards of the dealer's opponents shown)",
    "shown_at_deal": "Shown face up at the deal: {who}: {cards}.",
    "talon_face_down": "Talon: {n} cards face down.",
    "auction_starts": "Auction, first to speak: {who}. Bids {range}, or pass (a pass is final).",
    "auction_starts_low": (
        "Auction, first to speak: {who}. Each player names a rank once, lower than any named before, or passes;"
        " the lowest rank wins, and its bidder's side must take {points} points."
    ),
    "header_auction": "Hand {hand} · auction",
    "header_cut": "Hand {hand} · the cut",
    "new_hand_cut": "{who} deals hand {hand}; {cutter} cuts and chooses how the deck is dealt.",
    "new_hand_cut_dealer_you": "You deal hand {hand}; {cutter} cuts and chooses how the deck is dealt.",
    "new_hand_cut_you": "{who} deals hand {hand}; you cut and choose how the deck is dealt.",
    "trump_after_cut": "shown once the deck is dealt",
    "prompt_cut": "{dealer} deals. You cut: how is the deck dealt? {ways} (? help, q quit): ",
    "err_cut_way": "\"{text}\" is not a way to cut here: type one of {ways}, or its number.",
    "you_cut_way": "You cut: {way}.",
    "cuts_way": "{who} cuts: {way}.",
    "prompt_mark": "Your card is down: mark a vale ({keys}, or vale) or let it go (Enter or pass): ",
    "err_mark": "\"{text}\" does not mark a vale: type {keys}, vale, or pass.",
    "talon_row": "Talon",
    "trump_pending": "decided after the auction",
    "trump_after_first_trick": "none yet: declared by the call after the first trick",
    "trump_card_dealer": "{card}, the card of {who} (dealer), face up until played",
    "trump_card_yours": "{card}, your card (you deal), face up until you play it",
    "err_auction_over": "The auction is over: play a card.",
    "err_no_auction": "There is no auction in these rules: play a card.",
    "talon_down": "{n} cards face down",
    "talon_up": "{cards} (shown and taken by {who})",
    "talon_up_you": "{cards} (shown and taken by you)",
    "auction_row": "Auction",
    "high_bid_row": "Highest bid",
    "lowest_rank_row": "Lowest rank",
    "high_bid_value": "{bid} ({who})",
    "contract_row": "Contract",
    "contract_value": "{who}, bid {bid}: must take {points} points",
    "called_row": "Called card",
    "partner_alone": "alone: {who}",
    "partner_known": "partner: {who}",
    "partner_you_alone": "yours: you play alone (nobody else knows it)",
    "partner_you_secret": "yours: you are the hidden partner (nobody else knows it)",
    "partner_hidden": "its holder, the partner, stays hidden until it is played",
    "declarations_row": "Declarations",
    "declare_option": "declare the king and knight of {suit} ({points} points)",
    "prompt_declare": ", {keys}",
    "pass_word": "pass",
    "bid_range": "from {low} to {max}",
    "bid_range_step": "from {low} to {max} in steps of {step}",
    "prompt_bid": "Your bid ({range}) or pass (? help, q quit): ",
    "prompt_bid_must": "You are the last one left and nobody has bid: your bid ({range}) (? help, q quit): ",
    "prompt_bid_none": "Nobody can bid more than {max}: type pass (? help, q quit): ",
    "prompt_rank": "Name a rank lower than every rank named ({ranks}) or pass (? help, q quit): ",
    "prompt_rank_none": "No rank is lower than the one named: type pass (? help, q quit): ",
    "prompt_discard": (
        "Lay {n} cards face down in your pile (positions like 1 2, or cards like {example}; ? help, q quit): "
    ),
    "prompt_trump": "Name the trump suit ({suits}; ? help, q quit): ",
    "prompt_trump_rank": "Name the suit of the called card, the {rank}: it is trumps ({suits}; ? help, q quit): ",
    "prompt_call": (
        "Call a card, like {example}: its suit is trumps and its holder your hidden partner; calling your own,"
        " you play alone (? help, q quit): "
    ),
    "err_must_bid": "You are the last one left and nobody has bid: you must bid at least {low}.",
    "err_not_bid": "\"{text}\" is not a bid: type a number {range}, or pass.",
    "err_bid_none": "Nobody can bid more than {max}: you can only pass.",
    "err_bid_low": "Too low: a bid must be at least {low} now, not {n}.",
    "err_bid_high": "Too high: the highest bid is {max}, not {n}.",
    "err_bid_step": "Bids go up in steps of {step} from {low}: {n} is not one of them.",
    "err_not_rank": "\"{text}\" is not a rank you may name: name one of {ranks}.",
    "err_rank_none": "No rank is lower than the {low} already named: you can only pass.",
    "err_rank_high": "The {rank} is not lower than the {low} already named: name one of {ranks}, or pass.",
    "err_discard_unknown": "\"{text}\" is not a card of your hand: type positions like 1 2 or cards like {example}.",
    "err_discard_twice": "Name each card once.",
    "err_discard_count": "Lay exactly {n} cards, not {k}.",
    "err_not_suit": "\"{text}\" is not a suit: type one of {suits}.",
    "err_call_unknown": "\"{text}\" is not a card: call one like {example}.",
    "err_call_deck": "{card} is not in this deck.",
    "err_call_played": "{card} was played in the first trick: call a card still in a hand, like {example}.",
    "err_call_after_first_trick": "The card is called once the first trick is over: play a card now.",
    "err_declare_off": "Declarations are not played in these rules.",
    "err_declare_done": "The king and knight of {suit} have already been declared.",
    "err_declare_vales": (
        "Vales are declared in the trick where the king or the knight is played: holding both and playing one"
        " now, or holding the other once your partner has played one."
    ),
    "err_declare_on_lead": "A pair is declared when you lead one of its cards after winning a trick, holding both.",
    "err_pelada_lead": "In a pelada the cutter leads a trump to the first trick: play one of {cards}.",
    "err_lead_two": (
        "You may not lead {card} now: a 2 is led only with the ace of its suit in hand or already played, once"
        " your partner has shown he lacks the suit, or when nothing else can be led."
    ),
    "auction_won": "{who} wins the auction with {bid}.",
    "you_win_auction": "You win the auction with {bid}.",
    "call_after_first_trick": "{who} leads the first trick, played without trumps; the call comes once it is over.",
    "you_call_after_first_trick": (
        "You lead the first trick, played without trumps; you call your card once it is over."
    ),
    "contract_line_you": "Contract: you must take {points} points. Trump: {suit}.",
    "contract_called_you": "Called card: {card}. Its holder is your hidden partner.",
    "talon_shown": "{who} shows the talon: {cards}, and takes it.",
    "you_take_talon": "The talon is {cards}: you show it and take it.",
    "discards_hidden": "{who} lays {n} cards face down in his pile.",
    "contract_line": "Contract: {who} must take {points} points. Trump: {suit}.",
    "contract_called": "Called card: {card}. Its holder is the hidden partner of {who}.",
    "you_alone": "{card} is yours: you play alone, and nobody else knows it until you play it.",
    "you_are_partner": "You hold {card}: you are the hidden partner of {who}, and nobody knows it until you play it.",
    "alone_revealed": "{card} has been played: {who} called his own card and plays alone.",
    "alone_revealed_you": "{card} has been played: everybody knows now that you play alone.",
    "partner_revealed": "{card} has been played: {who} is the partner of {declarer}.",
    "partner_revealed_you": "{card} has been played: everybody knows now that you are the partner of {who}.",
    "partner_revealed_yours": "{card} has been played: {who} is your partner.",
    "you_bid": "You bid {points}.",
    "bids": "{who} bids {points}.",
    "you_name_rank": "You name the {rank}.",
    "names_rank": "{who} names the {rank}.",
    "you_pass": "You pass.",
    "passes": "{who} passes.",
    "you_discard": "You lay {cards} face down in your pile ({points} points).",
    "discards": "{who} lays {cards} face down ({points} points).",
    "you_name_trump": "You name the trump: {suit}.",
    "names_trump": "{who} names the trump: {suit}.",
    "you_call": "You call {card}.",
    "calls": "{who} calls {card}.",
    "you_declare": "You declare the king and knight of {suit}: {points} points.",
    "declares": "{who} declares the king and knight of {suit}: {points} points.",
    "you_declare_vales": "You declare vales, king and knight of {suit}: {points} points for the side that wins this"
                         " trick.",
    "declares_vales": "{who} declares vales, king and knight of {suit}: {points} points for the side that wins this"
                      " trick.",
    "you_declare_vales_won": "You declare vales, king and knight of {suit}: {points} points for {side}, who won the"
                             " trick.",
    "declares_vales_won": "{who} declares vales, king and knight of {suit}: {points} points for {side}, who won the"
                          " trick.",
    "hand_void": "Hand {hand}: everybody passed, the hand is void. Next dealer: {who}.",
    "contract_made": "Contract made: {who}, {took} points of the {points} bid.",
    "contract_set": "Contract set: {who}, {took} points of the {points} bid.",
    "hand_scores": "Match points for this hand: {scores}.",
    "hand_game_points": "Game points won in this hand: {scores}.",
    "capote": "Capote: {who} took every trick and wins the hand outright.",
    "capote_match": "Capote: {who} took every trick and wins the match outright.",
    "bonus_declared": "declaring {king} and {knight}",
    "rule_trump_dealer": "Every card is dealt; the last one is the dealer's trump card, seen by all until he plays it.",
    "rule_pelada": "Pelada: the cutter must lead a trump to the first trick.",
    "rule_lead_two": (
        "A 2 may be led only with the ace of its suit in hand or already played, once your partner has shown he"
        " lacks the suit, or when nothing else can be led."
    ),
    "bid_step_text": " in steps of {step}",
    "rule_auction_points": (
        "Auction: from the player after the dealer, bid from {min} to {max} points{step} (type 110, or bid 110),"
        " higher than the last bid, or pass (a pass is final)."
    ),
    "rule_auction_low": (
        "Auction: each player names a rank once (type 3, or bid rank 3), lower than any named before, or passes;"
        " the lowest rank wins, its bidder names the suit of the called card (trump {suit_key}), and his side must take"
        " {min} points."
    ),
    "rule_last_must_bid": "If the others pass and nobody has bid, the last one must bid at least {min}.",
    "rule_all_pass_void": "If everybody passes, the hand is void and the next player deals (minimum bid {min}).",
    "rule_talon": (
        "The auction's winner shows the talon ({n} cards), takes it, lays {n} cards face down in his pile"
        " (discard {discard_example}, or positions like 1 2) and names the trump (trump {suit_key}); he leads."
    ),
    "rule_called": (
        "The auction's winner calls a card (call {call_example}): its suit is trumps and its holder his hidden"
        " partner, known only when it is played; calling his own card, he plays alone. He leads."
    ),
    "rule_called_buia": (
        "Chiamata buia: the auction's winner leads a first trick played without trumps (the best card of the"
        " suit led takes it). Then he calls a card still in a hand (call {call_example}): its suit is trumps"
        " and its holder his hidden partner, known only when it is played; calling his own card, he plays"
        " alone. The first trick's winner leads the second."
    ),
    "rule_contract_solo": (
        "The declarer who reaches his bid scores it; otherwise each other player scores half of it. The last"
        " trick and declarations count for the bid."
    ),
    "rule_contract_called": (
        "Made: the bidder +2, the partner +1, each other player -1 (alone: +4); set: the opposite."
    ),
    "rule_declarations_vales": (
        "Vales: a side holding the king and knight of a suit declares them (declare {suit_key}) in the trick where"
        " one of them is played: 40 in trumps, 20 otherwise, for the side that wins that trick."
    ),
    "rule_declarations_on_lead": (
        "Declarations: holding the king and knight of a suit, after winning a trick, declare them (declare"
        " {suit_key}) as you lead one of them: 40 in trumps, 20 otherwise."
    ),
    "rule_capote": "Taking every trick (capote) wins the hand outright.",
    "rule_capote_match": "Taking every trick (capote) wins the match outright.",
    "next_trick_draw": "The trick's winner draws first and leads the next trick.",
    "next_trick_lead": "The trick's winner leads the next trick.",
    "hand_goal_contract": "the declarer's side must reach the bid",
    "variants_players": "{counts} players",
    # The exchange announced (Fournier) and the exchange out of turn (Encyclopedia).
    "announce_option": "lay {give} under the face-up {take}: you take it when you win your next trick",
    "prompt_announce": ", x announce the exchange",
    "you_announce": "You lay {give} under the face-up {take}: you take it when you win your next trick.",
    "announces": "{who} lays {give} under the face-up {take}: the exchange is made when they win their next trick.",
    "announced_made_you": "You take the face-up {take}; {give} stays face up in its place.",
    "announced_made": "{who} takes the face-up {take}; {give} stays face up in its place.",
    "announced_back_you": "The face-up card has been drawn: {give} comes back to your hand.",
    "announced_back": "The face-up card has been drawn: {give} goes back to {who}'s hand.",
    "announced_row": "Under the face-up",
    "err_announced_waits": "{card} already lies under the face-up card: the exchange waits for {who} to win a trick.",
    "err_keep_a_card": "You must keep a card to play: you cannot lay your last one under the face-up card.",
    "help_key_announce": "announce the exchange: lay the 7 or the 2 under the face-up card (also c, cambiar, scambia)",
    "exchange_when_announced": "announced: laid under the face-up card, taken when you win your next trick",
    "exchange_when_out_of_turn": "once you have won a trick, on your turn or another's",
    "prompt_out_of_turn": "You may exchange {give} for the face-up {take} now, out of turn (x exchange, Enter go on): ",
    "err_out_of_turn": "Now you may only exchange (x) or let play go on (Enter).",
    # The analysis of a record (brisca replay --analyse).
    "an_title": "{title}, {players} players: {decisions} decisions searched ({worlds} worlds each, seed {seed})",
    "an_legend_win": "win and margin: the player's side's win chance and point margin after the move, as the player"
                     " could know them;",
    "an_legend_loss": "loss: the best move's win chance plus {point} a point of margin, less the move's; face up:"
                      " the best move with every card known, where it is solved exactly",
    "an_col_player": "player",
    "an_col_move": "move",
    "an_col_win": "win",
    "an_col_margin": "margin",
    "an_col_best": "best",
    "an_col_loss": "loss",
    "an_col_face_up": "face up",
    "an_mistake": "mistake",
    "an_blunder": "blunder",
    "an_clock": "(clock)",
    "an_per_player": "per player: decisions, average loss, mistakes, blunders",
    "an_exchange": "exchange: {card}",
    "an_arrastro": "{card} (arrastro)",
}

#: The catalogue: language -> message key -> template.
MESSAGES: dict[Lang, dict[str, str]] = translated("terminal", _EN)


class Messages:
    """The messages of one language, called like a function: ``msg("plays", who=..., card=...)``."""

    def __init__(self, lang: Lang) -> None:
        self.lang: Lang = lang
        self._table = MESSAGES[lang]

    def __call__(self, key: str, **fields: object) -> str:
        return self._table[key].format(**fields)

    def __contains__(self, key: object) -> bool:
        return key in self._table

    def template(self, key: str) -> str:
        """The unformatted template, for callers that style each field (the terminal colours cards)."""
        return self._table[key]


def default_lang(environ: Mapping[str, str] | None = None) -> Lang:
    """The language the locale asks for: the first set of LC_ALL, LC_MESSAGES, LANG decides, unless LANGUAGE (a
    list in order of preference, ``it:es``) names one of the languages spoken here first.

    That is the precedence of POSIX and of GNU gettext, as other tools read them: ``LC_ALL=C`` wins over
    ``LANG=es_ES``, and a ``C`` or ``POSIX`` locale sets LANGUAGE aside (gettext ignores it there too)::

        >>> default_lang({"LANGUAGE": "fr:it", "LANG": "es_ES.UTF-8"}), default_lang({"LANGUAGE": "es", "LC_ALL": "C"})
        ('it', 'en')
    """
    env = os.environ if environ is None else environ
    locale = next((env[var] for var in ("LC_ALL", "LC_MESSAGES", "LANG") if env.get(var)), "")
    if locale not in ("C", "POSIX") and not locale.startswith(("C.", "POSIX.")):
        for entry in env.get("LANGUAGE", "").split(":"):
            lang = _lang_of(entry)
            if lang is not None:
                return lang
    return _lang_of(locale) or "en"


def _lang_of(value: str) -> Lang | None:
    """The language spoken here that a locale name (``es_ES.UTF-8``, ``it``, ``pt-BR``) asks for, if any."""
    code = value.split(".")[0].split("@")[0].split("_")[0].split("-")[0].lower()
    return next((lang for lang in LANGS if code == lang), None)
