"""Text analysis shared by indexing and ranking: words, folding, stop words and index forms per language.

Pure Python (no whoosh): `kb.search.index` builds a `LangText` per language from whoosh's stemmers and stop lists.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from kb.sources.text import fold

TOKEN = r"\w+(?:\.?\w+)*"
"""A word: letters/digits, dots inside kept (`120.2a` stays whole); `’` and `'` split elisions."""
WORD = re.compile(TOKEN)
FRENCH_EXTRA = {
    "l",
    "d",
    "j",
    "m",
    "n",
    "s",
    "t",
    "c",
    "qu",
    "jusqu",
    "lorsqu",
    "puisqu",
    "quoiqu",
    "presqu",
    "si",
    "quand",
    "comment",
    "quoi",
    "quel",
    "quelle",
    "quels",
    "quelles",
    "dont",
    "où",
    "cet",
    "cette",
    "ceci",
    "cela",
    "ça",
    "est-ce",
    "alors",
    "donc",
    "car",
    "ni",
}
"""French elisions and question words, stop words on top of the Snowball list."""


def words(text: str) -> list[str]:
    """The lowercase words of a text, in order, stop words included."""
    return WORD.findall(text.lower())


@dataclass(eq=False)
class LangText:
    """How one language turns words into index forms: stemmer (identity when none) and stop words."""

    lang: str
    stem: Callable[[str], str]
    stops: frozenset[str]
    """Stop words, accented and folded."""
    _forms: dict[str, tuple[str, ...]] = field(default_factory=dict, repr=False)

    def forms(self, word: str) -> tuple[str, ...]:
        """Index forms of a lowercase word: stemmed then folded, and folded then stemmed when that differs."""
        found = self._forms.get(word)
        if found is None:
            first, second = fold(self.stem(word)), self.stem(fold(word))
            found = self._forms[word] = (first,) if first == second else (first, second)
        return found

    def is_stop(self, word: str) -> bool:
        """Whether a lowercase word is dropped from keyword queries (stop word or a single letter)."""
        return len(word) < 2 or word in self.stops

    def keywords(self, text: str) -> list[tuple[str, ...]]:
        """The forms of each non-stop word of a text, in order (the words a keyword query requires)."""
        return [self.forms(w) for w in words(text) if not self.is_stop(w)]


def stop_words(lang: str, listed: Iterable[str]) -> frozenset[str]:
    """A language's stop words (French elisions and question words added), in accented and folded forms."""
    found = set(listed) | (FRENCH_EXTRA if lang == "fr" else set())
    return frozenset(found | {fold(w) for w in found})
