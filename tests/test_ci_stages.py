"""Every test runs in one of CI's stages (.ci/run): a module (or a test) that skips without an optional extra (the
README's test command installs none) is either in a group that a later stage runs (its ``pytestmark``) or named in
the stage that runs after the extras are installed. Otherwise it would skip in the core and run nowhere."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from conftest import GROUPS

ROOT = Path(__file__).resolve().parent.parent
#: The modules the extras bring (``pip install -e '.[test]'`` has none of them).
EXTRAS = {"numpy", "numba", "gymnasium", "pettingzoo", "pyspiel", "ray", "redis", "torch", "brisca.agents.kernel"}


def _extras(node: ast.AST) -> set[str]:
    """The extras asked for with ``pytest.importorskip`` in ``node``."""
    return {str(n.args[0].value) for n in ast.walk(node)
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "importorskip"
            and n.args and isinstance(n.args[0], ast.Constant) and n.args[0].value in EXTRAS}


def _skips_without_an_extra(tree: ast.Module) -> set[str]:
    """The extras a module's top level asks for with ``pytest.importorskip`` (skipping the whole module)."""
    found: set[str] = set()
    for statement in tree.body:
        if not isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            found |= _extras(statement)
    return found


def _tests_skipped_without_an_extra(tree: ast.Module) -> list[str]:
    """The module's tests that ask for an extra with ``pytest.importorskip`` (each skipping alone)."""
    return [s.name for s in tree.body if isinstance(s, ast.FunctionDef) and s.name.startswith("test")
            and _extras(s)]


def _groups(tree: ast.Module) -> set[str]:
    """The groups of a module's ``pytestmark = pytest.mark.GROUP``."""
    marks: set[str] = set()
    for statement in tree.body:
        if (isinstance(statement, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "pytestmark"
                                                      for t in statement.targets)):
            for node in ast.walk(statement.value):
                if isinstance(node, ast.Attribute) and node.attr in GROUPS:
                    marks.add(node.attr)
    return marks


def test_every_module_that_needs_an_extra_runs_in_a_stage() -> None:
    ci = (ROOT / ".ci" / "run").read_text()
    nowhere = []
    checked = 0
    for path in sorted((ROOT / "tests").glob("test_*.py")):
        tree = ast.parse(path.read_text(), str(path))
        whole = re.search(rf"tests/{re.escape(path.name)}(?![:\w])", ci) is not None  # (not one of its tests)
        if _groups(tree) or whole:
            continue
        if _skips_without_an_extra(tree):
            checked += 1
            nowhere.append(path.name)
        for name in _tests_skipped_without_an_extra(tree):
            checked += 1
            if f"tests/{path.name}::{name}" not in ci:
                nowhere.append(f"{path.name}::{name}")
    assert checked >= 3  # the core's tests of the redis client, the training command's...
    assert nowhere == [], f"these skip in the core and run in no later stage of .ci/run: {nowhere}"


def test_the_check_finds_a_module_skipped_without_an_extra() -> None:
    tree = ast.parse("import pytest\nnp = pytest.importorskip('numpy')\n\ndef test_x():\n"
                     "    pytest.importorskip('ray')\n")
    assert _skips_without_an_extra(tree) == {"numpy"}  # (the one inside a test skips that test alone)
    assert _tests_skipped_without_an_extra(tree) == ["test_x"]
    assert _groups(ast.parse("import pytest\npytestmark = pytest.mark.training\n")) == {"training"}
