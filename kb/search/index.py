"""Search: the index life cycle and the query entry point, on Whoosh.

One Whoosh document per rule number (every language side by side), glossary entry, card, ruling and note
(`kb.search.writer`), kept under the build folder and reused while the content and kb's code are unchanged: the
index of the current editions, and the index of every edition, built the first time a query asks for another
edition. An index opened is searched by `kb.search.searcher.SearchIndex`.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from whoosh import index as whoosh_index
from whoosh.filedb.filestore import RamStorage

from kb.search.query import Item, ParsedQuery, SearchError, parse_query
from kb.search.results import SearchResult
from kb.search.searcher import SearchIndex
from kb.search.store import (
    IndexDamaged,
    IndexNotWritable,
    commit,
    index_root,
    live,
    prepare,
    read_tables,
    write_tables,
)
from kb.search.store import index_key as _index_key
from kb.search.store import publish as _publish

__all__ = [
    "IndexNotWritable",
    "Item",
    "ParsedQuery",
    "SearchError",
    "SearchIndex",
    "SearchResult",
    "ensure_index",
    "index_key",
    "index_root",
    "open_index",
    "parse_query",
]

INDEX_VERSION = 14
"""Bump when the analysis, the schema, the tables or the ranking data change: old indexes are then rebuilt."""


def index_key(content: Path, kb=None, every: bool = False) -> str:
    """Hash of the content files (a loaded knowledge base's, when given: the files are not read again), the kb code
    and the index format: the index is reused while it holds."""
    version = f"{INDEX_VERSION} {'every' if every else 'current'} {sys.version_info[:2]}"
    return _index_key(content, version, kb.content_hash if kb is not None else None)


def publish(root: Path, key: str, items: Iterable, lexicon=None, numbering: dict | None = None, every=False) -> Path:
    """Build a new index in its own folder, then switch the pointer to it atomically; prune old versions."""
    from kb.search.writer import write_index  # late: searching an index already built needs no writer

    return _publish(root, key, lambda folder: write_index(folder, items, lexicon, numbering, every))


def live_folder(root: Path, key: str) -> Path | None:
    """The folder of the live index under `root` when it is the one `key` names and its seal checks out, else None;
    IndexDamaged (then rebuilt) when its seal does not check out (`kb.search.store.live`)."""
    return live(root, key)


def ensure_index(content: Path, kb=None, every: bool = False) -> Path:
    """Folder of an up-to-date index for `content` (of every edition when `every`), built (from `kb` or a fresh
    load) when stale or missing."""
    root, key = index_root(content, every), index_key(content, kb, every)
    folder = live_folder(root, key)
    if folder is not None:
        return folder
    kb = kb if kb is not None else _load(content)
    return publish(root, key, _entries(kb), kb.lexicon, own_numbering(kb), every)


@dataclass(frozen=True)
class IndexJob:
    """The making of the index of the current editions of a content folder in two halves, from the same entries:
    Whoosh's documents (`documents`, to run in another process) and the index's tables (`tables`, here,
    meanwhile), joined by `publish`. When the live index is up to date (`live`), nothing is made: `documents`
    gives its folder and `tables` reads its tables."""

    root: Path
    key: str
    live: Path | None
    items: list
    lexicon: object
    numbering: dict
    langs: tuple[str, ...]
    """The index's languages, in its order."""

    def documents(self) -> Callable[[], Path]:
        """Whoosh's half, as a function of no argument holding the entries (not the knowledge base: it is sent to
        another process): it writes Whoosh's documents into a new folder, not live yet, and gives that folder."""
        if self.live is not None:
            return partial(Path, self.live)
        return partial(prepare, self.root, self.key, partial(_write_documents, self.items, self.lexicon))

    def tables(self) -> dict:
        """The index's tables (`tables.json`), from the entries' texts."""
        if self.live is not None:
            return read_tables(self.live)
        from kb.search.writer import index_tables

        return index_tables(self.items, self.lexicon, self.numbering)

    def publish(self, made: Path, info: dict) -> Path:
        """Write the tables into the folder `documents` made and make it live; give the live index's folder."""
        if self.live is not None:
            return self.live
        return commit(self.root, self.key, made, lambda folder: write_tables(folder, info))


def index_job(content: Path, kb, items: list) -> IndexJob:
    """What makes the index of the current editions of `content` up to date, from the knowledge base's entries
    (`items`, every one)."""
    root, key = index_root(content), index_key(content, kb)
    try:
        made = live_folder(root, key)
    except IndexDamaged:  # rebuilt, as `kb search` rebuilds it
        made = None
    langs = _entry_langs(items)
    if made is not None:
        return IndexJob(root, key, made, [], None, {}, langs)
    return IndexJob(root, key, None, items, kb.lexicon, own_numbering(kb), langs)


def _entry_langs(items: list) -> tuple[str, ...]:
    """The languages of an index of these entries (`kb.search.writer.entry_langs`)."""
    from kb.search.writer import entry_langs

    return entry_langs(items)


def _write_documents(items: list, lexicon, folder: Path) -> None:
    """Whoosh's half of an index (`kb.search.writer.write_documents`)."""
    from kb.search.writer import write_documents

    write_documents(folder, items, lexicon)


def _entries(kb):
    """The search entries of a knowledge base."""
    from kb.search.entries import entries

    return entries(kb)


def own_numbering(kb) -> dict:
    """A translation's rules that today's numbering puts elsewhere (`kb.search.writer.own_numbering`)."""
    from kb.search import writer

    return writer.own_numbering(kb)


def _load(content: Path):
    """Load a knowledge base (imported late: `kb.link.load` pulls in every parser)."""
    from kb.link.load import load

    return load(content)


def open_index(content: Path, kb=None, every: bool = False) -> SearchIndex:
    """Open the up-to-date index of a content folder, building it if needed (and rebuilding a damaged one, which
    `SearchIndex.notice` then reports); in memory if it cannot be saved. A query asking for another edition opens
    the index of every edition."""
    notice = None
    others = None if every else (lambda: open_index(content, kb, every=True))
    for attempt in range(3):
        try:
            folder = ensure_index(content, kb, every)
        except IndexDamaged as err:  # its pointer removed: rebuilt at the next attempt
            notice = f"{_one_line(err)}; rebuilt it"
            continue
        except IndexNotWritable as err:
            kb = kb if kb is not None else _load(content)
            return memory_index(_entries(kb), kb.lexicon, str(err), own_numbering(kb), every)
        try:
            index = SearchIndex(whoosh_index.open_dir(str(folder)), read_tables(folder), others)
        except FileNotFoundError:  # pruned by a concurrent rebuild between reading the pointer and opening it
            continue
        except (IndexDamaged, Exception) as err:  # noqa: BLE001 - any unreadable file: rebuilt
            if attempt == 2:
                raise IndexDamaged(f"the search index in {folder} cannot be read: {err}") from err
            notice = f"the search index in {folder} was damaged ({_one_line(err)}); rebuilt it"
            (folder.parent / "CURRENT").unlink(missing_ok=True)
            continue
        index.notice = notice
        return index
    raise IndexDamaged(f"the search index of {content} could not be opened")


def _one_line(err: BaseException) -> str:
    """An error as one short line."""
    return (str(err) or type(err).__name__).splitlines()[0][:160]


def memory_index(
    items: Iterable, lexicon=None, unsaved: str | None = None, numbering=None, every: bool = False
) -> SearchIndex:
    """An index of some entries (and a lexicon's translation tables), in memory only (`every`: of every edition,
    else of the current ones, and another edition asked for is built then)."""
    from kb.search.writer import build, index_tables

    items = list(items)
    ix, info = build(_Memory(), items, lexicon, every), index_tables(items, lexicon, numbering, every)
    others = None if every else (lambda: memory_index(items, lexicon, unsaved, numbering, True))
    index = SearchIndex(ix, info, others)
    index.unsaved = unsaved
    return index


class _Memory(RamStorage):
    """Whoosh's memory storage, with its temporary files in a folder of their own: Whoosh names that folder after
    the index (`MAIN.tmp` in the system's temporary folder) and removes it when done, so two processes building an
    index in memory at once would remove each other's files."""

    def temp_storage(self, name=None):
        return super().temp_storage(None)
