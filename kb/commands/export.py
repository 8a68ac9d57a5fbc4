"""`kb export`: the whole knowledge base as one JSON document."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from typing import NoReturn

import click

from kb.commands.options import Mistake, content_option, echo, json_text, load_or_exit, write_whole
from kb.model.errors import KbError
from kb.sources.paths import default_content

STANDARD = {"/dev/stdin": 0, "/dev/stdout": 1, "/dev/stderr": 2}
DESCRIPTOR = re.compile(r"/(?:dev/fd|proc/self/fd)/(\d+)")
"""A path naming an open descriptor: written to as it is, never reopened (it may stand for a file opened to append)."""


@click.command(name="export")
@content_option
@click.option(
    "-o", "--output", type=click.Path(dir_okay=False, path_type=Path), help="Write to FILE (default or -: stdout)."
)
def command(content: Path | None, output: Path | None) -> None:
    """Write the knowledge base (documents, rules, glossary, cards, rulings, notes, alignment,
    diagnostics) as one JSON document; its schema is documented in docs/json.md."""
    from kb.export.json import to_json

    where = None if output is None or str(output) == "-" else _where(output, content or default_content())
    kb = load_or_exit(content)
    text = json_text(to_json(kb), stdout=where is None) + "\n"
    if where is None:
        sys.stdout.write(text)
        return
    try:
        write_whole(where, text)
    except OSError as err:
        raise KbError(f"cannot write {output}: {err.strerror or err}") from None
    echo(f"wrote {output} ({len(kb.rules)} rules, {len(kb.cards)} cards)", err=True, newlines=False)


def _where(output: Path, content: Path) -> Path | int:
    """Where `-o` sends the export, told before the slow load: an open descriptor's number (`/dev/stdout`,
    `/dev/fd/3`, or a link to one: written to as it is, never reopened over the file behind it), a device or
    pipe (written to in place), else the file to replace whole (a link: the file it names). A path inside the
    content folder, a folder that does not exist or a loop of links is a mistake (exit status 2)."""
    fd = _descriptor(output)
    if fd is not None:
        return fd
    try:
        if output.exists() and not output.is_file():  # /dev/null, a named pipe
            return output
        target = output.resolve()
    except (OSError, RuntimeError) as err:  # a loop of links
        _mistake(f"cannot write {output}: {getattr(err, 'strerror', None) or err}")
    folder = content.resolve()
    if folder == target or folder in target.parents:
        _mistake(
            f"refusing to write {output}: it is inside the content folder ({folder}), where it would be read "
            "as content; pass another -o"
        )
    if not target.parent.is_dir():
        _mistake(f"cannot write {output}: there is no folder {target.parent}")
    return target


def _descriptor(path: Path) -> int | None:
    """The descriptor a path names (`/dev/stdout`, `/dev/fd/N`, `/proc/self/fd/N`), through links too, or None."""
    text = os.path.abspath(path)
    for _ in range(40):
        if text in STANDARD:
            return STANDARD[text]
        if found := DESCRIPTOR.fullmatch(text):
            return int(found.group(1))
        if not os.path.islink(text):
            return None
        text = os.path.abspath(os.path.join(os.path.dirname(text), os.readlink(text)))
    return None


def _mistake(message: str) -> NoReturn:
    """Stop on a mistake in `-o` (exit status 2)."""
    raise Mistake(message)
