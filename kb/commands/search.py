"""`kb search QUERY`: rule numbers and keywords, French and English, from the terminal."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import click

from kb.commands.options import content_option

KINDS = ["rule", "glossary", "card", "ruling", "note"]
HIGHLIGHT = re.compile(r"\*\*(.+?)\*\*")


@click.command("search")
@click.argument("query")
@click.option("--lang", default=None, help="Only results in this language (one of the content's: fr, en, …).")
@click.option("--kind", type=click.Choice(KINDS), default=None, help="Only results of this kind.")
@click.option("--limit", type=click.IntRange(1, 1000), default=10, show_default=True, help="Maximum results.")
@click.option("--json", "as_json", is_flag=True, help="Print the results as one JSON document.")
@content_option
def command(query: str, lang: str | None, kind: str | None, limit: int, as_json: bool, content: Path | None) -> None:
    """Search rules, glossary, cards, rulings and notes.

    QUERY is a rule number (120.2a, 120, "règle 703.4k", "CR 120", r120.2a) or keywords: AND by default,
    OR between alternatives, -word to exclude, "quoted phrases", lang:fr|en (any language of the
    content) and kind:rule|glossary|card|ruling|note filters. When the build folder cannot be written, the
    index is built in memory (with a warning). Exit status: 0 (even with no result), 2 for a malformed
    query, an unknown language or an unreadable content folder.
    """
    from kb.search.index import SearchError, open_index
    from kb.sources import ContentError
    from kb.sources.paths import default_content

    try:
        index = open_index(content or default_content())
        results = index.search(query, lang=lang, kind=kind, limit=limit)
    except (SearchError, ContentError) as err:
        click.echo(f"kb: {err}", err=True)
        sys.exit(2)
    except OSError as err:
        click.echo(f"kb: cannot search {content or default_content()}: {err}", err=True)
        sys.exit(2)
    if index.unsaved:
        click.echo(
            f"kb: {index.unsaved}; searched an index kept in memory (pass --content to a writable place to cache it)",
            err=True,
        )
    if as_json:
        click.echo(json.dumps({"query": query, "results": [r.to_json() for r in results]}, ensure_ascii=False))
        return
    if not results:
        click.echo(f"No result for {query!r}.", err=True)
        return
    for result in results:
        _print_result(result)


def _print_result(result) -> None:
    """Print one result: a coloured header, then a snippet per language."""
    label = result.number if result.kind == "rule" else result.kind
    header = click.style(label, fg="cyan", bold=True)
    title = click.style(result.title, bold=True) if result.title else ""
    click.echo(f"{header}  {title}".rstrip())
    for lang in result.langs:
        text = HIGHLIGHT.sub(lambda m: click.style(m.group(1), fg="yellow", bold=True), result.snippets[lang])
        click.echo(f"  {click.style(lang.upper(), fg='green')}  {text}")
    click.echo()
