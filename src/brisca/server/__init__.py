"""The web table, ``brisca serve``: one actor per table, numbered events, seat views only.

Needs the server dependencies (FastAPI, SQLAlchemy, Alembic, uvicorn, openskill).
"""

from __future__ import annotations

from brisca.server.app import create_app

__all__ = ["create_app"]
