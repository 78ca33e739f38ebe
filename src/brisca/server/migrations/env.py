"""Alembic environment: run with the connection that :func:`brisca.server.db.upgrade` passes in."""

from __future__ import annotations

from alembic import context


def run_migrations() -> None:
    connection = context.config.attributes["connection"]
    context.configure(connection=connection, target_metadata=None)
    with context.begin_transaction():
        context.run_migrations()


# Alembic runs this file with its context set up; any other import (doctest collection) does nothing.
if hasattr(context, "config"):
    run_migrations()
