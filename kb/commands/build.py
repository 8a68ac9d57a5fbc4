"""`kb build`: render the static site from the content folder."""

from __future__ import annotations

import functools
import sys
from pathlib import Path

import click

from kb.commands.options import content_option, load_or_exit
from kb.sources.paths import default_content

out_option = click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("site"),
    show_default=True,
    help="Folder to write the site into (replaced atomically; must be new, empty or a kb site).",
)


def build_or_exit(content: Path | None, out: Path, kb=None) -> None:
    """Load (unless given) and build, turning a failure into one line and exit status 1."""
    from kb.site.write import SiteError, build_site, check_out

    try:
        check_out(out, content or default_content())  # refuse before the slow load
    except SiteError as err:
        click.echo(f"kb: {err}", err=True)
        sys.exit(1)
    kb = kb or load_or_exit(content)
    tty = sys.stderr.isatty()
    progress = functools.partial(click.progressbar, label="Building site", file=sys.stderr) if tty else None
    try:
        report = build_site(kb, out, progress=progress)
    except SiteError as err:
        click.echo(f"kb: {err}", err=True)
        sys.exit(1)
    search = "with search index" if report.search else "without search index"
    click.echo(f"Built {report.pages} pages into {report.out} in {report.seconds:.2f} s ({search}).")


@click.command("build")
@content_option
@out_option
def command(content: Path | None, out: Path) -> None:
    """Build the static bilingual website (rules FR | EN, glossary, FAQs, cards, offline search).

    The site is written into a new folder next to --out and swapped in when complete: a failed build
    leaves the previous site untouched, prints one line saying why and exits with status 1.
    --out must be a new or empty folder or an earlier site (it holds kb-site.json); the content
    folder, a folder holding it and the project folder are always refused (status 1).
    """
    build_or_exit(content, out)
