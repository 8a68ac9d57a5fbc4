"""French and English dates."""

from __future__ import annotations

import pytest

from kb.parse.dates import find_date, iso_date


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("These rules are effective as of September 26, 2015.", "2015-09-26"),
        ("Ces règles entrent en vigueur le 1er février 2016.", "2016-02-01"),
        ("Document modifié pour la dernière fois le 17 mars 2006", "2006-03-17"),
        ("effective as of September 31, 2015", None),
        ("no date here", None),
    ],
)
def test_iso_date(text, expected):
    assert iso_date(text) == expected


def test_day_range():
    assert find_date("Tournois Avant-premières nationales Discorde : 22-23 avril 2006") == ("2006-04-22", "2006-04-23")
