"""No input crashes the loader: arbitrary bytes and near-CR text give records and diagnostics."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kb.link.load import load
from kb.model import SourceText
from kb.parse.cr.rules import parse_rules
from kb.sources import decode, split_lines

from .conftest import write

RULE_BITS = st.sampled_from(
    [
        "100.1.",
        "100.1a",
        "100.1a.",
        "120.2 ",
        "1. Game Concepts",
        "100. General",
        "Example: x",
        "Exemple : y",
        "Contents",
        "Glossary",
        "Credits",
        "Introduction",
        "See rule 704.",
        "Cf. règle 601.2f–h",
        "rules 613.1a-z",
        "",
        " ",
        "     indented",
        "These rules are effective as of May 1, 2020.",
        "999.99z",
        "000.0",
        "12.3",
    ]
)
NEAR_CR = st.lists(st.one_of(RULE_BITS, st.text(max_size=40)), max_size=60).map("\n".join)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=2000))
def test_arbitrary_bytes_decode_and_parse(raw):
    text, _ = decode(raw)
    result = parse_rules(SourceText("x.txt", "en", split_lines(text), "utf-8", "0"), "en/x")
    assert all(d.path == "x.txt" for d in result.diagnostics)


@settings(max_examples=300, deadline=None)
@given(NEAR_CR)
def test_near_cr_text_parses(text):
    result = parse_rules(SourceText("x.txt", "fr", split_lines(text), "utf-8", "0"), "fr/x")
    numbers = [r.number for r in result.rules]
    assert len(numbers) == len(set(numbers))
    for rule in result.rules:
        assert rule.source.line >= 1
        assert all(child in numbers for child in rule.children)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(NEAR_CR, NEAR_CR)
def test_loader_never_raises(tmp_path, fr, en):
    write(tmp_path / "c" / "fr" / "a.txt", fr)
    write(tmp_path / "c" / "en" / "a.txt", en.encode("cp1252", errors="ignore"))
    kb = load(tmp_path / "c")
    assert all(d.severity in ("error", "warning", "note") for d in kb.diagnostics)


def test_degenerate_files(tmp_path):
    content = tmp_path / "c"
    write(content / "en" / "empty.txt", "")
    write(content / "en" / "binary.txt", bytes(range(256)) * 4)
    write(content / "fr" / "numbers.txt", "\n".join(f"{n}.{k}." for n in range(100, 110) for k in range(1, 4)))
    write(content / "fr" / "prose.txt", "Just some prose without any rule.\n")
    kb = load(content)
    messages = {(d.path.split("/")[-1], d.severity) for d in kb.diagnostics}
    assert ("empty.txt", "error") in messages
    assert ("binary.txt", "error") in messages
    assert ("prose.txt", "error") in messages
    assert len([r for r in kb.rules if r.document == "fr/numbers"]) == 30


def test_ten_megabyte_file(tmp_path):
    block = "".join(f"{n}.{k}. A rule about things. See rule {n}.1.\n\n" for n in range(100, 999) for k in range(1, 8))
    text = (block * (10_000_000 // len(block) + 1))[:10_000_000]
    result = parse_rules(SourceText("big.txt", "en", split_lines(text), "utf-8", "0"), "en/big")
    assert len(result.rules) == 899 * 7
    assert any("duplicate" in d.message for d in result.diagnostics)
