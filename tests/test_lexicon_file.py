"""The bundled lexicon file is exactly what `kb lexicon --mine` gives on the six MTGJSON v5 set files."""

from __future__ import annotations

import json

from click.testing import CliRunner

from kb.cli import main
from tests.conftest import CONTENT, FIXTURES

SETS = ("DIS", "10E", "FUT", "C16", "C20", "MH2")


def test_bundled_lexicon_is_regenerated_from_the_set_files():
    args = ["lexicon", "--json"]
    for code in SETS:
        args += ["--mine", str(FIXTURES / "mtgjson5" / f"{code}.json")]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    bundled = json.loads((CONTENT / "fr" / "lexique-cartes-mtgjson5.json").read_text(encoding="utf-8"))
    assert json.loads(result.output) == bundled


def test_bundled_content_has_a_lexicon(bundled_kb):
    lexicon = bundled_kb.lexicon
    assert lexicon is not None and len(lexicon.entries) > 400
    assert "Piétinement" in lexicon.french_for("Trample", "keyword")
    assert "Trample" in lexicon.english_for("piétinement", "keyword")
