"""Keep the gettext catalogs (src/brisca/locale) in step with the English texts, with Babel (docs/translating.md).

    python scripts/i18n.py update       extract brisca.pot, update the three brisca.po, fill the English catalog
                                        (msgstr = msgid), compile the brisca.mo files
    python scripts/i18n.py import FILE  take the Spanish and Italian terminal messages a version of
                                        src/brisca/i18n.py with _ES and _IT dictionaries still holds, for the
                                        entries the catalogs leave untranslated or fuzzy; then run update again

Needs Babel (the ``test`` extra). ``update`` runs the pybabel commands docs/translating.md lists; it keeps
brisca.pot unchanged when only its creation date would change, so that branches do not clash on it.
"""

from __future__ import annotations

import argparse
import ast
import io
import string
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.frontend import CommandLineInterface
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
LOCALE = ROOT / "src" / "brisca" / "locale"
POT = LOCALE / "brisca.pot"
LANGS = ("es", "en", "it")
#: Wrapping of the .po files, as pybabel writes them.
WIDTH = 76


def pybabel(*args: str) -> None:
    CommandLineInterface().run(["pybabel", "-q", *args])  # type: ignore[no-untyped-call]


def po_path(lang: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / "brisca.po"


def _without_date(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if not line.startswith('"POT-Creation-Date:'))


def extract() -> None:
    old = POT.read_text(encoding="utf-8") if POT.exists() else ""
    pybabel("extract", "-F", str(ROOT / "babel.cfg"), "--no-location", "--project", "brisca",
            "--copyright-holder", "The brisca developers", "-o", str(POT), str(ROOT / "src"))
    if old and _without_date(old) == _without_date(POT.read_text(encoding="utf-8")):
        POT.write_text(old, encoding="utf-8")


def fill_english() -> None:
    """The English catalog translates each text to itself."""
    catalog = _read("en")
    for message in catalog:
        if message.id:
            message.string = message.id
            message.flags.discard("fuzzy")
    _write(catalog, "en")


def _read(lang: str) -> Catalog:
    with po_path(lang).open("rb") as fp:
        return read_po(fp, locale=lang)


def _write(catalog: Catalog, lang: str) -> None:
    out = io.BytesIO()
    write_po(out, catalog, width=WIDTH)
    po_path(lang).write_bytes(out.getvalue())


def update() -> None:
    extract()
    pybabel("update", "-i", str(POT), "-d", str(LOCALE), "-D", "brisca", "--ignore-obsolete",
            "--ignore-pot-creation-date")
    fill_english()
    pybabel("compile", "-d", str(LOCALE), "-D", "brisca", "--statistics")


def import_dicts(source: Path, area: str = "terminal") -> None:
    """Translations from dict literals ``_ES`` and ``_IT`` (key -> text) of ``source``, for ``AREA:KEY`` entries
    that are untranslated or fuzzy, when their fields are the English text's."""
    tables: dict[str, dict[str, str]] = {}
    for node in ast.parse(source.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
            target = node.targets[0] if isinstance(node, ast.Assign) else node.target
            if isinstance(target, ast.Name) and target.id in ("_ES", "_IT"):
                tables[target.id[1:].lower()] = ast.literal_eval(node.value)
    for lang, table in tables.items():
        catalog = _read(lang)
        taken = 0
        for message in catalog:
            key = (message.context or "").removeprefix(f"{area}:")
            if not (message.id and key in table and (not message.string or message.fuzzy)):
                continue
            if _fields(table[key]) != _fields(str(message.id)):
                print(f"{lang}: {key}: not taken, its fields are not the English text's", file=sys.stderr)
                continue
            message.string = table[key]
            message.flags.discard("fuzzy")
            taken += 1
        _write(catalog, lang)
        print(f"{lang}: {taken} translations taken from {source}")


def _fields(template: str) -> set[str]:
    return {name for _text, name, _spec, _conv in string.Formatter().parse(template) if name is not None}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("update", help="extract, update, fill English, compile")
    imp = sub.add_parser("import", help="translations from the _ES and _IT dictionaries of an older i18n.py")
    imp.add_argument("file", type=Path)
    imp.add_argument("--area", default="terminal", help="the context's area of the dictionaries' keys")
    args = parser.parse_args(argv)
    # The extraction method (brisca.locale.extract_tables) comes from this checkout's sources.
    sys.path.insert(0, str(ROOT / "src"))
    if args.command == "update":
        update()
    else:
        import_dicts(args.file, args.area)
    return 0


if __name__ == "__main__":
    sys.exit(main())
