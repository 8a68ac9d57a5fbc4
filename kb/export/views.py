"""The terminal's view of a rule (`kb show NUMBER`): each language's rule side by side, or one after the other on a
narrow terminal, with its examples, subrules, citations both ways and the rulings citing it; what a number is in
another numbering (a translation's own, an older edition's) said beside it. Text out, never printed here."""

from __future__ import annotations

import itertools

from kb.export.terminal import printable
from kb.model import Rule
from kb.model.base import KnowledgeBase
from kb.model.links import Edition
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
SIDE_BY_SIDE = 90
"""Columns from which the languages' rules stand side by side."""


def find_rules(kb: KnowledgeBase, number: str, lang: str | None = None, edition: Edition | None = None) -> dict:
    """Language -> the rule `kb show` shows for a number: today's rule in each language (the translation's paired
    with it); with `lang`, the number read in that language's own text; with `edition`, in that edition ({} when
    there is none)."""
    if edition is not None:
        rule = edition.rules.get(number)
        return {edition.lang: rule} if rule is not None else {}
    if lang is not None and lang != kb.reference:
        return in_numbering(kb, number, lang) or {}
    return dict(kb.aligned(number))


def in_numbering(kb: KnowledgeBase, number: str, lang: str) -> dict[str, Rule] | None:
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


def rule_view(kb: KnowledgeBase, number: str, found: dict[str, Rule], columns: int, lang=None, edition=None) -> str:
    """The rules found for a number, side by side on a wide terminal (`columns`), then what they are elsewhere."""
    langs = kb.langs if edition is None else tuple(found)
    if len(langs) > 1 and columns >= SIDE_BY_SIDE:
        width = (columns - 3 * (len(langs) - 1)) // len(langs)
        cols = []
        for each in langs:
            rule = found.get(each)
            cols.append(rule_lines(kb, rule, width) if rule else wrap(_absent(kb, number, each, lang), width))
        lines = side_by_side(cols, width)
    else:
        blocks = ["\n".join(rule_lines(kb, r, min(columns, 100))) for r in found.values()]
        lines = ["\n\n".join(blocks)]
    older = [r for r in found.values() if kb.edition_of(r).id != getattr(kb.primary.get(r.lang), "id", None)]
    for rule in older if lang is None or lang == kb.reference else ():
        lines.append(_older_note(kb, rule, edition is None))
    if edition is None and (lang is None or lang == kb.reference):
        lines += moved_hint(kb, number)
    elif edition is None and kb.reference not in found:
        lines.append(f"({lang} {number} has no rule of today in {kb.reference})")
    return "\n".join(lines)


def subtree_view(kb: KnowledgeBase, number: str) -> str:
    """What a number with no rule of its own holds in each language (`702` of an extract without its heading line),
    or "" when it holds nothing."""
    under = {lang: kb.subtree(ed, number) for lang, ed in kb.primary.items()}
    if not any(under.values()):
        return ""
    lines = []
    for lang, rules in under.items():
        listed = ", ".join(r.number for r in rules[:40]) or "-"
        lines.append(f"{number} [{lang}]: no '{number}' heading in the loaded text; under it: {listed}")
    return "\n".join(lines)


def rule_lines(kb: KnowledgeBase, rule: Rule, width: int) -> list[str]:
    """One rule of one language as wrapped lines, the content's control characters escaped."""
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
    rulings = [mention_label(kb, item) for item in kb.rule_mentions.get((rule.lang, rule.number), ())]
    if rulings:
        out += wrap(printable(f"{lab['rulings']}: {'; '.join(rulings)}", newlines=False), width)
    return out


def _cited(kb: KnowledgeBase, rule: Rule, ref, lab: dict) -> str:
    """A cited number; a translation's, read in its own numbering and followed to today (`502.2 (2015) → 502.3`)."""
    m = kb.miscited(rule.lang, rule.number).get(ref.target)
    if m is not None:
        return _miscited(kb, m, lab)
    if ref.resolved:
        return ref.target
    if rule.lang != kb.reference and kb.edition_of(rule).id == getattr(kb.primary.get(rule.lang), "id", None):
        from kb.link.references.readings import read

        found = read(kb, kb.numbering(rule.lang), ref.target)
        year = f" ({found.year})" if found.year else ""
        if found.today is not None:
            return ref.target if found.today == ref.target else f"{ref.target}{year} → {found.today}"
        if found.status in ("removed", "merged"):
            return f"{ref.target}{year} {lab[found.status]}"
    return f"{ref.target} {lab['missing']}"


def _miscited(kb: KnowledgeBase, m, lab: dict) -> str:
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


def moved_hint(kb: KnowledgeBase, number: str) -> list[str]:
    """Where a translation's own rule of this number is today, when today's numbering put it elsewhere."""
    from kb.link.references.readings import number_match

    found = number_match(kb, number)
    hints = []
    for lang, (own, today) in found.own.items() if found else ():
        where = f"is today's {kb.reference} {today}" if today else f"has no rule of today in {kb.reference}"
        hints.append(f"({lang} {own} {where}: kb show {own} --lang {lang})")
    return hints


def today_numbers(kb: KnowledgeBase, rule: Rule) -> tuple[tuple[str, float], ...]:
    """The numbers an older edition's rule has in its language's current edition (none when removed)."""
    chain = kb.links.lineage.get(rule.lang)
    eid = kb.edition_of(rule).id
    return chain.today(eid, rule.number) if chain is not None and eid in chain.editions else ()


def _older_note(kb: KnowledgeBase, rule: Rule, fallback: bool) -> str:
    """What an older edition's rule shown is today; `fallback`: shown because today's edition lacks the number."""
    eid, current = kb.edition_of(rule).id, kb.primary[rule.lang].id
    today = today_numbers(kb, rule)
    said = ", ".join(n for n, _ in today) if today else "no rule (removed or merged since)"
    why = f"not in {current}: " if fallback else ""
    hint = "; --edition DATE shows another edition's rule of that number" if fallback else ""
    return f"({why}{rule.number} of {eid}, today {said}{hint})"


def _absent(kb: KnowledgeBase, number: str, each: str, lang: str | None) -> str:
    """Why a language's column has no rule: today's reference rule a translation's own rule of that number (`lang`)
    does not continue (removed or merged since the edition it was translated from), or the translation's own rule
    of that number that is another rule of today (French 120.3 is today's 121.3); else that it lacks it."""
    from kb.link.references.readings import number_match, read

    lab = LABELS.get(each, LABELS["en"])
    said = lab["absent"]
    if lang is not None and lang != kb.reference and each == kb.reference:
        found = read(kb, kb.numbering(lang), number)
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


def mention_label(kb: KnowledgeBase, item_id: str) -> str:
    """Name a ruling (by its card) or a note (by its title)."""
    if item_id in kb.note:
        return kb.note[item_id].title
    from kb.model import card_name

    ruling = kb.ruling[item_id]
    card = kb.card.get(ruling.card)
    return f"{card_name(card, ruling.lang) if card else ruling.card} ({ruling.lang})"


def card_view(kb: KnowledgeBase, card, width: int) -> str:
    """A card as `kb show CARD` prints it: names, faces, rulings, then where it is mentioned."""
    from kb.export.text import format_card

    text = format_card(card, kb.ruling, kb.note, width, kb.card)
    mentioned = [mention_label(kb, item) for item in kb.card_mentions.get(card.id, ())]
    if mentioned:
        label = printable("Cité dans · Mentioned in: " + "; ".join(mentioned), newlines=False)
        text += "\n" + "\n".join(wrap(label, width)) + "\n"
    return text
