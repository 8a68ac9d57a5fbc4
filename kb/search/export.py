"""An index's export: what Whoosh's index holds, as the JSON files every query reads, in `kb search`
(`kb.search.engine`) and in the browser (`templates/static/kbsearch.js`, the site's copy of them).

Nothing is ranked here: the files hold what Whoosh's reader has (terms, postings, field lengths, stored fields) and
the scores Whoosh's BM25F gives them, so the CLI and the browser rank alike. A query reads only the files of its
words, so that a first search stays small whatever the size of the content:

- `core.json`: the ranking constants, the languages, stop words, the lexicon's translation tables and its terms
  indexed as one token, the numbers a translation gives other rules, the editions loaded (current and other ones),
  and each document's kind and languages (runs of equal values: documents come in kinds);
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
  headings, own numbers, rule number, the names of its concept in languages its texts lack); the index's own
  export has no pages (null), the site's its own;
- `editions.json`: each edition's documents (the `edition:` filter).

`hash` is the 32-bit FNV-1a of the UTF-8 bytes, in both languages; the number of shards of each kind follows the
size of what it holds (SHARD_BYTES each, about).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

from whoosh.scoring import bm25

from kb.model.numbers import TYPED_PATTERN
from kb.search import engine, lookup, rank, results, spelling
from kb.search.analysis import K1, B, lang_text, weighting
from kb.search.entries import Entry
from kb.search.lookup import Tables
from kb.search.query import KINDS
from kb.search.store import EXPORT_MANIFEST
from kb.search.text import EXACT, STOP, SYMBOL
from kb.search.writer import rank_data, stored_data
from kb.sources.text import fnv1a

FORMAT = 6
"""Version of the files' layout, checked by the JavaScript (6: a spelling of no document is a word printed on the
cards, never corrected nor offered)."""
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
            (
                rank,
                "TOP NAMED RERANK COVERAGE_POWER EXACT_BONUS HEAD_BONUS NAME_SHARE SECTION_BONUS HEAD_SHARE THROUGH",
            ),
            (rank, "CITED_BONUS CONCEPT_CREDIT QUESTION_SLOTS QUESTION_KINDS"),
            (engine, "NAME NAME_LIMIT ALONE"),
            (spelling, "SWAP_MIN"),
            (lookup, "MAX_SLOTS MAX_WORD STEM_MIN STEM_FACTOR FUZZY_FACTOR TRANSLATED NAME_MIN CORRECT_PREFIX"),
            (lookup, "CONCEPT_SLOTS CONCEPT_FACTOR"),
            (results, "SNIPPET LEAD BREAK"),
        )
        for name in names.split()
    }
    return found | {"RANK": RANK, "DOCS": DOCS, "BOOSTS": rank.KIND_BOOSTS}


def write_postings(folder: Path, made: Path, langs: tuple[str, ...]) -> dict:
    """Write the files of a Whoosh index (its folder: Whoosh's half of an index, which they alone need; `langs`: its
    languages, in its order) into `folder`, created if needed (its parent must exist): postings and card names;
    return their shard counts as `core.json`'s constants name them (`{"TERMS": n, "NAMES": n}`)."""
    from whoosh import index as whoosh_index

    folder.mkdir(exist_ok=True)
    ix = whoosh_index.open_dir(str(made))
    try:
        with ix.searcher(weighting=weighting()) as searcher:
            return _postings_files(folder, searcher, langs)
    finally:
        ix.close()


def _postings_files(folder: Path, searcher, langs: tuple[str, ...]) -> dict:
    """Write the postings of the index's text fields and headwords (the export's largest part) and its card-name
    words; return their shard counts."""
    reader = searcher.reader()
    names = {
        w: [list(reader.postings("name", w).all_ids()), reader.doc_frequency("name", w)] for w in _terms(reader, "name")
    }
    return {
        "TERMS": _sharded(folder, "terms", _postings(searcher, langs), lambda term: fnv1a(term), encoded=True),
        "NAMES": _sharded(folder, "names", names, lambda w: fnv1a(w[: lookup.NAME_MIN])),
    }


def write_words(folder: Path, tables: Tables, numbering: dict, editions: dict) -> dict:
    """Write the files of an index's tables (they need no Whoosh index: `kb build` writes them while its worker
    writes the index) into `folder`: words, forms, spellings; return `core.json`'s data but for the postings' and
    the documents' own (`write_core` adds them and writes it)."""
    folder.mkdir(parents=True, exist_ok=True)
    langs = tables.langs
    counts = {}
    words = {x: sorted(tables.vocab[x].items()) for x in langs}  # in the words' order, not the entries'
    vocab = {(x, w): forms for x in langs for w, forms in words[x]}
    counts["vocab"] = _sharded(folder, "vocab", vocab, lambda w: fnv1a(w))
    spell = {(x, w): tables.counts[x].get(w, 0) for x in langs for w, _ in words[x]}
    spell |= {(x, w): 0 for x in langs for w in tables.known.get(x, ())}  # printed on cards: known, never suggested
    counts["spell"] = _sharded(folder, "spell", spell, lambda w: fnv1a(w[:1]))
    forms: dict[tuple[str, str], list[str]] = {}
    for x in langs:
        for w, fs in words[x]:
            for f in fs:
                forms.setdefault((x, f), []).append(w)
    counts["forms"] = _sharded(folder, "forms", forms, lambda f: fnv1a(f[: lookup.STEM_MIN]))
    return {
        "format": FORMAT,
        "langs": list(langs),
        "n": tables.docs,
        "c": constants() | {k.upper(): v for k, v in counts.items()},
        "pattern": TYPED_PATTERN,
        "stops": {lang: sorted(lang_text(lang).stops) for lang in langs},
        "lexicon": tables.lexicon,
        "phrases": {lang: sorted(p) for lang, p in tables.phrases.items()},
        "concepts": tables.concepts,
        "numbering": numbering,
        "editions": editions,
    }


def write_documents(
    folder: Path, items: list[Entry], langs: tuple[str, ...], url_of: Callable[[dict], str | None]
) -> dict:
    """Write the documents' own files from the entries of the current editions, in the index's order (a document's
    number is its place there; `langs`: the index's languages, `kb.search.writer.entry_langs` of every entry): the
    rule numbers, the rank data and what results show; `url_of({"kind", "key", "number"})` gives the page of a
    document (None: the site does not show it). Needing no index, this runs while the index is made; return a
    summary, with what `write_core` adds to `core.json` of the documents."""
    folder.mkdir(parents=True, exist_ok=True)
    numbers = {d: e.number for d, e in enumerate(items) if e.number}
    _dump(folder / "numbers.json", {"numbers": numbers, "aside": [d for d in numbers if items[d].id != numbers[d]]})
    for k in range(0, len(items), RANK):
        _dump(folder / f"rank-{k // RANK}.json", [[e.id, *rank_data(e)[1:]] for e in items[k : k + RANK]])
    shown = 0
    for k in range(0, len(items), DOCS):
        part = []
        for e in items[k : k + DOCS]:
            url = url_of({"kind": e.kind, "key": e.id, "number": e.number})
            shown += url is not None
            data = stored_data(e)
            texts = {lang: t[:TEXT_MAX] for lang, t in data["texts"].items()}
            row = [e.id, url, data["titles"], data["names"], texts, data["editions"], data["ctx"], data["numbers"]]
            part.append([*row, e.number or None, data["named"], data["heading_named"] or None])
        _dump(folder / f"docs-{k // DOCS}.json", part)
    editions: dict[str, list[int]] = {}
    for d, e in enumerate(items):
        for edition in sorted(set(e.editions.values())):
            editions.setdefault(edition, []).append(d)
    _dump(folder / "editions.json", editions)
    symbols = {m for e in items for t in e.texts.values() for m in SYMBOLS.findall(t[:TEXT_MAX])}
    of_documents = {
        "n": len(items),
        "langs": list(langs),
        "kinds": _runs([KINDS.index(e.kind) for e in items]),
        "langsOf": _runs([sum(1 << k for k, x in enumerate(langs) if x in e.texts or x in e.titles) for e in items]),
    }
    return {"documents": len(items), "shown": shown, "symbols": sorted(symbols), "core": of_documents}


def write_manifest(folder: Path) -> None:
    """Write `manifest.json`: each file of the export and its SHA-256 (what reading it checks)."""
    found = {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir()) if p.is_file()}
    found.pop(EXPORT_MANIFEST, None)
    _dump(folder / EXPORT_MANIFEST, found)


def write_core(folder: Path, core: dict, documents: dict) -> None:
    """Write `core.json`: what `write_static` gave (or `write_words` and `write_postings`), with what
    `write_documents` says of the documents (the same entries as the index's, or an error)."""
    if (documents["core"]["n"], documents["core"]["langs"]) != (core["n"], core["langs"]):
        raise ValueError(f"{documents['core']['n']} entries for an index of {core['n']}: not the ones it was made of")
    if not {"TERMS", "NAMES"} <= core["c"].keys():
        raise ValueError("the postings' shard counts are missing: write_postings was not run")
    _dump(folder / "core.json", core | documents["core"])


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


def _postings(searcher, langs: tuple[str, ...]) -> dict[str, str]:
    """term -> the JSON text of its field -> [gaps between documents, distinct BM25F scores, each document's score
    index, document frequency] of every term of the text fields (a word as written: its documents alone; stop words,
    which only phrases ask for, left out). Whoosh's own scores: its bm25 on its weights, quantised lengths and idf.
    Each field's list is held as its JSON text from the start (as lists of Python numbers, a card pool's postings
    held 120 MB more)."""
    found: dict[str, dict[str, str]] = defaultdict(dict)
    n = searcher.doc_count_all()
    for term in _terms(searcher.reader(), "heads"):  # the documents whose headwords hold the term
        docs = list(searcher.reader().postings("heads", term).all_ids())
        found[term]["heads"] = _json([[d - p for d, p in zip(docs, [0, *docs[:-1]], strict=True)], [], [], len(docs)])
    for field in (f"body_{lang}" for lang in langs):
        lengths = [searcher.doc_field_length(d, field, 1) for d in range(n)]
        texts = [x for x in lengths if x]  # Whoosh averages over every document: a language few documents have
        avgfl = sum(texts) / len(texts) if texts else 1  # would make each of its texts look long
        for term in _terms(searcher.reader(), field):
            if term.startswith(STOP):
                continue
            items = _weights(searcher.reader().postings(field, term))
            docs = [d for d, _ in items]
            gaps = [d - p for d, p in zip(docs, [0, *docs[:-1]], strict=True)]
            if term.startswith(EXACT):
                found[term][field] = _json([gaps, [], [], len(docs)])
                continue
            idf = searcher.idf(field, term)
            scores = [bm25(idf, w, lengths[d], avgfl, B, K1) for d, w in items]
            distinct = sorted(set(scores))
            place = {v: k for k, v in enumerate(distinct)}
            picks = [place[v] for v in scores] if len(distinct) > 1 else []
            found[term][field] = _json([gaps, distinct, picks, len(docs)])
    return {term: _join(fields) for term, fields in found.items()}


def _json(value) -> str:
    """Compact JSON, as the export's files hold it."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _weights(matcher) -> list[tuple[int, float]]:
    """(document, weight) of a term's postings: the weight as scored (the parts' word weights included)."""
    found = []
    active, doc, weight, step = matcher.is_active, matcher.id, matcher.weight, matcher.next
    while active():
        found.append((doc(), weight()))
        step()
    return found


def _sharded(folder: Path, name: str, items: dict, shard: Callable[[str], int], encoded: bool = False) -> int:
    """Write `items` (`{key: value}`, or `{(lang, key): value}` written per language) into files `<name>-<k>.json`
    by their key's `shard(key) % count`, `count` following their size; return the count. `encoded`: the values are
    their JSON texts already."""
    texts = items if encoded else {key: _json(value) for key, value in items.items()}
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
    path.write_text(_json(value), encoding="utf-8")
