"""The French-English lexicon: its entries and lookups both ways (how it is mined: `kb.link.lexicon.mining`; its
JSON form and files: `kb.link.lexicon.files`)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from kb.sources.text import fold, stem_en, stem_fr

CATEGORIES = ("keyword", "type", "supertype", "subtype", "word")
"""Entry categories, in lookup priority order."""


UNSURE_SCORE = 0.5
"""Entries scoring below this are listed by `Lexicon.unsure`."""


@dataclass(frozen=True, slots=True)
class ExampleCard:
    """A card showing a translation."""

    english: str
    """English card name."""
    french: str
    """French card name as printed (MTGJSON gives the English one for some split cards)."""


@dataclass(frozen=True, slots=True)
class FrenchTerm:
    """One French translation of an English term."""

    text: str
    """The form printed most often."""
    count: int
    """Distinct cards (lines, for words) where it translates the term."""
    forms: tuple[str, ...] = ()
    """Other printed forms matched with it (case, inflections of a word's stem)."""


@dataclass(frozen=True, slots=True)
class Variant:
    """One wording the cards print for an English term (« inflige des blessures », « blessures », « dégâts »)."""

    text: str
    """As printed most often."""
    count: int
    """Lines (distinct cards, for keywords) printing it for the term."""
    sets: tuple[str, ...] = ()
    """Set codes of the printings that print it so, in order."""


@dataclass(frozen=True, slots=True)
class LexiconEntry:
    """An English term and its French translations."""

    english: str
    """English term as printed (`Flying`, `Creature`, `draw`)."""
    category: str
    """One of CATEGORIES."""
    french: tuple[FrenchTerm, ...]
    """Translations, most cards first; more than one means conflicting translations."""
    score: float
    """Confidence in the first translation, 0..1 (weighted Dice coefficient)."""
    evidence: int
    """Distinct cards (aligned lines, for words) carrying the English term."""
    examples: tuple[ExampleCard, ...]
    """Up to three cards showing the first translation."""
    variants: tuple[Variant, ...] = ()
    """Every wording of the term the cards print, most lines (cards, for keywords) first: a rules word's, a keyword's
    where the keyword is printed (types: none)."""
    sources: tuple[tuple[str, int], ...] = ()
    """(source, units) of the parallel texts the first translation was aligned in (`cards`, `rulings`, `rules`: a
    word's, `kb.link.lexicon.parallel`); empty for a keyword or type (printed cards, mined from their fields)."""

    @property
    def best(self) -> str:
        """The first French translation ('' when none)."""
        return self.french[0].text if self.french else ""


@dataclass(frozen=True, slots=True)
class Lexicon:
    """Mined entries with lookups both ways (case-, accent- and apostrophe-insensitive)."""

    entries: tuple[LexiconEntry, ...]
    """Entries by category (CATEGORIES order), then English term."""
    cards: int = 0
    """Distinct cards with French text the entries were mined from."""
    _keys: dict[str, tuple[int, ...]] = field(init=False, repr=False, compare=False)
    """Folded English term -> its entries' places (made once: a terminology looks up a thousand terms)."""
    _stems: dict[str, tuple[int, ...]] = field(init=False, repr=False, compare=False)
    """A word entry's English stem -> its entries' places."""
    _unsure: tuple[LexiconEntry, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        keys: dict[str, list[int]] = {}
        stems: dict[str, list[int]] = {}
        for k, entry in enumerate(self.entries):
            key = fold(entry.english)
            keys.setdefault(key, []).append(k)
            if entry.category == "word":
                stems.setdefault(stem_en(key), []).append(k)
        object.__setattr__(self, "_keys", {key: tuple(v) for key, v in keys.items()})
        object.__setattr__(self, "_stems", {key: tuple(v) for key, v in stems.items()})
        unsure = tuple(e for e in self.entries if e.score < UNSURE_SCORE or e.evidence < 2 or _conflicting(e.french))
        object.__setattr__(self, "_unsure", unsure)

    def lookup(self, english: str, category: str | None = None) -> tuple[LexiconEntry, ...]:
        """Entries for an English term (a word also by its stem: `tap` finds `tapped`), by category priority."""
        key = fold(english).strip()
        places = sorted({*self._keys.get(key, ()), *self._stems.get(stem_en(key), ())})
        return tuple(self.entries[k] for k in places if category in (None, self.entries[k].category))

    def french_for(self, english: str, category: str | None = None) -> tuple[str, ...]:
        """French translations of an English term, best first."""
        return tuple(dict.fromkeys(t.text for e in self.lookup(english, category) for t in e.french))

    def english_for(self, french: str, category: str | None = None) -> tuple[str, ...]:
        """English terms one of whose translations is this French term (or, for words, shares its stem)."""
        key = fold(french).strip()
        found = []
        for entry in self.entries:
            if category not in (None, entry.category):
                continue
            for term in (*entry.french, *(FrenchTerm(v.text, v.count) for v in entry.variants)):
                forms = {fold(f) for f in (term.text, *term.forms)}
                stems = {stem_fr(f) for f in forms} if entry.category == "word" else set()
                if key in forms or stem_fr(key) in stems:
                    found.append(entry.english)
        unique: dict[str, str] = {}
        for english in found:
            unique.setdefault(fold(english), english)
        return tuple(unique.values())

    def unsure(self) -> tuple[LexiconEntry, ...]:
        """Entries with a low score, a single card of evidence or conflicting translations (French terms of no one
        word family: `hasard`, `aléatoire`; `moins`, `inférieur`; not `défaussez-vous`, `défausse`, nor `attaquer`,
        `attaquante`, nor `tour`, `tour-ci`)."""
        return self._unsure

    def by_category(self) -> dict[str, int]:
        """Number of entries per category."""
        return {c: sum(1 for e in self.entries if e.category == c) for c in CATEGORIES}


REFLEXIVE = frozenset({"me", "m", "te", "t", "se", "s", "nous", "vous"})
"""French pronouns a verb's printed forms carry or not (`défaussez-vous`, `se défausse`)."""


FAMILY = 5
"""Letters two stems share at the start to be of one word family (`attaqu`, `attaquant`; `equip`, `equipement`)."""


def _conflicting(french: tuple[FrenchTerm, ...]) -> bool:
    """Whether some of an entry's French terms are of no word family of the first: a stem of one begins as a stem
    of the other (`recyclage`, `recyclez`; `tour`, `tour-ci`; `mutation`, `subit une mutation`)."""
    first = gist(french[0].text) if french else ()
    return any(not _family(first, gist(t.text)) for t in french[1:])


def _family(one: tuple[str, ...], other: tuple[str, ...]) -> bool:
    for a in one:
        for b in other:
            n = min(FAMILY, len(a), len(b))
            if a[:n] == b[:n]:
                return True
    return False


def gist(term: str) -> tuple[str, ...]:
    """A French term's words as light stems, reflexive pronouns aside: the same for every form of one term."""
    return tuple(stem_fr(w) for w in re.findall(r"\w+", fold(term)) if w not in REFLEXIVE)
