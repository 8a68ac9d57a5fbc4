"""A terminology's lines placed on today's rules: each concept (a section, a rule by its title, a glossary term) of
the current English edition gets its names in the terminology's language, checked against what the content's
texts print.

A line names its concept by number and English heading; a number today's edition gives another heading is looked
for by that heading (a renumbered rule), and a heading found nowhere is reported, never guessed. The names are then
held against the evidence: the parallel texts (`Evidence`: printed cards, an FAQ's rulings beside the rulings they
translate, a translated extract beside its original) and the line's own citation of a French text. A name the
evidence prints is `attested`; where a sure translation of the printed cards (a keyword's, a type's) disagrees with
a curated name, the cards' wins and kb says so. A line's own word `attested` is a claim kb checks (its citation),
never taken on trust: a name's provenance is what the evidence shows.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace

from kb.link.lexicon.records import Lexicon, LexiconEntry, stem_fr
from kb.model import Diagnostic, GlossaryEntry
from kb.model.links import Edition
from kb.model.terms import ConceptName, Evidence, Term
from kb.parse.terms import concept_key
from kb.sources import fold

HEADWORD_CATEGORIES = ("keyword", "type", "supertype", "subtype")
"""Lexicon categories whose translation is a concept's name (a rules word's is a phrase of running text:
« inflige des blessures »), and so may stand against a curated name."""
SURE_CARDS = 5
"""Cards a printed translation needs to win over a curated name."""
PREFIX = 4
"""Letters of a name's word a cited text's word must start with (an inflection of it: « perd », « perdre »)."""
MISSING_SHOWN = 5
"""Lines naming a concept the English rules lack listed by name; the rest are counted."""
CITED = re.compile(r"(?:^|\s)(?:\S*/)?(\w\w/[^\s:]+\.txt):(\d+)")
"""A line's citation of a content file: `content/fr/cr-120-piocher-une-carte.txt:27`."""

OBSOLETE = re.compile(r"\(obsolete\)\s*$", re.IGNORECASE)
"""What the glossary prints after a retired term: its entry is the term's (and marked obsolete)."""

Texts = Callable[[str], Iterable[str]]
"""The texts of the content file a citation names (`fr/cr-120-piocher-une-carte.txt`), as read."""


@dataclass(frozen=True, slots=True)
class Concepts:
    """Today's concepts a terminology can name: the current English edition's sections, titled rules and glossary."""

    headings: Mapping[str, str]
    """Section or rule number -> its heading."""
    glossary: Mapping[str, GlossaryEntry]
    """Folded glossary term (and each alias) -> its entry."""
    edition: str
    """The edition's id, as diagnostics name it."""

    def number_of(self, heading: str) -> str | None:
        """The number whose heading this is, when exactly one has it."""
        found = [n for n, h in self.headings.items() if fold(h) == fold(heading)]
        return found[0] if len(found) == 1 else None


def concepts_of(edition: Edition, glossary: Iterable[GlossaryEntry]) -> Concepts:
    """The concepts of an edition: its titled sections and rules, and its glossary terms."""
    headings = {n: h for n, rule in edition.rules.items() if (h := rule.heading)}
    mine = set(edition.documents)
    terms: dict[str, GlossaryEntry] = {}
    for entry in glossary:
        if entry.document in mine:
            for name in (entry.term, *entry.aliases):
                terms.setdefault(fold(name), entry)
    return Concepts(headings, terms, edition.id)


def name_concepts(
    terms: Iterable[Term], concepts: Concepts | None, lexicon: Lexicon | None, texts: Texts
) -> tuple[dict[str, ConceptName], list[Diagnostic]]:
    """Concept key (`fr:rule:121`, `fr:section:1`, `fr:glossary:trample`) -> its names; and what placing them found."""
    terms = list(terms)
    if not terms:
        return {}, []
    if concepts is None:
        first = terms[0].source
        why = "no English rules are loaded: the terminology names their concepts, and is not used"
        return {}, [Diagnostic("note", first.path, first.line, why)]
    names: dict[str, ConceptName] = {}
    diags: list[Diagnostic] = []
    missing: list[Term] = []
    for term in terms:
        key = _place(term, concepts, diags)
        if key is None:
            missing.append(term)
            continue
        if key in names:
            why = f"{term.english} is already named at line {names[key].source.line}; keep one line"
            diags.append(Diagnostic("warning", term.source.path, term.source.line, why))
            continue
        names[key] = _named(term, lexicon, texts, diags)
    names = _pooled(names)
    if missing:
        shown = ", ".join(f"{t.english} (line {t.source.line})" for t in missing[:MISSING_SHOWN])
        more = f" and {len(missing) - MISSING_SHOWN} more" if len(missing) > MISSING_SHOWN else ""
        why = f"{len(missing)} lines name concepts {concepts.edition} lacks, and are not used: {shown}{more}"
        diags.append(Diagnostic("warning", missing[0].source.path, missing[0].source.line, why))
    return names, diags


def _pooled(names: dict[str, ConceptName]) -> dict[str, ConceptName]:
    """Each name with the evidence of every line giving the same concept the same heading (rule 405 Stack and the
    glossary's Stack, both « Pile »: what attests one attests the other)."""
    pooled: dict[tuple, list[Evidence]] = {}
    for name in names.values():
        key = (name.lang, concept_key(name.english), _gist(name.heading))
        pooled.setdefault(key, []).extend(e for e in name.evidence if e not in pooled.get(key, ()))
    found = {}
    for key, name in names.items():
        evidence = tuple(pooled[(name.lang, concept_key(name.english), _gist(name.heading))])
        provenance = "attested" if any(_same(e.french, name.heading) for e in evidence) else "curated"
        found[key] = replace(name, evidence=evidence, provenance=provenance)
    return found


def concept_key_of(lang: str, concept: str, ident: str) -> str:
    """The key of a concept's names: `fr:rule:121`, `fr:glossary:trample`."""
    return f"{lang}:{concept}:{ident}"


def _place(term: Term, concepts: Concepts, diags: list[Diagnostic]) -> str | None:
    """The key of the concept a line names in today's edition (a renumbered rule found by its heading), or None."""
    if term.concept == "glossary":
        entry = concepts.glossary.get(fold(OBSOLETE.sub("", term.english).rstrip()))
        return concept_key_of(term.lang, "glossary", fold(entry.term)) if entry else None
    number = term.number or ""
    if fold(concepts.headings.get(number, "")) == fold(term.english):
        return concept_key_of(term.lang, term.concept, number)
    found = concepts.number_of(term.english)
    if found is None:
        return None
    why = f"{term.english} is {term.concept} {found} in {concepts.edition}, not {number}; write {term.concept}:{found}"
    diags.append(Diagnostic("warning", term.source.path, term.source.line, why))
    return concept_key_of(term.lang, "section" if len(found) == 1 else "rule", found)


def _named(term: Term, lexicon: Lexicon | None, texts: Texts, diags: list[Diagnostic]) -> ConceptName:
    """A line's names held against the evidence: the printed cards' translation, and the line's own citation."""
    names = term.names
    evidence = [*_cited(term, texts, diags), *_printed(term, lexicon)]
    best = _sure_translation(term, lexicon)
    if best and not any(_same(best.best, name) for name in names):
        why = (
            f"« {term.heading} » for {term.english}, but the printed cards say « {best.best} » "
            f"({best.french[0].count} cards): the cards' term is shown first"
        )
        diags.append(Diagnostic("note", term.source.path, term.source.line, why))
        names = (_capital(best.best), *names)
        evidence = [Evidence("cards", best.best, best.french[0].count, _example(best))]
    provenance = "attested" if any(_same(e.french, names[0]) for e in evidence) else "curated"
    return ConceptName(term.lang, term.english, names, provenance, tuple(evidence), term.source)


def _cited(term: Term, texts: Texts, diags: list[Diagnostic]) -> list[Evidence]:
    """The line's citation of a content file, checked: that file prints one of its names (else a warning)."""
    match = CITED.search(term.note)
    if match is None:
        return []
    path, line = match.group(1), match.group(2)
    held = [_words(text) for text in texts(path)]
    if not held:
        why = f"the source cites {path}, which the content does not hold"
        diags.append(Diagnostic("warning", term.source.path, term.source.line, why))
        return []
    for name in term.names:  # a name of several parts (« En phase, hors phase »): each printed
        parts = [_words(part) for part in name.split(",")]
        if all(any(_printed_in(part, text) for text in held) for part in parts):
            return [Evidence("file", name, 1, f"{path}:{line}")]
    if term.provenance == "attested":
        why = f"attested by {path}, but that file prints none of « {' | '.join(term.names)} »: say curated, or fix it"
        diags.append(Diagnostic("warning", term.source.path, term.source.line, why))
    return []


def _printed(term: Term, lexicon: Lexicon | None) -> list[Evidence]:
    """What the printed cards translate the concept's English term as (its keyword, type or rules word)."""
    if lexicon is None:
        return []
    found = []
    for entry in lexicon.lookup(term.english):
        if entry.french and any(_same(entry.best, name) for name in term.names):
            source = max(entry.sources, key=lambda s: s[1])[0] if entry.sources else "cards"  # a word's: aligned
            found.append(Evidence(source, entry.best, entry.french[0].count, _example(entry)))
    return found[:1]


def _sure_translation(term: Term, lexicon: Lexicon | None) -> LexiconEntry | None:
    """The printed cards' sure name for the concept (a keyword's or type's, on SURE_CARDS cards at least)."""
    if lexicon is None:
        return None
    unsure = {(e.english, e.category) for e in lexicon.unsure()}
    for entry in lexicon.lookup(term.english):
        if entry.category not in HEADWORD_CATEGORIES or (entry.english, entry.category) in unsure:
            continue
        if concept_key(entry.english) == concept_key(term.english) and entry.french[0].count >= SURE_CARDS:
            return entry
    return None


def _example(entry: LexiconEntry) -> str:
    """A card showing a lexicon entry's translation (`Colossal Dreadmaw / Dévoreur colossal`), or for a word the
    aligned text's place (`120.1`, `fr/faq-discorde-2006#L769`)."""
    if not entry.examples:
        return ""
    card = entry.examples[0]
    return f"{card.english} / {card.french}" if card.french else card.english


def _same(one: str, other: str) -> bool:
    """Whether two terms are one: the same words but for inflection (« Enquêter », « enquêtez »), case, accents,
    apostrophes and the little words (« De base », « base »; « Se battre », « battre »)."""
    return _gist(one) == _gist(other)


LITTLE = frozenset(["le", "la", "les", "l", "un", "une", "des", "de", "du", "d", "se", "s", "the", "a", "an", "of"])
"""Words two forms of one term may have or not."""


def _gist(term: str) -> tuple[str, ...]:
    return tuple(stem_fr(w) for w in re.findall(r"\w+", fold(term)) if w not in LITTLE)


def _words(text: str) -> list[str]:
    """A text's words, folded, the little words aside."""
    return [w for w in re.findall(r"\w+", fold(text)) if w not in LITTLE]


def _printed_in(name: list[str], text: list[str]) -> bool:
    """Whether a text prints a name, whatever its inflection: each of its words, by its first PREFIX letters, in
    order and close together (« Déclarer les attaquants » in « le joueur actif déclare ses attaquants »)."""
    if not name:
        return False
    heads = [w[:PREFIX] for w in name]
    for start, word in enumerate(text):
        if not word.startswith(heads[0]):
            continue
        at, found = start + 1, 1
        for head in heads[1:]:
            window = text[at : at + 3]
            step = next((k for k, w in enumerate(window) if w.startswith(head)), None)
            if step is None:
                break
            at, found = at + step + 1, found + 1
        if found == len(heads):
            return True
    return False


def _capital(term: str) -> str:
    """A term as a heading writes it (`lien de vie` -> `Lien de vie`)."""
    return term[:1].upper() + term[1:]
