"""The translations' gettext catalogs (src/brisca/locale): complete, in step with the English texts, compiled.

The English texts live in the code (brisca.i18n, brisca.rulebook, brisca.variants' titles, brisca.server.pagetext);
``pybabel extract`` (babel.cfg) turns them into brisca.pot, each language's brisca.po translates them, and the
brisca.mo files the package ships are compiled from the .po (docs/translating.md).
"""

from __future__ import annotations

import io
import re
import string
import struct
import subprocess
import sys
import tomllib
from fnmatch import fnmatch
from gettext import GNUTranslations
from pathlib import Path

import pytest

from brisca.cards import LANGS
from brisca.locale import LOCALE_DIR, extract_tables, translated

babel = pytest.importorskip("babel", minversion="2.17")
from babel.messages.catalog import Catalog  # noqa: E402
from babel.messages.extract import extract_from_dir  # noqa: E402
from babel.messages.frontend import parse_mapping_cfg  # noqa: E402
from babel.messages.pofile import read_po  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def _po(lang: str) -> Catalog:
    with (LOCALE_DIR / lang / "LC_MESSAGES" / "brisca.po").open("rb") as fp:
        return read_po(fp, locale=lang)


def _pot() -> Catalog:
    with (LOCALE_DIR / "brisca.pot").open("rb") as fp:
        return read_po(fp)


def _fields(template: str) -> set[str]:
    return {name for _text, name, _spec, _conv in string.Formatter().parse(template) if name is not None}


def _entries(catalog: Catalog) -> set[tuple[str | None, str]]:
    return {(m.context, m.id) for m in catalog if m.id}  # type: ignore[misc]


def _extracted() -> set[tuple[str | None, str]]:
    """What ``pybabel extract -F babel.cfg ... src`` finds in the sources now."""
    with (ROOT / "babel.cfg").open() as fp:
        method_map, options_map = parse_mapping_cfg(fp)
    return {(context, message) for _file, _line, message, _comments, context
            in extract_from_dir(str(ROOT / "src"), method_map, options_map)}


def test_the_catalogs_hold_every_english_text_and_nothing_else() -> None:
    extracted = _extracted()
    # Every area: the terminal, the rule pages, the signals, the presets' titles, the web page.
    assert {context.split(":")[0] for context, _id in extracted if context} == {"terminal", "rules", "signal",
                                                                              "title", "web"}
    assert _entries(_pot()) == extracted, "run: python scripts/i18n.py update"
    for lang in LANGS:
        catalog = _po(lang)
        assert _entries(catalog) == extracted, f"{lang}: run python scripts/i18n.py update"
        assert not catalog.obsolete, lang


@pytest.mark.parametrize("lang", LANGS)
def test_every_message_is_translated_with_the_same_fields(lang: str) -> None:
    for message in _po(lang):
        if not message.id:
            continue
        where = (lang, message.context)
        assert message.string and isinstance(message.string, str), where
        assert not message.fuzzy, where
        assert _fields(message.string) == _fields(message.id), where
        # Translators' tools highlight the fields of python-brace-format messages.
        assert ("python-brace-format" in message.flags) == bool(_fields(message.id)), where
        if lang == "en":
            assert message.string == message.id, where


@pytest.mark.parametrize("lang", LANGS)
def test_the_compiled_catalogs_are_those_of_the_po_files(lang: str) -> None:
    """The package ships brisca.mo, compiled from brisca.po by ``pybabel compile`` (scripts/i18n.py update)."""
    mo = (LOCALE_DIR / lang / "LC_MESSAGES" / "brisca.mo").read_bytes()
    compiled = GNUTranslations(io.BytesIO(mo))
    _magic, _version, count = struct.unpack("<3I", mo[:12])
    messages = [m for m in _po(lang) if m.id]
    assert count == len(messages) + 1, f"{lang}: brisca.mo is stale: run python scripts/i18n.py update"  # + header
    for message in messages:
        assert compiled.pgettext(message.context, message.id) == message.string, (lang, message.context)  # type: ignore[arg-type]


def test_the_wheel_takes_the_compiled_catalogs() -> None:
    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["brisca"]
    package = ROOT / "src" / "brisca"
    for lang in LANGS:
        path = (LOCALE_DIR / lang / "LC_MESSAGES" / "brisca.mo").relative_to(package).as_posix()
        assert any(fnmatch(path, pattern) for pattern in patterns), path


def test_the_game_reads_the_catalogs_without_babel() -> None:
    """Babel is a tool of the catalogs' makers: the installed game reads them with the standard library."""
    code = ("import sys; import brisca.i18n, brisca.rulebook, brisca.server.pagetext; "
            "assert not [m for m in sys.modules if m.split('.')[0] == 'babel'], 'babel imported'")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_a_text_the_catalogs_lack_stays_english() -> None:
    texts = translated("terminal", {"plays": "{who} plays {card}.", "no-such-key": "Not translated"})
    assert texts["es"] == {"plays": "{who} juega {card}.", "no-such-key": "Not translated"}
    # A changed English text is not the catalog's msgid any more: English until its translations are checked.
    assert translated("terminal", {"plays": "{who} now plays {card}."})["it"]["plays"] == "{who} now plays {card}."


def test_the_extraction_reads_plain_strings_only() -> None:
    source = b'_EN = {"a": "A {x}", "b": ("B" " b")}\nOTHER = {"c": "C"}\nRules(variant="v", title="T")\n'
    found = list(extract_tables(io.BytesIO(source), None, None, {"tables": "_EN:terminal", "titles": "title"}))
    assert [(line, context, text) for line, _f, (context, text), _c in found] == [
        (1, "terminal:a", "A {x}"), (1, "terminal:b", "B b"), (3, "title:v", "T")]
    with pytest.raises(ValueError, match="line 1: a message must be a plain string"):
        list(extract_tables(io.BytesIO(b'_EN = {"a": f"{x}"}\n'), None, None, {"tables": "_EN:terminal"}))


def test_the_web_page_finds_every_text_it_names() -> None:
    from brisca.server.pagetext import page_strings

    static = ROOT / "src" / "brisca" / "server" / "static"
    used: set[str] = set()
    for path in static.glob("*.[jh]*"):
        text = path.read_text(encoding="utf-8")
        used |= set(re.findall(r"""\bt\(\s*["']([\w-]+)["']""", text)) | set(re.findall(r'data-t="([\w-]+)"', text))
    strings = page_strings()
    assert used and set(strings) == set(LANGS)
    for lang in LANGS:
        assert used <= set(strings[lang]), (lang, sorted(used - set(strings[lang])))
        assert set(strings[lang]) == set(strings["en"]), lang
    assert strings["it"]["sig_trump-ace"] == "asso di briscola"  # the signals' names come from the rule pages'


@pytest.mark.parametrize("lang", ["es", "it"])
def test_titles_and_levels_are_translated(lang: str) -> None:
    """A preset's title and a computer level appear on every screen of the terminal game (``Brisca: Briscola
    (italiana), 2 giocatori``, ``Giocatore 1 (esperto)``): each has its message, translated, in every catalog."""
    from brisca.agents import LEVELS
    from brisca.cli.screen import LEVEL_KEYS
    from brisca.i18n import Messages
    from brisca.rulebook import title_in
    from brisca.rules import find_variant, variant_names

    assert set(LEVEL_KEYS) == set(LEVELS), "each level of brisca play --ai needs its message level_NAME"
    catalog = {m.context: m for m in _po(lang) if m.id}
    for level in LEVEL_KEYS:
        message = catalog.get(f"terminal:level_{level}")
        assert message is not None and message.string and not message.fuzzy, (lang, level)
        assert Messages(lang)(f"level_{level}") == message.string
    for name in variant_names():
        message = catalog.get(f"title:{name}")
        assert message is not None and message.string and not message.fuzzy, (lang, name)
        assert title_in(find_variant(name), lang) == message.string
    assert Messages("it")("level_expert") == "esperto" and Messages("es")("level_hard") == "difícil"
    assert title_in(find_variant("briscola"), "it") == "Briscola (italiana)"


@pytest.mark.parametrize(
    ("env", "lang"),
    [
        ({"LANGUAGE": "it", "LANG": "es_ES.UTF-8"}, "it"),
        ({"LANGUAGE": "fr:es:it"}, "es"),  # the first language of the list that there is
        ({"LANGUAGE": "fr", "LANG": "it_IT"}, "it"),
        ({"LANGUAGE": "es_AR:en"}, "es"),
        ({"LANGUAGE": "it", "LC_ALL": "C"}, "en"),  # as gettext: the C locale ignores LANGUAGE
        ({"LANGUAGE": "it", "LANG": "C.UTF-8"}, "en"),
        ({"LANGUAGE": "", "LANG": "es_ES"}, "es"),
    ],
)
def test_the_language_list_comes_before_the_locale(env: dict[str, str], lang: str) -> None:
    from brisca.i18n import default_lang

    assert default_lang(env) == lang
