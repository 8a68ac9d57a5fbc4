"""Rule numbers: the one place that reads, orders and relates them.

Numbering: section `1`, rule `120`, numbered rule `120.2`, subrule `120.2a` (letters skip `l` and `o`).
Users type them in many forms (`règle 703.4k`, `CR 120`, `CR120`, `r120.2a`, `rule 120.2.`, `120.2A`):
`rule_number` reads those, and the site's JavaScript compiles the same pattern (`TYPED_PATTERN`, shipped
in the site's `jump.json`), so the search box and `kb show` accept the same forms.
"""

from __future__ import annotations

import re

LETTERS = "abcdefghijkmnpqrstuvwxyz"
"""Subrule letters, in order (no `l`, no `o`)."""

NUMBER = r"\d{3}(?:\.\d+[a-z]?)?"
"""A rule number inside a pattern (no section digits), without boundaries."""

IN_TEXT = re.compile(r"(?<![\w.])" + NUMBER + r"(?!\w|\.\w)")
"""A rule number standing alone in text: `704`, `120.4`; never part of `2015` or `1000` or `1.5`."""

CITING = r"(?:\(\s*)?(?:(?:see|voir|cf)\.?\s+)?"
"""What a text puts before a rule it cites (`(See rule`, `Cf. règle`): read before a typed number too."""
TYPED_PATTERN = (
    r"^\s*" + CITING + r"(?:(?:cr|comprehensive\s+rules?|rules?|r[èe]gles?|r|section)\s*(?:\.\s*)?)?"
    r"(\d{3}(?:[.,]\d+[a-zA-Z]?)?|\d)\.?\s*(?:\)\s*)?$"
)
r"""What a user types for a rule number, or copies from a text (`(See rule 702.19b)`, `cf. règle 504.1`, the French
decimal comma `702,19`); group 1 is the number. Plain syntax shared with JavaScript. No two runs of white space
touch (`\s*\.?\s*` would try every split of a long run between them: four seconds for 4,000 spaces)."""
_TYPED = re.compile(TYPED_PATTERN, re.IGNORECASE)
_CANONICAL = re.compile(r"(\d)|(\d{3})(?:\.(\d+)([a-z]?))?")


def rule_number(text: str) -> str | None:
    """Return the canonical rule number typed in `text`, or None if it is not a rule number."""
    m = _TYPED.match(text)
    return canonical(m.group(1)) if m else None


def canonical(number: str) -> str:
    """Lower-case the subrule letter, read a decimal comma as a dot and drop a trailing dot (`120,2A.` -> `120.2a`)."""
    return number.rstrip(".").replace(",", ".").lower()


def is_number(text: str) -> bool:
    """Whether `text` is a canonical number (`1`, `120`, `120.2`, `120.2a`)."""
    return _CANONICAL.fullmatch(text) is not None


_SORTABLE = re.compile(r"(\d+)(?:\.(\d+)([a-z]?))?")
_SECTION = re.compile(r"\d")
_RULE = re.compile(r"\d{3}")


MAX_DIGITS = 18
"""Digits read as a number in a part of a rule number; a longer part (a typo, or a text made to hurt: Python refuses
to read more than 4,300 digits) sorts after every shorter one, by its length."""


def digits(part: str) -> int:
    """A part of a rule number as an integer, however many digits it has (see MAX_DIGITS)."""
    return int(part) if len(part) <= MAX_DIGITS else 10**MAX_DIGITS + len(part)


def sort_key(number: str) -> tuple[int, int, int]:
    """Order rule numbers: section 1 < rule 100 < 100.1 < 100.1a < 100.2 < 101."""
    m = _SORTABLE.fullmatch(number)
    if not m:
        return (0, 0, 0)
    head = digits(m.group(1))
    if len(m.group(1)) == 1:
        return (head * 100, -2, -1)
    if m.group(2) is None:
        return (head, -1, -1)
    letter = m.group(3)
    return (head, digits(m.group(2)), LETTERS.find(letter) if letter else -1)


def kind_of(number: str) -> str:
    """Tell section, rule, numbered or subrule from the shape of a number."""
    if _SECTION.fullmatch(number):
        return "section"
    if _RULE.fullmatch(number):
        return "rule"
    return "subrule" if number[-1].isalpha() else "numbered"


def parent_of(number: str) -> str | None:
    """Return the number of the parent (whether or not it exists)."""
    kind = kind_of(number)
    if kind == "subrule":
        return number[:-1]
    if kind == "numbered":
        return number.split(".")[0]
    if kind == "rule":
        return str(int(number) // 100)
    return None


def rule_of(number: str) -> str:
    """The three-digit rule a number belongs to (`120.2a` -> `120`); a section stays itself."""
    return number.split(".")[0]


def descends(number: str, ancestor: str) -> bool:
    """Whether `number` is `ancestor` or lies under it (120.2a under 120.2, 120 and 1; 120.20 not under 120.2)."""
    if number == ancestor:
        return True
    if len(ancestor) == 1:
        return len(number) >= 3 and number[0] == ancestor and number[:3].isdigit()
    if "." not in ancestor:
        return number.split(".")[0] == ancestor
    return number[: len(ancestor)] == ancestor and number[len(ancestor) :].isalpha()


def letter_range(first: str, last: str) -> list[str]:
    """Expand subrule letters `g`..`h` (case-insensitive), skipping l and o."""
    first, last = first.lower(), last.lower()
    a, b = LETTERS.find(first), LETTERS.find(last)
    if a < 0 or b < 0 or b < a:
        return [c for c in (first, last) if c in LETTERS]
    return list(LETTERS[a : b + 1])


def number_range(first: str, last: str) -> tuple[str, ...]:
    """Expand a range between two numbers (`509.1`..`509.3`, `601.2g`..`h`, `119.7`..`8`, `1`..`3`).

    `last` may be a whole number or an abbreviated end (a letter, or the numbered part). A range that cannot
    be read gives its two ends; a reversed or huge one (over 100 steps) gives its two ends too.
    """
    first, last = canonical(first), canonical(last)
    sub = re.fullmatch(r"(\d{3}\.\d+)([a-z])", first)
    if sub and re.fullmatch(r"[a-z]", last):
        return tuple(sub.group(1) + c for c in letter_range(sub.group(2), last))
    if sub and re.fullmatch(r"\d{3}\.\d+[a-z]", last) and last[:-1] == sub.group(1):
        return tuple(sub.group(1) + c for c in letter_range(sub.group(2), last[-1]))
    num = re.fullmatch(r"(\d{3})\.(\d+)", first)
    if num and re.fullmatch(r"\d+", last):
        last = f"{num.group(1)}.{last}"
    if num and re.fullmatch(r"\d{3}\.\d+", last) and rule_of(last) == num.group(1):
        lo, hi = digits(num.group(2)), digits(last.split(".")[1])
        if 0 < hi - lo < 100 and hi < 10**MAX_DIGITS:
            return tuple(f"{num.group(1)}.{k}" for k in range(lo, hi + 1))
    if re.fullmatch(r"\d{3}", first) and re.fullmatch(r"\d{3}", last) and 0 < int(last) - int(first) < 100:
        return tuple(str(k) for k in range(int(first), int(last) + 1))
    if re.fullmatch(r"\d", first) and re.fullmatch(r"\d", last) and int(first) < int(last):
        return tuple(str(k) for k in range(int(first), int(last) + 1))
    return (first, last) if is_number(last) else (first,)
