"""Search: the knowledge base's records in a Whoosh index, and queries over it, shared by the CLI and the site.

In: `KnowledgeBase`. Out: ranked `SearchResult`s, and the site's JSON index. `entries` (records -> entries), `text`
(tokens, folding, stop words, index forms), `analysis` (Whoosh analyzers and schema), `writer` (the index and the tables
a query reads), `export` (the index as the JSON files every query reads), `build` (the one module that makes an index),
`store` (index folders, atomic switch, seal), `index` (open a content folder's index), `shards` (the export as a query
reads it), `query` (the query box), `lookup` (query words -> slots, translations, the query's language), `lexicon`
(translation tables), `spelling`, `concepts` (what a one-word headword is about), `engine` (a query's evaluation over
the export), `rank` (kb's re-rank), `results` (titles and Whoosh's snippets), `payload` (the JSON answer). Only
`analysis`, `writer`, `export`, `results` and `spelling` import whoosh, and this package's own `__init__` its `compat`
module (below).

Whoosh's `compat` module imports `urllib.request` for a `urlretrieve` that no part of Whoosh calls, and with it
`http.client`, `ssl` and `email`: 25–30 ms of every cold `kb search`, for nothing. Importing this package imports
`whoosh.compat` with a stand-in for that one module (`_whoosh_compat`), so no search loads them; Whoosh's own modules
are left as they are.
"""

from __future__ import annotations

import sys
import types


def _whoosh_compat() -> None:
    """Import `whoosh.compat` without `urllib.request`: its `urlretrieve` is a stand-in that imports the real module
    when called, and the stand-in leaves `sys.modules` once `whoosh.compat` holds it, so any other import of
    `urllib.request` gets the real one. (Another thread importing `urllib.request` during that one import would get
    the stand-in: no code of kb's imports it, in any thread, nor does the standard library's HTTP server `kb serve`
    runs on.)"""
    if "whoosh.compat" in sys.modules or "urllib.request" in sys.modules:
        return
    stand_in = types.ModuleType("urllib.request", "Stand-in while whoosh.compat is imported (kb.search).")

    def urlretrieve(*args, **kwargs):
        from urllib.request import urlretrieve as real

        return real(*args, **kwargs)

    stand_in.urlretrieve = urlretrieve
    sys.modules["urllib.request"] = stand_in
    try:
        import whoosh.compat  # noqa: F401
    finally:
        if sys.modules.get("urllib.request") is stand_in:
            del sys.modules["urllib.request"]


_whoosh_compat()
