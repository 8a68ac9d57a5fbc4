"""Pair a translation's rules with an English edition by their content, when no loaded edition numbers like it.

A translated extract is numbered as the edition it was translated from; when that edition is not loaded, its
numbers say nothing about today's rules (French 120.4, the empty library, is today's 121.4; today's 120.4 is
about damage). What survives translation is compared instead, never the numbers themselves:

- the rule numbers a rule cites (`Cf. règle 504.1` and `See rule 504.1`), which change less often than the rule;
- numbers and symbols in the text (`sept`/`seven` aside: digits, `{T}`, `+1/+1`);
- words, through the lexicon mined from printed cards (`pioche` is `draw`), weighted by how rare they are;
- the length of the text (a French text runs about a fifth longer) and the shape of the rule (kind, examples,
  subrules).

Rules are placed top down: the group of an extract's numbered rules under a parent it lacks (120.1-120.7) goes
to the English rule whose numbered rules it fits best, then each group's children are aligned in order (a
rule keeps its place among its siblings: an inserted or removed rule shifts the others, never reorders them).
A pair is kept only when its score and its lead over the other candidates are both clear; what the evidence
does not support stays unpaired. Pure algorithm over parsed `Rule` records.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from kb.model import Rule
from kb.model.numbers import kind_of
from kb.sources import fold

PAIR_MIN = 0.5
"""Score (0..1) a pair needs to be kept."""
LEAD_MIN = 0.08
"""Lead a kept pair needs over the best other candidate of either side among the siblings."""
CHILD_GATE = 0.3
"""Own score under which a pair of rules with subrules is not worth aligning their subrules for."""
TERMS_MIN = 3
"""Words of a translated rule the lexicon must know for its words to count at all."""
TERMS_FULL = 8
"""Words known from which they count fully."""
TERMS_LEAD = 0.15
"""How much better another sibling's words may fit before a pair made on other evidence is dropped."""
GROUP_MIN = 0.45
"""Mean score of its pairs a parent needs for a group of rules to be placed under it."""
LENGTH_RATIO = 1.2
"""How much longer a French text runs than its English original (measured on the 2015 extracts: 1.1-1.3)."""
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")
_DIGITS = re.compile(r"\{[^{}\s]{1,6}\}|(?<!\d)[+-]?\d+/[+-]?\d+|(?<![\w.])\d{1,2}(?![\w.])")
_RULE_REF = re.compile(r"(?<![\w.])\d{3}(?:\.\d+[a-z]?)?(?!\w)")


@dataclass(frozen=True, slots=True)
class Evidence:
    """What a rule says that survives translation."""

    refs: frozenset[str]
    """Rule numbers it cites."""
    marks: frozenset[str]
    """Small numbers and symbols of its text (`{T}`, `+1/+1`, `7`), rule numbers aside."""
    terms: frozenset[str]
    """English word stems: its own words, or for a translation the lexicon's English for its words."""
    length: float
    """Characters of its text and examples (a translation's divided by `LENGTH_RATIO`)."""
    kind: str
    """Kind of rule."""
    examples: int
    """Number of examples."""
    children: int
    """Number of subrules present."""


@dataclass(frozen=True, slots=True)
class ContentPair:
    """A translated rule paired by content with a rule of the English edition."""

    number: str
    """Its number in the translation."""
    ref_number: str
    """The number of the English rule it is."""
    confidence: float
    """How sure the pairing is, in [0, 1]."""


@lru_cache(maxsize=100_000)
def _stem(word: str) -> str:
    """A light stem for both languages (plural and a few endings), of a folded word."""
    if word.endswith("ies") and len(word) > 4:
        word = word[:-3] + "y"
    elif word.endswith(("s", "x")) and not word.endswith(("ss", "us")) and len(word) > 3:
        word = word[:-1]
    for suffix in ("ing", "ed", "ee", "er", "ez", "e"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def _words(text: str) -> set[str]:
    """Folded word stems of a text (elided articles dropped: `l'étape` is `etape`)."""
    found = set(_WORD.findall(text.lower() if text.isascii() else fold(text).replace("’", "'")))
    return {_stem(w.rsplit("'", 1)[-1]) for w in found if len(w) > 2}


def dictionary(lexicon) -> dict[str, frozenset[str]]:
    """French stem -> English stems, from every lexicon entry whose terms are single words on both sides."""
    found: dict[str, set[str]] = {}
    if lexicon is None:
        return {}
    for entry in lexicon.entries:
        english = list(_words(entry.english))
        if len(english) != 1 or " " in entry.english.strip():
            continue
        for term in entry.french:
            for form in (term.text, *term.forms):
                french = list(_words(form))
                if len(french) == 1 and " " not in form.strip():
                    found.setdefault(french[0], set()).add(english[0])
    return {k: frozenset(v) for k, v in found.items()}


def _text(rule: Rule) -> str:
    return " ".join((rule.title, rule.text, *rule.examples))


def evidence(rule: Rule, words: dict[str, frozenset[str]] | None, lengths: bool = True) -> Evidence:
    """What a rule says that survives translation; `words` (given for a French rule: French stem -> English
    stems) maps its words to English; `lengths` false when the two languages' lengths are not comparable."""
    text = _text(rule)
    marks = frozenset(_DIGITS.findall(_RULE_REF.sub(" ", text)))
    stems = _words(text)
    if words is not None:
        terms = frozenset(e for s in stems for e in words.get(s, ()))
        length = len(text) / LENGTH_RATIO
    else:
        terms, length = frozenset(stems), float(len(text))
    return Evidence(
        frozenset(rule.references),
        marks,
        terms,
        length if lengths else 0.0,
        rule.kind,
        len(rule.examples),
        len(rule.children),
    )


def _jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    return len(a & b) / len(a | b) if a or b else 0.0


class Scorer:
    """Scores a translation's rules against the rules of an edition of another language.

    Words count only between French and English (the lexicon's two languages), either way round; for another
    pair of languages only cited numbers, marks and shape do (lengths too differ to compare)."""

    def __init__(self, mine: Sequence[Rule], theirs: Sequence[Rule], lexicon, langs: tuple[str, str] = ("fr", "en")):
        known = set(langs) == {"fr", "en"}
        words = dictionary(lexicon) if known else {}
        self.vocabulary = frozenset(e for v in words.values() for e in v)
        french = (words if langs[0] == "fr" else None, words if langs[1] == "fr" else None) if known else (None, None)
        self.mine = {r.number: evidence(r, french[0], known) for r in mine}
        self.theirs = {r.number: evidence(r, french[1], known) for r in theirs}
        df = Counter(t for ev in self.theirs.values() for t in ev.terms & self.vocabulary)
        if langs[1] == "fr":  # the French side's terms are all known: weigh the English side's words instead
            df = Counter(t for ev in self.mine.values() for t in ev.terms & self.vocabulary)
        total = max(len(self.theirs), 1)
        self.idf = {t: math.log(1 + total / n) for t, n in df.items()}
        self.terms_present = bool(words)

    def _terms(self, a: Evidence, b: Evidence) -> float | None:
        """Weighted Dice of the translated terms and the English rule's words the lexicon knows."""
        mine = {t for t in a.terms if t in self.idf}
        theirs = b.terms & self.vocabulary
        if not self.terms_present or len(mine) < TERMS_MIN or not theirs:
            return None
        shared = sum(self.idf[t] for t in mine & theirs)
        both = sum(self.idf[t] for t in mine) + sum(self.idf.get(t, 0.0) for t in theirs)
        return 2 * shared / both if both else 0.0

    def score(self, number: str, ref_number: str) -> tuple[float, float | None]:
        """How much a translated rule and an English rule say the same, in [0, 1], and how much their words do
        (None when too few of them are known to count)."""
        a, b = self.mine[number], self.theirs[ref_number]
        parts: list[tuple[float, float]] = []  # (weight, value)
        terms = self._terms(a, b)
        if terms is not None:  # a few words are weak evidence (a small lexicon finds `have` and `into`)
            parts.append((0.5 * min(1.0, len(a.terms) / TERMS_FULL), terms))
        if a.refs or b.refs:  # a cited number may have been renumbered too: evidence, never proof
            parts.append((0.2 if a.refs and b.refs else 0.1, _jaccard(a.refs, b.refs)))
        if a.marks or b.marks:
            parts.append((0.1, _jaccard(a.marks, b.marks)))
        if a.length and b.length:
            parts.append((0.15, min(a.length, b.length) / max(a.length, b.length)))
        shape = (a.kind == b.kind) * 0.5 + (a.examples == b.examples) * 0.25 + (a.children == b.children) * 0.25
        parts.append((0.1, shape))
        total = sum(w for w, _ in parts)
        return (round(sum(w * v for w, v in parts) / total, 3) if total else 0.0), terms


def _best(s: list[list[float]], forbid: tuple[int, int] | None = None) -> tuple[float, list[tuple[int, int]]]:
    """The order-keeping pairing of most total score over `PAIR_MIN` (a pair `forbid` left out)."""
    rows, cols = len(s), len(s[0]) if s else 0
    best = [[0.0] * (cols + 1) for _ in range(rows + 1)]

    def gain(i: int, j: int) -> float | None:
        return s[i][j] - PAIR_MIN if s[i][j] >= PAIR_MIN and (i, j) != forbid else None

    for i in range(rows - 1, -1, -1):
        for j in range(cols - 1, -1, -1):
            g = gain(i, j)
            best[i][j] = max(best[i + 1][j], best[i][j + 1], best[i + 1][j + 1] + g if g is not None else -1.0)
    out, i, j = [], 0, 0
    while i < rows and j < cols:
        g = gain(i, j)
        if g is not None and best[i][j] == best[i + 1][j + 1] + g:
            out.append((i, j))
            i, j = i + 1, j + 1
        elif best[i][j] == best[i + 1][j]:
            i += 1
        else:
            j += 1
    return best[0][0], out


class _Tree:
    """The two editions' parent -> children lists, and pair scores that count how well the children fit."""

    def __init__(self, scorer: Scorer, groups: dict[str, list[str]], kids: dict[str, list[str]]) -> None:
        self.scorer, self.groups, self.kids = scorer, groups, kids
        self._fits: dict[tuple[str, str], float] = {}

    def score(self, m: str, t: str) -> tuple[float, float | None]:
        """A pair's score, and its words' score; a rule with subrules is judged by them as much as by its text
        (`703.4`, "The turn-based actions are as follows:", says little; its subrules say much)."""
        own, words = self.scorer.score(m, t)
        if not self.groups.get(m) or not self.kids.get(t) or own < CHILD_GATE:
            return own, words
        key = (m, t)
        if key not in self._fits:
            found = self.descend(self.groups[m], self.kids[t])
            self._fits[key] = sum(c for _, _, c in found) / self.size(self.groups[m])
        return round(0.4 * own + 0.6 * self._fits[key], 3), words

    def size(self, children: Sequence[str]) -> int:
        """Rules in the subtrees of some siblings."""
        return sum(1 + self.size(self.groups.get(c, ())) for c in children)

    def descend(self, mine: Sequence[str], theirs: Sequence[str]) -> list[tuple[str, str, float]]:
        """Align siblings, then the children of each pair (no surer than their parent's pair), all the way down."""
        out = []
        for m, t, c in self.align(mine, theirs):
            out.append((m, t, c))
            if self.groups.get(m) and self.kids.get(t):
                out += [(m2, t2, min(c2, c)) for m2, t2, c2 in self.descend(self.groups[m], self.kids[t])]
        return out

    def align(self, mine: Sequence[str], theirs: Sequence[str]) -> list[tuple[str, str, float]]:
        """Pair two ordered lists of siblings, order kept; a pair is kept when the pairing without it is clearly
        worse (`LEAD_MIN`) and no other sibling's words fit clearly better (`TERMS_LEAD`)."""
        if not mine or not theirs:
            return []
        scored = [[self.score(m, t) for t in theirs] for m in mine]
        s = [[x for x, _ in row] for row in scored]
        total, pairs = _best(s)
        out = []
        placed = {i: scored[i][j][1] or 0.0 for i, j in pairs}  # a sibling whose words fit its own pair better
        for i, j in pairs:  # is no rival for another's
            lead = total - _best(s, (i, j))[0]
            words = scored[i][j][1]
            rivals = [scored[i][k][1] for k in range(len(theirs)) if k != j] + [
                scored[k][j][1] for k in range(len(mine)) if k != i and (scored[k][j][1] or 0.0) > placed.get(k, 0.0)
            ]
            if lead < LEAD_MIN or (words is not None and max(filter(None, rivals), default=0.0) - words > TERMS_LEAD):
                continue
            out.append((mine[i], theirs[j], round(s[i][j] * min(1.0, 0.5 + lead / 0.4), 3)))
        return out


def _groups(rules: Sequence[Rule]) -> dict[str, list[str]]:
    """Parent number -> its children present, in order, for the parents an extract lacks or has."""
    present = {r.number for r in rules}
    out: dict[str, list[str]] = {}
    for r in rules:
        if r.parent is not None and r.kind != "section":
            out.setdefault(r.parent, []).append(r.number)
    return {p: kids for p, kids in out.items() if p not in present or kids}


def align_by_content(scorer: Scorer, mine: Sequence[Rule], theirs: Sequence[Rule]) -> tuple[ContentPair, ...]:
    """Pair a translation's rules with an English edition's by content (`scorer` made for the two); unsure rules
    stay unpaired.

    Each group of rules under a parent the translation lacks goes, subtree and all, under the English parent
    where its whole subtree fits best, clearly better than under any other."""
    by_number = {r.number: r for r in theirs}
    kids = {r.number: [c for c in r.children if c in by_number] for r in theirs}
    groups = _groups(mine)
    tree = _Tree(scorer, groups, kids)
    own = {r.number for r in mine}
    placed: dict[str, tuple[str, float]] = {}
    for parent, children in groups.items():
        if parent in own:
            continue
        size = tree.size(children)
        kind = kind_of(parent)
        ranked = []
        for cand in (n for n, r in by_number.items() if r.kind == kind and kids.get(n)):
            found = tree.descend(children, kids[cand])
            if found:
                ranked.append((sum(c for _, _, c in found) / size, cand, found))
        ranked.sort(key=lambda x: -x[0])
        if not ranked or ranked[0][0] < GROUP_MIN or (len(ranked) > 1 and ranked[0][0] - ranked[1][0] < LEAD_MIN):
            continue
        placed.update((m, (t, c)) for m, t, c in ranked[0][2])
    return tuple(ContentPair(r.number, *placed[r.number]) for r in mine if r.number in placed)


def agreement(scorer: Scorer, mine: Sequence[Rule]) -> tuple[float, int, tuple[str, ...]]:
    """How many of a translation's rules say the same as the rule of the same number: (share of those the edition
    has, count, the numbers whose rule says otherwise); (0, 0, …) when the edition has fewer than half of them.

    The test of a counterpart: an edition numbered like the translation agrees on (nearly) every rule."""
    compared = [r for r in mine if r.number in scorer.theirs]
    differ = tuple(r.number for r in compared if scorer.score(r.number, r.number)[0] < PAIR_MIN)
    same = len(compared) - len(differ)
    if 2 * len(compared) < len(mine):
        return 0.0, same, differ
    return (round(same / len(compared), 3) if compared else 0.0), same, differ
