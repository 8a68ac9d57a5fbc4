"""`kb show`: a rule in every language side by side, or a card by name."""

from __future__ import annotations

import itertools
import shutil
import sys
from pathlib import Path

import click

from kb.commands.options import content_option, echo, json_text, load_or_exit, printable
from kb.sources.text import wrap

LABELS = {
    "fr": {
        "example": "Exemple",
        "children": "Sous-règles",
        "refs": "Cite",
        "cited": "Citée par",
        "missing": "(introuvable)",
        "absent": "absente en français",
        "own_elsewhere": "absente en français (le {n} du texte français est la {today} d’aujourd’hui)",
        "no_today": "aucune règle d’aujourd’hui (la {n} de {year} a été {status} entre les éditions {old} et {new})",
        "status": {"removed": "supprimée", "merged": "fusionnée"},
        "rulings": "Citée dans",
        "removed": "(supprimée depuis)",
        "merged": "(fusionnée depuis)",
        "miscited": "numérotation antérieure : l’original {lang} {n} ({year}) cite {meant}",
        "not_cited": "l’original {lang} {n} ({year}) ne la cite pas : pas de lien",
    },
    "en": {
        "example": "Example",
        "children": "Subrules",
        "refs": "Cites",
        "cited": "Cited by",
        "missing": "(not found)",
        "absent": "not in English",
        "own_elsewhere": "not in English (the English text's {n} is today's {today})",
        "no_today": "no rule of today ({year}'s {n} was {status} between the {old} and {new} editions)",
        "status": {"removed": "removed", "merged": "merged into another"},
        "rulings": "Cited in rulings",
        "removed": "(removed since)",
        "merged": "(merged since)",
        "miscited": "older numbering: the original {lang} {n} ({year}) cites {meant}",
        "not_cited": "the original {lang} {n} ({year}) does not cite it: not linked",
    },
}


def rule_lines(kb, rule, width: int) -> list[str]:
    """Render one rule of one language as wrapped lines."""
    lab = LABELS.get(rule.lang, LABELS["en"])
    out = [printable(f"{rule.number} [{rule.lang}] {rule.source.path}:{rule.source.line}", newlines=False)]
    if rule.title:
        out.append(printable(rule.title, newlines=False))
    for para in rule.text.split("\n") if rule.text else []:
        out += wrap(printable(para), width) or [""]
    for ex in rule.examples:
        out += wrap(printable(f"{lab['example']}: {ex}", newlines=False), width, subsequent_indent="  ")
    if rule.children:
        out += wrap(f"{lab['children']}: {', '.join(rule.children)}", width)
    refs = [_cited(kb, rule, r, lab) for r in kb.references(rule)]
    if refs:
        out += wrap(f"{lab['refs']}: {', '.join(refs)}", width)
    cited = [r.number for r in kb.cited_by(rule)]
    if cited:
        out += wrap(f"{lab['cited']}: {', '.join(cited)}", width)
    rulings = [_mention_label(kb, item) for item in kb.rule_mentions.get((rule.lang, rule.number), ())]
    if rulings:
        out += wrap(printable(f"{lab['rulings']}: {'; '.join(rulings)}", newlines=False), width)
    return out


def _cited(kb, rule, ref, lab: dict[str, str]) -> str:
    """A cited number; a translation's, read in its own numbering and followed to today (`502.2 (2015) → 502.3`)."""
    m = kb.miscited(rule.lang, rule.number).get(ref.target)
    if m is not None:
        return _miscited(kb, m, lab)
    if ref.resolved:
        return ref.target
    if rule.lang != kb.reference and kb.edition_of(rule).id == getattr(kb.primary.get(rule.lang), "id", None):
        from kb.link.references.readings import numbering_of, read

        found = read(kb, numbering_of(kb, rule.lang), ref.target)
        year = f" ({found.year})" if found.year else ""
        if found.today is not None:
            return ref.target if found.today == ref.target else f"{ref.target}{year} → {found.today}"
        if found.status in ("removed", "merged"):
            return f"{ref.target}{year} {lab[found.status]}"
    return f"{ref.target} {lab['missing']}"


def _miscited(kb, m, lab: dict[str, str]) -> str:
    """A number its original does not cite: where it leads, from what the original cites in its place
    (`701.21 → 701.32 (older numbering: the original EN 703.4d (2015) cites 701.22)`), or that it leads nowhere."""
    where = {"lang": kb.editions[m.edition].lang.upper(), "n": m.original, "year": m.literal.year}
    if m.meant is None:
        return f"{m.cited} ({lab['not_cited'].format(**where)})"
    said = lab["miscited"].format(**where, meant=m.meant.number)
    if m.meant.today is None:
        return f"{m.cited} ({said} {lab.get(m.meant.status, lab['missing'])})"
    return f"{m.cited} → {m.meant.today} ({said})"


def side_by_side(columns: list[list[str]], width: int) -> list[str]:
    """Lay columns next to each other, padded to `width`."""
    rows = itertools.zip_longest(*columns, fillvalue="")
    return [" │ ".join(cell.ljust(width) for cell in row).rstrip() for row in rows]


def history_lines(kb, rule) -> list[str]:
    """A rule's editions, oldest first, with word diffs where its text changed."""
    from kb.commands.diff import diff_text
    from kb.link.editions.history import rule_history

    out = []
    for edition, number, status, diff in rule_history(kb, rule):
        out.append(f"  {edition}: {number or '-'} ({status})")
        if diff:
            out += ["      " + line for line in diff_text(diff).split("\n")]
    return out


def moved_hint(kb, number: str) -> list[str]:
    """Where a translation's own rule of this number is today, when today's numbering put it elsewhere."""
    from kb.link.references.readings import number_match

    found = number_match(kb, number)
    hints = []
    for lang, (own, today) in found.own.items() if found else ():
        where = f"is today's {kb.reference} {today}" if today else f"has no rule of today in {kb.reference}"
        hints.append(f"({lang} {own} {where}: kb show {own} --lang {lang})")
    return hints


def in_numbering(kb, number: str, lang: str) -> dict | None:
    """A translation's own rule of a number beside today's rule it is (None when the translation lacks it)."""
    rule = kb.primary[lang].rules.get(number) if lang in kb.primary else None
    if rule is None:
        return None
    found = {lang: rule}
    pair = kb.pair(lang, number)
    if pair is not None and kb.reference in kb.primary:
        today = kb.primary[kb.reference].rules.get(pair.ref_number)
        if today is not None:
            found[kb.reference] = today
    return found


def show_rule(kb, number: str, as_json: bool, history: bool = False, lang: str | None = None, edition=None) -> int:
    """Print a rule (and, for a missing parent, the rules under it); with `lang`, the number is read in that
    language's own text (French 120.4, beside today's 121.4); with `edition`, in that edition."""
    from kb.export.json import history_json, rule_json
    from kb.link.editions.history import rule_history

    if edition is not None:
        rule = edition.rules.get(number)
        if rule is None:
            echo(f"kb: no rule {number} in {edition.id}", err=True)
            return 1
        found = {edition.lang: rule}
    elif lang is not None and lang != kb.reference:
        found = in_numbering(kb, number, lang)
        if found is None:
            echo(f"kb: no rule {number} in the {lang} text (its own numbering); kb show {number} for today's", err=True)
            return 1
    else:
        found = kb.aligned(number)
    if as_json:
        payload = {"number": number, "rules": {lang: rule_json(kb, r) for lang, r in found.items()}}
        if edition is not None:
            payload["edition"] = edition.id
            payload["today"] = [n for n, _ in _today(kb, found[edition.lang])]
        if history:
            payload["history"] = {lang: history_json(rule_history(kb, r)) for lang, r in found.items()}
        click.echo(json_text(payload))
        return 0 if found else 1
    if history and found:
        for lang, rule in found.items():
            echo(f"{rule.number} [{lang}] history:")
            echo("\n".join(history_lines(kb, rule)))
        return 0
    if not found:
        under = {lang: kb.subtree(ed, number) for lang, ed in kb.primary.items()}
        if any(under.values()):
            for lang, rules in under.items():
                listed = ", ".join(r.number for r in rules[:40]) or "-"
                echo(f"{number} [{lang}]: no '{number}' heading in the loaded text; under it: {listed}")
            return 0
        echo(f"kb: no rule {number} in {', '.join(kb.langs) or 'the content'}", err=True)
        return 1
    total = shutil.get_terminal_size((100, 24)).columns
    langs = kb.langs if edition is None else tuple(found)
    if len(langs) > 1 and total >= 90:
        width = (total - 3 * (len(langs) - 1)) // len(langs)
        cols = []
        for each in langs:
            rule = found.get(each)
            cols.append(rule_lines(kb, rule, width) if rule else wrap(_absent(kb, number, each, lang), width))
        echo("\n".join(side_by_side(cols, width)))
    else:
        blocks = ["\n".join(rule_lines(kb, r, min(total, 100))) for r in found.values()]
        echo("\n\n".join(blocks))
    older = [r for r in found.values() if kb.edition_of(r).id != getattr(kb.primary.get(r.lang), "id", None)]
    for rule in older if lang is None or lang == kb.reference else ():
        echo(_older_note(kb, rule, edition is None))
    if edition is None and (lang is None or lang == kb.reference):
        for hint in moved_hint(kb, number):
            echo(hint)
    elif edition is None and kb.reference not in found:
        echo(f"({lang} {number} has no rule of today in {kb.reference})")
    return 0


def _today(kb, rule) -> tuple[tuple[str, float], ...]:
    """The numbers an older edition's rule has in its language's current edition (none when removed)."""
    chain = kb.links.lineage.get(rule.lang)
    eid = kb.edition_of(rule).id
    return chain.today(eid, rule.number) if chain is not None and eid in chain.editions else ()


def _older_note(kb, rule, fallback: bool) -> str:
    """What an older edition's rule shown is today; `fallback`: shown because today's edition lacks the number."""
    eid, current = kb.edition_of(rule).id, kb.primary[rule.lang].id
    today = _today(kb, rule)
    said = ", ".join(n for n, _ in today) if today else "no rule (removed or merged since)"
    why = f"not in {current}: " if fallback else ""
    hint = "; --edition DATE shows another edition's rule of that number" if fallback else ""
    return f"({why}{rule.number} of {eid}, today {said}{hint})"


def _absent(kb, number: str, each: str, lang: str | None) -> str:
    """Why a language's column has no rule: today's reference rule a translation's own rule of that number (`lang`)
    does not continue (removed or merged since the edition it was translated from), or the translation's own rule
    of that number that is another rule of today (French 120.3 is today's 121.3); else that it lacks it."""
    from kb.link.references.readings import number_match, numbering_of, read

    lab = LABELS.get(each, LABELS["en"])
    said = lab["absent"]
    if lang is not None and lang != kb.reference and each == kb.reference:
        found = read(kb, numbering_of(kb, lang), number)
        if found.gone is not None:
            old, new = (kb.editions[e].effective_date or e for e in found.gone)
            status = lab["status"][found.status]
            said = lab["no_today"].format(n=number, year=found.year, status=status, old=old, new=new)
    elif lang is None and each != kb.reference:
        match = number_match(kb, number)
        own = match.own.get(each) if match is not None else None
        if own is not None and own[1] is not None and own[1] != number:
            said = lab["own_elsewhere"].format(n=own[0], today=own[1])
    return f"{number} [{each}]: {said}"


def show_card(kb, query: str, as_json: bool) -> int:
    """Print the card a name designates, or the candidates when it is ambiguous."""
    from kb.export import json as cardjson
    from kb.export import text as cardtext
    from kb.link.cards import lookup

    cards = lookup.find_cards(kb.cards, query)
    if len(cards) != 1:
        if not cards:
            hints = lookup.suggest_cards(kb.cards, query)
            hint = f"; did you mean: {'; '.join(lookup.display_name(c) for c in hints[:8])}?" if hints else ""
            echo(f"kb: no rule number or card name matches '{query}'{hint}", err=True, newlines=False)
        else:
            names = "; ".join(" / ".join(dict.fromkeys(c.names.values())) for c in cards[:15])
            echo(f"kb: '{query}' matches several cards: {names}", err=True, newlines=False)
        return 1
    card = cards[0]
    if as_json:
        payload = {
            "card": cardjson.card_to_json(card),
            "rulings": [cardjson.ruling_to_json(kb.ruling[r]) for r in card.rulings if r in kb.ruling],
            "notes": [cardjson.note_to_json(kb.note[n]) for n in card.notes if n in kb.note],
            "mentioned_in": list(kb.card_mentions.get(card.id, ())),
        }
        click.echo(json_text(payload))
        return 0
    width = min(shutil.get_terminal_size((100, 24)).columns, 110)
    echo(cardtext.format_card(card, kb.ruling, kb.note, width, kb.card))
    mentioned = [_mention_label(kb, item) for item in kb.card_mentions.get(card.id, ())]
    if mentioned:
        label = printable("Cité dans · Mentioned in: " + "; ".join(mentioned), newlines=False)
        echo("\n" + "\n".join(wrap(label, width)))
    return 0


def _mention_label(kb, item_id: str) -> str:
    """Name a ruling (by its card) or a note (by its title)."""
    if item_id in kb.note:
        return kb.note[item_id].title
    from kb.model import card_name

    ruling = kb.ruling[item_id]
    card = kb.card.get(ruling.card)
    return f"{card_name(card, ruling.lang) if card else ruling.card} ({ruling.lang})"


@click.command(name="show")
@click.argument("query", nargs=-1, required=True)
@content_option
@click.option("--json", "as_json", is_flag=True, help="Print JSON: {number, rules: {lang: rule}} or the card.")
@click.option("--history", is_flag=True, help="A rule's editions, its number in each, and word diffs of its text.")
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
    query: tuple[str, ...], content: Path | None, as_json: bool, history: bool, lang: str | None, edition: str | None
) -> None:
    """Show a rule by number (120.2a, 'règle 703.4k', 'CR 120') in every language side by side,
    with its examples, children, references and what cites it; or a card by its French or
    English name (case- and accent-insensitive, unambiguous prefix).

    Exit status: 0 when found, 1 when nothing matches, 2 when the content cannot be read or --lang names a
    language not loaded."""
    from kb.model.numbers import rule_number

    text = " ".join(query)
    kb = load_or_exit(content)
    number = rule_number(text)
    if lang is not None and lang not in kb.langs:
        echo(f"kb: no {lang} text loaded; languages: {', '.join(kb.langs) or 'none'}", err=True)
        sys.exit(2)
    found = None
    if edition is not None:
        from kb.link.editions.history import HistoryError, find_edition

        if not number:
            echo("kb: --edition reads a rule number; a card has no edition", err=True)
            sys.exit(2)
        try:
            found = find_edition(kb, edition)
        except HistoryError as err:
            echo(f"kb: {err}", err=True, newlines=False)
            sys.exit(2)
    sys.exit(show_rule(kb, number, as_json, history, lang, found) if number else show_card(kb, text, as_json))
