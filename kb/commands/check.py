"""`kb check`: parse and link the content, list every diagnostic and counts per document."""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import click

from kb.commands.options import content_option, load_or_exit


def document_counts(kb, doc) -> dict[str, int]:
    """Counts for one document: rule kinds, examples, glossary, references; or FAQ records."""
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
    return {
        "cards": len(kb.cards_by_document.get(doc.id, ())),
        "rulings": sum(1 for r in kb.rulings if r.source_document == doc.id),
        "notes": sum(1 for n in kb.notes if n.document == doc.id),
    }


def exit_status(kb, strict: bool) -> int:
    """1 when there are errors (or warnings with --strict), else 0."""
    return 1 if kb.count("error") or (strict and kb.count("warning")) else 0


@click.command(name="check")
@content_option
@click.option("--strict", is_flag=True, help="Also fail (exit 1) on warnings.")
@click.option("--json", "as_json", is_flag=True, help="Print diagnostics and counts as JSON.")
@click.option("--quiet", "-q", is_flag=True, help="Do not list notes, only warnings and errors.")
def command(content: Path | None, strict: bool, as_json: bool, quiet: bool) -> None:
    """Parse and link the content; print every diagnostic as `path:line: severity: message`,
    then counts per document.

    Exit status: 0 without errors, 1 with errors (with --strict, warnings too), 2 when the
    content folder cannot be read."""
    from kb.export.json import diagnostic_json

    kb = load_or_exit(content)
    counts = {doc.id: document_counts(kb, doc) for doc in kb.documents}
    totals = {sev: kb.count(sev) for sev in ("error", "warning", "note")}
    if as_json:
        payload = {
            "diagnostics": [diagnostic_json(d) for d in kb.diagnostics],
            "documents": counts,
            "totals": totals,
            "alignment": kb.links.alignment.editions,
        }
        click.echo(json.dumps(payload, ensure_ascii=False, indent=1))
        sys.exit(exit_status(kb, strict))
    for diag in kb.diagnostics:
        if not (quiet and diag.severity == "note"):
            click.echo(diag.format())
    for doc in kb.documents:
        figures = ", ".join(f"{v} {k.replace('_', ' ')}" for k, v in counts[doc.id].items())
        edition = kb.links.edition_of.get(doc.id)
        where = f" [{edition}{', aligned' if edition in kb.links.alignment.editions.values() else ''}]"
        click.echo(f"{doc.source}: {doc.kind}{where if edition else ''}: {figures}")
    click.echo(f"{totals['error']} errors, {totals['warning']} warnings, {totals['note']} notes")
    sys.exit(exit_status(kb, strict))
