"""Query words -> index terms: as written, by their longest known stem, by spelling, or as card-name prefixes.

Pure Python (no whoosh); `templates/static/kbsearch.js` resolves words the same way, from the same tables.
A word found as written in any language is taken as it is. Otherwise its longest prefix that is a stem
(`shuffling` -> `shuffl`) stands for it, else the words one edit away (insertion, deletion, substitution or
two letters swapped), the most frequent first: the correction is offered as "did you mean".
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from kb.search.query import Item, ParsedQuery
from kb.search.text import is_stop, query_tokens

MAX_SLOTS = 16
"""Query words and phrases looked at (a longer query keeps its first ones)."""
MAX_WORD = 40
"""Longer words are taken as written only (never stemmed or corrected)."""
STEM_FACTOR = 0.9
"""Weight of a word found through its stem prefix only."""
FUZZY_FACTOR = 0.7
"""Weight of a spelling correction."""
CONCEPT_FACTOR = 0.3
"""Weight of a word that characterises a query headword (see `kb.search.build.LangIndex.concepts`)."""
TRANSLATED = 0.5
"""Score factor of a match through a translation (`kb.search.translate`) against a match of the word as typed."""
FUZZY_MAX = 3
"""Corrections kept for one word, the most frequent first."""
NAME_MIN = 3
"""Shortest card-name prefix matched (`isp` finds Isperia)."""
NAME_LIMIT = 50
"""Card-name words looked at for one prefix."""


@dataclass(slots=True)
class Slot:
    """One word, phrase or OR group of the query, resolved in each language."""

    text: str
    """What the user typed (folded)."""
    stop: bool
    """Only stop words: left out unless the query has nothing else."""
    words: dict[str, list[tuple[int, float, int]]] = field(default_factory=dict)
    """Language -> (term, factor, bit) alternatives: the word, its corrections, OR-ed words; `bit` is the
    word's bit in the term's masks (-1: no word as written), a document without it weighs INEXACT."""
    phrases: dict[str, list[list[int]]] = field(default_factory=dict)
    """Language -> term sequences of quoted phrases."""
    names: dict[str, list[tuple[int, float]]] = field(default_factory=dict)
    """Language -> (document, factor) of the cards with a name word starting with the word."""
    weight: float = 0.0
    """How much finding this slot counts (its best idf): a document's coverage is its share of the weights."""
    name_idf: float = 0.0
    """Idf of the card-name prefix match."""
    fixed: str | None = None
    """The spelling correction used, if any."""
    via: dict[str, list[tuple[list[int], float]]] = field(default_factory=dict)
    """Language -> (terms, factor) of the slot's translations through the lexicon (`kb.search.translate`): one
    term is a word in any of its forms, several a phrase; `factor` as for `words` (a match scores TRANSLATED of
    that); a document they match is found through translation."""
    translated: list[tuple[str, str, str, list[str]]] = field(default_factory=list)
    """(source language, target language, words as typed, translations shown) of those translations."""


def osa_within_one(a: str, b: str) -> bool:
    """Whether two words differ by at most one insertion, deletion, substitution or swap of neighbours."""
    if a == b:
        return True
    la, lb = len(a), len(b)
    if abs(la - lb) > 1:
        return False
    i = 0
    while i < min(la, lb) and a[i] == b[i]:
        i += 1
    if la == lb:
        if a[i + 1 :] == b[i + 1 :]:
            return True
        return i + 1 < la and a[i] == b[i + 1] and a[i + 1] == b[i] and a[i + 2 :] == b[i + 2 :]
    return a[i + 1 :] == b[i:] if la > lb else a[i:] == b[i + 1 :]


@dataclass(frozen=True, slots=True)
class Unit:
    """What becomes one slot: a word of the query, or a phrase or OR group."""

    tokens: tuple[tuple[str, str, bool], ...]
    """(kind, folded text, is a phrase) of each alternative."""
    word: str | None
    """The folded word when the unit is a lone word typed among others (one the lexicon may translate), else None."""
    typed: str
    """The word as typed (the folded word when the typed item holds several)."""


def units(parsed: ParsedQuery) -> list[Unit]:
    """The units of a query, in order."""
    found = []
    for group in parsed.groups:
        parts = _group_tokens(group)
        plain = len(group) == 1 and not group[0].phrase
        for tokens in parts:
            word = tokens[0][1] if plain and tokens[0][0] == "word" else None
            typed = group[0].text if plain and len(parts) == 1 else " OR ".join(w for _, w, _ in tokens)
            found.append(Unit(tuple(tokens), word, typed))
    return found


def resolve(parsed: ParsedQuery, reader, langs: tuple[str, ...]) -> list[Slot]:
    """The slots of a query in the given languages (no translation; see `kb.search.translate`)."""
    stops = query_stops(reader, langs)
    return finish([weigh(unit_slot(u, reader, langs, stops), reader, langs) for u in units(parsed)], reader, langs)


def query_stops(reader, langs: tuple[str, ...]) -> frozenset[str]:
    """The stop words of the searched languages."""
    return frozenset().union(*(reader.stops[lang] for lang in langs))


def unit_slot(unit: Unit, reader, langs: tuple[str, ...], stops, fuzzy: bool = True) -> Slot:
    """The slot of one unit, its weight left for `weigh` (spelling corrections only with `fuzzy`)."""
    slot = Slot(
        " OR ".join(w for _, w, _ in unit.tokens), all(not p and is_stop(w, k, stops) for k, w, p in unit.tokens)
    )
    for kind, text, phrase in unit.tokens:
        if phrase:
            _phrase(slot, text, reader, langs)
        else:
            _word(slot, kind, text, reader, langs, fuzzy)
    return slot


def phrase_slot(found: list[Unit], reader, langs: tuple[str, ...]) -> Slot:
    """The slot of several lone words taken as one term (a phrase), its weight left for `weigh`."""
    words = [u.word for u in found]
    slot = Slot(" ".join(words), False)
    _phrase(slot, " ".join(words), reader, langs)
    return slot


def finish(slots: list[Slot | None], reader, langs: tuple[str, ...]) -> list[Slot]:
    """The slots a query ranks with: stop words left out unless only they are left, at most MAX_SLOTS, and a
    headword's characteristic words added when the query pairs several words."""
    slots = [s for s in slots if s is not None]
    kept = [s for s in slots if not s.stop][:MAX_SLOTS]
    if not kept:  # only stop words: they can only be words of card names (`Up // Down`), all of them
        kept = [_name_words(s, reader, langs) for s in slots[:MAX_SLOTS]]
        return kept if all(s.weight > 0 for s in kept) else []
    if len(kept) >= 2:
        for slot in kept:
            _concepts(slot, reader, langs)
    return kept


def _name_words(slot: Slot, reader, langs) -> Slot:
    """The slot of a stop word reduced to the cards having it as a word of their name."""
    named = Slot(slot.text, True)
    docs = set()
    for lang in langs:
        found = sorted({doc for name, doc in reader.names(lang, slot.text, NAME_LIMIT) if name == slot.text})
        if found:
            named.names[lang] = [(doc, 1.0) for doc in found]
            docs.update(found)
    if docs:
        n = max(reader.n_docs[lang] for lang in langs)
        named.weight = named.name_idf = math.log(1 + (n - len(docs) + 0.5) / (len(docs) + 0.5))
    return named


def _concepts(slot: Slot, reader, langs) -> None:
    """Add what a headword of the query names (`trample`: assign, lethal, excess…) as weak alternatives; for a
    word found in a language only through its translation, what the translation names, as weak translations."""
    for lang in langs:
        alts = slot.words.get(lang, [])
        exact = [t for t, f, _ in alts if f == 1.0]
        if len(exact) == 1:
            known = {t for t, _, _ in alts}
            alts += [(t, CONCEPT_FACTOR * w, -1) for t, w in reader.concept(lang, exact[0]) if t not in known]
        via = slot.via.get(lang, [])
        translated = [terms[0] for terms, f in via if len(terms) == 1 and f == 1.0]
        if not exact and len(translated) == 1:
            known = {terms[0] for terms, _ in via if len(terms) == 1}
            via += [([t], CONCEPT_FACTOR * w) for t, w in reader.concept(lang, translated[0]) if t not in known]


def _group_tokens(group: tuple[Item, ...]) -> list[list[tuple[str, str, bool]]]:
    """Tokens of a group as slots: a lone word item of several tokens (`state-based`) gives one slot each."""
    if len(group) == 1 and not group[0].phrase:
        return [[(kind, w, False)] for kind, w in query_tokens(group[0].text)]
    found = []
    for item in group:
        toks = query_tokens(item.text)
        if item.phrase and len(toks) > 1:
            found.append(("phrase", " ".join(w for _, w in toks), True))
        else:
            found += [(kind, w, False) for kind, w in toks]
    return [found] if found else []


def weigh(slot: Slot, reader, langs) -> Slot | None:
    """Set a slot's weight (its best alternative's idf, a translation's in full: translating a word does not make
    it matter less, only its matches count less); None when it has none."""
    weights = [reader.term(lang, t).idf * f for lang in langs for t, f, _ in slot.words.get(lang, ())]
    for lang in langs:
        weights += [sum(reader.term(lang, t).idf for t in terms) for terms in slot.phrases.get(lang, ())]
        weights += [sum(reader.term(lang, t).idf for t in terms) * f for terms, f in slot.via.get(lang, ())]
    matched = {d for lang in langs for d, _ in slot.names.get(lang, ())}
    if matched:
        n = max(reader.n_docs[lang] for lang in langs)
        slot.name_idf = math.log(1 + (n - len(matched) + 0.5) / (len(matched) + 0.5))
        weights.append(slot.name_idf)
    slot.weight = max(weights, default=0.0)
    return slot if slot.weight > 0 else None


def _phrase(slot: Slot, text: str, reader, langs) -> None:
    """Add a quoted phrase: its words as written, in order, in each language that has them all."""
    words = text.split(" ")
    for lang in langs:
        terms = [reader.vocab(lang, w) for w in words]
        if None not in terms:
            slot.phrases.setdefault(lang, []).append(terms)


def _word(slot: Slot, kind: str, word: str, reader, langs, fuzzy: bool = True) -> None:
    """Add a word: as written, else its stem prefix, else its spelling corrections; and card-name prefixes."""
    known = {lang: t for lang in langs if (t := reader.word(lang, word)) is not None}
    if kind == "word" and len(word) >= NAME_MIN and not known:  # a partial name: `isper` for Isperia
        for lang in langs:
            best: dict[int, float] = {}
            for name, doc in reader.names(lang, word, NAME_LIMIT):
                best[doc] = max(best.get(doc, 0.0), len(word) / len(name))
            if best:
                slot.names.setdefault(lang, []).extend(sorted(best.items()))
    if known:
        for lang, (t, bit) in known.items():
            slot.words.setdefault(lang, []).append((t, 1.0, bit))
        return
    if kind != "word" or not word.isalpha() or len(word) > MAX_WORD:
        return
    stemmed = {lang: t for lang in langs if (t := stem_prefix(word, lang, reader)) is not None}
    for lang, t in stemmed.items():
        slot.words.setdefault(lang, []).append((t, STEM_FACTOR, -1))
    if not stemmed and not slot.names and fuzzy:
        _fuzzy(slot, word, reader, langs)


def stem_prefix(word: str, lang: str, reader) -> int | None:
    """The term of the longest proper prefix of `word` that is a stem (at least 5 letters, at most 3 cut)."""
    for k in range(len(word) - 1, max(5, len(word) - 3) - 1, -1):
        t = reader.form(lang, word[:k])
        if t is not None:
            return t
    return None


def _fuzzy(slot: Slot, word: str, reader, langs) -> None:
    """Add the vocabulary words one edit away, the most frequent first (at most FUZZY_MAX)."""
    from kb.search.db import FUZZY_MIN

    if len(word) < FUZZY_MIN:
        return
    found: dict[str, dict[str, tuple[int, int, int]]] = {}
    for lang, cand, term, df, bit in reader.near(word):
        if lang in langs and osa_within_one(word, cand):
            found.setdefault(cand, {})[lang] = (term, df, bit)
    ranked = sorted(found, key=lambda c: (-sum(x[1] for x in found[c].values()), c))[:FUZZY_MAX]
    for cand in ranked:
        for lang, (term, _, bit) in found[cand].items():
            slot.words.setdefault(lang, []).append((term, FUZZY_FACTOR, bit))
    if ranked:
        slot.fixed = ranked[0]
