"""The glossary page's entries: each language's terms in alphabetical order under their letters, with unique
anchors, and the words of a definition that send the reader to another term (`See Damage.`) as links to it."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from kb.model.base import KnowledgeBase
from kb.model.records import GlossaryEntry
from kb.parse.markers import markers_for, words
from kb.sources import slug, sort_name, unique
from kb.sources.text import APOSTROPHES

_APOS = str.maketrans(dict.fromkeys(APOSTROPHES, "'"))
_QUOTES = '“"«‘'
"""Quotes a term sent to may open with (`See “Enters the Battlefield.”`): the link starts after them."""


@dataclass(frozen=True, slots=True)
class Letter:
    """The glossary entries of one language that start with one letter."""

    letter: str
    """The letter as shown (`A`), `#` for terms starting with a digit or a sign."""
    id: str
    """The id of the letter's heading, the target of the A–Z bar (`gl-en-a`)."""
    entries: tuple[tuple[str, int], ...]
    """(anchor, index in `kb.glossary`) of its entries, alphabetical."""


def glossary_entries(kb: KnowledgeBase) -> tuple[dict[str, list[tuple[str, int]]], dict[str, list[Letter]]]:
    """Language -> (anchor, index in kb.glossary) of the entries shown (of its aligned edition when it has one),
    alphabetical, with unique anchors; and language -> the same entries grouped under their letters."""
    entries: dict[str, list[tuple[str, int]]] = {}
    taken: set[str] = set()
    shown = _glossary_documents(kb)
    for index, entry in sorted(enumerate(kb.glossary), key=lambda p: sort_name(p[1].term)):
        if entry.document in shown:
            entries.setdefault(entry.lang, []).append((unique(f"g-{entry.lang}-{slug(entry.term)}", taken), index))
    letters = {lang: _letters(found, lang, lambda index: kb.glossary[index].term) for lang, found in entries.items()}
    return entries, letters


def named_letters(
    glossary: tuple[GlossaryEntry, ...], entries: dict[str, list[tuple[str, int]]], labels: dict[tuple[str, int], str]
) -> dict[tuple[str, str], list[Letter]]:
    """(interface language, glossary language) -> the glossary's entries under the letters of their names in the
    interface's language (`labels`: kb's names, as `kb.site.terms.glossary_labels` gives them; an entry without
    one is named alike in both), alphabetical by those names, where the interface names any: a French reader of
    the English glossary finds Trample under P, as « Piétinement »."""
    found: dict[tuple[str, str], list[Letter]] = {}
    for lang, shown in entries.items():
        mine = {index for _, index in shown}
        for ui in sorted({ui for ui, index in labels if index in mine} - {lang}):

            def name_of(index: int, ui: str = ui) -> str:  # no name: one the languages share (Aura, Flash)
                return labels.get((ui, index)) or glossary[index].term

            ordered = sorted(shown, key=lambda pair: (sort_name(name_of(pair[1])), pair[1]))
            found[ui, lang] = _letters(ordered, lang, name_of)
    return found


def _letters(found: list[tuple[str, int]], lang: str, name_of) -> list[Letter]:
    """Entries in order grouped under the first letters of their names (`name_of`: an entry's index -> its name)."""
    groups: dict[str, list[tuple[str, int]]] = {}
    for anchor, index in found:
        first = (sort_name(name_of(index))[:1] or "#").upper()
        groups.setdefault(first if first.isalpha() else "#", []).append((anchor, index))
    return [
        Letter(letter, f"gl-{lang}-{'0' if letter == '#' else letter.lower()}", tuple(group))
        for letter, group in groups.items()
    ]


def _glossary_documents(kb: KnowledgeBase) -> set[str]:
    """Documents whose glossary the site shows: each language's aligned edition, else all of that language."""
    shown = set()
    for lang in {entry.lang for entry in kb.glossary}:
        docs = {e.document for e in kb.glossary if e.lang == lang}
        edition = kb.primary.get(lang)
        own = docs.intersection(edition.documents) if edition else set()
        shown |= own or docs
    return shown


def see_links(kb: KnowledgeBase, entries: dict[str, list[tuple[str, int]]]) -> dict[int, tuple[tuple[int, int, str]]]:
    """Index in kb.glossary -> (start, end, anchor) of each term its definition sends the reader to (`See Damage.`,
    `See also Dependency, Timestamp Order.`), among the terms shown in its language; a name that is no term shown
    stays text."""
    found = {}
    for lang, shown in entries.items():
        terms = _terms(kb.glossary, shown)
        lengths = term_lengths(terms)  # once per language: per entry, the glossary's size squared
        for anchor, index in shown:
            spans = see_spans(kb.glossary[index].definition, lang, terms, lengths)
            spans = tuple(s for s in spans if s[2] != anchor)
            if spans:
                found[index] = spans
    return found


def _terms(glossary: tuple[GlossaryEntry, ...], shown: list[tuple[str, int]]) -> dict[str, str]:
    """Folded headword or alias -> anchor of its entry (the first entry of a name two entries share)."""
    terms: dict[str, str] = {}
    for anchor, index in shown:
        entry = glossary[index]
        for name in (entry.term, *entry.aliases):
            terms.setdefault(_fold(name), anchor)
    return terms


def _fold(text: str) -> str:
    """A name compared case and apostrophes aside, as long as it is written (offsets in the text stay true)."""
    return text.lower().translate(_APOS)


@functools.cache
def _see(lang: str) -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]] | None:
    """The words sending to a term (`See`, `See also`), the words citing a rule or a section instead (`See rule`),
    and the words joining two terms (`, `, ` and `), in `lang`; None without them."""
    markers = markers_for(lang)
    if markers is None or not markers.see:
        return None
    see = re.compile(words(markers.see, lang) + r"\s+", re.IGNORECASE)
    cites = re.compile("|".join(p for p in (markers.rule, markers.section, r"\d") if p), re.IGNORECASE)
    joins = re.compile(rf",?\s+(?:(?:{markers.joins})\s+)?|,\s*", re.IGNORECASE)
    return see, cites, joins


MAX_TERM = 200
"""Longest name a `See` sends to (the glossary's longest headword has under 60 characters): each `See` tries each
length of name, from the longest."""


def term_lengths(terms: dict[str, str]) -> list[int]:
    """The lengths of the terms' names a `See` may send to, longest first."""
    return sorted({len(name) for name in terms if len(name) <= MAX_TERM}, reverse=True)


def see_spans(
    text: str, lang: str, terms: dict[str, str], lengths: list[int] | None = None
) -> list[tuple[int, int, str]]:
    """(start, end, anchor) of the terms a text sends to: after each `See`, the longest term, then each term
    joined to it (`See also Dependency, Timestamp Order`); `lengths`: `term_lengths(terms)`, when already made."""
    found = _see(lang)
    if found is None or not terms:
        return []
    see, cites, joins = found
    lengths = term_lengths(terms) if lengths is None else lengths
    spans = []
    for m in see.finditer(text):
        pos = m.end()
        while pos < len(text) and not cites.match(text, pos):
            pos += 1 if text[pos] in _QUOTES else 0
            hit = _longest(text, pos, terms, lengths)
            if hit is None:
                break
            spans.append((pos, hit[0], hit[1]))
            join = joins.match(text, hit[0])
            if join is None:
                break
            pos = join.end()
    return spans


def _longest(text: str, pos: int, terms: dict[str, str], lengths: list[int]) -> tuple[int, str] | None:
    """(end, anchor) of the longest term written at `pos` and ending a word (a plural's `s` taken with it)."""
    for length in lengths:
        end = pos + length
        anchor = terms.get(_fold(text[pos:end]))
        if anchor is None:
            continue
        if text[end : end + 1] == "s" and not text[end + 1 : end + 2].isalnum():
            end += 1
        if not text[end : end + 1].isalnum():
            return end, anchor
    return None
