"""The site's search: kb's own search index (`kb.search`), written as JSON files that the search page ranks with.

The CLI and the site share one analysis, one ranking and the lexicon's translation tables: `kb.search.static`
writes the index that `templates/static/kbsearch.js` reads, so a question gives the same results in `kb search` and
in the browser. Each result links to the page (and anchor) showing it.
"""

from __future__ import annotations

from pathlib import Path

from kb.site.gather import SiteData
from kb.sources import fold

SEARCH_DIR = "search"
"""Folder of the search index, at the site's root (shared by the interface trees)."""


def write_search(site: Path, data: SiteData) -> dict:
    """Write the search index of the site's records into `<site>/search/`; return its summary."""
    from kb.search.index import build_data  # late: importing the site must not load the search package
    from kb.search.static import write_static

    items = [e for e in _entries(data) if e.current]
    pages = _pages(data)
    urls = [pages(e) for e in items]
    return write_static(site / SEARCH_DIR, build_data(items, data.kb.lexicon), lambda n: urls[n])


def _entries(data: SiteData):
    from kb.search.entries import entries

    return entries(data.kb)


def _pages(data: SiteData):
    """A function giving the page (relative to an interface tree) of a search entry, or None."""
    kb = data.kb
    anchors = {row.number: f"{page.path}#{row.number}" for page in data.rule_pages for row in page.rows}
    for section in data.sections:
        anchors.setdefault(section["number"], f"contents.html#{section['number']}")
    glossary = {}
    for entries in data.glossary.values():
        for anchor, index in entries:
            g = kb.glossary[index]
            glossary.setdefault(f"{g.document}#{fold(g.term)}", f"glossary.html#{anchor}")

    def page(entry) -> str | None:
        if entry.kind == "rule" and "@" in entry.id:  # a translation's rule with no counterpart today: its own row
            return anchors.get(f"{next(iter(entry.texts))}-{entry.number}")
        if entry.kind == "rule":  # the row of today's number, whatever number each language gives the rule
            return anchors.get(entry.number)
        if entry.kind == "glossary":
            return glossary.get(entry.id)
        if entry.kind == "card":
            return data.card_path.get(entry.id)
        if entry.kind == "ruling":
            ruling = kb.ruling.get(entry.id)
            return data.card_path.get(ruling.card) if ruling else None
        return data.note_path.get(entry.id)

    return page
