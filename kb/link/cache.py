"""A cache of loaded knowledge bases, keyed by the content's hash, kb's version and kb's own code.

Loading parses every edition and computes lineage (seconds for many editions); an unchanged content
folder is read back from `<build dir>/cache/` instead. Files are written atomically (a temporary file
replaced with `os.replace`), so a reader never sees half a cache, and a cache that cannot be read or
written is simply ignored.
"""

from __future__ import annotations

import gc
import hashlib
import itertools
import os
import pickle
import tempfile
from functools import cache
from pathlib import Path

from kb import __version__
from kb.model.base import KnowledgeBase
from kb.model.records import FrozenMap
from kb.sources.paths import PACKAGE, build_dir

KEEP = 4
"""How many cache files to keep per build folder (several content folders may share one)."""


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


def read(path: Path) -> KnowledgeBase | None:
    """The cached knowledge base, or None when there is none or it cannot be read."""
    try:
        with path.open("rb") as f:
            gc.disable()  # a hundred thousand small records: the collector would run hundreds of times for nothing
            try:
                kb = pickle.load(f)  # streamed: the file's bytes are never all held beside the records they make
            finally:
                gc.enable()
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError, TypeError, ValueError):
        return None
    return kb if isinstance(kb, KnowledgeBase) else None


def write(path: Path, kb: KnowledgeBase) -> None:
    """Cache a knowledge base atomically; give up silently when the folder is not writable."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".pickle")
        with os.fdopen(fd, "wb") as f:
            gc.disable()  # pickling makes a tuple per record: the collector would scan the whole KB again and again
            try:
                _Pickler(f, protocol=pickle.HIGHEST_PROTOCOL).dump(kb)  # streamed to the file frame by frame
            finally:
                gc.enable()
        os.replace(tmp, path)
    except (OSError, pickle.PicklingError, RecursionError):
        return
    _prune(path.parent, path)


def _frozen_map(*flat: object) -> FrozenMap:
    """Rebuild a `FrozenMap` from its keys and values, alternating (as `_Pickler` writes it)."""
    return FrozenMap(zip(flat[::2], flat[1::2], strict=True))


class _Pickler(pickle.Pickler):
    """The pickler of the cache: `FrozenMap`s as flat `(key, value, …)` tuples.

    A pickler keeps every object it pickles until it ends, the arguments of each record included: a map's own
    `__reduce__` makes a dict copy of it (four times the size of a flat tuple), for each of tens of thousands.
    """

    def reducer_override(self, obj: object) -> object:
        """Pickle a `FrozenMap` as a call of `_frozen_map`; anything else as usual."""
        if type(obj) is FrozenMap:
            return _frozen_map, tuple(itertools.chain.from_iterable(obj.items()))
        return NotImplemented


def _prune(folder: Path, keep: Path) -> None:
    """Delete all but the newest cache files."""
    try:
        files = sorted(folder.glob("kb-*.pickle"), key=lambda p: p.stat().st_mtime, reverse=True)
        for old in files[KEEP:]:
            if old != keep:
                old.unlink(missing_ok=True)
        for tmp in folder.glob(".tmp-*.pickle"):
            if tmp.stat().st_mtime < keep.stat().st_mtime - 3600:
                tmp.unlink(missing_ok=True)
    except OSError:
        return
