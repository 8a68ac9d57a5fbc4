"""The site's search index built in a process of its own (`SearchProcess`), forked before the content is loaded and
before the site's modules are imported: it holds neither the knowledge base nor the page-making code.

This module imports nothing of kb at load time, so that `kb build` can fork the process first thing.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import queue
import threading
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kb.model.base import KnowledgeBase
    from kb.site.gather import SiteData


def _site_error(message: str) -> Exception:
    """The build's error (`kb.site.output.SiteError`) saying the index was not written."""
    from kb.site.output import SiteError

    return SiteError(message)


class SearchProcess:
    """The site's search index built in a process of its own, on the other core, while the pages are gathered and
    rendered. The knowledge base is never held there: forked before the content is loaded (`fork_search`), it is
    sent the lexicon and the search entries, one batch at a time, by a thread of this process, then the pages'
    addresses; it writes the index into the new site and answers '' or its error in one line. (Forked once the
    content is loaded, it would start with every page of the knowledge base counted in its memory.)"""

    def __init__(self, process, conn) -> None:
        self._process, self._conn = process, conn
        self._site: queue.Queue = queue.Queue(1)
        self._feeder: threading.Thread | None = None
        self._failed = ""
        self._ended = False

    def feed(self, kb: KnowledgeBase, new: Path) -> None:
        """Start sending the new site's folder, the lexicon and the entries (the pages' addresses follow)."""
        self._feeder = threading.Thread(target=self._send, args=(new, kb), daemon=True)
        self._feeder.start()

    def _send(self, new: Path, kb: KnowledgeBase) -> None:
        """The feeding thread: the header, every entry, then the pages' addresses, each made as it is sent (or a
        failure: the build gave up)."""
        from kb.search.feed import send_entries, send_failure, send_rows
        from kb.site.searchpages import current_entries, page_items

        try:
            self._conn.send((str(new), kb.lexicon))
            send_entries(self._conn, current_entries(kb))
            data = self._site.get()
            if data is None:
                send_failure(self._conn, RuntimeError("the build gave up"))
            else:
                send_rows(self._conn, page_items(data))
        except Exception as err:  # the process is gone (its end says why), or entries or addresses were not made
            if not isinstance(err, (OSError, EOFError)):
                self._failed = f"{type(err).__name__}: {err}"
            send_failure(self._conn, err)  # the process, waiting for entries or addresses, ends on it

    def send_site(self, data: SiteData) -> None:
        """The site's data, from which the pages' addresses are sent once the entries are (the index links its
        results to them)."""
        self._site.put(data)

    def skip(self) -> None:
        """Nothing to index (or an earlier build's index was reused): end the process."""
        with contextlib.suppress(OSError, ValueError):
            self._conn.send(None)
        self._process.join()
        self._conn.close()
        self._ended = True

    def finish(self) -> None:
        """Wait for the index to be written; a failure fails the build."""
        if self._feeder is not None:
            self._feeder.join()
        try:
            message = self._conn.recv()
        except (EOFError, OSError):
            message = "the search index process ended without a word"
        self._process.join()
        self._conn.close()
        self._ended = True
        message = self._failed or message
        if message or self._process.exitcode != 0:
            raise _site_error(f"search index not written ({message or f'exit status {self._process.exitcode}'})")

    def stop(self) -> None:
        """End the process after a failed build (the feeding thread, if waiting, ends with it)."""
        with contextlib.suppress(queue.Full):
            self._site.put_nowait(None)
        self._process.terminate()
        self._process.join()
        if self._feeder is not None:
            self._feeder.join()
        self._conn.close()
        self._ended = True

    def close(self) -> None:
        """End the process however far the build went (nothing to do once it has ended)."""
        if not self._ended:
            self.stop()


def fork_search() -> SearchProcess | None:
    """Fork the process of the site's search index (see `SearchProcess`): None on a single core or without `fork`,
    where the index is built here once the pages are written."""
    if (os.cpu_count() or 1) < 2 or "fork" not in multiprocessing.get_all_start_methods():
        return None
    context = multiprocessing.get_context("fork")
    ours, theirs = context.Pipe(duplex=True)
    process = context.Process(target=_search_child, args=(theirs, ours), daemon=True)
    process.start()
    theirs.close()
    return SearchProcess(process, ours)


def _search_child(conn, parents) -> None:
    """The forked process: read the header (the new site's folder and the lexicon), build the index from the
    entries as they come, wait for the pages, write it, send back '' or the error in one line."""
    from kb.search.feed import received_entries, received_rows
    from kb.site.searchpages import Pages, index_entries, write_index

    parents.close()  # so that the parent's death ends the waits below (EOFError)
    try:
        header = conn.recv()
        if header is None:
            return
        new, lexicon = Path(header[0]), header[1]
        built = index_entries(received_entries(conn), lexicon, new)
        try:
            pages = Pages.of(received_rows(conn, "the pages' addresses were not all sent"))
        except BaseException:
            built.payloads.close()
            raise
        write_index(new, built, pages)
        conn.send("")
    except EOFError:
        pass
    except BaseException as err:  # whatever it is, the parent reports it and fails the build
        with contextlib.suppress(OSError):
            conn.send(f"{type(err).__name__}: {err}")
    finally:
        conn.close()
