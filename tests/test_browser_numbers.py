"""The number box in real headless Chromium: a number the French text numbers otherwise offers both rules."""

from __future__ import annotations

import pytest

from tests.browsing import CHROMIUM, chromium, guarded_page, served
from tests.conftest import CONTENT

pytestmark = pytest.mark.browser
if CHROMIUM is None:
    pytest.skip("chromium is not installed (apt-get install chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright (Python) is not installed")


@pytest.fixture(scope="module")
def site_path(tmp_path_factory):
    """The bundled content (both English editions), built without its search index."""
    from kb.link.load import load
    from kb.site.write import build_site

    return build_site(load(CONTENT), tmp_path_factory.mktemp("numbers") / "site", search=False).out


@pytest.fixture(scope="module")
def site_url(site_path):
    """The site, served on 127.0.0.1."""
    with served(site_path) as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    with chromium(sync_api) as found:
        yield found


def _label(link) -> str:
    """A choice's label, the first words of its rule aside."""
    return link.evaluate("a => [...a.childNodes].filter(n => !n.classList?.contains('jump-start'))"
                         ".map(n => n.textContent).join('')")  # fmt: skip


def _typed(page, base: str, path: str, text: str):
    page.goto(base + path)
    page.fill("#q-top", text)
    page.press("#q-top", "Enter")


@pytest.mark.parametrize("width", [1280, 360])
def test_french_interface_offers_the_french_rule_first_then_todays(browser, site_url, width):
    with guarded_page(browser, site_url, width=width) as page:
        _typed(page, site_url, "fr/rules/703.html", "règle 120.4")
        links = page.locator("#jump-choice a")
        links.first.wait_for()
        assert [_label(a) for a in links.all()] == [
            "120.4 du texte français (numérotation 2015) → 121.4 aujourd’hui",
            "120.4 aujourd’hui\u00a0: Damage",
        ]
        # each says what its rule is: its first words, in its language; the English title tagged as such
        starts = page.locator("#jump-choice .jump-start")
        assert starts.first.inner_text().startswith("Un joueur qui tente de piocher")
        assert starts.nth(1).get_attribute("lang") == "en" and starts.nth(1).inner_text().startswith("Damage is")
        assert links.nth(1).locator('span[lang="en"]').first.inner_text() == "Damage"
        assert page.locator("#jump-choice").evaluate("e => e.getBoundingClientRect().right") <= width
        assert page.evaluate("document.activeElement.textContent").startswith("120.4 du texte français")
        links.first.click()
        page.wait_for_url("**/fr/rules/121.html#121.4")


def test_english_interface_keeps_todays_rule_first(browser, site_url):
    with guarded_page(browser, site_url) as page:
        _typed(page, site_url, "en/rules/121.html", "120.4")
        links = page.locator("#jump-choice a")
        links.first.wait_for()
        assert [_label(a) for a in links.all()] == [
            "120.4 today: Damage",
            "120.4 of the French text (2015 numbering) → 121.4 today",
        ]
        assert links.nth(1).get_attribute("lang") is None  # the interface's words, not French
        assert links.nth(1).locator(".jump-start").get_attribute("lang") == "fr"
        links.nth(0).click()
        page.wait_for_url("**/en/rules/120.html#120.4")


def test_a_french_rule_with_no_rule_of_today_and_a_number_no_one_else_has(browser, site_url):
    with guarded_page(browser, site_url) as page:
        _typed(page, site_url, "fr/index.html", "703.4h")
        links = page.locator("#jump-choice a")
        links.first.wait_for()
        assert _label(links.first) == ("703.4h du texte français (numérotation 2015)\u00a0: aucune règle d’aujourd’hui")
        assert links.first.get_attribute("href").endswith("/fr/rules/703.html#fr-703.4h")
        page.keyboard.press("Escape")
        assert page.locator("#jump-choice").count() == 0
        _typed(page, site_url, "fr/index.html", "121.4")  # today's number only: straight there, no choice
        page.wait_for_url("**/fr/rules/121.html#121.4")


def test_opened_from_disk_a_typed_number_still_finds_its_rule(browser, site_path):
    # file:// refuses fetch and modules: the box reads jump.js, a classic script, instead of jump.json
    context = browser.new_context()
    page = context.new_page()
    page.goto((site_path / "en" / "rules" / "100.html").as_uri())
    page.fill("#q-top", "See rule 704.5g")
    page.press("#q-top", "Enter")
    page.wait_for_url("**/en/rules/704.html#704.5g")
    assert page.url.startswith("file://")
    page.goto((site_path / "fr" / "rules" / "703.html").as_uri())
    page.fill("#q-top", "règle 120.4")  # a number the French text gives another rule: both offered, as served
    page.press("#q-top", "Enter")
    links = page.locator("#jump-choice a")
    links.first.wait_for()
    assert [_label(a) for a in links.all()] == [
        "120.4 du texte français (numérotation 2015) → 121.4 aujourd’hui",
        "120.4 aujourd’hui\u00a0: Damage",
    ]
    links.first.click()
    page.wait_for_url("**/fr/rules/121.html#121.4")
    context.close()
