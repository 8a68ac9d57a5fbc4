"""Changes between editions made readable: typography never a change, references followed, renumberings in runs,
moves paired, substantive changes first (`kb.link.editions.changelog`, `kb diff`)."""

from __future__ import annotations

import json
import re
import shutil

import pytest
from click.testing import CliRunner

from kb.cli import main
from kb.link.editions.changelog import SUBSTANTIVE, fold, folded_diff, references_followed, runs
from kb.link.editions.history import compare, rule_text

from .conftest import CONTENT, FIXTURES


def test_typography_folds_away():
    assert fold("the _Odyssey_(TM) block’s “cards” — all") == fold('the Odyssey™ block\'s "cards" - all')
    assert fold("Time Spiral(R)") == fold("Time Spiral®") == fold("Time Spiral")
    assert fold("his or her") != fold("their")


def test_a_diff_compares_folded_words_and_shows_the_real_ones():
    ops = folded_diff("See rule 701.24, “Fight.”", 'See rule 701.25, "Fight."')
    assert ops == (("equal", "See rule "), ("delete", "701.24"), ("insert", "701.25"), ("equal", ', "Fight."'))
    assert folded_diff("A player’s deck.", "A player's deck.") == (("equal", "A player's deck."),)


def test_an_edit_following_a_renumbered_reference_is_found():
    moved = {"701.24": "701.25", "613.2": "613.3"}
    assert references_followed("See rule 701.24.", "See rule 701.25.", moved) == (("701.24", "701.25"),)
    assert references_followed("See rule 701.24.", "See rules 701.25.", moved) is None
    assert references_followed("See rule 100.1.", "See rule 100.1.", moved) is None  # no change at all


def test_renumberings_collapse_into_runs():
    pairs = [(f"613.{i}", f"613.{i + 1}") for i in range(2, 10)] + [("613.9a", "613.10a"), ("614.1", "614.3")]
    shown = [run.shown() for run in runs(pairs)]
    assert shown == ["613.2–613.9a → 613.3–613.10a", "614.1 → 614.3"]
    assert [run.shown() for run in runs([("103.3", "103.4"), ("103.3a", "103.4a"), ("103.3d", "103.4e")])] == [
        "103.3–103.3a → 103.4–103.4a",
        "103.3d → 103.4e",
    ]


@pytest.fixture(scope="module")
def diff_2015_2026(bundled_kb):
    return bundled_kb, compare(bundled_kb, "en:2015-09-26", "en:2026-01-16")


def test_real_changes_are_read_for_people(diff_2015_2026):
    kb, diff = diff_2015_2026
    by_old = {c.old: c for c in diff.changes if c.old}
    assert (by_old["706.7a"].new, by_old["706.7a"].kind) == ("607.5a", "moved")  # not removed plus added
    assert by_old["100.2"].kind == "wording" and ("insert", "their ") in by_old["100.2"].diff
    added = next(c for c in diff.changes if c.kind == "added")
    assert added.text == rule_text(kb.editions[diff.new].rules[added.new])
    refs = [c for c in diff.changes if c.kind == "reference"]
    assert len(refs) > 50 and all(c.references for c in refs)
    assert by_old["120.2"].new == "121.2"
    kinds = diff.kinds()
    assert sum(kinds.values()) == len(diff.changes) and kinds["renumbering"] > 500
    assert len(diff.runs()) < kinds["renumbering"] / 3


def test_typography_alone_is_no_change(tmp_path):
    (tmp_path / "en").mkdir()
    for name in ("history/cr-en-2012-07-01.txt", "cr-en-20150926.txt"):
        shutil.copy(FIXTURES / name, tmp_path / "en" / name.split("/")[-1])
    from kb.link.load import load

    kb = load(tmp_path)
    diff = compare(kb, "2012-07-01", "2015-09-26")
    assert diff.typography >= 40  # `_Odyssey_(TM)` and `Odyssey™`, `guild's` and `guild’s`
    old, new = kb.editions[diff.old].rules, kb.editions[diff.new].rules
    for c in diff.changes:
        if c.old and c.new and c.kind not in ("renumbering",):
            assert fold(rule_text(old[c.old])) != fold(rule_text(new[c.new])), c


def test_kb_diff_lists_substantive_changes_first():
    result = CliRunner().invoke(main, ["diff", "2015-09-26", "2026-01-16", "--all", "--content", str(CONTENT)])
    assert result.exit_code == 0, result.output
    text = result.output
    assert text.index("Substantive changes") < text.index("References updated only") < text.index("Renumbered only")
    assert "> 706.7a -> 607.5a (moved) — Linked Abilities" in text
    assert "[-701.24-]" not in text and "[-24-]" not in text  # numbers never split
    ref_lines = text[text.index("References updated only") : text.index("Renumbered only")].split("\n")[1:]
    shape = re.compile(r"~ [\d.a-z]+( -> [\d.a-z]+)?: \d{3}(\.\d+[a-z]?)? -> \d{3}(\.\d+[a-z]?)?(, |$)")
    assert [line for line in ref_lines if line and not shape.match(line)] == []  # `701.24 -> 701.25`, whole
    result = CliRunner().invoke(main, ["diff", "2015-09-26", "2026-01-16", "--json", "--content", str(CONTENT)])
    data = json.loads(result.output)
    kinds = [c["kind"] for c in data["changes"]]
    first_ref = kinds.index("reference")
    assert set(kinds[:first_ref]) <= set(SUBSTANTIVE) and set(kinds[first_ref:]) <= {"reference", "renumbering"}
    added = next(c for c in data["changes"] if c["kind"] == "added")
    assert added["text"] and added["title"] and added["section"] == added["new"][0]
    assert data["runs"] and isinstance(data["typography"], int) and data["kinds"]["moved"] >= 1
    ref = next(c for c in data["changes"] if c["kind"] == "reference")
    assert ref["references"] and all(len(pair) == 2 for pair in ref["references"])
