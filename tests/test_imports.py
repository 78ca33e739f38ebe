"""The import graph: the contracts of pyproject.toml (layers, the engine free of interfaces, no cycle in a package),
and no cycle among the project's modules, imports inside functions included."""

from __future__ import annotations

import itertools
from pathlib import Path

import grimp
import pytest
from importlinter.api import read_configuration
from importlinter.application.use_cases import lint_imports

ROOT = Path(__file__).resolve().parent.parent


def cycles(graph: grimp.ImportGraph) -> list[tuple[list[str], list[str]]]:
    """For each knot of modules that import each other (a strongly connected group), one shortest cycle through it
    and its modules; none where the graph is a DAG."""
    modules = sorted(graph.modules)
    edges = {m: sorted(graph.find_modules_directly_imported_by(m)) for m in modules}
    # Tarjan's strongly connected components, iteratively (a deep package must not hit the recursion limit).
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[set[str]] = []
    for start in modules:
        if start in index:
            continue
        work = [(start, 0)]
        while work:
            node, i = work.pop()
            if i == 0:
                index[node] = low[node] = len(index)
                stack.append(node)
                on_stack.add(node)
            if i < len(edges[node]):
                work.append((node, i + 1))
                nxt = edges[node][i]
                if nxt not in index:
                    work.append((nxt, 0))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            if low[node] == index[node]:
                group = set()
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    group.add(top)
                    if top == node:
                        break
                if len(group) > 1:
                    groups.append(group)
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
    found = []
    for group in groups:
        first = min(group)
        # The shortest way back to ``first`` inside its group, breadth first.
        came: dict[str, str] = {}
        frontier = [first]
        while frontier and first not in came:
            following = []
            for node in frontier:
                for nxt in edges[node]:
                    if nxt in group and nxt not in came:
                        came[nxt] = node
                        following.append(nxt)
            frontier = following
        path = [first]
        while len(path) == 1 or path[-1] != first:
            path.append(came[path[-1]])
        found.append((path[::-1], sorted(group)))
    return found


def describe(graph: grimp.ImportGraph, cycle: list[str]) -> str:
    """``a -> b (l.12) -> a (l.40)``: each import of the cycle, with the lines that make it."""
    parts = [cycle[0]]
    for importer, imported in itertools.pairwise(cycle):
        details = graph.get_import_details(importer=importer, imported=imported)
        lines = ", ".join(f"l.{d['line_number']}" for d in details)
        parts.append(f"{imported} ({lines})")
    return " -> ".join(parts)


def test_no_import_cycle_among_the_modules() -> None:
    graph = grimp.build_graph("brisca")
    assert {"brisca.agents.search", "brisca.rules", "brisca.server.app"} <= graph.modules  # the package was found
    found = cycles(graph)
    assert not found, "import cycles:\n" + "\n".join(
        f"{describe(graph, cycle)}\n  (in a knot of {len(knot)} modules: {', '.join(knot)})" for cycle, knot in found)


def test_the_cycle_finder_finds_and_prints_a_cycle() -> None:
    """The check above could fail: a ring of three modules (one import inside a function) and a tail are found."""
    graph = grimp.ImportGraph()
    graph.add_import(importer="p.a", imported="p.b", line_number=3, line_contents="from p.b import x")
    graph.add_import(importer="p.b", imported="p.c", line_number=5, line_contents="from p.c import y")
    graph.add_import(importer="p.c", imported="p.a", line_number=40, line_contents="from p.a import z")
    graph.add_import(importer="p.c", imported="p.d", line_number=6, line_contents="import p.d")
    graph.add_import(importer="p.e", imported="p.e2", line_number=1, line_contents="import p.e2")
    assert cycles(graph) == [(["p.a", "p.b", "p.c", "p.a"], ["p.a", "p.b", "p.c"])]
    assert describe(graph, ["p.a", "p.b", "p.c", "p.a"]) == "p.a -> p.b (l.3) -> p.c (l.5) -> p.a (l.40)"


def test_the_import_contracts_hold(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """The contracts of pyproject.toml's [tool.importlinter], checked on the brisca these tests import (grimp finds
    the package where Python does)."""
    config = str(ROOT / "pyproject.toml")
    contracts = len(read_configuration(config)["contracts_options"])
    assert contracts >= 5
    monkeypatch.chdir(ROOT)
    kept = lint_imports(config, cache_dir=None, no_logo=True)
    out = capsys.readouterr().out
    assert kept, out
    assert f"{contracts} kept, 0 broken" in out, out
