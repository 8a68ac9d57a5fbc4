"""Tests for the MTGJSON card data reader (kb/parse/mtgjson.py)."""

from __future__ import annotations

import hashlib
from pathlib import Path

from kb.model import Diagnostic, SourceText
from kb.parse.mtgjson import looks_like_mtgjson, parse_mtgjson
from kb.sources import read_source

ROOT = Path(__file__).resolve().parent.parent
DATA = "content/en/cards-dissension-mtgjson.json"


def load():
    source, _ = read_source(ROOT / DATA, "en", DATA)
    return parse_mtgjson(source, "en/cards-dissension-mtgjson")


def inline(text: str):
    return parse_mtgjson(SourceText("content/en/x.json", "en", tuple(text.split("\n")), "utf-8", ""), "en/x")


def test_copy_is_byte_for_byte():
    shared = Path("/work/shared/corpus/mtgjson3-DIS.json")
    ours = (ROOT / DATA).read_bytes()
    if shared.exists():
        assert ours == shared.read_bytes()
    assert hashlib.sha256(ours).hexdigest()
    assert (ROOT / "content/NOTICE.md").read_text(encoding="utf-8").count("MIT") >= 1


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
        "isperia-the-inscrutable/en/1", "en", "Gatherer", "2006-05-01")
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
    assert result.diagnostics == (Diagnostic(
        "error", "content/en/x.json", 4, "malformed JSON: Expecting property name enclosed in double quotes "
        "(column 3); fix the file or download it again from mtgjson.com"),)


def test_not_a_set_file_and_nameless_card():
    assert inline("[1, 2]").diagnostics[0].message.startswith('not an MTGJSON set file (no "cards" list)')
    result = inline('{"cards": [{"id": "a"}, {"name": "Carom", "manaCost": "{1}{W}", "type": "Instant"}]}')
    assert [c.id for c in result.cards] == ["carom"]
    assert [d.format() for d in result.diagnostics] == ["content/en/x.json:1: warning: card entry without a name; "
                                                        "skipped"]
