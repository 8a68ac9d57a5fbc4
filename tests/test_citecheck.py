"""A translation's citations checked against its original's: a number cited in an older numbering is followed
from the number its original cites, flagged wherever it is shown."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from kb.cli import main
from kb.link.load import load
from kb.link.references.citecheck import disagreements

from .conftest import CONTENT, ROOT, write

HISTORY = ROOT.parent / "shared" / "corpus" / "history"
ARCHENEMY = "content/fr/cr-703-actions-obligatoires-du-tour.txt:35"


def run(*args, columns: int = 100):
    return CliRunner().invoke(main, list(args), catch_exceptions=False, env={"COLUMNS": str(columns)})


@pytest.mark.parametrize(
    ("mine", "theirs", "found"),
    [
        (["904", "701.21"], ["904", "701.22"], [("701.21", "701.22")]),  # the French 703.4d and its original
        (["504.1"], ["504.1"], []),
        (["508.1", "509.1"], ["509.1", "508.1"], []),  # cited in another order: the same rules
        (["704", "120.6"], ["704"], [("120.6", None)]),  # cited where the original cites nothing
        (["100.1", "100.2"], ["100.3"], [("100.1", None), ("100.2", None)]),  # two for one: not told apart
        (["601.2g", "601.2h"], ["601.2g", "601.2h", "601.2i"], []),  # a shorter range cites nothing else
        (["100.5", "101.1", "100.6"], ["100.7", "101.1", "100.8"], [("100.5", "100.7"), ("100.6", "100.8")]),
        ([], ["704"], []),
    ],
)
def test_disagreements_pair_each_number_with_the_one_cited_in_its_place(mine, theirs, found):
    assert disagreements(mine, theirs) == found


def test_the_french_703_4d_cites_2015s_planeswalk_where_its_original_cites_set_in_motion(bundled_kb):
    today = bundled_kb.primary["en"].rules
    assert today["701.31"].text == "Planeswalk" and today["701.32"].text == "Set in Motion"
    (found,) = bundled_kb.links.alignment.miscitations  # the one citation of the extracts that disagrees
    assert (found.lang, found.number, found.cited) == ("fr", "703.4d", "701.21")
    assert (found.edition, found.original, found.meant.number) == ("en:2015-09-26", "703.4d", "701.22")
    assert found.meant.today == "701.32"  # today's Set in Motion: where the French citation now leads
    assert found.literal.today == "701.31"  # 2015's 701.21 is Planeswalk: where it led before
    assert found.older == () and found.confirmed == ()  # no edition older than 2015: the original is the evidence
    assert bundled_kb.miscited("fr", "703.4d") == {"701.21": found}
    assert bundled_kb.miscited("fr", "703.4c") == {} and bundled_kb.miscited("en", "703.4e") == {}


def test_with_the_edition_translated_from_as_todays_the_citation_goes_to_its_number(kb_2015):
    (found,) = kb_2015.links.alignment.miscitations
    assert (found.cited, found.meant.today, found.literal.today) == ("701.21", "701.22", "701.21")


def test_check_notes_the_citation_the_link_and_the_evidence(bundled_kb):
    notes = [d.format() for d in bundled_kb.diagnostics if "its original" in d.message]
    assert notes == [
        f"{ARCHENEMY}: note: rule 703.4d cites 701.21 where its original (en 703.4d, 2015-09-26) cites 701.22: "
        "the translation follows an older numbering; linked to 701.32 (today's rule of 2015's 701.22), not 701.31 "
        "(2015's 701.21); no edition older than 2015-09-26 is loaded: the original's citation is the evidence"
    ]


def test_kb_check_prints_the_note():
    result = run("check", "--content", str(CONTENT))
    assert result.exit_code == 0
    assert f"{ARCHENEMY}: note: rule 703.4d cites 701.21 where its original (en 703.4d, 2015-09-26)" in result.output


def test_kb_show_json_links_the_citation_to_todays_set_in_motion_and_says_why():
    payload = json.loads(run("show", "703.4e", "--json", "--content", str(CONTENT)).output)
    french = payload["rules"]["fr"]
    assert french["number"] == "703.4d"
    cited = {r["target"]: r for r in french["references_today"]}
    assert cited["701.21"] == {
        "target": "701.21",
        "numbering": "en:2015-09-26",
        "status": "miscited",
        "today": "701.32",
        "miscited": {
            "original": {"edition": "en:2015-09-26", "number": "703.4d", "cites": "701.22"},
            "literal": "701.31",
            "evidence": "original",
            "older": [],
        },
    }
    assert cited["904"]["status"] == "same" and cited["904"]["miscited"] is None
    assert payload["rules"]["en"]["references_today"] is None  # the reference language's rule: nothing to read


def test_kb_show_text_says_where_the_citation_goes_and_why():
    output = run("show", "703.4e", "--content", str(CONTENT), columns=300).output
    assert "Cite: 904, 701.21 → 701.32 (numérotation antérieure : l’original EN 703.4d (2015) cite 701.22)" in output
    assert "701.31" not in output


def test_kb_export_lists_the_miscitations(tmp_path):
    out = tmp_path / "kb.json"
    assert run("export", "--content", str(CONTENT), "-o", str(out)).exit_code == 0
    (found,) = json.loads(out.read_text(encoding="utf-8"))["alignment"]["miscitations"]
    assert found["lang"] == "fr" and found["number"] == "703.4d" and found["cites"] == "701.21"
    assert found["today"] == "701.32" and found["original"]["cites"] == "701.22"


def _citing_100_1(root: Path) -> Path:
    """`_editions` with the French 703.4a citing 100.1, a rule its original does not cite, instead of 904."""
    content = _editions(root)
    french = (content / "fr" / "cr-703.txt").read_text(encoding="utf-8")
    (content / "fr" / "cr-703.txt").write_text(french.replace("(cf. règle 904)", "(cf. règle 100.1)"), "utf-8")
    return content


def _editions(root: Path) -> Path:
    """English 2018 (Set in Motion is 701.3) and 2020 (Planeswalk inserted as 701.3, Set in Motion 701.4), and a
    French 703.4a of 2020 that still cites 701.3: its translator kept the 2018 number."""
    body = (
        "1. Game Concepts\n\n100. General\n\n100.1. These Magic rules apply to any Magic game.\n\n"
        "7. Additional Rules\n\n701. Keyword Actions\n\n701.1. Most actions use the standard English definitions.\n\n"
        "701.2. Clash\n\n701.2a To clash, a player reveals the top card of his or her library.\n{pw}\n"
        "701.{n}. Set in Motion\n\n701.{n}a To set a scheme in motion is to move it off the top of your scheme deck "
        "and turn it face up.\n\n703. Turn-Based Actions\n\n703.4. The turn-based actions are as follows:\n\n"
        "703.4a In an Archenemy game (see rule 904), immediately after the archenemy's precombat main phase "
        "begins, that player sets the top card of his or her scheme deck in motion. See rule 701.{n}.\n\n"
        "9. Casual Variants\n\n904. Archenemy\n\n904.1. Archenemy is a casual variant.\n"
    )
    planeswalk = "\n701.3. Planeswalk\n\n701.3a To planeswalk is to put each face-up plane card on the bottom.\n"
    head = "Magic: The Gathering Comprehensive Rules\n\nThese rules are effective as of {}.\n\n"
    content = root / "content"
    write(content / "en" / "cr-2018.txt", head.format("May 1, 2018") + body.format(pw="", n=3))
    write(content / "en" / "cr-2020.txt", head.format("May 1, 2020") + body.format(pw=planeswalk, n=4))
    french = (
        "Règles complètes de Magic: The Gathering\n\nCes règles sont en vigueur à compter du 1er mai 2020.\n\n"
        "703.4. Les actions obligatoires du tour sont les suivantes :\n\n703.4a Dans une partie d’Archenemy "
        "(cf. règle 904), tout de suite après le début de la phase principale d’avant combat de l’archenemy, ce "
        "joueur met la carte du dessus de son deck de machinations à exécution. Cf. règle 701.3.\n"
    )
    write(content / "fr" / "cr-703.txt", french)
    return content


def test_an_older_edition_that_numbered_the_rule_so_confirms_it(tmp_path):
    kb = load(_editions(tmp_path))
    (found,) = kb.links.alignment.miscitations
    assert (found.cited, found.meant.number, found.meant.today) == ("701.3", "701.4", "701.4")
    assert found.literal.today == "701.3"  # Planeswalk in 2020
    assert found.older == (("en:2018-05-01", "701.3"),) and found.confirmed == ("en:2018-05-01",)
    (note,) = [d.format() for d in kb.diagnostics if "its original" in d.message]
    assert note == (
        "content/fr/cr-703.txt:7: note: rule 703.4a cites 701.3 where its original (en 703.4a, 2020-05-01) cites "
        "701.4: the translation follows an older numbering; linked to 701.4, not 701.3; "
        "2018-05-01 numbered that rule 701.3, as the translation does"
    )


def test_a_number_the_original_does_not_cite_is_reported_and_never_linked(tmp_path):
    content = _citing_100_1(tmp_path)
    kb = load(content)
    found = kb.miscited("fr", "703.4a")["100.1"]
    assert found.meant is None and found.literal.today == "100.1"
    (warning,) = [d.format() for d in kb.diagnostics if "100.1" in d.message and "its original" in d.message]
    assert warning == (
        "content/fr/cr-703.txt:7: warning: rule 703.4a cites 100.1, which its original (en 703.4a, 2020-05-01) "
        "does not cite (it cites 904, 701.4): not linked (read in 2020 numbering it would be today's 100.1); "
        "check the translation against its original"
    )


@pytest.mark.slow
@pytest.mark.skipif(not (HISTORY / "cr-en-2012-07-01.txt").exists(), reason="the shared corpus is not beside kb")
def test_with_the_2012_edition_loaded_no_older_numbering_is_found_and_the_check_says_so(tmp_path):
    content = tmp_path / "content"
    shutil.copytree(CONTENT, content)
    shutil.copy(HISTORY / "cr-en-2012-07-01.txt", content / "en" / "cr-en-20120701.txt")
    kb = load(content)
    (found,) = kb.links.alignment.miscitations
    assert found.meant.today == "701.32" and found.older == (("en:2012-07-01", "701.22"),) and found.confirmed == ()
    (note,) = [d.message for d in kb.diagnostics if "its original" in d.message]
    assert note.endswith(
        "no older edition loaded numbered that rule 701.21 (2012-07-01: 701.22): the original's citation is the "
        "evidence"
    )


def test_the_site_names_the_confirming_edition_and_never_links_a_number_it_cannot_reconcile(tmp_path):
    from kb.site.write import build_site

    content = _citing_100_1(tmp_path)
    site = build_site(load(content), tmp_path / "site", search=False).out
    for ui, confirmed, unlinked in (
        ("fr", "\u202f; 701.3 était son numéro dans l’édition du 1er mai 2018", "que son original (2020) ne cite pas"),
        ("en", "; 701.3 was its number in the edition of May 1, 2018", "which its original (2020) does not cite"),
    ):
        html = (site / ui / "rules" / "703.html").read_text(encoding="utf-8")
        row = html.split('id="703.4a"')[1]
        cell = row.split('<div class="cell" data-col="fr" lang="fr">')[1].split("</div>")[0]
        linked = cell.split(">701.3</a>")[0].rsplit("<a ", 1)[1]
        assert 'href="../rules/701.html#701.4"' in linked and "ref-miscited" in linked
        assert confirmed in cell.split(">701.3</a>")[1].split("</abbr>")[0]
        assert '<span class="ref-dated ref-miscited">100.1</span><abbr class="cite-flag"' in cell
        assert unlinked in cell and "#100.1" not in cell  # the number its original does not cite: no link
