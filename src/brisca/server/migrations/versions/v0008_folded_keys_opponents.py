"""Look-alike keys of every case of a name (``ADMIN`` is ``admin``), and the opponents a rating was earned against.

- ``brisca_users.lookalike`` is computed anew for every account (:func:`brisca.server.names.lookalike` now folds
  case before the skeleton and reads ``i`` as ``l``): when two accounts now look alike, the older keeps the key
  and the newer has none (it still logs in, and no new account may look like either), as in 0006.
- ``brisca_ratings.opponents``: the distinct opponents (rating keys) an account's rated matches of a preset were
  played against, as many as a rating needs to be established (:mod:`brisca.server.ratings`); empty for the
  ratings made before, which count as having met none.
- ``brisca_tables.closed_reason``: why a closed table closed, shown to whoever opens it afterwards.

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def _keys_again() -> None:
    from brisca.server.names import lookalike

    users = sa.table("brisca_users", sa.column("id", sa.Integer), sa.column("display", sa.String),
                     sa.column("lookalike", sa.String))
    bind = op.get_bind()
    rows = bind.execute(sa.select(users.c.id, users.c.display, users.c.lookalike).order_by(users.c.id)).all()
    keys: dict[int, str | None] = {}
    seen: set[str] = set()
    for user_id, display, _old in rows:
        key = lookalike(display)
        keys[user_id] = None if key in seen or len(key) > 96 else key
        if keys[user_id] is not None:
            seen.add(key)
    changed = [(user_id, keys[user_id]) for user_id, _display, old in rows if keys[user_id] != old]
    for user_id, _key in changed:  # cleared first: a key may move from one account to another
        bind.execute(users.update().where(users.c.id == user_id).values(lookalike=None))
    for user_id, new in changed:
        if new is not None:
            bind.execute(users.update().where(users.c.id == user_id).values(lookalike=new))


def upgrade() -> None:
    _keys_again()
    op.add_column("brisca_ratings", sa.Column("opponents", sa.JSON, nullable=True))
    op.add_column("brisca_tables", sa.Column("closed_reason", sa.String(200), nullable=True))


def downgrade() -> None:
    """The keys stay as they are; the opponents and the closing reasons go."""
    with op.batch_alter_table("brisca_ratings") as batch:
        batch.drop_column("opponents")
    with op.batch_alter_table("brisca_tables") as batch:
        batch.drop_column("closed_reason")
