"""Pair a card's French FAQ rulings with the English Gatherer rulings they translate.

A sentence-alignment dynamic program in the spirit of Gale & Church (1993), one ruling per unit. Beads are 1-1
(a translation), 1-0 and 0-1 (a ruling with no counterpart), and a swap (two rulings translated in the other
order); a swap across a third ruling is beyond it. A 1-1 bead scores by what a ruling and its translation share
whatever the language:

- length: French runs about `LENGTH_RATIO` times as long as English, with a variance growing with length
  (Gale & Church's normal model of the length difference);
- anchors: digits, mana symbols (`{2}{W}`, `(W/U)`), power/toughness and counters (`2/2`, `+1/+1`), rule
  numbers, and card names (a French name of `names` in the French text whose English name is in the English
  text);
- cognates: long words sharing their first `COGNATE_PREFIX` letters once accents are folded
  (`capacité`/`capacity`, `résolution`/`resolves`), after Simard, Foster & Isabelle (1992).

A bead's score is a log-odds (a prior plus the evidence above): the program keeps the alignment of highest
total, and forward and backward sums over all alignments give each pair its probability, the confidence. A
kept pair less probable than the threshold is split into two unpaired rulings. No word list of either language
is used. The weights were fitted (logistic regression), the priors counted and the threshold chosen on half of
the hand-checked Dissension pairs (`tests/fixtures/ruling-pairs.json`, cards at even positions by id).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from kb.sources.text import search_fold

LENGTH_RATIO = 1.17
"""Characters of French per character of English in a translated ruling (measured on the tuning half)."""
LENGTH_VARIANCE = 6.8
"""Variance of the French length per English character: Gale & Church's s², also what the tuning half gives."""
COGNATE_PREFIX = 4
"""Letters two words must share at their start to count as cognates (Simard et al.)."""
COGNATE_MIN = 5
"""Shortest word (in letters, accents folded) considered for cognates: shorter ones are mostly grammar."""
PAIR_LOG_ODDS = 5.0
"""Log-odds of a 1-1 bead against a 1-0 and a 0-1 bead before reading the texts (bead counts of the tuning half)."""
COGNATE_WEIGHT = 8.4
"""Log-odds gained from no to all cognates shared (Dice overlap; fitted on the tuning half)."""
ANCHOR_WEIGHT = 5.0
"""Log-odds lost from all to no anchors shared, when either ruling has some (fitted on the tuning half)."""
LENGTH_WEIGHT = 0.57
"""Log-odds lost per unit of Gale & Church length cost (fitted on the tuning half)."""
SWAP_COST = 3.0
"""Log-odds lost by a swap bead against two 1-1 beads (one swap among some 20 neighbouring pairs, tuning half)."""
THRESHOLD = 0.7
"""Probability under which a pair is split into two unpaired rulings (chosen on the tuning half)."""

_MANA = re.compile(r"\{[^{}\s]{1,4}\}|\([A-Z0-9]/[A-Z0-9]\)")
_PT = re.compile(r"(?<!\d)[+\-−]?\d+/[+\-−]?\d+")
"""A power/toughness; it starts where a run of digits starts (else a long run is scanned again from each digit)."""
_RULE = re.compile(r"\b\d{3}\.\d+[a-z]?\b")
_NUMBER = re.compile(r"\d+")
_WORD = re.compile(r"[a-z]+")


@dataclass(frozen=True, slots=True)
class Pair:
    """A French ruling and the English ruling it translates, or a ruling left without counterpart."""

    fr: int | None
    """Index of the French ruling in the input, or None for an English ruling paired with nothing."""
    en: int | None
    """Index of the English ruling in the input, or None for a French ruling paired with nothing."""
    confidence: float
    """How sure the aligner is of this pair (or, for an unpaired ruling, that it has no counterpart), in [0, 1]."""


@dataclass(frozen=True, slots=True)
class _Features:
    """What one ruling offers for matching across languages."""

    length: int
    """Characters of the text."""
    anchors: tuple[str, ...]
    """Language-independent tokens (numbers, symbols, English card names), with repeats."""
    cognates: frozenset[str]
    """Folded prefixes of the long words."""


def align_rulings(
    fr: Sequence[str],
    en: Sequence[str],
    names: Mapping[str, str] | NameIndex | None = None,
    *,
    threshold: float = THRESHOLD,
) -> tuple[Pair, ...]:
    """Pair French rulings with English ones: each ruling in one Pair, in French order, English-only ones last.

    `names` maps French card names to English ones; a `NameIndex` of them saves indexing them again for each card.
    """
    index = names if isinstance(names, NameIndex) else NameIndex(names or {})
    fr_f = [_features(text, index.fr) for text in fr]
    en_f = [_features(text, index.en) for text in en]
    score = [[_score(a, b) for b in en_f] for a in fr_f]
    chance = _marginals(score, len(en))
    kept = {i: j for i, j in _best_path(score, len(en)) if chance[i][j] >= threshold}
    pairs = [
        Pair(i, kept[i], chance[i][kept[i]]) if i in kept else Pair(i, None, _alone(row))
        for i, row in enumerate(chance)
    ]
    taken = set(kept.values())
    pairs += [Pair(None, j, _alone([row[j] for row in chance])) for j in range(len(en)) if j not in taken]
    return tuple(pairs)


def _alone(chances: Sequence[float]) -> float:
    """The probability that a ruling has no counterpart, from its chances of pairing with each other ruling."""
    return _clamp(1 - sum(chances))


_ALNUM = re.compile(r"[a-z0-9]+")
"""A run of letters and digits in folded text: a name is found as whole words, never inside one."""


class _Finder:
    """Folded names found as whole words in folded text, through their first word (one dict access per word)."""

    def __init__(self) -> None:
        self.by_word: dict[str, list[tuple[str, tuple[str, ...]]]] = {}
        """First word of a name -> (folded name, the English names it stands for)."""
        self.odd: list[tuple[re.Pattern[str], tuple[str, ...]]] = []
        """Names that do not start with a letter or digit, as patterns (few: `+2 Mace`)."""

    def add(self, folded: str, anchors: tuple[str, ...]) -> None:
        """Index one folded name and the anchors it gives when found."""
        first = _ALNUM.match(folded)
        if first is None:
            self.odd.append((re.compile(r"(?<![a-z0-9])" + re.escape(folded) + r"(?![a-z0-9])"), anchors))
        else:
            self.by_word.setdefault(first.group(), []).append((folded, anchors))

    def anchors(self, folded: str) -> list[str]:
        """The anchors of every name found in a folded text, once per name."""
        found: dict[str, tuple[str, ...]] = {}
        by_word = self.by_word
        for word in _ALNUM.finditer(folded):
            for name, anchors in by_word.get(word.group(), ()):
                if name in found:
                    continue
                start = word.start()
                end = start + len(name)
                if folded.startswith(name, start) and not (end < len(folded) and _is_alnum(folded[end])):
                    found[name] = anchors
        for pattern, anchors in self.odd:
            if pattern.search(folded):
                found[pattern.pattern] = anchors
        return [anchor for anchors in found.values() for anchor in anchors]


def _is_alnum(char: str) -> bool:
    """Tell whether a folded character is a letter a-z or a digit (what a whole word cannot be followed by)."""
    return "a" <= char <= "z" or "0" <= char <= "9"


class NameIndex:
    """Card names (French -> English, split cards by half too) indexed once for finding them in rulings."""

    def __init__(self, names: Mapping[str, str]) -> None:
        found: dict[str, str] = {}
        for fr_name, en_name in names.items():
            found[fr_name] = en_name
            fr_parts, en_parts = fr_name.split(" // "), en_name.split(" // ")
            if len(fr_parts) == len(en_parts) > 1:
                found.update(zip(fr_parts, en_parts, strict=True))
        fr: dict[str, list[str]] = {}
        en: dict[str, list[str]] = {}
        for f, e in found.items():
            if f.strip() and e.strip():
                anchor = "name:" + e
                fr.setdefault(search_fold(f), []).append(anchor)
                en.setdefault(search_fold(e), []).append(anchor)
        self.fr = _Finder()
        """French names -> the anchors (English names) they give."""
        self.en = _Finder()
        """English names -> their anchors (once for each French name that has it)."""
        for finder, table in ((self.fr, fr), (self.en, en)):
            for folded, anchors in table.items():
                finder.add(folded, tuple(anchors))


def _features(text: str, names: _Finder) -> _Features:
    """Extract the anchors and cognate keys of one ruling; `names` finds the card names it holds."""
    folded = search_fold(text)
    anchors = names.anchors(folded)
    rest = text
    for kind, regex in (("mana", _MANA), ("pt", _PT), ("rule", _RULE), ("n", _NUMBER)):
        anchors += [f"{kind}:{m.replace('−', '-')}" for m in regex.findall(rest)]
        rest = regex.sub(" ", rest)
    words = _WORD.findall(folded)
    cognates = frozenset(w[:COGNATE_PREFIX] for w in words if len(w) >= COGNATE_MIN)
    return _Features(len(text), tuple(sorted(anchors)), cognates)


def _score(fr: _Features, en: _Features) -> float:
    """Log-odds that the two rulings translate each other rather than standing alone."""
    score = PAIR_LOG_ODDS + COGNATE_WEIGHT * _dice(Counter(fr.cognates), Counter(en.cognates))
    if fr.anchors or en.anchors:
        score -= ANCHOR_WEIGHT * (1 - _dice(Counter(fr.anchors), Counter(en.anchors)))
    return score - LENGTH_WEIGHT * _length_cost(fr.length, en.length)


def _dice(a: Counter[str], b: Counter[str]) -> float:
    """Dice coefficient of two multisets (0 when both are empty)."""
    total = sum(a.values()) + sum(b.values())
    return 2 * sum((a & b).values()) / total if total else 0.0


def _length_cost(fr_len: int, en_len: int) -> float:
    """Gale & Church's cost, -log P(|delta| this large), of the French length given the English one."""
    mean = max(en_len, 1)
    delta = (fr_len - LENGTH_RATIO * mean) / math.sqrt(LENGTH_VARIANCE * mean)
    tail = math.erfc(abs(delta) / math.sqrt(2))
    return -math.log(max(tail, 1e-12))


def _best_path(score: Sequence[Sequence[float]], m: int) -> list[tuple[int, int]]:
    """Return the pairs of the alignment of highest total log-odds (1-0 and 0-1 beads score 0)."""
    n = len(score)
    best = [[0.0] * (m + 1) for _ in range(n + 1)]
    move = [[(0, 0)] * (m + 1) for _ in range(n + 1)]
    for i in range(n + 1):
        for j in range(m + 1):
            options = [(best[i - 1][j], (1, 0))] if i else []
            options += [(best[i][j - 1], (0, 1))] if j else []
            if i and j:
                options.append((best[i - 1][j - 1] + score[i - 1][j - 1], (1, 1)))
            if i > 1 and j > 1:
                options.append((best[i - 2][j - 2] + _swap(score, i - 2, j - 2), (2, 2)))
            if options:
                best[i][j], move[i][j] = max(options, key=lambda option: option[0])
    pairs: list[tuple[int, int]] = []
    i, j = n, m
    while i or j:
        di, dj = move[i][j]
        i, j = i - di, j - dj
        pairs += {(1, 1): [(i, j)], (2, 2): [(i + 1, j), (i, j + 1)]}.get((di, dj), [])
    return sorted(pairs)


def _swap(score: Sequence[Sequence[float]], i: int, j: int) -> float:
    """Log-odds of the swap bead pairing French i with English j+1 and French i+1 with English j."""
    return score[i][j + 1] + score[i + 1][j] - SWAP_COST


def _marginals(score: Sequence[Sequence[float]], m: int) -> list[list[float]]:
    """Return the probability that French i translates English j, over all alignments weighted by their odds.

    An alignment is a chain of 1-1 and swap beads (the rest is unpaired), weighted by the product of its beads'
    odds. `before[i][j]` sums the alignments of the first i French and j English rulings, `after[i][j]` those of
    the rest (the forward and backward sums of the program).
    """
    n = len(score)
    odds = [[math.exp(value) for value in row] for row in score]
    swap = [[math.exp(_swap(score, i, j)) for j in range(m - 1)] for i in range(n - 1)]
    before = [[1.0] * (m + 1) for _ in range(n + 1)]
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            last = odds[i - 1][j - 1] * before[i - 1][j - 1]
            last += swap[i - 2][j - 2] * before[i - 2][j - 2] if i > 1 and j > 1 else 0.0
            before[i][j] = before[i - 1][j] + before[i][j - 1] - before[i - 1][j - 1] + last
    after = [[1.0] * (m + 2) for _ in range(n + 2)]
    for i in reversed(range(n)):
        for j in reversed(range(m)):
            first = odds[i][j] * after[i + 1][j + 1]
            first += swap[i][j] * after[i + 2][j + 2] if i + 1 < n and j + 1 < m else 0.0
            after[i][j] = after[i + 1][j] + after[i][j + 1] - after[i + 1][j + 1] + first
    total = before[n][m]
    chance = [[before[i][j] * odds[i][j] * after[i + 1][j + 1] / total for j in range(m)] for i in range(n)]
    for i in range(n - 1):
        for j in range(m - 1):
            both = before[i][j] * swap[i][j] * after[i + 2][j + 2] / total
            chance[i][j + 1] += both
            chance[i + 1][j] += both
    return [[_clamp(value) for value in row] for row in chance]


def _clamp(value: float) -> float:
    """Keep a probability within [0, 1] despite rounding."""
    return min(1.0, max(0.0, value))
