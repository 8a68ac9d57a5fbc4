"""Misprinted rule numbers read from their place, and every official edition read with no error.

Each fixture is a stretch of a real edition, copied byte for byte, with one rule's number misprinted the way
official editions misprint them (a number that repeats an earlier rule's inside another run): 510.2-510.4
printed `501.2`-`501.4` after 510.1, 609.2c printed `605.2c` after 609.2b, 502.36b printed `502.35b` after
502.36a, and a subrule number printed twice in a row (702.30d printed `702.30c` after 702.30c).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kb.model import SourceText
from kb.parse.cr.rules import RulesResult, parse_rules
from kb.sources import read_source

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"
SHARED = ROOT.parent / "shared" / "corpus" / "history"
PREFIX = re.compile(r"\A\s*(?:\d{3}\.(?: ?\d+)?[a-z]?\.?|\d\.|Example:)\s*")
"""A rule number as written at the start of a line (damaged ones too), or the `Example:` label."""


def parse(path: Path) -> RulesResult:
    source, _ = read_source(path, "en", path.name)
    return parse_rules(source, f"en/{path.stem}")


def original(path: Path, number: str) -> str:
    """The text of `number` in the edition the fixture was cut from (its date is in the fixture's name)."""
    date = re.search(r"\d{4}-\d\d-\d\d", path.name).group()
    rule = next(r for r in parse(FIXTURES / "history" / f"cr-en-{date}.txt").rules if r.number == number)
    return rule.text


@pytest.mark.parametrize(
    ("name", "numbers", "read", "warnings"),
    [
        (
            "cr-misprint-2008-10-01-510.txt",
            ["510", "510.1", "510.2", "510.3", "510.4", "510.5", "510.6", "511"],
            ["510.2", "510.3", "510.4"],
            [
                "27: warning: rule 501.2 is printed again (first at line 5): read as 510.2, which fits after 510.1 "
                "and before 510.5",
                "29: warning: rule 501.3 is printed again (first at line 15): read as 510.3, which fits after 510.2 "
                "and before 510.5",
                "31: warning: rule 501.4 is printed again (first at line 19): read as 510.4, which fits after 510.3 "
                "and before 510.5",
            ],
        ),
        (
            "cr-misprint-2008-10-01-609.txt",
            ["609.2", "609.2a", "609.2b", "609.2c", "609.3"],
            ["609.2c"],
            [
                "15: warning: rule 605.2c is printed again (first at line 7): read as 609.2c, which fits after "
                "609.2b and before 609.3"
            ],
        ),
        (
            "cr-misprint-2008-10-01-502.txt",
            ["502.35", "502.35a", "502.35b", "502.36", "502.36a", "502.36b", "502.37"],
            ["502.36b"],
            [
                "11: warning: rule 502.35b is printed again (first at line 5): read as 502.36b, which fits after "
                "502.36a and before 502.37"
            ],
        ),
        (
            "cr-misprint-2009-07-11-702.txt",
            ["702.30", "702.30a", "702.30b", "702.30c", "702.30d", "702.31"],
            ["702.30d"],
            [
                "9: warning: rule 702.30c is printed again (first at line 7): read as 702.30d, which fits after "
                "702.30c and before 702.31"
            ],
        ),
    ],
)
def test_misprinted_number_takes_the_number_its_place_implies(name, numbers, read, warnings):
    path = FIXTURES / name
    result = parse(path)
    rules = {r.number: r for r in result.rules}
    assert list(rules)[-len(numbers) :] == numbers
    assert [d.format() for d in result.diagnostics] == [f"{name}:{w}" for w in warnings]
    for number in read:
        assert rules[number].text == original(path, number)
    for rule in result.rules:  # no misprinted line ends up in a neighbour's text
        assert not re.search(r"(?m)^\d{3}\.\d", rule.text), rule.number


def test_a_true_duplicate_stays_an_error():
    """A number printed again where the next rule already follows (no room for another) is not a misprint."""
    lines = ("702.30. Kicker", "", "702.30a One.", "", "702.30a Again.", "", "702.30b Two.")
    result = parse_rules(SourceText("x.txt", "en", lines, "utf-8", "0"), "en/x")
    assert [r.number for r in result.rules] == ["702.30", "702.30a", "702.30b"]
    assert [d.severity for d in result.diagnostics] == ["error"]
    assert "duplicate rule 702.30a" in result.diagnostics[0].message


def editions() -> list:
    bundled = sorted((ROOT / "content" / "en").glob("cr-en-*.txt"))
    shared = sorted(SHARED.glob("cr-en-*.txt"))
    missing = pytest.param(None, marks=pytest.mark.skip(reason=f"the shared corpus is not here ({SHARED})"))
    return [*bundled, *(shared or [missing])]


@pytest.mark.parametrize("path", editions(), ids=lambda p: p.name if p else "shared")
def test_official_edition_reads_with_no_error_and_every_line_in_a_rule(path):
    source, _ = read_source(path, "en", path.name)
    result = parse_rules(source, f"en/{path.stem}")
    assert [d.format() for d in result.diagnostics if d.severity == "error"] == []
    lines = list(source.lines)
    start = [i for i, line in enumerate(lines) if re.match(r"1\. \S", line)][1]  # the first is in the contents
    end = [i for i, line in enumerate(lines) if line.strip() == "Glossary"][1]
    pieces = set()
    for rule in result.rules:
        pieces.update((rule.title, *rule.text.split("\n"), *rule.examples))
    lost = [line for line in lines[start:end] if line.strip() and " ".join(PREFIX.sub("", line).split()) not in pieces]
    assert lost == []
