"""What a link to the site shows where it is pasted: a description, OpenGraph and Twitter card tags, one brand, a
canonical address with `--base-url`; the site map; the whole CR on one page with the rule pages' anchors."""

from __future__ import annotations

import html
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from kb.cli import main

from .conftest import FIXTURES


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, Path]:
    """The golden content built without an address, and for one."""
    root = tmp_path_factory.mktemp("unfurl")
    content = shutil.copytree(FIXTURES / "golden-content", root / "content")
    plain, served = root / "plain", root / "served"
    for out, more in ((plain, []), (served, ["--base-url", "https://rules.example.org/mtg"])):
        result = CliRunner().invoke(main, ["build", "--content", str(content), "--out", str(out), *more])
        assert result.exit_code == 0, result.output
    return plain, served


def meta(page: str) -> dict[str, str]:
    """The page's meta tags by name or property, and its canonical address."""
    found = {
        m[0]: html.unescape(m[1]) for m in re.findall(r'<meta (?:name|property)="([^"]+)" content="([^"]*)"', page)
    }
    canonical = re.search(r'<link rel="canonical" href="([^"]+)"', page)
    return {**found, "canonical": canonical.group(1) if canonical else ""}


def test_a_rule_page_unfurls_with_its_number_title_and_first_sentence(built):
    plain, _ = built
    fr = meta((plain / "fr" / "rules" / "120.html").read_text("utf-8"))
    assert fr["description"].startswith("120. Piocher une carte — 120.1 Un joueur pioche une carte")
    assert fr["og:title"] == "120. Piocher une carte" and fr["og:site_name"] == "Règles MTG"
    assert fr["og:locale"] == "fr_FR" and fr["og:type"] == "article" and fr["twitter:card"] == "summary"
    en = meta((plain / "en" / "rules" / "120.html").read_text("utf-8"))
    assert en["description"].startswith("120. Drawing a Card — 120.1 A player draws a card") and en[
        "description"
    ].endswith(".")
    assert en["og:site_name"] == "MTG Rules" and not en["canonical"]  # no address: no canonical


def test_one_brand_in_header_and_title(built):
    plain, _ = built
    for ui, brand in (("fr", "Règles MTG"), ("en", "MTG Rules")):
        page = (plain / ui / "contents.html").read_text("utf-8")
        assert (
            re.search(rf"<title>[^<]* — {brand}</title>", page)
            and f'class="brand" href="index.html">{brand}</a>' in page
        )


def test_every_page_has_a_description_and_with_an_address_a_canonical_one(built):
    plain, served = built
    pages = [p for p in served.rglob("*.html") if p.name != "404.html"]
    for page in pages:
        tags = meta(page.read_text("utf-8"))
        assert tags["description"] and tags["og:title"], page
        assert tags["canonical"] == "https://rules.example.org/mtg/" + page.relative_to(served).as_posix()
    assert 'href="../../static/site.css"' in (served / "fr" / "rules" / "120.html").read_text("utf-8")  # relative


def test_the_site_map_lists_every_page(built):
    plain, served = built
    pages = sorted(p.relative_to(served).as_posix() for p in served.rglob("*.html") if p.name != "404.html")
    absolute = re.findall(r"<loc>([^<]+)</loc>", (served / "sitemap.xml").read_text("utf-8"))
    assert sorted(absolute) == ["https://rules.example.org/mtg/" + p for p in pages]
    relative = re.findall(r"<loc>([^<]+)</loc>", (plain / "sitemap.xml").read_text("utf-8"))
    assert sorted(relative) == pages


def test_the_whole_cr_on_one_page_keeps_the_rule_pages_anchors(built):
    plain, _ = built
    for ui in ("fr", "en"):
        whole = (plain / ui / "cr.html").read_text("utf-8")
        assert 'href="cr.html"' in (plain / ui / "index.html").read_text("utf-8")
        assert 'href="cr.html"' in (plain / ui / "contents.html").read_text("utf-8")
        links = re.findall(r'<a href="(rules/\d+\.html)#([^"]+)">', whole)
        assert links
        for page, anchor in links:
            assert f'id="{anchor}"' in (plain / ui / page).read_text("utf-8"), (ui, page, anchor)
            assert f'id="{anchor}"' in whole  # the same anchor on the one page
        assert '<div class="previews' not in whole and "<details" not in whole  # no previews, no history panels
    fr = (plain / "fr" / "cr.html").read_text("utf-8")
    assert '<p id="120.1" class="d1" lang="fr">' in fr and '<p id="704.5a" class="d2" lang="en">' in fr


def test_the_api_is_built_with_the_site_unless_left_out(built, tmp_path):
    plain, served = built
    assert (plain / "api" / "v1" / "index.json").is_file() and (plain / "api" / "openapi.json").is_file()
    openapi = (served / "api" / "openapi.json").read_text("utf-8")
    assert '"url": "https://rules.example.org/mtg"' in openapi  # the address given; `..` (the site's root) without
    content = shutil.copytree(FIXTURES / "golden-content", tmp_path / "content")
    out = tmp_path / "site"
    args = ["build", "--content", str(content), "--out", str(out)]
    assert CliRunner().invoke(main, [*args, "--no-api"]).exit_code == 0 and not (out / "api").exists()
    again = CliRunner().invoke(main, args)  # not up to date: this site has no API
    assert "up to date" not in again.output and (out / "api" / "v1" / "index.json").is_file()
    assert "up to date" in CliRunner().invoke(main, args).output
    bad = CliRunner().invoke(main, [*args, "--base-url", "example.org"])
    assert bad.exit_code == 2 and "absolute http(s) address" in bad.output
