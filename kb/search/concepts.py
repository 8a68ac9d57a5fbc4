"""What a one-word headword is about: its characteristic terms, which a query pairing it with other words also asks.

Index time. A current rule or glossary entry whose title is one word (`Trample`, `Deathtouch`), a word that is
not common in the rules, has, in each language, up to TERMS characteristic terms: the first index forms of the
words of its text and of its rule's subtree (702.19a-702.19g), weighted tf x idf, leaving out stop words,
numbers, the words of cross-references (`See rule`), and words in fewer than 2 of the rules and glossary entries
or in more than COMMON of them (the cards loaded beside them change nothing); each with its weight against the
best one's (1.0). They are stored with the index's tables (the export's `core.json`, the site's too);
`kb.search.lookup.add_concepts` adds them to the slot of such a word, where a document holding none of the slot's
own words but some of them covers part of the slot (`kb.search.rank.CONCEPT_CREDIT`): for `deathtouch trample`,
702.2c ("any nonzero amount of combat damage assigned … by a source with deathtouch…") names deathtouch, and
assigned combat damage is what trample is about.
"""

from __future__ import annotations

from math import log

from kb.model.numbers import parent_of
from kb.search.analysis import lang_text
from kb.search.text import KIND, PLAIN, STOP, TEXT, tokens, without_references

TERMS = 4
"""Characteristic terms kept per headword."""
COMMON = 0.05
"""A term in more than this share of the rules and glossary entries characterises nothing, and a headword found
that often names no one topic (`card`, `player`, `damage`: the rules use them everywhere)."""


def concepts(entries: list, langs: tuple[str, ...]) -> dict[str, dict[str, list[list]]]:
    """Per language, each one-word headword's first index form -> [[term, weight], …], best first (a language
    with none left out). Counted over the current rules and glossary entries alone, whatever cards are loaded."""
    current = [e for e in entries if e.current and e.kind in ("rule", "glossary")]
    under: dict[str, list] = {}
    for e in current:
        up = parent_of(e.number) if e.kind == "rule" and e.number else None
        while up:
            under.setdefault(up, []).append(e)
            up = parent_of(up)
    found = {lang: _language([e for e in current if lang in e.texts], under, lang) for lang in langs}
    return {lang: table for lang, table in found.items() if table}


def _language(docs: list, under: dict[str, list], lang: str) -> dict[str, list[list]]:
    """The characteristic terms of a language's one-word headwords (`docs`: the rules and glossary entries of the
    language)."""
    lt = lang_text(lang)
    counts = {id(d): _counts(d.texts[lang], lt) for d in docs}
    df: dict[str, int] = {}
    for d in docs:
        for term in {*counts[id(d)], *_counts(d.titles.get(lang, ""), lt)}:
            df[term] = df.get(term, 0) + 1
    n = len(docs)
    idf = {t: log(n / (k + 1)) + 1 for t, k in df.items() if 2 <= k <= COMMON * n}
    owners: dict[str, list] = {}
    for e in docs:
        for head in e.heads.get(lang, ()):
            words = tokens(head)
            if len(words) == 1 and words[0][KIND] == "word" and not lt.is_stop(words[0][TEXT]):
                owners.setdefault(lt.forms(words[0])[0], []).append(e)
    table = {}
    for head, holders in sorted(owners.items()):
        if df.get(head, 0) > COMMON * n:  # `card`, `player`, `damage`: a word of every topic
            continue
        total: dict[str, float] = {}
        for doc in {id(d): d for e in holders for d in [e, *under.get(e.number or "", [])]}.values():
            for term, tf in counts.get(id(doc), {}).items():
                if term != head and term in idf:
                    total[term] = total.get(term, 0.0) + tf * idf[term]
        best = sorted(total.items(), key=lambda pair: (-pair[1], pair[0]))[:TERMS]
        if best:
            table[head] = [[term, round(w / best[0][1], 4)] for term, w in best]
    return table


def _counts(text: str, lt) -> dict[str, int]:
    """How often a text holds the first index form of each of its words (stop words, numbers and the words of
    cross-references aside)."""
    found: dict[str, int] = {}
    for written in PLAIN.findall(without_references(text)):
        if written.isalpha() and (term := lt.terms(written)[0])[0] != STOP:
            found[term] = found.get(term, 0) + 1
    return found
