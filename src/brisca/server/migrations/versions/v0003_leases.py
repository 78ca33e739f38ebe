"""Table leases: which process runs each table when several serve one site (``brisca serve --redis``).

- ``brisca_leases``: one row a table that a process runs: the process (``owner``), an ``epoch`` raised each
  time the table changes hands (every write checks it: a process that lost a table cannot write to it), and
  ``expires_at``, renewed while the process runs (after it, another process may take the table over).
- ``brisca_tables.status`` is indexed: the lobby and the look for tables without an owner select by it.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "brisca_leases",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("owner", sa.String(64), nullable=False),
        sa.Column("epoch", sa.Integer, nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_brisca_leases_owner", "brisca_leases", ["owner"])
    op.create_index("ix_brisca_tables_status", "brisca_tables", ["status"])


def downgrade() -> None:
    op.drop_index("ix_brisca_tables_status", "brisca_tables")
    op.drop_index("ix_brisca_leases_owner", "brisca_leases")
    op.drop_table("brisca_leases")
