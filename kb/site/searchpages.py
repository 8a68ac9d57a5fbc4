"""The site's search: the content's index (`kb.search`, the one `kb search` uses), its export copied into the site
(`kb.search.export`, read by `templates/static/kbsearch.js` as `kb search` reads it), so a question gives the same
results in `kb search` and in the browser. Each result links to the page (and anchor) showing it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from kb.site.labels import UI_LANGS
from kb.sources import fold

if TYPE_CHECKING:
    from kb.site.gather import SiteData

SEARCH_DIR = "search"
"""Folder of the search index, at the site's root (shared by the interface trees)."""


@dataclass(frozen=True, slots=True)
class Pages:
    """Where the site shows each kind of search entry."""

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


class Indexing:
    """The content's live search index, being made while the pages render: when the build was given more than one
    job and the index is stale, Whoosh's half in a forked child and the tables' half here (`kb.search.build.Halves`),
    else all of it here when `folder` is asked for."""

    def __init__(self, kb, jobs: int = 1) -> None:
        from kb.search.index import halves  # late: importing the site must not load the search package

        self.kb = kb
        self.halves = halves(Path(kb.content), kb) if jobs > 1 else None
        self._items = self.halves.items if self.halves is not None else None

    def items(self) -> list:
        """The knowledge base's search entries (every edition's), in the index's order: the halves' own."""
        if self._items is None:
            self._items = search_entries(self.kb)
        return self._items

    def folder(self) -> Path:
        """The index's folder: made live by the halves; made here when the child could not write its half (an error
        of the content's or the disk's is then raised here, as it would have been without a child)."""
        if self.halves is not None:
            halves, self.halves = self.halves, None
            found = halves.finish()
            if found is not None:
                return found
        return make_index(self.kb)

    def stop(self) -> None:
        """Give up: end the child, if any, and remove what it was writing."""
        if self.halves is not None:
            self.halves.stop()


def make_index(kb) -> Path:
    """The content's live search index (the one `kb search` uses): the up-to-date one, else made here and made live
    (`kb.search.index.ensure_index`); one whose seal does not hold (damaged, or not written here) made again."""
    from kb.search.index import ensure_index  # late: importing the site must not load the search package
    from kb.search.store import IndexDamaged

    try:
        return ensure_index(Path(kb.content), kb)
    except IndexDamaged:
        return remake_index(kb)


def remake_index(kb) -> Path:
    """Make the content's search index again, here (the live one does not read back), and make it live."""
    from kb.search.build import publish_index
    from kb.search.index import index_key, index_root

    content = Path(kb.content)
    (index_root(content) / "CURRENT").unlink(missing_ok=True)
    return publish_index(index_root(content), index_key(content, kb), kb)


def search_entries(kb) -> list:
    """The knowledge base's search entries (every edition's), in the index's order."""
    from kb.search.entries import entries

    return list(entries(kb))


def write_search(site: Path, index: Path, data: SiteData, items: list) -> None:
    """Write the site's search files: the index's export (what every query reads; an index found damaged is made
    again), then the documents' own files with the pages showing them, and the symbols their results draw."""
    from kb.search.build import copy_export
    from kb.search.export import write_documents
    from kb.search.store import IndexDamaged
    from kb.search.writer import entry_langs

    folder = site / SEARCH_DIR
    try:
        copy_export(index, folder)
    except IndexDamaged:
        copy_export(remake_index(data.kb), folder)
    pages = pages_of(data)
    current = [e for e in items if e.current]
    summary = write_documents(folder, current, entry_langs(items), lambda stored: page_of(pages, stored))
    write_symbols(folder / "symbols.json", summary["symbols"])


def write_symbols(path: Path, codes: Iterable[str]) -> None:
    """Write how the site draws each symbol the search results may show (`{2}{U}`, `{T}`), per interface language:
    the search page draws them as the pages do, from this table (`{ui: {code: HTML}}`)."""
    from kb.site.render import mana_symbol

    table = {ui: {code: str(mana_symbol(code.strip("{}"), ui)) for code in sorted(codes)} for ui in UI_LANGS}
    path.write_text(json.dumps(table, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")


def pages_of(data: SiteData) -> Pages:
    """Where the site shows rules, glossary entries, cards, notes and rulings."""
    return Pages.of(page_items(data))


def page_items(data: SiteData) -> Iterator[tuple[int, str, str]]:
    """Where the site shows each search entry, as (kind, key, address) items (`Pages.of` makes the maps)."""
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


def page_of(pages: Pages, stored: dict) -> str | None:
    """The page (relative to an interface tree) of a search document (its stored fields), or None when the site
    does not show it."""
    kind, key, number = stored["kind"], stored["key"], stored.get("number")
    if kind == "rule" and "@" in key:  # a translation's rule with no counterpart today: its own row
        return pages.rules.get(f"{key.split('@', 1)[1].split(':', 1)[0]}-{number}")
    if kind == "rule":  # the row of today's number, whatever number each language gives the rule
        return pages.rules.get(number)
    return {"glossary": pages.glossary, "card": pages.cards, "ruling": pages.rulings}.get(kind, pages.notes).get(key)
