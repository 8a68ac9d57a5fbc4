"""The thin CLI: exit codes, output, help text for every command."""

from __future__ import annotations

import json
import os

import pytest
from click.testing import CliRunner

from kb.cli import COMMANDS, main

from .conftest import CONTENT, ROOT, write


def run(*args):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_command_has_help(name):
    result = run(name, "--help")
    assert result.exit_code == 0
    assert len(result.output.split("Options:")[0].strip()) > 40


def test_check_bundled_content_has_no_error():
    result = run("check", "--content", str(CONTENT))
    assert result.exit_code == 0, result.output
    assert ": error:" not in result.output
    assert (
        "content/fr/cr-120-piocher-une-carte.txt: rules [fr:undated, aligned]: 0 sections, 0 rules, "
        "7 numbered, 6 subrules" in result.output
    )


def test_check_json_and_strict(tmp_path):
    write(tmp_path / "c" / "en" / "a.txt", "100.1. One.\n\n100.1. Again.\n")
    result = run("check", "--content", str(tmp_path / "c"), "--json")
    payload = json.loads(result.output)
    assert result.exit_code == 0
    assert payload["totals"]["warning"] == 1
    assert payload["diagnostics"][0]["line"] == 3
    assert run("check", "--content", str(tmp_path / "c"), "--strict").exit_code == 1


def test_check_missing_folder_is_one_line(tmp_path):
    result = CliRunner().invoke(main, ["check", "--content", str(tmp_path / "nope")])
    assert result.exit_code == 2
    assert "content folder not found" in result.output
    assert "Traceback" not in result.output


def test_show_json_contract():
    result = run("show", "120.2a", "--json", "--content", str(CONTENT))
    payload = json.loads(result.output)
    assert payload["number"] == "120.2a"
    assert set(payload["rules"]) == {"fr", "en"}
    fr = payload["rules"]["fr"]
    for key in (
        "document",
        "lang",
        "number",
        "kind",
        "title",
        "text",
        "examples",
        "parent",
        "children",
        "references",
        "cited_by",
        "source",
    ):
        assert key in fr
    assert fr["parent"] == "120.2" and fr["kind"] == "subrule"
    assert fr["source"] == {"path": "content/fr/cr-120-piocher-une-carte.txt", "line": 7}


@pytest.mark.parametrize("query", [["règle", "703.4k"], ["CR", "120.2a"], ["r120.2a"], ["rule", "120.4"]])
def test_show_accepts_number_forms(query):
    result = run("show", *query, "--content", str(CONTENT))
    assert result.exit_code == 0
    assert query[-1].lstrip("r") in result.output


def test_show_side_by_side_lists_references():
    result = run("show", "120.4", "--content", str(CONTENT))
    assert "Cite: 704 (introuvable)" in result.output
    assert "Cites: 704 (not found)" in result.output


def test_show_unknown_number():
    result = run("show", "999.9", "--content", str(CONTENT))
    assert result.exit_code == 1
    assert "no rule 999.9" in result.output


def test_export_contract(tmp_path):
    out = tmp_path / "kb.json"
    result = run("export", "--content", str(CONTENT), "-o", str(out))
    assert result.exit_code == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    for key in ("kb_version", "documents", "rules", "glossary", "alignment", "diagnostics"):
        assert key in data
    assert {d["kind"] for d in data["documents"]} >= {"rules"}
    assert data["alignment"]["only_in"]["fr"][0] == "703.1"
    rule = next(r for r in data["rules"] if r["number"] == "703.4d")
    assert rule["references"] == [{"target": "904", "resolved": False}, {"target": "701.21", "resolved": False}]


def test_alignment_reports_reference_mismatch(kb_2015):
    mismatches = {m["number"]: m for m in kb_2015.links.alignment.reference_mismatches}
    assert mismatches["703.4d"]["fr"] == ["904", "701.21"]
    assert mismatches["703.4d"]["en"] == ["904", "701.22"]
    assert kb_2015.links.alignment.editions == {"fr": "fr:undated", "en": "en:2015-09-26"}


@pytest.mark.parametrize(
    ("query", "english"),
    [
        (["isperia"], "Isperia the Inscrutable"),
        (["ISPÉRIA", "L'IMPENETRABLE"], "Isperia the Inscrutable"),
        (["l'aethermage", "d'azorius"], "Azorius Aethermage"),
        (["la", "Cytoforme"], "Cytoshape"),
        (["Research"], "Research // Development"),
    ],
)
def test_show_card_by_name(query, english):
    result = run("show", *query, "--json", "--content", str(CONTENT))
    assert result.exit_code == 0, result.output
    payload = json.loads(result.output)
    assert payload["card"]["names"]["en"] == english
    assert {r["lang"] for r in payload["rulings"]} == {"fr", "en"}


def test_show_card_plain_and_ambiguous():
    result = run("show", "Isperia", "--content", str(CONTENT))
    assert "Isperia l'impénétrable [fr] | Isperia the Inscrutable [en]" in result.output
    assert "{1}{W}{W}{U}{U}" in result.output and "3/6" in result.output
    ambiguous = CliRunner().invoke(main, ["show", "ghildmage", "--content", str(CONTENT)])
    assert ambiguous.exit_code == 1
    assert "matches several cards: Rakdos Guildmage / Ghildmage de Rakdos" in ambiguous.output


def test_card_backlinks_in_show_and_export(tmp_path):
    shown = json.loads(run("show", "Cytoforme", "--json", "--content", str(CONTENT)).output)
    assert "fr/faq-discorde-2006#L615" in shown["mentioned_in"]
    out = tmp_path / "kb.json"
    run("export", "--content", str(CONTENT), "-o", str(out))
    data = json.loads(out.read_text(encoding="utf-8"))
    cytoshape = next(c for c in data["cards"] if c["id"] == "cytoshape")
    assert "fr/faq-discorde-2006#L615" in cytoshape["mentioned_in"]
    assert all("cited_by_rulings" in r for r in data["rules"])


def test_show_rule_lists_rulings_that_cite_it(tmp_path):
    content = tmp_path / "c"
    write(content / "en" / "faq.txt", (ROOT / "tests" / "fixtures" / "faq-en-sample.txt").read_bytes())
    write(content / "en" / "cr.txt", "502.53. Forecast rule.\n")
    write(content / "en" / "README.md", "notes\n")
    write(content / "pt-br" / "x.txt", "100.1. Regra.\n")
    result = run("show", "502.53", "--content", str(content))
    assert "Cited in rulings: Research // Development (en)" in result.output
    check = run("check", "--content", str(content))
    assert "c/en/README.md:0: note: only .txt (rules, FAQs) and .json (card data) files are read" in check.output
    assert "c/pt-br:0: note: not a two-letter ISO 639-1 language code" in check.output


def test_same_stem_gives_distinct_documents(tmp_path):
    content = tmp_path / "c"
    write(content / "en" / "x.txt", "100.1. One.\n")
    write(content / "en" / "x.json", (CONTENT / "en" / "cards-dissension-mtgjson.json").read_bytes())
    payload = json.loads(run("check", "--content", str(content), "--json").output)
    assert set(payload["documents"]) == {"en/x", "en/x.txt"}  # files are read in name order: x.json first
    assert payload["documents"]["en/x.txt"]["numbered"] == 1
    assert payload["documents"]["en/x"]["cards"] == 180


def test_empty_or_language_folder_is_a_user_error(tmp_path):
    (tmp_path / "empty").mkdir()
    empty = CliRunner().invoke(main, ["check", "--content", str(tmp_path / "empty")])
    assert empty.exit_code == 2 and "no content found" in empty.output
    lang = CliRunner().invoke(main, ["check", "--content", str(CONTENT / "en")])
    assert lang.exit_code == 2
    assert f"this is a language folder; pass its parent: --content {CONTENT}" in lang.output


def test_export_to_stdout_and_file_mode(tmp_path):
    result = run("export", "--content", str(CONTENT), "-o", "-")
    assert json.loads(result.output)["kb_version"]
    out = tmp_path / "kb.json"
    run("export", "--content", str(CONTENT), "-o", str(out))
    mask = os.umask(0o022)
    os.umask(mask)
    assert out.stat().st_mode & 0o777 == 0o666 & ~mask  # like any file the user writes, not mkstemp's 0600
    assert [p.name for p in tmp_path.iterdir()] == ["kb.json"]
