"""Rule history across editions: what changed between any two editions of a language, and one rule's story.

Built on lineage (consecutive editions linked rule by rule): two editions further apart are compared by
walking the links forward, the most confident at each step.
"""

from __future__ import annotations

from dataclasses import dataclass

from kb.link.editions import changelog
from kb.link.editions.lineage import word_diff
from kb.model import Rule
from kb.model.base import KnowledgeBase
from kb.model.errors import KbError
from kb.model.links import Edition
from kb.model.numbers import parent_of, sort_key

STATUSES = ("added", "removed", "renumbered", "changed", "split", "merged")
"""Kinds of change a diff lists (unchanged rules are counted, not listed)."""


@dataclass(frozen=True, slots=True)
class Change:
    """One rule's change between two editions."""

    status: str
    """`added`, `removed`, `renumbered`, `changed`, `split` or `merged`."""
    old: str | None
    """Number in the older edition (None when added)."""
    new: str | None
    """Number in the newer edition (None when removed)."""
    text_changed: bool
    """Whether the text differs (typography aside); a renumbered rule may also have changed."""
    diff: tuple[tuple[str, str], ...]
    """Word-level diff of title, text and examples (`equal`/`delete`/`insert`, text), when the text changed."""
    confidence: float
    """Product of the link confidences along the way."""
    kind: str = ""
    """What a reader calls it (`changelog.KINDS`): `wording`, `added`, `removed`, `moved`, `split`, `merged`,
    `reference` (only cited numbers follow a renumbering) or `renumbering` (same text, new number)."""
    references: tuple[tuple[str, str], ...] = ()
    """(old, new) cited numbers of a `reference` change."""
    text: str = ""
    """The rule's text, for an added or removed rule."""
    minor: str = ""
    """`pronoun` for a `wording` change that only writes `they` for `he or she` (`their` for `his or her`…), and may
    follow renumbered rules it cites besides (`changelog.pronouns_only`); "" otherwise."""


@dataclass(frozen=True, slots=True)
class EditionDiff:
    """Every change between two editions of one language."""

    old: str
    """Older edition id."""
    new: str
    """Newer edition id."""
    changes: tuple[Change, ...]
    """Changes in the newer edition's rule order (removed rules in the older edition's order, at the end)."""
    unchanged: int
    """Rules with the same number and text in both."""
    typography: int = 0
    """Of those, rules whose texts differ in typography alone (quotes, dashes, ™/(tm), ®/(r))."""

    def counts(self) -> dict[str, int]:
        """Number of changes per status, and the unchanged rules."""
        found = {status: 0 for status in STATUSES}
        for change in self.changes:
            found[change.status] += 1
        return {**found, "unchanged": self.unchanged}

    def kinds(self) -> dict[str, int]:
        """Number of changes of each kind, in reading order."""
        found = {kind: 0 for kind in changelog.KINDS}
        for change in self.changes:
            found[change.kind] += 1
        return found

    def runs(self) -> list[changelog.Run]:
        """The pure renumberings collapsed into runs of neighbouring rules shifted alike."""
        return changelog.runs([(c.old, c.new) for c in self.changes if c.kind == "renumbering"])


class HistoryError(KbError, ValueError):
    """Two editions cannot be compared (unknown, other languages, not linked); the message says why."""

    status = 2


def rule_text(rule: Rule) -> str:
    """What a diff compares: title, text and examples."""
    return "\n".join(part for part in (rule.title, rule.text, *rule.examples) if part)


def title_of(kb: KnowledgeBase, edition: str, number: str) -> str:
    """The title of the rule (or section) a number belongs to in an edition (`702.9b` -> `Flying`), or ""."""
    rules = kb.editions[edition].rules
    head = rules.get(number.split(".", 1)[0])
    return head.title if head is not None else ""


def find_edition(kb: KnowledgeBase, name: str) -> Edition:
    """An edition by id (`en:2015-09-26`) or date (`2015-09-26`, the reference language first)."""
    if name in kb.editions:
        return kb.editions[name]
    matches = [ed for ed in kb.links.editions if ed.effective_date == name or ed.id.split(":", 1)[-1] == name]
    matches.sort(key=lambda ed: ed.lang != kb.reference)
    if not matches:
        known = ", ".join(ed.id for ed in kb.links.editions) or "none"
        raise HistoryError(f"no edition {name!r}; the editions loaded are: {known}")
    return matches[0]


def _walk(chain, start: int, stop: int, number: str) -> list[tuple[str, float, bool, set[str]]]:
    """Follow a rule from edition `start` to `stop` (all parts of a split): (number there, confidence, text
    changed, statuses met) for each rule it became; empty when it was removed."""
    frontier = [(number, 1.0, False, set())]
    for k in range(start, stop):
        reached = []
        for num, confidence, changed, statuses in frontier:
            for link in chain.steps[k].by_old.get(num, ()):
                if link.new is not None:
                    seen = statuses | {link.status}
                    reached.append((link.new, confidence * link.confidence, changed or link.text_changed, seen))
        frontier = reached
    return frontier


_COMPARED: dict[tuple[int, str, str], tuple[KnowledgeBase, EditionDiff]] = {}
"""(id of a knowledge base, old, new edition) -> (the knowledge base, kept so its id stays its own; their diff): a
build compares consecutive editions twice (the changes pages, the API's editions)."""


def compare(kb: KnowledgeBase, old_name: str, new_name: str) -> EditionDiff:
    """Compare two editions of one language through lineage (the last few comparisons kept: a knowledge base
    never changes)."""
    old, new = find_edition(kb, old_name), find_edition(kb, new_name)
    kept = _COMPARED.get((id(kb), old.id, new.id))
    if kept is not None and kept[0] is kb:
        return kept[1]
    diff = _compare(kb, old, new)
    if len(_COMPARED) >= 8:
        _COMPARED.clear()
    _COMPARED[(id(kb), old.id, new.id)] = (kb, diff)
    return diff


def _compare(kb: KnowledgeBase, old: Edition, new: Edition) -> EditionDiff:
    """`compare` of two editions found."""
    chain = kb.links.lineage.get(old.lang)
    if old.lang != new.lang:
        raise HistoryError(f"{old.id} and {new.id} are in different languages; compare editions of one language")
    if chain is None or old.id not in chain.editions or new.id not in chain.editions:
        raise HistoryError(f"{old.id} and {new.id} are not linked by lineage (an extract, or a single edition)")
    i, j = chain.editions.index(old.id), chain.editions.index(new.id)
    if i >= j:
        raise HistoryError(f"{old.id} is not older than {new.id}; give the older edition first")
    changes, reached, unchanged = [], {}, 0
    for number in old.rules:
        found = [step for step in _walk(chain, i, j, number) if step[0] in new.rules]
        if not found:
            changes.append(Change("removed", number, None, True, (), 1.0))
        for target, confidence, changed, statuses in found:
            statuses = statuses | ({"split"} if len(found) > 1 else set())
            reached.setdefault(target, []).append((number, confidence, changed, statuses))
    for target, sources in reached.items():
        for number, confidence, changed, statuses in sources:
            status = _status(number, target, changed, statuses, len(sources))
            if status is None:
                unchanged += 1
                continue
            diff = word_diff(rule_text(old.rules[number]), rule_text(new.rules[target])) if changed else ()
            changes.append(Change(status, number, target, changed, diff, round(confidence, 3)))
    for number in new.rules:
        if number not in reached:
            changes.append(Change("added", None, number, True, (), 1.0))
    changes, typography = _read(changes, old, new)
    changes.sort(key=lambda c: (c.new is None, sort_key(c.new or c.old or "")))
    return EditionDiff(old.id, new.id, tuple(changes), unchanged + typography, typography)


def _read(changes: list[Change], old: Edition, new: Edition) -> tuple[list[Change], int]:
    """The changes with their kinds (typography never a change, references followed, moves told from the rule they
    now stand under); and how many rules differed in typography alone (now counted unchanged)."""
    renumbered: dict[str, str] = {}  # a split rule's references follow its first part (112.10 -> 113.10, not 113.10b)
    for c in sorted((c for c in changes if c.old and c.new), key=lambda c: sort_key(c.new), reverse=True):
        renumbered[c.old] = c.new
    renumbered = {old: new for old, new in renumbered.items() if old != new}
    out, typography = [], 0
    for c in changes:
        if c.old is None or c.new is None:
            rule = new.rules[c.new] if c.new else old.rules[c.old]
            out.append(Change(c.status, c.old, c.new, True, (), c.confidence, c.status, text=rule_text(rule)))
            continue
        before, after = rule_text(old.rules[c.old]), rule_text(new.rules[c.new])
        if before == after or changelog.fold(before) == changelog.fold(after):
            if c.status == "changed":
                typography += 1
                continue
            kind = c.status if c.status in ("split", "merged") else "renumbering"
            out.append(Change(c.status, c.old, c.new, False, (), c.confidence, kind))
            continue
        refs = changelog.references_followed(before, after, renumbered)
        kind = c.status if c.status in ("split", "merged") else "reference" if refs else "wording"
        if kind == "wording" and _moved(c.old, c.new, renumbered):
            kind = "moved"
        diff = changelog.folded_diff(before, after)
        minor = "pronoun" if kind == "wording" and changelog.pronouns_only(before, after, renumbered) else ""
        out.append(Change(c.status, c.old, c.new, True, diff, c.confidence, kind, refs or (), minor=minor))
    return out, typography


def _moved(old: str, new: str, renumbered: dict[str, str]) -> bool:
    """Whether a reworded rule now stands under another rule than the one its old parent became (706.7a, under
    706.7, is 607.5a, under 607.5): a move, not a renumbering with its parent (420.5g -> 704.5b, 420.5 -> 704.5)."""
    up = parent_of(old)
    return up is not None and old != new and renumbered.get(up, up) != parent_of(new)


def _status(old: str, new: str, changed: bool, statuses: set[str], sources: int) -> str | None:
    """How a rule changed from one edition to the other (None: same number, same text)."""
    if sources > 1 or "merged" in statuses:
        return "merged"
    if "split" in statuses:
        return "split"
    if old != new:
        return "renumbered"
    return "changed" if changed else None


def rule_history(kb: KnowledgeBase, rule: Rule) -> list[tuple[str, str, str, tuple[tuple[str, str], ...]]]:
    """A rule's editions, oldest first: (edition id, number there, status, word diff from the previous one)."""
    chain = kb.links.lineage.get(rule.lang)
    eid = kb.edition_of(rule).id
    if chain is None or eid not in chain.editions:
        return [(eid, rule.number, "origin", ())]
    line = chain.chain(eid, rule.number)
    out, previous = [], None
    for edition, number, status, _confidence in line:
        if number is None:
            out.append((edition, "", "removed", ()))
            break
        here = kb.editions[edition].rules[number]
        diff = ()
        if previous is not None:
            before, after = rule_text(previous), rule_text(here)
            if changelog.fold(before) != changelog.fold(after):  # typography alone is no change, as in `compare`
                diff = word_diff(before, after)
        out.append((edition, number, status, diff))
        previous = here
    return out
