"""Rule lineage across Comprehensive Rules editions, and the text matching built on the same keys.

Each edition is linked to the next by `kb.link.editions.matcher` (what each rule became); here the links are chained
into a `Lineage`, an extract is ranked against editions by its structure (`match_edition`), a quoted text is
found among rules (`match_text`) and two texts are diffed word by word (`word_diff`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from kb.link.editions.matcher import Matcher
from kb.link.editions.similar import (
    HEAD,
    LEADING_NUMBER,
    LETTER,
    is_placeholder,
    jaccard,
    prepare,
    similarity,
    similarity_key,
)
from kb.model.lineage import EditionLinks, Lineage

if TYPE_CHECKING:
    from kb.model import Rule

_DIFF_TOKEN = re.compile(r"\w+\s*|[^\w\s]\s*|\s+")


def link_editions(old: Sequence[Rule], new: Sequence[Rule]) -> EditionLinks:
    """Link every rule of an edition to what it became in the next one."""
    return Matcher(prepare(old), prepare(new)).run()


def build_lineage(editions: Sequence[tuple[str, Sequence[Rule]]]) -> Lineage:
    """Link each edition to the next; `editions` are (id, rules) pairs, oldest first. Two editions are prepared for
    matching at a time (110 editions of the rules, all prepared at once, held 350 MB)."""
    steps, numbers, before = [], [], None
    for _, rules in editions:
        edition = prepare(rules)
        numbers.append(frozenset(n for n, dead in zip(edition.numbers, edition.dead, strict=True) if not dead))
        if before is not None:
            steps.append(Matcher(before, edition).run())
        before = edition
    return Lineage(tuple(ed for ed, _ in editions), tuple(steps), tuple(numbers))


def match_edition(extract: Sequence[Rule], editions: Sequence[tuple[str, Sequence[Rule]]]) -> list[tuple[str, float]]:
    """Rank editions by how well their structure fits an extract in any language: (edition, score in [0, 1]).

    Compared for each extract rule: whether its number exists, its children's numbers, its example count and
    the numbers it cites; and for each parent the extract lacks (rule 120 of an extract of 120.1-120.7), that
    parent's children. Texts are never compared. Best first; ties keep the newer edition (`editions` oldest first)
    first.
    """
    mine = {r.number: r for r in extract}
    under: dict[str, set[str]] = {}  # each parent the extract lacks -> its rules there, grouped in one pass
    for r in extract:
        if r.parent and r.parent not in mine:
            under.setdefault(r.parent, set()).add(r.number)
    ranked = []
    for k, (edition, rules) in enumerate(editions):
        theirs = {r.number: r for r in rules}
        scores = []
        for number, r in mine.items():
            t = theirs.get(number)
            if t is None:
                scores.append(0.0)
                continue
            children = jaccard(set(r.children), set(t.children)) if r.children or t.children else 1.0
            refs = jaccard(set(r.references), set(t.references)) if r.references or t.references else 1.0
            scores.append(0.25 + 0.25 * children + 0.2 * (len(r.examples) == len(t.examples)) + 0.3 * refs)
        for root, present in under.items():
            scores.append(jaccard(present, set(theirs[root].children)) if root in theirs else 0.0)
        ranked.append((edition, round(sum(scores) / max(len(scores), 1), 4), k))
    ranked.sort(key=lambda x: (-x[1], -x[2]))
    return [(edition, score) for edition, score, _ in ranked]


def match_text(quoted: str, rules: Sequence[Rule]) -> tuple[str, float] | None:
    """Find the rule whose text best matches a quoted text, a leading rule number ignored: (number, score in [0, 1])."""
    from rapidfuzz import fuzz, process

    key = similarity_key(LEADING_NUMBER.sub("", quoted, count=1))
    texts = [(r.number, r.title if r.kind in HEAD else r.text) for r in rules]
    live = [(num, similarity_key(text)) for num, text in texts if not is_placeholder(text)]
    if not LETTER.search(key) or not live:
        return None
    top = process.extract(key, [k for _, k in live], scorer=fuzz.ratio, limit=5)
    score, i = max(
        ((similarity(key, k, frozenset(key.split()), frozenset(k.split())), i) for k, _, i in top),
        key=lambda x: (x[0], -x[1]),
    )
    return (live[i][0], round(score / 100, 3)) if score else None


def word_diff(old_text: str, new_text: str) -> tuple[tuple[str, str], ...]:
    """Diff two texts word by word: ('equal' | 'delete' | 'insert', text) ops, spaces and punctuation kept.

    A longest common subsequence of the words (rapidfuzz's Indel opcodes, in C): between two equal runs, what
    the old text loses comes first, then what the new one gains.
    """
    from rapidfuzz.distance import Indel

    a, b = _DIFF_TOKEN.findall(old_text), _DIFF_TOKEN.findall(new_text)
    ops: list[tuple[str, str]] = []
    lost: list[str] = []
    gained: list[str] = []
    for tag, i1, i2, j1, j2 in Indel.opcodes(a, b):
        if tag != "equal":
            lost += a[i1:i2]
            gained += b[j1:j2]
            continue
        _flush(ops, lost, gained)
        ops.append(("equal", "".join(a[i1:i2])))
    _flush(ops, lost, gained)
    return tuple(ops)


def _flush(ops: list[tuple[str, str]], lost: list[str], gained: list[str]) -> None:
    """Append the words lost, then those gained, since the last equal run; empty both lists."""
    if lost:
        ops.append(("delete", "".join(lost)))
    if gained:
        ops.append(("insert", "".join(gained)))
    lost.clear()
    gained.clear()
