"""The search index for the static site: the same `IndexData` as the CLI's, as JSON files the browser loads.

Pure Python (no whoosh). `core.json` holds what reading a query needs (vocabulary, stems, card-name words,
headword concepts, idf, document data, the lexicon's translation tables and the ranking constants); the
postings are split into shards (`terms-<k>.json`, a term's shard is `term % shards`) and the texts shown in
results into chunks of CHUNK documents (`docs-<k>.json`), fetched when a query needs them.
`templates/static/kbsearch.js` reads them and ranks exactly as `kb.search.rank` does.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from itertools import islice
from pathlib import Path

from kb.model.numbers import TYPED_PATTERN
from kb.search import build, lookup, rank, results
from kb.search.build import DocInfo, IndexData
from kb.search.db import FUZZY_MAX_LEN, FUZZY_MIN

FORMAT = 2
"""Version of the files' layout, checked by the JavaScript (2: postings as flat arrays)."""
CHUNK = 64
"""Documents per text chunk."""
COLUMN_STEP = 4096
"""Documents of a column of `core.json` written at a time."""
SPANS_STEP = 65_536
"""Token span numbers of a document written at a time."""
TEXT_STEP = 65_536
"""Characters of a text written at a time."""
SHARD_BYTES = 80_000
"""Approximate size of a postings shard."""


def constants() -> dict:
    """The ranking constants, so that the JavaScript never copies a number by hand."""
    return {
        "COVERAGE_POWER": rank.COVERAGE_POWER,
        "NAME_IMPACT": rank.NAME_IMPACT,
        "RERANK": rank.RERANK,
        "WINDOW": rank.WINDOW,
        "PROXIMITY_BONUS": rank.PROXIMITY_BONUS,
        "HEAD_BONUS": rank.HEAD_BONUS,
        "HEAD_SHARE": rank.HEAD_SHARE,
        "CITED_BONUS": rank.CITED_BONUS,
        "CONCEPT_CREDIT": rank.CONCEPT_CREDIT,
        "INEXACT": rank.INEXACT,
        "MAX_SLOTS": lookup.MAX_SLOTS,
        "MAX_WORD": lookup.MAX_WORD,
        "STEM_FACTOR": lookup.STEM_FACTOR,
        "FUZZY_FACTOR": lookup.FUZZY_FACTOR,
        "FUZZY_MAX": lookup.FUZZY_MAX,
        "FUZZY_MIN": FUZZY_MIN,
        "FUZZY_MAX_LEN": FUZZY_MAX_LEN,
        "CONCEPT_FACTOR": lookup.CONCEPT_FACTOR,
        "NAME_MIN": lookup.NAME_MIN,
        "NAME_LIMIT": lookup.NAME_LIMIT,
        "SNIPPET": results.SNIPPET,
        "LEAD": results.LEAD,
        "GAP": build.GAP,
        "TRANSLATED": lookup.TRANSLATED,
    }


def write_static(folder: Path, data: IndexData, url_of: Callable[[int], str | None]) -> dict:
    """Write the site's search files into `folder`; `url_of(document)` gives a document's page (None: not
    on the site, left out of results). Return the core's summary (documents, shards)."""
    folder.mkdir(parents=True, exist_ok=True)
    shards = _shard_count(data)
    core = {
        "format": FORMAT,
        "langs": data.langs,
        "constants": constants(),
        "pattern": TYPED_PATTERN,
        "shards": shards,
        "chunk": CHUNK,
        "docs": _docs(data, url_of),
        "lang": {lang: _lang_of(data, lang) for lang in data.lang_index},
        "lexicon": lambda: data.lexicon,
    }
    with (folder / "core.json").open("w", encoding="utf-8") as f:
        _write_object(f, core)
    for k in range(shards):
        with (folder / f"terms-{k}.json").open("w", encoding="utf-8") as f:
            _write_shard(f, data, k, shards)
    payloads = iter(data.payloads)
    for k in range(0, len(data.payloads), CHUNK):
        with (folder / f"docs-{k // CHUNK}.json").open("w", encoding="utf-8") as f:
            for m, (p, d) in enumerate(zip(islice(payloads, CHUNK), data.docs[k : k + CHUNK], strict=True)):
                f.write("," if m else "[")
                _write_payload(f, p, d)
            f.write("]")
    return {"docs": len(data.docs), "shards": shards}


def _dump(path: Path, value) -> None:
    """Write compact JSON (floats as Python writes them: JavaScript reads back the same numbers)."""
    path.write_text(_compact(value), encoding="utf-8")


def _shard_count(data: IndexData) -> int:
    """Enough shards for postings of about SHARD_BYTES each."""
    size = sum(12 * len(p.docs) + 4 * len(p.flat) for li in data.lang_index.values() for p in li.terms)
    return max(1, min(256, size // SHARD_BYTES + 1))


@dataclass(frozen=True, slots=True)
class _Columns:
    """Per-document columns, written a part at a time (see `_write_object`)."""

    count: int
    """Number of documents."""
    parts: dict[str, Callable[[int, int], list]]
    """Column name -> the call that makes the part of the column from one document to another."""


def _docs(data: IndexData, url_of) -> _Columns:
    """Per-document columns: kind, key, number, page, boost, languages, headwords, citations."""
    docs = data.docs

    def column(value: Callable) -> Callable[[int, int], list]:
        return lambda a, b: [value(d) for d in docs[a:b]]

    return _Columns(
        len(docs),
        {
            "kind": column(lambda d: d.kind),
            "key": column(lambda d: d.key),
            "number": column(lambda d: d.number),
            "url": lambda a, b: [url_of(n) for n in range(a, b)],
            "boost": column(lambda d: d.boost),
            "langs": column(lambda d: d.langs),
            "heads": column(DocInfo.headwords),
            "cites": column(lambda d: d.cites),
        },
    )


def _lang_of(data: IndexData, lang: str) -> Callable[[], dict]:
    """The call that makes a language's tables."""
    return lambda: _lang(data.lang_index[lang], sum(lang in d.langs for d in data.docs))


def _write_object(f, value: dict) -> None:
    """Write an object as `_dump` would, each part made as it is written (never the whole text at once): a dict is
    an object of its own, `_Columns` an object of lists written COLUMN_STEP documents at a time, a call makes its
    value."""
    f.write("{")
    for k, (key, part) in enumerate(value.items()):
        f.write(("," if k else "") + _compact(key) + ":")
        if isinstance(part, dict):
            _write_object(f, part)
        elif isinstance(part, _Columns):
            f.write("{")
            for m, (name, make) in enumerate(part.parts.items()):
                f.write(("," if m else "") + _compact(name) + ":")
                _write_list(f, part.count, make, COLUMN_STEP)
            f.write("}")
        else:
            f.write(_compact(part() if callable(part) else part))
    f.write("}")


def _lang(li, n: int) -> dict:
    """A language's tables: words, stems, idf, stop words, card-name words, headword concepts."""
    return {
        "vocab": {w: [t, li.df.get(w, 0), li.bits[w]] for w, t in li.vocab.items()},
        "forms": li.forms,
        "idf": [p.idf for p in li.terms],
        "stops": sorted(li.stops),
        "names": li.names,
        "concepts": {str(t): c for t, c in li.concepts.items()},
        "n": n,
    }


def _write_shard(f, data: IndexData, k: int, shards: int) -> None:
    """Write shard `k` of the terms' postings, `{lang: {term: postings}}`, as `_dump` would, each term's postings
    as the typed arrays hold them (the browser cuts each document's positions from `flat` by `counts`), written
    SPANS_STEP numbers at a time: a common word's are in every document, never whole lists of Python numbers."""
    f.write("{")
    for m, (lang, li) in enumerate(data.lang_index.items()):
        f.write(("," if m else "") + _compact(lang) + ":{")
        for n, t in enumerate(range(k, len(li.terms), shards)):
            p = li.terms[t]
            f.write(("," if n else "") + _compact(str(t)) + ":[")
            for a, values in enumerate((p.docs, p.impacts, p.counts, p.flat, p.masks, p.titles)):
                f.write("," if a else "")
                _write_list(f, len(values), lambda a, b, values=values: values[a:b].tolist(), SPANS_STEP)
            f.write("]")
        f.write("}")
    f.write("}")


def _lists(arrays: dict) -> dict:
    """Arrays as lists, for JSON."""
    return {key: a.tolist() for key, a in arrays.items()}


def _write_payload(f, p, d) -> None:
    """A document's `[titles, texts, names, context, spans, bounds]`, as `_dump` would write it, its texts
    TEXT_STEP characters at a time and its token spans SPANS_STEP numbers at a time: a giant text is never copied
    whole, its spans (millions) never made one list of Python ints."""
    f.write("[")
    for n, texts in enumerate((p.titles, p.texts, p.names, p.context)):
        f.write("," if n else "")
        if texts is None:
            f.write("null")
            continue
        f.write("{")
        for m, (lang, text) in enumerate(texts.items()):
            f.write(("," if m else "") + _compact(lang) + ':"')
            for a in range(0, len(text), TEXT_STEP):
                f.write(_compact(text[a : a + TEXT_STEP])[1:-1])
            f.write('"')
        f.write("}")
    f.write(",{")
    for n, (lang, spans) in enumerate(p.spans.items()):
        f.write(("," if n else "") + _compact(lang) + ":")
        _write_list(f, len(spans), lambda a, b, spans=spans: spans[a:b].tolist(), SPANS_STEP)
    f.write("}," + _compact(_lists(d.bounds)) + "]")


def _write_list(f, count: int, make: Callable[[int, int], list], step: int) -> None:
    """Write a list of `count` items as `_dump` would, `make(a, b)` giving items a to b, `step` items at a time."""
    f.write("[")
    for a in range(0, count, step):
        f.write(("," if a else "") + _compact(make(a, min(count, a + step)))[1:-1])
    f.write("]")


def _compact(value) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
