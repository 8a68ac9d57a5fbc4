"""The static site: every page valid HTML5 with unique ids and no broken internal link; pages, atomic build, serve."""

from __future__ import annotations

import dataclasses
import json
import socket
import threading
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import html5lib
import pytest
from click.testing import CliRunner
from markupsafe import Markup

from kb import render
from kb.model import Card, Face, FaqInfo, FaqNote, QuotedRule, Ruling, SourceRef
from tests.conftest import CONTENT, FIXTURES

SKIP = ("pagefind-",)


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
    """Every HTML page of the site, Pagefind's own files excluded."""
    return sorted(p for p in site.rglob("*.html") if not p.relative_to(site).parts[0].startswith(SKIP))


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
    if parts.scheme or parts.netloc or href.startswith("/"):
        return [f"{page}: external or absolute link {href}"]
    target = (page.parent / unquote(parts.path)).resolve() if parts.path else page.resolve()
    if site.resolve() not in target.parents and target != site.resolve():
        return [f"{page}: link {href} leaves the site"]
    if not target.exists():
        return [f"{page}: broken link {href}"]
    if parts.fragment and target.suffix == ".html" and unquote(parts.fragment) not in ids.get(target, set()):
        return [f"{page}: missing anchor {href}"]
    return []


@pytest.fixture(scope="module")
def site_bundled(bundled_kb, tmp_path_factory) -> Path:
    """The bundled content, built with its search index."""
    from kb.site import build_site

    return build_site(bundled_kb, tmp_path_factory.mktemp("bundled") / "site").out


@pytest.fixture(scope="module")
def site_2015(kb_2015, tmp_path_factory) -> Path:
    """The 2015 English CR plus the French seeds, built with its search index."""
    from kb.site import build_site

    return build_site(kb_2015, tmp_path_factory.mktemp("s2015") / "site").out


def read(site: Path, path: str) -> str:
    """A page's HTML."""
    return (site / path).read_text(encoding="utf-8")


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


def test_rule_page_aligns_french_and_english(site_bundled):
    html = read(site_bundled, "rules/120.html")
    assert '<div class="row depth-2" id="120.2a">' in html
    assert '<div class="cell" data-col="fr" lang="fr">' in html and '<div class="cell" data-col="en" lang="en">' in html
    assert 'href="#120.2a"' in html  # permalink
    assert "bibliothèque" in html and "library" in html


def test_rule_in_one_language_leaves_a_labelled_gap(site_bundled):
    html = read(site_bundled, "rules/703.html")
    assert '<div class="cell gap" data-col="en" lang="en">' in html
    assert "Not in the English text" in html


def test_references_are_links_with_previews_and_backlinks(site_2015):
    html = read(site_2015, "rules/120.html")
    assert '<a class="ref" href="../rules/704.html#704" aria-describedby="pv-en-704">704</a>' in html
    assert 'id="pv-en-704" lang="en"' in html  # the preview text rides along, hidden
    assert '<span class="ref-missing" title="704: not in the Français rules loaded">704</span>' in html
    cited = read(site_2015, "rules/704.html")
    assert 'href="../rules/120.html#120.4"' in cited  # cited by 120.4


def test_section_references_point_at_the_contents(site_2015):
    contents = read(site_2015, "contents.html")
    assert 'id="1"' in contents and "Game Concepts" in contents
    assert 'href="rules/120.html"' in contents


def test_translation_report(site_2015):
    html = read(site_2015, "report.html")
    assert "703.4d" in html
    assert 'href="rules/703.html#703.4d"' in html  # the rule, in both languages
    assert "701.21" in html and "701.22" in html
    assert 'href="rules/701.html#701.22"' in html


def test_glossary_links_to_rules(site_2015):
    html = read(site_2015, "glossary.html")
    assert 'id="g-en-abandon"' in html
    assert 'href="rules/701.html#701.23"' in html


def test_jump_map(site_2015):
    jump = json.loads(read(site_2015, "jump.json"))
    assert jump["numbers"]["120.2a"] == "rules/120.html#120.2a"
    assert jump["numbers"]["120"] == "rules/120.html#120"
    assert jump["numbers"]["1"] == "contents.html#1"


def test_rule_page_exists_without_its_heading_line(tmp_path):
    from kb.load import load
    from kb.site import build_site

    (tmp_path / "c" / "en").mkdir(parents=True)
    (tmp_path / "c" / "en" / "cr.txt").write_text("120.1.\n\nA player draws.\n\n120.2.\n\nOne at a time.\n")
    site = build_site(load(tmp_path / "c"), tmp_path / "site", search=False).out
    assert 'id="120.1"' in read(site, "rules/120.html")
    assert check_site(site) == []


def test_search_sources_carry_a_folded_copy(site_bundled):
    html = read(site_bundled, "index-src/fr/rules-120.html")
    assert '<html lang="fr">' in html and "data-pagefind-body" in html
    assert "l’étape de pioche" in html and "l etape de pioche" in html and "bibliotheque" in html
    assert (site_bundled / "pagefind-fr" / "pagefind.js").exists()
    assert (site_bundled / "pagefind-en" / "pagefind.js").exists()


def test_fold():
    assert render.fold("L’Étape de PIOCHE") == "l etape de pioche"
    assert render.fold("jusqu'à l'œuvre") == "jusqu a l oeuvre"


SRC = SourceRef("content/fr/faq.txt", 10)


@pytest.fixture(scope="module")
def handmade_site(tmp_path_factory) -> Path:
    """The golden content plus a hand-made FAQ, two cards (one split), rulings and a note."""
    from kb.load import load
    from kb.site import build_site

    kb = load(FIXTURES / "golden-content")
    text = "Les créatures gagnent +1/+1.\nPrévision — {W}, révélez : {T}."
    face = Face({"fr": "Position de bravoure", "en": "Steeling Stance"}, ("{1}", "{W}", "{W}"), "Éphémère", (),
                ("Éphémère",), (), None, None, text)  # fmt: skip
    halves = (
        Face({"fr": "Résolu"}, ("{3}", "{B}", "{G}"), "Éphémère", (), ("Éphémère",), (), None, None, "Sacrifiez."),
        Face({"fr": "Déterminé"}, ("{G/U}",), "Éphémère", (), ("Éphémère",), (), None, None, "Piochez une carte."),
    )
    cards = (
        Card("steeling-stance", {"fr": "Position de bravoure", "en": "Steeling Stance"}, (face,), ("r1", "r2"),
             ("fr/faq#prevision",), SRC, {"en_text": "Creatures you control get +1/+1."}),
        Card("bound-determined", {"fr": "Résolu // Déterminé", "en": "Bound // Determined"}, halves, ("r3",), (),
             SRC),
    )  # fmt: skip
    rulings = (
        Ruling("r1", "steeling-stance", "fr", "Voir _Discorde_ et la Résolu. Cf. règle 120.2a. <script>x</script>",
               "NOTES SUR DES CARTES SPÉCIFIQUES", "fr/faq", ("120.2a",), ("bound-determined",), ("Chose Inconnue",),
               SRC),
        Ruling("r2", "steeling-stance", "en", "Forecast only during your upkeep. See rule 120.1.", "Gatherer",
               "en/cards", ("120.1",), (), (), SRC, "2006-05-01"),
        Ruling("r3", "bound-determined", "fr", "Une carte double.", "Cartes doubles", "fr/faq", (), (), (), SRC),
    )  # fmt: skip
    note = FaqNote("fr/faq#prevision", "fr", "Prévision", "La prévision se joue depuis la main.",
                   ("steeling-stance",), (QuotedRule("502.53a", "2006-03-17", "Une capacité de prévision…"),),
                   ("Jouer une capacité de prévision ne fait pas quitter la carte de la main.",), SRC, "fr/faq",
                   ("steeling-stance",), ("120.1",))  # fmt: skip
    info = FaqInfo("fr/faq", "fr", "FAQ Discorde", {"fr": "Discorde", "en": "Dissension"}, ("Mark L. Gottlieb",),
                   "2006-03-17", {"release": "2006-05-05"}, 180, "Foire aux questions _Discorde_.")  # fmt: skip
    kb = dataclasses.replace(kb, cards=cards, rulings=rulings, notes=(note,), faqs=(info,))
    return build_site(kb, tmp_path_factory.mktemp("handmade") / "site").out


def test_handmade_site_is_valid(handmade_site):
    assert check_site(handmade_site) == []


def test_card_page(handmade_site):
    html = read(handmade_site, "cards/steeling-stance.html")
    assert 'aria-label="{W}: white mana"' in html and 'aria-label="{1}: 1 generic mana"' in html
    assert 'aria-label="{T}: tap"' in html  # symbols in the text too
    assert "Position de bravoure" in html and "Steeling Stance" in html
    assert "<em>Discorde</em>" in html and "&lt;script&gt;" in html and "<script>x" not in html
    assert 'href="../rules/120.html#120.2a"' in html and 'href="../rules/120.html#120.1"' in html
    assert 'href="../cards/bound-determined.html"' in html
    assert '<span class="unlinked" title="no such card loaded">Chose Inconnue</span>' in html
    assert 'lang="en"' in html and "Forecast only during your upkeep" in html and "2006-05-01" in html
    assert 'href="../faq/fr-faq.html#note-prevision"' in html


def test_split_card_has_two_faces_and_hybrid_symbol(handmade_site):
    html = read(handmade_site, "cards/bound-determined.html")
    assert html.count('<section class="face"') == 2
    assert 'aria-label="{G/U}: hybrid green or blue mana"' in html


def test_card_index_is_alphabetical_per_language(handmade_site):
    html = read(handmade_site, "cards.html")
    fr, en = html.split('id="ci-fr"')[1].split('id="ci-en"')
    assert fr.index("Position de bravoure") < fr.index("Résolu // Déterminé")
    assert en.index("Bound // Determined") < en.index("Steeling Stance")


def test_faq_page_quotes_rules_as_of_their_date_without_linking_them(handmade_site):
    html = read(handmade_site, "faq/fr-faq.html")
    assert "Règles en vigueur au 2006-03-17" in html
    assert '<span class="old-num">502.53a</span>' in html and "502.html" not in html
    assert "<em>Discorde</em>" in html and "Mark L. Gottlieb" in html
    assert 'href="../cards/steeling-stance.html"' in html and 'href="../cards/bound-determined.html"' in html
    rule = read(handmade_site, "rules/120.html")
    assert 'href="../faq/fr-faq.html#note-prevision"' in rule and 'href="../cards/steeling-stance.html"' in rule


def test_card_names_jump(handmade_site):
    jump = json.loads(read(handmade_site, "jump.json"))
    assert jump["cards"]["steeling stance"] == "cards/steeling-stance.html"
    assert jump["cards"]["determine"] == "cards/bound-determined.html"


def test_markdown_has_raw_html_disabled():
    assert render.markdown("<script>alert(1)</script> _x_") == Markup(
        "<p>&lt;script&gt;alert(1)&lt;/script&gt; <em>x</em></p>\n"
    )
    assert "href" not in render.markdown("[a](javascript:alert(1))")


def test_failed_build_leaves_previous_site_untouched(bundled_kb, tmp_path, monkeypatch):
    from kb import site as site_module

    out = site_module.build_site(bundled_kb, tmp_path / "site", search=False).out
    before = read(out, "index.html")

    def boom(data):
        raise RuntimeError("template exploded")

    monkeypatch.setattr(site_module, "plan", boom)
    with pytest.raises(site_module.SiteError, match="template exploded.*previous site is untouched"):
        site_module.build_site(bundled_kb, out)
    assert read(out, "index.html") == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]  # no leftover temporary folder


def test_cli_build_and_failure(tmp_path, monkeypatch):
    from kb import site as site_module
    from kb.cli import main

    runner = CliRunner()
    result = runner.invoke(main, ["build", "--content", str(CONTENT), "--out", str(tmp_path / "site")])
    assert result.exit_code == 0, result.output
    assert "Built" in result.output and (tmp_path / "site" / "rules" / "120.html").exists()
    monkeypatch.setattr(site_module, "run_pagefind", lambda site, lang: (_ for _ in ()).throw(OSError("no disk")))
    result = runner.invoke(main, ["build", "--content", str(CONTENT), "--out", str(tmp_path / "site")])
    assert result.exit_code == 1
    assert result.output.strip().count("\n") == 0 and "no disk" in result.output
    assert "Traceback" not in result.output
    assert (tmp_path / "site" / "rules" / "120.html").exists()


def test_serve_builds_when_needed_then_serves(tmp_path, monkeypatch):
    from kb import serve
    from kb.cli import main
    from kb.site import site_hash

    served = []
    monkeypatch.setattr(serve.ThreadingHTTPServer, "serve_forever", lambda self: served.append(self.server_address))
    out = tmp_path / "site"
    result = CliRunner().invoke(main, ["serve", "--content", str(CONTENT), "--out", str(out), "--port", "0"])
    assert result.exit_code == 0, result.output
    assert "Built" in result.output and served and served[0][0] == "127.0.0.1"
    assert site_hash(out) is not None
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
    from kb.serve import make_server

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
