"""`GET /api/v1/search?q=…&lang=…&kind=…&limit=…` on `kb serve`: the JSON `kb search --json` prints for the same
question (`kb.search.payload`), or a JSON 400 `{"error": "…"}` for a parameter it cannot take.

The index is that of the content folder the site was built from, opened at the first search and kept; it is searched
one question at a time, in a thread of its own (an open index is not to be searched by two threads at once), each
request waiting for its answer at most SEARCH_TIMEOUT seconds, and at most WAITING questions waiting at once.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as Late
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

API_PATH = "/api/v1/search"
SEARCH_TIMEOUT = 30.0
"""Seconds a request waits for its answer (the first one opens the index: a second or so)."""
WAITING = 64
"""Questions waiting at once; past them, a 503."""
PARAMETERS = ("q", "lang", "kind", "limit")


class BadRequest(ValueError):
    """A parameter the search cannot take; the message says which and why."""


class Searches:
    """The index of a content folder, opened at the first search and searched one question at a time."""

    def __init__(self, content: Path | None) -> None:
        self.content = content
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="kb-search")  # its thread starts at need
        self._index = None
        self._waiting: set = set()

    def ask(self, query: str, lang: str | None, kind: str | None, limit: int) -> dict:
        """The payload of a question; BadRequest for a malformed one, TimeoutError when it is not answered in time,
        OSError or another kb error when the index cannot be opened."""
        if len(self._waiting) >= WAITING:
            raise TimeoutError("too many searches waiting; try again")
        future = self._pool.submit(self._search, query, lang, kind, limit)
        self._waiting.add(future)
        try:
            return future.result(timeout=SEARCH_TIMEOUT)
        except Late:
            raise TimeoutError("the search took too long; try again") from None
        finally:
            self._waiting.discard(future)

    def _search(self, query: str, lang: str | None, kind: str | None, limit: int) -> dict:
        """Search (in the pool's one thread, which alone touches the index)."""
        from kb.search.index import SearchError, open_index
        from kb.search.payload import search_payload

        if self._index is None:
            self._index = open_index(self.content)
        try:
            return search_payload(self._index, query, lang, kind, limit)
        except SearchError as err:
            raise BadRequest(str(err)) from None

    def close(self) -> None:
        """Stop searching (a search under way ends by itself)."""
        self._pool.shutdown(wait=False, cancel_futures=True)


def answer(path: str, searches: Searches) -> tuple[int, bytes]:
    """The status and JSON body of a request for API_PATH (`path` with its query string)."""
    from kb.search.payload import payload_text

    try:
        query, lang, kind, limit = parameters(urlsplit(path).query)
        if searches.content is None:
            return 404, _error("this server has no content folder to search (kb serve gives it one)")
        body = payload_text(searches.ask(query, lang, kind, limit)) + "\n"  # as `kb search --json` prints it
        return 200, body.encode("utf-8")
    except BadRequest as err:
        return 400, _error(str(err))
    except TimeoutError as err:
        return 503, _error(str(err))
    except Exception as err:  # noqa: BLE001 - the index cannot be opened (content gone, disk full): said, not raised
        return 503, _error(f"the search index cannot be opened: {str(err)[:300] or type(err).__name__}")


def parameters(text: str) -> tuple[str, str | None, str | None, int]:
    """The query, language, kind and limit of a query string; BadRequest for a missing, repeated or wrong one."""
    from kb.search.payload import KINDS, MAX_LIMIT, MAX_QUERY

    try:
        given = parse_qs(text, keep_blank_values=True, strict_parsing=False, max_num_fields=20, errors="strict")
    except (ValueError, UnicodeDecodeError):
        raise BadRequest("the query string cannot be read (at most 20 parameters, in UTF-8)") from None
    twice = [name for name in PARAMETERS if len(given.get(name, ())) > 1]
    if twice:
        raise BadRequest(f"'{twice[0]}' is given more than once")
    one = {name: values[0] for name, values in given.items() if name in PARAMETERS}
    query = one.get("q", "")
    if not query.strip():
        raise BadRequest("missing q: the words or the rule number to search for (?q=draw)")
    if len(query) > MAX_QUERY:
        raise BadRequest(f"q is {len(query):,} characters long; at most {MAX_QUERY:,}")
    kind = one.get("kind") or None
    if kind is not None and kind not in KINDS:
        raise BadRequest(f"unknown kind '{kind[:40]}'; use one of {', '.join(KINDS)}")
    limit = one.get("limit", "10")
    if not (limit.isascii() and limit.isdigit() and len(limit) <= 3 and 1 <= int(limit) <= MAX_LIMIT):
        raise BadRequest(f"limit must be a whole number from 1 to {MAX_LIMIT}")
    return query, one.get("lang") or None, kind, int(limit)


def _error(message: str) -> bytes:
    """A JSON error body."""
    from kb.search.payload import payload_text

    return (payload_text({"error": message}) + "\n").encode("utf-8")
