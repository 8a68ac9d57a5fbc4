"""`kb search QUERY`: rule numbers and keywords, French and English, from the terminal."""

from __future__ import annotations

import os
import re
import shutil
import sys
import textwrap
from pathlib import Path

import click

from kb.commands.options import Mistake, content_option, echo, printable, unicode_stream
from kb.model.errors import KbError
from kb.search.payload import KINDS
from kb.sources.files import LANGUAGE_NAMES

HIGHLIGHT = re.compile(r"\*\*(.+?)\*\*")
THROUGH = {"fr": "par traduction : {}", "en": "by translation: {}"}
"""How a result found through the lexicon says so: in English, in French with --lang fr."""
REWORDED = {"fr": "dans les mots des règles : {}", "en": "in the rules' words: {}"}
"""How a result found through a paraphrase table (players' words -> the rules' wording) says so."""


@click.command("search", context_settings={"ignore_unknown_options": True})  # `-1/-1 counters`, `-word`
@click.argument("query")
@click.option("--lang", default=None, help="Only results in this language (one of the content's: fr, en, …).")
@click.option("--kind", type=click.Choice(list(KINDS)), default=None, help="Only results of this kind.")
@click.option("--limit", type=click.IntRange(1, 1000), default=10, show_default=True, help="Maximum results.")
@click.option("--edition", default=None, help="Search this edition (id or date: 2015-09-26), not the current one.")
@click.option("--json", "as_json", is_flag=True, help="Print the results as one JSON document.")
@content_option
def command(
    query: str, lang: str | None, kind: str | None, limit: int, edition: str | None, as_json: bool, content: Path | None
) -> None:
    """Search rules, glossary, cards, rulings and notes.

    QUERY is a rule number (120.2a, 120, "règle 703.4k", "CR 120", r120.2a) or keywords: results matching
    more of the words first, misspelt words corrected ("did you mean"), OR between alternatives, -word to
    exclude, "quoted phrases", lang:fr|en (any language of the content), kind:rule|glossary|card|ruling|note
    and edition:DATE filters. A word of the lexicon mined from printed cards also finds its translation
    (piétinement: the English rule of trample); such results say so. With several editions of a language
    loaded, the current one is searched
    unless edition: or --edition names another. When the build folder cannot be written, the index is
    built in memory (with a warning). Exit status: 0 (even with no result), 2 for a malformed query, an
    unknown language or edition, or an unreadable content folder.
    """
    from kb.search.index import search
    from kb.search.payload import answer_payload, payload_text
    from kb.sources.paths import default_content

    try:
        index, answer = search(content or default_content(), query, lang=lang, kind=kind, limit=limit, edition=edition)
    except KbError:
        raise  # a malformed query, an unreadable content folder: `kb: message`, status 2
    except OSError as err:
        raise Mistake(f"cannot search {content or default_content()}: {err}") from None
    if index.unsaved:
        echo(
            f"kb: {index.unsaved}; searched an index kept in memory (pass --content to a writable place to cache it)",
            err=True,
            newlines=False,
        )
    results, searched, corrected, elsewhere = answer.results, answer.editions, answer.corrected, answer.elsewhere
    others = [e for e in (*index.editions[0], *index.editions[1]) if e not in searched]  # loaded, not searched
    if index.notice:
        echo(f"kb: note: {index.notice}", err=True, newlines=False)
    if as_json:  # the answer `kb serve` gives at /api/v1/search too
        payload = answer_payload(index, query, answer)
        click.echo(payload_text(payload, ascii_only=not unicode_stream(sys.stdout)))
        return
    if others:
        echo(status_line(searched, others), err=True)
    if corrected:
        echo(f"Did you mean: {corrected}", err=True)
    for lang, own, today in elsewhere:  # French 120.4 is today's 121.4: the number typed may mean either
        where = f"is today's {today}: kb show {today}" if today else "has no rule of today"
        echo(f"({lang} {own}, in the numbering of the {lang} text, {where}; kb show {own} --lang {lang})", err=True)
    if not results:
        shown = query if len(query) <= 200 else query[:200] + "…"
        echo(f"No result for {shown!r}.", err=True)
        return
    width = shutil.get_terminal_size((0, 0)).columns if sys.stdout.isatty() else 0  # piped: one line per text
    color = False if os.environ.get("NO_COLOR") else None  # https://no-color.org; else colour on a terminal only
    labels = "fr" if lang == "fr" else "en"
    for k, result in enumerate(results, 1):
        _print_result(result, k, len(str(len(results))), width, color, labels)


def status_line(searched, others) -> str:
    """What was searched and what else is loaded, in words: `Searched the English rules of 2026-01-16 and the French
    texts (undated); other editions loaded: add edition:2015-09-26.`"""

    def named(edition: str) -> str:
        lang, _, date = edition.partition(":")
        name = LANGUAGE_NAMES.get(lang, lang)  # others by their code
        return f"the {name} rules of {date}" if date and date != "undated" else f"the {name} texts (undated)"

    said = [named(e) for e in searched]
    text = ", ".join(said[:-1]) + (" and " if len(said) > 1 else "") + said[-1]
    dates = ", ".join(f"edition:{e.partition(':')[2] or e}" for e in others)
    return f"Searched {text}; other editions loaded: add {dates}."


def _print_result(result, k: int = 1, digits: int = 1, width: int = 0, color=None, labels: str = "en") -> None:
    """Print one result: a coloured header, then a snippet per language (the content's control characters escaped).

    A rule of another edition, or a translation's own rule that no rule of today continues, says its edition
    (`703.4h (fr:undated)`); a language whose rule is numbered otherwise than the row says its number
    (`FR 703.4e` beside today's 703.4h)."""
    label = result.number if result.kind == "rule" else result.kind
    if result.kind == "rule" and "@" in result.id:
        label += f" ({result.id.split('@', 1)[1]})"
    label = printable(label, newlines=False)
    header = click.style(label, fg="cyan", bold=True)
    title = click.style(printable(result.title, newlines=False), bold=True) if result.title else ""
    for lang, name in (result.named or result.heading_named or {}).items():  # a terminology's: marked unofficial
        section = (result.heading_named or {}).get(lang) if result.named else None  # an untitled rule's concept
        shown = f"{section}* › {name}" if section else name  # `Creatures · FR Créatures* › Règle du mal d'invocation*`
        title += f" · {lang.upper()} {printable(shown, newlines=False)}*"
    click.echo(f"{k:>{digits}}. {header}  {title}".rstrip(), color=color)
    indent = " " * (digits + 2)
    if result.translated:
        said = printable(through(result.translated, labels), newlines=False)
        for line in _wrapped(said, width, indent, indent):
            click.echo(click.style(line, fg="magenta"), color=color)
    for lang in result.langs:
        snippet = printable(result.snippets[lang], newlines=False)
        tag = lang.upper() + (f" {result.numbers[lang]}" if result.numbers and lang in result.numbers else "")
        lines = _wrapped(f"{tag}  {snippet}", width, indent, indent + " " * (len(tag) + 2))
        lines[0] = lines[0].replace(tag, click.style(printable(tag), fg="green"), 1)
        for line in lines:  # a mark cut by the wrapping (a phrase across two lines) is dropped, not printed
            marked = HIGHLIGHT.sub(lambda m: click.style(m.group(1), fg="yellow", bold=True), line)
            click.echo(marked.replace("**", ""), color=color)
    click.echo()


def _wrapped(text: str, width: int, first: str, rest: str) -> list[str]:
    """A line under a result, wrapped to the terminal's width (a word marked `**so**` kept whole: its marks are
    wrapped with it); one line when `width` is 0 (output piped)."""
    if width < 40:
        return [first + text]
    return textwrap.wrap(text, width - 1, initial_indent=first, subsequent_indent=rest, break_on_hyphens=False)


def through(translated, labels: str | None = None) -> str:
    """`(par traduction : piétinement → trample)`: the words of a result found through the lexicon of printed cards
    or the terminology; `(in the rules' words: go first → starting player)`: through a paraphrase table."""
    first = labels or translated[0][0]
    parts = []
    for said, same in ((REWORDED, True), (THROUGH, False)):
        pairs = [f"{typed} → {' / '.join(targets)}" for a, b, typed, targets in translated if (a == b) == same]
        if pairs:
            parts.append(said.get(first, said["en"]).format(", ".join(pairs)))
    return "(" + (" ; " if first == "fr" else "; ").join(parts) + ")"
