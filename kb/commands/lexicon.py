"""`kb lexicon`: the French–English lexicon mined from the parallel texts (printed cards, the FAQ's rulings, the
translated rules) and the terminology's names, each with where it comes from."""

from __future__ import annotations

from pathlib import Path

import click

from kb.commands.options import content_option, counted, echo, json_text, load_or_exit, write_whole
from kb.model.errors import KbError

NOTE = "Mined from parallel French and English texts: not the official translation of the Comprehensive Rules."

SOURCES = ("cards", "rulings", "rules", "curated")
"""What `--source` takes: a parallel text the lexicon and the terminology were aligned in, or `curated` (names the
terminology gives by hand)."""

SOURCE_WORDS = {
    "cards": "printed cards",
    "rulings": "the FAQ's rulings beside the English rulings they translate",
    "rules": "the translated rule extracts beside their English rules",
    "curated": "written by hand (the usual French of the game, not an official translation)",
}


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
@click.option(
    "--source",
    type=click.Choice(SOURCES),
    default=None,
    help="Only what this source gives: the lexicon's terms aligned in it and the terminology's names it attests "
    "(curated: the names and everyday words written by hand).",
)
@click.option(
    "--printed",
    is_flag=True,
    help="With --mine and -o: write the words printed on the French cards (a printed-words table, "
    "'# kb-printed/1': words the spelling corrector never corrects) instead of the lexicon.",
)
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
    source: str | None,
    printed: bool,
    unsure: bool,
    output: Path | None,
) -> None:
    """Print the lexicon: each English term, its French term(s) with evidence counts and example cards.

    Each term says where it comes from (`cards`, `rulings`, `rules`: the parallel texts it was aligned in, with
    counts). `--source` lists one source's terms and the terminology's names it attests; `--source curated` lists
    the names the terminology gives by hand and the words tables' everyday words (« regarder » = look at), each
    with the printed card or the usage it rests on. A term with conflicting translations lists them all with their
    counts. The lexicon labels English-only rules in French and lets French searches find English rules; it is
    never the official translation.
    Exit status 1 when an input file mined is damaged (what could be read is still printed, never written).
    """
    from kb.link.lexicon.files import lexicon_to_json
    from kb.link.lexicon.mining import mine as mine_lexicon

    damaged = False
    if printed:
        return _printed(mine, output)
    if source is not None and (mine or as_json or output is not None):
        raise KbError("--source lists the content's lexicon and terminology as text: leave out --mine, --json and -o")
    kb = None
    if mine:
        lexicon, damaged = _mine(mine, mine_lexicon)
    else:
        kb = load_or_exit(content)
        lexicon = kb.lexicon
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
    shown = [e for e in entries if category in (None, e.category) and source in (None, *_sources(e))]
    if source == "curated":
        echo(f"The lexicon's {counted(len(lexicon.entries), 'term')} are all mined from parallel texts: none curated.")
    else:
        of = f" aligned in {SOURCE_WORDS[source]}" if source else ""
        echo(f"{len(shown)} of {counted(len(lexicon.entries), 'term')}{of}. {NOTE}")
    for entry in shown:
        echo(_entry_line(entry))
    if source is not None and kb is not None:
        _names(kb.names.values(), source, category)
    if source == "curated" and kb is not None and category in (None, "word"):
        _words(kb.words)
    return 1 if damaged else 0


def _sources(entry) -> tuple[str, ...]:
    """The parallel texts an entry was aligned in; a keyword's or a type's are the printed cards' fields."""
    return tuple(name for name, _ in entry.sources) or ("cards",)


def _entry_line(entry) -> str:
    """One lexicon term, its translations and where they come from."""
    french = "; ".join(f"{t.text} ({t.count})" for t in entry.french) or "?"
    example = ""
    if entry.examples:  # a card (English / French name), or for a word the aligned text's place
        shown = entry.examples[0]
        example = f"  e.g. {shown.english} / {shown.french}" if shown.french else f"  e.g. {shown.english}"
    if entry.sources:
        evidence = ", ".join(f"{name} {units:,}" for name, units in entry.sources)
    else:
        evidence = f"cards {entry.evidence:,}"
    return f"{entry.category:9} {entry.english} = {french}  [score {entry.score:.2f}, {evidence}]{example}"


def _names(names, source: str, category: str | None) -> None:
    """The terminology's names a source attests (`curated`: those written by hand), with their lines."""
    if category is not None:
        return  # a category is the lexicon's (keyword, type, word…): the terminology's concepts have none
    names = list(names)
    if source == "curated":
        shown = [n for n in names if n.provenance == "curated"]
    else:
        shown = [n for n in names if any(e.source == source for e in n.evidence)]
    how = SOURCE_WORDS[source] if source == "curated" else f"attested by {SOURCE_WORDS[source]}"
    echo(f"\nTerminology: {len(shown)} of {counted(len(names), 'name')} {how}.")
    for name in shown:
        line = f"{name.english} = {' | '.join(name.names)}  [{name.provenance}"
        seen = [e for e in name.evidence if e.source == source]
        if seen:
            line += f", {source} {seen[0].count:,}, e.g. {seen[0].example}"
        echo(f"{line}; {name.source.path}:{name.source.line}]")


def _words(words) -> None:
    """The words tables' lines kept, each with what it rests on and its line."""
    echo(f"\nWords tables: {counted(len(words), 'everyday word')} written by hand, each with what it rests on.")
    for word in words:
        line = f"{word.kind:9} {' | '.join(word.forms)} = {' | '.join(word.english)}  [{word.provenance}"
        echo(f"{line}; {word.source.path}:{word.source.line}]")


def _printed(paths: tuple[Path, ...], output: Path | None) -> int:
    """Write the printed-words table of some MTGJSON v5 files (nothing when one is damaged)."""
    from kb.link.lexicon.mining import Printings
    from kb.link.lexicon.printed import printed_table, printed_words

    if not paths or output is None:
        raise KbError("--printed writes the words of the cards mined: give --mine FILE… and -o FILE")
    cards, damaged = _cards(paths)
    if damaged:
        raise KbError(f"{output} not written: an input file is damaged (see above); mend it or leave it out")
    printings = Printings()
    printings.add(cards)
    found = printed_words(printings)
    try:
        write_whole(output.resolve(), printed_table(found, sorted(p.name for p in paths)))
    except OSError as err:
        raise KbError(f"cannot write {output}: {err.strerror or err}") from None
    echo(f"wrote {output} ({counted(len(found), 'word')}, from {counted(len(paths), 'file')})", err=True)
    return 0


def _mine(paths: tuple[Path, ...], mine_lexicon):
    """Mine the lexicon of some MTGJSON v5 files, reporting their problems on stderr: (lexicon, whether any file
    had a problem)."""
    cards, damaged = _cards(paths)
    return mine_lexicon(cards), damaged


def _cards(paths: tuple[Path, ...]) -> tuple[list[dict], bool]:
    """The slim card dicts of some MTGJSON v5 files, their problems reported on stderr; whether any file had one."""
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
    return cards, damaged
