"""Device cookies: a browser that logged in to an account before is known to it, so that guesses of the
account's password from elsewhere, throttled per account, do not lock its owner out (OWASP's "device cookies").

The cookie names the account and carries an HMAC of that name keyed by the account's password hash: the server
keeps no secret and no list of devices (every process of a site checks it alike), nobody can make one without the
hash, and a new password makes every earlier one worthless.

>>> token = device_token("ana", "$argon2id$v=19$m=65536,t=3,p=4$abc$def")
>>> device_account(token)
'ana'
>>> device_matches(token, "ana", "$argon2id$v=19$m=65536,t=3,p=4$abc$def"), device_account("ana.x")
(True, None)
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac

#: The cookie of a browser that logged in (kept when it logs out: the browser is still its owner's).
DEVICE_COOKIE = "brisca_device"
#: How long a browser stays known without logging in again.
DEVICE_DAYS = 365
#: The longest cookie value read (a username's 32 normalised characters, base64, and the MAC).
DEVICE_MAX = 256


def _mac(username: str, password_hash: str) -> str:
    return hmac.new(password_hash.encode(), f"brisca-device:{username}".encode(), hashlib.sha256).hexdigest()


def device_token(username: str, password_hash: str) -> str:
    """The cookie's value for the account ``username`` (normalised) whose password hash is ``password_hash``."""
    name = base64.urlsafe_b64encode(username.encode()).decode().rstrip("=")
    return f"{name}.{_mac(username, password_hash)}"


def device_account(token: str | None) -> str | None:
    """The (normalised) username a cookie's value names, unchecked; ``None`` when it is not one."""
    if not token or len(token) > DEVICE_MAX or not token.isascii():
        return None
    name, dot, mac = token.partition(".")
    if not dot or len(mac) != 64:
        return None
    try:
        return base64.urlsafe_b64decode(name + "=" * (-len(name) % 4)).decode()
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return None


def device_matches(token: str, username: str, password_hash: str) -> bool:
    """Whether ``token`` is this account's cookie under its current password."""
    return hmac.compare_digest(token.encode(), device_token(username, password_hash).encode())
