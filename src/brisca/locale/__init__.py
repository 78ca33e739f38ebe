"""The gettext catalogs of every text the game shows, and how they are read and extracted.

``LANG/LC_MESSAGES/brisca.po`` is a language's catalog (the source translators edit), ``brisca.mo`` its compiled
form (committed, shipped in the package, read with the standard library's :mod:`gettext`: Babel is needed only to
extract, update and compile them), ``brisca.pot`` the template extracted from the English tables. A message's
context is ``AREA:KEY`` and its msgid the English text::

    >>> translated("signal", {"trump-ace": "ace of trumps"})["it"]
    {'trump-ace': 'asso di briscola'}
"""

from __future__ import annotations

import ast
import gettext
from collections.abc import Iterator, Mapping
from functools import cache
from pathlib import Path
from typing import IO

from brisca.cards import LANGS, Lang

#: Where the catalogs are: ``LANG/LC_MESSAGES/brisca.po`` and ``.mo``, and ``brisca.pot``.
LOCALE_DIR = Path(__file__).parent
#: The gettext domain: one catalog a language holds the terminal's, the rule pages' and the web page's texts.
DOMAIN = "brisca"


@cache
def translations(lang: Lang) -> gettext.NullTranslations:
    """The compiled catalog of ``lang``; a missing one raises ``FileNotFoundError`` (a broken install)."""
    return gettext.translation(DOMAIN, LOCALE_DIR, languages=[lang])


def translated(area: str, english: Mapping[str, str]) -> dict[Lang, dict[str, str]]:
    """Every language's text of each key of ``english``: language -> key -> text.

    A text the catalog lacks stays English (gettext's fallback); the tests keep every catalog complete.
    """
    return {lang: {key: translations(lang).pgettext(f"{area}:{key}", text) for key, text in english.items()}
            for lang in LANGS}


def extract_tables(
    fileobj: IO[bytes], keywords: object, comment_tags: object, options: Mapping[str, str]
) -> Iterator[tuple[int, str, tuple[str, str], list[str]]]:
    """Babel's extraction method for the English tables (``babel.cfg``): ``pybabel extract`` calls it.

    ``options["tables"]`` names dict literals of the file with their area (``_EN:terminal``): each item is a
    message, context ``AREA:KEY``, msgid its English text. ``options["titles"]`` names the area of the presets'
    titles: every call in the file with string ``variant=`` and ``title=`` arguments. Reading the source rather
    than importing it keeps the line numbers, and refuses a text that is not a plain string (an f-string).
    """
    areas = dict(item.split(":", 1) for item in options.get("tables", "").split())
    found: list[tuple[int, str, tuple[str, str], list[str]]] = []
    for node in ast.walk(ast.parse(fileobj.read())):
        if isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names = [t.id for t in targets if isinstance(t, ast.Name) and t.id in areas]
            if not names:
                continue
            if not isinstance(node.value, ast.Dict):
                raise ValueError(f"line {node.lineno}: {names[0]} is not a dict literal")
            for key, text in zip(node.value.keys, node.value.values, strict=True):
                found.append((text.lineno, "pgettext", (f"{areas[names[0]]}:{_string(key)}", _string(text)), []))
        elif "titles" in options and isinstance(node, ast.Call):
            named = {kw.arg: kw.value for kw in node.keywords}
            if "variant" in named and "title" in named:
                title = named["title"]
                context = f"{options['titles']}:{_string(named['variant'])}"
                found.append((title.lineno, "pgettext", (context, _string(title)), []))
    # In the order of the source, which ast.walk does not keep for nested calls.
    yield from sorted(found, key=lambda item: item[0])


def _string(node: ast.expr | None) -> str:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    where = f"line {node.lineno}" if node is not None else "a ** entry"
    raise ValueError(f"{where}: a message must be a plain string literal")
