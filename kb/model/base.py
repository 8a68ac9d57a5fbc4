"""The linked knowledge base handed to the CLI, the search index and the site."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property

from kb.model import Card, Diagnostic, Document, FaqInfo, FaqNote, GlossaryEntry, Rule, Ruling
from kb.model.links import Edition, ResolvedRef, RuleLinks
from kb.model.numbers import descends, sort_key
from kb.model.records import _freeze_fields


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

    def __post_init__(self) -> None:
        _freeze_fields(self, "cards_by_document")

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
            for number in item.rule_refs:
                found.setdefault((item.lang, number), []).append(item.id)
        return {k: tuple(dict.fromkeys(v)) for k, v in found.items()}

    def edition_of(self, rule: Rule) -> Edition:
        """The edition a rule belongs to."""
        return self.editions[self.links.edition_of[rule.document]]

    def aligned(self, number: str) -> dict[str, Rule]:
        """The rule in every language: the primary edition first, then any other edition (fallback)."""
        found = {}
        for lang in self.langs:
            rule = self.primary[lang].rules.get(number)
            if rule is None:
                rule = next(
                    (ed.rules[number] for ed in self.links.editions if ed.lang == lang and number in ed.rules), None
                )
            if rule is not None:
                found[lang] = rule
        return found

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
        """Every rule number of the primary editions, in rule order."""
        every = {n for ed in self.primary.values() for n in ed.rules}
        return sorted(every, key=sort_key)

    def count(self, severity: str) -> int:
        """Number of diagnostics of a severity."""
        return sum(1 for d in self.diagnostics if d.severity == severity)
