"""What a one-word headword is about: its characteristic terms, which a query pairing it with other words also asks.

Index time. A current rule or glossary entry whose title is one word (`Trample`, `Deathtouch`), a word that is
not common in the index, has, in each language, up to TERMS characteristic terms: the first index forms of the
words of its text and of its rule's subtree (702.19a-702.19g), weighted tf x idf, leaving out stop words,
numbers, the words of cross-references (`See rule`), and words in fewer than 2 documents or in more than COMMON
of them; each with its weight against the best one's (1.0). They are stored with the index's tables
(`tables.json`, the site's `core.json`); `kb.search.lookup.add_concepts` adds them to the slot of such a word,
where a document holding none of the slot's own words but some of them covers part of the slot
(`kb.search.rank.CONCEPT_CREDIT`): for `deathtouch trample`, 702.2c ("any nonzero amount of combat damage
assigned … by a source with deathtouch…") names deathtouch, and assigned combat damage is what trample is about.
"""

from __future__ import annotations

from math import log

from kb.model.numbers import parent_of
from kb.search.analysis import REFERENCE, lang_text
from kb.search.text import KIND, TEXT, tokens

TERMS = 4
"""Characteristic terms kept per headword."""
COMMON = 0.05
"""A term in more than this share of the index's documents characterises nothing, and a headword found that often
names no one topic (`card`, `player`, `damage`: the rules use them everywhere)."""


def concepts(entries: list, reader, langs: tuple[str, ...]) -> dict[str, dict[str, list[list]]]:
    """Per language, each one-word headword's first index form -> [[term, weight], …], best first (a language
    with none left out)."""
    current = [e for e in entries if e.current and e.kind in ("rule", "glossary")]
    under: dict[str, list] = {}
    for e in current:
        up = parent_of(e.number) if e.kind == "rule" and e.number else None
        while up:
            under.setdefault(up, []).append(e)
            up = parent_of(up)
    found = {lang: _language(current, under, reader, lang) for lang in langs}
    return {lang: table for lang, table in found.items() if table}


def _language(current: list, under: dict[str, list], reader, lang: str) -> dict[str, list[list]]:
    """The characteristic terms of a language's one-word headwords."""
    lt, field, n = lang_text(lang), f"body_{lang}", reader.doc_count_all()
    idf: dict[str, float] = {}

    def weight(term: str) -> float:
        """Whoosh's idf of a term, 0 for one too rare or too common to characterise anything."""
        if term not in idf:
            df = reader.doc_frequency(field, term)
            idf[term] = log(n / (df + 1)) + 1 if 2 <= df <= COMMON * n else 0.0
        return idf[term]

    owners: dict[str, list] = {}
    for e in current:
        for head in e.heads.get(lang, ()):
            words = tokens(head)
            if len(words) == 1 and words[0][KIND] == "word" and not lt.is_stop(words[0][TEXT]):
                owners.setdefault(lt.forms(words[0])[0], []).append(e)
    table = {}
    for head, holders in sorted(owners.items()):
        if reader.doc_frequency(field, head) > COMMON * n:  # `card`, `player`, `damage`: a word of every topic
            continue
        docs = {id(d): d for e in holders for d in [e, *(under.get(e.number, []) if e.kind == "rule" else [])]}
        total: dict[str, float] = {}
        for doc in docs.values():
            for t in tokens(REFERENCE.sub(" ", doc.texts.get(lang, ""))):
                if t[KIND] == "word" and t[TEXT].isalpha() and not lt.is_stop(t[TEXT]):
                    term = lt.forms(t)[0]
                    if term != head and weight(term):
                        total[term] = total.get(term, 0.0) + weight(term)
        best = sorted(total.items(), key=lambda pair: (-pair[1], pair[0]))[:TERMS]
        if best:
            table[head] = [[term, round(w / best[0][1], 4)] for term, w in best]
    return table
