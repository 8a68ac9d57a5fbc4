"""Editions on the site: each rule page's history, and one changes page per pair of consecutive editions.

Gathered once per build from lineage (`kb.link.editions.history`); the word diffs are turned into HTML once per build
too (`rows.diff_html`), never once per interface language.
"""

from __future__ import annotations

from dataclasses import dataclass

from kb.link.editions.history import EditionDiff, compare, rule_text
from kb.link.editions.lineage import word_diff
from kb.model import Rule
from kb.model.base import KnowledgeBase
from kb.model.links import StaleRule
from kb.site import labels
from kb.sources import file_slug

Diff = tuple[tuple[str, str], ...]
"""A word diff: (`equal` | `delete` | `insert`, text) ops."""
MOVED = ("renumbered", "split", "merged")
"""Statuses that say a rule moved even when its text did not change."""


@dataclass(frozen=True, slots=True)
class Story:
    """One rule of a page followed across the editions of its language."""

    row: str
    """The row (anchor) showing the rule today."""
    steps: tuple[tuple[str, str, str, Diff], ...]
    """(edition id, number there, how it came from the previous edition, word diff from it), oldest first."""


@dataclass(frozen=True, slots=True)
class PageHistory:
    """What the rules of one page went through, in one language with several editions."""

    lang: str
    """Language of the rules followed."""
    editions: tuple[str, ...]
    """Edition ids the page's rules appear in, oldest first."""
    stories: tuple[Story, ...]
    """Rules whose number or text changed, in page order."""
    same: int
    """Rules found in several editions with the same number and text."""
    new: tuple[tuple[str, tuple[str, ...]], ...]
    """(edition id, rows of the rules that first appear in it), for editions after the first."""


@dataclass(frozen=True, slots=True)
class ChangesPage:
    """The changes between two consecutive editions of a language, on a page of their own."""

    lang: str
    """Language of the editions."""
    diff: EditionDiff
    """The changes, rule by rule, with word diffs."""

    @property
    def path(self) -> str:
        """Where the page is written, in each interface tree (`changes/en-2015-09-26--en-2026-01-16.html`)."""
        return f"changes/{file_slug(self.diff.old)}--{file_slug(self.diff.new)}.html"


def page_history(
    kb: KnowledgeBase, lang: str, rows: list[tuple[str, Rule]], diffs: dict[tuple[str, str, str, str], Diff]
) -> PageHistory | None:
    """The history of a page's rules (row, rule) in a language, or None when it has a single edition.

    `diffs` ((old edition, old number, new edition, new number) -> word diff) are the changes pages' diffs
    (`word_diffs`): a rule's history shows the very diffs its changes page shows, computed once.
    """
    chain = kb.links.lineage.get(lang)
    if chain is None or len(chain.editions) < 2 or not rows:
        return None
    stories, same, new, seen = [], 0, {}, set()
    for row, rule in rows:
        steps = _steps(kb, chain, rule, diffs)
        seen.update(step[0] for step in steps)
        if len(steps) == 1 and steps[0][2] == "added":
            new.setdefault(steps[0][0], []).append(row)
        elif len(steps) > 1 and _moved_or_changed(steps):
            stories.append(Story(row, steps))
        elif len(steps) > 1:
            same += 1
    editions = tuple(ed for ed in chain.editions if ed in seen)
    if len(editions) < 2:
        return None
    ordered_new = tuple((ed, tuple(new[ed])) for ed in editions if ed in new)
    return PageHistory(lang, editions, tuple(stories), same, ordered_new)


def _steps(kb: KnowledgeBase, chain, rule: Rule, diffs) -> tuple[tuple[str, str, str, Diff], ...]:
    """A rule's editions back to its first, oldest first: (edition, number there, how it came, diff from before)."""
    edition = kb.edition_of(rule).id
    if edition not in chain.editions:
        return ()
    line = list(reversed(chain.history(edition, rule.number)))
    out = []
    for i, (ed, number, status) in enumerate(line):
        before = line[i - 1] if i else None
        diff = diffs.get((before[0], before[1], ed, number), ()) if before else ()
        out.append((ed, number, status, diff))
    return tuple(out)


def word_diffs(pages: list[ChangesPage]) -> dict[tuple[str, str, str, str], Diff]:
    """(old edition, old number, new edition, new number) -> word diff of every changed rule of the changes pages."""
    return {
        (page.diff.old, change.old, page.diff.new, change.new): change.diff
        for page in pages
        for change in page.diff.changes
        if change.diff and change.old and change.new
    }


def _moved_or_changed(steps: tuple[tuple[str, str, str, Diff], ...]) -> bool:
    """Whether a rule's number or text changed along its editions."""
    return len({step[1] for step in steps}) > 1 or any(step[3] or step[2] in MOVED for step in steps[1:])


def changes_pages(kb: KnowledgeBase) -> list[ChangesPage]:
    """A changes page for each pair of consecutive editions linked by lineage, each language in turn."""
    pages = []
    for lang, chain in kb.links.lineage.items():
        for old, new in zip(chain.editions, chain.editions[1:], strict=False):
            pages.append(ChangesPage(lang, compare(kb, old, new)))
    return pages


def today_row(kb: KnowledgeBase, rows: dict[str, dict[str, str]], lang: str, edition: str, number: str) -> str | None:
    """The row showing today the rule numbered `number` in an edition of `lang`, followed through lineage.

    Never today's rule of the same number when lineage says the rule moved (or was removed): None then.
    """
    primary = kb.primary.get(lang)
    if primary is not None and edition == primary.id:
        return rows.get(lang, {}).get(number)
    chain = kb.links.lineage.get(lang)
    if chain is None or edition not in chain.editions or primary is None or primary.id not in chain.editions:
        return None
    if chain.editions.index(edition) > chain.editions.index(primary.id):
        return None
    reached = chain.today(edition, number) if chain.editions[-1] == primary.id else ()
    return rows.get(lang, {}).get(reached[0][0]) if reached else None


def stale_diffs(kb: KnowledgeBase) -> list[tuple[StaleRule, str, Diff]]:
    """Each stale translation with the number its original had in the edition translated, and the word diff
    of that original from then to today."""
    found = []
    for stale in kb.links.alignment.stale:
        chain = kb.links.lineage.get(kb.editions[stale.ref_edition].lang)
        if chain is None or stale.ref_edition not in chain.editions:
            continue
        then = next((n for ed, n, _ in chain.history(stale.ref_edition, stale.ref_number) if ed == stale.since), None)
        before, now = (
            kb.editions[stale.since].rules.get(then or ""),
            kb.editions[stale.ref_edition].rules.get(stale.ref_number),
        )
        if before is not None and now is not None:
            found.append((stale, then, word_diff(rule_text(before), rule_text(now))))
    return found


def numbering_of(kb: KnowledgeBase, edition: str) -> str | None:
    """The ISO date of the edition whose numbers an edition follows: its translation's original, when aligned."""
    found = kb.editions.get(edition)
    if found is None:
        return None
    original = kb.links.alignment.counterparts.get(found.lang)
    if original is None or kb.links.alignment.editions.get(found.lang) != edition:
        return None
    source = kb.editions.get(original[0])
    return source.effective_date if source is not None else None


def edition_name(kb: KnowledgeBase, edition: str, ui: str) -> str:
    """An edition as a reader names it, never its id (`extraits français, numérotation 2015`)."""
    found = kb.editions.get(edition)
    if found is None:
        return edition
    numbering = numbering_of(kb, edition)
    return labels.edition_name(ui, found.lang, found.effective_date, found.complete, numbering)
