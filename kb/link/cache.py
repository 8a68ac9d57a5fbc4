"""A cache of loaded knowledge bases, keyed by the content's hash, kb's version and kb's own code.

Loading parses every edition and computes lineage; an unchanged content folder is read back from
`<build dir>/cache/` instead. One file per content folder, written atomically (a temporary file replaced with
`os.replace`), so a reader never sees half a cache.

The file is a pickle, and unpickling can run code: a cache file is only ever unpickled after its HMAC-SHA256
checks out with a key kept in the user's own cache folder (`~/.cache/kb/cache-key`, mode 0600), never in the
project. A cache file copied from elsewhere, edited, truncated or made by another user is ignored with a note and
rewritten. Temporary files of a write that was killed are removed at the next write (`kb.sources.atomic`).

The pickle is written in pieces (`_dump`): a pickler holds every object it has written until it ends, and the tuple
each record is written from, so one pickler of a whole knowledge base held half as much again as the knowledge base
(110 editions of the rules: 3.5 million objects, 300 MB). The large parts (each edition's rules, each step of a
lineage, the knowledge base's and its links' large tuples and maps) are cut into pieces of at most PIECE items, each
pickled on its own; then the rest, which names each part by its pieces. The parts share no record, only some strings,
which come back as equal copies; the knowledge base's rules are its editions', taken from them again.
"""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
import itertools
import pickle
import re
from functools import cache
from pathlib import Path

from kb import __version__
from kb.model.base import KnowledgeBase
from kb.model.links import edition_rules
from kb.model.records import FrozenMap
from kb.sources import atomic
from kb.sources.bounded import open_regular
from kb.sources.keys import KEY_BYTES, signing_key
from kb.sources.paths import PACKAGE, build_dir

KEEP = 4
"""How many cache files to keep per build folder (several content folders may share one)."""
MAGIC = b"kb-cache/3\n"
"""First bytes of a cache file, before its 32-byte signature and the pickle."""
SIGNATURE = KEY_BYTES
CHUNK = 1 << 20
"""Bytes read at a time when signing a cache file."""
MAX_BYTES = 8 << 30
"""Largest cache file read (a card pool's is a few hundred MB): a sparse file planted there is not read through."""
PIECE = 2048
"""Items of a large part pickled together, at most (what one pickler holds)."""
LEGACY_TEMPORARY = re.compile(r"\.tmp-(?P<pid>\d+)-[0-9a-f]+\.pickle")
"""The temporary files of cache writes by kb before `kb.sources.atomic` (`.tmp-PID-TOKEN.pickle`)."""


@cache
def code_hash() -> str:
    """Hash of kb's own Python files: a change in the code invalidates every cache."""
    digest = hashlib.sha256(__version__.encode())
    for path in sorted(PACKAGE.rglob("*.py")):
        digest.update(path.relative_to(PACKAGE).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def cache_file(content: Path, content_hash: str) -> Path:
    """Where the knowledge base of this content would be cached."""
    key = hashlib.sha256(f"{content_hash}\0{code_hash()}\0{content}".encode("utf-8", "surrogateescape"))
    return build_dir(content) / "cache" / f"kb-{key.hexdigest()[:32]}.pickle"


def read(path: Path) -> tuple[KnowledgeBase | None, str | None]:
    """The cached knowledge base (None when there is none or it is not to be trusted), and why a file that is
    there was not used (None when it was, or there is no file)."""
    try:
        handle = open_regular(path, MAX_BYTES)  # never a FIFO or a link to a device: they would hang or fill memory
    except FileNotFoundError:
        return None, None
    except OSError as err:
        return None, f"cannot read the load cache {path.name}: {err.strerror or err}; loading the content"
    with handle:
        key = signing_key()
        head, signature = handle.read(len(MAGIC)), handle.read(SIGNATURE)
        signer = hmac.new(key or b"", digestmod="sha256")
        for chunk in iter(lambda: handle.read(CHUNK), b""):  # checked before anything is unpickled
            signer.update(chunk)
        if head != MAGIC or key is None or not hmac.compare_digest(signature, signer.digest()):
            return None, f"the load cache {path.name} is damaged or was not written here; it is ignored and rewritten"
        handle.seek(len(MAGIC) + SIGNATURE)
        try:
            kb = _load(handle)
        except Exception:  # signed by this user's key yet unreadable (another Python): rewritten
            return None, f"the load cache {path.name} cannot be read; it is ignored and rewritten"
    if not isinstance(kb, KnowledgeBase):
        return None, f"the load cache {path.name} holds no knowledge base; it is ignored and rewritten"
    return kb, None


def write(path: Path, kb: KnowledgeBase) -> None:
    """Cache a knowledge base atomically; give up silently when it cannot be (no key, a folder not writable)."""
    key = signing_key(create=True)
    if key is None:
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic.remove_stale(path.parent)  # every cache file's temporaries: a killed write's may be another content's
        atomic.remove_stale(path.parent, LEGACY_TEMPORARY)
        with atomic.replacing(path, "w+b") as f:  # pickled straight into the file, signed from it: never in memory
            f.write(MAGIC + bytes(SIGNATURE))
            _dump(kb, f)
            f.seek(len(MAGIC) + SIGNATURE)
            signer = hmac.new(key, digestmod="sha256")
            for chunk in iter(lambda: f.read(CHUNK), b""):
                signer.update(chunk)
            f.seek(len(MAGIC))
            f.write(signer.digest())
    except (OSError, pickle.PicklingError, RecursionError):
        return
    _prune(path.parent, path)


def _prune(folder: Path, keep: Path) -> None:
    """Delete all but the newest cache files."""
    try:
        files = sorted(folder.glob("kb-*.pickle"), key=lambda p: p.stat().st_mtime, reverse=True)
        for old in files[KEEP:]:
            if old != keep:
                old.unlink(missing_ok=True)
    except OSError:
        return


def _dump(kb: KnowledgeBase, f) -> None:
    """Pickle a knowledge base into a file: the number of pieces, each piece (a part, or PIECE of its items), then
    the rest, each part in it named by its first piece, the piece after and its kind."""
    parts = _parts(kb)
    named: dict[int, tuple[int, int, str]] = {}
    count = 0
    for part in parts:
        kind = {tuple: "tuple", FrozenMap: "map"}.get(type(part), "whole")
        after = count + (-(-len(part) // PIECE) if kind != "whole" else 1)
        named[id(part)] = (count, after, kind)
        count = after
    pickle.dump(count, f, protocol=pickle.HIGHEST_PROTOCOL)
    for part in parts:
        first, after, kind = named[id(part)]
        if kind == "whole":
            pickle.dump(part, f, protocol=pickle.HIGHEST_PROTOCOL)
            continue
        items = iter(part.items() if kind == "map" else part)
        for _ in range(first, after):
            pickle.dump(tuple(itertools.islice(items, PIECE)), f, protocol=pickle.HIGHEST_PROTOCOL)
    rules = edition_rules(kb.links.editions)
    derived = len(rules) == len(kb.rules) and all(a is b for a, b in zip(rules, kb.rules, strict=True))
    _Pickler(f, named).dump((dataclasses.replace(kb, rules=() if derived else kb.rules), derived))  # no cached maps


def _load(handle) -> KnowledgeBase:
    """Read back a knowledge base that `_dump` wrote."""
    pieces = [pickle.load(handle) for _ in range(pickle.load(handle))]
    kb, derived = _Unpickler(handle, pieces).load()
    if derived:
        object.__setattr__(kb, "rules", edition_rules(kb.links.editions))
    return kb


def _parts(kb: KnowledgeBase) -> list[object]:
    """The large parts of a knowledge base, each pickled apart: its editions' rules, its lineages' steps, and its
    and its links' tuples and maps of over PIECE items (not its rules: they are its editions')."""
    links = kb.links
    found: list[object] = [edition.rules for edition in links.editions]
    found += [step for lineage in links.lineage.values() for step in lineage.steps]
    for record in (kb, links):
        for f in dataclasses.fields(record):
            value = getattr(record, f.name)
            if f.name != "rules" and type(value) in (tuple, FrozenMap) and len(value) > PIECE:
                found.append(value)
    return list({id(part): part for part in found}.values())


class _Pickler(pickle.Pickler):
    """Pickles the rest of a knowledge base, each part as its pieces' numbers."""

    def __init__(self, f, named: dict[int, tuple[int, int, str]]) -> None:
        super().__init__(f, protocol=pickle.HIGHEST_PROTOCOL)
        self.named = named

    def persistent_id(self, obj: object) -> tuple[int, int, str] | None:
        return self.named.get(id(obj))


class _Unpickler(pickle.Unpickler):
    """Reads the rest of a knowledge base, each part made again from its pieces (let go once taken)."""

    def __init__(self, f, pieces: list) -> None:
        super().__init__(f)
        self.pieces = pieces

    def persistent_load(self, pid: tuple[int, int, str]) -> object:
        first, after, kind = pid
        taken = self.pieces[first:after]
        self.pieces[first:after] = [None] * (after - first)
        if kind == "whole":
            return taken[0]
        items = itertools.chain.from_iterable(taken)
        return FrozenMap(items) if kind == "map" else tuple(items)
