"""The suite's groups: ``pytest`` alone runs the fast core; the groups marked here run when asked for.

The markers are registered in pyproject.toml (``[tool.pytest.ini_options] markers``). A test is in a group by its
marker (a module's ``pytestmark``, or ``@pytest.mark.slow``), and every test that opens the real browser (the
``browser`` fixture of tests/test_web_browser.py) is in ``browser``. ``pytest`` with no path and no ``-m`` leaves
the groups out; naming files (``pytest tests/test_server_cluster.py``) or a marker expression (``pytest -m
browser``, ``pytest -m ""`` for everything) runs what is named. ``.ci/run`` runs each group as a stage of its own.
"""

from __future__ import annotations

import pytest
from hypothesis import settings

#: No property test has a deadline for its examples (Hypothesis' default is 200 ms): how long an example takes is
#: the machine's business, not the property's. A test's own ``@settings`` adds to this profile.
settings.register_profile("brisca", deadline=None)
settings.load_profile("brisca")

#: The groups the README's ``pytest`` leaves to CI's stages of their own.
GROUPS = ("browser", "cluster", "training", "slow")


def _core_only(config: pytest.Config) -> bool:
    """Whether this run is the plain ``pytest``: no path named, no ``-m`` (even ``-m ""``, which asks for every
    test)."""
    args = config.invocation_params.args
    marks = any(arg == "-m" or (arg.startswith("-m") and not arg.startswith("--")) for arg in args)
    return not marks and config.args_source == pytest.Config.ArgsSource.TESTPATHS


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: object) -> None:
    """pytest-xdist: each worker learns from the command line the controller read (its own is made of paths)."""
    config = node.config  # type: ignore[attr-defined]
    node.workerinput["brisca_core_only"] = _core_only(config)  # type: ignore[attr-defined]


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.browser)
    worker = getattr(config, "workerinput", None)
    if not (worker["brisca_core_only"] if worker is not None else _core_only(config)):
        return
    keep: list[pytest.Item] = []
    left: list[pytest.Item] = []
    for item in items:
        (left if any(item.get_closest_marker(group) for group in GROUPS) else keep).append(item)
    if left:
        config.hook.pytest_deselected(items=left)
        items[:] = keep
