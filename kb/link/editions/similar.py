"""An edition's rules indexed for matching (`prepare`), and how alike two rule texts are (`similarity`): the
similarity keys (lowercase words, rule numbers masked), the function words left out of a text's words, the
placeholders ("[This rule has been removed.]") that take part in nothing. Read by `kb.link.editions.matcher`.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from math import log
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kb.model import Rule

TITLE_WORDS = 3
"""Texts with fewer distinct words are headings ("Forecast"): matched only when (nearly) identical."""
RARE_DF = 4
"""Words an edition uses at most this many times (keyword, card names) must agree in a text-only match."""
_TYPOGRAPHY = (("‘", "'"), ("’", "'"), ("“", '"'), ("”", '"'), ("–", "-"), ("—", "-"), ("−", "-"), ("\xa0", " "))
_RULE_NUMBER = re.compile(r"\b[1-9]\d{2}(?: \d+[a-z]?)?\b")
"""A rule number in a similarity key, where `420.5g` reads `420 5g`."""
LETTER = re.compile(r"[^\W\d_]")
_PLACEHOLDER = re.compile(r"(?<!\s)\s*[\[(][^\[(\])]*[\])]\s*\.?\s*")
LEADING_NUMBER = re.compile(r"(?<!\s)\s*\d{1,3}(?:\.\d+[a-z]?)?\.?\s+")
r"""A number and the spaces around it. Both patterns start a match only where a run of spaces starts (`(?<!\s)`),
and a bracket holds no bracket: else a long run of spaces or brackets is scanned again from each of its characters."""
HEAD = ("section", "rule")
"""Kinds of rules matched by their title."""
FUNCTION_WORDS = frozenset(
    {"a", "an", "and", "are", "as", "at", "be", "by", "can", "do", "does", "doesn", "for", "from", "has", "have", "if",
     "in", "is", "isn", "it", "its", "no", "not", "of", "on", "or", "s", "so", "t", "that", "the", "then", "this", "to",
     "was", "were", "which", "while", "who", "will", "with", "see", "rule", "rules", "section", "#"}
)  # fmt: skip
"""Words two texts share without saying the same thing (and a reference's `see rule #`): left out of the words whose
share makes texts alike, so that `A spell is a card … (See rule 111)` and `Some parts of a card are also
characteristics … (See rule 109)` are not half alike."""


@dataclass(frozen=True, slots=True)
class Edition:
    """One edition indexed for matching (lists are by rule position; -1 means none)."""

    numbers: list[str]
    at: dict[str, int]
    kinds: list[str]
    parents: list[int]
    children: list[list[int]]
    above: list[tuple[int, ...]]
    keys: list[str]
    full: list[tuple[str, ...]]
    words: list[int]
    counts: Counter[str]
    bags: list[frozenset[str] | None]
    rares: list[frozenset[str] | None]
    dead: list[bool]
    headings: list[int]
    by_key: dict[str, list[int]]
    refs: list[tuple[str, ...]]
    cited_by: list[set[str]]

    def bag(self, i: int) -> frozenset[str]:
        """Return the distinct words of rule `i`, function words aside (computed on first use)."""
        bag = self.bags[i]
        if bag is None:
            bag = self.bags[i] = frozenset(w for w in self.keys[i].split() if w not in FUNCTION_WORDS)
        return bag

    def weight(self, word: str) -> float:
        """How much a word says of a text: the rarer in the edition, the more (log of rules per use)."""
        return max(log(len(self.keys) / (1 + self.counts[word])), 0.1)

    def rare(self, i: int) -> frozenset[str]:
        """Return the words of rule `i` that the edition uses at most `RARE_DF` times (computed on first use)."""
        rare = self.rares[i]
        if rare is None:
            rare = self.rares[i] = frozenset(w for w in self.bag(i) if self.counts[w] <= RARE_DF and not w.isdigit())
        return rare


def fold_typography(text: str) -> str:
    """Fold typography and spacing."""
    if not text.isascii():
        for a, b in _TYPOGRAPHY:
            if a in text:
                text = text.replace(a, b)
    return " ".join(text.split()) if "  " in text or "\n" in text else text.strip()


def same_text(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """Whether two rules' texts (and examples) are the same but for typography and spacing."""
    return a == b or list(map(fold_typography, a)) == list(map(fold_typography, b))


def similarity_key(text: str, numbers: bool = True) -> str:
    """Return the similarity key of a text: lowercase words only, rule numbers masked when there may be some."""
    from rapidfuzz.utils import default_process  # here, not above: a process that links no editions never loads it

    key = default_process(text)
    return _RULE_NUMBER.sub("#", key) if numbers else key


def is_placeholder(text: str) -> bool:
    """Tell a text that holds no rule: letterless, or wholly bracketed."""
    return not LETTER.search(text) or _PLACEHOLDER.fullmatch(text) is not None


def similarity(a: str, b: str, bag_a: frozenset[str], bag_b: frozenset[str]) -> float:
    """Score two keys 0-100: edit similarity and word containment; headings only when (nearly) identical."""
    from rapidfuzz import fuzz

    if a == b:
        return 100.0
    if min(len(bag_a), len(bag_b)) < TITLE_WORDS:
        ratio = fuzz.ratio(a, b, score_cutoff=85) if 4 * min(len(a), len(b)) >= 3 * max(len(a), len(b)) else 0.0
        return ratio
    shared = len(bag_a & bag_b) / min(len(bag_a), len(bag_b))
    return 0.6 * fuzz.ratio(a, b) + 40.0 * shared if shared >= 0.25 else 0.0


def jaccard(a: set[str] | frozenset[str], b: set[str] | frozenset[str]) -> float:
    """Return |a & b| / |a | b| (0 when both are empty)."""
    return len(a & b) / len(a | b) if a or b else 0.0


def prepare(rules: Sequence[Rule]) -> Edition:
    """Index an edition's rules for matching."""
    numbers = [r.number for r in rules]
    at = {n: i for i, n in enumerate(numbers)}
    parents = [at.get(r.parent, -1) if r.parent else -1 for r in rules]
    texts = [r.title if r.kind in HEAD else r.text for r in rules]
    keys = [similarity_key(t, bool(r.references)) for t, r in zip(texts, rules, strict=True)]
    words = [k.count(" ") + 1 if k else 0 for k in keys]
    dead = [is_placeholder(t) for t in texts]
    children = [[at[c] for c in r.children if c in at] for r in rules]
    by_key: dict[str, list[int]] = {}
    cited_by: list[set[str]] = [set() for _ in rules]
    above = []
    for i, r in enumerate(rules):
        if not dead[i]:
            by_key.setdefault(keys[i], []).append(i)
        for ref in r.references:
            if ref in at:
                cited_by[at[ref]].add(r.number)
        line, p = [], parents[i]
        while p >= 0 and len(line) < 8:
            line.append(p)
            p = parents[p]
        above.append(tuple(line))
    return Edition(
        numbers=numbers, at=at, kinds=[r.kind for r in rules], parents=parents, children=children, above=above,
        keys=keys, full=[(t, *r.examples) for t, r in zip(texts, rules, strict=True)],
        words=words, counts=Counter(" ".join(keys).split()), bags=[None] * len(rules), rares=[None] * len(rules),
        dead=dead, by_key=by_key, refs=[tuple(r.references) for r in rules], cited_by=cited_by,
        headings=[i for i, r in enumerate(rules) if not dead[i] and (r.kind in HEAD or (words[i] < TITLE_WORDS
                  and bool(children[i])))],
    )  # fmt: skip
