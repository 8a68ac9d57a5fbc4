"""Sources: find and decode the content files; fold text for matching.

In: a content folder (`content/<lang>/…`). Out: `SourceText` records (decoded lines, encoding, hash) and
diagnostics. Imports only `kb.model`.
"""

from kb.sources.digests import content_hash, file_digest
from kb.sources.files import (
    ContentError,
    decode,
    display_path,
    find_sources,
    hash_entry,
    ignored_entries,
    read_source,
    shown_name,
    split_lines,
)
from kb.sources.text import clean, file_slug, fold, search_fold, slug, sort_name, unique

__all__ = [
    "ContentError",
    "clean",
    "content_hash",
    "file_digest",
    "decode",
    "display_path",
    "file_slug",
    "find_sources",
    "fold",
    "hash_entry",
    "ignored_entries",
    "read_source",
    "search_fold",
    "shown_name",
    "slug",
    "sort_name",
    "split_lines",
    "unique",
]
