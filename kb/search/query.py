"""Query understanding for the one search box: rule numbers, words, phrases, OR, -word, filters.

Pure Python (no whoosh); `templates/static/kbsearch.js` parses the same syntax the same way.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from kb.model.errors import KbError
from kb.model.numbers import CITING, rule_number
from kb.search.text import STATS
from kb.sources import fold

KINDS = ("rule", "glossary", "card", "ruling", "note")
"""Values of the `kind:` filter."""
FILTERS = ("lang", "kind", "edition")
"""Filter names of the query box."""


class SearchError(KbError, ValueError):
    """A malformed query; the message is one line and says how to fix it."""

    status = 2


@dataclass(frozen=True, slots=True)
class Item:
    """A word or a quoted phrase of a query."""

    text: str
    phrase: bool = False


@dataclass(frozen=True, slots=True)
class ParsedQuery:
    """A query box parsed: a rule number, or groups of OR-ed items, exclusions and filters."""

    number: str | None
    """Rule number when the box asks for a rule (`120.2a`, `règle 703.4k`, `CR 120`, `r120`)."""
    groups: tuple[tuple[Item, ...], ...]
    """The query's words and phrases; within a group, any item (`a OR b`)."""
    excluded: tuple[Item, ...]
    """`-word` and `-"a phrase"`."""
    langs: tuple[str, ...]
    """Languages from `lang:` filters (empty: all); the index checks that it has them."""
    kinds: tuple[str, ...]
    """Kinds from `kind:` filters (empty: all)."""
    editions: tuple[str, ...] = ()
    """Editions from `edition:` filters (an id `en:2015-09-26` or a date); empty: the current ones."""
    number_lang: str | None = None
    """The language of the word a rule number was typed with (`règle 120.4`: fr; `rule 120.4`: en), else None."""


MARKER = re.compile(r"\s*" + CITING + r"(rules?|regles?)\b", re.IGNORECASE)
"""A word a rule number is typed with that says its language."""
MARKER_LANGS = {"rule": "en", "regle": "fr"}
QUERY_TOKEN = re.compile(r'(-?)(?:"([^"]*)"|([^\s"]+))')
_STATS = re.compile(STATS)
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def parse_query(text: str) -> ParsedQuery:
    """Parse the query box; raise SearchError on unbalanced quotes, unknown filters or a dangling OR."""
    text = _CONTROL.sub(" ", text)
    if text.count('"') % 2:
        raise SearchError('unbalanced quote in query; close the phrase with " or remove the quote')
    filters: dict[str, list[str]] = {name: [] for name in FILTERS}
    groups, excluded = _items(text, filters)
    if not groups:
        what = "only excluded words" if excluded else "nothing to search for"
        raise SearchError(f"{what}; type words, a phrase in quotes or a rule number")
    box = " ".join(i.text for g in groups for i in g)
    plain = all(len(g) == 1 and not g[0].phrase for g in groups) and not excluded
    number = rule_number(box) if plain else None
    langs, kinds, editions = (tuple(filters[name]) for name in FILTERS)
    marker = MARKER.match(fold(box)) if number else None
    said = MARKER_LANGS.get(marker.group(1).lower().rstrip("s")) if marker else None
    return ParsedQuery(number, tuple(groups), tuple(excluded), langs, kinds, editions, said)


def _items(text: str, filters: dict[str, list[str]]) -> tuple[list[tuple[Item, ...]], list[Item]]:
    """The query's groups of OR-ed items and its excluded items, in order; its filters added to `filters`."""
    groups: list[tuple[Item, ...]] = []
    excluded: list[Item] = []
    pending_or = False
    for neg, phrase, word in QUERY_TOKEN.findall(text):
        if word and not neg and ":" in word and word.split(":", 1)[0].lower() in FILTERS:
            _add_filter(word, filters)
        elif word == "OR" and not neg:
            if not groups or pending_or:
                raise SearchError("OR needs a word on each side (a OR b)")
            pending_or = True
        elif (item := _item(neg, phrase, word)) is None:
            continue
        elif item[0]:
            excluded.append(item[1])
        elif pending_or:
            groups[-1] = (*groups[-1], item[1])
            pending_or = False
        else:
            groups.append((item[1],))
    if pending_or:
        raise SearchError("OR needs a word on each side (a OR b)")
    return groups, excluded


def _item(neg: str, phrase: str, word: str) -> tuple[bool, Item] | None:
    """(excluded, the item) of a token of the box, or None when it holds nothing to search."""
    if neg and word and _STATS.fullmatch("-" + word):  # `-1/-1` is a counter, not an exclusion
        neg, word = "", "-" + word
    item = Item(phrase, True) if phrase or not word else Item(word)
    return (bool(neg), item) if item.text.strip() else None


def _add_filter(word: str, filters: dict[str, list[str]]) -> None:
    """Record a `lang:`, `kind:` or `edition:` filter (comma-separated values allowed); values checked later."""
    name, _, values = word.partition(":")
    name = name.lower()
    for value in values.split(","):
        value = value if name == "edition" else value.lower()
        if name == "kind" and value not in KINDS:
            raise SearchError(f"unknown kind '{value}'; use kind:{'|'.join(KINDS)}")
        filters[name].append(value)
