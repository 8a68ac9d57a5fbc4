"""MTGJSON v5 card data: set files and AllPrintings streamed, reprints merged, bad files reported."""

from __future__ import annotations

import json
import shutil

import pytest
from click.testing import CliRunner

from kb.cli import main
from kb.link.load import load
from tests.conftest import FIXTURES, write

DIS = FIXTURES / "mtgjson5" / "DIS.json"


def _content(tmp_path, *files):
    content = tmp_path / "content"
    (content / "en").mkdir(parents=True, exist_ok=True)
    for name, source in files:
        shutil.copy(source, content / "en" / name)
    return content


def test_set_file_gives_cards_with_french_keywords_and_printings(tmp_path):
    kb = load(_content(tmp_path, ("dis.json", DIS)), use_cache=False)
    assert len(kb.cards) == 180 and not [d for d in kb.diagnostics if d.severity == "error"]
    isperia = kb.card["isperia-the-inscrutable"]
    assert isperia.names == {"en": "Isperia the Inscrutable", "fr": "Isperia l'impénétrable"}
    assert isperia.keywords == ("Flying",) and "DIS" in isperia.printings
    assert isperia.oracle["fr_type"] == "Créature légendaire : Sphinx" and "Vol" in isperia.oracle["fr_text"]
    split = kb.card["bound-determined"]
    assert [f.names["en"] for f in split.faces] == ["Bound", "Determined"]
    assert [f.mana_cost for f in split.faces] == [("{3}", "{B}", "{G}"), ("{G}", "{U}")]
    assert kb.lexicon is not None and "Vol" in kb.lexicon.french_for("Flying", "keyword")
    assert kb.set_names == {"DIS": "Dissension"}  # the file's own set, named as the file names it
    # a card printed in French under its English name has it as its French name; a split card's French printing,
    # which the card data gives with the English names, has none
    assert kb.card["drekavac"].names == {"en": "Drekavac", "fr": "Drekavac"}
    assert "fr" not in kb.card["hide-seek"].names and all("fr" not in f.names for f in kb.card["hide-seek"].faces)


def test_the_same_cards_in_two_files_are_one_card_each(tmp_path):
    content = _content(
        tmp_path, ("dis.json", DIS), ("dis-again.json", DIS), ("10e.json", FIXTURES / "mtgjson5" / "10E.json")
    )
    kb = load(content, use_cache=False)
    names = [c.names["en"] for c in kb.cards]
    assert len(names) == len(set(names)), "a reprint is merged, never duplicated"
    assert any("merged" in d.message for d in kb.diagnostics)
    result = CliRunner().invoke(main, ["show", "isperia", "--json", "--content", str(content)])
    assert result.exit_code == 0, result.output
    card = json.loads(result.output)["card"]
    assert card["names"]["en"] == "Isperia the Inscrutable" and len(json.loads(result.output)["rulings"]) >= 1


def test_all_printings_shape_is_streamed(tmp_path):
    data = json.loads(DIS.read_text(encoding="utf-8"))["data"]
    other = dict(data, code="XYZ")
    write(
        tmp_path / "content" / "en" / "AllPrintings.json", json.dumps({"meta": {}, "data": {"DIS": data, "XYZ": other}})
    )
    kb = load(tmp_path / "content", use_cache=False)
    assert len(kb.cards) == 180
    assert kb.set_names == {"DIS": "Dissension", "XYZ": "Dissension"}  # each set of AllPrintings by its own name
    assert set(kb.card["isperia-the-inscrutable"].printings) >= {"DIS", "XYZ"}


@pytest.mark.parametrize(
    "text",
    [
        '{"meta": {}, "data": {"cards": [{"name": "A", "type": "Instant"}, {"name": "B"',  # truncated
        '{"meta": {}, "data": {"cards": [{"name": "A"}, }',  # invalid
        '{"meta": {}, "data": {"cards": 3}}',  # wrong type
        '{"meta": {}, "data": {"cards": [[1, 2], {"name": "A", "futureField": {"x": 1}}]}}',  # a list; unknown field
        '{"meta": {}, "data": {"cards": [{"name": "A", "deep": ' + "[" * 10000 + "]" * 10000 + "}]}}",
    ],
)
def test_bad_card_data_is_one_diagnostic_naming_the_file_and_the_rest_loads(tmp_path, text):
    write(tmp_path / "content" / "en" / "bad.json", text)
    write(tmp_path / "content" / "en" / "cr.txt", "100.1. One.\n")
    kb = load(tmp_path / "content", use_cache=False)
    problems = [d for d in kb.diagnostics if d.path.endswith("bad.json") and d.severity in ("error", "warning")]
    assert len(problems) >= 1 and all("bad.json" in d.format() for d in problems)
    assert [r.number for r in kb.rules] == ["100.1"]
