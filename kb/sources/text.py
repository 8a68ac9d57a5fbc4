"""Text folding, slugs and unique ids: the one place every stage folds text for matching.

`fold` is what matching compares (case, accents, apostrophes, spaces); `search_fold` also splits elisions
(`l’étape` -> `l etape`); `slug` makes ASCII ids for files and anchors, `file_slug` bounded ones for file names;
`unique` makes ids unique; `wrap` wraps text for a terminal.
The site's JavaScript folds the same way (`templates/static/search.js`, tested against these cases).
"""

from __future__ import annotations

import json
import re
import textwrap
import unicodedata
from functools import lru_cache
from hashlib import sha256

APOSTROPHES = "’‘ʼ`´′'"
"""Characters that mean an apostrophe; all fold to `'`."""
_OTHER_SPACES = "\u00a0\u202f\u2007\u2009"
"""Spaces but the plain one and the tab: no-break, narrow no-break, figure and thin; all fold to one space."""
_SPACES = re.compile(f"[{_OTHER_SPACES}\t ]+")
_LIGATURE_LETTERS = (("æ", "ae"), ("Æ", "AE"), ("œ", "oe"), ("Œ", "OE"))
_OTHER_APOSTROPHES = tuple(a for a in APOSTROPHES if a != "'")


class _Marks(dict):
    """A `str.translate` table deleting combining marks, filled as characters are met."""

    def __missing__(self, code: int) -> int | None:
        value = None if unicodedata.combining(chr(code)) else code
        self[code] = value
        return value


_MARKS = _Marks()


def fold(text: str) -> str:
    """Fold for matching: one apostrophe, plain spaces, no accents, ligatures spelt out, case folded."""
    for mark in _OTHER_APOSTROPHES:  # each step only where it changes something: `translate` looks every
        if mark in text:  # character up (ten times slower), `sub` copies
            text = text.replace(mark, "'")
    if "  " in text or "\t" in text or not text.isascii() and any(space in text for space in _OTHER_SPACES):
        text = _SPACES.sub(" ", text)
    if text.isascii():  # most words and rules: nothing to decompose
        return text.lower()
    for ligature, letters in _LIGATURE_LETTERS:
        if ligature in text:
            text = text.replace(ligature, letters)
    decomposed = unicodedata.normalize("NFKD", text)
    return (decomposed if decomposed.isascii() else decomposed.translate(_MARKS)).casefold()


def search_fold(text: str) -> str:
    """Fold and split elisions (`l’Étape` -> `l etape`), as the search box reads text."""
    return fold(text).replace("'", " ")


_RUNS = re.compile(r"[ \t]+")


def clean(text: str) -> str:
    """Normalise spacing for display while keeping typography (’ « » — and NBSP stay)."""
    if "  " not in text and "\t" not in text:  # most texts: `sub` would copy them, a string per word first
        return text.strip()
    return _RUNS.sub(" ", text).strip()


def slug(text: str, default: str = "x") -> str:
    """An ASCII slug for ids, file names and anchors (`Résolu // Déterminé` -> `resolu-determine`)."""
    return re.sub(r"[^a-z0-9]+", "-", search_fold(text)).strip("-") or default


FILE_SLUG_MAX = 100
"""Longest slug `file_slug` gives: a page name must stay well under the usual 255-byte limit on a file name."""


def file_slug(text: str, default: str = "x", max_len: int = FILE_SLUG_MAX) -> str:
    """A slug for a file name, at most `max_len` characters: a longer one is cut and ends with a hash of `text`."""
    found = slug(text, default)
    if len(found) <= max_len:
        return found
    digest = sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:10]
    return found[: max_len - len(digest) - 1].rstrip("-") + "-" + digest


def sort_name(text: str) -> str:
    """Collation key for alphabetical lists: folded, punctuation ignored."""
    return re.sub(r"[^a-z0-9 ]+", "", search_fold(text)).strip()


def unique(base: str, taken: set[str]) -> str:
    """Return `base`, else `base-2`, `base-3`… whichever is not taken yet, and take it."""
    found, n = base, 1
    while found in taken:
        n += 1
        found = f"{base}-{n}"
    taken.add(found)
    return found


def fnv1a(text: str) -> int:
    """The 32-bit FNV-1a hash of a string's UTF-8 bytes: which shard of the site's files holds a key (the site's
    JavaScript hashes the same way)."""
    h = 0x811C9DC5
    for byte in text.encode("utf-8"):
        h = ((h ^ byte) * 0x01000193) & 0xFFFFFFFF
    return h


@lru_cache(maxsize=200_000)
def stem_en(word: str) -> str:
    """A light English stem: plural, -ed and -ing endings and a final e removed."""
    if word.endswith("ies") and len(word) > 4:
        word = word[:-3] + "y"
    elif word.endswith("s") and not word.endswith(("ss", "us")) and len(word) > 3:
        word = word[:-1]
    for suffix in ("ing", "ed"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)]
            if len(word) > 3 and word[-1] == word[-2]:
                word = word[:-1]
            break
    return word[:-1] if word.endswith("e") and len(word) > 3 else word


@lru_cache(maxsize=200_000)
def stem_fr(word: str) -> str:
    """A light French stem of a folded word: plural, then -ée, -er, -ez, -e endings removed."""
    if word.endswith(("s", "x")) and len(word) > 3:
        word = word[:-1]
    for suffix in ("ee", "er", "ez", "e"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


class _Wrapper(textwrap.TextWrapper):
    """`textwrap`, a word of many lines cut into pieces of ten lines or more first: textwrap cuts such a word one line
    at a time, copying the rest of it each time (a 50 MB word took minutes). Each piece is longer than a line, so
    textwrap fills the lines exactly as it would with the whole word."""

    def _split(self, text: str) -> list[str]:
        chunks = super()._split(text)
        piece = 10 * max(1, self.width)
        if all(len(chunk) <= 2 * piece for chunk in chunks):
            return chunks
        return [part for chunk in chunks for part in _pieces(chunk, piece)]


def _pieces(chunk: str, size: int) -> list[str]:
    """A chunk cut into pieces of `size` characters, the last one taking the rest (between one and two sizes)."""
    if len(chunk) <= 2 * size:
        return [chunk]
    cuts = list(range(0, len(chunk) - size, size))
    return [chunk[a:b] for a, b in zip(cuts, [*cuts[1:], len(chunk)], strict=True)]


def wrap(text: str, width: int = 70, **options) -> list[str]:
    """`textwrap.wrap` in time linear in the text, however long its words."""
    return _Wrapper(width, **options).wrap(text)


JSON_UNSAFE = re.compile("[\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
"""What json.dumps leaves raw (it escapes C0 itself): C1 (`\\x9b` is a terminal's control sequence introducer) and
bidirectional controls (U+202E turns the rest of a line around)."""


def json_dumps(payload: object, indent: int | None = 1, ascii_only: bool = False) -> str:
    """JSON as kb writes it: UTF-8 text with C1 and bidirectional controls escaped too (`ascii_only`: every character
    but ASCII escaped). The same data, safe to print on a terminal."""
    text = json.dumps(payload, ensure_ascii=ascii_only, indent=indent)
    return JSON_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
