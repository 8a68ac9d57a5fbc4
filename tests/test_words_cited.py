"""The bundled words table's citations hold: each printed card it cites prints the French words in its French text
and the English words in its English text (checked against the shared card data, where present)."""

from __future__ import annotations

import json
import re
from functools import cache

import pytest

from kb.model import SourceText
from kb.parse.terms import parse_table
from tests.conftest import ROOT

CORPUS = ROOT.parent / "shared" / "corpus"
TABLE = ROOT / "content" / "fr" / "mots-courants.tsv"
CITED = re.compile(r"^cartes : (?P<name>.+?) \((?P<set>[A-Z0-9]+)\) « (?P<fr>.+?) » / “(?P<en>.+?)”$")
USAGE = "usage des joueurs : "


def _table():
    lines = TABLE.read_text(encoding="utf-8").split("\n")
    return parse_table(SourceText(str(TABLE), "fr", lines, "utf-8", "0"))


def test_the_bundled_words_table_reads_clean_and_says_what_each_line_rests_on():
    table = _table()
    assert table.diagnostics == []
    assert len(table.words) >= 150
    for word in table.words:
        assert CITED.match(word.provenance) or word.provenance.startswith(USAGE), (word.source.line, word.provenance)


@cache
def _cards(code: str) -> dict[str, tuple[list[str], list[str]]]:
    """A set's cards by English name: the English texts and the French texts of its printings (apostrophes as
    `'`: the data prints both kinds)."""
    found: dict[str, tuple[list[str], list[str]]] = {}
    for folder in ("mtgjson5", "mtgjson5-pool"):
        path = CORPUS / folder / f"{code}.json"
        if path.is_file():
            for card in json.loads(path.read_text(encoding="utf-8"))["data"]["cards"]:
                english, french = found.setdefault(card["name"], ([], []))
                english.append(_plain(card.get("text") or ""))
                french += [
                    _plain(f.get("text") or "") for f in card.get("foreignData", []) if f["language"] == "French"
                ]
    return found


def _plain(text: str) -> str:
    return text.replace("\u2019", "'")


@pytest.mark.slow
def test_each_printed_card_cited_prints_both_wordings():
    if not (CORPUS / "mtgjson5-pool").is_dir():
        pytest.skip(f"the shared card data is not at {CORPUS}")
    wrong = []
    for word in _table().words:
        cited = CITED.match(word.provenance)
        if cited is None:
            continue
        card = _cards(cited["set"]).get(cited["name"])
        if card is None:
            wrong.append(f"{word.source.line}: no card {cited['name']} in {cited['set']}")
        elif not any(_plain(cited["fr"]) in text for text in card[1]):
            wrong.append(f"{word.source.line}: {cited['name']} prints no « {cited['fr']} » in French")
        elif not any(_plain(cited["en"]) in text for text in card[0]):
            wrong.append(f"{word.source.line}: {cited['name']} prints no “{cited['en']}” in English")
    assert wrong == []
