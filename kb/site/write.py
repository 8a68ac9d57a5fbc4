"""Build the static site: gather the data, render every page (one tree per interface language), index, swap it in.

The site is written into a new sibling folder and swapped in only when complete, so a failed build
leaves the previous site untouched. A folder that is not a kb site (no `kb-site.json` stamp) is never
replaced, nor the content or project folder.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import shutil
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
    left_behind,
    sibling,
    stamp_for,
    swap,
    write_manifest,
)
from kb.site.pages import jump_map, plan
from kb.site.seal import seal
from kb.site.searching import SearchProcess, fork_search
from kb.site.searchpages import SEARCH_DIR, index_data, pages_of, write_index
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
    from loading (the load cache, written by a process forked after the load: `load_deferred`), waited for once
    the pages are written. `searching`: the search index's process, forked before the content was loaded
    (`fork_search`); without it, one is forked here.
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
                keep()  # long done, as a rule: the pages take longer
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
        raise SiteError(f"site not built ({type(err).__name__}: {err}); {left_behind(target)}") from err
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
