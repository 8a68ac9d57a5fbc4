"""Mine the French-English lexicon from the parallel texts of MTGJSON v5 cards (no word lists): keywords
(`kb.link.lexicon.keywords`) and types (`types`) from each card's fields and distinct French printings, and words and
phrases from the word alignment of their printed lines (`align`, `parallel`), beside any other parallel text given.

A card reprinted in several sets counts once; each distinct French printing adds its n-grams and lines.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from kb.link.lexicon.align import Unit, align
from kb.link.lexicon.evidence import PrintedCard, Version, clause_grams, clause_tokens, fold_word, strings, text_of
from kb.link.lexicon.keywords import mine_keywords
from kb.link.lexicon.parallel import card_units, term_keys, word_entries
from kb.link.lexicon.records import CATEGORIES, Lexicon, LexiconEntry
from kb.link.lexicon.types import mine_types
from kb.sources.text import fold


def mine(cards: Iterable[dict]) -> Lexicon:
    """Mine keywords, types and rules words from v5 card dicts (reprints count once)."""
    printings = Printings()
    printings.add(cards)
    return printings.mine()


class Printings:
    """The distinct French printings of cards, gathered a file at a time: a pool's card dicts (tens of thousands of
    reprints) are never all held at once."""

    def __init__(self) -> None:
        self.found: dict[tuple[str, str], PrintedCard] = {}
        """(English name, face name) -> the card and its distinct French printings."""
        self.read = 0
        """Card dicts given so far."""

    def add(self, cards: Iterable[Any]) -> None:
        """Group card dicts by name and face; keep each distinct French printing once."""
        found = self.found
        for card in cards:
            self.read += 1
            if not isinstance(card, dict) or not isinstance(card.get("name"), str):
                continue
            face = text_of(card.get("faceName")) or card["name"]
            entry = found.get((card["name"], face))
            if entry is None:
                lists = [strings(card.get(k)) for k in ("keywords", "supertypes", "types", "subtypes")]
                entry = found[(card["name"], face)] = PrintedCard(face, *lists)
            english = text_of(card.get("originalText")) or text_of(card.get("text"))
            foreigns = card.get("foreignData")
            for foreign in foreigns if isinstance(foreigns, list) else ():
                if isinstance(foreign, dict) and foreign.get("language") == "French":
                    _add_version(entry, english, foreign, text_of(card.get("setCode")))

    def mine(self, words: bool = True) -> Lexicon:
        """Mine keywords and types from the printings gathered, and (`words`) words and terms from the alignment of
        their lines (the terms: the cards' keywords and types of several words)."""
        distinct = [c for c in self.found.values() if c.versions]
        entries = [*mine_keywords(distinct), *mine_types(distinct)]
        if words:
            entries += aligned_words(card_units(self), [e.english for e in entries])
        for cached in (fold_word, clause_tokens, clause_grams):  # tens of megabytes of a pool's words and clauses
            cached.cache_clear()
        return Lexicon(tuple(sorted(entries, key=_order)), len(distinct))


def aligned_words(units: Iterable[Unit], terms: Iterable[str] = ()) -> list[LexiconEntry]:
    """The word entries of the alignment of some parallel units: words, and the English terms given of several
    words (a glossary's, keywords)."""
    return word_entries(align(units), term_keys(terms))


def _order(entry: LexiconEntry) -> tuple[int, str]:
    """Entries by category, then English term."""
    return CATEGORIES.index(entry.category), fold(entry.english)


def _add_version(entry: PrintedCard, english: str, foreign: dict, code: str) -> None:
    """Add a French printing to a card, once, with the set printing it."""
    name = text_of(foreign.get("faceName")) or text_of(foreign.get("name"))
    version = Version(english, name, text_of(foreign.get("text")), text_of(foreign.get("type")))
    if not (version.french_text or version.french_type):
        return
    if version not in entry.versions:
        entry.versions.append(version)
    kept = entry.versions[entry.versions.index(version)]
    if code and code not in kept.sets:
        kept.sets.append(code)
