"""Look-alike keys of the accounts: no two accounts whose usernames look alike.

- ``brisca_users.lookalike``: the username's look-alike key (:func:`brisca.server.names.lookalike`, the
  confusables skeleton of Unicode TS #39), under a unique index. The accounts there already get theirs; when
  two of them look alike, the older keeps the key and the newer has none (it still logs in, and no new
  account may look like either).

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    from brisca.server.names import lookalike

    op.add_column("brisca_users", sa.Column("lookalike", sa.String(96), nullable=True))
    users = sa.table("brisca_users", sa.column("id", sa.Integer), sa.column("display", sa.String),
                     sa.column("lookalike", sa.String))
    bind = op.get_bind()
    seen: set[str] = set()
    for user_id, display in bind.execute(sa.select(users.c.id, users.c.display).order_by(users.c.id)).all():
        key = lookalike(display)
        if key in seen or len(key) > 96:
            continue
        seen.add(key)
        bind.execute(users.update().where(users.c.id == user_id).values(lookalike=key))
    op.create_index("ix_brisca_users_lookalike", "brisca_users", ["lookalike"], unique=True)


def downgrade() -> None:
    with op.batch_alter_table("brisca_users") as batch:
        batch.drop_index("ix_brisca_users_lookalike")
        batch.drop_column("lookalike")
