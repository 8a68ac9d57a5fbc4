"""Every printing counts: a card merged across files keeps each French name, type line and text it was printed with."""

from __future__ import annotations

import json

from click.testing import CliRunner

from kb.cli import main
from kb.export.json import card_to_json
from kb.link.cards.lookup import find_cards
from kb.link.load import load
from tests.conftest import jump_of, write


def _entry(french: dict | None, **more) -> dict:
    card = {
        "name": "Rakdos Pit Dragon",
        "manaCost": "{2}{R}{R}",
        "type": "Creature — Dragon",
        "types": ["Creature"],
        "subtypes": ["Dragon"],
        "power": "3",
        "toughness": "3",
        "text": "{R}{R}: Rakdos Pit Dragon gains flying until end of turn.",
        "identifiers": {"scryfallOracleId": "oracle-1"},
        "foreignData": [dict(french, language="French")] if french else [],
        **more,
    }
    return card


SET_NAMES = {"DIS": "Dissension", "GK2": "RNA Guild Kit", "DD2": "Duel Decks: Jace vs. Chandra", "ZZZ": "Zzz"}


def _set(code: str, released: str, *cards: dict) -> str:
    for card in cards:
        card.setdefault("setCode", code)
    data = {"cards": list(cards), "code": code, "name": SET_NAMES[code], "releaseDate": released}
    return json.dumps({"meta": {}, "data": data})


OLD = {"name": "Dragon des fosses de Rakdos", "type": "Créature : dragon", "text": "{R}{R} : vol."}
NEW = {"name": "Dragon de la fosse Rakdos", "type": "Créature — Dragon", "text": "{R}{R} : gagne le vol."}


def _content(tmp_path, *files: tuple[str, str]):
    for name, text in files:
        write(tmp_path / "content" / "en" / name, text)
    return tmp_path / "content"


def test_a_reprint_without_french_never_takes_the_french_name_away(tmp_path):
    content = _content(
        tmp_path,
        ("a-reprint.json", _set("DD2", "2008-11-07", _entry(None))),
        ("dis.json", _set("DIS", "2006-05-05", _entry(OLD))),
    )
    kb = load(content, use_cache=False)
    (card,) = kb.cards
    assert card.names["fr"] == "Dragon des fosses de Rakdos"
    assert card.oracle["fr_text"] == "{R}{R} : vol." and card.faces[0].names["fr"] == OLD["name"]
    assert [(p.name, p.sets) for p in card.printed] == [(OLD["name"], ("DIS",))]


def test_every_french_printing_is_kept_newest_first_with_its_sets(tmp_path):
    content = _content(
        tmp_path,
        ("dis.json", _set("DIS", "2006-05-05", _entry(OLD))),
        ("gk2.json", _set("GK2", "2019-02-15", _entry(NEW))),
        ("dd2.json", _set("DD2", "2008-11-07", _entry(OLD))),
        ("none.json", _set("ZZZ", "2021-01-01", _entry(None))),
    )
    kb = load(content, use_cache=False)
    (card,) = kb.cards
    assert [(p.name, p.sets, p.released) for p in card.printed] == [
        (NEW["name"], ("GK2",), "2019-02-15"),
        (OLD["name"], ("DD2", "DIS"), "2008-11-07"),
    ]
    assert card.names["fr"] == NEW["name"] and card.oracle["fr_type"] == NEW["type"]
    for name in (OLD["name"], NEW["name"], "dragon des fosses"):
        assert find_cards(kb.cards, name) == [card], name
    exported = card_to_json(card)["printed"]["fr"]
    assert [p["name"] for p in exported] == [NEW["name"], OLD["name"]] and exported[1]["sets"] == ["DD2", "DIS"]
    result = CliRunner().invoke(main, ["show", OLD["name"], "--content", str(content)])
    assert result.exit_code == 0 and "Rakdos Pit Dragon" in result.output, result.output


def test_the_printings_of_one_file_are_all_kept(tmp_path):
    text = json.dumps(
        {
            "meta": {},
            "data": {
                "DIS": {"cards": [_entry(OLD, setCode="DIS")], "releaseDate": "2006-05-05"},
                "GK2": {"cards": [_entry(None, setCode="GK2")], "releaseDate": "2019-02-15"},
                "GK3": {"cards": [_entry(NEW, setCode="GK3")], "releaseDate": "2020-02-15"},
            },
        }
    )
    kb = load(_content(tmp_path, ("AllPrintings.json", text)), use_cache=False)
    (card,) = kb.cards
    assert [(p.name, p.sets) for p in card.printed] == [(NEW["name"], ("GK3",)), (OLD["name"], ("DIS",))]
    assert card.names["fr"] == NEW["name"]


def test_the_site_lists_the_other_printed_names_and_each_set(tmp_path):
    content = _content(
        tmp_path,
        ("dis.json", _set("DIS", "2006-05-05", _entry(OLD))),
        ("gk2.json", _set("GK2", "2019-02-15", _entry(NEW))),
    )
    site = tmp_path / "site"
    result = CliRunner().invoke(main, ["build", "--content", str(content), "--out", str(site)])
    assert result.exit_code == 0, result.output
    (page,) = (site / "fr").rglob("rakdos-pit-dragon*.html")
    html = page.read_text(encoding="utf-8")
    assert "Aussi imprimée sous le nom" in html and OLD["name"] in html and "(DIS)" in html
    for ui in ("fr", "en"):
        index = (site / ui / "cards.html").read_text(encoding="utf-8")
        assert 'href="cards-set-dis.html"' in index and 'href="cards-set-gk2.html"' in index
        assert '<span class="set-code">GK2</span> <span class="set-name" lang="en">RNA Guild Kit</span>' in index
        by_set = (site / ui / "cards-set-dis.html").read_text(encoding="utf-8")
        assert "Rakdos Pit Dragon" in by_set
        current = '<span class="set-code">DIS</span> <span class="set-name" lang="en">Dissension</span>'
        assert f'aria-current="page">{current}' in by_set
        assert "— Dissension (DIS) —" in by_set.split("</title>")[0]
    jump = jump_of(next(site.rglob("jump.json")).parent)["cards"]
    assert jump["dragon des fosses de rakdos"] == jump["dragon de la fosse rakdos"] == jump["rakdos pit dragon"]
