"""A translation's citations checked against its original's: the rule of the edition it was translated from.

A translation keeps the numbers of the text it was made from, and parts of a translation may have been made from
an older edition than the one it is numbered like. The French 703.4d cites 701.21 where its 2015 original cites
701.22 (Set in Motion); read in 2015 numbering, 701.21 is Planeswalk. Compared with its original, such a number
is found out:

- the two rules' citations are compared in order; a number the translation cites and its original does not,
  standing where the original cites a number the translation does not, is taken for the original's number in an
  older numbering, and linked to the rule the original cites (read in its edition, followed to today);
- the loaded editions older than the original's are searched for one that numbered that rule as the translation
  does: named as evidence when found; otherwise the original's citation is the evidence, and the two numbers
  must then be of one section and kind (`701.21` for `701.22`, never `100.1` for `904`);
- a number the original cites nothing in place of (or that does not pass) is reported and never linked.
"""

from __future__ import annotations

from collections.abc import Sequence
from difflib import SequenceMatcher

from kb.link.references.readings import follow
from kb.model import Diagnostic, Rule
from kb.model.lineage import Lineage
from kb.model.links import Edition, Miscitation
from kb.model.numbers import kind_of


def disagreements(mine: Sequence[str], theirs: Sequence[str]) -> list[tuple[str, str | None]]:
    """(number, the original's number in its place or None) for each number a translated rule cites (`mine`, in
    order) that its original (`theirs`, in order) does not cite."""
    mine_set, theirs_set = set(mine), set(theirs)
    out: list[tuple[str, str | None]] = []
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, list(mine), list(theirs), autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        extra = [n for n in mine[i1:i2] if n not in theirs_set]  # a number cited elsewhere by both agrees
        spare = [n for n in theirs[j1:j2] if n not in mine_set]
        if len(extra) == len(spare):
            out += zip(extra, spare, strict=True)
        else:  # two numbers in the place of one say nothing of which stands for which
            out += [(n, None) for n in extra]
    return out


def miscitations(
    mine: Edition, source: Edition, amended: tuple, chain: Lineage | None, today: Edition
) -> tuple[Miscitation, ...]:
    """The numbers a translation's rules cite that their originals in `source` (the edition it was translated
    from) do not; `amended`: (its numbers whose original is not the rule of that number, {number: `ContentPair`
    found for them in `source`}), as `EditionPlan.amended`; `chain`: the lineage of `source`'s language."""
    differ, by_content = amended
    out = []
    for number, rule in mine.rules.items():
        # the rule of that number in `source`, unless it says otherwise: then the rule its content matched, if any
        original = by_content[number].ref_number if number in by_content else None if number in differ else number
        theirs = source.rules.get(original) if original is not None else None
        if theirs is None:
            continue
        for cited, meant in disagreements(rule.references, theirs.references):
            older = _older(chain, source.id, meant) if meant is not None else ()
            if meant is not None and not _plausible(cited, meant) and not any(n == cited for _, n in older):
                meant, older = None, ()
            found = follow(chain, today, source.id, meant) if meant is not None else None
            literal = follow(chain, today, source.id, cited)
            out.append(Miscitation(mine.lang, number, cited, source.id, original, found, literal, older))
    return tuple(out)


def _plausible(cited: str, meant: str) -> bool:
    """Whether a number may be another's in an older numbering, without an edition to say so: one section, one
    kind (rules are inserted and renumbered within their section)."""
    return cited[0] == meant[0] and kind_of(cited) == kind_of(meant)


def _older(chain: Lineage | None, edition: str, number: str) -> tuple[tuple[str, str | None], ...]:
    """(edition, the number a rule of `edition` had there, or None) for each older edition, newest first."""
    if chain is None or edition not in chain.editions:
        return ()
    then = {ed: num for ed, num, _status in chain.history(edition, number)}
    return tuple((ed, then.get(ed)) for ed in reversed(chain.editions[: chain.editions.index(edition)]))


def diagnostic(m: Miscitation, rule: Rule, original: Rule) -> Diagnostic:
    """What `kb check` says of a miscitation of `rule` (its original: `original`): a note when it is linked to the
    rule its original cites, else a warning (not linked)."""
    date = _date(m.edition)
    year, which = date[:4], f"its original ({original.lang} {m.original}, {date})"
    if m.meant is None:
        cites = ", ".join(original.references) or "no rule"
        would = f"today's {m.literal.today}" if m.literal.today else "no rule of today"
        message = (
            f"rule {m.number} cites {m.cited}, which {which} does not cite (it cites {cites}): not linked "
            f"(read in {year} numbering it would be {would}); check the translation against its original"
        )
        return Diagnostic("warning", rule.source.path, rule.source.line, message)
    meant = m.meant
    if meant.today is None:
        why = {"removed": "removed since", "merged": "merged since"}.get(meant.status, "not followed to today")
        linked = f"{year}'s {meant.number} has no rule of today ({why}): not linked"
    elif meant.today == meant.number:
        linked = f"linked to {meant.today}"
    else:
        linked = f"linked to {meant.today} (today's rule of {year}'s {meant.number})"
    if m.literal.today is not None and m.literal.today != meant.today:
        linked += f", not {m.literal.today}" + (f" ({year}'s {m.cited})" if m.literal.today != m.cited else "")
    message = (
        f"rule {m.number} cites {m.cited} where {which} cites {meant.number}: the translation follows an older "
        f"numbering; {linked}; {_evidence(m, date)}"
    )
    return Diagnostic("note", rule.source.path, rule.source.line, message)


def _evidence(m: Miscitation, date: str) -> str:
    """Which loaded editions confirm the older numbering, or that the original's citation alone is the evidence."""
    if m.confirmed:
        return f"{', '.join(_date(ed) for ed in m.confirmed)} numbered that rule {m.cited}, as the translation does"
    if not m.older:
        return f"no edition older than {date} is loaded: the original's citation is the evidence"
    then = []
    for i, (ed, num) in enumerate(m.older):
        if num is None and i + 1 < len(m.older) and all(n is None for _, n in m.older[i:]):
            then.append(f"{_date(ed)} and before: none")  # the rule was not there yet
            break
        then.append(f"{_date(ed)}: {num or 'none'}")
    return (
        f"no older edition loaded numbered that rule {m.cited} ({'; '.join(then)}): the original's citation is the "
        "evidence"
    )


def _date(edition: str) -> str:
    """The date of an edition id (`en:2015-09-26` -> `2015-09-26`)."""
    return edition.split(":", 1)[-1]
