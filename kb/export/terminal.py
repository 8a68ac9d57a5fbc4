"""What text views need to reach a terminal: the content's control characters escaped, marks for what a diff
deletes and inserts (colours on a terminal, `[-…-]` and `{+…+}` elsewhere), and wrapping that counts only the
characters a reader sees."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

BIDI = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
"""Bidirectional controls: a terminal obeys them (U+202E turns the rest of a line around), so a text can hide what
it says."""
CONTROL = re.compile(rf"[\x00-\x08\x0b-\x1f\x7f-\x9f{BIDI}]")
"""Control characters (C0 but tab and newline, DEL, C1) and bidirectional controls: a terminal would act on them
(`\\x1b]0;…\\x07`)."""
_CONTROL_AND_NEWLINE = re.compile(rf"[\x00-\x08\x0a-\x1f\x7f-\x9f{BIDI}]")
NAMED = {"\r": "\\r", "\n": "\\n"}
_PIECE = re.compile(r"\S+\s*|\s+")


def printable(text: str, newlines: bool = True) -> str:
    """Text safe for a terminal: control characters from the content shown escaped (`\\x1b`), never emitted.

    Tabs stay; newlines stay unless `newlines` is False (one diagnostic, one line).
    """
    pattern = CONTROL if newlines else _CONTROL_AND_NEWLINE
    return pattern.sub(_escaped, text)


def _escaped(m: re.Match[str]) -> str:
    """A control character as the escape that shows it (`\\x1b`, `\\u202e`)."""
    char = m.group()
    return NAMED.get(char) or (f"\\x{ord(char):02x}" if ord(char) < 0x100 else f"\\u{ord(char):04x}")


@dataclass(frozen=True, slots=True)
class Marks:
    """How a view marks text: (before, after) for each style; `visible` when the marks are characters a reader
    sees (and wrapping counts), not a terminal's colour codes."""

    delete: tuple[str, str]
    insert: tuple[str, str]
    strong: tuple[str, str]
    dim: tuple[str, str]
    visible: bool

    def __call__(self, style: str, text: str) -> str:
        """`text` in a style (`delete`, `insert`, `strong`, `dim`, or `equal`: as it is)."""
        if style == "equal" or not text:
            return text
        before, after = getattr(self, style)
        return f"{before}{text}{after}"


PLAIN = Marks(("[-", "-]"), ("{+", "+}"), ("", ""), ("", ""), True)
"""Marks for a file, a pipe, or `NO_COLOR`: `[-deleted-]{+inserted+}`."""
RESET = "\x1b[0m"
COLOUR = Marks(("\x1b[31;9m", RESET), ("\x1b[32;4m", RESET), ("\x1b[1m", RESET), ("\x1b[2m", RESET), False)
"""Marks for a terminal: deletions red and struck through, insertions green and underlined (told apart without
colour too), titles bold."""


def wrap_styled(pieces: Iterable[tuple[str, str]], width: int, indent: str = "", marks: Marks = PLAIN) -> list[str]:
    """Lines of at most `width` visible characters from (style, text) pieces (safe text: already `printable`), each
    starting with `indent`; a style cut by a line end is closed there and opened again on the next line. Newlines in
    a text start a new line; `width` 0 or less: no wrapping."""
    lines: list[list[tuple[str, str]]] = [[]]
    start = len(indent)
    used, limit = start, width if width > 0 else 1 << 30
    for style, text in pieces:
        for n, paragraph in enumerate(text.split("\n")):
            if n:
                lines.append([])
                used = start
            for word in _PIECE.findall(paragraph):
                size = len(word.rstrip()) + _mark_size(lines[-1], style, marks)
                if used + size > limit and used > start and word.strip():
                    _trim(lines[-1])
                    lines.append([])
                    used = start
                if used == start and not word.strip():
                    continue  # no line starts with the spaces between two words
                used += len(word) + _mark_size(lines[-1], style, marks)
                lines[-1].append((style, word))
    return [indent + _join(line, marks) for line in lines]


def _mark_size(line: list[tuple[str, str]], style: str, marks: Marks) -> int:
    """Visible characters the marks of a word's style add to a line: 4 for a word opening a run of deleted or
    inserted words (`[-` and `-]`), none within a run or for colours."""
    opens = not line or line[-1][0] != style
    return 4 if marks.visible and opens and style in ("delete", "insert") else 0


def _trim(line: list[tuple[str, str]]) -> None:
    """Drop the spaces that end a line."""
    while line and not line[-1][1].rstrip():
        line.pop()
    if line:
        line[-1] = (line[-1][0], line[-1][1].rstrip())


def _join(line: list[tuple[str, str]], marks: Marks) -> str:
    """One line's pieces, each run of a style marked once (the spaces closing a marked run left outside it)."""
    out: list[str] = []
    runs: list[tuple[str, str]] = []
    for style, text in line:
        if runs and runs[-1][0] == style:
            runs[-1] = (style, runs[-1][1] + text)
        else:
            runs.append((style, text))
    for style, text in runs:
        body = text.rstrip(" ")
        out.append(marks(style, body) + text[len(body) :])
    return "".join(out).rstrip()
