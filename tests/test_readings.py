"""Numbers read in the numbering of the text that cites them: every link of the built site checked by lineage."""

from __future__ import annotations

import re
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

import pytest

from kb.export.json import to_json
from kb.link.references.readings import number_match, read, readings

NUMBER = re.compile(r"\d{3}(?:\.\d+[a-z]?)?")


class _Links(HTMLParser):
    """The ids of a page, its rows' shown numbers, and each link with the cell or FAQ block it stands in."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: list[str] = []
        self.numbers: list[str] = []
        self.links: list[dict] = []
        self._stack: list[tuple[str, dict]] = []
        self._open: dict | None = None
        self._num: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        found = dict(attrs)
        if "id" in found:
            self.ids.append(found["id"])
        classes = (found.get("class") or "").split()
        if tag == "a" and ("num" in classes or "own-row-num" in classes):
            self._num = []
        if tag == "a" and "href" in found:
            cell = next((a for t, a in reversed(self._stack) if "cell" in (a.get("class") or "").split()), None)
            row = next((a.get("id") for t, a in reversed(self._stack) if "row" in (a.get("class") or "").split()), None)
            faq = any("quoted" in (a.get("class") or "") or "prose" in (a.get("class") or "") for _, a in self._stack)
            self._open = {**found, "cell": cell.get("lang") if cell else None, "row": row, "faq": faq, "text": ""}
        if tag not in ("br", "img", "input", "meta", "link"):
            self._stack.append((tag, found))

    def handle_endtag(self, tag):
        if tag == "a":
            if self._open is not None:
                self.links.append(self._open)
                self._open = None
            if self._num is not None:
                self.numbers.append("".join(self._num))
                self._num = None
        while self._stack and self._stack.pop()[0] != tag:
            pass

    def handle_data(self, data):
        if self._open is not None:
            self._open["text"] += data
        if self._num is not None:
            self._num.append(data)


def _parse(path: Path) -> _Links:
    parser = _Links()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


@pytest.fixture(scope="module")
def site(bundled_site) -> Path:
    return bundled_site


@pytest.fixture(scope="module")
def export(bundled_kb) -> dict:
    return to_json(bundled_kb)


def _reaches(export: dict, edition: str, number: str, today: str) -> set[str] | None:
    """Today's numbers a rule of an edition leads to along the export's lineage (None: removed or merged)."""
    rules = {(r["edition"], r["number"]): r for r in export["rules"]}
    frontier, seen = {(edition, number)}, set()
    while frontier:
        ed, num = frontier.pop()
        if ed == today:
            seen.add(num)
            continue
        rule = rules.get((ed, num))
        for step in (rule or {}).get("lineage", {}).get("next", ()) if rule and rule["lineage"] else ():
            if step["number"] is not None and step["status"] != "merged":
                frontier.add((step["edition"], step["number"]))
    return seen or None


def _href_row(href: str) -> tuple[str, str]:
    page, _, row = href.partition("#")
    return page, row


def test_every_link_of_the_french_rows_is_connected_by_lineage_to_the_number_cited(site, export):
    today = export["alignment"]["editions"]["en"]
    numbering = export["alignment"]["matches"]["fr"]["edition"]
    pairs = {p["fr"]["number"]: p["en"]["number"] for p in export["alignment"]["pairs"]}
    meant = {(m["number"], m["cites"]): m["original"]["cites"] for m in export["alignment"]["miscitations"]}
    rows = {p["en"]["number"]: p["fr"]["number"] for p in export["alignment"]["pairs"]}
    checked = Counter()
    for ui in ("fr", "en"):
        for page in sorted((site / ui / "rules").glob("*.html")):
            for link in _parse(page).links:
                cls = (link.get("class") or "").split()
                if link["cell"] != "fr" or not ({"ref", "ref-gone"} & set(cls)) or not NUMBER.fullmatch(link["text"]):
                    continue
                cited, (target_page, row) = link["text"], _href_row(link["href"])
                if "ref-miscited" in cls:  # its original cites another number there: that number's rule today
                    original = meant[(rows[link["row"]], cited)]
                    assert row in _reaches(export, numbering, original, today), (page.name, cited, row)
                    assert row not in (_reaches(export, numbering, cited, today) or ()), (page.name, cited, row)
                    checked["miscited"] += 1
                elif "ref-gone" in cls:  # removed since: its history, never today's rule of that number
                    assert _reaches(export, numbering, cited, today) is None, (page.name, cited)
                    changes = site / ui / "changes" / Path(target_page).name
                    assert f'id="{row}"' in changes.read_text(encoding="utf-8") and row == f"was-{cited}"
                    checked["gone"] += 1
                elif cited in pairs:  # a rule of the French text itself, shown in the row of today's rule it is
                    assert row == pairs[cited], (page.name, cited, row)
                    checked["own"] += 1
                else:
                    assert row in (_reaches(export, numbering, cited, today) or ()), (page.name, cited, row)
                    if row != cited:  # renumbered: the title names both numbers
                        assert f"{cited} (2015) → {row}" in link.get("title", ""), (page.name, cited)
                        assert f"~{cited}~2015" in link["aria-describedby"]
                        checked["renumbered"] += 1
                    checked["same"] += 1
    assert checked["gone"] >= 4 and checked["renumbered"] >= 4 and checked["same"] >= 28  # both interfaces
    assert checked["miscited"] == 2  # the French 703.4d's 701.21 (was counted renumbered, to 701.31), in both


def test_every_rule_link_of_the_faq_pages_is_the_quoted_rule_placed_today(site, export):
    placed = {(q["number"], q["today"]["number"]) for n in export["notes"] for q in n["quoted_rules"] if q["today"]}
    found = 0
    for page in sorted(site.glob("*/faq/*.html")):
        for link in _parse(page).links:
            if "rules/" not in link["href"] or not link["faq"]:
                continue
            row = _href_row(link["href"])[1]
            assert any(today == row for _, today in placed), (page.name, link["href"])
            found += 1
    assert found == 2 * len(placed)  # each quoted rule, in both interfaces


def test_no_page_has_a_duplicate_id_or_row_number(site):
    for page in sorted(site.rglob("*.html")):
        parsed = _parse(page)
        twice = [i for i, n in Counter(parsed.ids).items() if n > 1]
        assert twice == [], (page, twice)
        shown = [n for n, k in Counter(parsed.numbers).items() if k > 1 and n]
        assert shown == [], (page, shown)


def test_french_only_rows_show_their_own_number_apart(site):
    parsed = _parse(site / "fr" / "rules" / "703.html")
    assert "FR 703.4h (2015)" in parsed.numbers and "FR 703.4i (2015)" in parsed.numbers
    assert parsed.numbers.count("703.4h") == 1  # today's 703.4h, once


def test_numbers_are_read_in_the_numbering_of_the_edition_of_their_text(bundled_kb):
    found = readings(bundled_kb, "fr")
    assert (found["502.2"].status, found["502.2"].today, found["502.2"].year) == ("renumbered", "502.3", "2015")
    assert found["509.2"].status == "removed" and found["509.2"].today is None
    assert found["509.2"].gone == ("en:2015-09-26", "en:2026-01-16")
    assert found["504.1"].status == "same" and found["500.4"].today == "500.5"
    assert read(bundled_kb, None, "120.4").status == "unknown"


def test_without_the_edition_of_the_text_its_numbers_are_not_read(tmp_path):
    from kb.link.load import load

    from .conftest import CR2026
    from .test_crosslang import _content

    kb = load(_content(tmp_path, CR2026))
    found = readings(kb, "fr")
    assert {r.status for r in found.values()} == {"unknown"} and all(r.today is None for r in found.values())


def test_a_typed_number_names_the_french_rule_and_todays(bundled_kb):
    match = number_match(bundled_kb, "règle 120.4")
    assert match.number == "120.4" and match.today == "120.4" and match.own == {"fr": ("120.4", "121.4")}
    assert number_match(bundled_kb, "703.4h").own == {"fr": ("703.4h", None)}
    assert number_match(bundled_kb, "703.4a").own == {}  # same number then and now
    assert number_match(bundled_kb, "pioche") is None


def test_home_and_french_extract_pages_say_the_french_text_uses_2015_numbering(site):
    sentence = "Le texte français suit la numérotation des règles de 2015, l’édition chargée la plus proche de lui"
    for path in ("fr/index.html", "fr/rules/121.html", "fr/rules/703.html"):
        assert sentence in (site / path).read_text(encoding="utf-8"), path
    assert "The French text uses the numbering of the 2015 rules" in (site / "en/rules/703.html").read_text("utf-8")
    assert "numbering-note" not in (site / "fr/rules/702.html").read_text(encoding="utf-8")  # no French text there


FLAGS = {
    "fr": (
        "La traduction cite 701.21, numérotation antérieure\u202f; son original (2015) cite 701.22, aujourd’hui 701.32"
    ),
    "en": "The translation cites 701.21, an older numbering; its original (2015) cites 701.22, today 701.32",
}


@pytest.mark.parametrize("ui", ["fr", "en"])
def test_the_french_archenemy_citation_links_todays_set_in_motion_and_is_flagged(site, ui):
    page = site / ui / "rules" / "703.html"
    cited = [link for link in _parse(page).links if link["cell"] == "fr" and link["text"] == "701.21"]
    assert [(link["row"], link["href"]) for link in cited] == [("703.4e", "../rules/701.html#701.32")]
    assert "ref-miscited" in cited[0]["class"].split() and cited[0]["aria-describedby"] == "pv-en-701.32"
    html = page.read_text(encoding="utf-8")
    flag = f'<abbr class="cite-flag" lang="{ui}" title="{FLAGS[ui]}">≠</abbr>'
    assert f">701.21</a>{flag}" in html.replace("&#39;", "'")
    assert "#701.31" not in html  # never 2015's 701.21 (Planeswalk), which its original does not cite


@pytest.mark.parametrize("ui", ["fr", "en"])
def test_the_translation_report_links_the_french_citation_as_its_original_and_flags_it(site, ui):
    html = (site / ui / "report.html").read_text(encoding="utf-8")
    french = html.split('id="h-mismatch"')[1].split('<td lang="fr">')[1].split("</td>")[0]
    assert 'href="rules/701.html#701.32"' in french and "#701.31" not in french
    assert f'<abbr class="cite-flag" lang="{ui}" title="{FLAGS[ui]}">≠</abbr>' in french
