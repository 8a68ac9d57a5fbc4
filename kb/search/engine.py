"""Search an index's export: the query box, its words resolved into slots, Whoosh's BM25F scores of their terms
summed, kb's re-rank, snippets.

The export (`kb.search.export`) holds what Whoosh's index holds and the scores Whoosh's BM25F gives each term in
each document; it is read a shard at a time, as a query needs it, and kept. `templates/static/kbsearch.js` reads the
same files in the browser (a step's at once): the CLI, `kb serve` and the site rank alike by construction. A
query's score of a document is the sum of its slots' scores, each the sum of the scores of the alternatives it holds
(an alternative of several terms only where all are held, a phrase only where its words stand in a row); the documents
are re-ranked by `kb.search.rank`. Whoosh gives the spelling corrections (its corrector over the words of one first
letter) and the snippets (its highlighter over the text shown).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from functools import cached_property
from math import log
from pathlib import Path

import numpy as np

from kb.model.numbers import descends, sort_key
from kb.search import rank as R
from kb.search.lookup import (
    NAME_MIN,
    TRANSLATED,
    Alt,
    Slot,
    slots,
)
from kb.search.query import KINDS, ParsedQuery, SearchError, parse_query
from kb.search.results import SearchResult, make_result, translations_of
from kb.search.shards import Export, ExportTables
from kb.search.spelling import Speller, corrected_query
from kb.search.store import EXPORT_FOLDER
from kb.search.text import EXACT, STOP, folded, folded_tokens, is_stop, query_tokens, without_references

NAME = 1.5
"""Score of a card whose name has a word starting with a query word (a title word scores about as much)."""
NAME_LIMIT = 50
"""Card-name words looked at for one prefix."""
ALONE = 1 / TRANSLATED
"""What a translation's score is multiplied by in a document with no text in another language: an English rule
found through a French question's words competes with the French texts found as typed (a French reader's
answer is most often in the English rules alone), while in a document with both texts the words as typed lead."""


@dataclass(frozen=True, slots=True)
class Answer:
    """What a search found."""

    results: tuple[SearchResult, ...]
    corrected: str | None = None
    """The query with its spelling corrections, or None."""
    editions: tuple[str, ...] = ()
    """The editions searched."""
    elsewhere: tuple[tuple[str, str, str | None], ...] = ()
    """For a typed rule number: (language, its number, today's) of a translation's rule numbered so."""
    total: int = 0
    """Documents matched, before the re-rank."""

    def __iter__(self):
        return iter(self.results)

    def __len__(self) -> int:
        return len(self.results)

    def __getitem__(self, k):
        return self.results[k]


@dataclass(slots=True)
class _Term:
    """One (field, term) a slot asks for, and the documents holding it."""

    field: str
    term: str
    via: bool
    df: int
    docs: np.ndarray
    scores: np.ndarray
    words: frozenset[str] = frozenset()
    """What it names of a headword: the term, or a term of several words' (`main phase`) words' first forms."""


@dataclass(slots=True)
class _Scored:
    """What the re-rank reads of the documents a query matched (each at its place in `docs`)."""

    docs: np.ndarray
    """The documents matched, in document order."""
    held: list[np.ndarray]
    """Per slot, per document: whether it holds a term of the slot."""
    exact: list[np.ndarray]
    """Per slot: whether it holds the word as typed."""
    near: list[np.ndarray]
    """Per slot: the share of the slot its characteristic terms cover."""
    terms: list[list[_Term]]
    """Per slot, its terms."""
    inside: list[np.ndarray]
    """Per slot, per term, per document: whether the document holds the term."""
    via: np.ndarray
    """Per document: whether it was found through translations only."""
    places: np.ndarray
    """Per document of the index: its place in `docs`, or -1."""
    columns: list[list[list[bool]]] = field(default_factory=list)

    def found(self, doc: int) -> list[list[_Term]]:
        """Per slot, the terms a document holds (read for the few documents the re-rank and the results look at)."""
        if not self.columns:
            self.columns.extend(rows.T.tolist() for rows in self.inside)
        k = int(self.places[doc])
        return [
            [t for t, held in zip(mine, columns[k], strict=True) if held]
            for mine, columns in zip(self.terms, self.columns, strict=True)
        ]


class Engine:
    """An index's export, searched; keep it for many queries."""

    def __init__(self, export: Export, editions: dict, numbering: dict, others: Callable[[], Engine] | None = None):
        self.export = export
        self.tables = ExportTables(export)
        self.langs = self.tables.langs
        core = export.core
        self.n: int = core["n"]
        self.kinds = np.asarray(_runs(core["kinds"]), dtype=np.int8)
        self.langs_of = np.asarray(_runs(core["langsOf"]), dtype=np.int64)
        self.editions: tuple[tuple[str, ...], tuple[str, ...]] = (tuple(editions["current"]), tuple(editions["other"]))
        """(current edition ids, other edition ids) of the rules and glossaries loaded."""
        self.numbering: dict[str, dict[str, str | None]] = numbering
        self._others = others
        self.speller = Speller(self.tables)
        self._masks: dict[tuple[str, str], np.ndarray] = {}
        self._phrases: dict[tuple[str, tuple[str, ...]], tuple[list[set[str]], re.Pattern | None]] = {}
        self.unsaved: str | None = None
        """Why the index lives in a temporary folder only (the build folder cannot be written), else None."""
        self.notice: str | None = None
        """What opening the index had to do (a damaged index rebuilt), else None."""
        self.keep: object = None
        """What must live as long as the engine (the temporary folder of an index that could not be saved)."""

    def close(self) -> None:
        """Let go of what the engine read (and of its temporary folder, if any)."""
        self.export.files.clear()
        self.export.postings_of.clear()
        self.keep = None

    def search(
        self, text: str, lang: str | None = None, kind: str | None = None, limit: int = 10, edition: str | None = None
    ) -> Answer:
        """Answer the query box; `lang`, `kind`, `edition` add to its filters. Raise SearchError when malformed."""
        parsed = parse_query(text)
        editions = self._editions_of((*parsed.editions, *([edition] if edition else [])))
        if editions and self._others is not None:  # another edition: the index of every edition answers
            return self._others().search(text, lang, kind, limit, edition)
        langs = _narrow(parsed.langs, lang, self.langs, "lang")
        kinds = _narrow(parsed.kinds, kind, KINDS, "kind")
        searched = editions or self.editions[0]
        if not langs or not kinds:  # `kind:rule` typed and --kind card asked: nothing is both
            return Answer((), None, searched)
        allowed = self._allowed(langs, kinds, editions)
        elsewhere = ()
        if parsed.number:
            elsewhere = tuple(
                (x, parsed.number, own[parsed.number]) for x, own in self.numbering.items() if parsed.number in own
            )
        if parsed.number and "rule" in kinds:
            found = self._numbers(parsed, langs, allowed, limit)
            if found:
                return Answer(tuple(self.result_of(d) for d in found), None, searched, elsewhere, len(found))
        made = slots(parsed, self.tables, langs)
        fixed = [self.speller.correct(s, langs) for s in made if s.missing]
        corrected = corrected_query(parsed, made) if any(fixed) else None
        made = [s for s in made if s.alts or s.names]
        if not made:
            return Answer((), corrected, searched, elsewhere)
        ranked, terms, total = self._ranked(parsed, made, langs, allowed, limit)
        asked = [t for mine in terms for t in mine if t.field != "name"]
        translations = translations_of(made, self.tables)
        results = tuple(self._result(d, score, translations, langs, found, asked) for d, score, found in ranked[:limit])
        return Answer(results, corrected, searched, elsewhere, total)

    # --- scoring: the sum of the slots' scores, then kb's re-rank ----------------------------------------------

    def _ranked(
        self, parsed: ParsedQuery, made: list[Slot], langs: tuple[str, ...], allowed, limit: int
    ) -> tuple[list, list, int]:
        """(document, score, its terms per slot: for the best `limit` only) best first, the terms of each slot, and
        how many documents matched."""
        terms = [self._slot_terms(s) for s in made]
        weights = [self._weight(t) for t in terms]
        total = np.zeros(self.n)
        hit = np.zeros(self.n, dtype=bool)
        for slot, mine in zip(made, terms, strict=True):
            score, held = self._slot_score(slot, mine)
            total += score
            hit |= held
        hit &= allowed
        masked = self._excluded(parsed, langs)
        if masked is not None:
            hit[masked] = False
        docs = np.flatnonzero(hit)
        order = docs[np.lexsort((docs, -total[docs]))]
        top = order[: R.TOP]
        named = self._named(made)
        beyond = order[R.TOP :]
        beyond = beyond[self._among(named)[beyond]][: R.NAMED] if len(named) else beyond[:0]
        chosen = np.concatenate([top, beyond])
        scored = self._scored(chosen, made, terms)
        found = [
            R.Hit(
                int(d),
                float(total[d]),
                covered,
                R.KIND_BOOSTS[KINDS[self.kinds[d]]],
                exact,
                via=via,
                kind=KINDS[self.kinds[d]],
            )
            for d, covered, exact, via in self._hits(scored)
        ]

        def about(doc: int) -> tuple:
            key, heads, sections, cites, named = self._rank_data(doc)
            langs = [lang for k, lang in enumerate(self.langs) if self.langs_of[doc] & (1 << k)]
            return (key, heads, sections, cites, *_forms(scored.found(doc), made, langs), named)

        ranked = R.rerank(found, weights, all(s.stop for s in made), about, frozenset(int(d) for d in named))
        return (
            [(h.doc, score, scored.found(h.doc) if k < limit else None) for k, (h, score) in enumerate(ranked)],
            terms,
            len(docs),
        )

    def _slot_terms(self, slot: Slot) -> list[_Term]:
        """Every (field, term) a slot matches, once (a translation only when nothing else asks it): its
        alternatives' forms, its words as typed, its card-name words."""
        found: dict[tuple[str, str], _Term] = {}

        def add(name: str, term: str, via: bool) -> None:
            key = (name, term)
            if key in found:
                found[key].via = found[key].via and via
                return
            docs, scores, df = self.export.postings(term).get(name, (_NONE, _NO_SCORES, 0))
            found[key] = _Term(name, term, via, df, docs, scores, self._words(name, term))

        for alt in slot.alts:
            for form in alt.forms:
                add(f"body_{alt.lang}", form, alt.via)
        for lang, term in slot.exact:
            add(f"body_{lang}", term, False)
        for prefix in slot.names:
            part = self.export.shard("names", prefix[:NAME_MIN])
            for word in _name_terms(part, prefix, slot.stop):
                docs, df = part[word]
                found[("name", word)] = _Term("name", word, False, df, np.asarray(docs, dtype=np.int64), _NO_SCORES)
        return list(found.values())

    def _words(self, name: str, term: str) -> frozenset[str]:
        """What a term names of a headword: itself, or the first forms of its words (stop words aside) when it is a
        term of several words indexed as one (headwords are read word by word: `kb.search.writer.rank_data`)."""
        if " " not in term or not name.startswith("body_"):
            return frozenset((term,))
        lang = name.removeprefix("body_")
        stops = self.tables.stops.get(lang, frozenset())
        forms = [self.tables.forms(lang, w)[:1] for w in term.split(" ") if not is_stop(w, "word", stops)]
        return frozenset(f for fs in forms for f in fs) or frozenset((term,))

    def _weight(self, terms: list[_Term]) -> float:
        """How much finding a slot counts: the idf of its rarest term (of its words as typed, when they are in the
        index: a translation's rarity among the few texts of another language says little), card-name words
        counting as one."""
        scored = [t for t in terms if t.field != "name" and not t.term.startswith(EXACT) and t.df]
        dfs = [t.df for t in scored if not t.via] or [t.df for t in scored]
        names = sum(t.df for t in terms if t.field == "name")
        return max((_idf(self.n, df) for df in [*dfs, min(self.n, names)] if df), default=0.0)

    def _slot_score(self, slot: Slot, terms: list[_Term]) -> tuple[np.ndarray, np.ndarray]:
        """A slot's score of every document (the best of the alternatives it holds whole: a word found in two
        languages of a document, or through three translations, counts once) and which it matches. Each
        alternative is scored over the documents holding its first form only (a term's postings, not the index)."""
        by_key = {(t.field, t.term): t for t in terms}
        best: dict[str, np.ndarray] = {}
        held = np.zeros(self.n, dtype=bool)
        for alt in slot.alts:
            parts = [by_key[(f"body_{alt.lang}", form)] for form in alt.forms]
            docs = parts[0].docs
            for part in parts[1:]:  # documents holding every form
                docs = docs[self._among(part.docs)[docs]]
            if alt.via:  # a translation finds texts, never a concept's name in a language the document has no text in
                docs = docs[self._texts_in(alt.lang)[docs]]
            if alt.phrase:
                docs = docs[[self._has_phrase(int(d), alt.lang, alt.phrase) for d in docs]] if len(docs) else docs
            values = np.zeros(len(docs))
            factor = self._factor(alt, slot.lang, docs)
            for part in parts:
                values += factor * part.scores[np.searchsorted(part.docs, docs)]
            lang_best = best.get(alt.lang)
            if lang_best is None:
                lang_best = best[alt.lang] = np.zeros(self.n)
            lang_best[docs] = np.maximum(lang_best[docs], values)
            held[docs] = True
        score = np.maximum.reduce(list(best.values())) if best else np.zeros(self.n)
        named = [t for t in terms if t.field == "name"]
        if named:
            mine = np.zeros(self.n, dtype=bool)
            for t in named:
                mine[t.docs] = True
            score += np.where(mine, NAME, 0.0)
            held |= mine
        return score, held

    def _factor(self, alt: Alt, lang: str | None, docs: np.ndarray) -> np.ndarray | float:
        """What an alternative's scores count for in each of `docs`: a translation (`ALONE`) lifted in a document
        with no text in another language (and never counted in one with no text in its language: the name of its
        concept there is no text the query was translated to find); a word matching only a concept's name in a
        language the document has no text in (a terminology's) as a translation, unless the query is in that
        language (`main phase` is not about the French « main », a hand)."""
        if alt.via:
            return np.where(self._alone(alt.lang)[docs], alt.factor * ALONE, alt.factor)
        if lang == alt.lang:
            return alt.factor
        return np.where(self._texts_in(alt.lang)[docs], alt.factor, alt.factor * TRANSLATED)

    def _among(self, docs: np.ndarray) -> np.ndarray:
        """Which documents are among some (numpy's `isin` and `unique` sort, and import `numpy.ma` on first use:
        a sixth of a cold `kb search`)."""
        mask = np.zeros(self.n, dtype=bool)
        mask[docs] = True
        return mask

    def _texts_in(self, lang: str) -> np.ndarray:
        """Which documents have a text in a language (worked out once per language)."""
        found = self._masks.get(("in", lang))
        if found is None:
            found = self._masks[("in", lang)] = (self.langs_of & (1 << self.langs.index(lang))) != 0
        return found

    def _alone(self, lang: str) -> np.ndarray:
        """Which documents have a text in no other language than this one (worked out once per language)."""
        found = self._masks.get(("alone", lang))
        if found is None:
            found = self._masks[("alone", lang)] = self.langs_of == (1 << self.langs.index(lang))
        return found

    def _named(self, made: list[Slot]) -> np.ndarray:
        """The documents whose headwords hold a form of a query word or of its translations."""
        forms = {f for s in made for a in s.alts if not a.phrase for f in a.forms}
        found = [self.export.postings(f).get("heads", (_NONE,))[0] for f in sorted(forms)]
        return np.flatnonzero(self._among(np.concatenate(found))) if found else _NONE

    def _scored(self, docs: np.ndarray, made: list[Slot], terms: list[list[_Term]]) -> _Scored:
        """What the re-rank reads of some documents: per slot, whether each holds a term, the word as typed, and
        the share its characteristic terms cover; which terms each holds; which were found through translations
        only."""
        places = np.full(self.n, -1, dtype=np.int64)
        places[docs] = np.arange(len(docs))

        def holding(found: np.ndarray) -> np.ndarray:
            mine = np.zeros(len(docs), dtype=bool)
            at = places[found]
            mine[at[at >= 0]] = True
            return mine

        held, exact, near, inside = [], [], [], []
        anything, direct = np.zeros(len(docs), dtype=bool), np.zeros(len(docs), dtype=bool)
        for slot, mine in zip(made, terms, strict=True):
            rows = np.array([holding(t.docs) for t in mine], dtype=bool).reshape(len(mine), len(docs))
            inside.append(rows)
            held.append(np.logical_or.reduce(rows) if len(mine) else np.zeros(len(docs), dtype=bool))
            exact_terms = {(f"body_{lang}", t) for lang, t in slot.exact}
            typed = [k for k, t in enumerate(mine) if (t.field, t.term) in exact_terms]
            exact.append(np.logical_or.reduce(rows[typed]) if typed else np.zeros(len(docs), dtype=bool))
            share = np.zeros(len(docs))
            for lang, term, part in slot.near:
                share += np.where(holding(self.export.postings(term).get(f"body_{lang}", (_NONE,))[0]), part, 0)
            near.append(share)
            anything |= held[-1]
            own = [k for k, t in enumerate(mine) if not t.via]
            if own:
                direct |= np.logical_or.reduce(rows[own])
        return _Scored(docs, held, exact, near, terms, inside, anything & ~direct, places)

    def _hits(self, scored: _Scored) -> Iterable[tuple]:
        """(document, coverage per slot, the word as typed per slot, found only through translations)."""
        covered = [
            np.where(h, 1.0, np.minimum(R.CONCEPT_CREDIT, n)).tolist()
            for h, n in zip(scored.held, scored.near, strict=True)
        ]
        exact = [e.tolist() for e in scored.exact]
        return zip(
            scored.docs.tolist(), zip(*covered, strict=True), zip(*exact, strict=True), scored.via.tolist(), strict=True
        )

    def _rank_data(self, d: int) -> tuple[str, list, list, list, list]:
        """(id, headwords, ancestors' headings, cited rules, names in languages its texts lack) of a document."""
        key, heads, sections, cites, named = self.export.file(f"rank-{d // self.export.c['RANK']}.json")[
            d % self.export.c["RANK"]
        ]
        return key, heads, sections, cites, named

    def _doc(self, d: int) -> list:
        """What a result shows of a document: id, page, titles, names, texts, editions, headings, own numbers, rule
        number, names of its concept in languages its texts lack, names of its heading there."""
        return self.export.file(f"docs-{d // self.export.c['DOCS']}.json")[d % self.export.c["DOCS"]]

    # --- the parts of a query ------------------------------------------------------------------------------

    def _allowed(self, langs: tuple[str, ...], kinds: tuple[str, ...], editions: tuple[str, ...]) -> np.ndarray:
        """Which documents the filters let through."""
        bits = sum(1 << k for k, x in enumerate(self.langs) if x in langs)
        table = np.zeros(len(KINDS), dtype=bool)
        table[[KINDS.index(k) for k in kinds]] = True
        wanted = table[self.kinds]
        allowed = wanted & ((self.langs_of & bits) != 0)
        if editions:
            of = self.export.file("editions.json")
            mine = np.zeros(self.n, dtype=bool)
            for e in editions:
                mine[np.asarray(of.get(e, []), dtype=np.int64)] = True
            allowed &= mine
        return allowed

    def _excluded(self, parsed: ParsedQuery, langs: tuple[str, ...]) -> np.ndarray | None:
        """The documents holding an excluded word or phrase (any of its forms), or a translation of an excluded word
        (`pioche -remplacement` leaves out the English rules on replacement too), or None."""
        found: set[int] = set()
        for item in parsed.excluded:
            words = [w for _, w in query_tokens(item.text)]
            if not (item.phrase and len(words) > 1):
                alone = replace(parsed, number=None, groups=((item,),), excluded=())
                for slot in slots(alone, self.tables, langs):
                    for a in slot.alts:
                        if a.via and not a.phrase:
                            found.update(self._docs(a.forms[0], f"body_{a.lang}"))
            for lang in langs:
                stops = self.tables.stops.get(lang, frozenset())
                forms = [[STOP + w] if w in stops else self.tables.forms(lang, w) for w in words]
                name = f"body_{lang}"
                if item.phrase and len(words) > 1:
                    if not all(forms):
                        continue
                    lists = [set(self._docs(f[0], name)) for f in forms if not f[0].startswith(STOP)]
                    first = lists[0] if lists else set()
                    asked = [f[0] for f in forms]
                    found.update(d for d in first if all(d in x for x in lists) and self._has_phrase(d, lang, asked))
                else:
                    for f in (f for fs in forms for f in fs):
                        found.update(self._docs(f, name))
        return np.asarray(sorted(found), dtype=np.int64) if found else None

    def _docs(self, term: str, name: str) -> list[int]:
        """The documents holding a term in a field."""
        return [int(d) for d in self.export.postings(term).get(name, (_NONE,))[0]]

    def _has_phrase(self, d: int, lang: str, forms: list[str] | tuple[str, ...]) -> bool:
        """Whether one of a document's texts holds index forms in a row (stop words included), as Whoosh's Phrase
        finds them (a phrase never runs from one text into the next)."""
        words, pattern = self._phrase(lang, tuple(forms))
        if pattern is None:
            return False
        row = self._doc(d)
        titles, texts, ctx = row[2], row[4], row[6]
        stops = self.tables.stops.get(lang, frozenset())

        def fits(j: int, token: tuple[str, str]) -> bool:
            kind, word = token
            return word in words[j] and forms[j].startswith(STOP) == is_stop(word, kind, stops)

        for text in (titles.get(lang, ""), texts.get(lang, ""), ctx.get(lang, "")):
            plain = folded(without_references(text))
            if not pattern.search(plain):  # the first cut: most candidates stop here
                continue
            seq = folded_tokens(plain)
            for i in range(len(seq) - len(forms) + 1):
                if seq[i][1] in words[0] and all(fits(j, seq[i + j]) for j in range(len(forms))):
                    return True
        return False

    def _phrase(self, lang: str, forms: tuple[str, ...]) -> tuple[list[set[str]], re.Pattern | None]:
        """The words each of a phrase's index forms is held as, and a pattern of them in a row that every text
        holding the phrase matches (consecutive tokens have no word character between them), None when a form is
        held by no word; worked out once per phrase."""
        found = self._phrases.get((lang, forms))
        if found is None:
            if len(self._phrases) >= 1024:  # a server asked many phrases: start again
                self._phrases.clear()
            words = [{f[1:]} if f.startswith(STOP) else set(self.tables.words_of(lang, f)) for f in forms]
            each = ("(?:" + "|".join(map(re.escape, sorted(w, key=lambda x: (-len(x), x)))) + ")" for w in words)
            found = self._phrases[(lang, forms)] = (words, re.compile(r"\W*".join(each)) if all(words) else None)
        return found

    def _numbers(self, parsed: ParsedQuery, langs: tuple[str, ...], allowed: np.ndarray, limit: int) -> list[int]:
        """The rule and everything under it, in rule order; and the rule a translation numbers so (French 120.4,
        today's 121.4): first when the number was typed in that language's words (`règle 120.4`) or only that
        language is searched, else second."""
        numbers, aside = self._numbered
        found = [(n, d) for n, d in _prefixed(numbers, parsed.number) if allowed[d] and descends(n, parsed.number)]
        found.sort(key=lambda x: (x[1] in aside, sort_key(x[0]), x[1]))
        docs = [d for _, d in found[:limit]]
        for lang, own in self.numbering.items():
            today = own.get(parsed.number)
            if not today or lang not in langs:
                continue
            there = [d for n, d in _prefixed(numbers, today) if n == today]
            there = [d for d in there if d not in aside and allowed[d] and d not in docs]
            at = 0 if parsed.number_lang == lang or langs == (lang,) else min(1, len(docs))
            docs[at:at] = there
        return docs[:limit]

    @cached_property
    def _numbered(self) -> tuple[list[tuple[str, int]], set[int]]:
        """The numbered documents as (number, document), in the numbers' order as strings (a number's descendants
        start with it: `_prefixed` finds them); the documents set aside (`numbers.json`'s `aside`)."""
        numbered = self.export.file("numbers.json")
        return sorted((n, int(d)) for d, n in numbered["numbers"].items()), set(numbered["aside"])

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

    # --- results ------------------------------------------------------------------------------------------

    def result_of(self, d: int) -> SearchResult:
        """A document as a result of no query (its texts' starts, no score)."""
        return self._result(d, 0.0, [], self.langs, None, [])

    def _result(self, d: int, score: float, translations: list, langs: tuple[str, ...], found, asked) -> SearchResult:
        """The result of a hit (`kb.search.results.make_result`)."""
        doc_langs = [x for k, x in enumerate(self.langs) if self.langs_of[d] & (1 << k)]
        return make_result(self._doc(d), KINDS[self.kinds[d]], doc_langs, score, translations, langs, found, asked)


def opened(folder: Path, others=None) -> Engine:
    """The engine over an index's folder (its export's `core.json` read at once: all a query reads before its words'
    files)."""
    export = Export(folder / EXPORT_FOLDER)
    return Engine(export, export.core["editions"], export.core["numbering"], others)


def _runs(values: list[list[int]]) -> list[int]:
    """A list from its runs (`[[value, how many], …]`)."""
    return [v for v, count in values for _ in range(count)]


def _name_terms(part: dict, prefix: str, exact: bool) -> list[str]:
    """The card-name words of a shard starting with a prefix (the first NAME_LIMIT in order), or the word itself."""
    if exact:
        return [prefix] if prefix in part else []
    return sorted(w for w in part if w.startswith(prefix))[:NAME_LIMIT]


def _forms(found: list[list[_Term]] | None, made: list[Slot], langs: list[str]) -> tuple[tuple, tuple]:
    """Per slot, the index forms a document matches of the words as typed (card-name words aside), and of their
    translations; a word matching only the name of the document's concept in a language it has no text in, and not
    the query's, names nothing (`main phase` does not name Hand, « Main »), nor does a translation into it."""
    found = found or []

    def typed(t: _Term, slot: Slot) -> bool:
        lang = t.field.removeprefix("body_")
        return not t.via and t.field != "name" and (lang in langs or slot.lang == lang)

    pairs = list(zip(found, made, strict=False))
    return (
        tuple(frozenset(w for t in f if typed(t, s) for w in t.words) for f, s in pairs),
        tuple(
            frozenset(w for t in f if t.via and t.field.removeprefix("body_") in langs for w in t.words)
            for f, _ in pairs
        ),
    )


def _idf(n: int, df: int) -> float:
    """Whoosh's idf."""
    return log(n / (df + 1)) + 1


def _narrow(from_query: tuple[str, ...], option: str | None, allowed: tuple[str, ...], name: str) -> tuple[str, ...]:
    """Values allowed by the query's filters and the option; a value the index lacks is a SearchError."""
    for value in (*from_query, *([option] if option else [])):
        if value not in allowed:
            raise SearchError(f"unknown {name} '{value}'; use one of {', '.join(allowed)}")
    chosen = set(from_query or allowed) & ({option} if option else set(allowed))
    return tuple(v for v in allowed if v in chosen)


_NONE = np.zeros(0, dtype=np.int64)
_NO_SCORES = np.zeros(0)


def _prefixed(pairs: list[tuple[str, int]], prefix: str) -> list[tuple[str, int]]:
    """The (number, document) pairs, sorted, whose number starts with `prefix`."""
    start = bisect_left(pairs, (prefix,))
    return pairs[start : bisect_left(pairs, (prefix + "\U0010ffff",), start)]
