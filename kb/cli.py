"""The `kb` command line: a thin click group; each verb lives in `kb/commands/<verb>.py`.

Command modules are imported only when their verb runs, so `kb --help` and `kb show` stay fast.
"""

from __future__ import annotations

import atexit
import importlib
import os
import sys
from pathlib import Path

import click

from kb import __version__

COMMANDS = {
    "build": "Build the static bilingual website.",
    "check": "Parse and link the content; list every diagnostic and counts.",
    "diff": "Compare two editions of the rules: added, removed, renumbered, changed.",
    "export": "Write the whole knowledge base as one JSON document.",
    "lexicon": "The French–English lexicon mined from the French printed text of cards.",
    "search": "Search rules, glossary, cards, rulings and notes.",
    "serve": "Serve the built site on 127.0.0.1.",
    "show": "Show a rule (both languages) or a card by number or name.",
}


class LazyGroup(click.Group):
    """A group that imports `kb.commands.<name>` on demand."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in COMMANDS:
            return None
        module = importlib.import_module(f"kb.commands.{name}")
        return module.command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        with formatter.section("Commands"):
            formatter.write_dl([(name, COMMANDS[name]) for name in sorted(COMMANDS)])


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="kb")
@click.option(
    "--content",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Content folder for every command (as `kb CMD --content DIR`, which wins when both are given).",
)
def main(content: Path | None) -> None:
    """kb: the Magic: The Gathering Comprehensive Rules and set FAQs, French and English side by side."""


def run() -> None:
    """The `kb` program: run the command line, then end the process without tearing down what it built.

    A build holds hundreds of thousands of objects; freeing them one by one at exit took a tenth of a cold build,
    and the system reclaims the memory at once anyway. Output is flushed and exit handlers run first.
    """
    _return_freed_memory()
    try:
        main()
    except SystemExit as done:
        status = _status(done.code)
    else:
        status = 0
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe (`kb search x | head`): nothing more to say
            status = status or 1
    os._exit(status)


MALLOC_THRESHOLD = 64 * 1024
"""Bytes from which the C library's allocator maps a block of its own, given back to the system once freed."""


def _return_freed_memory() -> None:
    """Have glibc's allocator give large freed blocks back to the system (the parse's line lists, the index's
    arrays, a page's text), not keep them for later in a heap the next phase reuses only in part: a cold
    `kb search` of 5 MB of FAQ peaks at 73 MB, not 77 (the threshold of `mallopt`, otherwise raised as blocks are
    freed, is fixed). Elsewhere (no glibc) nothing changes."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return
    mallopt(-3, MALLOC_THRESHOLD)  # M_MMAP_THRESHOLD
    mallopt(-1, MALLOC_THRESHOLD)  # M_TRIM_THRESHOLD: free space at the top of the heap given back beyond it


def _status(code: object) -> int:
    """The exit status of a `SystemExit` code, as Python gives it (a message is printed and means 1)."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)
    return 1
