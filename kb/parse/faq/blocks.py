"""Split an FAQ into paragraphs and build texts that remember their source lines.

Grammar: `-----` lines separate blocks; blank lines separate paragraphs; a `* ` bullet line always starts a
new paragraph. Building records from the paragraphs is `faq.py`'s job.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from kb.parse.cardtext import BULLET

SEPARATOR = re.compile(r"^\s*-{3,}\s*$")

Positions = tuple[tuple[int, int], ...]
"""(offset in a record's text, 1-based source line) pairs, by increasing offset."""


@dataclass(frozen=True, slots=True)
class Para:
    """A run of non-blank lines (a bullet line always starts a new one)."""

    line: int
    """1-based line of its first line."""
    lines: tuple[str, ...]
    """Its lines, stripped."""
    first: bool
    """True when it opens a `-----` block."""
    last_block: bool
    """True when it is in the block after the last separator."""


def paragraphs(lines: Sequence[str]) -> Iterator[Para]:
    """Split lines into paragraphs at blank lines, separators and bullet lines, one at a time (a file's lines are
    read twice, and never all held by paragraphs)."""
    last_sep = max((i for i, text in enumerate(lines) if SEPARATOR.match(text)), default=-1)
    run: list[str] = []
    start, first = 0, True
    for i, raw in enumerate(lines):
        text = raw.strip()
        ends = SEPARATOR.match(text) or not text or (run and BULLET.match(text))
        if ends and run:
            yield Para(start + 1, tuple(run), first, start > last_sep)
            first, run = False, []
        if SEPARATOR.match(text):
            first = True
            continue
        if not text:
            continue
        if not run:
            start = i
        run.append(text)
    if run:
        yield Para(start + 1, tuple(run), first, start > last_sep)


@dataclass(slots=True)
class TextBuilder:
    """A text built from paragraphs (joined by `\\n`, their lines by a space) that remembers its lines."""

    parts: list[str] = field(default_factory=list)
    """The pieces of the text so far, joined when it is read (adding to a string copies it: quadratic)."""
    size: int = 0
    """The length of the text so far."""
    marks: list[int] = field(default_factory=list)
    """Where each source line starts in `text`: offset, line, offset, line… (flat: no pair per line while the
    whole file is read; `pairs` makes the `Positions`)."""

    def pairs(self) -> Positions:
        """The marks as (offset, line) pairs."""
        return tuple(zip(self.marks[::2], self.marks[1::2], strict=True))

    @property
    def text(self) -> str:
        """The text so far."""
        if len(self.parts) > 1:
            self.parts[:] = ["".join(self.parts)]
        return self.parts[0] if self.parts else ""

    def _append(self, piece: str) -> None:
        """Add a piece at the end of the text."""
        self.parts.append(piece)
        self.size += len(piece)

    def add(self, para: Para, bullet: bool = False) -> None:
        """Append a paragraph (without its `* ` when it is a bullet)."""
        if self.marks:
            self._append("\n")
        for i, line in enumerate(para.lines):
            if i:
                self._append(" ")
            self.marks += (self.size, para.line + i)
            self._append(BULLET.sub("", line) if bullet and i == 0 else line)


def line_at(positions: Positions, offset: int, default: int) -> int:
    """Return the source line holding a character offset of a record's text (`default` when unknown)."""
    line = default
    for start, number in positions:
        if start > offset:
            break
        line = number
    return line
