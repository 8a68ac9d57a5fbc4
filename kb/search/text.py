"""Text analysis shared by indexing, ranking and the site: tokens, folding, stop words and index forms.

Pure Python (no whoosh): `kb.search.analysis` builds a `LangText` per language from whoosh's stemmers and stop
lists. A token is a word (`120.2a` stays whole), a mana symbol (`{T}`, `{W/U}`) or a power/toughness or
counter (`2/2`, `+1/+1`): symbols are indexed as themselves, so a letter never matches `{T}`. Queries are
folded first and then split with the same patterns; `templates/static/kbsearch.js` does exactly that.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import lru_cache

from kb.sources.text import fold

SYMBOL = r"\{[^{}\s]{1,8}\}"
"""A mana or other symbol between braces: `{T}`, `{2/W}`, `{X}`."""
STATS = r"(?<![\w/])[+\-−]?(?:\d+|[xX*])/[+\-−]?(?:\d+|[xX*])(?![\w/])"
"""Power/toughness or a counter: `2/2`, `*/*`, `+1/+1`, `-1/-1` (also with a true minus sign)."""
WORDS = r"\w+(?:\.\w+)*(?:['’]t(?!\w))?"
"""Letters and digits; dots inside kept, so `120.2a` stays whole; `’` and `'` split elisions (`l’étape`) but
not English negations (`can’t`, `doesn’t`: in rules, what cannot happen is the point)."""
TOKEN = re.compile(f"({SYMBOL})|({STATS})|({WORDS})")
PLAIN = re.compile(f"{SYMBOL}|{STATS}|{WORDS}")
"""TOKEN without its groups: `findall` gives the tokens as written, with no tuple per token (indexing)."""
KIND_NAMES = ("symbol", "stats", "word")
REFERENCE = re.compile(r"\b(?:(?:see|cf|voir)\W{1,3})?(?:rules?|r[eè]gles?|sections?)\s+(?=\d)", re.IGNORECASE)
"""The words of a cross-reference before its number (`See rule 704`, `Cf. règles 508.1`): not indexed, so that
`rule` finds texts about rules, not the thousand texts citing one (the number itself is indexed)."""
_REFERENCE_WORDS = ("rule", "gle", "section", "ı", "ſ", "\u0307")
"""What a text lower-cased holds where REFERENCE may match it: its words, and the letters that its case-blind `i` and
`s` match too (dotless ı, long ſ, İ lower-cased with a combining dot)."""


def without_references(text: str) -> str:
    """A text with the words of its cross-references blanked out (REFERENCE), as it is indexed and matched."""
    lowered = text.lower()  # the regex, tried at every word, costs ten times these checks (most texts hold none)
    for word in _REFERENCE_WORDS:
        if word in lowered:
            return REFERENCE.sub(" ", text)
    return text


STOP = "~"
"""A stop word is indexed as `~word`, apart from every word's forms (French `le` is a stop word and the form of
`les`): only phrases ask for it."""
EXACT = "="
"""A word as written (folded) is also indexed as `=word` when it differs from its first index form: a query's
word as typed asks for it too."""
FRENCH_EXTRA = {
    "les",  # the plural article: the Snowball list has « le », « la », « des », not « les »
    "lorsque",
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
    "peut",
    "peuvent",
    "fait",
}
"""French elisions, question words and the commonest verbs of questions, on top of the Snowball list."""
MAX_STEMMED = 40
"""Longer words are indexed as written (no language has such words; a stemmer would take its time on them)."""
NEGATION = "un"
"""The English prefix that negates a word (`untapped`, `unblocked`): such a word is also indexed as what it negates,
so that `can a tapped creature block` finds the rule saying blockers must be untapped."""
ENGLISH_EXTRA = {"happens", "happen", "get", "gets", "let", "lets", "thing", "things", "much", "many"}
"""Words of English questions that say nothing about the rules (`what happens when…`, `how many…`)."""


Token = tuple[int, int, str, str, str]
"""One token of a text: (start, end, kind, text, raw): the offsets of its first character and just after its last,
its kind (`word`, `symbol` like `{t}`, `stats` like `+1/+1` or `2/2`), the token folded (lower case, no accents, a
true minus sign as `-`) and as written in lower case (what the stemmer sees). A plain tuple: texts have many."""
START, END, KIND, TEXT, RAW = range(5)


def tokens(text: str) -> list[Token]:
    """The tokens of a text, in order (stop words included)."""
    return [(m.start(), m.end(), *analyse(m.lastindex, m.group())) for m in TOKEN.finditer(text)]


def group_of(written: str) -> int:
    """The TOKEN group of a token as written (1 symbol, 2 stats, 3 word)."""
    if written.startswith("{"):
        return 1
    return 2 if "/" in written else 3


@lru_cache(maxsize=1 << 16)
def analyse(group: int, written: str) -> tuple[str, str, str]:
    """(kind, folded, raw) of a token as written (cached: texts repeat their words)."""
    raw = written.lower().replace("−", "-")
    return KIND_NAMES[group - 1], raw if raw.isascii() else fold(raw), raw  # folding leaves ASCII words alone


def query_tokens(text: str) -> list[tuple[str, str]]:
    """(kind, folded text) of the tokens of a query: folded first, then split (as the site's JavaScript does)."""
    return folded_tokens(folded(text))


def folded(text: str) -> str:
    """A text as its tokens are read: folded, the true minus sign as a hyphen."""
    return fold(text).replace("−", "-")


def folded_tokens(text: str) -> list[tuple[str, str]]:
    """(kind, text) of the tokens of a text already `folded`."""
    symbol, stats, word = KIND_NAMES  # each token fills one of TOKEN's groups (none can match nothing)
    return [(word, w) if w else (stats, st) if st else (symbol, sy) for sy, st, w in TOKEN.findall(text)]


@dataclass(eq=False)
class LangText:
    """How one language turns words into index forms: stemmer (identity when none) and stop words."""

    lang: str
    stem: Callable[[str], str]
    stops: frozenset[str]
    """Stop words, accented and folded."""
    _forms: dict[str, tuple[str, ...]] = field(default_factory=dict, repr=False)
    _stems: dict[str, str] = field(default_factory=dict, repr=False)
    _terms: dict[str, tuple[str, ...]] = field(default_factory=dict, repr=False)

    def terms(self, written: str) -> tuple[str, ...]:
        """Index terms of a token as written: `~` for any stop word (no query asks for it: it counts in its text's
        length), else its forms and, for a word that differs from its first form, `=word` (remembered: texts repeat
        their words)."""
        found = self._terms.get(written)
        if found is None:
            kind, folded, raw = analyse(group_of(written), written)
            if kind == "word" and self.is_stop(folded):
                found = (STOP,)
            else:
                found = self.forms((0, 0, kind, folded, raw))
                if kind == "word" and folded != found[0]:
                    found = (*found, EXACT + folded)
            self._terms[written] = found
        return found

    def forms(self, token: Token) -> tuple[str, ...]:
        """Index forms of a token: a word stemmed then folded, and folded then stemmed; an English word negated by
        `un-` also names what it negates (`untapped`: `untap`, `tap`); a symbol as itself."""
        _, _, kind, text, raw = token
        found = self._forms.get(raw)
        if found is None:
            if kind != "word" or len(text) > MAX_STEMMED or any(c.isdigit() for c in text):
                found = (text,)
            else:
                first, second = fold(self._stem(raw)), self._stem(text)
                found = (first,) if first == second else (first, second)
                if self.lang == "en" and text.startswith(NEGATION) and len(text) > len(NEGATION) + 4:
                    base = self._stem(text[len(NEGATION) :])
                    found += (base,) if base not in found else ()
            self._forms[raw] = found
        return found

    def _stem(self, word: str) -> str:
        """The stem of a word (remembered: a word is often both a written form and another's folded form)."""
        found = self._stems.get(word)
        if found is None:
            found = self._stems[word] = self.stem(word)
        return found

    def is_stop(self, word: str) -> bool:
        """Whether a folded word is left out of keyword queries (stop word or a single letter or digit)."""
        return len(word) < 2 or word in self.stops


def is_stop(word: str, kind: str, stops: frozenset[str] | set[str]) -> bool:
    """Whether a folded query token is a stop word: symbols and stats never are."""
    return kind == "word" and (len(word) < 2 or word in stops)


def stop_words(lang: str, listed: Iterable[str]) -> frozenset[str]:
    """A language's stop words (French and English extras added), in accented and folded forms."""
    found = set(listed) | (FRENCH_EXTRA if lang == "fr" else set()) | (ENGLISH_EXTRA if lang == "en" else set())
    return frozenset(found | {fold(w) for w in found})
