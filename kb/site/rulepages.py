"""A rule page's rows: each number with its rule in every language, cut into runs and parts.

Planned once, before any page is rendered (`rule_pages`, called by `kb.site.gather`): the pages, their parts and
rows, the rows shown on later parts, the texts too long to be shown whole, each page's history.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from kb.model import Rule
from kb.model.base import KnowledgeBase
from kb.model.numbers import sort_key
from kb.site import parts
from kb.site.editions import PageHistory, page_history
from kb.sources import file_slug

DEPTH = {"section": 0, "rule": 0, "numbered": 1, "subrule": 2}


@dataclass(frozen=True, slots=True)
class Row:
    """One rule number on a rule page, with the rule in each language (None where a language lacks it)."""

    number: str
    """The row's number: the reference language's (a cell's own number may differ, see `Rule.number`)."""
    depth: int
    cells: dict[str, Rule | None]
    fallback: dict[str, str]
    """Language -> id of the edition a cell's rule comes from, when it is not that language's aligned edition."""
    cited_by: dict[str, tuple[str, ...]]
    """Language -> numbers of the rules that cite it."""
    mentions: tuple[tuple[str, str], ...]
    """(item, site path) of the rulings' cards and notes that cite it (`gather.mention_label`)."""
    label: str = ""
    """The number shown, when it is not the row's key (a translated rule with no counterpart today: `703.4h`)."""

    @property
    def langs(self) -> tuple[str, ...]:
        """Languages that have text for this row, in display order."""
        return tuple(lang for lang, rule in self.cells.items() if rule is not None)


@dataclass(frozen=True, slots=True)
class Run:
    """Consecutive rows of a rule page that have text in the same languages: a grid, or one column."""

    langs: tuple[str, ...]
    """Languages with text in every row of the run (one: the run is shown as a single column)."""
    missing: tuple[str, ...]
    """Languages of the site with no text in the run."""
    rows: tuple[Row, ...]
    inline: bool = False
    """A short one-language run among aligned rows: kept in its language's column of the grid, not widened."""

    @property
    def span(self) -> str:
        """`702.1–702.190`, or the one number."""
        first, last = self.rows[0].label or self.rows[0].number, self.rows[-1].label or self.rows[-1].number
        return first if first == last else f"{first}–{last}"


@dataclass(frozen=True, slots=True)
class RulePage:
    """A top-level rule (`120`) and every number under it."""

    head: str
    titles: dict[str, str]
    numbers: tuple[str, ...]
    """The page's rows, in order: each row's number (its key: `fr-703.4h` for a translation's row of its own)."""
    langs: tuple[str, ...] = ()
    """Languages with text somewhere on the page."""
    part: int = 1
    """Which part of its rule the page is, from 1 (a rule too large for one page is cut, see `kb.site.parts`)."""
    parts: tuple[tuple[str, str], ...] = ()
    """(file name, first–last row) of every part of a cut rule, in order; empty for a rule on one page."""
    rows: tuple[Row, ...] = field(default=(), compare=False, repr=False)
    """Every number of the page, with its rule in each language."""
    runs: tuple[Run, ...] = field(default=(), compare=False, repr=False)
    """The rows cut where the languages present change."""

    @property
    def toc(self) -> tuple[tuple[str, dict[str, str]], ...]:
        """(number, language -> short label) of the page's numbered rules, for the list at the top of long pages."""
        return _toc(self.rows)

    @property
    def file(self) -> str:
        """The page's file name in `rules/`: `702.html`, then `702-2.html`… for the parts of a cut rule."""
        return f"{self.head}.html" if self.part == 1 else f"{self.head}-{self.part}.html"

    @property
    def path(self) -> str:
        """Where the page is written, in each interface tree."""
        return f"rules/{self.file}"

    def label(self, langs: list[str]) -> str:
        """`120 · Piocher une carte · Drawing a Card`: the number and its titles in `langs` order."""
        return " · ".join([self.head, *(self.titles[lang] for lang in langs if lang in self.titles)])

    def title_in(self, ui: str) -> tuple[str, str]:
        """(title, its language) to show in an interface: its own, else another language's."""
        if ui in self.titles:
            return self.titles[ui], ui
        lang = next(iter(self.titles), ui)
        return self.titles.get(lang, ""), lang


@dataclass(frozen=True, slots=True)
class RulePlan:
    """The rule pages of a site, and what the rest of the site reads of them."""

    pages: tuple[RulePage, ...]
    fallbacks: dict[str, list[tuple[str, str]]]
    """Language -> (number, edition id) of the rules shown from an edition other than the aligned one."""
    histories: dict[str, list[PageHistory]]
    """Rule page head -> the history of its rules in each language with several editions."""
    full_texts: dict[tuple[str, str], str]
    """(language, row) -> file of the full text (from the site's root) of a rule too long to be shown whole."""
    row_parts: dict[str, str]
    """Row -> its page, for the rows of a cut rule that are not on its first page (`rules/702-2.html`)."""
    own_rows: dict[str, tuple[str, Rule]]
    """Key of a translation's row of its own (`fr-703.4h`) -> (its language, its rule)."""


def rule_pages(
    kb: KnowledgeBase,
    langs: list[str],
    numbers: list[str],
    mentions: Mapping[tuple[str, str], list[tuple[str, str]]],
    rows_of: dict[str, dict[str, str]],
    diffs: dict,
) -> RulePlan:
    """Group numbers under their three-digit rule; each group is one page (or its parts). A translation's rules
    with no counterpart today get rows of their own (`_add_orphans`), added to `rows_of` (language -> its own
    number -> the row showing it)."""
    groups: dict[str, list[str]] = defaultdict(list)
    for number in numbers:
        head = number.split(".")[0]
        if len(head) == 3:
            groups[head].append(number)
    plan = RulePlan((), {}, {}, {}, {}, {})
    pages: list[RulePage] = []
    for head, members in groups.items():
        rows = []
        for number in members:
            row = make_row(kb, langs, mentions, number)
            for lang, ed in row.fallback.items():
                plan.fallbacks.setdefault(lang, []).append((number, ed))
            rows.append(row)
        _add_orphans(kb, langs, head, rows, plan, rows_of)
        head_rules = kb.aligned(head)
        titles = {lang: r.title for lang, r in head_rules.items() if r.title}
        pages += _parts(plan, head, titles, rows, langs)
        followed = [page_history(kb, lang, _cells(rows, lang), diffs) for lang in langs]
        plan.histories[head] = [found for found in followed if found is not None]
    return replace(plan, pages=tuple(pages))


def make_row(
    kb: KnowledgeBase, langs: list[str], mentions: Mapping[tuple[str, str], list[tuple[str, str]]], number: str
) -> Row:
    """A number's row: its rule in each language, where each comes from, who cites it (`mentions`: (language, rule
    number) -> the (item, site path) citing it)."""
    aligned = kb.aligned(number)
    cells = {lang: aligned.get(lang) for lang in langs}
    fallback = {}
    for lang, rule in aligned.items():
        edition = kb.primary.get(lang)
        if (ed := kb.edition_of(rule).id) != (edition.id if edition else None):
            fallback[lang] = ed
    kind = next(r.kind for r in aligned.values())
    cited = {lang: tuple(r.number for r in kb.cited_by(rule)) for lang, rule in aligned.items()}
    found: dict[str, str] = {}  # path -> item: a card ruled on in both languages is one link
    for lang in langs:
        for item, path in mentions.get((lang, number), ()):
            found.setdefault(path, item)
    return Row(number, DEPTH.get(kind, 2), cells, fallback, cited, tuple((i, p) for p, i in found.items()))


def own_row(kb: KnowledgeBase, langs: list[str], key: str, lang: str, rule: Rule) -> Row:
    """The row of its own of a translation's rule with no counterpart today."""
    cells = {other: (rule if other == lang else None) for other in langs}
    cited = {lang: tuple(r.number for r in kb.cited_by(rule))}
    return Row(key, DEPTH.get(rule.kind, 2), cells, {}, cited, (), rule.number)


def _parts(plan: RulePlan, head: str, titles: dict[str, str], rows: list[Row], langs: list[str]) -> list[RulePage]:
    """A rule's page, or its parts when it is too large for one (cut between numbered rules when it can be);
    rows not on the first part are recorded in `plan.row_parts`, texts too long to be shown whole in
    `plan.full_texts`."""
    for row in rows:
        for lang, rule in row.cells.items():
            if rule is not None and _too_long(rule):
                plan.full_texts[(lang, row.number)] = f"text/{lang}/{file_slug(row.number)}.txt"
    spans = parts.cut([_row_chars(row) for row in rows], [row.depth <= 1 for row in rows], parts.PAGE_CHARS)
    pages, listed = [], []
    for i, span in enumerate(spans):
        found = tuple(rows[span.start : span.stop])
        present = tuple(dict.fromkeys(lang for row in found for lang in row.langs))
        numbers = tuple(row.number for row in found)
        pages.append(RulePage(head, titles, numbers, present, i + 1, rows=found, runs=runs(found, langs)))
        listed.append((pages[-1].file, _span(found)))
    if len(pages) == 1:
        return pages
    for page in pages[1:]:
        plan.row_parts.update(dict.fromkeys(page.numbers, page.path))
    return [replace(page, parts=tuple(listed)) for page in pages]


def _span(rows: list[Row] | tuple[Row, ...]) -> str:
    """`702.1–702.19b`: the first and last numbers of rows."""
    first, last = rows[0].label or rows[0].number, rows[-1].label or rows[-1].number
    return first if first == last else f"{first}–{last}"


def _too_long(rule: Rule) -> bool:
    """Whether a rule's text or one of its examples is too long to be shown whole."""
    return any(len(text) > parts.TEXT_CHARS for text in (rule.text, *rule.examples))


def _row_chars(row: Row) -> int:
    """The estimated characters a row takes on its page: its texts as shown, their links, the markup."""
    size = parts.ITEM_CHARS + parts.LINK_CHARS * min(len(row.mentions), parts.LINKS_SHOWN)
    for lang, rule in row.cells.items():
        if rule is not None:
            texts = (rule.title, rule.text, *rule.examples)
            size += parts.ITEM_CHARS + sum(parts.text_chars(text) for text in texts)
            size += parts.LINK_CHARS * min(len(row.cited_by.get(lang, ())), parts.LINKS_SHOWN)
    return size


def _cells(rows: list[Row], lang: str) -> list[tuple[str, Rule]]:
    """(row number, rule) of a language's cells, orphan rows aside (they have no counterpart to follow)."""
    return [(row.number, cell) for row in rows if not row.label and (cell := row.cells.get(lang)) is not None]


def _add_orphans(
    kb: KnowledgeBase, langs: list[str], head: str, rows: list[Row], plan: RulePlan, rows_of: dict[str, dict[str, str]]
) -> None:
    """Put a translation's rules that have no counterpart today (and whose number today's numbering gives to
    another rule) on their rule's page, after the row of the rule before them, as rows of their own."""
    for lang, orphans in kb.orphans.items():
        for rule in orphans:
            if rule.number.split(".")[0] != head:
                continue
            key = f"{lang}-{rule.number}"
            before = [
                i
                for i, row in enumerate(rows)
                if (cell := row.cells.get(lang)) and sort_key(cell.number) < sort_key(rule.number)
            ]
            at = before[-1] + 1 if before else len(rows)
            plan.own_rows[key] = (lang, rule)
            rows.insert(at, own_row(kb, langs, key, lang, rule))
            rows_of.setdefault(lang, {})[rule.number] = key


INLINE_ROWS = 8
"""A one-language run this short, on a page with aligned rows, stays in its column of the grid."""


def runs(rows: list[Row] | tuple[Row, ...], langs: list[str]) -> tuple[Run, ...]:
    """Cut the rows where the set of languages with text changes."""
    runs: list[Run] = []
    for row in rows:
        if runs and runs[-1].langs == row.langs:
            runs[-1] = Run(row.langs, runs[-1].missing, (*runs[-1].rows, row))
        else:
            runs.append(Run(row.langs, tuple(lang for lang in langs if lang not in row.langs), (row,)))
    if any(len(run.langs) > 1 for run in runs):
        runs = [replace(run, inline=len(run.langs) == 1 and len(run.rows) <= INLINE_ROWS) for run in runs]
    return tuple(runs)


def _toc(rows: tuple[Row, ...]) -> tuple[tuple[str, dict[str, str]], ...]:
    """The numbered rules of a page with a short label in each language (a title, or the start of the text)."""
    toc = []
    for row in rows:
        if row.depth != 1:
            continue
        names = {lang: short_label(rule) for lang, rule in row.cells.items() if rule is not None}
        toc.append((row.number, names))
    return tuple(toc)


_WORD_OR_LINE = re.compile(r"[^\s]+|\n")


def short_label(rule: Rule, words: int = 8) -> str:
    """A rule's title, its text when short (`Deathtouch`), or the first words of its text."""
    if rule.title:
        return rule.title
    found = []  # the first line's words, up to one more than shown (a giant text is never split whole)
    for match in _WORD_OR_LINE.finditer(rule.text):
        if match[0] == "\n" or len(found) > words:
            break
        found.append(match)
    if len(found) <= words:
        return rule.text[found[0].start() : found[-1].end()] if found else ""
    return " ".join(m[0] for m in found[:words]) + "…"
