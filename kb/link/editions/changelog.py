"""A diff between two editions made readable: what kind of change each one is, typography set aside, runs of
renumberings, rules moved across sections.

Kinds, in the order a reader wants them: substantive changes (`wording`, `added`, `removed`, `moved`, `split`,
`merged`), then edits that only follow a renumbered reference (`reference`), then pure renumberings
(`renumbering`), the last collapsed into runs of neighbouring rules (`613.2–613.9 → 613.3–613.10`).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from kb.model.numbers import LETTERS, parent_of

SUBSTANTIVE = ("wording", "added", "removed", "moved", "split", "merged")
"""Kinds of change that alter what the rules say."""
KINDS = (*SUBSTANTIVE, "reference", "renumbering")
"""Every kind, in reading order."""

_TYPOGRAPHY = (("’", "'"), ("‘", "'"), ("“", '"'), ("”", '"'), ("–", "-"), ("—", "-"), ("−", "-"), ("…", "..."),
               ("\u00a0", " "), ("_", ""), ("--", "-"))  # fmt: skip
"""Typographic variants and what they fold to (plain `str.replace`: far faster than `str.translate` with a dict)."""
_MARKS = re.compile(r"(?:™|®|\((?:tm|r)\))", re.IGNORECASE)
_SPACES = re.compile(r"\s+")
_TOKEN = re.compile(r"\d+(?:\.\d+[a-z]?)?\s*|\w+(?:\((?:tm|r)\)|[™®])?\s*|[^\w\s]\s*|\s+", re.IGNORECASE)
"""Diff tokens: a rule number is one token (`701.24`, never `701` `.` `24`), a trademark sign part of its word."""
_REFERENCE = re.compile(r"(?<![\w.])\d{3}(?:\.\d+[a-z]?)?(?![\w])")
"""A rule number cited in a text."""


def fold(text: str) -> str:
    """A text with its typography folded: curly and straight quotes, dashes, spaces alike; trademark signs
    (™, (tm), ®, (r), present or not) and the underscores older editions set titles in italics with left out."""
    for variant, plain in _TYPOGRAPHY:
        if variant in text:
            text = text.replace(variant, plain)
    text = _MARKS.sub("", text) if "(" in text or "™" in text or "®" in text else text
    return _SPACES.sub(" ", text).strip()


def folded_diff(old: str, new: str) -> tuple[tuple[str, str], ...]:
    """A word diff comparing folded words and showing the real ones (the new text's where they are equal)."""
    from rapidfuzz.distance import Indel

    a, b = _TOKEN.findall(old), _TOKEN.findall(new)
    ops: list[tuple[str, str]] = []
    for tag, i1, i2, j1, j2 in Indel.opcodes([_token_key(t) for t in a], [_token_key(t) for t in b]):
        if tag == "equal":
            _add(ops, "equal", "".join(b[j1:j2]))
        else:
            _add(ops, "delete", "".join(a[i1:i2]))
            _add(ops, "insert", "".join(b[j1:j2]))
    return _grouped(ops)


@functools.lru_cache(maxsize=1 << 16)
def _token_key(token: str) -> str:
    """What a diff compares of a token: its folded form (a space stays itself); tokens repeat, so it is cached."""
    return fold(token) or token


def _add(ops: list[tuple[str, str]], op: str, text: str) -> None:
    """Append an op, joined to the previous one of the same kind."""
    if text:
        if ops and ops[-1][0] == op:
            ops[-1] = (op, ops[-1][1] + text)
        else:
            ops.append((op, text))


def _grouped(ops: list[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    """Between two equal runs, what the old text loses first, then what the new one gains."""
    out: list[tuple[str, str]] = []
    lost, gained = "", ""
    for op, text in ops:
        if op == "delete":
            lost += text
        elif op == "insert":
            gained += text
        else:
            _add(out, "delete", lost)
            _add(out, "insert", gained)
            lost, gained = "", ""
            _add(out, "equal", text)
    _add(out, "delete", lost)
    _add(out, "insert", gained)
    return tuple(out)


def references_followed(old: str, new: str, renumbered: dict[str, str]) -> tuple[tuple[str, str], ...] | None:
    """The (old, new) numbers of the references a text changed by, when renumbering them is its only change
    (`renumbered`: old number -> new number of the rules that moved); None when the text changed otherwise."""
    followed: dict[str, str] = {}

    def swap(match: re.Match) -> str:
        number = match.group(0)
        target = renumbered.get(number, number)
        if target != number:
            followed[number] = target
        return target

    mapped = _REFERENCE.sub(swap, old)
    return tuple(followed.items()) if followed and fold(mapped) == fold(new) else None


_GENDERED = re.compile(r"\b(?:himself or herself|his or hers|his or her|him or her|he or she)\b", re.IGNORECASE)
_NEUTRAL = {
    "himself or herself": "themselves",
    "his or hers": "theirs",
    "his or her": "their",
    "him or her": "them",
    "he or she": "they",
}
"""The gendered pairs the rules replaced by singular `they` (2017 on), and what each became."""
_THEY_VERB = re.compile(r"\b(they )([\w’']+)", re.IGNORECASE)
_AGREEMENT = {
    "is": "are",
    "has": "have",
    "was": "were",
    "does": "do",
    "doesn’t": "don’t",
    "doesn't": "don't",
    "isn’t": "aren’t",
    "isn't": "aren't",
    "hasn’t": "haven’t",
    "hasn't": "haven't",
    "wasn’t": "weren’t",
    "wasn't": "weren't",
}
"""A verb after `he or she` and after `they`: the same verb."""


def pronouns_only(old: str, new: str, renumbered: dict[str, str] | None = None) -> bool:
    """Whether a text changed only by writing `they`, `their`, `them` for `he or she`, `his or her`, `him or her` (the
    verb agreeing: `he or she controls` -> `they control`), and by following renumbered rules it cites."""
    lower = old.lower()
    if " or she" not in lower and " or her" not in lower:  # most texts: no pair to write otherwise
        return False
    if renumbered:
        old = _REFERENCE.sub(lambda m: renumbered.get(m.group(0), m.group(0)), old)
    if fold(old) == fold(new):
        return False
    return _neutral(old) == _neutral(new)


def _neutral(text: str) -> str:
    """A text with its gendered pairs written as `they` and the verbs after `they` in one form, folded and lowercase."""
    text = _GENDERED.sub(lambda m: _NEUTRAL[m.group(0).lower()], text)
    return fold(_THEY_VERB.sub(lambda m: m.group(1) + _verb(m.group(2).lower()), text)).lower()


def _verb(word: str) -> str:
    """A verb after `they`, agreeing as with a plural subject (`controls` -> `control`; `is` -> `are`)."""
    if word in _AGREEMENT:
        return _AGREEMENT[word]
    if word.endswith("ies"):
        return word[:-3] + "y"
    if re.search(r"(?:ss|sh|ch|x|o)es$", word):
        return word[:-2]
    return word[:-1] if word.endswith("s") and not word.endswith("ss") else word


def section_of(number: str) -> str:
    """The section a rule belongs to (`702.9b` -> `7`)."""
    return number[:1]


@dataclass(frozen=True, slots=True)
class Run:
    """Neighbouring rules renumbered alike, their texts unchanged."""

    old: tuple[str, str]
    """First and last old numbers."""
    new: tuple[str, str]
    """First and last new numbers."""
    count: int
    """Rules in the run."""

    def shown(self, arrow: str = "→") -> str:
        """`613.2–613.9 → 613.3–613.10`, or `613.2 → 613.3` for one rule."""
        return f"{_span(self.old)} {arrow} {_span(self.new)}"


def _span(pair: tuple[str, str]) -> str:
    """`613.2–613.9`, or `613.2` alone."""
    return pair[0] if pair[0] == pair[1] else f"{pair[0]}–{pair[1]}"


def _place(number: str) -> int | None:
    """A number's place among its siblings (`613.9` -> 9, `702.9c` -> 2), None for a rule or section."""
    if "." not in number:
        return None
    tail = number.split(".", 1)[1]
    return LETTERS.find(tail[-1]) if tail[-1].isalpha() else int(tail)


def _follows(prev: tuple[str, str], pair: tuple[str, str]) -> bool:
    """Whether (old, new) is the next sibling on both sides of (old, new) `prev`, shifted alike."""
    (po, pn), (o, n) = prev, pair
    if parent_of(po) != parent_of(o) or parent_of(pn) != parent_of(n) or kind(po) != kind(o):
        return False
    places = _place(po), _place(o), _place(pn), _place(n)
    return None not in places and places[1] == places[0] + 1 and places[3] == places[2] + 1


def kind(number: str) -> str:
    """`letter` for a subrule, `digit` for a numbered rule (runs never mix them)."""
    return "letter" if number[-1:].isalpha() else "digit"


def _joins(run: list[tuple[str, str]], pair: tuple[str, str]) -> bool:
    """Whether a renumbering continues a run: the next sibling shifted alike (613.3 after 613.2), or a child
    keeping its place under a rule of the run (613.3a -> 613.4a after 613.3 -> 613.4), or the sibling after
    the run's last rule of its kind (613.4 after 613.3, 613.3a)."""
    last = run[-1]
    if _follows(last, pair):
        return True
    old, new = pair
    parents = parent_of(old) or "", parent_of(new) or ""
    if parents in run and old[len(parents[0]) :] == new[len(parents[1]) :]:
        return True
    same = next((p for p in reversed(run) if kind(p[0]) == kind(old) and parent_of(p[0]) == parent_of(old)), None)
    return same is not None and same != last and _follows(same, pair)


def runs(pairs: list[tuple[str, str]]) -> list[Run]:
    """Renumberings (old, new) in the new edition's order, collapsed into runs of neighbours shifted alike."""
    out: list[list[tuple[str, str]]] = []
    for pair in pairs:
        if out and _joins(out[-1], pair):
            out[-1].append(pair)
        else:
            out.append([pair])
    return [Run((g[0][0], g[-1][0]), (g[0][1], g[-1][1]), len(g)) for g in out]
