"""Accounts of the web table: usernames, passwords (Argon2) and login sessions.

A username is 3 to 24 letters, digits, ``_``, ``-`` and ``.``; two usernames that differ only in case or
in Unicode compatibility forms are the same account (NFKC, then case folding: ``Ana`` and ``ａｎａ`` are
``ana``), and that normalised form is what ratings are keyed by. Two usernames that look alike are one too:
a username whose look-alike key (:func:`brisca.server.names.lookalike`: ``сора`` (Cyrillic) and ``copa``)
is an account's is taken. Names a reader could mistake for the server's own or a bot's are reserved in every
look-alike spelling (:func:`brisca.server.names.reserved_name`): ``bot`` followed by anything but a letter
(bots are rated as ``bot:<level>``), the bots' levels (``normal``, ``expert``...), ``guest``, ``admin``,
``system``, ``spectator``.

>>> normalize("Ａｎａ.María")
'ana.maría'
>>> check_username("bot_1")
Traceback (most recent call last):
...
brisca.server.accounts.AccountError: the username bot_1 is reserved (it looks like a bot's or the server's name)
>>> check_username("botella")
'botella'

A password is 8 to 256 characters, kept as an Argon2id hash (rehashed at login when the parameters
change). A login session is a random cookie value, stored as its SHA-256, with its own CSRF token; it
lasts :data:`SESSION_DAYS` days. Argon2 is slow on purpose: the server calls :meth:`Accounts.signup`,
:meth:`Accounts.login` and :meth:`Accounts.change_password` off the event loop.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import unicodedata
from dataclasses import dataclass
from datetime import datetime, timedelta

import sqlalchemy as sa
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from brisca.server.db import SessionRow, UserRow, _now
from brisca.server.devices import device_account, device_matches, device_token
from brisca.server.names import BLANKS, lookalike, reserved_name

#: How long a login lasts.
SESSION_DAYS = 30
USERNAME_MIN, USERNAME_MAX = 3, 24
PASSWORD_MIN, PASSWORD_MAX = 8, 256
#: The longest look-alike key stored (a letter's prototype may be several letters: ``m`` is ``rn``).
LOOKALIKE_MAX = 96
_PUNCTUATION = frozenset("_-.")
#: The one message for an unknown username and a wrong password (which usernames exist is not told).
BAD_LOGIN = "wrong username or password"


#: One hash of a random password for each set of Argon2 parameters in this process (:func:`_dummy_hash`).
_DUMMIES: dict[tuple[object, ...], str] = {}


def _dummy_hash(hasher: PasswordHasher) -> str:
    """A hash made with ``hasher``'s parameters, verified against when a username is unknown, so that a miss
    takes as long as a wrong password. Made once a process and parameter set: each is an Argon2 hash (about 0.2 s
    of two cores at the defaults), and a process may open its accounts more than once."""
    key = (hasher.time_cost, hasher.memory_cost, hasher.parallelism, hasher.hash_len, hasher.salt_len,
           hasher.type)
    if key not in _DUMMIES:
        _DUMMIES[key] = hasher.hash(secrets.token_urlsafe(16))
    return _DUMMIES[key]


class AccountError(ValueError):
    """A refused username, password or login; its message is shown to the person."""


@dataclass(frozen=True)
class User:
    id: int
    #: Normalised: unique, the key of the account's ratings and of its page.
    username: str
    #: As typed at sign-up (NFKC): shown at tables and on the leaderboard.
    display: str


@dataclass(frozen=True)
class LoginSession:
    user: User
    #: The token the page must send in ``X-CSRF-Token`` with every change.
    csrf: str
    expires_at: datetime


def normalize(name: str) -> str:
    """The form two names are compared in: NFKC, case folded, stripped."""
    return unicodedata.normalize("NFKC", name).casefold().strip()


def _script(char: str) -> str:
    """The first word of a letter's Unicode name: LATIN, CYRILLIC, GREEK, ..."""
    return unicodedata.name(char, "?").split(" ", 1)[0]


def check_username(username: object) -> str:
    """The username as it will be shown (NFKC, stripped), or :class:`AccountError` saying what is wrong."""
    if not isinstance(username, str):
        raise AccountError("the username is a string")
    display = unicodedata.normalize("NFKC", username).strip()
    if not USERNAME_MIN <= len(display) <= USERNAME_MAX:
        raise AccountError(f"a username is {USERNAME_MIN} to {USERNAME_MAX} characters")
    for char in display:
        if char in BLANKS or not (char.isalpha() or (char.isascii() and char.isdigit()) or char in _PUNCTUATION):
            raise AccountError("a username has only letters, digits, '_', '-' and '.'")
    if len({_script(c) for c in display if c.isalpha()}) > 1:  # "аna" (a Cyrillic а) would pass for "ana"
        raise AccountError("a username's letters are all of one alphabet")
    if reserved_name(display):
        raise AccountError(f"the username {display} is reserved (it looks like a bot's or the server's name)")
    if len(normalize(display)) > 32 or len(lookalike(display)) > LOOKALIKE_MAX:
        raise AccountError("this username is too long once normalised")
    return display


def check_password(password: object) -> str:
    if not isinstance(password, str) or not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise AccountError(f"a password is {PASSWORD_MIN} to {PASSWORD_MAX} characters")
    return password


def hash_session(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _user(row: UserRow) -> User:
    return User(row.id, row.username, row.display)


class Accounts:
    """The accounts and sessions in the server's database (SQLAlchemy, any dialect the store supports)."""

    def __init__(self, engine: sa.Engine, hasher: PasswordHasher | None = None,
                 session_days: float = SESSION_DAYS) -> None:
        self.engine = engine
        self.hasher = hasher or PasswordHasher()
        self.session_length = timedelta(days=session_days)
        #: Verified against when the username is unknown, so that a miss takes as long as a wrong password.
        self._dummy = _dummy_hash(self.hasher)

    # ------------------------------------------------------------------ accounts

    def signup(self, username: object, password: object) -> User:
        display = check_username(username)
        hashed = self.hasher.hash(check_password(password))
        normalized, key = normalize(display), lookalike(display)
        try:
            with Session(self.engine) as s, s.begin():
                if s.scalar(sa.select(UserRow.id).where(sa.or_(UserRow.username == normalized,
                                                               UserRow.lookalike == key))) is not None:
                    raise AccountError(f"the username {display} is taken (or one that looks like it)")
                row = UserRow(username=normalized, display=display, password_hash=hashed, lookalike=key)
                s.add(row)
                s.flush()
                return _user(row)
        except IntegrityError:  # taken meanwhile
            raise AccountError(f"the username {display} is taken (or one that looks like it)") from None

    def find(self, username: str) -> User | None:
        """The account of this username (in any of its spellings), if there is one."""
        with Session(self.engine) as s:
            row = s.scalar(sa.select(UserRow).where(UserRow.username == normalize(username)))
            return None if row is None else _user(row)

    def taken(self, name: str) -> bool:
        """Whether ``name`` is, normalised or as it looks, an account's username (a guest may not sit under it)."""
        key = lookalike(name)
        if len(key) > LOOKALIKE_MAX:
            return self.find(name) is not None
        with Session(self.engine) as s:
            found = s.scalar(sa.select(UserRow.id).where(sa.or_(UserRow.username == normalize(name),
                                                                UserRow.lookalike == key)).limit(1))
            return found is not None

    def _verify(self, row: UserRow | None, password: str) -> bool:
        """Check the password; a hash made with older parameters is replaced (the row is then changed)."""
        try:
            self.hasher.verify(self._dummy if row is None else row.password_hash, password)
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False
        if row is None:
            return False
        if self.hasher.check_needs_rehash(row.password_hash):
            row.password_hash = self.hasher.hash(password)
        return True

    def login(self, username: object, password: object) -> User:
        """The account, when the password is its own; else :class:`AccountError` with :data:`BAD_LOGIN`."""
        if not isinstance(username, str) or not isinstance(password, str) or len(password) > PASSWORD_MAX:
            raise AccountError(BAD_LOGIN)
        with Session(self.engine) as s, s.begin():
            row = s.scalar(sa.select(UserRow).where(UserRow.username == normalize(username)))
            if not self._verify(row, password):
                raise AccountError(BAD_LOGIN)
            assert row is not None
            return _user(row)

    def change_password(self, user_id: int, old: object, new: object, keep: str | None = None) -> None:
        """A new password, when ``old`` is the current one; every login of the account but ``keep``
        (a login cookie's value) ends."""
        new = check_password(new)
        with Session(self.engine) as s, s.begin():
            row = s.get(UserRow, user_id)
            if row is None or not isinstance(old, str) or not self._verify(row, old):
                raise AccountError("the current password is wrong")
            row.password_hash = self.hasher.hash(new)
            kept = hash_session(keep) if keep is not None else ""
            s.execute(sa.delete(SessionRow).where(SessionRow.user_id == user_id, SessionRow.token_hash != kept))

    # ------------------------------------------------------------------ devices

    def device(self, user_id: int) -> str | None:
        """The device cookie's value of a browser that just logged in to the account (:mod:`.devices`)."""
        with Session(self.engine) as s:
            row = s.get(UserRow, user_id)
            return None if row is None else device_token(row.username, row.password_hash)

    def known_device(self, username: object, token: str | None) -> bool:
        """Whether ``token`` (a device cookie's value) is that of a browser that logged in to the account
        ``username`` (as typed at login) under its current password."""
        named = device_account(token)
        if named is None or not isinstance(username, str) or normalize(username) != named:
            return False
        assert token is not None
        with Session(self.engine) as s:
            row = s.scalar(sa.select(UserRow).where(UserRow.username == named))
            return row is not None and device_matches(token, row.username, row.password_hash)

    # ------------------------------------------------------------------ sessions

    def start_session(self, user: User, now: datetime | None = None) -> tuple[str, LoginSession]:
        """A new login: the cookie's value (only its hash is stored) and the session."""
        now = now or _now()
        token, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
        expires = now + self.session_length
        with Session(self.engine) as s, s.begin():
            s.add(SessionRow(token_hash=hash_session(token), user_id=user.id, csrf=csrf, created_at=now,
                             expires_at=expires))
        return token, LoginSession(user, csrf, expires)

    def session(self, token: str | None, now: datetime | None = None) -> LoginSession | None:
        """The live session of a cookie's value (an expired one is removed), or ``None``."""
        if not token or len(token) > 128:
            return None
        now = now or _now()
        key = hash_session(token)
        with Session(self.engine) as s, s.begin():
            found = s.execute(sa.select(SessionRow, UserRow).join(UserRow, UserRow.id == SessionRow.user_id)
                              .where(SessionRow.token_hash == key)).first()
            if found is None:
                return None
            row, user = found[0], found[1]
            if row.expires_at <= now:
                s.delete(row)
                return None
            return LoginSession(_user(user), row.csrf, row.expires_at)

    def end_session(self, token: str | None) -> None:
        if token:
            with Session(self.engine) as s, s.begin():
                s.execute(sa.delete(SessionRow).where(SessionRow.token_hash == hash_session(token)))

    def purge(self, now: datetime | None = None) -> int:
        """Remove the expired sessions; how many there were."""
        with Session(self.engine) as s, s.begin():
            result = s.execute(sa.delete(SessionRow).where(SessionRow.expires_at <= (now or _now())))
            return int(getattr(result, "rowcount", 0) or 0)


def csrf_matches(session: LoginSession, header: str | None) -> bool:
    return header is not None and hmac.compare_digest(session.csrf.encode(), header.encode())
