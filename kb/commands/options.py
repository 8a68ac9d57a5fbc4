"""Options and helpers shared by the CLI commands."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from kb.sources.paths import default_content

content_option = click.option(
    "--content",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Content folder holding <lang>/*.txt (default: ./content, else the bundled content).",
)


def load_or_exit(content: Path | None):
    """Load the knowledge base, turning a missing or unreadable folder into a one-line error."""
    from kb.link.load import load
    from kb.sources import ContentError

    try:
        return load(content or default_content())
    except ContentError as err:
        click.echo(f"kb: {err}", err=True)
        sys.exit(2)
