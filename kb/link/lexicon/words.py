"""Mine the lexicon's rules words (the shared method: `kb.link.lexicon.evidence`).

Lines of the printed English text and of the French text are aligned when both have as many; light stems on both
sides; a pair needs WORD_MIN_DICE and WORD_MIN_LINES, and the French stem must prefer this English stem over any
other. Stems always seen together form one phrase ("sur le champ de bataille").
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field

from kb.link.lexicon.evidence import REMINDER, PrintedCard, fold_word
from kb.link.lexicon.records import ExampleCard, FrenchTerm, LexiconEntry, Variant, stem_en, stem_fr

WORD_MIN_LINES = 6
"""Aligned lines a word pair needs."""


WORD_MIN_DICE = 0.6
"""Dice score a word pair needs."""


ALT_WORD_RATIO = 0.75
"""A word's second French stem needs this share of the first one's Dice score."""


_WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")


@dataclass(slots=True)
class _Lines:
    """Aligned lines of English and French text: stems per line, French lines as printed, line owners."""

    english: list[tuple[str, ...]] = field(default_factory=list)
    """English stems of each line, each once (a tuple: a pool has tens of thousands of lines)."""
    printed: list[list[tuple[str, tuple]]] = field(default_factory=list)
    """Per line: its printings, each as (text, (stem, start, end, stem, start, end…) of its words: flat, since a
    pool's lines hold hundreds of thousands; `_triples` reads them)."""
    owner: list[int] = field(default_factory=list)
    """Index of the card each line belongs to."""
    sets: list[list[list[str]]] = field(default_factory=list)
    """Per line: the set codes of each of its printings (as `printed`)."""
    stems: list[list[tuple[str, ...]]] = field(default_factory=list)
    """Per line: the French stems of each of its printings (as `printed`), each once."""
    name_stems: dict[int, set[str]] = field(default_factory=dict)
    """Card index -> the stems of its French names, made when first asked for."""

    def names(self, card: int, cards: list[PrintedCard]) -> set[str]:
        """The stems of a card's French names."""
        if card not in self.name_stems:
            versions = cards[card].versions
            self.name_stems[card] = {stem_fr(fold_word(w)) for v in versions for w in _WORD.findall(v.french_name)}
        return self.name_stems[card]

    english_forms: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    """English stem -> its printed forms."""

    def french(self, unit: int) -> set[str]:
        """The French stems of a line, all its printings' (made when asked: held for every line, they weigh)."""
        return {stem for stems in self.stems[unit] for stem in stems}


def _line_words(text: str) -> list[list[str]]:
    """Words of each non-empty line, reminder text dropped."""
    lines = (REMINDER.sub(" ", line) for line in text.splitlines())
    return [words for words in ([w for w in _WORD.findall(line) if len(w) > 1] for line in lines) if words]


def _aligned_lines(cards: list[PrintedCard]) -> _Lines:
    """Pair the lines of printings whose English and French texts have as many lines."""
    lines = _Lines()
    for ci, card in enumerate(cards):
        units: dict[int, int] = {}  # the card's line -> its index in `lines`
        stems_en: list[set[str]] = []  # the English stems of the card's lines, all printings'
        for version in card.versions:
            english = _line_words(version.english_text)
            french_lines = [line for line in version.french_text.splitlines() if _line_words(line)]
            if len(english) != len(french_lines) or not english:
                continue
            for li, (en, fr) in enumerate(zip(english, french_lines, strict=True)):
                if li not in units:
                    units[li] = len(lines.owner)
                    stems_en.append(set())
                    lines.printed.append([])
                    lines.owner.append(ci)
                    lines.sets.append([])
                    lines.stems.append([])
                unit = units[li]
                for word in en:
                    key = stem_en(fold_word(word))
                    stems_en[unit - len(lines.english)].add(key)
                    lines.english_forms[key][word.lower()] += 1
                fr = REMINDER.sub(" ", fr)
                words = tuple(
                    part
                    for m in _WORD.finditer(fr)
                    if m.end() - m.start() > 1
                    for part in (stem_fr(fold_word(m.group())), m.start(), m.end())
                )
                lines.printed[unit].append((fr, words))
                lines.sets[unit].append(version.sets)
                lines.stems[unit].append(tuple(dict.fromkeys(words[::3])))
        lines.english += [tuple(stems) for stems in stems_en]  # the card's lines are done: held as tuples
    return lines


def mine_words(cards: list[PrintedCard]) -> list[LexiconEntry]:
    """Entries for words of aligned lines whose stems pair up strongly (Dice over lines)."""
    lines = _aligned_lines(cards)
    holding: dict[str, set[int]] = defaultdict(set)  # French stem -> its lines
    for unit in range(len(lines.owner)):
        for stem in lines.french(unit):
            holding[stem].add(unit)
    df = Counter(k for u in lines.english for k in u)
    grouped: dict[str, list[tuple[str, int, float]]] = defaultdict(list)
    for f, (dice, both, e) in sorted(_best_english(lines, holding, df).items()):
        if dice >= WORD_MIN_DICE and both >= WORD_MIN_LINES:
            grouped[e].append((f, both, round(dice, 9)))
    claimed = {f for chosen in grouped.values() for f, _, _ in chosen} | set(df)  # English: a printing in English
    holding_en: dict[str, list[int]] = defaultdict(list)
    for unit, stems in enumerate(lines.english):
        for stem in stems:
            holding_en[stem].append(unit)
    entries = []
    for e, chosen in grouped.items():
        chosen.sort(key=lambda c: (-c[2], c[0]))
        english = lines.english_forms[e].most_common(1)[0][0]
        terms = _word_terms(chosen, lines, holding, e)
        units = [u for u in sorted(holding[chosen[0][0]]) if e in lines.english[u]]
        examples = [ExampleCard(cards[ci].name, cards[ci].versions[0].french_name) for ci in _first(units, lines)]
        phrase = {chosen[0][0], *(c[0] for c in chosen[1:] if _together(chosen[0][0], c[0], holding))}
        variants = _variants(terms[0].text, chosen[0][0], phrase, holding_en[e], lines, holding, claimed, cards)
        entries.append(LexiconEntry(english, "word", terms, chosen[0][2], df[e], tuple(examples), variants))
    return entries


def _best_english(lines: _Lines, holding: dict[str, set[int]], df: Counter[str]) -> dict[str, tuple[float, int, str]]:
    """French stem -> (Dice, lines together, English stem) of the English stem it pairs with best, both stems on
    WORD_MIN_LINES lines at least (counted a French stem at a time: no table of every pair)."""
    best: dict[str, tuple[float, int, str]] = {}
    for f, units in holding.items():
        if len(units) < WORD_MIN_LINES:
            continue
        together = Counter(e for u in units for e in lines.english[u] if df[e] >= WORD_MIN_LINES)
        if together:
            best[f] = max((2 * both / (df[e] + len(units)), both, e) for e, both in together.items())
    return best


@dataclass(slots=True)
class _Wording:
    """A wording of a term being counted: its printed forms, lines and sets."""

    forms: Counter[str] = field(default_factory=Counter)
    units: set[int] = field(default_factory=set)
    sets: dict[str, None] = field(default_factory=dict)


def _variants(
    first: str, head: str, phrase: set[str], units: list[int], lines: _Lines, holding, claimed: set[str], cards
) -> tuple[Variant, ...]:
    """Every wording of an English word in its lines: its phrase (`first`), a part of the phrase printed alone
    (« blessures »), and a word standing where the phrase's `head` (its best stem) is missing that translates
    nothing else and is no part of the card's name (« dégâts »), seen on two lines at least and on most of the
    lines holding it."""
    found: dict[object, _Wording] = defaultdict(_Wording)
    for unit in units:
        for (text, words), sets, here in zip(lines.printed[unit], lines.sets[unit], lines.stems[unit], strict=True):
            present = {stem for stem in phrase if stem in here}
            if present == phrase:
                keys = [("phrase", first)]
            else:  # the phrase is incomplete: its parts printed alone, and words standing for its head
                keys = [("part", frozenset(present), form) for form in _phrase(text, words, present)[:1]]
                if head not in here:
                    names = lines.names(lines.owner[unit], cards)
                    strays = [(w, a, b) for w, a, b in _triples(words) if _stray(w, claimed, names)]
                    keys += [("other", w, text[a:b].lower()) for w, a, b in strays]
            for key in keys:
                wording = found[key[:2]]
                wording.forms[key[-1]] += 1
                wording.units.add(unit)
                wording.sets.update(dict.fromkeys(sets))
    kept = []
    for key, wording in found.items():
        if key[0] == "other" and (len(wording.units) < 2 or len(wording.units) < 0.8 * len(holding[key[1]])):
            continue
        kept.append(Variant(wording.forms.most_common(1)[0][0], len(wording.units), tuple(wording.sets)))
    return tuple(sorted(kept, key=lambda v: (-v.count, v.text)))


def _stray(stem: str, claimed: set[str], names: set[str]) -> bool:
    """Whether a French stem can stand for a term whose usual wording is missing: a word of five letters or more,
    neither a stem translating a term nor an inflection of one (`ciblent`: `cibl`), no part of the card's name,
    not an English word (a printing left in English)."""
    if len(stem) < 5 or stem in names:
        return False
    return not any(stem[:k] in claimed for k in range(4, len(stem) + 1))


def _first(units: list[int], lines: _Lines, count: int = 3) -> list[int]:
    return list(dict.fromkeys(lines.owner[u] for u in units))[:count]


def _word_terms(chosen, lines: _Lines, holding: dict[str, set[int]], english: str) -> tuple[FrenchTerm, ...]:
    """French terms of a word: the best stem as a phrase with the stems always beside it, then strong others."""
    first = chosen[0][0]
    mates = [c[0] for c in chosen[1:] if _together(first, c[0], holding)]
    units = [u for u in holding[first] if english in lines.english[u] and all(u in holding[m] for m in mates)]
    phrases = Counter(p for u in units for line in lines.printed[u] for p in _phrase(*line, {first, *mates}))
    if not phrases:
        mates, phrases = [], _stem_forms(first, units, lines)
    texts = [text for text, _ in phrases.most_common(4)]
    terms = [FrenchTerm(texts[0], chosen[0][1], tuple(texts[1:]))]
    for stem, count, dice in chosen[1:]:
        if stem not in mates and dice >= ALT_WORD_RATIO * chosen[0][2]:
            forms = _stem_forms(stem, [u for u in holding[stem] if english in lines.english[u]], lines)
            texts = [text for text, _ in forms.most_common(4)]
            terms.append(FrenchTerm(texts[0], count, tuple(texts[1:])))
    return tuple(sorted(terms, key=lambda t: -t.count))


def _stem_forms(stem: str, units: list[int], lines: _Lines) -> Counter[str]:
    """How the words with a stem are printed in some lines."""
    words = (text[a:b].lower() for u in units for text, words in lines.printed[u] for key, a, b in _triples(words)
             if key == stem)  # fmt: skip
    return Counter(words) or Counter({stem: 1})


def _together(one: str, other: str, holding: dict[str, set[int]]) -> bool:
    """Whether two French stems share at least 80% of their lines (parts of one phrase)."""
    return len(holding[one] & holding[other]) >= 0.8 * min(len(holding[one]), len(holding[other]))


def _triples(words: tuple) -> Iterator[tuple[str, int, int]]:
    """A line's words as (stem, start, end), from their flat tuple."""
    each = iter(words)
    return zip(each, each, each, strict=True)


def _phrase(line: str, words: tuple, stems: set[str]) -> list[str]:
    """The printed spans of a line running from the first to the last word with one of the stems (`words` flat, as
    `_Lines.printed` keeps them)."""
    spots = [(a, b) for key, a, b in _triples(words) if key in stems]
    if not spots:
        return []
    if len(stems) == 1:
        return [line[a:b].lower() for a, b in spots]
    text = line[spots[0][0] : spots[-1][1]]
    return [text.lower()] if len(_WORD.findall(text)) <= len(stems) + 2 else []
