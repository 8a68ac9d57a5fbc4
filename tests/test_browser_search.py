"""The site's search in real headless Chromium: kb's own ranking (the CLI's results), one result per rule, the
reader's language first, `-word` and `lang:`, spelling corrections, words found through the lexicon of printed
cards (labelled so), messages for `edition:` and for file://."""

from __future__ import annotations

import re
import shutil

import pytest

from tests.browsing import CHROMIUM, chromium, guarded_page, served
from tests.conftest import CONTENT, CR2026

pytestmark = pytest.mark.browser
if CHROMIUM is None:
    pytest.skip("chromium is not installed (apt-get install chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright (Python) is not installed")


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The 2026 English CR, the French seeds, the Dissension cards and the lexicon: built, served on 127.0.0.1, and
    indexed for the CLI too."""
    from kb.link.load import load
    from kb.search.index import open_index
    from kb.site.write import build_site

    root = tmp_path_factory.mktemp("browser-search")
    content = root / "content"
    (content / "en").mkdir(parents=True)
    (content / "fr").mkdir()
    shutil.copy(CR2026, content / "en" / CR2026.name)
    for path in (CONTENT / "en").glob("cards-*.json"):
        shutil.copy(path, content / "en" / path.name)
    for path in [*(CONTENT / "fr").glob("*.txt"), *(CONTENT / "fr").glob("lexique-*.json")]:
        shutil.copy(path, content / "fr" / path.name)
    for path in (CONTENT / "fr").glob("*.tsv"):  # the terminology and the paraphrase tables
        shutil.copy(path, content / "fr" / path.name)
    for path in (CONTENT / "en").glob("*.tsv"):
        shutil.copy(path, content / "en" / path.name)
    kb = load(content)
    build_site(kb, root / "site")
    index = open_index(content, kb)
    with served(root / "site") as url:
        yield url, index, root / "site"
    index.close()


@pytest.fixture(scope="module")
def browser():
    """Headless Debian Chromium, no network beyond 127.0.0.1."""
    with chromium(sync_api) as found:
        yield found


@pytest.fixture
def page(browser, site):
    """A fresh page that fails on any request leaving 127.0.0.1 and on any JavaScript error."""
    with guarded_page(browser, site[0]) as tab:
        yield tab


def ask(page, site, query: str, ui: str = "en") -> list[str]:
    """Type a query in the search page of an interface, press Enter; the ids of the results, in order."""
    page.goto(f"{site[0]}{ui}/search.html")
    page.locator("#q").fill(query)
    page.locator("#q").press("Enter")
    page.wait_for_function("q => document.getElementById('results').dataset.query === q", arg=query)
    return page.locator("#results > li[data-id]").evaluate_all("els => els.map(e => e.dataset.id)")


@pytest.mark.parametrize(
    "query",
    ["trample", "deathtouch trample", "storm count", "can a tapped creature block", "{T}", "bibliotheque vide",
     "que se passe-t-il si je pioche dans une bibliothèque vide", "+1/+1 counter", "étape de fin",
     "piétinement", "piétinement contact mortel", "forecast upkeep", "pietinnement", "declaration des bloquers",
     "lifelnk", "pietinnement lang:en", "défausserions", "who goes first", "tuer une créature", "la pile",
     "mal d'invocation", "aura", "can I respond when my opponent's creature goes to the graveyard", "hsate",
     '"ne passent pas par la pile"', '"mal d\'invocation" règle', '"+1/+1 counter" "at the beginning of"',
     "un jeton qui a quitté le champ de bataille", "une aura attachée à une créature",
     "mon adversaire a le droit de regarder ma main", "droits", "revenir en jeu"],
)  # fmt: skip
def test_the_site_ranks_as_the_cli(page, site, query):
    expected = [r.id for r in site[1].search(query, limit=30)]
    assert ask(page, site, query) == expected


def test_the_start_of_one_cards_name_opens_the_card(page, site):
    page.goto(f"{site[0]}en/search.html")
    page.locator("#q").fill("isper")
    page.wait_for_function("() => document.getElementById('results').dataset.query === 'isper'")  # typing: a list
    assert page.url.endswith("/en/search.html?q=isper")
    page.locator("#q").press("Enter")  # asked: the one card whose name it begins
    page.wait_for_url("**/en/cards/isperia-the-inscrutable.html")
    page.go_back()  # its results, as kb search gives them, never jumped from again
    page.wait_for_function("() => document.getElementById('results').dataset.query === 'isper'")
    ids = page.locator("#results > li[data-id]").evaluate_all("els => els.map(e => e.dataset.id)")
    assert ids == [r.id for r in site[1].search("isper", limit=30)] and ids[0] == "isperia-the-inscrutable"
    assert page.url.endswith("/en/search.html?q=isper")
    assert len(ask(page, site, "sky")) > 1  # Sky Hussar, but a rule holds the word too: the list stays
    assert page.url.endswith("/en/search.html?q=sky")


def test_trample_gives_its_rule_first_linking_its_anchor(page, site):
    assert ask(page, site, "trample")[0] == "702.19"
    assert page.locator("#results > li > a").first.get_attribute("href") == "rules/702.html?found=Trample#702.19"


def test_the_words_found_are_marked_on_the_page_a_result_opens(page, site):
    ask(page, site, "deathtouch trample")
    page.locator("#results > li[data-id='702.19'] > a").click()
    page.wait_for_url("**/en/rules/702.html?found=*#702.19")
    marks = page.locator("mark.found")
    marks.first.wait_for()
    assert {m.lower() for m in marks.all_inner_texts()} == {"trample"}  # what the result's snippet marked
    inside = page.locator("[id='702.19'] mark.found, [id^='702.19'] mark.found")  # the rule and its subrules
    assert inside.count() == marks.count() and page.locator("[id='702.19a'] mark.found").count() > 0
    assert page.locator("[id='702.1'] mark.found, [id='702.2'] mark.found").count() == 0  # not 702.1x, nor others
    ask(page, site, "isperia impénétrable", "fr")  # a card (no anchor): marked in the whole page, either language
    page.locator("#results > li[data-kind=card] > a").first.click()
    page.wait_for_url("**/fr/cards/isperia-the-inscrutable.html?found=*")
    page.locator("main mark.found").first.wait_for()
    assert {m.lower() for m in page.locator("main mark.found").all_inner_texts()} >= {"isperia", "impénétrable"}


def test_french_word_finds_the_english_rule_labelled_as_translated(page, site):
    found = ask(page, site, "piétinement", "fr")
    assert "702.19" in found[:3]
    item = page.locator("#results > li[data-id='702.19']")
    assert item.locator("a").first.get_attribute("href") == "rules/702.html?found=Trample#702.19"
    assert item.locator(".via").count() == 0  # found by its French name (the terminology's), not by translation
    item = page.locator("#results > li[data-id='702.19a']")  # found only through the word's translation
    label = item.locator(".via")
    assert label.inner_text() == "par le lexique de kb, non officiel\u00a0: piétinement → trample"
    assert "pas par une traduction officielle" in label.get_attribute("title")
    assert item.locator(".snippet mark").first.inner_text().lower() == "trample"
    direct = page.locator("#results > li[data-kind=card]").first  # its French text holds the word as typed
    assert direct.locator(".via").count() == 0 and direct.locator(".snippet[lang=fr] mark").count() > 0
    ask(page, site, "piétinement")
    via = page.locator("#results > li[data-id='702.19a'] .via").inner_text()
    assert via == "through kb's lexicon, unofficial: piétinement → trample"


def test_players_words_found_in_the_rules_words_say_so(page, site):
    found = ask(page, site, "tuer une créature", "fr")
    label = page.locator(f"#results > li[data-id='{found[0]}'] .via")
    assert label.inner_text() == (
        "dans les mots des règles\u00a0: tuer → détruire / meurt ; "
        "par le lexique de kb, non officiel\u00a0: tuer → dies"  # Dies holds `dies`, not `destroy`
    )
    assert "paraphrases" in label.get_attribute("title") and "non officiel" in label.get_attribute("title")
    assert "103.1" in ask(page, site, "who goes first")[:3]  # CR 103.1 names the starting player, not "going first"
    ask(page, site, "mal d'invocation", "fr")  # the word cut by its apostrophe, shown as typed
    assert "mal d'invocation →" in page.locator("#results .via").first.inner_text()


def test_one_result_per_rule_and_every_rule_reachable(page, site):
    found = ask(page, site, "pioche lang:fr", "fr")  # French texts only: English ones through `draw` aside
    assert len(found) == len(set(found))
    assert "121.1" in found  # French 120.1, in today's row 121.1; no longer hidden behind its page's first subrules


def test_words_never_match_symbols_or_stop_words(page, site):
    ask(page, site, "pioche", "fr")
    marks = page.locator("#results .snippet[lang=fr] mark").all_inner_texts()  # English ones: its translation
    assert marks and all(m.lower().startswith("pioch") for m in marks)  # never {P}
    ask(page, site, "étape de fin", "fr")
    marks = {m.lower() for m in page.locator("#results .snippet[lang=fr] mark").all_inner_texts()}
    assert "de" not in marks and "des" not in marks and marks <= {"étape", "étapes", "fin", "fins", "etape"}


def test_snippets_show_the_text_once_as_written(page, site):
    ask(page, site, "bibliotheque vide", "fr")
    first = page.locator("#results > li").first.locator(".snippet").first.inner_text()
    assert "bibliothèque" in first and "bibliotheque" not in first
    assert first.count("120.4") == 0 and "_" not in first


def test_symbols_in_snippets_are_drawn_as_on_the_pages(page, site):
    ask(page, site, "{T}")
    first = page.locator("#results > li").first.locator(".snippet").first
    drawn = first.locator(".ms")
    assert drawn.count() and "{T}" not in first.inner_text()
    assert drawn.first.get_attribute("aria-label").startswith("{T}")  # named for screen readers, in English here


def test_titles_in_the_interface_language(page, site):
    for ui, name in (("en", "Isperia the Inscrutable"), ("fr", "Isperia l’impénétrable")):
        ask(page, site, "isperia inscrutable", ui)
        titles = page.locator("#results > li[data-kind=card] > a").all_inner_texts()
        assert titles[0].replace("'", "’") == name, ui


def test_a_ruling_and_its_translation_are_one_result(page, site):
    ask(page, site, "haste kind:ruling")
    first = page.locator("#results > li").first
    assert first.get_attribute("data-kind") == "ruling"
    assert {first.locator(".snippet").first.get_attribute("lang"), "fr"} <= {"en", "fr"}
    assert first.locator("details.other-lang .snippet[lang=fr]").count() == 1  # the French FAQ ruling beside it


def test_a_page_of_results_says_so_and_offers_the_next(page, site):
    first = ask(page, site, "creature")
    status = page.locator("#search-status").inner_text()
    total = int(re.fullmatch(r"The first 30 of (\d+) results", status)[1])  # a page of how many
    assert len(first) == 30 and total > 30
    page.locator("#results button.more").click()
    page.wait_for_function("() => document.querySelectorAll('#results > li[data-id]').length > 30")
    more = page.locator("#results > li[data-id]").evaluate_all("els => els.map(e => e.dataset.id)")
    assert more[:30] == first and len(more) > 30


def test_results_say_what_they_are(page, site):
    ask(page, site, "isperia impénétrable", "fr")  # the card, then the FAQ's rulings of it: each says which it is
    kinds = page.locator("#results > li .kind").all_inner_texts()
    assert kinds[:2] == ["carte", "décision"]


def test_an_unfinished_last_word_is_read_as_the_start_of_a_word_while_typing(page, site):
    page.goto(f"{site[0]}fr/search.html")
    page.locator("#q").press_sequentially("bless", delay=20)
    page.wait_for_function("() => document.getElementById('results').dataset.query === 'bless'")
    assert "bliss" not in page.locator("#search-status").inner_text().lower()  # no English correction
    marks = page.locator("#results .snippet mark").all_inner_texts()
    assert marks and all(m.lower().startswith("bless") for m in marks)


def new_q(page) -> str:
    return page.evaluate("() => new URL(location.href).searchParams.get('q')")


def test_a_word_begun_is_never_said_to_have_no_result_and_the_address_follows_the_typing(page, site):
    page.goto(f"{site[0]}fr/search.html")
    page.locator("#q").press_sequentially("pi", delay=20)
    page.wait_for_function("() => document.getElementById('results').dataset.query === 'pi'")  # asked and answered
    assert new_q(page) == "pi"
    assert page.locator("#search-status").inner_text() == "" and page.locator("#results > li").count() == 0
    page.locator("#q").press_sequentially("oche", delay=20)
    page.wait_for_function("() => document.getElementById('results').dataset.query === 'pioche'")
    assert page.locator("#results > li").count() and "q=pioche" in page.url  # to share or come back to
    page.reload()
    page.wait_for_function("() => document.getElementById('results').dataset.query === 'pioche'")


def test_a_title_in_another_language_says_so(page, site):
    ask(page, site, "pioche", "fr")  # 121.1 has no French heading: its English one, tagged English (the glossary's
    first = page.locator('#results > li[data-id="121.1"]').locator("a").first  # Draw, the word's own entry, first)
    assert first.inner_text().startswith("121.1 ") and first.get_attribute("lang") == "en"


def test_reader_language_first_the_other_one_click_away(page, site):
    ask(page, site, "draw", "fr")
    item = page.locator("#results > li").filter(has=page.locator("details.other-lang")).first
    assert item.locator(":scope > .snippet").get_attribute("lang") == "fr"
    other = item.locator("details.other-lang .snippet")
    assert other.get_attribute("lang") == "en" and not other.is_visible()
    item.locator("details.other-lang summary").click()
    assert other.is_visible()


def test_minus_word_and_lang_filter(page, site):
    with_word = ask(page, site, "pioche lang:fr", "fr")
    without = ask(page, site, "pioche -bibliothèque lang:fr", "fr")
    assert "121.4" in with_word and "121.4" not in without and without  # French 120.4, today's 121.4
    ask(page, site, "lang:fr draw", "en")  # French texts only, found through the translation of `draw`
    items = page.locator("#results > li[data-id]")
    assert items.count() > 0 and page.locator("#results > li[data-id]:not(:has(.snippet[lang=fr]))").count() == 0
    assert page.locator("#results > li > .via").count() == items.count()


def test_misspelling_is_corrected_with_a_link(page, site):
    assert ask(page, site, "tramle")[0] == "702.19"
    status = page.locator("#search-status")
    assert "Did you mean" in status.inner_text()
    status.locator("a").click()
    page.wait_for_function("() => document.getElementById('results').dataset.query === 'trample'")
    assert page.locator("#q").input_value() == "trample"


def test_edition_filter_says_it_is_for_the_cli(page, site):
    assert ask(page, site, "storm edition:2015-09-26") == []
    assert "command line only" in page.locator("#search-status").inner_text()  # in the interface's words


def test_malformed_query_is_one_clear_message(page, site):
    assert ask(page, site, '"unbalanced') == []
    assert "Unbalanced quote" in page.locator("#search-status").inner_text()  # in the interface's words
    ask(page, site, '"unbalanced', "fr")
    assert "Guillemet non fermé" in page.locator("#search-status").inner_text()


def test_opened_from_disk_the_page_says_why_search_cannot_work(browser, site):
    context = browser.new_context()
    tab = context.new_page()
    tab.goto((site[2] / "en" / "search.html").as_uri())
    note = tab.locator("#search-file")
    note.wait_for(state="visible")
    assert "kb serve" in note.inner_text()
    context.close()


def test_a_kind_filter_keeps_one_kind_as_kb_search_kind_does(page, site):
    everything = ask(page, site, "trample")
    page.locator("#kinds input[value=card]").check()
    page.wait_for_function("() => new URL(location.href).searchParams.get('kind') === 'card'")
    page.wait_for_function(
        "() => { const els = [...document.querySelectorAll('#results > li[data-id]')];"
        " return els.length > 0 && els.every(e => e.dataset.kind === 'card'); }"
    )
    cards = page.locator("#results > li[data-id]").evaluate_all("els => els.map(e => e.dataset.id)")
    assert cards == [r.id for r in site[1].search("trample", kind="card", limit=30)]  # as kb search --kind card
    assert cards and cards != everything[: len(cards)]
    page.goto(page.url)  # the address keeps the filter: opened again, the same results
    page.wait_for_function("() => document.getElementById('results').dataset.query === 'trample'")
    assert page.locator("#kinds input[value=card]").is_checked()
    assert page.locator("#results > li[data-id]").evaluate_all("els => els.map(e => e.dataset.id)") == cards


def test_each_search_is_a_history_entry_and_back_restores_the_list_where_it_was(page, site):
    page.set_viewport_size({"width": 800, "height": 500})
    ask(page, site, "trample")
    page.locator("#q").fill("deathtouch")
    page.locator("#q").press("Enter")
    page.wait_for_function("() => document.getElementById('results').dataset.query === 'deathtouch'")
    page.evaluate("window.scrollTo(0, 300)")
    page.wait_for_function("() => window.scrollY === 300")
    opened = page.locator("#results > li > a").nth(6)
    href = opened.get_attribute("href")
    opened.click()
    page.wait_for_url(re.compile(re.escape(href.split("#")[0])))
    page.go_back()
    page.wait_for_function("() => document.getElementById('results').dataset.query === 'deathtouch'")
    page.wait_for_function("() => window.scrollY === 300")  # where the reader left the list
    assert page.locator("#q").input_value() == "deathtouch"
    page.go_back()  # the search before: its own entry
    page.wait_for_function("() => document.getElementById('results').dataset.query === 'trample'")
    assert page.locator("#q").input_value() == "trample"


def test_back_from_a_rule_number_jumped_to_never_jumps_again(page, site):
    page.goto(f"{site[0]}en/search.html?q=702.19")
    page.wait_for_url(re.compile(r"rules/702\.html#702\.19$"))
    page.go_back()
    page.wait_for_function("() => document.getElementById('results').dataset.query === '702.19'")
    assert page.url.endswith("search.html?q=702.19")  # the search page, its results listed: not sent forward again
    assert page.locator("#results > li[data-id]").first.get_attribute("data-id") == "702.19"


def test_the_empty_page_suggests_queries_that_answer(page, site):
    page.goto(f"{site[0]}fr/search.html")
    examples = page.locator("#search-examples a")
    assert examples.all_inner_texts() == ["702.19", "la pile", "mal d'invocation", "qui commence la partie"]
    examples.nth(1).click()
    page.wait_for_url(re.compile(r"search\.html\?q=la(\+|%20)pile$"))  # the example's own page, then its results
    page.wait_for_function("() => document.getElementById('results').dataset.query === 'la pile'")
    assert page.locator("#results > li[data-id]").first.get_attribute("data-id") == "405"
    assert not page.locator("#search-examples").is_visible()  # results shown: the suggestions make way
