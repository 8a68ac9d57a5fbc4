"""Rule numbers read in the numbering of the text that cites them, then followed to today through lineage.

A French extract translated from the 2015 edition cites `502.2` meaning the 2015 rule 502.2 (today's 502.3),
never today's 502.2. Every number a text cites is read here: in the edition the text is numbered like (a
translation's counterpart, see `kb.link.editions.grouping`), followed forward along lineage. A removed or merged
rule has no today's rule of its own; a text whose numbering is not loaded cannot be read at all (`unknown`), and its
numbers are never taken for today's.
"""

from __future__ import annotations

from dataclasses import dataclass

from kb.model.base import KnowledgeBase
from kb.model.lineage import Lineage
from kb.model.links import Edition, Reading
from kb.model.numbers import rule_number


def read(kb: KnowledgeBase, edition: str | None, number: str) -> Reading:
    """Read a number in an edition's numbering and say what rule of today it is."""
    if edition is None or kb.reference is None:
        return Reading(number, None, "unknown", None)
    return follow(kb.links.lineage.get(kb.reference), kb.primary[kb.reference], edition, number)


def follow(chain: Lineage | None, today: Edition, edition: str, number: str) -> Reading:
    """Read a number in the numbering of an edition of today's language (`chain`: its lineage) and follow it to
    today's edition."""
    if edition == today.id:
        return (
            Reading(number, edition, "same", number)
            if number in today.rules
            else Reading(number, edition, "absent", None)
        )
    if chain is None or edition not in chain.editions or today.id not in chain.editions:
        return Reading(number, edition, "unknown", None)
    k = chain.editions.index(edition)
    if number not in chain.numbers[k]:
        return Reading(number, edition, "absent", None)
    confidence, now = 1.0, number
    while k < len(chain.steps):
        links = chain.steps[k].by_old.get(now, ())
        link = max(links, key=lambda li: (li.confidence, li.new == now)) if links else None
        if link is None or link.new is None or link.status == "merged":
            gone = (chain.editions[k], chain.editions[k + 1])
            return Reading(number, edition, "merged" if link and link.new else "removed", None, gone)
        confidence *= link.confidence
        now, k = link.new, k + 1
    status = "same" if now == number else "renumbered"
    return Reading(number, edition, status, now, None, round(confidence, 3))


def cited_today(kb: KnowledgeBase, rule) -> list[tuple[str, str | None, str, str | None, object]] | None:
    """For a rule of a translation's current text, each number it cites as (number, the numbering it is read in,
    status, today's rule or None, its miscitation or None): a number its original does not cite
    (`kb.link.references.citecheck`) stands for today's rule of what the original cites in its place (status
    `miscited`); a rule of the same text for the rule it is paired with today (`own`); any other number is read in the
    numbering of its text's edition and followed to today. None for a rule of the reference language or of
    another edition."""
    if rule.lang == kb.reference or kb.edition_of(rule).id != getattr(kb.primary.get(rule.lang), "id", None):
        return None
    edition, mine, out = kb.numbering(rule.lang), kb.primary[rule.lang].rules, []
    miscited = kb.miscited(rule.lang, rule.number)
    for target in rule.references:
        m = miscited.get(target)
        if m is not None:
            out.append((target, m.edition, "miscited", m.meant.today if m.meant is not None else None, m))
        elif target in mine:
            pair = kb.pair(rule.lang, target)
            out.append((target, edition, "own", pair.ref_number if pair else None, None))
        else:
            reading = read(kb, edition, target)
            out.append((target, reading.edition, reading.status, reading.today, None))
    return out


def readings(kb: KnowledgeBase, lang: str) -> dict[str, Reading]:
    """Every number a language's current text (rules and glossary) cites and does not hold itself, read."""
    if lang not in kb.primary:
        return {}
    mine = kb.primary[lang]
    cited = {t for r in mine.rules.values() for t in r.references if t not in mine.rules}
    cited |= {t for g in kb.glossary if g.document in mine.documents for t in g.references if t not in mine.rules}
    edition = kb.numbering(lang)
    return {number: read(kb, edition, number) for number in sorted(cited)}


def every_reading(kb: KnowledgeBase) -> dict[str, dict[str, Reading]]:
    """Translation -> each number its text cites without having it -> that number read (`readings`): never today's
    rule of the same number by default."""
    return {lang: readings(kb, lang) for lang in kb.langs if lang != kb.reference}


def numbering_years(kb: KnowledgeBase) -> dict[str, str]:
    """Translation -> the year of the numbering its text uses ('' unknown), when it is not today's reference
    edition."""
    today = kb.primary.get(kb.reference) if kb.reference else None
    found = {}
    for lang in kb.langs:
        if lang == kb.reference or today is None:
            continue
        edition = kb.numbering(lang)
        if edition != today.id:
            found[lang] = (kb.editions[edition].effective_date or "")[:4] if edition else ""
    return found


@dataclass(frozen=True, slots=True)
class NumberMatch:
    """What a typed rule number names: a translation's own rule of that number, today's rule of it, or both."""

    number: str
    """The number typed (canonical)."""
    own: dict[str, tuple[str, str | None]]
    """Translation language -> (its own number, the reference number of the rule it is today, or None when it has
    none), for the translations that hold a rule of this number whose number today differs."""
    today: str | None
    """The number itself when today's reference edition has it, else None."""


def number_match(kb: KnowledgeBase, typed: str) -> NumberMatch | None:
    """What a typed number (`120.4`, `règle 120.4`) names in each numbering; None when it is not a number."""
    number = rule_number(typed)
    if number is None:
        return None
    ref = kb.primary.get(kb.reference) if kb.reference else None
    own = {}
    for lang, edition in kb.primary.items():
        if lang == kb.reference or number not in edition.rules:
            continue
        pair = kb.pair(lang, number)
        now = pair.ref_number if pair is not None else None
        if now != number:
            own[lang] = (number, now)
    return NumberMatch(number, own, number if ref is not None and number in ref.rules else None)
