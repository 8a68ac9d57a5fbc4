"""The built site in real headless Chromium, at 1280 and 360 px, light and dark, in both interface languages.

Interface language and text columns, pages that fit their content, finding one's way (sticky header, lists,
A–Z, previous/next, 404, Tab stops, `/`), the home page, text rendering, phones (no horizontal scrolling),
search, and axe-core (vendored) with no serious or critical violation.
"""

from __future__ import annotations

import pytest

from tests.browsing import CHROMIUM, chromium, guard, guarded_context, guarded_page, served
from tests.browsing import axe_violations as _axe

pytestmark = pytest.mark.browser
if CHROMIUM is None:
    pytest.skip("chromium is not installed (apt-get install chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright (Python) is not installed")

WIDTHS = [1280, 360]
SCHEMES = ["light", "dark"]
ISPERIA = "cards/isperia-the-inscrutable.html"
CHANGES = "changes/en-2015-09-26--en-2026-01-16.html"
PAGES = ["index.html", "contents.html", "rules/121.html", "rules/702.html", "glossary.html", "cards.html", ISPERIA,
         "report.html", "sources.html", "search.html", CHANGES]  # fmt: skip


@pytest.fixture(scope="module")
def site_url(bundled_site, bundled_kb):
    """The bundled content (with both English editions), built and served by `kb serve`'s server on 127.0.0.1."""
    with served(bundled_site) as url:
        yield url, bundled_kb


@pytest.fixture(scope="module")
def browser():
    """Headless Debian Chromium, no network beyond 127.0.0.1."""
    with chromium(sync_api) as found:
        yield found


def _context(browser, site_url, width=1280, scheme="light", locale="fr-FR"):
    """A fresh context (fresh storage, a French browser by default) recording requests leaving the site."""
    return guarded_context(browser, site_url[0], width, scheme, locale)


@pytest.fixture
def tab(browser, site_url, request):
    """A page at the width and theme the test is parametrised with (default 1280, light); it fails the test on a
    request leaving the site or a JavaScript error."""
    width, scheme = getattr(request, "param", (1280, "light"))
    with guarded_page(browser, site_url[0], width=width, scheme=scheme, locale="fr-FR") as page:
        yield page


ALL_VIEWS = [(w, s) for w in WIDTHS for s in SCHEMES]
BOTH_WIDTHS = [(w, "light") for w in WIDTHS]


STYLED = "() => [...document.styleSheets].some(s => (s.href || '').endsWith('/static/site.css'))"
"""The site's style sheet is applied: the 404 page adds it only once it has found the site's root, which may be
after its load event (read before, its links have the browser's default colours)."""


def go(tab, site_url, path: str):
    """Open a page of the site, styled."""
    tab.goto(site_url[0] + path)
    tab.wait_for_load_state()
    tab.wait_for_function(STYLED)


def box(locator):
    """The bounding box of a visible element."""
    found = locator.bounding_box()
    assert found is not None
    return found


def scroll_width(tab) -> int:
    return tab.evaluate("document.documentElement.scrollWidth")


# ---- 1. interface language


@pytest.mark.parametrize("tab", BOTH_WIDTHS, indirect=True)
@pytest.mark.parametrize(("ui", "own", "other"), [("fr", "Sommaire", "Contents"), ("en", "Contents", "Sommaire")])
def test_interface_language_sets_every_label_and_html_lang(tab, site_url, ui, own, other):
    go(tab, site_url, f"{ui}/rules/121.html")
    assert tab.locator("html").get_attribute("lang") == ui
    header = tab.locator("header.top").inner_text() + tab.locator("#site-nav").text_content()
    assert own in tab.locator("#site-nav").text_content() and other not in header
    # no doubled label anywhere (a printed-card term beside an English title, `.lex`, is one of its own; so is the
    # English title after the interface's unofficial name, `.lex-orig`)
    text = (
        "b => { const c = b.cloneNode(true); c.querySelectorAll('.lex, .lex-orig').forEach(e => e.remove()); "
        "return c.textContent; }"
    )
    assert " · " not in tab.locator("body").evaluate(text)
    assert tab.title().endswith("Règles MTG" if ui == "fr" else "MTG Rules")


def test_switch_leads_to_the_same_place_in_the_other_interface_and_is_remembered(browser, site_url):
    context = _context(browser, site_url, locale="en-US")
    tab = guard(context, context.new_page())
    go(tab, site_url, "fr/rules/121.html#121.2")
    tab.locator("a.ui-switch").click()
    tab.wait_for_url("**/en/rules/121.html#121.2")
    assert tab.locator("html").get_attribute("lang") == "en"
    tab.locator("a.ui-switch").click()  # back to French: remembered over the browser's English
    tab.wait_for_url("**/fr/rules/121.html*")
    go(tab, site_url, "index.html")
    tab.wait_for_url("**/fr/index.html")
    context.close()
    assert context.errors == [] and context.outside == []


@pytest.mark.parametrize(("locale", "ui"), [("en-US", "en"), ("fr-CA", "fr"), ("de-DE", "fr")])
def test_root_page_follows_the_browser_language_when_nothing_is_remembered(browser, site_url, locale, ui):
    context = _context(browser, site_url, locale=locale)
    tab = context.new_page()
    go(tab, site_url, "index.html")
    tab.wait_for_url(f"**/{ui}/index.html")
    assert tab.locator("html").get_attribute("lang") == ui
    context.close()


@pytest.mark.parametrize("tab", BOTH_WIDTHS, indirect=True)
def test_text_columns_are_a_separate_remembered_choice(tab, site_url):
    go(tab, site_url, "fr/rules/121.html")
    row = tab.locator('[id="121.2"]')
    assert row.locator('[data-col="fr"]').is_visible() and row.locator('[data-col="en"]').is_visible()
    tab.locator('.langswitch button[data-show="en"]').click()
    assert row.locator('[data-col="fr"]').is_hidden() and row.locator('[data-col="en"]').is_visible()
    go(tab, site_url, "en/rules/121.html")  # another interface, same columns
    assert tab.locator("html").get_attribute("data-show") == "en"
    assert tab.locator('[id="121.2"] [data-col="fr"]').is_hidden()
    assert tab.locator('.langswitch button[data-show="en"]').get_attribute("aria-pressed") == "true"


def test_columns_side_by_side_on_a_desktop_and_stacked_on_a_phone(browser, site_url):
    for width in WIDTHS:
        context = _context(browser, site_url, width)
        tab = context.new_page()
        go(tab, site_url, "fr/rules/121.html")
        fr, en = (box(tab.locator(f'[id="121.2"] [data-col="{lang}"]')) for lang in ("fr", "en"))
        if width > 700:
            assert fr["x"] + fr["width"] <= en["x"] and abs(fr["y"] - en["y"]) < 2
        else:
            assert en["y"] >= fr["y"] + fr["height"] - 1 and fr["width"] > 300
        context.close()


@pytest.mark.parametrize("tab", BOTH_WIDTHS, indirect=True)
@pytest.mark.parametrize("ui", ["fr", "en"])
def test_a_view_of_a_language_without_the_text_shows_the_other_labelled(tab, site_url, ui):
    go(tab, site_url, f"{ui}/rules/702.html")
    tab.locator('.langswitch button[data-show="fr"]').click()
    note = tab.locator('.run.single .missing-note[data-missing="fr"]')
    assert note.is_visible() and "702" in note.inner_text()
    assert tab.locator('[id="702.2a"] .cell[lang="en"]').is_visible()  # never a blank page
    tab.locator('.langswitch button[data-show="en"]').click()
    assert note.is_hidden() and tab.locator('[id="702.2a"] .cell[lang="en"]').is_visible()
    go(tab, site_url, f"{ui}/glossary.html")
    tab.locator('.langswitch button[data-show="fr"]').click()
    assert tab.locator('.missing-note[data-missing="fr"]').is_visible()
    assert tab.locator('[id="g-en-abandon"]').is_visible()


# ---- 2. pages that fit their content


@pytest.mark.parametrize("tab", BOTH_WIDTHS, indirect=True)
def test_a_rule_with_no_french_text_is_one_column_and_as_tall_in_every_view(tab, site_url):
    go(tab, site_url, "fr/rules/702.html")
    assert tab.locator(".gap, .gap-label").count() == 0
    heights = []
    for show in ("both", "en"):
        tab.locator(f'.langswitch button[data-show="{show}"]').click()
        heights.append(tab.evaluate("document.documentElement.scrollHeight"))
    assert abs(heights[0] - heights[1]) < 100, heights  # no empty French column in the FR | EN view
    cell = box(tab.locator('[id="702.2a"] .cell'))
    assert cell["width"] > (550 if tab.viewport_size["width"] > 700 else 300)


def test_short_missing_runs_keep_their_column(tab, site_url):
    go(tab, site_url, "fr/rules/121.html")
    english = box(tab.locator('[id="121.2a"] .cell[lang="en"]'))
    aligned = box(tab.locator('[id="121.2"] .cell[data-col="en"]'))
    assert abs(english["x"] - aligned["x"]) < 2  # the English text stays in the English column
    note = box(tab.locator('[id="121.2a"] .missing-note'))
    assert abs(note["y"] - english["y"]) < 30 and note["x"] < english["x"]


def test_a_preview_near_the_window_s_bottom_opens_above_its_link(tab, site_url):
    go(tab, site_url, "fr/rules/121.html")
    link = tab.locator('.cell[lang="en"] a.ref').last
    link.scroll_into_view_if_needed()
    height = tab.evaluate("window.innerHeight")
    tab.evaluate("([y, h]) => window.scrollBy(0, y - h + 30)", [link.bounding_box()["y"], height])  # at the bottom
    link.hover()
    tab.locator("#preview").wait_for(state="visible")
    shown, at = tab.locator("#preview").bounding_box(), link.bounding_box()
    assert shown["y"] + shown["height"] <= at["y"] + 1 and shown["y"] >= 0  # above the link, inside the window
    assert "\n" in tab.locator("#preview").inner_text()  # line by line, not one run-on paragraph


def test_french_reference_to_an_english_only_rule_leads_there(tab, site_url):
    go(tab, site_url, "fr/rules/703.html")
    link = tab.locator('.cell[lang="fr"] a.ref-other').first
    assert "français" in link.get_attribute("title") and link.get_attribute("hreflang") == "en"
    link.hover()
    tab.locator("#preview").wait_for(state="visible")
    assert tab.locator("#preview").get_attribute("lang") == "en"
    link.click()
    tab.wait_for_url("**/fr/rules/*.html#*")
    target = tab.url.split("#")[1]
    assert tab.locator(f'[id="{target}"] .cell[lang="en"]').is_visible()


def test_a_french_citation_in_an_older_numbering_leads_where_its_original_does_and_is_flagged(tab, site_url):
    go(tab, site_url, "fr/rules/703.html")
    link = tab.locator('.cell[lang="fr"] a.ref-miscited')
    assert link.inner_text() == "701.21" and link.count() == 1
    flag = tab.locator('.cell[lang="fr"] a.ref-miscited + abbr.cite-flag')
    assert flag.is_visible() and flag.inner_text() == "≠" and flag.get_attribute("lang") == "fr"
    assert "son original (2015) cite 701.22, aujourd’hui 701.32" in flag.get_attribute("title")
    link.focus()
    tab.locator("#preview").wait_for(state="visible")
    assert "Set in Motion" in tab.locator("#preview").inner_text()  # today's 701.32, never Planeswalk
    link.click()
    tab.wait_for_url("**/fr/rules/701.html#701.32")


# ---- 3. finding one's way


@pytest.mark.parametrize("tab", ALL_VIEWS, indirect=True)
def test_header_stays_on_screen_with_search_and_switches(tab, site_url):
    go(tab, site_url, "fr/rules/702.html")
    tab.evaluate("window.scrollTo(0, 6000)")
    header = box(tab.locator("header.top"))
    assert header["y"] == 0 and header["height"] < 70
    for part in ("#q-top", ".langswitch", "a.ui-switch"):
        found = box(tab.locator(part))
        assert found["y"] >= 0 and found["y"] + found["height"] <= header["height"] + 1, part


@pytest.mark.parametrize("tab", BOTH_WIDTHS, indirect=True)
def test_long_rule_lists_its_keywords_and_its_section(tab, site_url):
    go(tab, site_url, "en/rules/702.html")
    toc = tab.locator(".onpage")
    assert toc.locator("li").count() > 100 and "Deathtouch" in toc.text_content()
    wide = tab.viewport_size["width"] > 1100
    assert toc.locator("details").get_attribute("open") == ("" if wide else None)  # folded on a phone
    assert tab.locator("nav.side").is_visible() == wide
    if wide:
        assert tab.locator('nav.side a[aria-current="page"]').inner_text().startswith("702.")
    toc.locator("summary").click() if not wide else None
    toc.locator("a", has_text="Deathtouch").click()
    tab.wait_for_url("**#702.2")
    row = box(tab.locator('[id="702.2"]'))
    assert row["y"] >= box(tab.locator("header.top"))["height"] - 1  # not hidden under the sticky header


@pytest.mark.parametrize("tab", BOTH_WIDTHS, indirect=True)
def test_glossary_a_to_z(tab, site_url):
    go(tab, site_url, "fr/glossary.html")
    bar = tab.locator(".az").first
    letters = bar.locator("a").all_inner_texts()
    assert letters[:3] == ["A", "B", "C"] and len(letters) >= 20
    bar.locator("a", has_text="M").click()
    tab.wait_for_url("**#gl-en-m")  # the letter's heading, its first entry under it
    heading = tab.locator(".letter:target")
    top = box(tab.locator("header.top"))["height"] + box(bar)["height"]
    assert heading.inner_text() == "M" and box(heading)["y"] >= top - 2
    entry = tab.locator(".letter:target + dl .entry").first
    assert entry.locator("dt").inner_text().upper().startswith("M") and box(entry)["y"] < 900
    assert bar.is_visible()  # it stays at hand


def test_previous_and_next_rule(tab, site_url):
    go(tab, site_url, "fr/rules/121.html")
    tab.locator('.pager-bottom a[rel="next"]').click()
    tab.wait_for_url("**/fr/rules/122.html")
    tab.locator('.pager a[rel="prev"]').first.click()
    tab.wait_for_url("**/fr/rules/121.html")


def test_rows_have_one_tab_stop_and_slash_goes_to_search(tab, site_url):
    go(tab, site_url, "fr/rules/702.html")
    per_row = tab.evaluate(
        "Math.max(...[...document.querySelectorAll('.row')].map(r => r.querySelectorAll("
        "':scope > a, :scope > button, :scope > .cell > .num, .cell button, [tabindex]').length))"
    )
    assert per_row == 1
    tab.keyboard.press("/")
    assert tab.evaluate("document.activeElement.id") == "q-top"
    tab.keyboard.type("/x")  # typing a slash in the box stays in the box
    assert tab.locator("#q-top").input_value() == "/x"


def test_clicking_a_row_number_copies_its_link(browser, site_url):
    context = _context(browser, site_url)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=site_url[0].rstrip("/"))
    tab = context.new_page()
    go(tab, site_url, "fr/rules/121.html")
    tab.locator('[id="121.2"] > a.num').click()
    tab.locator("#toast.shown").wait_for()
    assert "121.2" in tab.locator("#toast").inner_text()
    assert tab.evaluate("navigator.clipboard.readText()").endswith("/fr/rules/121.html#121.2")
    context.close()


@pytest.mark.parametrize("tab", ALL_VIEWS, indirect=True)
def test_missing_page_gets_a_real_404(tab, site_url):
    reply = tab.goto(site_url[0] + "en/rules/999.html")
    assert reply.status == 404
    assert tab.locator("html").get_attribute("lang") == "en" and tab.title() == "Page not found"
    assert tab.locator("h1:visible").inner_text() == "Page not found" and tab.locator("h1:visible").count() == 1
    assert scroll_width(tab) <= tab.viewport_size["width"]
    tab.goto(site_url[0] + "rules/121.html")  # an address from before the interface trees
    tab.wait_for_url("**/fr/rules/121.html")


def test_keyboard_reaches_the_content_with_visible_focus(tab, site_url):
    go(tab, site_url, "fr/rules/121.html")
    tab.keyboard.press("Tab")
    assert tab.evaluate("document.activeElement.className") == "skip"
    assert tab.evaluate("getComputedStyle(document.activeElement).outlineStyle") != "none"


def test_the_search_box_keeps_a_focus_ring_of_the_link_colour_not_the_alarm_one(tab, site_url):
    search(tab, site_url, "pioche")  # focused, typed in, asked: still focused
    ring = tab.evaluate("getComputedStyle(document.querySelector('#q')).outlineColor")
    link = tab.evaluate("getComputedStyle(document.querySelector('.site-nav a')).color")
    assert ring == link and tab.evaluate("document.activeElement.id") == "q"


def test_phone_menu_opens_the_site_pages(browser, site_url):
    context = _context(browser, site_url, 360)
    tab = context.new_page()
    go(tab, site_url, "fr/rules/121.html")
    assert tab.locator("#site-nav").is_hidden()
    tab.locator(".menu-button").click()
    mark = tab.locator(".menu-button > span[aria-hidden]").evaluate("s => getComputedStyle(s, '::after').content")
    assert mark == '"✕"' and tab.locator(".menu-button").get_attribute("aria-expanded") == "true"  # open: says so
    tab.locator("#site-nav a", has_text="Glossaire").click()
    tab.wait_for_url("**/fr/glossary.html")
    context.close()


# ---- 4. home page


@pytest.mark.parametrize("tab", BOTH_WIDTHS, indirect=True)
def test_home_page_is_for_people(tab, site_url):
    go(tab, site_url, "fr/index.html")
    main = tab.locator("main").inner_text()
    assert "16 janvier 2026" in main and "26 septembre 2015" in main
    assert tab.locator("main code, main table").count() == 0  # file paths live on the sources page
    assert tab.locator("#q-home").is_visible()
    assert tab.locator("main a", has_text="À propos des sources").count() == 0  # once is enough: the footer's
    tab.locator("footer a", has_text="À propos des sources").click()
    tab.wait_for_url("**/fr/sources.html")
    assert "Le texte officiel des règles du jeu" in tab.locator("main").inner_text()
    assert "cr-en-20260116.txt" not in tab.locator("main").inner_text()  # the files: technical detail, folded
    tab.locator("details.technical summary").click()
    assert "cr-en-20260116.txt" in tab.locator("main").inner_text()


# ---- 5. text rendering


@pytest.mark.parametrize("tab", BOTH_WIDTHS, indirect=True)
def test_card_costs_never_wrap(tab, site_url):
    go(tab, site_url, f"fr/{ISPERIA}")
    for cost in tab.locator(".face-name .cost").all():
        symbols = cost.locator(".ms").all()
        assert len(symbols) == 5 and len({round(box(s)["y"]) for s in symbols}) == 1


def test_faq_prose_draws_symbols_and_dashes(tab, site_url):
    kb = site_url[1]
    assert kb.faqs, "the bundled content has a FAQ"
    go(tab, site_url, "fr/index.html")
    tab.locator('main a[href^="faq/"]').first.click()
    tab.wait_for_url("**/faq/*.html")
    tab.wait_for_load_state()
    text = tab.locator("main").inner_text()
    assert " -- " not in text and "{3}{B}{R}" not in text and "guilde — une association" in text
    assert tab.locator('.ms[aria-label^="{B}"]').count() >= 1


# ---- editions and paired rulings


@pytest.mark.parametrize("tab", BOTH_WIDTHS, indirect=True)
def test_rule_history_opens_on_word_diffs(tab, site_url):
    go(tab, site_url, "fr/rules/121.html")
    history = tab.locator("details.history")
    assert history.get_attribute("open") is None and tab.locator("details.history ins").first.is_hidden()
    history.locator("summary").click()
    story = history.locator("li", has=tab.locator('a[href="#121.1"]'))
    assert story.locator("del").first.inner_text() == "his or her" and story.locator("ins").first.is_visible()
    assert story.locator("ins").first.inner_text() == "their"
    assert "120.1" in story.inner_text() and "renumérotée" in story.inner_text()
    assert scroll_width(tab) <= tab.viewport_size["width"]
    assert _axe(tab) == []  # opened, the diff colours keep their contrast


def test_changes_page_opens_a_changed_rule(tab, site_url):
    go(tab, site_url, "fr/index.html")
    tab.locator(f'main a[href="{CHANGES}"]').click()
    tab.wait_for_url(f"**/fr/{CHANGES}")
    changed = tab.locator(".change-section details").first
    changed.locator("summary").click()
    assert changed.locator("ins, del").first.is_visible()
    tab.locator(".runs a", has_text="121").first.click()
    tab.wait_for_url("**/fr/rules/121.html#121")


@pytest.mark.parametrize("tab", BOTH_WIDTHS, indirect=True)
def test_faq_and_gatherer_rulings_side_by_side(tab, site_url):
    go(tab, site_url, f"fr/{ISPERIA}")
    row = tab.locator(".ruling-row").first
    fr, en = (box(row.locator(f'.ruling[data-col="{lang}"]')) for lang in ("fr", "en"))
    if tab.viewport_size["width"] > 700:
        assert fr["x"] + fr["width"] <= en["x"] and abs(fr["y"] - en["y"]) < 2
        text = [box(tab.locator(f'.card-side[data-col="{lang}"]')) for lang in ("fr", "en")]
        assert text[0]["x"] + text[0]["width"] <= text[1]["x"] and abs(text[0]["y"] - text[1]["y"]) < 2
    else:
        assert en["y"] >= fr["y"] + fr["height"] - 1
    assert "Créature légendaire" in tab.locator('.card-side[data-col="fr"]').inner_text()


# ---- 6. phones


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("ui", ["fr", "en"])
def test_no_horizontal_scrolling_at_360(browser, site_url, ui, scheme):
    context = _context(browser, site_url, 360, scheme)
    tab = context.new_page()
    wide = []
    for path in [*PAGES, "faq/fr-faq-discorde-2006.html"]:
        go(tab, site_url, f"{ui}/{path}")
        if scroll_width(tab) > 360:
            wide.append((path, scroll_width(tab)))
    context.close()
    assert wide == []


# ---- search


def search(tab, site_url, query: str, ui: str = "fr"):
    """Type a query in the search page and press Enter."""
    go(tab, site_url, f"{ui}/search.html")
    tab.locator("#q").fill(query)
    tab.locator("#q").press("Enter")


@pytest.mark.parametrize("tab", BOTH_WIDTHS, indirect=True)
def test_a_result_s_english_title_comes_after_the_interface_s_unofficial_name(tab, site_url):
    search(tab, site_url, "pioche")  # rule 121 is English-titled; the terminology names it « Piocher une carte »
    link = tab.locator('#results > li[data-id="121"] > a')
    link.wait_for()
    assert link.inner_text() == "121 Piocher une carte* · Drawing a Card"
    assert link.locator("span[lang=en]").inner_text() == "Drawing a Card" and "non officiel" in link.get_attribute(
        "title"
    )
    search(tab, site_url, "state-based actions")  # an untitled rule: its heading's unofficial name, then the heading
    link = tab.locator('#results > li[data-id="704.1"] > a')
    link.wait_for()
    assert link.inner_text() == "704.1 Actions basées sur un état* · State-Based Actions"
    search(tab, site_url, "mal d'invocation")  # an untitled rule named for the glossary term it defines
    link = tab.locator('#results > li[data-id="302.6"] > a')
    link.wait_for()
    assert link.inner_text() == "302.6 Règle du mal d’invocation* · Créatures*"  # its section's name, not Creatures


@pytest.mark.parametrize(("query", "expected"), [("pioche", "rules/121.html"), ("draw", "rules/121.html")])
def test_word_search_finds_rules(tab, site_url, query, expected):
    search(tab, site_url, query)
    tab.locator("#results li a").first.wait_for()
    hrefs = tab.locator("#results li a").evaluate_all("els => els.map(e => e.getAttribute('href'))")
    assert any(expected in h for h in hrefs), hrefs


def test_rule_number_jumps(tab, site_url):
    search(tab, site_url, "121.2a")
    tab.wait_for_url("**/fr/rules/121.html#121.2a")
    go(tab, site_url, "en/index.html")
    tab.locator("#q-home").fill("rule 704.5k")
    tab.locator("#q-home").press("Enter")
    tab.wait_for_url("**/en/rules/704.html#704.5k")


# ---- 8. accessibility


@pytest.mark.parametrize("tab", ALL_VIEWS, indirect=True)
@pytest.mark.parametrize("path", ["fr/index.html", "en/rules/121.html", f"fr/{ISPERIA}", "en/report.html", "404.html"])
def test_no_serious_accessibility_violation(tab, site_url, path):
    go(tab, site_url, path)
    assert _axe(tab) == []


@pytest.mark.parametrize("tab", [(1280, "dark"), (360, "light")], indirect=True)
@pytest.mark.parametrize(
    "path",
    [
        "fr/rules/702.html",
        "fr/rules/703.html",
        "en/glossary.html",
        "fr/glossary.html",
        "fr/contents.html",
        "en/cards.html",
        "fr/search.html",
        f"en/{CHANGES}",
    ],  # fmt: skip
)
def test_no_serious_accessibility_violation_on_long_pages(tab, site_url, path):
    go(tab, site_url, path)
    assert _axe(tab) == []


def test_faq_page_is_accessible(tab, site_url):
    go(tab, site_url, "en/index.html")
    tab.locator('main a[href^="faq/"]').first.click()
    tab.wait_for_url("**/faq/*.html")
    tab.wait_for_load_state()
    assert _axe(tab) == []


@pytest.fixture(scope="module")
def odd_text_url(tmp_path_factory):
    """A one-rule site whose text holds markup-like characters, served on 127.0.0.1."""
    from kb.link.load import load
    from kb.site.write import build_site

    root = tmp_path_factory.mktemp("odd")
    (root / "content" / "en").mkdir(parents=True)
    (root / "content" / "en" / "cr.txt").write_text(
        "120. Drawing\n\n120.1. Zebras keep <b>bold</b> & write &lt;it&gt; plainly.\n", encoding="utf-8"
    )
    build_site(load(root / "content"), root / "site")
    with served(root / "site") as url:
        yield url


def test_rule_text_shows_markup_as_written(browser, odd_text_url):
    context = browser.new_context()
    tab = context.new_page()
    tab.goto(odd_text_url + "en/rules/120.html")
    cell = tab.locator('[id="120.1"] .cell')
    assert "Zebras keep <b>bold</b> & write &lt;it&gt; plainly." in cell.inner_text()
    assert cell.locator("b").count() == 0
    context.close()
