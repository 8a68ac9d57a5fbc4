"""Linear time on hostile text (issue 44, item 5): no pattern of kb backtracks over a long run of characters, the CR
parser joins a rule's wrapped lines in linear time, and a long run of spaces after a rule number costs nothing."""

from __future__ import annotations

import importlib
import pkgutil
import re
import time

import pytest

import kb
from kb.model import SourceText
from kb.parse.cr.rules import parse_rules

N = 20_000
HOSTILE = [
    lambda n: " " * n + "x",
    lambda n: "\t" * n + "x!",
    lambda n: "1" * n + "!",
    lambda n: "1." * (n // 2) + "!",
    lambda n: "100" + ".1o" * (n // 3) + "!",
    lambda n: "100.1a" + " " * n + "x" + " " * n + "!",
    lambda n: "a" * n + "!",
    lambda n: "a " * (n // 2) + "!",
    lambda n: "a-" * (n // 2) + "!",
    lambda n: "-" * n + "x",
    lambda n: "." * n + "x",
    lambda n: "(" * n + "x",
    lambda n: "«" * n + "x",
    lambda n: '"' + "a" * n,
    lambda n: "“" + "a," * (n // 2),
    lambda n: "{" * n + "x",
    lambda n: "{T}" * (n // 3) + "x",
    lambda n: "*" * n + "x",
    lambda n: "See " * (n // 4) + "x",
    lambda n: "See rule 100.1, " * (n // 16) + "x",
    lambda n: "Cf. règle " * (n // 10) + "x",
    lambda n: "Example: " + " " * n + "x",
    lambda n: "é" * n + "!",
    lambda n: "702. " + "37a " * (n // 4) + "!",
    lambda n: "1/1 " * (n // 4) + "+1/+1 " * (n // 6),
]
"""Long runs of what kb's texts are made of, as texts of about N characters."""


def kb_patterns() -> dict[str, re.Pattern[str]]:
    """Every pattern kb keeps at a module's top level, and those it builds per language."""
    found: dict[str, re.Pattern[str]] = {}
    for info in pkgutil.walk_packages(kb.__path__, "kb."):
        if info.name == "kb.__main__":  # runs the command line
            continue
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if isinstance(value, re.Pattern) and isinstance(value.pattern, str):
                found[f"{info.name}.{name}"] = value
    from kb.parse.cr import lines, rules
    from kb.parse.markers import effective_sentence, obsolete_mark
    from kb.site import glossary

    for lang in ("en", "fr", "de"):
        found[f"effective {lang}"] = effective_sentence(lang)
        found[f"obsolete {lang}"] = obsolete_mark(lang)
        for k, pattern in enumerate(rules._cites(lang)):
            found[f"cites {lang} {k}"] = pattern
        example = lines.line_rules(lang)[-1].keywords["pattern"]
        found[f"example {lang}"] = example
        for k, pattern in enumerate(glossary._see(lang) or ()):
            found[f"see {lang} {k}"] = pattern
    return found


EXEMPT = {
    "kb.sources.atomic.TEMPORARY": "only ever matched whole against a file name (255 bytes at most)",
    "kb.search.query.MARKER": "the query box's (the search rewrite's); a query is at most MAX_QUERY characters",
}
"""Patterns not held to linear time, and why."""


def seconds(pattern: re.Pattern[str], text: str, tries: int = 1) -> float:
    """The shortest of `tries` times to search and match the text: a busy machine only ever adds to a time."""
    best = float("inf")
    for _ in range(tries):
        start = time.perf_counter()
        pattern.search(text)
        pattern.match(text)
        best = min(best, time.perf_counter() - start)
    return best


def test_no_pattern_backtracks_over_a_long_run():
    # A pattern that backtracks takes seconds on these texts, and four times the text takes sixteen times as long
    # or more; a linear one takes a millisecond or so, which a busy machine can stretch once, not three times.
    slow = []
    for name, pattern in kb_patterns().items():
        if name in EXEMPT:
            continue
        for build in HOSTILE:
            text = build(N)
            if seconds(pattern, text) <= 0.25 or (took := seconds(pattern, text, tries=3)) <= 0.25:
                continue
            quarter = seconds(pattern, build(N // 4), tries=3)
            if took > 8 * quarter:
                slow.append(f"{name} on {text[:20]!r}…: {took:.2f} s, {quarter:.3f} s on a quarter of it")
    assert slow == []


def parse_seconds(text: str) -> float:
    """Seconds to parse a CR text."""
    lines = tuple(text.split("\n"))
    start = time.perf_counter()
    parse_rules(SourceText("en/cr.txt", "en", lines, "utf-8", "0" * 64), "en/cr")
    return time.perf_counter() - start


def test_spaces_after_a_rule_number_cost_nothing():
    # 100 KB of spaces took 37.5 s: the line patterns backtracked over them.
    took = parse_seconds("100. General\n\n100.1" + " " * 100_000 + "\n\n100.2" + " " * 100_000 + "x\n")
    assert took < 2, f"{took:.1f} s"


@pytest.mark.parametrize("layout", ["paragraph", "title"])
def test_wrapped_lines_are_joined_in_linear_time(layout):
    # 1,000,000 wrapped lines took over 150 s, 91% of it joining them (`parts[-1] += " " + piece`).
    def text(count: int) -> str:
        head = "100. General\n\n100.1. A rule\n" if layout == "paragraph" else "100. General\n"
        return head + "and more words of it\n" * count

    small, large = parse_seconds(text(20_000)), parse_seconds(text(200_000))
    assert large < 2 + 20 * small, f"20,000 lines {small:.2f} s, 200,000 lines {large:.2f} s"
