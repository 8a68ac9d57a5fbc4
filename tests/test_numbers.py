"""Rule numbers: one module for parser, linker, search and site; the site's JavaScript agrees with it."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from kb.model.numbers import (
    IN_TEXT,
    TYPED_PATTERN,
    descends,
    kind_of,
    number_range,
    parent_of,
    rule_number,
    sort_key,
)
from kb.sources.text import fold, search_fold, slug, unique
from tests.conftest import FIXTURES, ROOT

CASES = json.loads((FIXTURES / "typed-numbers.json").read_text(encoding="utf-8"))
FOLDS = ["L’Étape de PIOCHE", "jusqu'à l'œuvre", "Æthermage d‘Azorius", "a\u00a0b\u202fc", "Ça ÉTÉ « là »"]


@pytest.mark.parametrize(("typed", "expected"), CASES)
def test_typed_forms(typed, expected):
    assert rule_number(typed) == expected


def test_numbers_in_text_have_boundaries():
    found = IN_TEXT.findall("In 2015, 1000 players read rule 704 and 120.4, not 1.5 or 120.2ab or x120.")
    assert found == ["704", "120.4"]


def test_order_kind_parent():
    numbers = ["101", "1", "100.1a", "100", "100.2", "100.1", "2", "100.10", "100.1b"]
    assert sorted(numbers, key=sort_key) == ["1", "100", "100.1", "100.1a", "100.1b", "100.2", "100.10", "101", "2"]
    assert [kind_of(n) for n in ("1", "120", "120.2", "120.2a")] == ["section", "rule", "numbered", "subrule"]
    assert [parent_of(n) for n in ("1", "120", "120.2", "120.2a")] == [None, "1", "120", "120.2"]


def test_descends():
    assert descends("120.2a", "120.2") and descends("120.2a", "120") and descends("120.2a", "1")
    assert not descends("120.20", "120.2") and not descends("121", "120") and not descends("200", "1")


def test_ranges():
    assert number_range("509.1", "509.3") == ("509.1", "509.2", "509.3")
    assert number_range("601.2g", "h") == ("601.2g", "601.2h")
    assert number_range("704.5k", "p") == ("704.5k", "704.5m", "704.5n", "704.5p")
    assert number_range("119.7", "8") == ("119.7", "119.8")
    assert number_range("1", "3") == ("1", "2", "3")
    assert number_range("509.3", "509.1") == ("509.3", "509.1")  # reversed: both ends, never a guess


def test_text_helpers():
    assert search_fold("L’Étape de PIOCHE") == "l etape de pioche"
    assert fold("jusqu’à l’œuvre") == "jusqu'a l'oeuvre"
    assert slug("Résolu // Déterminé") == "resolu-determine" and slug("!!!") == "x"
    taken: set[str] = set()
    assert [unique("a", taken) for _ in range(3)] == ["a", "a-2", "a-3"]


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
def test_javascript_agrees_with_python(tmp_path):
    module = (ROOT / "templates" / "static" / "kbtext.js").as_uri()
    script = tmp_path / "check.mjs"
    script.write_text(
        f"import {json.dumps(module)};\n"
        "const { fold, searchFold, ruleNumber } = globalThis.kbText;\n"
        "const input = JSON.parse(process.argv[2]);\n"
        "console.log(JSON.stringify({numbers: input.numbers.map((t) => ruleNumber(t, input.pattern)),"
        " folds: input.folds.map(fold), searchFolds: input.folds.map(searchFold)}));\n",
        encoding="utf-8",
    )
    payload = {"pattern": TYPED_PATTERN, "numbers": [typed for typed, _ in CASES], "folds": FOLDS}
    out = subprocess.run(["node", str(script), json.dumps(payload)], capture_output=True, text=True, check=True)
    got = json.loads(out.stdout)
    assert got["numbers"] == [expected for _, expected in CASES]
    assert got["folds"] == [fold(t) for t in FOLDS]
    assert got["searchFolds"] == [search_fold(t) for t in FOLDS]
