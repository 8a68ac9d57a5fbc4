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


def lexicon(*args: str) -> str:
    result = CliRunner().invoke(main, ["lexicon", "--content", str(CONTENT), *args])
    assert result.exit_code == 0, result.output
    return result.output


def test_lexicon_lists_one_source_with_the_terminology_names_it_attests():
    rules = lexicon("--source", "rules").splitlines()
    assert rules[0].startswith("22 of 598 terms aligned in the translated rule extracts")
    assert (
        "word      active player = joueur actif (10)  [score 1.00, rules 9, rulings 1]  e.g. fr/faq-discorde-2006#L769"
        in rules
    )
    terms = rules[1 : rules.index("")]
    assert terms and all(" rules " in t.split("[score", 1)[1] for t in terms)
    rulings = lexicon("--source", "rulings")
    assert (
        "Stack = Pile  [attested, rulings 3, e.g. fr/faq-discorde-2006#L492; content/fr/terminologie-regles.tsv:"
        in rulings
    )
    assert "Game Concepts = " not in rulings  # curated: no text attests it


def test_lexicon_lists_the_curated_names_with_their_lines():
    text = lexicon("--source", "curated")
    assert text.startswith("The lexicon's 598 terms are all mined from parallel texts: none curated.\n")
    assert "Game Concepts = Concepts du jeu  [curated; content/fr/terminologie-regles.tsv:20]\n" in text
    assert "[attested" not in text
    cards = lexicon("--source", "cards")
    assert "Players = Joueurs  [attested, cards " in cards and "Game Concepts = " not in cards
    assert (
        "keyword   Vigilance = Vigilance (25)  [score 0.98, cards 25]  e.g. Court Hussar / Hussard de la cour" in cards
    )


def test_a_source_is_listed_as_text_only():
    result = CliRunner().invoke(main, ["lexicon", "--content", str(CONTENT), "--source", "rules", "--json"])
    assert result.exit_code == 1 and "leave out --mine, --json and -o" in result.output
