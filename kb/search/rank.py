"""Ranking: BM25F over the query's slots, coverage, proximity, headwords and citations; one score order.

Pure Python (no whoosh); `templates/static/kbsearch.js` ranks the same way, step by step, so the site and
the CLI agree. A document's score in a language is the sum of its matched slots' BM25F scores times its
coverage (the share of the query's slot weights it matches) to the power COVERAGE_POWER: more matched words
rank higher, yet a document matching the rare words strongly may beat one matching every word weakly. The
best language counts. The first RERANK documents are then refined: query words side by side, a headword
(glossary term, rule title, card or note name) that is exactly the query, rules cited by the other hits.
"""

from __future__ import annotations

import heapq
from bisect import bisect_left

from kb.search.lookup import TRANSLATED, Slot

COVERAGE_POWER = 2.0
"""How much a missing query word costs: the score is multiplied by coverage ** COVERAGE_POWER."""
CONCEPT_CREDIT = 0.5
"""Alternatives weighing less than this are a headword's characteristic words: they cover the slot partly."""
INEXACT = 0.6
"""Weight of a document holding a query word only in another form of its stem (`command` for `commander`)."""
NAME_IMPACT = 1.5
"""BM25F weight of a card whose name starts with a query word (a title word weighs about 1.5 too)."""
RERANK = 50
"""Best documents refined by proximity, headwords and citations."""
WINDOW = 8
"""Two query words further apart than this many words (stop words included) are not close."""
PROXIMITY_BONUS = 1.0
"""Score factor up to 1 + this for consecutive query words next to each other, in order."""
HEAD_BONUS = 1.0
"""Score factor 1 + this for a document with a headword that is exactly the query's words (as typed: a headword
that is their translation does not count, so a French word's own texts outrank the English rule it names)."""
HEAD_SHARE = 0.7
"""Share of the query's weight a headword's words must carry for the headword bonus (`discarding cards`
is about Discard; `deathtouch trample` is about neither alone)."""
CITED_BONUS = 0.3
"""Score factor up to 1 + this for a rule cited by the other hits (weighted by their scores)."""


def allowed_hits(slot: Slot, lang: str, reader, allowed) -> dict[int, tuple[float, int, int, float, bool]]:
    """Document -> (score, term, index in the term's postings, coverage credit, through a translation) of a slot
    in a language.

    The best alternative counts (credit 1); a document holding none but some of a headword's characteristic
    words gets their summed scores, and a credit of their summed factors (at most CONCEPT_CREDIT). A slot's
    translations (`Slot.via`: a word in any of its forms, or a phrase) count like its words, times TRANSLATED.
    """
    found: dict[int, tuple[float, int, int, float, bool]] = {}
    near: dict[int, list] = {}
    words = [(t, f, bit, False) for t, f, bit in slot.words.get(lang, ())]
    words += [(terms[0], f, -1, True) for terms, f in slot.via.get(lang, ()) if len(terms) == 1]
    for term, factor, bit, through in words:
        p = reader.term(lang, term)
        weight = p.idf * factor
        if through:
            weight *= TRANSLATED
        masks = p.masks
        concept = factor < CONCEPT_CREDIT
        plain = _title_stems(p, bit) if bit >= 0 else {}
        for i, d in enumerate(p.docs):
            if allowed[d]:
                v = weight * plain.get(i, p.impacts[i])
                if concept:
                    acc = near.get(d)
                    if acc is None:
                        near[d] = [v, factor, through]
                    else:
                        acc[0] += v
                        acc[1] += factor
                        acc[2] = acc[2] and through
                    continue
                if bit >= 0 and not masks[i] >> bit & 1:
                    v *= INEXACT
                old = found.get(d)
                if old is None or v > old[0]:
                    found[d] = (v, term, i, 1.0, through)
    for terms in slot.phrases.get(lang, ()):
        for d, v, i in phrase_docs(terms, lang, reader, allowed):
            old = found.get(d)
            if old is None or v > old[0]:
                found[d] = (v, terms[0], i, 1.0, False)
    for terms, factor in slot.via.get(lang, ()):
        if len(terms) > 1:
            for d, v, i in phrase_docs(terms, lang, reader, allowed):
                v = v * factor * TRANSLATED
                old = found.get(d)
                if old is None or v > old[0]:
                    found[d] = (v, terms[0], i, 1.0, True)
    for d, factor in slot.names.get(lang, ()):
        if allowed[d]:
            v = slot.name_idf * NAME_IMPACT * factor
            old = found.get(d)
            if old is None or v > old[0]:
                found[d] = (v, -1, -1, 1.0, False)
    for d, (v, credit, through) in near.items():
        if d not in found:
            found[d] = (v, -1, -1, min(credit, CONCEPT_CREDIT), through)
    return found


def _title_stems(p, bit: int) -> dict[int, float]:
    """Posting index -> impact with the title weighing as text, where the title lacks the word as written."""
    t = p.titles
    return {t[k]: t[k + 1] for k in range(0, len(t), 3) if not t[k + 2] >> bit & 1}


def phrase_docs(terms: list[int], lang: str, reader, allowed) -> list[tuple[int, float, int]]:
    """(document, score, index in the first term's postings) of the documents holding the terms in order."""
    lists = [reader.term(lang, t) for t in terms]
    first = lists[0]
    found = []
    for i, d in enumerate(first.docs):
        if not allowed[d]:
            continue
        where = [_index(p, d) for p in lists]
        if -1 in where:
            continue
        starts = set(first.positions[i])
        for k in range(1, len(lists)):
            starts &= {x - k for x in lists[k].positions[where[k]]}
        if starts:
            found.append((d, sum(p.idf * p.impacts[j] for p, j in zip(lists, where, strict=True)), i))
    return found


def _index(p, d: int) -> int:
    """Index of document `d` in postings `p`, or -1."""
    i = bisect_left(p.docs, d)
    return i if i < len(p.docs) and p.docs[i] == d else -1


def score(slots: list[Slot], langs: tuple[str, ...], reader, allowed) -> list[tuple[int, float, tuple]]:
    """(document, score, translated) of the best RERANK-refined documents, best first (ties in index order).

    `translated` is empty for a document matching some word of the query as typed, else it gives the language
    and the slots it matches through a translation only: (lang, slot index, slot index…).
    """
    total = sum(s.weight for s in slots)
    base: dict[int, float] = {}
    best_lang: dict[int, str] = {}
    hits: dict[str, list[dict]] = {}
    for lang in langs:
        per_slot = hits[lang] = [allowed_hits(s, lang, reader, allowed) for s in slots]
        sums: dict[int, float] = {}
        weights: dict[int, float] = {}
        for slot, found in zip(slots, per_slot, strict=True):
            for d, h in found.items():
                sums[d] = sums.get(d, 0.0) + h[0]
                weights[d] = weights.get(d, 0.0) + slot.weight * h[3]
        every = all(slot.stop for slot in slots)  # stop words only: card names holding all of them
        for d, s in sums.items():
            if every and weights[d] < total:
                continue
            value = s * (weights[d] / total) ** COVERAGE_POWER * reader.boosts[d]
            if value > base.get(d, 0.0):
                base[d], best_lang[d] = value, lang
    top = heapq.nsmallest(RERANK, base, key=lambda d: (-base[d], d))
    refined = {d: base[d] * _features(d, slots, hits[best_lang[d]], best_lang[d], reader) for d in top}
    refined = _cited(refined, reader)
    ranked = sorted(refined.items(), key=lambda pair: (-pair[1], pair[0]))
    return [(d, s, _through(d, hits, best_lang[d])) for d, s in ranked]


def _through(d: int, hits: dict[str, list[dict]], lang: str) -> tuple:
    """(lang, slot indices) of a document matched only through translations, else ()."""
    if any(h[4] is False for per_slot in hits.values() for found in per_slot if (h := found.get(d))):
        return ()
    return (lang, *(k for k, found in enumerate(hits[lang]) if (h := found.get(d)) and h[4]))


def _features(d: int, slots: list[Slot], per_slot: list[dict], lang: str, reader) -> float:
    """Score factor of a document: its query words side by side, a headword that is the query."""
    positions = []
    for found in per_slot:
        h = found.get(d)
        if h is not None and h[1] >= 0:
            positions.append(reader.term(lang, h[1]).positions[h[2]])
    factor = 1 + PROXIMITY_BONUS * proximity(positions)
    total = sum(s.weight for s in slots)
    for head in reader.info(d)[1].get(lang, ()):
        terms = set(head)
        by_head = [
            s.weight
            for s, found in zip(slots, per_slot, strict=True)
            if (h := found.get(d)) and h[1] in terms and not h[4]
        ]
        if len(by_head) >= len(terms) and sum(by_head) >= HEAD_SHARE * total:
            return factor * (1 + HEAD_BONUS)
    return factor


def proximity(found: list[list[int]]) -> float:
    """Mean over consecutive found words of 1/distance in order, 0.5/distance reversed, 0 beyond WINDOW."""
    if len(found) < 2:
        return 0.0
    total = 0.0
    for first, second in zip(found, found[1:], strict=False):
        best, j = 0.0, 0
        for p in first:
            while j < len(second) and second[j] <= p:
                j += 1
            if j < len(second) and second[j] - p <= WINDOW:
                best = max(best, 1 / (second[j] - p))
            if j > 0 and second[j - 1] < p and p - second[j - 1] <= WINDOW:
                best = max(best, 0.5 / (p - second[j - 1]))
        total += best
    return total / (len(found) - 1)


def _cited(scored: dict[int, float], reader) -> dict[int, float]:
    """Raise the rules that the other hits cite, in proportion to the citing hits' scores."""
    top = max(scored.values(), default=0.0)
    if top <= 0:
        return scored
    citing: dict[int, float] = {}
    for d, s in scored.items():
        for c in reader.info(d)[2]:
            citing[c] = citing.get(c, 0.0) + s / top
    return {d: s * (1 + CITED_BONUS * min(1.0, citing.get(d, 0.0))) for d, s in scored.items()}
