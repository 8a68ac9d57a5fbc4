"""A words table's lines held against the rules and the evidence: the everyday words a translation table gains.

A line (`kb.model.terms.Word`) gives an everyday word of a language (« regarder », « à la place ») and the English
words it means, written by hand. Two things are checked, never taken on trust:
- each English word is one the English rules of today say (an inflection counts: `looks` for `look at`); an
  English word they never say is reported and left out, and a line left with none is left out;
- where the lexicon's words aligned over the parallel texts translate one of the line's French forms surely, and as
  none of the line's English words, the evidence wins: kb says so and leaves the line out.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace

from kb.link.lexicon.records import Lexicon
from kb.model import Diagnostic, GlossaryEntry
from kb.model.links import Edition
from kb.model.terms import Word
from kb.sources import fold
from kb.sources.text import stem_en

WORD = re.compile(r"[a-z]+")
"""An English word of the rules, folded."""
LETTERS = re.compile(r"[^\W\d_]+")
"""A run of letters, accented or not."""


def checked_words(
    words: Iterable[Word], english: Edition | None, glossary: Iterable[GlossaryEntry], lexicon: Lexicon | None
) -> tuple[tuple[Word, ...], list[Diagnostic]]:
    """The lines of the words tables kept, and what checking them found (`english`: today's English edition, whose
    rules and glossary the English words are looked for in; none loaded: not checked)."""
    words = list(words)
    if not words:
        return (), []
    said = _said(english, glossary) if english is not None else None
    mined = _mined(lexicon)
    kept, found = [], []
    for word in words:
        where = (word.source.path, word.source.line)
        english_words = word.english
        if said is not None:
            english_words = tuple(e for e in word.english if _stems(e) <= said)
            for missing in (e for e in word.english if e not in english_words):
                why = f"the English rules of {english.id} never say '{missing}': check its spelling, or drop it"
                found.append(Diagnostic("warning", *where, why))
        clash = next(((f, m) for f in word.forms if (m := mined.get(fold(f))) and not m & _folded(word.english)), None)
        if clash is not None:
            form, printed = clash
            why = (
                f"the parallel texts translate « {form} » as {', '.join(sorted(printed))}, not "
                f"{', '.join(word.english)}: the evidence is kept and this line left out; correct or drop it"
            )
            found.append(Diagnostic("warning", *where, why))
        elif english_words:
            kept.append(replace(word, english=english_words))
        else:
            found.append(Diagnostic("warning", *where, "no English word of this line is kept: it is left out"))
    return tuple(kept), found


def _stems(text: str) -> set[str]:
    """The light stems of an English text's words."""
    return {stem_en(w) for w in WORD.findall(fold(text))}


def _said(edition: Edition, glossary: Iterable[GlossaryEntry]) -> set[str]:
    """The light stems of every word the edition's rules and glossary say."""
    mine = set(edition.documents)
    texts = [t for rule in edition.rules.values() for t in (rule.heading or "", rule.text, *rule.examples)]
    texts += [t for g in glossary if g.document in mine for t in (g.term, g.definition)]
    written = set(LETTERS.findall(" ".join(texts).lower()))  # folded one distinct word at a time: a tenth the time
    return {stem_en(w) for word in written for w in WORD.findall(fold(word))}


def _mined(lexicon: Lexicon | None) -> dict[str, set[str]]:
    """Folded French form -> the folded English words the lexicon's sure word entries translate it as (a keyword's
    or a type's printed forms name a thing of the game, not an everyday word: Scry's « Regardez » of a reminder
    text says nothing against « regarder » = look at)."""
    found: dict[str, set[str]] = {}
    if lexicon is None:
        return found
    unsure = set(lexicon.unsure())
    for entry in lexicon.entries:
        if entry in unsure or entry.category != "word":
            continue
        for term in entry.french:
            for form in (term.text, *term.forms):
                found.setdefault(fold(form), set()).add(fold(entry.english))
    return found


def _folded(texts: Iterable[str]) -> set[str]:
    return {fold(t) for t in texts}
