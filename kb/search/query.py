"""Query understanding for the one search box: rule numbers, words, phrases, OR, -word, filters.

Pure Python (no whoosh): `kb.search.index` turns a ParsedQuery into Whoosh queries.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from kb.model.numbers import rule_number

KINDS = ("rule", "glossary", "card", "ruling", "note")
"""Values of the `kind:` filter."""


class SearchError(ValueError):
    """A malformed query; the message is one line and says how to fix it."""


@dataclass(frozen=True, slots=True)
class Item:
    """A word or a quoted phrase of a query."""

    text: str
    phrase: bool = False


@dataclass(frozen=True, slots=True)
class ParsedQuery:
    """A query box parsed: a rule number, or AND-ed groups of OR-ed items, exclusions and filters."""

    number: str | None
    """Rule number when the box asks for a rule (`120.2a`, `règle 703.4k`, `CR 120`, `r120`)."""
    groups: tuple[tuple[Item, ...], ...]
    """All groups must match; within a group, any item (`a OR b`)."""
    excluded: tuple[Item, ...]
    """`-word` and `-"a phrase"`."""
    langs: tuple[str, ...]
    """Languages from `lang:` filters (empty: all); the index checks that it has them."""
    kinds: tuple[str, ...]
    """Kinds from `kind:` filters (empty: all)."""


QUERY_TOKEN = re.compile(r'\s*(-?)(?:"([^"]*)"|(\S+))')


def parse_query(text: str) -> ParsedQuery:
    """Parse the query box; raise SearchError on unbalanced quotes, unknown filters or a dangling OR."""
    if text.count('"') % 2:
        raise SearchError('unbalanced quote in query; close the phrase with " or remove the quote')
    langs, kinds, groups, excluded, pending_or = [], [], [], [], False
    for neg, phrase, word in QUERY_TOKEN.findall(text):
        if word and ":" in word and word.split(":", 1)[0].lower() in ("lang", "kind") and not neg:
            _add_filter(word, langs, kinds)
            continue
        if word == "OR" and not neg:
            if not groups or pending_or:
                raise SearchError("OR needs a word on each side (a OR b)")
            pending_or = True
            continue
        item = Item(phrase, True) if phrase or word is None or word == "" else Item(word)
        if neg:
            excluded.append(item)
        elif pending_or:
            groups[-1] = (*groups[-1], item)
            pending_or = False
        else:
            groups.append((item,))
    if pending_or:
        raise SearchError("OR needs a word on each side (a OR b)")
    if not groups:
        raise SearchError("nothing to search for; type words, a phrase in quotes or a rule number")
    box = " ".join(i.text for g in groups for i in g)
    plain = all(len(g) == 1 and not g[0].phrase for g in groups) and not excluded
    number = rule_number(box) if plain else None
    return ParsedQuery(number, tuple(groups), tuple(excluded), tuple(langs), tuple(kinds))


def _add_filter(word: str, langs: list[str], kinds: list[str]) -> None:
    """Record a `lang:` or `kind:` filter (comma-separated values allowed); languages are checked by the index."""
    name, _, values = word.partition(":")
    if name.lower() == "lang":
        langs += values.lower().split(",")
        return
    for value in values.lower().split(","):
        if value not in KINDS:
            raise SearchError(f"unknown kind '{value}'; use kind:{'|'.join(KINDS)}")
        kinds.append(value)
