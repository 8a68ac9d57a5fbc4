"""Parsing in two processes (`kb.link.parsing`): the same knowledge base as in one, whatever the second one does."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from kb.export.json import to_json
from kb.link import parsing
from kb.link.load import load_fresh
from tests.conftest import CR2015, FIXTURES

PARENT = os.getpid()


@pytest.fixture(scope="module")
def content(tmp_path_factory) -> Path:
    """The 2015 CR, two card data files and the French seeds: enough to parse in two processes."""
    root = tmp_path_factory.mktemp("parsing") / "content"
    (root / "en").mkdir(parents=True)
    shutil.copy(CR2015, root / "en" / "cr-en-20150926.txt")
    for name in ("DIS.json", "FUT.json"):
        shutil.copy(FIXTURES / "mtgjson5" / name, root / "en" / f"cards-{name.lower()}")
    shutil.copytree(FIXTURES.parent.parent / "content" / "fr", root / "fr")
    return root


@pytest.fixture(scope="module")
def alone(content) -> str:
    """The export of the knowledge base parsed in one process."""
    mp = pytest.MonkeyPatch()
    mp.setattr(parsing, "_split", lambda files: [])
    try:
        return _export(load_fresh(content))
    finally:
        mp.undo()


def _export(kb) -> str:
    return json.dumps(to_json(kb), sort_keys=True, ensure_ascii=False)


def test_the_card_data_and_about_half_the_rest_go_to_the_second_process(content, monkeypatch):
    files = parsing.content_files(content)
    assert {f.path.name for f in files if f.card_data} == {"cards-dis.json", "cards-fut.json"}
    theirs = {files[k].path.name for k in parsing._split(files)}
    assert {"cards-dis.json", "cards-fut.json"} <= theirs  # it mines the lexicon from them
    assert "cr-en-20150926.txt" not in theirs  # the largest file balances the card data here
    assert parsing._split(files[:1]) == []
    monkeypatch.setattr(parsing.os, "cpu_count", lambda: 1)
    assert parsing._split(files) == []


def test_two_processes_give_the_same_knowledge_base_as_one(content, alone, monkeypatch):
    forked = []
    real = parsing.multiprocessing.get_context
    monkeypatch.setattr(parsing.multiprocessing, "get_context", lambda how: forked.append(how) or real(how))
    kb = load_fresh(content)
    assert forked == ["fork"]  # parsed in two processes indeed
    assert kb.lexicon is not None and kb.lexicon.entries
    assert _export(kb) == alone


def test_a_second_process_that_dies_while_parsing_leaves_the_work_to_the_first(content, alone, monkeypatch):
    real = parsing.parse_file

    def dying(file):
        if os.getpid() != PARENT:
            os._exit(3)
        return real(file)

    monkeypatch.setattr(parsing, "parse_file", dying)
    assert _export(load_fresh(content)) == alone


def test_a_second_process_that_fails_to_mine_leaves_the_lexicon_to_the_first(content, alone, monkeypatch):
    real = parsing.mine_lexicon

    def failing(cards):
        if os.getpid() != PARENT:
            raise MemoryError("no room")
        return real(cards)

    monkeypatch.setattr(parsing, "mine_lexicon", failing)
    assert _export(load_fresh(content)) == alone
