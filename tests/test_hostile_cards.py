"""Hostile card data (issue 44): a wrongly typed field costs its field, not the knowledge base; the bounds of a card
bound a file; a set's name is bounded; the site grows linearly with the number of sets."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from kb.cli import main
from kb.link.load import load

from .conftest import CONTENT, write

GOLDEN = CONTENT.parent / "tests" / "fixtures" / "golden-content"
FIELDS = [
    "name",  # the stream refuses a card without a string name: the others are the parser's
    "faceName",
    "originalText",
    "text",
    "type",
    "manaCost",
    "layout",
    "number",
    "setCode",
    "side",
    "keywords",
    "supertypes",
    "types",
    "subtypes",
    "printings",
    "power",
    "toughness",
    "foreignData",
    "rulings",
    "identifiers",
]
WRONG = [5, "x", [1], [[1]], {"a": 1}, True, 1.5, [{"language": 5, "text": 7, "date": [1]}], [None]]


def good_card(name: str, **fields) -> dict:
    """A plausible MTGJSON v5 card entry."""
    card = {
        "name": name,
        "type": "Creature — Elf",
        "types": ["Creature"],
        "subtypes": ["Elf"],
        "text": "Flying",
        "manaCost": "{1}{G}",
        "power": "1",
        "toughness": "1",
        "layout": "normal",
        "number": "1",
        "printings": ["TST"],
        "identifiers": {"scryfallOracleId": "x"},
        "foreignData": [{"language": "French", "name": f"{name} fr", "text": "Vol", "type": "Créature"}],
        "rulings": [{"date": "2020-01-01", "text": "A ruling."}],
    }
    return {**card, **fields}


def set_file(cards: list[dict], code: str = "TST", name: str = "Test Set") -> str:
    """An MTGJSON v5 set file."""
    return json.dumps(
        {"meta": {"version": "5"}, "data": {"code": code, "name": name, "releaseDate": "2020-01-01", "cards": cards}}
    )


def content_with(tmp_path: Path, text: str, name: str = "cards.json") -> Path:
    """The small bilingual content and one card data file."""
    content = tmp_path / "c"
    for path in GOLDEN.rglob("*.txt"):
        write(content / path.relative_to(GOLDEN), path.read_bytes())
    write(content / "en" / name, text)
    return content


def run(*args: str):
    return CliRunner().invoke(main, list(args))


# 2. One wrongly typed field of MTGJSON card data costs that field, with a diagnostic naming the file and the card.


def test_every_wrongly_typed_field_is_left_out_and_the_rest_kept(tmp_path):
    cards = [good_card("Good Card")]
    for field in FIELDS[1:]:
        cards += [good_card(f"Bad {field} {k}", **{field: value}) for k, value in enumerate(WRONG)]
    content = content_with(tmp_path, set_file(cards))
    kb = load(content, use_cache=False)
    names = {card.names["en"] for card in kb.cards}
    assert "Good Card" in names and "Bad foreignData 0" in names and "Bad identifiers 2" in names
    said = [d for d in kb.diagnostics if d.path.endswith("cards.json")]
    assert said and all("Traceback" not in d.message for d in said)
    assert any("card 'Bad faceName 0': 'faceName' is a number, expected a string" in d.message for d in said)
    assert any("more fields of the wrong type" in d.message for d in said)  # listed a bounded number of times
    for args in (["check"], ["show", "Good Card"], ["search", "flying"], ["export", "-o", str(tmp_path / "kb.json")]):
        result = run(*args, "--content", str(content))
        assert result.exit_code in (0, 1) and result.exception is None or isinstance(result.exception, SystemExit), (
            args,
            result.output,
        )
        assert "Traceback" not in result.output
    built = run("build", "--content", str(content), "--out", str(tmp_path / "site"), "--force")
    assert built.exit_code == 0, built.output


# 9. Per-card bounds bound a file: the set codes of a file's printings are bounded, and so is a card's list.


def test_printings_in_countless_sets_are_bounded_per_card_and_per_file(tmp_path, monkeypatch):
    from kb.parse.cards import fields, mtgjson5

    monkeypatch.setattr(mtgjson5, "MAX_SETS", 300)
    cards = [good_card(f"Card {n}", printings=[f"S{n}x{k}" for k in range(5_000)]) for n in range(5)]
    content = content_with(tmp_path, set_file(cards))
    kb = load(content, use_cache=False)
    assert max(len(card.printings) for card in kb.cards) <= fields.MAX_PRINTINGS
    assert len({code for card in kb.cards for code in card.printings}) <= 300 + fields.MAX_PRINTINGS
    assert any("printings in sets past the first 300" in d.message for d in kb.diagnostics)


# 12. Set pages do not each list every set: the site grows linearly with the number of sets.


def test_set_pages_list_a_bounded_number_of_sets(tmp_path):
    from kb.site.cardpages import SETS_LISTED, card_index_jobs, card_indexes
    from kb.site.gather import gather

    count = 400
    cards = [good_card(f"Card {n:04}", printings=[f"S{n:04}"]) for n in range(count)]
    data = {"meta": {}, "data": {f"S{n:04}": {"name": f"Set {n}", "cards": [cards[n]]} for n in range(count)}}
    content = content_with(tmp_path, json.dumps(data), "AllPrintings.json")
    site = gather(load(content, use_cache=False))
    jobs = card_index_jobs(site, "en", card_indexes(site))
    pages = [job for job in jobs if job.path.startswith("cards-set-")]
    assert len(pages) == count
    sizes = [len(job.context["set_links"]) for job in pages]
    assert max(sizes) < (SETS_LISTED + 1) * 200  # not every set on every set's page: count² links
    assert 'href="cards.html#sets-h"' in pages[0].context["set_links"]  # the whole list, once, on the card index


# 13. A set's name is bounded: it is published on every page of its cards.


def test_a_huge_set_name_is_left_out_with_a_diagnostic(tmp_path):
    content = content_with(tmp_path, set_file([good_card("Card")], name="N" * 1_000_000))
    kb = load(content, use_cache=False)
    assert all(len(name) < 1000 for name in kb.set_names.values())
    assert any("a 'name' of 1,000,000 characters" in d.message for d in kb.diagnostics)


@pytest.mark.parametrize("where", ["code", "setCode", "printings"])
def test_huge_set_codes_are_no_set_codes(tmp_path, where):
    code = "C" * 100_000
    if where == "code":
        text = json.dumps({"meta": {}, "data": {code: {"name": "X", "cards": [good_card("Card")]}}})
    elif where == "setCode":
        text = json.dumps({"meta": {}, "data": {"cards": [good_card("Card", setCode=code)]}})
    else:
        text = set_file([good_card("Card", printings=[code, "TST"])])
    kb = load(content_with(tmp_path, text), use_cache=False)
    assert [card.names["en"] for card in kb.cards] == ["Card"]
    assert all(len(c) <= 40 for card in kb.cards for c in card.printings)
    assert all(len(c) <= 40 for c in kb.set_names)
