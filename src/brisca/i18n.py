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
    "goal_target": "first to {target} wins the match",
    "goal_rotation": "deal {deal} of 4; the most after four wins",
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
    "hand_replay": "The hand is tied: the same dealer deals it again.",
    "match_over": "Match over. Winner: {who}.",
    "match_level": "Match over: it ends level, nobody wins.",
    "match_won_you": "Congratulations, you win the match!",
    "match_lost": "You lose the match. Better luck next time!",
    "last_none": "No trick has finished yet in this hand.",
    "last_header": "Last trick (led by {who}):",
    "err_position": "There is no card number {n} in your hand: choose 1 to {max}.",
    "err_unknown": "I do not understand \"{text}\". Type a card like 3O, its position 1 to {max}, or ? for help.",
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
    "follow_suit_beat_trump": "You must follow suit and beat the trick if you can, else follow suit, else trump",
    "follow_empty_stock": "{rule} (only once the stock is gone)",
    "help": (
        "Keys\n"
        "  1, 2, 3 ...   play the card in that position of your hand\n"
        "  3O, 12e ...   play a card by rank and suit: {suits}\n"
        "  x             exchange the trump when it is allowed (also c, cambiar, scambia, exchange)\n"
        "  l             show the last trick again\n"
        "  empty line    show the table again\n"
        "  ?             this help (also h, help, ayuda, aiuto)\n"
        "  q             leave the match (also quit, salir, esci); --save keeps the record\n"
        "Rules\n"
        "  A trick goes to the highest trump played, else to the highest card of the suit led.\n"
        "  {follow}. The trick's winner draws first and leads the next trick.\n"
        "  Cards from high to low: {order}.\n"
        "  Points: {points}; the side with the most points wins the hand.\n"
        "  Trump exchange: {exchange}\n"
        "  Match: {goal} ({label})."
    ),
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
    "goal_target": "gana la partida quien llegue a {target}",
    "goal_rotation": "reparto {deal} de 4; tras cuatro gana quien más tenga",
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
    "hand_replay": "La mano queda empatada: el mismo jugador vuelve a repartir.",
    "match_over": "Fin de la partida. Ganador: {who}.",
    "match_level": "Fin de la partida: empate, nadie gana.",
    "match_won_you": "¡Enhorabuena, ganas la partida!",
    "match_lost": "Pierdes la partida. ¡Más suerte la próxima vez!",
    "last_none": "Aún no ha terminado ninguna baza en esta mano.",
    "last_header": "Última baza (salida: {who}):",
    "err_position": "No hay carta número {n} en tu mano: elige de 1 a {max}.",
    "err_unknown": "No entiendo \"{text}\". Escribe una carta como 3O, su posición de 1 a {max}, o ? para ayuda.",
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
    "follow_suit_beat_trump": "Hay que asistir y montar si se puede; si no, asistir; si no, fallar con triunfo",
    "follow_empty_stock": "{rule} (solo cuando se acaba el mazo)",
    "help": (
        "Teclas\n"
        "  1, 2, 3 ...   juega la carta en esa posición de tu mano\n"
        "  3O, 12e ...   juega una carta por número y palo: {suits}\n"
        "  x             cambia el triunfo cuando se puede (también c, cambiar, scambia, exchange)\n"
        "  l             vuelve a mostrar la última baza\n"
        "  línea vacía   vuelve a mostrar la mesa\n"
        "  ?             esta ayuda (también h, help, ayuda, aiuto)\n"
        "  q             deja la partida (también quit, salir, esci); --save guarda la partida\n"
        "Reglas\n"
        "  Gana la baza el triunfo más alto jugado; si no hay, la carta más alta del palo de salida.\n"
        "  {follow}. Quien gana la baza roba primero y sale en la siguiente.\n"
        "  Orden de las cartas, de mayor a menor: {order}.\n"
        "  Puntos: {points}; gana la mano el equipo con más puntos.\n"
        "  Cambio del triunfo: {exchange}\n"
        "  Partida: {goal} ({label})."
    ),
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
    "goal_target": "vince la partita chi arriva a {target}",
    "goal_rotation": "smazzata {deal} di 4; dopo quattro vince chi ha di più",
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
    "hand_replay": "La mano finisce in parità: lo stesso mazziere la ridistribuisce.",
    "match_over": "Partita finita. Vincitore: {who}.",
    "match_level": "Partita finita in parità: nessuno vince.",
    "match_won_you": "Complimenti, vinci la partita!",
    "match_lost": "Perdi la partita. Andrà meglio la prossima volta!",
    "last_none": "Nessuna presa è ancora finita in questa mano.",
    "last_header": "Ultima presa (apertura: {who}):",
    "err_position": "Non c'è la carta numero {n} nella tua mano: scegli da 1 a {max}.",
    "err_unknown": "Non capisco \"{text}\". Scrivi una carta come 3O, la sua posizione da 1 a {max}, o ? per l'aiuto.",
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
    "follow_suit_beat_trump": "Devi rispondere al seme e superare se puoi, altrimenti rispondere, altrimenti briscola",
    "follow_empty_stock": "{rule} (solo quando il mazzo è finito)",
    "help": (
        "Tasti\n"
        "  1, 2, 3 ...   gioca la carta in quella posizione della tua mano\n"
        "  3O, 12e ...   gioca una carta per numero e seme: {suits}\n"
        "  x             scambia la briscola quando è permesso (anche c, cambiar, scambia, exchange)\n"
        "  l             mostra di nuovo l'ultima presa\n"
        "  riga vuota    mostra di nuovo la tavola\n"
        "  ?             questo aiuto (anche h, help, ayuda, aiuto)\n"
        "  q             lascia la partita (anche quit, salir, esci); --save conserva la partita\n"
        "Regole\n"
        "  La presa va alla briscola più alta giocata, altrimenti alla carta più alta del seme di uscita.\n"
        "  {follow}. Chi vince la presa pesca per primo ed esce alla successiva.\n"
        "  Carte dalla più alta alla più bassa: {order}.\n"
        "  Punti: {points}; vince la mano la squadra con più punti.\n"
        "  Scambio della briscola: {exchange}\n"
        "  Partita: {goal} ({label})."
    ),
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
