"""Analyses of finished games: ``brisca_analyses``, one row a game whose analysis was asked for.

``status`` is ``queued`` until the background worker writes ``result`` (the analysis as JSON, ``done``) or why
it could not (``failed``); the site bounds how many are queued at once by counting them.

Revision ID: 0005
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "brisca_analyses",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("brisca_games.table_id"), primary_key=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("result", sa.Text, nullable=True),
        sa.Column("requested_at", sa.DateTime, nullable=False),
        sa.Column("finished_at", sa.DateTime, nullable=True),
    )
    op.create_index("ix_brisca_analyses_status", "brisca_analyses", ["status"])


def downgrade() -> None:
    op.drop_index("ix_brisca_analyses_status", "brisca_analyses")
    op.drop_table("brisca_analyses")
