"""The parts of a rules file in a language without marker words, told by the shape of its contents listing.

An official rules file lists its headings twice: in its contents (`1. Game Concepts`, `100. General`, …, then
`Glossary` and `Credits`) and in its body. Without the language's words for `Contents`, the listing is found as
the run of headings that starts with the first section heading and ends where its number comes again (the
titles may differ: the 2009 English edition lists `1. Game Concepts`, then heads its body `1. The Game`); the
first two entries after its last rule heading name the glossary and the credits, in that order (older editions
list more after them: `Questions?`).
"""

from __future__ import annotations

from dataclasses import replace

from kb.parse.cr.lines import RULE_KINDS, Line

HEADINGS = ("section", "rule")
"""The kinds of line a contents listing repeats."""


def contents_listing(lines: list[Line]) -> tuple[int, int]:
    """Where the contents listing starts and ends (the index of the body's first heading); (-1, -1) for none.

    The first rule line must be a section heading whose number comes again before any numbered rule."""
    first = next((i for i, line in enumerate(lines) if line.kind in RULE_KINDS), -1)
    if first < 0 or lines[first].kind != "section":
        return -1, -1
    number = lines[first].number
    for i in range(first + 1, len(lines)):
        line = lines[i]
        if line.kind in ("numbered", "subrule"):
            return -1, -1
        if line.kind == "section" and line.number == number:
            return first, i
    return -1, -1


def mark_parts(lines: list[Line], start: int, end: int) -> list[Line]:
    """The lines, with the glossary and credits headings named by the listing's entries after its headings marked
    as such (alone on their line, from the listing on); unchanged unless the listing has two such entries."""
    listed = lines[start:end]
    last = max(i for i, line in enumerate(listed) if line.kind in HEADINGS)
    names = [line.text for line in listed[last + 1 :] if line.kind == "text"]
    if len(names) < 2 or names[0] == names[1]:
        return lines
    parts = {names[0]: "glossary", names[1]: "credits"}
    return lines[:start] + [
        replace(line, kind="heading", text=parts[line.text]) if line.kind == "text" and line.text in parts else line
        for line in lines[start:]
    ]
