"""Spelling: a query's words the vocabularies lack, corrected from the index's own words (Whoosh's corrector over the
words of one first letter), or by two neighbouring letters swapped back, or stood for by their longest known stem;
translated as their correction is. A word printed on the cards (a printed-words table's) is never corrected.
`templates/static/kbsearch.js` corrects the same way from the same files.
"""

from __future__ import annotations

from typing import Any

from kb.search.lookup import CORRECT_PREFIX, FUZZY_FACTOR, Alt, Slot, translate_missing
from kb.search.query import ParsedQuery
from kb.search.text import query_tokens

SWAP_MIN = 3
"""Shortest word corrected by swapping two neighbouring letters back."""
LAST = "\uffff"
"""Ends a corrector's word list: sorts after any word, and no word of three letters or more is near it."""


class Speller:
    """Corrections from an index's tables (`kb.search.engine.ExportTables`), Whoosh's correctors kept per first
    letter."""

    def __init__(self, tables) -> None:
        self.tables = tables
        self.correctors: dict[tuple[str, str], Any] = {}

    def correct(self, slot: Slot, langs: tuple[str, ...]) -> bool:
        """Replace a slot's missing words by their spelling corrections (Whoosh's corrector over the words sharing
        their first letter, the most common first) at one edit, unless printed on the cards (a word of the game:
        only its known stem, if any, stands for it), else by two letters swapped back (`hsate`,
        `wrad`: a transposition is two edits, too many for a short word), else by their longest known stems (also
        when the one-edit correction is a form of that stem), else at two edits; whether a correction was made."""
        searched, langs = langs, (slot.lang,) if slot.lang else langs
        for word in slot.missing:
            printed = self.printed(word, langs)  # a word of the cards, not a typo: as typed, or its known stem
            best, near = None if printed else self.suggestion(word, langs, 1) or self.swapped(word, langs), None
            if best and slot.stems and any(word.startswith(f) for x in langs for f in self.tables.forms(x, best)[:1]):
                best, near = None, best  # another form of its stem (`shuffler`, `shuffles`): an inflection, not a typo
            if best is None and (slot.stems or printed):
                slot.alts += slot.stems
                translate_missing(slot, word, near, self.tables, searched)  # translated as that form, else its stem
                continue
            best = best or self.suggestion(word, langs, 2)
            if best is None:
                continue
            slot.fixed = best
            for lang in langs:
                slot.alts += [Alt(lang, (f,), FUZZY_FACTOR) for f in self.tables.forms(lang, best)[:1]]
            translate_missing(slot, word, best, self.tables, searched)
        slot.missing = []
        return slot.fixed is not None

    def printed(self, word: str, langs: tuple[str, ...]) -> bool:
        """Whether a word the texts lack is printed on the cards of one of the languages (a printed-words table's,
        in the spelling shards with no document)."""
        return any(self.tables.spelling(lang, word).get(word) == 0 for lang in langs)

    def suggestion(self, word: str, langs: tuple[str, ...], maxdist: int) -> str | None:
        """The commonest word of the vocabularies within `maxdist` edits of a word (then the shortest, then the
        first in alphabetical order), or None."""
        if len(word) < 3 * maxdist:
            return None
        best = None
        for lang in langs:
            counts = self.tables.spelling(lang, word)
            if not counts:
                continue
            for sug in self.corrector(lang, word[:1], counts).suggest(
                word, limit=1 << 30, maxdist=maxdist, prefix=CORRECT_PREFIX
            ):
                found = (counts.get(sug, 0), -len(sug), [-ord(c) for c in sug])
                if best is None or found > best[0]:
                    best = (found, sug)
        return best[1] if best else None

    def swapped(self, word: str, langs: tuple[str, ...]) -> str | None:
        """The commonest word of the vocabularies that is the word with two neighbouring letters swapped (the first
        found of equal counts, swaps left to right), or None."""
        if len(word) < SWAP_MIN:
            return None
        best, most = None, 0
        for k in range(len(word) - 1):
            if word[k] == word[k + 1]:
                continue
            swapped = word[:k] + word[k + 1] + word[k] + word[k + 2 :]
            for lang in langs:
                count = self.tables.spelling(lang, swapped).get(swapped, 0)
                if count > most:
                    best, most = swapped, count
        return best

    def corrector(self, lang: str, first: str, counts: dict[str, int]):
        """Whoosh's corrector over a language's words of one first letter."""
        key = (lang, first)
        if key not in self.correctors:
            from whoosh.spelling import ListCorrector  # only a misspelt word needs it

            words = sorted(w for w, n in counts.items() if w[:1] == first and n)  # no printed word matching nothing
            self.correctors[key] = ListCorrector([*words, LAST])  # Whoosh's reader of the list must not run off it
        return self.correctors[key]


def corrected_query(parsed: ParsedQuery, made: list[Slot]) -> str:
    """The query's words with their spelling corrections (`tramle` -> `trample`)."""
    fixes = {s.text: s.fixed for s in made if s.fixed}
    words = [w for g in parsed.groups for i in g for _, w in query_tokens(i.text)]
    return " ".join(fixes.get(w, w) for w in words)
