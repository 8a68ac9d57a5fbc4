"""Link rules: group documents into editions, resolve references, build backlinks, align FR/EN.

Linking never mutates parsed records: it returns editions, maps and diagnostics.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from kb.model import Diagnostic, Document, GlossaryEntry, Rule
from kb.model.langs import ordered_langs
from kb.model.links import Alignment, Edition, ResolvedRef, RuleLinks
from kb.model.numbers import sort_key
from kb.parse.cr.rules import RulesResult


def group_editions(results: Sequence[RulesResult]) -> tuple[list[Edition], list[Diagnostic]]:
    """Group documents by language and date; documents whose numbers overlap stay apart."""
    groups: list[tuple[str, str | None, list[Document], dict[str, Rule]]] = []
    diags = []
    for res in results:
        doc = res.document
        numbers = {r.number: r for r in res.rules}
        home = None
        for group in groups:
            if group[0] == doc.lang and group[1] == doc.effective_date:
                clash = next((n for n in numbers if n in group[3]), None)
                if clash is None:
                    home = group
                    break
                other = next(d for d in group[2] if group[3][clash].document == d.id)
                message = f"rule {clash} is also in {other.source}; the two files are kept as separate editions"
                diags.append(Diagnostic("note", doc.source, numbers[clash].source.line, message))
        if home is None:
            home = (doc.lang, doc.effective_date, [], {})
            groups.append(home)
        home[2].append(doc)
        home[3].update(numbers)
    editions, seen = [], {}
    for lang, date, docs, rules in groups:
        base = f"{lang}:{date or 'undated'}"
        seen[base] = seen.get(base, 0) + 1
        eid = base if seen[base] == 1 else f"{base}~{seen[base]}"
        ordered = dict(sorted(rules.items(), key=lambda kv: sort_key(kv[0])))
        complete = sum(1 for r in rules.values() if r.kind == "section") >= 3
        editions.append(Edition(eid, lang, date, tuple(d.id for d in docs), ordered, complete))
    return editions, diags


def primary_editions(editions: Iterable[Edition]) -> dict[str, Edition]:
    """Pick, per language, the edition to align: most rules, then latest date."""
    best: dict[str, Edition] = {}
    for ed in editions:
        cur = best.get(ed.lang)
        if cur is None or (len(ed.rules), ed.effective_date or "") > (len(cur.rules), cur.effective_date or ""):
            best[ed.lang] = ed
    return {lang: best[lang] for lang in ordered_langs(best)}


def _resolve(ed: Edition, targets: Iterable[str]) -> tuple[ResolvedRef, ...]:
    return tuple(ResolvedRef(t, t in ed.rules) for t in targets)


def _align(primary: dict[str, Edition]) -> Alignment:
    """Compare the primary editions number by number."""
    langs = list(primary)
    every = set().union(*(set(ed.rules) for ed in primary.values())) if primary else set()
    only_in = {}
    for lang in langs:
        others = [primary[o].rules for o in langs if o != lang]
        only_in[lang] = tuple(n for n in primary[lang].rules if others and all(n not in o for o in others))
    aligned = sorted((n for n in every if all(n in primary[lang].rules for lang in langs)), key=sort_key)
    mismatches = []
    if len(langs) > 1:
        for number in aligned:
            refs = {lang: primary[lang].rules[number].references for lang in langs}
            if len({frozenset(v) for v in refs.values()}) > 1:
                mismatches.append({"number": number, **{k: list(v) for k, v in refs.items()}})
    return Alignment({k: v.id for k, v in primary.items()}, only_in, tuple(mismatches), tuple(aligned))


def _unresolved_message(rule_or_term: str, target: str, ed: Edition, primary: dict[str, Edition], number: str) -> str:
    """Say which reference did not resolve and what the other language cites there."""
    msg = f"{rule_or_term}: reference to rule {target} not found in {ed.lang} ({ed.id})"
    hints = []
    for lang, other in primary.items():
        if lang != ed.lang and number in other.rules and other.rules[number].references:
            hints.append(f"{lang.upper()} {number} cites {', '.join(other.rules[number].references)}")
    if not ed.complete:
        msg += "; this edition is an extract, load the rest of it to resolve it"
    return msg + ("; " + "; ".join(hints) if hints else "")


def _date_mismatch(primary: dict[str, Edition], results: Sequence[RulesResult]) -> list[Diagnostic]:
    """Warn that aligning editions of different dates may pair rules that were renumbered in between."""
    dates = {ed.effective_date for ed in primary.values()}
    if len(primary) < 2 or len(dates) == 1:
        return []
    source = {res.document.id: res.document.source for res in results}
    described = ", ".join(f"{lang} {ed.effective_date or 'undated'}" for lang, ed in primary.items())
    first = next(iter(primary.values()))
    message = (
        f"aligned editions have different effective dates ({described}); rules renumbered between "
        "editions will be paired wrongly: add the matching edition of each language"
    )
    return [Diagnostic("note", source[first.documents[0]], 0, message)]


def link_rules(results: Sequence[RulesResult], glossary: Sequence[GlossaryEntry]) -> RuleLinks:
    """Resolve every reference within its edition, build backlinks and the alignment."""
    editions, diags = group_editions(results)
    edition_of = {doc: ed.id for ed in editions for doc in ed.documents}
    by_id = {ed.id: ed for ed in editions}
    primary = primary_editions(editions)
    diags += _date_mismatch(primary, results)
    refs: dict[tuple[str, str], tuple[ResolvedRef, ...]] = {}
    cited: dict[tuple[str, str], list[str]] = {}
    for ed in editions:
        for rule in ed.rules.values():
            resolved = _resolve(ed, rule.references)
            refs[(ed.id, rule.number)] = resolved
            for ref in resolved:
                if ref.resolved:
                    cited.setdefault((ed.id, ref.target), []).append(rule.number)
                else:
                    severity = "warning" if ed.complete else "note"
                    message = _unresolved_message(f"rule {rule.number}", ref.target, ed, primary, rule.number)
                    diags.append(Diagnostic(severity, rule.source.path, rule.source.line, message))
    glossary_refs = {}
    for entry in glossary:
        ed = by_id[edition_of[entry.document]]
        glossary_refs[entry.key] = _resolve(ed, entry.references)
        for ref in glossary_refs[entry.key]:
            if not ref.resolved:
                severity = "warning" if ed.complete else "note"
                message = _unresolved_message(f"glossary '{entry.term}'", ref.target, ed, {}, "")
                diags.append(Diagnostic(severity, entry.source.path, entry.source.line, message))
    backlinks = {k: tuple(dict.fromkeys(v)) for k, v in cited.items()}
    return RuleLinks(tuple(editions), edition_of, refs, backlinks, glossary_refs, _align(primary), tuple(diags))
