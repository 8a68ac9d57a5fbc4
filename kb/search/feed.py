"""The search entries of a content folder, loaded in a forked process: the knowledge base is never held where
the index is built.

`kb search` on a folder whose index is stale loads the content (parse, link) only to read its entries once.
Loaded in the index's own process, the knowledge base's memory, once freed, stays with the process in pieces
the index cannot all reuse, and the index is built on top of it. Here a forked process loads the content,
sends the lexicon, then the entries in batches through a pipe, and exits; the index is built as they arrive (on
the other core, while the rest are read). Without `fork`, or when that process fails before its first entry,
the content is loaded here instead.
"""

from __future__ import annotations

import contextlib
import marshal
import multiprocessing
import os
import pickle
from collections.abc import Callable, Iterable, Iterator
from dataclasses import fields
from pathlib import Path

from kb.search.entries import Entry, entries, entries_of

BATCH = 512
"""Entries a message holds."""
_FIELDS = tuple(f.name for f in fields(Entry))
_END = b""
_FAILED = b"!"


class FeedError(RuntimeError):
    """The loading process failed after its first entries were read: load the content here and start again."""


def loaded_entries(content: Path, load: Callable) -> tuple[Iterator[Entry], object]:
    """The entries of the content (an iterator: read them once, then `close()` it, read to the end or not) and its
    lexicon. `load(content)` loads the knowledge base: in a forked process when there is `fork`, else here."""
    if "fork" not in multiprocessing.get_all_start_methods():
        return entries_of(load(content))
    context = multiprocessing.get_context("fork")
    ours, child_end = context.Pipe(duplex=False)
    process = context.Process(target=_child, args=(content, load, child_end, ours))  # not a daemon: loading forks
    process.start()
    child_end.close()
    first = _receive(ours)
    if first is None or first.startswith(_FAILED):
        _end(process, ours)
        return entries_of(load(content))
    return Fed(ours, process), pickle.loads(first)


class Fed(Iterator[Entry]):
    """The entries the loading process sends, in order; a failure after the first is raised (the index is not
    made). `close()` (at the end, or on giving up early) ends that process: it is never left waiting to send."""

    def __init__(self, conn, process) -> None:
        self._conn, self._process = conn, process
        self._entries = received_entries(conn, "loading the content for the search index failed")

    def __next__(self) -> Entry:
        if self._process is None:
            raise StopIteration
        try:
            return next(self._entries)
        except (StopIteration, FeedError):
            self.close()
            raise

    def close(self) -> None:
        """End the loading process (its writes fail once the pipe is closed here) and wait for it."""
        if self._process is not None:
            _end(self._process, self._conn)
            self._process = None

    def __del__(self) -> None:
        self.close()


def _child(content: Path, load: Callable, conn, parents) -> None:
    """The forked process: load the content, send its lexicon, then its entries in batches, then an empty message
    (a failure is sent as `!` and its words instead)."""
    parents.close()  # the reading end is the parent's alone: once it closes it, a write here fails at once
    try:
        kb = load(content)
        conn.send_bytes(pickle.dumps(kb.lexicon, protocol=pickle.HIGHEST_PROTOCOL))
        send_entries(conn, entries(kb))
    except BaseException as err:
        send_failure(conn, err)
    finally:
        conn.close()
        os._exit(0)  # no exit handlers, no flush of the parent's buffers inherited by the fork


def send_entries(conn, items: Iterable[Entry]) -> None:
    """Send entries through a pipe in batches, then an empty message (`received_entries` reads them back)."""
    send_rows(conn, (tuple(_plain(getattr(entry, name)) for name in _FIELDS) for entry in items))


def send_rows(conn, rows: Iterable[tuple]) -> None:
    """Send tuples of plain values (what marshal writes) through a pipe, BATCH at a time, as they are made, then an
    empty message (`received_rows` reads them back)."""
    batch = []
    for row in rows:
        batch.append(row)
        if len(batch) == BATCH:
            conn.send_bytes(marshal.dumps(batch))
            batch = []
    if batch:
        conn.send_bytes(marshal.dumps(batch))
    conn.send_bytes(_END)


def send_failure(conn, err: BaseException) -> None:
    """Tell the reading end that no more entries will come, and why (given up silently when it is gone)."""
    with contextlib.suppress(OSError):
        conn.send_bytes(_FAILED + f"{type(err).__name__}: {err}".encode(errors="replace"))


def received_entries(conn, failed: str = "the search entries were not all sent") -> Iterator[Entry]:
    """The entries `send_entries` sends, in order, up to its empty message; a failure (or the sender gone) raises
    `FeedError`, saying `failed` and why."""
    return (Entry(*values) for values in received_rows(conn, failed))


def received_rows(conn, failed: str) -> Iterator[tuple]:
    """The tuples `send_rows` sends, in order, up to its empty message; a failure (or the sender gone) raises
    `FeedError`, saying `failed` and why."""
    while True:
        message = _receive(conn)
        if message == _END:
            return
        if message is None or message.startswith(_FAILED):
            why = message[1:].decode(errors="replace") if message else "it ended without a word"
            raise FeedError(f"{failed}: {why}")
        yield from marshal.loads(message)


def _plain(value):
    """A field as marshal writes it: a mapping (a `FrozenMap`) as a plain dict."""
    return dict(value) if isinstance(value, dict) else value


def _receive(conn) -> bytes | None:
    """The next message (None when the process ended without one)."""
    try:
        return conn.recv_bytes()
    except (EOFError, OSError):
        return None


def _end(process, conn) -> None:
    """Wait for the process to end."""
    conn.close()
    process.join()
