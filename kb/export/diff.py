"""The terminal's view of what changed between two editions (`kb diff OLD NEW`): a summary whose categories add
up, the substantive changes section by section with their word diffs wrapped to the terminal, then the changes
that only follow renumbered references or only write `they` for `he or she` (listed with `--all`), then the pure
renumberings in runs. Text out, never printed here."""

from __future__ import annotations

from dataclasses import dataclass

from kb.export.terminal import PLAIN, Marks, printable, wrap_styled
from kb.link.editions.changelog import SUBSTANTIVE, runs, section_of
from kb.link.editions.history import Change, EditionDiff, title_of
from kb.model.base import KnowledgeBase
from kb.model.numbers import descends
from kb.sources.text import wrap

CATEGORIES = {
    "wording": "reworded",
    "added": "added",
    "removed": "removed",
    "moved": "moved",
    "split": "split",
    "merged": "merged",
    "pronoun": "pronouns only",
    "reference": "references only",
    "renumbering": "renumbered only",
}
"""Each change's one category (a `wording` change only of pronouns is `pronoun`), in reading order, as said."""
MINOR = ("pronoun", "reference")
"""Categories listed only with `--all` (counted always)."""
UNSURE = 0.7
"""A link followed below this confidence says so (`kb show --history` and the site follow the same links)."""


def category(change: Change) -> str:
    """The one category a change is counted in: its kind, `pronoun` for a rewording only of pronouns."""
    return "pronoun" if change.minor == "pronoun" else change.kind


@dataclass(frozen=True, slots=True)
class Scope:
    """The changes a view covers: one section (`7`), one rule and its subrules (`702.19`), or all."""

    section: str | None = None
    rule: str | None = None

    def holds(self, change: Change) -> bool:
        """Whether the change's old or new number is in the scope."""
        numbers = [n for n in (change.old, change.new) if n]
        if self.section is not None and not any(section_of(n) == self.section for n in numbers):
            return False
        return self.rule is None or any(n == self.rule or descends(n, self.rule) for n in numbers)

    def said(self) -> str:
        """The scope in words (`section 7`, `rule 702.19`), or ""."""
        parts = [f"section {self.section}" if self.section else "", f"rule {self.rule}" if self.rule else ""]
        return ", ".join(p for p in parts if p)


def diff_text(ops, marks: Marks = PLAIN) -> str:
    """A word diff as one text: `[-removed-]{+added+}` (or the terminal's colours)."""
    return "".join(marks(op, printable(text)) for op, text in ops)


def summary(diff: EditionDiff, changes: list[Change], scope: Scope, show_all: bool) -> list[str]:
    """The counts: every change once, in one category, substantive ones then minor ones, and what is hidden."""
    counts = dict.fromkeys(CATEGORIES, 0)
    for change in changes:
        counts[category(change)] += 1
    where = f" ({scope.said()})" if scope.said() else ""
    unchanged = f", {diff.unchanged} rules unchanged" if not scope.said() else ""
    lines = [f"{diff.old} -> {diff.new}{where}: {len(changes)} changes{unchanged}"]
    major = sum(counts[k] for k in SUBSTANTIVE)
    said = ", ".join(f"{counts[k]} {CATEGORIES[k]}" for k in SUBSTANTIVE if counts[k])
    lines.append(f"  {major} substantive" + (f": {said}" if said else ""))
    rest = ("pronoun", "reference", "renumbering")
    said = ", ".join(f"{counts[k]} {CATEGORIES[k]}" for k in rest if counts[k])
    lines.append(f"  {sum(counts[k] for k in rest)} minor" + (f": {said}" if said else ""))
    hidden = [f"{counts[k]} {CATEGORIES[k]}" for k in MINOR if counts[k]]
    if hidden and not show_all:
        lines.append(f"  not listed: {', '.join(hidden)} (--all lists them)")
    if diff.typography and not scope.said():
        lines.append(f"  {diff.typography} rules differ in typography alone (quotes, dashes, ™, ®): counted unchanged")
    return lines


def diff_view(
    diff: EditionDiff,
    kb: KnowledgeBase,
    width: int = 100,
    marks: Marks = PLAIN,
    only: tuple[str, ...] = (),
    scope: Scope = Scope(),  # noqa: B008 - frozen
    show_all: bool = False,
) -> str:
    """`kb diff` as text: the summary, substantive changes by section (removals last), then with `show_all` the
    pronoun-only and reference-only changes, then the pure renumberings in runs. `only`: the statuses or kinds
    listed (the counts cover every change in the scope); `width` 0: no wrapping."""
    changes = [c for c in diff.changes if scope.holds(c)]
    lines = [wrapped for line in summary(diff, changes, scope, show_all) for wrapped in _fold(line, width)]
    shown = _shown(changes, only, show_all)
    lines += _substantive(diff, kb, [c for c in shown if category(c) in SUBSTANTIVE], width, marks)
    lines += _minor(diff, kb, shown, width, marks)
    return "\n".join(lines)


def _shown(changes: list[Change], only: tuple[str, ...], show_all: bool) -> list[Change]:
    """The changes listed: those `only` names (statuses, kinds or categories; all when empty), the minor ones only
    with `show_all` or when named."""
    shown = [c for c in changes if not only or c.status in only or c.kind in only or category(c) in only]
    return shown if show_all else [c for c in shown if category(c) not in MINOR or category(c) in only]


def _minor(diff: EditionDiff, kb: KnowledgeBase, shown: list[Change], width: int, marks: Marks) -> list[str]:
    """The pronoun-only and reference-only changes, then the pure renumberings in runs."""
    lines = []
    pronouns = [c for c in shown if category(c) == "pronoun"]
    if pronouns:
        lines += ["", marks("strong", f"Pronouns only ({len(pronouns)}): `they` for `he or she`, and the like")]
        for change in pronouns:
            lines += _change_lines(change, kb, diff, width, marks)
    refs = [c for c in shown if category(c) == "reference"]
    if refs:
        lines += ["", marks("strong", f"References updated only ({len(refs)}): the text follows a renumbered rule")]
        for c in refs:
            head = c.new if c.old == c.new else f"{c.old} -> {c.new}"
            lines.append(f"~ {head}: " + ", ".join(f"{a} -> {b}" for a, b in c.references))
    renumbered = [c for c in shown if c.kind == "renumbering"]
    if renumbered:
        found = runs([(c.old, c.new) for c in renumbered])
        said = f"Renumbered only ({len(renumbered)} rules in {len(found)} runs): same text, new number"
        lines += ["", marks("strong", said)]
        lines += [f"  {run.shown('->')}" for run in found]
    return lines


def _fold(line: str, width: int) -> list[str]:
    """A summary line wrapped to the width, its continuation lines indented under its start."""
    if width <= 0 or len(line) <= width:
        return [line]
    indent = " " * (len(line) - len(line.lstrip()) + 2)
    return wrap(line, width, subsequent_indent=indent, break_on_hyphens=False)


def _substantive(diff: EditionDiff, kb: KnowledgeBase, changes: list[Change], width: int, marks: Marks) -> list[str]:
    """The substantive changes under their sections' headings, each heading counting the changes under it."""
    if not changes:
        return []
    lines = ["", marks("strong", f"Substantive changes ({len(changes)})")]
    section = None
    for i, change in enumerate(changes):
        here = _group(change)
        if here != section:
            section = here
            title = title_of(kb, diff.new if change.new else diff.old, here[0])
            count = next((j for j, c in enumerate(changes[i:]) if _group(c) != here), len(changes) - i)
            gone = f", {diff.old}'s rules removed" if here[1] else ""
            head = f"Section {here[0]}{f'. {printable(title)}' if title else ''}{gone} ({count})"
            lines += ["", marks("strong", head)]
        lines += _change_lines(change, kb, diff, width, marks)
    return lines


def _group(change: Change) -> tuple[str, bool]:
    """The group a substantive change is listed in: its section, and whether it is a removal (removals come last,
    by their old section)."""
    return section_of(change.new or change.old or ""), change.new is None


def _kind(change: Change) -> str:
    """A change's kind, and how sure the link is when it is not sure (`moved, confidence 0.45`)."""
    kind = "pronouns" if change.minor == "pronoun" else "reworded" if change.kind == "wording" else change.kind
    return kind + (f", confidence {change.confidence:.2f}" if change.confidence < UNSURE else "")


def _change_lines(change: Change, kb: KnowledgeBase, diff: EditionDiff, width: int, marks: Marks) -> list[str]:
    """One change: its head (sign, numbers, kind, the rule's title), then its diff or its text, wrapped."""
    title = printable(title_of(kb, diff.new if change.new else diff.old, change.new or change.old or ""))
    tail = f" — {title}" if title else ""
    if change.kind == "added":
        head = f"+ {change.new} (added){tail}"
    elif change.kind == "removed":
        head = f"- {change.old} (removed){tail}"
    elif change.old != change.new:
        head = f"{'>' if change.kind == 'moved' else '~'} {change.old} -> {change.new} ({_kind(change)}){tail}"
    else:
        head = f"~ {change.new} ({_kind(change)}){tail}"
    if change.diff:
        pieces = [(op, printable(text)) for op, text in change.diff]
    else:
        style = "insert" if change.kind == "added" else "delete" if change.kind == "removed" else "equal"
        pieces = [(style if marks is not PLAIN else "equal", printable(change.text))]
    body = wrap_styled(pieces, width, "    ", marks) if any(text for _, text in pieces) else []
    return [*_fold(head, width), *body]
