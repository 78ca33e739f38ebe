"""The terminal game's messages in Spanish, English and Italian.

Every message is a :meth:`str.format` template with named fields; each language
has the same keys and the same fields (the tests check it), so switching
language can never raise a ``KeyError`` in the middle of a game::

    >>> Messages("it")("plays", who="Giocatore 1", card="3O tre di denari")
    'Giocatore 1 gioca 3O tre di denari.'
    >>> default_lang({"LANG": "es_ES.UTF-8"}), default_lang({"LC_ALL": "C", "LANG": "it_IT"})
    ('es', 'en')
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from brisca.cards import LANGS, Lang

_EN: dict[str, str] = {
    "you": "You",
    "seat": "Seat {n}",
    "partner": "partner",
    "your_side": "Your side",
    "other_side": "Other side",
    "seats": "seats {seats}",
    "welcome": "Brisca: {title}, {players} players. You play at seat {seat}.",
    "seating": "At the table:",
    "partners": "Your partners: {who}.",
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
    "err_unknown": "I do not understand \"{text}\". Type a card like {example}, its position 1 to {max}, or ? for"
                   " help.",
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
    "draw_header": "Drawing for the deal (the highest card deals):",
    "draw_again": "{who} tie for the highest card and draw again:",
    "draw_dealer": "The highest card deals: {who}.",
    "welcome_draw": "Brisca: {title}, {players} players. Seats are drawn for.",
    "player": "Player {n}",
    "draw_partners_header": "Drawing for partners and seats (the highest cards play together, the highest deals):",
    "draw_seats_header": "Drawing for seats (the highest card deals):",
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
    "you_claim": "You claim the rest of the hand.",
    "claims": "{who} claims the rest of the hand: that side holds the best trumps for every trick left.",
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
    "rule_claim": (
        "Claim (r): once the stock is gone, when you lead and your side holds the best trumps still out, one for"
        " every trick left, you may claim the rest of the hand."
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
    "help_key_table": "show the table again",
    "help_empty_line": "empty line",
    "help_key_help": "this help (also h, help, ayuda, aiuto)",
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
    "hand_void": "Hand {hand}: everybody passed, the hand is void. Next dealer: {who}.",
    "contract_made": "Contract made: {who}, {took} points of the {points} bid.",
    "contract_set": "Contract set: {who}, {took} points of the {points} bid.",
    "hand_scores": "Match points for this hand: {scores}.",
    "capote": "Capote: {who} took every trick and wins the hand outright.",
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
    "next_trick_draw": "The trick's winner draws first and leads the next trick.",
    "next_trick_lead": "The trick's winner leads the next trick.",
    "hand_goal_contract": "the declarer's side must reach the bid",
    # The exchange announced (001) and the exchange out of turn (000).
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
}

_ES: dict[str, str] = {
    "you": "Tú",
    "seat": "Jugador {n}",
    "partner": "compañero",
    "your_side": "Tu equipo",
    "other_side": "Equipo rival",
    "seats": "jugadores {seats}",
    "welcome": "Brisca: {title}, {players} jugadores. Juegas en el puesto {seat}.",
    "seating": "En la mesa:",
    "partners": "Tus compañeros: {who}.",
    "new_hand": "Mano {hand}. Reparte: {who}. Triunfo: {suit} (carta vuelta {card}).",
    "new_hand_no_turn": "Mano {hand}. Reparte: {who}. Triunfo: {suit}.",
    "header": "Mano {hand} · baza {trick}",
    "hand_title": "Mano {hand}",
    "partners_row": "Compañeros",
    "trump": "Triunfo",
    "stock": "Mazo",
    "stock_face_up": "{count} cartas, triunfo a la vista {card}",
    "stock_count": "{count} cartas",
    "stock_empty": "vacío (ya se robó la carta vuelta)",
    "points": "Puntos",
    "hands_won": "Manos ganadas",
    "match_points": "Puntos de la partida",
    "goal_hands_one": "gana la partida quien gane una mano",
    "goal_hands": "gana la partida quien gane {target} manos",
    "goal_points": "gana la partida quien llegue a {target} puntos",
    "goal_game_points": "gana la partida quien llegue a {target} puntos de juego",
    "goal_rotation": "reparto {deal} de 4; tras cuatro gana quien más tenga",
    "game_points": "Puntos de juego",
    "goal_fixed": "mano {deal} de {n}; gana la partida quien más manos gane",
    "goal_fixed_level": "jugadas {n} manos y hay empate: una mano más cada vez hasta que uno vaya delante",
    "last_trick": "Última baza",
    "last_trick_line": "ganador: {who} · {card} · {points} puntos",
    "none_yet": "ninguna todavía",
    "on_table": "En la mesa",
    "empty_table": "nada todavía",
    "turn": "Turno",
    "your_hand": "Tu mano",
    "trump_tag": "triunfo",
    "exchange_option": "cambiar {give} por el triunfo a la vista {take}",
    "prompt": "Tu jugada (1-{n} o una carta como {example}{exchange}, ? ayuda, q salir): ",
    "prompt_exchange": ", x cambiar",
    "you_play": "Juegas {card}.",
    "you_act": "Tú: {action}.",
    "acts": "{who}: {action}.",
    "not_playable": "no se puede jugar ahora",
    "plays": "{who} juega {card}.",
    "you_exchange": "Cambias {give} por el triunfo a la vista {take}.",
    "exchanges": "{who} cambia {give} por el triunfo a la vista {take}.",
    "you_win_trick": "Ganas la baza con {card}: {points} puntos.",
    "wins_trick": "{who} gana la baza con {card}: {points} puntos.",
    "you_draw": "Robas {card}.",
    "hand_over": "Fin de la mano {hand}. Puntos: {points}.",
    "hand_won_you": "¡Ganas la mano!",
    "hand_won": "{who} gana la mano.",
    "hand_draw": "La mano queda empatada: no cuenta.",
    "hand_shared": "La mano queda empatada: se adjudica a {who}.",
    "hand_replay": "La mano queda empatada: el mismo jugador vuelve a repartir.",
    "match_over": "Fin de la partida. Ganador: {who}.",
    "match_level": "Fin de la partida: empate, nadie gana.",
    "match_won_you": "¡Enhorabuena, ganas la partida!",
    "match_lost": "Pierdes la partida. ¡Más suerte la próxima vez!",
    "last_none": "Aún no ha terminado ninguna baza en esta mano.",
    "last_header": "Última baza (salida: {who}):",
    "err_position": "No hay carta número {n} en tu mano: elige de 1 a {max}.",
    "err_unknown": "No entiendo \"{text}\". Escribe una carta como {example}, su posición de 1 a {max}, o ? para"
                   " ayuda.",
    "err_ten": "\"{text}\" es ambiguo: el 10 es la sota en la baraja española y el rey en la cuenta italiana."
               " Escribe {jack} o {king}.",
    "err_not_held": "No tienes {card}.",
    "err_must_play": "Ahora no puedes jugar {card}: estas reglas te obligan a jugar una de {cards}.",
    "err_exchange_off": "En estas reglas no se cambia el triunfo.",
    "err_no_face_up": "Ya se robó el triunfo a la vista: no hay nada que cambiar.",
    "err_face_up_fixed": "El triunfo a la vista {card} no se puede cambiar.",
    "err_must_win": "Tienes que ganar una baza antes de cambiar el triunfo.",
    "err_need_card": "Para llevarte {take} necesitas {give}.",
    "err_illegal": "No permitido: {reason}",
    "err_bad_seat": "no hay puesto {seat} en una mesa de {players} jugadores: elige un puesto de 0 a {max}",
    "quit": "Dejas la partida.",
    "eof": "Fin de la entrada: la partida queda sin terminar.",
    "interrupted": "Interrumpido: la partida queda sin terminar.",
    "saved": "Partida guardada en {path}.",
    "exchange_rule": "el {give} de triunfo por un {take} a la vista",
    "exchange_none": "en estas reglas no se cambia el triunfo.",
    "exchange_after_win": "después de ganar una baza",
    "err_exchange_not_now": "Ahora no puedes cambiar el triunfo.",
    "follow_none": "No es obligatorio asistir",
    "follow_suit": "Hay que asistir al palo si se puede",
    "follow_suit_trump": "Hay que asistir al palo si se puede; si no, fallar con triunfo si se puede",
    "follow_descanso": "Hay que asistir y cargar al contrincante si se puede; si no, asistir; si no, fallar con"
                       " triunfo (salvo si tu compañero lleva la baza sin triunfo)",
    "follow_suit_beat_trump": "Hay que asistir y montar si se puede; si no, asistir; si no, fallar con triunfo",
    "follow_empty_stock": "{rule} (solo cuando se acaba el mazo)",
    "draw_header": "Sorteo del reparto (reparte la carta más alta):",
    "draw_again": "{who} empatan con la carta más alta y vuelven a robar:",
    "draw_dealer": "Reparte la carta más alta: {who}.",
    "welcome_draw": "Brisca: {title}, {players} jugadores. Los puestos se sortean.",
    "player": "Participante {n}",
    "draw_partners_header": "Sorteo de parejas y puestos (las cartas más altas juegan juntas, la más alta reparte):",
    "draw_seats_header": "Sorteo de puestos (reparte la carta más alta):",
    "draw_tie": "{who} sacaron cartas del mismo valor y vuelven a sacar:",
    "draw_sides": "{high} juegan contra {low}.",
    "draw_seat": "Puesto {seat}: {who}.",
    "draw_header_face": (
        "Sorteo del reparto (reparte el número mayor: el rey vale 10, el caballo 9, la sota 8; si empatan las"
        " parejas, gana la que sume más):"
    ),
    "cut_prompt": "Reparte {dealer}. Cortas tú: ¿cuántas cartas ({min}-{max})? (Intro: al azar) ",
    "you_cut": "Cortas el mazo por {at} cartas.",
    "cuts": "{who} corta el mazo por {at} cartas.",
    "err_cut": "Corta entre {min} y {max} cartas (Intro: corte al azar), no \"{text}\".",
    "prompt_arrastro": ", a arrastro",
    "prompt_claim": ", r reclamar",
    "prompt_signal": ", {keys} seña",
    "prompt_say": ", digo s1... en voz alta",
    "arrastro_row": "Arrastro",
    "arrastro_on": "cantado: cada jugador debe echar su mejor carta (su triunfo más alto; si no, su carta más alta)",
    "arrastro_option": "salir con {card} cantando arrastro: los demás deben echar su mejor carta",
    "you_arrastro": "Sales con {card} cantando arrastro: los demás deben echar su mejor carta.",
    "plays_arrastro": "{who} sale con {card} cantando arrastro: los demás deben echar su mejor carta.",
    "claim_option": "reclamar el resto de la mano: tu equipo tiene los mejores triunfos para cada baza que queda",
    "you_claim": "Reclamas el resto de la mano.",
    "claims": "{who} reclama el resto de la mano: su equipo tiene los mejores triunfos para cada baza que queda.",
    "claimed": "Se lleva {who}: {cards} ({points} puntos).",
    "signal_option": "seña: {signal}",
    "say_option": "dices en voz alta: {signal}",
    "you_signal": "Haces la seña: {signal}.",
    "signal_made": "{who} hace la seña: {signal}.",
    "signals_partner_row": "Señas del equipo",
    "signals_open_row": "Señas",
    "no_signals": "ninguna todavía",
    "known_row": "Cartas conocidas",
    "three_killed": "Muerte al tres ({who}): {ace} se lleva {three} y la mano termina en el acto.",
    "bonus_line": "{who}: premio por {why}, {points} puntos.",
    "bonus_last_trick": "última baza",
    "bonus_pair": "{king} y {knight}",
    "goal_least": "En este juego gana la mano el equipo con menos puntos.",
    "hand_goal_most": "gana la mano el equipo con más puntos",
    "hand_goal_least": "gana la mano el equipo con menos puntos",
    "err_arrastro": "Se ha cantado arrastro: tienes que echar tu mejor carta ({cards}).",
    "err_ace_prisoner": "El as de triunfo no se puede jugar antes que el tres de triunfo (salvo en la última baza).",
    "err_arrastro_off": "En estas reglas no se juega el arrastro.",
    "err_arrastro_lead": "El arrastro solo se canta al salir con {card}.",
    "err_claim_off": "En estas reglas no se reclaman las bazas.",
    "err_claim_not_now": "Se reclama al salir, cuando ya se ha acabado el mazo.",
    "err_claim_fails": "No puedes reclamar: tu equipo no tiene los mejores triunfos para cada baza que queda.",
    "err_signals_off": "En estas reglas no se hacen señas.",
    "err_signal_position": "No hay seña s{n}: las señas van de s1 a s{max}.",
    "err_signal_unknown": "No existe la seña \"{text}\". Escribe seña para ver las que puedes hacer ahora.",
    "err_signal_done": "Ya has hecho la seña {signal} en este turno.",
    "err_signal_untrue": "No puedes hacer la seña {signal}: las señas tienen que ser ciertas.",
    "err_signal_not_in_set": "{signal} no es una de las señas de estas reglas. Escribe ? para verlas.",
    "err_signal_ask": "En estas reglas nadie pide señas ({signal}).",
    "err_say_off": "Las señas se dicen en voz alta solo donde se combinan la charla abierta y las señas.",
    "rule_arrastro": (
        "Arrastro: al salir con el as de triunfo puedes cantar arrastro (a, o {ace}!); los demás deben echar"
        " entonces su mejor carta: su triunfo más alto; si no tienen, su carta más alta."
    ),
    "rule_claim": (
        "Reclamar (r): acabado el mazo, si sales y tu equipo tiene los mejores triunfos que quedan, uno por"
        " cada baza, puedes reclamar el resto de la mano."
    ),
    "rule_kill_three": (
        "Muerte al tres: el as de triunfo no se puede jugar antes que el tres de triunfo (salvo en la última"
        " baza); cuando se lleva el tres, la mano termina en el acto y la gana su equipo."
    ),
    "rule_signals_partner": (
        "Señas, que solo ve el compañero, antes de jugar, cada una una"
        " vez por turno y solo si son ciertas: {names}."
    ),
    "rule_signals_open": (
        "Señas, que ven todos, antes de jugar, cada una una vez"
        " por turno y solo si son ciertas: {names}."
    ),
    "rule_signals_combination": (
        "Señas, antes de jugar, cada una una vez por turno y solo si son ciertas, que ve solo el compañero, o"
        " dichas en voz alta para todos (digo s1): {names}."
    ),
    "rule_signals_no_asks": "Nadie pide señas.",
    "rule_cutter_chooses": (
        "Antes de cada reparto el que corta, a la derecha del que da, elige cómo se reparte: {ways}."
    ),
    "rule_open_hands": "Cartas vistas: todas las manos se juegan boca arriba.",
    "rule_deal_look": "Los compañeros ven las tres primeras cartas del otro.",
    "rule_partners_look": "Acabado el mazo, los compañeros ven la mano del otro.",
    "rule_pair_bonus": "El equipo que se lleva el rey y el caballo de un palo suma 40 más en triunfo, 20 en otro palo.",
    "rule_last_trick_bonus": "La última baza suma {points} más.",
    "rule_tie_replay": "Si hay empate a más puntos, el mismo jugador vuelve a repartir.",
    "help_key_position": "juega la carta en esa posición de tu mano (tal como se muestra)",
    "help_key_card": "juega una carta por número y palo: {suits}",
    "help_key_notation": "también se lee la notación española ({spanish} por {italian}), pero no el 10: escribe F o R",
    "help_key_exchange": "cambia el triunfo cuando se puede (también c, cambiar, scambia, exchange)",
    "help_key_arrastro": "sale con el as de triunfo cantando arrastro (también {ace}!)",
    "help_key_claim": "reclama el resto de la mano (también claim, reclamar)",
    "help_key_signal": "hace una seña (también seña NOMBRE, signal NOMBRE; seña sola lista las que puedes hacer ahora)",
    "help_key_declare": "canta el rey y el caballo de un palo, por su letra ({suits})",
    "help_key_sort": "ordena tu mano por palo y valor, o la deja como llegó (también sort, ordenar, ordina)",
    "help_key_last": "vuelve a mostrar la última baza",
    "help_key_table": "vuelve a mostrar la mesa",
    "help_empty_line": "línea vacía",
    "help_key_help": "esta ayuda (también h, help, ayuda, aiuto)",
    "help_key_quit": "deja la partida (también quit, salir, esci); --save guarda la partida",
    "hand_sorted": "Tu mano está ordenada por palo y valor (g: como llegó).",
    "hand_unsorted": "Tu mano está en el orden en que llegó (g: ordenada por palo y valor).",
    "declared_points": "{points} cantados",
    "signals_menu": "Señas que puedes hacer ahora:",
    "signals_none_now": "Ahora no tienes ninguna seña verdadera: las señas deben ser verdaderas.",
    "help": (
        "Teclas\n"
        "{keys}"
        "Reglas\n"
        "  Gana la baza el triunfo más alto jugado; si no hay, la carta más alta del palo de salida.\n"
        "  {follow}. {next_trick}\n"
        "  Orden de las cartas, de mayor a menor: {order}.\n"
        "  Puntos: {points}; {hand_goal}.\n"
        "  Cambio del triunfo: {exchange}\n"
        "  Partida: {goal} ({label}).{special}"
    ),
    # Los juegos en que se reparten todas las cartas: el reparto, la subasta, el talón, el contrato, los cantes.
    "new_hand_auction": "Mano {hand}. Reparte: {who}. El triunfo se decide tras la subasta.",
    "new_hand_buia": "Mano {hand}. Reparte: {who}. El triunfo lo declara la llamada tras la primera baza.",
    "new_hand_dealer_card": "Mano {hand}. Reparte: {who}. Triunfo: {suit}, por la carta del que reparte, {card}, a la"
                            " vista hasta que la juegue.",
    "deal_way": "Corte y reparto: {way}.",
    "deal_alce": "alce (de cinco en cinco; se vuelve la última carta del que reparte)",
    "deal_golpe": "golpe (diez seguidas a cada jugador; se muestra la última de cada rival del que reparte)",
    "deal_pelada": "pelada (la carta de arriba es el triunfo; se muestran las primeras de los rivales del que reparte)",
    "shown_at_deal": "Vistas en el reparto: {who}: {cards}.",
    "talon_face_down": "Talón: {n} cartas boca abajo.",
    "auction_starts": "Subasta; habla primero: {who}. Pujas {range}, o paso (quien pasa ya no vuelve a pujar).",
    "auction_starts_low": (
        "Subasta; habla primero: {who}. Cada jugador nombra un número una vez, más bajo que los ya nombrados, o"
        " pasa; gana el más bajo, y su bando debe hacer {points} puntos."
    ),
    "header_auction": "Mano {hand} · subasta",
    "header_cut": "Mano {hand} · el corte",
    "new_hand_cut": "{who} reparte la mano {hand}; corta {cutter}, que elige cómo se reparte.",
    "new_hand_cut_you": "{who} reparte la mano {hand}; cortas tú y eliges cómo se reparte.",
    "trump_after_cut": "se ve al repartir",
    "prompt_cut": "Reparte {dealer}. Cortas tú: ¿cómo se reparte? {ways} (? ayuda, q salir): ",
    "err_cut_way": "\"{text}\" no es un corte de aquí: escribe uno de {ways}, o su número.",
    "you_cut_way": "Cortas: {way}.",
    "cuts_way": "{who} corta: {way}.",
    "prompt_mark": "Tu carta está en la mesa: marca el vale ({keys}, o vale) o déjalo (Intro o paso): ",
    "err_mark": "\"{text}\" no marca un vale: escribe {keys}, vale, o paso.",
    "talon_row": "Talón",
    "trump_pending": "se decide tras la subasta",
    "trump_after_first_trick": "aún ninguno: lo declara la llamada tras la primera baza",
    "trump_card_dealer": "{card}, carta de {who} (reparte), a la vista hasta que la juegue",
    "trump_card_yours": "{card}, tu carta (repartes), a la vista hasta que la juegues",
    "err_auction_over": "La subasta ha terminado: juega una carta.",
    "err_no_auction": "En estas reglas no hay subasta: juega una carta.",
    "talon_down": "{n} cartas boca abajo",
    "talon_up": "{cards} (mostradas y tomadas por {who})",
    "auction_row": "Subasta",
    "high_bid_row": "Puja más alta",
    "lowest_rank_row": "Número más bajo",
    "high_bid_value": "{bid} ({who})",
    "contract_row": "Contrato",
    "contract_value": "{who}, puja {bid}: debe hacer {points} puntos",
    "called_row": "Carta llamada",
    "partner_alone": "solo: {who}",
    "partner_known": "compañero: {who}",
    "partner_you_alone": "es tuya: juegas solo (nadie más lo sabe)",
    "partner_you_secret": "es tuya: eres el compañero oculto (nadie más lo sabe)",
    "partner_hidden": "quien la tiene, el compañero, sigue oculto hasta que se juegue",
    "declarations_row": "Cantes",
    "declare_option": "cantar el rey y el caballo de {suit} ({points} puntos)",
    "prompt_declare": ", {keys}",
    "pass_word": "paso",
    "bid_range": "de {low} a {max}",
    "bid_range_step": "de {low} a {max} de {step} en {step}",
    "prompt_bid": "Tu puja ({range}) o paso (? ayuda, q salir): ",
    "prompt_bid_must": "Eres el último y nadie ha pujado: tu puja ({range}) (? ayuda, q salir): ",
    "prompt_bid_none": "Nadie puede pujar más de {max}: escribe paso (? ayuda, q salir): ",
    "prompt_rank": "Nombra un número más bajo que los nombrados ({ranks}) o paso (? ayuda, q salir): ",
    "prompt_rank_none": "No hay número más bajo que el nombrado: escribe paso (? ayuda, q salir): ",
    "prompt_discard": (
        "Deja {n} cartas boca abajo en tu montón (posiciones como 1 2, o cartas como {example}; ? ayuda, q salir): "
    ),
    "prompt_trump": "Nombra el palo del triunfo ({suits}; ? ayuda, q salir): ",
    "prompt_trump_rank": "Nombra el palo de la carta llamada, el {rank}: será el triunfo ({suits}; ? ayuda, q salir): ",
    "prompt_call": (
        "Llama una carta, como {example}: su palo es el triunfo y quien la tenga tu compañero oculto; si llamas"
        " una tuya, juegas solo (? ayuda, q salir): "
    ),
    "err_must_bid": "Eres el último y nadie ha pujado: debes pujar al menos {low}.",
    "err_not_bid": "\"{text}\" no es una puja: escribe un número {range}, o paso.",
    "err_bid_none": "Nadie puede pujar más de {max}: solo puedes pasar.",
    "err_bid_low": "Demasiado baja: ahora la puja debe ser de al menos {low}, no {n}.",
    "err_bid_high": "Demasiado alta: la puja más alta posible es {max}, no {n}.",
    "err_bid_step": "Las pujas suben de {step} en {step} desde {low}: {n} no es una de ellas.",
    "err_not_rank": "\"{text}\" no es un número que puedas nombrar: nombra uno de {ranks}.",
    "err_rank_none": "No hay número más bajo que el {low} ya nombrado: solo puedes pasar.",
    "err_rank_high": "El {rank} no es más bajo que el {low} ya nombrado: nombra uno de {ranks}, o paso.",
    "err_discard_unknown": "\"{text}\" no es una carta de tu mano: escribe posiciones como 1 2 o cartas como"
                           " {example}.",
    "err_discard_twice": "Nombra cada carta una sola vez.",
    "err_discard_count": "Deja exactamente {n} cartas, no {k}.",
    "err_not_suit": "\"{text}\" no es un palo: escribe uno de {suits}.",
    "err_call_unknown": "\"{text}\" no es una carta: llama una como {example}.",
    "err_call_deck": "{card} no está en esta baraja.",
    "err_call_played": "{card} se jugó en la primera baza: llama una carta que siga en una mano, como {example}.",
    "err_call_after_first_trick": "La carta se llama cuando acabe la primera baza: ahora juega una carta.",
    "err_declare_off": "En estas reglas no se canta.",
    "err_declare_done": "El rey y el caballo de {suit} ya se han cantado.",
    "err_declare_vales": (
        "Los vales se cantan en la baza en que se juega el rey o el caballo: teniendo los dos y jugando uno"
        " ahora, o teniendo el otro cuando tu compañero ya ha jugado uno."
    ),
    "err_declare_on_lead": "Se canta al salir con una de las dos cartas, después de ganar una baza, teniendo ambas.",
    "err_pelada_lead": "En la pelada el que corta sale con triunfo en la primera baza: juega una de {cards}.",
    "err_lead_two": (
        "Ahora no puedes salir con {card}: se sale con un 2 solo teniendo el as de su palo o ya jugado, cuando tu"
        " compañero ha mostrado que no tiene el palo, o si no queda otra carta."
    ),
    "auction_won": "{who} gana la subasta con {bid}.",
    "you_win_auction": "Ganas la subasta con {bid}.",
    "call_after_first_trick": "{who} sale a la primera baza, que se juega sin triunfo; la llamada viene después.",
    "you_call_after_first_trick": "Sales a la primera baza, que se juega sin triunfo; llamas tu carta después.",
    "contract_line_you": "Contrato: debes hacer {points} puntos. Triunfo: {suit}.",
    "contract_called_you": "Carta llamada: {card}. Quien la tenga es tu compañero oculto.",
    "talon_shown": "{who} muestra el talón: {cards}, y se lo lleva.",
    "you_take_talon": "El talón es {cards}: lo muestras y te lo llevas.",
    "discards_hidden": "{who} deja {n} cartas boca abajo en su montón.",
    "contract_line": "Contrato: {who} debe hacer {points} puntos. Triunfo: {suit}.",
    "contract_called": "Carta llamada: {card}. Quien la tenga es el compañero oculto de {who}.",
    "you_alone": "{card} es tuya: juegas solo, y nadie más lo sabe hasta que la juegues.",
    "you_are_partner": "Tienes {card}: eres el compañero oculto de {who}, y nadie lo sabe hasta que la juegues.",
    "alone_revealed": "Se ha jugado {card}: era de {who}, que juega solo.",
    "alone_revealed_you": "Se ha jugado {card}: ahora todos saben que juegas solo.",
    "partner_revealed": "Se ha jugado {card}: {who} es el compañero de {declarer}.",
    "partner_revealed_you": "Se ha jugado {card}: ahora todos saben que eres el compañero de {who}.",
    "partner_revealed_yours": "Se ha jugado {card}: {who} es tu compañero.",
    "you_bid": "Pujas {points}.",
    "bids": "{who} puja {points}.",
    "you_name_rank": "Nombras el {rank}.",
    "names_rank": "{who} nombra el {rank}.",
    "you_pass": "Pasas.",
    "passes": "{who} pasa.",
    "you_discard": "Dejas {cards} boca abajo en tu montón ({points} puntos).",
    "discards": "{who} deja {cards} boca abajo ({points} puntos).",
    "you_name_trump": "Nombras el triunfo: {suit}.",
    "names_trump": "{who} nombra el triunfo: {suit}.",
    "you_call": "Llamas {card}.",
    "calls": "{who} llama {card}.",
    "you_declare": "Cantas el rey y el caballo de {suit}: {points} puntos.",
    "declares": "{who} canta el rey y el caballo de {suit}: {points} puntos.",
    "you_declare_vales": "Cantas vales, rey y caballo de {suit}: {points} puntos para el equipo que gane esta baza.",
    "declares_vales": "{who} canta vales, rey y caballo de {suit}: {points} puntos para el equipo que gane esta"
                      " baza.",
    "hand_void": "Mano {hand}: todos pasan, la mano no vale. Reparte ahora: {who}.",
    "contract_made": "Contrato cumplido: {who}, {took} puntos de los {points} pujados.",
    "contract_set": "Contrato fallado: {who}, {took} puntos de los {points} pujados.",
    "hand_scores": "Puntos de la partida en esta mano: {scores}.",
    "capote": "Capote: {who} gana todas las bazas y la mano sin más.",
    "bonus_declared": "cantar {king} y {knight}",
    "rule_trump_dealer": "Se reparten todas las cartas; la última es el triunfo del que reparte, a la vista hasta que"
                         " la juegue.",
    "rule_pelada": "Pelada: el que corta debe salir con triunfo en la primera baza.",
    "rule_lead_two": (
        "Solo se sale con un 2 teniendo el as de su palo o ya jugado, cuando el compañero ha mostrado que no tiene"
        " el palo, o si no queda otra carta."
    ),
    "bid_step_text": " de {step} en {step}",
    "rule_auction_points": (
        "Subasta: desde el jugador después del que reparte, puja de {min} a {max} puntos{step} (escribe 110, o"
        " bid 110), más que la última puja, o pasa (quien pasa ya no puja)."
    ),
    "rule_auction_low": (
        "Subasta: cada jugador nombra un número una vez (escribe 3, o bid rank 3), más bajo que los ya nombrados,"
        " o pasa; gana el más bajo, que nombra el palo de la carta llamada (trump {suit_key}), y su bando debe hacer"
        " {min} puntos."
    ),
    "rule_last_must_bid": "Si los demás pasan y nadie ha pujado, el último debe pujar al menos {min}.",
    "rule_all_pass_void": "Si todos pasan, la mano no vale y reparte el siguiente (puja mínima {min}).",
    "rule_talon": (
        "El ganador de la subasta muestra el talón ({n} cartas), se lo lleva, deja {n} cartas boca abajo en su"
        " montón (discard {discard_example}, o posiciones como 1 2) y nombra el triunfo (trump {suit_key}); sale él."
    ),
    "rule_called": (
        "El ganador de la subasta llama una carta (call {call_example}): su palo es el triunfo y quien la tenga su"
        " compañero oculto, que se sabe cuando se juega; si llama una suya, juega solo. Sale él."
    ),
    "rule_called_buia": (
        "Chiamata buia: el ganador de la subasta sale a una primera baza sin triunfo (la gana la carta más"
        " alta del palo de salida). Después llama una carta que siga en una mano (call {call_example}): su"
        " palo es el triunfo y quien la tenga su compañero oculto, que se sabe cuando se juega; si llama una"
        " suya, juega solo. Sale a la segunda baza quien ganó la primera."
    ),
    "rule_contract_solo": (
        "Si el que puja llega a su puja, se la apunta; si no, cada uno de los otros se apunta la mitad. La última"
        " baza y los cantes cuentan para la puja."
    ),
    "rule_contract_called": (
        "Cumplido: el que puja +2, el compañero +1, cada uno de los otros -1 (solo: +4); fallado: al revés."
    ),
    "rule_declarations_vales": (
        "Vales: un equipo con el rey y el caballo de un palo los canta (declare {suit_key}) en la baza en que se"
        " juega uno de ellos: 40 en triunfo, 20 en otro palo, para el equipo que gana esa baza."
    ),
    "rule_declarations_on_lead": (
        "Cantes: con el rey y el caballo de un palo, después de ganar una baza, cántalos (declare {suit_key}) al"
        " salir con uno de ellos: 40 en triunfo, 20 en otro palo."
    ),
    "rule_capote": "Quien gana todas las bazas (capote) gana la mano sin más.",
    "next_trick_draw": "Quien gana la baza roba primero y sale en la siguiente.",
    "next_trick_lead": "Quien gana la baza sale en la siguiente.",
    "hand_goal_contract": "el bando del que gana la subasta debe llegar a su puja",
    # El cambio anunciado (001) y el cambio fuera de turno (000).
    "announce_option": "poner {give} debajo del triunfo a la vista {take}: te lo llevas al ganar tu próxima baza",
    "prompt_announce": ", x anunciar el cambio",
    "you_announce": "Pones {give} debajo del triunfo a la vista {take}: te lo llevas al ganar tu próxima baza.",
    "announces": "{who} pone {give} debajo del triunfo a la vista {take}: el cambio se hace cuando gane su próxima"
                 " baza.",
    "announced_made_you": "Te llevas el triunfo a la vista {take}; {give} queda a la vista en su lugar.",
    "announced_made": "{who} se lleva el triunfo a la vista {take}; {give} queda a la vista en su lugar.",
    "announced_back_you": "Se ha robado la muestra: {give} vuelve a tu mano.",
    "announced_back": "Se ha robado la muestra: {give} vuelve a la mano de {who}.",
    "announced_row": "Bajo la muestra",
    "err_announced_waits": "{card} ya está debajo de la muestra: el cambio espera a que {who} gane una baza.",
    "err_keep_a_card": "Tienes que quedarte con una carta para jugar: no puedes poner la última debajo de la muestra.",
    "help_key_announce": "anuncia el cambio: pon el 7 o el 2 debajo de la muestra (también c, cambiar, scambia)",
    "exchange_when_announced": "anunciado: se pone debajo de la muestra y se cambia al ganar la próxima baza",
    "exchange_when_out_of_turn": "después de ganar una baza, en tu turno o en el de otro",
    "prompt_out_of_turn": "Puedes cambiar {give} por el triunfo a la vista {take} ahora, fuera de turno (x cambiar,"
                          " Enter seguir): ",
    "err_out_of_turn": "Ahora solo puedes cambiar (x) o dejar seguir el juego (Enter).",
}

_IT: dict[str, str] = {
    "you": "Tu",
    "seat": "Giocatore {n}",
    "partner": "compagno",
    "your_side": "La tua squadra",
    "other_side": "Squadra avversaria",
    "seats": "giocatori {seats}",
    "welcome": "Brisca: {title}, {players} giocatori. Giochi al posto {seat}.",
    "seating": "Al tavolo:",
    "partners": "I tuoi compagni: {who}.",
    "new_hand": "Mano {hand}. Mazziere: {who}. Briscola: {suit} (carta scoperta {card}).",
    "new_hand_no_turn": "Mano {hand}. Mazziere: {who}. Briscola: {suit}.",
    "header": "Mano {hand} · presa {trick}",
    "hand_title": "Mano {hand}",
    "partners_row": "Compagni",
    "trump": "Briscola",
    "stock": "Mazzo",
    "stock_face_up": "{count} carte, briscola scoperta {card}",
    "stock_count": "{count} carte",
    "stock_empty": "vuoto (la carta scoperta è stata pescata)",
    "points": "Punti",
    "hands_won": "Mani vinte",
    "match_points": "Punti della partita",
    "goal_hands_one": "vince la partita chi vince una mano",
    "goal_hands": "vince la partita chi vince {target} mani",
    "goal_points": "vince la partita chi arriva a {target} punti",
    "goal_game_points": "vince la partita chi arriva a {target} punti gioco",
    "goal_rotation": "smazzata {deal} di 4; dopo quattro vince chi ha di più",
    "game_points": "Punti gioco",
    "goal_fixed": "mano {deal} di {n}; vince la partita chi vince più mani",
    "goal_fixed_level": "giocate {n} mani in parità: una mano in più alla volta finché uno passa avanti",
    "last_trick": "Ultima presa",
    "last_trick_line": "vincitore: {who} · {card} · {points} punti",
    "none_yet": "ancora nessuna",
    "on_table": "In tavola",
    "empty_table": "ancora niente",
    "turn": "Turno",
    "your_hand": "La tua mano",
    "trump_tag": "briscola",
    "exchange_option": "scambia {give} con la briscola scoperta {take}",
    "prompt": "La tua mossa (1-{n} o una carta come {example}{exchange}, ? aiuto, q esci): ",
    "prompt_exchange": ", x scambia",
    "you_play": "Giochi {card}.",
    "you_act": "Tu: {action}.",
    "acts": "{who}: {action}.",
    "not_playable": "non giocabile ora",
    "plays": "{who} gioca {card}.",
    "you_exchange": "Scambi {give} con la briscola scoperta {take}.",
    "exchanges": "{who} scambia {give} con la briscola scoperta {take}.",
    "you_win_trick": "Vinci la presa con {card}: {points} punti.",
    "wins_trick": "{who} vince la presa con {card}: {points} punti.",
    "you_draw": "Peschi {card}.",
    "hand_over": "Fine della mano {hand}. Punti: {points}.",
    "hand_won_you": "Vinci la mano!",
    "hand_won": "{who} vince la mano.",
    "hand_draw": "La mano finisce in parità: non conta.",
    "hand_shared": "La mano finisce in parità: va a {who}.",
    "hand_replay": "La mano finisce in parità: lo stesso mazziere la ridistribuisce.",
    "match_over": "Partita finita. Vincitore: {who}.",
    "match_level": "Partita finita in parità: nessuno vince.",
    "match_won_you": "Complimenti, vinci la partita!",
    "match_lost": "Perdi la partita. Andrà meglio la prossima volta!",
    "last_none": "Nessuna presa è ancora finita in questa mano.",
    "last_header": "Ultima presa (apertura: {who}):",
    "err_position": "Non c'è la carta numero {n} nella tua mano: scegli da 1 a {max}.",
    "err_unknown": "Non capisco \"{text}\". Scrivi una carta come {example}, la sua posizione da 1 a {max}, o ? per"
                   " l'aiuto.",
    "err_ten": "\"{text}\" è ambiguo: il 10 è il fante nel mazzo spagnolo e il re nel conto italiano. Scrivi {jack}"
               " o {king}.",
    "err_not_held": "Non hai {card}.",
    "err_must_play": "Ora non puoi giocare {card}: queste regole ti obbligano a giocare una tra {cards}.",
    "err_exchange_off": "Con queste regole la briscola non si scambia.",
    "err_no_face_up": "La briscola scoperta è già stata pescata: non c'è niente da scambiare.",
    "err_face_up_fixed": "La briscola scoperta {card} non si può scambiare.",
    "err_must_win": "Devi vincere una presa prima di scambiare la briscola.",
    "err_need_card": "Per prendere {take} ti serve {give}.",
    "err_illegal": "Non permesso: {reason}",
    "err_bad_seat": "non c'è il posto {seat} a un tavolo da {players} giocatori: scegli un posto da 0 a {max}",
    "quit": "Lasci la partita.",
    "eof": "Fine dell'input: la partita resta incompiuta.",
    "interrupted": "Interrotto: la partita resta incompiuta.",
    "saved": "Partita salvata in {path}.",
    "exchange_rule": "il {give} di briscola con un {take} scoperto",
    "exchange_none": "con queste regole la briscola non si scambia.",
    "exchange_after_win": "dopo aver vinto una presa",
    "err_exchange_not_now": "Ora non puoi scambiare la briscola.",
    "follow_none": "Non c'è obbligo di rispondere al seme",
    "follow_suit": "Devi rispondere al seme se puoi",
    "follow_suit_trump": "Devi rispondere al seme se puoi, altrimenti giocare briscola se puoi",
    "follow_descanso": "Devi rispondere al seme e superare l'avversario se puoi, altrimenti rispondere, altrimenti"
                       " briscola (non se il tuo compagno prende la mano senza briscola)",
    "follow_suit_beat_trump": "Devi rispondere al seme e superare se puoi, altrimenti rispondere, altrimenti briscola",
    "follow_empty_stock": "{rule} (solo quando il mazzo è finito)",
    "draw_header": "Sorteggio del mazziere (distribuisce la carta più alta):",
    "draw_again": "{who} pareggiano con la carta più alta e pescano di nuovo:",
    "draw_dealer": "Distribuisce la carta più alta: {who}.",
    "welcome_draw": "Brisca: {title}, {players} giocatori. I posti si sorteggiano.",
    "player": "Partecipante {n}",
    "draw_partners_header": "Sorteggio di coppie e posti (le carte più alte giocano insieme, la più alta"
                            " distribuisce):",
    "draw_seats_header": "Sorteggio dei posti (distribuisce la carta più alta):",
    "draw_tie": "{who} hanno pescato carte dello stesso valore e pescano di nuovo:",
    "draw_sides": "{high} giocano contro {low}.",
    "draw_seat": "Posto {seat}: {who}.",
    "draw_header_face": (
        "Sorteggio del mazziere (distribuisce il numero più alto: il re vale 10, il cavallo 9, il fante 8; in caso"
        " di parità tra le coppie vince quella che somma di più):"
    ),
    "cut_prompt": "Distribuisce {dealer}. Tagli tu: quante carte ({min}-{max})? (Invio: a caso) ",
    "you_cut": "Tagli il mazzo a {at} carte.",
    "cuts": "{who} taglia il mazzo a {at} carte.",
    "err_cut": "Taglia tra {min} e {max} carte (Invio: taglio a caso), non \"{text}\".",
    "prompt_arrastro": ", a arrastro",
    "prompt_claim": ", r rivendica",
    "prompt_signal": ", {keys} segnale",
    "prompt_say": ", dico s1... ad alta voce",
    "arrastro_row": "Arrastro",
    "arrastro_on": (
        "chiamato: ognuno deve giocare la sua carta migliore (la"
        " briscola più alta, altrimenti la carta più alta)"
    ),
    "arrastro_option": "esci con {card} chiamando arrastro: gli altri devono giocare la loro carta migliore",
    "you_arrastro": "Esci con {card} chiamando arrastro: gli altri devono giocare la loro carta migliore.",
    "plays_arrastro": "{who} esce con {card} chiamando arrastro: gli altri devono giocare la loro carta migliore.",
    "claim_option": "rivendica il resto della mano: la tua squadra ha le briscole migliori per ogni presa che resta",
    "you_claim": "Rivendichi il resto della mano.",
    "claims": "{who} rivendica il resto della mano: la sua squadra ha le briscole migliori per ogni presa che resta.",
    "claimed": "Prende {who}: {cards} ({points} punti).",
    "signal_option": "segnale: {signal}",
    "say_option": "dici ad alta voce: {signal}",
    "you_signal": "Fai il segnale: {signal}.",
    "signal_made": "{who} fa il segnale: {signal}.",
    "signals_partner_row": "Segnali del compagno",
    "signals_open_row": "Segnali",
    "no_signals": "ancora nessuno",
    "known_row": "Carte note",
    "three_killed": "Muerte al tres ({who}): {ace} prende {three} e la mano finisce subito.",
    "bonus_line": "{who}: premio per {why}, {points} punti.",
    "bonus_last_trick": "ultima presa",
    "bonus_pair": "{king} e {knight}",
    "goal_least": "In questo gioco vince la mano la squadra con meno punti.",
    "hand_goal_most": "vince la mano la squadra con più punti",
    "hand_goal_least": "vince la mano la squadra con meno punti",
    "err_arrastro": "È stato chiamato arrastro: devi giocare la tua carta migliore ({cards}).",
    "err_ace_prisoner": "L'asso di briscola non si può giocare prima del tre di briscola (tranne all'ultima presa).",
    "err_arrastro_off": "Con queste regole non si gioca l'arrastro.",
    "err_arrastro_lead": "L'arrastro si chiama solo uscendo con {card}.",
    "err_claim_off": "Con queste regole non si rivendicano le prese.",
    "err_claim_not_now": "Si rivendica uscendo, quando il mazzo è finito.",
    "err_claim_fails": "Non puoi rivendicare: la tua squadra non ha le briscole migliori per ogni presa che resta.",
    "err_signals_off": "Con queste regole non si fanno segnali.",
    "err_signal_position": "Non c'è il segnale s{n}: i segnali vanno da s1 a s{max}.",
    "err_signal_unknown": "Non esiste il segnale \"{text}\". Scrivi segnale per vedere quelli che puoi fare ora.",
    "err_signal_done": "Hai già fatto il segnale {signal} in questo turno.",
    "err_signal_untrue": "Non puoi fare il segnale {signal}: i segnali devono essere veri.",
    "err_signal_not_in_set": "{signal} non è uno dei segnali di queste regole. Scrivi ? per vederli.",
    "err_signal_ask": "Con queste regole nessuno chiede segnali ({signal}).",
    "err_say_off": "I segnali si dicono ad alta voce solo dove si combinano il parlare aperto e i segnali.",
    "rule_arrastro": (
        "Arrastro: uscendo con l'asso di briscola puoi chiamare arrastro (a, o {ace}!); gli altri devono allora"
        " giocare la loro carta migliore: la briscola più alta, altrimenti la carta più alta."
    ),
    "rule_claim": (
        "Rivendicare (r): finito il mazzo, se esci e la tua squadra ha le briscole migliori rimaste, una per"
        " ogni presa, puoi rivendicare il resto della mano."
    ),
    "rule_kill_three": (
        "Muerte al tres: l'asso di briscola non si può giocare prima del tre di briscola (tranne all'ultima"
        " presa); quando prende il tre, la mano finisce subito e la vince la sua squadra."
    ),
    "rule_signals_partner": (
        "Segnali, visti solo dal compagno, prima di giocare, ognuno"
        " una volta per turno e solo se veri: {names}."
    ),
    "rule_signals_open": (
        "Segnali, visti da tutti, prima di giocare, ognuno una"
        " volta per turno e solo se veri: {names}."
    ),
    "rule_signals_combination": (
        "Segnali, prima di giocare, ognuno una volta per turno e solo se veri, visti solo dal compagno, o detti"
        " ad alta voce per tutti (dico s1): {names}."
    ),
    "rule_signals_no_asks": "Nessuno chiede segnali.",
    "rule_cutter_chooses": "Prima di ogni distribuzione chi taglia, alla destra del mazziere, sceglie come: {ways}.",
    "rule_open_hands": "Carte scoperte: tutte le mani si giocano a faccia in su.",
    "rule_deal_look": "I compagni vedono le prime tre carte l'uno dell'altro.",
    "rule_partners_look": "Finito il mazzo, i compagni vedono la mano l'uno dell'altro.",
    "rule_pair_bonus": (
        "La squadra che prende il re e il cavallo di un seme segna"
        " 40 in più a briscola, 20 in un altro seme."
    ),
    "rule_last_trick_bonus": "L'ultima presa vale {points} in più.",
    "rule_tie_replay": "In caso di parità per il massimo, lo stesso mazziere ridistribuisce.",
    "help_key_position": "gioca la carta in quella posizione della tua mano (come è mostrata)",
    "help_key_card": "gioca una carta per valore e seme: {suits}",
    "help_key_notation": "si legge anche la notazione spagnola ({spanish} per {italian}), ma non il 10: scrivi F o R",
    "help_key_exchange": "scambia la briscola quando è permesso (anche c, cambiar, scambia, exchange)",
    "help_key_arrastro": "esci con l'asso di briscola chiamando arrastro (anche {ace}!)",
    "help_key_claim": "rivendica il resto della mano (anche claim, rivendica)",
    "help_key_signal": "fai un segnale (anche segnale NOME, signal NOME; segnale da solo elenca quelli che puoi fare"
                       " ora)",
    "help_key_declare": "accusa il re e il cavallo di un seme, con la sua lettera ({suits})",
    "help_key_sort": "ordina la tua mano per seme e valore, o la rimette com'è arrivata (anche sort, ordenar, ordina)",
    "help_key_last": "mostra di nuovo l'ultima presa",
    "help_key_table": "mostra di nuovo la tavola",
    "help_empty_line": "riga vuota",
    "help_key_help": "questo aiuto (anche h, help, ayuda, aiuto)",
    "help_key_quit": "lascia la partita (anche quit, salir, esci); --save conserva la partita",
    "hand_sorted": "La tua mano è ordinata per seme e valore (g: com'è arrivata).",
    "hand_unsorted": "La tua mano è nell'ordine in cui è arrivata (g: ordinata per seme e valore).",
    "declared_points": "{points} accusati",
    "signals_menu": "Segnali che puoi fare ora:",
    "signals_none_now": "Ora non hai nessun segnale vero: i segnali devono essere veri.",
    "help": (
        "Tasti\n"
        "{keys}"
        "Regole\n"
        "  La presa va alla briscola più alta giocata, altrimenti alla carta più alta del seme di uscita.\n"
        "  {follow}. {next_trick}\n"
        "  Carte dalla più alta alla più bassa: {order}.\n"
        "  Punti: {points}; {hand_goal}.\n"
        "  Scambio della briscola: {exchange}\n"
        "  Partita: {goal} ({label}).{special}"
    ),
    # I giochi in cui si distribuiscono tutte le carte: la distribuzione, l'asta, il monte, il contratto, le accuse.
    "new_hand_auction": "Mano {hand}. Distribuisce: {who}. La briscola si decide dopo l'asta.",
    "new_hand_buia": "Mano {hand}. Distribuisce: {who}. La briscola la dichiara la chiamata dopo la prima presa.",
    "new_hand_dealer_card": "Mano {hand}. Distribuisce: {who}. Briscola: {suit}, dalla carta del mazziere, {card},"
                            " scoperta finché non la gioca.",
    "deal_way": "Taglio e distribuzione: {way}.",
    "deal_alce": "alce (a pacchetti di cinque; si scopre l'ultima carta del mazziere)",
    "deal_golpe": "golpe (dieci di fila a ciascuno; si mostra l'ultima di ogni avversario del mazziere)",
    "deal_pelada": "pelada (la prima carta è la briscola; si mostrano le prime carte degli avversari del mazziere)",
    "shown_at_deal": "Scoperte nella distribuzione: {who}: {cards}.",
    "talon_face_down": "Monte: {n} carte coperte.",
    "auction_starts": "Asta; parla per primo: {who}. Offerte {range}, o passo (chi passa non rientra).",
    "auction_starts_low": (
        "Asta; parla per primo: {who}. Ognuno nomina un valore una volta, più basso di quelli già nominati, o"
        " passa; vince il più basso, e la sua squadra deve fare {points} punti."
    ),
    "header_auction": "Mano {hand} · asta",
    "header_cut": "Mano {hand} · il taglio",
    "new_hand_cut": "{who} distribuisce la mano {hand}; taglia {cutter}, che sceglie come distribuire.",
    "new_hand_cut_you": "{who} distribuisce la mano {hand}; tagli tu e scegli come distribuire.",
    "trump_after_cut": "si vede alla distribuzione",
    "prompt_cut": "Distribuisce {dealer}. Tagli tu: come si distribuisce? {ways} (? aiuto, q esci): ",
    "err_cut_way": "\"{text}\" non è un taglio di qui: scrivi uno tra {ways}, o il suo numero.",
    "you_cut_way": "Tagli: {way}.",
    "cuts_way": "{who} taglia: {way}.",
    "prompt_mark": "La tua carta è in tavola: segna l'accusa ({keys}, o vale) o lasciala (Invio o passo): ",
    "err_mark": "\"{text}\" non segna un'accusa: scrivi {keys}, vale, o passo.",
    "talon_row": "Monte",
    "trump_pending": "si decide dopo l'asta",
    "trump_after_first_trick": "ancora nessuna: la dichiara la chiamata dopo la prima presa",
    "trump_card_dealer": "{card}, carta di {who} (mazziere), scoperta finché non la gioca",
    "trump_card_yours": "{card}, la tua carta (sei il mazziere), scoperta finché non la giochi",
    "err_auction_over": "L'asta è finita: gioca una carta.",
    "err_no_auction": "In queste regole non c'è asta: gioca una carta.",
    "talon_down": "{n} carte coperte",
    "talon_up": "{cards} (mostrate e prese da {who})",
    "auction_row": "Asta",
    "high_bid_row": "Offerta più alta",
    "lowest_rank_row": "Valore più basso",
    "high_bid_value": "{bid} ({who})",
    "contract_row": "Contratto",
    "contract_value": "{who}, offerta {bid}: deve fare {points} punti",
    "called_row": "Carta chiamata",
    "partner_alone": "da solo: {who}",
    "partner_known": "compagno: {who}",
    "partner_you_alone": "è tua: giochi da solo (nessun altro lo sa)",
    "partner_you_secret": "è tua: sei il compagno nascosto (nessun altro lo sa)",
    "partner_hidden": "chi la tiene, il compagno, resta nascosto finché non viene giocata",
    "declarations_row": "Accuse",
    "declare_option": "accusare il re e il cavallo di {suit} ({points} punti)",
    "prompt_declare": ", {keys}",
    "pass_word": "passo",
    "bid_range": "da {low} a {max}",
    "bid_range_step": "da {low} a {max} di {step} in {step}",
    "prompt_bid": "La tua offerta ({range}) o passo (? aiuto, q esci): ",
    "prompt_bid_must": "Sei l'ultimo e nessuno ha offerto: la tua offerta ({range}) (? aiuto, q esci): ",
    "prompt_bid_none": "Nessuno può offrire più di {max}: scrivi passo (? aiuto, q esci): ",
    "prompt_rank": "Nomina un valore più basso di quelli nominati ({ranks}) o passo (? aiuto, q esci): ",
    "prompt_rank_none": "Non c'è valore più basso di quello nominato: scrivi passo (? aiuto, q esci): ",
    "prompt_discard": (
        "Metti {n} carte coperte nel tuo mucchio (posizioni come 1 2, o carte come {example}; ? aiuto, q esci): "
    ),
    "prompt_trump": "Nomina il seme di briscola ({suits}; ? aiuto, q esci): ",
    "prompt_trump_rank": "Nomina il seme della carta chiamata, il {rank}: sarà briscola ({suits}; ? aiuto, q esci): ",
    "prompt_call": (
        "Chiama una carta, come {example}: il suo seme è briscola e chi la tiene il tuo compagno nascosto; se"
        " chiami una tua, giochi da solo (? aiuto, q esci): "
    ),
    "err_must_bid": "Sei l'ultimo e nessuno ha offerto: devi offrire almeno {low}.",
    "err_not_bid": "\"{text}\" non è un'offerta: scrivi un numero {range}, o passo.",
    "err_bid_none": "Nessuno può offrire più di {max}: puoi solo passare.",
    "err_bid_low": "Troppo bassa: ora l'offerta dev'essere almeno {low}, non {n}.",
    "err_bid_high": "Troppo alta: l'offerta massima è {max}, non {n}.",
    "err_bid_step": "Le offerte salgono di {step} in {step} da {low}: {n} non è una di queste.",
    "err_not_rank": "\"{text}\" non è un valore che puoi nominare: nomina uno di {ranks}.",
    "err_rank_none": "Non c'è valore più basso del {low} già nominato: puoi solo passare.",
    "err_rank_high": "Il {rank} non è più basso del {low} già nominato: nomina uno di {ranks}, o passo.",
    "err_discard_unknown": "\"{text}\" non è una carta della tua mano: scrivi posizioni come 1 2 o carte come"
                           " {example}.",
    "err_discard_twice": "Nomina ogni carta una volta sola.",
    "err_discard_count": "Metti esattamente {n} carte, non {k}.",
    "err_not_suit": "\"{text}\" non è un seme: scrivi uno di {suits}.",
    "err_call_unknown": "\"{text}\" non è una carta: chiamane una come {example}.",
    "err_call_deck": "{card} non è in questo mazzo.",
    "err_call_played": "{card} è uscita nella prima presa: chiama una carta ancora in mano a qualcuno, come {example}.",
    "err_call_after_first_trick": "La carta si chiama finita la prima presa: ora gioca una carta.",
    "err_declare_off": "In queste regole non si accusa.",
    "err_declare_done": "Il re e il cavallo di {suit} sono già stati accusati.",
    "err_declare_vales": (
        "I vales si accusano nella presa in cui si gioca il re o il cavallo: tenendoli entrambi e giocandone uno"
        " ora, o tenendo l'altro quando il compagno ne ha giocato uno."
    ),
    "err_declare_on_lead": "Si accusa uscendo con una delle due carte, dopo aver vinto una presa, tenendole entrambe.",
    "err_pelada_lead": "Nella pelada chi taglia esce con una briscola alla prima presa: gioca una di {cards}.",
    "err_lead_two": (
        "Ora non puoi uscire con {card}: si esce con un 2 solo tenendo l'asso del suo seme o se è già uscito,"
        " quando il compagno ha mostrato di non avere il seme, o se non resta altro."
    ),
    "auction_won": "{who} vince l'asta con {bid}.",
    "you_win_auction": "Vinci l'asta con {bid}.",
    "call_after_first_trick": "{who} apre la prima presa, giocata senza briscola; la chiamata viene dopo.",
    "you_call_after_first_trick": "Apri la prima presa, giocata senza briscola; chiami la tua carta dopo.",
    "contract_line_you": "Contratto: devi fare {points} punti. Briscola: {suit}.",
    "contract_called_you": "Carta chiamata: {card}. Chi la tiene è il tuo compagno nascosto.",
    "talon_shown": "{who} mostra il monte: {cards}, e lo prende.",
    "you_take_talon": "Il monte è {cards}: lo mostri e lo prendi.",
    "discards_hidden": "{who} mette {n} carte coperte nel suo mucchio.",
    "contract_line": "Contratto: {who} deve fare {points} punti. Briscola: {suit}.",
    "contract_called": "Carta chiamata: {card}. Chi la tiene è il compagno nascosto di {who}.",
    "you_alone": "{card} è tua: giochi da solo, e nessun altro lo sa finché non la giochi.",
    "you_are_partner": "Hai {card}: sei il compagno nascosto di {who}, e nessuno lo sa finché non la giochi.",
    "alone_revealed": "È uscita {card}: era di {who}, che gioca da solo.",
    "alone_revealed_you": "È uscita {card}: ora tutti sanno che giochi da solo.",
    "partner_revealed": "È uscita {card}: {who} è il compagno di {declarer}.",
    "partner_revealed_you": "È uscita {card}: ora tutti sanno che sei il compagno di {who}.",
    "partner_revealed_yours": "È uscita {card}: {who} è il tuo compagno.",
    "you_bid": "Offri {points}.",
    "bids": "{who} offre {points}.",
    "you_name_rank": "Nomini il {rank}.",
    "names_rank": "{who} nomina il {rank}.",
    "you_pass": "Passi.",
    "passes": "{who} passa.",
    "you_discard": "Metti {cards} coperte nel tuo mucchio ({points} punti).",
    "discards": "{who} mette {cards} coperte ({points} punti).",
    "you_name_trump": "Nomini la briscola: {suit}.",
    "names_trump": "{who} nomina la briscola: {suit}.",
    "you_call": "Chiami {card}.",
    "calls": "{who} chiama {card}.",
    "you_declare": "Accusi il re e il cavallo di {suit}: {points} punti.",
    "declares": "{who} accusa il re e il cavallo di {suit}: {points} punti.",
    "you_declare_vales": "Accusi i vales, re e cavallo di {suit}: {points} punti per chi vince questa presa.",
    "declares_vales": "{who} accusa i vales, re e cavallo di {suit}: {points} punti per chi vince questa presa.",
    "hand_void": "Mano {hand}: passano tutti, la mano è nulla. Ora distribuisce: {who}.",
    "contract_made": "Contratto riuscito: {who}, {took} punti dei {points} offerti.",
    "contract_set": "Contratto fallito: {who}, {took} punti dei {points} offerti.",
    "hand_scores": "Punti della partita in questa mano: {scores}.",
    "capote": "Cappotto: {who} vince tutte le prese e la mano senz'altro.",
    "bonus_declared": "accusa di {king} e {knight}",
    "rule_trump_dealer": "Si distribuiscono tutte le carte; l'ultima è la briscola del mazziere, scoperta finché non la"
                         " gioca.",
    "rule_pelada": "Pelada: chi taglia deve uscire con una briscola alla prima presa.",
    "rule_lead_two": (
        "Si esce con un 2 solo tenendo l'asso del suo seme o se è già uscito, quando il compagno ha mostrato di non"
        " avere il seme, o se non resta altro."
    ),
    "bid_step_text": " di {step} in {step}",
    "rule_auction_points": (
        "Asta: dal giocatore dopo il mazziere, offri da {min} a {max} punti{step} (scrivi 110, o bid 110), più"
        " dell'ultima offerta, o passa (chi passa non rientra)."
    ),
    "rule_auction_low": (
        "Asta: ognuno nomina un valore una volta (scrivi 3, o bid rank 3), più basso di quelli già nominati, o"
        " passa; vince il più basso, che nomina il seme della carta chiamata (trump {suit_key}), e la sua squadra"
        " deve fare {min} punti."
    ),
    "rule_last_must_bid": "Se gli altri passano e nessuno ha offerto, l'ultimo deve offrire almeno {min}.",
    "rule_all_pass_void": "Se passano tutti, la mano è nulla e distribuisce il successivo (offerta minima {min}).",
    "rule_talon": (
        "Chi vince l'asta mostra il monte ({n} carte), lo prende, mette {n} carte coperte nel suo mucchio"
        " (discard {discard_example}, o posizioni come 1 2) e nomina la briscola (trump {suit_key}); esce lui."
    ),
    "rule_called": (
        "Chi vince l'asta chiama una carta (call {call_example}): il suo seme è briscola e chi la tiene il suo compagno"
        " nascosto, che si scopre quando esce; se chiama una sua, gioca da solo. Esce lui."
    ),
    "rule_called_buia": (
        "Chiamata buia: chi vince l'asta apre una prima presa giocata senza briscola (la prende la carta più"
        " alta del seme di uscita). Poi chiama una carta ancora in mano a qualcuno (call {call_example}): il"
        " suo seme è briscola e chi la tiene il suo compagno nascosto, che si scopre quando esce; se chiama"
        " una sua, gioca da solo. Apre la seconda presa chi ha preso la prima."
    ),
    "rule_contract_solo": (
        "Se chi ha vinto l'asta arriva alla sua offerta, la segna; se no, ognuno degli altri ne segna la metà."
        " L'ultima presa e le accuse contano per l'offerta."
    ),
    "rule_contract_called": (
        "Riuscito: chi chiama +2, il compagno +1, ognuno degli altri -1 (da solo: +4); fallito: il contrario."
    ),
    "rule_declarations_vales": (
        "Vales: una squadra con il re e il cavallo di un seme li accusa (declare {suit_key}) nella presa in cui se ne"
        " gioca uno: 40 in briscola, 20 altrimenti, per chi vince quella presa."
    ),
    "rule_declarations_on_lead": (
        "Accuse: con il re e il cavallo di un seme, dopo aver vinto una presa, accusali (declare {suit_key}) uscendo"
        " con uno dei due: 40 in briscola, 20 altrimenti."
    ),
    "rule_capote": "Chi vince tutte le prese (cappotto) vince la mano senz'altro.",
    "next_trick_draw": "Chi vince la presa pesca per primo ed esce alla successiva.",
    "next_trick_lead": "Chi vince la presa esce alla successiva.",
    "hand_goal_contract": "la squadra di chi ha vinto l'asta deve arrivare alla sua offerta",
    # Lo scambio annunciato (001) e lo scambio fuori turno (000).
    "announce_option": "metti {give} sotto la briscola scoperta {take}: la prendi vincendo la prossima presa",
    "prompt_announce": ", x annuncia lo scambio",
    "you_announce": "Metti {give} sotto la briscola scoperta {take}: la prendi vincendo la prossima presa.",
    "announces": "{who} mette {give} sotto la briscola scoperta {take}: lo scambio si fa quando vince la prossima"
                 " presa.",
    "announced_made_you": "Prendi la briscola scoperta {take}; {give} resta scoperta al suo posto.",
    "announced_made": "{who} prende la briscola scoperta {take}; {give} resta scoperta al suo posto.",
    "announced_back_you": "La carta scoperta è stata pescata: {give} torna nella tua mano.",
    "announced_back": "La carta scoperta è stata pescata: {give} torna nella mano di {who}.",
    "announced_row": "Sotto la scoperta",
    "err_announced_waits": "{card} è già sotto la carta scoperta: lo scambio aspetta che {who} vinca una presa.",
    "err_keep_a_card": "Devi tenere una carta da giocare: non puoi mettere l'ultima sotto la carta scoperta.",
    "help_key_announce": "annuncia lo scambio: metti il 7 o il 2 sotto la carta scoperta (anche c, cambiar, scambia)",
    "exchange_when_announced": "annunciato: si mette sotto la carta scoperta e si prende vincendo la prossima presa",
    "exchange_when_out_of_turn": "dopo aver vinto una presa, al proprio turno o a quello di un altro",
    "prompt_out_of_turn": "Puoi scambiare ora {give} con la briscola scoperta {take}, fuori turno (x scambia, Invio"
                          " continua): ",
    "err_out_of_turn": "Ora puoi solo scambiare (x) o lasciar continuare il gioco (Invio).",
}

#: The catalogue: language -> message key -> template.
MESSAGES: dict[Lang, dict[str, str]] = {"es": _ES, "en": _EN, "it": _IT}


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
    """The language the locale asks for: the first set of LC_ALL, LC_MESSAGES, LANG decides.

    That is the POSIX precedence, so ``LC_ALL=C`` wins over ``LANG=es_ES`` as it does for other tools.
    """
    env = os.environ if environ is None else environ
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var, "")
        if value:
            code = value.split(".")[0].split("@")[0].split("_")[0].split("-")[0].lower()
            for lang in LANGS:
                if code == lang:
                    return lang
            return "en"
    return "en"
