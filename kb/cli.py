"""The `kb` command line: a thin click group; each verb lives in `kb/commands/<verb>.py`.

Command modules are imported only when their verb runs, so `kb --help` and `kb show` stay fast. A command says
how it ended in one of two ways, both turned into the exit status here: it raises a `KbError` (printed once as
`kb: message`, its `status` the exit status), or it returns a non-zero exit status (`kb check` with errors).
"""

from __future__ import annotations

import importlib
from pathlib import Path

import click

from kb import __version__
from kb.model.errors import KbError

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

    def invoke(self, ctx: click.Context):
        """Run the verb; a `KbError` becomes `kb: message` on stderr and its status, a returned status the exit."""
        try:
            status = super().invoke(ctx)
        except KbError as err:
            from kb.commands.options import echo

            echo(f"kb: {err}", err=True, newlines=False)
            ctx.exit(err.status)
        if isinstance(status, int) and status:
            ctx.exit(status)
        return status

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
    """The `kb` program."""
    from kb.commands.options import tolerant_output

    tolerant_output()
    main()
