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


KIND_NAMES = {"wording": "wording", "added": "added", "removed": "removed", "moved": "moved", "split": "split",
              "merged": "merged", "reference": "references only", "renumbering": "renumbered only"}  # fmt: skip
STATUSES = ("added", "removed", "renumbered", "changed", "split", "merged")


@click.command(name="diff")
@content_option
@click.argument("old")
@click.argument("new")
@click.option("--json", "as_json", is_flag=True, help="Print the changes as JSON.")
@click.option(
    "--only",
    type=click.Choice([*STATUSES, "wording", "moved", "reference", "renumbering"]),
    multiple=True,
    help="List only these statuses or kinds of change (repeatable); the counts always cover everything.",
)
def command(content: Path | None, old: str, new: str, as_json: bool, only: tuple[str, ...]) -> None:
    """Compare two editions of one language, OLD then NEW, by id (`en:2015-09-26`) or date (`2015-09-26`).

    Substantive changes first, section by section: wording changed (a word diff: [-old-]{+new+}), rules added
    and removed (with their text), moved elsewhere, split and merged. Then the rules whose text changed only
    by following a renumbered reference (701.24 -> 701.25), then the pure renumberings collapsed into runs
    (613.2–613.9 -> 613.3–613.10). Typography alone (quotes, dashes, ™/(tm), ®/(r)) is never a change. Rules
    are followed through every edition loaded in between. Exit status 2 when the editions cannot be compared."""
    from kb.export.json import diff_json
    from kb.link.editions.history import HistoryError, compare

    kb = load_or_exit(content)
    try:
        diff = compare(kb, old, new)
    except HistoryError as err:
        echo(f"kb: {err}", err=True, newlines=False)
        sys.exit(2)
    if as_json:
        click.echo(json_text(diff_json(diff, kb, only)))
        return
    for line in diff_lines(diff, kb, only):
        echo(line, newlines=line.startswith("    "))


def diff_lines(diff, kb, only: tuple[str, ...] = ()) -> list[str]:
    """`kb diff` as lines: the counts, substantive changes by section, references followed, renumbering runs."""
    from kb.link.editions.changelog import SUBSTANTIVE
    from kb.link.editions.history import title_of

    counts, kinds = diff.counts(), diff.kinds()
    said = {"changed": "changed in place", "renumbered": "renumbered (changed or not)"}
    lines = [f"{diff.old} -> {diff.new}: " + ", ".join(f"{n} {said.get(s, s)}" for s, n in counts.items())]
    lines.append("  by kind: " + ", ".join(f"{n} {KIND_NAMES[kind]}" for kind, n in kinds.items()))
    if diff.typography:
        lines.append(f"  {diff.typography} rules differ in typography alone (quotes, dashes, ™, ®): counted unchanged")
    shown = [c for c in diff.changes if not only or c.status in only or c.kind in only]
    section = None
    substantive = [c for c in shown if c.kind in SUBSTANTIVE]
    if substantive:
        lines += ["", f"Substantive changes ({len(substantive)})"]
    for i, change in enumerate(substantive):
        here = _group(change)
        if here != section:
            section = here
            title = title_of(kb, diff.new if change.new else diff.old, here[0])
            count = next((j for j, c in enumerate(substantive[i:]) if _group(c) != here), len(substantive) - i)
            gone = f", {diff.old}'s rules removed" if here[1] else ""
            lines += ["", f"Section {here[0]}{f'. {title}' if title else ''}{gone} ({count})"]
        lines += _change_lines(change, kb, diff)
    refs = [c for c in shown if c.kind == "reference"]
    if refs:
        lines += ["", f"References updated only ({len(refs)}): the text follows a renumbered rule it cites"]
        for c in refs:
            head = c.new if c.old == c.new else f"{c.old} -> {c.new}"
            lines.append(f"~ {head}: " + ", ".join(f"{a} -> {b}" for a, b in c.references))
    renumbered = [c for c in shown if c.kind == "renumbering"]
    if renumbered:
        runs = changelog_runs(renumbered)
        lines += ["", f"Renumbered only ({len(renumbered)} rules in {len(runs)} runs): same text, new number"]
        lines += [f"  {run.shown('->')}" for run in runs]
    return lines


def _group(change) -> tuple[str, bool]:
    """The group a substantive change is listed in: its section, and whether it is a removal (removals come last,
    by their old section)."""
    from kb.link.editions.changelog import section_of

    return section_of(change.new or change.old), change.new is None


def changelog_runs(changes) -> list:
    """Runs of the pure renumberings listed."""
    from kb.link.editions.changelog import runs

    return runs([(c.old, c.new) for c in changes])


UNSURE = 0.7
"""A link followed below this confidence says so (`kb show --history` and the site follow the same links)."""


def _kind(change) -> str:
    """A change's kind, and how sure the link is when it is not sure (`moved, confidence 0.45`)."""
    return change.kind + (f", confidence {change.confidence:.2f}" if change.confidence < UNSURE else "")


def _change_lines(change, kb, diff) -> list[str]:
    """One substantive change: its head (sign, numbers, kind, the rule's title), then its diff or its text."""
    from kb.link.editions.history import title_of

    title = title_of(kb, diff.new if change.new else diff.old, change.new or change.old)
    tail = f" — {title}" if title else ""
    if change.kind == "added":
        head = f"+ {change.new} (added){tail}"
    elif change.kind == "removed":
        head = f"- {change.old} (removed){tail}"
    elif change.old != change.new:
        head = f"{'>' if change.kind == 'moved' else '~'} {change.old} -> {change.new} ({_kind(change)}){tail}"
    else:
        head = f"~ {change.new} ({_kind(change)}){tail}"
    body = diff_text(change.diff) if change.diff else change.text
    return [head] + (["    " + body.replace("\n", "\n    ")] if body else [])
