"""The JSON answer to a search: what `kb search --json` prints and what `kb serve` answers at `/api/v1/search`.

One function makes it for both (`search_payload`), one writes it (`payload_text`), so that the two give the same
bytes for the same question (docs/json.md).
"""

from __future__ import annotations

from kb.sources.text import json_dumps

KINDS = ("rule", "glossary", "card", "ruling", "note")
"""The kinds of results a search may be narrowed to."""
MAX_QUERY = 1_000
"""Longest query the server takes (the command line takes what the shell gives it)."""
MAX_LIMIT = 100
"""Most results the server gives for one query."""


def search_payload(
    index, query: str, lang: str | None, kind: str | None, limit: int, edition: str | None = None
) -> dict:
    """Search an open index (`kb.search.index.open_index`) and give the answer as JSON-ready data: the query, the
    results, the correction made ("did you mean"), the editions searched and the others loaded, and the numbers a
    translation gives other rules (`elsewhere`). SearchError for a malformed query or an unknown language, kind or
    edition."""
    answer = index.search(query, lang=lang, kind=kind, limit=limit, edition=edition)
    return answer_payload(index, query, answer)


def answer_payload(index, query: str, answer) -> dict:
    """The JSON-ready data of an answer (`kb.search.engine.Answer`) the open index gave to a query."""
    searched = answer.editions
    others = [e for e in (*index.editions[0], *index.editions[1]) if e not in searched]  # loaded, not searched
    return {
        "query": query,
        "results": [r.to_json() for r in answer.results],
        "did_you_mean": answer.corrected,
        "editions": {"searched": list(searched), "others": list(others)},
        "elsewhere": [{"lang": lang, "number": own, "today": today} for lang, own, today in answer.elsewhere],
    }


def payload_text(payload: dict, ascii_only: bool = False) -> str:
    """The answer as one line of JSON, as `kb search --json` prints it (`ascii_only`: every other character
    escaped, for a terminal that cannot show them)."""
    return json_dumps(payload, indent=None, ascii_only=ascii_only)
