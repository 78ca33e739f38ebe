"""A griffe extension for the docs site: doctest examples in docstrings are shown as Python sessions.

The docstrings keep plain ``>>>`` examples, which pytest runs as doctests; Markdown would read an
unindented ``>>>`` line as a quotation, so this fences each example (the prompts and the output
that follows them) as ``pycon`` before mkdocstrings renders it.
"""

from __future__ import annotations

from typing import Any

import griffe


def fence_doctests(text: str) -> str:
    """Wrap every run of unindented doctest lines (and their output, up to a blank line) in a fence."""
    out: list[str] = []
    inside = False
    for line in text.splitlines():
        if not inside and line.startswith(">>>"):
            out.append("```pycon")
            inside = True
        elif inside and not line.strip():
            out.append("```")
            inside = False
        out.append(line)
    if inside:
        out.append("```")
    return "\n".join(out)


class DoctestFences(griffe.Extension):
    """Fence the doctest examples of every docstring mkdocstrings loads."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = fence_doctests(obj.docstring.value)
