"""No input crashes the loader: arbitrary bytes and near-CR text give records and diagnostics."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
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


@pytest.mark.slow
def test_ten_megabyte_file(tmp_path):
    block = "".join(f"{n}.{k}. A rule about things. See rule {n}.1.\n\n" for n in range(100, 999) for k in range(1, 8))
    text = (block * (10_000_000 // len(block) + 1))[:10_000_000]
    result = parse_rules(SourceText("big.txt", "en", split_lines(text), "utf-8", "0"), "en/big")
    assert len(result.rules) == 899 * 7
    assert any("duplicate" in d.message for d in result.diagnostics)


# Decoding, names and terminal output (issue 13): properties of the fixes, over any input.


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
def test_utf8_text_decodes_unchanged(text):
    if text.startswith("\ufeff"):  # in UTF-8 bytes, a leading U+FEFF is a byte order mark, and read as one
        assert decode(text.encode("utf-8")) == (text[1:], "utf-8-sig")
    else:
        assert decode(text.encode("utf-8")) == (text, "utf-8")


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.binary(max_size=3000))
def test_any_bytes_read_as_valid_text(tmp_path, raw):
    from kb.sources import read_source

    source, diags = read_source(write(tmp_path / "a.txt", raw), "en", "a.txt")
    if source is not None:
        "\n".join(source.lines).encode("utf-8")  # no lone surrogate left: printable, JSON-able
        assert all(d.line <= len(source.lines) for d in diags)


@settings(max_examples=100, deadline=None)
@given(st.text(min_size=1, max_size=40), st.lists(st.integers(0, 39), max_size=3))
def test_a_few_bad_bytes_keep_utf8(text, cuts):
    chars = [c.encode("utf-8") for c in "é" * (len(cuts) + 1) + text]
    for cut in sorted(set(cuts), reverse=True):  # between characters: more valid accents than bad bytes
        chars.insert(cut, b"\xff")
    decoded, encoding = decode(b"".join(chars))
    assert encoding == "utf-8" and decoded.count("\ufffd") >= len(set(cuts))


@settings(max_examples=200, deadline=None)
@given(st.binary(min_size=1, max_size=300))
def test_any_file_name_is_shown_as_text(name):
    import os

    from kb.sources import hash_entry, shown_name

    shown = shown_name(os.fsdecode(name))
    shown.encode("utf-8")
    entry = hash_entry("en", Path(os.fsdecode(name)), "0")  # a file's name goes into the hash byte for byte
    assert entry.startswith(b"en/") and entry.endswith(b"\x000\n")
    assert os.fsdecode(entry[3:-3]) == Path(os.fsdecode(name)).name


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=400))
def test_file_slug_is_bounded_and_safe(text):
    from kb.sources import file_slug

    found = file_slug(text)
    assert 1 <= len(found) <= 100 and re.fullmatch(r"[a-z0-9-]+|x", found)
    assert found == file_slug(text)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
@example("\u061c")  # found on a clean clone: a bidirectional control, escaped as it should be, not a Cc character
def test_printable_never_emits_a_control_character(text):
    # Control characters (but newline and tab) and bidirectional controls (U+061C, U+202E…) are shown escaped; a text
    # holding neither comes out as it went in.
    from kb.commands.options import printable
    from kb.export.terminal import BIDI

    def acts(c: str) -> bool:
        return unicodedata.category(c) == "Cc" and c not in "\n\t" or re.fullmatch(f"[{BIDI}]", c) is not None

    shown = printable(text)
    assert not any(acts(c) for c in shown)
    assert "\n" not in printable(text, newlines=False)
    if not any(acts(c) for c in text):
        assert shown == text


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(NEAR_CR, st.text(max_size=60))
@example(rules="Contents", card="0\r0")  # no document at all: an index without columns
@example(rules="Contents\n100.1.", card="0\r0")  # no French word to correct a French one with
def test_load_index_and_render_never_raise(tmp_path_factory, rules, card):
    from kb.search.index import open_index
    from kb.site.write import build_site

    root = tmp_path_factory.mktemp("p")
    write(root / "c" / "fr" / "cr.txt", "120.1. Règle.\n" + rules)
    head = "Foire aux questions : X\n\nNOTES SUR DES CARTES SPÉCIFIQUES\n\n"
    faq = f"{head}{card or 'Nom'}\n{{G}}\nÉphémère\nTexte.\n\n* Oui.\n"
    write(root / "c" / "fr" / "faq.txt", faq)
    kb = load(root / "c")
    build_site(kb, root / "site", search=False)
    open_index(root / "c", kb).search("règle")
