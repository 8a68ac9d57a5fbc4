"""The site build the verbs that need a site share (`kb build`, `kb serve`): its options, the checks before it, its
report."""

from __future__ import annotations

import functools
import sys
from pathlib import Path

import click

from kb.commands.options import diagnostics, echo, load_or_exit, locator
from kb.sources.paths import default_content

SHOWN = 10
"""Kept or replaced files named in the build's output; the others are counted."""

out_option = click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("site"),
    show_default=True,
    help="Folder to write the site into (replaced atomically; must be new, empty or a kb site).",
)
force_option = click.option("--force", is_flag=True, help="Build even when the content has errors, saying so.")


def _base_url(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """`--base-url`: an absolute http(s) address, ending with `/`."""
    if value is None:
        return None
    from urllib.parse import urlsplit

    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
        raise click.BadParameter(f"{value!r} is not an absolute http(s) address such as https://example.org/rules/")
    return value if value.endswith("/") else value + "/"


base_url_option = click.option(
    "--base-url",
    default=None,
    metavar="URL",
    callback=_base_url,
    help="The address the site will be served from (https://example.org/rules/): pages then name their canonical "
    "address, the site map and the API description give absolute addresses. Links between pages stay relative.",
)
jobs_option = click.option(
    "--jobs",
    type=click.IntRange(1),
    default=None,
    metavar="N",
    help="Processes the build may use: 2 writes the search index in a second process while the pages render "
    "(Linux; about 0.7× the time where a second core is free, the memory of a second process); 1 builds in one "
    "process. Default: 2 on Linux with two cores or more, else 1.",
)


def build_or_exit(
    content: Path | None,
    out: Path,
    kb=None,
    strict: bool = False,
    force: bool = False,
    base_url: str | None = None,
    api: bool = True,
    jobs: int | None = None,
) -> None:
    """Load (unless given) and build the site with its JSON API (`kb.export.api`); a failure raises `SiteError` (one
    line, exit status 1). `base_url`: the address the site is served from (canonical addresses, the site map);
    `api`: False leaves the API out; `jobs`: processes the build may use (`build_site`; None: `usable_jobs`).

    Content errors (warnings too when `strict`) stop the build before anything is written, unless `force`.
    """
    # not kb.site.write yet: an up-to-date site needs no renderer
    from kb.site.output import check_out, clean_leftovers

    target = check_out(out, content or default_content())  # refuse before the slow load
    if kb is None and not strict and _up_to_date(out, content, force, base_url, api):
        clean_leftovers(target)  # a killed build's half-written folder beside it
        echo(f"{out} is up to date (built from this content by this kb version with these templates).")
        return
    from kb.export.api import api_files
    from kb.site.write import build_site

    if kb is None:
        kb = load_or_exit(content)
    found = diagnostics(kb)  # once: on a card pool, the page-name notes walk every card
    forced = _stop_on_errors(found, kb, out, strict, force)
    tty = sys.stderr.isatty()
    progress = functools.partial(click.progressbar, label="Building site", file=sys.stderr) if tty else None
    extras = api_files(kb, base_url) if api else ()
    if jobs is None:
        from kb.sources.fork import usable_jobs

        jobs = usable_jobs()
    report = build_site(kb, out, progress, forced=forced, extras=extras, base_url=base_url, api=api, jobs=jobs)
    search = "without search index"
    if report.search:
        search = f"with search index, {report.search_wait:.2f} s of it after the pages"
    api = f"; {report.extras} files of JSON API" if report.extras else ""
    echo(f"Built {report.pages} pages into {report.out} in {report.seconds:.2f} s ({search}{api}).")
    warned = sum(1 for d in found if d.severity == "warning")
    if warned and not forced:
        said = f"{warned} warning{'s' if warned > 1 else ''}"
        echo(f"kb: the content has {said}: `kb check` lists them (--strict stops the build on them)", err=True)
    if report.kept:
        echo(f"Kept {len(report.kept)} files not written by kb (carried over): {_some(report.kept)}")
    if report.replaced:
        echo(f"kb: warning: replaced by the new site's pages: {_some(report.replaced)}", err=True)


def _up_to_date(
    out: Path, content: Path | None, force: bool = False, base_url: str | None = None, api: bool = True
) -> bool:
    """Whether `out` holds a site built from this content, kb version and templates, untouched since: nothing to do.

    A site built with --force from content with errors is up to date only for another --force: without it, the
    build runs again and stops on the errors."""
    from kb.site.output import site_is_current
    from kb.site.seal import untouched
    from kb.sources import ContentError, content_hash

    try:
        current = site_is_current(out, content_hash(content or default_content()), force, base_url, api)
        return current and untouched(out)
    except ContentError:
        return False  # loading says what is wrong with the folder


def _some(paths: tuple[str, ...] | list[str]) -> str:
    """The first few paths, and how many more."""
    more = f" and {len(paths) - SHOWN} more" if len(paths) > SHOWN else ""
    return ", ".join(paths[:SHOWN]) + more


def _stop_on_errors(found: list, kb, out: Path, strict: bool, force: bool) -> bool:
    """Print the content's errors (`found`: its diagnostics; warnings too if strict) and raise `SiteError`, unless
    forced (then say so and return True)."""
    blocking = [d for d in found if d.severity == "error" or (strict and d.severity == "warning")]
    if not blocking:
        return False
    counts = [(sum(1 for d in blocking if d.severity == sev), sev) for sev in ("error", "warning")]
    summary = " and ".join(f"{n} {sev}{'s' if n > 1 else ''}" for n, sev in counts if n)
    if force:
        echo(f"kb: building despite {summary} in the content (--force)", err=True)
        return True
    from kb.site.output import SiteError, left_behind

    located = locator(kb)
    for diag in blocking:
        echo(located(diag), err=True, newlines=False)
    raise SiteError(
        f"site not built: {summary} in the content ({left_behind(out)}); "
        "fix them (`kb check` lists everything) or pass --force to build anyway"
    )
