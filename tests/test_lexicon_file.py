"""The bundled lexicon file is exactly what `kb lexicon --mine` gives on the six MTGJSON v5 set files."""

from __future__ import annotations

import json

from click.testing import CliRunner

from kb.cli import main
from tests.conftest import CONTENT, FIXTURES

SETS = ("DIS", "10E", "FUT", "C16", "C20", "MH2")


def test_bundled_lexicon_is_regenerated_from_the_set_files():
    args = ["lexicon", "--json"]
    for code in SETS:
        args += ["--mine", str(FIXTURES / "mtgjson5" / f"{code}.json")]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    bundled = json.loads((CONTENT / "fr" / "lexique-cartes-mtgjson5.json").read_text(encoding="utf-8"))
    assert json.loads(result.output) == bundled


def test_bundled_content_has_a_lexicon(bundled_kb):
    lexicon = bundled_kb.lexicon
    assert lexicon is not None and len(lexicon.entries) > 400
    assert "Piétinement" in lexicon.french_for("Trample", "keyword")
    assert "Trample" in lexicon.english_for("piétinement", "keyword")


def test_mining_names_the_file_a_problem_is_in(tmp_path):
    cut = tmp_path / "cut.json"
    cut.write_bytes((FIXTURES / "mtgjson5" / "DIS.json").read_bytes()[:5000])
    result = CliRunner().invoke(
        main, ["lexicon", "--mine", str(cut), "--mine", str(FIXTURES / "mtgjson5" / "DIS.json")]
    )
    problems = [line for line in result.output.splitlines() if "truncated JSON" in line]
    assert problems == [line for line in problems if line.startswith(f"kb: {cut}: truncated JSON at byte 5000")]
    assert len(problems) == 1 and result.output.count(str(cut)) == 1
    assert result.exit_code == 1  # what could be read is printed, but a damaged input is a failure


def test_mining_into_a_file_replaces_it_whole_and_never_from_a_damaged_input(tmp_path):
    target = tmp_path / "lexique.json"
    target.write_text("the lexicon a user had", encoding="utf-8")
    cut = tmp_path / "cut.json"
    cut.write_bytes((FIXTURES / "mtgjson5" / "DIS.json").read_bytes()[:5000])
    for mined in ([cut, FIXTURES / "mtgjson5" / "DIS.json"], [tmp_path / "misspelt.json"]):
        args = [arg for path in mined for arg in ("--mine", str(path))]
        result = CliRunner().invoke(main, ["lexicon", *args, "-o", str(target)])
        assert result.exit_code != 0 and target.read_text(encoding="utf-8") == "the lexicon a user had"
    result = CliRunner().invoke(main, ["lexicon", "--mine", str(FIXTURES / "mtgjson5" / "DIS.json"), "-o", str(target)])
    assert result.exit_code == 0, result.output
    assert json.loads(target.read_text(encoding="utf-8"))["format"] == "kb-lexicon/1"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cut.json", "lexique.json"]  # no temporary file left
