"""Rule histories and changes pages as HTML: word diffs (`<del>`, `<ins>`), numbers across editions.

A diff is the same in every interface: it is rendered once per build (`Linker.cached`) and shared by the
rule page's history and the changes page; only the interface words around it are written per interface.
Unchanged stretches of text are cut to a few words on each side of a change: the full text is on the page.
"""

from __future__ import annotations

import re

from markupsafe import Markup, escape

from kb.link.editions.history import Change
from kb.model.base import KnowledgeBase
from kb.site.editions import ChangesPage, PageHistory, Story, today_row
from kb.site.gather import SiteData
from kb.site.labels import lang_label, long_date
from kb.site.render import Linker, tip, with_symbols

CONTEXT = 8
"""Words of unchanged text kept on each side of a change."""
_WORD = re.compile(r"\s*\S+\s*")
_ENDS = re.compile(r"[.!?:;»”)]\s+$|\n")


def diff_html(ops: tuple[tuple[str, str], ...], lang: str) -> str:
    """A word diff as HTML: removed words in `<del>`, added ones in `<ins>`, long unchanged stretches cut."""
    out, last = [], len(ops) - 1
    for i, (op, text) in enumerate(ops):
        if op == "equal":
            out.append(text_html(_cut(text, i > 0, i < last), lang))
        else:
            tag, word = "del" if op == "delete" else "ins", text.rstrip()
            out.append(f"<{tag}>{text_html(word, lang)}</{tag}>{text_html(text[len(word) :], lang)}")  # spaces unmarked
    return "".join(out)


def _cut(text: str, after: bool, before: bool) -> str:
    """Unchanged text kept only near the changes it stands `after` and `before`, the middle replaced by `…`: the
    rest of the sentence a change ends in, the start of the sentence the next one begins in (a few words more
    or less than `CONTEXT` each side to stop at a sentence's end rather than mid-sentence)."""
    words = _WORD.findall(text)
    if len(words) <= CONTEXT * 4 + 2 or (not after and not before):
        return text
    head = "".join(words[: _sentence_end(words, CONTEXT)]).rstrip() + " …" if after else "…"
    tail = " " + "".join(words[-_sentence_start(words, CONTEXT) :]) if before else ""
    return head + tail


def _sentence_end(words: list[str], near: int) -> int:
    """How many words to keep from the start: up to the end of a sentence within 3 * `near` words, else `near`."""
    return next((i + 1 for i in range(min(len(words), near * 3)) if _ENDS.search(words[i])), near)


def _sentence_start(words: list[str], near: int) -> int:
    """How many words to keep at the end: from the start of a sentence within 3 * `near` words, else `near`."""
    return next((i for i in range(1, min(len(words), near * 3)) if _ENDS.search(words[-i - 1])), near)


def text_html(text: str, lang: str) -> str:
    """Escaped text with its symbols drawn, line breaks kept."""
    return str(with_symbols(text, lang)).replace("\n", "<br>")


def cached_diff(ln: Linker, lang: str, old: tuple[str, str], new: tuple[str, str], ops) -> Markup:
    """The diff between a rule of one edition (edition, number) and of the next, rendered once per build."""
    return ln.cached(("diff", lang, *old, *new), lambda: diff_html(ops, lang))


def edition_label(kb: KnowledgeBase, edition: str, ui: str) -> str:
    """An edition as a reader names it: its effective date in the interface's words, else its id."""
    found = kb.editions.get(edition)
    return long_date(found.effective_date, ui) if found is not None and found.effective_date else edition


def history_html(history: PageHistory, ui: str, t: dict[str, str], ln: Linker, data: SiteData) -> Markup:
    """A rule page's history in one language: collapsed, then numbers in each edition and word diffs."""
    kb, lang = data.kb, history.lang
    names = _short_names(kb, history.editions, ui)
    count = t["history_count"].format(n=len(history.editions), changed=len(history.stories))
    out = [
        '<details class="history">\n',
        f"<summary>{escape(t['history_summary'].format(lang=lang_label(lang, ui)))} "
        f'<span class="count">({escape(count)})</span></summary>\n<div class="history-body">\n',
    ]
    out += _translated(history, ui, t, data)
    if history.stories:
        out.append(
            f'<p class="diff-legend"><del>{escape(t["diff_removed"])}</del> <ins>{escape(t["diff_added"])}</ins></p>\n'
            '<ol class="stories">\n'
        )
        out += [_story(story, lang, names, ui, t, ln, data) for story in history.stories]
        out.append("</ol>\n")
    for ed, rows in history.new:
        links = ", ".join(f'<a href="{_row_href(row, ln)}">{escape(row)}</a>' for row in rows)
        date = edition_label(kb, ed, ui)
        out.append(f"<p>{escape(t['history_new'].format(date=date, colon=t['colon']))} {links}</p>\n")
    if history.same:
        out.append(f"<p>{escape(t['history_same'].format(n=history.same))}</p>\n")
    out += _changes_links(history, ui, t, ln, data)
    out.append("</div>\n</details>\n")
    return Markup("".join(out))


def _row_href(row: str, ln: Linker) -> str:
    """`#row` on the rule page showing a history, or the part of a cut rule holding the row (`702-2.html#702.21`)."""
    part = ln.part_of(row)
    return escape(f"{part.rsplit('/', 1)[-1] if part else ''}#{row}")


def _short_names(kb: KnowledgeBase, editions: tuple[str, ...], ui: str) -> dict[str, str]:
    """Each edition by its year when no two share one, else by its full date."""
    years = {ed: (kb.editions[ed].effective_date or "")[:4] for ed in editions if ed in kb.editions}
    if all(years.get(ed) for ed in editions) and len(set(years.values())) == len(editions):
        return years
    return {ed: edition_label(kb, ed, ui) for ed in editions}


def _translated(history: PageHistory, ui: str, t: dict[str, str], data: SiteData) -> list[str]:
    """The line saying which of these editions each translation on the page was made from."""
    out = []
    for other, (edition, _score, _how) in data.kb.links.alignment.counterparts.items():
        if edition in history.editions and data.kb.editions[edition].lang == history.lang:
            date = edition_label(data.kb, edition, ui)
            text = t["history_translated"].format(lang=lang_label(other, ui), date=date)
            out.append(f'<p class="hint">{escape(text)}</p>\n')
    return out


def _story(story: Story, lang: str, names: dict[str, str], ui: str, t: dict[str, str], ln: Linker, data) -> str:
    """One rule across its editions: its number in each, what happened, the word diff of each change."""
    parts, diffs = [], []
    for i, (edition, number, status, ops) in enumerate(story.steps):
        moved = escape(t.get(f"status_{status}", status)) if i and status not in ("same", "changed") else ""
        parts.append(
            f'<span class="hist-step">{escape(number)} <span class="hint">({escape(names.get(edition, edition))}'
            f"{f', {moved}' if moved else ''})</span></span>"
        )
        if ops:
            before = story.steps[i - 1]
            diff = cached_diff(ln, lang, (before[0], before[1]), (edition, number), ops)
            diffs.append(f'<p class="diff" lang="{escape(lang)}">{diff}</p>\n')
    stale = ""
    if story.row in data.stale and lang == data.kb.reference:
        stale = f' <span class="badge" title="{escape(t["history_stale_title"])}">{escape(t["history_stale"])}</span>'
    link = f'<a class="toc-num" href="{_row_href(story.row, ln)}">{escape(story.row)}</a>'
    head = f"{link}{t['colon']} {' → '.join(parts)}{stale}"
    return f"<li>{head}\n{''.join(diffs)}</li>\n"


def _changes_links(history: PageHistory, ui: str, t: dict[str, str], ln: Linker, data: SiteData) -> list[str]:
    """Links to the changes pages between the editions of the history."""
    out = []
    for page in data.changes:
        if page.lang == history.lang and page.diff.old in history.editions and page.diff.new in history.editions:
            label = changes_label(page, ui, t, data.kb)
            out.append(f'<p><a href="{ln.root}{escape(page.path)}">{escape(label)}</a></p>\n')
    return out


def changes_label(page: ChangesPage, ui: str, t: dict[str, str], kb: KnowledgeBase) -> str:
    """`règles en anglais, du 26 septembre 2015 au 16 janvier 2026`."""
    old, new = edition_label(kb, page.diff.old, ui), edition_label(kb, page.diff.new, ui)
    name = lang_label(page.lang, ui)
    return t["changes_link"].format(lang=name, Lang=name.capitalize(), old=old, new=new)


def change_numbers(change: Change, page: ChangesPage, ln: Linker, data: SiteData) -> str:
    """`120.2 → 121.2`: the old number as it was, the new one linked to the row showing that rule today (a tooltip
    in the text's language gives today's number when it is another)."""
    parts = []
    if change.old and change.status not in ("added", "changed"):
        parts.append(f'<span class="old-num">{escape(change.old)}</span>')
    if change.new:
        row = today_row(data.kb, data.rows, page.lang, page.diff.new, change.new)
        date = data.kb.editions[page.diff.new].effective_date or page.diff.new
        title = tip("dated", change.new, date, row) if row and row != change.new else ""
        parts.append(ln.row_link(row, page.lang, change.new, title, preview=False) if row else escape(change.new))
    return " → ".join(parts)
