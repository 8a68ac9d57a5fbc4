"""`kb diff OLD NEW`: what changed between two editions of the rules (the changelog judges read)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from kb.commands.options import content_option, echo, json_text, load_or_exit

SYMBOLS = {"delete": ("[-", "-]"), "insert": ("{+", "+}")}


def diff_text(ops) -> str:
    """A word diff as text: `[-removed-]{+added+}`."""
    return "".join(text if op == "equal" else SYMBOLS[op][0] + text + SYMBOLS[op][1] for op, text in ops)


@click.command(name="diff")
@content_option
@click.argument("old")
@click.argument("new")
@click.option("--json", "as_json", is_flag=True, help="Print the changes as JSON.")
@click.option(
    "--only",
    type=click.Choice(["added", "removed", "renumbered", "changed", "split", "merged"]),
    multiple=True,
    help="List only these kinds of change (repeatable); the counts always cover everything.",
)
def command(content: Path | None, old: str, new: str, as_json: bool, only: tuple[str, ...]) -> None:
    """Compare two editions of one language, OLD then NEW, by id (`en:2015-09-26`) or date (`2015-09-26`).

    Lists the rules added, removed, renumbered (old -> new number), changed (a word diff: [-old-]{+new+}),
    split and merged, followed through every edition loaded in between. Exit status 2 when the editions
    cannot be compared."""
    from kb.export.json import diff_json
    from kb.link.history import HistoryError, compare

    kb = load_or_exit(content)
    try:
        diff = compare(kb, old, new)
    except HistoryError as err:
        echo(f"kb: {err}", err=True, newlines=False)
        sys.exit(2)
    if as_json:
        click.echo(json_text(diff_json(diff)))
        return
    counts = diff.counts()
    echo(f"{diff.old} -> {diff.new}: " + ", ".join(f"{n} {status}" for status, n in counts.items()))
    for change in diff.changes:
        if only and change.status not in only:
            continue
        if change.status == "added":
            head = f"+ {change.new}"
        elif change.status == "removed":
            head = f"- {change.old}"
        elif change.old != change.new:
            head = f"~ {change.old} -> {change.new} ({change.status})"
        else:
            head = f"~ {change.new} ({change.status})"
        echo(head, newlines=False)
        if change.diff:
            echo("    " + diff_text(change.diff).replace("\n", "\n    "))
