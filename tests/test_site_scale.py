"""The site at scale: a rule, an FAQ or the card index too large for one page is cut into parts that every link,
the jump map and the search index reach; a text too long even alone is shown cut with a link to its full text.

The limits (`kb.site.parts`) are lowered here so that small content is cut.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kb.site import parts
from tests.conftest import jump_of
from tests.test_site import _Collect, check_site, read

GIANT = "702.20"
"""The rule whose text is too long even alone."""
CARDS = 240
"""Cards of the FAQ."""


def _cr() -> str:
    """An English CR: rule 100 cites rules of 702; 702 has 40 numbered rules with subrules, one of them giant."""
    lines = ["1. Game Concepts", "100. General", "100.1. This rule cites rule 702.37b and rule 702.3.", "7. Additional"]
    lines.append("702. Keyword Abilities")
    for k in range(1, 41):
        words = " ".join(f"word{k}x{i}" for i in (range(1200) if f"702.{k}" == GIANT else range(25)))
        lines.append(f"702.{k}. {words}. See rule 702.{41 - k}.")
        lines += [f"702.{k}{letter} Subrule {letter} of 702.{k}, citing rule 100.1." for letter in "ab"]
    lines += ["703. Turn-Based Actions", "703.1. Turn-based actions happen. See rule 702.37a."]
    return "\n\n".join(lines) + "\n"


def _faq() -> str:
    """A French FAQ: a few notes, and cards whose rulings cite rules of 702."""
    head = (
        "Foire aux questions : Synthèse\n\nDocument modifié pour la dernière fois le 17 mars 2006\n-----\n\n"
        "NOTES GÉNÉRALES\n\n"
    )
    notes = "".join(f"Note {n}\n\nUne note générale {n} qui cite la règle 702.{n}a.\n\n" for n in range(1, 4))
    cards = "".join(
        f"\nCarte{i} Essai\n{{G}}\nCréature : elfe\n1/1\nTexte de la carte {i}.\n\n"
        f"* Une décision sur la carte {i}. Voir la règle 702.{1 + i % 40}b.\n-----\n"
        for i in range(CARDS)
    )
    return f"{head}{notes}-----\n\nNOTES SUR DES CARTES SPÉCIFIQUES\n\n{cards}"


def _build(tmp: Path, search: bool = True) -> tuple[Path, object]:
    """Write the content, load it, build the site; return the site and its gathered data."""
    from kb.link.load import load
    from kb.site.gather import gather
    from kb.site.write import build_site

    (tmp / "content" / "en").mkdir(parents=True)
    (tmp / "content" / "fr").mkdir(parents=True)
    (tmp / "content" / "en" / "cr.txt").write_text(_cr(), encoding="utf-8")
    (tmp / "content" / "fr" / "faq.txt").write_text(_faq(), encoding="utf-8")
    kb = load(tmp / "content")
    return build_site(kb, tmp / "site", search=search).out, gather(kb)


@pytest.fixture(scope="module")
def cut_site(tmp_path_factory) -> tuple[Path, object]:
    """The content built with limits low enough for rule 702, the FAQ and the card index to be cut."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(parts, "PAGE_CHARS", 15_000)
        patch.setattr(parts, "TEXT_CHARS", 2_000)
        patch.setattr(parts, "LINKS_SHOWN", 5)
        found = _build(tmp_path_factory.mktemp("cut"))
    return found


def _ids(site: Path, path: str) -> set[str]:
    """The ids of a page."""
    collect = _Collect()
    collect.feed(read(site, path))
    return set(collect.ids)


def test_cut_packs_groups_and_puts_a_large_item_alone():
    weights, starts = [3, 1, 1, 4, 1, 9, 2, 2], [True, False, False, True, False, True, True, False]
    assert parts.cut(weights, starts, 5) == [range(0, 3), range(3, 5), range(5, 6), range(6, 8)]
    assert parts.cut([2, 2, 2, 2], [True, False, False, False], 5) == [range(0, 2), range(2, 4)]  # a group too large
    assert parts.cut([], [], 5) == [range(0, 0)]
    assert parts.cut([1] * 10, [True] * 10, 100) == [range(0, 10)]


def test_shown_text_is_cut_at_a_space(monkeypatch):
    monkeypatch.setattr(parts, "TEXT_CHARS", 10)
    assert parts.shown_text("short") == "short"
    assert parts.shown_text("abcd efgh ijkl mnop") == "abcd efgh…"
    assert parts.shown_text("x" * 30) == "x" * 10 + "…"


@pytest.mark.slow
def test_cut_site_is_valid_with_no_broken_link(cut_site):
    site, _data = cut_site
    assert check_site(site) == []


def test_every_part_of_a_cut_rule_exists_with_the_list_of_parts(cut_site):
    site, data = cut_site
    found = [page for page in data.rule_pages if page.head == "702"]
    assert len(found) >= 4 and [page.part for page in found] == list(range(1, len(found) + 1))
    assert [page.path for page in found[:2]] == ["rules/702.html", "rules/702-2.html"]
    rows = [row.number for page in found for row in page.rows]
    assert rows[0] == "702" and len(rows) == len(set(rows)) == 1 + 40 * 3  # every row on exactly one part
    for page in found:
        assert page.rows[0].depth <= 1  # a part starts at a numbered rule: its subrules are with it
        for ui in ("fr", "en"):
            html = read(site, f"{ui}/{page.path}")
            assert html.count('<nav class="parts"') == 1 and f'href="{found[-1].file}"' in html
            assert {row.number for row in page.rows} <= _ids(site, f"{ui}/{page.path}")
    assert len({len(page.rows) for page in found}) <= 3  # balanced, the giant rule's part aside
    whole = sum(len(read(site, f"en/{page.path}")) for page in found)
    assert max(len(read(site, f"en/{page.path}")) for page in found) < whole / 2


def test_links_the_jump_map_and_the_search_index_reach_the_right_part(cut_site):
    site, data = cut_site
    where = {row.number: page.path for page in data.rule_pages for row in page.rows}
    assert where["702.37b"] != "rules/702.html"
    html = read(site, "en/rules/100.html")
    assert f'href="../{where["702.37b"]}#702.37b"' in html and f'href="../{where["702.3"]}#702.3"' in html
    assert f'href="../{where["702.37a"]}#702.37a"' in read(site, "fr/rules/703.html")
    jump = jump_of(site)["numbers"]
    assert jump["702"] == "rules/702.html#702"
    assert all(jump[number] == f"{path}#{number}" for number, path in where.items())
    urls = set()
    for file in (site / "search").glob("*.json"):
        urls |= set(re.findall(r"rules/702(?:-\d+)?\.html#[0-9a-z.]+", file.read_text(encoding="utf-8")))
    assert {url.split("#")[1] for url in urls} >= {"702.37b", "702.20", "702.40a"}
    assert all(url == f"{where[url.split('#')[1]]}#{url.split('#')[1]}" for url in urls)


def test_a_text_too_long_is_cut_with_a_link_to_its_full_text(cut_site):
    site, data = cut_site
    path = data.full_texts[("en", GIANT)]
    full = (site / path).read_text(encoding="utf-8-sig")
    assert full.startswith(GIANT) and "word20x1199. See rule 702.21." in full
    page = next(p for p in data.rule_pages if any(row.number == GIANT for row in p.rows))
    html = read(site, f"fr/{page.path}")
    assert f'href="../../{path}"' in html and "word20x100 " in html and "word20x1199" not in html
    text = next(r for r in page.rows if r.number == GIANT).cells["en"].text
    note = r"Texte trop long pour la page\u00a0: ([\d\u202f]+) premiers caractères sur ([\d\u202f]+)\."
    shown, total = re.search(note, html).groups()
    assert 1_000 < int(shown.replace("\u202f", "")) <= 2_000 and int(total.replace("\u202f", "")) == len(text)


def test_faq_and_card_index_are_cut_and_notes_reach_their_part(cut_site):
    site, data = cut_site
    found = next(iter(data.faq_parts.values()))
    assert len(found) >= 2 and sum(len(p.cards) for p in found) == CARDS
    for part in found:
        html = read(site, f"en/{part.path}")
        assert '<nav class="parts"' in html and (f"({CARDS})" in html) == bool(part.cards)
    for note_id, path in data.note_path.items():
        page, anchor = path.split("#")
        assert anchor in _ids(site, f"fr/{page}"), note_id
    index = sorted((site / "en").glob("cards*.html"))
    assert len(index) >= 2
    names = [name for file in index for name in re.findall(r">(Carte\d+ Essai)</a>", file.read_text("utf-8"))]
    assert sorted(names) == sorted(f"Carte{i} Essai" for i in range(CARDS))


def test_long_lists_of_links_are_counted_beyond_the_limit(cut_site):
    site, _data = cut_site
    html = read(site, "en/rules/100.html")  # 100.1 is cited by the 80 subrules of 702
    cited = re.search(r'<p class="cited">.*?</p>', html, re.S).group()
    assert cited.count("<a ") == 5 and "and 75 more" in cited


@pytest.mark.slow
def test_the_same_content_is_whole_under_the_real_limits(tmp_path):
    site, data = _build(tmp_path, search=False)
    assert [page.path for page in data.rule_pages if page.head == "702"] == ["rules/702.html"]
    assert not data.full_texts and not any(site.rglob("*.txt"))
    assert not (site / "en" / "rules" / "702-2.html").exists() and not (site / "en" / "cards-2.html").exists()
    assert '<nav class="parts"' not in read(site, "en/rules/702.html")
    assert check_site(site) == []
