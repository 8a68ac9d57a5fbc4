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
from dataclasses import dataclass, replace
from pathlib import Path

from kb.model.base import KnowledgeBase
from kb.site import labels, render
from kb.site.gather import SiteData, gather, search_langs, site_langs
from kb.site.labels import UI_LANGS, other_ui
from kb.site.meta import page_meta, sitemap
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
from kb.site.searchpages import Indexing, write_search
from kb.sources.paths import TEMPLATES
from kb.sources.text import fnv1a

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
    """Of `seconds`, those the build spent on the search index after its pages: copying its export and writing the
    documents' files."""
    kept: tuple[str, ...] = ()
    """Files and folders of the previous site no build wrote (CNAME, .git/, a user's files), carried over."""
    replaced: tuple[str, ...] = ()
    """Files of the previous site no build wrote, at paths this build writes: the new pages replaced them."""
    extras: int = 0
    """Files written beside the pages (`build_site`'s `extras`: the JSON API)."""


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
    extras: Iterable[tuple[str, str]] = (),
    base_url: str | None = None,
    api: bool = False,
    jobs: int = 1,
) -> BuildReport:
    """Render the whole site into `out`, atomically; raise SiteError (previous site untouched) on failure.

    `forced`: the content has errors and the build was asked for anyway (the stamp says so); the search index is the
    one `kb search` uses (`searchpages.make_index`). `extras`: more files, (path from the site's root, text), written
    in the same build (the JSON API, made by `kb.export.api`); `api`: they are the JSON API (the stamp says so).
    `base_url`: the address the site will be served from (canonical addresses, the site map); links stay relative.
    `jobs`: more than 1 makes a stale search index in a second process while the pages render (`Indexing`).
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
        indexing = Indexing(kb, jobs) if langs else None
        data = gather(kb)
        jobs = plan(data)
        bar = progress(length=len(jobs) + 1) if progress else _NoBar()
        with bar:
            write_pages(data, jobs, new, bar, forced, base_url, api)
            written = write_extras(new, extras)
            if indexing is not None:
                waiting = time.perf_counter()
                write_search(new, indexing.folder(), data, indexing.items())
                search_wait = time.perf_counter() - waiting
            bar.update(1)
        write_manifest(new)
        seal(new)  # lets an unchanged rebuild check, cheaply, that nobody touched the site since
        check_out(out, Path(kb.content))  # again: the folder may have changed during the build
        kept, replaced = carry_over(target, new)  # CNAME, .git, the user's files: into the new site
        swap(new, target)
    except SiteError:
        shutil.rmtree(new, ignore_errors=True)
        raise
    except Exception as err:  # a failed build must say why in one line and leave the old site alone
        shutil.rmtree(new, ignore_errors=True)
        raise SiteError(f"site not built ({_why(err)}); {left_behind(target)}") from err
    finally:
        if indexing is not None:
            indexing.stop()  # nothing when its work is done; a build given up leaves no worker behind
    seconds = time.perf_counter() - start
    report = BuildReport(Path(out), len(jobs), seconds, bool(langs), search_wait, tuple(kept), tuple(replaced))
    return replace(report, extras=written)


def _why(err: Exception) -> str:
    """A failed build's cause in a reader's words: what could not be written and what to do, else the error."""
    if isinstance(err, PermissionError) and err.filename:
        where = Path(err.filename)
        return f"permission denied on {where}: the folder {where.parent} must be writable by you"
    if isinstance(err, OSError):  # kb's own (a search index that cannot be written) carry their message alone
        return f"{err.strerror}{f' ({err.filename})' if err.filename else ''}" if err.strerror else str(err)
    return f"{type(err).__name__}: {err}"


def write_pages(
    data: SiteData,
    jobs: Iterable[Job],
    new: Path,
    bar,
    forced: bool = False,
    base_url: str | None = None,
    api: bool = False,
) -> None:
    """Render every job into the new folder, copy the static files, write the stamp, the jump map and the site map
    (`base_url`: the site's address, for canonical addresses)."""
    from kb.site.templating import environment

    new.mkdir(parents=True, exist_ok=True)
    write_jumps(new, *jump_map(data))  # first: the maps are let go before the pages render
    env = environment()
    pages: list[str] = []
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
            data.kb.readings,
            cache,
            data.row_parts,
            data.miscited,
            job.context.get("ui", ""),
        )
        context = {**job.values(), **where, "ln": linker, "data": data, "kb": data.kb, "base_url": base_url}
        meta = page_meta(data, job, job.context.get("ui") or UI_LANGS[0])
        html = env.get_template(job.template).render(**context, page_path=job.path, meta=meta)
        if job.path.endswith(".html") and job.path != "404.html":
            pages.append(job.path)
        target.write_text(render.localise(html, job.context.get("ui") or UI_LANGS[0]), encoding="utf-8")
        bar.update(1)
    (new / "sitemap.xml").write_text(sitemap(pages, base_url), encoding="utf-8")
    shutil.copytree(TEMPLATES / "static", new / "static")
    stamp = {**stamp_for(data.kb.content_hash, base_url, api), "langs": data.langs, "forced": forced}
    (new / STAMP).write_text(json.dumps(stamp, indent=1, sort_keys=True) + "\n", encoding="utf-8")


def write_extras(new: Path, files: Iterable[tuple[str, str]]) -> int:
    """Write more files into the new site, each (a relative path under it, its text); return how many. A path that
    leaves the site or lands on a file already written is a `SiteError`. Thousands of small files: each is written
    with one `open` that also refuses an existing file (a third of `Path.write_text`'s cost)."""
    folders: set[str] = set()
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    count = 0
    for path, text in files:
        if path.startswith("/") or ".." in Path(path).parts:
            raise SiteError(f"site not built: {path} cannot be written into the site (it leads outside it)")
        target = os.path.join(new, path)
        folder = os.path.dirname(target)
        if folder not in folders:
            os.makedirs(folder, exist_ok=True)
            folders.add(folder)
        try:
            fd = os.open(target, flags, 0o666)
        except FileExistsError:
            raise SiteError(f"site not built: {path} would be written twice") from None
        try:
            os.write(fd, text.encode("utf-8"))
        finally:
            os.close(fd)
        count += 1
    return count


def write_jumps(new: Path, jump: dict, cards: dict[str, str]) -> None:
    """Write `jump.json` and the card names' shards `jump-cards-<k>.json` (a name in shard `fnv1a(name) % count`,
    `count` in `jump.json`'s `cards`): the search page reads the one shard of the name typed. And `jump.js`, the
    same map as a classic script (`globalThis.kbJump`): a page opened from disk (file://), where browsers refuse
    fetch, loads it to take a typed rule number to its rule."""
    count = max(1, sum(len(k) + len(v) + 6 for k, v in cards.items()) // CARD_SHARD_BYTES)
    parts: list[dict[str, str]] = [{} for _ in range(count)]
    for name, path in cards.items():
        parts[fnv1a(name) % count][name] = path
    for k, part in enumerate(parts):
        (new / f"jump-cards-{k}.json").write_text(json.dumps(part, ensure_ascii=False, sort_keys=True), "utf-8")
    text = json.dumps({**jump, "cards": count}, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    (new / "jump.json").write_text(text, encoding="utf-8")
    note = "/* jump.json for pages opened from disk (file://), where fetch is refused. */"
    (new / "jump.js").write_text(f"{note}\nglobalThis.kbJump = {text};\n", encoding="utf-8")


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
