"""Language codes in display order: French first (the product reads FR | EN), English, then the others."""

from __future__ import annotations

from collections.abc import Iterable

LANG_ORDER = {"fr": 0, "en": 1}


def lang_key(lang: str) -> tuple[int, str]:
    """Sort key for languages: French, English, then the others in code order."""
    return LANG_ORDER.get(lang, len(LANG_ORDER)), lang


def ordered_langs(langs: Iterable[str]) -> list[str]:
    """Languages without repeats, French first, then English, then the rest in code order."""
    return sorted(dict.fromkeys(langs), key=lang_key)
