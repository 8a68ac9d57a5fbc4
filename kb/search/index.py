"""Open a content folder's index: the one kept under the build folder while the content and kb's code are unchanged,
made when stale or missing (`kb.search.build`); an index that does not read back is made again.

Two indexes per content folder: the current editions' (what `kb search` asks by default and what the site exports)
and every edition's, made the first time a query asks for another edition. Opening one checks its seal and reads
its export's `core.json`; a query reads the rest of the export as it needs it (`kb.search.engine`).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

from kb.search.engine import Answer, Engine, opened
from kb.search.query import Item, ParsedQuery, SearchError, parse_query
from kb.search.results import SearchResult
from kb.search.store import IndexDamaged, IndexNotWritable, index_root, live
from kb.search.store import index_key as _index_key

if TYPE_CHECKING:
    from kb.search.build import Halves

__all__ = [
    "Answer",
    "Engine",
    "IndexNotWritable",
    "Item",
    "ParsedQuery",
    "SearchError",
    "SearchResult",
    "ensure_index",
    "index_key",
    "index_root",
    "open_index",
    "parse_query",
]

INDEX_VERSION = 32
"""Bump when the analysis, the schema, the tables, the export or the ranking data change: old indexes are then
made again."""


def index_key(content: Path, kb=None, every: bool = False) -> str:
    """Hash of the content files (a loaded knowledge base's, when given: the files are not read again), the kb code
    and the index format: the index is reused while it holds."""
    version = f"{INDEX_VERSION} {'every' if every else 'current'} {sys.version_info[:2]}"
    return _index_key(content, version, kb.content_hash if kb is not None else None)


def ensure_index(content: Path, kb=None, every: bool = False) -> Path:
    """Folder of an up-to-date index for `content` (of every edition when `every`), made (from `kb` or a fresh
    load) when stale or missing."""
    root, key = index_root(content, every), index_key(content, kb, every)
    folder = live(root, key)  # IndexDamaged when its seal does not hold
    if folder is not None:
        return folder
    from kb.search.build import publish_index  # late: searching an index already made needs no writer

    return publish_index(root, key, kb if kb is not None else _load(content), every)


def halves(content: Path, kb) -> Halves | None:
    """The stale index of `content` being made in two processes (`kb.search.build.Halves`), or None: when it is live,
    when no child can be forked here, or when its folder cannot be written (making it in one process then says why,
    or writes it elsewhere)."""
    from kb.search.build import Halves  # late: searching an index already made needs no writer
    from kb.sources.fork import can_fork

    root, key = index_root(content), index_key(content, kb)
    try:
        if not can_fork() or live(root, key) is not None:
            return None
        return Halves(root, key, kb)
    except (IndexDamaged, IndexNotWritable):
        return None


def open_index(content: Path, kb=None, every: bool = False) -> Engine:
    """Open the up-to-date index of a content folder, making it if needed (and making a damaged one again, which
    `Engine.notice` then reports); in a temporary folder if it cannot be saved. A query asking for another edition
    opens the index of every edition."""
    notice = None
    others = None if every else (lambda: open_index(content, kb, every=True))
    for attempt in range(3):
        try:
            folder = ensure_index(content, kb, every)
        except IndexDamaged as err:  # its seal does not hold: its pointer removed, made again at the next attempt
            notice = f"{_one_line(err)}; rebuilt it"
            (index_root(content, every) / "CURRENT").unlink(missing_ok=True)
            continue
        except IndexNotWritable as err:
            return _temporary(content, kb, str(err), others, every)
        try:
            engine = opened(folder, others)
        except FileNotFoundError:  # pruned by a concurrent rebuild between reading the pointer and opening it
            continue
        except (IndexDamaged, ValueError, OSError, KeyError, TypeError) as err:  # any unreadable file: made again
            if attempt == 2:
                raise IndexDamaged(f"the search index in {folder} cannot be read: {err}") from err
            notice = f"the search index in {folder} was damaged ({_one_line(err)}); rebuilt it"
            (index_root(content, every) / "CURRENT").unlink(missing_ok=True)
            continue
        engine.notice = notice
        return engine
    raise IndexDamaged(f"the search index of {content} could not be opened")


def search(content: Path, query: str, **options) -> tuple[Engine, Answer]:
    """Open a content folder's index and answer a query; an index found damaged while answering (a file of its
    export that does not read back) is made again, once, and the query asked again (`Engine.notice` says so)."""
    engine = open_index(content)
    try:
        return engine, engine.search(query, **options)
    except IndexDamaged as err:
        (index_root(content) / "CURRENT").unlink(missing_ok=True)
        (index_root(content, every=True) / "CURRENT").unlink(missing_ok=True)
        engine = open_index(content)
        engine.notice = f"the search index was damaged ({_one_line(err)}); rebuilt it"
        return engine, engine.search(query, **options)


def _temporary(content: Path, kb, why: str, others, every: bool) -> Engine:
    """An index made in a temporary folder (the build folder cannot be written), searched as any other."""
    from kb.search.build import temporary_index

    made = temporary_index(kb if kb is not None else _load(content), every)
    engine = opened(Path(made.name), others)
    engine.unsaved = why
    engine.keep = made  # the folder lives as long as the engine
    return engine


def _load(content: Path):
    """Load a knowledge base (imported late: `kb.link.load` pulls in every parser)."""
    from kb.link.load import load

    return load(content)


def _one_line(err: BaseException) -> str:
    """An error as one short line."""
    return (str(err) or type(err).__name__).splitlines()[0][:160]
