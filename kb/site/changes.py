"""A changes page for people: substantive changes first, section by section with their counts, then the edits that
only follow a renumbered reference, then the pure renumberings collapsed into runs.

Each substantive change is one line under its rule's title (its numbers, what happened, an excerpt of the change)
opening on its word diff, or on its text for a rule added or removed. The diffs, excerpts and texts are rendered
once per build and shared by the interface trees; the words around them are the interface's.
"""

from __future__ import annotations

import re

from markupsafe import Markup, escape

from kb.link.editions.changelog import SUBSTANTIVE, section_of
from kb.link.editions.history import Change, title_of
from kb.site.diffs import cached_diff, change_numbers, text_html
from kb.site.editions import ChangesPage
from kb.site.gather import SiteData
from kb.site.labels import count
from kb.site.render import Linker


def sections(page: ChangesPage, data: SiteData) -> list[tuple[str, str, list[Change]]]:
    """(section number, its title, its substantive changes), in section order."""
    kb, diff = data.kb, page.diff
    found: dict[str, list[Change]] = {}
    for change in diff.changes:
        if change.kind in SUBSTANTIVE:
            found.setdefault(section_of(change.new or change.old or ""), []).append(change)
    return [(s, title_of(kb, diff.new, s) or title_of(kb, diff.old, s), found[s]) for s in sorted(found)]


def section_picker(page: ChangesPage, ui: str, t: dict[str, str], data: SiteData) -> Markup:
    """Links to each section's changes, with their counts."""
    items = [
        f'<li><a href="#s-{escape(s)}">{escape(s)}. <span lang="{escape(page.lang)}">{escape(title)}</span></a> '
        f'<span class="count">({count(len(changes), ui)})</span></li>'
        for s, title, changes in sections(page, data)
    ]
    label = escape(t["changes_by_section"])
    return Markup(f'<nav class="section-pick" aria-label="{label}"><ul>{"".join(items)}</ul></nav>\n')


def substantive_html(page: ChangesPage, ui: str, t: dict[str, str], ln: Linker, data: SiteData) -> Markup:
    """The substantive changes, one section after the other, grouped by rule under its title, each change a line
    (numbers, kind, an excerpt of the change) opening on its diff or text."""
    out = []
    for s, title, changes in sections(page, data):
        head = f'{escape(s)}. <span lang="{escape(page.lang)}">{escape(title)}</span>'
        out.append(
            f'<section class="change-section" aria-labelledby="s-{escape(s)}">\n<h3 id="s-{escape(s)}">{head} '
            f'<span class="count">({count(len(changes), ui)})</span></h3>\n'
        )
        for rule, group in by_rule(changes).items():
            out.append(_rule_head(rule, len(group), page, ui, ln, data))
            out += [_row(change, page, t, ln, data) for change in group]
            out.append("</ol>\n")
        out.append("</section>\n")
    return Markup("".join(out))


def by_rule(changes: list[Change]) -> dict[str, list[Change]]:
    """Changes grouped by the rule they belong to (`702.9b` -> `702`), in order."""
    found: dict[str, list[Change]] = {}
    for change in changes:
        found.setdefault((change.new or change.old or "").split(".")[0], []).append(change)
    return found


def _rule_head(rule: str, n: int, page: ChangesPage, ui: str, ln: Linker, data: SiteData) -> str:
    """A rule's heading over its changes: its number (linked to today's page), its title, the count."""
    diff, lang = page.diff, escape(page.lang)
    title = title_of(data.kb, diff.new, rule) or title_of(data.kb, diff.old, rule)
    current = data.kb.editions[diff.new].current and (page.lang, rule) in data.texts
    number = f'<a href="{escape(ln.root)}rules/{escape(rule)}.html">{escape(rule)}</a>' if current else escape(rule)
    return (
        f'<h4 class="change-rule">{number}. <span lang="{lang}">{escape(title)}</span> '
        f'<span class="count">({count(n, ui)})</span></h4>\n<ol class="changes">\n'
    )


def _row(change: Change, page: ChangesPage, t: dict[str, str], ln: Linker, data: SiteData) -> str:
    """One substantive change: numbers, kind and an excerpt on a line, its diff or text under it when opened."""
    diff, lang = page.diff, escape(page.lang)
    kind = str(escape(t[f"kind_{change.kind}"]))
    if change.kind == "moved" and section_of(change.old or "") != section_of(change.new or ""):
        kind += f' <span class="hint">{escape(t["changes_moved_from"].format(section=section_of(change.old)))}</span>'
    numbers = change_numbers(change, page, ln, data)
    key = (diff.old, change.old, diff.new, change.new)
    excerpt = ln.cached(("change-excerpt", page.lang, *key), lambda: _excerpt(change, page.lang))
    line = f'<span class="kind k-{change.kind}">{kind}</span> <span class="excerpt" lang="{lang}">{excerpt}</span>'
    if change.diff:
        body = cached_diff(ln, page.lang, (diff.old, change.old), (diff.new, change.new), change.diff)
    else:
        body = ln.cached(("change-text", page.path, change.old, change.new), lambda: text_html(change.text, page.lang))
    tag = "ins" if change.kind == "added" else "del" if change.kind == "removed" else ""
    shown = f"<{tag}>{body}</{tag}>" if tag else str(body)
    gone = change.status in ("removed", "merged") and change.old  # a removed rule's links lead here
    anchor = f' id="was-{escape(change.old)}"' if gone else ""
    anchor += _filtered(change)
    return (
        f'<li class="change"{anchor}><span class="nums">{numbers}</span> <details><summary>{line}</summary>'
        f'<p class="diff" lang="{lang}">{shown}</p></details></li>\n'
    )


def _filtered(change: Change, minor: str = "") -> str:
    """The attributes the page's filters read (`site.js`): the change's numbers, and `data-minor` for a change only
    of pronouns or of references (hidden unless asked for, as `kb diff` lists them only with --all)."""
    numbers = " ".join(n for n in dict.fromkeys((change.new, change.old)) if n)
    minor = minor or change.minor
    return f' data-n="{escape(numbers)}"' + (f' data-minor="{escape(minor)}"' if minor else "")


EXCERPT_WORDS = 16
"""Words an excerpt of a change shows on its line: a few before the first change, the change, what follows."""
_BEFORE = 4
"""Unchanged words kept before the first change of an excerpt."""
_TAGS = {"delete": "del", "insert": "ins"}
_WORD = re.compile(r"\s*\S+\s*")


def _excerpt(change: Change, lang: str) -> str:
    """A change in a few words, as HTML: its first edit with a little context (`… the [-old-]{+new+} word …`), or
    the start of an added or removed rule's text."""
    if not change.diff:
        return text_html(_first_words(change.text, EXCERPT_WORDS), lang)
    ops = change.diff
    first = next((i for i, (op, _) in enumerate(ops) if op != "equal"), len(ops))
    out, left = [], EXCERPT_WORDS
    if first:
        words = _WORD.findall(ops[first - 1][1])
        kept = words[-_BEFORE:]
        out.append(("…" if len(words) > len(kept) else "") + text_html("".join(kept).lstrip(), lang))
        left -= len(kept)
    for op, text in ops[first:]:
        words = _WORD.findall(text)
        if left <= 0 or not words:
            break
        shown, rest = "".join(words[:left]), "…" if len(words) > left else ""
        word = shown.rstrip()  # the spaces after a changed word stay unmarked, as in the diff
        tag = _TAGS.get(op)
        marked = f"<{tag}>{text_html(word, lang)}</{tag}>" if tag else text_html(word, lang)
        out.append(marked + rest + text_html(shown[len(word) :], lang))
        left -= len(words)
    return "".join(out).strip()


def _first_words(text: str, n: int) -> str:
    """The first `n` words of a text, `…` after them when there are more."""
    words = text.split(maxsplit=n)
    return " ".join(words[:n]) + ("…" if len(words) > n else "")


def references_html(page: ChangesPage, ui: str, t: dict[str, str], ln: Linker, data: SiteData) -> Markup:
    """The rules whose text changed only by following renumbered rules: `112.1 ← 111.1 : 701.5 → 701.6`."""
    items = []
    for change in page.diff.changes:
        if change.kind != "reference":
            continue
        refs = ", ".join(f"{escape(a)} → {escape(b)}" for a, b in change.references)
        numbers = change_numbers(change, page, ln, data)
        items.append(
            f'<li class="change"{_filtered(change, "reference")}><span class="nums">{numbers}</span> '
            f'<span class="refs">{escape(t["changes_reference_label"])}{t["colon"]} {refs}</span></li>\n'
        )
    return Markup(f'<ol class="changes compact">\n{"".join(items)}</ol>\n')


def runs_html(page: ChangesPage, ui: str, ln: Linker, data: SiteData) -> Markup:
    """The pure renumberings as runs (`613.2–613.9 → 613.3–613.10`), the first new number linked."""
    items = []
    for run in page.diff.runs():
        first = run.new[0]
        row = data.rows.get(page.lang, {}).get(first) if data.kb.editions[page.diff.new].current else None
        start = ln.row_link(row, page.lang, first, preview=False) if row else escape(first)
        new = start if run.new[0] == run.new[1] else f"{start}–{escape(run.new[1])}"
        old = escape(run.old[0] if run.old[0] == run.old[1] else f"{run.old[0]}–{run.old[1]}")
        items.append(f'<li><span class="old-num">{old}</span> → {new}</li>')
    return Markup(f'<ul class="runs nums">{"".join(items)}</ul>\n')
