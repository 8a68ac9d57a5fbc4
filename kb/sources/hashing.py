"""SHA-256 for content hashes and cache keys, without loading OpenSSL when Python has its own.

`hashlib` loads OpenSSL's library as it is imported: 3.5 MB in every `kb` process, for hashes of a few
megabytes a command that Python's built-in implementation makes at 170 MB/s. The built-in module is used when
this Python was built with it (CPython's default); otherwise `hashlib`'s. The digests are the same.
"""

from __future__ import annotations

try:
    from _sha2 import sha256  # Python 3.12 and later
except ImportError:
    try:
        from _sha256 import sha256  # Python 3.11
    except ImportError:
        from hashlib import sha256

__all__ = ["sha256"]
