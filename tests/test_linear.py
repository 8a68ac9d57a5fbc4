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
    " " * N + "x",
    "\t" * N + "x!",
    "1" * N + "!",
    "1." * (N // 2) + "!",
    "100" + ".1o" * (N // 3) + "!",
    "100.1a" + " " * N + "x" + " " * N + "!",
    "a" * N + "!",
    "a " * (N // 2) + "!",
    "a-" * (N // 2) + "!",
    "-" * N + "x",
    "." * N + "x",
    "(" * N + "x",
    "«" * N + "x",
    '"' + "a" * N,
    "“" + "a," * (N // 2),
    "{" * N + "x",
    "{T}" * (N // 3) + "x",
    "*" * N + "x",
    "See " * (N // 4) + "x",
    "See rule 100.1, " * (N // 16) + "x",
    "Cf. règle " * (N // 10) + "x",
    "Example: " + " " * N + "x",
    "é" * N + "!",
    "702. " + "37a " * (N // 4) + "!",
    "1/1 " * (N // 4) + "+1/+1 " * (N // 6),
]


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


def test_no_pattern_backtracks_over_a_long_run():
    slow = []
    for name, pattern in kb_patterns().items():
        if name in EXEMPT:
            continue
        for text in HOSTILE:
            start = time.perf_counter()
            pattern.search(text)
            pattern.match(text)
            took = time.perf_counter() - start
            if took > 0.25:
                slow.append(f"{name} on {text[:20]!r}…: {took:.2f} s")
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
