"""Read a rule number from what a user types: `120.2a`, `règle 703.4k`, `rule 120.2`, `CR 120`, `r120.2a`."""

from __future__ import annotations

import re

_QUERY = re.compile(
    r"^\s*(?:(?:cr|rules?|r[èe]gles?|r|section)\s*\.?\s*)?(\d{3}(?:\.\d+[a-z]?)?|\d)\.?\s*$",
    re.IGNORECASE,
)


def rule_number(text: str) -> str | None:
    """Return the canonical rule number typed in `text`, or None if it is not a rule number."""
    m = _QUERY.match(text)
    return m.group(1).lower() if m else None
