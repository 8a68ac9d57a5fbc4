"""Tests for the MTGJSON card data reader (kb/parse/mtgjson.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kb.model import Diagnostic, SourceText
from kb.parse.cards.mtgjson import looks_like_mtgjson, parse_mtgjson
from kb.sources import read_source

ROOT = Path(__file__).resolve().parent.parent
DATA = "tests/fixtures/mtgjson3-DIS.json"


def load():
    source, _ = read_source(ROOT / DATA, "en", DATA)
    return parse_mtgjson(source, "en/cards-dissension-mtgjson")


def inline(text: str):
    return parse_mtgjson(SourceText("content/en/x.json", "en", tuple(text.split("\n")), "utf-8", ""), "en/x")


def test_copy_is_byte_for_byte():
    shared = ROOT.parent / "shared" / "corpus" / "mtgjson3-DIS.json"
    if not shared.is_file():
        pytest.skip(f"the shared corpus is not here ({shared}): nothing to compare the fixture with")
    assert (ROOT / DATA).read_bytes() == shared.read_bytes()


def test_notice_names_the_card_data_licence():
    assert "MIT" in (ROOT / "content/NOTICE.md").read_text(encoding="utf-8")


def test_cards_and_rulings():
    result = load()
    assert result.diagnostics == ()
    assert result.document.kind == "cards" and result.document.layout == "mtgjson"
    assert result.document.title == "Dissension"
    assert len(result.cards) == 180
    assert len(result.rulings) == 155
    assert sum(len(c.faces) == 2 for c in result.cards) == 10


def test_split_card():
    bound = next(c for c in load().cards if c.id == "bound-determined")
    assert bound.names == {"en": "Bound // Determined"}
    assert [f.names for f in bound.faces] == [{"en": "Bound"}, {"en": "Determined"}]
    assert [f.mana_cost for f in bound.faces] == [("{3}", "{B}", "{G}"), ("{G}", "{U}")]
    assert bound.oracle["number"] == "149a/149b" and bound.oracle["layout"] == "split"


def test_card_fields_and_rulings():
    result = load()
    isperia = next(c for c in result.cards if c.id == "isperia-the-inscrutable")
    face = isperia.faces[0]
    assert isperia.names == {"en": "Isperia the Inscrutable", "fr": "Isperia l'impénétrable"}
    assert (face.supertypes, face.types, face.subtypes) == (("Legendary",), ("Creature",), ("Sphinx",))
    assert (face.power, face.toughness, face.lang) == ("3", "6", "en")
    assert face.text.startswith("Flying")
    assert isperia.oracle["en_text"] == face.text
    ruling = next(r for r in result.rulings if r.card == "isperia-the-inscrutable")
    assert (ruling.id, ruling.lang, ruling.section, ruling.date) == (
        "isperia-the-inscrutable/en/1",
        "en",
        "Gatherer",
        "2006-05-01",
    )
    assert ruling.source.path == DATA and ruling.source.line > 0
    novijen = next(c for c in result.cards if c.id == "novijen-heart-of-progress")
    assert novijen.faces[0].mana_cost == ()


def test_looks_like_mtgjson():
    assert looks_like_mtgjson((ROOT / DATA).read_text(encoding="utf-8"))
    assert not looks_like_mtgjson("120. Drawing a Card")
    assert not looks_like_mtgjson('{"a": 1}')


def test_malformed_json_is_one_error():
    result = inline('{\n  "cards": [\n    {"name": "X",\n  ]\n}')
    assert result.cards == ()
    assert result.diagnostics == (
        Diagnostic(
            "error",
            "content/en/x.json",
            4,
            "malformed JSON: Expecting property name enclosed in double quotes "
            "(column 3); fix the file or download it again from mtgjson.com",
        ),
    )


def test_not_a_set_file_and_nameless_card():
    assert inline("[1, 2]").diagnostics[0].message.startswith('not an MTGJSON set file (no "cards" list)')
    result = inline('{"cards": [{"id": "a"}, {"name": "Carom", "manaCost": "{1}{W}", "type": "Instant"}]}')
    assert [c.id for c in result.cards] == ["carom"]
    assert [d.format() for d in result.diagnostics] == [
        'content/en/x.json:1: warning: card entry 1 of "cards": it has no name; entry skipped (fix the file or '
        "download it again from mtgjson.com)"
    ]


def messages(result) -> list[str]:
    return [d.format() for d in result.diagnostics]


SKIP = "entry skipped (fix the file or download it again from mtgjson.com)"


@pytest.mark.parametrize(
    ("entry", "problem"),
    [
        ('{"name": "A", "layout": "split", "names": [{}]}', '"names" must be a list of strings'),
        ('{"name": "A", "layout": "split", "names": "AB"}', '"names" must be a list of strings'),
        ('{"name": "A", "supertypes": "Legendary"}', '"supertypes" must be a list of strings'),
        ('{"name": "A", "types": [1]}', '"types" must be a list of strings'),
        ('{"name": "A", "power": true}', '"power" must be a string or a number'),
        ('{"name": "A", "text": ["x"]}', '"text" must be a string'),
        ('{"name": "A", "rulings": {"text": "x"}}', '"rulings" must be a list'),
    ],
)
def test_entry_of_the_wrong_shape_is_skipped_with_its_line(entry, problem):
    result = inline('{"cards": [\n{"id": "x1", "name": "Carom"},\n' + entry[:-1] + ', "id": "x2"}\n]}')
    assert [c.id for c in result.cards] == ["carom"]
    assert messages(result) == [f"content/en/x.json:3: warning: card entry 2 of \"cards\" ('A'): {problem}; {SKIP}"]


def test_entry_without_id_is_found_by_name_or_by_position():
    result = inline('{"cards": [\n{"name": ["Split", "Card"], "layout": "split"},\n{"name": "Ça", "types": 3}]}')
    assert result.cards == ()
    assert messages(result) == [
        f'content/en/x.json:0: warning: card entry 1 of "cards": "name" must be a string; {SKIP}',
        f'content/en/x.json:3: warning: card entry 2 of "cards" (\'Ça\'): "types" must be a list of strings; {SKIP}',
    ]


def test_numbers_become_text():
    result = inline('{"cards": [{"name": "A", "power": 3, "toughness": 2.0, "number": 7, "multiverseid": 1234}]}')
    face = result.cards[0].faces[0]
    assert (face.power, face.toughness) == ("3", "2")
    assert (result.cards[0].oracle["number"], result.cards[0].oracle["multiverseid"]) == ("7", "1234")
    assert result.diagnostics == ()


def test_deeply_nested_json_is_one_error():
    result = inline('{"cards": ' + "[" * 100_000 + "]" * 100_000 + "}")
    assert result.cards == ()
    assert messages(result) == [
        "content/en/x.json:0: error: unreadable JSON (nested too deeply); fix the file or "
        "download it again from mtgjson.com"
    ]


def test_same_name_cards_get_their_own_ids_and_rulings():
    plains = (
        '{"cards": [{"name": "Plains", "number": "1", "rulings": [{"text": "One."}]},'
        ' {"name": "Plains", "number": "2", "rulings": [{"text": "Two."}]},'
        ' {"name": "Plains", "number": "3"}]}'
    )
    result = inline(plains)
    assert [(c.id, c.rulings) for c in result.cards] == [
        ("plains", ("plains/en/1",)),
        ("plains-2", ("plains-2/en/1",)),
        ("plains-3", ()),
    ]
    assert [(r.id, r.card, r.text) for r in result.rulings] == [
        ("plains/en/1", "plains", "One."),
        ("plains-2/en/1", "plains-2", "Two."),
    ]


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)
KEYS = [
    "name",
    "names",
    "layout",
    "supertypes",
    "types",
    "subtypes",
    "power",
    "toughness",
    "manaCost",
    "text",
    "type",
    "rulings",
    "foreignNames",
    "number",
    "multiverseid",
    "id",
]
ENTRY = st.dictionaries(st.sampled_from(KEYS), JSON | st.sampled_from(["split", "A", "{1}{W}", ["A", "B"]]), max_size=8)


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(
        JSON,
        st.fixed_dictionaries(
            {"cards": st.lists(ENTRY | JSON, max_size=6)}, optional={"name": JSON, "releaseDate": JSON}
        ),
    )
)
def test_arbitrary_json_never_raises(data):
    result = inline(json.dumps(data, indent=1))
    assert all(d.path == "content/en/x.json" for d in result.diagnostics)
    assert len({c.id for c in result.cards}) == len(result.cards)
    assert len({r.id for r in result.rulings}) == len(result.rulings)
