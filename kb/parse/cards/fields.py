"""The fields of an MTGJSON v5 card entry, type-checked once as it is read: a field of the wrong type is left out
(and said), the rest of the card kept, so that no reader further on meets a number where it expects a list.

Expected shapes (MTGJSON v5): strings (`text`, `type`, `layout`, `side`…), lists of strings (`types`,
`printings`…), `power` and `toughness` as strings (numbers accepted), `identifiers` an object of strings,
`foreignData` and `rulings` lists of objects whose own fields are strings. At most `MAX_PRINTINGS` set codes are
kept of a card's `printings` (MTGJSON's most printed card, a basic land, has under a thousand).
"""

from __future__ import annotations

import re
from typing import Any

STRINGS = frozenset(
    ("name", "faceName", "originalText", "text", "type", "manaCost", "layout", "number", "setCode", "side")
)
LISTS = frozenset(("keywords", "supertypes", "types", "subtypes", "printings"))
NUMBERS_OR_STRINGS = frozenset(("power", "toughness"))
OBJECT_LISTS = {
    "foreignData": frozenset(("language", "name", "faceName", "text", "type")),
    "rulings": frozenset(("text", "date")),
}
"""List fields of objects, and the fields of those objects that must be strings."""
MAX_CODE = 40
"""Longest set code kept in `printings` (MTGJSON's are 3 to 6 characters)."""
MAX_PRINTINGS = 2_000
"""Most set codes kept of one card's `printings`."""
CONTROLS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
"""Control characters no card text has a use for (kb marks its tooltips in pages with two of them): replaced by
U+FFFD, and said."""
_KINDS = {bool: "a boolean", int: "a number", float: "a number", str: "a string", list: "a list", dict: "an object"}


def kind_of(value: object) -> str:
    """A JSON value's kind in words (`a number`, `null`)."""
    return "null" if value is None else _KINDS.get(type(value), type(value).__name__)


def checked(entry: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """The entry with its fields of the wrong type left out (and items of the wrong type out of its lists), and what
    was wrong, one phrase per field (`'foreignData' is a number, expected a list`)."""
    problems: list[str] = []
    kept: dict[str, Any] = {}
    for name, value in entry.items():
        why, value = _check(name, value)
        if why:
            problems.append(f"'{name}' {why}")
        if value is not None:
            kept[name] = value
    for name in ("name", "faceName", "text", "originalText", "type", "foreignData", "rulings"):
        if name in kept and _has_controls(kept[name]):
            kept[name] = _without_controls(kept[name])
            problems.append(f"'{name}' holds control characters (replaced by U+FFFD)")
    return kept, problems


def _has_controls(value: Any) -> bool:
    """Whether a string, or a string of a list of strings or objects, holds a control character."""
    if isinstance(value, str):
        return CONTROLS.search(value) is not None
    if isinstance(value, list):
        return any(_has_controls(item) for item in value)
    return isinstance(value, dict) and any(_has_controls(v) for v in value.values())


def _without_controls(value: Any) -> Any:
    """A string, or the strings of a list of strings or objects, with control characters replaced by U+FFFD."""
    if isinstance(value, str):
        return CONTROLS.sub("\ufffd", value)
    if isinstance(value, list):
        return [_without_controls(item) for item in value]
    if isinstance(value, dict):
        return {k: _without_controls(v) for k, v in value.items()}
    return value


def _check(name: str, value: Any) -> tuple[str, Any]:
    """What is wrong with one field ('' when nothing), and the value kept (None: left out)."""
    if value is None:
        return "", None
    if name in STRINGS:
        return ("", value) if isinstance(value, str) else (f"is {kind_of(value)}, expected a string", None)
    if name in NUMBERS_OR_STRINGS:
        ok = isinstance(value, str) or isinstance(value, int | float) and not isinstance(value, bool)
        return ("", value) if ok else (f"is {kind_of(value)}, expected a string", None)
    if name in LISTS:
        return _strings(name, value)
    if name in OBJECT_LISTS:
        return _objects(value, OBJECT_LISTS[name])
    if name == "identifiers":
        if not isinstance(value, dict):
            return f"is {kind_of(value)}, expected an object", None
        return "", {k: v for k, v in value.items() if isinstance(v, str)}
    return "", value


def _strings(name: str, value: Any) -> tuple[str, Any]:
    """A list of strings: other items left out; a printings list cut at MAX_PRINTINGS."""
    if not isinstance(value, list):
        return f"is {kind_of(value)}, expected a list of strings", None
    longest = MAX_CODE if name == "printings" else None
    kept = [item for item in value if isinstance(item, str) and (longest is None or len(item) <= longest)]
    why = "holds items that are not strings, or not set codes (left out)" if len(kept) < len(value) else ""
    if name == "printings" and len(kept) > MAX_PRINTINGS:
        kept = list(dict.fromkeys(kept))
        if len(kept) > MAX_PRINTINGS:
            why = f"lists {len(kept):,} sets, more than {MAX_PRINTINGS:,} (the first kept)"
            kept = kept[:MAX_PRINTINGS]
    return why, kept


def _objects(value: Any, strings: frozenset[str]) -> tuple[str, Any]:
    """A list of objects whose `strings` fields are strings: other items, and fields of the wrong type, left out."""
    if not isinstance(value, list):
        return f"is {kind_of(value)}, expected a list of objects", None
    kept = []
    wrong = 0
    for item in value:
        if not isinstance(item, dict):
            wrong += 1
            continue
        good = {k: v for k, v in item.items() if k not in strings or isinstance(v, str)}
        wrong += len(good) < len(item)
        kept.append(good)
    return ("holds items of the wrong type (left out)" if wrong else ""), kept
