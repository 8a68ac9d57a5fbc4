"""The CR parser on the ten official English editions (2004-2026): no error, no text dropped, the right date.

The counts here are taken from the raw files with plain regexes, never with the parser's own line rules:
the body runs from the second line that opens section 1 (the first is in the contents; 2009's contents say
"1. Game Concepts" where its body says "1. The Game") to the second `Glossary` line, and a rule is a line that
starts with `d. ` or `ddd.` (after optional spaces: 2009 indents four rule lines by one space). That shape
counts the damaged numbers too (`702. 37a`, `306.b`, `901.4.All`), so it must agree exactly with the parser.
"""

from __future__ import annotations

import functools
import re
import textwrap
from pathlib import Path

import pytest

from kb.model import SourceText
from kb.parse.cr.rules import RulesResult, parse_rules
from kb.sources import read_source

FIXTURES = Path(__file__).resolve().parent / "fixtures"
HISTORY = FIXTURES / "history"
EDITIONS = {
    # file, its encoding (read here without the parser's decoder), the date line quoted from the file
    "2004-10-01": (HISTORY / "cr-en-2004-10-01.txt", "ascii", "These rules are current as of October 1, 2004."),
    "2006-07-15": (HISTORY / "cr-en-2006-07-15.txt", "cp437", "These rules are current as of July 15, 2006."),
    "2008-10-01": (HISTORY / "cr-en-2008-10-01.txt", "ascii", "These rules are current as of October 1, 2008."),
    "2009-07-11": (HISTORY / "cr-en-2009-07-11.txt", "ascii", "These rules are effective as of July 11, 2009."),
    "2012-07-01": (HISTORY / "cr-en-2012-07-01.txt", "ascii", "These rules are effective as of July 1, 2012."),
    "2015-09-26": (FIXTURES / "cr-en-20150926.txt", "cp1252", "These rules are effective as of September 26, 2015."),
    "2017-09-29": (HISTORY / "cr-en-2017-09-29.txt", "cp1252", "These rules are effective as of September 29, 2017."),
    "2020-06-01": (HISTORY / "cr-en-2020-06-01.txt", "utf-8-sig", "These rules are effective as of June 1, 2020."),
    "2023-10-13": (HISTORY / "cr-en-2023-10-13.txt", "utf-8-sig", "These rules are effective as of October 13, 2023."),
    "2026-01-16": (FIXTURES / "cr-en-20260116.txt", "utf-8-sig", "These rules are effective as of January 16, 2026."),
}
DROPPED = ("outside any rule", "not part of any rule", "kept as a paragraph", "ignored")
"""Words of the diagnostics that say a line's text did not land in the rule it belongs to."""
PREFIX = re.compile(r"\A\s*(?:\d{3}\.(?: ?\d+)?[a-z]?\.?|\d\.|Example:)\s*")
"""A rule number as written at the start of a line (damaged ones too), or the `Example:` label."""


@functools.cache
def parsed(date: str) -> RulesResult:
    path = EDITIONS[date][0]
    source, _ = read_source(path, "en", path.name)
    return parse_rules(source, f"en/{path.stem}")


@functools.cache
def body(date: str) -> tuple[str, ...]:
    """The physical lines of the rules body, decoded and split here, independently of the parser."""
    path, encoding, _ = EDITIONS[date]
    lines = re.split(r"\r\n|\r|\n", path.read_bytes().decode(encoding))
    start = [i for i, line in enumerate(lines) if re.match(r"1\. \S", line)][1]
    end = [i for i, line in enumerate(lines) if line.strip() == "Glossary"][1]
    return tuple(lines[start:end])


def by_number(result: RulesResult) -> dict:
    return {r.number: r for r in result.rules}


@pytest.mark.parametrize("date", sorted(EDITIONS))
def test_edition_parses_whole(date):
    result = parsed(date)
    path, _, date_line = EDITIONS[date]
    assert date_line in path.read_bytes().decode(EDITIONS[date][1])
    assert result.document.effective_date == date
    assert [d.format() for d in result.diagnostics if d.severity == "error"] == []
    assert [d.format() for d in result.diagnostics if any(word in d.message for word in DROPPED)] == []
    lines = body(date)
    assert len(result.rules) == sum(1 for line in lines if re.match(r"\s*(?:\d\. |\d{3}\.)", line))
    examples = sum(1 for line in lines if re.match(r"\s*Example:", line))
    assert sum(len(r.examples) for r in result.rules) == examples


@pytest.mark.parametrize("date", sorted(EDITIONS))
def test_every_body_line_lands_in_a_rule(date):
    """Each non-blank body line, less its number or label, is a title, paragraph or example of some rule."""
    pieces = set()
    for rule in parsed(date).rules:
        pieces.update((rule.title, *rule.text.split("\n"), *rule.examples))
    lost = [line for line in body(date) if line.strip() and " ".join(PREFIX.sub("", line).split()) not in pieces]
    assert lost == []


def test_2009_storm_written_with_a_space():
    # 2009-07-11 lines 2576 and 2578: "702. 37a Storm is a triggered ability…", "702. 37b If a spell has…"
    rules = by_number(parsed("2009-07-11"))
    assert rules["702.37"].text == "Storm"
    assert rules["702.37a"].text.startswith('Storm is a triggered ability that functions on the stack. "Storm" means')
    assert rules["702.37b"].text == "If a spell has multiple instances of storm, each triggers separately."
    assert rules["702.37"].children == ("702.37a", "702.37b")
    warnings = [d.format() for d in parsed("2009-07-11").diagnostics if "space inside" in d.message]
    assert warnings == [
        "cr-en-2009-07-11.txt:2576: warning: rule '702. 37a' has a space inside its number: read as 702.37a, "
        "which fits after 702.37 and before 702.38",
        "cr-en-2009-07-11.txt:2578: warning: rule '702. 37b' has a space inside its number: read as 702.37b, "
        "which fits after 702.37a and before 702.38",
    ]


def test_2006_two_headed_giant_606_8b_keeps_its_examples():
    # 2006-07-15 line 2256: "606. 8b Players win and lose the game only as a team, not as individuals. …"
    rules = by_number(parsed("2006-07-15"))
    assert rules["606.8b"].text.startswith("Players win and lose the game only as a team, not as individuals.")
    assert len(rules["606.8b"].examples) == 3
    assert rules["606.8b"].examples[0].startswith("In a Two-Headed Giant game, a player controls Transcendence")
    assert rules["606.8"].children == ("606.8a", "606.8b", "606.8c")


def test_2008_subrule_missing_its_number():
    # 2008-10-01 line 837: "306.b If an effect would put a creature into play attacking under the control of…"
    result = parsed("2008-10-01")
    rules = by_number(result)
    assert rules["306.3b"].text.startswith("If an effect would put a creature into play attacking under the control")
    assert rules["306.3a"].text.startswith("If an effect would put a noncreature permanent into play attacking")
    assert "306.b" not in rules["306.3a"].text
    assert [d.format() for d in result.diagnostics if d.line in (837, 839)] == [
        "cr-en-2008-10-01.txt:837: warning: rule '306.b' lacks part of its number: read as 306.3b, "
        "which fits after 306.3a",
        "cr-en-2008-10-01.txt:839: warning: rule 306.1c is out of order: it follows 306.3b (line 837)",
    ]


def test_901_4_glued_to_its_text():
    """2022 to early 2025 write `901.4.All plane and phenomenon cards…` (cut from the 2023-10-13 edition)."""
    path = FIXTURES / "cr-excerpt-2023-10-13-901.txt"
    source, _ = read_source(path, "en", path.name)
    result = parse_rules(source, "en/excerpt")
    assert [r.number for r in result.rules] == ["901.3", "901.3a", "901.4", "901.5"]
    rule = by_number(result)["901.4"]
    assert rule.text.startswith("All plane and phenomenon cards remain in the command zone throughout the game")
    assert rule.source.line == 5
    assert [d.format() for d in result.diagnostics] == [
        "cr-excerpt-2023-10-13-901.txt:5: warning: rule '901.4.' has no space between its number and its text: "
        "read as 901.4, which fits after 901.3a and before 901.5"
    ]
    assert by_number(parsed("2023-10-13"))["901.4"].text == rule.text
    assert "All plane" not in by_number(parsed("2023-10-13"))["901.3a"].text


def wrap(lines: tuple[str, ...], width: int) -> tuple[list[str], int]:
    """Hard-wrap every long unindented line, as the PDF-extracted 2003-2008 editions are; count the wrapped
    lines that open with something shaped like a rule number."""
    out, opening = [], 0
    for line in lines:
        if len(line) <= width or line[:1].isspace():
            out.append(line)
            continue
        parts = textwrap.wrap(line, width, break_long_words=False, break_on_hyphens=False)
        opening += sum(1 for part in parts[1:] if re.match(r"\d{3}\.|\d\. ", part))
        out += parts
    return out, opening


def parse_lines(lines: list[str], name: str = "wrapped.txt") -> RulesResult:
    return parse_rules(SourceText(name, "en", tuple(lines), "utf-8", "0"), "en/wrapped")


def rule_line(date: str, number: str) -> str:
    """The physical line of `number` in an edition, read without the parser."""
    return next(line for line in body(date) if line.startswith(f"{number} "))


def test_wrapped_see_rule_103_4_stays_in_its_paragraph():
    """2004-10-01, 413.2d, wrapped as the hard-wrapped editions do: `… See rule` / `103.4. If a player…`."""
    line = rule_line("2004-10-01", "413.2d")
    assert line.startswith("413.2d If an effect requires both players to make choices")
    head, tail = line.split(" See rule 103.4. ")
    assert tail.startswith("If a player must make more than one choice at a time")
    for first, second in ((f"{head} See rule", f"103.4. {tail}"), (f"{head} See", f"rule 103.4. {tail}")):
        result = parse_lines([first, second, "", "413.3. Next."])
        assert [r.number for r in result.rules] == ["413.2d", "413.3"]
        assert result.rules[0].text == line.removeprefix("413.2d ")
        assert result.rules[0].references == ("103.4",)
        assert [d for d in result.diagnostics if d.severity != "note"] == []


def test_wrapped_number_that_cannot_be_the_next_rule_continues_its_paragraph():
    """2006-07-15, 208.1, wrapped `… has power 2 and toughness` / `3. Power and toughness can be modified…`:
    a section 3 cannot come between 208.1 and 208.2."""
    line = rule_line("2006-07-15", "208.1.")
    head, tail = line.split(" 3. Power ")
    result = parse_lines([head, f"3. Power {tail}", "", "208.2. Next."])
    assert [r.number for r in result.rules] == ["208.1", "208.2"]
    assert result.rules[0].text == line.removeprefix("208.1. ")
    assert [d.format() for d in result.diagnostics] == [
        "wrapped.txt:2: note: '3.' cannot be the rule after 208.1: read as a wrapped line of it"
    ]


@pytest.mark.parametrize("date", ["2004-10-01", "2006-07-15", "2008-10-01"])
def test_hard_wrapped_edition_reads_as_the_unwrapped_one(date):
    """Wrapped at 75 columns, each edition has 20-40 lines that open with a number (`See rule` / `306.2.`,
    `toughness` / `3. Power and toughness…`): every rule keeps the same title, text and examples."""
    source, _ = read_source(EDITIONS[date][0], "en", EDITIONS[date][0].name)
    lines, opening = wrap(source.lines, 75)
    assert opening > 20
    wrapped = parse_lines(lines, EDITIONS[date][0].name)
    assert [d for d in wrapped.diagnostics if d.severity == "error"] == []
    expected = {r.number: (r.title, r.text, r.examples) for r in parsed(date).rules}
    assert {r.number: (r.title, r.text, r.examples) for r in wrapped.rules} == expected
