"""The static site: every page valid HTML5 with unique ids and no broken internal link; pages, atomic build, serve."""

from __future__ import annotations

import dataclasses
import json
import os
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
from markupsafe import Markup

from kb.model import Card, Face, FaqInfo, FaqNote, QuotedRule, Ruling, SourceRef
from kb.site import render
from kb.sources import search_fold
from tests.conftest import CONTENT, FIXTURES, write

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
    from kb.site.write import build_site

    return build_site(bundled_kb, tmp_path_factory.mktemp("bundled") / "site").out


@pytest.fixture(scope="module")
def site_2015(kb_2015, tmp_path_factory) -> Path:
    """The 2015 English CR plus the French seeds, built with its search index."""
    from kb.site.write import build_site

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
    from kb.link.load import load
    from kb.site.write import build_site

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
        Card("bound-determined", {"fr": "Résolu // Déterminé", "en": "Bound // Determined"}, halves, ("r3",), (), SRC),
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
    assert (handmade_site / "rules" / "502.html").exists()  # so the assertion above can fail
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


def test_cli_build_and_failure(tmp_path, monkeypatch):
    from kb.cli import main
    from kb.site import write as site_module

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
    from kb.cli import main
    from kb.site import serve
    from kb.site.output import site_hash

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


def test_faq_prose_links_rules_with_previews(handmade_site):
    html = read(handmade_site, "faq/fr-faq.html")
    assert '<a href="../rules/120.html#120.1" class="ref" aria-describedby="pv-fr-120.1">120.1</a>' in html
    assert '<div id="pv-fr-120.1" lang="fr"><b>120.1</b>' in html
    card = read(handmade_site, "cards/steeling-stance.html")
    assert 'aria-describedby="pv-fr-120.2a">120.2a</a>' in card and 'id="pv-fr-120.2a"' in card


def _linker() -> render.Linker:
    return render.Linker("../", {"fr": {"120.1"}}, {("fr", "120.1"): "Un joueur pioche."})


def test_prose_links_card_names_case_sensitively():
    html = _linker().prose("Un clone copie… le Clone arrive.", "fr", {"Clone": "cards/clone.html"})
    assert html == Markup('<p>Un clone copie… le <a href="../cards/clone.html">Clone</a> arrive.</p>\n')


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
    html = read(handmade_site, "cards/steeling-stance.html")
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
    site = build_site(dataclasses.replace(kb, faqs=infos, notes=notes), tmp_path / "site", search=False).out
    assert "Note 0" in read(site, "faq/fr-faq-x.html") and "Note 1" in read(site, "faq/fr-faq-x-2.html")
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
    assert kb.links.alignment.only_in["fr"] == ("120.2",)
    site = build_site(kb, tmp_path / "site", search=False).out
    row = read(site, "rules/120.html").split('id="120.2"')[1].split('<div class="row')[0]
    assert "Old rule two." in row
    title = "Not in the aligned edition (en:2026-01-16): text from edition en:2015-09-26"
    assert f'<span class="ed-tag" title="{title}">en:2015-09-26</span>' in row
    assert row.count("ed-tag") == 1  # the French cell comes from the aligned edition
    report = read(site, "report.html")
    assert 'href="rules/120.html#120.2">120.2</a> <span class="ed-tag">en:2015-09-26</span>' in report
    assert check_site(site) == []


def test_coverage_counts_only_the_aligned_editions(tmp_path):
    from kb.link.load import load
    from kb.site.gather import coverage, gather

    row = coverage(gather(load(_two_editions(tmp_path))))[0]
    assert row["counts"] == {"fr": 3, "en": 3} and row["aligned"] == 2 and row["total"] == 4


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


@pytest.mark.parametrize("exchange", [True, False], ids=["renameat2", "two-renames"])
def test_build_replaces_an_earlier_site_and_fills_an_empty_folder(tmp_path, monkeypatch, exchange):
    from kb.link.load import load
    from kb.site import output as output_module
    from kb.site.write import SiteError, build_site

    if not exchange:
        monkeypatch.setattr(output_module, "_exchange", lambda a, b: False)
    kb = load(FIXTURES / "golden-content")
    (tmp_path / "empty").mkdir()
    build_site(kb, tmp_path / "empty", search=False)
    write(tmp_path / "empty" / "stray.html", "left by the old site")
    build_site(kb, tmp_path / "empty", search=False)
    assert not (tmp_path / "empty" / "stray.html").exists()
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


def test_serve_refuses_a_folder_that_is_not_a_site(tmp_path, monkeypatch):
    from kb.site import serve

    monkeypatch.setattr(serve.ThreadingHTTPServer, "serve_forever", lambda self: None)
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
    assert set(stamp) == {"content_hash", "kb_version", "templates_hash", "langs"}
    assert output_module.site_is_current(out, kb.content_hash)
    assert not output_module.site_is_current(out, "other content")
    monkeypatch.setattr(output_module, "__version__", "9.9.9")
    assert not output_module.site_is_current(out, kb.content_hash)
    monkeypatch.undo()
    monkeypatch.setattr(output_module, "templates_hash", lambda: "edited")
    assert not output_module.site_is_current(out, kb.content_hash)


def test_serve_compares_hashes_without_loading_and_rebuilds_stale_sites(tmp_path, monkeypatch):
    from kb.link import load as load_module
    from kb.site import output as output_module
    from kb.site import serve

    monkeypatch.setattr(serve.ThreadingHTTPServer, "serve_forever", lambda self: None)
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
