"""Search: the index life cycle and the query entry point; the only module importing whoosh (its stemmers).

One document per rule number (every language side by side), glossary entry, card, ruling and note, analysed
once at index time (`kb.search.build`) and stored in SQLite (`kb.search.db`). A query never stems nor
imports whoosh: it looks its words up in the stored vocabulary (`kb.search.lookup`) and ranks with the
stored BM25F impacts and positions (`kb.search.rank`), so a cold `kb search` stays fast.
"""

from __future__ import annotations

import sqlite3
import sys
from collections.abc import Iterable
from dataclasses import replace
from functools import cache
from pathlib import Path

from kb.model.numbers import descends, sort_key
from kb.search.db import Reader, write
from kb.search.lookup import Slot
from kb.search.query import KINDS, Item, ParsedQuery, SearchError, parse_query
from kb.search.rank import CONCEPT_CREDIT, phrase_docs, score
from kb.search.results import SearchResult, make_result
from kb.search.store import IndexNotWritable, current, index_root
from kb.search.store import index_key as _index_key
from kb.search.store import publish as _publish
from kb.search.text import NEGATIONS, LangText, query_tokens, stop_words
from kb.search.translate import translate

__all__ = [
    "IndexNotWritable",
    "Item",
    "ParsedQuery",
    "SearchError",
    "SearchIndex",
    "SearchResult",
    "entries",
    "ensure_index",
    "index_key",
    "index_root",
    "open_index",
    "parse_query",
    "publish",
    "write_index",
]


def __getattr__(name: str):
    """`Entry` and `entries`, imported on first use (a query never needs them)."""
    if name in ("Entry", "entries"):
        from kb.search import entries as module

        return getattr(module, name)
    raise AttributeError(name)


def entries(kb):
    """Every index entry of a knowledge base (see `kb.search.entries`)."""
    from kb.search.entries import entries as found

    return found(kb)


INDEX_VERSION = 7
"""Bump when the analysis, the tables or the ranking data change: old indexes are then rebuilt."""


def _same(word: str) -> str:
    """No stemming (a language Snowball does not know)."""
    return word


@cache
def lang_text(lang: str) -> LangText:
    """Analysis of a language: Snowball stemmer and stop words when whoosh has them, else folding alone."""
    from whoosh.lang import has_stemmer, has_stopwords, stemmer_for_language, stopwords_for_language

    stem = stemmer_for_language(lang) if has_stemmer(lang) else _same
    stops = stop_words(lang, stopwords_for_language(lang) if has_stopwords(lang) else ())
    return LangText(lang, stem, stops, NEGATIONS.get(lang, ()))


def build_data(items: Iterable, lexicon=None, spill: Path | None = None):
    """Analyse entries into an `IndexData` (every language of the entries, in display order), with the translation
    tables of a lexicon (`kb.link.lexicon.Lexicon`, None for none). The entries are read once: pass an iterator
    and none of them is kept. `spill`: where the payloads' temporary file goes (see `kb.search.build.build`)."""
    from kb.search.build import build
    from kb.search.lexicon import tables

    data = build(items, lang_text, spill)
    data.lexicon = tables(lexicon, data, lang_text)
    return data


def write_index(folder: Path, items: Iterable, lexicon=None) -> None:
    """Create an index in a folder (created if needed) holding the entries (and a lexicon's tables)."""
    from kb.search.db import FILE

    folder.mkdir(parents=True, exist_ok=True)
    data = build_data(items, lexicon, folder)
    try:
        write(folder / FILE, data).close()
    finally:
        data.payloads.close()


# --- index life cycle -----------------------------------------------------------------------------------


def index_key(content: Path) -> str:
    """Hash of the content files, the kb code and the index format: the index is reused while it holds."""
    return _index_key(content, f"{INDEX_VERSION} {sys.version_info[:2]} {sqlite3.sqlite_version}")


def publish(root: Path, key: str, items: Iterable, lexicon=None) -> Path:
    """Build a new index in its own folder, then switch the pointer to it atomically; prune old versions (the
    entries are read once)."""
    return _publish(root, key, lambda folder: write_index(folder, items, lexicon))


def ensure_index(content: Path, kb=None) -> Path:
    """Folder of an up-to-date index for `content`, built (from `kb` or a fresh load) when stale or missing."""
    root, key = index_root(content), index_key(content)
    live = current(root)
    if live and live[0] == key and (root / live[1]).is_dir():
        return root / live[1]
    from kb.search.entries import entries_of

    return publish(root, key, *entries_of(kb if kb is not None else _load(content)))


def _load(content: Path):
    """Load a knowledge base (imported late: `kb.link.load` pulls in every parser)."""
    from kb.link.load import load

    return load(content)


def open_index(content: Path, kb=None) -> SearchIndex:
    """Open the up-to-date index of a content folder, building it if needed; in memory if it cannot be saved."""
    for attempt in range(3):
        try:
            folder = ensure_index(content, kb)
        except IndexNotWritable as err:
            kb = kb if kb is not None else _load(content)
            return SearchIndex(_in_memory(entries(kb), kb.lexicon), unsaved=str(err))
        try:
            return SearchIndex(Reader.open(folder))
        except sqlite3.Error:
            if attempt == 2:  # pruned by a concurrent rebuild between reading the pointer and opening it
                raise
    raise AssertionError("unreachable")


def memory_index(items: Iterable, lexicon=None) -> SearchIndex:
    """An index of some entries (and a lexicon's translation tables), in memory only."""
    return SearchIndex(_in_memory(items, lexicon))


def _in_memory(items: Iterable, lexicon) -> Reader:
    """A reader of an index built in memory."""
    data = build_data(items, lexicon)
    try:
        return Reader(write(":memory:", data))
    finally:
        data.payloads.close()


# --- searching ------------------------------------------------------------------------------------------


class SearchIndex:
    """An open index; keep it for many queries (decoded terms and documents are cached)."""

    def __init__(self, reader: Reader, unsaved: str | None = None) -> None:
        self.reader = reader
        self.langs = reader.langs
        """Languages the index has, in display order."""
        self.unsaved = unsaved
        """Why the index lives in memory only (the build folder cannot be written), else None."""
        self.editions = _editions(reader)
        """(current edition ids, other edition ids) of the rules and glossaries indexed."""
        self.last: dict = {}
        """What the last search did: `corrected` (the query with spelling corrections, or None), `editions`."""
        self._filters: dict[tuple, bytearray] = {}

    def close(self) -> None:
        """Release the index file."""
        self.reader.close()

    def search(
        self, text: str, lang: str | None = None, kind: str | None = None, limit: int = 10, edition: str | None = None
    ) -> list[SearchResult]:
        """Answer the query box; `lang`, `kind`, `edition` add to its filters. Raise SearchError when malformed."""
        parsed = parse_query(text)
        langs = _narrow(parsed.langs, lang, self.langs, "lang")
        kinds = _narrow(parsed.kinds, kind, KINDS, "kind")
        editions = self._editions_of((*parsed.editions, *([edition] if edition else [])))
        allowed = self._allowed(langs, kinds, editions)
        self.last = {"corrected": None, "editions": editions or self.editions[0]}
        if parsed.number and "rule" in kinds:
            found = self._numbers(parsed.number, allowed, limit)
            if found:
                return found
        slots = translate(parsed, self.reader, langs)
        if not slots:
            return []
        fixed = [s for s in slots if s.fixed]
        if fixed:
            self.last["corrected"] = _corrected(parsed, fixed)
        allowed = self._exclude(parsed.excluded, langs, allowed)
        ranked = score(slots, langs, self.reader, allowed)[:limit]
        terms = _terms(slots, langs, self.reader)
        return [_translated(make_result(self.reader, d, s, terms, langs), slots, via) for d, s, via in ranked]

    def _numbers(self, number: str, allowed: bytearray, limit: int) -> list[SearchResult]:
        """The rule and everything under it, in rule order."""
        found = [d for d in self.reader.with_number(number) if allowed[d] and descends(self.reader.numbers[d], number)]
        found.sort(key=lambda d: (not self.reader.current[d], sort_key(self.reader.numbers[d]), d))
        return [make_result(self.reader, d, 0.0, {}, self.langs) for d in found[:limit]]

    def _allowed(self, langs: tuple[str, ...], kinds: tuple[str, ...], editions: tuple[str, ...]) -> bytearray:
        """Which documents the filters let through (1) or not (0), computed once per combination."""
        key = (langs, kinds, editions)
        if key not in self._filters:
            r = self.reader
            self._filters[key] = bytearray(
                r.kinds[d] in kinds
                and any(x in langs for x in r.doc_langs[d])
                and (bool(set(r.editions[d].values()) & set(editions)) if editions else r.current[d])
                for d in range(len(r.kinds))
            )
        return self._filters[key]

    def _editions_of(self, asked: tuple[str, ...]) -> tuple[str, ...]:
        """Edition ids matching `edition:` values (an id or a date); SearchError for one not loaded."""
        every = [*self.editions[0], *self.editions[1]]
        found = []
        for value in asked:
            match = [e for e in every if value in (e, e.split(":", 1)[-1])]
            if not match:
                raise SearchError(f"unknown edition '{value}'; loaded: {', '.join(every) or 'none'}")
            found += match
        return tuple(dict.fromkeys(found))

    def _exclude(self, items: tuple[Item, ...], langs: tuple[str, ...], allowed: bytearray) -> bytearray:
        """The filter less the documents holding an excluded word or phrase (as written)."""
        if not items:
            return allowed
        out = bytearray(allowed)
        for item in items:
            words = [w for _, w in query_tokens(item.text)]
            for lang in langs:
                terms = [self.reader.vocab(lang, w) for w in words]
                if item.phrase and len(terms) > 1:
                    if None not in terms:
                        for d, _, _ in phrase_docs(terms, lang, self.reader, out):
                            out[d] = 0
                    continue
                for t in terms:
                    if t is not None:
                        for d in self.reader.term(lang, t).docs:
                            out[d] = 0
        return out


def _terms(slots: list[Slot], langs: tuple[str, ...], reader) -> dict[str, set[int]]:
    """Per language, every term the query matched through, translations included (for marking snippets)."""
    found: dict[str, set[int]] = {lang: set() for lang in langs}
    for s in slots:
        for lang in langs:
            found[lang] |= {t for t, f, _ in s.words.get(lang, ()) if f >= CONCEPT_CREDIT}
            found[lang] |= {t for terms in s.phrases.get(lang, ()) for t in terms}
            found[lang] |= {t for terms, f in s.via.get(lang, ()) if f >= CONCEPT_CREDIT for t in terms}
    return found


def _translated(result: SearchResult, slots: list[Slot], via: tuple) -> SearchResult:
    """A result with the translations it was found through, when it matches no word as typed."""
    if not via:
        return result
    lang, picked = via[0], via[1:]
    found = [t for k in picked for t in slots[k].translated if t[1] == lang]
    return replace(result, translated=tuple((a, b, c, tuple(d)) for a, b, c, d in found))


def _corrected(parsed: ParsedQuery, fixed: list[Slot]) -> str:
    """The query's words with their spelling corrections (`tramle` -> `trample`)."""
    fixes = {s.text: s.fixed for s in fixed}
    words = [w for g in parsed.groups for i in g for _, w in query_tokens(i.text)]
    return " ".join(fixes.get(w, w) for w in words)


def _editions(reader: Reader) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(current, other) edition ids of the indexed rules and glossary terms."""
    cur, other = set(), set()
    for flag, eds in zip(reader.current, reader.editions, strict=True):
        (cur if flag else other).update(eds.values())
    return tuple(sorted(cur)), tuple(sorted(other - cur))


def _narrow(from_query: tuple[str, ...], option: str | None, allowed: tuple[str, ...], name: str) -> tuple[str, ...]:
    """Values allowed by the query's filters and the option; a value the index lacks is a SearchError."""
    for value in (*from_query, *([option] if option else [])):
        if value not in allowed:
            raise SearchError(f"unknown {name} '{value}'; use one of {', '.join(allowed)}")
    chosen = set(from_query or allowed) & ({option} if option else set(allowed))
    return tuple(v for v in allowed if v in chosen)
