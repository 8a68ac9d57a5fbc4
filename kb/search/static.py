"""The site's search index: the Whoosh index exported as JSON files that `templates/static/kbsearch.js` reads.

Nothing is computed anew here: the files hold what Whoosh's reader has, so the browser ranks as `kb search` does.

- `core.json`: the ranking constants, the languages, stop words and the lexicon's translation tables, and per
  document what filtering needs: its kind (a digit per document, an index into KINDS), its languages (a bit per
  language of `langs`), its rule number;
- `vocab-<k>.json`: each language's words as folded -> [frequency, index forms...] (`words_<lang>`), a word in
  shard `hash(word) % VOCAB`;
- `forms-<k>.json`: the index forms, by their first STEM_MIN letters (a word's stem prefix is found in one shard);
- `names-<k>.json`: card-name words -> [the documents holding them, their number in the whole index], by their
  first NAME_MIN letters;
- `terms-<k>.json`: a term's postings in every field: `{term: {field: [[documents], [scores], df]}}`, the scores
  being Whoosh's BM25F score of the term in the document (boost 1) and `df` its document frequency in the whole
  index (the idf of the query's words), `hash(term) % TERMS`;
- `rank-<k>.json`: the headwords and cited rules of RANK documents, for the re-rank;
- `docs-<k>.json`: what DOCS documents show in results (id, page, titles, names, texts, editions, ancestors'
  headings).

`hash` is the 32-bit FNV-1a of the UTF-8 bytes, in both languages.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

from kb.model.numbers import TYPED_PATTERN
from kb.search import index as search_index
from kb.search import lookup, rank, results
from kb.search.analysis import lang_text
from kb.search.query import KINDS
from kb.search.text import STOP
from kb.search.writer import KIND_BOOSTS

FORMAT = 3
"""Version of the files' layout, checked by the JavaScript."""
VOCAB, FORMS, NAMES = 32, 32, 16
TERM_BYTES = 12_000
"""About how large a postings shard is."""
RANK, DOCS = 128, 8
"""Documents per rank-data and per display-data file."""
TEXT_MAX = 4000
"""Characters of a text kept for its snippet."""


def fnv1a(text: str) -> int:
    """The 32-bit FNV-1a hash of a string's UTF-8 bytes (the shard of a key)."""
    h = 0x811C9DC5
    for byte in text.encode("utf-8"):
        h = ((h ^ byte) * 0x01000193) & 0xFFFFFFFF
    return h


def constants() -> dict:
    """The ranking constants, so that the JavaScript never copies a number by hand."""
    return {
        "TOP": rank.TOP,
        "RERANK": rank.RERANK,
        "COVERAGE_POWER": rank.COVERAGE_POWER,
        "HEAD_BONUS": rank.HEAD_BONUS,
        "HEAD_SHARE": rank.HEAD_SHARE,
        "CITED_BONUS": rank.CITED_BONUS,
        "FIELDS": search_index.FIELDS,
        "EXACT": search_index.EXACT,
        "NAME": search_index.NAME,
        "NAME_LIMIT": search_index.NAME_LIMIT,
        "MAX_SLOTS": lookup.MAX_SLOTS,
        "MAX_WORD": lookup.MAX_WORD,
        "STEM_MIN": lookup.STEM_MIN,
        "STEM_FACTOR": lookup.STEM_FACTOR,
        "FUZZY_FACTOR": lookup.FUZZY_FACTOR,
        "TRANSLATED": lookup.TRANSLATED,
        "NAME_MIN": lookup.NAME_MIN,
        "SNIPPET": results.SNIPPET,
        "LEAD": results.LEAD,
        "VOCAB": VOCAB,
        "FORMS": FORMS,
        "NAMES": NAMES,
        "RANK": RANK,
        "DOCS": DOCS,
        "BOOSTS": KIND_BOOSTS,
    }


def write_static(folder: Path, index, url_of: Callable[[dict], str | None]) -> dict:
    """Write the site's search files of an open `SearchIndex` into `folder`: its documents of the current editions,
    numbered in Whoosh's order; `url_of(stored fields)` gives the page of a document (None: the site does not show
    it). Return a summary."""
    folder.mkdir(parents=True, exist_ok=True)
    searcher = index.searcher
    reader = searcher.reader()
    every = [searcher.stored_fields(d) for d in range(searcher.doc_count_all())]
    kept = [d for d, s in enumerate(every) if s["data"]["current"]]
    site_id = {d: k for k, d in enumerate(kept)}
    stored = [every[d] for d in kept]
    n = len(stored)
    langs = index.langs
    terms = _postings(searcher, langs, site_id)
    shards = max(1, sum(len(json.dumps(v)) for v in terms.values()) // TERM_BYTES)
    core = {
        "format": FORMAT,
        "langs": list(langs),
        "n": searcher.doc_count_all(),
        "docs": n,
        "c": constants() | {"TERMS": shards},
        "pattern": TYPED_PATTERN,
        "stops": {lang: sorted(lang_text(lang).stops) for lang in langs},
        "lexicon": index.tables.lexicon,
        "phrases": {lang: sorted(p) for lang, p in index.tables.phrases.items()},
        "kinds": "".join(str(KINDS.index(s["kind"])) for s in stored),
        "langsOf": [
            sum(1 << k for k, x in enumerate(langs) if x in s["data"]["texts"] or x in s["data"]["titles"])
            for s in stored
        ],
        "numbers": [s["number"] or None for s in stored],
        "aside": [k for k, s in enumerate(stored) if s["number"] and s["key"] != s["number"]],
    }
    _dump(folder / "core.json", core)
    _sharded(folder, "terms", terms, shards, lambda term: fnv1a(term) % shards)
    vocab = {
        (lang, w): [reader.frequency(f"words_{lang}", w), *forms]
        for lang in langs
        for w, forms in index.tables.vocab.get(lang, {}).items()
    }
    _by_lang(folder, "vocab", vocab, VOCAB, lambda w: fnv1a(w) % VOCAB)
    forms = {(lang, f): 1 for lang in langs for fs in index.tables.vocab.get(lang, {}).values() for f in fs}
    stem = lookup.STEM_MIN
    _by_lang(folder, "forms", forms, FORMS, lambda f: fnv1a(f[:stem]) % FORMS)
    names = {}
    for w in _field_terms(reader, "name"):
        docs = [site_id[d] for d in reader.postings("name", w).all_ids() if d in site_id]
        if docs:
            names[w] = [docs, reader.doc_frequency("name", w)]
    _sharded(folder, "names", names, NAMES, lambda w: fnv1a(w[: lookup.NAME_MIN]) % NAMES)
    for k in range(0, n, RANK):
        part = [[s["data"]["heads"], s["data"]["cites"]] for s in stored[k : k + RANK]]
        _dump(folder / f"rank-{k // RANK}.json", part)
    shown = 0
    for k in range(0, n, DOCS):
        part = []
        for s in stored[k : k + DOCS]:
            url = url_of(s)
            shown += url is not None
            data = s["data"]
            texts = {lang: t[:TEXT_MAX] for lang, t in data["texts"].items()}
            part.append([s["key"], url, data["titles"], data["names"], texts, data["editions"], data["ctx"]])
        _dump(folder / f"docs-{k // DOCS}.json", part)
    return {"documents": n, "shown": shown, "term_shards": shards}


def _field_terms(reader, field: str) -> list[str]:
    """The terms of a field (none when the schema lacks it)."""
    if field not in reader.schema:
        return []
    return [t.decode("utf-8") if isinstance(t, bytes) else t for t in reader.lexicon(field)]


def _postings(searcher, langs: tuple[str, ...], site_id: dict[int, int]) -> dict[str, dict[str, list]]:
    """term -> field -> [documents, Whoosh's BM25F scores, document frequency] of every scored field of the index
    (the site's documents only, by their site number)."""
    found: dict[str, dict[str, list]] = defaultdict(dict)
    reader = searcher.reader()
    for field in (f"{name}_{lang}" for lang in langs for name in (*search_index.FIELDS, "words")):
        for term in _field_terms(reader, field):
            if term.startswith(STOP):  # stop words: only phrases hold them, which the browser finds in the texts
                continue
            m = searcher.postings(field, term)
            docs, scores = [], []
            while m.is_active():
                if m.id() in site_id:
                    docs.append(site_id[m.id()])
                    scores.append(m.score())
                m.next()
            if docs:
                found[term][field] = [docs, scores, reader.doc_frequency(field, term)]
    return found


def _sharded(folder: Path, name: str, items: dict, count: int, shard: Callable[[str], int]) -> None:
    """Write `items` into `count` files `<name>-<k>.json` by their key's shard."""
    parts: list[dict] = [{} for _ in range(count)]
    for key, value in items.items():
        parts[shard(key)][key] = value
    for k, part in enumerate(parts):
        _dump(folder / f"{name}-{k}.json", part)


def _by_lang(folder: Path, name: str, items: dict, count: int, shard: Callable[[str], int]) -> None:
    """Write `{(lang, key): value}` into `count` files `<name>-<k>.json` of `{lang: {key: value}}`."""
    parts: list[dict] = [{} for _ in range(count)]
    for (lang, key), value in items.items():
        parts[shard(key)].setdefault(lang, {})[key] = value
    for k, part in enumerate(parts):
        _dump(folder / f"{name}-{k}.json", part)


def _dump(path: Path, value) -> None:
    """Write compact JSON."""
    path.write_text(json.dumps(value, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")
