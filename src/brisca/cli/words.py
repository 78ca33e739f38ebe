"""What the person types at the terminal's prompts, and how a session ends.

The words are read in Spanish, Italian and English whatever the screen's language, so they live apart from
the code that asks (:mod:`brisca.cli.moves`, the cut in :mod:`brisca.cli.cut`, the match loop in
:mod:`brisca.cli.play`): one list to read when a word is added or checked.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence

from brisca.actions import SIGNAL_SETS
from brisca.rules import Rules

#: Words typed at the prompt, in any of the three languages whatever the chosen one.
HELP_WORDS = frozenset({"?", "help", "ayuda", "aiuto"})
#: A hint: the best move as the expert reads the person's own view (:meth:`brisca.cli.moves.MoveReader.show_hint`).
HINT_WORDS = frozenset({"h", "hint", "pista", "consejo", "suggerimento"})
QUIT_WORDS = frozenset({"q", "quit", "exit", "salir", "esci"})
LAST_WORDS = frozenset({"l", "last", "ultima", "última"})
EXCHANGE_WORDS = frozenset({"x", "c", "cambiar", "cambio", "scambia", "scambio", "exchange"})
ARRASTRO_WORDS = frozenset({"a", "arrastro", "arrastre"})
CLAIM_WORDS = frozenset({"r", "claim", "reclamar", "reclamo", "rivendica"})
#: Sorting the hand by suit and rank, and back. ``g`` (group): ``o`` and ``s`` name suits at the trump prompt.
SORT_WORDS = frozenset({"g", "sort", "ordenar", "ordena", "ordina", "ordinare"})
#: Words that may stand before a signal's name: ``signal trump-ace``, ``seña as de triunfo``.
SIGNAL_WORDS = ("signal", "seña", "sena", "segnale")
#: The games with an auction: words for a pass, and words that may stand before a bid, a rank, a discard,
#: a trump, a call or a declaration (``bid 110``, ``puja 110``, ``descarto 1 2``, ``chiamo 3O``, ``canto O``).
PASS_WORDS = frozenset({"p", "pass", "paso", "pasar", "passo"})
BID_WORDS = ("bid", "puja", "pujo", "apuesto", "offro", "offerta")
RANK_WORDS = ("rank", "rango", "valore")
DISCARD_WORDS = ("discard", "descarto", "descartar", "scarto", "scarta")
TRUMP_WORDS = ("trump", "triunfo", "pinta", "briscola")
CALL_WORDS = ("call", "llamo", "llamar", "chiamo", "chiama")
DECLARE_WORDS = ("declare", "canto", "cantar", "accuso", "accusa", "dichiaro")
#: Words that say a signal aloud (``signals: combination``): ``say s1``, ``digo briscas``.
SAY_WORDS = ("say", "aloud", "digo", "decir", "dico", "dire")
#: Words that name the way the cutter has the deck dealt, besides the way itself (``cut golpe``, ``corto 2``).
CUT_WORDS = ("cut", "corto", "cortar", "alzo", "alzar", "taglio", "taglia")
#: Words that mark a vale, besides the declaration words (``vale``, ``vale O``).
VALE_WORDS = ("vale", "lata", "v")
#: The signals in a fixed order: ``s1`` is always the first (``trump-ace``), whatever is offered.
SIGNAL_ORDER: tuple[str, ...] = SIGNAL_SETS["spanish"]
#: Typed text quoted back in an error message is cut to this many characters.
ECHO_MAX = 40


def clip(text: str, limit: int = ECHO_MAX) -> str:
    """``text`` cut to ``limit`` characters with an ellipsis: bad input is quoted back, not pasted back whole.

    >>> clip("3O"), clip("abcdefgh", 5)
    ('3O', 'abcd…')
    """
    return text if len(text) <= limit else text[:limit - 1] + "…"


def typed_number(digits: str) -> int:
    """A typed number; one too long to be any position, cut or bid reads as a huge one (not a million digits).

    >>> typed_number("12"), typed_number("1" * 20)
    (12, 1000000000)
    """
    return int(digits) if len(digits) <= 9 else 10**9


class Outcome(enum.Enum):
    """How a session ended: the match was played out, the person left, or the input ran dry."""

    FINISHED = "finished"
    QUIT = "quit"
    EOF = "eof"


def signal_order(rules: Rules | None = None) -> tuple[str, ...]:
    """The signals of the rules' ``signal_set`` in order: ``s1`` is always the first (``trump-ace``)."""
    return SIGNAL_SETS[rules.signal_set] if rules is not None else SIGNAL_ORDER


def signal_key(name: str, rules: Rules | None = None) -> str:
    """The key that makes a signal at the prompt: ``s1`` for ``trump-ace``, in the order of the rules' set.

    >>> signal_key("trump-ace")
    's1'
    """
    return f"s{signal_order(rules).index(name) + 1}"


def after_word(key: str, words: Sequence[str]) -> str | None:
    """What follows one of ``words`` at the start of ``key`` (``""`` for the word alone), or ``None``.

    >>> after_word("puja 110", BID_WORDS), after_word("puja", BID_WORDS), after_word("pujar 110", BID_WORDS)
    ('110', '', None)
    """
    for word in words:
        if key == word:
            return ""
        if key.startswith(word + " "):
            return key[len(word) + 1:].strip()
    return None
