"""Symbols drawn in rule texts, card costs and rulings: each readable whole, with a text alternative."""

from __future__ import annotations

import re

import pytest
from markupsafe import Markup

from kb.site.render import mana_symbol, with_symbols


def _glyph(html: str) -> str:
    """The characters a drawn symbol shows."""
    return re.sub(r"<[^>]+>", "", str(html))


@pytest.mark.parametrize(
    ("code", "glyph", "label"),
    [
        ("rN", "N", "{rN}: chapter symbol N"),
        ("rN1", "N1", "{rN1}: chapter symbol N1"),
        ("rIII", "III", "{rIII}: chapter symbol III"),
        ("PW", "PW", "{PW}: Planeswalker symbol"),
        ("CHAOS", "CHAOS", "{CHAOS}: chaos symbol"),
        ("TK", "TK", "{TK}: ticket"),
        ("E", "E", "{E}: energy"),
        ("H", "Φ", "{H}: Phyrexian symbol"),
        ("X", "X", "{X}: X generic mana"),
    ],
)
def test_symbols_beyond_mana_are_drawn_whole_and_named(code, glyph, label):
    html = mana_symbol(code, "en")
    assert _glyph(html) == glyph and f'aria-label="{label}"' in html


def test_a_chapter_symbol_is_a_shield_and_long_symbols_are_wide():
    assert 'class="ms ms-chapter"' in mana_symbol("rN2")
    assert "ms-wide" in mana_symbol("PW") and "ms-wide" in mana_symbol("CHAOS") and "ms-wide" in mana_symbol("10")
    assert "ms-wide" not in mana_symbol("W") and "ms-wide" not in mana_symbol("2")


def test_three_part_hybrids_keep_every_part():
    html = mana_symbol("W/U/P", "en")  # was drawn as a plain white W
    assert _glyph(html) == "WUΦ" and 'aria-label="{W/U/P}: hybrid Phyrexian white or blue mana"' in html
    assert 'aria-label="{W/U/P}\u00a0: mana hybride phyrexian blanc ou bleu"' in mana_symbol("W/U/P", "fr")
    assert 'aria-label="{G/P}: Phyrexian green mana"' in mana_symbol("G/P", "en")
    assert 'aria-label="{G/U}: hybrid green or blue mana"' in mana_symbol("G/U", "en")


def test_punctuation_after_a_symbol_stays_on_its_line():
    html = with_symbols("the symbols {0}, {1}, and {X}; {T}{Q}", "en")
    assert html.count('<span class="nb">') == 3 and isinstance(html, Markup)
    assert re.search(r'<span class="nb"><span class="ms ms-1"[^>]*>1</span>,</span>', html)
    assert html.endswith('aria-label="{Q}: untap" title="{Q}: untap">↶</span>')  # nothing to hold: no wrapper
