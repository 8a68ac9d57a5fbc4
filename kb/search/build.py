"""Entries -> the search index: vocabulary, postings with BM25F impacts and positions, document data.

Pure Python (no whoosh). Every word is analysed once, here: its index forms (stemmed-then-folded and
folded-then-stemmed) are grouped into one *term* per language, so `piochées`, `piochees` and `pioche` are the
same term and each position holds exactly one term. Queries never stem: a query word is looked up in the
vocabulary of folded words (`vocab`), else by its longest known stem prefix (`forms`), else by spelling
(`kb.search.lookup`), so the CLI and the site's JavaScript read the same tables and rank alike.
"""

from __future__ import annotations

import math
from array import array
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from itertools import chain, islice
from pathlib import Path
from re import Match, Pattern

from kb.model.langs import ordered_langs
from kb.model.numbers import IN_TEXT
from kb.search.db import PackedPostings, PayloadSpill
from kb.search.entries import Entry
from kb.search.text import PLAIN, PLAIN_WORDS, TEXT, LangText, analyse, tokens

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
BATCH = 4096
"""Tokens of a text analysed at a time (a giant text is never held as one list of matches)."""
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
    terms: list[PackedPostings]
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
    langs: tuple[str, ...]
    """Languages of its texts and titles, in display order (one tuple shared by the documents of the same ones)."""
    current: bool
    editions: dict[str, str]
    """Edition id per language (one dict shared by the documents of the same editions: never change it)."""
    at: int
    """Where its field bounds start in `fields` (see `bounds`)."""
    fields: array
    """The field bounds of every document, each document's languages in `langs` order, one document after the
    other: one array shared by all (a dict and an array per document took 7 MB for 5 MB of FAQ)."""
    heads: dict[str, list[list[int]]] | None
    """Language -> terms of each headword (stop words left out), sorted; None: no headword (see `headwords`)."""
    cites: tuple[int, ...] = ()
    """Documents of the rules its texts cite."""

    def bounds_in(self, lang: str) -> array:
        """[title start, title end, text start, text end, ctx start, ctx end] positions in one of its languages."""
        start = self.at + BOUNDS * self.langs.index(lang)
        return self.fields[start : start + BOUNDS]

    @property
    def bounds(self) -> dict[str, array]:
        """Language -> `bounds_in` it, for each of its languages (made on each call)."""
        return {lang: self.bounds_in(lang) for lang in self.langs}

    def heads_in(self, lang: str) -> list[list[int]]:
        """The terms of each headword in a language (empty: none)."""
        return self.heads.get(lang, []) if self.heads else []

    def headwords(self) -> dict[str, list[list[int]]]:
        """Language -> terms of each headword, every language of the document present (an empty list: none)."""
        return {lang: self.heads_in(lang) for lang in self.langs}


@dataclass(slots=True)
class IndexData:
    """A whole search index, in memory: written to SQLite for the CLI and to JSON for the site."""

    langs: list[str]
    lang_index: dict[str, LangIndex]
    docs: list[DocInfo]
    payloads: PayloadSpill
    """Each document's payload, in a temporary file (`close` it when written)."""
    lexicon: dict = field(default_factory=dict)
    """Translation tables (`kb.search.lexicon`): `{"fr>en": table, "en>fr": table}`, empty without a lexicon."""


BOUNDS = 6
"""Numbers in a document's field bounds in one language."""


def build(items: Iterable[Entry], lang_text: Callable[[str], LangText], spill: Path | None = None) -> IndexData:
    """Analyse every entry and build the index (`lang_text`: a language's analysis; `spill`: the folder of the
    temporary file holding the documents' payloads, the system's temporary folder by default).

    The entries are read once, one at a time (pass an iterator and none is held): each document is tokenised
    once, its payload (texts and token spans) written to the spill file, and only its words' numbers, in a
    typed array, kept while the vocabulary grows. Then, once the vocabulary and the field lengths are known,
    each document's words become postings, document by document.
    """
    words: dict[str, _Words] = {}
    docs: list[DocInfo] = []
    payloads = PayloadSpill(spill)
    heads: list[tuple[int, str, list[tuple[str, ...]]]] = []
    same_langs: dict[tuple[str, ...], tuple[str, ...]] = {}  # languages as met -> in display order, one tuple
    same_editions: dict[tuple, dict[str, str]] = {}  # equal editions of documents: one dict
    names: dict[str, set[tuple[str, int]]] = {}
    rules: dict[str, int] = {}
    fields = array("i")
    try:
        for entry in items:
            n = len(docs)
            langs = tuple(dict.fromkeys((*entry.texts, *entry.titles)))
            per = same_langs.setdefault(langs, tuple(ordered_langs(langs)))
            editions = same_editions.setdefault(tuple(entry.editions.items()), entry.editions)
            info = DocInfo(
                entry.kind, entry.id, entry.number, entry.order, KIND_BOOSTS[entry.kind], per, entry.current,
                editions, len(fields), fields, None, _cited(entry),
            )  # fmt: skip
            spans = {}
            for lang in per:
                if lang not in words:
                    words[lang] = _Words(lang_text(lang))
                bounds, spans[lang] = words[lang].document(entry, lang, n)
                fields.extend(bounds)
                if entry.heads.get(lang):
                    heads.append((n, lang, _head_words(entry.heads[lang], words[lang].lt)))
            for lang, found in entry.heads.items() if entry.kind == "card" else ():
                named = names.setdefault(lang, set())
                named.update((t[TEXT], n) for h in found for t in tokens(h) if len(t[TEXT]) >= 2)
            if entry.kind == "rule":
                rules[entry.id] = n
            docs.append(info)
            payloads.add(entry.titles, entry.texts, entry.names, entry.context, spans)
    except BaseException:
        payloads.close()
        raise
    langs = ordered_langs(words)
    lang_index, tables, term_ofs = {}, {}, {}
    for lang in langs:
        lang_index[lang], term_ofs[lang] = words[lang].vocabulary()
        tables[lang] = words[lang].tables(lang_index[lang], term_ofs[lang])
    for n, lang, found in heads:
        if docs[n].heads is None:
            docs[n].heads = {}
        docs[n].heads[lang] = _heads(found, term_ofs[lang])
    del heads, term_ofs
    concepts = {lang: _concept_docs(docs, lang) for lang in langs}
    norms = {lang: _norms(docs, lang) for lang in langs}
    for lang in langs:
        lang_index[lang].terms = [PackedPostings() for _ in range(len(set(lang_index[lang].forms.values())))]
    for lang in langs:
        terms, found = lang_index[lang].terms, words[lang]
        for n, wids in found.streams():
            norm = norms[lang][3 * n : 3 * n + 3]
            _record(n, wids, docs[n].bounds_in(lang), norm, tables[lang], terms, concepts[lang].get(n))
        found.flat = array("i")  # recorded: the documents' words are no longer needed
    for lang in langs:
        _idf(lang_index[lang], docs, lang)
        lang_index[lang].names = sorted(names.get(lang, ()))
        lang_index[lang].concepts = _concepts(lang_index[lang], concepts[lang], docs, lang)
    _cites(docs, rules)
    return IndexData(langs, lang_index, docs, payloads)


def _head_words(heads: tuple[str, ...], lt: LangText) -> list[tuple[str, ...]]:
    """The folded words of each headword, stop words left out (their terms are known once every text is read)."""
    return [tuple(dict.fromkeys(t[TEXT] for t in tokens(h) if not lt.is_stop(t[TEXT]))) for h in heads]


def _cited(entry: Entry) -> tuple:
    """The ids of the rules an entry's texts cite (same edition for a rule of another edition): resolved to
    documents by `_cites` once every entry is read."""
    suffix = "@" + entry.id.split("@", 1)[1] if "@" in entry.id else ""
    cited = {m for text in entry.texts.values() for m in IN_TEXT.findall(text)} - {entry.number}
    return tuple(sorted(c + suffix for c in cited))


def _heads(heads: list[tuple[str, ...]], terms: dict[str, int]) -> list[list[int]]:
    """The terms of each headword's words (a headword with a word never indexed is dropped)."""
    found = [{terms.get(w) for w in h} for h in heads]
    return [sorted(h) for h in found if h and None not in h]


class _Words:
    """One language's words as documents are tokenised: each folded word gets a number (in order of appearance),
    and words sharing an index form are grouped into one term (union-find over the forms)."""

    def __init__(self, lt: LangText) -> None:
        self.lt = lt
        self.number: dict[str, int] = {}
        """Token as written -> its word's number."""
        self.words: dict[str, int] = {}
        """Folded word -> its number."""
        self.df: Counter[int] = Counter()
        """Word number -> current documents holding it."""
        self.parent: dict[str, str] = {}
        self.surface_forms: dict[str, tuple[str, ...]] = {}
        self.done: set[str] = set()
        self.flat = array("i")
        """The numbers of the words of every document's fields, one document after the other."""
        self.ends = array("q")
        """Where each document's words end in `flat`."""
        self.docs = array("i")
        """The documents whose words `flat` holds, in order."""

    def document(self, entry: Entry, lang: str, n: int) -> tuple[array, array]:
        """Tokenise document `n`'s title, text and context: (field bounds, text token spans); the numbers of the
        words of its fields are appended to `flat`."""
        title, text, ctx = entry.titles.get(lang, ""), entry.texts.get(lang, ""), entry.context.get(lang, "")
        stream = self._numbers(_pattern(title).findall(title))
        n0, spans, found = len(stream), array("i"), _pattern(text).finditer(text)
        while matches := list(islice(found, BATCH)):  # a giant text's matches never all at once
            spans.extend(chain.from_iterable(map(Match.span, matches)))
            stream += self._numbers(list(map(Match.group, matches)))
        n1 = len(stream)
        stream += self._numbers(_pattern(ctx).findall(ctx))
        bounds = array("i", (0, n0, n0 + GAP, n1 + GAP, n1 + 2 * GAP, len(stream) + 2 * GAP))
        if entry.current:
            self.df.update(set(stream))
        self.flat.extend(stream)
        self.ends.append(len(self.flat))
        self.docs.append(n)
        return bounds, spans

    def streams(self) -> Iterator[tuple[int, array]]:
        """(document, the numbers of the words of its fields) of each document tokenised, in order."""
        start = 0
        for n, end in zip(self.docs, self.ends, strict=True):
            yield n, self.flat[start:end]
            start = end

    def _numbers(self, written: list[str]) -> array:
        """The numbers of the words of some tokens as written."""
        found = list(map(self.number.get, written))
        if None in found:
            found = [self._word(w) if x is None else x for x, w in zip(found, written, strict=True)]
        return array("i", found)

    def _word(self, written: str) -> int:
        """The number of a token's word (its index forms grouped with the others' on first sight)."""
        found = self.number.get(written)
        if found is None:
            group = 1 if written[0] == "{" else 2 if "/" in written else 3  # which of TOKEN's groups matched it
            kind, text, raw = analyse(group, written)
            if raw not in self.done:
                self.done.add(raw)
                self._group(self.lt.forms((0, 0, kind, text, raw)), text)
            found = self.number[written] = self.words.setdefault(text, len(self.words))
        return found

    def _find(self, x: str) -> str:
        """The root form of a form's group (paths halved on the way)."""
        parent = self.parent
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def _group(self, forms: tuple[str, ...], text: str) -> None:
        """Join a word's index forms into one term (and with the forms of another spelling of the same word)."""
        find, parent = self._find, self.parent
        first = find(forms[0])
        for other in forms[1:]:
            parent[find(other)] = first
        if self.surface_forms.setdefault(text, forms) != forms:
            parent[find(self.surface_forms[text][0])] = find(forms[0])

    def vocabulary(self) -> tuple[LangIndex, dict[str, int]]:
        """The language's terms (numbered in the order of their sorted root forms) and each word's term."""
        lt, find = self.lt, self._find
        roots = sorted({find(f) for f in self.parent})
        ids = {root: i for i, root in enumerate(roots)}
        term_of = {word: ids[find(forms[0])] for word, forms in self.surface_forms.items()}
        forms = {form: ids[find(form)] for form in self.parent}
        stop_terms = {term_of[w] for w in term_of if lt.is_stop(w)}
        bits, count = {}, {}
        for word in sorted(term_of):
            t = term_of[word]
            bits[word] = min(count.get(t, 0), MAX_BIT)
            count[t] = count.get(t, 0) + 1
        df = {word: self.df[w] for word, w in self.words.items()}
        index = LangIndex(dict(sorted(term_of.items())), bits, forms, lt.stops, [], stop_terms, df, [])
        return index, term_of

    def tables(self, index: LangIndex, term_of: dict[str, int]) -> tuple[list[int], list[int], list[int]]:
        """Per word number: its term, its bit, and the term it negates (-1: none; `untapped` -> `tapped`)."""
        words = list(self.words)  # in number order
        negated = [term_of[rest] if (rest := self.lt.negated(w, term_of)) else -1 for w in words]
        return [term_of[w] for w in words], [index.bits[w] for w in words], negated


def _pattern(text: str) -> Pattern:
    """The pattern that tokenises a text (symbols and stats need a `{` or a `/`)."""
    return PLAIN if "{" in text or "/" in text else PLAIN_WORDS


def _norms(docs: list[DocInfo], lang: str) -> array:
    """BM25F length normalisation of each field of each document, three numbers a document (zeros for a document
    without the language), in one array (statistics of the current editions only: the site, which has only those,
    ranks the same)."""
    total, count = [0, 0, 0], [0, 0, 0]
    for d in docs:
        if lang in d.langs and d.current:
            b = d.bounds_in(lang)
            for k in range(3):
                if b[2 * k + 1] > b[2 * k]:
                    total[k] += b[2 * k + 1] - b[2 * k]
                    count[k] += 1
    avg = [total[k] / count[k] if count[k] else 1.0 for k in range(3)]
    found = array("d")
    for d in docs:
        if lang in d.langs:
            b = d.bounds_in(lang)
            found.extend(1 - B[k] + B[k] * (b[2 * k + 1] - b[2 * k]) / avg[k] for k in range(3))
        else:
            found.extend((0.0, 0.0, 0.0))
    return found


def _record(n: int, wids: array, bounds: array, norms: tuple, tables: tuple, terms: list, keep: dict | None) -> None:
    """Add a document's postings: positions (the first MAX_POSITIONS), BM25F impact, masks of the words as
    written; `keep`: the document's term counts for the concepts (None: not wanted). A negated word (`untapped`)
    also counts half an occurrence of the word it negates."""
    term_of, bits, negated = tables
    cut1, cut2 = bounds[1], bounds[1] + bounds[3] - bounds[2]  # where the text's and the context's words start
    local: dict[int, list] = {}
    places: dict[int, array] = {}  # each word's places, in order: an array, not a Python int a place
    for i, w in enumerate(wids):
        found = places.get(w)
        if found is None:
            places[w] = array("i", (i,))
        else:
            found.append(i)
    for w in sorted(places):
        at = places[w]
        a = bisect_left(at, cut1) if at[0] < cut1 else 0
        c = bisect_left(at, cut2, a) if at[-1] >= cut2 else len(at)
        if at[-1] < cut1:
            positions = at[:MAX_POSITIONS].tolist()
        else:
            positions = [x if x < cut1 else x + GAP if x < cut2 else x + 2 * GAP for x in at[:MAX_POSITIONS]]
        mask = 1 << bits[w]
        term = term_of[w]
        found = local.get(term)
        if found is None:
            local[term] = [positions, a, c - a, len(at) - c, mask, mask if a else 0]
        else:
            _add(found, positions, a, c - a, len(at) - c, mask, mask if a else 0)
        if negated[w] >= 0:
            counts = (NEGATED * a, NEGATED * (c - a), NEGATED * (len(at) - c))
            if negated[w] in local:
                _add(local[negated[w]], positions, *counts, 0, 0)
            else:
                local[negated[w]] = [positions, *counts, 0, 0]
    norm0, norm1, norm2 = norms
    w0, w1, w2 = WEIGHTS
    for term, (positions, tf0, tf1, tf2, mask, title_mask) in local.items():
        p = terms[term]
        x0, x1, x2 = tf0 / norm0 if tf0 else 0.0, tf1 / norm1 if tf1 else 0.0, tf2 / norm2 if tf2 else 0.0
        pseudo = w0 * x0 + w1 * x1 + w2 * x2
        if tf0:  # the title's words may be other forms of the query's: then the title weighs as text
            plain = x0 + x1 * w1 + x2 * w2
            p.titles.extend((len(p.docs), plain * (K1 + 1) / (plain + K1), title_mask))
        p.docs.append(n)
        p.impacts.append(pseudo * (K1 + 1) / (pseudo + K1))
        p.add_positions(positions)
        p.counts.append(len(positions))
        p.add_mask(mask)
        if keep is not None:
            keep[term] = tf1 + tf0


def _add(found: list, positions: list, tf0, tf1, tf2, mask: int, title_mask: int) -> None:
    """Count more occurrences of a term in a document (a term's words merge in position order)."""
    found[0] = sorted(found[0] + positions)[:MAX_POSITIONS]
    found[1] += tf0
    found[2] += tf1
    found[3] += tf2
    found[4] |= mask
    found[5] |= title_mask


def _idf(index: LangIndex, docs: list[DocInfo], lang: str) -> None:
    """Each term's idf over the current documents."""
    n_docs = sum(1 for d in docs if lang in d.langs and d.current)
    current = [d.current for d in docs]
    for p in index.terms:
        if p.docs:
            df = sum(map(current.__getitem__, p.docs))
            p.idf = math.log(1 + (n_docs - df + 0.5) / (df + 0.5))


def _concept_docs(docs: list[DocInfo], lang: str) -> dict[int, dict[int, float]]:
    """Documents whose terms characterise a one-word headword (its rule's subtree, its definition), each with an
    empty table of term counts."""
    under = _under(docs)
    counts: dict[int, dict[int, float]] = {}
    for n, d in enumerate(docs):
        for head in d.heads_in(lang):
            if len(head) == 1 and d.current and d.kind in ("rule", "glossary"):
                for m in [n, *(under.get(d.number, []) if d.kind == "rule" else [])]:
                    counts.setdefault(m, {})
    return counts


def _under(docs: list[DocInfo]) -> dict[str, list[int]]:
    """Rule number -> the current rules under it."""
    under: dict[str, list[int]] = {}
    for n, d in enumerate(docs):
        if d.kind == "rule" and d.current and d.number:
            for k in range(1, len(d.number)):
                if d.number[k] in ".abcdefghijkmnpqrstuvwxyz":
                    under.setdefault(d.number[:k], []).append(n)
    return under


def _concepts(index: LangIndex, counts: dict[int, dict[int, float]], docs: list[DocInfo], lang: str) -> dict:
    """The characteristic terms (tf x idf over its rule subtree or definition) of each one-word headword; `counts`:
    the terms of the documents that may characterise one (`_concept_docs`), filled by `_record`."""
    under = _under(docs)
    owners: dict[int, list[int]] = {}
    for n, d in enumerate(docs):
        for head in d.heads_in(lang):
            if len(head) == 1 and d.current and d.kind in ("rule", "glossary"):
                owners.setdefault(head[0], []).append(n)
    common = CONCEPT_DF * sum(1 for d in docs if lang in d.langs and d.current)
    terms, stops = index.terms, index.stop_terms
    for m, found in counts.items():  # too rare to say anything, or too common
        counts[m] = {t: tf for t, tf in found.items() if t not in stops and 2 <= len(terms[t].docs) <= common}
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


def _cites(docs: list[DocInfo], rules: dict[str, int]) -> None:
    """Link each document to the rules its texts cite (`_cited`: their ids; `rules`: id -> document)."""
    for d in docs:
        d.cites = tuple(sorted(rules[c] for c in d.cites if c in rules))
