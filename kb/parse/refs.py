"""Rule references in running text, with the words of the text's language (`kb.parse.markers`).

Grammar (case-insensitive; `N` is a rule number `704`, `120.2`, `120.2a`, or a section digit):

    ref      := keyword ws item (sep item)*
    keyword  := rule | rules | règle | règles | regle | regles | 规则   (items are rule numbers)
              | section | sections                               (items may also be section digits)
    item     := N ( to ( N | digits letter? | letter ) )?          ranges: 601.2g–h, 119.7–8, 613.1a-f
    to       := dash | "through" | "thru" | "to" | "à" | "至"      `rules 509.1 through 509.3`, `sections 1–3`
    sep      := "," | ", and" | "and" | "or" | "et" | "ou" | "、" | "和"

`See rule 704`, `see rules 508.1 and 509.1`, `Cf. règle 504.1`, `voir règles 601.2a–d`,
`(Cf. règle 603, « Gérer les capacités déclenchées. »)`, `参见规则100.1和101.2` all match through the keyword.
In a language that writes words together (Chinese), `ws` may be empty and a number may touch the next word.
Without a language (or for one kb has no table for), the words of every table are tried.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from kb.model.numbers import NUMBER, canonical, number_range
from kb.parse.markers import MARKERS, NEVER, Markers

_DASH = r"\s*[–—-]\s*"
_END = r"(?:\d{3}\.\d+[a-z]?|\d{3}|\d+[a-z]?|[a-z])"


@dataclass(frozen=True, slots=True)
class _Grammar:
    """The reference grammar with one language's words, compiled."""

    ref: re.Pattern[str]
    """A keyword and the items after it."""
    item: re.Pattern[str]
    """One item (a number or a range)."""
    section: re.Pattern[str]
    """The keywords whose items may be section digits."""
    hint: re.Pattern[str]
    """Any keyword: most texts cite nothing, and this spares them the full grammar."""


def _either(*patterns: str) -> str:
    """One expression for several (empty ones left out)."""
    return "|".join(f"(?:{p})" for p in patterns if p)


MAX_ITEMS = 200
"""Items read in one list of cited rules (`rules 100.1, 100.2 and 100.3`): the pattern's memory grows with them."""
MAX_CITED = 1_000
"""Rule numbers read in one text (its ranges expanded); what comes after stays text. A rule of the official editions
cites at most a few dozen: a text of ranges (`100.1-99, ` over and over) would make a hundred numbers of every
eight characters."""


def _compile(tables: tuple[Markers, ...]) -> _Grammar:
    """The grammar with the words of `tables` (words apart when they all write them so)."""
    spaced = all(t.spaced for t in tables)
    word = r"\w" if spaced else "[0-9A-Za-z]"  # Chinese characters are `\w` too: a number may touch them
    num = rf"{NUMBER}(?!{word}|\.{word})"
    sect = rf"\d(?!{word}|\.)"
    keywords = _either(*(t.rule for t in tables), *(t.section for t in tables))
    joins = _either(*(t.joins for t in tables))
    through = _either(*(t.through for t in tables))
    if spaced:
        keyword, to = rf"\b(?P<keyword>{keywords})\s+", rf"(?:{_DASH}|\s+(?:{through})\s+)"
        sep = rf"(?:\s*,\s*(?:(?:{joins})\s+)?|\s+(?:{joins})\s+)"
    else:
        keyword, to = rf"(?P<keyword>{keywords})\s*", rf"(?:{_DASH}|\s*(?:{through})\s*)"
        sep = rf"(?:\s*[,，、]\s*(?:(?:{joins})\s*)?|\s*(?:{joins})\s*)"
    end = rf"{_END}(?!{word})"
    plain = rf"(?:{num}|{sect})(?:{to}{end})?"
    sections = _either(*(t.section for t in tables))
    return _Grammar(
        ref=re.compile(rf"{keyword}(?P<items>{plain}(?:{sep}{plain}){{0,{MAX_ITEMS}}})", re.IGNORECASE),
        item=re.compile(rf"(?P<first>{num}|{sect})(?:{to}(?P<last>{end}))?", re.IGNORECASE),
        section=re.compile(sections, re.IGNORECASE) if sections else NEVER,
        hint=re.compile(keywords, re.IGNORECASE),
    )


@functools.cache
def grammar(lang: str | None) -> _Grammar:
    """The grammar for `lang`; with every table's words for None or a language kb has no table for."""
    table = MARKERS.get(lang or "")
    if table is not None:
        return _compile((table,))
    spaced = tuple(t for t in MARKERS.values() if t.spaced)
    return _compile(spaced)


@dataclass(frozen=True, slots=True)
class RefMatch:
    """One cited number (or range) found in a text."""

    start: int
    """Offset of the number in the text."""
    end: int
    """Offset just past it."""
    targets: tuple[str, ...]
    """Rule numbers it stands for (a range is expanded: `601.2g–h` gives 601.2g, 601.2h)."""


def expand(item: str, lang: str | None = None) -> tuple[str, ...]:
    """Turn one item (`704`, `601.2g–h`, `119.7–8`, `509.1 through 509.3`, `1–3`) into rule numbers."""
    m = grammar(lang).item.fullmatch(item.strip())
    if m is None:
        return ()
    if m.group("last") is None:
        return (canonical(m.group("first")),)
    return number_range(m.group("first"), m.group("last"))


def find_references(text: str, lang: str | None = None) -> list[RefMatch]:
    """Find every rule number cited in `text`, written in `lang` (any language kb knows, when None)."""
    found: list[RefMatch] = []
    words = grammar(lang)
    if not words.hint.search(text):  # most texts cite nothing: skip the full grammar
        return found
    cited = 0
    for ref in words.ref.finditer(text):
        base = ref.start("items")
        sections_allowed = bool(words.section.fullmatch(ref.group("keyword")))
        for item in words.item.finditer(ref.group("items")):
            if not sections_allowed and item.group(0).isdigit() and len(item.group(0)) == 1:
                continue
            targets = expand(item.group(0), lang)
            if not sections_allowed:
                targets = tuple(t for t in targets if len(t) > 1)
            found.append(RefMatch(base + item.start(), base + item.end(), targets))
            cited += len(targets)
            if cited >= MAX_CITED:  # the rest of the text stays text: no rule cites thousands
                return found
    return found


def reference_targets(text: str, lang: str | None = None) -> list[str]:
    """Return the cited rule numbers in order of first appearance, without repeats."""
    seen: dict[str, None] = {}
    for match in find_references(text, lang):
        for target in match.targets:
            seen.setdefault(target, None)
    return list(seen)
