"""Rule references in running text, in English and French.

Grammar (case-insensitive; `N` is a rule number `704`, `120.2`, `120.2a`, or a section digit):

    ref      := keyword ws item (sep item)*
    keyword  := rule | rules | règle | règles | regle | regles     (items are rule numbers)
              | section | sections                               (items may also be section digits)
    item     := N ( dash ( N | digits letter? | letter ) )?        ranges: 601.2g–h, 119.7–8, 613.1a-f
    sep      := "," | ", and" | "and" | "or" | "et" | "ou" | "through" | "à" | "to"

`See rule 704`, `see rules 508.1 and 509.1`, `Cf. règle 504.1`, `voir règles 601.2a–d`,
`(Cf. règle 603, « Gérer les capacités déclenchées. »)` all match through the keyword.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_NUM = r"\d{3}(?:\.\d+[a-z]?)?(?![\w])"
_SECT = r"\d(?!\d)"
_DASH = r"\s*[–—-]\s*"
_ITEM = rf"(?:{_NUM}|{_SECT})(?:{_DASH}(?:\d{{3}}\.\d+[a-z]?|\d+[a-z]?|[a-z])(?![\w]))?"
_SEP = r"(?:\s*,\s*(?:(?:and|or|et|ou)\s+)?|\s+(?:and|or|et|ou|through|to|à)\s+)"
_KEYWORD = r"\b(?P<keyword>rules?|r[èe]gles?|sections?)\s+"
REF = re.compile(rf"{_KEYWORD}(?P<items>{_ITEM}(?:{_SEP}{_ITEM})*)", re.IGNORECASE)
ITEM = re.compile(_ITEM)
LETTERS = "abcdefghijkmnpqrstuvwxyz"  # subrule letters skip l and o


@dataclass(frozen=True, slots=True)
class RefMatch:
    """One cited number (or range) found in a text."""

    start: int
    """Offset of the number in the text."""
    end: int
    """Offset just past it."""
    targets: tuple[str, ...]
    """Rule numbers it stands for (a range is expanded: `601.2g–h` gives 601.2g, 601.2h)."""


def _letter_range(first: str, last: str) -> list[str]:
    """Expand `g`..`h`, skipping l and o."""
    a, b = LETTERS.find(first), LETTERS.find(last)
    if a < 0 or b < 0 or b < a:
        return [first, last] if a >= 0 and b >= 0 else [c for c in (first, last) if c in LETTERS]
    return list(LETTERS[a : b + 1])


def expand(item: str) -> tuple[str, ...]:
    """Turn one item (`704`, `601.2g–h`, `119.7–8`, `701.27a–f`) into rule numbers."""
    parts = re.split(_DASH, item, maxsplit=1)
    first = parts[0]
    if len(parts) == 1:
        return (first,)
    last = parts[1]
    m = re.fullmatch(r"(\d{3}\.\d+)([a-z])", first)
    if m and re.fullmatch(r"[a-z]", last):
        return tuple(m.group(1) + c for c in _letter_range(m.group(2), last))
    if m and re.fullmatch(r"\d{3}\.\d+[a-z]", last) and last[:-1] == m.group(1):
        return tuple(m.group(1) + c for c in _letter_range(m.group(2), last[-1]))
    n = re.fullmatch(r"(\d{3})\.(\d+)", first)
    if n and re.fullmatch(r"\d+", last) and 0 < int(last) - int(n.group(2)) < 100:
        return tuple(f"{n.group(1)}.{k}" for k in range(int(n.group(2)), int(last) + 1))
    if n and re.fullmatch(r"\d{3}\.\d+", last) and last.split(".")[0] == n.group(1):
        lo, hi = int(n.group(2)), int(last.split(".")[1])
        if 0 < hi - lo < 100:
            return tuple(f"{n.group(1)}.{k}" for k in range(lo, hi + 1))
    return (first, last) if re.fullmatch(_NUM, last) else (first,)


def find_references(text: str, lang: str = "en") -> list[RefMatch]:
    """Find every rule number cited in `text` (the grammar above covers both languages)."""
    found = []
    for ref in REF.finditer(text):
        base = ref.start("items")
        sections_allowed = ref.group("keyword").lower().startswith("section")
        for item in ITEM.finditer(ref.group("items")):
            if not sections_allowed and re.fullmatch(_SECT, item.group(0)):
                continue
            targets = expand(item.group(0))
            found.append(RefMatch(base + item.start(), base + item.end(), targets))
    return found


def reference_targets(text: str, lang: str = "en") -> list[str]:
    """Return the cited rule numbers in order of first appearance, without repeats."""
    seen: dict[str, None] = {}
    for match in find_references(text, lang):
        for target in match.targets:
            seen.setdefault(target, None)
    return list(seen)
