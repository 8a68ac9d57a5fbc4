"""The thin CLI: exit codes, output, help text for every command."""

from __future__ import annotations

import json
import os
import re
import shutil

import pytest
from click.testing import CliRunner

from kb.cli import COMMANDS, main

from .conftest import CONTENT, FIXTURES, ROOT, write


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
    write(tmp_path / "c" / "en" / "a.txt", "100.1. One.\n\n100.2 Two, no dot after its number.\n")
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
    result = run("show", "121.2c", "--json", "--content", str(CONTENT))
    payload = json.loads(result.output)
    assert payload["number"] == "121.2c"
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
    assert fr["number"] == "120.2a" and fr["parent"] == "120.2" and fr["kind"] == "subrule"
    assert fr["aligned_with"] == {"edition": "en:2026-01-16", "number": "121.2c", "via": "lineage", "confidence": 0.956}
    assert fr["source"] == {"path": "content/fr/cr-120-piocher-une-carte.txt", "line": 7}


@pytest.mark.parametrize("query", [["règle", "703.4k"], ["CR", "120.2a"], ["r120.2a"], ["rule", "120.4"]])
def test_show_accepts_number_forms(query):
    result = run("show", *query, "--content", str(CONTENT))
    assert result.exit_code == 0
    assert query[-1].lstrip("r") in result.output


def test_show_side_by_side_lists_references():
    result = run("show", "121.4", "--content", str(CONTENT))
    assert "120.4 [fr]" in result.output and "121.4 [en]" in result.output  # the French rule keeps its number
    assert "Cite: 704" in result.output and "Cite: 704 (introuvable)" not in result.output  # 2015's 704 is today's
    assert "Cites: 704" in result.output and "Cites: 704 (not found)" not in result.output


def test_show_never_pairs_rules_of_different_content():
    result = run("show", "120.2", "--json", "--content", str(CONTENT))
    payload = json.loads(result.output)
    assert set(payload["rules"]) == {"en"} and payload["rules"]["en"]["text"] == "Any object can deal damage."


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
    zeppelid = next(c for c in data["cards"] if c["names"]["en"] == "Assault Zeppelid")
    assert zeppelid["printings"] == ["DIS"] and zeppelid["keywords"] == ["Flying", "Trample"]  # as docs/json.md says
    assert data["alignment"]["only_in"]["fr"] == ["703.4h", "703.4i"]
    rule = next(r for r in data["rules"] if r["number"] == "703.4d" and r["lang"] == "fr")
    assert rule["references"] == [{"target": "904", "resolved": False}, {"target": "701.21", "resolved": False}]
    editions = {e["id"]: e for e in data["editions"]}
    assert editions["en:2026-01-16"]["current"] and not editions["en:2015-09-26"]["current"]
    assert editions["en:2015-09-26"]["documents"] == ["en/cr-en-20150926", "en/cr-120-drawing-a-card"]
    pair = {"fr": {"edition": "fr:undated", "number": "120.2"}, "en": {"edition": "en:2026-01-16", "number": "121.2"}}
    assert {**pair, "via": "lineage", "confidence": 0.97} in data["alignment"]["pairs"]
    assert data["alignment"]["matches"]["fr"]["edition"] == "en:2015-09-26"
    drawing = next(r for r in data["rules"] if r["number"] == "121.2" and r["edition"] == "en:2026-01-16")
    assert drawing["lineage"]["previous"][0]["number"] == "120.2" and drawing["lineage"]["status"] == "renumbered"
    numbers = [(r["edition"], r["number"]) for r in data["rules"]]
    assert len(numbers) == len(set(numbers)), "an extract never duplicates its edition's rules"


def test_alignment_reports_reference_mismatch(kb_2015):
    mismatches = {m["numbers"]["fr"]: m for m in kb_2015.links.alignment.reference_mismatches}
    assert mismatches["703.4d"]["fr"] == ["904", "701.21"]
    assert mismatches["703.4d"]["en"] == ["904", "701.22"] and mismatches["703.4d"]["edition"] == "en:2015-09-26"
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
    assert (
        "c/en/README.md:0: note: only .txt (rules, FAQs), .json (card data) and .tsv (vocabulary tables) files are read"
        in check.output
    )
    assert "c/pt-br:0: note: not a two-letter ISO 639-1 language code" in check.output


def test_same_stem_gives_distinct_documents(tmp_path):
    content = tmp_path / "c"
    write(content / "en" / "x.txt", "100.1. One.\n")
    write(content / "en" / "x.json", (FIXTURES / "mtgjson3-DIS.json").read_bytes())
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


def test_export_never_replaces_what_is_not_a_file_of_its_own(tmp_path):
    content = tmp_path / "content"
    (content / "en").mkdir(parents=True)
    rules = content / "en" / "cr-120-drawing-a-card.txt"
    rules.write_bytes((CONTENT / "en" / "cr-120-drawing-a-card.txt").read_bytes())
    before = rules.read_bytes()
    inside = CliRunner().invoke(main, ["export", "--content", str(content), "-o", str(rules)])
    assert inside.exit_code == 2 and "inside the content folder" in inside.output
    assert rules.read_bytes() == before
    missing = CliRunner().invoke(main, ["export", "--content", str(content), "-o", str(tmp_path / "no" / "x.json")])
    assert missing.exit_code == 2 and "there is no folder" in missing.output and not (tmp_path / "no").exists()
    target, link = tmp_path / "target.json", tmp_path / "link.json"
    target.write_text("old", encoding="utf-8")
    link.symlink_to(target)
    assert CliRunner().invoke(main, ["export", "--content", str(content), "-o", str(link)]).exit_code == 0
    assert link.is_symlink() and json.loads(target.read_text(encoding="utf-8"))["rules"]


@pytest.mark.skipif(not os.path.exists("/dev/stdout"), reason="needs /dev/stdout")
def test_export_to_dev_stdout_appends_to_what_stdout_is(tmp_path):
    import subprocess
    import sys

    log = tmp_path / "log.txt"
    log.write_text("kept\n", encoding="utf-8")
    with open(log, "a", encoding="utf-8") as handle:  # `kb export -o /dev/stdout >> log.txt`
        args = [sys.executable, "-m", "kb", "export", "--content", str(CONTENT), "-o", "/dev/stdout"]
        assert subprocess.run(args, stdout=handle, stderr=subprocess.DEVNULL, check=False).returncode == 0
    text = log.read_text(encoding="utf-8")
    assert text.startswith("kept\n{") and json.loads(text[len("kept\n") :])["rules"]
    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    looped = CliRunner().invoke(main, ["export", "--content", str(CONTENT), "-o", str(loop)])
    assert looped.exit_code == 2 and "cannot write" in looped.output and loop.is_symlink()


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_export_to_a_full_device_fails_and_leaves_it_alone():
    result = CliRunner().invoke(main, ["export", "--content", str(CONTENT), "-o", "/dev/full"])
    assert result.exit_code == 1 and "cannot write /dev/full" in result.output
    assert not os.path.isfile("/dev/full")


def test_check_names_files_as_they_open_from_the_current_folder(tmp_path, monkeypatch):
    content = tmp_path / "deep" / "content"
    (content / "en").mkdir(parents=True)
    data = (CONTENT / "en" / "cards-dissension-mtgjson5.json").read_bytes()
    (content / "en" / "cards.json").write_bytes(data[:5000])
    (tmp_path / "elsewhere").mkdir()
    for where in (tmp_path, tmp_path / "elsewhere"):  # below it: relative; beside it: absolute
        monkeypatch.chdir(where)
        result = CliRunner().invoke(main, ["check", "--content", str(content)])
        line = next(x for x in result.output.splitlines() if "truncated JSON" in x)
        path = line.split(":0: error: ")[0]
        assert os.path.isfile(path) and os.path.samefile(path, content / "en" / "cards.json"), line
        assert str(content) not in line.split(":0: error: ")[1]  # named once


def test_check_names_a_linked_file_as_it_opens(tmp_path, monkeypatch):
    content = tmp_path / "a" / "b" / "content"
    (content / "en").mkdir(parents=True)
    (tmp_path / "elsewhere").mkdir()
    data = (CONTENT / "en" / "cards-dissension-mtgjson5.json").read_bytes()
    (tmp_path / "elsewhere" / "cards.json").write_bytes(data[:5000])
    (content / "en" / "cards.json").symlink_to(tmp_path / "elsewhere" / "cards.json")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["check", "--content", "a/b/content"])
    line = next(x for x in result.output.splitlines() if "truncated JSON" in x)
    assert os.path.isfile(line.split(":0: error: ")[0]), line


def test_diff_between_editions_counts_and_lists_changes():
    result = run("diff", "2015-09-26", "2026-01-16", "--json", "--content", str(CONTENT))
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    counts = data["counts"]
    # Every 2015 rule is removed or reaches 2026; every 2026 rule is added or reached.
    assert counts["removed"] + counts["renumbered"] + counts["changed"] + counts["unchanged"] >= 2184 - 10
    assert counts["added"] > 1000 and counts["renumbered"] > 1000 and counts["changed"] > 300
    moved = {(c["old"], c["new"]) for c in data["changes"] if c["status"] == "renumbered"}
    assert ("120.2", "121.2") in moved and ("702.56", "702.57") in moved  # drawing; forecast
    changed = next(c for c in data["changes"] if c["old"] == "100.2" and c["new"] == "100.2")
    assert ["delete", "his or her "] in changed["diff"] and ["insert", "their "] in changed["diff"]


def test_diff_text_and_bad_editions():
    text = run("diff", "en:2015-09-26", "en:2026-01-16", "--only", "renumbered", "--content", str(CONTENT))
    assert "\n  120–120.7 -> 121–121.7\n" in text.output and "+ 100.2c" not in text.output  # a run, same text
    for args in (["2026-01-16", "2015-09-26"], ["1999-01-01", "2026-01-16"], ["fr:undated", "en:2026-01-16"]):
        bad = CliRunner().invoke(main, ["diff", *args, "--content", str(CONTENT)])
        assert bad.exit_code == 2 and bad.output.startswith("kb: ")


def test_show_history_of_a_rule():
    result = run("show", "702.57", "--history", "--json", "--content", str(CONTENT))
    history = json.loads(result.output)["history"]["en"]
    assert [(h["edition"], h["number"], h["status"]) for h in history] == [
        ("en:2015-09-26", "702.56", "origin"),
        ("en:2026-01-16", "702.57", "renumbered"),
    ]
    assert "702.56" in run("show", "702.57", "--history", "--content", str(CONTENT)).output


@pytest.mark.slow
def test_the_program_ends_with_the_commands_status_and_all_its_output(tmp_path):
    """`kb` skips tearing down its objects at exit (`kb.cli.run`): statuses and every byte of output still come."""
    import subprocess
    import sys

    def kb(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "kb", *args], capture_output=True, text=True, cwd=tmp_path)

    exported = kb("export", "--content", str(CONTENT), "-o", "-")
    assert exported.returncode == 0 and len(exported.stdout) > 1_000_000
    assert json.loads(exported.stdout)["rules"]  # the whole document, flushed
    missing = kb("check", "--content", str(tmp_path / "nowhere"))
    assert missing.returncode == 2 and "content folder not found" in missing.stderr
    malformed = kb("search", '"unbalanced', "--content", str(CONTENT))
    assert malformed.returncode == 2 and "unbalanced quote" in malformed.stderr
    assert kb("--version").stdout.startswith("kb, version")


def test_show_reads_a_number_in_the_french_text_beside_the_rule_it_is_today():
    payload = json.loads(run("show", "120.4", "--lang", "fr", "--json", "--content", str(CONTENT)).output)
    assert payload["number"] == "120.4" and set(payload["rules"]) == {"fr", "en"}
    assert payload["rules"]["fr"]["number"] == "120.4" and payload["rules"]["en"]["number"] == "121.4"
    assert payload["rules"]["en"]["title"] == "" and "bibliothèque vide" in payload["rules"]["fr"]["text"]
    plain = run("show", "703.4b", "--lang", "fr", "--content", str(CONTENT)).output
    assert "Cite: 502.2 (2015) → 502.3" in plain and "703.4c [en]" in plain
    gone = run("show", "703.4h", "--lang", "fr", "--content", str(CONTENT)).output
    assert "Cite: 509.2 (2015) (supprimée depuis)" in gone and "(fr 703.4h has no rule of today in en)" in gone
    today = run("show", "120.4", "--content", str(CONTENT)).output
    assert "(fr 120.4 is today's en 121.4: kb show 120.4 --lang fr)" in today


def test_search_says_the_numbers_of_a_translation_numbered_otherwise():
    lines = run("search", "703.4h", "--content", str(CONTENT)).output.splitlines()
    today = lines.index("1. 703.4h  Turn-Based Actions")  # today's rule, beside the French rule that is it
    assert lines[today + 1].startswith("   FR 703.4e  Tout de suite après le début de l'étape de début de combat")
    assert lines[today + 2].startswith("   EN  Immediately after the beginning of combat step")
    own = lines.index("2. 703.4h (fr:undated)")  # the French text's own 703.4h, which no rule of today continues
    assert lines[own + 1].startswith("   FR  Tout de suite après la déclaration des bloqueurs")


def test_show_says_why_a_column_has_no_rule():
    wide = CliRunner(env={"COLUMNS": "240"})  # side by side, each column's header on one line
    gone = wide.invoke(main, ["show", "703.4h", "--lang", "fr", "--content", str(CONTENT)]).output
    removed = "removed between the 2015-09-26 and 2026-01-16 editions"
    assert f"703.4h [en]: no rule of today (2015's 703.4h was {removed})" in gone
    elsewhere = wide.invoke(main, ["show", "120.3", "--content", str(CONTENT)]).output
    assert "120.3 [fr]: absente en français (le 120.3 du texte français est la 121.3 d’aujourd’hui)" in elsewhere
    assert "703.4b [fr]: absente en français (le 703.4b du texte français est la 703.4c d’aujourd’hui)" in (
        wide.invoke(main, ["show", "703.4b", "--content", str(CONTENT)]).output  # today's day/night rule
    )
    new = wide.invoke(main, ["show", "121.2a", "--content", str(CONTENT)]).output  # a rule the French text lacks
    assert "121.2a [fr]: absente en français │" in " ".join(new.split())


def test_show_in_a_numbering_the_text_lacks():
    result = CliRunner().invoke(main, ["show", "121.9", "--lang", "fr", "--content", str(CONTENT)])
    assert result.exit_code == 1 and "no rule 121.9 in the fr text (its own numbering)" in result.output
    result = CliRunner().invoke(main, ["show", "120.4", "--lang", "de", "--content", str(CONTENT)])
    assert result.exit_code == 2 and "no de text loaded" in result.output


def test_show_a_rule_of_an_older_edition_and_what_it_is_today():
    text = run("show", "120.3", "--edition", "2015-09-26", "--content", str(CONTENT)).output
    assert "120.3 [en] content/en/cr-en-20150926.txt:" in text and "[fr]" not in text
    assert "(120.3 of en:2015-09-26, today 121.3)" in text
    payload = json.loads(run("show", "120.3", "--edition", "en:2015-09-26", "--json", "--content", str(CONTENT)).output)
    assert (payload["edition"], payload["today"], list(payload["rules"])) == ("en:2015-09-26", ["121.3"], ["en"])
    for args, code in ((["120.3", "--edition", "1999-01-01"], 2), (["999.9", "--edition", "2015-09-26"], 1)):
        result = CliRunner().invoke(main, ["show", *args, "--content", str(CONTENT)])
        assert result.exit_code == code and "Traceback" not in result.output


def test_diff_groups_removed_rules_apart_and_only_filters_the_json():
    text = run("diff", "2015-09-26", "2026-01-16", "--content", str(CONTENT)).output
    heads = re.findall(r"^Section (\d)[^\n]*?(, en:2015-09-26's rules removed)? \((\d+)\)$", text, re.MULTILINE)
    listed = text.split("\nReferences updated only")[0].split("\nSection ")[1:]
    for (_, _, count), block in zip(heads, listed, strict=True):  # each header counts the changes under it
        assert int(count) == sum(1 for line in block.split("\n")[1:] if line[:2] in ("+ ", "- ", "~ ", "> "))
    assert any(gone for _, gone, _ in heads)
    data = json.loads(
        run("diff", "2015-09-26", "2026-01-16", "--only", "moved", "--json", "--content", str(CONTENT)).output
    )
    assert data["changes"] and {c["kind"] for c in data["changes"]} == {"moved"} and data["runs"] == []
    assert data["counts"]["unchanged"] > 0 and data["kinds"]["renumbering"] > 0  # the counts cover everything


def test_build_says_the_content_has_warnings_and_stops_on_a_text_cut_short(tmp_path):
    content = tmp_path / "content"
    shutil.copytree(CONTENT, content)
    built = CliRunner().invoke(main, ["build", "--content", str(content), "--out", str(tmp_path / "site")])
    assert built.exit_code == 0 and "kb: the content has 3 warnings: `kb check` lists them" in built.output
    current = content / "en" / "cr-en-20260116.txt"
    current.write_bytes(current.read_bytes()[:400_000])  # a download cut short
    again = CliRunner().invoke(main, ["build", "--content", str(content), "--out", str(tmp_path / "site")])
    assert again.exit_code == 1 and "error: the text is cut short" in again.output
    assert "site not built" in again.output and (tmp_path / "site" / "index.html").is_file()  # the old one stays


def test_check_quiet_leaves_notes_out_of_the_json_too():
    quiet = json.loads(run("check", "-q", "--json", "--content", str(CONTENT)).output)
    assert quiet["diagnostics"] and {d["severity"] for d in quiet["diagnostics"]} <= {"error", "warning"}
    assert quiet["totals"]["note"] > 0  # still counted
