"""Whoosh analysis and schema: how the texts of each language become index terms.

A text is split with kb's token pattern (`kb.search.text.TOKEN`: `120.2a` stays whole, `{T}`, `2/2` and `+1/+1`
are words of their own), lower-cased, and each word that is not a stop word gives its index *forms* at its
position: stemmed then folded, and folded then stemmed (`piochées` gives `pioche` and `piochee`, so `piochees`
typed without accents meets it), one token when both are the same. A run of words that the lexicon of printed
cards knows as one term (`contact mortel`, `first strike`) is also indexed as one token, at its last word: a
translation to it is one term, never a phrase to look for. Folding accents before stemming alone would lose
`piochées` -> `pioche` (see the library notes), which is why both forms are kept.

The schema is pickled into the index: the filter classes here keep their module path (`kb.search.analysis`).
"""

from __future__ import annotations

from functools import cache

from whoosh.analysis import Filter, LowercaseFilter, RegexTokenizer
from whoosh.fields import ID, KEYWORD, STORED, TEXT, Schema
from whoosh.lang import has_stemmer, has_stopwords, stemmer_for_language, stopwords_for_language

from kb.search.text import PLAIN, STOP, LangText, analyse, stop_words

PARTS = {"text": 1.0, "ctx": 0.5}
"""The parts of a document's body in each language, with the weight of their words: a word of an ancestor's heading
counts half a word of the text. They make one field (`body_<lang>`) whose term weights are these sums, so that
Whoosh's BM25 over it is BM25F over the parts (one saturation, weighted frequencies); the title is a field of its
own (`title_<lang>`), normalised by its own length."""
MARK = "kbpart"
"""A part begins with `kbpart<name>` (`body_text`): the word sets the weight of the words after it, is not indexed,
and leaves a gap in the positions, so a phrase never runs from one part into the next."""
GAP = 100


def body(parts: dict[str, str]) -> str:
    """The text of a `body_<lang>` field: each non-empty part after its marker."""
    return "\n".join(f"{MARK}{name} {parts[name]}" for name in PARTS if parts.get(name))


def _same(word: str) -> str:
    """No stemming (a language Snowball does not know)."""
    return word


@cache
def lang_text(lang: str) -> LangText:
    """Analysis of a language: Snowball stemmer and stop words when whoosh has them, else folding alone."""
    stem = stemmer_for_language(lang) if has_stemmer(lang) else _same
    stops = stop_words(lang, stopwords_for_language(lang) if has_stopwords(lang) else ())
    return LangText(lang, stem, stops)


class FormsFilter(Filter):
    """Each word's index forms at its position (a stop word as folded, for phrases), and the lexicon's runs of
    words as one token each."""

    def __init__(self, lang: str, phrases: frozenset[str] = frozenset()) -> None:
        self.lang = lang
        self.phrases = phrases
        """Runs of folded words (space-separated) indexed as one token."""
        self.longest = max((p.count(" ") + 1 for p in phrases), default=1)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, FormsFilter) and (self.lang, self.phrases) == (other.lang, other.phrases)

    def __call__(self, tokens):
        lt = lang_text(self.lang)
        recent: list[str] = []
        pos, boost = -1, 1.0
        for t in tokens:
            if t.text.startswith(MARK) and t.text[len(MARK) :] in PARTS:
                boost, pos, recent = PARTS[t.text[len(MARK) :]], pos + GAP, []
                continue
            t.boost = boost
            kind, folded, raw = analyse(_group(t.text), t.text)
            recent = [*recent[-(self.longest - 1) :], folded] if self.longest > 1 else []
            pos += 1
            t.pos = pos
            if kind == "word" and lt.is_stop(folded):  # only phrases look for it: a term of its own kind
                t.text = STOP + folded
                yield t
                continue
            for form in lt.forms((0, 0, kind, folded, raw)):
                t.text = form
                yield t
            for n in range(2, min(self.longest, len(recent)) + 1):
                run = " ".join(recent[-n:])
                if run in self.phrases:
                    t.text = run
                    yield t


class FoldFilter(Filter):
    """Words folded as written (no stemming, stop words kept): the vocabulary, spelling and card names."""

    def __call__(self, tokens):
        for t in tokens:
            t.text = analyse(_group(t.text), t.text)[1]
            yield t


def _group(written: str) -> int:
    """The token-pattern group of a token (1 symbol, 2 stats, 3 word)."""
    if written.startswith("{"):
        return 1
    return 2 if "/" in written else 3


def forms_analyzer(lang: str, phrases: frozenset[str] = frozenset()):
    """The analyzer of a language's text fields."""
    return RegexTokenizer(PLAIN.pattern) | LowercaseFilter() | FormsFilter(lang, phrases)


def fold_analyzer():
    """The analyzer of the vocabulary and card-name fields."""
    return RegexTokenizer(PLAIN.pattern) | LowercaseFilter() | FoldFilter()


def schema(langs: tuple[str, ...], phrases: dict[str, frozenset[str]]) -> Schema:
    """One document per search entry: its id, kind, number, editions and languages; per language its title and its
    body (`body_<lang>`: text and ancestors' headings; positions kept for phrases) and its words as written
    (`words_<lang>`: spelling); card names; what results show and rank with (`data`)."""
    fields = {
        "key": ID(stored=True, unique=True),
        "kind": ID(stored=True),
        "number": ID(stored=True),
        "editions": KEYWORD(stored=True),
        "current": ID(),
        "langs": KEYWORD(),
        "name": TEXT(analyzer=fold_analyzer(), phrase=False),
        "data": STORED(),
    }
    for lang in langs:
        analyzer = forms_analyzer(lang, phrases.get(lang, frozenset()))
        fields[f"title_{lang}"] = TEXT(analyzer=analyzer, phrase=True)
        fields[f"body_{lang}"] = TEXT(analyzer=analyzer, phrase=True)
        fields[f"words_{lang}"] = TEXT(analyzer=fold_analyzer(), phrase=False)
    return Schema(**fields)
