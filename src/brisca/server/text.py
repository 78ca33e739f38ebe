"""Text that people type (names, chat), checked before it reaches a table.

Names and chat are shown to everyone, so they must not carry what would mislead a reader: control
characters (NUL included), and the invisible format characters (the bidi overrides such as U+202E,
zero-width joiners) that can make one name look like another or reverse the text after it.

>>> clean_text("  Ana  ", what="name", limit=40)
'Ana'
>>> clean_text("Ana\\u202e", what="name", limit=40)
Traceback (most recent call last):
...
ValueError: name: no control or invisible formatting characters (U+202E)
"""

from __future__ import annotations

import unicodedata

#: Unicode categories refused: controls, format characters (bidi, zero width), surrogates, private use,
#: unassigned code points.
_REFUSED = {"Cc", "Cf", "Cs", "Co", "Cn"}


def clean_text(text: object, *, what: str, limit: int, newlines: bool = False) -> str:
    """``text`` normalised (NFC), stripped and checked: 1 to ``limit`` characters, nothing invisible.

    ``ValueError`` names ``what`` and the first refused character. ``newlines`` lets line breaks through
    (the one control character allowed, and only when asked).
    """
    if not isinstance(text, str):
        raise ValueError(f"{what}: a string")
    text = unicodedata.normalize("NFC", text).strip()
    if not text:
        raise ValueError(f"{what}: 1 to {limit} characters, not empty")
    if len(text) > limit:
        raise ValueError(f"{what}: at most {limit} characters")
    for char in text:
        if unicodedata.category(char) in _REFUSED and not (newlines and char == "\n"):
            raise ValueError(f"{what}: no control or invisible formatting characters (U+{ord(char):04X})")
    return text
