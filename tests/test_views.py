"""The terminal's views of changes: `kb diff` (counts that add up, filters, wrapping, colours) and `kb show
--history` (a rule's title, text and subrules' changes as a tree) and `--trace` (the API's trace)."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from kb.cli import main
from kb.export.terminal import COLOUR, PLAIN, printable, wrap_styled
from kb.link.editions.changelog import pronouns_only

from .conftest import CONTENT


def run(*args, env=None):
    return CliRunner().invoke(main, [*args, "--content", str(CONTENT)], catch_exceptions=False, env=env)


@pytest.mark.parametrize(
    ("old", "new", "only"),
    [
        ("each player creates his or her own deck", "each player creates their own deck", True),
        ("if he or she controls a creature", "if they control a creature", True),
        ("He or she chooses", "They choose", True),
        ("He or she is the player", "They are the player", True),
        ("its controller chooses as he or she wishes", "its controller chooses as they wish", True),
        ("he or she makes his or her choice", "making their choice", False),  # rewritten, not only pronouns
        ("his or her deck (see rule 103.4)", "their deck (see rule 103.5)", True),  # a reference followed too
        ("his or her deck", "his or her deck", False),  # no change at all
    ],
)
def test_a_change_only_of_pronouns_is_told_apart(old, new, only):
    assert pronouns_only(old, new, {"103.4": "103.5"}) is only


def test_wrapping_counts_what_a_reader_sees_and_closes_marks_at_line_ends():
    ops = [("equal", "each player needs "), ("delete", "his or her "), ("insert", "their "), ("equal", "own deck " * 6)]
    plain = wrap_styled(ops, 30, "  ", PLAIN)
    assert plain[:2] == ["  each player needs [-his or-]", "  [-her-] {+their+} own deck"]  # marks closed, reopened
    assert all(len(line) <= 30 for line in plain)
    assert wrap_styled(ops, 0, "", PLAIN) == ["each player needs [-his or her-] {+their+} " + ("own deck " * 6).strip()]
    coloured = wrap_styled(ops, 30, "  ", COLOUR)
    visible = [re.sub(r"\x1b\[[\d;]*m", "", line) for line in coloured]
    assert all(len(line) <= 30 for line in visible) and all(
        line.count("\x1b[0m") == line.count("\x1b[3") for line in coloured
    )
    assert printable("a\x1b[31mb") == "a\\x1b[31mb"  # the content's own escapes are shown, never acted on


def test_diff_summary_adds_up_and_hides_pronoun_and_reference_changes_unless_all():
    text = run("diff", "2015-09-26", "2026-01-16", "--width", "80").output
    assert max(len(line) for line in text.split("\n")) <= 80  # the counts too
    head = run("diff", "2015-09-26", "2026-01-16", "--width", "0").output.split("\n\n")[0].split("\n")
    total = int(re.match(r"en:2015-09-26 -> en:2026-01-16: (\d+) changes", head[0]).group(1))
    major = re.match(r"  (\d+) substantive: (.*)$", head[1])
    minor = re.match(r"  (\d+) minor: (.*)$", head[2])
    parts = [int(n) for n in re.findall(r"(\d+) [a-z]", major.group(2) + ", " + minor.group(2))]
    assert sum(parts) == total == int(major.group(1)) + int(minor.group(1))  # each change once, in one category
    pronouns = int(re.search(r"(\d+) pronouns only", head[2]).group(1))
    assert pronouns >= 111 and "not listed:" in head[3]
    assert "\nPronouns only" not in text and "\nReferences updated only" not in text
    assert "~ 100.4b" not in text and "~ 100.2a (reworded)" in text  # his or her -> their alone; more than pronouns
    everything = run("diff", "2015-09-26", "2026-01-16", "--all", "--width", "0").output
    assert "\nPronouns only (" in everything and "~ 100.4b (pronouns) — General" in everything
    assert "\nReferences updated only" in everything


def test_diff_filters_by_section_or_rule_and_counts_what_it_shows():
    rule = run("diff", "2015-09-26", "2026-01-16", "--rule", "702.19").output
    assert rule.startswith("en:2015-09-26 -> en:2026-01-16 (rule 702.19): ")
    listed = re.findall(r"^[~+>-] (\S+)", rule, re.MULTILINE)
    assert listed and all(n.startswith("702.19") for n in listed) and "+ 702.19c (added)" in rule
    section = run("diff", "2015-09-26", "2026-01-16", "--section", "7", "--json").output
    changes = json.loads(section)["changes"]
    assert changes and all("7" in (c["old"] or " ")[0] + (c["new"] or " ")[0] for c in changes)  # from or into 7
    bad = CliRunner().invoke(main, ["diff", "2015-09-26", "2026-01-16", "--section", "x", "--content", str(CONTENT)])
    assert bad.exit_code == 2 and bad.output.startswith("kb: --section")


def test_diff_is_plain_when_piped_or_no_color(monkeypatch):
    monkeypatch.setattr("sys.stdout.isatty", lambda: True, raising=False)
    from kb.commands.options import terminal

    class Tty:
        def isatty(self):
            return True

    monkeypatch.setenv("NO_COLOR", "1")
    assert terminal(Tty())[1] is False
    monkeypatch.delenv("NO_COLOR")
    monkeypatch.setenv("TERM", "xterm")
    assert terminal(Tty())[1] is True
    piped = run("diff", "2015-09-26", "2026-01-16", "--rule", "702.19").output
    assert "\x1b[" not in piped and "{+" in piped


def test_history_shows_title_text_and_the_subrules_changes_as_a_tree():
    text = run("show", "702.19", "--history").output
    assert text.startswith("702.19 Trample [en]\n")
    assert "├─ 702.19c  2026-01-16: added" in text
    assert "├─ 702.19d  2026-01-16: renumbered from 702.19c, reworded" in text
    assert "└─ 702.19g  2026-01-16: renumbered from 702.19e, reworded" in text
    assert "├─ 702.19a  same since 2015-09-26" in text
    assert "[-remaining-]" in text and "{+excess+}" in text and "…" in text  # a long unchanged stretch cut short


def test_trace_is_the_rules_story_as_json():
    trace = json.loads(run("show", "702.19d", "--trace").output)
    assert trace["number"] == "702.19d" and trace["editions"] == ["en:2015-09-26", "en:2026-01-16"]
    first, then = trace["trace"]
    assert (first["number"], first["change"]) == ("702.19c", "origin")
    assert (then["number"], then["change"], then["from"], then["reworded"]) == (
        "702.19d",
        "renumbered",
        ["702.19c"],
        True,
    )
    pronoun = json.loads(run("show", "100.4b", "--trace").output)["trace"][-1]
    assert pronoun["change"] == "reworded" and pronoun["minor"] == "pronoun"
    french = json.loads(run("show", "120.4", "--lang", "fr", "--trace").output)
    assert french["lang"] == "fr" and [s["change"] for s in french["trace"]] == ["origin"]


def test_errors_end_in_one_line_with_their_status():
    missing = CliRunner().invoke(main, ["show", "999.9", "--content", str(CONTENT)])
    assert missing.exit_code == 1 and missing.output == "kb: no rule 999.9 in fr, en\n"
    lang = CliRunner().invoke(main, ["show", "120.4", "--lang", "it", "--content", str(CONTENT)])
    assert lang.exit_code == 2 and lang.output.startswith("kb: no it text loaded")
