"""Editions: rules documents grouped by language and date, ordered, linked by lineage, aligned across languages.

- Documents of one language and effective date whose numbers do not overlap form one edition; two that
  overlap stay apart and are reported (never merged silently).
- An undated extract (the seeds) whose text is found in a dated edition of its language belongs to that
  edition: it adds a document, never a second edition or duplicate rules.
- Each language's editions are ordered by date (an undated one placed by its structure); the newest
  is *current*, the others are its history, linked rule by rule by lineage.
- The *reference* language is the one whose current edition has the most rules; every other language's
  current edition is matched to the reference edition it was translated from (by date, else by structure)
  and its rules are aligned with today's reference rules through lineage.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from kb.link.editions.crosslang import Scorer, agreement, align_by_content
from kb.link.editions.lineage import Lineage, build_lineage, match_edition
from kb.model import Diagnostic, Document, Rule
from kb.model.langs import ordered_langs
from kb.model.links import AlignedRule, Edition
from kb.model.numbers import sort_key
from kb.parse.cr.rules import RulesResult
from kb.sources import fold

EXTRACT_AGREEMENT = 0.8
"""Share of an undated extract's rules whose text must be found in a dated edition for it to belong there."""
WEAK_MATCH = 0.6
"""Structure score under which a translation's matching edition is reported as uncertain."""
AGREE_MIN = 0.75
"""Share of a translation's rules that must say the same as the reference rule of the same number for an
undated translation to be taken as numbered like that edition (else it is paired by content)."""
CANDIDATES = 3
"""Reference editions, best by structure first, tested for content agreement."""


@dataclass(slots=True)
class _Group:
    lang: str
    date: str | None
    docs: list[Document]
    rules: dict[str, Rule]


def _text_key(rule: Rule) -> str:
    """What must agree for two copies of a rule to be the same text (typography and spacing aside)."""
    return " ".join(fold(" ".join([rule.title, rule.text, *rule.examples])).replace('"', "'").split())


def _agreement(rules: Sequence[Rule], group: _Group) -> tuple[int, list[str]]:
    """How many of an extract's rules a group holds with the same text; the numbers that differ."""
    same, differ = 0, []
    for rule in rules:
        theirs = group.rules.get(rule.number)
        if theirs is not None and _text_key(theirs) == _text_key(rule):
            same += 1
        else:
            differ.append(rule.number)
    return same, differ


def _home_of_extract(res: RulesResult, groups: list[_Group]) -> tuple[_Group | None, list[str]]:
    """The dated group of the same language that holds (nearly) all of an undated extract's text."""
    best: tuple[int, _Group, list[str]] | None = None
    for group in groups:
        if group.lang == res.document.lang and group.date is not None:
            same, differ = _agreement(res.rules, group)
            if best is None or same > best[0]:
                best = (same, group, differ)
    if best is None or not res.rules or best[0] < EXTRACT_AGREEMENT * len(res.rules):
        return None, []
    return best[1], best[2]


def _place(res: RulesResult, groups: list[_Group], diags: list[Diagnostic]) -> None:
    """Put a document in the group of its language and date, or start a new group."""
    doc = res.document
    numbers = {r.number: r for r in res.rules}
    said = False
    for group in groups:
        if group.lang != doc.lang or group.date != doc.effective_date:
            continue
        clash = next((n for n in numbers if n in group.rules), None)
        if clash is None:
            group.docs.append(doc)
            group.rules.update(numbers)
            return
        if not said:  # once, naming the first file it clashes with: not once for each (400 files, 80,000 lines)
            said = True
            other = next(d for d in group.docs if group.rules[clash].document == d.id)
            message = (
                f"rule {clash} is also in {other.source} (same language and date); the two files are kept as "
                "separate editions: remove one, or fix the date of one"
            )
            diags.append(Diagnostic("warning", doc.source, numbers[clash].source.line, message))
    groups.append(_Group(doc.lang, doc.effective_date, [doc], dict(numbers)))


def group_documents(results: Sequence[RulesResult]) -> tuple[list[_Group], list[Diagnostic]]:
    """Group documents into editions: dated ones first, then undated ones (attached as extracts when they fit)."""
    groups: list[_Group] = []
    diags: list[Diagnostic] = []
    for res in sorted(results, key=lambda r: r.document.effective_date is None):
        if res.document.effective_date is None:
            home, differ = _home_of_extract(res, groups)
            if home is not None:
                home.docs.append(res.document)
                first = res.rules[0].source.line
                message = f"an extract of {home.lang}:{home.date}; its rules are that edition's"
                if differ:
                    message += f" (text differs in {', '.join(differ[:8])}: the edition's text is kept)"
                diags.append(Diagnostic("note", res.document.source, first, message))
                continue
        _place(res, groups, diags)
    return groups, diags


def _editions(groups: list[_Group]) -> list[Edition]:
    """Edition records, ids `<lang>:<date or undated>` (`~2` for a second one)."""
    out, seen = [], {}
    for g in groups:
        base = f"{g.lang}:{g.date or 'undated'}"
        seen[base] = seen.get(base, 0) + 1
        eid = base if seen[base] == 1 else f"{base}~{seen[base]}"
        ordered = dict(sorted(g.rules.items(), key=lambda kv: sort_key(kv[0])))
        complete = sum(1 for r in g.rules.values() if r.kind == "section") >= 3
        out.append(Edition(eid, g.lang, g.date, tuple(d.id for d in g.docs), ordered, complete))
    return out


def _order(editions: list[Edition]) -> dict[str, list[Edition]]:
    """Each language's editions, oldest first; an undated one goes after the dated one its structure fits."""
    by_lang: dict[str, list[Edition]] = {}
    for lang in ordered_langs(ed.lang for ed in editions):
        mine = [ed for ed in editions if ed.lang == lang]
        dated = sorted((ed for ed in mine if ed.effective_date), key=lambda ed: ed.effective_date or "")
        ordered = list(dated)
        for ed in (ed for ed in mine if not ed.effective_date):
            ranked = match_edition(list(ed.rules.values()), [(d.id, list(d.rules.values())) for d in dated])
            at = next((i for i, d in enumerate(ordered) if ranked and d.id == ranked[0][0]), len(ordered) - 1)
            ordered.insert(at + 1, ed)
        by_lang[lang] = ordered
    return by_lang


def _current(ordered: list[Edition]) -> Edition:
    """The current edition of a language: the newest complete one, else the newest dated, else the largest."""
    complete = [ed for ed in ordered if ed.complete]
    dated = [ed for ed in ordered if ed.effective_date]
    return complete[-1] if complete else dated[-1] if dated else max(ordered, key=lambda ed: len(ed.rules))


def _chain(ordered: list[Edition], current: Edition) -> list[Edition]:
    """The editions linked by lineage: whole or dated ones, and the current one, oldest first."""
    return [ed for ed in ordered if ed.complete or ed.effective_date or ed is current]


@dataclass(frozen=True, slots=True)
class EditionPlan:
    """What `plan_editions` decides."""

    editions: tuple[Edition, ...]
    ordered: dict[str, tuple[str, ...]]
    current: dict[str, str]
    reference: str | None
    lineage: dict[str, Lineage]
    counterparts: dict[str, tuple[str, float, str]]
    """Language -> (reference edition it is numbered like, structure score, `date` | `structure` | `content`)."""
    diagnostics: tuple[Diagnostic, ...]
    content: dict[str, tuple] = field(default_factory=dict)
    """Language -> its rules paired by content (`ContentPair`), when no loaded edition is numbered like it."""
    amended: dict[str, tuple] = field(default_factory=dict)
    """Language -> (its numbers whose rule says otherwise than the counterpart's of that number, {number: the
    `ContentPair` found for it in the counterpart's numbering}): never paired by number."""


def _counterpart(ed: Edition, reference: list[Edition], lexicon) -> tuple[str, float, str, int, tuple, object]:
    """The reference edition a translation is numbered like: by date when it has one, else the best by structure
    whose rules say the same as the translation's, number for number; else today's, to be paired by content.

    Returns (edition id, score, `date` | `structure` | `content`, rules agreeing by content, the numbers that do
    not, the `Scorer` of the translation against that edition, or None)."""
    ranked = match_edition(list(ed.rules.values()), [(r.id, list(r.rules.values())) for r in reference])
    scores = dict(ranked)
    if ed.effective_date:
        in_force = [r for r in reference if r.effective_date and r.effective_date <= ed.effective_date]
        chosen = in_force[-1] if in_force else reference[0]
        return chosen.id, scores.get(chosen.id, 0.0), "date", len(ed.rules), (), None
    by_id = {r.id: r for r in reference}
    mine = list(ed.rules.values())
    agreeing, scorer = 0, None
    for eid, score in ranked[:CANDIDATES]:
        scorer = Scorer(mine, list(by_id[eid].rules.values()), lexicon, (ed.lang, by_id[eid].lang))
        share, same, differ = agreement(scorer, mine)
        if eid == ranked[0][0]:
            agreeing = same
        if share >= AGREE_MIN:
            return eid, score, "structure", same, differ, scorer
    today = reference[-1]
    if scorer is None or ranked[min(CANDIDATES, len(ranked)) - 1][0] != today.id:
        scorer = Scorer(mine, list(today.rules.values()), lexicon, (ed.lang, today.lang))
    return today.id, ranked[0][1], "content", agreeing, (), scorer


def _content_note(lang: str, ed: Edition, best: tuple[str, float], agreeing: int, plan_pairs, chain, ref) -> str:
    """What `kb check` says of a translation no loaded edition numbers like: what was paired, what would settle it."""
    pairs = [p for p in plan_pairs if p.lang == lang]
    confidences = sorted(p.confidence for p in pairs)
    spread = f" (confidence {confidences[0]:.2f}-{confidences[-1]:.2f})" if confidences else ""
    return (
        f"{lang} (undated) is numbered like no loaded {ref} edition (best by structure: {best[0].replace(':', ' ')}, "
        f"score {best[1]:.2f}, but {agreeing} of {len(ed.rules)} rules say the same as the rule of that number); "
        f"{len(pairs)} rules paired by content{spread}, {len(ed.rules) - len(pairs)} left unpaired; "
        f"load the {ref} edition the {lang} text was translated from: {_when(pairs, chain)}"
    )


def _when(pairs, chain: Lineage | None) -> str:
    """Where the missing source lies among the loaded editions, from the numbers its rules had in each: a text is
    older than an edition that numbers most of its moved rules higher (rules are inserted, numbers pushed up)."""
    after, before = None, None
    editions = chain.editions if chain is not None else ()
    newest = pairs[0].ref_edition if pairs else ""
    for eid in (*editions, newest) if newest not in editions else editions:
        numbers = {p.number: _number_in(chain, newest, p.ref_number, eid) for p in pairs}
        higher = sum(1 for own, there in numbers.items() if there and sort_key(there) > sort_key(own))
        lower = sum(1 for own, there in numbers.items() if there and sort_key(there) < sort_key(own))
        if higher > lower and before is None:
            before = (eid, higher, sum(1 for there in numbers.values() if there))
        elif lower > higher:
            after = eid
    if before is None and after is None:
        return "its date cannot be told from the loaded editions"
    said = []
    if after is not None:
        said.append(f"newer than {after.split(':', 1)[-1]}")
    if before is not None:
        eid, higher, total = before
        date = eid.split(":", 1)[-1]
        said.append(f"older than {date} ({higher} of the {total} rules paired are numbered higher there)")
    return ", ".join(said)


def _number_in(chain: Lineage | None, today: str, number: str, edition: str) -> str | None:
    """The number today's rule had in an older edition, through lineage (itself in today's edition)."""
    if edition == today:
        return number
    if chain is None or today not in chain.editions:
        return None
    return next((num for ed, num, _status in chain.history(today, number) if ed == edition), None)


def plan_editions(results: Sequence[RulesResult], lexicon=None) -> EditionPlan:
    """Group, order and link the editions; choose the current and reference editions and the counterparts.

    `lexicon` (a `Lexicon`, or a call giving one, made only when an undated translation needs it) gives the
    French-English terms that pairing by content reads."""
    groups, diags = group_documents(results)
    editions = _editions(groups)
    ordered = _order(editions)
    current = {lang: _current(eds) for lang, eds in ordered.items()}
    reference = max(current.values(), key=lambda ed: (len(ed.rules), ed.lang == "en")).lang if editions else None
    lineage = {}
    for lang, eds in ordered.items():
        chain = _chain(eds, current[lang])
        if len(chain) > 1:
            lineage[lang] = build_lineage([(ed.id, list(ed.rules.values())) for ed in chain])
    counterparts, content, amended = {}, {}, {}
    by_id = {ed.id: ed for ed in editions}
    for lang, ed in current.items():
        if lang == reference:
            continue
        ref_eds = _chain(ordered[reference], current[reference])
        if callable(lexicon) and not ed.effective_date:
            lexicon = lexicon()
        eid, score, how, agreeing, differ, scorer = _counterpart(ed, ref_eds, None if callable(lexicon) else lexicon)
        counterparts[lang] = (eid, score, how)
        mine = list(ed.rules.values())
        if how == "content":  # without words (no lexicon between the two languages), content pairs too little
            theirs = list(current[reference].rules.values())
            content[lang] = align_by_content(scorer, mine, theirs) if scorer.terms_present else ()
            best = match_edition(mine, [(r.id, list(r.rules.values())) for r in ref_eds])[0]
            pairs = [
                AlignedRule(lang, ed.id, p.number, eid, p.ref_number, "content", p.confidence) for p in content[lang]
            ]
            message = _content_note(lang, ed, best, agreeing, pairs, lineage.get(reference), reference)
            if not scorer.terms_present:
                message += f" (no lexicon between {lang} and {reference}: add card data or a lexicon to pair them)"
            diags.append(Diagnostic("warning", _source(ed, results), 0, message))
            continue
        described = f"{ed.effective_date or 'undated'}"
        message = f"{lang} ({described}) matches {eid.replace(':', ' ')} by {how} (score {score:.2f})"
        if how == "structure":
            message += f"; {agreeing} of {len(ed.rules)} rules say the same as the rule of that number"
        if differ:  # those are not paired by number: by content, within that edition, or not at all
            found = align_by_content(scorer, mine, list(by_id[eid].rules.values())) if scorer.terms_present else ()
            amended[lang] = (frozenset(differ), {p.number: p for p in found if p.number in differ})
            message += f" (not {', '.join(differ[:8])}: {len(amended[lang][1])} of them paired by content)"
        if score < WEAK_MATCH:
            message += f"; weak: rules may be paired wrongly, add the {reference} edition this text was made from"
        diags.append(Diagnostic("note" if score >= WEAK_MATCH else "warning", _source(ed, results), 0, message))
    marked = tuple(_with_current(ed, current) for ed in editions)
    return EditionPlan(
        marked,
        {lang: tuple(ed.id for ed in eds) for lang, eds in ordered.items()},
        {lang: ed.id for lang, ed in current.items()},
        reference,
        lineage,
        counterparts,
        tuple(diags),
        content,
        amended,
    )


def _source(ed: Edition, results: Sequence[RulesResult]) -> str:
    return next(res.document.source for res in results if res.document.id == ed.documents[0])


def _with_current(ed: Edition, current: dict[str, Edition]) -> Edition:
    return Edition(ed.id, ed.lang, ed.effective_date, ed.documents, ed.rules, ed.complete, current[ed.lang].id == ed.id)


def align(plan: EditionPlan) -> tuple[AlignedRule, ...]:
    """Pair every rule of each translation's current edition with today's reference rule, through lineage."""
    by_id = {ed.id: ed for ed in plan.editions}
    if plan.reference is None:
        return ()
    today = by_id[plan.current[plan.reference]]
    pairs = []
    for lang, (counterpart, _score, how) in plan.counterparts.items():
        mine = by_id[plan.current[lang]]
        if how == "content":  # no loaded edition numbers like it: its numbers say nothing, its content does
            found = plan.content.get(lang, ())
            pairs += [
                AlignedRule(lang, mine.id, p.number, today.id, p.ref_number, "content", p.confidence) for p in found
            ]
            continue
        chain = plan.lineage.get(plan.reference)
        differ, by_content = plan.amended.get(lang, (frozenset(), {}))
        taken = set()
        for number in mine.rules:
            source, via, sure = number, "number", 1.0
            if number in differ:  # says otherwise than the rule of that number: its content's pair, if any
                if number not in by_content:
                    continue
                source, via, sure = by_content[number].ref_number, "content", by_content[number].confidence
            if counterpart == today.id:
                target = (source, sure, via) if source in today.rules else None
            elif chain is not None and counterpart in chain.editions and source in by_id[counterpart].rules:
                found = chain.today(counterpart, source)
                target = (
                    (found[0][0], round(found[0][1] * sure, 3), "lineage" if via == "number" else via)
                    if found
                    else None
                )
            else:
                target = None
            if target is not None and (via == "number" or target[0] not in taken):
                taken.add(target[0])
                pairs.append(AlignedRule(lang, mine.id, number, today.id, target[0], target[2], target[1]))
    return tuple(pairs)
