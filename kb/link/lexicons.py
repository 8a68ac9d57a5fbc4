"""Lexicon documents in the content folder, and the one lexicon the knowledge base uses.

A lexicon file (`{"format": "kb-lexicon/1", …}`, written by `kb lexicon --mine … --json`) ships what was mined
from card data too large to bundle; the card data that is loaded is mined as well, and the two are combined:
for a term found in both, the entry with more evidence wins.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from kb.link.lexicon import CATEGORIES, FORMAT, Lexicon, lexicon_from_json
from kb.model import Diagnostic
from kb.sources import fold


def is_lexicon_file(path: Path) -> bool:
    """Tell whether a content file is a lexicon document, from its name and first bytes."""
    if path.suffix.lower() != ".json":
        return False
    try:
        with path.open("rb") as f:
            head = f.read(256).decode("utf-8", "replace")
    except OSError:
        return False
    return f'"format": "{FORMAT}"' in head or f'"format":"{FORMAT}"' in head


def read_lexicon(path: Path, shown: str) -> tuple[Lexicon | None, list[Diagnostic]]:
    """Read a lexicon document; a malformed one is one error naming the file."""
    try:
        data = json.loads(path.read_text(encoding="utf-8-sig"))
        return lexicon_from_json(data), []
    except (OSError, UnicodeDecodeError, RecursionError) as err:
        return None, [Diagnostic("error", shown, 0, f"unreadable lexicon ({err}); regenerate it with kb lexicon")]
    except ValueError as err:
        return None, [Diagnostic("error", shown, 0, f"malformed lexicon: {err}; regenerate it with kb lexicon")]


def combine(lexicons: Sequence[Lexicon]) -> Lexicon | None:
    """One lexicon from several: each (term, category) once, from the lexicon with the most evidence for it."""
    if not lexicons:
        return None
    if len(lexicons) == 1:
        return lexicons[0]
    best: dict[tuple[str, str], object] = {}
    for lexicon in lexicons:
        for entry in lexicon.entries:
            key = (fold(entry.english), entry.category)
            if key not in best or entry.evidence > best[key].evidence:  # type: ignore[attr-defined]
                best[key] = entry
    entries = sorted(best.values(), key=lambda e: (CATEGORIES.index(e.category), fold(e.english)))  # type: ignore
    return Lexicon(tuple(entries), max(lex.cards for lex in lexicons))  # type: ignore[arg-type]
