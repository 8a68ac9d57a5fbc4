"""Rules quoted by dated FAQs are followed to today's rules by lineage, text or lexicon, never by number alone."""

from __future__ import annotations

import shutil

from kb.link.load import load
from tests.conftest import FIXTURES


def _quotes(kb) -> dict[str, tuple]:
    return {q.number: (q.today, q.via) for n in kb.notes for q in n.quoted_rules}


def test_bundled_forecast_note_reaches_today_through_the_lexicon(bundled_kb):
    quotes = _quotes(bundled_kb)
    # The French FAQ of 2006 quotes « 502.53. Prévision »: no 2006 edition is loaded, and 502.53 today is
    # not forecast; its heading translates (printed cards) to Forecast, today's 702.57 with two subrules.
    assert quotes["502.53"] == ("702.57", "lexicon") and quotes["502.53b"] == ("702.57b", "lexicon")
    assert quotes["502.54"] == ("702.58", "lexicon")  # Greffe = Graft


def test_english_quote_follows_lineage_from_the_edition_of_its_date(tmp_path):
    content = tmp_path / "content"
    (content / "en").mkdir(parents=True)
    shutil.copy(FIXTURES / "faq-en-sample.txt", content / "en")
    shutil.copy(FIXTURES / "history" / "cr-en-2006-07-15.txt", content / "en")
    shutil.copy(FIXTURES / "cr-en-20260116.txt", content / "en")
    quotes = _quotes(load(content, use_cache=False))
    # The FAQ (2006-03-17) comes before the 2006-07-15 edition: the next edition holds 502.53 Forecast.
    assert quotes["502.53"][0] == "702.57" and quotes["502.53"][1] in ("lineage", "text")
    assert quotes["502.53a"][0] == "702.57a"


def test_a_quote_nothing_confirms_stays_unlinked(tmp_path):
    content = tmp_path / "content"
    (content / "en").mkdir(parents=True)
    shutil.copy(FIXTURES / "faq-en-sample.txt", content / "en")
    shutil.copy(FIXTURES / "cr-en-20150926.txt", content / "en")
    kb = load(content, use_cache=False)
    for note in kb.notes:
        for quote in note.quoted_rules:
            # 2015's 502.53 is not Forecast: never linked by number; the text finds 702.56 or nothing.
            assert quote.today in (None, "702.56", "702.56a", "702.56b")
