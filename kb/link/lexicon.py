"""The French-English lexicon mined from printed cards: its entries, lookups both ways, and its JSON form.

How the entries are mined is told in `kb.link.lexicon_mine` (keywords) and `kb.link.lexicon_words` (types and
rules words).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from kb.sources.text import fold

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

    def lookup(self, english: str, category: str | None = None) -> tuple[LexiconEntry, ...]:
        """Entries for an English term (a word also by its stem: `tap` finds `tapped`), by category priority."""
        key = fold(english).strip()
        return tuple(
            e
            for e in self.entries
            if category in (None, e.category)
            and (fold(e.english) == key or e.category == "word" and _stem_en(fold(e.english)) == _stem_en(key))
        )

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
                stems = {_stem_fr(f) for f in forms} if entry.category == "word" else set()
                if key in forms or _stem_fr(key) in stems:
                    found.append(entry.english)
        unique: dict[str, str] = {}
        for english in found:
            unique.setdefault(fold(english), english)
        return tuple(unique.values())

    def unsure(self) -> tuple[LexiconEntry, ...]:
        """Entries with a low score, a single card of evidence or conflicting translations (French terms that are
        not forms of one term: `hasard`, `aléatoire`; not `défaussez-vous`, `défausse`)."""
        return tuple(
            e
            for e in self.entries
            if e.score < UNSURE_SCORE or e.evidence < 2 or len({_gist(t.text) for t in e.french}) > 1
        )

    def by_category(self) -> dict[str, int]:
        """Number of entries per category."""
        return {c: sum(1 for e in self.entries if e.category == c) for c in CATEGORIES}


def mine_lexicon(cards: Iterable[dict]) -> Lexicon:
    """Mine keywords, types and rules words from v5 card dicts (reprints count once)."""
    from kb.link.lexicon_mine import mine  # here: the miners need this module's records

    return mine(cards)


@lru_cache(maxsize=200_000)
def _stem_en(word: str) -> str:
    """A light English stem: plural, -ed and -ing endings and a final e removed."""
    if word.endswith("ies") and len(word) > 4:
        word = word[:-3] + "y"
    elif word.endswith("s") and not word.endswith(("ss", "us")) and len(word) > 3:
        word = word[:-1]
    for suffix in ("ing", "ed"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)]
            if len(word) > 3 and word[-1] == word[-2]:
                word = word[:-1]
            break
    return word[:-1] if word.endswith("e") and len(word) > 3 else word


REFLEXIVE = frozenset({"me", "m", "te", "t", "se", "s", "nous", "vous"})
"""French pronouns a verb's printed forms carry or not (`défaussez-vous`, `se défausse`)."""


def _gist(term: str) -> tuple[str, ...]:
    """A French term's words as light stems, reflexive pronouns aside: the same for every form of one term."""
    return tuple(_stem_fr(w) for w in re.findall(r"\w+", fold(term)) if w not in REFLEXIVE)


@lru_cache(maxsize=200_000)
def _stem_fr(word: str) -> str:
    """A light French stem of a folded word: plural, then -ée, -er, -ez, -e endings removed."""
    if word.endswith(("s", "x")) and len(word) > 3:
        word = word[:-1]
    for suffix in ("ee", "er", "ez", "e"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


# --- JSON -------------------------------------------------------------------------------------

FORMAT = "kb-lexicon/1"
"""Value of the `format` field of a lexicon JSON document."""


def lexicon_to_json(lexicon: Lexicon) -> dict[str, Any]:
    """The lexicon as a JSON-ready dict (see `lexicon_from_json`)."""
    return {
        "format": FORMAT,
        "cards": lexicon.cards,
        "entries": [
            {
                "english": e.english,
                "category": e.category,
                "score": e.score,
                "evidence": e.evidence,
                "french": [{"text": t.text, "count": t.count, "forms": list(t.forms)} for t in e.french],
                "examples": [{"english": x.english, "french": x.french} for x in e.examples],
                "variants": [{"text": v.text, "count": v.count, "sets": list(v.sets)} for v in e.variants],
            }
            for e in lexicon.entries
        ],
    }


def lexicon_from_json(data: Any) -> Lexicon:
    """Rebuild a lexicon from `lexicon_to_json` output; raise ValueError naming the first bad field."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f"not a lexicon document: 'format' must be {FORMAT!r}")
    entries = data.get("entries")
    if not isinstance(entries, list):
        raise ValueError("'entries' must be a list")
    return Lexicon(tuple(_entry_from_json(e, i) for i, e in enumerate(entries)), _field(data, "cards", int, "document"))


def _entry_from_json(data: Any, index: int) -> LexiconEntry:
    where = f"entry {index}"
    if not isinstance(data, dict):
        raise ValueError(f"{where} must be an object")
    category = _field(data, "category", str, where)
    if category not in CATEGORIES:
        raise ValueError(f"{where}: unknown category {category!r}")
    french = tuple(
        FrenchTerm(_field(t, "text", str, where), _field(t, "count", int, where), tuple(_strings(t.get("forms"))))
        for t in _objects(data.get("french"), where)
    )
    examples = tuple(
        ExampleCard(_field(x, "english", str, where), _field(x, "french", str, where))
        for x in _objects(data.get("examples"), where)
    )
    variants = tuple(
        Variant(_field(v, "text", str, where), _field(v, "count", int, where), _strings(v.get("sets")))
        for v in _objects(data.get("variants", []), where)
    )  # a file written before variants were kept has none
    score = _field(data, "score", (int, float), where)
    return LexiconEntry(_field(data, "english", str, where), category, french, float(score),
                        _field(data, "evidence", int, where), examples, variants)  # fmt: skip


def _objects(value: Any, where: str) -> list[dict]:
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        raise ValueError(f"{where}: expected a list of objects")
    return value


def _field(data: dict, name: str, kind: type | tuple[type, ...], where: str) -> Any:
    value = data.get(name)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise ValueError(f"{where}: '{name}' is missing or has the wrong type")
    return value


def _strings(value: Any) -> tuple[str, ...]:
    return tuple(v for v in value if isinstance(v, str) and v.strip()) if isinstance(value, list) else ()
