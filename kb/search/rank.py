"""kb's re-rank of Whoosh's hits: coverage, kind, headwords and citations on top of BM25F.

Pure Python (no whoosh); `templates/static/kbsearch.js` re-ranks the same way over the same numbers, so the site
and the CLI agree. Whoosh scores a query as the sum of its slots' BM25F scores (`kb.search.index.slot_query`) and
gives its best TOP documents; each is then:

1. multiplied by its *coverage* to the power COVERAGE_POWER: the share of the query's slot weights (each slot's
   best idf) it matches, so a document holding more of the words ranks higher, while one holding the rare words
   strongly may still beat one holding every word weakly; and by its kind's factor (a ruling a little below the
   rule it applies);
2. for the best RERANK of those, multiplied by 1 + HEAD_BONUS when one of its headwords (a glossary term or alias,
   a rule's title, a card's or note's name, the symbol a rule defines) is what the query asks, and by up to
   1 + CITED_BONUS when the other hits cite it (weighted by their scores): the rule everyone points to. Neither
   raises a document found only through translations: a word's own texts rank above what it translates to.
"""

from __future__ import annotations

from dataclasses import dataclass

COVERAGE_POWER = 2.0
"""How much a missing query word costs: the score is multiplied by coverage ** COVERAGE_POWER."""
TOP = 150
"""Whoosh's best hits that are re-ranked."""
RERANK = 50
"""Best documents after coverage refined by headwords and citations."""
HEAD_BONUS = 1.0
"""Score factor 1 + this for a document with a headword that is the query's words (as typed: a headword that is
their translation does not count, so a French word's own texts outrank the English rule it names)."""
HEAD_SHARE = 0.7
"""Share of the query's weight a headword's words must carry for the headword bonus (`discarding cards` is
about Discard; `deathtouch trample` is about neither alone)."""
CITED_BONUS = 0.3
"""Score factor up to 1 + this for a rule cited by the other hits."""


@dataclass(frozen=True, slots=True)
class Hit:
    """One of Whoosh's hits, as the re-rank sees it."""

    doc: int
    """Whoosh's document number."""
    score: float
    """Whoosh's BM25F score of the query."""
    covered: tuple[bool, ...]
    """Per slot: whether the document matches it."""
    typed: tuple[frozenset[str], ...]
    """Per slot: the index forms of the words as typed the document matches (translations aside)."""
    boost: float
    """The factor of the document's kind."""
    heads: tuple[tuple[str, ...], ...]
    """The document's headwords, as the first index form of each word (all languages)."""
    key: str
    """The document's id."""
    cites: tuple[str, ...]
    """Ids of the rules the document cites."""
    via: bool = False
    """Found only through translations of the query's words (never raised by citations)."""


def rerank(hits: list[Hit], weights: list[float], names_only: bool = False) -> list[tuple[Hit, float]]:
    """(hit, score) best first (ties in Whoosh's document order); `weights`: each slot's; `names_only`: a query
    of stop words, whose every word must match."""
    total = sum(weights) or 1.0
    base = []
    for h in hits:
        share = sum(w for w, c in zip(weights, h.covered, strict=True) if c) / total
        if names_only and share < 1.0:
            continue
        base.append((h, h.score * share**COVERAGE_POWER * h.boost))
    base.sort(key=lambda pair: (-pair[1], pair[0].doc))
    top = [(h, s * head_factor(h, weights)) for h, s in base[:RERANK]]
    return sorted(cited(top), key=lambda pair: (-pair[1], pair[0].doc))


def head_factor(h: Hit, weights: list[float]) -> float:
    """1 + HEAD_BONUS when a headword of the document is what the query asks, else 1."""
    total = sum(weights) or 1.0
    for head in h.heads:
        terms = set(head)
        by_head = [w for w, typed in zip(weights, h.typed, strict=True) if typed & terms]
        if terms and len(by_head) >= len(terms) and sum(by_head) >= HEAD_SHARE * total:
            return 1 + HEAD_BONUS
    return 1.0


def cited(scored: list[tuple[Hit, float]]) -> list[tuple[Hit, float]]:
    """Raise the documents that the other hits cite, in proportion to the citing hits' scores."""
    top = max((s for _, s in scored), default=0.0)
    if top <= 0:
        return scored
    citing: dict[str, float] = {}
    for h, s in scored:
        for c in h.cites:
            citing[c] = citing.get(c, 0.0) + s / top
    return [(h, s if h.via else s * (1 + CITED_BONUS * min(1.0, citing.get(h.key, 0.0)))) for h, s in scored]
