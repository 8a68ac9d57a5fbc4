"""A rule's story across the editions loaded: its trace (the JSON the API serves and `kb show --trace` prints) and
the terminal's view of it (`kb show NUMBER --history`): the rule's title and text, its own changes edition by edition,
and its subrules' changes as a tree (added, reworded, renumbered, split, merged; removed ones last)."""

from __future__ import annotations

import re
from typing import Any

from kb.export.terminal import PLAIN, Marks, printable, wrap_styled
from kb.link.editions import changelog
from kb.link.editions.history import rule_history, rule_text
from kb.model import Rule
from kb.model.base import KnowledgeBase
from kb.model.numbers import descends, sort_key

CONTEXT_WORDS = 8
"""Unchanged words a history's word diff keeps on each side of a change (the rest cut to `…`)."""
NAME_CHARS = 40
"""A rule without a title is named by its text when this short (`702.19 Trample`)."""
CHANGES = {
    "origin": "origin",
    "added": "added",
    "same": "same",
    "changed": "reworded",
    "renumbered": "renumbered",
    "split": "split",
    "merged": "merged",
    "removed": "removed",
}
"""Lineage's statuses as a trace says them: `changed` (same number, new text) is `reworded`."""


def trace(kb: KnowledgeBase, rule: Rule) -> dict[str, Any]:
    """A rule's trace: `{"lang", "number", "edition", "title", "editions": [id], "trace": [{"edition", "date",
    "number", "change", "reworded", "minor", "from", "confidence", "diff"}]}`, oldest first, one entry per edition
    loaded in which the rule (under any number) stands."""
    chain = kb.links.lineage.get(rule.lang)
    eid = kb.edition_of(rule).id
    steps = []
    if chain is not None and eid in chain.editions:
        confidences = {ed: c for ed, _n, _s, c in chain.chain(eid, rule.number)}
        for edition, number, status, diff in rule_history(kb, rule):
            steps.append(_step(kb, chain, edition, number, status, diff, confidences.get(edition, 1.0)))
    else:
        steps.append(_step(kb, None, eid, rule.number, "origin", (), 1.0))
    editions = list(chain.editions) if chain is not None and eid in chain.editions else [eid]
    return {
        "lang": rule.lang,
        "number": rule.number,
        "edition": eid,
        "title": rule.title,
        "editions": editions,
        "trace": steps,
    }


def _step(kb: KnowledgeBase, chain, edition: str, number: str, status: str, diff, confidence: float) -> dict:
    """One edition of a trace: the rule's number there and how it came from the previous edition."""
    found = (chain.backward(edition, number) if number else ()) if chain is not None else ()
    before = sorted({link.old for link in found if link.old}, key=sort_key)
    minor = _minor(kb, chain, edition, before, number) if diff and len(before) == 1 and _may_be_minor(diff) else None
    return {
        "edition": edition,
        "date": kb.editions[edition].effective_date,
        "number": number or None,
        "change": CHANGES.get(status, status),
        "reworded": bool(diff),
        "minor": minor,
        "from": before,
        "confidence": round(confidence, 3),
        "diff": [[op, text] for op, text in diff],
    }


_MINOR_HINT = re.compile(r"\d|\b(?:he|she|her|him|his|hers|himself|herself|they|their|them|theirs|themselves)\b", re.I)


def _may_be_minor(diff) -> bool:
    """Whether what a word diff deletes and inserts could be only pronouns or cited numbers (most rewordings are not:
    their full texts need not be compared again)."""
    return all(_MINOR_HINT.search(text) for op, text in diff if op != "equal")


def _minor(kb: KnowledgeBase, chain, edition: str, before: list[str], number: str) -> str | None:
    """`pronoun` or `reference` when a rewording only wrote `they` for `he or she` or only followed renumbered rules
    it cites (`kb diff` lists those only with --all), else None."""
    k = chain.editions.index(edition)
    old = kb.editions[chain.editions[k - 1]].rules.get(before[0])
    new = kb.editions[edition].rules.get(number)
    if old is None or new is None:
        return None
    renumbered = _renumbered(chain, k - 1)
    a, b = rule_text(old), rule_text(new)
    if changelog.references_followed(a, b, renumbered):
        return "reference"
    return "pronoun" if changelog.pronouns_only(a, b, renumbered) else None


_MOVED: dict[int, tuple[object, dict[str, str]]] = {}
"""id of a step of lineage -> (the step, kept so that its id stays its own; `_renumbered` of it)."""


def _renumbered(chain, k: int) -> dict[str, str]:
    """Old number -> new number of the rules that moved between editions `k` and `k + 1` (the surest link)."""
    step = chain.steps[k]
    kept = _MOVED.get(id(step))
    if kept is not None and kept[0] is step:
        return kept[1]
    found: dict[str, tuple[float, str]] = {}
    for link in step.links:
        if link.old and link.new and link.old != link.new and link.confidence > found.get(link.old, (0.0, ""))[0]:
            found[link.old] = (link.confidence, link.new)
    if len(_MOVED) >= 16:
        _MOVED.clear()
    _MOVED[id(step)] = (step, moved := {old: new for old, (_, new) in found.items()})
    return moved


def history_view(kb: KnowledgeBase, rule: Rule, width: int = 100, marks: Marks = PLAIN) -> str:
    """`kb show NUMBER --history` for one language's rule: its title and text, its own trace edition by edition, its
    subrules' changes as a tree, and the subrules removed on the way."""
    story = trace(kb, rule)
    span = f"{story['editions'][0]} -> {story['editions'][-1]}" if len(story["editions"]) > 1 else story["edition"]
    name = rule.title or (rule.text if len(rule.text) <= NAME_CHARS and "\n" not in rule.text else "")
    lines = [marks("strong", printable(f"{rule.number} {name}".rstrip(), newlines=False)) + f" [{rule.lang}]"]
    lines.append(f"history in {len(story['editions'])} edition{'s' * (len(story['editions']) > 1)}: {span}")
    if rule.text and rule.text != name:
        lines += wrap_styled([("equal", printable(rule.text))], width, "  ", marks)
    lines += ["", "  " + marks("strong", rule.number)]
    lines += _own(story, width, marks, "    ")
    edition = kb.edition_of(rule)
    children = [edition.rules[c] for c in rule.children if c in edition.rules]
    if children:
        lines += ["", marks("strong", "Subrules") + " (changes since the first edition loaded):"]
        lines += _tree(kb, children, edition, width, marks, "")
    gone = _removed(kb, story)
    if gone:
        lines += ["", marks("strong", "Removed on the way") + ":"]
        for old_edition, number, removed_in, text in gone:
            lines.append(f"  - {number} ({old_edition}), removed in {removed_in}")
            lines += wrap_styled(
                [("delete" if marks is not PLAIN else "equal", printable(text))], width, "      ", marks
            )
    return "\n".join(lines)


def elided(diff, keep: int = CONTEXT_WORDS) -> list[tuple[str, str]]:
    """A word diff's pieces (safe to print) with each long unchanged stretch cut to its first and last `keep`
    words around `…` (the start of the text and its end keep only the words next to a change)."""
    out = []
    for i, (op, text) in enumerate(diff):
        words = text.split(" ")
        if op == "equal" and len(words) > 2 * keep + 1:
            head = " ".join(words[:keep]) + " " if i else ""
            tail = " " + " ".join(words[-keep:]) if i < len(diff) - 1 else ""
            text = f"{head}…{tail}"
        out.append((op, printable(text)))
    return out


def _own(story: dict, width: int, marks: Marks, indent: str) -> list[str]:
    """A rule's own editions, one line each, with the word diff where its text changed."""
    lines = []
    for step in story["trace"]:
        lines.append(f"{indent}{step['date'] or step['edition']}  {step['number'] or '-':8} {_said(step)}")
        if step["diff"]:
            lines += wrap_styled(elided(step["diff"]), width, indent + "  ", marks)
    return lines


def _said(step: dict) -> str:
    """How a step came about in words: `renumbered from 702.19c, reworded (pronouns only)`."""
    change = step["change"]
    said = change
    if change in ("renumbered", "split", "merged") and step["from"]:
        said += " from " + ", ".join(step["from"])
    if step["reworded"] and change != "reworded":
        said += ", reworded"
    if step["minor"]:
        said += " (pronouns only)" if step["minor"] == "pronoun" else " (references only)"
    if step["confidence"] < 0.7:
        said += f", confidence {step['confidence']:.2f}"
    return said


def _tree(kb: KnowledgeBase, rules: list[Rule], edition, width: int, marks: Marks, prefix: str) -> list[str]:
    """Subrules as a tree, each with what changed in it (or since when it is the same), its diffs beneath."""
    lines = []
    for i, rule in enumerate(rules):
        last = i == len(rules) - 1
        story = trace(kb, rule)
        changed = [s for s in story["trace"][1:] if s["change"] != "same" or s["reworded"]]
        first = story["trace"][0]
        if not changed:
            since = first["date"] or first["edition"]
            said = f"{since}: added" if first["change"] == "added" else f"same since {since}"
        else:
            said = "; ".join(f"{s['date'] or s['edition']}: {_said(s)}" for s in changed)
        lines.append(f"{prefix}{'└─ ' if last else '├─ '}{marks('strong', rule.number)}  {said}")
        inner = prefix + ("   " if last else "│  ")
        for step in changed:
            if step["diff"]:
                lines += wrap_styled(elided(step["diff"]), width, inner + "   ", marks)
        if first["change"] == "added" and not changed and rule.text:
            lines += wrap_styled([("equal", printable(rule.text))], width, inner + "   ", marks)
        kids = [edition.rules[c] for c in rule.children if c in edition.rules]
        lines += _tree(kb, kids, edition, width, marks, inner)
    return lines


def _removed(kb: KnowledgeBase, story: dict) -> list[tuple[str, str, str, str]]:
    """(edition, number, the edition it was gone from, text) of the subrules of the rule's earlier numbers that the
    next edition removed."""
    chain = kb.links.lineage.get(story["lang"])
    if chain is None or story["edition"] not in chain.editions:
        return []
    found = []
    for step in story["trace"][:-1]:
        k = chain.editions.index(step["edition"])
        edition = kb.editions[step["edition"]]
        head = step["number"]
        for number in sorted(edition.rules, key=sort_key):
            if not descends(number, head) or number == head:
                continue
            links = chain.steps[k].by_old.get(number, ())
            if links and all(link.new is None for link in links):
                found.append((step["edition"], number, chain.editions[k + 1], edition.rules[number].text))
    return found
