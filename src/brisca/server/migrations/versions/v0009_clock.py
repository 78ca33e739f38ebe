"""The move clock (:mod:`brisca.server.clock`).

- ``brisca_tables.clock_move``, ``clock_reserve``: the table's clock (``NULL`` for the tables already there:
  they have none); ``clock_deadline``, ``clock_action``, ``clock_seat``: when the clock of the seat to act runs
  out, at which action it was set, and that seat.
- ``brisca_seats.reserve``, ``timeouts``, ``missed``: each seat's reserve left, its time-outs in the match, and
  those in a row.

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("brisca_tables", sa.Column("clock_move", sa.Float, nullable=True))
    op.add_column("brisca_tables", sa.Column("clock_reserve", sa.Float, nullable=True))
    op.add_column("brisca_tables", sa.Column("clock_deadline", sa.Float, nullable=True))
    op.add_column("brisca_tables", sa.Column("clock_action", sa.Integer, nullable=True))
    op.add_column("brisca_tables", sa.Column("clock_seat", sa.Integer, nullable=True))
    op.add_column("brisca_seats", sa.Column("reserve", sa.Float, nullable=True))
    op.add_column("brisca_seats", sa.Column("timeouts", sa.Integer, nullable=False, server_default="0"))
    op.add_column("brisca_seats", sa.Column("missed", sa.Integer, nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("brisca_seats") as batch:
        batch.drop_column("missed")
        batch.drop_column("timeouts")
        batch.drop_column("reserve")
    with op.batch_alter_table("brisca_tables") as batch:
        batch.drop_column("clock_seat")
        batch.drop_column("clock_action")
        batch.drop_column("clock_deadline")
        batch.drop_column("clock_reserve")
        batch.drop_column("clock_move")
