"""Index life cycle: one slot per content folder under the build folder, keyed by a hash, switched atomically.

Pure Python (no whoosh): `kb.search.index` passes the function that writes an index into a folder.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import shutil
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from hashlib import sha256
from pathlib import Path

from kb.model.errors import KbError
from kb.sources import content_hash
from kb.sources.paths import build_dir

SPARE = 2
"""Young superseded index folders kept (another process may be about to point to one); older ones go."""
YOUNG = 60
"""Seconds during which a superseded index folder may still be another process's fresh build."""
ABANDONED = 3600
"""Seconds after which an unfinished build (`tmp-`) or pointer (`CURRENT.`) is abandoned."""


TABLES = "tables.json"


class IndexDamaged(KbError, ValueError):
    """An index folder whose files do not read back as written."""

    status = 2


class IndexNotWritable(KbError, OSError):
    """The build folder cannot hold the index (read-only, or a file in the way)."""

    status = 2


def index_root(content: Path, every: bool = False) -> Path:
    """The slot of a content folder: `<build>/index/<folder name>-<hash of its absolute path>` for the index of
    the current editions, with `-every` for that of every edition."""
    absolute = str(content.resolve())
    tag = sha256(absolute.encode()).hexdigest()[:10]
    return build_dir(content) / "index" / f"{content.resolve().name}-{tag}{'-every' if every else ''}"


def index_key(content: Path, version: str, files: str | None = None) -> str:
    """Hash of the content files (`files`: their hash when the caller has it), the kb code and the index version:
    the index is reused while it holds."""
    digest = sha256(f"{version}\0{files or content_hash(content)}\0".encode())
    for path in sorted(Path(__file__).parent.rglob("*.py")):
        stat = path.stat()
        digest.update(f"{path.name} {stat.st_size} {stat.st_mtime_ns}\0".encode())
    return digest.hexdigest()


def current(root: Path) -> tuple[str, str] | None:
    """(key, folder name) of the live index, from the pointer file."""
    try:
        key, name = (root / "CURRENT").read_text().split()
    except (OSError, ValueError):
        return None
    return key, name


def publish(root: Path, key: str, write: Callable[[Path], None]) -> Path:
    """Write a new index in its own folder, then switch the pointer to it atomically; prune old versions."""
    return commit(root, key, prepare(root, key, write))


def prepare(root: Path, key: str, write: Callable[[Path], None]) -> Path:
    """Write a new index into a folder of its own under `root`, not live yet (`commit` makes it live)."""
    tmp = root / f"tmp-{key[:12]}-{os.getpid()}-{secrets.token_hex(3)}"
    with _unless_written(root, tmp):
        tmp.mkdir(parents=True)
        write(tmp)
    return tmp


def commit(root: Path, key: str, tmp: Path, write: Callable[[Path], None] | None = None) -> Path:
    """Finish an index `prepare` wrote (`write` adds to its folder), then switch the pointer to it atomically;
    prune old versions. The folder is removed when it cannot be finished."""
    tag = tmp.name.removeprefix("tmp-")
    final = root / f"idx-{tag}"
    with _unless_written(root, tmp):
        if write is not None:
            write(tmp)
        os.replace(tmp, final)
        pointer = root / f"CURRENT.{tag}"
        pointer.write_text(f"{key} {final.name}\n")
        os.replace(pointer, root / "CURRENT")
    prune(root, final.name)
    return final


def abandon(folder: Path) -> None:
    """Remove a folder `prepare` wrote that will not be committed (a live index's folder is left alone)."""
    if folder.name.startswith("tmp-"):
        shutil.rmtree(folder, ignore_errors=True)


@contextmanager
def _unless_written(root: Path, tmp: Path) -> Iterator[None]:
    """Remove an unfinished index folder when writing it fails; an OSError becomes IndexNotWritable."""
    try:
        yield
    except OSError as err:
        shutil.rmtree(tmp, ignore_errors=True)
        raise IndexNotWritable(
            f"cannot write the search index in {root}: {err.strerror or err}; the build folder (.kb beside the content)"
            " must be a writable folder: remove what is in its way"
        ) from err
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def prune(root: Path, keep: str) -> None:
    """Remove superseded index folders (all but SPARE young ones) and builds abandoned for an hour."""
    live = current(root)
    spared = {keep, live[1] if live else keep}
    aged = []
    for child in root.iterdir():
        try:
            age = time.time() - child.stat().st_mtime
        except FileNotFoundError:  # removed by a concurrent prune
            continue
        if child.name.startswith("idx-") and child.name not in spared:
            aged.append((age, child))
        elif age > ABANDONED and child.name.startswith(("tmp-", "CURRENT.")):
            _remove(child)
    aged.sort(key=lambda pair: pair[0])
    young = [child for age, child in aged if age <= YOUNG][:SPARE]
    for _, child in aged:
        if child not in young:
            _remove(child)


def _remove(path: Path) -> None:
    """Delete a folder or file, ignoring one already gone."""
    if path.is_dir():
        shutil.rmtree(path, ignore_errors=True)
    else:
        path.unlink(missing_ok=True)


def write_tables(folder: Path, info: dict) -> None:
    """Write `tables.json`, its SHA-256 on its last line."""
    text = json.dumps(info, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode()
    (folder / TABLES).write_bytes(text + b"\n" + hashlib.sha256(text).hexdigest().encode() + b"\n")


def read_tables(folder: Path) -> dict:
    """Read `tables.json` back; IndexDamaged when it is missing, cut or altered."""
    try:
        blob = (folder / TABLES).read_bytes()
    except OSError as err:
        raise IndexDamaged(f"cannot read {TABLES}: {err.strerror}") from err
    text, _, digest = blob.rstrip(b"\n").rpartition(b"\n")
    if hashlib.sha256(text).hexdigest().encode() != digest:
        raise IndexDamaged(f"{TABLES} does not match its checksum")
    return json.loads(text)
