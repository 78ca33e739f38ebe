"""The initial schema: tables, seats, hands (decks), actions, finished games, ratings.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "brisca_tables",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("preset", sa.String(64), nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("bot_delay", sa.Float, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
    )
    op.create_table(
        "brisca_seats",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("brisca_tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("bot", sa.String(32), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=True),
    )
    op.create_table(
        "brisca_hands",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("brisca_tables.id"), primary_key=True),
        sa.Column("hand_number", sa.Integer, primary_key=True),
        sa.Column("deck", sa.JSON, nullable=False),
    )
    op.create_table(
        "brisca_actions",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("brisca_tables.id"), nullable=False, index=True),
        sa.Column("action_number", sa.Integer, nullable=False),
        sa.Column("hand_number", sa.Integer, nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("action", sa.JSON, nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
        sa.UniqueConstraint("table_id", "action_number", name="uq_brisca_actions_number"),
    )
    op.create_table(
        "brisca_games",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("brisca_tables.id"), primary_key=True),
        sa.Column("preset", sa.String(64), nullable=False, index=True),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("names", sa.JSON, nullable=False),
        sa.Column("winner", sa.Integer, nullable=True),
        sa.Column("record", sa.Text, nullable=False),
        sa.Column("finished_at", sa.DateTime, nullable=False),
    )
    op.create_table(
        "brisca_ratings",
        sa.Column("preset", sa.String(64), primary_key=True),
        sa.Column("name", sa.String(64), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
    )


def downgrade() -> None:
    for name in ("brisca_ratings", "brisca_games", "brisca_actions", "brisca_hands", "brisca_seats", "brisca_tables"):
        op.drop_table(name)
