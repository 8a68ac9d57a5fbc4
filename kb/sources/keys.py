"""This user's signing key: what the load cache and the search index are signed with (HMAC-SHA256).

Kept in the user's own cache folder (`~/.cache/kb/cache-key`, mode 0600), never in a project, so a signed file copied
from elsewhere or made by another user does not check out. Here, below both its users, so that opening an index
does not import the load cache and the knowledge base's records with it.
"""

from __future__ import annotations

import hmac
import secrets

from kb.sources import atomic
from kb.sources.bounded import read_regular
from kb.sources.paths import user_cache

KEY_BYTES = 32
"""A key's length, and its signatures' (SHA-256)."""


def signing_key(create: bool = False) -> bytes | None:
    """This user's key for cache and index signatures (made on first use when `create`); None when there is none."""
    path = user_cache() / "cache-key"
    try:
        key = read_regular(path, KEY_BYTES)
        if len(key) == KEY_BYTES:
            return key
    except OSError:
        pass
    if not create:
        return None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic.write_bytes(path, secrets.token_bytes(KEY_BYTES), perms=0o600)
        return read_regular(path, KEY_BYTES)
    except OSError:
        return None


def sign(key: bytes, body: bytes) -> str:
    """The signature of some bytes under a key: HMAC-SHA256, in hexadecimal (compare with `hmac.compare_digest`)."""
    return hmac.new(key, body, "sha256").hexdigest()
