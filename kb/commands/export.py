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
    diagnostics) as one JSON document; its schema is documented in docs/json.md."""
    from kb.export.json import to_json

    kb = load_or_exit(content)
    text = json_text(to_json(kb)) + "\n"
    if output is None or str(output) == "-":
        sys.stdout.write(text)
        return
    try:
        _write(output, text, Path(kb.content))
    except OSError as err:
        echo(f"kb: cannot write {output}: {err.strerror or err}", err=True, newlines=False)
        sys.exit(1)
    echo(f"wrote {output} ({len(kb.rules)} rules, {len(kb.cards)} cards)", err=True, newlines=False)


def _write(output: Path, text: str, content: Path) -> None:
    """Write the export to a file, replaced whole (a link: the file it names), or into a device or pipe as it is;
    a path inside the content folder, or in a folder that does not exist, is a mistake (exit status 2)."""
    if output.exists() and not output.is_file():  # /dev/stdout, a named pipe: written to, never replaced
        with open(output, "w", encoding="utf-8") as handle:
            handle.write(text)
        return
    target = output.resolve()
    folder = content.resolve()
    if folder == target or folder in target.parents:
        echo(f"kb: refusing to write {output}: it is inside the content folder ({folder}), where it would be read "
             "as content; pass another -o", err=True, newlines=False)  # fmt: skip
        sys.exit(2)
    if not target.parent.is_dir():
        echo(f"kb: cannot write {output}: there is no folder {target.parent}", err=True, newlines=False)
        sys.exit(2)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600; an export is an ordinary file
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
