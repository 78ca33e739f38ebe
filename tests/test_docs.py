"""The generated documentation stays in step with the rules data."""

from __future__ import annotations

from pathlib import Path

import pytest

from brisca.cards import Rank
from brisca.rulebook import TITLES, card_notation, docs_index, rules_lines, rules_markdown, rules_text, title_in
from brisca.rules import find_variant, variant_names

DOCS = Path(__file__).resolve().parent.parent / "docs"


@pytest.mark.parametrize("name", variant_names())
def test_variant_page_is_current(name: str) -> None:
    page = DOCS / "variants" / f"{name}.md"
    assert page.read_text(encoding="utf-8") == rules_markdown(find_variant(name)), (
        f"docs/variants/{name}.md is stale: run python -m brisca.rulebook docs"
    )


def test_index_is_current() -> None:
    assert (DOCS / "rules.md").read_text(encoding="utf-8") == docs_index()


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
    "game.deck", "record", "commitment", "errors", "agents", "arena",
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
    """mkdocs.yml's navigation names every page under docs/variants (the strict build refuses one left out)."""
    nav = (DOCS.parent / "mkdocs.yml").read_text(encoding="utf-8")
    missing = [p.name for p in sorted((DOCS / "variants").glob("*.md")) if f"variants/{p.name}" not in nav]
    assert not missing, f"add to mkdocs.yml's nav: {', '.join(missing)}"


def test_italian_presets_document_their_notation() -> None:
    page = rules_markdown(find_variant("briscola"))
    assert "A 3 R C F 7 6 5 4 2 (ace, three, king, knight, jack," in page  # English section, English names
    assert "A 3 R C F 7 6 5 4 2 (asso, tre, re, cavallo, fante," in page
    assert "A 3 R C F 7 6 5 4 2 (as, tres, rey, caballo, sota," in page
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
    """TITLES names every registered preset in es and it (a title left in English on a Spanish or Italian screen
    is a preset someone forgot), and names no preset that is not registered."""
    names = set(variant_names())
    assert set(TITLES) == names, f"TITLES lacks {sorted(names - set(TITLES))}, has extra {sorted(set(TITLES) - names)}"
    for name, titles in TITLES.items():
        assert set(titles) == {"es", "it"} and all(t.strip() for t in titles.values()), name


def test_the_exchange_readings_show_in_text() -> None:
    base = find_variant("spanish")
    announced = rules_text(base.with_options(trump_exchange="announced"), "en")
    assert "lay the trump under the face-up card" in announced and "one card fewer" in announced
    assert "on your turn or another's" in rules_text(base.with_options(trump_exchange="out_of_turn"), "en")
    assert "anunciado" in rules_text(base.with_options(trump_exchange="announced"), "es")
    assert "`trump_exchange: announced`" in " ".join(base.readings)
