"""Entries -> the search index: vocabulary, postings with BM25F impacts and positions, document data.

Pure Python (no whoosh). Every word is analysed once, here: its index forms (stemmed-then-folded and
folded-then-stemmed) are grouped into one *term* per language, so `piochées`, `piochees` and `pioche` are the
same term and each position holds exactly one term. Queries never stem: a query word is looked up in the
vocabulary of folded words (`vocab`), else by its longest known stem prefix (`forms`), else by spelling
(`kb.search.lookup`), so the CLI and the site's JavaScript read the same tables and rank alike.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from kb.model.numbers import IN_TEXT
from kb.search.db import Payload, Postings
from kb.search.entries import Entry
from kb.search.text import RAW, TEXT, LangText, tokens

FIELDS = ("title", "text", "ctx")
"""Fields of a document in each language, in position order."""
WEIGHTS = (3.0, 1.0, 0.5)
"""BM25F weight of each field: a title word counts three text words, an ancestor's heading half of one."""
B = (0.5, 0.75, 0.5)
"""BM25F length normalisation of each field."""
K1 = 1.2
"""BM25 term-frequency saturation."""
GAP = 1000
"""Positions skipped between fields, so that words of two fields are never close."""
MAX_BIT = 30
"""Highest mask bit (JavaScript's bit operators work on 32 bits)."""
MAX_POSITIONS = 64
"""Positions kept per term and document (proximity, phrases and snippets look at the first ones)."""
CONCEPT_TERMS = 8
"""Characteristic terms kept per one-word headword."""
CONCEPT_DF = 0.05
"""Terms in more than this share of the documents never characterise a headword (`card`, `player`)."""
NEGATED = 0.5
"""Occurrences of `tapped` that one `untapped` counts for."""
KIND_BOOSTS = {"rule": 1.0, "glossary": 0.95, "card": 0.85, "ruling": 0.7, "note": 1.0}
"""Score factor of each kind of result."""


@dataclass(slots=True)
class LangIndex:
    """One language's terms."""

    vocab: dict[str, int]
    """Folded word as written -> term."""
    bits: dict[str, int]
    """Folded word as written -> its bit in the term's masks (words of a term in order; MAX_BIT for the rest)."""
    forms: dict[str, int]
    """Index form (a stem) -> term, for query words the texts never use as typed."""
    stops: frozenset[str]
    """Stop words, folded (and accented)."""
    terms: list[Postings]
    """Postings of each term."""
    stop_terms: set[int]
    """Terms that are stop words."""
    df: dict[str, int]
    """Folded word -> number of documents holding it (the candidates of spelling correction)."""
    names: list[tuple[str, int]]
    """(folded card-name word, document), sorted: partial names (`isper`) match by prefix."""
    concepts: dict[int, list[tuple[int, float]]] = field(default_factory=dict)
    """Term of a one-word headword (`trample`) -> the terms that characterise what it names (its rule's
    subtree, its glossary definition), weight 1 for the strongest: a query pairing two headwords
    (`deathtouch trample`) finds the rules of one that speak the other's language."""


@dataclass(slots=True)
class DocInfo:
    """What ranking needs about one document."""

    kind: str
    key: str
    """The entry id."""
    number: str | None
    order: int
    boost: float
    langs: list[str]
    """Languages of its texts and titles, in display order."""
    current: bool
    editions: dict[str, str]
    bounds: dict[str, list[int]]
    """Language -> [title start, title end, text start, text end, ctx start, ctx end] positions."""
    heads: dict[str, list[list[int]]]
    """Language -> terms of each headword (stop words left out), sorted."""
    cites: list[int] = field(default_factory=list)
    """Documents of the rules its texts cite."""


@dataclass(slots=True)
class IndexData:
    """A whole search index, in memory: written to SQLite for the CLI and to JSON for the site."""

    langs: list[str]
    lang_index: dict[str, LangIndex]
    docs: list[DocInfo]
    payloads: list[Payload]
    lexicon: dict = field(default_factory=dict)
    """Translation tables (`kb.search.lexicon`): `{"fr>en": table, "en>fr": table}`, empty without a lexicon."""


def build(items: Iterable[Entry], texts: Mapping[str, LangText], order: list[str]) -> IndexData:
    """Analyse every entry and build the index (`order`: the languages in display order)."""
    items = list(items)
    langs = [lang for lang in order if any(lang in e.texts or lang in e.titles for e in items)]
    fields = [{lang: _fields(e, lang) for lang in langs if lang in e.texts or lang in e.titles} for e in items]
    lang_index, term_of, negated = {}, {}, {}
    for lang in langs:
        per_doc = [(f[lang], int(e.current)) for e, f in zip(items, fields, strict=True) if lang in f]
        lang_index[lang], term_of[lang] = _vocabulary(texts[lang], per_doc)
        terms = term_of[lang]
        negated[lang] = {w: terms[rest] for w in terms if (rest := texts[lang].negated(w, terms))}
    docs, payloads, occurrences = [], [], {lang: {} for lang in langs}
    for n, (entry, per) in enumerate(zip(items, fields, strict=True)):
        info = DocInfo(
            entry.kind, entry.id, entry.number, entry.order, KIND_BOOSTS[entry.kind], list(per), entry.current,
            dict(entry.editions), {}, {},
        )  # fmt: skip
        spans = {}
        for lang, parts in per.items():
            info.bounds[lang], spans[lang] = _positions(
                n, parts, term_of[lang], lang_index[lang].bits, negated[lang], occurrences[lang]
            )
            info.heads[lang] = _heads(entry.heads.get(lang, ()), texts[lang], term_of[lang])
        docs.append(info)
        payloads.append(Payload(entry.titles, entry.texts, entry.names, entry.context, spans))
    for lang in langs:
        _postings(lang_index[lang], occurrences[lang], docs, lang)
        lang_index[lang].names = _names(items, lang)
        lang_index[lang].concepts = _concepts(lang_index[lang], occurrences[lang], docs, lang)
    _cites(items, docs)
    return IndexData(langs, lang_index, docs, payloads)


def _heads(heads: tuple[str, ...], lt: LangText, terms: dict[str, int]) -> list[list[int]]:
    """The terms of each headword, stop words left out (a headword with a word never indexed is dropped)."""
    found = [{terms.get(t[TEXT]) for t in tokens(h) if not lt.is_stop(t[TEXT])} for h in heads]
    return [sorted(h) for h in found if h and None not in h]


def _fields(entry: Entry, lang: str) -> list[list]:
    """The tokens of an entry's title, text and context in one language."""
    return [tokens(entry.titles.get(lang, "")), tokens(entry.texts.get(lang, "")), tokens(entry.context.get(lang, ""))]


def _vocabulary(lt: LangText, per_doc: list[tuple[list, int]]) -> tuple[LangIndex, dict[str, int]]:
    """Group the words of a language into terms (words sharing an index form are one term); count the current
    documents holding each word."""
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    surface_forms: dict[str, tuple[str, ...]] = {}
    df: dict[str, int] = {}
    done: set[str] = set()
    for parts, current in per_doc:
        seen = set()
        for part in parts:
            for t in part:
                seen.add(t[TEXT])
                if t[RAW] in done:
                    continue
                done.add(t[RAW])
                forms = lt.forms(t)
                first = find(forms[0])
                for other in forms[1:]:
                    parent[find(other)] = first
                if surface_forms.setdefault(t[TEXT], forms) != forms:
                    parent[find(surface_forms[t[TEXT]][0])] = find(forms[0])
        for word in seen:
            df[word] = df.get(word, 0) + current
    roots = sorted({find(f) for f in parent})
    ids = {root: i for i, root in enumerate(roots)}
    term_of = {word: ids[find(forms[0])] for word, forms in surface_forms.items()}
    forms = {form: ids[find(form)] for form in parent}
    stop_terms = {term_of[w] for w in term_of if lt.is_stop(w)}
    bits, count = {}, {}
    for word in sorted(term_of):
        t = term_of[word]
        bits[word] = min(count.get(t, 0), MAX_BIT)
        count[t] = count.get(t, 0) + 1
    index = LangIndex(dict(sorted(term_of.items())), bits, forms, lt.stops, [], stop_terms, df, [])
    return index, term_of


def _positions(n: int, parts: list[list], terms: dict, bits: dict, negated: dict, occurrences: dict):
    """Record a document's terms (positions, count per field, words as written); return its field bounds and
    text token spans. A negated word (`untapped`) also counts half an occurrence of the word it negates.
    """
    bounds, spans, pos = [], [], 0
    local: dict[int, list] = {}
    for k, part in enumerate(parts):
        bounds += [pos, pos + len(part)]
        for i, t in enumerate(part):
            word = t[TEXT]
            for term, weight in ((terms[word], 1.0), (negated.get(word), NEGATED)):
                if term is None:
                    continue
                found = local.get(term)
                if found is None:
                    found = local[term] = [[], [0.0, 0.0, 0.0], 0, 0]
                found[0].append(pos + i)
                found[1][k] += weight
                if weight == 1.0:
                    found[2] |= 1 << bits[word]
                    if k == 0:
                        found[3] |= 1 << bits[word]
        if k == 1:
            spans = [x for t in part for x in t[:2]]
        pos += len(part) + GAP
    for term, found in local.items():
        occurrences.setdefault(term, []).append((n, *found))
    return bounds, spans


def _postings(index: LangIndex, occurrences: dict, docs: list[DocInfo], lang: str) -> None:
    """Turn positions and field counts into postings with BM25F impacts and idf."""
    with_lang = [d.bounds[lang] for d in docs if lang in d.bounds and d.current]  # statistics of the current
    n_docs = len(with_lang)  # editions only: the site, which has only those, ranks the same
    avg = []
    for k in range(3):
        lengths = [b[2 * k + 1] - b[2 * k] for b in with_lang if b[2 * k + 1] > b[2 * k]]
        avg.append(sum(lengths) / len(lengths) if lengths else 1.0)
    index.terms = [Postings(0.0, [], [], [], [], []) for _ in range(len(set(index.forms.values())))]
    for term, found in occurrences.items():
        p = index.terms[term]
        df = sum(1 for n, *_ in found if docs[n].current)
        p.idf = math.log(1 + (n_docs - df + 0.5) / (df + 0.5))
        for n, positions, tfs, mask, title_mask in found:  # documents in index order
            bounds = docs[n].bounds[lang]
            parts = [0.0, 0.0, 0.0]
            for k in range(3):
                if tfs[k]:
                    length = bounds[2 * k + 1] - bounds[2 * k]
                    parts[k] = tfs[k] / (1 - B[k] + B[k] * length / avg[k])
            pseudo = sum(w * x for w, x in zip(WEIGHTS, parts, strict=True))
            if parts[0]:  # the title's words may be other forms of the query's: then the title weighs as text
                plain = parts[0] + parts[1] * WEIGHTS[1] + parts[2] * WEIGHTS[2]
                p.titles += [len(p.docs), plain * (K1 + 1) / (plain + K1), title_mask]
            p.docs.append(n)
            p.impacts.append(pseudo * (K1 + 1) / (pseudo + K1))
            p.positions.append(positions[:MAX_POSITIONS])
            p.masks.append(mask)


def _concepts(index: LangIndex, occurrences: dict, docs: list[DocInfo], lang: str) -> dict:
    """The characteristic terms (tf x idf over its rule subtree or definition) of each one-word headword."""
    under: dict[str, list[int]] = {}
    for n, d in enumerate(docs):
        if d.kind == "rule" and d.current and d.number:
            for k in range(1, len(d.number)):
                if d.number[k] in ".abcdefghijkmnpqrstuvwxyz":
                    under.setdefault(d.number[:k], []).append(n)
    counts: dict[int, dict[int, float]] = {}
    owners: dict[int, list[int]] = {}
    for n, d in enumerate(docs):
        for head in d.heads.get(lang, ()):
            if len(head) == 1 and d.current and d.kind in ("rule", "glossary"):
                owners.setdefault(head[0], []).append(n)
                for m in [n, *(under.get(d.number, []) if d.kind == "rule" else [])]:
                    counts.setdefault(m, {})
    common = CONCEPT_DF * sum(1 for d in docs if lang in d.bounds and d.current)
    for term, found in occurrences.items():
        if term in index.stop_terms or not 2 <= len(found) <= common:  # too rare to say anything, or too common
            continue
        for n, _, tfs, *_ in found:
            if n in counts:
                counts[n][term] = tfs[1] + tfs[0]
    concepts = {}
    for head, holders in owners.items():
        total: dict[int, float] = {}
        for n in holders:
            d = docs[n]
            for m in [n, *(under.get(d.number, []) if d.kind == "rule" else [])]:
                for term, tf in counts[m].items():
                    if term != head:
                        total[term] = total.get(term, 0.0) + tf * index.terms[term].idf
        best = sorted(total.items(), key=lambda pair: (-pair[1], pair[0]))[:CONCEPT_TERMS]
        if best:
            concepts[head] = [(term, round(weight / best[0][1], 4)) for term, weight in best]
    return concepts


def _names(items: list[Entry], lang: str) -> list[tuple[str, int]]:
    """(folded name word, document) of every card name and face name in a language, sorted."""
    found = set()
    for n, e in enumerate(items):
        if e.kind == "card":
            for head in e.heads.get(lang, ()):
                found |= {(t[TEXT], n) for t in tokens(head) if len(t[TEXT]) >= 2}
    return sorted(found)


def _cites(items: list[Entry], docs: list[DocInfo]) -> None:
    """Link each document to the rules its texts cite (same edition for a rule of another edition)."""
    where = {e.id: n for n, e in enumerate(items) if e.kind == "rule"}
    for n, e in enumerate(items):
        suffix = "@" + e.id.split("@", 1)[1] if "@" in e.id else ""
        cited = {m for text in e.texts.values() for m in IN_TEXT.findall(text)} - {e.number}
        docs[n].cites = sorted(where[c + suffix] for c in cited if c + suffix in where)
