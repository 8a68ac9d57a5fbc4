"""Build the static site: gather the data, render every page (one tree per interface language), index, swap it in.

The site is written into a new sibling folder and swapped in only when complete, so a failed build
leaves the previous site untouched. A folder that is not a kb site (no `kb-site.json` stamp) is never
replaced, nor the content or project folder.
"""

from __future__ import annotations

import contextlib
import json
import multiprocessing
import os
import queue
import shutil
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from kb.link.cache import code_hash
from kb.model.base import KnowledgeBase
from kb.site import labels, render
from kb.site.gather import SiteData, gather, search_langs, site_langs
from kb.site.labels import UI_LANGS, other_ui
from kb.site.output import (
    STAMP,
    Job,
    SiteError,
    carry_over,
    check_out,
    clean_leftovers,
    sibling,
    stamp_for,
    swap,
    write_manifest,
)
from kb.site.pages import jump_map, plan
from kb.site.seal import seal
from kb.site.searchpages import SEARCH_DIR, current_entries, index_data, index_entries, pages_of, write_index
from kb.sources.hashing import sha256
from kb.sources.paths import TEMPLATES, build_dir


@dataclass(frozen=True, slots=True)
class BuildReport:
    """What a build wrote."""

    out: Path
    pages: int
    seconds: float
    search: bool
    kept: tuple[str, ...] = ()
    """Files and folders of the previous site no build wrote (CNAME, .git/, a user's files), carried over."""
    replaced: tuple[str, ...] = ()
    """Files of the previous site no build wrote, at paths this build writes: the new pages replaced them."""


class _NoBar:
    """Stands in for a progress bar when none is wanted."""

    def __enter__(self) -> _NoBar:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def update(self, n: int) -> None:
        """Ignore progress."""


def build_site(
    kb: KnowledgeBase,
    out: Path,
    progress: Callable | None = None,
    search: bool = True,
    forced: bool = False,
    keep: Callable[[], None] | None = None,
    searching: SearchProcess | None = None,
) -> BuildReport:
    """Render the whole site into `out`, atomically; raise SiteError (previous site untouched) on failure.

    `forced`: the content has errors and the build was asked for anyway (the stamp says so). `keep`: work left
    from loading (writing the load cache), done once the pages are written, while the search index's process
    finishes: done before, it would delay the start of that process, the longer of the two. `searching`: the search
    index's process, forked before the content was loaded (`fork_search`); without it, one is forked here.
    """
    start = time.perf_counter()
    target = check_out(out, Path(kb.content))
    clean_leftovers(target)
    new = sibling(target, "new")
    try:
        if new.exists():
            shutil.rmtree(new)
        new.mkdir(parents=True)
        langs = search_langs(kb, site_langs(kb)) if search else []
        searching = start_search(new, kb, langs, searching)  # on the other core while the pages are made
        data = gather(kb)
        jobs = plan(data)
        send_site(searching, data)
        bar = progress(length=len(jobs) + len(langs)) if progress else _NoBar()
        with bar:
            write_pages(data, jobs, new, bar, forced)
            if keep is not None:
                keep()  # while the index's process finishes
            finish_search(searching, new, kb, langs, data, bar)
        write_manifest(new)
        seal(new)  # lets an unchanged rebuild check, cheaply, that nobody touched the site since
        check_out(out, Path(kb.content))  # again: the folder may have changed during the build
        kept, replaced = carry_over(target, new)  # CNAME, .git, the user's files: into the new site
        swap(new, target)
    except SiteError:
        stop_search(searching)
        shutil.rmtree(new, ignore_errors=True)
        raise
    except Exception as err:  # a failed build must say why in one line and leave the old site alone
        stop_search(searching)
        shutil.rmtree(new, ignore_errors=True)
        raise SiteError(f"site not built ({type(err).__name__}: {err}); the previous site is untouched") from err
    return BuildReport(Path(out), len(jobs), time.perf_counter() - start, bool(langs), tuple(kept), tuple(replaced))


def write_pages(data: SiteData, jobs: Iterable[Job], new: Path, bar, forced: bool = False) -> None:
    """Render every job into the new folder, copy the static files, write the stamp and jump map."""
    from kb.site.templating import environment  # here: the search index's process, forked before, needs no Jinja2

    new.mkdir(parents=True, exist_ok=True)
    with (new / "jump.json").open("w", encoding="utf-8") as f:  # first: its map is let go before the pages render
        for chunk in json.JSONEncoder(ensure_ascii=False, sort_keys=True).iterencode(jump_map(data)):
            f.write(chunk)
    env = environment()
    cache = render.RenderCache()  # rule texts rendered once for both interface trees and nearby previews
    folders: set[Path] = set()
    for job in jobs:
        target = new / job.path
        if target.parent not in folders:
            target.parent.mkdir(parents=True, exist_ok=True)
            folders.add(target.parent)
        where = _where(job)
        linker = render.Linker(where["root"], data.rows, data.texts, data.today, cache, data.row_parts)
        html = env.get_template(job.template).render(**job.values(), **where, ln=linker, data=data, kb=data.kb)
        target.write_text(html, encoding="utf-8")
        bar.update(1)
    shutil.copytree(TEMPLATES / "static", new / "static")
    stamp = {**stamp_for(data.kb.content_hash), "langs": data.langs, "forced": forced}
    (new / STAMP).write_text(json.dumps(stamp, indent=1, sort_keys=True) + "\n", encoding="utf-8")


def _where(job: Job) -> dict[str, str]:
    """Relative prefixes of a page: `root` (its interface tree), `site_root`, and `alt` (it in the other tree).

    Pages outside the trees (the root page, the 404 page) link into the default interface's tree.
    """
    site_root = "../" * job.path.count("/")
    ui = job.context.get("ui")
    if ui is None:
        return {"root": f"{site_root}{UI_LANGS[0]}/", "site_root": site_root}
    path = job.path[len(ui) + 1 :]
    other = other_ui(ui)
    return {
        "t": labels.words(ui),
        "root": "../" * path.count("/"),
        "site_root": site_root,
        "alt": f"{site_root}{other}/{path}",
        "other": other,
    }


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
        """The feeding thread: the header, every entry, then the pages' addresses (None: the build gave up), made
        only then (held no longer than it takes to send them)."""
        from kb.search.feed import send_entries, send_failure

        try:
            self._conn.send((str(new), kb.lexicon))
            try:
                send_entries(self._conn, current_entries(kb))
            except (OSError, EOFError):
                raise
            except Exception as err:  # the entries could not be made: the index's process says so and ends
                self._failed = f"{type(err).__name__}: {err}"
                send_failure(self._conn, err)
                return
            data = self._site.get()
            self._conn.send(None if data is None else pages_of(data))
        except (OSError, EOFError, ValueError):  # the index's process is gone: its end says why
            return

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
            raise SiteError(f"search index not written ({message or f'exit status {self._process.exitcode}'})")

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
    from kb.search.feed import received_entries

    parents.close()  # so that the parent's death ends the waits below (EOFError)
    try:
        header = conn.recv()
        if header is None:
            return
        new, lexicon = Path(header[0]), header[1]
        built = index_entries(received_entries(conn), lexicon, new)
        pages = conn.recv()
        if pages is not None:
            write_index(new, built, pages)
            conn.send("")
        else:
            built.payloads.close()
    except EOFError:
        pass
    except BaseException as err:  # whatever it is, the parent reports it and fails the build
        with contextlib.suppress(OSError):
            conn.send(f"{type(err).__name__}: {err}")
    finally:
        conn.close()


def start_search(new: Path, kb: KnowledgeBase, langs: list[str], searching: SearchProcess | None = None):
    """Start the site's search index: "reused" when an earlier build's index was copied, None when there is nothing
    to index or no second process (`finish_search` then writes it here), else the `SearchProcess` (forked now
    unless one forked before the load is given), fed from now on."""
    if not langs or _reuse_search(new, kb, langs):
        if searching is not None:
            searching.skip()
        return "reused" if langs else None
    searching = searching or fork_search()
    if searching is not None:
        searching.feed(kb, new)
    return searching


def send_site(searching, data: SiteData) -> None:
    """Give the index's process the site's data, for the pages' addresses it links its results to."""
    if isinstance(searching, SearchProcess):
        searching.send_site(data)


def stop_search(searching) -> None:
    """End the index's process after a failed build."""
    if isinstance(searching, SearchProcess):
        searching.stop()


def finish_search(searching, new: Path, kb: KnowledgeBase, langs: list[str], data: SiteData, bar) -> None:
    """Wait for the index's process (or write the index now); a failure fails the build."""
    if searching is None and langs:
        write_index(new, index_data(kb, new), pages_of(data))
    elif isinstance(searching, SearchProcess):
        searching.finish()
    if searching != "reused" and langs:
        _keep_search(new, kb, langs)
    bar.update(len(langs))


def _search_cache(kb: KnowledgeBase, langs: list[str]) -> Path:
    """Where the site's search index of this content, code and languages is kept between builds."""
    key = sha256(f"{kb.content_hash}\0{code_hash()}\0{' '.join(langs)}".encode()).hexdigest()
    return build_dir(Path(kb.content)) / "site-search" / key[:32]


def _reuse_search(new: Path, kb: KnowledgeBase, langs: list[str]) -> bool:
    """Copy an unchanged search index from an earlier build (same content, same code); False when there is none."""
    kept = _search_cache(kb, langs)
    if not kept.is_dir():
        return False
    try:
        shutil.copytree(kept, new / SEARCH_DIR)
    except OSError:
        shutil.rmtree(new / SEARCH_DIR, ignore_errors=True)
        return False
    return True


def _keep_search(new: Path, kb: KnowledgeBase, langs: list[str]) -> None:
    """Keep the search index just written for the next build (atomically; given up when not writable)."""
    kept = _search_cache(kb, langs)
    if not langs or kept.is_dir():
        return
    tmp = kept.parent / f".{kept.name}.{os.getpid()}"
    try:
        kept.parent.mkdir(parents=True, exist_ok=True)
        for old in sorted(kept.parent.iterdir(), key=lambda p: p.stat().st_mtime)[:-2]:
            shutil.rmtree(old, ignore_errors=True)  # keep the last few only
        shutil.copytree(new / SEARCH_DIR, tmp)
        os.replace(tmp, kept)
    except OSError:
        shutil.rmtree(tmp, ignore_errors=True)
