"""The search index on disk: one SQLite file, read lazily (a query loads only its terms and its results).

Pure Python (no whoosh). `write` stores an `IndexData`; `Reader` answers what lookup and ranking ask for,
caching what it has decoded, so a warm query touches no disk. Postings and document data are `marshal`
blobs: the index key includes the Python version, so a blob is never read by another marshal format.
"""

from __future__ import annotations

import json
import marshal
import sqlite3
import tempfile
from array import array
from collections.abc import Iterator
from contextlib import nullcontext as collector_paused
from dataclasses import dataclass, field
from itertools import accumulate
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the query path never imports the index builder
    from kb.search.build import DocInfo, IndexData

FILE = "search.sqlite"
SCHEMA = """
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT) WITHOUT ROWID;
CREATE TABLE docs(n INTEGER PRIMARY KEY, info BLOB, payload BLOB);
CREATE TABLE vocab(lang TEXT, word TEXT, term INTEGER, df INTEGER, bit INTEGER, PRIMARY KEY(lang, word)) WITHOUT ROWID;
CREATE TABLE forms(lang TEXT, form TEXT, term INTEGER, PRIMARY KEY(lang, form)) WITHOUT ROWID;
CREATE TABLE terms(lang TEXT, term INTEGER, postings BLOB, PRIMARY KEY(lang, term)) WITHOUT ROWID;
CREATE TABLE names(lang TEXT, word TEXT, doc INTEGER, PRIMARY KEY(lang, word, doc)) WITHOUT ROWID;
CREATE TABLE deletes(key TEXT, lang TEXT, word TEXT, PRIMARY KEY(key, lang, word)) WITHOUT ROWID;
CREATE TABLE numbers(number TEXT, doc INTEGER, PRIMARY KEY(number, doc)) WITHOUT ROWID;
CREATE TABLE concepts(lang TEXT, term INTEGER, terms BLOB, PRIMARY KEY(lang, term)) WITHOUT ROWID;
"""
FUZZY_MIN = 4
"""Words shorter than this are never corrected (nor offered as corrections)."""
FUZZY_MAX_LEN = 40
"""Longer words are never corrected nor offered as corrections (their deletions would not be bounded)."""


@dataclass(slots=True)
class Postings:
    """The documents holding a term in one language."""

    idf: float
    """Inverse document frequency of the term in that language."""
    docs: list[int]
    """Document numbers, ascending."""
    impacts: list[float]
    """BM25F term weight in each document (saturated, length-normalised; idf not included)."""
    positions: list[list[int]]
    """Positions of the term in each document (the first MAX_POSITIONS), ascending."""
    masks: list[int] = field(default_factory=list)
    """Which of the term's words (`bits`) each document holds as written: bit b for the word of bit b."""
    titles: list = field(default_factory=list)
    """Flat [index, impact, title mask, …] for the documents holding the term in their title: the impact with
    the title weighing as text (used when the title holds only other forms of the query word: `Piétine`
    for `piétinement`), and which of the term's words the title holds as written."""


@dataclass(slots=True)
class PackedPostings:
    """Postings while the index is built: typed arrays (a few bytes an item, not a Python object each), turned into
    `Postings` one term at a time when written."""

    idf: float = 0.0
    docs: array = field(default_factory=lambda: array("i"))
    impacts: array = field(default_factory=lambda: array("d"))
    counts: array = field(default_factory=lambda: array("B"))
    """Number of positions of each document in `flat` (at most MAX_POSITIONS)."""
    flat: array = field(default_factory=lambda: array("H"))
    """Positions of every document, one after the other (two bytes each until one needs four: `add_positions`)."""
    masks: array = field(default_factory=lambda: array("B"))
    """Masks of the words as written (31 bits at most; a byte each until one needs four: `add_mask`)."""
    titles: array = field(default_factory=lambda: array("d"))
    """Flat [index, impact, title mask, …] (indexes and masks are exact in a double)."""

    def add_positions(self, positions: list[int]) -> None:
        """Append a document's positions to `flat` (made an array of 32-bit ints when one is over 65,535)."""
        if positions[-1] > 65_535 and self.flat.typecode == "H":  # positions ascend: the last is the largest
            self.flat = array("i", self.flat)
        self.flat.extend(positions)

    def add_mask(self, mask: int) -> None:
        """Append a document's mask (`masks` made an array of 32-bit ints when one is over 255)."""
        if mask > 255 and self.masks.typecode == "B":
            self.masks = array("i", self.masks)
        self.masks.append(mask)

    def unpack(self) -> Postings:
        """The postings as the index files hold them (Python lists)."""
        flat, ends, t = self.flat.tolist(), list(accumulate(self.counts)), self.titles.tolist()
        positions = [flat[a:b] for a, b in zip([0, *ends[:-1]], ends, strict=True)]
        titles = [x for k in range(0, len(t), 3) for x in (int(t[k]), t[k + 1], int(t[k + 2]))]
        return Postings(self.idf, self.docs.tolist(), self.impacts.tolist(), positions, self.masks.tolist(), titles)


@dataclass(slots=True)
class Payload:
    """What results show: titles, texts, names, and the character span of every text token."""

    titles: dict[str, str]
    texts: dict[str, str]
    names: dict[str, str] | None
    context: dict[str, str]
    spans: dict[str, array]
    """Language -> flat [start, end, start, end…] of the text field's tokens, by position (stored as the array's
    bytes)."""


class PayloadSpill:
    """The payloads of an index being built, in a temporary file (nameless, gone when closed or when the process
    ends), read back in document order: the texts and token spans of every document are never all in memory."""

    def __init__(self, folder: Path | None = None) -> None:
        self._file = tempfile.TemporaryFile(dir=folder)  # noqa: SIM115 (closed by `close`, or with the process)
        self._ends = array("q")
        self._at_end = True
        """Whether the file's position is its end (false after a read)."""

    def add(self, titles: dict, texts: dict, names: dict | None, context: dict, spans: dict[str, array]) -> None:
        """Append a document's payload."""
        raw = {lang: memoryview(s) for lang, s in spans.items()}  # written as bytes, without a copy of them first
        blob = marshal.dumps((titles, texts, names, context, raw))  # (a giant text's spans are millions)
        end = self._ends[-1] if self._ends else 0
        if not self._at_end:  # a seek flushes the write buffer: only after a read
            self._file.seek(end)
            self._at_end = True
        self._file.write(blob)
        self._ends.append(end + len(blob))

    def __len__(self) -> int:
        return len(self._ends)

    def blobs(self) -> Iterator[bytes]:
        """The stored form of each document, in order, as the index file holds it; each read seeks first, so that
        readers may take turns."""
        f, ends = self._file, self._ends
        for n in range(len(ends)):
            at = ends[n - 1] if n else 0
            self._at_end = False
            f.seek(at)
            yield f.read(ends[n] - at)

    def __iter__(self) -> Iterator[Payload]:
        return map(load_payload, self.blobs())

    def close(self) -> None:
        """Remove the file."""
        self._file.close()


def load_payload(blob: bytes) -> Payload:
    """A payload from its stored form."""
    titles, texts, names, context, raw = marshal.loads(blob)
    spans = {}
    for lang, data in raw.items():
        spans[lang] = array("i")
        spans[lang].frombytes(data)
    return Payload(titles, texts, names, context, spans)


def write(path: Path | str, data: IndexData) -> sqlite3.Connection:
    """Write the index into a new SQLite file (or `:memory:`); return the open connection."""
    with collector_paused():  # a common term's postings are a list per document: with the documents' records
        return _write(path, data)  # alive, the collector would scan them all again (twice the content: 3.5x the time)


def _write(path: Path | str, data: IndexData) -> sqlite3.Connection:
    db = sqlite3.connect(str(path), check_same_thread=False)
    db.executescript("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;" + SCHEMA)
    langs: dict[tuple[str, ...], list[str]] = {}  # one list per set of languages, as the documents share tuples
    brief = [
        (d.kind, d.key, d.number, d.order, d.boost, langs.setdefault(d.langs, list(d.langs)), d.current, d.editions)
        for d in data.docs
    ]
    stops = {lang: sorted(li.stops) for lang, li in data.lang_index.items()}
    meta = {"langs": data.langs, "stops": stops, "n": {lang: _count(data, lang) for lang in data.langs}}
    rows = [("meta", json.dumps(meta)), ("brief", marshal.dumps(brief)), ("lexicon", json.dumps(data.lexicon))]
    del brief  # before the rest is written
    db.executemany("INSERT INTO meta VALUES (?, ?)", rows)
    del rows
    db.executemany(
        "INSERT INTO docs VALUES (?, ?, ?)",
        ((n, _dump_info(d), blob) for n, (d, blob) in enumerate(zip(data.docs, data.payloads.blobs(), strict=True))),
    )
    for lang, li in data.lang_index.items():
        db.executemany(
            "INSERT INTO vocab VALUES (?, ?, ?, ?, ?)",
            ((lang, w, t, li.df.get(w, 0), li.bits[w]) for w, t in li.vocab.items()),
        )
        db.executemany("INSERT INTO forms VALUES (?, ?, ?)", ((lang, f, t) for f, t in li.forms.items()))
        db.executemany(
            "INSERT INTO terms VALUES (?, ?, ?)",
            ((lang, t, _dump_postings(p)) for t, p in enumerate(li.terms)),
        )
        db.executemany("INSERT OR IGNORE INTO names VALUES (?, ?, ?)", ((lang, w, n) for w, n in li.names))
        db.executemany("INSERT OR IGNORE INTO deletes VALUES (?, ?, ?)", _deletes(lang, li))
        db.executemany(
            "INSERT INTO concepts VALUES (?, ?, ?)", ((lang, t, marshal.dumps(c)) for t, c in li.concepts.items())
        )
    db.executemany(
        "INSERT OR IGNORE INTO numbers VALUES (?, ?)", ((d.number, n) for n, d in enumerate(data.docs) if d.number)
    )
    db.commit()
    return db


def _count(data: IndexData, lang: str) -> int:
    """Number of documents having a language."""
    return sum(1 for d in data.docs if lang in d.langs)


def _dump_postings(packed: PackedPostings) -> bytes:
    p = packed.unpack()
    return marshal.dumps((p.idf, p.docs, p.impacts, p.positions, p.masks, p.titles))


def _dump_info(d: DocInfo) -> bytes:
    return marshal.dumps(({lang: b.tolist() for lang, b in d.bounds.items()}, d.headwords(), list(d.cites)))


def correctable(word: str, lang_stops) -> bool:
    """Whether a vocabulary word may be offered as a spelling correction (letters only, not too short or long)."""
    return FUZZY_MIN <= len(word) <= FUZZY_MAX_LEN and word.isalpha() and word not in lang_stops


def deletions(word: str) -> set[str]:
    """The word and every string made by deleting one of its characters."""
    return {word} | {word[:i] + word[i + 1 :] for i in range(len(word))}


def _deletes(lang: str, li):
    """Rows of the deletion index: any word within one edit of a query word shares one of these keys."""
    for word in li.vocab:
        if correctable(word, li.stops):
            for key in deletions(word):
                yield key, lang, word


class Reader:
    """Read access to an index file, with decoded terms and documents cached."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db
        meta = json.loads(self._one("SELECT value FROM meta WHERE key='meta'")[0])
        self.langs: tuple[str, ...] = tuple(meta["langs"])
        self.stops = {lang: frozenset(words) for lang, words in meta["stops"].items()}
        self.n_docs: dict[str, int] = meta["n"]
        brief = marshal.loads(self._one("SELECT value FROM meta WHERE key='brief'")[0])
        self.kinds = [b[0] for b in brief]
        self.keys = [b[1] for b in brief]
        self.numbers = [b[2] for b in brief]
        self.orders = [b[3] for b in brief]
        self.boosts = [b[4] for b in brief]
        self.doc_langs = [tuple(b[5]) for b in brief]
        self.current = [b[6] for b in brief]
        self.editions = [b[7] for b in brief]
        self._terms: dict[tuple[str, int], Postings] = {}
        self._infos: dict[int, tuple] = {}
        self._lexicon: dict | None = None

    @classmethod
    def open(cls, folder: Path) -> Reader:
        """Open the index file of an index folder, read-only."""
        uri = (folder / FILE).resolve().as_uri() + "?mode=ro"
        return cls(sqlite3.connect(uri, uri=True, check_same_thread=False))

    def close(self) -> None:
        """Close the file."""
        self.db.close()

    def _one(self, sql: str, args: tuple = ()):
        return self.db.execute(sql, args).fetchone()

    def vocab(self, lang: str, word: str) -> int | None:
        """The term of a folded word as written in the texts, or None."""
        found = self.word(lang, word)
        return found[0] if found else None

    def word(self, lang: str, word: str) -> tuple[int, int] | None:
        """(term, bit) of a folded word as written in the texts, or None."""
        row = self._one("SELECT term, bit FROM vocab WHERE lang=? AND word=?", (lang, word))
        return (row[0], row[1]) if row else None

    def form(self, lang: str, form: str) -> int | None:
        """The term of an index form (a stem), or None."""
        row = self._one("SELECT term FROM forms WHERE lang=? AND form=?", (lang, form))
        return row[0] if row else None

    def near(self, word: str) -> list[tuple[str, str, int, int, int]]:
        """(lang, word, term, df, bit) of the vocabulary words sharing a one-deletion key with `word`."""
        keys = sorted(deletions(word))
        marks = ",".join("?" * len(keys))
        sql = (
            "SELECT d.lang, d.word, v.term, v.df, v.bit FROM deletes d JOIN vocab v ON v.lang=d.lang AND v.word=d.word "
            f"WHERE d.key IN ({marks})"
        )
        return [tuple(row) for row in self.db.execute(sql, keys)]

    def names(self, lang: str, prefix: str, limit: int) -> list[tuple[str, int]]:
        """(card-name word, document) of the name words starting with `prefix`, in word order."""
        sql = "SELECT word, doc FROM names WHERE lang=? AND word>=? AND word<? ORDER BY word, doc LIMIT ?"
        return [tuple(r) for r in self.db.execute(sql, (lang, prefix, prefix + "\U0010ffff", limit))]

    def term(self, lang: str, term: int) -> Postings:
        """The postings of a term."""
        found = self._terms.get((lang, term))
        if found is None:
            row = self._one("SELECT postings FROM terms WHERE lang=? AND term=?", (lang, term))
            found = Postings(*marshal.loads(row[0])) if row else Postings(0.0, [], [], [], [], [])
            self._terms[(lang, term)] = found
        return found

    def lexicon(self) -> dict:
        """The translation tables (`{"fr>en": table, …}`, see `kb.search.lexicon`), read on first use."""
        if self._lexicon is None:
            row = self._one("SELECT value FROM meta WHERE key='lexicon'")
            self._lexicon = json.loads(row[0]) if row else {}
        return self._lexicon

    def concept(self, lang: str, term: int) -> list[tuple[int, float]]:
        """(term, weight) of what a one-word headword's term names (empty for other terms)."""
        row = self._one("SELECT terms FROM concepts WHERE lang=? AND term=?", (lang, term))
        return [tuple(x) for x in marshal.loads(row[0])] if row else []

    def info(self, n: int) -> tuple[dict, dict, list]:
        """(bounds, heads, cites) of a document."""
        found = self._infos.get(n)
        if found is None:
            found = self._infos[n] = marshal.loads(self._one("SELECT info FROM docs WHERE n=?", (n,))[0])
        return found

    def payload(self, n: int) -> Payload:
        """Titles, texts, names, context and token spans of a document."""
        return load_payload(self._one("SELECT payload FROM docs WHERE n=?", (n,))[0])

    def with_number(self, number: str) -> list[int]:
        """Documents of a rule number and of the numbers under it (`120` -> 120, 120.1, 120.1a…)."""
        if len(number) == 1:
            rows = self.db.execute("SELECT doc FROM numbers WHERE number=? OR number LIKE ?", (number, number + "__%"))
        else:
            rows = self.db.execute("SELECT doc FROM numbers WHERE number=? OR number LIKE ?", (number, number + "%"))
        return [r[0] for r in rows]
