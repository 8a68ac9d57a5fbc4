"""`kb check`: parse and link the content, list every diagnostic and counts per document."""

from __future__ import annotations

from pathlib import Path

import click

from kb.commands.options import content_option, diagnostics, echo, json_text, load_or_exit, locator
from kb.export.summary import all_document_counts, edition_lines, lexicon_summary


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
