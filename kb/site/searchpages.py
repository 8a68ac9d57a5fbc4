"""The site's search: kb's own search index (`kb.search`), written as JSON files that the search page ranks with.

The CLI and the site share one analysis, one ranking and the lexicon's translation tables: `kb.search.static`
writes the index that `templates/static/kbsearch.js` reads, so a question gives the same results in `kb search` and
in the browser. Each result links to the page (and anchor) showing it.

Building the index needs only the search entries and the lexicon; its links need the site's pages. So the index is
built first (`index_entries`, in a process of its own, fed the entries while the pages are gathered and rendered)
and written with the pages' addresses once they are known (`write_index`, given the `Pages` of `pages_of`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from kb.sources import fold

if TYPE_CHECKING:  # not imported: the search index's process needs neither
    from kb.model.base import KnowledgeBase
    from kb.site.gather import SiteData

SEARCH_DIR = "search"
"""Folder of the search index, at the site's root (shared by the interface trees)."""


@dataclass(frozen=True, slots=True)
class Pages:
    """Where the site shows each kind of search entry (plain mappings: sent to the index's process)."""

    rules: dict[str, str]
    """Row number (`120.2`, or `fr-120.2` for a translation's own row) -> page and anchor."""
    glossary: dict[str, str]
    """`document#folded term` -> page and anchor."""
    cards: dict[str, str]
    """Card id -> page."""
    notes: dict[str, str]
    """FAQ note id -> page and anchor."""
    rulings: dict[str, str]
    """Ruling id -> its card's page."""

    @classmethod
    def of(cls, items: Iterable[tuple[int, str, str]]) -> Pages:
        """The maps of `page_items`' items (the first address given for a key is kept)."""
        pages = cls({}, {}, {}, {}, {})
        maps = [getattr(pages, name) for name in cls.__slots__]
        for kind, key, address in items:
            maps[kind].setdefault(key, address)
        return pages


RULES, GLOSSARY, CARDS, NOTES, RULINGS = range(5)
"""Kinds of the items of `page_items`: the maps of `Pages`, in order."""


def write_search(site: Path, data: SiteData) -> dict:
    """Build and write the search index of the site's records into `<site>/search/`; return its summary."""
    return write_index(site, index_data(data.kb), pages_of(data))


def current_entries(kb: KnowledgeBase):
    """The search entries of the site: those of each language's current edition, one at a time."""
    from kb.search.entries import entries  # late: importing the site must not load the search package

    return (e for e in entries(kb) if e.current)


def index_entries(items, lexicon, spill: Path | None = None):
    """The search index of entries (read once, one at a time) with the translation tables of a lexicon (`spill`:
    where the payloads' temporary file goes). It needs neither the knowledge base nor the pages."""
    from kb.search.index import build_data

    return build_data(items, lexicon, spill)


def index_data(kb: KnowledgeBase, spill: Path | None = None):
    """The search index of the current entries of the knowledge base."""
    return index_entries(current_entries(kb), kb.lexicon, spill)


def write_index(site: Path, data, pages: Pages) -> dict:
    """Write an index built by `index_data` or `index_entries`, each document linked to its page; return its
    summary."""
    from kb.search.static import write_static

    try:
        urls = [page_of(pages, d) for d in data.docs]
        return write_static(site / SEARCH_DIR, data, lambda n: urls[n])
    finally:
        data.payloads.close()


def pages_of(data: SiteData) -> Pages:
    """Where the site shows rules, glossary entries, cards, notes and rulings."""
    return Pages.of(page_items(data))


def page_items(data: SiteData) -> Iterator[tuple[int, str, str]]:
    """Where the site shows each search entry, as (kind, key, address) items made one at a time (`Pages.of`
    makes the maps): sent to the index's process as they are made, the maps are never held where the pages are."""
    kb = data.kb
    for page in data.rule_pages:
        for number in page.numbers:
            yield RULES, number, f"{page.path}#{number}"
    for section in data.sections:
        yield RULES, section["number"], f"contents.html#{section['number']}"
    for entries in data.glossary.values():
        for anchor, index in entries:
            g = kb.glossary[index]
            yield GLOSSARY, f"{g.document}#{fold(g.term)}", f"glossary.html#{anchor}"
    for card, path in data.card_path.items():
        yield CARDS, card, path
    for note, path in data.note_path.items():
        yield NOTES, note, path
    for ruling in kb.rulings:
        if ruling.card in data.card_path:
            yield RULINGS, ruling.id, data.card_path[ruling.card]


def page_of(pages: Pages, doc) -> str | None:
    """The page (relative to an interface tree) of a search document (`kb.search.build.DocInfo`), or None when the
    site does not show it."""
    if doc.kind == "rule" and "@" in doc.key:  # a translation's rule with no counterpart today: its own row
        return pages.rules.get(f"{doc.langs[0]}-{doc.number}")
    if doc.kind == "rule":  # the row of today's number, whatever number each language gives the rule
        return pages.rules.get(doc.number)
    if doc.kind == "glossary":
        return pages.glossary.get(doc.key)
    if doc.kind == "card":
        return pages.cards.get(doc.key)
    if doc.kind == "ruling":
        return pages.rulings.get(doc.key)
    return pages.notes.get(doc.key)
