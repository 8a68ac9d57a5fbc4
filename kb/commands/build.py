"""`kb build`: render the static site from the content folder."""

from __future__ import annotations

from pathlib import Path

import click

from kb.commands.building import base_url_option, build_or_exit, force_option, jobs_option, out_option
from kb.commands.options import content_option


@click.command("build")
@content_option
@out_option
@click.option("--strict", is_flag=True, help="Also stop on warnings.")
@force_option
@base_url_option
@click.option("--no-api", "no_api", is_flag=True, help="Leave the JSON API (api/) out of the site.")
@jobs_option
def command(
    content: Path | None, out: Path, strict: bool, force: bool, base_url: str | None, no_api: bool, jobs: int | None
) -> None:
    """Build the static bilingual website (rules FR | EN, glossary, FAQs, cards, offline search, the whole CR on one
    page) and its JSON API (api/v1/, described by api/openapi.json).

    Content errors (as `kb check` lists them; with --strict, warnings too) stop the build: they are printed
    and the exit status is 1; --force builds anyway. The site is written into a new folder next to --out and
    swapped in when complete: a failed build leaves the previous site untouched, prints one line saying why
    and exits with status 1. --out must be a new or empty folder or an earlier site (it holds kb-site.json);
    a rebuild replaces only what an earlier build wrote (kb-manifest.json) and keeps anything else (CNAME,
    .git, your files). The content folder, a folder inside or holding it and the project folder are always
    refused (status 1).
    """
    build_or_exit(content, out, strict=strict, force=force, base_url=base_url, api=not no_api, jobs=jobs)
