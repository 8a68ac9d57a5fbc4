"""`kb check`: parse and link the content, list every diagnostic and counts per document."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import click

from kb.commands.options import content_option, diagnostics, echo, json_text, load_or_exit, locator


def all_document_counts(kb) -> dict[str, dict[str, int]]:
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


def edition_lines(kb) -> list[str]:
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


def lexicon_summary(kb) -> dict | None:
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


def exit_status(totals: dict[str, int], strict: bool) -> int:
    """1 when there are errors (or warnings with --strict), else 0."""
    return 1 if totals["error"] or (strict and totals["warning"]) else 0


@click.command(name="check")
@content_option
@click.option("--strict", is_flag=True, help="Also fail (exit 1) on warnings.")
@click.option("--json", "as_json", is_flag=True, help="Print diagnostics and counts as JSON.")
@click.option("--quiet", "-q", is_flag=True, help="Do not list notes, only warnings and errors.")
def command(content: Path | None, strict: bool, as_json: bool, quiet: bool) -> int:
    """Parse and link the content; print every diagnostic as `path:line: severity: message`,
    then counts per document.

    Exit status: 0 without errors, 1 with errors (with --strict, warnings too), 2 when the
    content folder cannot be read."""
    from kb.export.json import diagnostic_json

    kb = load_or_exit(content)
    found = diagnostics(kb)
    counts = all_document_counts(kb)
    totals = {sev: sum(1 for d in found if d.severity == sev) for sev in ("error", "warning", "note")}
    if as_json:
        payload = {
            "diagnostics": [diagnostic_json(d) for d in found if not (quiet and d.severity == "note")],
            "documents": counts,
            "totals": totals,
            "alignment": kb.links.alignment.editions,
            "editions": {lang: list(ids) for lang, ids in kb.links.ordered.items()},
            "lexicon": lexicon_summary(kb),
        }
        click.echo(json_text(payload))
        return exit_status(totals, strict)
    located = locator(kb)
    for diag in found:
        if not (quiet and diag.severity == "note"):
            echo(located(diag), newlines=False)
    for doc in kb.documents:
        figures = ", ".join(f"{v} {k.replace('_', ' ')}" for k, v in counts[doc.id].items())
        edition = kb.links.edition_of.get(doc.id)
        where = f" [{edition}{', aligned' if edition in kb.links.alignment.editions.values() else ''}]"
        echo(f"{doc.source}: {doc.kind}{where if edition else ''}: {figures}", newlines=False)
    for line in edition_lines(kb):
        echo(line, newlines=False)
    if (lexicon := lexicon_summary(kb)) is not None:
        sizes = ", ".join(f"{n} {c}" for c, n in lexicon["by_category"].items())
        unsure = "; ".join(lexicon["unsure"][:12]) + (" …" if len(lexicon["unsure"]) > 12 else "")
        echo(
            f"lexicon: {lexicon['terms']} terms ({sizes}) from {lexicon['cards']} cards; "
            f"unsure of {len(lexicon['unsure'])}: {unsure} (kb lexicon --unsure lists them)",
            newlines=False,
        )
    click.echo(f"{totals['error']} errors, {totals['warning']} warnings, {totals['note']} notes")
    return exit_status(totals, strict)
