"""Rule references in running text, in English and French.

Grammar (case-insensitive; `N` is a rule number `704`, `120.2`, `120.2a`, or a section digit):

    ref      := keyword ws item (sep item)*
    keyword  := rule | rules | règle | règles | regle | regles     (items are rule numbers)
              | section | sections                               (items may also be section digits)
    item     := N ( to ( N | digits letter? | letter ) )?          ranges: 601.2g–h, 119.7–8, 613.1a-f
    to       := dash | "through" | "thru" | "to" | "à"             `rules 509.1 through 509.3`, `sections 1–3`
    sep      := "," | ", and" | "and" | "or" | "et" | "ou"

`See rule 704`, `see rules 508.1 and 509.1`, `Cf. règle 504.1`, `voir règles 601.2a–d`,
`(Cf. règle 603, « Gérer les capacités déclenchées. »)` all match through the keyword.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from kb.model.numbers import NUMBER, canonical, number_range

_NUM = rf"{NUMBER}(?!\w|\.\w)"
_SECT = r"\d(?![\w.])"
_DASH = r"\s*[–—-]\s*"
_TO = rf"(?:{_DASH}|\s+(?:through|thru|to|à)\s+)"
_END = r"(?:\d{3}\.\d+[a-z]?|\d{3}|\d+[a-z]?|[a-z])(?![\w])"
_PLAIN = rf"(?:{_NUM}|{_SECT})(?:{_TO}{_END})?"
_ITEM = rf"(?P<first>{_NUM}|{_SECT})(?:{_TO}(?P<last>{_END}))?"
_SEP = r"(?:\s*,\s*(?:(?:and|or|et|ou)\s+)?|\s+(?:and|or|et|ou)\s+)"
_KEYWORD = r"\b(?P<keyword>rules?|r[èe]gles?|sections?)\s+"
REF = re.compile(rf"{_KEYWORD}(?P<items>{_PLAIN}(?:{_SEP}{_PLAIN})*)", re.IGNORECASE)
ITEM = re.compile(_ITEM, re.IGNORECASE)
_KEYWORD_HINT = re.compile(r"rule|r[èe]gle|section", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class RefMatch:
    """One cited number (or range) found in a text."""

    start: int
    """Offset of the number in the text."""
    end: int
    """Offset just past it."""
    targets: tuple[str, ...]
    """Rule numbers it stands for (a range is expanded: `601.2g–h` gives 601.2g, 601.2h)."""


def expand(item: str) -> tuple[str, ...]:
    """Turn one item (`704`, `601.2g–h`, `119.7–8`, `509.1 through 509.3`, `1–3`) into rule numbers."""
    m = ITEM.fullmatch(item.strip())
    if m is None:
        return ()
    if m.group("last") is None:
        return (canonical(m.group("first")),)
    return number_range(m.group("first"), m.group("last"))


def find_references(text: str, lang: str = "en") -> list[RefMatch]:
    """Find every rule number cited in `text` (the grammar above covers both languages)."""
    found: list[RefMatch] = []
    if not _KEYWORD_HINT.search(text):  # most texts cite nothing: skip the full grammar
        return found
    for ref in REF.finditer(text):
        base = ref.start("items")
        sections_allowed = ref.group("keyword").lower().startswith("section")
        for item in ITEM.finditer(ref.group("items")):
            if not sections_allowed and re.fullmatch(_SECT, item.group(0)):
                continue
            targets = expand(item.group(0))
            if not sections_allowed:
                targets = tuple(t for t in targets if len(t) > 1)
            found.append(RefMatch(base + item.start(), base + item.end(), targets))
    return found


def reference_targets(text: str, lang: str = "en") -> list[str]:
    """Return the cited rule numbers in order of first appearance, without repeats."""
    seen: dict[str, None] = {}
    for match in find_references(text, lang):
        for target in match.targets:
            seen.setdefault(target, None)
    return list(seen)
