"""An index's export as a query reads it: each file read once, when first asked for, and checked against the
export's manifest; a term's postings (documents and the scores Whoosh's BM25F gave them) as arrays; the query tables
(`kb.search.lookup`) read from its shards. `templates/static/kbsearch.js` reads the same files the same way.
"""

from __future__ import annotations

import json
from hashlib import sha256
from pathlib import Path
from typing import Any

import numpy as np

from kb.search.lookup import STEM_MIN
from kb.search.store import EXPORT_MANIFEST, IndexDamaged
from kb.sources.text import fnv1a

MANIFEST = EXPORT_MANIFEST
"""The export's files and their SHA-256."""


class Export:
    """The files of an index's export, each read once, when first asked for, and checked against the export's
    manifest (its files' SHA-256): a file that does not read back as written is `IndexDamaged`."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.manifest: dict[str, str] = self._json(MANIFEST, None)
        self.files: dict[str, Any] = {}
        self.core: dict = self.file("core.json")
        self.c: dict = self.core["c"]
        self.postings_of: dict[str, dict[str, tuple[np.ndarray, np.ndarray, int]]] = {}

    def file(self, name: str) -> Any:
        """A file's data (read once)."""
        found = self.files.get(name)
        if found is None:
            found = self.files[name] = self._json(name, self.manifest.get(name, ""))
        return found

    def _json(self, name: str, digest: str | None) -> Any:
        """A file's JSON, its SHA-256 checked (`digest`; None: not checked)."""
        try:
            blob = (self.folder / name).read_bytes()
            if digest is not None and sha256(blob).hexdigest() != digest:
                raise IndexDamaged(f"{name} is not the file the index was made with")
            return json.loads(blob)
        except (OSError, ValueError) as err:
            raise IndexDamaged(f"{name} cannot be read ({err})") from err

    def shard(self, kind: str, key: str, lang: str | None = None) -> dict:
        """A language's part of the shard holding a key (`{key: value}`)."""
        part = self.file(f"{kind}-{fnv1a(key) % self.c[kind.upper()]}.json")
        return (part.get(lang) if lang else part) or {}

    def postings(self, term: str) -> dict[str, tuple[np.ndarray, np.ndarray, int]]:
        """A term's documents and scores in each field where it stands: `{field: (docs, scores, df)}`."""
        found = self.postings_of.get(term)
        if found is None:
            found = {}
            for name, (gaps, distinct, picks, df) in self.shard("terms", term).get(term, {}).items():
                docs = np.cumsum(np.asarray(gaps, dtype=np.int64))
                table = np.asarray(distinct or [0.0], dtype=np.float64)
                scores = table[np.asarray(picks, dtype=np.int64)] if picks else np.full(len(docs), table[0])
                found[name] = (docs, scores, df)
            self.postings_of[term] = found
        return found


class ExportTables:
    """The query tables (`kb.search.lookup`) read from an export: words, forms and translations."""

    def __init__(self, export: Export) -> None:
        core = export.core
        self.export = export
        self.langs: tuple[str, ...] = tuple(core["langs"])
        self.docs: int = core["n"]
        self.lexicon: dict = core["lexicon"]
        self.phrases = {lang: frozenset(p) for lang, p in core.get("phrases", {}).items()}
        self.concepts: dict = core.get("concepts", {})
        self.stops = {lang: frozenset(core["stops"].get(lang, ())) for lang in self.langs}

    def forms(self, lang: str, word: str) -> list[str]:
        """Index forms of a folded word in a language (empty: not in the vocabulary)."""
        return self.export.shard("vocab", word, lang).get(word, [])

    def stem_prefix(self, lang: str, word: str) -> str | None:
        """The longest prefix of a word (at least STEM_MIN letters) that is an index form of the language."""
        part = self.export.shard("forms", word[:STEM_MIN], lang)
        for end in range(len(word) - 1, STEM_MIN - 1, -1):
            if word[:end] in part:
                return word[:end]
        return None

    def words_of(self, lang: str, form: str) -> list[str]:
        """The words (as folded) that have an index form."""
        return self.export.shard("forms", form[:STEM_MIN], lang).get(form, [])

    def spelling(self, lang: str, word: str) -> dict[str, int]:
        """The language's words sharing a word's first letter, each with how many documents hold it."""
        return self.export.shard("spell", word[:1], lang)
