"""`kb show TERM`: a term of the rules, typed in English or French, as its glossary entry, its names in the other
languages (a terminology's, marked unofficial) and the rule that defines it.

A term is today's English glossary term or one of its aliases (`Stack`, `Control`), or a name a terminology gives
a concept of today's rules (« Pile », « Piétinement », « mal d'invocation »): case, accents and apostrophes are
folded, and a leading article too when the words without it name a term (« la pile », « le mal d'invocation »,
`the stack`): a French article reads the words as French first (« la pile » is Stack, not the glossary's Pile). The
defining rule is the first rule the glossary entry cites (`See rule 405, "Stack."`), or the rule a terminology names.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from kb.export.terminal import printable
from kb.link.lexicon.terminology import OBSOLETE
from kb.model.base import KnowledgeBase
from kb.model.records import GlossaryEntry
from kb.model.terms import ConceptName
from kb.sources.text import fold, wrap

UNOFFICIAL = {
    "curated": "kb's terminology, the usual term of the game, not an official translation",
    "attested": "printed by {where}; kb's terminology, not an official translation",
}
"""How a name of a terminology is said to be unofficial, by its provenance."""
_SOURCES = {
    "cards": "printed cards",
    "rulings": "the FAQ's rulings",
    "rules": "the French rules",
    "file": "the text cited",
}


@dataclass(frozen=True, slots=True)
class TermFound:
    """A term of today's rules: its glossary entry, its names in other languages, the rule defining it."""

    typed: str
    entry: GlossaryEntry | None
    """Today's glossary entry of the term, or None (a rule's or a section's name)."""
    number: str | None
    """The rule defining it (today's number), or None."""
    names: tuple[ConceptName, ...]
    """Its names in languages the rules are not loaded in (a terminology's), the glossary term's then the rule's."""
    others: tuple[ConceptName, ...] = ()
    """Other concepts a terminology names as typed (`pile`: the glossary's Pile, and the French name of Stack)."""


ARTICLES = {
    "fr": re.compile(r"(?:(?:le|la|les|un|une|des|du|de la) |l'|de l')(?=\w)"),
    "en": re.compile(r"(?:the|an?) (?=\w)"),
}
"""A leading article of each language, as folded (`l'etape de fin`, `the stack`): left out when the words without
it name a term."""


def find_term(kb: KnowledgeBase, text: str) -> TermFound | None:
    """The term a text names in the current edition of the reference language: a glossary term or alias, else a
    terminology's name of a glossary term, a rule or a section; the same without a leading article (`ARTICLES`);
    None when it names none."""
    edition = kb.primary.get(kb.reference or "")
    if edition is None:
        return None
    glossary = {key: entry for key, (entry, _) in _glossary(kb, edition).items()}
    for lang, words in _readings(text):
        found = _named(kb, edition, glossary, text, words, lang)
        if found is not None:
            return found
    return None


def _glossary(kb: KnowledgeBase, edition) -> dict[str, tuple[GlossaryEntry, str]]:
    """Today's glossary terms and aliases, folded -> (the entry, the name as printed, its `(Obsolete)` aside)."""
    documents = set(edition.documents)
    found: dict[str, tuple[GlossaryEntry, str]] = {}
    for entry in (g for g in kb.glossary if g.document in documents):
        for name in (entry.term, *entry.aliases):
            shown = OBSOLETE.sub("", name).rstrip()
            found.setdefault(fold(shown), (entry, shown))
    return found


def _readings(text: str) -> list[tuple[str | None, str]]:
    """(language an article said, folded words) of a text: as typed, then without a leading article of each language
    (`ARTICLES`); none for a blank text."""
    typed = " ".join(fold(text).split())
    if not typed:
        return []
    cut = ((lang, article.match(typed)) for lang, article in ARTICLES.items())
    return [(None, typed), *((lang, typed[m.end() :]) for lang, m in cut if m and typed[m.end() :])]


def _named(kb: KnowledgeBase, edition, glossary: dict, text: str, typed: str, lang: str | None) -> TermFound | None:
    """The term the folded words `typed` name, or None; `lang`: the language an article said they are in (its names
    first: « la pile » is the French name of Stack before the English glossary's Pile)."""
    entry = glossary.get(typed)
    number = None
    named = sorted((key for key, n in kb.names.items() if typed in {fold(x) for x in n.names}), key=_glossary_first)
    if lang is not None and (entry is None or entry.lang != lang):
        mine = [key for key in named if kb.names[key].lang == lang]
        if mine:  # the article's language names a concept so: that one, the glossary's own spelling aside
            entry, named = None, mine + [key for key in named if key not in mine]
    if entry is None:
        if not named:
            return None
        _, concept, value = named[0].split(":", 2)
        if concept == "glossary":
            entry = glossary.get(value)
        else:
            number = value
    if entry is not None:
        number = next((n for n in entry.references if n in edition.rules), None)
    names = []
    for lang in sorted({n.lang for n in kb.names.values()}):
        for key in (
            f"{lang}:glossary:{fold(entry.term)}" if entry else "",
            f"{lang}:rule:{number}" if number else "",
            f"{lang}:section:{number}" if number else "",
        ):
            found = kb.names.get(key)
            if found is not None and found not in names:
                names.append(found)
    others = {kb.names[k].english: kb.names[k] for k in named if kb.names[k] not in names}
    return TermFound(text, entry, number, tuple(names), tuple(others.values()))


SUGGESTED = 5
"""Most terms suggested for a text that names none."""
CLOSE = 85
"""Least similarity (rapidfuzz's `ratio`, 0-100, of the folded texts) of a suggested term: a plural, a slip of one
or two letters, a missing apostrophe (« priorités », « mal d invocation »), not another word."""


def suggest_terms(kb: KnowledgeBase, text: str) -> list[tuple[str, bool]]:
    """The terms of today's rules spelt closest to a text that names none, best first, each as `kb show` opens it,
    and whether it is kb's (unofficial) French: a glossary term or alias, or a terminology's name with the English
    term it names (`("Priorité* (Priority)", True)`)."""
    from rapidfuzz import fuzz, process

    edition = kb.primary.get(kb.reference or "")
    if edition is None:
        return []
    shown: dict[str, list[tuple[str, bool]]] = {}  # a folded name -> each term so named (« pile »: Pile, Stack's)
    for key, (_, name) in _glossary(kb, edition).items():
        shown[key] = [(name, False)]
    for concept in kb.names.values():
        for name in concept.names:
            shown.setdefault(fold(name), []).append((f"{name}* ({concept.english})", True))  # kb's terminology
    best: dict[str, float] = {}
    keys = list(shown)
    for _, words in _readings(text):
        for key, score, _ in process.extract(words, keys, scorer=fuzz.ratio, limit=SUGGESTED, score_cutoff=CLOSE):
            best[key] = max(best.get(key, 0.0), score)
    ranked = sorted(best, key=lambda key: (-best[key], key))
    return list(dict.fromkeys(x for key in ranked for x in shown[key]))[:SUGGESTED]


def _glossary_first(key: str) -> tuple[int, str]:
    """A glossary term's name before a rule's, then a section's (`Pile` is the glossary's Stack, and rule 405)."""
    concept = key.split(":", 2)[1]
    return ({"glossary": 0, "rule": 1, "section": 2}.get(concept, 3), key)


def term_lines(found: TermFound, width: int) -> list[str]:
    """The term as lines: its heading, names (marked unofficial), where it is printed, its definition."""
    entry = found.entry
    heading = entry.term if entry else (found.names[0].english if found.names else found.typed)
    shown = " · ".join([heading, *(f"{n.lang.upper()} {' / '.join(n.names)}*" for n in found.names[:1])])
    out = [printable(shown, newlines=False)]
    if entry is not None:
        out.append(printable(f"glossary [{entry.lang}] {entry.source.path}:{entry.source.line}", newlines=False))
        for para in entry.definition.split("\n"):
            out += wrap(printable(para), width) or [""]
    lines: dict[tuple[str, tuple[str, ...]], list[ConceptName]] = {}
    for name in found.names:  # a glossary term and its rule named alike: one line
        lines.setdefault((name.lang, name.names), []).append(name)
    for (lang, names), alike in lines.items():
        where = ", ".join(sorted({_SOURCES.get(e.source, e.source) for n in alike for e in n.evidence}))
        said = UNOFFICIAL["attested" if where else "curated"].format(where=where)
        cited = ", ".join(f"{n.source.path}:{n.source.line}" for n in alike)
        out += wrap(
            printable(f"* {lang.upper()} {' / '.join(names)}: {said} ({cited})", newlines=False),
            width,
            subsequent_indent="  ",
        )
    for other in found.others:
        also = f"Also: {other.lang.upper()} « {found.typed} » names {other.english} (kb show '{other.english}')"
        out += wrap(printable(also, newlines=False), width, subsequent_indent="  ")
    if found.number is None:
        out.append("(no rule defines it)")
    return out


def term_json(kb: KnowledgeBase, found: TermFound) -> dict[str, Any]:
    """`kb show TERM --json`'s `term` and `names` (docs/json.md)."""
    from kb.export.json import glossary_json, source_json

    return {
        "query": found.typed,
        "term": glossary_json(kb, found.entry) if found.entry else None,
        "names": [
            {
                "lang": n.lang,
                "english": n.english,
                "names": list(n.names),
                "provenance": n.provenance,
                "official": False,
                "source": source_json(n.source),
            }
            for n in found.names
        ],
        "number": found.number,
        "also": [{"lang": n.lang, "english": n.english, "names": list(n.names)} for n in found.others],
    }
