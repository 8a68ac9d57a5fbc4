"""`kb export`: the whole knowledge base as one JSON document."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

import click

from kb.commands.options import content_option, echo, json_text, load_or_exit


def _umask() -> int:
    """The process umask (read by setting it and putting it back)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


@click.command(name="export")
@content_option
@click.option(
    "-o", "--output", type=click.Path(dir_okay=False, path_type=Path), help="Write to FILE (default or -: stdout)."
)
def command(content: Path | None, output: Path | None) -> None:
    """Write the knowledge base (documents, rules, glossary, cards, rulings, notes, alignment,
    diagnostics) as one JSON document; its schema is documented in the README."""
    from kb.export.json import to_json

    kb = load_or_exit(content)
    text = json_text(to_json(kb)) + "\n"
    if output is None or str(output) == "-":
        sys.stdout.write(text)
        return
    tmp = None
    try:
        output.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=output.parent, prefix=f".{output.name}.")
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600; an export is an ordinary file
        os.replace(tmp, output)
    except OSError as err:
        if tmp is not None:
            Path(tmp).unlink(missing_ok=True)
        echo(f"kb: cannot write {output}: {err.strerror}", err=True, newlines=False)
        sys.exit(1)
    echo(f"wrote {output} ({len(kb.rules)} rules, {len(kb.cards)} cards)", err=True, newlines=False)
