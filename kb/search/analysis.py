"""Whoosh analysis and schema: how the texts of each language become index terms.

A document has one text field per language, `body_<lang>`, made of *parts* (its title, its text, its ancestors'
headings), each part's words weighing its PARTS weight: Whoosh's BM25 over that field is BM25F over the parts (one
saturation, weighted frequencies, one length).

A text is split with kb's token pattern (`kb.search.text.TOKEN`: `120.2a` stays whole, `{T}`, `2/2` and `+1/+1`
are words of their own) by Whoosh's `RegexTokenizer`; `FormsFilter` then gives, at each word's position, its index
*forms*: stemmed then folded, and folded then stemmed (`piochées` gives `pioche` and `piochee`, so `piochees`
typed without accents meets it), one term when both are the same; and the word as written (folded) with EXACT
before it, when it differs from its first form (`=piochees`), so that a document holding the word as typed ranks
above one holding another form of its stem. A run of words that the lexicon of printed cards knows as one term
(`contact mortel`, `first strike`) is also indexed as one token, at its last word: a translation to it is one term,
never a phrase to look for. Folding accents before stemming alone would lose `piochées` -> `pioche` (see the
library notes), which is why both forms are kept. Every stop word of a text is indexed as the one term `~`: no
query asks for it, but its count keeps the text's length (BM25 reads it) as the words make it, in one posting per
text, not one per stop word (Whoosh's writing of the bundled content 2.33 -> 2.08 s, of the card pool 35.0 ->
31.9 s; the same export). No positions are kept (`phrase=False`): a phrase is checked in the
texts themselves (`kb.search.engine.Engine._has_phrase`), and positions only made Whoosh's postings larger (on the
card pool its half of the index took 39.5 s with them, 35.0 s without; the same scores, the same export).

The schema is pickled into the index: the filter classes here keep their module path (`kb.search.analysis`).
"""

from __future__ import annotations

from functools import cache

from whoosh.analysis import Filter, RegexTokenizer, Token, Tokenizer
from whoosh.fields import ID, KEYWORD, TEXT, Schema
from whoosh.lang import has_stemmer, has_stopwords, stemmer_for_language, stopwords_for_language

from kb.search.text import EXACT, PLAIN, STOP, LangText, analyse, group_of, stop_words, without_references

B = 0.75
"""BM25F length normalisation."""
K1 = 1.2
"""BM25 term-frequency saturation."""
PARTS = {"title": 3.0, "name": 0.5, "text": 1.0, "ctx": 0.5}
"""The parts of a document's text in each language, with the weight of their words: a title word (a rule's heading,
a glossary term, a note's title) counts three words of the text, a word of a card's name or of an ancestor's
heading half of one (a name names the card, not a topic: « Piétine et hurle » is not about trample; names are
searched as such in the `name` field)."""
MARK = "kbpart"
"""A part begins with `kbpart<name>` (`kbparttext`): the word sets the weight of the words after it and is not
indexed."""


def weighting():
    """Whoosh's scoring of kb's indexes: BM25F with kb's saturation and length normalisation (the scores the export
    holds)."""
    from whoosh.scoring import BM25F

    return BM25F(B=B, K1=K1)


def body(parts: dict[str, str]) -> str:
    """The text of a `body_<lang>` field: each non-empty part after its marker, without cross-references' words."""
    return "\n".join(f"{MARK}{name} {without_references(parts[name])}" for name in PARTS if parts.get(name))


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
    """Each word's index forms and the word as written (any stop word as `~`, counted in the text's length), and
    the lexicon's runs of words as one token each; part markers set the words' weights."""

    def __init__(self, lang: str, phrases: frozenset[str] = frozenset()) -> None:
        self.lang = lang
        self.phrases = phrases
        """Runs of folded words (space-separated) indexed as one token."""
        self.longest = max((p.count(" ") + 1 for p in phrases), default=1)
        ends: dict[str, set[int]] = {}
        for p in phrases:
            ends.setdefault(p.rsplit(" ", 1)[-1], set()).add(p.count(" ") + 1)
        self.ends = {word: tuple(sorted(sizes)) for word, sizes in ends.items()}
        """The last word of each run -> the runs' lengths: a run is looked for only where such a word ends one, and
        only at those lengths (a thousand names end in `player`, `card` or `damage`)."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, FormsFilter) and (self.lang, self.phrases) == (other.lang, other.phrases)

    def __call__(self, tokens):
        terms, phrases, longest, ends = lang_text(self.lang).terms, self.phrases, self.longest, self.ends
        recent: list[str] = []
        boost = 1.0
        for t in tokens:
            written = t.text
            if written.startswith(MARK) and written[len(MARK) :] in PARTS:
                boost, recent = PARTS[written[len(MARK) :]], []
                continue
            t.boost = boost
            for form in terms(written):
                t.text = form
                yield t
            if longest > 1:
                recent.append(analyse(group_of(written), written)[1])
                if len(recent) > longest:
                    del recent[0]
                sizes = ends.get(recent[-1])
                if sizes is None:
                    continue
                for n in sizes:
                    if n > len(recent):
                        break
                    run = " ".join(recent[-n:])
                    if run in phrases:
                        t.text = run
                        yield t


class MarkTokenizer(Tokenizer):
    """The highlighter's reading of a text, in one pass (no filter after it): kb's token pattern, each word's token
    holding the first of its index terms a query asks for, else its first (a word seen again is not looked up
    again). Whoosh's highlighter reads every token of each result's text: a tokenizer and a filter cost half as
    much again (a third of a millisecond of the median question)."""

    def __init__(self, lang: str, asked: frozenset[str]) -> None:
        self.lang, self.asked = lang, asked

    def __call__(self, value, positions=False, chars=False, start_pos=0, start_char=0, **kwargs):
        terms, asked, marks = lang_text(self.lang).terms, self.asked, {}
        t = Token(positions, chars, **kwargs)
        t.boost = 1.0
        for pos, match in enumerate(PLAIN.finditer(value)):
            written = match.group()
            text = marks.get(written)
            if text is None:
                found = terms(written)
                text = marks[written] = next((x for x in found if x in asked), found[0])
            t.text, t.stopped = text, False
            if positions:
                t.pos = start_pos + pos
            if chars:
                t.startchar, t.endchar = start_char + match.start(), start_char + match.end()
            yield t


class FoldFilter(Filter):
    """Words folded as written (no stemming, stop words kept): card names."""

    def __call__(self, tokens):
        for t in tokens:
            t.text = analyse(group_of(t.text), t.text)[1]
            yield t


def forms_analyzer(lang: str, phrases: frozenset[str] = frozenset()):
    """The analyzer of a language's text field (`FormsFilter` lower-cases as it folds)."""
    return RegexTokenizer(PLAIN.pattern) | FormsFilter(lang, phrases)


def mark_analyzer(lang: str, asked: frozenset[str]) -> MarkTokenizer:
    """The analyzer the highlighter reads a text with (`MarkTokenizer`)."""
    return MarkTokenizer(lang, asked)


def fold_analyzer():
    """The analyzer of the card-name field."""
    return RegexTokenizer(PLAIN.pattern) | FoldFilter()


def schema(langs: tuple[str, ...], phrases: dict[str, frozenset[str]]) -> Schema:
    """One document per search entry: its id (stored: what the index alone says of its documents); per language its
    text (`body_<lang>`: weights, no positions); card names; its headwords' index forms (`heads`: the documents a
    query names, whatever their score). Its kind, number, editions and languages (the filters), what the re-rank
    reads and what results show are the export's (`kb.search.export.write_documents`, from the entries): nothing
    read them from here, and writing them was a fifth of Whoosh's work on the bundled content (1.87 -> 1.51 s)."""
    fields = {
        "key": ID(stored=True),
        "name": TEXT(analyzer=fold_analyzer(), phrase=False),
        "heads": KEYWORD(),
    }
    for lang in langs:
        fields[f"body_{lang}"] = TEXT(analyzer=forms_analyzer(lang, phrases.get(lang, frozenset())), phrase=False)
    return Schema(**fields)


__all__ = ["EXACT", "STOP", "body", "fold_analyzer", "forms_analyzer", "lang_text", "schema"]
