"""The site's search index: the Whoosh index of the current editions exported as JSON files that
`templates/static/kbsearch.js` reads.

Nothing is ranked anew here: the files hold what Whoosh's reader has (terms, postings, field lengths, stored fields)
and the scores Whoosh's BM25F gives them, so the browser ranks as `kb search` does. A query reads only the files of
its words, so that a first search stays small whatever the size of the content:

- `core.json`: the ranking constants, the languages, stop words, the lexicon's translation tables and its terms
  indexed as one token, the numbers a translation gives other rules, and each document's kind and languages (runs
  of equal values: documents come in kinds);
- `vocab-<k>.json`: each language's words as folded -> their index forms, a word in shard `hash(word) % count`;
- `spell-<k>.json`: each language's words -> how many documents hold them, by their first letter (a spelling
  correction keeps the first letter: it reads one shard, and only to correct a word);
- `forms-<k>.json`: each index form -> the words as folded that have it, by its first STEM_MIN letters (a word's
  stem prefix; the words a snippet marks);
- `names-<k>.json`: card-name words -> [the documents holding them, their number], by their first NAME_MIN letters;
- `terms-<k>.json`: a term's postings in each text field and in the headwords, `{term: {field: [gaps, scores,
  picks, df]}}`: the
  documents as gaps from the previous one, the term's distinct BM25F scores (Whoosh's, boost 1) and for each
  document the index of its score (`picks` empty when there is one score), `df` the term's document frequency; a
  word as written (`=word`) has its documents alone;
- `numbers.json`: the rule number of each rule document, and the documents of a translation's own rows (read for a
  typed number only);
- `rank-<k>.json`: the id, headwords, ancestors' headings and cited rules of RANK documents, for the re-rank;
- `docs-<k>.json`: what DOCS documents show in results (id, page, titles, names, texts, editions, ancestors'
  headings, own numbers, rule number).

`hash` is the 32-bit FNV-1a of the UTF-8 bytes, in both languages; the number of shards of each kind follows the
size of what it holds (SHARD_BYTES each, about).
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
from kb.sources.text import fnv1a

FORMAT = 5
"""Version of the files' layout, checked by the JavaScript."""
SHARD_BYTES = 4_000
"""About how large a shard of words, forms, names or postings is."""
RANK, DOCS = 16, 8
"""Documents per rank-data and per display-data file."""
SYMBOLS = re.compile(SYMBOL)
TEXT_MAX = 4000
"""Characters of a text kept for its snippet."""


def constants() -> dict:
    """The ranking constants, so that the JavaScript never copies a number by hand."""
    found = {
        name: getattr(module, name)
        for module, names in (
            (rank, "TOP NAMED RERANK COVERAGE_POWER EXACT_BONUS HEAD_BONUS SECTION_BONUS HEAD_SHARE THROUGH"),
            (rank, "CITED_BONUS"),
            (search_index, "NAME NAME_LIMIT"),
            (lookup, "MAX_SLOTS MAX_WORD STEM_MIN STEM_FACTOR FUZZY_FACTOR TRANSLATED NAME_MIN CORRECT_PREFIX"),
            (results, "SNIPPET LEAD BREAK"),
        )
        for name in names.split()
    }
    return found | {"RANK": RANK, "DOCS": DOCS, "BOOSTS": rank.KIND_BOOSTS}


def write_static(folder: Path, index, url_of: Callable[[dict], str | None]) -> dict:
    """Write the site's search files of an open `SearchIndex` (of the current editions) into `folder`, documents
    numbered as Whoosh numbers them; `url_of(stored fields)` gives the page of a document (None: the site does not
    show it). Return a summary."""
    folder.mkdir(parents=True, exist_ok=True)
    searcher = index.searcher
    reader = searcher.reader()
    stored = [searcher.stored_fields(d) for d in range(searcher.doc_count_all())]
    n, langs, tables = len(stored), index.langs, index.tables
    counts = {}
    counts["terms"] = _sharded(folder, "terms", _postings(searcher, langs), lambda term: fnv1a(term))
    vocab = {(x, w): forms for x in langs for w, forms in tables.vocab[x].items()}
    counts["vocab"] = _sharded(folder, "vocab", vocab, lambda w: fnv1a(w))
    spell = {(x, w): tables.counts[x].get(w, 0) for x in langs for w in tables.vocab[x]}
    counts["spell"] = _sharded(folder, "spell", spell, lambda w: fnv1a(w[:1]))
    forms: dict[tuple[str, str], list[str]] = {}
    for x in langs:
        for w, fs in tables.vocab[x].items():
            for f in fs:
                forms.setdefault((x, f), []).append(w)
    counts["forms"] = _sharded(folder, "forms", forms, lambda f: fnv1a(f[: lookup.STEM_MIN]))
    names = {
        w: [list(reader.postings("name", w).all_ids()), reader.doc_frequency("name", w)] for w in _terms(reader, "name")
    }
    counts["names"] = _sharded(folder, "names", names, lambda w: fnv1a(w[: lookup.NAME_MIN]))
    core = {
        "format": FORMAT,
        "langs": list(langs),
        "n": n,
        "c": constants() | {k.upper(): v for k, v in counts.items()},
        "pattern": TYPED_PATTERN,
        "stops": {lang: sorted(lang_text(lang).stops) for lang in langs},
        "lexicon": tables.lexicon,
        "phrases": {lang: sorted(p) for lang, p in tables.phrases.items()},
        "numbering": index.numbering,
        "kinds": _runs([KINDS.index(s["kind"]) for s in stored]),
        "langsOf": _runs([sum(1 << k for k, x in enumerate(langs) if _holds(s, x)) for s in stored]),
    }
    _dump(folder / "core.json", core)
    numbers = {d: s["number"] for d, s in enumerate(stored) if s.get("number")}
    aside = [d for d in numbers if stored[d]["key"] != numbers[d]]
    _dump(folder / "numbers.json", {"numbers": numbers, "aside": aside})
    ranked = [list(index.about(d)) for d in range(n)]
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
            part.append(
                [s["key"], url, data["titles"], data["names"], texts, data["editions"], data["ctx"], data["numbers"]]
                + [s.get("number") or None]
            )
        _dump(folder / f"docs-{k // DOCS}.json", part)
    symbols = {m for s in stored for t in s["data"]["texts"].values() for m in SYMBOLS.findall(t[:TEXT_MAX])}
    return {"documents": n, "shown": shown, "shards": counts, "symbols": sorted(symbols)}


def _holds(stored: dict, lang: str) -> bool:
    """Whether a document has a text or a title in a language."""
    return lang in stored["data"]["texts"] or lang in stored["data"]["titles"]


def _runs(values: list[int]) -> list[list[int]]:
    """`[[value, how many], …]` of a list (a document's kind and languages come in runs)."""
    found: list[list[int]] = []
    for v in values:
        if found and found[-1][0] == v:
            found[-1][1] += 1
        else:
            found.append([v, 1])
    return found


def _terms(reader, field: str) -> list[str]:
    """The terms of a field (none when the schema lacks it)."""
    if field not in reader.schema:
        return []
    return [t.decode("utf-8") if isinstance(t, bytes) else t for t in reader.lexicon(field)]


def _postings(searcher, langs: tuple[str, ...]) -> dict[str, dict[str, list]]:
    """term -> field -> [gaps between documents, distinct BM25F scores, each document's score index, document
    frequency] of every term of the text fields (a word as written: its documents alone; stop words, which only
    phrases ask for, left out). Whoosh's own scores: its bm25 on its weights, quantised lengths and idf."""
    found: dict[str, dict[str, list]] = defaultdict(dict)
    n = searcher.doc_count_all()
    for term in _terms(searcher.reader(), "heads"):  # the documents whose headwords hold the term
        docs = list(searcher.reader().postings("heads", term).all_ids())
        found[term]["heads"] = [[d - p for d, p in zip(docs, [0, *docs[:-1]], strict=True)], [], [], len(docs)]
    for field in (f"body_{lang}" for lang in langs):
        lengths = [searcher.doc_field_length(d, field, 1) for d in range(n)]
        avgfl = searcher.avg_field_length(field) or 1
        for term in _terms(searcher.reader(), field):
            if term.startswith(STOP):
                continue
            items = _weights(searcher.reader().postings(field, term))
            docs = [d for d, _ in items]
            gaps = [d - p for d, p in zip(docs, [0, *docs[:-1]], strict=True)]
            if term.startswith(EXACT):
                found[term][field] = [gaps, [], [], len(docs)]
                continue
            idf = searcher.idf(field, term)
            scores = [bm25(idf, w, lengths[d], avgfl, search_index.B, search_index.K1) for d, w in items]
            distinct = sorted(set(scores))
            place = {v: k for k, v in enumerate(distinct)}
            picks = [place[v] for v in scores] if len(distinct) > 1 else []
            found[term][field] = [gaps, distinct, picks, len(docs)]
    return found


def _weights(matcher) -> list[tuple[int, float]]:
    """(document, weight) of a term's postings: the weight as scored (the parts' word weights included)."""
    found = []
    while matcher.is_active():
        found.append((matcher.id(), matcher.weight()))
        matcher.next()
    return found


def _sharded(folder: Path, name: str, items: dict, shard: Callable[[str], int]) -> int:
    """Write `items` (`{key: value}`, or `{(lang, key): value}` written per language) into files `<name>-<k>.json`
    by their key's `shard(key) % count`, `count` following their size; return the count."""
    texts = {key: json.dumps(value, ensure_ascii=False, separators=(",", ":")) for key, value in items.items()}
    size = sum(len(k[-1] if isinstance(k, tuple) else k) + len(t) + 4 for k, t in texts.items())
    count = max(1, size // SHARD_BYTES)
    parts: list[dict] = [{} for _ in range(count)]
    for key, text in texts.items():
        if isinstance(key, tuple):
            parts[shard(key[1]) % count].setdefault(key[0], {})[key[1]] = text
        else:
            parts[shard(key) % count][key] = text
    for k, part in enumerate(parts):
        (folder / f"{name}-{k}.json").write_text(_join(part), encoding="utf-8")
    return count


def _join(part: dict) -> str:
    """A shard's JSON from its values' JSON texts (written once, when their size was measured)."""
    inner = (f"{json.dumps(k, ensure_ascii=False)}:{_join(v) if isinstance(v, dict) else v}" for k, v in part.items())
    return "{" + ",".join(inner) + "}"


def _dump(path: Path, value) -> None:
    """Write compact JSON."""
    path.write_text(json.dumps(value, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")
