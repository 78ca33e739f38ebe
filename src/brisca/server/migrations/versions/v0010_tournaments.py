"""Tournaments (:mod:`brisca.server.tournaments`).

- ``brisca_tournaments``: a tournament, its settings, its status and the round it plays (the row whose update
  pairs the next round, once).
- ``brisca_entrants``: the people in it (their token's hash), numbered at the start.
- ``brisca_tournament_tables``: each round's tables, the entrant at each seat, and their results.
- ``brisca_tables.unrated``: a table never rated (a tournament's that is not rated).

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("brisca_tables", sa.Column("unrated", sa.Boolean, nullable=False, server_default=sa.false()))
    op.create_table(
        "brisca_tournaments",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("preset", sa.String(64), nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("rounds", sa.Integer, nullable=False),
        sa.Column("clock_move", sa.Float, nullable=False),
        sa.Column("clock_reserve", sa.Float, nullable=False),
        sa.Column("bot_delay", sa.Float, nullable=False),
        sa.Column("bot", sa.String(16), nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("start", sa.String(16), nullable=False),
        sa.Column("max_entrants", sa.Integer, nullable=False),
        sa.Column("owner", sa.String(80), nullable=False, index=True),
        sa.Column("status", sa.String(16), nullable=False, index=True),
        sa.Column("system", sa.String(16), nullable=True),
        sa.Column("total_rounds", sa.Integer, nullable=True),
        sa.Column("round", sa.Integer, nullable=False, server_default="0"),
        sa.Column("created_at", sa.DateTime, nullable=False),
        sa.Column("started_at", sa.DateTime, nullable=True),
        sa.Column("finished_at", sa.DateTime, nullable=True),
    )
    op.create_table(
        "brisca_entrants",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("tournament_id", sa.String(32), sa.ForeignKey("brisca_tournaments.id"), nullable=False,
                  index=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("user_id", sa.Integer, nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("number", sa.Integer, nullable=True),
        sa.Column("joined_at", sa.DateTime, nullable=False),
        sa.UniqueConstraint("tournament_id", "name", name="uq_brisca_entrants_name"),
        sa.UniqueConstraint("tournament_id", "user_id", name="uq_brisca_entrants_user"),
    )
    op.create_table(
        "brisca_tournament_tables",
        sa.Column("tournament_id", sa.String(32), sa.ForeignKey("brisca_tournaments.id"), primary_key=True),
        sa.Column("round", sa.Integer, primary_key=True),
        sa.Column("board", sa.Integer, primary_key=True),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("brisca_tables.id"), nullable=False, unique=True),
        sa.Column("seats", sa.JSON, nullable=False),
        sa.Column("finished", sa.Boolean, nullable=True),
        sa.Column("winner", sa.Integer, nullable=True),
        sa.Column("points", sa.JSON, nullable=True),
    )


def downgrade() -> None:
    op.drop_table("brisca_tournament_tables")
    op.drop_table("brisca_entrants")
    op.drop_table("brisca_tournaments")
    with op.batch_alter_table("brisca_tables") as batch:
        batch.drop_column("unrated")
