"""The web table, ``brisca serve``: one actor per table, numbered events, seat views only.

Needs the ``web`` extra (FastAPI, SQLAlchemy, Alembic, uvicorn, openskill): ``pip install 'brisca[web]'``.
The package itself imports none of them, so that its light modules (:mod:`brisca.server.limits`) and the
``brisca`` command's options load in a core install.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from brisca.server.app import create_app

__all__ = ["create_app", "missing_web_extra"]

#: What the web table needs beyond the core install, by import name.
WEB_MODULES = ("fastapi", "uvicorn", "sqlalchemy", "alembic", "openskill", "argon2", "platformdirs", "websockets",
               "confusable_homoglyphs")


def missing_web_extra() -> list[str]:
    """The web table's dependencies that cannot be imported here (empty when ``brisca[web]`` is installed)."""
    import importlib.util

    return [name for name in WEB_MODULES if importlib.util.find_spec(name) is None]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from brisca.server.app import create_app

        return create_app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
