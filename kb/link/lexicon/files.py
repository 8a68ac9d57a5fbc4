"""Lexicon documents in the content folder, and the one lexicon the knowledge base uses.

A lexicon file (`{"format": "kb-lexicon/1", …}`, written by `kb lexicon --mine … --json`) ships what was mined
from card data too large to bundle; the card data that is loaded is mined as well, and the two are combined:
for a term found in both, the entry with more evidence wins.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from kb.link.lexicon.records import CATEGORIES, ExampleCard, FrenchTerm, Lexicon, LexiconEntry, Variant
from kb.model import Diagnostic
from kb.sources import fold
from kb.sources.bounded import read_regular
from kb.sources.files import MAX_BYTES


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
        data = json.loads(read_regular(path, MAX_BYTES).decode("utf-8-sig"), parse_constant=_no_constant)
        return lexicon_from_json(data), []
    except (OSError, UnicodeDecodeError, RecursionError) as err:
        why = err.strerror if isinstance(err, OSError) else err
        return None, [Diagnostic("error", shown, 0, f"unreadable lexicon ({why}); regenerate it with kb lexicon")]
    except ValueError as err:
        return None, [Diagnostic("error", shown, 0, f"malformed lexicon: {err}; regenerate it with kb lexicon")]


def _no_constant(name: str) -> float:
    """Refuse `NaN` and `Infinity`, which JSON does not have (Python's reader takes them)."""
    raise ValueError(f"{name} is not a JSON number")


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


FORMAT = "kb-lexicon/1"
"""Value of the `format` field of a lexicon JSON document."""


def lexicon_to_json(lexicon: Lexicon) -> dict[str, Any]:
    """The lexicon as a JSON-ready dict (see `lexicon_from_json`)."""
    return {
        "format": FORMAT,
        "cards": lexicon.cards,
        "entries": [
            {
                "english": e.english,
                "category": e.category,
                "score": e.score,
                "evidence": e.evidence,
                "french": [{"text": t.text, "count": t.count, "forms": list(t.forms)} for t in e.french],
                "examples": [{"english": x.english, "french": x.french} for x in e.examples],
                "variants": [{"text": v.text, "count": v.count, "sets": list(v.sets)} for v in e.variants],
                **({"sources": dict(e.sources)} if e.sources else {}),
            }
            for e in lexicon.entries
        ],
    }


def lexicon_from_json(data: Any) -> Lexicon:
    """Rebuild a lexicon from `lexicon_to_json` output; raise ValueError naming the first bad field."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f"not a lexicon document: 'format' must be {FORMAT!r}")
    entries = data.get("entries")
    if not isinstance(entries, list):
        raise ValueError("'entries' must be a list")
    return Lexicon(tuple(_entry_from_json(e, i) for i, e in enumerate(entries)), _field(data, "cards", int, "document"))


def _entry_from_json(data: Any, index: int) -> LexiconEntry:
    where = f"entry {index}"
    if not isinstance(data, dict):
        raise ValueError(f"{where} must be an object")
    category = _field(data, "category", str, where)
    if category not in CATEGORIES:
        raise ValueError(f"{where}: unknown category {category!r}")
    french = tuple(
        FrenchTerm(_field(t, "text", str, where), _field(t, "count", int, where), tuple(_strings(t.get("forms"))))
        for t in _objects(data.get("french"), where)
    )
    examples = tuple(
        ExampleCard(_field(x, "english", str, where), _field(x, "french", str, where))
        for x in _objects(data.get("examples"), where)
    )
    variants = tuple(
        Variant(_field(v, "text", str, where), _field(v, "count", int, where), _strings(v.get("sets")))
        for v in _objects(data.get("variants", []), where)
    )  # a file written before variants were kept has none
    score = _field(data, "score", (int, float), where)
    if not 0 <= score <= 1:
        raise ValueError(f"{where}: 'score' must be between 0 and 1")
    english, evidence = _field(data, "english", str, where), _field(data, "evidence", int, where)
    sources = data.get("sources", {})  # a file written before sources were kept has none
    if not isinstance(sources, dict) or not all(
        isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool) for k, v in sources.items()
    ):
        raise ValueError(f"{where}: 'sources' must map each source to a count")
    return LexiconEntry(
        english, category, french, float(score), evidence, examples, variants, tuple(sorted(sources.items()))
    )


def _objects(value: Any, where: str) -> list[dict]:
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        raise ValueError(f"{where}: expected a list of objects")
    return value


def _field(data: dict, name: str, kind: type | tuple[type, ...], where: str) -> Any:
    value = data.get(name)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise ValueError(f"{where}: '{name}' is missing or has the wrong type")
    return value


def _strings(value: Any) -> tuple[str, ...]:
    return tuple(v for v in value if isinstance(v, str) and v.strip()) if isinstance(value, list) else ()
