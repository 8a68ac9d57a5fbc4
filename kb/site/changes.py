"""A changes page for people: substantive changes first, section by section with their counts, then the edits that
only follow a renumbered reference, then the pure renumberings collapsed into runs.

Each substantive change is one line (its numbers, what happened, its rule's title) opening on its word diff, or on
its text for a rule added or removed. The diffs and texts are rendered once per build and shared by the
interface trees; the words around them are the interface's.
"""

from __future__ import annotations

from markupsafe import Markup, escape

from kb.link.changelog import SUBSTANTIVE, section_of
from kb.link.history import Change, title_of
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
    """The substantive changes, one section after the other, each change a line opening on its diff or text."""
    out = []
    for s, title, changes in sections(page, data):
        head = f'{escape(s)}. <span lang="{escape(page.lang)}">{escape(title)}</span>'
        out.append(
            f'<section class="change-section" aria-labelledby="s-{escape(s)}">\n<h3 id="s-{escape(s)}">{head} '
            f'<span class="count">({count(len(changes), ui)})</span></h3>\n<ol class="changes">\n'
        )
        out += [_row(change, page, t, ln, data) for change in changes]
        out.append("</ol>\n</section>\n")
    return Markup("".join(out))


def _row(change: Change, page: ChangesPage, t: dict[str, str], ln: Linker, data: SiteData) -> str:
    """One substantive change: numbers, kind and title on a line, its diff or text under it when opened."""
    diff, lang = page.diff, escape(page.lang)
    edition = diff.new if change.new else diff.old
    title = title_of(data.kb, edition, change.new or change.old or "")
    kind = str(escape(t[f"kind_{change.kind}"]))
    if change.kind == "moved" and section_of(change.old or "") != section_of(change.new or ""):
        kind += f' <span class="hint">{escape(t["changes_moved_from"].format(section=section_of(change.old)))}</span>'
    numbers = change_numbers(change, page, ln, data)
    line = (
        f'<span class="kind k-{change.kind}">{kind}</span> <span class="rule-name" lang="{lang}">{escape(title)}</span>'
    )

    if change.diff:
        body = cached_diff(ln, page.lang, (diff.old, change.old), (diff.new, change.new), change.diff)
    else:
        body = ln.cached(("change-text", page.path, change.old, change.new), lambda: text_html(change.text, page.lang))
    tag = "ins" if change.kind == "added" else "del" if change.kind == "removed" else ""
    shown = f"<{tag}>{body}</{tag}>" if tag else str(body)
    gone = change.status in ("removed", "merged") and change.old  # a removed rule's links lead here
    anchor = f' id="was-{escape(change.old)}"' if gone else ""
    return (
        f'<li class="change"{anchor}><span class="nums">{numbers}</span> <details><summary>{line}</summary>'
        f'<p class="diff" lang="{lang}">{shown}</p></details></li>\n'
    )


def references_html(page: ChangesPage, ui: str, t: dict[str, str], ln: Linker, data: SiteData) -> Markup:
    """The rules whose text changed only by following renumbered rules: `112.1 ← 111.1 : 701.5 → 701.6`."""
    items = []
    for change in page.diff.changes:
        if change.kind != "reference":
            continue
        refs = ", ".join(f"{escape(a)} → {escape(b)}" for a, b in change.references)
        items.append(
            f'<li class="change"><span class="nums">{change_numbers(change, page, ln, data)}</span> '
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
