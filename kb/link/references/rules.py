"""Link rules: group documents into editions, resolve references, build backlinks, align FR/EN.

Linking never mutates parsed records: it returns editions, maps and diagnostics.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from kb.link.editions.grouping import EditionPlan, align, plan_editions
from kb.link.references.citecheck import diagnostic, miscitations
from kb.model import Diagnostic, GlossaryEntry
from kb.model.langs import ordered_langs
from kb.model.links import AlignedRule, Alignment, Edition, ResolvedRef, RuleLinks, StaleRule
from kb.parse.cr.rules import RulesResult


def _resolve(ed: Edition, targets: Iterable[str], made: dict[str, ResolvedRef]) -> tuple[ResolvedRef, ...]:
    """References to targets, resolved in an edition (`made`: the edition's records made before, shared)."""
    found = []
    for t in targets:
        ref = made.get(t)
        if ref is None:
            ref = made[t] = ResolvedRef(t, t in ed.rules)
        found.append(ref)
    return tuple(found)


def _align(plan: EditionPlan, pairs: tuple[AlignedRule, ...]) -> Alignment:
    """Compare each translation with today's reference edition, pair by pair."""
    by_id = {ed.id: ed for ed in plan.editions}
    current = {lang: by_id[eid] for lang, eid in plan.current.items()}
    if plan.reference is None:
        return Alignment({}, {}, (), ())
    today = current[plan.reference]
    to_ref: dict[str, dict[str, str]] = {}
    for pair in pairs:
        to_ref.setdefault(pair.lang, {})[pair.number] = pair.ref_number
    langs = list(current)
    others = [lang for lang in langs if lang != plan.reference]
    only_in = {lang: tuple(n for n in current[lang].rules if n not in to_ref.get(lang, {})) for lang in others}
    targets = [set(to_ref.get(lang, {}).values()) for lang in others]  # built once, not per rule
    covered = set().union(*targets)
    only_in[plan.reference] = tuple(n for n in today.rules if others and n not in covered)
    aligned = tuple(n for n in today.rules if others and all(n in t for t in targets))
    mismatches, stale = [], []
    chain = plan.lineage.get(plan.reference)
    miscited = tuple(
        m
        for lang, (eid, _score, how) in plan.counterparts.items()
        if how != "content"  # no edition numbered like it: its originals are not known
        for m in miscitations(current[lang], by_id[eid], plan.amended.get(lang, (frozenset(), {})), chain, today)
    )
    for pair in pairs:
        if pair.via == "content":  # no edition numbered like it is loaded: nothing to compare number for number
            continue
        source = by_id[plan.counterparts[pair.lang][0]]
        mine = current[pair.lang].rules[pair.number]
        theirs = source.rules.get(pair.number)  # the rule it was translated from, in that edition's numbering
        if theirs is not None and frozenset(mine.references) != frozenset(theirs.references):
            mismatches.append(
                {
                    "number": pair.ref_number,
                    "numbers": {pair.lang: pair.number, plan.reference: pair.number},
                    "edition": source.id,
                    pair.lang: list(mine.references),
                    plan.reference: list(theirs.references),
                }
            )
        if source.id != today.id and chain is not None and _changed(chain, source.id, pair.number):
            stale.append(StaleRule(pair.lang, pair.number, source.id, pair.ref_number, today.id))
    ordered = {lang: current[lang].id for lang in ordered_langs(langs)}
    return Alignment(
        ordered,
        only_in,
        tuple(mismatches),
        aligned,
        plan.reference,
        pairs,
        dict(plan.counterparts),
        tuple(stale),
        miscited,
    )


def _changed(chain, edition: str, number: str) -> bool:
    """Whether the text of a rule changed between an edition and today's, along its line of descent."""
    return any(link.text_changed for link in _links_forward(chain, edition, number))


def _links_forward(chain, edition: str, number: str) -> list:
    """The links followed from a rule of an edition to today's edition (most confident each step)."""
    out, k = [], chain.editions.index(edition)
    while k < len(chain.steps) and number is not None:
        links = chain.steps[k].by_old.get(number, ())
        if not links:
            break
        link = max(links, key=lambda li: li.confidence)
        out.append(link)
        number, k = link.new, k + 1
    return out


def _unresolved_message(rule_or_term: str, target: str, ed: Edition, primary: dict[str, Edition], number: str) -> str:
    """Say which reference did not resolve and what the other language cites there."""
    msg = f"{rule_or_term}: reference to rule {target} not found in {ed.lang} ({ed.id})"
    hints = []
    for other in primary.values():
        if other.lang != ed.lang and number in other.rules and other.rules[number].references:
            cited = ", ".join(other.rules[number].references)
            hints.append(f"{other.lang.upper()} {number} ({other.id}) cites {cited}")
    if not ed.complete:
        msg += "; this edition is an extract, load the rest of it to resolve it"
    return msg + ("; " + "; ".join(hints) if hints else "")


def link_rules(results: Sequence[RulesResult], glossary: Sequence[GlossaryEntry], lexicon=None) -> RuleLinks:
    """Resolve every reference within its edition, build backlinks and the alignment (`lexicon`: French-English
    terms, for pairing a translation by content when the edition it was made from is not loaded)."""
    plan = plan_editions(results, lexicon)
    editions, diags = plan.editions, list(plan.diagnostics)
    edition_of = {doc: ed.id for ed in editions for doc in ed.documents}
    by_id = {ed.id: ed for ed in editions}
    # A translation's unresolved reference is compared with the edition it was translated from.
    sources = {lang: {c[0]: by_id[c[0]]} for lang, c in plan.counterparts.items() if c[2] != "content"}
    refs: dict[tuple[str, str], tuple[ResolvedRef, ...]] = {}
    cited: dict[tuple[str, str], list[str]] = {}
    made: dict[str, dict[str, ResolvedRef]] = {}  # one record per target of an edition, shared by what cites it
    for ed in editions:
        for rule in ed.rules.values():
            resolved = _resolve(ed, rule.references, made.setdefault(ed.id, {}))
            if resolved:  # a rule citing nothing has no entry (`KnowledgeBase.references` gives it none)
                refs[(ed.id, rule.number)] = resolved
            for ref in resolved:
                if ref.resolved:
                    cited.setdefault((ed.id, ref.target), []).append(rule.number)
                else:
                    severity = "warning" if ed.complete else "note"
                    message = _unresolved_message(
                        f"rule {rule.number}", ref.target, ed, sources.get(ed.lang, {}), rule.number
                    )
                    diags.append(Diagnostic(severity, rule.source.path, rule.source.line, message))
    glossary_refs = {}
    for entry in glossary:
        ed = by_id[edition_of[entry.document]]
        glossary_refs[entry.key] = _resolve(ed, entry.references, made.setdefault(ed.id, {}))
        for ref in glossary_refs[entry.key]:
            if not ref.resolved:
                severity = "warning" if ed.complete else "note"
                message = _unresolved_message(f"glossary '{entry.term}'", ref.target, ed, {}, "")
                diags.append(Diagnostic(severity, entry.source.path, entry.source.line, message))
    backlinks = {k: tuple(dict.fromkeys(v)) for k, v in cited.items()}
    alignment = _align(plan, align(plan))
    for m in alignment.miscitations:  # a translation's citation its original does not make: linked otherwise, said
        rule = by_id[plan.current[m.lang]].rules[m.number]
        diags.append(diagnostic(m, rule, by_id[m.edition].rules[m.original]))
    return RuleLinks(
        tuple(editions), edition_of, refs, backlinks, glossary_refs, alignment, tuple(diags), plan.ordered, plan.lineage
    )
