"""The generated documentation stays in step with the rules data."""

from __future__ import annotations

from pathlib import Path

import pytest

from brisca.cards import LANGS, Lang, Rank
from brisca.rulebook import (
    NAV_BEGIN,
    NAV_END,
    RULE_PAGES,
    card_notation,
    docs_index,
    nav_yaml,
    page_path,
    rules_lines,
    rules_markdown,
    rules_text,
    title_in,
    write_docs,
    write_nav,
)
from brisca.rules import find_variant, variant_names

DOCS = Path(__file__).resolve().parent.parent / "docs"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", variant_names())
def test_variant_page_is_current(name: str, lang: Lang) -> None:
    page = DOCS / page_path(lang, name)
    assert page.exists() and page.read_text(encoding="utf-8") == rules_markdown(find_variant(name), lang), (
        f"docs/{page_path(lang, name)} is stale: run python -m brisca.rulebook docs"
    )


@pytest.mark.parametrize("lang", LANGS)
def test_index_is_current(lang: Lang) -> None:
    page = DOCS / page_path(lang)
    assert page.exists() and page.read_text(encoding="utf-8") == docs_index(lang), (
        f"docs/{page_path(lang)} is stale: run python -m brisca.rulebook docs"
    )


def test_no_rule_page_of_a_preset_gone() -> None:
    """The generated folders hold the pages of the registered presets and their index, nothing else."""
    for lang, folder in RULE_PAGES.items():
        found = {p.relative_to(DOCS).as_posix() for p in (DOCS / folder).glob("*.md")}
        expected = {page_path(lang, name) for name in variant_names()} | {page_path(lang)}
        assert found <= expected, f"not a registered preset's page: {sorted(found - expected)}"


def _links(markdown: str) -> list[str]:
    import re

    return [m.split("#", 1)[0] for m in re.findall(r"\]\(([^)]+)\)", markdown) if "://" not in m]


@pytest.mark.parametrize("lang", LANGS)
def test_the_rule_pages_link_their_versions(lang: Lang) -> None:
    """Each page links its versions in the other languages and, translated, the English page; every link
    resolves to a page of the docs folder."""
    for name in [*variant_names(), None]:
        path = page_path(lang, name)
        text = rules_markdown(find_variant(name), lang) if name else docs_index(lang)
        targets = {(DOCS / path).parent.joinpath(link).resolve() for link in _links(text)}
        versions = {(DOCS / page_path(other, name)).resolve() for other in LANGS if other != lang}
        assert versions <= targets, path
        assert all(t.is_file() for t in targets), (path, sorted(map(str, targets)))


@pytest.mark.parametrize("lang", ["es", "it"])
def test_translated_pages_speak_their_language(lang: Lang) -> None:
    rules = find_variant("spanish")
    page = rules_markdown(rules, lang)
    assert page.startswith(f"# {title_in(rules, lang)}\n")
    summary = rules_text(rules, lang).splitlines()[3:]  # the terminal's summary, under the title
    assert set(summary) - {""} <= set(page.splitlines())
    assert {"es": "## Opciones", "it": "## Opzioni"}[lang] in page and "## Options" not in page
    assert {"es": "| `10` | sota |", "it": "| `10` | fante |"}[lang] in page  # the notation, in its language
    assert "| `follow` | `\"none\"` |" in page  # option names and values as the program writes them
    assert "Readings chosen" not in page and "](../../variants/spanish.md)." in page  # the readings' link
    index = docs_index(lang)
    assert f"[{title_in(rules, lang)}](spanish.md)" in index


def test_a_new_preset_gets_its_pages_and_nav(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Writing the docs needs nothing but a registered preset: pages in every language (an untranslated title
    shows in English), the index rows, the site's navigation; its pages go when the preset does."""
    import dataclasses

    import brisca.rules

    new = dataclasses.replace(find_variant("lombard"), variant="zz-test-kept", title="Briscola (kept test ranks)")
    monkeypatch.setitem(brisca.rules._REGISTRY, new.variant, new)
    docs = tmp_path / "docs"
    written = write_docs(str(docs))
    for lang in LANGS:
        page = (docs / page_path(lang, new.variant)).read_text(encoding="utf-8")
        assert page == rules_markdown(new, lang) and "Briscola (kept test ranks)" in page
        assert f"{new.variant}.md" in (docs / page_path(lang)).read_text(encoding="utf-8")
        assert str(docs / page_path(lang, new.variant)) in written
    yml = tmp_path / "mkdocs.yml"
    yml.write_text(f"nav:\n  - Home: README.md\n{NAV_BEGIN}\n  - old: old.md\n{NAV_END}\n  - Last: last.md\n")
    write_nav(str(yml))
    text = yml.read_text(encoding="utf-8")
    assert text == f"nav:\n  - Home: README.md\n{nav_yaml()}  - Last: last.md\n"
    assert all(f": {page_path(lang, new.variant)}\n" in text for lang in LANGS)
    monkeypatch.delitem(brisca.rules._REGISTRY, new.variant)
    write_docs(str(docs))
    assert not any((docs / page_path(lang, new.variant)).exists() for lang in LANGS)
    yml.write_text("nav:\n  - Home: README.md\n")
    with pytest.raises(ValueError, match="lacks"):
        write_nav(str(yml))


@pytest.mark.parametrize("name", variant_names())
def test_every_preset_cites_sources_and_readings(name: str) -> None:
    rules = find_variant(name)
    assert rules.sources and rules.readings and rules.doc


@pytest.mark.parametrize("lang", ["es", "en", "it"])
@pytest.mark.parametrize("name", variant_names())
def test_rules_text_in_each_language(name: str, lang: str) -> None:
    rules = find_variant(name)
    lines = rules_lines(rules, lang)  # type: ignore[arg-type]
    assert len(lines) >= 10
    text = rules_text(rules, lang)  # type: ignore[arg-type]
    notation = card_notation(rules)
    assert " ".join(Rank(r).text(notation) for r in rules.strength_order()) in text
    # cards are named in the page's language, whatever the deck, and written in the deck's notation
    assert {"es": "sota", "en": "jack", "it": "fante"}[lang] in text
    assert {"es": "caballo", "en": "knight", "it": "cavallo"}[lang] in text
    if lang != "it":
        assert "fante" not in text and "cavallo" not in text
    assert ("RD" in text) is (rules.card_names == "italian")  # the Italian notation line's example


def test_languages_differ() -> None:
    rules = find_variant("spanish")
    es, en, it = (rules_text(rules, lang) for lang in ("es", "en", "it"))
    assert "triunfo" in es and "trumps" in en and "briscola" in it
    assert len({es, en, it}) == 3


def test_option_changes_show_in_text() -> None:
    base = find_variant("spanish")
    assert "follow the suit" not in rules_text(base, "en")
    assert "follow the suit led" in rules_text(base.with_options(follow="suit"), "en")
    assert "arrastro" in rules_text(base.with_options(arrastro=True), "en").lower()
    assert "500" in rules_text(find_variant("mariaje"), "en")


#: The modules of the library reference (docs/api.md), each a ``::: brisca.x`` block there.
API_MODULES = (
    "cards", "actions", "rules", "game", "game.hand", "game.ruled", "game.view", "game.results", "game.match",
    "game.deck", "record", "commitment", "errors", "agents", "arena", "analysis",
)


def _undocumented(module_name: str) -> list[str]:
    import importlib
    import inspect

    module = importlib.import_module(f"brisca.{module_name}")
    names = getattr(module, "__all__", None) or [n for n in vars(module) if not n.startswith("_")]
    missing = []
    for name in names:
        obj = getattr(module, name)
        if not (inspect.isclass(obj) or inspect.isfunction(obj)) or obj.__module__ != module.__name__:
            continue
        if not inspect.getdoc(obj):
            missing.append(f"{module_name}.{name}")
        if inspect.isclass(obj):
            for attr, value in vars(obj).items():
                if attr.startswith("_") or not (inspect.isfunction(value) or isinstance(value, property)):
                    continue
                if not inspect.getdoc(getattr(obj, attr)):
                    missing.append(f"{module_name}.{name}.{attr}")
    return missing


def test_the_library_reference_documents_every_public_name() -> None:
    """Every public class, function, method and property of the reference's modules has a docstring."""
    assert [f"::: brisca.{m}" for m in API_MODULES] == [
        line.strip() for line in (DOCS / "api.md").read_text(encoding="utf-8").splitlines() if line.startswith(":::")
    ]
    missing = [name for m in API_MODULES for name in _undocumented(m)]
    assert not missing, f"public names without a docstring: {', '.join(missing)}"


def test_the_players_page_example_plays(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/players.md's own player loads by ``module:Class`` and plays whole games in the arena."""
    import re

    from brisca.arena import run_arena

    code = re.search(r"```python\n(.*?)```", (DOCS / "players.md").read_text(encoding="utf-8"), re.S)
    assert code is not None
    (tmp_path / "mybots_doc.py").write_text(code.group(1), encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    result = run_arena(["mybots_doc:FirstCard", "random"], games=5, seed=1)
    assert result.games == 10


def test_the_site_lists_every_preset_page() -> None:
    """mkdocs.yml's navigation names every rule page in every language (the strict build refuses one left out),
    as ``python -m brisca.rulebook docs`` writes it."""
    nav = (DOCS.parent / "mkdocs.yml").read_text(encoding="utf-8")
    pages = sorted(p.relative_to(DOCS).as_posix() for d in RULE_PAGES.values() for p in (DOCS / d).glob("*.md"))
    assert len(pages) == len(LANGS) * len(variant_names()) + len(LANGS) - 1  # rules.md is the English index
    missing = [p for p in pages if f": {p}\n" not in nav]
    assert not missing, f"run python -m brisca.rulebook docs, which lists in mkdocs.yml's nav: {', '.join(missing)}"
    assert nav_yaml() in nav, "mkdocs.yml's rule pages are stale: run python -m brisca.rulebook docs"
def test_italian_presets_document_their_notation() -> None:
    briscola = find_variant("briscola")
    page = rules_markdown(briscola)
    assert "A 3 R C F 7 6 5 4 2 (ace, three, king, knight, jack," in page  # English page, English names
    assert "A 3 R C F 7 6 5 4 2 (asso, tre, re, cavallo, fante," in rules_markdown(briscola, "it")
    assert "A 3 R C F 7 6 5 4 2 (as, tres, rey, caballo, sota," in rules_markdown(briscola, "es")
    assert "| `F` | sota |" in rules_markdown(briscola, "es") and "| `S` | spade |" in rules_markdown(briscola, "it")
    assert "suits D coins, C cups, S swords, B clubs" in page
    assert "With 3 players these are removed: 2D two of coins." in page
    spanish = rules_markdown(find_variant("spanish"))
    assert "1 3 12 11 10 7 6 5 4 2 (ace, three," in spanish and "suits O coins, C cups, E swords, B clubs" in spanish
    assert "RD" not in spanish
    index = docs_index()
    assert "## Card notation" in index and "`F` fante | `C` cavallo | `R` re" in index


def test_titles_in_each_language() -> None:
    for name in variant_names():
        rules = find_variant(name)
        assert title_in(rules, "en") == rules.title
        assert rules_text(rules, "es").startswith(title_in(rules, "es") + "\n")
    assert title_in(find_variant("spanish"), "es") == "Brisca (española)"
    assert title_in(find_variant("briscola"), "it") == "Briscola (italiana)"


def test_every_preset_has_a_title_in_spanish_and_italian() -> None:
    """The catalogs translate every registered preset's title into es and it (a title left in English on a Spanish
    or Italian screen is a preset someone forgot): ``scripts/i18n.py update`` extracts them."""
    from babel.messages.pofile import read_po

    locale = Path(__file__).resolve().parent.parent / "src" / "brisca" / "locale"
    for lang in ("es", "it"):
        with (locale / lang / "LC_MESSAGES" / "brisca.po").open("rb") as f:
            titles = {m.context: m.string for m in read_po(f) if m.context and m.context.startswith("title:")}
        for name in variant_names():
            assert str(titles.get(f"title:{name}", "")).strip(), f"no {lang} title for {name}"


def test_the_exchange_readings_show_in_text() -> None:
    base = find_variant("spanish")
    announced = rules_text(base.with_options(trump_exchange="announced"), "en")
    assert "lay the trump under the face-up card" in announced and "one card fewer" in announced
    assert "on your turn or another's" in rules_text(base.with_options(trump_exchange="out_of_turn"), "en")
    assert "anunciado" in rules_text(base.with_options(trump_exchange="announced"), "es")
    assert "`trump_exchange: announced`" in " ".join(base.readings)


#: A source cited by the number of its file (``001``, ``(003: '...')``) instead of its name.
_SOURCE_NUMBER = r"(?<![\d.\w,/])(?<!\d )(00[0-4])(?![\d.\w_])"


def test_sources_are_named_once_and_cited_by_name() -> None:
    """docs/rules.md names each rule text (title and language) once; the presets, their pages, ``brisca rules``, the
    other docs and the docstrings cite them by those names, never by a file number."""
    import re

    from brisca.rulebook import SOURCES, cited_sources

    index = docs_index()
    section = index.split("## Sources\n", 1)[1].split("\n## ", 1)[0]
    for source in SOURCES.values():
        assert f"| {source.name} | {source.title} | {source.language} |" in section
        assert source.language in ("English", "Spanish", "Italian")
    for name in variant_names():
        rules = find_variant(name)
        assert cited_sources(rules), name
        for lang in LANGS:
            for text in (rules_text(rules, lang), rules_markdown(rules, lang)):
                assert not re.search(_SOURCE_NUMBER, text), (name, lang)
        assert "[the rule texts](../rules.md#sources)" in rules_markdown(rules)
    root = DOCS.parent
    paths = [*root.joinpath("src", "brisca").rglob("*.py"), root / "README.md",
             *(p for p in DOCS.rglob("*.md") if p.name not in ("strength.md", "research.md"))]
    cited = [f"{p.relative_to(root)}:{i}" for p in paths
             for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             if re.search(_SOURCE_NUMBER + r"(:|\)|'s| \(|,| and)", line)]
    assert not cited, f"sources cited by number: {cited}"


def test_the_terminal_picture_is_a_run_of_the_game() -> None:
    """docs/img/terminal-game.svg (in docs/playing.md) shows what ``scripts/terminal_picture.py`` records from the
    terminal game now: each line of the picture is a line the game prints, in order."""
    import html
    import importlib.util
    import re

    spec = importlib.util.spec_from_file_location("terminal_picture", DOCS.parent / "scripts" / "terminal_picture.py")
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    printed = [line.strip() for line in script.record_screen().export_text().splitlines()]
    svg = (DOCS / "img" / "terminal-game.svg").read_text(encoding="utf-8")
    rows: dict[float, str] = {}
    for y, text in re.findall(r'<text class="[\w-]+-r\d+" x="[\d.]+" y="([\d.]+)"[^>]*>([^<]*)</text>', svg):
        rows[float(y)] = rows.get(float(y), "") + html.unescape(text).replace("\xa0", " ")
    shown = [rows[y].strip() for y in sorted(rows)]  # (the picture places a line's leading blanks by x)
    assert [line for line in shown if line] == [line for line in printed if line], (
        "docs/img/terminal-game.svg is stale: run python scripts/terminal_picture.py")
    assert "Your move (1-3 or a card like" in shown[-1] and "![" in (DOCS / "playing.md").read_text(encoding="utf-8")
