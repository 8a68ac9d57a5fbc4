"""Mine the lexicon's supertypes, types and subtypes (the shared method: `kb.link.lexicon.evidence`).

English ``supertypes``/``types`` against the French type line before its ":" or "—", ``subtypes`` against each
subtype after it, split at the joining word learnt from the lines ("et") and aligned by position when both lines
list as many.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from kb.link.lexicon.evidence import Evidence, Hits, PrintedCard, choose, fold_word, make_entry
from kb.link.lexicon.records import ExampleCard, LexiconEntry

_TYPE_SPLIT = re.compile(r"(?<!\s)\s*(?::|—|–|\s-\s)\s*")  # from a run's start: linear over long runs


_TYPE_WORD = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")


@dataclass(slots=True)
class _TypeLine:
    """The French type n-grams of a card (all printings), key -> printed form."""

    left: dict[str, str] = field(default_factory=dict)
    """N-grams before ':' or '—' (types and supertypes)."""
    right: dict[str, str] = field(default_factory=dict)
    """N-grams of each subtype after it."""
    aligned: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    """English subtype -> the French subtype at its position, when both lines list as many."""


def _type_words(french_type: str) -> tuple[list[str], list[str]]:
    """Printed words of a French type line: types before ':' or '—' (hyphens split), subtypes after."""
    left, _, right = _TYPE_SPLIT.sub("\x00", french_type, count=1).partition("\x00")
    return _TYPE_WORD.findall(left.replace("-", " ")), _TYPE_WORD.findall(right)


def _separators(cards: list[PrintedCard]) -> set[str]:
    """Words joining subtypes ("et"): in half the lines listing several subtypes, never in a line of one."""
    single: Counter[str] = Counter()
    multi: Counter[str] = Counter()
    for card in cards:
        for version in card.versions:
            words = {fold_word(w) for w in _type_words(version.french_type)[1]}
            (multi if len(card.subtypes) > 1 else single).update(words)
    lines = sum(len(c.versions) for c in cards if len(c.subtypes) > 1)
    return {w for w, n in multi.items() if n >= max(2, lines / 2) and not single[w]}


def _items(words: list[str], separators: set[str]) -> list[list[str]]:
    """Split words at separators into items (one subtype each)."""
    items: list[list[str]] = [[]]
    for word in words:
        if fold_word(word) in separators:
            items.append([])
        else:
            items[-1].append(word)
    return [item for item in items if item]


def _item_grams(items: list[list[str]]) -> dict[str, str]:
    """N-grams of up to three words inside each item: folded key -> printed form."""
    return {
        " ".join(fold_word(w) for w in item[i:j]): " ".join(item[i:j])
        for item in items
        for i in range(len(item))
        for j in range(i + 1, min(i + 3, len(item)) + 1)
    }


def _type_line(card: PrintedCard, separators: set[str]) -> _TypeLine:
    line = _TypeLine()
    for version in card.versions:
        left, right = _type_words(version.french_type)
        line.left.update(_item_grams([left]))
        items = _items(right, separators)
        line.right.update(_item_grams(items))
        if len(items) == len(card.subtypes):
            for english, item in zip(card.subtypes, items, strict=True):
                line.aligned[english].add(" ".join(fold_word(w) for w in item))
    return line


def mine_types(cards: list[PrintedCard]) -> list[LexiconEntry]:
    """Entries for supertypes and types (French text before ':') and subtypes (after it)."""
    separators = _separators(cards)
    lines = [_type_line(card, separators) for card in cards]
    df = Counter(k for line in lines for k in line.left), Counter(k for line in lines for k in line.right)
    holders: dict[tuple[str, str], list[int]] = defaultdict(list)
    for ci, card in enumerate(cards):
        terms = [("supertype", t) for t in card.supertypes] + [("type", t) for t in card.types]
        for term in dict.fromkeys(terms + [("subtype", t) for t in card.subtypes]):
            holders[term].append(ci)
    entries = []
    for (category, english), indices in holders.items():
        mine = [lines[ci] for ci in indices]
        side = 1 if category == "subtype" else 0
        evidence = Evidence([_type_hits(english, line, side) for line in mine], english)
        chosen = choose(evidence, df[side], "", set())
        if not chosen:
            continue
        surfaces: dict[str, Counter[str]] = defaultdict(Counter)
        for line in mine:
            for key, form in (line.right if side else line.left).items():
                surfaces[key][form] += 1
        examples = [_type_example(cards[ci], chosen[0][0], side, separators) for ci in indices]
        entries.append(make_entry(english, category, chosen, surfaces, len(indices), [e for e in examples if e]))
    return entries


def _type_hits(english: str, line: _TypeLine, side: int) -> tuple[Hits, bool]:
    """A card's type n-grams; for a subtype, the one at its position is marked as placed."""
    if not side:
        return dict.fromkeys(line.left, (True, True)), True
    aligned = line.aligned.get(english, set())
    return {k: (k in aligned, k in aligned) for k in line.right}, bool(aligned)


def _type_example(card: PrintedCard, key: str, side: int, separators: set[str]) -> ExampleCard | None:
    for version in card.versions:
        left, right = _type_words(version.french_type)
        if key in _item_grams(_items(right, separators) if side else [left]):
            return ExampleCard(card.name, version.french_name)
    return None
