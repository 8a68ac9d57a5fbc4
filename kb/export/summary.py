"""What `kb check` reports beside the diagnostics, as data and lines of text: each document's counts, each
language's editions, the lexicon's size. Never printed here."""

from __future__ import annotations

from collections import Counter

from kb.model.base import KnowledgeBase


def all_document_counts(kb: KnowledgeBase) -> dict[str, dict[str, int]]:
    """Counts for every document (rulings and notes counted in one pass: a pool has hundreds of card files)."""
    rulings = Counter(r.source_document for r in kb.rulings)
    notes = Counter(n.document for n in kb.notes)
    return {doc.id: document_counts(kb, doc, rulings, notes) for doc in kb.documents}


def document_counts(kb, doc, rulings: Counter | None = None, notes: Counter | None = None) -> dict[str, int]:
    """Counts for one document: rule kinds, examples, glossary, references; or FAQ records (`rulings`, `notes`:
    their counts by document, when already made)."""
    if doc.kind == "rules":
        rules = [r for r in kb.rules if r.document == doc.id]
        kinds = Counter(r.kind for r in rules)
        refs = [ref for r in rules for ref in kb.references(r)]
        refs += [ref for g in kb.glossary if g.document == doc.id for ref in kb.links.glossary_refs[g.key]]
        resolved = sum(1 for ref in refs if ref.resolved)
        return {
            "sections": kinds["section"],
            "rules": kinds["rule"],
            "numbered": kinds["numbered"],
            "subrules": kinds["subrule"],
            "examples": sum(len(r.examples) for r in rules),
            "glossary": sum(1 for g in kb.glossary if g.document == doc.id),
            "references_resolved": resolved,
            "references_unresolved": len(refs) - resolved,
        }
    rulings = Counter(r.source_document for r in kb.rulings) if rulings is None else rulings
    notes = Counter(n.document for n in kb.notes) if notes is None else notes
    return {"cards": len(kb.cards_by_document.get(doc.id, ())), "rulings": rulings[doc.id], "notes": notes[doc.id]}


def edition_lines(kb: KnowledgeBase) -> list[str]:
    """One line per language: its editions, oldest first, with dates, counts and roles."""
    lines = []
    counterparts = kb.links.alignment.counterparts
    for lang, ids in kb.links.ordered.items():
        parts = []
        for eid in ids:
            ed = kb.editions[eid]
            glossary = sum(1 for g in kb.glossary if g.document in ed.documents)
            role = "current" if ed.current else "history"
            if not ed.complete:
                role += ", extract"
            parts.append(f"{ed.effective_date or 'undated'} ({len(ed.rules)} rules, {glossary} glossary; {role})")
        line = f"editions {lang}: " + ", ".join(parts)
        if lang in counterparts:
            eid, score, how = counterparts[lang]
            if how == "content":  # its numbers say nothing of today's: what the content paired
                paired = sum(1 for p in kb.links.alignment.pairs if p.lang == lang)
                total = len(kb.primary[lang].rules) if lang in kb.primary else 0
                line += f"; numbered like no loaded edition: {paired} of {total} rules paired by content with "
                line += eid.replace(":", " ")
            else:
                line += f"; matches {eid.replace(':', ' ')} by {how} (score {score:.2f})"
        lines.append(line)
    return lines


def lexicon_summary(kb: KnowledgeBase) -> dict | None:
    """Size of the lexicon by category and the terms it is unsure of."""
    if kb.lexicon is None:
        return None
    unsure = kb.lexicon.unsure()
    return {
        "terms": len(kb.lexicon.entries),
        "cards": kb.lexicon.cards,
        "by_category": kb.lexicon.by_category(),
        "unsure": [f"{e.english} ({e.category})" for e in unsure],
    }
