"""A fair table: deal commitments, accounts and their sessions, table owners and activity.

- ``brisca_hands``: the salt and the SHA-256 commitment published when the hand was dealt.
- ``brisca_tables``: ``seeded`` (a practice table whose deals come from a seed the client chose),
  ``owner`` (who opened it: ``user:<id>`` or ``guest:<address>``, for the caps on open tables) and
  ``last_active`` (the last change, for closing idle tables).
- ``brisca_seats``: ``user_id``, the account that holds the seat (none: a guest or a bot).
- ``brisca_users`` and ``brisca_sessions``: accounts (Argon2 password hashes) and their login sessions.
- Ratings belonged to free-text names that anyone could type; only bots' ratings are kept, the rest are
  removed (from now on people are rated by their accounts).

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "brisca_users",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("username", sa.String(32), nullable=False, unique=True),
        sa.Column("display", sa.String(32), nullable=False),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
    )
    op.create_table(
        "brisca_sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("brisca_users.id"), nullable=False, index=True),
        sa.Column("csrf", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
        sa.Column("expires_at", sa.DateTime, nullable=False),
    )
    # Plain ADD COLUMN (SQLite too): a batch copy of a table would break the foreign keys pointing at it.
    op.add_column("brisca_tables", sa.Column("seeded", sa.Boolean, nullable=False, server_default=sa.false()))
    op.add_column("brisca_tables", sa.Column("owner", sa.String(80), nullable=True))
    op.add_column("brisca_tables", sa.Column("last_active", sa.DateTime, nullable=True))
    op.create_index("ix_brisca_tables_owner", "brisca_tables", ["owner"])
    op.add_column("brisca_hands", sa.Column("salt", sa.String(64), nullable=True))
    op.add_column("brisca_hands", sa.Column("commitment", sa.String(64), nullable=True))
    op.add_column("brisca_seats", sa.Column("user_id", sa.Integer, nullable=True))
    op.create_index("ix_brisca_seats_user_id", "brisca_seats", ["user_id"])
    op.execute("DELETE FROM brisca_ratings WHERE name NOT LIKE 'bot:%'")


def downgrade() -> None:
    op.drop_index("ix_brisca_seats_user_id", "brisca_seats")
    op.drop_column("brisca_seats", "user_id")
    op.drop_column("brisca_hands", "commitment")
    op.drop_column("brisca_hands", "salt")
    op.drop_index("ix_brisca_tables_owner", "brisca_tables")
    for column in ("last_active", "owner", "seeded"):
        op.drop_column("brisca_tables", column)
    op.drop_table("brisca_sessions")
    op.drop_table("brisca_users")
