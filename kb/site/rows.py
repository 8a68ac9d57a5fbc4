"""The rows, the section list and the list of numbered rules of a rule page, as HTML.

Written here rather than in `rule.html` for speed: a whole CR has over 3,000 rows, rendered once per interface
language. A cell's text (rule text, examples, "cited by") is the same in every interface and rendered once per
build; only the interface words around it (tooltips, notes) are written per interface.
"""

from __future__ import annotations

import re

from markupsafe import Markup, escape

from kb.site import parts
from kb.site.editions import edition_name
from kb.site.gather import SiteData, mention_label
from kb.site.labels import count, lang_label, long_date, pick
from kb.site.render import Linker, with_symbols
from kb.site.rulepages import Row, Run

CELL_WORDS = {"fr": "Exemple :", "en": "Example:"}
"""The word before an example, in the cell's language (the rules' own word, part of the text)."""


def run_rows(
    run: Run, rows: tuple[Row, ...], ui: str, t: dict[str, str], ln: Linker, data: SiteData, site_root: str = ""
) -> Markup:
    """The HTML of a run's rows: number link, the inline run's note, one cell per language, mentions.

    `site_root` (from the page to the site's root) leads to the full text of a text too long to be shown whole."""
    multi = len(run.langs) > 1
    out = []
    for i, row in enumerate(rows):
        number, shown = escape(row.number), escape(row.label or row.number)
        if row.label:  # a translation's own rule: its number is not one of today's, never in their column
            out.append(
                f'<div class="row d{row.depth} own-row" id="{number}">\n<span class="num" aria-hidden="true"></span>\n'
            )
        else:
            title = escape(t["permalink"].format(n=row.number))
            out.append(f'<div class="row d{row.depth}" id="{number}">\n')
            out.append(f'<a class="num" href="#{number}" title="{title}">{shown}</a>\n')
        if run.inline and i == 0:
            out += [_inline_note(run, miss, ui, t, data) for miss in run.missing]
        for lang in run.langs:
            cut = data.full_texts.get((lang, row.number))
            note = _cut_note(row.cells[lang], site_root + cut, ui) if cut else ""
            out.append(_cell(row, lang, multi, run.inline, ui, t, ln, data, note))
        if row.mentions:
            shown = row.mentions[: parts.LINKS_SHOWN]
            links = ", ".join(mention_link(data, item, path, ui, ln.root) for item, path in shown)
            links += _more(len(row.mentions) - len(shown), ui)
            out.append(f'<p class="mentions">{escape(t["cited_in"])} {links}</p>\n')
        out.append("</div>\n")
    return Markup("".join(out))


def mention_link(data: SiteData, item: str, path: str, ui: str, root: str) -> Markup:
    """A link to a card or note citing a rule or naming a card, named in the interface's language when it can be."""
    label, lang = mention_label(data, item, ui)
    tag = f' lang="{escape(lang)}"' if lang != ui else ""
    return Markup(f'<a href="{escape(root + path)}"{tag}>{escape(label)}</a>')


def _more(count: int, lang: str) -> str:
    """`, and 12 more` after a list of links cut to `parts.LINKS_SHOWN`, or nothing."""
    return f", {escape(parts.part_words(lang)['more'].format(n=count))}" if count > 0 else ""


def _cut_note(rule, href: str, ui: str) -> str:
    """The note under a rule whose text is shown cut: how much is shown, and a link to the full text."""
    words = parts.part_words(ui)
    shown, total = parts.shown_chars(rule.text), len(rule.text) + sum(len(e) for e in rule.examples)
    note = escape(words["cut"].format(shown=count(shown, ui), total=count(total, ui)))
    link = f'<a href="{escape(href)}" type="text/plain">{escape(words["full"])}</a>'
    return f'<p class="hint cut-note" lang="{escape(ui)}">{note} {link}</p>\n'


def _inline_note(run: Run, miss: str, ui: str, t: dict[str, str], data: SiteData) -> str:
    """The note standing in a short one-language run's missing column, on its first row."""
    span = f"{run.langs[0].upper()} {run.span}" if all(row.label for row in run.rows) else run.span
    names = {"lang": lang_label(miss, ui), "range": span, "other": lang_label(run.langs[0], ui)}
    removed = _removed_since(run, miss, data)
    gone = ""
    if removed:  # shown whatever languages the reader shows: it says what the rules beside it are today
        text = t["removed_run"].format(**names, date=long_date(data.kb.editions[removed].effective_date, ui))
        gone = " gone"
    elif _title_only(run, miss, data):
        edition = data.kb.primary.get(miss)
        key = "missing_title" if edition is not None and edition.complete else "missing_title_extract"
        text = t[key].format(lang=lang_label(miss, ui), n=run.span)
    else:
        text = t["missing_run"].format(**names)
    at = data.langs.index(miss) + 2
    return f'<p class="missing-note{gone}" data-missing="{escape(miss)}" style="--at: {at}">{escape(text)}</p>\n'


def _title_only(run: Run, miss: str, data: SiteData) -> bool:
    """Whether a run is one heading line (a rule's number and title) that `miss` lacks while it has the rule's
    numbered rules: the French extract of 703 opens at 703.1, without the line `703. Actions obligatoires du tour`."""
    if len(run.rows) != 1 or run.rows[0].label:
        return False
    rule = run.rows[0].cells[run.langs[0]]
    if rule is None or not rule.title or rule.text:
        return False
    return any(miss in data.kb.aligned(child) for child in rule.children)


def moved_note(head: str, lang: str, ui: str, t: dict[str, str], data: SiteData, root: str) -> Markup:
    """Where a language's text numbered as a page's rule is shown, when today's numbering gives that text another
    number (the French 120 of the 2015 numbering is today's 121): a sentence with a link, or nothing. The rule's
    heading line, else its first numbered rule, says where it went (`SiteData.shown_today`)."""
    shown = data.shown_today(lang, head)
    if shown is None or shown[1] == head or not shown[1].isdigit():
        return Markup("")
    page, today = shown
    numbering = _numbering(data, lang, t)[1]
    words = escape(t["moved_text"].format(lang=lang_label(lang, ui), n=head, numbering=numbering, today="\x00"))
    link = f'<a href="{escape(root + page)}">{escape(today)}</a>'
    return Markup(" " + str(words).replace("\x00", link))


def _removed_since(run: Run, miss: str, data: SiteData) -> str | None:
    """The edition a run of translated rows was translated from, when lineage says that edition's rules of those
    numbers were removed from the language `miss` since (orphan rows: French 703.4h, a step gone after 2015)."""
    found = data.kb.links.alignment.counterparts.get(run.langs[0])
    chain = data.kb.links.lineage.get(miss)
    source = found[0] if found else ""
    if chain is None or source not in chain.editions or not data.kb.editions[source].effective_date:
        return None
    then = chain.numbers[chain.editions.index(source)]
    gone = all(row.label in then and not chain.today(source, row.label) for row in run.rows if row.label)
    return source if gone and all(row.label for row in run.rows) else None


def _cell(
    row: Row, lang: str, multi: bool, inline: bool, ui: str, t: dict[str, str], ln: Linker, data, note: str = ""
) -> str:
    """One language's cell: the interface's tags (own number, edition) and `note` around the text (rendered once
    per build)."""
    rule = row.cells[lang]
    if multi:
        where = f' data-col="{escape(lang)}"'
    elif inline:
        where = f' style="--at: {data.langs.index(lang) + 2}"'
    else:
        where = ""
    tags = own_row_tag(row, lang, ui, t, data) if row.label else ""
    if not row.label and rule.number != row.number:  # `FR 120.1 (2015)`: its own numbering, named as such
        year, numbering = _numbering(data, lang, t)
        shown = t["own_row" if year else "own_row_undated"].format(lang=lang.upper(), n=rule.number, year=year)
        title = t["own_number"].format(lang=f"{lang_label(lang, ui)} ({numbering})", n=rule.number)
        tags += f'<span class="own-num" title="{escape(title)}">{escape(shown)}</span>\n'
    if row.number in data.stale and lang != data.kb.reference:
        tags += _stale_tag(row.number, lang, ui, t, data)
    if lang in row.fallback:
        kb, edition = data.kb, row.fallback[lang]
        shown = long_date(kb.editions[edition].effective_date, ui) or edition_name(kb, edition, ui)
        title = t["fallback"].format(
            aligned=edition_name(kb, kb.primary[lang].id, ui), edition=edition_name(kb, edition, ui)
        )
        tags += f'<span class="ed-tag" lang="{escape(ui)}" title="{escape(title)}">{escape(shown)}</span>\n'
    key = ("cell", lang, row.number, ui) if (lang, rule.number) in data.miscited else ("cell", lang, row.number)
    body = ln.cached(key, lambda: _cell_text(row, lang, ln))  # flagged citations: in the interface's words
    citing = row.cited_by.get(lang)
    if citing:  # the links are the same in every interface, the words around them the interface's
        links = ln.cached(("cited", lang, row.number), lambda: _cited_links(citing, lang, ln))
        more = _more(len(citing) - parts.LINKS_SHOWN, ui)
        body += Markup(f'<p class="cited"><span lang="{escape(ui)}">{escape(t["cited_by"])}</span> {links}{more}</p>\n')
    term = data.rule_labels.get((ui, row.number)) if ui not in row.langs else None
    if term:  # the interface's term first on the rule's own first line: `Piétinement* · Trample`
        body = Markup(FIRST_P.sub(lambda m: m.group(0) + str(lex_first(term, ui, t)), str(body), count=1))
    return f'<div class="cell"{where} lang="{escape(lang)}">\n{tags}{body}{note}</div>\n'


def _stale_tag(row: str, lang: str, ui: str, t: dict[str, str], data) -> str:
    """`texte anglais modifié depuis 2015` on a translated rule whose original changed since the edition it is
    compared with (its history, under the rule, shows how), or nothing."""
    kb = data.kb
    since = next((s.since for s in kb.links.alignment.stale if s.lang == lang and s.ref_number == row), None)
    if since is None:
        return ""
    year = (kb.editions[since].effective_date or "")[:4]
    shown = t["stale_tag"].format(lang=lang_label(kb.reference, ui), year=year)
    return f'<span class="badge stale-tag" title="{escape(t["history_stale_title"])}">{escape(shown)}</span>\n'


def _numbering(data, lang: str, t: dict[str, str]) -> tuple[str, str]:
    """(year, `numérotation 2015`) of the numbering a language's text uses ('' and its words when unknown)."""
    edition = data.kb.numbering(lang)
    year = (data.kb.editions[edition].effective_date or "")[:4] if edition else ""
    return year, t["numbering_edition"].format(year=year) if year else t["numbering_unknown"]


def own_row_tag(row: Row, lang: str, ui: str, t: dict[str, str], data) -> str:
    """The number of a translation's own row, as such: `FR 703.4h (2015)`, a link to the row."""
    year, numbering = _numbering(data, lang, t)
    shown = t["own_row" if year else "own_row_undated"].format(lang=lang.upper(), n=row.label, year=year)
    title = t["own_row_title"].format(n=row.label, lang=lang_label(lang, ui), edition=numbering)
    href = escape(f"#{row.number}")
    return f'<a class="own-row-num" href="{href}" title="{escape(title)}" lang="{escape(ui)}">{escape(shown)}</a>\n'


def _cell_text(row: Row, lang: str, ln: Linker) -> str:
    """A cell's text: title, paragraphs and examples, in the cell's language."""
    rule = row.cells[lang]
    example = CELL_WORDS.get(lang, CELL_WORDS["en"])
    out = [f'<p class="rule-title">{escape(rule.title)}</p>\n'] if rule.title else []
    out.append(ln.paragraphs(parts.shown_text(rule.text), lang, rule.number) + "\n")
    out += [
        f'<p class="example"><em>{escape(example)}</em> {ln.text(parts.shown_text(e), lang, rule.number)}</p>\n'
        for e in rule.examples
    ]
    return "".join(out)


def _cited_links(citing: tuple[str, ...], lang: str, ln: Linker) -> str:
    """Links to the rules citing a rule, cut to `parts.LINKS_SHOWN`."""
    return ", ".join(ln.rule_link(n, lang) for n in citing[: parts.LINKS_SHOWN])


def lex_first(term: str, ui: str, t: dict[str, str]) -> Markup:
    """A term of the interface's language set before a text lacking it (the interface's language first), marked:
    `Piétinement* · Trample`."""
    return Markup(
        f'<span class="lex"><i lang="{escape(ui)}">{escape(term)}</i>'
        f'<abbr class="lex-mark" lang="{escape(ui)}" title="{escape(t["lex_mark"])}">*</abbr> · </span>'
    )


def lex_legend(t: dict[str, str], ui: str) -> Markup:
    """The line explaining the mark of terms found on printed cards."""
    legend = escape(t["lex_legend"])
    return Markup(f'<p class="lex-legend" lang="{escape(ui)}"><span aria-hidden="true">* </span>{legend}</p>\n')


FIRST_P = re.compile(r"<p[^>]*>")
"""The opening tag of a cell's first paragraph."""

_MARKS = {
    "other": re.compile(r'<a class="ref ref-other[^"]*"[^>]*? hreflang="([a-z]+)"[^>]*>([^<]*)</a>'),
    "dated": re.compile(r'<(?:span|a) class="(?:ref-dated|ref-gone)"[^>]*>([^<]*)</'),
    "miscited": re.compile(r'<a class="[^"]*\bref-miscited"[^>]*>([^<]*)</a>'),
    "missing": re.compile(r'<span class="ref-missing"[^>]*>([^<]*)</span>'),
}
"""How the rendered text of a rule page marks a reference that does not simply lead to its rule (`render.Linker`)."""


def marks_legend(html: str, terms: bool, ui: str, t: dict[str, str]) -> Markup:
    """The key to the marks a rule page's text holds (`html`: its rows), each shown on one of its own numbers: a
    reference to another language's text (superscript `EN`), a number no rule of today continues (dotted), a
    translation's citation its original does not make (wavy, `≠`), a rule not loaded (`⚠`), and printed-card terms
    (`*`) when `terms`; nothing when it holds none."""
    items = []
    for lang in dict.fromkeys(m.group(1) for m in _MARKS["other"].finditer(html)):
        label = next(m.group(2) for m in _MARKS["other"].finditer(html) if m.group(1) == lang)
        sample = f'<span class="ref-other" data-lang="{escape(lang)}">{label}</span>'
        items.append((sample, t["mark_other"].format(lang=lang_label(lang, ui))))
    for kind, sample in (
        ("dated", '<span class="ref-dated">{}</span>'),
        ("miscited", '<span class="ref-miscited">{}</span><span class="cite-flag">≠</span>'),
        ("missing", '<span class="ref-missing">{}</span>'),
    ):
        found = _MARKS[kind].search(html)
        if found:
            items.append((sample.format(found.group(1)), t[f"mark_{kind}"]))
    if terms:
        items.append(('<span class="lex-mark">*</span>', t["lex_legend"]))
    if not items:
        return Markup("")
    rows = "".join(f'<li><span class="mark-sample">{sample}</span> {escape(words)}</li>\n' for sample, words in items)
    return Markup(
        f'<aside class="marks" aria-labelledby="marks-h" lang="{escape(ui)}">\n'
        f'<p class="marks-h" id="marks-h">{escape(t["marks"])}</p>\n<ul>\n{rows}</ul>\n</aside>\n'
    )


def titled(title: str, lang: str, term: str | None, ui: str, t: dict[str, str]) -> Markup:
    """A title in its language (its mana symbols drawn); when it is in another language than the interface's and the
    interface's language has a name for it (the terminology's or the printed cards', unofficial), that name first,
    marked, and the title after it."""
    if term and lang != ui:
        return Markup(
            f'<span lang="{escape(ui)}">{escape(term)}</span><abbr class="lex-mark" lang="{escape(ui)}" '
            f'title="{escape(t["lex_mark"])}">*</abbr><span class="lex-orig"> · <span lang="{escape(lang)}">'
            f"{with_symbols(title, ui)}</span></span>"
        )
    return Markup(f'<span lang="{escape(lang)}">{with_symbols(title, ui)}</span>')


def side_list(section: dict, current: str, ui: str, t: dict[str, str], labels: dict[tuple[str, str], str]) -> Markup:
    """The section's rule pages as list items, the current one marked."""
    out = []
    for page in section["rules"]:
        title, lang = page.title_in(ui)
        mark = ' aria-current="page"' if page.head == current else ""
        shown = titled(title, lang, labels.get((ui, page.head)), ui, t)
        out.append(f'<li><a href="{page.head}.html"{mark}>{page.head}. {shown}</a></li>\n')
    return Markup("".join(out))


def toc_list(toc: tuple[tuple[str, dict[str, str]], ...], ui: str, t: dict[str, str], labels: dict) -> Markup:
    """The page's numbered rules as list items, each labelled in the interface's language when it can be, else in
    its own, tagged with it (`121.8 If a spell or ability causes a card… EN`)."""
    out = []
    for number, names in toc:
        label, lang = pick(names, ui)
        term = labels.get((ui, number))
        tag = f' <span class="lang-tag">{escape(lang.upper())}</span>' if lang != ui and not term else ""
        out.append(
            f'<li><a href="#{escape(number)}"><span class="toc-num">{escape(number)}</span> '
            f"{titled(label, lang, term, ui, t)}{tag}</a></li>\n"
        )
    return Markup("".join(out))
