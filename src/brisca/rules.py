"""Rules as data: a frozen :class:`Rules` object per preset, and one registry.

A preset is a named :class:`Rules`; any option can be overridden by name::

    >>> rules = find_variant("spanish").with_options({"deck": 48})
    >>> rules.deck, rules.strength_order()[:7]
    (48, (1, 3, 12, 11, 10, 9, 8))
    >>> rules.overrides()
    {'deck': 48}

Behaviour that differs between variants is expressed through these fields,
never through ``if variant == ...`` in the engine.
"""

from __future__ import annotations

import dataclasses
import difflib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, NamedTuple

from brisca.actions import PLAYS
from brisca.cards import Card, Rank, Suit, parse_cards, spanish_deck
from brisca.errors import InvalidCardError, RulesError

#: When a seat may give a low trump for the face-up card: announced (Fournier: the trump is placed under the face-up
#: card and taken after the seat's next trick won) and out_of_turn (Encyclopedia: "at any time, even while playing a
#: trick") too.
TRUMP_EXCHANGE_MODES = ("off", "after_win", "any_time", "before_penultimate", "announced", "out_of_turn")
#: Duties of play: none, suit, suit_trump; descanso (source Porteña: follow suit always, beat and trump only against
#: the opponents, a seat whose partner holds the trick with a plain card is free when void); suit_beat_trump
#: (beat and trump whoever holds the trick, the partner too).
FOLLOW_MODES = ("none", "suit", "suit_trump", "descanso", "suit_beat_trump")
FOLLOW_FROM = ("start", "empty_stock")
TIE_MODES = ("draw", "replay", "most_cards", "shared")
#: How a match is counted: hands won to a target, card points to a target, game points to a target (Encyclopedia,
#: second article: a contract's game point to the declarer or to each defender), or a fixed number of hands.
MATCH_MODES = ("target_hands", "target_points", "game_points", "fixed_hands")
#: How the sides are made: fixed (even seats against odd, as the players sat) or by a draw (Fournier, Briscola guide).
PARTNER_MODES = ("fixed", "draw")
#: Communication between partners (Briscola guide): off (closed); partner (signals only partners see); open (open talk:
#: everybody sees every one); combination (both: each one made either as a signal or said aloud).
SIGNAL_MODES = ("off", "partner", "open", "combination")
#: Which signals are played: spanish (Fournier and Villar de Cañas), italian (Briscola guide's Briscola signals).
SIGNAL_SETS = ("spanish", "italian")
HAND_WINNER = ("most", "least")
CARD_NAMES = ("spanish", "italian")
#: How the cards reach the hands: one at a time, or the three Chilean ways of source 003.
DEAL_MODES = ("one_by_one", "alce", "golpe", "pelada", "cutter_chooses")
#: The three ways of source Porteña that the cutter chooses among under ``deal: cutter_chooses``.
CUT_WAYS = ("alce", "golpe", "pelada")
#: Who cuts the deck: the seat before the dealer (left) or after him (right, Porteña's "contrincante de su derecha").
CUTTERS = ("left", "right")
#: How the draw for the first dealer reads the cards: by rank order, or by face value (Porteña).
DEALER_DRAWS = ("rank", "face_value")
#: Where the trump suit comes from.
TRUMP_FROM = ("turned", "dealer", "named", "called")
BIDDING_MODES = ("off", "points", "low_card")
#: When the bidder calls his card (Chiamata Buia, source Encyclopedia: after the first trick).
CALL_TIMES = ("before_play", "after_first_trick")
ALL_PASS = ("redeal", "last_must_bid")
CONTRACT_MODES = ("off", "solo", "called")
DECLARATIONS = ("off", "vales", "on_lead")
LEAD_TWO = ("any", "guarded")
#: What taking every trick wins: nothing more (off), the hand (Porteña's capote) or the match (Encyclopedia: "capturing
#: all tricks allows a player to win the game in a single deal").
CAPOTE_MODES = ("off", "hand", "match")
#: Who may claim the rest (``claim``): the seat to lead, on what it sees itself, or its side, on the hands of both.
CLAIM_BY = ("seat", "side")
#: Who takes the face-up card in the last round of draws: the last to draw (Briscola guide) or the trick's winner
#: (Encyclopedia, second article).
FACE_UP_TO = ("last_to_draw", "trick_winner")
#: Several sides reaching the target in one hand: the higher wins (level leaders play on), or more hands are played
#: and the first to end one ahead of every other wins (Briscola guide, Briscola Chiamata).
REACHED_TOGETHER = ("higher", "more_hands")
#: Which way the auction goes round: as the play (from the seat after the dealer) or the other way (Briscola guide,
#: Briscola Chiamata: "starting with the player to the dealer's immediate right and continuing in a counter-clockwise
#: direction around the table", while play runs clockwise).
AUCTION_DIRECTIONS = ("with_play", "against_play")


def _int(name: str, value: object, allowed: tuple[int, ...] | None = None, minimum: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        if isinstance(value, str) and value.strip().lstrip("-").isdigit():
            value = int(value)
        else:
            raise RulesError(f"option {name!r} must be a whole number, not {value!r}")
    if allowed is not None and value not in allowed:
        raise RulesError(f"option {name!r} must be one of {', '.join(map(str, allowed))}, not {value}")
    if minimum is not None and value < minimum:
        raise RulesError(f"option {name!r} must be at least {minimum}, not {value}")
    return value


def _bool(name: str, value: object) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in ("true", "yes", "on", "1", "false", "no", "off", "0"):
        return value.lower() in ("true", "yes", "on", "1")
    raise RulesError(f"option {name!r} must be true or false, not {value!r}")


def _choice(name: str, value: object, choices: tuple[str, ...], aliases: Mapping[object, str]) -> str:
    if not isinstance(value, str | bool):
        raise RulesError(f"option {name!r} must be one of {', '.join(choices)}, not {value!r}")
    if value in aliases:
        return aliases[value]
    if value not in choices:
        raise RulesError(f"option {name!r} must be one of {', '.join(choices)}, not {value!r}")
    return str(value)


def _ranks(name: str, value: object) -> tuple[int, ...]:
    if isinstance(value, str):
        value = value.replace(",", " ").split()
    if not isinstance(value, list | tuple):
        raise RulesError(f"option {name!r} must be a list of ranks, high to low, not {value!r}")
    try:
        ranks = tuple(int(Rank.parse(str(v))) for v in value)
    except InvalidCardError as exc:
        raise RulesError(f"option {name!r}: {exc}") from None
    if len(set(ranks)) != len(ranks):
        raise RulesError(f"option {name!r} names a rank twice")
    return ranks


def _ways(name: str, value: object) -> tuple[str, ...]:
    if isinstance(value, str):
        value = value.replace(",", " ").split()
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
        raise RulesError(f"option {name!r} must be a list of ways to cut ({', '.join(CUT_WAYS)}), not {value!r}")
    bad = [v for v in value if v not in CUT_WAYS]
    if bad:
        raise RulesError(f"option {name!r} names {bad[0]!r}: the ways are {', '.join(CUT_WAYS)}")
    if len(set(value)) != len(value):
        raise RulesError(f"option {name!r} names a way twice")
    if len(value) < 2:
        raise RulesError(f"option {name!r} needs at least two ways (Porteña: 'Nunca puede jugarse con un solo tipo de"
                         " alce')")
    return tuple(w for w in CUT_WAYS if w in value)


def _points(name: str, value: object) -> tuple[tuple[int, int], ...]:
    if not isinstance(value, Mapping):
        raise RulesError(f"option {name!r} must map ranks to points, like {{\"1\": 11}}, not {value!r}")
    out: dict[int, int] = {}
    for k, v in value.items():
        try:
            rank = int(Rank.parse(str(k)))
        except InvalidCardError as exc:
            raise RulesError(f"option {name!r}: {exc}") from None
        out[rank] = _int(f"{name}[{k}]", v, minimum=0)
    return tuple(sorted(out.items()))


def _exchange(name: str, value: object) -> tuple[tuple[int, tuple[int, ...]], ...]:
    if not isinstance(value, Mapping):
        raise RulesError(f"option {name!r} must map a rank given to the face-up ranks it takes, not {value!r}")
    out = []
    for k, v in value.items():
        try:
            given = int(Rank.parse(str(k)))
        except InvalidCardError as exc:
            raise RulesError(f"option {name!r}: {exc}") from None
        out.append((given, _ranks(f"{name}[{k}]", v)))
    return tuple(out)


@dataclass(frozen=True)
class Option:
    """A rule option that can be overridden by name; ``parse`` validates a JSON or CLI value.

    ``counts`` says whether the option changes anything under given rules, and ``needs`` what would make it
    count: :meth:`Rules.with_options` refuses a value set where the others leave it no effect, so that nobody
    plays believing a rule is on that the game ignores. An option without ``counts`` always has an effect.
    """

    name: str
    parse: Callable[[object], Any]
    help: str
    counts: Callable[[Rules], bool] | None = None
    needs: str = ""


OPTIONS: dict[str, Option] = {
    o.name: o
    for o in (
        Option("deck", lambda v: _int("deck", v, (40, 48)),
               "40 or 48 cards; with 48 the 9 and 8 rank just above the 7 and score 0, and no card is removed"),
        Option("teams", lambda v: _bool("teams", v),
               "with 4 or 6 players, play in two sides (even seats against odd seats); false: each for himself",
               counts=lambda r: any(n in (4, 6) for n in r.player_counts),
               needs='4 or 6 players'),
        Option("partners", lambda v: _choice("partners", v, PARTNER_MODES, {}),
               "fixed: the players keep the seats they took; draw (Fournier: 'Each player draws one card and shows it."
               " The two players with the highest cards play against the other two. The player who draws the"
               " highest card has the choice of choosing seat and is the dealer.'; Briscola guide alike): before the"
               " first"
               " hand each player draws a card, ranked as in play, and players tied draw again among themselves;"
               " the highest takes seat 0 and deals, the higher half takes the even seats and the lower half the"
               " odd ones, each half in the order of its cards (without sides, the seats follow the cards)"),
        Option("trump_exchange",
               lambda v: _choice("trump_exchange", v, TRUMP_EXCHANGE_MODES, {True: "after_win", False: "off"}),
               "giving a low trump for the face-up card: off; after_win (a seat that has won a trick, on its"
               " turn); any_time (on its turn, from the first trick, with no trick won: a reading no source gives,"
               " for Encyclopedia's 'at any time' is out_of_turn); before_penultimate (after a win, and no"
               " longer once the last round of draws has begun); announced (Fournier: 'To exchange it, the player must"
               " notify his opponent by placing his trump two or seven under the face-up trump. Then, the next time"
               " after the player wins a trick, before the stock on the table is finished, he can add the face-up"
               " trump to his hand. If he does not win any trick before the face-up trump is drawn from the stock,"
               " then, he simply takes his two or seven back.': on its turn a seat lays the trump under the"
               " face-up card, out of its hand (it plays with a card fewer) and in everybody's sight; the exchange"
               " is made as the seat wins its next trick, before the draw, and the card goes back to its hand if"
               " the face-up card is drawn before that); out_of_turn (Encyclopedia: 'it can be exchanged ... by any"
               " player"
               " who has it, at any time, even while playing a trick, provided that the player in question has won"
               " at least one trick': as after_win, and also while another seat is to act)",
               counts=lambda r: _face_up_in_stock(r),
               needs="a face-up card in the stock ('trump_from: turned', no talon, 'deal: one_by_one', no"
                     " 'trump_rotation')"),
        Option("exchange_with", lambda v: _exchange("exchange_with", v),
               "which trump is given for which face-up ranks, e.g. {\"7\": [1, 3, 12, 11, 10], \"2\": [4, 5, 6, 7]}",
               counts=lambda r: r.trump_exchange != "off" and _face_up_in_stock(r),
               needs="a trump exchange ('trump_exchange') and a face-up card in the stock"),
        Option("target_hands", lambda v: _int("target_hands", v, minimum=1),
               "the match is won by the first side to win this many hands (drawn hands do not count)",
               counts=lambda r: r.match == "target_hands" and not r.trump_rotation,
               needs="'match: target_hands'"),
        Option("target_hands_alone", lambda v: _int("target_hands_alone", v, minimum=0),
               "with match: target_hands, the hands won that win the match where each plays for himself (2 or 3"
               " players, or more without sides): Briscola guide, 'Each hand is usually played as a complete game' (1)"
               " for two, three, and four without partners; 0: target_hands, whatever the sides",
               counts=lambda r: r.match == "target_hands"
                      and not r.trump_rotation
                      and any(r.sides(n) == n for n in r.player_counts),
               needs="'match: target_hands' and a player count where each plays for himself"),
        Option("rank_order", lambda v: _ranks("rank_order", v),
               "the ranks of the 40-card deck from highest to lowest"),
        Option("points", lambda v: _points("points", v),
               "card points per rank; ranks not named score 0"),
        Option("hand_size", lambda v: _int("hand_size", v, minimum=1),
               "cards each seat holds while the stock lasts"),
        Option("exchange_chain", lambda v: _bool("exchange_chain", v),
               "a card given in an exchange may itself be taken (the 2 takes a 7 that was given)",
               counts=lambda r: r.trump_exchange != "off" and _face_up_in_stock(r),
               needs="a trump exchange ('trump_exchange') and a face-up card in the stock"),
        Option("face_up_to", lambda v: _choice("face_up_to", v, FACE_UP_TO, {}),
               "who takes the face-up card in the last round of draws: last_to_draw (Briscola guide: 'the last"
               " player to draw from the pile taking the face-up, Briscola card'); trick_winner (Encyclopedia, second"
               " article: 'This card becomes the last one drawn from the [stock] by the player who wins the final"
               " trick before the [stock] is exhausted': the winner of that trick takes it, the others draw the"
               " stock's other cards in their order)",
               counts=lambda r: _face_up_in_stock(r),
               needs="a face-up card in the stock ('trump_from: turned', no talon, 'deal: one_by_one', no"
                     " 'trump_rotation')"),
        Option("follow", lambda v: _choice("follow", v, FOLLOW_MODES, {}),
               "duty of play: none; suit (follow suit if you can); suit_trump (follow suit, else trump if you can);"
               " descanso (source Porteña: follow suit; beat an opponent's card if you can, never your partner's;"
               " void, trump, unless your partner holds the trick with a card that is not a trump: then any card);"
               " suit_beat_trump (follow and beat if you can, else follow, else trump, whoever holds the trick)"),
        Option("follow_from", lambda v: _choice("follow_from", v, FOLLOW_FROM, {}),
               "start: the duty applies all hand; empty_stock: only once the stock is gone",
               counts=lambda r: r.follow != "none" and not r.dealt_out,
               needs="a duty of play ('follow') and a stock"),
        Option("arrastro", lambda v: _bool("arrastro", v),
               "a seat leading the ace of trumps may call arrastro: every seat yet to play must play its best card"
               " (its highest trump, else its highest card)"),
        Option("claim", lambda v: _bool("claim", v),
               "once the stock is gone, the rest of the hand may be claimed by a side that holds the best trumps"
               " still out, one for every trick left (Encyclopedia); `claim_by` says who shows them: the seat to lead,"
               " from its own hand and the partner cards it may see, or the side's hands together"),
        Option("claim_by", lambda v: _choice("claim_by", v, CLAIM_BY, {}),
               "who shows the best trumps for a claim: seat (the seat to lead claims when the cards it sees itself,"
               " its hand and partner cards the rules let it see, hold them); side (Encyclopedia: 'if a team has in"
               " its tricks the three highest trumps, it announces this and collects all the cards, without having"
               " to play the final tricks, which they would win anyway': the hands of the side together; as no seat"
               " may learn a partner's hidden cards by being offered a claim, the side's claim is made for it as"
               " soon as it holds, before a trick is led, by its seat first to play)",
               counts=lambda r: r.claim,
               needs="'claim: true'"),
        Option("last_trick_bonus", lambda v: _int("last_trick_bonus", v, minimum=0),
               "points for the side that takes the last trick"),
        Option("big_win", lambda v: _bool("big_win", v),
               "a hand won by a margin of more than 100 points counts as two hands",
               counts=lambda r: r.contract == "off" and r.match != "target_points",
               needs="'contract: off' and a match counted in hands or game points (a contract's score, or card points,"
                     " decide without it)"),
        Option("tie", lambda v: _choice("tie", v, TIE_MODES, {}),
               "a tie for the most points: draw (the hand does not count), replay (the same dealer deals again),"
               " most_cards (the tied side with more cards wins), shared (the hand is awarded to every side tied for"
               " the most, each credited one hand won: Fournier 'When two or more players make the same highest score,"
               " the hand is awarded by all of them.'; Encyclopedia, second article: 'Ties in a hand's points are"
               " shared"
               " among the tied players.')",
               counts=lambda r: r.contract == "off" and not r.point_limit,
               needs="'contract: off' and 'point_limit: 0' (a contract decides the hand; under a point limit sides"
                     " level are all awarded the hand)"),
        Option("trump_rotation", lambda v: _bool("trump_rotation", v),
               "no card is turned: trumps are oros, copas, espadas, bastos over four deals, and the match is the four"),
        Option("match", lambda v: _choice("match", v, MATCH_MODES, {}),
               "target_hands (hands won); target_points (card points, or a contract's match points, added up"
               " over the hands); game_points (Encyclopedia, second article: 'If the contractor secures at least the"
               " bid"
               " amount in points from captured cards, they earn one game point; failure results in each opponent"
               " gaining one game point': a side awarded a hand scores one game point, two for a big win, and"
               " under a contract the contract's side scores one when it makes it, every other side one when it"
               " is set); fixed_hands (Encyclopedia, second article: 'The game concludes after an agreed number of"
               " hands"
               " (commonly one, three, or six), with the team or player accumulating the most hand wins declared"
               " the overall victor; overall ties are resolved by additional play.')"),
        Option("target_points", lambda v: _int("target_points", v, minimum=1),
               "with match: target_points, the points a side must reach",
               counts=lambda r: r.match == "target_points" and not r.trump_rotation,
               needs="'match: target_points'"),
        Option("target_game_points", lambda v: _int("target_game_points", v, minimum=1),
               "with match: game_points, the game points a side must reach (Encyclopedia: 'typically three')",
               counts=lambda r: r.match == "game_points" and not r.trump_rotation,
               needs="'match: game_points'"),
        Option("reached_together", lambda v: _choice("reached_together", v, REACHED_TOGETHER, {}),
               "with match: target_points or game_points, when several sides reach the target in the same hand:"
               " higher (the higher total wins; level leaders play on); more_hands (Briscola guide, Briscola"
               " Chiamata: 'If two or more players reach this total in the same hand, additional hands are played"
               " until one player completes a hand with more points than any other player': the match goes on,"
               " and ends after the first further hand at whose end one side has more than every other)",
               counts=lambda r: r.match in ("target_points", "game_points") and not r.trump_rotation,
               needs="'match: target_points' or 'match: game_points'"),
        Option("hands", lambda v: _int("hands", v, minimum=1),
               "with match: fixed_hands, how many hands the match lasts (a hand dealt again after a tie under"
               " tie: replay does not count); sides level in hands won then play one more hand at a time until"
               " one leads",
               counts=lambda r: r.match == "fixed_hands" and not r.trump_rotation,
               needs="'match: fixed_hands'"),
        Option("signals", lambda v: _choice("signals", v, SIGNAL_MODES, {True: "partner", False: "off"}),
               "partner signals (señas): off; partner (only partners see them); open (everybody sees them: Briscola"
               " guide's"
               " 'Open Communication'); combination (Briscola guide: 'allow both open communication and the usage of"
               " signaling': each signal is made to the partner alone, or said aloud for everybody)",
               counts=lambda r: bool(r.partnerships),
               needs="a player count played in partnerships ('teams' with 4 or 6 players)"),
        Option("signal_set", lambda v: _choice("signal_set", v, SIGNAL_SETS, {}),
               "which signals: spanish (Fournier and Villar de Cañas: the top five trumps, small trumps, briscas, no"
               " trumps, and the"
               " two asks); italian (Briscola guide's Briscola signals: ace, three, king, queen and jack of the"
               " briscola suit,"
               " and 'High card in non-briscola suit', a carico: an ace or a three of another suit)",
               counts=lambda r: r.signals != "off" and bool(r.partnerships),
               needs="'signals' and a player count played in partnerships"),
        Option("signal_asks", lambda v: _bool("signal_asks", v),
               "whether the signals that ask the partner (ask-points, ask-cards of Fournier) may be made; false follows"
               " Villar de Cañas: 'No se deben hacer señas falsas, ni tampoco pedirlas'",
               counts=lambda r: r.signals != "off" and bool(r.partnerships) and r.signal_set == "spanish",
               needs="'signals' with 'signal_set: spanish' (the set that has the asks) and a player count played in"
                     " partnerships"),
        Option("deal_look", lambda v: _bool("deal_look", v),
               "in partnerships, partners see each other's first three cards",
               counts=lambda r: bool(r.partnerships) and not r.open_hands,
               needs="a player count played in partnerships and 'open_hands: false' (open hands show every card)"),
        Option("partners_look", lambda v: _bool("partners_look", v),
               "in partnerships, partners see each other's hands once the stock runs out",
               counts=lambda r: bool(r.partnerships) and not r.open_hands,
               needs="a player count played in partnerships and 'open_hands: false' (open hands show every card)"),
        Option("open_hands", lambda v: _bool("open_hands", v),
               "every hand is played face up (scoperta): every view shows every hand, never the stock order"),
        Option("pair_bonus", lambda v: _bool("pair_bonus", v),
               "a side that captures the king and the knight of one suit scores 40 more in trumps, 20 in another suit"),
        Option("hand_winner", lambda v: _choice("hand_winner", v, HAND_WINNER, {}),
               "most: the side with most points wins the hand; least: the side with fewest (mexican)",
               counts=lambda r: r.contract == "off",
               needs="'contract: off' (a contract decides the hand)"),
        Option("point_limit", lambda v: _int("point_limit", v, minimum=0),
               "with hand_winner: least, 0 (the fewest points win) or the most points a side may take and still"
               " win (Encyclopedia, Mexican Brisca: 'The objective is not to add more than 11 total points at the end"
               " of the game': 11): every side within the limit is awarded the hand, each credited one hand won, a"
               " side over it loses, and a hand where every side is over it is won by nobody and does not count",
               counts=lambda r: r.hand_winner == "least",
               needs="'hand_winner: least'"),
        Option("kill_three", lambda v: _bool("kill_three", v),
               "muerte al tres: the ace of trumps may not be played before the three of trumps except in the last"
               " trick; when it takes the three the hand ends, won by its side"),
        Option("deal", lambda v: _choice("deal", v, DEAL_MODES, {}),
               "how the cards are dealt: one_by_one; or, with every card dealt (source Porteña), alce (packets of 5),"
               " golpe (10 in a row; the last card of each opponent's hand shown) or pelada (the top card is"
               " trump; opponents' first cards shown face up while they are trumps; the cutter leads a trump);"
               " cutter_chooses: before each deal the cutter picks one of `cut_ways` (Porteña: 'el contrincante"
               " alzador tiene la opción de ejecutarlo de cualquiera de las tres maneras')"),
        Option("cut_ways", lambda v: _ways("cut_ways", v),
               "under deal: cutter_chooses, the ways the cutter may choose: all three, or two agreed beforehand"
               " (Porteña: 'a menos que se haya previamente establecido reducir el juego a dos tipos de alce. Nunca"
               " puede jugarse con un solo tipo de alce')",
               counts=lambda r: r.deal == "cutter_chooses",
               needs="'deal: cutter_chooses'"),
        Option("cutter", lambda v: _choice("cutter", v, CUTTERS, {}),
               "who cuts the deck: left (the seat before the dealer) or right (the seat after him, who leads; Porteña:"
               " 'El contrincante de su derecha, alzará el mazo', 'Parte o sale quien alzó el mazo')"),
        Option("dealer_draw", lambda v: _choice("dealer_draw", v, DEALER_DRAWS, {}),
               "the draw for the first dealer: rank (the highest card by rank order deals; ties draw again) or"
               " face_value (Porteña: 'Quien obtenga el número mayor (de 1 a 10, el rey vale 10, el caballo 9 y la"
               " sota 8) las reparte. De haber empate, la pareja que sume más números gana.')",
               counts=lambda r: r.partners != "draw",
               needs="'partners: fixed' (the draw for partners, by rank, makes the first dealer)"),
        Option("trump_from", lambda v: _choice("trump_from", v, TRUMP_FROM, {}),
               "turned (the card after the deal is turned up); dealer (every card is dealt and the trump card is the"
               " dealer's, seen by all until he plays it); named (the auction's winner names it); called (the suit"
               " of the card the bidder calls)"),
        Option("talon", lambda v: _int("talon", v, minimum=0),
               "cards dealt face down to the table; the auction's winner shows them, takes them and discards as"
               " many into his own scoring pile"),
        Option("bidding", lambda v: _choice("bidding", v, BIDDING_MODES, {False: "off"}),
               "off; points (each bid is a number of points higher than the last, a pass is final; with a called"
               " card this is Encyclopedia's Chiamata a punti: 'only the points to be won are declared, the suit and"
               " the"
               " card that will determine the pairs and the trump suit are declared only at the beginning of the"
               " deal'); low_card (each seat names a rank once, lower than any named before, or passes; the lowest"
               " rank wins and its bidder names the suit)"),
        Option("call_time", lambda v: _choice("call_time", v, CALL_TIMES, {}),
               "when the bidder calls his card (`trump_from: called`, `bidding: points`): before_play (Briscola guide:"
               " 'After"
               " the high bidder has called his card ... play of the hand begins'); after_first_trick (Encyclopedia,"
               " Chiamata Buia: 'trumps are only declared after the first trick'): the bidder leads a first trick"
               " played with no trump suit (the best card of the suit led takes it), then calls a card still in a"
               " hand, whose suit is trump from the second trick on"),
        Option("min_bid", lambda v: _int("min_bid", v, minimum=1),
               "the lowest bid in points; under low_card, the points the bidder's side must take",
               counts=lambda r: r.auction,
               needs="an auction ('bidding')"),
        Option("bid_step", lambda v: _int("bid_step", v, minimum=1), "how much each bid must raise the last",
               counts=lambda r: r.bidding == "points",
               needs="'bidding: points'"),
        Option("max_bid", lambda v: _int("max_bid", v, minimum=1), "the highest bid",
               counts=lambda r: r.bidding == "points",
               needs="'bidding: points'"),
        Option("all_pass", lambda v: _choice("all_pass", v, ALL_PASS, {}),
               "when nobody has bid: redeal (the hand is void and the next dealer deals) or last_must_bid (the last"
               " seat left must bid at least the minimum)",
               counts=lambda r: r.auction,
               needs="an auction ('bidding')"),
        Option("contract", lambda v: _choice("contract", v, CONTRACT_MODES, {False: "off"}),
               "off; solo (the bidder alone against the others: made, he scores his bid; set, each other seat scores"
               " half of it); called (the bidder and the holder of the called card: made, +2 and +1, set, -2 and"
               " -1, the others the opposite 1; alone, +4 or -4)"),
        Option("declarations", lambda v: _choice("declarations", v, DECLARATIONS, {False: "off"}),
               "king-knight pairs, 40 in trumps and 20 otherwise: off; vales (a side declares in the trick where one"
               " of them is played, the trick's winner scores it; a seat whose card is down may still mark it until"
               " the trick is gathered, Porteña: 'su pareja lo marca sin importar si lo juega o no en aquella jugada');"
               " on_lead (the holder declares when he leads one"
               " of them after winning a trick, and scores it)"),
        Option("lead_two", lambda v: _choice("lead_two", v, LEAD_TWO, {}),
               "any; guarded (source Porteña: a 2 is led only with the ace of its suit in hand or played, after the"
               " partner showed he lacks the suit, as the cutter's only trump in pelada, or with nothing else)"),
        Option("capote", lambda v: _choice("capote", v, CAPOTE_MODES, {True: "hand", False: "off"}),
               "a side that takes every trick (capote): off (it scores its points like any hand); hand (it wins the"
               " hand outright, Porteña); match (it wins the match outright, Encyclopedia: 'capturing all tricks allows"
               " a player to win the game in a single deal')",
               counts=lambda r: r.contract == "off",
               needs="'contract: off' (a contract decides the hand)"),
        Option("auction_direction", lambda v: _choice("auction_direction", v, AUCTION_DIRECTIONS, {}),
               "which way the auction goes round: with_play (from the seat after the dealer, in the order of play)"
               " or against_play (Briscola guide, Briscola Chiamata: 'a bidding round begins, starting with the player"
               " to the dealer's immediate right and continuing in a counter-clockwise direction around the table',"
               " while play runs clockwise: from the dealer's seat before him, against the order of play)",
               counts=lambda r: r.auction,
               needs="an auction ('bidding')"),
        Option("golpe_partner_shows", lambda v: _bool("golpe_partner_shows", v),
               "in a golpe, the dealer's partner shows the last card of his packet too (Porteña: '10 para su pareja"
               " con la opción, pero no obligación, de mostrar la última'): false, he keeps it hidden; true, the"
               " table has him show it, like the opponents' last cards",
               counts=lambda r: _dealt_golpe(r),
               needs="'deal: golpe' (or 'deal: cutter_chooses' with golpe in 'cut_ways')"),
        Option("card_names", lambda v: _choice("card_names", v, CARD_NAMES, {}),
               "the deck's notation: spanish (3O, 12E: rank 1-12, suit O C E B) or italian (3D, RS: rank A 2-7 F C"
               " R for asso, fante, cavallo, re; suit D C S B for denari, coppe, spade, bastoni); screens name the"
               " cards in their own language, records keep the Spanish notation"),
    )
}


class Layout(NamedTuple):
    """Seat tables for one player count, computed once per rules (the engine's setup cache)."""

    players: int
    cards: tuple[Card, ...]
    plays: tuple[Any, ...]
    next_seat: tuple[int, ...]
    draw_order: tuple[tuple[int, ...], ...]
    sides: int
    #: The order of the last round of draws, by the trick's winner: the one who draws last takes the face-up card
    #: (``face_up_to``: the last to draw in the usual order, or the winner himself).
    last_draw_order: tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class Rules:
    """Everything that makes one way of playing Brisca: deck, ranks, points, seats, deal, exchange, match.

    Create presets with :func:`find_variant` and change them with :meth:`with_options`;
    the fields are data the engine reads, and their help lives in :data:`OPTIONS`.
    """

    variant: str
    title: str
    deck: int = 40
    player_counts: tuple[int, ...] = (2, 3, 4, 6)
    teams: bool = True
    partners: str = "fixed"
    rank_order: tuple[int, ...] = (1, 3, 12, 11, 10, 7, 6, 5, 4, 2)
    points: tuple[tuple[int, int], ...] = ((1, 11), (3, 10), (12, 4), (11, 3), (10, 2))
    #: Cards removed from the 40-card deck, per player count, so that the deal comes out even.
    removed: tuple[tuple[int, tuple[str, ...]], ...] = ((3, ("2O",)), (6, ("2O", "2C", "2E", "2B")))
    hand_size: int = 3
    trump_exchange: str = "after_win"
    exchange_with: tuple[tuple[int, tuple[int, ...]], ...] = (
        (7, (1, 3, 12, 11, 10, 9, 8)),
        (2, (4, 5, 6, 7)),
    )
    target_hands: int = 2
    target_hands_alone: int = 0
    exchange_chain: bool = True
    face_up_to: str = "last_to_draw"
    follow: str = "none"
    follow_from: str = "start"
    arrastro: bool = False
    claim: bool = False
    claim_by: str = "seat"
    last_trick_bonus: int = 0
    big_win: bool = False
    tie: str = "draw"
    trump_rotation: bool = False
    match: str = "target_hands"
    target_points: int = 121
    target_game_points: int = 3
    reached_together: str = "higher"
    hands: int = 3
    signals: str = "off"
    signal_set: str = "spanish"
    signal_asks: bool = True
    deal_look: bool = False
    partners_look: bool = False
    open_hands: bool = False
    pair_bonus: bool = False
    hand_winner: str = "most"
    point_limit: int = 0
    kill_three: bool = False
    deal: str = "one_by_one"
    cut_ways: tuple[str, ...] = CUT_WAYS
    cutter: str = "left"
    dealer_draw: str = "rank"
    trump_from: str = "turned"
    talon: int = 0
    bidding: str = "off"
    call_time: str = "before_play"
    min_bid: int = 61
    bid_step: int = 1
    max_bid: int = 120
    all_pass: str = "redeal"
    contract: str = "off"
    declarations: str = "off"
    lead_two: str = "any"
    capote: str = "off"
    auction_direction: str = "with_play"
    golpe_partner_shows: bool = False
    card_names: str = "spanish"
    #: Which seed documents this preset, and the reading it chose where the sources disagree.
    sources: tuple[str, ...] = field(default=(), compare=False, repr=False)
    readings: tuple[str, ...] = field(default=(), compare=False, repr=False)
    doc: str = field(default="", compare=False, repr=False)

    def __post_init__(self) -> None:
        # One spelling per value, so that equal rules compare equal whatever order they were given in.
        object.__setattr__(self, "points", tuple(sorted((r, p) for r, p in self.points if p)))
        self._validate()

    @cached_property
    def plain(self) -> bool:
        """No rule beyond the basic game: the engine takes its allocation-free fast path."""
        return (
            self.follow == "none" and not self.arrastro and not self.claim and self.signals == "off"
            and not self.kill_three and not self.dealt_out and self.declarations == "off"
            and self.lead_two == "any" and self.capote == "off" and self.trump_exchange != "announced"
            and self.face_up_to == "last_to_draw"
        )

    @property
    def dealt_out(self) -> bool:
        """Every card is dealt (to the hands and the talon): no stock, no drawing."""
        return self.trump_from != "turned" or self.talon > 0 or self.deal != "one_by_one"

    @property
    def auction(self) -> bool:
        """Whether hands begin with an auction."""
        return self.bidding != "off"

    @property
    def partnerships(self) -> tuple[int, ...]:
        """The player counts at which this variant plays in two sides."""
        return tuple(n for n in self.player_counts if self.sides(n) < n)

    # ----------------------------------------------------------------- options

    def with_options(self, options: Mapping[str, object] | None = None, **kwargs: object) -> Rules:
        """A copy with the named options changed; unknown names and bad values raise :class:`RulesError`."""
        merged = dict(options or {})
        merged.update(kwargs)
        if not merged:
            return self
        changes: dict[str, Any] = {}
        for name, value in merged.items():
            opt = OPTIONS.get(name)
            if opt is None:
                hint = difflib.get_close_matches(name, OPTIONS, n=1)
                extra = f" (did you mean {hint[0]!r}?)" if hint else f" (known: {', '.join(OPTIONS)})"
                raise RulesError(f"unknown rule option {name!r}{extra}")
            changes[name] = opt.parse(value)
        out = dataclasses.replace(self, **changes)
        for name in changes:
            # A value the rules already have changes nothing (every option's value given back is accepted).
            needs = out.inert(name) if changes[name] != getattr(self, name) else ""
            if needs:
                raise RulesError(f"option {name!r} has no effect here: it counts only with {needs}")
        return out

    def inert(self, name: str) -> str:
        """What would make the option ``name`` count, when under these rules it changes nothing; ``""`` when it
        counts. :meth:`with_options` refuses an option set where it has no effect rather than keep it silently."""
        option = OPTIONS[name]
        return "" if option.counts is None or option.counts(self) else option.needs

    def overrides(self) -> dict[str, Any]:
        """The options that differ from this variant's preset, as JSON-ready values."""
        base = find_variant(self.variant)
        out: dict[str, Any] = {}
        for name in OPTIONS:
            mine = getattr(self, name)
            if mine != getattr(base, name):
                out[name] = _to_json(name, mine)
        return out

    def options(self) -> dict[str, Any]:
        """Every option's value, as JSON-ready values."""
        return {name: _to_json(name, getattr(self, name)) for name in OPTIONS}

    def hands_to_win(self, players: int) -> int:
        """Under ``match: target_hands``, the hands a side must win at this player count: ``target_hands_alone``
        where each plays for himself (when set), else ``target_hands``."""
        if self.target_hands_alone and self.sides(players) == players:
            return self.target_hands_alone
        return self.target_hands

    def _validate(self) -> None:
        if self.pair_bonus and self.declarations != "off":
            raise RulesError("'pair_bonus' and 'declarations' would score a king-knight pair twice: set"
                             " 'declarations: off' to score pairs captured, or 'pair_bonus: false' to score them"
                             " declared")
        if self.point_limit and self.hand_winner != "least":
            raise RulesError("option 'point_limit' counts only with 'hand_winner: least'")
        ranks40 = {1, 2, 3, 4, 5, 6, 7, 10, 11, 12}
        if set(self.rank_order) - {8, 9} != ranks40:
            raise RulesError(
                "option 'rank_order' must list the ranks 1 2 3 4 5 6 7 10 11 12 once each, "
                f"not {' '.join(map(str, self.rank_order))}"
            )
        for given, _taken in self.exchange_with:
            if given in (8, 9) and self.deck == 40:
                raise RulesError("option 'exchange_with' gives an 8 or 9, which a 40-card deck lacks")
        if self.trump_from in ("named", "called") and self.bidding == "off":
            raise RulesError(f"option 'trump_from: {self.trump_from}' needs an auction ('bidding')")
        if self.bidding != "off" and self.trump_from not in ("named", "called"):
            raise RulesError("an auction ('bidding') decides the trump: set 'trump_from' to named or called")
        if self.bidding == "low_card" and self.trump_from != "called":
            raise RulesError("'bidding: low_card' names the rank of a called card: it needs 'trump_from: called'")
        if self.call_time != "before_play" and (
            self.trump_from != "called" or self.bidding != "points" or self.talon
        ):
            raise RulesError(f"'call_time: {self.call_time}' is for a called card after a points auction and no"
                             " talon: it needs 'trump_from: called', 'bidding: points' and 'talon: 0'")
        if (self.contract == "off") != (self.bidding == "off"):
            raise RulesError("an auction and a 'contract' go together: set both or neither")
        if self.contract == "called" and self.trump_from != "called":
            raise RulesError("'contract: called' needs 'trump_from: called'")
        if self.talon and self.bidding == "off":
            raise RulesError("a talon goes to the auction's winner: it needs 'bidding'")
        if self.deal != "one_by_one" and self.trump_from != "dealer":
            raise RulesError(f"'deal: {self.deal}' deals every card with the trump card to the dealer:"
                             " it needs 'trump_from: dealer'")
        if self.trump_rotation and self.match == "fixed_hands":
            raise RulesError("'trump_rotation' makes the match its four deals; it does not go with"
                             " 'match: fixed_hands'")
        if self.trump_rotation and self.dealt_out:
            raise RulesError("'trump_rotation' plays with a stock; it does not go with dealt-out games")
        if self.min_bid > self.max_bid:
            raise RulesError(f"option 'min_bid' ({self.min_bid}) is above 'max_bid' ({self.max_bid})")
        for n in self.player_counts:
            cards = len(self.deck_cards(n))
            if self.dealt_out:
                if cards != n * self.hand_size + self.talon:
                    raise RulesError(
                        f"with every card dealt, {cards} cards must be {self.hand_size} each for {n} players"
                        f" and a talon of {self.talon}"
                    )
                continue
            if cards % n:
                raise RulesError(f"{cards} cards cannot be dealt evenly to {n} players")
            if cards < n * self.hand_size + 1:
                raise RulesError(f"{cards} cards are too few to deal {self.hand_size} each to {n} players")

    # ------------------------------------------------------------------- seats

    def check_players(self, players: int) -> None:
        """Raise :class:`RulesError` unless this variant is played by ``players`` players."""
        if isinstance(players, bool) or not isinstance(players, int) or players not in self.player_counts:
            raise RulesError(
                f"{self.variant} is played by {', '.join(map(str, self.player_counts))} players, not {players!r}"
            )

    def layout(self, players: int) -> Layout:
        """The deck and seat tables for ``players`` players (checked, and cached on these rules)."""
        cache: dict[int, Layout] = self._layouts
        lay = cache.get(players) if type(players) is int else None
        if lay is None:
            self.check_players(players)
            n = players
            cards = self.deck_cards(n)
            lay = cache[n] = Layout(
                n,
                cards,
                tuple(PLAYS[c.index] for c in cards),
                tuple((s + 1) % n for s in range(n)),
                draws := tuple(tuple((w + i) % n for i in range(n)) for w in range(n)),
                self.sides(n),
                draws if self.face_up_to == "last_to_draw" else tuple(d[1:] + d[:1] for d in draws),
            )
        return lay

    @cached_property
    def _layouts(self) -> dict[int, Layout]:
        return {}

    def sides(self, players: int) -> int:
        """How many sides play: 2 partnerships with 4 or 6 players (when ``teams``), else one per seat."""
        return 2 if self.teams and players in (4, 6) else players

    def side_of(self, seat: int, players: int) -> int:
        """The side index of ``seat``: ``seat`` modulo the number of sides."""
        return seat % self.sides(players)

    # ------------------------------------------------------------------- cards

    def deck_cards(self, players: int) -> tuple[Card, ...]:
        """The cards in play for ``players`` players, in canonical order."""
        cards = spanish_deck(self.deck)
        if self.deck == 40:
            gone = set(parse_cards(dict(self.removed).get(players, ())))
            cards = tuple(c for c in cards if c not in gone)
        return cards

    def strength_order(self) -> tuple[int, ...]:
        """Ranks from highest to lowest for this deck (the 9 and 8 go just above the 7)."""
        order = [r for r in self.rank_order if r not in (8, 9)]
        if self.deck == 48:
            if 8 in self.rank_order and 9 in self.rank_order:
                return self.rank_order
            at = order.index(7)
            order[at:at] = [9, 8]
        return tuple(order)

    def card_points(self, card: Card) -> int:
        """The points a card scores."""
        return self.point_table[card.index]

    @cached_property
    def point_table(self) -> tuple[int, ...]:
        """Points of every card, indexed by :attr:`Card.index` (the engine's lookup table)."""
        by_rank = dict(self.points)
        return tuple(by_rank.get((i % 12) + 1, 0) for i in range(48))

    @cached_property
    def strength_table(self) -> tuple[int, ...]:
        """Strength of every card within its suit (higher wins), indexed by :attr:`Card.index`."""
        order = self.strength_order()
        strength = {rank: len(order) - i for i, rank in enumerate(order)}
        return tuple(strength.get((i % 12) + 1, 0) for i in range(48))

    @cached_property
    def exchange_table(self) -> tuple[Card | None, ...]:
        """For every face-up card (by index), the trump that may be given for it, or ``None``."""
        table: list[Card | None] = [None] * 48
        if self.trump_exchange == "off":
            return tuple(table)
        present = set(self.strength_order())
        for given, taken in self.exchange_with:
            for rank in taken:
                if rank in present and given in present:
                    for suit in Suit:
                        table[Card(rank, suit).index] = Card(given, suit)
        return tuple(table)

    def describe(self) -> str:
        """A one-paragraph summary of the rules, for ``brisca rules`` and the docs."""
        pts = ", ".join(f"{r}={p}" for r, p in self.points)
        return (
            f"{self.title}: {self.deck} cards, players {'/'.join(map(str, self.player_counts))}, "
            f"ranks {' '.join(map(str, self.strength_order()))}, points {pts}, "
            f"trump exchange {self.trump_exchange}, {self.match_goal()}"
        )

    def match_goal(self) -> str:
        """The match's length in a few words (``match to 2 hands``, ``match of 3 hands``)."""
        if self.trump_rotation:
            return "match of the four deals"
        return {
            "target_hands": f"match to {self.target_hands} hands",
            "target_points": f"match to {self.target_points} points",
            "game_points": f"match to {self.target_game_points} game points",
            "fixed_hands": f"match of {self.hands} hands",
        }[self.match]


def _dealt_golpe(rules: Rules) -> bool:
    return rules.deal == "golpe" or (rules.deal == "cutter_chooses" and "golpe" in rules.cut_ways)


def _face_up_in_stock(rules: Rules) -> bool:
    """A card is turned face up and lies at the bottom of the stock (what a trump exchange takes)."""
    return not rules.dealt_out and not rules.trump_rotation


def _to_json(name: str, value: Any) -> Any:
    if name == "points":
        return {str(r): p for r, p in value}
    if name == "exchange_with":
        return {str(g): list(t) for g, t in value}
    if isinstance(value, tuple):
        return list(value)
    return value


# ------------------------------------------------------------------- registry

# The presets (:mod:`brisca.variants`, data built on :class:`Rules`) register themselves here when imported; the
# package ``brisca`` imports them before anything else, so this module never imports its own presets.
_REGISTRY: dict[str, Rules] = {}
_ALIASES: dict[str, str] = {}


def register_variant(rules: Rules, *aliases: str) -> Rules:
    """Add a preset to the registry under its ``variant`` name and any aliases."""
    _REGISTRY[rules.variant] = rules
    for alias in aliases:
        _ALIASES[alias] = rules.variant
    return rules


def find_variant(name: str) -> Rules:
    """The preset called ``name`` (or one of its aliases); :class:`RulesError` if there is none.

    >>> find_variant("brisca").variant
    'spanish'
    """
    if not isinstance(name, str):
        raise RulesError(f"a variant is named by a string, not {name!r}")
    key = name.strip().lower()
    key = _ALIASES.get(key, key)
    try:
        return _REGISTRY[key]
    except KeyError:
        known = sorted(_REGISTRY)
        hint = difflib.get_close_matches(key, known + sorted(_ALIASES), n=1)
        extra = f" (did you mean {hint[0]!r}?)" if hint else ""
        # Every name the suggestion may be is in the list: the presets, each with its other names.
        also = {v: sorted(a for a, target in _ALIASES.items() if target == v) for v in known}
        listed = ", ".join(f"{v} (also {', '.join(also[v])})" if also[v] else v for v in known)
        raise RulesError(f"unknown variant {name!r}{extra}; known: {listed}") from None


def variant_names() -> list[str]:
    """The names of all registered presets."""
    return sorted(_REGISTRY)


def make_rules(variant: str | Rules = "spanish", options: Mapping[str, object] | None = None) -> Rules:
    """A preset (by name or as given) with ``options`` applied."""
    if type(variant) is Rules and not options:
        return variant
    base = find_variant(variant) if isinstance(variant, str) else variant
    return base.with_options(options or {})


def parse_option_text(text: str) -> tuple[str, object]:
    """Read a CLI ``name=value`` override; the value is JSON when it parses as JSON, else a string.

    >>> parse_option_text("deck=48"), parse_option_text("trump_exchange=off")
    (('deck', 48), ('trump_exchange', 'off'))
    """
    name, sep, raw = text.partition("=")
    if not sep or not name.strip():
        raise RulesError(f"a rule option is written name=value, not {text!r}")
    try:
        value: object = json.loads(raw)
    except json.JSONDecodeError:
        value = raw.strip()
    return name.strip(), value
