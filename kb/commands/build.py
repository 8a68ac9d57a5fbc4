"""`kb build`: render the static site from the content folder."""

from __future__ import annotations

import functools
import sys
from pathlib import Path

import click

from kb.commands.options import content_option, diagnostics, echo, load_or_exit, locator
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


def build_or_exit(content: Path | None, out: Path, kb=None, strict: bool = False, force: bool = False) -> None:
    """Load (unless given) and build, turning a failure into one line and exit status 1.

    Content errors (warnings too when `strict`) stop the build before anything is written, unless `force`.
    """
    # not kb.site.write yet: an up-to-date site needs no renderer
    from kb.site.output import SiteError, check_out, clean_leftovers

    try:
        target = check_out(out, content or default_content())  # refuse before the slow load
    except SiteError as err:
        echo(f"kb: {err}", err=True, newlines=False)
        sys.exit(1)
    if kb is None and not strict and up_to_date(out, content, force):
        clean_leftovers(target)  # a killed build's half-written folder beside it
        echo(f"{out} is up to date (built from this content by this kb version with these templates).")
        return
    from kb.site.write import build_site

    if kb is None:
        kb = load_or_exit(content)
    found = diagnostics(kb)  # once: on a card pool, the page-name notes walk every card
    forced = _stop_on_errors(found, kb, out, strict, force)
    tty = sys.stderr.isatty()
    progress = functools.partial(click.progressbar, label="Building site", file=sys.stderr) if tty else None
    try:
        report = build_site(kb, out, progress=progress, forced=forced)
    except SiteError as err:
        echo(f"kb: {err}", err=True, newlines=False)
        sys.exit(1)
    search = "without search index"
    if report.search:
        search = f"with search index, {report.search_wait:.2f} s more after the pages"
    echo(f"Built {report.pages} pages into {report.out} in {report.seconds:.2f} s ({search}).")
    warned = sum(1 for d in found if d.severity == "warning")
    if warned and not forced:
        said = f"{warned} warning{'s' if warned > 1 else ''}"
        echo(f"kb: the content has {said}: `kb check` lists them (--strict stops the build on them)", err=True)
    if report.kept:
        echo(f"Kept {len(report.kept)} files not written by kb (carried over): {_some(report.kept)}")
    if report.replaced:
        echo(f"kb: warning: replaced by the new site's pages: {_some(report.replaced)}", err=True)


def up_to_date(out: Path, content: Path | None, force: bool = False) -> bool:
    """Whether `out` holds a site built from this content, kb version and templates, untouched since: nothing to do.

    A site built with --force from content with errors is up to date only for another --force: without it, the
    build runs again and stops on the errors."""
    from kb.site.output import site_is_current
    from kb.site.seal import untouched
    from kb.sources import ContentError, content_hash

    try:
        return site_is_current(out, content_hash(content or default_content()), force) and untouched(out)
    except ContentError:
        return False  # loading says what is wrong with the folder


def _some(paths: tuple[str, ...] | list[str]) -> str:
    """The first few paths, and how many more."""
    more = f" and {len(paths) - SHOWN} more" if len(paths) > SHOWN else ""
    return ", ".join(paths[:SHOWN]) + more


def _stop_on_errors(found: list, kb, out: Path, strict: bool, force: bool) -> bool:
    """Print the content's errors (`found`: its diagnostics; warnings too if strict) and exit 1, unless forced (then
    say so and return True)."""
    blocking = [d for d in found if d.severity == "error" or (strict and d.severity == "warning")]
    if not blocking:
        return False
    counts = [(sum(1 for d in blocking if d.severity == sev), sev) for sev in ("error", "warning")]
    summary = " and ".join(f"{n} {sev}{'s' if n > 1 else ''}" for n, sev in counts if n)
    if force:
        echo(f"kb: building despite {summary} in the content (--force)", err=True)
        return True
    from kb.site.output import left_behind

    located = locator(kb)
    for diag in blocking:
        echo(located(diag), err=True, newlines=False)
    echo(
        f"kb: site not built: {summary} in the content ({left_behind(out)}); "
        "fix them (`kb check` lists everything) or pass --force to build anyway",
        err=True,
    )
    sys.exit(1)


@click.command("build")
@content_option
@out_option
@click.option("--strict", is_flag=True, help="Also stop on warnings.")
@force_option
def command(content: Path | None, out: Path, strict: bool, force: bool) -> None:
    """Build the static bilingual website (rules FR | EN, glossary, FAQs, cards, offline search).

    Content errors (as `kb check` lists them; with --strict, warnings too) stop the build: they are printed
    and the exit status is 1; --force builds anyway. The site is written into a new folder next to --out and
    swapped in when complete: a failed build leaves the previous site untouched, prints one line saying why
    and exits with status 1. --out must be a new or empty folder or an earlier site (it holds kb-site.json);
    a rebuild replaces only what an earlier build wrote (kb-manifest.json) and keeps anything else (CNAME,
    .git, your files). The content folder, a folder inside or holding it and the project folder are always
    refused (status 1).
    """
    build_or_exit(content, out, strict=strict, force=force)
