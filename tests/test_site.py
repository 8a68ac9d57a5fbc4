"""The static site: every page valid HTML5 with unique ids and no broken internal link; pages, atomic build, serve."""

from __future__ import annotations

import dataclasses
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import threading
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import html5lib
import pytest
from click.testing import CliRunner
from markupsafe import Markup, escape

from kb.link.load import with_readings
from kb.model import Card, Face, FaqInfo, FaqNote, QuotedRule, Ruling, SourceRef
from kb.site import render
from kb.sources import search_fold
from tests.conftest import CONTENT, FIXTURES, jump_of, write

NOT_FOUND = "404.html"


class _Collect(HTMLParser):
    """Collect ids and link targets of one page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: list[str] = []
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if values.get("id") is not None:
            self.ids.append(values["id"])
        for key in ("href", "src"):
            if values.get(key) is not None and not (tag == "link" and values.get("rel") == "preload"):
                self.links.append(values[key])


def pages(site: Path) -> list[Path]:
    """Every HTML page of the site."""
    return sorted(site.rglob("*.html"))


def html5_errors(page: Path) -> list[str]:
    """Parse errors of a page under the HTML5 parsing algorithm."""
    parser = html5lib.HTMLParser(strict=False)
    parser.parse(page.read_bytes())
    return [f"{page}: {pos}: {err} {data}" for pos, err, data in parser.errors]


def check_site(site: Path) -> list[str]:
    """Every problem found: parse errors, duplicate ids, external links, broken links or fragments."""
    problems: list[str] = []
    ids: dict[Path, set[str]] = {}
    links: dict[Path, list[str]] = {}
    for page in pages(site):
        problems += html5_errors(page)
        collect = _Collect()
        collect.feed(page.read_text(encoding="utf-8"))
        dupes = {i for i in collect.ids if collect.ids.count(i) > 1}
        problems += [f"{page}: duplicate id {i!r}" for i in sorted(dupes)]
        ids[page.resolve()] = set(collect.ids)
        links[page] = collect.links
    for page, targets in links.items():
        for href in targets:
            problems += _check_link(site, page, href, ids)
    return problems


def _check_link(site: Path, page: Path, href: str, ids: dict[Path, set[str]]) -> list[str]:
    """Problems with one link of a page."""
    parts = urlsplit(href)
    if parts.scheme == "data":
        return []  # inline, no request
    if page == site / NOT_FOUND and href.startswith("/") and not href.startswith("//"):
        parts = urlsplit(href[1:])  # served at any address, the 404 page links from the site root
        target = (site / unquote(parts.path)).resolve()
    elif parts.scheme or parts.netloc or href.startswith("/"):
        return [f"{page}: external or absolute link {href}"]
    else:
        target = (page.parent / unquote(parts.path)).resolve() if parts.path else page.resolve()
    if site.resolve() not in target.parents and target != site.resolve():
        return [f"{page}: link {href} leaves the site"]
    if not target.exists():
        return [f"{page}: broken link {href}"]
    if parts.fragment and target.suffix == ".html" and unquote(parts.fragment) not in ids.get(target, set()):
        return [f"{page}: missing anchor {href}"]
    return []


@pytest.fixture(scope="module")
def site_bundled(bundled_site) -> Path:
    """The bundled content, built with its search index (and its JSON API)."""
    return bundled_site


@pytest.fixture(scope="module")
def site_2015(kb_2015, tmp_path_factory) -> Path:
    """The 2015 English CR plus the French seeds, built with its search index."""
    from kb.site.write import build_site

    return build_site(kb_2015, tmp_path_factory.mktemp("s2015") / "site").out


def read(site: Path, path: str) -> str:
    """A page's HTML."""
    return (site / path).read_text(encoding="utf-8")


@pytest.mark.slow
@pytest.mark.parametrize("which", ["site_bundled", "site_2015"])
def test_site_is_valid_html5_with_no_broken_link(which, request):
    site = request.getfixturevalue(which)
    assert len(pages(site)) > 10
    assert check_site(site) == []


@pytest.mark.parametrize("which", ["site_bundled", "site_2015"])
def test_no_external_request(which, request):
    site = request.getfixturevalue(which)
    for path in [*pages(site), *(site / "static").iterdir()]:
        text = path.read_text(encoding="utf-8")
        assert "http://" not in text.replace("http://www.w3.org", "") and "https://" not in text, path


def test_site_checker_finds_broken_links(tmp_path):
    (tmp_path / "a.html").write_text(
        '<!DOCTYPE html><html lang="en"><head><title>a</title></head><body>'
        '<p id="x">1</p><p id="x">2</p><a href="b.html">b</a><a href="#nope">n</a><a href="https://x.org">x</a>'
        "</body></html>",
        encoding="utf-8",
    )
    (tmp_path / "c.html").write_text("<p>no doctype</p>", encoding="utf-8")
    found = "\n".join(check_site(tmp_path))
    assert "expected-doctype" in found
    assert "duplicate id 'x'" in found and "broken link b.html" in found
    assert "missing anchor #nope" in found and "external" in found


def _row(html: str, number: str) -> str:
    """The HTML of one row of a rule page."""
    return html.split(f'id="{number}">', 1)[1].split('<div class="row ', 1)[0]


def test_rule_page_aligns_french_and_english(site_2015):
    html = read(site_2015, "fr/rules/120.html")
    assert '<div class="row d2" id="120.2a">' in html
    row = _row(html, "120.2a")
    assert '<a class="num" href="#120.2a"' in row  # one link per row: the number
    assert '<div class="cell" data-col="fr" lang="fr">' in row and '<div class="cell" data-col="en" lang="en">' in row
    assert "bibliothèque" in html and "library" in html
    assert "gap" not in html


def test_a_renumbered_translation_sits_beside_todays_rule_with_its_own_number(site_bundled):
    html = read(site_bundled, "fr/rules/121.html")  # the French 120 (2015 numbering) is today's 121
    row = _row(html, "121.2")
    assert '<div class="cell" data-col="fr" lang="fr">' in row and "Les cartes peuvent uniquement" in row
    title = "numéro français (numérotation 2015)\u00a0: 120.2"
    assert f'<span class="own-num" title="{title}">FR 120.2 (2015)</span>' in row
    assert "Cards may only be drawn one at a time" in row


def test_a_rule_missing_in_one_language_is_one_column_with_a_note(site_bundled):
    html = read(site_bundled, "fr/rules/702.html")  # no French text at all
    assert '<div class="run single" style="--cols: 1">' in html and 'data-col="' not in html.split("<main")[1]
    assert (
        '<p class="missing-note" data-missing="fr">Texte français non disponible pour la règle 702\u00a0: '
        "texte anglais ci-dessous.</p>"
    ) in html
    english = read(site_bundled, "en/rules/702.html")
    assert '<html lang="en">' in english and "No French text for rule 702: the English text follows." in english
    short = read(site_bundled, "fr/rules/121.html")  # a short English-only run among aligned rows keeps its column
    assert '<div class="run inline" style="--cols: 2">' in short
    assert short.count("Texte français non disponible pour 121.2a–121.2b") == 1


def test_a_french_reader_is_led_to_where_each_french_text_is_shown_today(site_bundled):
    home = read(site_bundled, "fr/index.html")  # the French 120 (2015 numbering) is today's 121
    extracts = (
        '<a href="rules/121.html">120</a> <span class="hint">(aujourd’hui 121)</span>, <a href="rules/703.html">703'
    )
    assert extracts in home
    assert '<a href="rules/121.html">120</a> <span class="hint">(today 121)</span>' in read(
        site_bundled, "en/index.html"
    )
    for ui, said in (
        ("fr", "Le texte français numéroté 120 (numérotation 2015) est celui de la règle"),
        ("en", "The French text numbered 120 (2015 numbering) is that of today’s rule"),
    ):
        assert f'{said} <a href="../rules/121.html">121</a>' in read(site_bundled, f"{ui}/rules/120.html")
    assert "numéroté 702" not in read(site_bundled, "fr/rules/702.html")  # no French 702 anywhere: nothing to say
    heading = _row(read(site_bundled, "fr/rules/703.html"), "703")  # no French heading line, French rules below
    assert "Titre français officiel de 703 absent de l’extrait\u202f; ses règles suivent." in heading
    assert "non disponible" not in heading
    assert "The official French title of 703 is not in the extract" in read(site_bundled, "en/rules/703.html")


def test_a_rule_page_explains_the_marks_its_text_holds_under_it(site_bundled):
    html = read(site_bundled, "fr/rules/703.html")
    legend = html.split('<aside class="marks"')[1].split("</aside>")[0]
    assert html.index('<aside class="marks"') > html.index('id="703.4q"')  # under the rows, as footnotes
    assert "Légende des signes" in legend
    assert '<span class="ref-other" data-lang="en">603</span></span> renvoi à une règle absente de ce texte' in legend
    assert '<span class="ref-dated">509.2</span></span> numéro d’une ancienne numérotation' in legend
    assert '<span class="ref-miscited">701.21</span><span class="cite-flag">≠</span>' in legend
    assert "terme français non officiel" in legend  # the French name of 703's title (unofficial): explained
    assert "Key to the marks" in read(site_bundled, "en/rules/703.html")
    assert '<aside class="marks"' not in read(site_bundled, "en/rules/702.html")  # no mark, no key
    damage = read(site_bundled, "fr/rules/120.html")  # 120. Damage · Blessures*: the star explained under the text
    assert "terme français non officiel" in damage.split('<aside class="marks"')[1]
    assert "officielle des règles" not in damage.split('<div class="run')[0]  # not before the rule's text


def test_references_are_links_with_previews_and_backlinks(site_2015):
    html = read(site_2015, "fr/rules/120.html")
    assert '<a class="ref" href="../rules/704.html#704" aria-describedby="pv-en-704">704</a>' in html
    assert 'id="pv-en-704" lang="en"' in html  # the preview text rides along, hidden
    title = "Règle 704 absente du texte français\u00a0: lien vers la règle en anglais"
    french = _row(html, "120.4").split('data-col="fr"')[1]
    assert (
        f'<a class="ref ref-other" href="../rules/704.html#704" aria-describedby="pv-en-704" hreflang="en" '
        f'title="{title}">704</a>'
    ) in french  # a French reference to a rule only the English text has leads there, said in French
    cited = read(site_2015, "fr/rules/704.html")
    assert 'href="../rules/120.html#120.4"' in cited  # cited by 120.4


def test_section_references_point_at_the_contents(site_2015):
    contents = read(site_2015, "fr/contents.html")
    assert 'id="1"' in contents and "Game Concepts" in contents
    assert 'href="rules/120.html"' in contents


def test_translation_report(site_2015):
    html = read(site_2015, "fr/report.html")
    assert "703.4d" in html
    assert 'href="rules/703.html#703.4d"' in html  # the rule, in both languages
    assert "701.21" in html and "701.22" in html
    assert 'href="rules/701.html#701.22"' in html


def test_glossary_links_to_rules(site_2015):
    html = read(site_2015, "fr/glossary.html")
    assert 'id="g-en-abandon"' in html
    assert 'href="rules/701.html#701.23"' in html


def test_glossary_reads_letter_by_letter_and_links_the_terms_it_sends_to(site_bundled):
    html = read(site_bundled, "fr/glossary.html")
    bar = html.split('<nav class="az"')[1].split("</nav>")[0]
    assert '<li><a href="#gl-en-l">L</a></li>' in bar  # the bar leads to each letter's heading
    assert html.count('<h3 class="letter" id="gl-en-') == bar.count("<li>")
    # the French interface lists the English glossary by kb's French names: Land is « Terrain », under T
    assert html.index('id="gl-en-t"') < html.index('id="g-en-land"') < html.index('id="gl-en-u"')
    assert "classés par leur nom français, non officiel" in html and "columns:" not in html
    english = read(site_bundled, "en/glossary.html")
    assert english.index('id="gl-en-k"') < english.index('id="g-en-land"') < english.index('id="gl-en-m"')
    deal = html.split('id="g-en-deal"')[1].split("</div>")[0]
    assert 'See <a href="#g-en-damage">Damage</a>.' in deal
    layer = html.split('id="g-en-layer"')[1].split("</div>")[0]
    assert (
        'See also <a href="#g-en-dependency">Dependency</a>, <a href="#g-en-timestamp-order">Timestamp Order</a>'
        in layer
    )
    shot = html.split('id="g-en-one-shot-effect"')[1].split("</div>")[0]  # a plural sends to its term
    assert '<a href="#g-en-continuous-effect">Continuous Effects</a>' in shot
    assert 'See rule <a class="ref"' in html.split('id="g-en-abandon"')[1].split("</div>")[0]


@pytest.mark.parametrize(
    ("text", "lang", "linked"),
    [
        ("See Damage.", "en", ["Damage"]),
        ("See also Dependency, Timestamp Order.", "en", ["Dependency", "Timestamp Order"]),
        ("See also World Rule.", "en", ["World Rule"]),  # the longest term, not World
        ("See “Enters the Battlefield.”", "en", ["Enters the Battlefield"]),
        ("See Cast. See rule 305.", "en", ["Cast"]),
        ("See rule 701.33, “Damage.”", "en", []),  # a rule's title, not a term sent to
        ("See Legendary for more.", "en", []),  # no such term: text
        ("Damage dealt. See Worldly.", "en", []),  # a term must end a word
        ("Voir aussi Blessure et Cimetière.", "fr", ["Blessure", "Cimetière"]),
    ],
)
def test_glossary_cross_references_are_read_after_their_words(text, lang, linked):
    from kb.site.glossary import see_spans

    terms = {name.lower(): name for name in ("Damage", "Dependency", "Timestamp Order", "World", "World Rule",
                                             "Enters the Battlefield", "Cast", "Blessure", "Cimetière")}  # fmt: skip
    assert [text[s:e] for s, e, _ in see_spans(text, lang, terms)] == linked


def test_jump_map(site_2015):
    jump = jump_of(site_2015)
    assert jump["numbers"]["120.2a"] == "rules/120.html#120.2a"
    assert jump["numbers"]["120"] == "rules/120.html#120"
    assert jump["numbers"]["1"] == "contents.html#1"


def test_rule_page_exists_without_its_heading_line(tmp_path):
    from kb.link.load import load
    from kb.site.write import build_site

    (tmp_path / "c" / "en").mkdir(parents=True)
    (tmp_path / "c" / "en" / "cr.txt").write_text("120.1.\n\nA player draws.\n\n120.2.\n\nOne at a time.\n")
    site = build_site(load(tmp_path / "c"), tmp_path / "site", search=False).out
    assert 'id="120.1"' in read(site, "fr/rules/120.html")
    assert check_site(site) == []


def test_search_index_is_shared_by_the_interface_trees(site_bundled):
    assert (site_bundled / "search").is_dir() and any((site_bundled / "search").iterdir())
    for ui in ("fr", "en"):
        html = read(site_bundled, f"{ui}/search.html")
        assert 'data-root="" data-assets="../"' in html and 'src="../static/search.js"' in html


def test_fold():
    assert search_fold("L’Étape de PIOCHE") == "l etape de pioche"
    assert search_fold("jusqu'à l'œuvre") == "jusqu a l oeuvre"


SRC = SourceRef("content/fr/faq.txt", 10)


@pytest.fixture(scope="module")
def handmade_site(tmp_path_factory) -> Path:
    """The golden content plus a hand-made FAQ, two cards (one split), rulings and a note."""
    from kb.link.load import load
    from kb.site.write import build_site

    content = tmp_path_factory.mktemp("handmade-content") / "content"
    shutil.copytree(FIXTURES / "golden-content", content)
    for lang, words in (("fr", "Une règle 502 actuelle."), ("en", "A current rule 502.")):
        with (content / lang / "cr-mini.txt").open("a", encoding="utf-8") as f:
            f.write(f"\n502. Rule\n\n502.53a {words}\n")  # the FAQ quotes an old 502.53a: it must stay unlinked
    kb = load(content)
    text = "Les créatures gagnent +1/+1.\nPrévision — {W}, révélez : {T}."
    face = Face(
        {"fr": "Position de bravoure", "en": "Steeling Stance"},
        ("{1}", "{W}", "{W}"),
        "Éphémère",
        (),
        ("Éphémère",),
        (),
        None,
        None,
        text,
    )
    halves = (
        Face({"fr": "Résolu"}, ("{3}", "{B}", "{G}"), "Éphémère", (), ("Éphémère",), (), None, None, "Sacrifiez."),
        Face({"fr": "Déterminé"}, ("{G/U}",), "Éphémère", (), ("Éphémère",), (), None, None, "Piochez une carte."),
    )
    cards = (
        Card(
            "steeling-stance",
            {"fr": "Position de bravoure", "en": "Steeling Stance"},
            (face,),
            ("r1", "r2"),
            ("fr/faq#prevision",),
            SRC,
            {"en_text": "Creatures you control get +1/+1."},
        ),
        Card(
            "bound-determined",
            {"fr": "Résolu // Déterminé", "en": "Bound // Determined"},
            halves,
            ("r3", "r4"),
            (),
            SRC,
        ),
    )
    rulings = (
        Ruling(
            "r1",
            "steeling-stance",
            "fr",
            "Voir _Discorde_ et la Résolu. Cf. règle 120.2a. <script>x</script>",
            "NOTES SUR DES CARTES SPÉCIFIQUES",
            "fr/faq",
            ("120.2a",),
            ("bound-determined",),
            ("Chose Inconnue",),
            SRC,
        ),
        Ruling(
            "r2",
            "steeling-stance",
            "en",
            "Forecast only during your upkeep. See rule 120.1.",
            "Gatherer",
            "en/cards",
            ("120.1",),
            (),
            (),
            SRC,
            "2006-05-01",
            citations={"120.1": "120.1"},  # as linking finds it: 120.1 of the edition in force then is today's
        ),
        Ruling(
            "r4",
            "bound-determined",
            "en",
            "Then it was rule 120.2, today 120.2a; rule 120.9 led nowhere.",
            "Gatherer",
            "en/cards",
            ("120.2", "120.9"),
            (),
            (),
            SRC,
            "2009-01-01",
            citations={"120.2": "120.2a"},  # lineage says 120.2 of then is today's 120.2a, 120.9 went nowhere
        ),
        Ruling("r3", "bound-determined", "fr", "Une carte double.", "Cartes doubles", "fr/faq", (), (), (), SRC),
    )
    note = FaqNote(
        "fr/faq#prevision",
        "fr",
        "Prévision",
        "La prévision se joue depuis la main (règle 120.1).",
        ("steeling-stance",),
        (QuotedRule("502.53a", "2006-03-17", "Une capacité de prévision…"),),
        ("Jouer une capacité de prévision ne fait pas quitter la carte de la main.",),
        SRC,
        "fr/faq",
        ("steeling-stance",),
        ("120.1",),
    )
    info = FaqInfo(
        "fr/faq",
        "fr",
        "FAQ Discorde",
        {"fr": "Discorde", "en": "Dissension"},
        ("Mark L. Gottlieb",),
        "2006-03-17",
        {"release": "2006-05-05"},
        180,
        "Foire aux questions _Discorde_.",
    )
    kb = with_readings(dataclasses.replace(kb, cards=cards, rulings=rulings, notes=(note,), faqs=(info,)))
    return build_site(kb, tmp_path_factory.mktemp("handmade") / "site").out


def test_handmade_site_is_valid(handmade_site):
    assert check_site(handmade_site) == []


def test_card_page(handmade_site):
    html = read(handmade_site, "fr/cards/steeling-stance.html")
    french = html.split('<section class="card-side" data-col="fr" lang="fr"')[1].split("</section>")[0]
    assert 'aria-label="{W}\u00a0: mana blanc"' in french and 'aria-label="{1}\u00a0: 1 mana générique"' in french
    assert 'aria-label="{T}\u00a0: engager"' in french  # symbols in the text too, described in the text's language
    english = html.split('<section class="card-side" data-col="en" lang="en"')[1].split("</section>")[0]
    assert 'aria-label="{W}: white mana"' in english and '<span class="cost">' in english
    assert "Position de bravoure" in html and "Steeling Stance" in html
    assert "<em>Discorde</em>" in html and "&lt;script&gt;" in html and "<script>x" not in html
    # The Gatherer ruling's 120.1, followed from its date; the 2006 FAQ ruling's 120.2a, of no loaded edition: unlinked.
    assert 'href="../rules/120.html#120.2a"' not in html and 'href="../rules/120.html#120.1"' in html
    assert 'href="../cards/bound-determined.html"' in html
    assert '<span class="unlinked" title="carte non chargée">Chose Inconnue</span>' in html
    assert 'lang="en"' in html and "Forecast only during your upkeep" in html
    assert '<time datetime="2006-05-01" lang="fr">1er mai 2006</time>' in html
    assert '<time datetime="2006-05-01" lang="en">May 1, 2006</time>' in read(
        handmade_site, "en/cards/steeling-stance.html"
    )
    assert 'href="../faq/fr-faq.html#note-prevision"' in html


def test_split_card_has_two_faces_and_hybrid_symbol(handmade_site):
    html = read(handmade_site, "fr/cards/bound-determined.html")
    assert html.count('<div class="face">') == 2
    assert 'aria-label="{G/U}\u00a0: mana hybride vert ou bleu"' in html


def test_card_index_is_alphabetical_per_language(handmade_site):
    html = read(handmade_site, "fr/cards.html")
    fr, en = html.split('id="ci-fr"')[1].split('id="ci-en"')
    assert fr.index("Position de bravoure") < fr.index("Résolu // Déterminé")
    assert en.index("Bound // Determined") < en.index("Steeling Stance")


def test_faq_page_quotes_rules_as_of_their_date_without_linking_them(handmade_site):
    html = read(handmade_site, "fr/faq/fr-faq.html")
    assert "Règles en vigueur au 17 mars 2006" in html
    assert "Rules as of March 17, 2006" in read(handmade_site, "en/faq/fr-faq.html")
    assert '<span class="old-num">502.53a</span>' in html and "502.html" not in html
    assert (handmade_site / "fr" / "rules" / "502.html").exists()  # so the assertion above can fail
    assert "<em>Discorde</em>" in html and "Mark L. Gottlieb" in html
    assert 'href="../cards/steeling-stance.html"' in html and 'href="../cards/bound-determined.html"' in html
    rule = read(handmade_site, "fr/rules/120.html")
    assert 'href="../faq/fr-faq.html#note-prevision"' in rule and 'href="../cards/steeling-stance.html"' in rule


def test_card_names_jump(handmade_site):
    jump = jump_of(handmade_site)
    assert jump["cards"]["steeling stance"] == "cards/steeling-stance.html"
    assert jump["cards"]["determine"] == "cards/bound-determined.html"


def test_faq_prose_is_inline_markdown_with_raw_html_disabled():
    ln = _linker()
    assert ln.prose("<script>alert(1)</script> _x_", "en") == Markup(
        "<p>&lt;script&gt;alert(1)&lt;/script&gt; <em>x</em></p>"
    )
    assert "href" not in ln.prose("[a](javascript:alert(1))", "en")
    assert ln.prose("# 1 card\n1. first", "en") == Markup("<p># 1 card</p><p>1. first</p>")  # no heading, no list
    assert ln.prose("une guilde -- une association", "fr") == Markup("<p>une guilde — une association</p>")
    assert ln.prose("Ravnica : La Cité « des Guildes »", "fr") == Markup(
        "<p>Ravnica\u00a0: La Cité «\u00a0des Guildes\u00a0»</p>"
    )
    assert 'aria-label="{3}\u00a0: 3 mana générique"' in ln.prose("une carte qui coûte {3}{B}{R}", "fr")


@pytest.mark.parametrize(
    "text",
    ["This creature gets */1+* until end of turn.", "[Cost]: [Effect].", "1. Choose a card.", "# 1 card", "a_b_c"],
)
def test_card_data_text_is_plain_text(text):
    assert _linker().plain(text, "en") == Markup(f"<p>{escape(text)}</p>")


def test_plain_text_draws_symbols_and_links_rules():
    html = _linker().plain("{T}: Add {G/U}. See rule 120.1.", "en")
    assert 'aria-label="{T}: tap"' in html and 'aria-label="{G/U}: hybrid green or blue mana"' in html
    assert '<a class="ref ref-other" href="../rules/120.html#120.1" aria-describedby="pv-fr-120.1"' in html


def test_both_halves_of_a_split_card_are_linked():
    names = {"Résolu // Déterminé": "cards/rd.html", "Résolu": "cards/rd.html", "Déterminé": "cards/rd.html"}
    html = _linker().prose("la carte Résolu/Déterminé, puis Résolu.", "fr", names)
    assert html == Markup(
        '<p>la carte <a href="../cards/rd.html">Résolu</a>/<a href="../cards/rd.html">Déterminé</a>, puis Résolu.</p>'
    )


@pytest.mark.slow
def test_failed_build_leaves_previous_site_untouched(bundled_kb, tmp_path, monkeypatch):
    from kb.site import write as site_module

    out = site_module.build_site(bundled_kb, tmp_path / "site", search=False).out
    before = read(out, "index.html")

    def boom(data):
        raise RuntimeError("template exploded")

    monkeypatch.setattr(site_module, "plan", boom)
    with pytest.raises(site_module.SiteError, match="template exploded.*previous site is untouched"):
        site_module.build_site(bundled_kb, out)
    assert read(out, "index.html") == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]  # no leftover temporary folder


def test_failed_first_build_does_not_speak_of_a_previous_site(bundled_kb, tmp_path, monkeypatch):
    from kb.site import write as site_module

    def boom(data):
        raise RuntimeError("template exploded")

    monkeypatch.setattr(site_module, "plan", boom)
    with pytest.raises(site_module.SiteError) as raised:
        site_module.build_site(bundled_kb, tmp_path / "site", search=False)
    assert str(raised.value).endswith(f"(RuntimeError: template exploded); nothing was written to {tmp_path / 'site'}")
    assert list(tmp_path.iterdir()) == []


def _no_disk(*args, **kwargs) -> None:
    raise OSError("no disk")


def test_cli_build_and_failure(tmp_path, monkeypatch):
    from kb.cli import main
    from kb.search import build as search_build

    content = shutil.copytree(FIXTURES / "golden-content", tmp_path / "content")
    runner = CliRunner()
    build = ["build", "--content", str(content), "--out", str(tmp_path / "site")]
    result = runner.invoke(main, build)
    assert result.exit_code == 0, result.output
    assert "Built" in result.output and (tmp_path / "site" / "fr" / "rules" / "120.html").exists()
    again = runner.invoke(main, build)  # nothing changed: nothing to do
    assert again.exit_code == 0 and "up to date" in again.output and "Built" not in again.output
    with (content / "en" / "cr-mini.txt").open("a", encoding="utf-8") as f:
        f.write("\n")
    monkeypatch.setattr(search_build, "write_whoosh", _no_disk)  # the index cannot be written
    result = runner.invoke(main, build)
    assert result.exit_code == 1
    assert result.output.strip().count("\n") == 0 and "no disk" in result.output
    assert "Traceback" not in result.output
    assert (tmp_path / "site" / "fr" / "rules" / "120.html").exists()


def test_an_index_whose_documents_cannot_be_written_is_never_made_live(tmp_path, monkeypatch):
    # Whoosh's documents cannot be written: the tables are not written, no index goes live, nothing is exported, and
    # the build fails saying why the index failed.
    from kb.link.load import load
    from kb.search import build as search_build
    from kb.site import write as site_module

    content = shutil.copytree(FIXTURES / "golden-content", tmp_path / "content")
    kb = load(content)
    monkeypatch.setattr(search_build, "write_whoosh", _no_disk)
    with pytest.raises(site_module.SiteError, match="no disk"):
        site_module.build_site(kb, tmp_path / "site")
    assert not list((tmp_path / ".kb").rglob("idx-*")) and not list((tmp_path / ".kb").rglob("tmp-*"))
    assert not (tmp_path / "site").exists()


def test_a_build_failing_after_its_index_leaves_a_whole_index_the_next_build_reuses(tmp_path, monkeypatch):
    # The index is made live whole before the pages; the pages then fail: the site is not written, no half index is
    # left, and the next build reuses the live one.
    from kb.link.load import load
    from kb.site import write as site_module

    content = shutil.copytree(FIXTURES / "golden-content", tmp_path / "content")
    kb = load(content)

    def broken(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(site_module, "write_search", broken)
    with pytest.raises(site_module.SiteError, match="No space left"):
        site_module.build_site(kb, tmp_path / "site")
    assert not list((tmp_path / ".kb").rglob("tmp-*")) and len(list((tmp_path / ".kb").rglob("idx-*"))) == 1
    live = next((tmp_path / ".kb").rglob("idx-*"))
    monkeypatch.undo()
    site_module.build_site(kb, tmp_path / "site")
    assert list((tmp_path / ".kb").rglob("idx-*")) == [live] and (tmp_path / "site" / "search" / "core.json").exists()


@pytest.mark.slow
def test_serve_builds_when_needed_then_serves(tmp_path, monkeypatch):
    from kb.cli import main
    from kb.site import serve
    from kb.site.output import STAMP

    served = []
    monkeypatch.setattr(serve.SiteServer, "serve_forever", lambda self: served.append(self.server_address))
    out = tmp_path / "site"
    result = CliRunner().invoke(main, ["serve", "--content", str(CONTENT), "--out", str(out), "--port", "0"])
    assert result.exit_code == 0, result.output
    assert "Built" in result.output and served and served[0][0] == "127.0.0.1"
    assert json.loads((out / STAMP).read_text(encoding="utf-8"))["content_hash"]
    again = CliRunner().invoke(main, ["serve", "--content", str(CONTENT), "--out", str(out), "--port", "0"])
    assert "Built" not in again.output and "Serving" in again.output


def _raw_get(port: int, path: str) -> bytes:
    """Send a request line as is (no client-side normalisation of `..`)."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.sendall(f"GET {path} HTTP/1.0\r\n\r\n".encode())
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)


def test_server_stays_inside_the_site(tmp_path):
    from kb.site.serve import make_server

    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text("inside", encoding="utf-8")
    (tmp_path / "secret.txt").write_text("outside", encoding="utf-8")
    server = make_server(site, port=0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        port = server.server_address[1]
        assert server.server_address[0] == "127.0.0.1"
        assert b"inside" in _raw_get(port, "/index.html")
        for path in ("/../secret.txt", "/%2e%2e/secret.txt", "/static/../../secret.txt"):
            reply = _raw_get(port, path)
            assert b"outside" not in reply and reply.startswith(b"HTTP/1.0 404"), path
    finally:
        server.shutdown()
        server.server_close()


def test_faq_prose_reads_its_numbers_in_the_numbering_of_its_date(handmade_site):
    html = read(handmade_site, "fr/faq/fr-faq.html")
    # A 2006 FAQ, and only the 2015 edition loaded: its 120.1 is 2006's, never linked to the 120.1 of 2015 or today.
    title = "Règle 120.1 numérotée au 17 mars 2006\u00a0: aucune règle d’aujourd’hui n’en découle"
    assert f'<span class="ref-dated" title="{title}">120.1</span>' in html and "pv-fr-120.1" not in html
    card = read(handmade_site, "fr/cards/steeling-stance.html")  # the FAQ's ruling: numbered as in 2006 too
    title = "Règle 120.2a numérotée au 17 mars 2006\u00a0: aucune règle d’aujourd’hui n’en découle"
    assert f'<span class="ref-dated" title="{title}">120.2a</span>' in card and 'id="pv-fr-120.2a"' not in card


def _linker() -> render.Linker:
    return render.Linker("../", {"fr": {"120.1": "120.1"}}, {("fr", "120.1"): ("120.1", "Un joueur pioche.")})


def test_prose_links_card_names_case_sensitively():
    html = _linker().prose("Un clone copie… le Clone arrive.", "fr", {"Clone": "cards/clone.html"})
    assert html == Markup('<p>Un clone copie… le <a href="../cards/clone.html">Clone</a> arrive.</p>')


def test_prose_folds_apostrophes_and_prefers_the_longest_name():
    names = {"Gaea's Cradle": "cards/cradle.html", "Gaea": "cards/gaea.html"}
    html = _linker().prose("Le Gaea’s Cradle de Gaea.", "fr", names)
    assert '<a href="../cards/cradle.html">Gaea’s Cradle</a>' in html
    assert '<a href="../cards/gaea.html">Gaea</a>.' in html


def test_prose_links_each_card_once_and_leaves_rule_numbers_alone():
    names = {"Clone": "cards/clone.html", "120": "cards/x.html"}
    html = _linker().prose("Voir règle 120.1 : Clone, puis Clone.", "fr", names)
    assert html.count("cards/clone.html") == 1 and "cards/x.html" not in html
    assert 'aria-describedby="pv-fr-120.1"' in html


def test_ruling_links_a_split_card_by_its_face_name(handmade_site):
    html = read(handmade_site, "fr/cards/steeling-stance.html")
    assert 'et la <a href="../cards/bound-determined.html">Résolu</a>.' in html  # names "Résolu // Déterminé"


def test_faqs_with_clashing_slugs_get_distinct_pages(tmp_path):
    from kb.link.load import load
    from kb.site.write import build_site

    kb = load(FIXTURES / "golden-content")
    infos = tuple(FaqInfo(doc, "fr", doc, {}, (), None, {}, None, "") for doc in ("fr/faq_x", "fr/faq-x"))
    notes = tuple(
        FaqNote(f"{doc}#n", "fr", f"Note {i}", "Texte.", (), (), (), SRC, doc)
        for i, doc in enumerate(("fr/faq_x", "fr/faq-x"))
    )
    kb = with_readings(dataclasses.replace(kb, faqs=infos, notes=notes))
    site = build_site(kb, tmp_path / "site", search=False).out
    assert "Note 0" in read(site, "fr/faq/fr-faq-x.html") and "Note 1" in read(site, "fr/faq/fr-faq-x-2.html")
    assert check_site(site) == []


def _two_editions(root: Path) -> Path:
    """English 2015 and 2026 editions (120.2 only in 2015) and an undated French one."""
    content = root / "content"
    head = "These rules are effective as of {}.\n\n120. Drawing a Card\n\n"
    write(content / "en" / "cr-old.txt", head.format("September 26, 2015") + "120.1. Draw.\n\n120.2. Old rule two.\n")
    write(content / "en" / "cr-new.txt", head.format("January 16, 2026") + "120.1. Draw a card.\n\n120.3. New three.\n")
    write(content / "fr" / "cr.txt", "120. Piocher une carte\n\n120.1. Un joueur pioche.\n\n120.2. Règle deux.\n")
    return content


def test_rule_from_another_edition_is_labelled(tmp_path):
    from kb.link.load import load
    from kb.site.write import build_site

    kb = load(_two_editions(tmp_path))
    assert kb.links.alignment.only_in["fr"] == ("120.1", "120.2")
    assert [r.number for r in kb.orphans["fr"]] == ["120.1"]
    site = build_site(kb, tmp_path / "site", search=False).out
    row = read(site, "en/rules/120.html").split('id="120.2"')[1].split('<div class="row')[0]
    assert "Old rule two." in row
    aligned, shown = "English extracts of January 16, 2026", "English extracts of September 26, 2015"
    title = f"Not in the aligned edition ({aligned}): text from the {shown}"
    assert f'<span class="ed-tag" lang="en" title="{title}">September 26, 2015</span>' in row
    assert row.count("ed-tag") == 1  # the French cell comes from the aligned edition
    orphan = read(site, "en/rules/120.html").split('id="fr-120.1"')[1].split('<div class="row')[0]
    assert ">FR 120.1 (2015)</a>" in orphan and "Un joueur pioche." in orphan and "Draw a card." not in orphan
    assert '<span class="num" aria-hidden="true"></span>' in orphan  # never in the column of today's numbers
    report = read(site, "fr/report.html")
    assert (
        'href="rules/120.html#120.2">120.2</a> '
        '<span class="ed-tag" lang="fr">extraits anglais du 26 septembre 2015</span>' in report
    )
    assert check_site(site) == []


def test_coverage_counts_only_the_aligned_editions(tmp_path):
    from kb.link.load import load
    from kb.site.gather import gather
    from kb.site.pages import coverage

    row = coverage(gather(load(_two_editions(tmp_path))))[0]
    # Lineage finds no 2026 rule that 2015's 120.1 ("Draw.") or 120.2 became: the French 120.1 and 120.2 are
    # rows of their own (120.1 apart from today's unrelated 120.1), never paired by number.
    assert row["counts"] == {"fr": 3, "en": 3} and row["aligned"] == 1 and row["total"] == 5


# ---- the output folder: never destroy what is not a kb site


def _cli(*args: str):
    from kb.cli import main

    return CliRunner().invoke(main, list(args))


def test_build_refuses_a_folder_that_is_not_a_site(tmp_path):
    out = tmp_path / "u"
    write(out / "thesis.txt", "x")
    result = _cli("build", "--content", str(CONTENT), "--out", str(out))
    assert result.exit_code == 1 and result.output.strip().count("\n") == 0
    assert "refusing to build into" in result.output and "kb-site.json" in result.output
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["thesis.txt", "u"]


def test_build_refuses_the_content_and_project_folders(tmp_path, monkeypatch):
    from kb.site import write as site_module
    from kb.sources.paths import PROJECT

    monkeypatch.setattr(site_module, "gather", lambda kb: pytest.fail("went past the check"))  # a regression is safe
    content = shutil.copytree(FIXTURES / "golden-content", tmp_path / "work" / "content")
    (content / "kb-site.json").write_text("{}", encoding="utf-8")  # even when it looks like a site
    before = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*"))
    # The project's parent may also hold tmp_path (a clone under /tmp): either reason refuses it.
    for out, whats in (
        (content, ["it is the content folder"]),
        (tmp_path / "work", ["a folder holding the content"]),
        (PROJECT, ["the project folder"]),
        (PROJECT.parent, ["holding the project folder", "holding the content folder"]),
    ):
        result = _cli("build", "--content", str(content), "--out", str(out))
        assert result.exit_code == 1 and any(w in result.output for w in whats), (out, result.output)
    assert sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*")) == before


def test_build_replaces_an_earlier_site_and_fills_an_empty_folder(tmp_path):
    from kb.link.load import load
    from kb.site.write import SiteError, build_site

    kb = load(FIXTURES / "golden-content")
    (tmp_path / "empty").mkdir()
    build_site(kb, tmp_path / "empty", search=False)
    write(tmp_path / "empty" / "stray.html", "not written by kb")
    (tmp_path / "empty" / "index.html").write_text("edited", encoding="utf-8")
    report = build_site(kb, tmp_path / "empty", search=False)
    assert (tmp_path / "empty" / "stray.html").read_text() == "not written by kb"  # kept: no build wrote it
    assert report.kept == ("stray.html",) and (tmp_path / "empty" / "index.html").read_text() != "edited"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["empty"]  # no temporary folder left
    (tmp_path / "file").write_text("x")
    with pytest.raises(SiteError, match="not a folder"):
        build_site(kb, tmp_path / "file", search=False)


def test_build_removes_leftovers_of_dead_builds_only(tmp_path):
    from kb.link.load import load
    from kb.site.write import build_site

    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    pid = int(dead.stdout)
    for name in (f".site.old-{pid}", f".site.new-{pid}", f".site.old-{os.getppid()}", ".site.old-x", ".other.old-1"):
        write(tmp_path / name / "index.html", "old")
    build_site(load(FIXTURES / "golden-content"), tmp_path / "site", search=False)
    left = sorted(p.name for p in tmp_path.iterdir())
    assert left == [".other.old-1", f".site.old-{os.getppid()}", ".site.old-x", "site"]  # a live build's is kept


@pytest.mark.slow
def test_an_up_to_date_build_also_removes_a_dead_builds_folder(tmp_path):
    content = tmp_path / "content"
    shutil.copytree(FIXTURES / "golden-content", content)
    out = tmp_path / "site"
    assert _cli("build", "--content", str(content), "--out", str(out)).exit_code == 0
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    write(tmp_path / f".site.new-{int(dead.stdout)}" / "index.html", "half-written")
    again = _cli("build", "--content", str(content), "--out", str(out))
    assert "is up to date" in again.output
    assert sorted(p.name for p in tmp_path.iterdir() if p.name != ".kb") == ["content", "site"]


def test_serve_refuses_a_folder_that_is_not_a_site(tmp_path, monkeypatch):
    from kb.site import serve

    monkeypatch.setattr(serve.SiteServer, "serve_forever", lambda self: None)
    write(tmp_path / "u" / "thesis.txt", "x")
    result = _cli("serve", "--content", str(CONTENT), "--out", str(tmp_path / "u"), "--port", "0")
    assert result.exit_code == 1 and (tmp_path / "u" / "thesis.txt").read_text() == "x"


def test_server_does_not_follow_symlinks_out_of_the_site(tmp_path):
    from kb.site.serve import make_server

    site = tmp_path / "site"
    write(site / "index.html", "inside")
    write(site / "real" / "page.html", "inside too")
    write(tmp_path / "secret" / "index.html", "outside")
    (site / "evil.html").symlink_to(tmp_path / "secret" / "index.html")
    (site / "evil-dir").symlink_to(tmp_path / "secret")
    (site / "fine.html").symlink_to(site / "real" / "page.html")
    server = make_server(site, port=0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        port = server.server_address[1]
        assert b"inside too" in _raw_get(port, "/fine.html")  # a link that stays inside is fine
        for path in ("/evil.html", "/evil-dir/", "/evil-dir/index.html", "/evil-dir"):
            reply = _raw_get(port, path)
            assert b"outside" not in reply and reply.startswith(b"HTTP/1.0 404"), (path, reply[:40])
    finally:
        server.shutdown()
        server.server_close()


def test_site_is_stale_when_templates_or_version_change(tmp_path, monkeypatch):
    from kb.link.load import load
    from kb.site import output as output_module
    from kb.site import write as site_module

    kb = load(FIXTURES / "golden-content")
    out = site_module.build_site(kb, tmp_path / "site", search=False).out
    stamp = json.loads(read(out, "kb-site.json"))
    assert set(stamp) == {"content_hash", "kb_version", "templates_hash", "base_url", "api", "langs", "seal", "forced"}
    assert output_module.site_is_current(out, kb.content_hash)
    assert not output_module.site_is_current(out, "other content")
    assert not output_module.site_is_current(out, kb.content_hash, base_url="https://example.org/")
    monkeypatch.setattr(output_module, "__version__", "9.9.9")
    assert not output_module.site_is_current(out, kb.content_hash)
    monkeypatch.undo()
    monkeypatch.setattr(output_module, "templates_hash", lambda: "edited")
    assert not output_module.site_is_current(out, kb.content_hash)


def test_serve_compares_hashes_without_loading_and_rebuilds_stale_sites(tmp_path, monkeypatch):
    from kb.link import load as load_module
    from kb.site import output as output_module
    from kb.site import serve

    monkeypatch.setattr(serve.SiteServer, "serve_forever", lambda self: None)
    content = shutil.copytree(FIXTURES / "golden-content", tmp_path / "content")
    out = tmp_path / "site"
    assert "Built" in _cli("serve", "--content", str(content), "--out", str(out), "--port", "0").output
    real_load = load_module.load
    monkeypatch.setattr(load_module, "load", lambda *a, **k: pytest.fail("loaded although the site is current"))
    result = _cli("serve", "--content", str(content), "--out", str(out), "--port", "0")
    assert result.exit_code == 0 and "Built" not in result.output, result.output
    monkeypatch.setattr(load_module, "load", real_load)
    monkeypatch.setattr(output_module, "templates_hash", lambda: "edited")
    assert "Built" in _cli("serve", "--content", str(content), "--out", str(out), "--port", "0").output


def test_seal_tells_an_untouched_site_from_an_edited_one(tmp_path):
    from kb.link.load import load
    from kb.site.seal import untouched
    from kb.site.write import build_site

    out = build_site(load(FIXTURES / "golden-content"), tmp_path / "site", search=False).out
    assert untouched(out)
    page = out / "en" / "rules" / "120.html"
    page.write_text(page.read_text(encoding="utf-8") + " ", encoding="utf-8")
    assert not untouched(out)
    page.unlink()
    assert not untouched(out)


MARK = (
    '<abbr class="lex-mark" lang="fr" title="terme français non officiel (relevé sur les cartes imprimées, dans les '
    'textes français chargés ou usuel chez les joueurs), pas la traduction officielle">*</abbr>'
)


def _lex_first(term: str) -> str:
    """A French term set before the English text of a rule lacking French, as the French interface marks it."""
    return f'<span class="lex"><i lang="fr">{term}</i>{MARK} · </span>'


def _first(term: str, english: str) -> str:
    """A French name (the terminology's or the printed cards') set before an English title, marked."""
    return f'<span lang="fr">{term}</span>{MARK}<span class="lex-orig"> · <span lang="en">{english}</span></span>'


def test_keywords_are_listed_with_their_french_names_from_the_lexicon(site_bundled):
    french = read(site_bundled, "fr/rules/702.html")
    toc = french.split('<nav class="onpage"')[1].split("</nav>")[0]
    assert f'<span class="toc-num">702.2</span> {_first("Contact mortel", "Deathtouch")}' in toc
    assert f"<p>{_lex_first('Piétinement')}Trample</p>" in _row(french, "702.19")  # the row: `Piétinement* · Trample`
    key = french.split('<aside class="marks"')[1]  # the legend, once, under the text with the page's other marks
    assert french.count("pas la traduction officielle des règles") == 1 and "officielle des règles" in key
    assert _first("Soif de sang", "Bloodthirst") in french  # the lexicon unsure of it, the terminology names it
    english = read(site_bundled, "en/rules/702.html")
    toc = english.split('<nav class="onpage"')[1].split("</nav>")[0]
    assert '<span class="toc-num">702.2</span> <span lang="en">Deathtouch</span></a>' in toc
    assert "Piétinement" not in english and 'class="lex"' not in english


def test_the_on_page_list_tags_a_rule_shown_in_another_language_with_it(site_bundled):
    toc = read(site_bundled, "fr/rules/121.html").split('<nav class="onpage"')[1].split("</nav>")[0]
    assert '<span lang="en">If a spell or ability causes a card…</span> <span class="lang-tag">EN</span>' in toc
    assert '<span class="toc-num">121.2</span> <span lang="fr">' in toc and toc.count("lang-tag") == 2
    assert "lang-tag" not in read(site_bundled, "en/rules/121.html")


def test_card_types_and_glossary_get_french_terms_marked_as_printed(site_bundled):
    contents = read(site_bundled, "fr/contents.html")
    assert f'<span class="toc-title toc-wide">{_first("Créatures", "Creatures")}</span>' in contents
    assert "pas la traduction officielle des règles" in contents
    assert "Planeswalkers</span><span class" not in contents  # `Planeswalker` would only repeat the English
    glossary = read(site_bundled, "fr/glossary.html")
    trample = glossary.split('id="g-en-trample"')[1].split("</dt>")[0]
    assert f"<dt>{_first('Piétinement', 'Trample')}</dt>" in trample + "</dt>"  # the interface's name first
    assert 'class="lex"' not in read(site_bundled, "en/glossary.html")


def test_the_labelling_hook_takes_other_labels(bundled_kb):
    from kb.site import rows
    from kb.site.gather import gather
    from kb.site.labels import words

    data = gather(bundled_kb, rule_labels={("fr", "702.2"): "Toucher fatal"})
    page = next(p for p in data.rule_pages if p.head == "702")
    assert dict(page.toc)["702.2"] == {"en": "Deathtouch"}
    html = rows.toc_list(page.toc, "fr", words("fr"), data.rule_labels)
    assert _first("Toucher fatal", "Deathtouch") in html
    assert "Piétinement" not in html


def test_rule_page_history_shows_numbers_and_word_diffs(site_bundled):
    html = read(site_bundled, "fr/rules/121.html")
    history = html.split('<details class="history">')[1].split("</details>")[0]
    assert "Historique du texte anglais" in history and "(2 éditions," in history
    assert "Le texte français est rapproché de l’édition du 26 septembre 2015, la plus proche de lui" in history
    story = history.split('href="#121.2c">121.2c</a>')[1].split("</li>")[0]
    assert "120.2a <span" in story and "(2015)" in story and "renumérotée" in story  # its number in each edition
    assert "<del>his or her</del> <ins>their</ins>" in story
    stale = "Le texte anglais a changé depuis l’édition rapprochée de la traduction"
    assert f'title="{stale}">traduction antérieure' in story
    assert 'href="../changes/en-2015-09-26--en-2026-01-16.html"' in history
    assert '<details class="history" open' not in html  # collapsed until asked for


def test_changes_page_between_consecutive_editions(site_bundled, bundled_kb):
    from kb.link.editions.history import compare
    from kb.site.labels import count

    path = "changes/en-2015-09-26--en-2026-01-16.html"
    for ui in ("fr", "en"):
        assert f'href="{path}"' in read(site_bundled, f"{ui}/index.html")
        assert f'href="{path}"' in read(site_bundled, f"{ui}/contents.html")
    html = read(site_bundled, f"fr/{path}")
    diff = compare(bundled_kb, "en:2015-09-26", "en:2026-01-16")
    kinds = diff.kinds()
    assert (
        f'<a href="#references">Renvois mis à jour seulement</a>\u00a0: <strong>{kinds["reference"]}</strong>' in html
    )
    assert f"Inchangées\u00a0: <strong>{count(diff.unchanged, 'fr')}</strong>" in html
    substantive = html.split('id="substantive"')[1].split('id="references"')[0]
    renumbered = html.split('id="renumberings"')[1]
    assert substantive.index('href="#s-1"') < substantive.index('id="s-1"') < substantive.index('id="s-7"')
    assert '<span class="old-num">120.2a</span> → <a href="../rules/121.html#121.2c">121.2c</a>' in substantive
    assert "<del>his or her</del> <ins>their</ins>" in substantive
    assert '<span class="kind k-moved">déplacée <span class="hint">depuis la section 7</span>' in substantive
    assert '<span class="old-num">120–120.7</span> → <a href="../rules/121.html#121">121</a>–121.7' in renumbered
    # under its rule's title, each change shows an excerpt: its first edit in context, an added rule's first words
    assert (
        '<h4 class="change-rule"><a href="../rules/101.html">101</a>. <span lang="en">The Magic Golden Rules</span> '
        '<span class="count">(6)</span></h4>'
    ) in substantive
    row = substantive.split('<a href="../rules/101.html#101.4">101.4</a>')[1].split("</summary>")[0]
    assert '<span class="excerpt" lang="en">…player chooses a creature <del>he or she controls</del>' in row
    added = substantive.split('<a href="../rules/101.html#101.4e">101.4e</a>')[1].split("</summary>")[0]
    assert '<span class="kind k-added">ajoutée</span> <span class="excerpt" lang="en">If multiple players' in added
    assert "Changes to the English rules from September 26, 2015 to January 16, 2026" in read(
        site_bundled, f"en/{path}"
    )
    biggest = max(pages(site_bundled), key=lambda page: page.stat().st_size)
    assert biggest.stat().st_size < 5_000_000, biggest


def test_changes_page_speaks_plainly_with_labels_that_agree(site_bundled):
    html = read(site_bundled, "fr/changes/en-2015-09-26--en-2026-01-16.html")
    main = html.split("<main")[1]
    assert "filiation" not in main and "texte modifié" not in main
    assert "chaque règle est suivie d’une édition à l’autre, même quand elle change de numéro" in main
    assert (
        '<span class="kind k-wording">modifiée</span>' in main and '<span class="kind k-added">ajoutée</span>' in main
    )
    assert re.search(r"\(\d[\d\u202f]* modifiées, \d[\d\u202f]* ajoutées, \d+ supprimées", main)  # one noun: règles
    english = read(site_bundled, "en/changes/en-2015-09-26--en-2026-01-16.html")
    assert '<span class="kind k-wording">reworded</span>' in english and "lineage" not in english


def test_a_card_s_name_shown_in_another_language_than_its_side_says_so(site_bundled):
    # the French side of Hide // Seek: French text, but the card data give only the English names of its faces
    html = read(site_bundled, "fr/cards/hide-seek.html")
    french = html.split('<section class="card-side" data-col="fr" lang="fr"')[1].split("</section>")[0]
    assert '<span lang="en">Hide</span>' in french and '<span lang="en">Seek</span>' in french
    assert "Mettez l&#39;artefact" in french or "Mettez l'artefact" in french
    english = html.split('<section class="card-side" data-col="en" lang="en"')[1].split("</section>")[0]
    assert '<span lang="en">' not in english  # its own language: no tag
    assert '"cards/drekavac.html">Drekavac<' in read(site_bundled, "fr/cards.html").split('data-col="fr"')[1]


def test_faq_page_lists_its_notes_then_its_card_notes_by_name(site_bundled):
    from kb.sources import sort_name

    html = read(site_bundled, "fr/faq/fr-faq-discorde-2006.html")
    toc = html.split('<nav class="faq-toc"')[1].split("</nav>")[0]
    notes = re.findall(r'<section class="note" id="([^"]+)"', html)
    assert len(notes) == 7 and re.findall(r'<li><a href="#(note-[^"]+)">', toc) == notes
    cards = 'href="#cards">Notes sur des cartes (64)</a> <span class="hint">de A à Z</span>'
    assert toc.index('href="#notes"') < toc.index(cards)
    listed = html.split('<ul class="card-list">')[1].split("</ul>")[0]
    names = [re.sub(r"<[^>]+>", "", n) for n in re.findall(r'<a href="#card-[^"]+">(.*?)</a>', listed)]
    assert len(names) == 64 and names == sorted(names, key=sort_name)
    # each card as the FAQ prints it, then the FAQ's notes on it, in the FAQ's order
    sections = re.findall(r'<section class="faq-card-notes" id="card-([^"]+)"', html)
    assert len(sections) == 64
    isperia = html.split('id="card-isperia-the-inscrutable"')[1].split("</section>")[0]
    assert 'href="../cards/isperia-the-inscrutable.html">Isperia l&#39;impénétrable</a>' in isperia
    assert "Créature légendaire : sphinx" in isperia and '<p class="pt">3/6</p>' in isperia
    assert isperia.index('class="faq-card face"') < isperia.index("La carte est nommée après la résolution")
    assert "On this page" in read(site_bundled, "en/faq/fr-faq-discorde-2006.html")


def test_sources_page_says_what_each_source_is_and_folds_the_technical_detail(site_bundled):
    html = read(site_bundled, "fr/sources.html").split("<main")[1]
    shown, folded = html.split('<details class="technical">')
    said = (
        "Le texte officiel des règles du jeu",
        "Une édition antérieure des règles",
        "Une traduction de quelques",
        "Les questions et réponses publiées pour une extension",
        "Les cartes\u00a0: noms, textes imprimés",
    )
    assert all(words in shown for words in said)
    assert "content/" not in shown and "avertissements" not in shown  # paths and counts of the build: folded
    assert "<code>content/en/cr-en-20260116.txt</code>" in folded and "avertissements" in folded
    listed = '<li><code lang="en">content/en/cr-en-20260116.txt:2708: warning: numbered rule 606.5 has no dot'
    assert listed in folded and "<code>kb check</code> les donne toutes" in folded  # the warnings themselves
    assert "The official text of the game’s rules" in read(site_bundled, "en/sources.html")
    home = read(site_bundled, "fr/index.html")
    assert home.count('href="sources.html"') == 1  # the footer's link only


def test_card_text_and_rulings_french_and_english_side_by_side(site_bundled):
    html = read(site_bundled, "fr/cards/isperia-the-inscrutable.html")
    french = html.split('<section class="card-side" data-col="fr" lang="fr"')[1].split("</section>")[0]
    english = html.split('<section class="card-side" data-col="en" lang="en"')[1].split("</section>")[0]
    assert "Créature légendaire : Sphinx" in french and "<p>Vol</p>" in french  # printed French, from card data
    assert "Legendary Creature — Sphinx" in english and "<p>Flying</p>" in english
    # the README: Isperia's card page shows its FAQ ruling and its Gatherer ruling side by side
    row = html.split('<li class="ruling-row" id="r-1">')[1].split("</li>")[0]
    head = "Français — Foire Aux Questions : Discorde/Dissension"
    assert f'<div class="ruling" data-col="fr" data-head="{head}" lang="fr">' in row
    assert "La carte est nommée après la résolution" in row
    assert (
        '<div class="ruling" data-col="en" data-head="Anglais — Gatherer" lang="en">' in row
        and "The card is named when the ability resolves" in row
    )
    assert row.index('data-col="fr"') < row.index('data-col="en"')
    only = read(site_bundled, "fr/cards/delirium-skeins.html")
    faq = (
        '<a href="../faq/fr-faq-discorde-2006.html#card-delirium-skeins">Foire Aux Questions : Discorde/Dissension</a>'
    )
    assert faq in only  # the ruling's FAQ, at the card's section
    assert 'id="card-delirium-skeins"' in read(site_bundled, "fr/faq/fr-faq-discorde-2006.html")
    assert '<p class="missing-note" data-missing="en">rapprochée d’aucune décision de Gatherer</p>' in only
    english_only = read(site_bundled, "en/cards/crypt-champion.html")
    assert '<p class="missing-note" data-missing="fr">matched to no French ruling of the FAQ</p>' in english_only
    unnamed = read(site_bundled, "fr/cards/crime-punishment.html")  # the card data repeats its English names
    assert "Texte imprimé\u00a0: DIS, 5 mai 2006 · nom français absent des données de cartes\u00a0: le nom anglais" in (
        unnamed
    )
    assert "nom français absent" not in read(site_bundled, "fr/cards/isperia-the-inscrutable.html")
    data_only = read(site_bundled, "fr/cards/aurora-eidolon.html")  # no FAQ: its French text from card data
    assert "Créature : esprit" in data_only and "sacrifiez l&#39;Eidôlon de l&#39;aurore" in data_only


def test_translation_report_lists_stale_translations_and_the_edition_compared(site_bundled):
    html = read(site_bundled, "fr/report.html")
    stale = html.split('id="h-stale"')[1].split("</section>")[0]
    assert "Traductions à revoir" in stale and "(10)" in stale
    item = stale.split(">120.1</a>")[1].split("</li>")[0]
    assert "rapprochée de l’édition du 26 septembre 2015" in item and 'href="../rules/121.html#121.1"' not in item
    assert 'href="rules/121.html#121.1"' in item and "<del>his or her</del> <ins>their</ins>" in item
    mismatch = html.split('id="h-mismatch"')[1]
    assert "Renvois comparés avec l’édition du 26 septembre 2015." in mismatch
    english = mismatch.split('<td lang="en">')[1].split("</td>")[0]
    assert 'href="rules/703.html#703.4e"' in english and ">703.4d</a>" in english  # 2015's 703.4d is today's 703.4e
    assert 'href="rules/701.html#701.32"' in english and ">701.22</a>" in english  # never today's 701.22
    french = mismatch.split('<td lang="fr">')[1].split("</td>")[0]
    assert 'href="rules/703.html#703.4e"' in french and ">703.4d</a>" in french
    only = html.split('id="only-fr"')[1].split("</ul>")[0]  # rules of the French text no rule of today continues
    assert '<a href="rules/703.html#fr-703.4h">703.4h</a>' in only and "ref-missing" not in only


def test_faq_quotes_link_todays_rule_only_where_it_was_found(site_bundled):
    html = read(site_bundled, "fr/faq/fr-faq-discorde-2006.html")
    note = html.split('id="note-prevision"')[1].split("</section>")[0]
    assert '<span class="old-num">502.53</span>' in note  # the old number, as printed then
    assert ">→ aujourd’hui 702.57</a>" in note and 'href="../rules/702.html#702.57"' in note
    assert "retrouvée par son titre, traduit par le lexique de kb (non officiel)" in note
    assert "rules/502.html" not in html


def test_dated_ruling_numbers_lead_to_todays_rule_through_lineage(handmade_site):
    html = read(handmade_site, "en/cards/bound-determined.html")
    ruling = html.split("Then it was rule")[1].split("</div>")[0]
    assert 'href="../rules/120.html#120.2a"' in ruling and 'href="../rules/120.html#120.2"' not in ruling
    assert 'title="Rule 120.2 as numbered on January 1, 2009: today’s 120.2a"' in ruling
    assert '<span class="ref-dated" title="Rule 120.9 as numbered on January 1, 2009: no rule of today' in ruling
    french = read(handmade_site, "fr/cards/bound-determined.html")  # the same English ruling, the French interface
    assert 'title="Règle 120.2 numérotée au 1er janvier 2009\u00a0: aujourd’hui 120.2a"' in french


@pytest.mark.slow
def test_dated_gatherer_ruling_follows_lineage_end_to_end(tmp_path):
    from kb.link.load import load
    from kb.site.write import build_site

    content = tmp_path / "content"
    for edition in ("cr-en-20150926.txt", "cr-en-20260116.txt"):
        write(content / "en" / edition, (FIXTURES / edition).read_bytes())
    data = json.loads((FIXTURES / "mtgjson5" / "DIS.json").read_text(encoding="utf-8"))
    card = next(c for c in data["data"]["cards"] if c["name"] == "Isperia the Inscrutable")
    card["rulings"] = [{"date": "2016-01-01", "text": "Cards are drawn one at a time (see rule 120.2)."}]
    data["data"]["cards"] = [card]
    write(content / "en" / "cards.json", json.dumps(data))
    kb = load(content, use_cache=False)
    assert kb.ruling["isperia-the-inscrutable/en/1"].citations == {"120.2": "121.2"}
    site = build_site(kb, tmp_path / "site", search=False).out
    html = read(site, "en/cards/isperia-the-inscrutable.html")
    assert 'href="../rules/121.html#121.2"' in html and "rules/120.html#120.2" not in html
    assert check_site(site) == []


def test_a_translated_rule_whose_original_changed_since_says_so_on_its_row(site_bundled):
    html = read(site_bundled, "fr/rules/121.html")
    stale = '<span class="badge stale-tag" title="Le texte anglais a changé depuis l’édition rapprochée de la '
    assert stale + 'traduction">texte anglais modifié depuis 2015</span>' in _row(html, "121.2d")
    assert "stale-tag" not in _row(html, "121.4")  # its original unchanged since
    english = read(site_bundled, "en/rules/121.html")
    assert ">English text changed since 2015</span>" in _row(english, "121.2d")
    assert html.count("stale-tag") + read(site_bundled, "fr/rules/703.html").count("stale-tag") == 10  # the report's


def test_translated_rules_removed_since_have_rows_of_their_own_that_say_so(site_bundled):
    html = read(site_bundled, "fr/rules/703.html")
    row = _row(html, "fr-703.4h")
    assert '<span class="num" aria-hidden="true"></span>' in row and 'class="num" href' not in row
    assert '<a class="own-row-num" href="#fr-703.4h" title="Règle 703.4h du texte français' in row
    assert ">FR 703.4h (2015)</a>" in row
    assert (
        '<p class="missing-note gone" data-missing="en" style="--at: 3">Pas de texte anglais aujourd’hui pour '
        "FR 703.4h–703.4i\u00a0: ces règles de l’édition du 26 septembre 2015 ont été supprimées "
        "depuis\u202f; le texte français les donne telles qu’elles étaient.</p>"
    ) in row
    assert "l&#39;ordre d&#39;assignation des blessures" in row and 'lang="fr"' in row


PAGE_404 = {"default_ui": "fr", "ui_langs": ("fr", "en"), "site_root": "", "root": "fr/"}


def test_compiled_templates_are_kept_and_a_bad_cache_is_ignored(tmp_path, monkeypatch):
    from kb.site import templating

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    first = templating.environment().get_template("404.html").render(**PAGE_404)
    kept = sorted((tmp_path / "cache" / "kb" / "templates").iterdir())
    assert kept and all(p.stat().st_size > 0 for p in kept)
    for path in kept:  # truncated or foreign files: recompiled, never an error
        path.write_bytes(b"not a compiled template")
    assert templating.environment().get_template("404.html").render(**PAGE_404) == first
    (tmp_path / "file").write_text("x")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "file"))  # no cache folder can be made: none is used
    env = templating.environment()
    assert env.bytecode_cache is None and env.get_template("404.html").render(**PAGE_404) == first


@pytest.mark.slow
def test_pages_are_the_same_whatever_the_render_cache_keeps(bundled_kb, tmp_path, monkeypatch):
    # The cache of rendered texts held the whole site's HTML (8x the content at 5 MB of rules); it now drops the
    # least recently used beyond a size. A text rendered again must register the same previews: same pages.
    from kb.site import write as site_module

    full = site_module.build_site(bundled_kb, tmp_path / "full", search=False).out
    sizes = []
    made = render.RenderCache

    def tiny(limit=0):
        cache = made(limit)
        sizes.append(cache)
        return cache

    monkeypatch.setattr(render, "RenderCache", tiny)
    bare = site_module.build_site(bundled_kb, tmp_path / "bare", search=False).out
    assert sizes and all(len(c) <= 1 for c in sizes)  # nothing kept but the last text
    files = sorted(p.relative_to(full) for p in full.rglob("*") if p.is_file() and p.name != "kb-site.json")
    assert files == sorted(p.relative_to(bare) for p in bare.rglob("*") if p.is_file() and p.name != "kb-site.json")
    assert all((full / f).read_bytes() == (bare / f).read_bytes() for f in files if f.suffix == ".html")


def test_the_render_cache_drops_the_least_recently_used_beyond_its_size():
    cache = render.RenderCache(10)
    cache[("a",)] = (Markup("xxxx"), ())
    cache[("b",)] = (Markup("yyyy"), ("pv-en-1",))
    assert cache.get(("a",)) is not None  # used: now the most recent
    cache[("c",)] = (Markup("zzzz"), ())
    assert cache.get(("b",)) is None and cache.get(("a",)) is not None and cache.get(("c",)) is not None
    assert cache.size == 8 and len(cache) == 2
    cache[("d",)] = (Markup("w" * 20), ())  # larger than the limit: kept alone, until the next one
    assert len(cache) == 1 and cache.get(("d",)) is not None


def test_search_entries_that_cannot_be_made_fail_the_build_in_one_line(tmp_path, monkeypatch):
    from kb.cli import main

    def broken(kb):
        yield from []
        raise ValueError("entry 7 is broken")

    from kb.search import build
    from kb.search import entries as search_entries

    monkeypatch.setattr(search_entries, "entries", broken)
    monkeypatch.setattr(build, "entries", broken)  # where the index reads them, in one process or two
    content = shutil.copytree(FIXTURES / "golden-content", tmp_path / "content")
    result = CliRunner().invoke(main, ["build", "--content", str(content), "--out", str(tmp_path / "site")])
    assert result.exit_code == 1
    assert "entry 7 is broken" in result.output and result.output.strip().count("\n") == 0
    assert sorted(p.name for p in tmp_path.iterdir() if p.name != ".kb") == ["content"]  # no site, no leftover


def test_faq_note_shows_its_example_card_where_the_faq_prints_it(site_bundled):
    html = read(site_bundled, "fr/faq/fr-faq-discorde-2006.html")
    note = html.split('id="note-prevision"')[1].split("</section>")[0]
    first = note.index("Seules les cartes de la guilde")
    card = note.index('<figure class="faq-card face">')
    then = note.index("Les règles officielles de la capacité de prévision")
    assert first < card < then < note.index('<figure class="quoted">')
    printed = note[card : note.index("</figure>", card)]
    assert 'href="../cards/steeling-stance.html">Position de bravoure</a>' in printed
    assert '<p class="type-line">Éphémère</p>' in printed and "révélez la Position de bravoure" in printed


def _children(pid: int) -> list[int]:
    """The processes whose parent is `pid` (Linux /proc)."""
    found = []
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            fields = dict(line.split(":\t", 1) for line in status.read_text().splitlines() if ":\t" in line)
        except OSError:
            continue
        if fields.get("PPid", "").strip() == str(pid):
            found.append(int(status.parent.name))
    return found


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def test_a_build_killed_between_its_two_renames_loses_nothing(tmp_path):
    # `swap` renames the site aside, then the new one in: a build killed between the two leaves no site, only its
    # `.site.old-PID`, which holds the previous site and the user's own files; the next build puts it back first.
    content = tmp_path / "content"
    shutil.copytree(FIXTURES / "golden-content", content)
    out = tmp_path / "site"
    assert _cli("build", "--content", str(content), "--out", str(out)).exit_code == 0
    write(out / "CNAME", "rules.example.org")
    dead = int(subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True).stdout)
    out.rename(tmp_path / f".site.old-{dead}")
    write(tmp_path / f".site.new-{dead}" / "index.html", "the new site, complete but not swapped in")
    again = _cli("build", "--content", str(content), "--out", str(out))
    assert again.exit_code == 0, again.output
    assert (out / "CNAME").read_text() == "rules.example.org" and (out / "index.html").is_file()
    assert sorted(p.name for p in tmp_path.iterdir() if p.name != ".kb") == ["content", "site"]
