"""Hostile card data: bounds checked while the file is streamed, and the same problem listed a bounded number of
times per file."""

from __future__ import annotations

import json
import tracemalloc

from kb.link.load import load
from kb.parse.cards.stream import MAX_DEPTH, MAX_REPORTED, MAX_STRING, MAX_VALUES, read_cards
from tests.conftest import write


def _read(tmp_path, text: str):
    path = write(tmp_path / "set.json", text)
    return read_cards(path)


def test_deep_nesting_is_refused_while_it_is_read(tmp_path):
    depth = 40_000
    text = '{"data":{"cards":[{"name":"X","text":' + "[" * depth + "1" + "]" * depth + '}, {"name": "Fine"}]}}'
    tracemalloc.start()
    try:
        found, problems = _read(tmp_path, text)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert [card["name"] for _, card in found] == ["Fine"]
    assert problems == [f"set file card 1: nested deeper than {MAX_DEPTH} levels; skipped"]
    assert peak < 20 * 1024 * 1024, f"{peak:,} bytes held for a {len(text):,}-byte file"  # 4 GB when built first


def test_a_card_past_a_bound_is_one_problem_naming_the_limit(tmp_path):
    long = json.dumps({"data": {"cards": [{"name": "X", "text": "x" * (MAX_STRING + 1)}, {"name": "Ok"}]}})
    found, problems = _read(tmp_path, long)
    assert [card["name"] for _, card in found] == ["Ok"]
    assert problems == [f"set file card 1: a string of {MAX_STRING + 1:,} characters (at most {MAX_STRING:,}); skipped"]
    many = json.dumps({"data": {"cards": [{"name": "X", "printings": ["DIS"] * MAX_VALUES}, {"name": "Ok"}]}})
    found, problems = _read(tmp_path, many)
    assert [card["name"] for _, card in found] == ["Ok"]
    assert problems == [f"set file card 1: more than {MAX_VALUES:,} values; skipped"]


def test_the_same_problem_is_listed_a_bounded_number_of_times(tmp_path):
    count = 50_000
    text = json.dumps({"data": {"cards": ["not a card"] * count + [{"text": "no name"}] * 3 + [{"name": "Ok"}]}})
    found, problems = _read(tmp_path, text)
    assert [card["name"] for _, card in found] == ["Ok"]
    assert len(problems) == MAX_REPORTED + 3 + 1
    assert problems[0] == "set file card 1: expected an object, got a string; skipped"  # the caller names the file
    assert problems[-1] == f"… and {count - MAX_REPORTED:,} more of the same (a card that is not an object)"
    write(tmp_path / "content" / "en" / "bad.json", text)
    kb = load(tmp_path / "content", use_cache=False)
    lines = [d for d in kb.diagnostics if d.path.endswith("bad.json")]
    assert len(lines) == MAX_REPORTED + 3 + 1 and "more of the same" in lines[-1].message
    assert not any(str(tmp_path) in d.message for d in lines)  # the diagnostic names the file, once


def test_a_v3_file_lists_its_skipped_entries_a_bounded_number_of_times(tmp_path):
    entries = [{"name": 3}] * 1000 + [{"name": "Ok", "manaCost": "{1}", "type": "Instant"}]
    write(tmp_path / "content" / "en" / "v3.json", json.dumps({"name": "X", "code": "X", "cards": entries}))
    kb = load(tmp_path / "content", use_cache=False)
    lines = [d for d in kb.diagnostics if d.path.endswith("v3.json")]
    assert len(lines) == 21 and "… and 980 more of the same" in lines[-1].message
    assert [c.names["en"] for c in kb.cards] == ["Ok"]
