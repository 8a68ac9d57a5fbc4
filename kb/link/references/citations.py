"""Rules quoted by dated sources (FAQ notes) followed to today's rules, never by their number alone.

An FAQ quotes rules with the numbering of its date: the 2006 Dissension FAQ's 502.53 is Forecast, today's
702.57, while today's 502.53 does not exist or is another rule. A quoted heading and its subrules are placed
in today's reference edition by, in order of trust:

1. lineage: an edition of the quote's language in force at its date (or the next one: FAQs are published
   ahead of the rules update they describe) whose rule of that number has the quoted text, followed forward;
2. text: the quoted text itself found in today's edition (same language);
3. lexicon: a quote in another language whose heading translates (through the lexicon mined from printed
   cards) to the name of exactly one of today's rules with as many subrules.

Subrules follow their heading letter by letter. When none of these holds, the quote stays dated and unlinked.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from kb.link.editions.lineage import match_text
from kb.link.references.readings import read
from kb.model import FaqNote, QuotedRule, Ruling
from kb.model.base import KnowledgeBase
from kb.model.links import Edition
from kb.model.numbers import LETTERS, kind_of, parent_of
from kb.parse.refs import find_references
from kb.sources import fold

TEXT_MATCH = 0.85
"""Score (0..1) a quoted text needs to be taken for a rule's text."""
AHEAD_DAYS = 120
"""How long before an edition takes effect a dated text may already use its numbering (an FAQ is published
ahead of the rules update it describes); a text older than that is not read in that edition's numbering."""
IN_FORCE_DAYS = 365
"""How long after an edition took effect a dated text is still read in its numbering (when a newer edition is
loaded: the newest one is read for any later date)."""


def _groups(quotes: Sequence[QuotedRule]) -> list[tuple[QuotedRule, list[QuotedRule]]]:
    """Quotes as (heading, its subrules); a subrule without its heading is a group of its own."""
    out: list[tuple[QuotedRule, list[QuotedRule]]] = []
    for quote in quotes:
        if out and kind_of(quote.number) == "subrule" and parent_of(quote.number) == out[-1][0].number:
            out[-1][1].append(quote)
        else:
            out.append((quote, []))
    return out


def in_force(editions: Sequence[Edition], lang: str, as_of: str | None) -> Edition | None:
    """The dated edition of a language whose numbering a text of a date uses: the next one when it took effect
    soon after (`AHEAD_DAYS`), else the one in force then (`IN_FORCE_DAYS`); None when no loaded edition fits.

    Only the edition in force, or the one about to be: a 2006 text is never read in the numbering of 2015."""
    dated = sorted((ed for ed in editions if ed.lang == lang and ed.effective_date), key=lambda ed: ed.effective_date)
    if not dated or as_of is None:
        return None
    soon = [ed for ed in dated if as_of < ed.effective_date and _days(as_of, ed.effective_date) <= AHEAD_DAYS]
    if soon:
        return soon[0]
    before = [ed for ed in dated if ed.effective_date <= as_of]
    if not before:
        return None
    # The rules are revised several times a year: an edition long in force may not be the one a text used.
    return before[-1] if before[-1].current or _days(before[-1].effective_date, as_of) <= IN_FORCE_DAYS else None


def _days(first: str, last: str) -> int:
    """Days from one ISO date to another (a malformed date counts as far apart)."""
    from datetime import date

    try:
        return (date.fromisoformat(last[:10]) - date.fromisoformat(first[:10])).days
    except ValueError:
        return 10**6


def _by_text(head: QuotedRule, today: Edition) -> tuple[str, float] | None:
    """Today's rule whose text is the quoted text (same language)."""
    found = match_text(head.text, list(today.rules.values()))
    return found if found and found[1] >= TEXT_MATCH else None


def _by_lexicon(head: QuotedRule, subrules: int, today: Edition, lexicon) -> tuple[str, float] | None:
    """Today's rule named by the quoted heading's translation, with as many subrules as the quote shows."""
    if lexicon is None:
        return None
    names = {fold(e) for e in lexicon.english_for(head.text.strip().rstrip("."))}
    if not names:
        return None
    found = [
        r.number
        for r in today.rules.values()
        if r.kind in ("rule", "numbered") and fold((r.title or r.text).strip().rstrip(".")) in names
    ]
    fitting = [n for n in found if not subrules or len(today.rules[n].children) >= subrules]
    if len(fitting) != 1:
        return None
    return fitting[0], 0.9 if len(today.rules[fitting[0]].children) == subrules else 0.75


def _place(group, lang: str, editions, lineage, today: Edition, lexicon) -> list[QuotedRule]:
    """Place a heading and its subrules in today's edition, or leave them unlinked."""
    head, subs = group
    found, via = None, None
    source = in_force(editions, lang, head.as_of)
    if source is not None and head.number in source.rules and lineage is not None:
        rule = source.rules[head.number]
        same = match_text(head.text, [rule])
        if same and same[1] >= TEXT_MATCH and source.id in lineage.editions:
            reached = lineage.today(source.id, head.number)
            if reached:
                found, via = reached[0], "lineage"
    if found is None and lang == today.lang:
        found, via = _by_text(head, today), "text"
    if found is None and lang != today.lang:
        found, via = _by_lexicon(head, len(subs), today, lexicon), "lexicon"
    if found is None:
        return [head, *subs]
    number, confidence = found
    placed = [replace(head, today=number, today_edition=today.id, via=via, confidence=confidence)]
    for sub in subs:
        letter = sub.number[len(head.number) :]
        target = number + letter if letter in LETTERS else None
        if target and target in today.rules:
            placed.append(replace(sub, today=target, today_edition=today.id, via=via, confidence=confidence))
        else:
            placed.append(sub)
    return placed


def place_quotes(notes: Sequence[FaqNote], editions: Sequence[Edition], lineage, today: Edition | None, lexicon):
    """Return the notes with their quoted rules placed in today's edition where that is sure."""
    if today is None:
        return tuple(notes)
    out = []
    for note in notes:
        if not note.quoted_rules:
            out.append(note)
            continue
        placed = [
            q
            for group in _groups(note.quoted_rules)
            for q in _place(group, note.lang, editions, lineage.get(note.lang) if lineage else None, today, lexicon)
        ]
        out.append(replace(note, quoted_rules=tuple(placed)))
    return tuple(out)


def carry_forward(rulings: Sequence[Ruling], editions: Sequence[Edition], lineage, today: Edition | None):
    """Return the rulings with each cited number mapped to today's rule: resolved in the edition in force at
    the ruling's date (`in_force`), then followed through lineage; a number lineage cannot follow, or of a date
    no loaded edition was in force at, is left out (shown as cited, never linked to today's rule of that number)."""
    if today is None:
        return tuple(rulings)
    chain = lineage.get(today.lang) if lineage else None
    out = []
    for ruling in rulings:
        if not ruling.rule_refs:
            out.append(ruling)
            continue
        source = in_force(editions, today.lang, ruling.date) if ruling.date else today
        found = {}
        for number in ruling.rule_refs:
            if source is None:  # no loaded edition numbers like its date: its numbers cannot be read
                break
            if source.id == today.id:
                if number in today.rules:
                    found[number] = number
            elif chain is not None and source.id in chain.editions and number in source.rules:
                reached = chain.today(source.id, number)
                if reached:
                    found[number] = reached[0][0]
        out.append(replace(ruling, citations=found))
    return tuple(out)


def dated_citations(kb: KnowledgeBase) -> dict[str, tuple[dict[str, str], str]]:
    """FAQ note or undated FAQ ruling id -> (each number it cites -> today's number, the FAQ's date): read in the
    edition in force at the FAQ's date (`in_force`), left out when no loaded edition was (shown as cited)."""
    out = {}
    dates = {info.document: info.last_modified for info in kb.faqs if info.last_modified}
    texts = [(n.id, n.document, n.lang, (n.text, *n.bullets), ()) for n in kb.notes]
    texts += [(r.id, r.source_document, r.lang, (r.text,), r.rule_refs) for r in kb.rulings if not r.date]
    for item, document, lang, parts, refs in texts:
        date = dates.get(document)
        cited = {ref.targets[0] for text in parts for ref in find_references(text, lang)} | set(refs)
        if not cited or not date:
            continue
        edition = in_force(kb.links.editions, kb.reference or lang, date)
        found = {n: r.today for n in cited if (r := read(kb, edition.id if edition else None, n)).today}
        out[item] = (found, date)
    return out
