"""The records of the static JSON API (`api/v1/`), one per file: a rule of a current edition, a glossary entry, a
card, an edition, the numbers of an older numbering. Made from the knowledge base (never from the site's pages);
the shapes are described in `kb.export.api.openapi` and docs/json.md."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from kb.export.json import references_today, source_json
from kb.model import Card, GlossaryEntry, Rule
from kb.model.base import KnowledgeBase
from kb.model.links import AlignedRule, Edition
from kb.sources import file_slug, slug, unique


def edition_key(edition: Edition) -> str:
    """An edition in a file name: its date, or `undated` (`en:2026-01-16` -> `2026-01-16`)."""
    return edition.id.split(":", 1)[-1]


@dataclass
class Index:
    """What the records point at, worked out once: the current editions' glossary entries and their names in files,
    the cards' names in files, the pairings both ways, the glossary entries citing each rule."""

    kb: KnowledgeBase
    glossary: dict[str, list[tuple[str, GlossaryEntry]]] = field(default_factory=dict)
    """Language -> (slug, entry) of its current edition's glossary, in the glossary's order."""
    card_slugs: dict[str, str] = field(default_factory=dict)
    """Card id -> its file's name (without `.json`)."""
    pairs: dict[tuple[str, str], AlignedRule] = field(default_factory=dict)
    """(language, a translated rule's own number) -> its pairing with today's reference rule."""
    translations: dict[str, list[AlignedRule]] = field(default_factory=dict)
    """Today's reference number -> the translated rules paired with it."""
    defined: dict[tuple[str, str], list[tuple[str, str]]] = field(default_factory=dict)
    """(language, number) -> (term, slug) of the glossary entries citing that rule."""

    @classmethod
    def of(cls, kb: KnowledgeBase) -> Index:
        """Work out the index of a knowledge base."""
        found = cls(kb)
        for lang, edition in kb.primary.items():
            taken: set[str] = set()
            entries = [g for g in kb.glossary if g.lang == lang and g.document in edition.documents]
            found.glossary[lang] = [(unique(slug(g.term), taken), g) for g in entries]
            for name, entry in found.glossary[lang]:
                for ref in kb.links.glossary_refs.get(entry.key, ()):
                    found.defined.setdefault((lang, ref.target), []).append((entry.term, name))
        taken = set()
        found.card_slugs = {card.id: unique(file_slug(card.id), taken) for card in kb.cards}
        for pair in kb.links.alignment.pairs:
            found.pairs.setdefault((pair.lang, pair.number), pair)
            found.translations.setdefault(pair.ref_number, []).append(pair)
        return found


def rule_record(index: Index, rule: Rule) -> dict[str, Any]:
    """A rule of a current edition: its text, subrules, citations both ways, the glossary entries citing it, the
    rulings citing it, and the rule it is in the other languages with the pairing's evidence."""
    kb = index.kb
    edition = kb.edition_of(rule)
    rulings = kb.rule_mentions.get((rule.lang, rule.number), ())
    record = {
        "lang": rule.lang,
        "number": rule.number,
        "edition": edition.id,
        "kind": rule.kind,
        "title": rule.title,
        "text": rule.text,
        "examples": list(rule.examples),
        "parent": rule.parent,
        "subrules": list(rule.children),
        "cites": [{"number": r.target, "resolved": r.resolved} for r in kb.references(rule)],
        "cited_by": [r.number for r in kb.cited_by(rule)],
        "glossary": [{"term": term, "slug": name} for term, name in index.defined.get((rule.lang, rule.number), ())],
        "rulings": [_mention(index, item) for item in rulings],
        "today": None,
        "translations": {},
        "source": source_json(rule.source),
    }
    pair = index.pairs.get((rule.lang, rule.number))
    if rule.lang != kb.reference and pair is not None:
        record["today"] = {
            "lang": kb.reference,
            "number": pair.ref_number,
            "edition": pair.ref_edition,
            "via": pair.via,
            "confidence": pair.confidence,
        }
        record["references_today"] = references_today(kb, rule)
    elif rule.lang == kb.reference:
        record["translations"] = {p.lang: _translation(kb, p) for p in index.translations.get(rule.number, ())}
    return record


def _translation(kb: KnowledgeBase, pair: AlignedRule) -> dict[str, Any]:
    """A translated rule beside today's reference rule: its own number, text, and how they were paired."""
    rule = kb.editions[pair.edition].rules.get(pair.number)
    return {
        "number": pair.number,
        "edition": pair.edition,
        "title": rule.title if rule else "",
        "text": rule.text if rule else "",
        "via": pair.via,
        "confidence": pair.confidence,
    }


def _mention(index: Index, item: str) -> dict[str, Any]:
    """A ruling or FAQ note citing a rule: its id, kind, and the card it rules on (its file's name)."""
    kb = index.kb
    ruling = kb.ruling.get(item)
    if ruling is not None:
        return {"id": item, "kind": "ruling", "lang": ruling.lang, "card": index.card_slugs.get(ruling.card)}
    note = kb.note.get(item)
    return {"id": item, "kind": "note", "lang": note.lang if note else None, "card": None}


def rules_index(edition: Edition) -> dict[str, Any]:
    """The numbers of an edition's rules, in order, with the titles of those that have one."""
    return {
        "lang": edition.lang,
        "edition": edition.id,
        "rules": list(edition.rules),
        "titles": {n: r.title for n, r in edition.rules.items() if r.title},
    }


def glossary_record(index: Index, entry: GlossaryEntry) -> dict[str, Any]:
    """A glossary entry: its term, other names, definition and the rules it cites."""
    refs = index.kb.links.glossary_refs.get(entry.key, ())
    return {
        "lang": entry.lang,
        "term": entry.term,
        "aliases": list(entry.aliases),
        "definition": entry.definition,
        "obsolete": entry.obsolete,
        "cites": [{"number": r.target, "resolved": r.resolved} for r in refs],
        "edition": index.kb.links.edition_of.get(entry.document),
        "source": source_json(entry.source),
    }


def glossary_index(index: Index, lang: str) -> dict[str, Any]:
    """A language's glossary: each entry's term, other names and file name, in the glossary's order."""
    return {
        "lang": lang,
        "edition": index.kb.primary[lang].id,
        "entries": [{"term": g.term, "aliases": list(g.aliases), "slug": name} for name, g in index.glossary[lang]],
    }


def card_record(index: Index, card: Card) -> dict[str, Any]:
    """A card: its names and faces in each language, its rulings and FAQ notes with the rules they cite (as cited,
    and today's number), and every rule of today they cite."""
    kb = index.kb
    rulings = [kb.ruling[r] for r in card.rulings if r in kb.ruling]
    notes = [kb.note[n] for n in card.notes if n in kb.note]
    cited: dict[str, None] = {}
    out_rulings = []
    for r in rulings:
        rules = [{"cited": n, "today": r.citations.get(n)} for n in r.rule_refs]
        cited.update(dict.fromkeys(x["today"] for x in rules if x["today"]))
        out_rulings.append(
            {
                "id": r.id,
                "lang": r.lang,
                "date": r.date,
                "text": r.text,
                "source": r.source_document,
                "rules": rules,
                "translation_of": r.translation_of,
            }
        )
    out_notes = []
    for n in notes:
        quoted = [{"cited": q.number, "as_of": q.as_of, "today": q.today} for q in n.quoted_rules]
        cited.update(dict.fromkeys(q["today"] for q in quoted if q["today"]))
        out_notes.append(
            {"id": n.id, "lang": n.lang, "title": n.title, "text": n.text, "faq": n.document, "rules": quoted}
        )
    return {
        "id": card.id,
        "names": dict(card.names),
        "faces": [_face(face) for face in card.faces],
        "printings": list(card.printings),
        "rulings": out_rulings,
        "notes": out_notes,
        "rules": list(cited),
        "mentioned_in": list(kb.card_mentions.get(card.id, ())),
    }


def _face(face) -> dict[str, Any]:
    """A card's face: names, cost, type, power and toughness, text."""
    return {
        "names": dict(face.names),
        "mana_cost": "".join(face.mana_cost),
        "type_line": face.type_line,
        "power": face.power,
        "toughness": face.toughness,
        "text": face.text,
    }


def cards_index(index: Index) -> dict[str, Any]:
    """Every card: its names and its file's name."""
    return {"cards": [{"id": c.id, "names": dict(c.names), "slug": index.card_slugs[c.id]} for c in index.kb.cards]}


def edition_record(index: Index, edition: Edition, changes: Mapping[str, Any] | None) -> dict[str, Any]:
    """An edition: its date, documents, size, neighbours, the numbering its text follows, and (`changes`) what
    changed since the previous edition of its language."""
    kb = index.kb
    before, after = kb.edition_neighbours(edition)

    own = kb.numbering(edition.lang) if edition.current and edition.lang != kb.reference else None
    return {
        "id": edition.id,
        "lang": edition.lang,
        "date": edition.effective_date,
        "current": edition.current,
        "complete": edition.complete,
        "documents": [_document(kb, d) for d in edition.documents],
        "rules": len(edition.rules),
        "glossary": sum(1 for g in kb.glossary if g.document in edition.documents),
        "previous": before,
        "next": after,
        "numbering": own or edition.id,
        "changes": changes,
    }


def _document(kb: KnowledgeBase, doc_id: str) -> dict[str, Any]:
    """A document of an edition: its id, title and source file."""
    doc = kb.document.get(doc_id)
    return {"id": doc_id, "title": doc.title if doc else "", "source": doc.source if doc else ""}


def changes_record(diff) -> dict[str, Any]:
    """What changed between two consecutive editions: counts by category (each change once) and each change's kind
    and numbers (its words: the rule's trace)."""
    from kb.export.diff import CATEGORIES, category

    counts = dict.fromkeys(CATEGORIES, 0)
    for change in diff.changes:
        counts[category(change)] += 1
    return {
        "from": diff.old,
        "counts": counts,
        "unchanged": diff.unchanged,
        "changes": [{"kind": category(c), "old": c.old, "new": c.new} for c in diff.changes],
    }


def numbers_record(index: Index, edition: Edition) -> dict[str, Any]:
    """Each number of an edition (an older one, or a translation's own numbering) -> the reference language's rules
    of today it is: followed through lineage, and through the pairing for a translation; `[]` when removed or not
    paired. Never guessed from the number alone."""
    kb = index.kb
    today = kb.primary.get(kb.reference)
    chain = kb.links.lineage.get(edition.lang)
    found: dict[str, dict[str, Any]] = {}
    for number in edition.rules:
        if edition.current or chain is None or edition.id not in chain.editions:
            reached = [number]
        else:
            reached = [n for n, _ in chain.today(edition.id, number)]
        if edition.lang != kb.reference:
            pairs = [index.pairs.get((edition.lang, n)) for n in reached]
            reached = [p.ref_number for p in pairs if p is not None]
        status = _status(number, reached) if reached or edition.lang == kb.reference else "unpaired"
        found[number] = {"today": reached, "status": status}
    return {"edition": edition.id, "lang": edition.lang, "today": today.id if today else None, "numbers": found}


def _status(number: str, today: list[str]) -> str:
    """How a number reads today: `same`, `renumbered`, `split` (several rules), or `gone` (removed)."""
    if not today:
        return "gone"
    if len(today) > 1:
        return "split"
    return "same" if today == [number] else "renumbered"
