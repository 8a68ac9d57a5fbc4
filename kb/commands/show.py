"""`kb show`: a rule in every language side by side, a term of the rules, or a card by name."""

from __future__ import annotations

import shutil
from pathlib import Path

import click

from kb.commands.options import Mistake, content_option, echo, json_text, load_or_exit, terminal
from kb.model.errors import KbError


def show_rule(kb, number: str, as_json: bool, history: bool, trace: bool, lang=None, edition=None) -> None:
    """Print a rule (and, for a missing parent, the rules under it); with `lang`, the number is read in that
    language's own text (French 120.4, beside today's 121.4); with `edition`, in that edition."""
    from kb.export import views

    found = views.find_rules(kb, number, lang, edition)
    if not found:
        if edition is not None:
            raise KbError(f"no rule {number} in {edition.id}")
        if lang is not None and lang != kb.reference:
            raise KbError(f"no rule {number} in the {lang} text (its own numbering); kb show {number} for today's")
        under = views.subtree_view(kb, number)
        if not under or as_json or trace:
            raise KbError(f"no rule {number} in {', '.join(kb.langs) or 'the content'}")
        echo(under)
        return
    if trace:
        from kb.export.history import trace as rule_trace

        shown = found.get(lang or kb.reference) or next(iter(found.values()))
        click.echo(json_text(rule_trace(kb, shown)))
    elif as_json:
        click.echo(json_text(_rule_json(kb, number, found, history, edition)))
    elif history:
        from kb.export.history import history_view
        from kb.export.terminal import COLOUR, PLAIN

        columns, colour = terminal()
        views_ = [history_view(kb, rule, min(columns, 100), COLOUR if colour else PLAIN) for rule in found.values()]
        click.echo("\n\n".join(views_))
    else:
        columns = shutil.get_terminal_size((100, 24)).columns
        echo(views.rule_view(kb, number, found, columns, lang, edition))


def _rule_json(kb, number: str, found: dict, history: bool, edition) -> dict:
    """`kb show NUMBER --json`: `{"number", "rules": {lang: rule}}`, with `edition` and `today` for an older edition's
    rule, and `history` with --history."""
    from kb.export.json import history_json, rule_json
    from kb.export.views import today_numbers
    from kb.link.editions.history import rule_history

    payload = {"number": number, "rules": {lang: rule_json(kb, r) for lang, r in found.items()}}
    if edition is not None:
        payload["edition"] = edition.id
        payload["today"] = [n for n, _ in today_numbers(kb, found[edition.lang])]
    if history:
        payload["history"] = {lang: history_json(rule_history(kb, r)) for lang, r in found.items()}
    return payload


def show_term(kb, text: str, as_json: bool) -> bool:
    """Print the term of the rules a text names (its glossary entry, names, defining rule); whether it names one."""
    from kb.export import views
    from kb.export.terms import find_term, term_json, term_lines

    found = find_term(kb, text)
    if found is None:
        return False
    rules = views.find_rules(kb, found.number) if found.number else {}
    if as_json:
        payload = term_json(kb, found)
        payload["rules"] = _rule_json(kb, found.number or "", rules, False, None)["rules"] if rules else {}
        click.echo(json_text(payload))
        return True
    columns = shutil.get_terminal_size((100, 24)).columns
    lines = term_lines(found, min(columns, 100))
    if rules:
        lines += ["", views.rule_view(kb, found.number or "", rules, columns)]
    echo("\n".join(lines))
    return True


def _everyday(kb, query: str) -> str:
    """What a words table says of a query that is one of its everyday words (no term of the rules), else ''."""
    from kb.search.entries import vocabulary
    from kb.sources import fold

    typed = " ".join(fold(query).split())
    for word in kb.words:
        if typed in {fold(form) for form in word.forms}:
            searched = any(forms == word.forms for _, forms, _ in vocabulary(kb).words)
            how = "finds the rules saying it" if searched else "reads its words one by one (one is translated alone)"
            return (
                f": « {word.word} » is an everyday word, which kb's words table reads as {' | '.join(word.english)} "
                f"(not an official translation; {word.source.path}:{word.source.line}): kb search '{query}' {how}"
            )
    return ""


def show_card(kb, query: str, as_json: bool) -> None:
    """Print the card a name designates; none or several raise `KbError` (the candidates said)."""
    from kb.export import json as cardjson
    from kb.export.views import card_view
    from kb.link.cards import lookup

    cards = lookup.find_cards(kb.cards, query)
    if not cards:
        from kb.export.terms import suggest_terms

        terms = suggest_terms(kb, query)
        hints = [lookup.display_name(c) for c in lookup.suggest_cards(kb.cards, query)[:8]]
        hint = _everyday(kb, query)
        hint += f"; did you mean the term: {'; '.join(name for name, _ in terms)}?" if terms else ""
        hint += " (*: kb's terminology, not an official translation)" if any(ours for _, ours in terms) else ""
        hint += f"; {'or the card' if terms else 'did you mean'}: {'; '.join(hints)}?" if hints else ""
        raise KbError(f"no rule number, term of the rules or card name matches '{query}'{hint}")
    if len(cards) > 1:
        names = "; ".join(" / ".join(dict.fromkeys(c.names.values())) for c in cards[:15])
        raise KbError(f"'{query}' matches several cards: {names}")
    card = cards[0]
    if as_json:
        payload = {
            "card": cardjson.card_to_json(card),
            "rulings": [cardjson.ruling_to_json(kb.ruling[r]) for r in card.rulings if r in kb.ruling],
            "notes": [cardjson.note_to_json(kb.note[n]) for n in card.notes if n in kb.note],
            "mentioned_in": list(kb.card_mentions.get(card.id, ())),
        }
        click.echo(json_text(payload))
        return
    echo(card_view(kb, card, min(shutil.get_terminal_size((100, 24)).columns, 110)))


@click.command(name="show")
@click.argument("query", nargs=-1, required=True)
@content_option
@click.option("--json", "as_json", is_flag=True, help="Print JSON: {number, rules: {lang: rule}} or the card.")
@click.option(
    "--history",
    is_flag=True,
    help="A rule's title and text, its number and changes in every edition loaded (word diffs), and its subrules' "
    "changes as a tree.",
)
@click.option("--trace", is_flag=True, help="Print the rule's trace as JSON, as the site's API serves it.")
@click.option(
    "--lang",
    "lang",
    default=None,
    metavar="LANG",
    help="Read the number in that language's own text (fr: the French extracts' 2015 numbering), shown beside "
    "the rule it is today.",
)
@click.option(
    "--edition",
    default=None,
    metavar="EDITION",
    help="Read the number in an older edition, by id (en:2012-07-01) or date (2012-07-01), with what it is today.",
)
def command(
    query: tuple[str, ...],
    content: Path | None,
    as_json: bool,
    history: bool,
    trace: bool,
    lang: str | None,
    edition: str | None,
) -> None:
    """Show a rule by number (120.2a, 'règle 703.4k', 'CR 120') in every language side by side,
    with its examples, children, references and what cites it; a term of the rules in English or
    French (stack, 'la pile', 'mal d'invocation', a leading article optional: its glossary entry, its
    names, the rule defining it); or a card by its French or English name (case- and accent-insensitive,
    unambiguous prefix).

    Exit status: 0 when found, 1 when nothing matches (the terms and cards spelt closest are suggested), 2 when
    the content cannot be read or --lang names a language not loaded."""
    from kb.model.numbers import rule_number

    text = " ".join(query)
    kb = load_or_exit(content)
    number = rule_number(text)
    if lang is not None and lang not in kb.langs:
        raise Mistake(f"no {lang} text loaded; languages: {', '.join(kb.langs) or 'none'}")
    found = None
    if edition is not None:
        from kb.link.editions.history import find_edition

        if not number:
            raise Mistake("--edition reads a rule number; a card has no edition")
        found = find_edition(kb, edition)
    if number:
        show_rule(kb, number, as_json, history, trace, lang, found)
    elif not show_term(kb, text, as_json):
        show_card(kb, text, as_json)
