"""`kb lexicon`: the French–English lexicon mined from the French printed text of cards."""

from __future__ import annotations

from pathlib import Path

import click

from kb.commands.options import content_option, counted, echo, json_text, load_or_exit, write_whole
from kb.model.errors import KbError

NOTE = "Mined from the French printed text of cards: not the official translation of the Comprehensive Rules."


@click.command(name="lexicon")
@content_option
@click.option("--json", "as_json", is_flag=True, help="Print the lexicon as JSON (format kb-lexicon/1).")
@click.option(
    "--mine",
    "mine",
    multiple=True,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Mine MTGJSON v5 files (set files or AllPrintings.json) instead of the content; repeatable.",
)
@click.option("--category", type=click.Choice(["keyword", "type", "supertype", "subtype", "word"]), default=None)
@click.option("--unsure", is_flag=True, help="Only the terms it is unsure of (low score, little evidence, conflicts).")
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the JSON to FILE, replaced whole once the lexicon is made (never emptied by a failure, as "
    "`> FILE` would be); with --mine, nothing is written when an input file is damaged.",
)
def command(
    content: Path | None,
    as_json: bool,
    mine: tuple[Path, ...],
    category: str | None,
    unsure: bool,
    output: Path | None,
) -> None:
    """Print the lexicon: each English term, its French term(s) with evidence counts and example cards.

    A term with conflicting translations lists them all with their counts. The lexicon labels English-only
    rules in French and lets French searches find English rules; it is never the official translation.
    Exit status 1 when an input file mined is damaged (what could be read is still printed, never written).
    """
    from kb.link.lexicon.files import lexicon_to_json
    from kb.link.lexicon.mining import mine as mine_lexicon

    damaged = False
    if mine:
        lexicon, damaged = _mine(mine, mine_lexicon)
    else:
        lexicon = load_or_exit(content).lexicon
        if lexicon is None:
            raise KbError("no lexicon: the content has no MTGJSON v5 card data nor lexicon file")
    if output is not None:
        if damaged:
            raise KbError(f"{output} not written: an input file is damaged (see above); mend it or leave it out")
        try:
            write_whole(output.resolve(), json_text(lexicon_to_json(lexicon), indent=1, stdout=False) + "\n")
        except OSError as err:
            raise KbError(f"cannot write {output}: {err.strerror or err}") from None
        echo(
            f"wrote {output} ({counted(len(lexicon.entries), 'term')}, from {counted(lexicon.cards, 'card')})", err=True
        )
        return
    if as_json:
        click.echo(json_text(lexicon_to_json(lexicon), indent=1))
        return 1 if damaged else 0
    entries = lexicon.unsure() if unsure else lexicon.entries
    shown = [e for e in entries if category in (None, e.category)]
    echo(f"{len(shown)} of {counted(len(lexicon.entries), 'term')}, from {counted(lexicon.cards, 'card')}. {NOTE}")
    for entry in shown:
        french = "; ".join(f"{t.text} ({t.count})" for t in entry.french) or "?"
        example = f"  e.g. {entry.examples[0].english} / {entry.examples[0].french}" if entry.examples else ""
        evidence = counted(entry.evidence, "card")
        echo(f"{entry.category:9} {entry.english} = {french}  [score {entry.score:.2f}, {evidence}]{example}")
    return 1 if damaged else 0


def _mine(paths: tuple[Path, ...], mine_lexicon):
    """Mine the lexicon of some MTGJSON v5 files, reporting their problems on stderr: (lexicon, whether any file
    had a problem)."""
    from kb.parse.cards.mtgjson5 import slim
    from kb.parse.cards.stream import iter_cards

    cards, damaged = [], False
    for path in paths:
        problems: list[str] = []
        cards += [slim(card) for _, card in iter_cards(path, problems)]
        for problem in problems:
            echo(f"kb: {path}: {problem}", err=True, newlines=False)
        damaged = damaged or bool(problems)
    if not cards:
        raise KbError("no MTGJSON v5 cards found in those files")
    return mine_lexicon(cards), damaged
