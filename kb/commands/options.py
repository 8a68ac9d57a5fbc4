"""Options and helpers every command shares: `--content`, loading, the diagnostics, safe terminal output."""

from __future__ import annotations

import codecs
import os
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

import click

from kb.export.terminal import printable
from kb.model.errors import KbError
from kb.sources import atomic
from kb.sources.paths import default_content
from kb.sources.text import json_dumps

if TYPE_CHECKING:
    from kb.model import Diagnostic


class Mistake(KbError):
    """A mistake in the command or its input (an option naming nothing loaded, an unwritable path): exit status 2."""

    status = 2


def _content_default(ctx: click.Context, param: click.Parameter, value: Path | None) -> Path | None:
    """`--content` after the verb, else the one given before it (`kb --content DIR check`)."""
    if value is None:
        value = ctx.find_root().params.get("content")
    return value


CONTENT_HELP = "Content folder holding <lang>/*.txt (default: ./content, else the bundled content)."
content_option = click.option(
    "--content",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    callback=_content_default,
    help=CONTENT_HELP,
)


def echo(text: str = "", err: bool = False, newlines: bool = True) -> None:
    """Print text from the content (or naming it) with its control characters escaped."""
    click.echo(printable(text, newlines), err=err)


def locator(kb) -> Callable[[Diagnostic], str]:
    """How the commands print a diagnostic: its file as a path that opens from the current folder (relative when
    under it, else absolute), not as the knowledge base records it (from the content folder's parent, resolved
    once for all the diagnostics)."""
    parent = Path(kb.content).resolve().parent

    def located(diag: Diagnostic) -> str:
        full = parent / diag.path
        # os.path.exists, not Path.exists: a folder that can be listed but not entered answers False, not an error
        if not diag.path or (not os.path.exists(full) and os.path.exists(diag.path)):  # a linked file, as it opens
            return diag.format()
        try:
            near = os.path.relpath(full)
        except ValueError:  # another drive
            near = str(full)
        return replace(diag, path=str(full) if near.startswith("..") else near).format()

    return located


def terminal(stream=None) -> tuple[int, bool]:
    """(columns to wrap to, whether to colour) for a standard output: colours on a terminal only (not with `NO_COLOR`
    set or `TERM` `dumb`); the width of the terminal the command runs in, also when its output goes through a pipe
    (`kb diff … | less`: the terminal is its standard error's or input's), else `COLUMNS`, else 100."""
    stream = stream or sys.stdout
    colour = stream.isatty() and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"
    if os.environ.get("COLUMNS", "").isdigit():
        return int(os.environ["COLUMNS"]), colour
    for each in (stream, sys.stderr, sys.stdin):
        try:
            if each is not None and each.isatty():
                return os.get_terminal_size(each.fileno()).columns, colour
        except (OSError, ValueError, AttributeError):  # no descriptor (a test's stream), or a closed one
            continue
    return 100, colour


def counted(n: int, word: str) -> str:
    """`1 card`, `2 cards`."""
    return f"{n:,} {word}" if n == 1 else f"{n:,} {word}s"


def json_text(payload: object, indent: int | None = 1, stdout: bool = True) -> str:
    """JSON as kb prints it (`kb.sources.text.json_dumps`: DEL, C1 and bidirectional controls escaped too); ASCII
    alone (every other character escaped) when it goes to a standard output that cannot hold all of Unicode (a
    Latin-1 terminal): the same JSON, never a crash. `stdout`: the text goes to the standard output."""
    return json_dumps(payload, indent, ascii_only=stdout and not unicode_stream(sys.stdout))


def unicode_stream(stream) -> bool:
    """Whether a text stream encodes every character (UTF-8, -16 or -32)."""
    try:
        return codecs.lookup(getattr(stream, "encoding", None) or "utf-8").name.startswith("utf")
    except LookupError:
        return False


def tolerant_output() -> None:
    """Standard output and error that print what their encoding lacks as `?` (a Latin-1 or ASCII terminal) rather
    than fail midway with a traceback; UTF-8 ones are left as they are."""
    for stream in (sys.stdout, sys.stderr):
        if not unicode_stream(stream) and hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="replace")


def diagnostics(kb) -> list:
    """Every diagnostic of the content: the loader's, then the site paths `kb build` will have to shorten."""
    from kb.site.output import page_name_notes

    return [*kb.diagnostics, *page_name_notes(kb)]


def load_or_exit(content: Path | None):
    """Load the knowledge base; a missing or unreadable folder raises `ContentError` (`kb: message`, status 2)."""
    from kb.link.load import load

    return _loading(load, content)


def _loading(loader, content: Path | None):
    """Run a loader on the content folder (a missing or unreadable one raises `ContentError`), printing its notes."""
    notices: list[str] = []
    kb = loader(content or default_content(), notices=notices)
    for notice in notices:
        echo(f"kb: note: {notice}", err=True, newlines=False)
    return kb


def write_whole(where: Path | int, text: str) -> None:
    """Write a text to a descriptor (1, 2: the standard output or error) or a device as it is, or to a file replaced
    whole (`kb.sources.atomic`): a reader never sees half of it, a failure leaves it as it was."""
    if where in (1, 2):
        stream = sys.stdout if where == 1 else sys.stderr
        stream.write(text)
        stream.flush()
        return
    if isinstance(where, int) or not where.is_file() and where.exists():
        with open(where, "w", encoding="utf-8", closefd=not isinstance(where, int)) as handle:
            handle.write(text)
        return
    atomic.write_text(where, text)
