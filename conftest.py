"""Collection for the whole tree (``pytest`` also collects the package's doctests, ``--doctest-modules``).

The trainer's modules need numpy (the ``fast``, ``rl`` or ``learn`` extra) as they are imported: on a plain
``.[test]`` install there is nothing of them to collect, and their tests (tests/test_learn.py) skip.
"""

from __future__ import annotations

import importlib.util

collect_ignore_glob = [] if importlib.util.find_spec("numpy") else ["src/brisca/learn/*.py"]
