"""Dates written in French, English or Chinese (`September 26, 2015`, `26 septembre 2015`, `1er mai`,
`22-23 avril 2006`, `2026年1月16日`)."""

from __future__ import annotations

import datetime
import re

from kb.sources import fold

MONTHS = {
    name: index + 1
    for names in (
        "janvier fevrier mars avril mai juin juillet aout septembre octobre novembre decembre",
        "january february march april may june july august september october november december",
    )
    for index, name in enumerate(names.split())
}
MONTH = "(" + "|".join(MONTHS) + ")"
DATE_FR = re.compile(r"\b(\d{1,2})(?:er)?(?:\s*(?:-|au|et)\s*(\d{1,2}))?\s+" + MONTH + r"\s+(\d{4})")
DATE_EN = re.compile(MONTH + r"\s+(\d{1,2})(?:\s*-\s*(\d{1,2}))?,?\s+(\d{4})")
DATE_YMD = re.compile(r"(\d{4})\s*年\s*(\d{1,2})\s*月\s*(\d{1,2})\s*日")
"""Year, month, day, each followed by its sign (Chinese and Japanese)."""


def find_date(line: str) -> tuple[str, str | None] | None:
    """Find a French, English or Chinese date (or day range) in a line; return ISO start and end."""
    folded = fold(line)
    if match := DATE_FR.search(folded):
        day, end, name, year = match.groups()
        month = MONTHS[name]
    elif match := DATE_EN.search(folded):
        name, day, end, year = match.groups()
        month = MONTHS[name]
    elif match := DATE_YMD.search(folded):
        year, month, day = match.groups()
        end = None
    else:
        return None
    try:
        start = datetime.date(int(year), int(month), int(day)).isoformat()
        return start, (datetime.date(int(year), int(month), int(end)).isoformat() if end else None)
    except ValueError:  # "September 31": not a date
        return None


def iso_date(text: str) -> str | None:
    """Return the first date of `text` as an ISO date, or None."""
    found = find_date(text)
    return found[0] if found else None
