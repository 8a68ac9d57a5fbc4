"""Index life cycle: one slot per content folder under the build folder, keyed by a hash, switched atomically, sealed.

Pure Python (no whoosh): `kb.search.index` passes the function that writes an index into a folder.

Whoosh unpickles what an index folder holds (its schema, its segments, stored fields), and unpickling runs code; a
query reads the export, JSON checked file by file against the export's manifest. An index is sealed when made: an
HMAC-SHA256, under the key of the load cache (kept in the user's own cache folder), of every file's name, size and
SHA-256 (the export's by its manifest's); it is opened only once its seal checks out (`unsealed`): the signature,
every file's name and size, and the manifest's SHA-256 (Whoosh's own files are never read again once the index is
made: opening it does not read them through). A folder planted in, copied into or damaged in
the build folder (a shared folder, a restored CI cache, a repository that carries `.kb/`) fails it and is rebuilt.
The pointer to the live folder (`CURRENT`) names a folder of the slot and nothing else. When the build folder cannot
hold an index (read-only, full, a file in the way), the slot moves to the user's own cache folder.
"""

from __future__ import annotations

import hmac
import json
import os
import re
import secrets
import shutil
import stat
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from hashlib import sha256
from pathlib import Path

from kb.model.errors import KbError
from kb.sources import atomic, content_hash
from kb.sources.bounded import open_regular, read_regular
from kb.sources.keys import sign, signing_key
from kb.sources.paths import build_dir, user_cache

SPARE = 2
"""Young superseded index folders kept (another process may be about to point to one); older ones go."""
YOUNG = 60
"""Seconds during which a superseded index folder may still be another process's fresh build."""
ABANDONED = 3600
"""Seconds after which an unfinished build (`tmp-`) or pointer (`CURRENT.`) is abandoned whatever its process (an id
that another process now has)."""
SEAL = "kb-seal.json"
"""The index folder's seal: each file's name, size and SHA-256, and their HMAC under the user's key."""
MAX_POINTER = 4096
"""Largest `CURRENT` read."""
MAX_SEAL = 16 << 20
"""Largest seal read."""
CHUNK = 1 << 20
LIVE = re.compile(r"idx-[0-9a-f]+-\d+-[0-9a-f]+")
"""The name of a live index folder: the only thing `CURRENT` may name (no `/`, no `..`)."""
BUILDING = re.compile(r"tmp-[0-9a-f]+-(?P<pid>\d+)-[0-9a-f]+")
"""An index folder being written by process `pid` (`prepare`)."""


EXPORT_FOLDER = "export"
"""The folder of an index's exported postings and documents (what the engine reads)."""
EXPORT_MANIFEST = "manifest.json"
"""Its list of files with their SHA-256, sealed with the index."""


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


def fallback_root(root: Path) -> Path:
    """Where a slot goes when its build folder cannot hold it: the user's own cache folder."""
    return user_cache() / "index" / root.name


def index_key(content: Path, version: str, files: str | None = None) -> str:
    """Hash of the content files (`files`: their hash when the caller has it), the kb code and the index version:
    the index is reused while it holds."""
    digest = sha256(f"{version}\0{files or content_hash(content)}\0".encode())
    for path in sorted(Path(__file__).parent.rglob("*.py")):
        stat_ = path.stat()
        digest.update(f"{path.name} {stat_.st_size} {stat_.st_mtime_ns}\0".encode())
    return digest.hexdigest()


def current(root: Path) -> tuple[str, str] | None:
    """(key, folder name) of the live index, from the pointer file: a regular file of a few bytes naming a folder of
    the slot, else None."""
    try:
        key, name = read_regular(root / "CURRENT", MAX_POINTER).decode("ascii").split()
    except (OSError, ValueError):
        return None
    return (key, name) if LIVE.fullmatch(name) else None


def live(root: Path, key: str) -> Path | None:
    """The folder of the live index of the slot (or of its fallback in the user's cache) when it is the one `key`
    names and its seal checks out; None when there is none. IndexDamaged (its pointer removed, so that it is
    rebuilt) when its seal does not check out."""
    for where in (root, fallback_root(root)):
        pointer = current(where)
        if pointer is None or pointer[0] != key:
            continue
        folder = where / pointer[1]
        try:
            why = unsealed(folder)
        except FileNotFoundError:  # pruned by a concurrent rebuild
            return None
        if why is not None:
            (where / "CURRENT").unlink(missing_ok=True)
            raise IndexDamaged(f"the search index is damaged or was not written here: it {why} ({folder})")
        return folder
    return None


def publish(root: Path, key: str, write: Callable[[Path], None]) -> Path:
    """Write a new index in its own folder, then switch the pointer to it atomically; prune old versions."""
    return commit(root, key, prepare(root, key, write))


def prepare(root: Path, key: str, write: Callable[[Path], None]) -> Path:
    """Write a new index into a folder of its own under `root` (or its fallback, when `root` cannot hold it), not
    live yet (`commit` makes it live)."""
    try:
        return _prepare(root, key, write)
    except IndexNotWritable:
        fallback = fallback_root(root)
        if fallback == root or fallback in root.parents:
            raise
        try:
            return _prepare(fallback, key, write)
        except IndexNotWritable:
            pass
        raise


def _prepare(root: Path, key: str, write: Callable[[Path], None]) -> Path:
    """`prepare` in one slot."""
    tmp = root / f"tmp-{key[:12]}-{os.getpid()}-{secrets.token_hex(3)}"
    with _unless_written(root, tmp):
        tmp.mkdir(parents=True)
        atomic.remove_stale(root, BUILDING)  # builds killed before they were done
        write(tmp)
    return tmp


def commit(root: Path, key: str, tmp: Path, write: Callable[[Path], None] | None = None) -> Path:
    """Finish an index `prepare` wrote (`write` adds to its folder), seal it, then switch the pointer to it atomically;
    prune old versions. The folder is removed when it cannot be finished. `root`: the slot `prepare` was given (the
    folder may have gone to its fallback)."""
    root = tmp.parent
    tag = tmp.name.removeprefix("tmp-")
    final = root / f"idx-{tag}"
    key_ = signing_key(create=True)
    if key_ is None:
        abandon(tmp)
        raise IndexNotWritable(f"cannot sign the search index: no key in {user_cache()}, which must be writable")
    with _unless_written(root, tmp):
        if write is not None:
            write(tmp)
        seal(tmp, key_)
        os.replace(tmp, final)
        atomic.write_text(root / "CURRENT", f"{key} {final.name}\n")
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
    """Remove superseded index folders (all but SPARE young ones), builds whose process is gone, and builds and
    pointers abandoned for an hour."""
    atomic.remove_stale(root, BUILDING)
    atomic.remove_stale(root)  # a pointer's temporary file
    live_ = current(root)
    spared = {keep, live_[1] if live_ else keep}
    aged = []
    for child in root.iterdir():
        try:
            age = time.time() - child.stat().st_mtime
        except FileNotFoundError:  # removed by a concurrent prune
            continue
        if child.name.startswith("idx-") and child.name not in spared:
            aged.append((age, child))
        elif age > ABANDONED and child.name.startswith(("tmp-", "CURRENT.", ".CURRENT.")):
            atomic.remove(child)
    aged.sort(key=lambda pair: pair[0])
    young = [child for age, child in aged if age <= YOUNG][:SPARE]
    for _, child in aged:
        if child not in young:
            atomic.remove(child)


def seal(folder: Path, key: bytes) -> None:
    """Write the seal of an index folder: every file in it, signed with the user's key."""
    files = _listing(folder)
    body = json.dumps(files, sort_keys=True, separators=(",", ":"))
    mac = sign(key, body.encode())
    (folder / SEAL).write_text(json.dumps({"files": files, "hmac": mac}) + "\n", encoding="utf-8")


def unsealed(folder: Path) -> str | None:
    """Why an index folder is not to be opened (its seal missing, not written here, or not matching its files), or
    None when its seal checks out. FileNotFoundError when the folder is gone."""
    if not stat.S_ISDIR(os.lstat(folder).st_mode):
        return "is not a folder"
    key = signing_key()
    try:
        sealed = json.loads(read_regular(folder / SEAL, MAX_SEAL))
        files, mac = sealed["files"], sealed["hmac"]
        body = json.dumps(files, sort_keys=True, separators=(",", ":"))
    except FileNotFoundError:
        return "has no seal (written by another kb, or damaged)"
    except (OSError, ValueError, KeyError, TypeError):
        return "has a damaged seal"
    if key is None or not isinstance(mac, str) or not hmac.compare_digest(mac, sign(key, body.encode())):
        return "was not written here (its seal does not check out)"
    try:
        found = _listing(folder, whole=False)
    except OSError as err:
        return f"cannot be read ({err.strerror or err})"
    if isinstance(files, dict) and found.keys() == files.keys() and all(_matches(found[n], files[n]) for n in found):
        return None
    return "was changed since it was written (its files do not match its seal)"


def _matches(found: list, sealed: object) -> bool:
    """Whether a file as found (its size, and its SHA-256 or None when it was not read) is the one sealed."""
    return isinstance(sealed, list) and len(sealed) == 2 and found[0] == sealed[0] and found[1] in (None, sealed[1])


def _listing(folder: Path, whole: bool = True) -> dict[str, list]:
    """Name -> [size, SHA-256] of every file of an index folder but its seal, and of the export folder's manifest
    (which holds the SHA-256 of each of its files, checked as each is read: `kb.search.engine.Export`); OSError for
    anything else that is not a regular file (another folder, a link, a FIFO).

    Not `whole`: only the manifest is read; the others, Whoosh's own files, give their size and None. Nothing reads
    them once the index is made (every query, `kb build`'s copy and `kb serve` read the export), and a card pool's
    segment is 30 MB that every cold `kb search` read through for its SHA-256."""
    found = {}
    for entry in sorted(os.scandir(folder), key=lambda e: e.name):
        if entry.name == SEAL:
            continue
        path = entry.path
        if entry.name == EXPORT_FOLDER and entry.is_dir(follow_symlinks=False):
            path = os.path.join(entry.path, EXPORT_MANIFEST)
        elif entry.is_symlink() or not entry.is_file(follow_symlinks=False):
            raise OSError(f"{entry.name} is not a regular file")
        elif not whole:
            found[entry.name] = [entry.stat(follow_symlinks=False).st_size, None]
            continue
        digest = sha256()
        with open_regular(path) as handle:
            for chunk in iter(lambda handle=handle: handle.read(CHUNK), b""):
                digest.update(chunk)
            size = handle.tell()
        found[os.path.relpath(path, folder)] = [size, digest.hexdigest()]
    return found
