"""Build the static site: gather the data, render every page (one tree per interface language), index, swap it in.

The site is written into a new sibling folder and swapped in only when complete, so a failed build
leaves the previous site untouched. A folder that is not a kb site (no `kb-site.json` stamp) is never
replaced, nor the content or project folder.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path

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
    left_behind,
    sibling,
    stamp_for,
    swap,
    write_manifest,
)
from kb.site.pages import jump_map, plan
from kb.site.seal import seal
from kb.site.searchpages import (
    abandon,
    index_and_postings,
    index_job,
    search_entries,
    write_core,
    write_documents,
    write_words,
)
from kb.sources.paths import TEMPLATES
from kb.sources.text import fnv1a
from kb.sources.workers import stop_with_parent

CARD_SHARD_BYTES = 8_000
"""About how large a shard of the card names the search box jumps to is."""


@dataclass(frozen=True, slots=True)
class BuildReport:
    """What a build wrote."""

    out: Path
    pages: int
    seconds: float
    search: bool
    search_wait: float = 0.0
    """Of `seconds`, those the build spent on the search index once its pages and its documents' files were written:
    its tables and their files, then waiting for Whoosh's documents and postings (written alongside, in another
    process), then making the index live and writing `core.json`."""
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
) -> BuildReport:
    """Render the whole site into `out`, atomically; raise SiteError (previous site untouched) on failure.

    `forced`: the content has errors and the build was asked for anyway (the stamp says so).
    """
    start = time.perf_counter()
    target = check_out(out, Path(kb.content))
    clean_leftovers(target)
    new = sibling(target, "new")
    search_wait = 0.0
    indexing = None
    try:
        if new.exists():
            shutil.rmtree(new)
        new.mkdir(parents=True)
        langs = search_langs(kb, site_langs(kb)) if search else []
        # The search index's documents, then the site's postings, while the data gather and pages render: a worker
        # of its own (started afresh, not forked: it inherits no pipe of ours), gone after its one job, and gone
        # within a fraction of a second of a killed build (`stop_with_parent`: else, killed before its job was
        # sent, it would wait for ever).
        worker = (
            ProcessPoolExecutor(1, max_tasks_per_child=1, initializer=stop_with_parent, initargs=(os.getpid(),))
            if langs
            else nullcontext()
        )
        with worker as pool:
            items = search_entries(kb) if langs else []
            job = index_job(kb, items) if langs else None
            indexing = pool.submit(index_and_postings(job, new)) if job is not None else None
            data = gather(kb)
            jobs = plan(data)
            bar = progress(length=len(jobs) + 1) if progress else _NoBar()
            with bar:
                write_pages(data, jobs, new, bar, forced)
                if job is not None:  # while the worker makes the index: the documents' files, the tables, their files
                    documents = write_documents(new, data, items)
                    waiting = time.perf_counter()
                    info = job.tables()
                    words = write_words(new, info)
                    made, postings = indexing.result()
                    job.publish(made, info)
                    write_core(new, words, postings, documents)
                    search_wait = time.perf_counter() - waiting
                bar.update(1)
        write_manifest(new)
        seal(new)  # lets an unchanged rebuild check, cheaply, that nobody touched the site since
        check_out(out, Path(kb.content))  # again: the folder may have changed during the build
        kept, replaced = carry_over(target, new)  # CNAME, .git, the user's files: into the new site
        swap(new, target)
    except SiteError:
        shutil.rmtree(new, ignore_errors=True)
        abandon(indexing)
        raise
    except Exception as err:  # a failed build must say why in one line and leave the old site alone
        shutil.rmtree(new, ignore_errors=True)
        abandon(indexing)
        raise SiteError(f"site not built ({_why(err)}); {left_behind(target)}") from err
    seconds = time.perf_counter() - start
    return BuildReport(Path(out), len(jobs), seconds, bool(langs), search_wait, tuple(kept), tuple(replaced))


def _why(err: Exception) -> str:
    """A failed build's cause in a reader's words: what could not be written and what to do, else the error."""
    if isinstance(err, BrokenProcessPool):
        return "the search index's process stopped (killed, or out of memory); build again"
    if isinstance(err, PermissionError) and err.filename:
        where = Path(err.filename)
        return f"permission denied on {where}: the folder {where.parent} must be writable by you"
    if isinstance(err, OSError):  # kb's own (a search index that cannot be written) carry their message alone
        return f"{err.strerror}{f' ({err.filename})' if err.filename else ''}" if err.strerror else str(err)
    return f"{type(err).__name__}: {err}"


def write_pages(data: SiteData, jobs: Iterable[Job], new: Path, bar, forced: bool = False) -> None:
    """Render every job into the new folder, copy the static files, write the stamp and jump map."""
    from kb.site.templating import environment

    new.mkdir(parents=True, exist_ok=True)
    write_jumps(new, *jump_map(data))  # first: the maps are let go before the pages render
    env = environment()
    cache = render.RenderCache()  # rule texts rendered once for both interface trees and nearby previews
    folders: set[Path] = set()
    for job in jobs:
        target = new / job.path
        if target.parent not in folders:
            target.parent.mkdir(parents=True, exist_ok=True)
            folders.add(target.parent)
        where = _where(job)
        linker = render.Linker(
            where["root"],
            data.rows,
            data.texts,
            data.today,
            cache,
            data.row_parts,
            data.miscited,
            job.context.get("ui", ""),
        )
        html = env.get_template(job.template).render(**job.values(), **where, ln=linker, data=data, kb=data.kb)
        target.write_text(render.localise(html, job.context.get("ui") or UI_LANGS[0]), encoding="utf-8")
        bar.update(1)
    shutil.copytree(TEMPLATES / "static", new / "static")
    stamp = {**stamp_for(data.kb.content_hash), "langs": data.langs, "forced": forced}
    (new / STAMP).write_text(json.dumps(stamp, indent=1, sort_keys=True) + "\n", encoding="utf-8")


def write_jumps(new: Path, jump: dict, cards: dict[str, str]) -> None:
    """Write `jump.json` and the card names' shards `jump-cards-<k>.json` (a name in shard `fnv1a(name) % count`,
    `count` in `jump.json`'s `cards`): the search page reads the one shard of the name typed."""
    count = max(1, sum(len(k) + len(v) + 6 for k, v in cards.items()) // CARD_SHARD_BYTES)
    parts: list[dict[str, str]] = [{} for _ in range(count)]
    for name, path in cards.items():
        parts[fnv1a(name) % count][name] = path
    for k, part in enumerate(parts):
        (new / f"jump-cards-{k}.json").write_text(json.dumps(part, ensure_ascii=False, sort_keys=True), "utf-8")
    text = json.dumps({**jump, "cards": count}, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    (new / "jump.json").write_text(text, encoding="utf-8")


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
