"""Classify comprehensive-rules lines: an ordered table of small line rules.

Splitting a document into typed lines is kept apart from building records (see `rules.py`).
Each rule states its grammar in its docstring; the first rule that matches wins. The patterns match a line without
its trailing white space (`str.rstrip`, then `fullmatch`): a pattern ending in `(.*\\S)?\\s*$` would backtrack over a
long run of spaces, in time growing with the square of its length. A pattern starting with white space starts only
where a run of it starts (`(?<!\\s)`), so that even searched it is never tried from each space of a run.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass

from kb.parse.markers import NEVER, markers_for

RULE_KINDS = frozenset(("section", "rule", "numbered", "subrule"))
"""The kinds of line that open a rule."""
HEADINGS = ("contents", "glossary", "credits", "introduction")
"""The headings of a rules file, by their names in `kb.parse.markers.Markers`."""


@dataclass(frozen=True, slots=True)
class Line:
    """One classified physical line."""

    kind: str
    """blank, heading, section, rule, numbered, subrule, example, text."""
    lineno: int
    """1-based line number."""
    raw: str
    """The line as decoded."""
    number: str = ""
    """Rule number without trailing dot (rule lines)."""
    dotted: bool = False
    """Whether a dot follows the number (`120.1.`)."""
    text: str = ""
    """What follows the number, or the example text, or the heading name."""
    indented: bool = False
    """Whether the line starts with white space (an indented paragraph)."""
    damage: str = ""
    """How a damaged number is written: `split` (`702. 37a`), `glued` (`901.4.All`), `gap` (`306.b`); else empty."""

    @property
    def written(self) -> str:
        """The number as written at the start of the line (`702. 37a`, `901.4.`); empty on other lines."""
        raw = self.raw.strip()
        return raw[: len(raw) - len(self.text)].strip() if self.kind in RULE_KINDS else ""


EMPTY_LINE = Line("blank", 0, "")
"""Every empty line (most blank lines): one object, its line number unused, so that a file of many empty lines costs
a pointer for each."""


def blank(raw: str, n: int) -> Line | None:
    """blank := white space only"""
    if not raw:
        return EMPTY_LINE
    return Line("blank", n, raw) if raw.isspace() else None


def heading(raw: str, n: int, names: dict[str, str], longest: int) -> Line | None:
    """heading := Contents | Glossary | Credits | Introduction (in the file's language), alone on the line"""
    if len(raw) > longest + 8:  # most lines: a heading is one to three short words (8: spaces and a colon)
        return None
    name = names.get(raw.strip().rstrip(":：").strip().lower())
    return Line("heading", n, raw, text=name) if name else None


_SUBRULE = re.compile(r"(?<!\s)\s*(\d{3}\.\d+[a-z])(\.?)(?:\s+(.*\S))?")


def subrule(raw: str, n: int) -> Line | None:
    """subrule := ddd.d+ letter [.] [text]   (`120.2a If…`; `119.1d.` is a typo kept with a warning)"""
    m = _SUBRULE.fullmatch(raw.rstrip())
    return Line("subrule", n, raw, m.group(1), bool(m.group(2)), m.group(3) or "") if m else None


_NUMBERED = re.compile(r"(?<!\s)\s*(\d{3}\.\d+)(\.?)(?:\s+(.*\S))?")


def numbered(raw: str, n: int) -> Line | None:
    """numbered := ddd.d+ [.] [text]   (`120.1. A player…`, `120.2 Les cartes…`, `120.1.` alone)"""
    m = _NUMBERED.fullmatch(raw.rstrip())
    return Line("numbered", n, raw, m.group(1), bool(m.group(2)), m.group(3) or "") if m else None


DAMAGES = {
    "split": "has a space inside its number",
    "glued": "has no space between its number and its text",
    "gap": "lacks part of its number",
}
"""Each kind of damaged number, in words (for diagnostics)."""
_DAMAGED = re.compile(
    r"(?<!\s)\s*(\d{3})\.(?:\s+(\d+[a-z]?)\.?\s+(\S.*)|(\d+[a-z]?)\.([A-Za-z“\"‘'(].*)|([a-z])\s+(\S.*))"
)


def damaged(raw: str, n: int) -> Line | None:
    """damaged := ddd. d+[letter] text (split) | ddd.d+[letter].Text (glued) | ddd.letter text (gap)

    Typos of real editions: `702. 37a Storm…` (2009), `901.4.All plane…` (2022-2025), `306.b If…` (2008).
    The number is read literally (`306.b` keeps its gap); the parser checks it against the neighbouring rules.
    """
    m = _DAMAGED.fullmatch(raw.rstrip())
    if m is None:
        return None
    head, split, split_text, glued, glued_text, letter, gap_text = m.groups()
    if split:
        number, body, damage = f"{head}.{split}", split_text, "split"
    elif glued:
        number, body, damage = f"{head}.{glued}", glued_text, "glued"
    else:
        number, body, damage = f"{head}.{letter}", gap_text, "gap"
    kind = "subrule" if number[-1].isalpha() else "numbered"
    return Line(kind, n, raw, number, True, body, damage=damage)


_RULE = re.compile(r"(?<!\s)\s*(\d{3})\.(?:\s+(.*\S))?")


def rule(raw: str, n: int) -> Line | None:
    """rule := ddd. [title]   (`120. Drawing a Card`)"""
    m = _RULE.fullmatch(raw.rstrip())
    return Line("rule", n, raw, m.group(1), True, m.group(2) or "") if m else None


_SECTION = re.compile(r"(?<!\s)\s*(\d)\.\s+(\D.*\S)")


def section(raw: str, n: int) -> Line | None:
    """section := d. title   (`1. Game Concepts`); a title never starts with a digit"""
    m = _SECTION.fullmatch(raw.rstrip())
    return Line("section", n, raw, m.group(1), True, m.group(2)) if m else None


def example(raw: str, n: int, pattern: re.Pattern[str]) -> Line | None:
    """example := Example (in the file's language) [space] : text"""
    m = pattern.fullmatch(raw.rstrip())
    return Line("example", n, raw, text=m.group(1) or "") if m else None


def text(raw: str, n: int) -> Line:
    """text := anything else"""
    return Line("text", n, raw, text=raw.strip(), indented=raw[:1].isspace())


LineRule = Callable[[str, int], Line | None]


@functools.cache
def line_rules(lang: str) -> tuple[LineRule, ...]:
    """The line rules in order, `heading` and `example` with the marker words of `lang` (none without a table)."""
    markers = markers_for(lang)
    names = {word: name for name in HEADINGS for word in getattr(markers, name)} if markers else {}
    examples = "|".join(map(re.escape, sorted(markers.example, key=len, reverse=True))) if markers else ""
    pattern = re.compile(rf"(?<!\s)\s*(?:{examples})\s*[:：]\s*(.*\S)?") if examples else NEVER
    return (
        blank,
        functools.partial(heading, names=names, longest=max(map(len, names), default=-9)),
        subrule,
        numbered,
        damaged,
        rule,
        section,
        functools.partial(example, pattern=pattern),
    )


def classify(raw: str, n: int, rules: tuple[LineRule, ...]) -> Line:
    """Apply the line rules in order; fall back to text."""
    for line_rule in rules:
        found = line_rule(raw, n)
        if found is not None:
            return found
    return text(raw, n)


def classify_all(lines: tuple[str, ...], lang: str) -> list[Line]:
    """Classify every line of a document in `lang` (line numbers are 1-based)."""
    rules = line_rules(lang)
    return [classify(raw, i, rules) for i, raw in enumerate(lines, 1)]


def next_number(lines: list[Line], i: int) -> str | None:
    """Return the number of the next well-formed rule line after index `i`, within this part of the file."""
    for line in lines[i + 1 : i + 400]:
        if line.kind == "heading":
            return None
        if line.kind in RULE_KINDS and not line.damage:
            return line.number
    return None
