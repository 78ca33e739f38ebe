"""Look-alike keys again, now that small letters drawn as Latin small capitals count (``вот`` looks like ``bot``).

- ``brisca_users.lookalike`` is computed anew for every account (:func:`brisca.server.names.lookalike`): when
  two accounts now look alike, the older keeps the key and the newer has none (it still logs in, and no new
  account may look like either), as when the keys were first made.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
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
    # Cleared first, then written: a key may move from one account to another under the unique index.
    for user_id, _key in changed:
        bind.execute(users.update().where(users.c.id == user_id).values(lookalike=None))
    for user_id, new in changed:
        if new is not None:
            bind.execute(users.update().where(users.c.id == user_id).values(lookalike=new))


def downgrade() -> None:
    """The keys stay as they are: the looser ones of 0004 would only let more look-alikes in."""
