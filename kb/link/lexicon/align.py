"""Word alignment of parallel French and English texts, and the phrase pairs it gives.

IBM Model 1 (Brown et al. 1993), trained by expectation-maximisation in each direction over the aligned units of the
parallel texts (a card's printed lines, a French FAQ ruling and the English ruling it translates, a translated rule
and its original), with an empty word on the side words are aligned to. Each direction's Viterbi links are kept where
both directions agree, then grown to neighbouring links each direction has ("grow-diag", Koehn, Och and Marcu 2003);
phrase pairs of up to MAX_PHRASE words consistent with the links are counted, a pair once per unit. Words are compared
as light stems (`kb.sources.text.stem_fr`, `stem_en`), so every inflection of a word counts for it; each phrase keeps
the forms it is printed with.

The expectation step runs in numpy over every (English word, French word) combination of every unit: a unit of `e`
English and `f` French words weighs `(e + 1) * f` of them, a card pool 7.6 million. They are made and worked on in
batches of units (`BATCH`), each combination held as its pair's place among the distinct pairs (32-bit), and summed
into the pairs' counts in the order of one pass over them all: the links do not depend on the batches (the pool's
alignment made at once peaked 250 MB above the rest of its load, in batches 60 MB).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING

from kb.sources.text import fold, stem_en, stem_fr

if TYPE_CHECKING:
    import numpy as np

MAX_PHRASE = 5
"""Longest phrase, in words, on either side."""
ITERATIONS = 6
"""Rounds of expectation-maximisation per direction."""
MAX_WORDS = 60
"""Longer units are left out (alignment of long texts is slow and its links loose)."""
WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")
"""A word: letters, hyphens inside kept (`turn-based`, `non-jeton`); elisions split (`l’étape`: `l`, `étape`)."""
SYMBOLS = re.compile(r"\{[^{}]*\}")
"""Mana and other symbols (`{T}`): no words."""


def _listed(text: str) -> frozenset[str]:
    return frozenset(text.split())


FUNCTION = {
    "en": _listed(
        "a an the of to in on at by for from with into onto as and or but nor not no if then than that this these those"
        " it its it's he she they them their his her him you your yours we our us i me my is are was were be been being"
        " do does did has have had can may might must shall should will would could there here which who whom whose"
        " what when where while each any all some other another such so up out off over under also only just"
        " s t ve ll re d m doesn don isn aren wasn weren didn hasn haven hadn wouldn couldn shouldn cannot"
    ),
    "fr": _listed(
        "a à au aux de du des d le la les l un une et ou ni ne n pas plus que qu qui quoi dont où en y ce c cet cette"
        " ces se s sa son ses leur leurs lui elle elles il ils on vous votre vos nous notre nos je j me m moi te t tu"
        " ton ta tes est sont était être été avoir a ont avait fait si mais car donc or par pour sur sous dans avec"
        " sans vers chez entre comme tout tous toute toutes autre autres même aussi"
    ),
}
"""Words of grammar, not of the game: a phrase pair starts and ends with another word on both sides."""


@dataclass(frozen=True, slots=True)
class Unit:
    """One aligned unit of the parallel texts."""

    source: str
    """`cards`, `rulings` or `rules`."""
    where: str
    """What shows it (a card's name, a ruling's or rule's id)."""
    english: str
    french: str


@dataclass(slots=True)
class Phrases:
    """Phrase pairs counted over the units: how many units link each (English, French) pair of stem keys."""

    pairs: Counter = field(default_factory=Counter)
    """(English key, French key) -> units linking them."""
    english: Counter = field(default_factory=Counter)
    """English key -> units holding it linked to anything."""
    french: Counter = field(default_factory=Counter)
    """French key -> units holding it linked to anything."""
    sources: dict = field(default_factory=lambda: defaultdict(Counter))
    """(English key, French key) -> source -> units."""
    example: dict = field(default_factory=dict)
    """(English key, French key) -> the first unit showing it (`where`)."""
    forms: dict = field(default_factory=lambda: defaultdict(Counter))
    """Key (`en:` or `fr:` before it) -> its printed forms, lower case."""


def words(text: str) -> list[str]:
    """The words of a text, lower case."""
    return [w.lower() for w in WORD.findall(text)]


def keys(found: list[str], stem) -> list[str]:
    """Each word's stem key (folded, then stemmed)."""
    return [stem(_fold(w)) for w in found]


@lru_cache(maxsize=1 << 16)
def _fold(word: str) -> str:
    return fold(word)


def align(units: Iterable[Unit]) -> Phrases:
    """Align the units and count their phrase pairs."""
    kept = []
    for unit in units:
        en, fr = words(SYMBOLS.sub(" ", unit.english)), words(SYMBOLS.sub(" ", unit.french))
        if en and fr and len(en) <= MAX_WORDS and len(fr) <= MAX_WORDS:
            kept.append((unit, en, fr, keys(en, stem_en), keys(fr, stem_fr)))
    phrases = Phrases()
    if not kept:
        return phrases
    forward = _model([k[3] for k in kept], [k[4] for k in kept])  # French words aligned to English ones
    backward = _model([k[4] for k in kept], [k[3] for k in kept])  # English words aligned to French ones
    for (unit, en, fr, ek, fk), f_to_e, e_to_f in zip(kept, forward, backward, strict=True):
        links = _grow(
            len(ek),
            len(fk),
            {(e, j) for j, e in enumerate(f_to_e) if e >= 0},
            {(i, f) for i, f in enumerate(e_to_f) if f >= 0},
        )
        _count(phrases, unit, en, fr, ek, fk, links)
    return phrases


def _model(sources: list[list[str]], targets: list[list[str]]) -> list[list[int]]:
    """IBM Model 1 of the targets given the sources: for each unit, each target word's most likely source word
    (-1: the empty word)."""
    import numpy as np  # late: loading content that has nothing to align needs no numpy

    vocab: dict[str, int] = {"": 0}
    tvocab: dict[str, int] = {}
    src_len = np.fromiter((len(s) + 1 for s in sources), dtype=np.int64, count=len(sources))  # the empty word first
    tgt_len = np.fromiter(map(len, targets), dtype=np.int64, count=len(targets))
    src_flat = np.fromiter(
        (x for s in sources for x in (0, *(vocab.setdefault(w, len(vocab)) for w in s))),
        dtype=np.int64,
        count=int(src_len.sum()),
    )
    tgt_flat = np.fromiter(
        (tvocab.setdefault(w, len(tvocab)) for t in targets for w in t), dtype=np.int64, count=int(tgt_len.sum())
    )
    width = np.int32 if len(vocab) * len(tvocab) < 2**31 else np.int64  # a key: source * |targets| + target
    src_off, tgt_off = (np.concatenate([[0], np.cumsum(lengths)]) for lengths in (src_len, tgt_len))
    parts, local = [], []  # each batch of units, and its distinct keys
    for units in _batches(src_len * tgt_len, BATCH):
        part, keys = _Part.of(src_flat, src_off, tgt_flat, tgt_off, units, len(tvocab), width)
        parts.append(part)
        local.append(keys)
    pair = _sorted_distinct(np.concatenate(local))  # every (source, target) key, in order
    for part, keys in zip(parts, local, strict=True):
        part.place = np.searchsorted(pair, keys).astype(np.int32)[part.place]
    del local
    e_of_pair = pair // len(tvocab)
    t = np.ones(len(pair))  # uniform start
    for _ in range(ITERATIONS):
        counts = np.zeros(len(pair))
        for part in parts:  # in order: every sum is made in the order of one pass over all the combinations
            w = t[part.place]
            group = part.group()
            w /= np.bincount(group, w)[group]  # each combination's posterior
            np.add.at(counts, part.place, w)
        norm = np.bincount(e_of_pair, counts)
        t = counts / norm[e_of_pair]
    found: list[list[int]] = []
    for part in parts:
        best = _argmax_groups(t[part.place], part.starts, part.sizes) - part.starts  # the empty word 0
        ends = np.cumsum(part.tgt_len).tolist()
        found.extend([int(x) - 1 for x in best[end - n : end]] for n, end in zip(part.tgt_len, ends, strict=True))
    return found


def _sorted_distinct(values: np.ndarray) -> np.ndarray:
    """The distinct values, in order."""
    import numpy as np  # late: loading content that has nothing to align needs no numpy

    values = np.sort(values)
    return values[np.concatenate([[True], values[1:] != values[:-1]])]


BATCH = 1 << 20
"""Combinations of (source word, target word) the model works on at once, at most (a unit bigger than that alone)."""


def _batches(sizes: np.ndarray, most: int) -> list[range]:
    """Consecutive ranges of units of at most `most` combinations each (a bigger unit alone)."""
    ranges, start, total = [], 0, 0
    for i, size in enumerate(sizes.tolist()):
        if total and total + size > most:
            ranges.append(range(start, i))
            start, total = i, 0
        total += size
    if start < len(sizes):
        ranges.append(range(start, len(sizes)))
    return ranges


@dataclass
class _Part:
    """A batch of units' combinations of a source word and a target word: each target word's combinations (`sizes`,
    from `starts`), each combination's place among the distinct keys (source * |targets| + target), at first among
    the batch's own."""

    tgt_len: list[int]
    sizes: np.ndarray
    starts: np.ndarray
    place: np.ndarray

    @classmethod
    def of(cls, src_flat, src_off, tgt_flat, tgt_off, units: range, n_targets: int, width) -> tuple[_Part, np.ndarray]:
        """The combinations of the units in `units` (a range of the units' indices; each unit's words start at its
        offset in the flat word ids), and their distinct keys."""
        import numpy as np  # late: loading content that has nothing to align needs no numpy

        s_len = np.diff(src_off[units.start : units.stop + 1])
        t_len = np.diff(tgt_off[units.start : units.stop + 1])
        unit = np.repeat(np.arange(len(t_len)), t_len)  # each target word's unit, in the batch
        sizes = s_len[unit]  # each target word's combinations: its unit's source words, the empty one first
        starts = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
        first = src_off[units.start : units.stop][unit]  # where each target word's source words start
        where = np.ones(int(sizes.sum()), dtype=np.int64)  # each combination's source word, as a step from the last
        where[starts] = first - np.concatenate([[0], (first + sizes - 1)[:-1]])
        np.cumsum(where, out=where)
        key = src_flat[where].astype(width)
        del where
        key *= n_targets
        key += np.repeat(tgt_flat[tgt_off[units.start] : tgt_off[units.stop]].astype(width), sizes)
        keys, place = np.unique(key, return_inverse=True)  # by sorting (by hashing, without the places: slower)
        return cls(t_len.tolist(), sizes, starts, place.astype(np.int32)), keys

    def group(self) -> np.ndarray:
        """Each combination's target word, in the batch."""
        import numpy as np  # late: loading content that has nothing to align needs no numpy

        return np.repeat(np.arange(len(self.sizes), dtype=np.int32), self.sizes)


def _argmax_groups(values: np.ndarray, starts: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """The index of the largest value of each group of consecutive values (the first on ties)."""
    import numpy as np  # late: loading content that has nothing to align needs no numpy

    best = np.maximum.reduceat(values, starts)
    is_best = values == np.repeat(best, sizes)
    marked = np.arange(len(values), dtype=np.int32 if len(values) < 2**31 else np.int64)
    marked[~is_best] = len(values)  # past every group: only its best values' places compete
    return np.minimum.reduceat(marked, starts)


def _grow(n_en: int, n_fr: int, forward: set, backward: set) -> set[tuple[int, int]]:
    """The links both directions agree on, grown to the neighbouring links either has, while a neighbour links a
    word not linked yet ("grow-diag")."""
    links = forward & backward
    extra = (forward | backward) - links  # the links one direction has and the other not: all growth can add
    near = [(-1, 0), (0, -1), (1, 0), (0, 1), (-1, -1), (-1, 1), (1, -1), (1, 1)]
    added = True
    while added and extra:  # most units: both directions agree, nothing to grow
        added = False
        linked_e = {i for i, _ in links}
        linked_f = {j for _, j in links}
        for i, j in sorted(links):
            for di, dj in near:
                a, b = i + di, j + dj
                if (a, b) in extra and (a not in linked_e or b not in linked_f):
                    links.add((a, b))
                    extra.discard((a, b))
                    linked_e.add(a)
                    linked_f.add(b)
                    added = True
    return links


def _count(phrases: Phrases, unit: Unit, en: list[str], fr: list[str], ek: list[str], fk: list[str], links) -> None:
    """Count a unit's phrase pairs consistent with its links, each once; on a card, never its own name (a card
    printed with its name in its text: `Cryptic Trilobite` is no word of the game)."""
    seen = set()
    name = set(words(unit.where)) if unit.source == "cards" else set()
    content_en = [w not in FUNCTION["en"] and w not in name for w in en]
    content_fr = [w not in FUNCTION["fr"] for w in fr]
    for (a, b), (c, d) in _spans(links, content_en, content_fr):
        e_key, f_key = " ".join(ek[a : b + 1]), " ".join(fk[c : d + 1])
        if (e_key, f_key) in seen:
            continue
        seen.add((e_key, f_key))
        phrases.pairs[(e_key, f_key)] += 1
        phrases.sources[(e_key, f_key)][unit.source] += 1
        phrases.example.setdefault((e_key, f_key), unit.where)
        phrases.forms["en:" + e_key][" ".join(en[a : b + 1])] += 1
        phrases.forms["fr:" + f_key][" ".join(fr[c : d + 1])] += 1
    for e_key in {e for e, _ in seen}:
        phrases.english[e_key] += 1
    for f_key in {f for _, f in seen}:
        phrases.french[f_key] += 1


def _spans(links: set[tuple[int, int]], content_en: list[bool], content_fr: list[bool]):
    """((first, last) English word, (first, last) French word) of the phrase pairs consistent with the links: every
    link of the English span falls in the French span and back, the spans at most MAX_PHRASE words, both starting and
    ending on a linked word of the game (no word of grammar)."""
    by_e: dict[int, list[int]] = defaultdict(list)
    by_f: dict[int, list[int]] = defaultdict(list)
    for i, j in links:
        by_e[i].append(j)
        by_f[j].append(i)
    n_en = len(content_en)
    for a in range(n_en):
        if a not in by_e or not content_en[a]:
            continue
        low, high = n_en, -1
        for b in range(a, min(n_en, a + MAX_PHRASE)):
            for j in by_e.get(b, ()):
                low, high = min(low, j), max(high, j)
            if b not in by_e or not content_en[b] or high - low >= MAX_PHRASE:
                continue
            if not (content_fr[low] and content_fr[high]):
                continue
            if all(a <= i <= b for j in range(low, high + 1) for i in by_f.get(j, ())):
                yield (a, b), (low, high)
