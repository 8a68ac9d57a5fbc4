"""Reading the site in real headless Chromium: one language per interface, the changes page, the FAQ as written,
finding one's way (header, skip link, outline), line length, phones, and the site hosted under a sub-path.

The site is the bundled content with both English editions, as `tests/test_browser.py` builds it.
"""

from __future__ import annotations

import functools
import http.server
import json
import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.browsing import CHROMIUM, chromium, guarded_page, served, serving

pytestmark = pytest.mark.browser
if CHROMIUM is None:
    pytest.skip("chromium is not installed (apt-get install chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright (Python) is not installed")

CHANGES = "changes/en-2015-09-26--en-2026-01-16.html"
FAQ = "faq/fr-faq-discorde-2006.html"
ISPERIA = "cards/isperia-the-inscrutable.html"
SUB = "/sub/path/"


@pytest.fixture(scope="module")
def site(bundled_site) -> Path:
    """The bundled content (both English editions) as `kb build` builds it."""
    return bundled_site


@pytest.fixture(scope="module")
def url(site):
    with served(site) as found:
        yield found


@pytest.fixture(scope="module")
def browser():
    with chromium(sync_api) as found:
        yield found


@pytest.fixture
def tab(browser, url, request):
    """A page at the width the test is parametrised with (default 1280); it fails on a request leaving the site
    or a JavaScript error."""
    width = getattr(request, "param", 1280)
    with guarded_page(browser, url, width=width, locale="fr-FR") as page:
        yield page


def go(tab, url: str, path: str) -> None:
    tab.goto(url + path)
    tab.wait_for_load_state("domcontentloaded")


def test_search_messages_are_given_to_the_page_in_its_language(tab, url):
    for ui, start in (("fr", "Guillemet non fermé"), ("en", "Unbalanced quote")):
        go(tab, url, f"{ui}/search.html")
        words = json.loads(tab.locator("#search-words").text_content())
        assert words["unbalanced"].startswith(start) and "{value}" in words["kind"] and words["results"]


def test_changes_page_is_short_grouped_and_opens_all(tab, url):
    go(tab, url, f"fr/{CHANGES}")
    height = tab.evaluate("document.documentElement.scrollHeight")
    assert height < 60_000, height  # every diff closed, at 1280 px
    text = tab.locator("main").inner_text()
    assert (
        text.index("Changements de fond")
        < text.index("Renvois mis à jour seulement")
        < text.index("Renumérotations seules")
    )
    excerpt = tab.locator(".change-section .excerpt").first
    assert excerpt.is_visible() and len(excerpt.inner_text()) > 20  # each line says what changed
    line = tab.locator(".change-section .change").first.bounding_box()
    assert line["height"] < 32  # one line, at 1280 px
    assert tab.locator(".change-rule").count() > 100  # grouped under their rules' titles
    details = tab.locator(".change-section details")
    total = details.count()
    assert total > 1000 and tab.locator(".change-section details[open]").count() == 0
    details.first.locator("summary").click()
    assert details.first.locator(".diff").is_visible()
    tab.get_by_role("button", name="Tout déplier").click()
    assert tab.locator(".change-section details[open]").count() == total
    tab.get_by_role("button", name="Tout replier").click()
    assert tab.locator(".change-section details[open]").count() == 0
    tab.locator('.section-pick a[href="#s-7"]').click()
    head = tab.locator("#s-7").bounding_box()
    assert 0 <= head["y"] < 300  # the section picked is at the top of the screen
    moved = tab.locator(".change", has_text="706.7a").first
    assert "607.5a" in moved.inner_text() and "déplacée" in moved.inner_text()
    refs = tab.locator("section[aria-labelledby=references]").inner_text()
    assert re.search(r"renvoi\s*: \d{3}\.\d+[a-z]? → \d{3}\.\d+[a-z]?", refs)  # whole numbers, never split digits


def test_faq_shows_its_example_card_where_it_prints_it(tab, url):
    go(tab, url, f"fr/{FAQ}")
    note = tab.locator("#note-prevision")
    card = note.locator(".faq-card").bounding_box()
    intro = note.get_by_text("Seules les cartes de la guilde").bounding_box()
    rules = note.get_by_text("Les règles officielles de la capacité de prévision").bounding_box()
    assert intro["y"] < card["y"] < rules["y"]
    assert "Éphémère" in note.locator(".faq-card").inner_text()


@pytest.mark.parametrize("tab", [1280, 360], indirect=True)
def test_the_faq_s_particulars_leave_a_phone_s_first_screen_to_the_faq(tab, url):
    go(tab, url, f"fr/{FAQ}")
    about = tab.locator("details.faq-meta-box")
    phone = tab.viewport_size["width"] < 700
    assert about.evaluate("d => d.open") is not phone and tab.locator(".faq-meta").is_visible() is not phone
    about.locator("summary").click()
    assert tab.locator(".faq-meta").is_visible() is phone  # one tap away


@pytest.mark.parametrize("tab", [1280, 360], indirect=True)
def test_faq_and_changes_are_in_the_header_and_the_menu(tab, url):
    go(tab, url, "fr/rules/121.html")
    if tab.viewport_size["width"] < 700:
        tab.locator(".menu-button").click()
    nav = tab.locator("#site-nav")
    nav.get_by_role("link", name="FAQ").click()
    tab.wait_for_url(f"**/fr/{FAQ}")
    if tab.viewport_size["width"] < 700:
        tab.locator(".menu-button").click()
    tab.locator("#site-nav").get_by_role("link", name="Changements").click()
    tab.wait_for_url(f"**/fr/{CHANGES}")


def test_the_skip_link_lands_past_the_sidebar(tab, url):
    go(tab, url, "fr/rules/121.html")
    tab.keyboard.press("Tab")
    assert tab.evaluate("document.activeElement.className") == "skip"
    tab.keyboard.press("Enter")
    assert tab.evaluate("document.activeElement.id") == "text"
    tab.keyboard.press("Tab")
    assert tab.evaluate("!!document.activeElement.closest('.rule-main')")  # not one of the sidebar's links


@pytest.mark.parametrize("tab", [1500], indirect=True)
def test_the_outline_stays_in_view_on_a_wide_screen(tab, url):
    go(tab, url, "fr/rules/702.html")
    tab.mouse.wheel(0, 6000)
    tab.wait_for_timeout(200)
    box = tab.locator(".onpage").bounding_box()
    text = tab.locator(".rule-main .run").first.bounding_box()
    assert 0 <= box["y"] < 200 and box["x"] > text["x"] + 400


def test_rules_removed_since_say_so_whatever_the_languages_shown(tab, url):
    go(tab, url, "fr/rules/703.html")
    note = tab.locator('[id="fr-703.4h"] .missing-note')
    for shown in ("both", "fr", "en"):
        tab.locator(f'.langswitch button[data-show="{shown}"]').click()
        assert note.is_visible(), shown
        assert "supprimées depuis" in note.inner_text()
    ordinary = tab.locator('[id="703.4f"] .missing-note')  # French text lacking: said only where French is shown
    tab.locator('.langswitch button[data-show="en"]').click()
    assert not ordinary.is_visible()
    tab.locator('.langswitch button[data-show="both"]').click()
    assert ordinary.is_visible()


def test_single_language_lines_stay_near_75_characters(tab, url):
    go(tab, url, "fr/rules/702.html")
    tab.locator('.langswitch button[data-show="en"]').click()
    cell = tab.locator('[id="702.1"] .cell[lang="en"] p').first
    chars = tab.evaluate(
        """(p) => { const range = document.createRange(); const node = p.firstChild; let top = null, n = 0;
           for (let i = 0; i < node.length; i++) { range.setStart(node, i); range.setEnd(node, i + 1);
             const y = range.getBoundingClientRect().top; if (top === null) top = y; if (y > top + 2) break; n++; }
           return n; }""",
        cell.element_handle(),
    )
    assert 55 <= chars <= 85, chars


@pytest.mark.parametrize("tab", [360], indirect=True)
def test_a_phone_tags_stacked_cells_keeps_ruling_headers_and_all_letters(tab, url):
    before = "c => getComputedStyle(c, '::before').content"
    go(tab, url, "fr/rules/703.html")
    tags = tab.evaluate(f"[...document.querySelectorAll('[id=\"703.1\"] .cell')].map({before})")
    assert tags == ['"fr"', '"en"']  # shown in capitals
    go(tab, url, "fr/rules/121.html")  # a French cell naming its own number says FR there, once
    tags = tab.evaluate(f"[...document.querySelectorAll('[id=\"121.1\"] .cell')].map({before})")
    assert tags == ["none", '"en"']
    row = tab.locator('[id="121.1"]')
    assert row.inner_text().count("FR") == 1 and "FR 120.1 (2015)" in row.inner_text()
    for row in ('[id="121.1"]', '[id="703.1"]'):
        if row == '[id="703.1"]':
            go(tab, url, "fr/rules/703.html")
        number = tab.locator(f"{row} > .num").bounding_box()
        text = tab.locator(f'{row} .cell[lang="fr"] > p').first.bounding_box()
        assert text["y"] >= number["y"] + number["height"] - 1  # below the number: no line indented beside it
    go(tab, url, f"fr/{ISPERIA}")
    head = tab.evaluate("getComputedStyle(document.querySelector('.ruling[data-col=\"fr\"]'), '::before').content")
    assert head.startswith('"Français — ')
    go(tab, url, "fr/glossary.html")
    letters = tab.locator(".az a")
    assert letters.count() >= 20
    rights = [letters.nth(i).bounding_box() for i in range(letters.count())]
    assert all(b["x"] >= 0 and b["x"] + b["width"] <= 360 for b in rights)  # none hidden past the edge
    assert all(b["width"] >= 24 and b["height"] >= 24 for b in rights)  # targets a finger can hit (WCAG 2.5.8)


@pytest.mark.parametrize("tab", [1280, 360], indirect=True)
def test_symbols_are_drawn_whole(tab, url):
    """Chapter symbols, the Planeswalker and chaos symbols, hybrids of three parts: none cut by its box."""
    clipped = "[...document.querySelectorAll('main .ms')].filter(e => e.scrollWidth > e.clientWidth + 1)"
    for path in ("en/rules/107.html", "fr/rules/714.html"):
        go(tab, url, path)
        assert tab.locator("main .ms-chapter").count() >= 3
        assert tab.evaluate(clipped + ".map(e => e.getAttribute('aria-label'))") == []


def test_card_sides_line_up_their_power_and_toughness(tab, url):
    """Side by side, each face is as tall as its counterpart: P/T on one line at the bottom of both boxes."""
    go(tab, url, f"en/{ISPERIA}")
    boxes = [tab.locator(".pt").nth(i).bounding_box() for i in range(2)]
    faces = [tab.locator(".face").nth(i).bounding_box() for i in range(2)]
    assert abs(boxes[0]["y"] - boxes[1]["y"]) < 2 and abs(faces[0]["height"] - faces[1]["height"]) < 2
    assert tab.locator(".card-side").first.get_attribute("lang") == "en"  # the interface's language first


@pytest.mark.parametrize("tab", [1280, 360], indirect=True)
def test_the_search_box_placeholder_is_never_cut(tab, url):
    fits = """e => { const c = document.createElement('canvas').getContext('2d'), s = getComputedStyle(e);
      c.font = s.font; return c.measureText(e.placeholder).width
        <= e.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight); }"""
    for ui in ("fr", "en"):
        go(tab, url, f"{ui}/rules/121.html")
        assert tab.locator("#q-top").evaluate(fits), tab.locator("#q-top").get_attribute("placeholder")
        go(tab, url, f"{ui}/index.html")
        assert tab.locator("#q-home").evaluate(fits), tab.locator("#q-home").get_attribute("placeholder")


@pytest.mark.parametrize("tab", [1280, 360], indirect=True)
def test_the_glossary_filters_its_terms_by_french_words(tab, url):
    go(tab, url, "fr/glossary.html")
    box = tab.locator("#gloss-q")
    box.fill("cimetiere")  # accents aside: Graveyard's French name, and Gravestorm's (« Déluge de cimetière »)
    assert tab.locator("#gloss-n").inner_text() == "2 termes trouvés"
    assert tab.locator("#g-en-graveyard").is_visible() and tab.locator("#g-en-gravestorm").is_visible()
    assert not tab.locator("#g-en-library").is_visible()
    assert not tab.locator("nav.az").first.is_visible()  # the terms found right under the box, not the letters
    box.fill("piétinement")  # a printed-card name
    assert tab.locator("#g-en-trample").is_visible()
    box.fill("blessure")  # the French word for damage finds the terms made with "damage", not Damage alone
    for term in ("damage", "combat-damage", "lethal-damage", "combat-damage-step"):
        assert tab.locator(f"#g-en-{term}").is_visible(), term
    box.fill("")
    assert tab.locator("#g-en-library").is_visible() and tab.locator("#gloss-n").inner_text() == ""
    assert tab.locator("nav.az").first.is_visible()


class _SubPath(http.server.SimpleHTTPRequestHandler):
    """The site served under `SUB` only, with its 404 page for anything missing (as project pages are)."""

    def translate_path(self, path: str) -> str:
        path = urlsplit(path).path
        if not path.startswith(SUB):
            return str(Path(self.directory) / "missing")
        return super().translate_path("/" + path[len(SUB) :])

    def send_error(self, code, message=None, explain=None):
        if code != 404:
            return super().send_error(code, message, explain)
        body = (Path(self.directory) / "404.html").read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args) -> None:
        pass


@pytest.fixture(scope="module")
def sub_url(site):
    """The site served under http://127.0.0.1:PORT/sub/path/."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_SubPath, directory=str(site)))
    with serving(server) as url:
        yield url


@pytest.mark.parametrize("missing", ["fr/rules/999.html", "nowhere/at/all.html"])
def test_the_site_works_under_a_sub_path(browser, sub_url, missing):
    with guarded_page(browser, sub_url, locale="fr-FR") as page:
        reply = page.goto(f"{sub_url}{SUB}{missing}")
        assert reply.status == 404
        page.wait_for_function("getComputedStyle(document.body).fontFamily.startsWith('system-ui')")  # site.css
        links = page.locator('[data-lang-block="fr"] a')
        hrefs = [links.nth(i).evaluate("a => a.href") for i in range(links.count())]
        assert hrefs and all(urlsplit(h).path.startswith(SUB + "fr/") for h in hrefs), hrefs
        for href in dict.fromkeys(hrefs):
            assert page.request.get(href).status == 200, href
        page.locator('[data-lang-block="fr"] main').get_by_role("link", name="Sommaire").click()
        page.wait_for_url(f"**{SUB}fr/contents.html")
        page.goto(f"{sub_url}{SUB}fr/rules/702.html")
        hrefs = page.evaluate("[...document.querySelectorAll('a[href]')].map(a => a.href.split('#')[0])")
        own = sorted({h for h in hrefs if h.startswith(sub_url)})
        assert own and all(urlsplit(h).path.startswith(SUB) for h in own)
        for href in own[:: max(1, len(own) // 40)]:
            assert page.request.get(href).status == 200, href


@pytest.mark.parametrize("tab", [1280, 360], indirect=True)
def test_the_glossary_reads_in_order_and_its_letters_and_cross_references_land_on_them(tab, url):
    go(tab, url, "fr/glossary.html")
    lefts = tab.evaluate("[...document.querySelectorAll('.entry')].map(e => Math.round(e.getBoundingClientRect().x))")
    assert len(lefts) > 700 and len(set(lefts)) == 1  # one column: Abandon is never beside Lethal Damage
    for target, click in (
        ("#gl-en-l", lambda: tab.locator(".az").get_by_role("link", name="L", exact=True).click()),
        ("#g-en-damage", lambda: tab.locator("#g-en-deal").get_by_role("link", name="Damage").click()),
    ):
        click()
        tab.wait_for_url(f"**{target}")
        tab.wait_for_timeout(200)
        bar, found = tab.locator(".az").bounding_box(), tab.locator(target).bounding_box()
        assert bar["y"] + bar["height"] - 1 <= found["y"] < bar["y"] + bar["height"] + 120, target  # below the bar


@pytest.mark.parametrize("tab", [1280, 360], indirect=True)
def test_each_language_control_says_what_it_changes(tab, url):
    """The text columns' buttons under their label, the interface's link saying it is the interface's language, both
    whole in the header at a phone's width too."""
    controls = (("fr", "Textes :", "Interface in English"), ("en", "Texts:", "Interface en français"))
    for ui, columns, interface in controls:
        go(tab, url, f"{ui}/rules/121.html")
        header = tab.locator("header.top").bounding_box()
        label = tab.locator(".langswitch .switch-k")
        assert label.is_visible() and label.inner_text().replace("\u00a0", " ") == columns
        link = tab.locator("a.ui-switch")
        assert " ".join(link.inner_text().split()) == interface
        for part in (label, tab.locator(".langswitch button").last, link):
            box = part.bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= tab.viewport_size["width"]
            assert box["y"] >= 0 and box["y"] + box["height"] <= header["height"] + 1
        tab.locator('.langswitch button[data-show="en"]').click()  # still a working switch
        assert tab.locator('[id="121.2"] [data-col="fr"]').is_hidden()
        tab.locator('.langswitch button[data-show="both"]').click()


@pytest.mark.parametrize("tab", [1280, 360], indirect=True)
def test_switching_the_interface_keeps_the_query_and_the_place(tab, url):
    go(tab, url, "fr/search.html?q=pioche")
    tab.locator("a.ui-switch").click()
    tab.wait_for_url("**/en/search.html?q=pioche")
    go(tab, url, "fr/rules/702.html")  # scrolled, no anchor in the address: the row at the top of the screen
    tab.evaluate("document.getElementById('702.9b').scrollIntoView()")
    tab.wait_for_timeout(200)
    top = tab.evaluate("[...document.querySelectorAll('main .row[id]')].find(r => r.getBoundingClientRect().bottom"
                       " > document.querySelector('header.top').getBoundingClientRect().bottom + 40).id")  # fmt: skip
    assert top.startswith("702.9")
    tab.evaluate("document.querySelector('a.ui-switch').click()")  # as a reader's click: Playwright's scrolls first
    tab.wait_for_url(f"**/en/rules/702.html#{top}")
    tab.wait_for_timeout(200)
    row = tab.locator(f'[id="{top}"]').bounding_box()
    assert 0 <= row["y"] < 300  # where the reader was, at the top of the screen


@pytest.mark.parametrize("tab", [360], indirect=True)
def test_a_phone_s_first_screen_reaches_the_rule_s_text(tab, url):
    """At 360 x 740: the title, the list of the rule's entries, the numbering note and the history one line each,
    folded, and the rule's first text high on the first screen."""
    tab.set_viewport_size({"width": 360, "height": 740})
    for path in ("fr/rules/121.html", "fr/rules/703.html", "en/rules/121.html"):
        go(tab, url, path)
        for summary in (".numbering-note summary", ".history summary"):
            assert tab.locator(summary).bounding_box()["height"] < 30, (path, summary)  # one line
        assert tab.locator(".numbering-note").get_attribute("open") is None
        first = tab.locator(".run .cell > p:not(.rule-title)").first.bounding_box()
        assert first["y"] < 400, (path, first)


@pytest.mark.parametrize("tab", [360], indirect=True)
def test_a_phone_s_closed_changes_show_what_was_added_under_aligned_markers(tab, url):
    go(tab, url, f"fr/{CHANGES}")
    lefts, both, shown = tab.evaluate(
        """() => { const rows = [...document.querySelectorAll('.change-section .change summary')]
            .filter(s => s.getClientRects().length);  /* those shown: pronoun-only changes are hidden at first */
          const lefts = new Set(rows.map(s => Math.round(s.getBoundingClientRect().left)));
          const both = rows.filter(s => s.querySelector('.excerpt del') && s.querySelector('.excerpt ins'));
          const shown = both.filter(s => { const i = s.querySelector('.excerpt ins').getClientRects()[0];
            return i && i.bottom <= s.getBoundingClientRect().bottom + 1; });
          return [lefts.size, both.length, shown.length]; }"""
    )
    assert lefts == 1  # every ▸ at the same place, whatever the numbers beside it
    assert both > 300 and shown >= 0.95 * both, (both, shown)  # the words added show, not only those removed


def test_hybrid_symbols_read_as_large_as_plain_ones_and_black_is_dark(tab, url):
    go(tab, url, "en/rules/107.html")
    sizes = tab.evaluate(
        """() => { const px = e => parseFloat(getComputedStyle(e).fontSize);
          const row = document.getElementById('107.4'), plain = row.querySelector('.ms-w:not(.ms-half)');
          const half = row.querySelector('.ms-hybrid .ms-half'), tall = e => e.getBoundingClientRect().height;
          return [px(plain), px(half), tall(plain), tall(half.parentElement)]; }"""
    )
    assert sizes[1] >= sizes[0] and sizes[3] >= sizes[2] - 0.5, sizes  # was 0.8 of a plain symbol's letters

    def luminance(rgb):
        channels = [int(c) / 255 for c in re.findall(r"\d+", rgb)[:3]]
        lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    colours = tab.evaluate(
        """() => Object.fromEntries(['b', 'c', '2'].map(k => { const e = document.querySelector('main .ms-' + k);
          const s = getComputedStyle(e); return [k, [s.backgroundColor, s.color]]; }))"""
    )
    black, colourless, generic = (luminance(colours[k][0]) for k in ("b", "c", "2"))
    assert black < 0.05 < 0.4 < min(colourless, generic), colours  # B dark, apart from the two greys
    text = luminance(colours["b"][1])
    assert (text + 0.05) / (black + 0.05) >= 4.5  # its letter readable on it


@pytest.mark.parametrize("tab", [1280, 360], indirect=True)
def test_the_faq_has_contents_and_quotes_as_wide_as_its_text(tab, url):
    go(tab, url, f"fr/{FAQ}")
    toc = tab.locator(".faq-toc")
    if tab.viewport_size["width"] > 700:
        prose = tab.locator("#note-prevision .prose").first.bounding_box()
        quoted = tab.locator("#note-prevision .quoted").first.bounding_box()
        assert abs(prose["x"] - quoted["x"]) < 2 and abs(prose["width"] - quoted["width"]) < 2
        tab.mouse.wheel(0, 4000)  # beside the text, still in view further down
        tab.wait_for_timeout(200)
        assert 0 <= toc.bounding_box()["y"] < 200 and toc.bounding_box()["x"] > prose["x"] + prose["width"]
    else:
        assert toc.locator("details").get_attribute("open") is None  # folded: the text comes first
        toc.locator("summary").click()
    toc.get_by_role("link", name="Greffe").click()
    tab.wait_for_url("**#note-greffe")
    assert tab.locator("#note-greffe").bounding_box()["y"] < 300


@pytest.mark.parametrize("ui", ["fr", "en"])
def test_a_rule_in_one_language_uses_the_width_beside_its_text(tab, url, ui):
    """At 1280 px a rule with no French text keeps its measure and its outline takes the room the missing column
    leaves, in view beside the text (it stood above the text, a third of the width left empty)."""
    go(tab, url, f"{ui}/rules/702.html")
    text = tab.locator('[id="702.1"] .cell').bounding_box()
    main = tab.locator(".rule-main").bounding_box()
    tab.mouse.wheel(0, 5000)
    tab.wait_for_timeout(200)
    outline = tab.locator(".onpage").bounding_box()
    assert outline["x"] >= text["x"] + text["width"] and outline["x"] + outline["width"] > main["x"] + main["width"] - 5
    assert 0 <= outline["y"] < 200  # still in view


def test_the_outline_beside_the_text_marks_the_part_being_read(browser, url):
    context = browser.new_context(viewport={"width": 1500, "height": 900})
    tab = context.new_page()
    go(tab, url, "en/rules/702.html")
    outline = tab.locator("nav.onpage")
    tab.locator('[id="702.19"]').scroll_into_view_if_needed()
    at = "document.getElementById('702.19').getBoundingClientRect().top"
    tab.evaluate(f"() => window.scrollBy(0, {at} - document.querySelector('.top').offsetHeight - 8)")  # just below
    tab.wait_for_function("() => document.querySelector('nav.onpage a[aria-current=location]')")
    current = outline.locator("a[aria-current=location]")
    assert current.get_attribute("href") == "#702.19"
    box, shown = current.bounding_box(), outline.bounding_box()
    assert shown["y"] <= box["y"] and box["y"] + box["height"] <= shown["y"] + shown["height"]  # in the outline's view
    context.close()


@pytest.mark.parametrize("tab", [360], indirect=True)
def test_a_changes_page_filters_by_rule_and_shows_minor_changes_when_asked(tab, url):
    go(tab, url, f"en/{CHANGES}")
    shown = lambda: tab.eval_on_selector("form.change-filter output", "o => o.value")  # noqa: E731
    first = shown()
    assert tab.is_visible("form.change-filter") and first.endswith(" shown")
    tab.fill("form.change-filter input[name=rule]", "702.19")
    assert shown() == "6 shown" and tab.locator("li.change[data-n='702.19d 702.19c']").is_visible()
    assert not tab.locator("li.change[data-n~='100.2']").first.is_visible()
    tab.fill("form.change-filter input[name=rule]", "")
    tab.check("form.change-filter input[name=minor]")  # his or her -> their, and references followed
    assert int(shown().split()[0]) > int(first.split()[0]) and tab.locator("#references").is_visible()


@pytest.mark.parametrize("tab", [360], indirect=True)
def test_a_long_rule_keeps_its_outline_in_reach_on_a_phone(tab, url):
    go(tab, url, "en/rules/702.html")
    tab.mouse.wheel(0, 30000)
    button = tab.locator("a.to-outline")
    assert button.is_visible()
    box = button.bounding_box()  # a small round button at the edge, covering as little text as it can
    assert box["width"] < 50 and box["x"] + box["width"] <= 360 and "Outline" in button.text_content()
    button.click()
    assert tab.locator("nav.onpage details").evaluate("d => d.open") and tab.locator("#onpage-h").is_visible()
