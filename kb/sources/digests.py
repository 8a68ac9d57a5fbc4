"""A content folder's hash, every file read only when it changed: each file's SHA-256 remembered by its status.

`content_hash` keys the load cache, the search index and a built site, so every command computes it; read through,
a card pool's 124 MB cost about 0.2 s of each cold `kb search`, `kb build` or `kb check`. So the build folder keeps
a memo (`memo_file`): each file's `lang/name`, device, inode, size, modification and status-change times
(nanoseconds), and SHA-256. A file whose status is the one remembered is not read again. Any write changes its
status-change time, which no program can set back; a file changed in the last SETTLED seconds is not remembered (two
writes within one tick of the file system's clock leave the same times), so it is read again until it has stood
still. The memo is signed with the user's key (`kb.sources.keys`): one planted in or carried with a project is
ignored, as one that cannot be read or written is (every byte is then read).
"""

from __future__ import annotations

import hmac
import json
import os
import time
from hashlib import sha256
from pathlib import Path

from kb.sources import atomic
from kb.sources.bounded import open_regular, read_regular
from kb.sources.files import MAX_BYTES, find_sources, hash_entry, streamed
from kb.sources.keys import sign, signing_key
from kb.sources.paths import build_dir

SETTLED = 2.0
"""Seconds a file must have stood unchanged before its SHA-256 is remembered by its status."""
MAX_MEMO = 64 << 20
"""Largest memo read."""


def content_hash(content: Path) -> str:
    """Hash of every content file's name and bytes, without parsing (the same as KnowledgeBase.content_hash): each
    file read in chunks, one over MAX_BYTES only when it is MTGJSON v5 card data (streamed, of any size); a file whose
    status is the memo's is not read."""
    path = memo_file(content)
    key = signing_key()
    memo = _read(path, key) if key is not None else {}
    digest, kept = sha256(), {}
    settled = time.time_ns() - int(SETTLED * 1e9)
    for lang, source in find_sources(content):
        name = f"{lang}/{source.name}"
        try:
            status = _status(source)
            known = memo.get(name)
            hexdigest = known[-1] if known and known[:-1] == status else _file(source)
        except OSError:
            continue  # unreadable or too large: load() skips it too (with an error diagnostic)
        digest.update(hash_entry(lang, source, hexdigest))
        if max(status[3], status[4]) < settled:
            kept[name] = [*status, hexdigest]
    if kept != memo:
        _write(path, kept)
    return digest.hexdigest()


def memo_file(content: Path) -> Path:
    """Where the memo of a content folder is kept: its build folder, which other content folders beside it share, so
    under a name of its own."""
    folder = str(content.resolve()).encode("utf-8", "surrogateescape")
    return build_dir(content) / f"digests-{sha256(folder).hexdigest()[:16]}.json"


def file_digest(path: Path, limit: int | None = None) -> str:
    """The SHA-256 of a regular file read in chunks (`limit`: its largest size); OSError when it cannot be read."""
    digest = sha256()
    with open_regular(path, limit) as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _file(path: Path) -> str:
    """A content file's SHA-256, as `content_hash` reads it."""
    return file_digest(path, None if streamed(path) else MAX_BYTES)


def _status(path: Path) -> list[int]:
    """What changes when a file does: device, inode, size, modification and status-change times (the link's target,
    for a link: the file read)."""
    found = os.stat(path)
    return [found.st_dev, found.st_ino, found.st_size, found.st_mtime_ns, found.st_ctime_ns]


def _read(path: Path, key: bytes) -> dict[str, list]:
    """The memo, when its signature checks out; else empty."""
    try:
        body, _, mac = read_regular(path, MAX_MEMO).rstrip(b"\n").rpartition(b"\n")
        if not hmac.compare_digest(mac, sign(key, body).encode()):
            return {}
        memo = json.loads(body)
    except (OSError, ValueError):
        return {}
    return memo if isinstance(memo, dict) and all(_entry(v) for v in memo.values()) else {}


def _entry(value: object) -> bool:
    """Whether a memo's value has its shape: five integers and a SHA-256."""
    return isinstance(value, list) and len(value) == 6 and all(type(v) is int for v in value[:5]) and \
        isinstance(value[5], str)  # fmt: skip


def _write(path: Path, memo: dict[str, list]) -> None:
    """Write the memo, signed; nothing when it cannot be (the next command reads every file again)."""
    key = signing_key(create=True)
    if key is None:
        return
    body = json.dumps(memo, sort_keys=True, separators=(",", ":")).encode()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic.write_bytes(path, body + b"\n" + sign(key, body).encode() + b"\n")
    except OSError:
        pass
