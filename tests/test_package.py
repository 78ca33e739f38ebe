"""What the package ships besides the code: one version everywhere, the license, the changelog, the citation."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import brisca

ROOT = Path(__file__).resolve().parent.parent


def test_the_version_is_written_once() -> None:
    """The package takes its version from ``brisca.__version__``; ``brisca --version`` prints it, and
    CITATION.cff names it."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "brisca.__version__"}
    assert re.fullmatch(r"\d+\.\d+\.\d+", brisca.__version__)
    out = subprocess.run([sys.executable, "-m", "brisca", "--version"], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == f"brisca {brisca.__version__}"
    citation = (ROOT / "CITATION.cff").read_text(encoding="utf-8")
    assert f'\nversion: "{brisca.__version__}"\n' in citation
    assert citation.startswith("cff-version: 1.2.0\n") and "\nlicense: MIT\n" in citation


def test_the_license_is_the_one_the_package_declares() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["license"] == "MIT" and project["license-files"] == ["LICENSE"]
    assert (ROOT / "LICENSE").read_text(encoding="utf-8").startswith("MIT License\n")


def test_the_changelog_keeps_a_changelog() -> None:
    """Keep a Changelog: an "Unreleased" section, then one per version, newest first, each with its date; change
    types from the format's list (and the performance history of the web table)."""
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    versions = re.findall(r"^## \[([^\]]+)\](.*)$", text, re.MULTILINE)
    assert versions and versions[0][0] == "Unreleased"
    for version, rest in versions[1:]:
        assert re.fullmatch(r"\d+\.\d+\.\d+", version) and re.fullmatch(r" - \d{4}-\d{2}-\d{2}", rest), version
    kinds = set(re.findall(r"^### (.+)$", text, re.MULTILINE))
    assert kinds <= {"Added", "Changed", "Deprecated", "Removed", "Fixed", "Security", "Performance of the web table"}
    for name in ("CHANGELOG.md", "CONTRIBUTING.md", "CITATION.cff", "LICENSE"):
        assert f"]({name})" in (ROOT / "README.md").read_text(encoding="utf-8"), name


def _project() -> dict[str, Any]:
    project: dict[str, Any] = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return project


def test_the_metadata_names_its_addresses_and_the_pythons_tested() -> None:
    """PyPI's page links the home, the docs, the source and the changelog; the classifiers list the Python versions
    from ``requires-python``'s lowest on (those CI tests), no other."""
    project = _project()
    assert set(project["urls"]) == {"Homepage", "Documentation", "Source", "Changelog"}
    assert all(url.startswith("https://") for url in project["urls"].values())
    assert project["urls"]["Changelog"].endswith("/CHANGELOG.md")
    lowest = re.fullmatch(r">=3\.(\d+)", project["requires-python"])
    assert lowest is not None
    minors = {int(c.rpartition(".")[2]) for c in project["classifiers"]
              if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c)}
    assert minors and min(minors) == int(lowest[1])
    assert any(c.startswith("Development Status :: ") for c in project["classifiers"])
    assert any(c.startswith("Intended Audience :: ") for c in project["classifiers"])
    manifest = (ROOT / "MANIFEST.in").read_text(encoding="utf-8")  # the sdist's extra files (.ci/package checks it)
    assert "CHANGELOG.md CITATION.cff" in manifest and "graft docs" in manifest


def test_the_learn_extra_takes_a_cpu_wheel_of_the_torch_measured() -> None:
    """A range, not a pin; its top is the version the trainer was measured with, so that pip, which prefers the
    newest it finds, takes 2.13.0's CPU wheel (2.13.0+cpu) where one is found, not a newer CUDA build."""
    from packaging.requirements import Requirement

    torch = [Requirement(r) for r in _project()["optional-dependencies"]["learn"] if r.startswith("torch")]
    assert len(torch) == 1
    spec = torch[0].specifier
    assert not any(s.operator in ("==", "===") for s in spec)
    assert spec.contains("2.13.0+cpu") and spec.contains("2.4.0")
    assert not spec.contains("2.13.1") and not spec.contains("2.14.0")
