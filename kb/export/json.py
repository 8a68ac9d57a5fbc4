"""The knowledge base as one JSON document (the contract is documented in the README)."""

from __future__ import annotations

from typing import Any

from kb import __version__
from kb.model import Card, Diagnostic, Document, Face, FaqInfo, FaqNote, GlossaryEntry, Rule, Ruling, SourceRef
from kb.model.base import KnowledgeBase
from kb.model.links import Miscitation


def source_json(src: SourceRef | None) -> dict | None:
    """A source reference as `{"path", "line"}`."""
    return None if src is None else {"path": src.path, "line": src.line}


def document_json(kb: KnowledgeBase, doc: Document) -> dict[str, Any]:
    """A document record."""
    edition = kb.links.edition_of.get(doc.id)
    return {
        "id": doc.id,
        "lang": doc.lang,
        "kind": doc.kind,
        "title": doc.title,
        "effective_date": doc.effective_date,
        "source": doc.source,
        "layout": doc.layout,
        "encoding": doc.encoding,
        "edition": edition,
        "aligned": edition is not None and edition in kb.links.alignment.editions.values(),
    }


def rule_json(kb: KnowledgeBase, rule: Rule) -> dict[str, Any]:
    """A rule record with resolved references and backlinks."""
    return {
        "document": rule.document,
        "edition": kb.edition_of(rule).id,
        "lang": rule.lang,
        "number": rule.number,
        "kind": rule.kind,
        "title": rule.title,
        "text": rule.text,
        "examples": list(rule.examples),
        "parent": rule.parent,
        "children": list(rule.children),
        "references": [{"target": r.target, "resolved": r.resolved} for r in kb.references(rule)],
        "cited_by": [r.number for r in kb.cited_by(rule)],
        "source": source_json(rule.source),
        "cited_by_rulings": list(kb.rule_mentions.get((rule.lang, rule.number), ())),
        "lineage": lineage_json(kb, rule),
        "aligned_with": aligned_json(kb, rule),
        "references_today": references_today(kb, rule),
    }


def references_today(kb: KnowledgeBase, rule: Rule) -> list[dict[str, Any]] | None:
    """For a translated rule, each number it cites read in the numbering of its text's edition and followed to
    today: `{"target", "numbering", "status", "today", "miscited"}` (None for a rule of the reference language).

    A number its original does not cite (`kb.link.references.citecheck`) has the status `miscited`: `today` is
    then today's rule of what the original cites in its place (null when it cites nothing there), never the
    number's own."""
    from kb.link.references.readings import cited_today

    found = cited_today(kb, rule)
    if found is None:
        return None
    return [
        {"target": t, "numbering": ed, "status": st, "today": today, "miscited": m and miscited_json(m)}
        for t, ed, st, today, m in found
    ]


def miscited_json(m: Miscitation) -> dict[str, Any]:
    """What a translation's citation its original does not make is checked against: `{"original": {"edition",
    "number", "cites"}, "literal", "evidence", "older"}`."""
    evidence = None if m.meant is None else "older edition" if m.confirmed else "original"
    return {
        "original": {"edition": m.edition, "number": m.original, "cites": m.meant.number if m.meant else None},
        "literal": m.literal.today,
        "evidence": evidence,
        "older": [{"edition": ed, "number": num} for ed, num in m.older],
    }


def lineage_json(kb: KnowledgeBase, rule: Rule) -> dict[str, Any] | None:
    """What the rule was in the previous edition and became in the next (None: one edition only)."""
    chain = kb.links.lineage.get(rule.lang)
    ed = kb.edition_of(rule)
    if chain is None or ed.id not in chain.editions:
        return None
    before, after = kb.edition_neighbours(ed)
    previous, following = kb.lineage(rule)
    status = max(previous, key=lambda li: li.confidence).status if previous else ("added" if before else "origin")
    return {
        "status": status,
        "previous": [
            {"edition": before, "number": li.old, "status": li.status, "confidence": li.confidence} for li in previous
        ],
        "next": [
            {"edition": after, "number": li.new, "status": li.status, "confidence": li.confidence} for li in following
        ],
    }


def aligned_json(kb: KnowledgeBase, rule: Rule) -> dict[str, Any] | None:
    """For a translated rule, today's reference rule it is paired with; for a reference rule, its translations."""
    found = [p for p in kb.links.alignment.pairs if p.lang == rule.lang and p.number == rule.number]
    if found and kb.edition_of(rule).id == found[0].edition:
        p = found[0]
        return {"edition": p.ref_edition, "number": p.ref_number, "via": p.via, "confidence": p.confidence}
    ed = kb.edition_of(rule)
    if rule.lang == kb.reference and ed.current:
        return {
            "translations": {
                p.lang: {"edition": p.edition, "number": p.number, "via": p.via, "confidence": p.confidence}
                for p in kb.links.alignment.pairs
                if p.ref_number == rule.number
            }
        }
    return None


def glossary_json(kb: KnowledgeBase, entry: GlossaryEntry) -> dict[str, Any]:
    """A glossary entry."""
    refs = kb.links.glossary_refs.get(entry.key, ())
    return {
        "document": entry.document,
        "lang": entry.lang,
        "term": entry.term,
        "aliases": list(entry.aliases),
        "definition": entry.definition,
        "obsolete": entry.obsolete,
        "references": [{"target": r.target, "resolved": r.resolved} for r in refs],
        "source": source_json(entry.source),
    }


def diagnostic_json(d: Diagnostic) -> dict[str, Any]:
    """A diagnostic."""
    return {"severity": d.severity, "path": d.path, "line": d.line, "message": d.message}


def alignment_json(kb: KnowledgeBase) -> dict[str, Any]:
    """Which editions are aligned, one-language rules and differing references."""
    al = kb.links.alignment
    return {
        "editions": dict(al.editions),
        "aligned": len(al.aligned),
        "only_in": {lang: list(nums) for lang, nums in al.only_in.items()},
        "reference_mismatches": [dict(m) for m in al.reference_mismatches],
        "reference": al.reference,
        "matches": {
            lang: {"edition": eid, "score": score, "by": how} for lang, (eid, score, how) in al.counterparts.items()
        },
        "pairs": [
            {
                p.lang: {"edition": p.edition, "number": p.number},
                al.reference: {"edition": p.ref_edition, "number": p.ref_number},
                "via": p.via,
                "confidence": p.confidence,
            }
            for p in al.pairs
        ],
        "stale": [
            {s.lang: s.number, "since": s.since, al.reference: s.ref_number, "edition": s.ref_edition} for s in al.stale
        ],
        "miscitations": [
            {
                "lang": m.lang,
                "number": m.number,
                "cites": m.cited,
                "today": m.meant.today if m.meant else None,
                **miscited_json(m),
            }
            for m in al.miscitations
        ],
    }


def to_json(kb: KnowledgeBase) -> dict[str, Any]:
    """Everything, as plain JSON-ready data."""

    return {
        "kb_version": __version__,
        "content_hash": kb.content_hash,
        "documents": [document_json(kb, d) for d in kb.documents],
        "editions": [
            {
                "id": ed.id,
                "lang": ed.lang,
                "effective_date": ed.effective_date,
                "documents": list(ed.documents),
                "complete": ed.complete,
                "current": ed.current,
                "rules": len(ed.rules),
            }
            for ed in kb.links.editions
        ],
        "rules": [rule_json(kb, r) for r in kb.rules],
        "glossary": [glossary_json(kb, g) for g in kb.glossary],
        "alignment": alignment_json(kb),
        "faqs": [faq_to_json(f) for f in kb.faqs],
        "cards": [{**card_to_json(c), "mentioned_in": list(kb.card_mentions.get(c.id, ()))} for c in kb.cards],
        "rulings": [ruling_to_json(r) for r in kb.rulings],
        "notes": [note_to_json(n) for n in kb.notes],
        "diagnostics": [diagnostic_json(d) for d in kb.diagnostics],
    }


def _face_to_json(face: Face) -> dict:
    """Serialise one face."""
    return {
        "names": dict(face.names),
        "mana_cost": list(face.mana_cost),
        "type_line": face.type_line,
        "supertypes": list(face.supertypes),
        "types": list(face.types),
        "subtypes": list(face.subtypes),
        "power": face.power,
        "toughness": face.toughness,
        "text": face.text,
        "reminder_text": list(face.reminder_text),
        "lang": face.lang,
    }


def card_to_json(card: Card) -> dict:
    """Serialise a card following the export contract."""
    return {
        "id": card.id,
        "names": dict(card.names),
        "faces": [_face_to_json(face) for face in card.faces],
        "rulings": list(card.rulings),
        "notes": list(card.notes),
        "source": source_json(card.source),
        "printings": list(card.printings),
        "keywords": list(card.keywords),
        "oracle": dict(card.oracle),
        "printed": _printed_to_json(card),
    }


def _printed_to_json(card: Card) -> dict:
    """Every printing in another language, by language, newest first: name, type line, text, sets, date."""
    found: dict[str, list[dict]] = {}
    for p in card.printed:
        item = {"name": p.name, "type_line": p.type_line, "text": p.text, "sets": list(p.sets), "released": p.released}
        found.setdefault(p.lang, []).append(item)
    return found


def ruling_to_json(r: Ruling) -> dict:
    """Serialise a ruling following the export contract."""
    return {
        "id": r.id,
        "card": r.card,
        "lang": r.lang,
        "text": r.text,
        "section": r.section,
        "source_document": r.source_document,
        "rule_refs": list(r.rule_refs),
        "card_refs": list(r.card_refs),
        "mentions": list(r.mentions),
        "source": source_json(r.source),
        "date": r.date,
        "citations": dict(r.citations),
        "translation_of": (
            {"id": r.translation_of, "confidence": r.translation_confidence} if r.translation_of else None
        ),
    }


def note_to_json(n: FaqNote) -> dict:
    """Serialise a general note following the export contract."""
    return {
        "id": n.id,
        "lang": n.lang,
        "title": n.title,
        "text": n.text,
        "cards": list(n.cards),
        "quoted_rules": [
            {
                "number": q.number,
                "as_of": q.as_of,
                "text": q.text,
                "today": {"edition": q.today_edition, "number": q.today, "via": q.via, "confidence": q.confidence}
                if q.today
                else None,
            }
            for q in n.quoted_rules
        ],
        "bullets": list(n.bullets),
        "source": source_json(n.source),
        "document": n.document,
        "order": [[kind, i] for kind, i in n.order],
        "printed": [{"card": card, "lines": list(lines)} for card, lines in n.printed],
        "card_refs": list(n.card_refs),
        "rule_refs": list(n.rule_refs),
        "mentions": list(n.mentions),
    }


def faq_to_json(info: FaqInfo) -> dict:
    """Serialise an FAQ header following the export contract."""
    return {
        "document": info.document,
        "lang": info.lang,
        "title": info.title,
        "set_names": dict(info.set_names),
        "authors": list(info.authors),
        "last_modified": info.last_modified,
        "dates": dict(info.dates),
        "set_size": info.set_size,
        "intro": info.intro,
        "trailer": list(info.trailer),
        "unplaced": list(info.unplaced),
        "source": source_json(info.source),
    }


def diff_json(diff, kb=None, only: tuple[str, ...] = (), holds=None) -> dict[str, Any]:
    """The changes between two editions (`kb diff --json`): substantive changes first, then references followed,
    then pure renumberings; `runs` collapses the latter (keys are only ever added, never renamed). `only`: the
    statuses or kinds of change listed (`counts` and `kinds` always cover everything); `holds`: whether a change is
    in the section or rule asked for (`kb.export.diff.Scope.holds`)."""
    from kb.link.editions.changelog import KINDS, runs, section_of
    from kb.link.editions.history import title_of

    order = {kind: i for i, kind in enumerate(KINDS)}
    minor = {"pronoun"}.intersection(only)
    listed = [c for c in diff.changes if not only or c.status in only or c.kind in only or c.minor in minor]
    listed = [c for c in listed if holds is None or holds(c)]
    changes = sorted(listed, key=lambda c: order[c.kind])  # stable: rule order within a kind
    return {
        "old": diff.old,
        "new": diff.new,
        "counts": diff.counts(),
        "kinds": diff.kinds(),
        "typography": diff.typography,
        "changes": [
            {
                "status": c.status,
                "old": c.old,
                "new": c.new,
                "text_changed": c.text_changed,
                "confidence": c.confidence,
                "diff": [[op, text] for op, text in c.diff],
                "kind": c.kind,
                "section": section_of(c.new or c.old or ""),
                "title": title_of(kb, diff.new if c.new else diff.old, c.new or c.old) if kb is not None else "",
                "references": [[a, b] for a, b in c.references],
                "text": c.text,
                "minor": c.minor or None,
            }
            for c in changes
        ],
        "runs": [
            {"old": list(r.old), "new": list(r.new), "count": r.count}
            for r in runs([(c.old, c.new) for c in listed if c.kind == "renumbering"])
        ],
    }


def history_json(history) -> list[dict[str, Any]]:
    """A rule's editions, oldest first (`kb show NUMBER --history --json`)."""
    return [
        {"edition": edition, "number": number or None, "status": status, "diff": [[op, t] for op, t in diff]}
        for edition, number, status, diff in history
    ]
