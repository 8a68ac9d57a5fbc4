"""The linked knowledge base handed to the CLI, the search index and the site."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from kb.model import Card, Diagnostic, Document, FaqInfo, FaqNote, GlossaryEntry, Rule, Ruling
from kb.model.links import AlignedRule, Edition, Miscitation, Reading, ResolvedRef, RuleLinks
from kb.model.numbers import descends, sort_key
from kb.model.records import _freeze_fields
from kb.model.terms import ConceptName, Paraphrase, Term, Word


@dataclass(frozen=True)
class KnowledgeBase:
    """Everything loaded from a content folder, parsed and linked."""

    content: str
    """The content folder it was loaded from."""
    content_hash: str
    """Hash of every source file's bytes and path, for cache invalidation."""
    documents: tuple[Document, ...]
    rules: tuple[Rule, ...]
    glossary: tuple[GlossaryEntry, ...]
    links: RuleLinks
    faqs: tuple[FaqInfo, ...]
    cards: tuple[Card, ...]
    rulings: tuple[Ruling, ...]
    notes: tuple[FaqNote, ...]
    diagnostics: tuple[Diagnostic, ...]
    cards_by_document: Mapping[str, tuple[str, ...]]
    """Document id -> ids of the cards it prints or describes."""

    lexicon: Any = None
    """The French–English lexicon mined from the card data (`kb.link.lexicon.records.Lexicon`), or None."""
    set_names: Mapping[str, str] = field(default_factory=dict)
    """Set code -> English name of each set a card data file holds (`DIS` -> `Dissension`)."""
    terms: tuple[Term, ...] = ()
    """The terminology tables' lines, as read."""
    paraphrases: tuple[Paraphrase, ...] = ()
    """The paraphrase tables' lines, as read."""
    words: tuple[Word, ...] = ()
    """The words tables' lines that linking kept (`kb.link.lexicon.words.checked_words`)."""
    printed: Mapping[str, frozenset[str]] = field(default_factory=dict)
    """Language -> the words printed on its cards (folded), as the printed-words tables list them: never
    spelling-corrected."""
    names: Mapping[str, ConceptName] = field(default_factory=dict)
    """Today's concepts named in a language their texts lack (`kb.link.lexicon.terminology`): `fr:rule:121`,
    `fr:section:1`, `fr:glossary:<folded term>` -> its names."""
    readings: Mapping[str, Mapping[str, Reading]] = field(default_factory=dict)
    """Translation -> each number its text cites without having it -> that number read in the numbering of the
    text's edition and followed to today (`kb.link.references.readings`): never today's rule of the same number."""
    numbering_years: Mapping[str, str] = field(default_factory=dict)
    """Translation -> the year of the numbering its text uses ('' when that edition is not loaded), for the
    translations numbered otherwise than today's rules."""
    dated_citations: Mapping[str, tuple[Mapping[str, str], str]] = field(default_factory=dict)
    """FAQ note or undated FAQ ruling id -> (each number it cites -> today's number, the FAQ's date): its numbers
    read as the FAQ's date numbered them (`kb.link.references.citations.dated_citations`)."""

    def __post_init__(self) -> None:
        facts = ("readings", "numbering_years", "dated_citations")
        _freeze_fields(self, "cards_by_document", "set_names", "names", *facts)

    @cached_property
    def editions(self) -> dict[str, Edition]:
        """Editions by id."""
        return {ed.id: ed for ed in self.links.editions}

    @cached_property
    def primary(self) -> dict[str, Edition]:
        """The aligned edition of each language."""
        return {lang: self.editions[eid] for lang, eid in self.links.alignment.editions.items()}

    @property
    def langs(self) -> list[str]:
        """Languages that have rules, in code order."""
        return list(self.primary)

    @cached_property
    def document(self) -> dict[str, Document]:
        """Documents by id."""
        return {d.id: d for d in self.documents}

    @cached_property
    def card(self) -> dict[str, Card]:
        """Cards by id."""
        return {c.id: c for c in self.cards}

    @cached_property
    def ruling(self) -> dict[str, Ruling]:
        """Rulings by id."""
        return {r.id: r for r in self.rulings}

    @cached_property
    def note(self) -> dict[str, FaqNote]:
        """Notes by id."""
        return {n.id: n for n in self.notes}

    @cached_property
    def card_mentions(self) -> dict[str, tuple[str, ...]]:
        """Card id -> ids of the rulings and notes that name it (backlinks), its own rulings excluded."""
        found: dict[str, list[str]] = {}
        for item in (*self.rulings, *self.notes):
            for card_id in item.card_refs:
                if getattr(item, "card", None) != card_id:
                    found.setdefault(card_id, []).append(item.id)
        return {k: tuple(dict.fromkeys(v)) for k, v in found.items()}

    @cached_property
    def rule_mentions(self) -> dict[tuple[str, str], tuple[str, ...]]:
        """(lang, rule number) -> ids of the rulings and notes that cite it (backlinks)."""
        found: dict[tuple[str, str], list[str]] = {}
        for item in (*self.rulings, *self.notes):
            citations = getattr(item, "citations", {})
            for number in item.rule_refs:
                if isinstance(item, Ruling) and item.date:  # dated: its numbering may be an older edition's
                    if number not in citations:
                        continue
                    found.setdefault((self.reference or item.lang, citations[number]), []).append(item.id)
                else:
                    found.setdefault((item.lang, number), []).append(item.id)
        return {k: tuple(dict.fromkeys(v)) for k, v in found.items()}

    def edition_of(self, rule: Rule) -> Edition:
        """The edition a rule belongs to."""
        return self.editions[self.links.edition_of[rule.document]]

    @property
    def reference(self) -> str | None:
        """The reference language: the one whose current edition has the most rules; rows use its numbering."""
        return self.links.alignment.reference

    def numbering(self, lang: str) -> str | None:
        """The edition whose numbering a language's current text uses: its own for the reference language, the
        counterpart of a translation, None when no loaded edition is numbered like it."""
        if lang == self.reference:
            return self.primary[lang].id if lang in self.primary else None
        found = self.links.alignment.counterparts.get(lang)
        return found[0] if found and found[2] != "content" else None

    @cached_property
    def _translated(self) -> dict[str, dict[str, str]]:
        """Language -> today's reference number -> that language's own number (paired through lineage)."""
        found: dict[str, dict[str, str]] = {}
        for pair in self.links.alignment.pairs:
            found.setdefault(pair.lang, {}).setdefault(pair.ref_number, pair.number)
        return found

    @cached_property
    def _unpaired(self) -> dict[str, set[str]]:
        """Language -> its own numbers paired with no reference rule and free to be rows of their own."""
        ref = self.primary.get(self.reference) if self.reference else None
        taken = set(ref.rules) if ref else set()
        return {
            lang: {n for n in self.links.alignment.only_in.get(lang, ()) if n not in taken}
            for lang in self.langs
            if lang != self.reference
        }

    @cached_property
    def orphans(self) -> dict[str, tuple[Rule, ...]]:
        """Language -> its rules paired with no reference rule whose number today's numbering uses for another
        rule (French 703.4h, a step removed since 2015, beside today's English 703.4h): shown apart, never paired."""
        found: dict[str, tuple[Rule, ...]] = {}
        for lang in self.langs:
            if lang == self.reference:
                continue
            unpaired = self.links.alignment.only_in.get(lang, ())
            free = self._unpaired.get(lang, set())
            rules = self.primary[lang].rules
            found[lang] = tuple(rules[n] for n in unpaired if n not in free and n in rules)
        return found

    @cached_property
    def _miscited(self) -> dict[tuple[str, str], dict[str, Miscitation]]:
        """(language, a translated rule's own number) -> each number it cites that its original does not -> how."""
        found: dict[tuple[str, str], dict[str, Miscitation]] = {}
        for m in self.links.alignment.miscitations:
            found.setdefault((m.lang, m.number), {})[m.cited] = m
        return found

    def miscited(self, lang: str, number: str) -> dict[str, Miscitation]:
        """The numbers a translated rule (its own number) cites that its original does not, each with what its
        original cites in its place (`kb.link.references.citecheck`): to be linked as that, and flagged."""
        return self._miscited.get((lang, number), {})

    def pair(self, lang: str, number: str) -> AlignedRule | None:
        """How a translated rule (its own number) is paired with today's reference rule, if it is."""
        return next((p for p in self.links.alignment.pairs if p.lang == lang and p.number == number), None)

    def aligned(self, number: str) -> dict[str, Rule]:
        """The rule of a row (today's reference numbering) in every language.

        The reference language gives its current rule (else the newest other edition that has the number);
        a translation gives the rule paired with it through lineage, which may carry another number
        (French 120.2 beside English 121.2), or its own unpaired rule of that number.
        """
        found = {}
        for lang in self.langs:
            if lang == self.reference or self.reference is None:
                rule = self.primary[lang].rules.get(number)
                if rule is None:
                    others = [self.editions[e] for e in reversed(self.links.ordered.get(lang, ()))]
                    others += [ed for ed in self.links.editions if ed.lang == lang and ed not in others]
                    rule = next((ed.rules[number] for ed in others if number in ed.rules), None)
            else:
                own = self._translated.get(lang, {}).get(number)
                if own is None and number in self._unpaired.get(lang, ()):
                    own = number
                rule = self.primary[lang].rules.get(own) if own else None
            if rule is not None:
                found[lang] = rule
        return found

    def lineage(self, rule: Rule) -> tuple[tuple, tuple]:
        """Where a rule came from in the previous edition of its language and what it became in the next one.

        Two tuples of `Link`s (`old`, `new`, `status`, `confidence`, `text_changed`); empty at either end of
        the line, and both empty when the language has a single edition.
        """
        chain = self.links.lineage.get(rule.lang)
        eid = self.edition_of(rule).id
        if chain is None or eid not in chain.editions:
            return (), ()
        return chain.backward(eid, rule.number), chain.forward(eid, rule.number)

    def edition_neighbours(self, edition: Edition) -> tuple[str | None, str | None]:
        """The previous and next edition ids of an edition's language (None at either end)."""
        ids = self.links.ordered.get(edition.lang, ())
        if edition.id not in ids:
            return None, None
        k = ids.index(edition.id)
        return (ids[k - 1] if k else None), (ids[k + 1] if k + 1 < len(ids) else None)

    def references(self, rule: Rule) -> tuple[ResolvedRef, ...]:
        """The rule's references, resolved within its edition."""
        return self.links.references.get((self.edition_of(rule).id, rule.number), ())

    def cited_by(self, rule: Rule) -> tuple[Rule, ...]:
        """Rules of the same edition that cite this one."""
        ed = self.edition_of(rule)
        return tuple(ed.rules[n] for n in self.links.cited_by.get((ed.id, rule.number), ()))

    def subtree(self, edition: Edition, number: str) -> list[Rule]:
        """The rule and everything under it in an edition, in rule order (the rule may be absent)."""
        under = [r for r in edition.rules.values() if descends(r.number, number)]
        return sorted(under, key=lambda r: sort_key(r.number))

    def numbers(self) -> list[str]:
        """Every row: today's reference numbers and the translations' unpaired numbers, in rule order."""
        ref = self.primary.get(self.reference) if self.reference else None
        every = set(ref.rules) if ref else {n for ed in self.primary.values() for n in ed.rules}
        every.update(n for found in self._unpaired.values() for n in found)
        return sorted(every, key=sort_key)

    def count(self, severity: str) -> int:
        """Number of diagnostics of a severity."""
        return sum(1 for d in self.diagnostics if d.severity == severity)
