"""Classify comprehensive-rules lines: an ordered table of small line rules.

Splitting a document into typed lines is kept apart from building records (see `rules.py`).
Each rule states its grammar in its docstring; the first rule that matches wins.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

HEADINGS = {
    "contents": ("contents", "table of contents", "sommaire", "table des matières", "table des matieres"),
    "glossary": ("glossary", "glossaire"),
    "credits": ("credits", "crédits", "credit"),
    "introduction": ("introduction",),
}


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


def blank(raw: str, n: int) -> Line | None:
    """blank := white space only"""
    return Line("blank", n, raw) if not raw.strip() else None


def heading(raw: str, n: int) -> Line | None:
    """heading := Contents | Glossary | Credits | Introduction (and French names), alone on the line"""
    key = raw.strip().rstrip(":").strip().lower()
    for name, words in HEADINGS.items():
        if key in words:
            return Line("heading", n, raw, text=name)
    return None


_SUBRULE = re.compile(r"^\s*(\d{3}\.\d+[a-z])(\.?)(?:\s+(.*\S))?\s*$")


def subrule(raw: str, n: int) -> Line | None:
    """subrule := ddd.d+ letter [.] [text]   (`120.2a If…`; `119.1d.` is a typo kept with a warning)"""
    m = _SUBRULE.match(raw)
    return Line("subrule", n, raw, m.group(1), bool(m.group(2)), m.group(3) or "") if m else None


_NUMBERED = re.compile(r"^\s*(\d{3}\.\d+)(\.?)(?:\s+(.*\S))?\s*$")


def numbered(raw: str, n: int) -> Line | None:
    """numbered := ddd.d+ [.] [text]   (`120.1. A player…`, `120.2 Les cartes…`, `120.1.` alone)"""
    m = _NUMBERED.match(raw)
    return Line("numbered", n, raw, m.group(1), bool(m.group(2)), m.group(3) or "") if m else None


_RULE = re.compile(r"^\s*(\d{3})\.(?:\s+(.*\S))?\s*$")


def rule(raw: str, n: int) -> Line | None:
    """rule := ddd. [title]   (`120. Drawing a Card`)"""
    m = _RULE.match(raw)
    return Line("rule", n, raw, m.group(1), True, m.group(2) or "") if m else None


_SECTION = re.compile(r"^\s*(\d)\.\s+(\D.*\S)\s*$")


def section(raw: str, n: int) -> Line | None:
    """section := d. title   (`1. Game Concepts`); a title never starts with a digit"""
    m = _SECTION.match(raw)
    return Line("section", n, raw, m.group(1), True, m.group(2)) if m else None


_EXAMPLE = re.compile(r"^\s*(?:Example|Exemple|Examples|Exemples)\s*:\s*(.*\S)?\s*$")


def example(raw: str, n: int) -> Line | None:
    """example := (Example | Exemple) [space] : text"""
    m = _EXAMPLE.match(raw)
    return Line("example", n, raw, text=m.group(1) or "") if m else None


def text(raw: str, n: int) -> Line:
    """text := anything else"""
    return Line("text", n, raw, text=raw.strip(), indented=raw[:1].isspace())


LINE_RULES: tuple[Callable[[str, int], Line | None], ...] = (
    blank,
    heading,
    subrule,
    numbered,
    rule,
    section,
    example,
)


def classify(raw: str, n: int) -> Line:
    """Apply the line rules in order; fall back to text."""
    for line_rule in LINE_RULES:
        found = line_rule(raw, n)
        if found is not None:
            return found
    return text(raw, n)


def classify_all(lines: tuple[str, ...]) -> list[Line]:
    """Classify every line of a document (line numbers are 1-based)."""
    return [classify(raw, i) for i, raw in enumerate(lines, 1)]
