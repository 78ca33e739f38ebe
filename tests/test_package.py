"""What the package ships besides the code: one version everywhere, the license, the changelog, the citation."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

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
