"""Names that look alike: the confusables skeleton of Unicode TS #39, invisible names, reserved names.

Two names are one name to the server when they look alike: Cyrillic ``сора`` and Latin ``copa``, Greek
``ΑΝΑ`` and ``ANA``, ``bot∶expert`` (U+2236 RATIO) and ``bot:expert``. Their :func:`lookalike` keys are equal:
the TS #39 skeleton (Unicode's ``confusables.txt``, as the ``confusable_homoglyphs`` package ships it) of the
name's NFKC form, case folded, then skeletonised again (so that ``ВОТ``, skeleton ``BOT``, meets ``bot``), with
the default-ignorable code points (zero widths, fillers) left out, and with ``i`` read as ``l`` (a capital
``I`` looks like an ``l``, and ``ADMIN`` is the account ``admin``: the key of a name is the key of its every
case). Accounts are unique by that key, a guest may not sit under a key an account holds, and the reserved names
are refused in every spelling whose key is theirs: the bots' levels in every language of the site (``normal``,
``experto``, ``esperto``), ``bot`` and anything after it, ``guest``, ``admin``, ``server``... A name with a word
the page uses to mark a bot or a guest (``normal (bot)``, ``Ana (guest)``) is refused too.

>>> lookalike("сора") == lookalike("copa")
True
>>> lookalike("ΑΝΑ") == lookalike("ana")
True
>>> reserved_name("ВОТ∶expert"), reserved_name("Normal"), reserved_name("AdmIn"), reserved_name("botella")
(True, True, True, False)
>>> reserved_name("normal (bot)"), reserved_name("experto"), reserved_name("Server")
(True, True, True)
>>> lookalike("ᴍᴀʀɪᴀ") == lookalike("Maria")
True
>>> visible("\\u3164\\u2800")
False

What the skeleton does not catch: letters Unicode's data does not map to each other (Cyrillic ``м`` and
``п`` are mapped to ``ʍ`` and ``π``, so ``аԁміп`` is not ``admin``), and names that differ by a letter.
"""

from __future__ import annotations

import functools
import re
import unicodedata

from confusable_homoglyphs import confusables

from brisca.agents.registry import LEVELS
from brisca.cards import LANGS
from brisca.i18n import Messages
from brisca.locale import translated

#: Names nobody may sit or sign up under, in any spelling that looks like them (besides ``bot`` + a non-letter),
#: with the bots' levels and the guests' mark in each language of the site (:func:`reserved_words`).
RESERVED = frozenset({"guest", "admin", "administrator", "system", "spectator", "bot", "server", "moderator",
                      *LEVELS})
#: Words that mark a name as a bot's or a guest's where the page shows it (``easy (bot)``, ``Ana (guest)``): a
#: name with one of them as a word passes for a bot or a guest, in every language (:func:`marker_words`).
MARKERS = frozenset({"bot", "guest"})

#: Code points that show as nothing, or as blank space, though Unicode counts some of them as letters: the
#: Hangul fillers (U+115F, U+1160, U+3164, U+FFA0), the blank Braille pattern (U+2800), the combining grapheme
#: joiner (U+034F), the Khmer inherent vowels (U+17B4, U+17B5), the Mongolian selectors (U+180B-U+180F).
BLANKS = frozenset(chr(c) for c in (0x115F, 0x1160, 0x3164, 0xFFA0, 0x2800, 0x034F, 0x17B4, 0x17B5,
                                    *range(0x180B, 0x1810)))
#: The ranges of Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt): never drawn.
_IGNORABLE = ((0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
              (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
              (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3),
              (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF))


class NameRefused(ValueError):
    """A name the server does not take; its message is shown to the person."""


def ignorable(char: str) -> bool:
    """Whether ``char`` is a default-ignorable code point (drawn as nothing)."""
    code = ord(char)
    return any(low <= code <= high for low, high in _IGNORABLE)


def visible(name: str) -> bool:
    """Whether ``name`` has a character that shows: a letter, digit, punctuation or symbol, not a blank."""
    return any(unicodedata.category(c)[0] in "LNPS" and c not in BLANKS and not ignorable(c) for c in name)


@functools.cache
def _prototypes() -> dict[str, str]:
    """Each confusable character -> its prototype (``confusables.txt``'s mapping).

    The package keeps the mapping's pairs in both directions; a source is one code point mapped to exactly one
    prototype, while a prototype is listed with all its sources. A pair whose two sides name only each other
    is one class of two, whichever side Unicode chose: its lower code point stands for it here, which groups
    names exactly as the prototype would.
    """
    data: dict[str, list[dict[str, str]]] = confusables.confusables_data
    out: dict[str, str] = {}
    for char, entries in data.items():
        if len(char) != 1 or len(entries) != 1:
            continue
        target = entries[0]["c"].strip("\u200e")  # the package marks right-to-left characters with LRMs
        back = data.get(entries[0]["c"], [])
        if len(target) == 1 and len(back) == 1 and back[0]["c"].strip("\u200e") == char:
            if ord(target) < ord(char):
                out[char] = target
        else:
            out[char] = target
    return out


def skeleton(text: str) -> str:
    """The TS #39 skeleton: NFD, every character replaced by its prototype, NFD again."""
    prototypes = _prototypes()
    mapped = "".join(prototypes.get(c, c) for c in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)


#: Small letters that Unicode's confusables leave out but that are drawn as the small capitals of Latin letters
#: in most fonts (Cyrillic ``вот`` reads "BOT", ``аԁміп`` reads "admin"): each to the Latin letter it shows.
SMALL_CAPITALS = str.maketrans({"в": "b", "м": "m", "н": "h", "т": "t", "к": "k", "п": "n", "ʙ": "b", "ᴍ": "m",
                                "ʜ": "h", "ᴛ": "t", "ᴋ": "k", "ɴ": "n", "ᴏ": "o", "ᴀ": "a", "ᴅ": "d", "ɪ": "i",
                                "ᴄ": "c", "ᴇ": "e", "ꜰ": "f", "ɢ": "g", "ᴊ": "j", "ʟ": "l", "ᴘ": "p", "ꞯ": "q",
                                "ʀ": "r", "ꜱ": "s", "ᴜ": "u", "ᴠ": "v", "ᴡ": "w", "ʏ": "y", "ᴢ": "z"})
#: The last fold of a key: ``i`` as ``l``, as a capital ``I`` (whose skeleton is ``l``) reads.
_I_AS_L = str.maketrans({"i": "l"})


def lookalike(name: str) -> str:
    """The key two names share when they look alike (compare keys, never show them); one key for every case of a
    name (``ADMIN``, ``AdmIn`` and ``admin``)."""
    shown = "".join(c for c in unicodedata.normalize("NFKC", name) if not ignorable(c)).strip()
    folded = skeleton(skeleton(shown.translate(SMALL_CAPITALS)).casefold().translate(SMALL_CAPITALS))
    return folded.translate(_I_AS_L)


@functools.cache
def reserved_words() -> frozenset[str]:
    """:data:`RESERVED` with the bots' levels and the guests' mark as each language of the site shows them."""
    words = set(RESERVED)
    for lang in LANGS:
        messages = Messages(lang)
        words |= {messages(f"level_{level}") for level in LEVELS if f"level_{level}" in messages}
    return frozenset(words | marker_words())


@functools.cache
def marker_words() -> frozenset[str]:
    """:data:`MARKERS` in each language of the site (the page's own words for them)."""
    words = set(MARKERS)
    for table in translated("web", {"guest": "guest"}).values():
        words.add(table["guest"])
    return frozenset(words)


@functools.cache
def _reserved_keys() -> tuple[frozenset[str], frozenset[str], str]:
    return (frozenset(lookalike(n) for n in reserved_words()), frozenset(lookalike(n) for n in marker_words()),
            lookalike("bot"))


#: What splits a name into words: anything but letters, digits and combining marks.
_WORDS = re.compile(r"[^\w\u0300-\u036f]+|_+")


def reserved_name(name: str) -> bool:
    """Whether ``name`` looks like a reserved one: a bot level in any language of the site, ``guest``, ``admin``,
    ``server``..., ``bot`` followed by anything but a letter (``bot:expert``, ``BOT_1``, ``ВОТ∶1``), or a name
    with a bot's or a guest's mark as a word (``normal (bot)``, ``Ana [guest]``)."""
    key = lookalike(name)
    keys, markers, bot = _reserved_keys()
    if key in keys:
        return True
    words = [w for w in _WORDS.split(unicodedata.normalize("NFKC", name)) if w]
    if len(words) > 1 and any(lookalike(w) in markers for w in words):
        return True
    # As typed (``bot1``: its key is ``botl``, a 1 looking like an l) and as it looks (``вот:``).
    plain = unicodedata.normalize("NFKC", name).casefold().strip()
    for form, prefix in ((plain, "bot"), (key, bot)):
        rest = form.removeprefix(prefix)
        if rest != form and not unicodedata.normalize("NFC", rest)[:1].isalpha():
            return True
    return False


def check_name(name: str, *, what: str = "name") -> str:
    """``name`` when it shows, has no blank character and is not reserved; else :class:`NameRefused`."""
    blank = next((c for c in name if c in BLANKS), None)
    if blank is not None:
        raise NameRefused(f"{what}: no blank characters (U+{ord(blank):04X})")
    if not visible(name):
        raise NameRefused(f"{what}: a name has a letter, digit or symbol that shows")
    if reserved_name(name):
        raise NameRefused(f"{what}: {name} is reserved (it looks like a bot's or the server's name)")
    return name
