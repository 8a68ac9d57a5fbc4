"""Printed-words tables (`# kb-printed/1`): the words printed on a language's cards, written by `kb lexicon --mine
… --printed`, read with file:line errors; a word of them is never spelling-corrected, nor offered as a correction."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from kb.cli import main
from kb.link.load import load
from kb.model import SourceText
from kb.parse.terms import parse_table
from kb.search.index import open_index
from tests.conftest import CONTENT

CR = """Magic: The Gathering Comprehensive Rules

These rules are effective as of January 16, 2026.

4. Zones

402. Hand

402.3. A player may arrange their hand in any convenient fashion and look at it as much as they want.

Glossary

Hand
A zone. See rule 402, "Hand."

Credits
"""
WORDS = "# kb-words/1\nregarder\tlook at\tverb\tcartes : x\ndoit\tmust\tverb\tcartes : x\n"


def _table(text: str):
    return parse_table(SourceText("c/fr/mots.tsv", "fr", text.split("\n"), "utf-8", "0"))


def test_printed_lines_are_read_and_each_problem_names_its_line():
    found = _table(
        "# kb-printed/1\n# header\ndroit\t2\tGet the Point\nDroit\t2\tx\ndroit\t3\tx\nmain\tmany\tx\nvie\t1\n"
    )
    assert [(w.word, w.cards, w.example, w.source.line) for w in found.printed] == [("droit", 2, "Get the Point", 3)]
    assert [f"{d.line}: {d.message}" for d in found.diagnostics] == [
        "4: 'Droit' is not a folded word (lower case letters, no accent); this line is left out",
        "6: 'many' is not a number of cards; this line is left out",
        "7: 2 columns where 3 are expected (word, cards, example, separated by tabs); this line is left out",
        "5: 'droit' is listed again (first at line 3); keep one line",
    ]


def _content(tmp_path: Path, printed: bool) -> Path:
    content = tmp_path / ("with" if printed else "without")
    (content / "en").mkdir(parents=True)
    (content / "fr").mkdir()
    (content / "en" / "cr.txt").write_text(CR, encoding="utf-8")
    (content / "fr" / "mots.tsv").write_text(WORDS, encoding="utf-8")
    extract = CONTENT / "fr" / "cr-120-piocher-une-carte.txt"  # French text holding « doit »
    (content / "fr" / extract.name).write_bytes(extract.read_bytes())
    if printed:
        (content / "fr" / "imprimes.tsv").write_text("# kb-printed/1\ndroit\t2\tx\ndroite\t9\tx\n", encoding="utf-8")
    return content


def test_a_word_printed_on_the_cards_is_never_corrected_nor_a_correction(tmp_path):
    bare, printed = (_content(tmp_path, p) for p in (False, True))
    before = open_index(bare, load(bare, use_cache=False)).search("le droit de regarder")
    assert before.corrected == "le doit de regarder"  # a French word the texts lack: "corrected" to another
    engine = open_index(printed, load(printed, use_cache=False))
    after = engine.search("le droit de regarder")
    assert after.corrected is None
    assert after.results[0].id == "402.3"
    assert engine.search("droiite").corrected is None  # « droite », printed, finds nothing: never offered


def test_kb_lexicon_printed_writes_the_words_of_the_cards_mined(tmp_path):
    cards = [
        {
            "name": "Get the Point",
            "setCode": "XYZ",
            "text": "Destroy target creature.",
            "foreignData": [
                {"language": "French", "name": "Au fait", "text": "Détruisez la créature ciblée, de droit."}
            ],
        }
    ]
    (tmp_path / "XYZ.json").write_text(
        json.dumps({"meta": {"version": "5.2.2"}, "data": {"code": "XYZ", "cards": cards}})
    )
    out = tmp_path / "imprimes.tsv"
    done = CliRunner().invoke(main, ["lexicon", "--mine", str(tmp_path / "XYZ.json"), "--printed", "-o", str(out)])
    assert done.exit_code == 0, done.output
    lines = out.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "# kb-printed/1" and "#   XYZ.json" in lines
    rows = [line for line in lines if not line.startswith("#")]
    assert rows == [
        f"{w}\t1\tGet the Point" for w in ("au", "ciblee", "creature", "de", "detruisez", "droit", "fait", "la")
    ]
    assert _table("\n".join(lines)).diagnostics == []
    refused = CliRunner().invoke(main, ["lexicon", "--printed"])
    assert refused.exit_code != 0 and "give --mine FILE… and -o FILE" in refused.output
