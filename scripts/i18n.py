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

from babel.messages.frontend import CommandLineInterface
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
LOCALE = ROOT / "src" / "brisca" / "locale"
POT = LOCALE / "brisca.pot"
LANGS = ("es", "en", "it")
#: Wrapping of the .po files, as pybabel writes them.
WIDTH = 76


def pybabel(*args: str) -> None:
    CommandLineInterface().run(["pybabel", "-q", *args])


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
    with po_path("en").open("rb") as fp:
        catalog = read_po(fp, locale="en")
    for message in catalog:
        if message.id:
            message.string = message.id
            message.flags.discard("fuzzy")
            message.previous_id = []
    _write(catalog, po_path("en"))


def _write(catalog: object, path: Path) -> None:
    out = io.BytesIO()
    write_po(out, catalog, width=WIDTH, include_previous=True)  # type: ignore[arg-type]
    path.write_bytes(out.getvalue())


def update() -> None:
    extract()
    pybabel("update", "-i", str(POT), "-d", str(LOCALE), "-D", "brisca", "--previous", "--ignore-obsolete",
            "--ignore-pot-creation-date")
    fill_english()
    pybabel("compile", "-d", str(LOCALE), "-D", "brisca", "--statistics")


def import_dicts(source: Path, area: str = "terminal") -> None:
    """Translations from dict literals ``_ES`` and ``_IT`` (key -> text) of ``source``, for ``AREA:KEY`` entries
    that are untranslated or fuzzy; the fields of each must match the English text."""
    tables: dict[str, dict[str, str]] = {}
    for node in ast.parse(source.read_text(encoding="utf-8")).body:
        target = node.target if isinstance(node, ast.AnnAssign) else node.targets[0] if isinstance(node, ast.Assign) \
            else None
        if isinstance(target, ast.Name) and target.id in ("_ES", "_IT") and node.value is not None:  # type: ignore[union-attr]
            tables[target.id[1:].lower()] = ast.literal_eval(node.value)  # type: ignore[union-attr]
    for lang, table in tables.items():
        with po_path(lang).open("rb") as fp:
            catalog = read_po(fp, locale=lang)
        taken = 0
        for message in catalog:
            key = (message.context or "").removeprefix(f"{area}:")
            if message.id and key in table and (not message.string or message.fuzzy):
                if _fields(table[key]) != _fields(message.id):
                    print(f"{lang}: {key}: the fields differ from the English text's, not taken", file=sys.stderr)
                    continue
                message.string = table[key]
                message.flags.discard("fuzzy")
                message.previous_id = []
                taken += 1
        _write(catalog, po_path(lang))
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
