"""kb's re-rank of Whoosh's hits: typed words, coverage, kind, headwords and citations on top of BM25F.

Pure Python (no whoosh); `templates/static/kbsearch.js` re-ranks the same way over the same numbers, so the site
and the CLI agree. Whoosh scores a query as the sum of its slots' BM25F scores (`kb.search.searcher.query_of`) and
gives its best TOP documents, and the NAMED best of those whose headwords hold a word of the query beyond them;
each is then:

1. raised by the words as typed it holds (EXACT_BONUS), then multiplied by its *coverage* to the power
   COVERAGE_POWER: the share of the query's slot weights (each slot's best idf) it matches, so a document holding
   more of the words ranks higher, while one holding the rare words strongly may still beat one holding every
   word weakly; and by its kind's factor (a ruling a little below the rule it applies);
2. for the best RERANK of those and the named documents, multiplied by up to 1 + HEAD_BONUS when the query names
   one of its headwords (a glossary term or alias, a rule's title, a card's or note's name, the symbol a rule
   defines), in proportion to the share of the headword's words named, or up to 1 + SECTION_BONUS for a heading
   of its ancestors; and by up to 1 + CITED_BONUS when the other hits cite it (weighted by their scores): the
   rule everyone points to. Citations never raise a document found only through translations.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

COVERAGE_POWER = 2.0
"""How much a missing query word costs: the score is multiplied by coverage ** COVERAGE_POWER."""
TOP = 150
"""Whoosh's best hits that are re-ranked."""
NAMED = 50
"""Documents whose headwords hold a query word (or its translation) re-ranked too, beyond Whoosh's best TOP (the
best by Whoosh's score first): a keyword's rule among thousands of cards printing it."""
EXACT_BONUS = 0.3
"""Added to the score, times the weight of each slot whose word as typed the document holds (`pioche`, not only
`piochez`, another form of its stem): independent of the text's length, as Whoosh would score that word's own
term in a text of average length."""
RERANK = 50
"""Best documents after coverage refined by headwords and citations."""
HEAD_BONUS = 3.0
"""Score factor up to 1 + this for a document with a headword (a glossary term or alias, a rule's title, a card's or
note's name, the symbol a rule defines) that the query names: times the share of the headword's words the query
holds (`pioche` names half of « Piocher une carte »); a card's name counts only whole (« Piétine et hurle » is not
about trample)."""
NAME_SHARE = 0.7
"""Of HEAD_BONUS, what an unofficial name of the document's concept in a language its texts lack (a terminology's)
gives when the query names it: a text of that language titled so ranks above (the French FAQ's note « Prévision »
above the English rule 702.57, Forecast, whose French name it is). 0.7, not 0.8: on the tuning half of the French terms
(`bench/bench_rerank.py`) hit@1 .827 → .840 and hit@3 .907 → .920, the natural questions unchanged; at 0.6
« pioche » finds Draw Step (« Étape de pioche ») before Drawing a Card (« Piocher une carte »)."""
SECTION_BONUS = 0.5
"""The same for a heading of the rule's ancestors (a rule under « Drawing a Card » is about drawing)."""
HEAD_SHARE = 0.7
"""Share of the query's weight a headword's words must carry for the headword bonus (`discarding cards` is
about Discard; `deathtouch trample` is about neither alone)."""
THROUGH = 1.0
"""What a headword named only through the query's translations counts, against one named by its words as typed:
as much (`piétinement` names the English rule Trample as `trample` does; a French word's own defining text, its
note « Prévision », still ranks first as its score is its own, not a translation's)."""
KIND_BOOSTS = {"rule": 1.0, "glossary": 0.95, "card": 0.85, "ruling": 0.7, "note": 1.0}
"""Score factor of each kind of result (a ruling a little below the rule it applies)."""
CONCEPT_CREDIT = 0.5
"""Most of a slot that the terms characterising its word cover (each its share, `kb.search.lookup.CONCEPT_FACTOR`):
702.2c, on combat damage assigned by a deathtouch source, matches part of `trample` in `deathtouch trample`."""
CITED_BONUS = 0.3
"""Score factor up to 1 + this for a rule cited by the other hits."""
QUESTION_SLOTS = 4
"""A query of this many slots or more is a question (`can I respond to a triggered ability`), not a keyword."""
QUESTION_KINDS = {"card": 0.5, "ruling": 0.6, "note": 0.6}
"""Score factor of these kinds of results for a question that names no card (no card's whole name among the best
hits' headwords): it asks what the rules say, and a card printing its words, or a set's ruling on one card, is
seldom the answer (a question naming the card keeps them as they are)."""


@dataclass(frozen=True, slots=True)
class Hit:
    """One of Whoosh's hits, as the re-rank sees it."""

    doc: int
    """Whoosh's document number."""
    score: float
    """Whoosh's BM25F score of the query."""
    covered: tuple[float, ...]
    """Per slot: how much of it the document matches (1: one of its words; up to CONCEPT_CREDIT: only some of the
    terms characterising its word)."""
    boost: float
    """The factor of the document's kind."""
    exact: tuple[bool, ...]
    """Per slot: whether the document holds its word as typed (not only another form of its stem)."""
    via: bool = False
    """Found only through translations of the query's words (never raised by citations)."""
    kind: str = "rule"
    """The document's kind (`rule`, `glossary`, `card`, `ruling`, `note`)."""

    @property
    def whole(self) -> bool:
        """Whether only a whole headword counts: a card's name (« Piétine et hurle » is not about trample)."""
        return self.kind == "card"


About = Callable[[int], tuple[str, list, list, list, tuple, tuple, list]]
"""A document's (id, headwords, its ancestors' headings (each as the first index form of each word), ids of the
rules it cites, per slot of the query the index forms it matches of the words as typed (translations aside) and of
their translations, and the names of its concept in languages its texts lack): read for the best RERANK hits
only."""


def rerank(
    hits: list[Hit], weights: list[float], names_only: bool, about: About, named: frozenset[int] = frozenset()
) -> list[tuple[Hit, float]]:
    """(hit, score) best first (ties in Whoosh's document order); `weights`: each slot's; `names_only`: a query
    of stop words, whose every word must match; `about`: what the best RERANK are (read for them only); `named`:
    documents whose headwords hold a word of the query, refined whatever their place (see NAMED)."""
    total = sum(weights) or 1.0
    base = []
    for h in hits:
        share = sum(w * c for w, c in zip(weights, h.covered, strict=True)) / total
        if names_only and share < 1.0:
            continue
        exact = sum(w for w, e in zip(weights, h.exact, strict=True) if e)
        base.append((h, (h.score + EXACT_BONUS * exact) * share**COVERAGE_POWER * h.boost))
    base.sort(key=lambda pair: (-pair[1], pair[0].doc))
    top, card_named = [], False
    for h, s in base[:RERANK] + [pair for pair in base[RERANK:] if pair[0].doc in named]:
        key, heads, sections, cites, typed, through, names = about(h.doc)
        words = frozenset().union(*typed, *through)  # a headword holding none of them is not named: not looked at
        own = head_factor(_naming(heads, words), typed, through, h.whole, weights, HEAD_BONUS)
        card_named = card_named or (h.whole and own > 1)
        factor = max(
            own,
            head_factor(_naming(names, words), typed, through, h.whole, weights, HEAD_BONUS * NAME_SHARE),
            head_factor(_naming(sections, words), typed, through, h.whole, weights, SECTION_BONUS),
        )
        top.append((h, s * factor, key, cites))
    if len(weights) >= QUESTION_SLOTS and not card_named:
        top = [(h, s * QUESTION_KINDS.get(h.kind, 1.0), key, cites) for h, s, key, cites in top]
    return sorted(cited(top), key=lambda pair: (-pair[1], pair[0].doc))


def _naming(heads: list, words: frozenset[str]) -> list:
    """The headwords holding one of the words a document matches (the others cannot be named)."""
    return [head for head in heads if not words.isdisjoint(head)] if words else []


def head_factor(heads: list, typed: tuple, through: tuple, whole: bool, weights: list[float], bonus: float) -> float:
    """1 + up to `bonus` when a headword of the document is what the query names (its words carrying HEAD_SHARE
    of the query's weight), in proportion to the share of the headword's words named; else 1. `typed`, `through`:
    per slot, the index forms of the words as typed and of the translations the document matches; `whole`: only a
    whole headword counts."""
    total = sum(weights) or 1.0
    best = 1.0
    for head in heads:
        terms = set(head)
        if not terms:
            continue
        as_typed = [(w, found & terms) for w, found in zip(weights, typed, strict=True) if found & terms]
        translated = [(w, found & terms) for w, found in zip(weights, through, strict=True) if found & terms]
        for named, factor in ((as_typed, 1.0), (as_typed + translated, THROUGH)):
            words = set().union(*(f for _, f in named)) if named else set()
            share = len(words) / len(terms)
            if named and sum(w for w, _ in named) >= HEAD_SHARE * total and (share == 1 or not whole):
                best = max(best, 1 + bonus * factor * share)
    return best


def cited(scored: list[tuple[Hit, float, str, list]]) -> list[tuple[Hit, float]]:
    """Raise the documents that the other hits cite, in proportion to the citing hits' scores."""
    top = max((s for _, s, _, _ in scored), default=0.0)
    if top <= 0:
        return [(h, s) for h, s, _, _ in scored]
    citing: dict[str, float] = {}
    for _, s, _, cites in scored:
        for c in cites:
            citing[c] = citing.get(c, 0.0) + s / top
    return [(h, s if h.via else s * (1 + CITED_BONUS * min(1.0, citing.get(key, 0.0)))) for h, s, key, _ in scored]
