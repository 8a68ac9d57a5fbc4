"""A translation paired with today's rules by content when the edition it was made from is not loaded."""

from __future__ import annotations

import shutil

import pytest

from kb.link.load import load

from .conftest import CONTENT, CR2015, CR2026, FIXTURES


def _content(root, *crs):
    """The bundled French files and card data, with some English editions."""
    content = root / "content"
    (content / "en").mkdir(parents=True)
    shutil.copytree(CONTENT / "fr", content / "fr")
    shutil.copy(CONTENT / "en" / "cards-dissension-mtgjson5.json", content / "en")
    for cr in crs:
        shutil.copy(cr, content / "en" / cr.name)
    return content


@pytest.fixture(scope="module")
def kb_today(tmp_path_factory):
    """Today's English CR only: the French text's 2015 source is missing."""
    return load(_content(tmp_path_factory.mktemp("today"), CR2026))


def _pairs(kb):
    return {p.number: p for p in kb.links.alignment.pairs if p.lang == "fr"}


def test_without_its_source_the_translation_is_paired_by_content_and_never_wrongly(kb_today, bundled_kb):
    truth = {n: p.ref_number for n, p in _pairs(bundled_kb).items()}  # both editions loaded: through lineage
    found = _pairs(kb_today)
    assert kb_today.links.alignment.counterparts["fr"][2] == "content"
    assert {p.via for p in found.values()} == {"content"}
    assert [(n, p.ref_number) for n, p in found.items() if truth.get(n) != p.ref_number] == []
    assert len(found) >= 27 and found["120.4"].ref_number == "121.4" and found["703.4c"].ref_number == "703.4d"
    assert "703.4h" not in found and "703.4i" not in found  # removed since 2015: no rule of today says the same
    assert all(0.4 <= p.confidence <= 1.0 for p in found.values())


def test_check_says_the_translation_is_numbered_like_no_loaded_edition_and_what_would_settle_it(kb_today):
    [message] = [d.message for d in kb_today.diagnostics if "numbered like no loaded" in d.message]
    assert message.startswith("fr (undated) is numbered like no loaded en edition (best by structure: en 2026-01-16")
    assert "rules paired by content" in message
    assert message.endswith("load the en edition the fr text was translated from: older than 2026-01-16 "
                            "(23 of the 29 rules paired are numbered higher there)")  # fmt: skip
    assert not any("EN 703.4c (en:2026-01-16)" in d.message for d in kb_today.diagnostics)  # unrelated rule


def test_check_lists_the_content_pairing_in_the_editions_line(kb_today):
    from kb.export.summary import edition_lines

    [line] = [x for x in edition_lines(kb_today) if x.startswith("editions fr")]
    assert line.endswith("numbered like no loaded edition: 29 of 32 rules paired by content with en 2026-01-16")


def test_the_reference_mismatches_compare_nothing_without_the_source(kb_today):
    assert kb_today.links.alignment.reference_mismatches == ()


def test_with_its_source_alone_the_translation_is_paired_by_number(tmp_path):
    kb = load(_content(tmp_path, CR2015))
    found = _pairs(kb)
    assert kb.links.alignment.counterparts["fr"] == ("en:2015-09-26", 0.9941, "structure")
    assert len(found) == 32 and all(p.via == "number" and p.number == p.ref_number for p in found.values())


def test_with_both_editions_the_translation_is_followed_through_lineage(bundled_kb):
    found = _pairs(bundled_kb)
    assert {p.via for p in found.values()} == {"lineage"} and found["120.4"].ref_number == "121.4"
    note = next(d.message for d in bundled_kb.diagnostics if d.message.startswith("fr (undated) matches"))
    assert note.endswith("32 of 32 rules say the same as the rule of that number")


def test_rules_that_say_otherwise_than_the_rule_of_their_number_are_never_paired_by_it(tmp_path):
    # 2017 numbers 120 as 2015 did, but inserted two subrules before 120.2a: 2015's 120.2a is 2017's 120.2c.
    kb = load(_content(tmp_path, FIXTURES / "history" / "cr-en-2017-09-29.txt"))
    found = _pairs(kb)
    assert kb.links.alignment.counterparts["fr"][:3:2] == ("en:2017-09-29", "structure")
    assert (found["120.2a"].ref_number, found["120.2a"].via) == ("120.2c", "content")
    assert (found["120.2b"].ref_number, found["120.2b"].via) == ("120.2d", "content")
    assert found["120.4"].via == "number" and found["120.4"].ref_number == "120.4"
    note = next(d.message for d in kb.diagnostics if d.message.startswith("fr (undated) matches"))
    assert note.endswith("30 of 32 rules say the same as the rule of that number (not 120.2a, 120.2b: 2 of them "
                         "paired by content)")  # fmt: skip


def test_without_a_lexicon_nothing_is_paired_by_content(tmp_path):
    content = tmp_path / "content"
    (content / "en").mkdir(parents=True)
    (content / "fr").mkdir()
    for path in (CONTENT / "fr").glob("*.txt"):  # the French rules and FAQ, no lexicon file, no card data
        shutil.copy(path, content / "fr" / path.name)
    shutil.copy(CR2026, content / "en" / CR2026.name)
    kb = load(content)
    assert kb.links.alignment.counterparts["fr"][2] == "content" and _pairs(kb) == {}
    [message] = [d.message for d in kb.diagnostics if "numbered like no loaded" in d.message]
    assert message.endswith("(no lexicon between fr and en: add card data or a lexicon to pair them)")
