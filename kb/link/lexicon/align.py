"""Word alignment of parallel French and English texts, and the phrase pairs it gives.

IBM Model 1 (Brown et al. 1993), trained by expectation-maximisation in each direction over the aligned units of the
parallel texts (a card's printed lines, a French FAQ ruling and the English ruling it translates, a translated rule
and its original), with an empty word on the side words are aligned to. Each direction's Viterbi links are kept where
both directions agree, then grown to neighbouring links each direction has ("grow-diag", Koehn, Och and Marcu 2003);
phrase pairs of up to MAX_PHRASE words consistent with the links are counted, a pair once per unit. Words are compared
as light stems (`kb.sources.text.stem_fr`, `stem_en`), so every inflection of a word counts for it; each phrase keeps
the forms it is printed with.

The expectation step runs over every (English word, French word) pair of every unit at once (numpy): a unit of
`e` English and `f` French words weighs `(e + 1) * f` numbers, made in numpy from the units' word ids (as Python lists,
a card pool's 7.6 million pairs held 550 MB), the pairs' places sorted out in 32-bit integers, the rounds' arrays
reused.
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
    src = [[0, *(vocab.setdefault(w, len(vocab)) for w in s)] for s in sources]
    tvocab: dict[str, int] = {}
    tgt = [[tvocab.setdefault(w, len(tvocab)) for w in t] for t in targets]
    # every (source word, target word) combination of every unit, made in numpy from the units' flat word ids (on a
    # card pool, 7.6 million combinations: as Python lists of ints they held 550 MB)
    src_len = np.fromiter(map(len, src), dtype=np.int64, count=len(src))
    tgt_len = np.fromiter(map(len, tgt), dtype=np.int64, count=len(tgt))
    src_flat = np.fromiter((x for s in src for x in s), dtype=np.int64, count=int(src_len.sum()))
    tgt_flat = np.fromiter((x for t in tgt for x in t), dtype=np.int64, count=int(tgt_len.sum()))
    unit = np.repeat(np.arange(len(tgt)), tgt_len)  # each target word's unit
    sizes_a = src_len[unit]  # each target word's combinations: its unit's source words, the empty one first
    starts = np.concatenate([[0], np.cumsum(sizes_a)[:-1]])
    group = np.repeat(np.arange(len(sizes_a)), sizes_a)  # each combination's target position
    first = np.concatenate([[0], np.cumsum(src_len)[:-1]])[unit]  # where each target word's source words start
    width = np.int32 if len(vocab) * len(tvocab) < 2**31 else np.int64  # a key: source * |targets| + target
    where = np.ones(len(group), dtype=np.int64)  # each combination's source word, as a step from the one before
    where[starts] = first - np.concatenate([[0], (first + sizes_a - 1)[:-1]])  # a target word's first: its unit's
    np.cumsum(where, out=where)
    key = src_flat.astype(width)[where]
    del where
    key *= len(tvocab)
    key += np.repeat(tgt_flat.astype(width), sizes_a)
    pair, places = _distinct(key)
    del key
    pair_of = places.astype(np.intp)  # numpy's take and bincount index with these: converted once, not each round
    del places
    e_of_pair = pair // len(tvocab)
    t = np.ones(len(pair))  # uniform start
    w, total_of = np.empty(len(group)), np.empty(len(group))  # reused by every round
    for _ in range(ITERATIONS):
        np.take(t, pair_of, out=w, mode="clip")  # the places are all in range; "clip" spares numpy a copy of `out`
        np.take(np.bincount(group, w), group, out=total_of, mode="clip")
        w /= total_of  # each combination's posterior
        counts = np.bincount(pair_of, w, minlength=len(pair))
        norm = np.bincount(e_of_pair, counts)
        t = counts / norm[e_of_pair]
    del w, total_of
    best = _argmax_groups(t[pair_of], starts, sizes_a) - starts  # each target word's source word, the empty one 0
    found, k = [], 0
    for tt in tgt:
        found.append([int(x) - 1 for x in best[k : k + len(tt)]])
        k += len(tt)
    return found


def _distinct(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct keys in order, and each key's place among them (numpy's `unique` with `return_inverse`, in
    less memory: the places as 32-bit integers, nothing kept but what they are made from)."""
    import numpy as np  # late: loading content that has nothing to align needs no numpy

    order = keys.argsort()
    ranked = keys[order]
    new = np.empty(len(ranked), dtype=bool)
    new[:1] = True
    np.not_equal(ranked[1:], ranked[:-1], out=new[1:])
    distinct = ranked[new]
    del ranked
    ids = np.cumsum(new, dtype=np.int32)
    del new
    ids -= 1
    place = np.empty(len(keys), dtype=np.int32)
    place[order] = ids
    return distinct, place


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
