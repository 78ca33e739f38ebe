"""The rules of a preset written out in Spanish, English or Italian, generated from its :class:`Rules`.

Because the text is built from the same data the engine plays by, the rule pages
cannot drift from the game: ``brisca rules NAME --lang it`` and the docs site's pages in each language
(``RULE_PAGES``: ``docs/variants/``, ``docs/es/reglas/``, ``docs/it/regole/``), which
``python -m brisca.rulebook docs`` writes with their part of ``mkdocs.yml``'s navigation. The sentences are
written here in English; the catalogs of :mod:`brisca.locale` translate them.

    >>> from brisca.rules import find_variant
    >>> "1 3 12 11 10 7 6 5 4 2" in rules_text(find_variant("spanish"), "en")
    True
"""

from __future__ import annotations

import json
import posixpath
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from brisca.actions import ASK_SIGNALS, SIGNAL_SETS, SIGNALS
from brisca.cards import ITALIAN, LANGS, NOTATIONS, Lang, Notation, Rank, Suit, parse_cards
from brisca.locale import translated, translations
from brisca.rules import OPTIONS, Rules, find_variant, variant_names

#: Every sentence of the rules in English, by key, grouped by the section it belongs to (context ``rules:KEY``
#: in the catalogs of :mod:`brisca.locale`).
SENTENCES: dict[str, str] = {
    "players": "Players: {counts}.",
    "teams": "With {n} players, two sides play: even seats against odd seats ({sides}).",
    "partners_draw": (
        "Before the first hand each player draws a card: the two highest (with 6, the three highest) play against the"
        " others, and players tied draw again among themselves. The highest takes seat 0 and deals, his side the even"
        " seats and the others the odd ones, each in the order of their cards."
    ),
    "dealer_draw": (
        "Before the first hand each player draws a card; players tied draw again. The highest takes seat 0 and deals;"
        " the others sit in the order of their cards."
    ),
    "alone": "Otherwise each plays for himself.",
    "deck": "Cards: a Spanish deck of {size}.",
    "deck_italian": "Cards: an Italian deck of {size} (the Spanish deck with other pictures).",
    "notation": "Cards are written rank then suit ({example}): {faces}, the others by their number; suits {suits}.",
    "notation_italian": (
        "The Spanish notation is read too ({spanish} for {italian}), except 10, which is the jack of a Spanish deck"
        " and the king in the Italian count to 10; records keep the Spanish notation."
    ),
    "removed": "With {n} players these are removed: {cards}.",
    "ranks": "Rank, high to low: {ranks}.",
    "points": "Card points: {points}; the rest score nothing ({total} in all).",
    "deal": "Deal: one card at a time from the seat after the dealer, in order of play, until each holds {k}.",
    "turn_up": (
        "The next card is turned up: its suit is trumps, and it goes to the bottom of the stock (the last card"
        " drawn)."
    ),
    "rotation": "No card is turned: trumps are oros, copas, espadas and bastos in the four deals of the match.",
    "lead": "The seat after the dealer leads the first trick; the winner of a trick leads the next.",
    "follow_none": "Any card may be played: there is no duty to follow suit, beat or trump.",
    "follow_suit": "You must follow the suit led if you can.",
    "follow_suit_trump": "You must follow the suit led if you can; if you cannot, you must trump if you can.",
    "follow_descanso": (
        "You must follow the suit led, and beat an opponent's best card if you can (never your partner's); if you"
        " cannot follow, you must trump if you can, unless your partner holds the trick with a card that is not a"
        " trump: then you rest (descanso) with any card."
    ),
    "follow_suit_beat_trump": (
        "You must follow the suit led and beat the best card if you can; else follow; else trump if you can."
    ),
    "follow_empty": "This duty applies only once the stock is gone.",
    "wins": "The highest trump wins the trick; without trumps, the highest card of the suit led.",
    "draw": "While the stock lasts, the winner draws first, then the others in order of play.",
    "exchange": (
        "Trump exchange ({when}): the 7 of trumps may be given for a face-up {high}, the 2 of trumps for a face-up"
        " {low}, while the face-up card is in the stock."
    ),
    "exchange_after_win": "on your turn, once you have won a trick",
    "exchange_any_time": "on your turn, from the first trick, even before you have won one",
    "exchange_before_penultimate": "on your turn, once you have won a trick, but not in the last round of draws",
    "exchange_announced": (
        "announced: on your turn you lay the trump under the face-up card, and take the face-up card as you win your"
        " next trick; if the face-up card is drawn first, the trump comes back to your hand"
    ),
    "exchange_out_of_turn": "at any time, on your turn or another's, once you have won a trick",
    "announced_hand": (
        "While the trump lies under the face-up card it is out of your hand, in everybody's sight: you play with one"
        " card fewer until the exchange is made or the trump comes back."
    ),
    "exchange_off": "There is no trump exchange.",
    "chain_on": "The card given becomes the face-up card, so a 7 given can be taken with the 2.",
    "chain_off": "A card given in an exchange may not be exchanged again.",
    "arrastro": (
        "Arrastro: whoever leads the ace of trumps may call arrastro; every seat yet to play must play its highest"
        " trump, or with no trump its highest card."
    ),
    "claim": (
        "Claim: once the stock is gone, a seat about to lead may claim the rest of the hand when it can show its side"
        " holds the best trumps still out, one for every trick left (its own cards and partner cards it may see); the"
        " remaining cards are its side's."
    ),
    "claim_side": (
        "Claim: once the stock is gone, before a trick is led, a side whose hands together hold the best trumps still"
        " out, one for every trick left, takes the rest of the hand at once: the remaining cards are its side's."
    ),
    "face_up_winner": (
        "In the last round of draws the winner of the trick takes the face-up card; the others draw the other cards"
        " in turn."
    ),
    "signals_partner": (
        "Signals (señas) to partners are allowed and must be truthful; opponents do not see them: {names}."
    ),
    "signals_open": "Signals (señas) are allowed, truthful and seen by everybody: {names}.",
    "signals_combination": (
        "Open talk and signals together: each truthful signal is made to the partner alone, or said aloud for"
        " everybody: {names}."
    ),
    "signals_no_asks": "Nobody may ask for signals.",
    "dealer_draw_face": (
        "The first dealer is drawn by face value: the highest number deals (the rey 10, the caballo 9, the sota 8,"
        " the ace 1); a tie between the pairs goes to the pair whose cards add up to more."
    ),
    "deal_look": "Partners see each other's first three cards.",
    "partners_look": "When the stock runs out, partners see each other's hands.",
    "open_hands": "Every hand is played face up (scoperta); the stock stays face down.",
    "kill_three": (
        "Muerte al tres: the ace of trumps may not be played before the three of trumps, except in the last trick;"
        " when it takes the three of trumps the hand ends at once, won by its side."
    ),
    "most": "The side with most points wins the hand.",
    "least": "The side with fewest points wins the hand (a side over 11 loses; if both are, the lower wins).",
    "point_limit": (
        "A side with at most {n} points wins the hand and a side with more loses: several within {n} are each"
        " awarded the hand, and when every side has more than {n} nobody wins it and it does not count."
    ),
    "last_trick": "The last trick scores {n} more.",
    "pairs": "Capturing the king and the knight of one suit scores 40 more in trumps, 20 in another suit.",
    "tie_draw": "A tie is a drawn hand and does not count.",
    "tie_replay": "A tie is replayed: the same dealer deals again.",
    "tie_most_cards": "A tie goes to the side with more cards.",
    "tie_shared": "A tie is shared: every side tied for the most is credited the hand.",
    "match_hands": "Match: the first side to win {n} hands; the deal passes to the next seat.",
    "match_points": "Match: the first side to reach {n} points over the hands; the deal passes to the next seat.",
    "match_rotation": "Match: the four deals; the side with most {what} wins.",
    "match_game_points": (
        "Match: the first to reach {n} game points; if several reach it in the same hand, the higher; level leaders"
        " play on. The deal passes to the next seat."
    ),
    "game_point_hand": "A hand won is worth one game point.",
    "game_point_contract": (
        "Game points: one to the declarer's side when the contract is made, one to every other side when it is set."
    ),
    "match_fixed": (
        "Match: {n} hands (a hand dealt again after a tie does not count); the side with the most hands won wins, and"
        " sides level play one more hand at a time until one leads."
    ),
    "hands_word": "hands won",
    "game_points_word": "game points",
    "points_word": "points",
    "big_win": "A hand won by more than 100 points counts as two.",
    "and": "and",
    "or": "or",
    "sources": "Sources",
    "deal_all": "Every card is dealt, one at a time from the seat after the dealer, {k} each.",
    "deal_cutter_chooses": (
        "Before each deal the cutter, the dealer's opponent after him, chooses how the deck is cut and dealt: {ways};"
        " he leads."
    ),
    "deal_cutter_chooses_left": (
        "Before each deal the cutter, the dealer's opponent before him, chooses how the deck is cut and dealt:"
        " {ways}; the seat after the dealer leads."
    ),
    "cutter_right": "The seat after the dealer cuts the deck.",
    "deal_talon": "The last {t} cards go face down to the table: the talon.",
    "deal_alce": (
        "Alce: the dealer's opponent cuts; every card is dealt in packets of 5 from the seat after the dealer, {k}"
        " each."
    ),
    "deal_golpe": (
        "Golpe: the cutter knocks; each seat gets {k} cards in a row from the seat after the dealer, and the last"
        " card of each opponent's packet is shown to all."
    ),
    "deal_pelada": (
        "Pelada: the cutter turns the top card, the trump card, which is the dealer's; each seat gets {k} cards in a"
        " row; each opponent's first card is shown, and the next while they are trumps. The cutter must lead a trump"
        " to the first trick."
    ),
    "trump_dealer": (
        "The last card dealt is the trump card: it belongs to the dealer and everybody sees it until he plays it."
    ),
    "trump_dealer_pelada": "The trump card belongs to the dealer and everybody sees it until he plays it.",
    "bid_points": (
        "Auction: from the seat after the dealer, each in turn bids a number of points from {lo} to {hi}, at least"
        " {step} above the last bid, or passes; a pass is final. It ends when one bidder is left."
    ),
    "bid_low_card": (
        "Auction: from the seat after the dealer, each seat once names a rank lower than any named before, or passes;"
        " the lowest rank wins, and its bidder's side must take {lo} points."
    ),
    "all_pass_redeal": "If everybody passes, the hand is void and the next dealer deals.",
    "all_pass_last_must_bid": "If the others all pass before the last one has bid, he must bid at least {lo}.",
    "talon_take": (
        "The auction's winner shows the talon to all, takes it and lays {t} cards face down into his own scoring"
        " pile; their points are his."
    ),
    "trump_named": "The auction's winner names the trump suit and leads the first trick.",
    "trump_called": (
        "The bidder calls a card: its suit is trump and its holder is his hidden partner (calling his own card, he"
        " plays alone). Nobody knows the partner until the called card is played. The bidder leads."
    ),
    "trump_called_buia": (
        "Chiamata buia: the bidder leads a first trick played with no trump, which the highest card of the suit led"
        " takes. Then he calls a card still in a hand: its suit is trump and its holder is his hidden partner"
        " (calling his own card, he plays alone). Nobody knows the partner until the called card is played. The first"
        " trick's winner leads the second."
    ),
    "trump_called_low": (
        "The bidder names a suit: the card of his rank in that suit is called; its suit is trump and its holder is"
        " his hidden partner (alone if he holds it). Nobody knows the partner until it is played. The bidder leads."
    ),
    "lead_two": (
        "A 2 may be led only with the ace of its suit in hand or already played, after the partner has shown he lacks"
        " that suit, as the cutter's only trump in the first trick of a pelada, or when nothing else can be led."
    ),
    "declare_vales": (
        "Vales: a side holding the king and the knight of a suit may declare them in the trick where one of them is"
        " played, on the declaring seat's turn or, its card down, until the trick is gathered: 40 in trumps, 20"
        " otherwise, to the side that wins that trick."
    ),
    "declare_on_lead": (
        "A player holding the king and the knight of a suit may declare them when he leads one of them after winning"
        " a trick: 40 in trumps, 20 otherwise, for him."
    ),
    "capote": "A side that takes every trick wins the hand outright (capote).",
    "capote_match": "A side that takes every trick wins the match outright (capote).",
    "golpe_partner_shows": "In a golpe the dealer's partner shows the last card of his packet too.",
    "auction_against_play": (
        "The auction goes round the other way from the play: it starts with the seat before the dealer, and each"
        " turn passes to the seat before."
    ),
    "match_alone_one": "Each for himself ({counts} players), a hand is the whole match.",
    "match_alone_hands": "Each for himself ({counts} players), the first to win {n} hands wins the match.",
    "contract_solo": (
        "The declarer makes his bid if his points (cards taken, discards, last trick, declarations) reach it, and"
        " then scores the bid; otherwise each other player scores half of it."
    ),
    "contract_called": (
        "The bidder and his partner make the contract if together they take the points bid: the bidder scores 2, the"
        " partner 1, each other player -1; otherwise the opposite. Alone: 4, or -4, and each other player -1, or 1."
    ),
    "match_one": "Match: a single hand; the side that wins it wins the match.",
    "match_more_hands": (
        "Match: the first to reach {n} {what}; if several reach it in the same hand, more hands are played, and the"
        " first to end one with more than every other wins. The deal passes to the next seat."
    ),
    "match_score": (
        "Match: the first to reach {n} match points; if several reach it in the same hand, the higher; level leaders"
        " play on. The deal passes to the next seat."
    ),
    # The docs site's rule pages in each language (``rules_markdown``, ``docs_index``, ``nav_yaml``).
    "page_section": "The rules in English",
    "page_index_title": "The rules of each preset",
    "page_index_intro": (
        "The rules of each preset, written from the same data the game plays by, so that they always say what the"
        " game does; `brisca rules NAME --lang {lang}` prints them in the terminal."
    ),
    "page_index_english": (
        "Every option, partner signal and record action, and the readings each preset chose where the sources"
        " disagree, with the sources' quotations, are on [the English pages]({link})."
    ),
    "page_preset": "preset",
    "page_game": "game",
    "page_players": "players",
    "page_intro": (
        "The rules of the preset `{name}`, written from the data the game plays by: `brisca rules {name} --lang"
        " {lang}` prints them in the terminal, `brisca play --variant {name}` plays them."
    ),
    "page_rules": "Rules",
    "page_notation": "Card notation",
    "page_symbol": "symbol",
    "page_rank": "rank",
    "page_suit": "suit",
    "page_options": "Options",
    "page_options_intro": (
        "The values of this preset's options, written as the program reads them: `--rule NAME=VALUE` changes one."
        " The readings this preset chose where the sources disagree or are silent, with the sources' quotations,"
        " and what each option means are on [the English page]({link})."
    ),
    "page_option": "option",
    "page_value": "value",
}

#: language -> key -> sentence.
T: dict[Lang, dict[str, str]] = translated("rules", SENTENCES)

#: The partner signals' names in English (context ``signal:NAME``).
_SIGNALS_EN: dict[str, str] = {
    "trump-ace": "ace of trumps",
    "trump-three": "three of trumps",
    "trump-king": "king of trumps",
    "trump-knight": "knight of trumps",
    "trump-jack": "jack of trumps",
    "small-trumps": "small trumps",
    "briscas": "briscas in other suits",
    "no-trumps": "no trumps",
    "ask-points": "asks for points",
    "ask-cards": "asks for cards",
    "high-card": "high card in another suit",
}
_SIGNALS = translated("signal", _SIGNALS_EN)

#: signal -> language -> name.
SIGNAL_NAMES: dict[str, dict[str, str]] = {
    name: {lang: _SIGNALS[lang][name] for lang in _SIGNALS} for name in _SIGNALS_EN
}
assert set(SIGNAL_NAMES) == set(SIGNALS)


def title_in(rules: Rules, lang: Lang) -> str:
    """The preset's title in ``lang`` (context ``title:VARIANT``, msgid the English ``rules.title``); the English
    title for a preset without a translation, or whose title was changed."""
    return translations(lang).pgettext(f"title:{rules.variant}", rules.title)


def preset_table(lang: Lang, players: Callable[[str], str] = str) -> list[str]:
    """``brisca variants``: one line a preset, its name, title in ``lang`` and player counts (``players`` words
    them), in columns as wide as their longest entry."""
    rows = [(name, title_in(find_variant(name), lang),
             players("/".join(map(str, find_variant(name).player_counts)))) for name in variant_names()]
    wide = [max(len(row[i]) for row in rows) for i in (0, 1)]
    return [f"{name:{wide[0]}}  {title:{wide[1]}}  {counts}" for name, title, counts in rows]


def card_notation(rules: Rules) -> Notation:
    """The notation the rules write cards in (``card_names``): Italian for the briscola family.

    Card *names* are not the deck's but the reader's: every screen and page names cards in its own
    language (``re di denari`` on an Italian screen, ``king of coins`` on an English one, whatever the deck).
    """
    return NOTATIONS[rules.card_names]


def notation_lines(rules: Rules, lang: Lang) -> list[str]:
    """How the rules write cards, in ``lang``: the face cards' symbols and the suit letters."""
    n = card_notation(rules)
    faces = ", ".join(f"{n.rank_symbol(r)} {r.name_in(lang)}" for r in (Rank.ACE, Rank.JACK, Rank.KNIGHT, Rank.KING))
    suits = ", ".join(f"{n.suit_letter(s)} {s.name_in(lang)}" for s in Suit)
    example = ", ".join(c.text(n) for c in parse_cards("3O 12E 10C 1B"))
    out = [_t("notation", lang, example=example, faces=faces, suits=suits)]
    if n is ITALIAN:
        out.append(_t("notation_italian", lang, spanish="12O", italian="RD"))
    return out


def _t(key: str, lang: Lang, /, **kw: object) -> str:
    return T[lang][key].format(**kw)


def _join(items: list[str], lang: Lang, word: str = "and") -> str:
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {T[lang][word]} {items[-1]}"


def rules_lines(rules: Rules, lang: Lang = "en") -> list[str]:
    """The rules as a list of sentences, in order: seats, cards, deal, play, scoring, match."""
    notation = card_notation(rules)
    rank_name = {r: Rank(r).name_in(lang) for r in range(1, 13)}
    out = [_t("players", lang, counts=_join([str(n) for n in rules.player_counts], lang, "or"))]
    for n in rules.partnerships:
        evens = "-".join(str(s) for s in range(0, n, 2))
        odds = "-".join(str(s) for s in range(1, n, 2))
        out.append(_t("teams", lang, n=n, sides=f"{evens} / {odds}"))
    if any(rules.sides(n) == n for n in rules.player_counts) and rules.partnerships:
        out.append(_t("alone", lang))
    if rules.partners == "draw":
        out.append(_t("partners_draw" if rules.partnerships else "dealer_draw", lang))
    out.append(_t("deck_italian" if notation is ITALIAN else "deck", lang, size=rules.deck))
    out += notation_lines(rules, lang)
    if rules.deck == 40:
        for n, cards in rules.removed:
            if n in rules.player_counts:
                names = [f"{c.text(notation)} {c.name(lang)}" for c in parse_cards(cards)]
                out.append(_t("removed", lang, n=n, cards=_join(names, lang)))
    order = rules.strength_order()
    symbols = " ".join(notation.rank_symbol(r) for r in order)
    out.append(_t("ranks", lang, ranks=f"{symbols} (" + ", ".join(rank_name[r] for r in order) + ")"))
    total = sum(rules.card_points(c) for c in rules.deck_cards(rules.player_counts[0])) if rules.player_counts else 0
    pts = ", ".join(f"{rank_name[r]} {p}" for r, p in sorted(rules.points, key=lambda rp: -rp[1]) if p)
    out.append(_t("points", lang, points=pts, total=total))
    if rules.dealt_out:
        out += _dealt_out_lines(rules, lang)
    else:
        out.append(_t("deal", lang, k=rules.hand_size))
        out.append(_t("rotation" if rules.trump_rotation else "turn_up", lang))
    if rules.cutter == "right" and rules.deal != "cutter_chooses":
        out.append(_t("cutter_right", lang))
    if rules.dealer_draw == "face_value":
        out.append(_t("dealer_draw_face", lang))
    if not rules.auction:
        out.append(_t("lead", lang))
    out.append(_t(f"follow_{rules.follow}", lang))
    if rules.follow != "none" and rules.follow_from == "empty_stock" and not rules.dealt_out:
        out.append(_t("follow_empty", lang))
    if rules.lead_two == "guarded":
        out.append(_t("lead_two", lang))
    out.append(_t("wins", lang))
    if not rules.dealt_out:
        out.append(_t("draw", lang))
        if rules.face_up_to == "trick_winner" and not rules.trump_rotation:
            out.append(_t("face_up_winner", lang))
    if rules.dealt_out:
        pass
    elif rules.trump_exchange == "off" or rules.trump_rotation:
        out.append(_t("exchange_off", lang))
    else:
        by_given = dict(rules.exchange_with)
        present = set(order)
        high = _join([rank_name[r] for r in by_given.get(7, ()) if r in present], lang, "or")
        low = _join([rank_name[r] for r in by_given.get(2, ()) if r in present], lang, "or")
        out.append(_t("exchange", lang, when=_t(f"exchange_{rules.trump_exchange}", lang), high=high, low=low))
        if rules.trump_exchange == "announced":
            out.append(_t("announced_hand", lang))
        out.append(_t("chain_on" if rules.exchange_chain else "chain_off", lang))
    if rules.arrastro:
        out.append(_t("arrastro", lang))
    if rules.kill_three:
        out.append(_t("kill_three", lang))
    if rules.claim:
        out.append(_t("claim" if rules.claim_by == "seat" else "claim_side", lang))
    if rules.signals != "off" and rules.partnerships:
        names = [n for n in SIGNAL_SETS[rules.signal_set] if rules.signal_asks or n not in ASK_SIGNALS]
        listed = ", ".join(f"{k} ({SIGNAL_NAMES[k][lang]})" for k in names)
        out.append(_t(f"signals_{rules.signals}", lang, names=listed))
        if not rules.signal_asks and any(n in ASK_SIGNALS for n in SIGNAL_SETS[rules.signal_set]):
            out.append(_t("signals_no_asks", lang))
    if rules.deal_look and rules.partnerships:
        out.append(_t("deal_look", lang))
    if rules.partners_look and rules.partnerships:
        out.append(_t("partners_look", lang))
    if rules.open_hands:
        out.append(_t("open_hands", lang))
    if rules.declarations != "off":
        out.append(_t(f"declare_{rules.declarations}", lang))
    if rules.contract == "off":
        if rules.point_limit:
            out.append(_t("point_limit", lang, n=rules.point_limit))
        else:
            out.append(_t(rules.hand_winner, lang))
    if rules.last_trick_bonus:
        out.append(_t("last_trick", lang, n=rules.last_trick_bonus))
    if rules.pair_bonus:
        out.append(_t("pairs", lang))
    if rules.capote != "off":
        out.append(_t("capote" if rules.capote == "hand" else "capote_match", lang))
    if rules.contract != "off":
        out.append(_t(f"contract_{rules.contract}", lang))
    elif not rules.point_limit:  # (within a limit, sides level are all awarded the hand)
        out.append(_t(f"tie_{rules.tie}", lang))
    if rules.match == "game_points":
        out.append(_t("game_point_contract" if rules.contract != "off" else "game_point_hand", lang))
    if rules.trump_rotation:
        word = {"target_points": "points_word", "game_points": "game_points_word"}.get(rules.match, "hands_word")
        out.append(_t("match_rotation", lang, what=_t(word, lang)))
    elif rules.match in ("game_points", "target_points") and rules.reached_together == "more_hands":
        game = rules.match == "game_points"
        what = _t("game_points_word" if game else "points_word", lang)
        out.append(_t("match_more_hands", lang, n=rules.target_game_points if game else rules.target_points,
                      what=what))
    elif rules.match == "game_points":
        out.append(_t("match_game_points", lang, n=rules.target_game_points))
    elif rules.match == "fixed_hands":
        out.append(_t("match_fixed", lang, n=rules.hands))
    elif rules.match == "target_points":
        out.append(_t("match_score" if rules.contract != "off" else "match_points", lang, n=rules.target_points))
    else:
        out += _match_hands_lines(rules, lang)
    if rules.big_win and rules.contract == "off" and rules.match != "target_points":
        out.append(_t("big_win", lang))
    return out


def _match_hands_lines(rules: Rules, lang: Lang) -> list[str]:
    """``match: target_hands``: the hands to win, and where each plays for himself, ``target_hands_alone``."""
    alone = [n for n in rules.player_counts if rules.sides(n) == n]
    n_alone = rules.target_hands_alone
    if not n_alone or not alone or n_alone == rules.target_hands:
        return [_t("match_one", lang) if rules.target_hands == 1 else _t("match_hands", lang, n=rules.target_hands)]
    if len(alone) == len(rules.player_counts):
        return [_t("match_one", lang) if n_alone == 1 else _t("match_hands", lang, n=n_alone)]
    first = _t("match_one", lang) if rules.target_hands == 1 else _t("match_hands", lang, n=rules.target_hands)
    counts = _join([str(n) for n in alone], lang, "or")
    return [first, _t("match_alone_one", lang, counts=counts) if n_alone == 1
            else _t("match_alone_hands", lang, counts=counts, n=n_alone)]


def _dealt_out_lines(rules: Rules, lang: Lang) -> list[str]:
    """The deal, the trump and the auction of the games that deal every card."""
    k = rules.hand_size
    if rules.deal == "cutter_chooses":
        key = "deal_cutter_chooses" if rules.cutter == "right" else "deal_cutter_chooses_left"
        out = [_t(key, lang, ways=", ".join(rules.cut_ways))]
        out += [_t(f"deal_{way}", lang, k=k) for way in rules.cut_ways]
        if rules.golpe_partner_shows and "golpe" in rules.cut_ways:
            out.append(_t("golpe_partner_shows", lang))
    else:
        out = [_t("deal_all" if rules.deal == "one_by_one" else f"deal_{rules.deal}", lang, k=k)]
        if rules.golpe_partner_shows and rules.deal == "golpe":
            out.append(_t("golpe_partner_shows", lang))
    if rules.talon:
        out.append(_t("deal_talon", lang, t=rules.talon))
    if rules.trump_from == "dealer":
        out.append(_t("trump_dealer_pelada" if rules.deal == "pelada" else "trump_dealer", lang))
    if rules.bidding == "points":
        out.append(_t("bid_points", lang, lo=rules.min_bid, hi=rules.max_bid, step=rules.bid_step))
    elif rules.bidding == "low_card":
        out.append(_t("bid_low_card", lang, lo=rules.min_bid))
    if rules.auction and rules.auction_direction == "against_play":
        out.append(_t("auction_against_play", lang))
    if rules.auction:
        out.append(_t(f"all_pass_{rules.all_pass}", lang, lo=rules.min_bid))
    if rules.talon:
        out.append(_t("talon_take", lang, t=rules.talon))
    if rules.trump_from == "named":
        out.append(_t("trump_named", lang))
    elif rules.trump_from == "called":
        if rules.bidding == "low_card":
            out.append(_t("trump_called_low", lang))
        else:
            out.append(_t("trump_called_buia" if rules.call_time == "after_first_trick" else "trump_called", lang))
    return out


def rules_text(rules: Rules, lang: Lang = "en") -> str:
    """The rules of ``rules`` as plain text: a title and one sentence a line."""
    title = title_in(rules, lang)
    lines = [title, "=" * len(title), ""]
    lines += [f"- {s}" for s in rules_lines(rules, lang)]
    if rules.sources:
        lines += ["", f"{T[lang]['sources']}: " + "; ".join(rules.sources)]
    return "\n".join(lines)


@dataclass(frozen=True)
class Source:
    """A rule text the presets follow, cited everywhere by its short ``name``."""

    name: str
    title: str
    language: str
    covers: str


#: The rule texts, by the name each is cited by (in the presets' sources and readings, the rule pages, the docs and
#: the docstrings). They disagree with each other: every disagreement is a rule option.
SOURCES: dict[str, Source] = {s.name: s for s in (
    Source("Encyclopedia", "Brisca, the encyclopedia articles (from Wikipedia)", "English",
           "2-6 players, 40 or 48 cards, the trump exchange (7 / 2), arrastro, claiming with the top trumps, scoring"
           " and ties, and the variants Mexican brisca, Briscola (Lombard and Tuscan values), Briscola scoperta,"
           " Mariaje/Cinquecento, Briscola Chiamata, Brisca Rematada, Muerte al Tres; a second, longer article on the"
           " deal, trick play, scoring and strategy"),
    Source("Fournier", "Brisca, the rules published by the card maker Fournier", "English",
           "2-4 players, partnerships, the deal, the exchange of the face-up trump, hands to win, ties, the partner"
           " signals (señas)"),
    Source("Briscola guide", "Briscola, a card-game guide", "English",
           "Italian Briscola: choosing partners, the deal, play, partners seeing each other's hands when the stock"
           " is gone, signalling schemes, 4-player cut-throat, 2 and 3 players, Briscola Chiamata (with the low-card"
           " bidding), Briscola Scoperta, Maltese Bixkla"),
    Source("Porteña", "La brisca (the Chilean brisca porteña)", "Spanish",
           "4 players in pairs: every card dealt, three ways to cut and deal, the 2 as second brisca, the duty to"
           " follow, beat and trump, leading a 2, vales (king-knight pairs, 20/40), the last trick's 10, capote,"
           " renuncio, the counting"),
    Source("Villar de Cañas", "Normas de la brisca, the club rules of Villar de Cañas (Spain)", "Spanish",
           "61 to win, the deal, winning a trick, 6 players without the 2s, the signals and the players' slang"),
)}


def cited_sources(rules: Rules) -> list[Source]:
    """The rule texts a preset cites, in its order (each of its ``sources`` starts with a source's name)."""
    out = []
    for text in rules.sources:
        source = next((s for s in SOURCES.values() if text == s.name or text.startswith(s.name + " (")), None)
        if source is None:
            raise ValueError(f"{rules.variant}: {text!r} names no source of brisca.rulebook.SOURCES")
        out.append(source)
    return out


def docs_index(lang: Lang = "en") -> str:
    """The index of the rule pages in ``lang``: a table of the presets. In English, ``docs/rules.md``, with the card
    notation, the signals, the record actions and every option."""
    if lang != "en":
        return _translated_index(lang)
    lines = ["# The rules: presets, signals, record actions and options", "", _versions(lang), "",
             "Generated by `python -m brisca.rulebook docs` from the rules data; a test keeps these pages in step"
             " with the engine.", "", "## Presets", "",
             "| preset | game | players | page |", "|---|---|---|---|"]
    for name in variant_names():
        r = find_variant(name)
        counts = "/".join(map(str, r.player_counts))
        lines.append(f"| `{name}` | {r.title} | {counts} | [rules]({page_path('en', name)}) |")
    lines += ["", "## Sources", "",
              "The presets follow these rule texts, which disagree with each other: every disagreement is a rule"
              " option, and each preset's page says which reading it chose and why, quoting them. They are cited"
              " everywhere by their names, in the docs and in `brisca rules`.", "",
              "| name | title | language | what it covers |", "|---|---|---|---|"]
    lines += [f"| {s.name} | {s.title} | {s.language} | {s.covers} |" for s in SOURCES.values()]
    lines += ["", "## Card notation", "",
              "A card is written rank then suit, case-insensitive. Presets with `card_names: italian` (the briscola"
              " family) write the Italian notation on screens and rule pages; records always keep the Spanish one,"
              " so every version reads every record (the record's rules name the notation to show).", "",
              "| notation | ace | 2-7 | 8, 9 (48 cards) | jack | knight | king | coins | cups | swords | clubs |",
              "|---|---|---|---|---|---|---|---|---|---|---|",
              "| Spanish (`3O`, `12E`) | `1` as | `2`-`7` | `8`, `9` | `10` sota | `11` caballo | `12` rey | `O` oros"
              " | `C` copas | `E` espadas | `B` bastos |",
              "| Italian (`3D`, `RS`) | `A` (or `1`) asso | `2`-`7` | `8`, `9` | `F` fante | `C` cavallo | `R` re"
              " | `D` denari | `C` coppe | `S` spade | `B` bastoni |", "",
              "`Card.parse` reads both notations and the cards' names in Spanish, English and Italian: no text is one"
              " card in one notation and another card in the other. The one exception is `10`, the sota (jack) of a"
              " Spanish deck but the re (king) where Italian players count the fante 8, the cavallo 9 and the re 10:"
              " `Card.parse(text, ITALIAN)` (and the terminal, for Italian presets) refuses `10C` rather than guess."
              " `str(card)` is always the Spanish notation; `card.text(ITALIAN)` writes the Italian one. Screens"
              " name cards in their own language: `RD king of coins` on an English screen, `RD rey de oros` on a"
              " Spanish one, `3O tre di denari` for a Spanish deck on an Italian one."]
    lines += ["", "## Partner signals (señas)", "",
              "Under `signals: partner` (only partners see them) or `open` (everybody does), a seat may make any"
              " of these on its turn, before it plays, each at most once a turn. The engine allows only truthful"
              " ones. In a record: `{\"seat\": 0, \"signal\": \"trump-ace\"}`.", "",
              "| signal | truthful when the seat | es | it |", "|---|---|---|---|"]
    for name, meaning in SIGNALS.items():
        lines.append(f"| `{name}` | {meaning} | {SIGNAL_NAMES[name]['es']} | {SIGNAL_NAMES[name]['it']} |")
    lines += ["", "## Record actions", "", "| action | record form | notation |", "|---|---|---|",
              "| play a card | `{\"seat\": s, \"play\": \"3O\"}` | `3O` |",
              "| exchange the trump | `{\"seat\": s, \"exchange\": \"7B\"}` | `x7B` |",
              "| exchange the trump while another seat is to act (`trump_exchange: out_of_turn`), written where it"
              " was made | `{\"seat\": s, \"exchange\": \"7B\"}` | `x7B` |",
              "| announce an exchange, laying the trump under the face-up card (`trump_exchange: announced`) |"
              " `{\"seat\": s, \"announce\": \"7B\"}` | `announce 7B` |",
              "| lead the ace of trumps with arrastro |"
              " `{\"seat\": s, \"play\": \"1O\", \"arrastro\": true}` | `1O!` |",
              "| claim the rest (`claim_by: seat`; under `claim_by: side` no action is written: the claim follows"
              " from the cards, and a replay makes it again) | `{\"seat\": s, \"claim\": true}` | `claim` |",
              "| signal | `{\"seat\": s, \"signal\": \"briscas\"}` | `signal briscas` |",
              "| say a signal aloud (`signals: combination`) | `{\"seat\": s, \"signal\": \"briscas\", \"aloud\":"
              " true}` | `say briscas` |",
              "| choose how the deck is cut and dealt (`deal: cutter_chooses`) | `{\"seat\": s, \"cut\": \"golpe\"}`"
              " | `cut golpe` |",
              "| bid points | `{\"seat\": s, \"bid\": 110}` | `bid 110` |",
              "| bid a rank (`bidding: low_card`) | `{\"seat\": s, \"bid\": \"3\"}` | `bid rank 3` |",
              "| pass in the auction, or, asked about a vale (`declarations: vales`), mark none |"
              " `{\"seat\": s, \"pass\": true}` | `pass` |",
              "| call a card (chiamata) | `{\"seat\": s, \"call\": \"3O\"}` | `call 3O` |",
              "| name the trump suit | `{\"seat\": s, \"trump\": \"O\"}` | `trump O` |",
              "| discard into the own pile | `{\"seat\": s, \"discard\": [\"5O\", \"6C\"]}` |"
              " `discard 5O 6C` |",
              "| declare a king-knight pair, or mark a vale with the seat's card down |"
              " `{\"seat\": s, \"declare\": \"O\"}` | `declare O` |",
              "", "Hand records may carry `\"deal\": k`, the deal's number in its match (it picks the trump under"
              " `trump_rotation`). Every action names the seat that took it: under `trump_exchange: out_of_turn` an"
              " exchange made while another seat was to act is written where it was made, with its own seat.", "",
              "A match record keeps what opened the match: under `partners: draw` the draw for partners"
              " (`\"draw\": [{\"players\": [0, 1, 2, 3], \"cards\": [\"1O\", ...]}, ...]`, a round a tie) and the"
              " `\"seating\"` it made; otherwise the draw for the first dealer when there was one"
              " (`\"dealer_draw\": [{\"seats\": [0, 1, 2, 3], \"cards\": [\"7C\", ...]}, ...]`, by rank or, under"
              " `dealer_draw: face_value`, by number). `brisca replay` checks that the draw is one the rules allow"
              " and that its highest card deals the first hand.", "",
              "A match the web table ended by resignation keeps how it ended: `\"resigned\": {\"seats\": [0, 2],"
              " \"winner\": 1}`, the seats whose players resigned, in order, and the side that won. Its last hand"
              " may be unfinished; `brisca replay` checks that the match was not over before and that the side"
              " whose resignation ended it is not the winner.", "",
              "## Options", "",
              "An option set where the others leave it no effect is refused, with one line naming what would make"
              " it count (`brisca play -r hands=5`: \"option 'hands' has no effect here: it counts only with"
              " 'match: fixed_hands'\"); each option states what it needs to have an effect, and the message"
              " names it. Options that would score one thing twice (`pair_bonus` with `declarations`) are"
              " refused too.", "", "| option | meaning |", "|---|---|"]
    lines += [f"| `{name}` | {opt.help} |" for name, opt in OPTIONS.items()]
    return "\n".join(lines) + "\n"


#: Where each language's rule pages are in the docs folder, ``FOLDER/NAME.md`` a preset. The English pages add the
#: readings each preset chose, with the sources' quotations, and what every option means; the others link to them.
#: Their order is the order of the site's sections and of the links between a page's versions.
RULE_PAGES: dict[Lang, str] = {"en": "variants", "es": "es/reglas", "it": "it/regole"}
#: Each language's name in itself, for the line that links a page to its versions in the other languages.
LANG_NAMES: dict[Lang, str] = {"en": "English", "es": "Español", "it": "Italiano"}
assert set(RULE_PAGES) == set(LANG_NAMES) == set(LANGS)
#: The lines of ``mkdocs.yml`` between which ``write_nav`` writes the rule pages' navigation.
NAV_BEGIN = "  # The rule pages, written by python -m brisca.rulebook docs: do not edit until the end mark."
NAV_END = "  # End of the rule pages."


def page_path(lang: Lang, name: str | None = None) -> str:
    """The path in the docs folder of the preset ``name``'s page in ``lang``; without a name, of the language's
    index of presets (``rules.md`` in English, which also lists every option, signal and record action)."""
    if name is None:
        return "rules.md" if lang == "en" else f"{RULE_PAGES[lang]}/index.md"
    return f"{RULE_PAGES[lang]}/{name}.md"


def _link(lang: Lang, name: str | None, to: Lang) -> str:
    """The relative link from ``lang``'s page (of ``name``, or the index) to its version in ``to``."""
    return posixpath.relpath(page_path(to, name), posixpath.dirname(page_path(lang, name)) or ".")


def _versions(lang: Lang, name: str | None = None) -> str:
    """The line of links to the page's versions in every language, its own in bold."""
    return " · ".join(f"**{LANG_NAMES[to]}**" if to == lang else f"[{LANG_NAMES[to]}]({_link(lang, name, to)})"
                      for to in RULE_PAGES)


def _translated_index(lang: Lang) -> str:
    lines = [f"# {_t('page_index_title', lang)}", "", _versions(lang), "", _t("page_index_intro", lang, lang=lang),
             "", _t("page_index_english", lang, link=_link(lang, None, "en")), "",
             f"| {_t('page_preset', lang)} | {_t('page_game', lang)} | {_t('page_players', lang)} |", "|---|---|---|"]
    for name in variant_names():
        r = find_variant(name)
        link = posixpath.relpath(page_path(lang, name), RULE_PAGES[lang])
        lines.append(f"| `{name}` | [{title_in(r, lang)}]({link}) | {'/'.join(map(str, r.player_counts))} |")
    return "\n".join(lines) + "\n"


def write_docs(folder: str) -> list[str]:
    """Write every rule page under ``folder``: ``rules.md``, and an index and one page per preset in each language
    (``RULE_PAGES``); pages of presets no longer registered are removed. Returns the paths written."""
    names = variant_names()
    pages = {page_path("en"): docs_index()}
    for lang in RULE_PAGES:
        if lang != "en":
            pages[page_path(lang)] = docs_index(lang)
        for name in names:
            pages[page_path(lang, name)] = rules_markdown(find_variant(name), lang)
    for lang in RULE_PAGES:
        for stale in sorted((Path(folder) / RULE_PAGES[lang]).glob("*.md")):
            if stale.relative_to(folder).as_posix() not in pages:
                stale.unlink()
    for path, text in pages.items():
        target = Path(folder) / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    return [str(Path(folder) / path) for path in pages]


def nav_yaml() -> str:
    """The rule pages' part of ``mkdocs.yml``'s ``nav``: a section a language, its index first, then the presets."""
    lines = [NAV_BEGIN]
    for lang in RULE_PAGES:
        if lang == "en":
            section, index = "The rules", "Presets and options"
        else:
            section, index = T[lang]["page_section"], T[lang]["page_index_title"]
        lines += [f"  - {_yaml(section)}:", f"      - {_yaml(index)}: {page_path(lang)}"]
        for name in variant_names():
            label = name if lang == "en" else title_in(find_variant(name), lang)
            lines.append(f"      - {_yaml(label)}: {page_path(lang, name)}")
    return "\n".join([*lines, NAV_END]) + "\n"


def _yaml(label: str) -> str:
    """A nav label as YAML: plain when it reads as that text, else double-quoted (a JSON string is a YAML one)."""
    plain = label.replace(" ", "").replace("-", "").replace("(", "").replace(")", "").isalnum()
    keyword = label.lower() in ("y", "n", "yes", "no", "on", "off", "true", "false", "null")
    return label if plain and not keyword and not label[0].isdigit() else json.dumps(label, ensure_ascii=False)


def write_nav(mkdocs_yml: str) -> None:
    """Replace the rule pages' navigation in ``mkdocs_yml`` (between ``NAV_BEGIN`` and ``NAV_END``) by ``nav_yaml``,
    so that a preset registered anywhere gets its pages listed with ``python -m brisca.rulebook docs``."""
    path = Path(mkdocs_yml)
    text = path.read_text(encoding="utf-8")
    begin, end = text.find(NAV_BEGIN + "\n"), text.find(NAV_END + "\n")
    if begin < 0 or end < begin:
        raise ValueError(f"{mkdocs_yml}: its nav lacks the lines {NAV_BEGIN!r} and {NAV_END!r}")
    path.write_text(text[:begin] + nav_yaml() + text[end + len(NAV_END) + 1:], encoding="utf-8")


def rules_markdown(rules: Rules, lang: Lang = "en") -> str:
    """The documentation page of a preset in ``lang``.

    In English: the preset's description, sources, the readings it chose where they disagree, every option's value
    and meaning, and the rules. In another language: the rules, the card notation and the options' values, with a
    link to the English page for the readings.
    """
    if lang != "en":
        return _translated_page(rules, lang)
    lines = [f"# `{rules.variant}`: {rules.title}", "", _versions(lang, rules.variant), "", rules.doc, ""]
    if rules.sources:
        lines += ["Sources ([the rule texts](../rules.md#sources)): " + "; ".join(rules.sources) + ".", ""]
    if rules.readings:
        lines += ["## Readings chosen where the sources disagree or are silent", ""]
        lines += [f"- {r}" for r in rules.readings] + [""]
    lines += ["## Options", "", "Every option can be changed: `brisca play --variant "
              f"{rules.variant} --rule NAME=VALUE`, `\"rules\": {{...}}` in a record, or "
              f"`find_variant(\"{rules.variant}\").with_options(...)`. Values of this preset:", "",
              "| option | value | meaning |", "|---|---|---|"]
    for name, value in rules.options().items():
        lines.append(f"| `{name}` | `{json.dumps(value)}` | {OPTIONS[name].help} |")
    lines += ["", "## Rules", ""]
    lines += [f"- {s}" for s in rules_lines(rules, lang)]
    return "\n".join(lines) + "\n"


def _translated_page(rules: Rules, lang: Lang) -> str:
    name = rules.variant
    lines = [f"# {title_in(rules, lang)}", "", _versions(lang, name), "",
             _t("page_intro", lang, name=name, lang=lang), "", f"## {_t('page_rules', lang)}", ""]
    lines += [f"- {s}" for s in rules_lines(rules, lang)]
    if rules.sources:
        lines += ["", f"{T[lang]['sources']}: " + "; ".join(rules.sources)]
    notation = card_notation(rules)
    symbol = _t("page_symbol", lang)
    lines += ["", f"## {_t('page_notation', lang)}", "", f"| {symbol} | {_t('page_rank', lang)} |", "|---|---|"]
    lines += [f"| `{notation.rank_symbol(r)}` | {Rank(r).name_in(lang)} |" for r in sorted(rules.strength_order())]
    lines += ["", f"| {symbol} | {_t('page_suit', lang)} |", "|---|---|"]
    lines += [f"| `{notation.suit_letter(s)}` | {s.name_in(lang)} |" for s in Suit]
    lines += ["", f"## {_t('page_options', lang)}", "", _t("page_options_intro", lang, link=_link(lang, name, "en")),
              "", f"| {_t('page_option', lang)} | {_t('page_value', lang)} |", "|---|---|"]
    lines += [f"| `{option}` | `{json.dumps(value)}` |" for option, value in rules.options().items()]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":  # pragma: no cover
    import sys

    folder = sys.argv[1] if len(sys.argv) > 1 else "docs"
    for written in write_docs(folder):
        print(written)
    # The site's configuration next to the docs folder lists the pages.
    mkdocs_yml = Path(folder).resolve().parent / "mkdocs.yml"
    if mkdocs_yml.exists():
        write_nav(str(mkdocs_yml))
        print(mkdocs_yml)
