"""The built site in real headless Chromium: aligned columns, previews, language switch, search, phone, axe."""

from __future__ import annotations

import shutil
import threading

import pytest

from tests.conftest import CONTENT, CR2015, ROOT

pytestmark = pytest.mark.browser
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
AXE = ROOT / "tests" / "vendor" / "axe-core" / "axe.min.js"
if CHROMIUM is None:
    pytest.skip("chromium is not installed (apt-get install chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright (Python) is not installed")


@pytest.fixture(scope="module")
def site_url(tmp_path_factory):
    """The bundled content plus the 2015 English CR, built and served on 127.0.0.1."""
    from kb.link.load import load
    from kb.site.serve import make_server, url_of
    from kb.site.write import build_site

    root = tmp_path_factory.mktemp("browser")
    content = root / "content"
    shutil.copytree(CONTENT, content)
    shutil.copy(CR2015, content / "en" / CR2015.name)
    kb = load(content)
    build_site(kb, root / "site")
    server = make_server(root / "site", port=0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield url_of(server), kb
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def browser():
    """Headless Debian Chromium, no network beyond 127.0.0.1."""
    with sync_api.sync_playwright() as pw:
        chromium = pw.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--disable-background-networking"]
        )
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser, site_url):
    """A fresh page (fresh localStorage) that fails on any request leaving 127.0.0.1."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    outside = []
    context.route(
        "**/*",
        lambda route: (
            route.continue_()
            if route.request.url.startswith(site_url[0])
            else (outside.append(route.request.url), route.abort())
        ),
    )
    tab = context.new_page()
    errors = []
    tab.on("pageerror", lambda err: errors.append(str(err)))
    yield tab
    context.close()
    assert outside == [], "requests left the site"
    assert errors == [], "JavaScript errors"


def box(locator):
    """The bounding box of a visible element."""
    found = locator.bounding_box()
    assert found is not None
    return found


def test_rule_page_shows_both_columns_side_by_side(page, site_url):
    page.goto(site_url[0] + "rules/120.html")
    row = page.locator('[id="120.2a"]')
    fr, en = row.locator('[data-col="fr"]'), row.locator('[data-col="en"]')
    assert fr.is_visible() and en.is_visible()
    assert "piocher" in fr.inner_text() and "draw" in en.inner_text()
    assert box(fr)["x"] + box(fr)["width"] <= box(en)["x"] and abs(box(fr)["y"] - box(en)["y"]) < 2


def test_reference_preview_on_hover_and_on_focus(page, site_url):
    page.goto(site_url[0] + "rules/120.html")
    link = page.locator('[id="120.4"] [data-col="en"] a.ref').first
    tip = page.locator("#preview")
    link.hover()
    tip.wait_for(state="visible")
    assert tip.inner_text().startswith("704")
    page.mouse.move(0, 0)
    page.keyboard.press("Escape")
    tip.wait_for(state="hidden")
    link.focus()
    tip.wait_for(state="visible")
    assert "704" in tip.inner_text()
    page.keyboard.press("Escape")
    tip.wait_for(state="hidden")


def test_language_switch_is_remembered(page, site_url):
    page.goto(site_url[0] + "rules/120.html")
    page.locator('.langswitch button[data-show="fr"]').click()
    assert page.locator('[id="120.1"] [data-col="en"]').is_hidden()
    page.goto(site_url[0] + "rules/703.html")
    assert page.locator("html").get_attribute("data-show") == "fr"
    assert page.locator('[id="703.1"] [data-col="en"]').is_hidden()
    assert page.locator('[id="703.1"] [data-col="fr"]').is_visible()
    assert page.locator('.langswitch button[data-show="fr"]').get_attribute("aria-pressed") == "true"
    page.locator('.langswitch button[data-show="both"]').click()
    assert page.locator('[id="703.1"] [data-col="en"]').is_visible()


def search(page, site_url, query: str):
    """Type a query in the search page and press Enter."""
    page.goto(site_url[0] + "search.html")
    page.locator("#q").fill(query)
    page.locator("#q").press("Enter")


@pytest.mark.parametrize(
    ("query", "expected"),
    [("pioche", "rules/120.html"), ("etape", "rules/"), ("draw", "rules/120.html"), ("bibliotheque", "rules/120.html")],
)
def test_word_search_finds_rules(page, site_url, query, expected):
    search(page, site_url, query)
    page.locator("#results li a").first.wait_for()
    hrefs = page.locator("#results li > a").evaluate_all("els => els.map(e => e.getAttribute('href'))")
    assert any(expected in h for h in hrefs), hrefs
    first = page.locator("#results li > a").first
    first.click()
    page.wait_for_load_state()
    assert page.url.startswith(site_url[0]) and "search.html" not in page.url


@pytest.mark.parametrize("query", ["bibliotheque vide", "empty library", "perd la partie"])
def test_search_shows_the_best_matching_subrule(page, site_url, query):
    search(page, site_url, query)
    page.locator("#results li a").first.wait_for()
    hrefs = page.locator("#results li > a").evaluate_all("els => els.map(e => e.getAttribute('href'))")
    rule_120 = [h for h in hrefs if h.startswith("rules/120.html")]
    assert "rules/120.html#120.4" in rule_120[:3], hrefs
    if query != "empty library":  # the English 120.4 says "no cards in it", 120.5 says "empty library"
        assert rule_120[0] == "rules/120.html#120.4", hrefs


@pytest.mark.parametrize("query", ["constructor", "__proto__"])
def test_jump_map_ignores_inherited_names(page, site_url, query):
    search(page, site_url, query)
    page.locator("#search-status").filter(has_text="result").wait_for()
    assert "search.html" in page.url and "undefined" not in page.url and "function" not in page.url


def test_rule_number_jumps(page, site_url):
    search(page, site_url, "120.2a")
    page.wait_for_url("**/rules/120.html#120.2a")
    page.goto(site_url[0] + "index.html")
    page.locator("#q-home").fill("règle 703.4k")
    page.locator("#q-home").press("Enter")
    page.wait_for_url("**/rules/703.html#703.4k")


def test_card_name_jumps(page, site_url):
    kb = site_url[1]
    card = next((c for c in kb.cards if "en" in c.names and " // " not in c.names["en"]), None)
    assert card is not None, "the bundled content has cards with English names (MTGJSON)"
    search(page, site_url, card.names["en"].upper())
    page.wait_for_url("**/cards/*.html")
    assert card.names["en"] in page.locator("h1").inner_text()


def test_columns_stack_on_a_phone(browser, site_url, tmp_path):
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2)
    tab = context.new_page()
    tab.goto(site_url[0] + "rules/120.html")
    row = tab.locator('[id="120.2a"]')
    fr, en = box(row.locator('[data-col="fr"]')), box(row.locator('[data-col="en"]'))
    assert en["y"] >= fr["y"] + fr["height"] - 1 and abs(fr["x"] - en["x"]) < 2
    assert fr["width"] > 300
    width = tab.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, "no horizontal scrolling"
    tab.screenshot(path=str(tmp_path / "phone-120.png"), full_page=False)
    assert (tmp_path / "phone-120.png").stat().st_size > 0
    context.close()


def test_keyboard_reaches_the_content_with_visible_focus(page, site_url):
    page.goto(site_url[0] + "rules/120.html")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.className") == "skip"
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline != "none"


@pytest.mark.parametrize(
    "path",
    [
        "index.html",
        "rules/120.html",
        "rules/703.html",
        "contents.html",
        "search.html",
        "report.html",
        "cards.html",
        "glossary.html",
    ],
)
def test_no_serious_accessibility_violation(page, site_url, path):
    page.goto(site_url[0] + path)
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    bad = [
        (v["id"], v["impact"], [n["target"] for n in v["nodes"][:3]])
        for v in result["violations"]
        if v["impact"] in ("serious", "critical")
    ]
    assert bad == []


def test_card_and_faq_pages_are_accessible(page, site_url):
    kb = site_url[1]
    assert kb.cards, "the bundled content has cards"
    page.goto(site_url[0] + "cards.html")
    page.locator(".card-list a").first.click()
    page.wait_for_load_state()
    for _ in range(2):
        page.add_script_tag(path=str(AXE))
        result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
        assert [v["id"] for v in result["violations"] if v["impact"] in ("serious", "critical")] == []
        if not kb.faqs:
            break
        page.goto(site_url[0] + "index.html")
        page.locator('a[href^="faq/"]').first.click()
        page.wait_for_load_state()


@pytest.fixture(scope="module")
def odd_text_url(tmp_path_factory):
    """A one-rule site whose text holds markup-like characters, served on 127.0.0.1."""
    from kb.link.load import load
    from kb.site.serve import make_server, url_of
    from kb.site.write import build_site

    root = tmp_path_factory.mktemp("odd")
    (root / "content" / "en").mkdir(parents=True)
    (root / "content" / "en" / "cr.txt").write_text(
        "120. Drawing\n\n120.1. Zebras keep <b>bold</b> & write &lt;it&gt; plainly.\n", encoding="utf-8"
    )
    build_site(load(root / "content"), root / "site")
    server = make_server(root / "site", port=0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield url_of(server)
    server.shutdown()
    server.server_close()


def test_search_excerpts_show_the_text_as_written(browser, odd_text_url):
    context = browser.new_context()
    context.route(
        "**/*", lambda route: route.continue_() if route.request.url.startswith(odd_text_url) else route.abort()
    )
    tab = context.new_page()
    errors = []
    tab.on("pageerror", lambda err: errors.append(str(err)))
    tab.goto(odd_text_url + "search.html")
    tab.locator("#q").fill("zebras")
    tab.locator("#q").press("Enter")
    snippet = tab.locator("#results .snippet").first
    snippet.wait_for()
    assert "Zebras keep <b>bold</b> & write &lt;it&gt; plainly." in snippet.inner_text()
    assert snippet.locator("b").count() == 0 and snippet.locator("mark").count() >= 1
    context.close()
    assert errors == []
