"""Pages cut into parts, in real headless Chromium: on a phone a part page has no horizontal scrolling and its list
of parts marks the current one (a long list folded to it), previous/next walk the parts in order, a text shown cut
links to its whole text, and axe-core (vendored) finds no serious or critical violation.

The site is the small content of `tests/test_site_scale.py`, built once with limits low enough for rule 702 to be
cut into many parts, the FAQ and the card index into a few, and rule 702.20 to be shown cut.
"""

from __future__ import annotations

import pytest

from kb.site import parts
from tests.browsing import CHROMIUM, chromium, guarded_page, served
from tests.browsing import axe_violations as _axe
from tests.test_site_scale import GIANT, _build

pytestmark = pytest.mark.browser
if CHROMIUM is None:
    pytest.skip("chromium is not installed (apt-get install chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright (Python) is not installed")

PHONE = 360
FOLDED = 8
"""More parts than this and the list is folded to the current part (the templates' threshold)."""


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The cut site served on 127.0.0.1: (base url, gathered data, {kind: its part pages})."""

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(parts, "PAGE_CHARS", 8_000)
        patch.setattr(parts, "TEXT_CHARS", 2_000)
        patch.setattr(parts, "LINKS_SHOWN", 5)
        out, data = _build(tmp_path_factory.mktemp("parts"))
    pages = {
        "rule": [page.path for page in data.rule_pages if page.head == "702"],
        "faq": [part.path for part in next(iter(data.faq_parts.values()))],
        "cards": sorted((p.name for p in (out / "en").glob("cards*.html")), key=lambda n: (len(n), n)),
    }
    assert len(pages["rule"]) > FOLDED and 2 <= len(pages["faq"]) <= FOLDED and 2 <= len(pages["cards"]) <= FOLDED
    with served(out) as url:
        yield url, data, pages


@pytest.fixture(scope="module")
def browser():
    """Headless Debian Chromium, no network beyond 127.0.0.1."""
    with chromium(sync_api) as found:
        yield found


@pytest.fixture
def tab(browser, site, request):
    """A page at the width and theme the test is parametrised with (default: a phone, light); it fails the test
    on a request leaving the site or a JavaScript error."""
    width, scheme = getattr(request, "param", (PHONE, "light"))
    with guarded_page(browser, site[0], width=width, scheme=scheme) as page:
        yield page


def go(tab, site, path: str) -> None:
    """Open a page of the site."""
    tab.goto(site[0] + path)
    tab.wait_for_load_state()


def _second(site, kind: str) -> str:
    """The site path of the second part of a cut page (`rules/702-2.html`, `faq/x--2.html`, `cards-2.html`)."""
    return site[2][kind][1]


@pytest.mark.parametrize("ui", ["fr", "en"])
@pytest.mark.parametrize("kind", ["rule", "faq", "cards"])
def test_a_part_fits_a_phone_and_its_list_marks_it(tab, site, kind, ui):
    path = _second(site, kind)
    go(tab, site, f"{ui}/{path}")
    assert tab.evaluate("document.documentElement.scrollWidth") <= PHONE
    assert ("(partie\u00a02/" if ui == "fr" else "(part\u00a02/") in tab.locator("h1").inner_text()
    nav = tab.locator("nav.parts")
    summary = nav.locator("summary")
    assert nav.count() == 1 and summary.is_visible()
    assert summary.inner_text().startswith("Cette page est la partie 2 sur" if ui == "fr" else "This page is part 2 of")
    current = nav.locator('a[aria-current="page"]')
    assert current.count() == 1 and current.get_attribute("href") == path.rsplit("/", 1)[-1]
    if nav.locator("details").get_attribute("open") is None:  # folded: the summary names this part
        assert summary.locator("b").inner_text() == current.text_content()
        summary.click()
    assert current.is_visible()
    found = current.bounding_box()
    assert found is not None and found["x"] >= 0 and found["x"] + found["width"] <= PHONE
    assert tab.evaluate("document.documentElement.scrollWidth") <= PHONE  # the opened list wraps too


def test_a_long_list_of_parts_is_folded_and_a_short_one_open(tab, site):
    go(tab, site, f"en/{_second(site, 'rule')}")
    details = tab.locator("nav.parts details")
    assert details.get_attribute("open") is None and tab.locator("nav.parts li").first.is_hidden()
    go(tab, site, f"en/{_second(site, 'faq')}")
    assert tab.locator("nav.parts details").get_attribute("open") is not None
    assert tab.locator("nav.parts li").first.is_visible()


@pytest.mark.parametrize("tab", [(1280, "light")], indirect=True)
def test_next_walks_a_cut_rule_part_by_part_then_to_the_next_rule(tab, site):
    found = site[2]["rule"]
    go(tab, site, f"en/{found[0]}")
    assert tab.locator('nav.pager-bottom a[rel="prev"] .pager-k').inner_text() == "Previous rule"
    for path in [*found[1:], "rules/703.html"]:
        label = tab.locator('nav.pager-bottom a[rel="next"] .pager-k').inner_text()
        assert label == ("Next rule" if path == "rules/703.html" else "Next part")
        tab.locator('nav.pager:not(.pager-bottom) a[rel="next"]').click()
        tab.wait_for_url(f"**/en/{path}")
    go(tab, site, f"fr/{found[-1]}")
    tab.locator('nav.pager:not(.pager-bottom) a[rel="prev"]').click()
    tab.wait_for_url(f"**/fr/{found[-2]}")


@pytest.mark.parametrize("kind", ["faq", "cards"])
def test_the_parts_of_an_faq_and_of_the_card_index_have_previous_and_next(tab, site, kind):
    found = site[2][kind]
    go(tab, site, f"fr/{found[0]}")
    assert tab.locator('nav.pager-bottom a[rel="prev"]').count() == 0
    for path in found[1:]:
        tab.locator('nav.pager-bottom a[rel="next"]').click()
        tab.wait_for_url(f"**/fr/{path}")
        assert tab.locator('nav.pager-bottom a[rel="prev"] .pager-k').inner_text() == "Partie précédente"
    assert tab.locator('nav.pager-bottom a[rel="next"]').count() == 0


@pytest.mark.parametrize(("ui", "note"), [("fr", "Texte trop long pour la page"), ("en", "Text too long for the page")])
def test_full_text_link_leads_to_the_whole_text(tab, site, ui, note):
    _url, data, _pages = site
    page = next(p for p in data.rule_pages if any(row.number == GIANT for row in p.rows))
    text = next(row for row in page.rows if row.number == GIANT).cells["en"].text
    go(tab, site, f"{ui}/{page.path}")
    cut = tab.locator(f'[id="{GIANT}"] .cut-note')
    assert cut.is_visible() and cut.inner_text().startswith(note)
    assert text[-40:] not in tab.locator(f'[id="{GIANT}"]').inner_text()
    cut.locator("a").click()
    tab.wait_for_url("**/*.txt")
    assert tab.url.endswith(data.full_texts[("en", GIANT)])
    whole = tab.locator("body").inner_text()
    assert whole.startswith(GIANT) and " ".join(text.split()) in " ".join(whole.split())
    assert tab.evaluate("document.documentElement.scrollWidth") <= PHONE  # plain text wraps on a phone


@pytest.mark.parametrize("tab", [(PHONE, "light"), (1280, "dark")], indirect=True)
@pytest.mark.parametrize(("ui", "kind"), [("fr", "rule"), ("en", "faq"), ("en", "cards")])
def test_no_serious_accessibility_violation_on_a_part(tab, site, ui, kind):
    go(tab, site, f"{ui}/{_second(site, kind)}")
    if tab.locator("nav.parts details").get_attribute("open") is None:
        tab.locator("nav.parts summary").click()  # the list too, with its current part
    assert _axe(tab) == []


def test_no_serious_accessibility_violation_on_a_cut_text(tab, site):
    page = next(p for p in site[1].rule_pages if any(row.number == GIANT for row in p.rows))
    go(tab, site, f"en/{page.path}")
    assert _axe(tab) == []
