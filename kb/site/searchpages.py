"""The site's search: the content's Whoosh index (`kb.search`, the one `kb search` uses), exported as JSON files that
the search page ranks with (`kb.search.static`, read by `templates/static/kbsearch.js`), so a question gives the same
results in `kb search` and in the browser. Each result links to the page (and anchor) showing it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future
from dataclasses import dataclass
from functools import partial
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


def index_job(kb, items: list):
    """The making of the content's search index (`kb.search`, the one `kb search` uses) from the knowledge base's
    search entries (`items`, every one), in two halves (`kb.search.index.IndexJob`): Whoosh's documents, made in
    another process while the site's data are gathered and its pages render (`index_and_postings`), and the
    index's tables, made here."""
    from kb.search.index import index_job as job  # late: importing the site must not load the search package

    return job(Path(kb.content), kb, items)


def index_and_postings(job, site: Path) -> Callable[[], tuple[Path, dict]]:
    """Whoosh's half of an index (`IndexJob.documents`), then its postings and card names written into
    `<site>/search/`, as a function of no argument (run in another process); it gives the half's folder and the
    files' shard counts."""
    return partial(_index_and_postings, job.documents(), site / SEARCH_DIR, job.langs)


def _index_and_postings(documents: Callable[[], Path], folder: Path, langs: tuple[str, ...]) -> tuple[Path, dict]:
    """Make Whoosh's half of the index, then write its postings and card names (they need none of the tables)."""
    from kb.search.static import write_postings

    made = documents()
    return made, write_postings(folder, made, langs)


def abandon(indexing: Future | None) -> None:
    """Remove what the worker's half of the index wrote (`index_and_postings`) when the build fails before the index
    is made live (the worker is done: the build waits for it before it fails)."""
    if indexing is not None and indexing.done() and not indexing.cancelled() and indexing.exception() is None:
        from kb.search.store import abandon as remove

        remove(indexing.result()[0])


def write_words(site: Path, info: dict) -> dict:
    """Write the search files of the index's tables (`IndexJob.tables`, while the worker makes the index): words,
    forms, spellings; return `core.json`'s data but for the postings' and the documents' own."""
    from kb.search.searcher import tables_of
    from kb.search.static import write_words as write

    return write(site / SEARCH_DIR, tables_of(info), info.get("numbering", {}))


def search_entries(kb) -> list:
    """The knowledge base's search entries (every edition's), in the index's order."""
    from kb.search.entries import entries

    return list(entries(kb))


def write_documents(site: Path, data: SiteData, items: list) -> dict:
    """Write the search files of the documents themselves (what results show, the rank data, the rule numbers) and
    the symbols their results draw, from the knowledge base's entries (`search_entries`); return their summary,
    for `write_core`."""
    from kb.search.static import write_documents as write
    from kb.search.writer import entry_langs

    pages = pages_of(data)
    folder = site / SEARCH_DIR
    current = [e for e in items if e.current]
    summary = write(folder, current, entry_langs(items), lambda stored: page_of(pages, stored))
    write_symbols(folder / "symbols.json", summary["symbols"])
    return summary


def write_core(site: Path, words: dict, postings: dict, documents: dict) -> None:
    """Write the search's `core.json` from the tables' data (`write_words`), the postings' shard counts
    (`index_and_postings`) and the documents' (`write_documents`)."""
    from kb.search.static import write_core as write

    write(site / SEARCH_DIR, words | {"c": words["c"] | postings}, documents)


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
