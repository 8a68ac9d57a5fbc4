"""The whole CR on one page per interface language (`cr.html`), for Ctrl+F and printing: every rule, in the
interface's language where that text has it (else in the reference language), then the glossary. Each rule keeps
the anchor of its rule page's row and links to it; the numbers a text cites link within the page. Nothing else: no
previews, no histories, no script, so that a phone opens it."""

from __future__ import annotations

import re

from markupsafe import Markup, escape

from kb.model import Rule
from kb.model.numbers import IN_TEXT
from kb.site.gather import SiteData
from kb.site.labels import words
from kb.site.render import number_page

_NUMBER = re.compile(IN_TEXT.pattern)


def whole_rules(data: SiteData, ui: str) -> Markup:
    """Every rule of the site, section by section, as HTML: its number (a link to its row on its rule page), its own
    number in a translation's numbering when it differs, its text and examples."""
    out: list[str] = []
    ids = {number for page in data.rule_pages for number in page.numbers}
    section = None
    for page in data.rule_pages:
        if page.head[0] != section:
            if section is not None:
                out.append("</section>\n")
            section = page.head[0]
            out.append(_section_head(data, section, ui))
        for number in page.numbers:
            where = data.row_parts.get(number) or number_page(number)
            out.append(_head(page, ui, where) if number == page.head else _rule(data, number, ui, ids, where))
    if section is not None:
        out.append("</section>\n")
    return Markup("".join(out))


def _section_head(data: SiteData, digit: str, ui: str) -> str:
    """A section's heading, its anchor the contents page's (`7`)."""
    found = next((s for s in data.sections if s["number"] == digit), None)
    titles = found["titles"] if found else {}
    lang = ui if ui in titles else next(iter(titles), ui)
    title = escape(titles.get(lang, ""))
    heading = f'<a href="contents.html#{digit}">{digit}.</a>' + (
        f' <span lang="{lang}">{title}</span>' if title else ""
    )
    return f'<section class="cr-section" aria-labelledby="{digit}">\n<h2 id="{digit}">{heading}</h2>\n'


def _head(page, ui: str, where: str | None) -> str:
    """A rule's heading (`121. Piocher une carte`), its title in the interface's language when a text gives it."""
    title, lang = page.title_in(ui)
    link = f'<a href="{escape(where)}#{escape(page.head)}">{escape(page.head)}</a>' if where else escape(page.head)
    return f'<h3 id="{escape(page.head)}">{link}. <span lang="{lang}">{escape(title)}</span></h3>\n'


def _shown(data: SiteData, number: str, ui: str) -> tuple[Rule, str] | None:
    """The rule a row shows on the page and its language: the interface's when it has it, else the reference's,
    else any language's."""
    reference = data.kb.reference or ui
    for lang in dict.fromkeys([ui, reference, *data.langs]):
        rule = data.rule_at(lang, number)
        if rule is not None:
            return rule, lang
    return None


def _rule(data: SiteData, number: str, ui: str, ids: set[str], page: str | None) -> str:
    """One row: a heading for a rule (`702.`), a paragraph for the rules under it."""
    found = _shown(data, number, ui)
    if found is None:
        return ""
    rule, lang = found
    label = escape(rule.number if number.startswith(f"{lang}-") else number)
    link = f'<a href="{escape(page)}#{escape(number)}">{label}</a>' if page else str(label)
    own = (
        f' <span class="own">({lang.upper()} {escape(rule.number)})</span>'
        if rule.number != number and "-" not in number
        else ""
    )
    text = _linked(data, rule.text, rule, lang, ids)
    depth = "d2" if number[-1:].isalpha() else "d1"
    examples = "".join(f'<span class="ex">{_linked(data, ex, rule, lang, ids)}</span>' for ex in rule.examples)
    title = f"<b>{escape(rule.title)}</b> " if rule.title else ""
    return f'<p id="{escape(number)}" class="{depth}" lang="{lang}">{link}{own} {title}{text}{examples}</p>\n'


def _linked(data: SiteData, text: str, rule: Rule, lang: str, ids: set[str]) -> str:
    """A text of a rule as HTML, its cited numbers linked to the rows they are today (a translation's read in its own
    numbering; a number its original does not cite, or that leads nowhere, stays text)."""
    return _with_links(text, ids, lambda cited: _row(data, rule, lang, cited))


def _with_links(text: str, ids: set[str], row=lambda number: number) -> str:
    """A text as HTML, each rule number in it a link to the row `row` reads it as, when that row is on the page."""
    out, last = [], 0
    for match in _NUMBER.finditer(text):
        target, shown = row(match.group(0)), escape(match.group(0))
        out.append(str(escape(text[last : match.start()])))
        out.append(f'<a href="#{escape(target)}">{shown}</a>' if target in ids else str(shown))
        last = match.end()
    out.append(str(escape(text[last:])))
    return "".join(out).replace("\n", "<br>")


def _row(data: SiteData, rule: Rule, lang: str, cited: str) -> str | None:
    """The row a number a rule cites is today: the reference's as it is; a translation's read in its own numbering
    (its own rule of that number, else the number followed to today), never a number its original does not cite."""
    if lang == data.kb.reference:
        return cited
    fixed = data.miscited.get((lang, rule.number), {}).get(cited)
    if fixed is not None:
        return fixed.meant.today if fixed.meant else None
    own = data.rows.get(lang, {}).get(cited)
    if own is not None:
        return own
    reading = data.kb.readings.get(lang, {}).get(cited)
    return reading.today if reading is not None else None


def whole_glossary(data: SiteData, ui: str) -> Markup:
    """Every glossary entry, with the glossary page's anchors, its cited numbers linked within the page."""
    t = words(ui)
    out = []
    ids = {number for page in data.rule_pages for number in page.numbers}
    for lang, entries in data.glossary.items():
        out.append(f'<section class="cr-section cr-glossary" aria-labelledby="cr-gl-{lang}" lang="{lang}">\n')
        out.append(
            f'<h2 id="cr-gl-{lang}" lang="{ui}"><a href="glossary.html">{escape(t["glossary"])}</a></h2>\n<dl>\n'
        )
        for anchor, index in entries:
            entry = data.kb.glossary[index]
            definition = _with_links(entry.definition, ids)
            out.append(f'<dt id="{escape(anchor)}">{escape(entry.term)}</dt><dd>{definition}</dd>\n')
        out.append("</dl>\n</section>\n")
    return Markup("".join(out))
