"""`kb diff OLD NEW`: what changed between two editions of the rules (the changelog judges read)."""

from __future__ import annotations

from pathlib import Path

import click

from kb.commands.options import content_option, json_text, load_or_exit, terminal

STATUSES = ("added", "removed", "renumbered", "changed", "split", "merged")
KINDS = ("wording", "moved", "reference", "renumbering", "pronoun")


@click.command(name="diff")
@content_option
@click.argument("old")
@click.argument("new")
@click.option("--json", "as_json", is_flag=True, help="Print the changes as JSON.")
@click.option(
    "--only",
    type=click.Choice([*STATUSES, *KINDS]),
    multiple=True,
    help="List only these statuses or kinds of change (repeatable); the counts always cover everything.",
)
@click.option("--section", default=None, metavar="DIGIT", help="Only the changes of one section (7).")
@click.option("--rule", default=None, metavar="NUMBER", help="Only the changes of one rule and its subrules (702.19).")
@click.option("--all", "show_all", is_flag=True, help="Also list the changes only of pronouns or of references.")
@click.option(
    "--width",
    type=click.IntRange(0, 1000),
    default=None,
    help="Wrap to this width (0: never; default: the terminal's).",
)
def command(
    content: Path | None,
    old: str,
    new: str,
    as_json: bool,
    only: tuple[str, ...],
    section: str | None,
    rule: str | None,
    show_all: bool,
    width: int | None,
) -> None:
    """Compare two editions of one language, OLD then NEW, by id (`en:2015-09-26`) or date (`2015-09-26`).

    First the counts, every change counted once in one category. Then the substantive changes, section by
    section: wording changed (a word diff: [-old-]{+new+}, in colour on a terminal), rules added and removed
    (with their text), moved elsewhere, split and merged. The rules whose text changed only by writing `they`
    for `he or she` (`their` for `his or her`…) or only by following a renumbered reference (701.24 -> 701.25)
    are counted, and listed with --all. Then the pure renumberings collapsed into runs (613.2–613.9 ->
    613.3–613.10). Typography alone (quotes, dashes, ™/(tm), ®/(r)) is never a change. Rules are followed
    through every edition loaded in between. Text wraps to the terminal (--width), in colour unless piped or
    NO_COLOR is set. Exit status 2 when the editions cannot be compared or --section or --rule is no rule number."""
    from kb.commands.options import Mistake
    from kb.export.diff import Scope, diff_view
    from kb.export.json import diff_json
    from kb.export.terminal import COLOUR, PLAIN
    from kb.link.editions.history import compare
    from kb.model.numbers import rule_number

    if section is not None and not (len(section) == 1 and section.isdigit()):
        raise Mistake(f"--section takes a section's digit (1 to 9), not {section!r}")
    number = rule_number(rule) if rule is not None else None
    if rule is not None and not number:
        raise Mistake(f"--rule takes a rule number (702.19), not {rule!r}")
    kb = load_or_exit(content)
    diff = compare(kb, old, new)
    scope = Scope(section, number)
    if as_json:
        click.echo(json_text(diff_json(diff, kb, only, scope.holds)))
        return
    columns, colour = terminal()
    text = diff_view(diff, kb, columns if width is None else width, COLOUR if colour else PLAIN, only, scope, show_all)
    click.echo(text)
