"""The site's search index: the Whoosh index of the current editions exported as JSON files that
`templates/static/kbsearch.js` reads.

Nothing is ranked anew here: the files hold what Whoosh's reader has (terms, postings, field lengths, stored fields)
and the scores Whoosh's BM25F gives them, so the browser ranks as `kb search` does.

- `core.json`: the ranking constants, the languages, stop words, the lexicon's translation tables and its terms
  indexed as one token, the numbers a translation gives other rules, and per document what filtering needs: its
  kind (a digit per document, an index into KINDS), its languages (a bit per language of `langs`), its rule number;
- `vocab-<k>.json`: each language's words as folded -> [documents holding it, index forms...], a word in shard
  `hash(its first letter) % VOCAB` (a spelling correction keeps the first letter: it reads one shard);
- `forms-<k>.json`: the index forms, by their first STEM_MIN letters (a word's stem prefix is found in one shard);
- `names-<k>.json`: card-name words -> [the documents holding them, their number], by their first NAME_MIN letters;
- `terms-<k>.json`: a term's postings in each text field: `{term: {field: [[documents], [scores], df]}}`, the
  scores being Whoosh's BM25F score of the term in the document (boost 1) and `df` its document frequency (the
  idf of the query's words); a word as written (`=word`) has its documents only, `hash(term) % TERMS`;
- `rank-<k>.json`: the headwords, ancestors' headings and cited rules of RANK documents, for the re-rank;
- `docs-<k>.json`: what DOCS documents show in results (id, page, titles, names, texts, editions, ancestors'
  headings, own numbers).

`hash` is the 32-bit FNV-1a of the UTF-8 bytes, in both languages.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

from whoosh.scoring import bm25

from kb.model.numbers import TYPED_PATTERN
from kb.search import index as search_index
from kb.search import lookup, rank, results
from kb.search.analysis import lang_text
from kb.search.query import KINDS
from kb.search.text import EXACT, STOP, SYMBOL

FORMAT = 4
"""Version of the files' layout, checked by the JavaScript."""
VOCAB, FORMS, NAMES = 32, 32, 16
TERM_BYTES = 8_000
"""About how large a postings shard is."""
RANK, DOCS = 64, 8
"""Documents per rank-data and per display-data file."""
SYMBOLS = re.compile(SYMBOL)
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
    found = {
        name: getattr(module, name)
        for module, names in (
            (rank, "TOP RERANK COVERAGE_POWER EXACT_BONUS HEAD_BONUS SECTION_BONUS HEAD_SHARE THROUGH CITED_BONUS"),
            (search_index, "NAME NAME_LIMIT"),
            (lookup, "MAX_SLOTS MAX_WORD STEM_MIN STEM_FACTOR FUZZY_FACTOR TRANSLATED NAME_MIN CORRECT_PREFIX"),
            (results, "SNIPPET LEAD BREAK"),
        )
        for name in names.split()
    }
    return found | {
        "VOCAB": VOCAB,
        "FORMS": FORMS,
        "NAMES": NAMES,
        "RANK": RANK,
        "DOCS": DOCS,
        "BOOSTS": rank.KIND_BOOSTS,
    }


def write_static(folder: Path, index, url_of: Callable[[dict], str | None]) -> dict:
    """Write the site's search files of an open `SearchIndex` (of the current editions) into `folder`, documents
    numbered as Whoosh numbers them; `url_of(stored fields)` gives the page of a document (None: the site does not
    show it). Return a summary."""
    folder.mkdir(parents=True, exist_ok=True)
    searcher = index.searcher
    reader = searcher.reader()
    stored = [searcher.stored_fields(d) for d in range(searcher.doc_count_all())]
    n, langs = len(stored), index.langs
    terms = _postings(searcher, langs)
    shards = max(1, sum(len(json.dumps(v)) for v in terms.values()) // TERM_BYTES)
    core = {
        "format": FORMAT,
        "langs": list(langs),
        "n": n,
        "c": constants() | {"TERMS": shards},
        "pattern": TYPED_PATTERN,
        "stops": {lang: sorted(lang_text(lang).stops) for lang in langs},
        "lexicon": index.tables.lexicon,
        "phrases": {lang: sorted(p) for lang, p in index.tables.phrases.items()},
        "numbering": index.numbering,
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
    counts = index.tables.counts
    vocab = {(x, w): [counts[x].get(w, 0), *forms] for x in langs for w, forms in index.tables.vocab[x].items()}
    _by_lang(folder, "vocab", vocab, VOCAB, lambda w: fnv1a(w[:1]) % VOCAB)
    forms = {(lang, f): 1 for lang in langs for fs in index.tables.vocab[lang].values() for f in fs}
    _by_lang(folder, "forms", forms, FORMS, lambda f: fnv1a(f[: lookup.STEM_MIN]) % FORMS)
    names = {
        w: [list(reader.postings("name", w).all_ids()), reader.doc_frequency("name", w)] for w in _terms(reader, "name")
    }
    _sharded(folder, "names", names, NAMES, lambda w: fnv1a(w[: lookup.NAME_MIN]) % NAMES)
    ranked = [index.about(d)[1:] for d in range(n)]
    for k in range(0, n, RANK):
        _dump(folder / f"rank-{k // RANK}.json", ranked[k : k + RANK])
    shown = 0
    for k in range(0, n, DOCS):
        part = []
        for s in stored[k : k + DOCS]:
            url = url_of(s)
            shown += url is not None
            data = s["data"]
            texts = {lang: t[:TEXT_MAX] for lang, t in data["texts"].items()}
            row = [s["key"], url, data["titles"], data["names"], texts, data["editions"], data["ctx"], data["numbers"]]
            part.append(row)
        _dump(folder / f"docs-{k // DOCS}.json", part)
    symbols = {m for s in stored for t in s["data"]["texts"].values() for m in SYMBOLS.findall(t[:TEXT_MAX])}
    return {"documents": n, "shown": shown, "term_shards": shards, "symbols": sorted(symbols)}


def _terms(reader, field: str) -> list[str]:
    """The terms of a field (none when the schema lacks it)."""
    if field not in reader.schema:
        return []
    return [t.decode("utf-8") if isinstance(t, bytes) else t for t in reader.lexicon(field)]


def _postings(searcher, langs: tuple[str, ...]) -> dict[str, dict[str, list]]:
    """term -> field -> [documents, Whoosh's BM25F scores, document frequency] of every term of the text fields (a
    word as written: its documents alone; stop words, which only phrases ask for, left out)."""
    found: dict[str, dict[str, list]] = defaultdict(dict)
    n = searcher.doc_count_all()
    for field in (f"body_{lang}" for lang in langs):
        lengths = [searcher.doc_field_length(d, field, 1) for d in range(n)]
        avgfl = searcher.avg_field_length(field) or 1
        for term in _terms(searcher.reader(), field):
            if term.startswith(STOP):
                continue
            items = _weights(searcher.reader().postings(field, term))
            docs = [d for d, _ in items]
            if term.startswith(EXACT):
                found[term][field] = [docs, [], len(docs)]
                continue
            idf = searcher.idf(field, term)
            scores = [bm25(idf, w, lengths[d], avgfl, search_index.B, search_index.K1) for d, w in items]
            found[term][field] = [docs, scores, len(docs)]
    return found


def _weights(matcher) -> list[tuple[int, float]]:
    """(document, weight) of a term's postings: the weight as scored (the parts' word weights included)."""
    found = []
    while matcher.is_active():
        found.append((matcher.id(), matcher.weight()))
        matcher.next()
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
