"""A cache of loaded knowledge bases, keyed by the content's hash, kb's version and kb's own code.

Loading parses every edition and computes lineage (seconds for many editions); an unchanged content
folder is read back from `<build dir>/cache/` instead. Files are written atomically (a temporary file
replaced with `os.replace`), so a reader never sees half a cache, and a cache that cannot be read or
written is simply ignored.

A cache file is a sequence of pickles: the number of pieces, the large parts of the knowledge base (each
edition's rules, the references, the alignment's pairs, the lineage, the cards, rulings, notes…) cut into pieces of at
most CHUNK items, each pickled with a memo of its own, then the rest, which names each part by its pieces. A
pickler keeps every object it has seen until it ends: one pickler for the whole knowledge base held as much
again as the knowledge base while it wrote. The parts share hardly any object but strings (on the bundled content,
a few diagnostics and source references), and those come back as equal copies.
"""

from __future__ import annotations

import dataclasses
import itertools
import os
import pickle
import tempfile
from functools import cache
from pathlib import Path

from kb import __version__
from kb.model.base import KnowledgeBase
from kb.model.links import edition_rules
from kb.model.records import EMPTY, FrozenMap, _reduce, collector_paused
from kb.sources.hashing import sha256
from kb.sources.paths import PACKAGE, build_dir

KEEP = 4
"""How many cache files to keep per build folder (several content folders may share one)."""


@cache
def code_hash() -> str:
    """Hash of kb's own Python files: a change in the code invalidates every cache."""
    digest = sha256(__version__.encode())
    for path in sorted(PACKAGE.rglob("*.py")):
        digest.update(path.relative_to(PACKAGE).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def cache_file(content: Path, content_hash: str) -> Path:
    """Where the knowledge base of this content would be cached."""
    key = sha256(f"{content_hash}\0{code_hash()}\0{content}".encode("utf-8", "surrogateescape"))
    return build_dir(content) / "cache" / f"kb-{key.hexdigest()[:32]}.pickle"


def read(path: Path) -> KnowledgeBase | None:
    """The cached knowledge base, or None when there is none or it cannot be read."""
    try:
        # a hundred thousand small records: the collector would run hundreds of times for nothing
        with path.open("rb") as f, collector_paused():  # streamed: the file's bytes are never all held beside
            pieces = [pickle.load(f) for _ in range(pickle.load(f))]  # the records they make
            kb = _Unpickler(f, pieces).load()
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError, TypeError, ValueError):
        return None
    return kb if isinstance(kb, KnowledgeBase) else None


def write(path: Path, kb: KnowledgeBase) -> None:
    """Cache a knowledge base atomically; give up silently when the folder is not writable."""
    tmp = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".pickle")
        with os.fdopen(fd, "wb") as f, collector_paused():  # pickling makes a tuple per record: the collector
            _dump(kb, f)  # would scan the whole knowledge base again and again
        os.replace(tmp, path)
    except (OSError, pickle.PicklingError, RecursionError):
        if tmp is not None:
            Path(tmp).unlink(missing_ok=True)
        return
    _prune(path.parent, path)


CHUNK = 256
"""Items of a large map or tuple pickled together: what one pickler holds at most."""


def _dump(kb: KnowledgeBase, f) -> None:
    """Pickle a knowledge base into a file: the number of pieces, each piece (a large part, or a chunk of CHUNK of its
    items), then the rest (streamed to the file frame by frame)."""
    parts = _parts(kb)
    made: dict[int, tuple[int, int, bool | None]] = {}  # part id -> its first piece, the piece after, a map's?
    count = 0
    for part in parts:
        chunks = -(-len(part) // CHUNK) if isinstance(part, (FrozenMap, tuple)) and len(part) > CHUNK else 0
        made[id(part)] = (count, count + max(chunks, 1), isinstance(part, FrozenMap) if chunks else None)
        count += max(chunks, 1)
    pickle.dump(count, f, protocol=pickle.HIGHEST_PROTOCOL)
    for part in parts:
        first, after, is_map = made[id(part)]
        if is_map is None:
            _Pickler(f, protocol=pickle.HIGHEST_PROTOCOL).dump(part)
            continue
        items = iter(part.items()) if is_map else iter(part)
        for _ in range(first, after):
            _Pickler(f, protocol=pickle.HIGHEST_PROTOCOL).dump(tuple(itertools.islice(items, CHUNK)))
    _Pickler(f, protocol=pickle.HIGHEST_PROTOCOL, parts=made).dump(kb)


def _parts(kb: KnowledgeBase) -> list[object]:
    """The large parts of a knowledge base, pickled apart (`kb.rules` is not one: it is made of the editions')."""
    links = kb.links
    found: list[object] = [ed.rules for ed in links.editions]
    found += [links.references, links.cited_by, links.glossary_refs, links.alignment.pairs, links.alignment.aligned]
    found += [links.lineage]
    found += [kb.glossary, kb.cards, kb.rulings, kb.notes, kb.diagnostics]
    return [part for part in found if part]


def _part(first: int, after: int, is_map: bool | None) -> object:
    """Stands, in the rest of the knowledge base, for the part made of pieces `first` to `after` (resolved by
    `_Unpickler`): one whole piece, or chunks of a map's items or of a tuple's."""
    raise pickle.UnpicklingError("a cache part outside its cache file")


class _Unpickler(pickle.Unpickler):
    """Reads the rest of the knowledge base, each part made of the pieces read before it."""

    def __init__(self, f, pieces: list[object]) -> None:
        super().__init__(f)
        self.pieces = pieces

    def find_class(self, module: str, name: str):
        if module == __name__ and name == "_part":
            return self._part
        return super().find_class(module, name)

    def _part(self, first: int, after: int, is_map: bool | None) -> object:
        """The part made of pieces `first` to `after` (each piece is let go once taken)."""
        if is_map is None:
            return self.pieces[first]
        chunks = self.pieces[first:after]
        self.pieces[first:after] = [None] * (after - first)
        joined = itertools.chain.from_iterable(chunks)
        return FrozenMap(joined) if is_map else tuple(joined)


def _knowledge_base(values: tuple, rules_from_editions: bool) -> KnowledgeBase:
    """Rebuild a knowledge base from its fields, in order (its rules from its editions' when they were left out)."""
    kb = KnowledgeBase(*values)
    if rules_from_editions:
        object.__setattr__(kb, "rules", edition_rules(kb.links.editions))
    return kb


def _has_text(values: tuple) -> bool:
    """Whether a tuple holds a string that is not ASCII."""
    return any(type(v) is str and not v.isascii() for v in values)


def _packed(value: object) -> object:
    """A record's field as the cache writes it: a string that is not ASCII (or a tuple of strings holding one) as
    UTF-8 bytes. Pickling a string encodes it with a UTF-8 copy that the string keeps for as long as it lives: the
    knowledge base's texts would each carry one through the rest of the command (5 MB more for 5 MB of French)."""
    if type(value) is tuple and _has_text(value):
        return tuple(map(_packed_text, value))
    return _packed_text(value)


def _packed_text(value: object) -> object:
    """A string as `_packed` writes it; any other value as it is."""
    return value.encode("utf-8", "surrogatepass") if type(value) is str and not value.isascii() else value


def _unpacked_text(value: object) -> object:
    """Bytes that `_packed_text` wrote, back as a string; any other value as it is."""
    return value.decode("utf-8", "surrogatepass") if type(value) is bytes else value


def _unpacked(value: object) -> object:
    """A field as `_packed` wrote it, back as it was (no record of the knowledge base holds bytes)."""
    if type(value) is tuple and any(type(v) is bytes for v in value):
        return tuple(map(_unpacked_text, value))
    return _unpacked_text(value)


def _text_record(cls: type, values: tuple) -> object:
    """Rebuild a record whose texts `_packed` wrote as bytes."""
    return cls(*map(_unpacked, values))


def _frozen_map(*flat: object) -> FrozenMap:
    """Rebuild a `FrozenMap` from its keys and values, alternating (as `_Pickler` writes it)."""
    if not flat:
        return EMPTY
    flat = tuple(map(_unpacked_text, flat))
    return FrozenMap(zip(flat[::2], flat[1::2], strict=True))


class _Pickler(pickle.Pickler):
    """The pickler of the cache: `FrozenMap`s as flat `(key, value, …)` tuples, `parts` (object id -> its first
    piece, the piece after, whether a map's) as references to the pieces pickled before, a knowledge base as its
    fields (its rules left out when they are its editions').

    A pickler keeps every object it pickles until it ends, the arguments of each record included: a map's own
    `__reduce__` makes a dict copy of it (four times the size of a flat tuple), for each of tens of thousands.
    """

    def __init__(self, f, protocol: int, parts: dict[int, tuple] | None = None) -> None:
        super().__init__(f, protocol=protocol)
        self.parts = parts or {}

    def reducer_override(self, obj: object) -> object:
        """Pickle a part as its number, a `FrozenMap` as a call of `_frozen_map`, a knowledge base as its fields."""
        made = self.parts.get(id(obj))
        if made is not None:
            return _part, made
        if type(obj) is FrozenMap:
            return _frozen_map, tuple(map(_packed_text, itertools.chain.from_iterable(obj.items())))
        if type(obj) is KnowledgeBase:
            return self._knowledge_base(obj)
        if getattr(type(obj), "__reduce__", None) is _reduce:
            values = obj.__reduce__()[1]
            if self.parts and any(id(v) in self.parts for v in values):  # the alignment, holding its pairs
                return type(obj), tuple(_Ref(self.parts[id(v)]) if id(v) in self.parts else v for v in values)
            if any(type(v) is str and not v.isascii() or type(v) is tuple and _has_text(v) for v in values):
                return _text_record, (type(obj), tuple(_packed(v) for v in values))
        return NotImplemented

    def _knowledge_base(self, kb: KnowledgeBase) -> tuple:
        """A knowledge base as its fields, its parts as references, its rules left out when they are its editions'."""
        derived = edition_rules(kb.links.editions)
        left_out = len(derived) == len(kb.rules) and all(a is b for a, b in zip(derived, kb.rules, strict=True))
        values = []
        for f in dataclasses.fields(kb):
            value = () if left_out and f.name == "rules" else getattr(kb, f.name)
            values.append(_Ref(self.parts[id(value)]) if id(value) in self.parts else value)
        return _knowledge_base, (tuple(values), left_out)


class _Ref:
    """A part named in a knowledge base's fields (tuples, which `reducer_override` never sees, among them)."""

    __slots__ = ("made",)

    def __init__(self, made: tuple) -> None:
        self.made = made

    def __reduce__(self):
        return _part, self.made


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
