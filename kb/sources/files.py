"""Find content files and decode them: encodings, BOM, line ends."""

from __future__ import annotations

import codecs
import errno
import os
import re
import stat
import unicodedata
from collections import Counter
from hashlib import sha256
from pathlib import Path

from kb.model import Diagnostic, SourceText
from kb.model.errors import KbError
from kb.sources.bounded import TooLarge, open_regular, read_all

LANG_DIR = re.compile(r"^[a-z]{2}$")
LINE_END = re.compile(r"\r\n|\r|\n")
MAX_BYTES = 64 * 1024 * 1024
MAX_LINE_REPORTS = 20
"""Lines with invalid UTF-8 bytes reported one by one; the others are counted in one more warning."""
INVALID_BYTES = re.compile("[\udc80-\udcff]+")
"""Bytes that are not UTF-8, as `surrogateescape` (and so `os.fsdecode`) decodes them: one `\\udcXX` per byte."""
_HIGH_BYTES = bytes(range(0x80, 0x100))


def _undefined_as_latin1(err: UnicodeDecodeError) -> tuple[str, int]:
    """cp1252 leaves five bytes undefined (0x81, 0x8D, 0x8F, 0x90, 0x9D): read them as latin-1, lose nothing."""
    return err.object[err.start : err.end].decode("latin-1"), err.end


_LATIN1_FALLBACK = "kb-latin1"
codecs.register_error(_LATIN1_FALLBACK, _undefined_as_latin1)


class ContentError(KbError):
    """A content folder or file that cannot be read at all."""

    status = 2


def ignored_entries(content: Path) -> list[Diagnostic]:
    """Folders and files under `content/` that are not read, each with the reason and what kb did."""
    try:
        return _walk(content)[1]
    except OSError:  # no content folder to list: `find_sources` says so
        return []


SUFFIXES = (".txt", ".json", ".tsv")
"""The files read: rules and FAQs (`.txt`), card data and lexicons (`.json`), vocabulary tables (`.tsv`)."""
_KINDS = (
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)
"""What an entry that is neither a file nor a folder is, in words; it is never opened (a read could block)."""


def _walk(content: Path) -> tuple[list[tuple[str, Path]], list[Diagnostic]]:
    """The files to read as `(lang, path)`, sorted, and a diagnostic for every other entry that kb leaves out."""
    found: list[tuple[str, Path]] = []
    skipped: list[Diagnostic] = []
    shown_root = display_path(content, content)
    for entry in _listing(content):  # OSError: nothing can be read
        shown = f"{shown_root}/{shown_name(entry.name)}"
        mode, problem = _mode(entry)
        if not LANG_DIR.match(entry.name):
            if mode is not None and stat.S_ISDIR(mode) and LANG_DIR.match(entry.name.lower()):
                why = f"language folders are named in lower case; folder not read: rename it {entry.name.lower()}/"
                skipped.append(Diagnostic("warning", shown, 0, why))
            elif mode is not None and stat.S_ISDIR(mode):
                skipped.append(_note(shown, "not a two-letter ISO 639-1 language code (fr, en, …); folder not read"))
            elif mode is not None and stat.S_ISREG(mode) and entry.suffix.lower() in SUFFIXES:
                why = "not in a language folder; not read: move it into the folder of its language (fr/, en/, …)"
                skipped.append(Diagnostic("warning", shown, 0, why))
        elif problem or not stat.S_ISDIR(mode):
            why = f"{problem}; folder not read" if problem else f"{_what(mode)}, not a language folder; not read"
            skipped.append(Diagnostic("warning", shown, 0, why))
        else:
            try:
                files = _listing(entry)
            except OSError as err:
                why = f"cannot read folder ({err.strerror}); its files are not read"
                skipped.append(Diagnostic("error", shown, 0, why))
                continue
            for path in files:
                _sort_file(entry.name, path, f"{shown}/{shown_name(path.name)}", found, skipped)
    return found, skipped


def _listing(folder: Path) -> list[Path]:
    """The entries of a folder, sorted (OSError when it cannot be listed)."""
    with os.scandir(folder) as entries:
        return sorted(folder / entry.name for entry in entries)


def _sort_file(lang: str, path: Path, shown: str, found: list, skipped: list[Diagnostic]) -> None:
    """Add one entry of a language folder to the files to read, or say why it is left out."""
    if path.name.startswith("."):
        return  # hidden: editors' and systems' own files (`.DS_Store`, `.cr.txt.swp`)
    mode, problem = _mode(path)
    wanted = path.suffix.lower() in SUFFIXES
    if problem:
        skipped.append(Diagnostic("warning" if wanted else "note", shown, 0, f"{problem}; not read"))
    elif stat.S_ISREG(mode) and wanted:
        found.append((lang, path))
    elif stat.S_ISDIR(mode):
        skipped.append(Diagnostic("warning" if wanted else "note", shown, 0, "a folder, not a file; not read"))
    elif not stat.S_ISREG(mode):
        why = f"{_what(mode)}, not a regular file; not read (never opened)"
        skipped.append(Diagnostic("warning" if wanted else "note", shown, 0, why))
    else:
        skipped.append(
            _note(shown, "only .txt (rules, FAQs), .json (card data) and .tsv (vocabulary tables) files are read")
        )


def _mode(path: Path) -> tuple[int | None, str]:
    """The mode of what `path` leads to (symlinks followed), or None and why it cannot be told; never opens it."""
    try:
        return os.stat(path).st_mode, ""
    except OSError as err:
        if err.errno == errno.ELOOP:
            return None, "symlink loop"
        if os.path.islink(path) and err.errno in (errno.ENOENT, errno.ENOTDIR):
            return None, f"dangling symlink (its target {shown_name(os.readlink(path))} does not exist)"
        return None, f"cannot read ({err.strerror})"


def _what(mode: int) -> str:
    """Say what a file that is not a folder is."""
    if stat.S_ISREG(mode):
        return "a file"
    return next((name for test, name in _KINDS if test(mode)), "a special file")


def _note(shown: str, why: str) -> Diagnostic:
    """A note on an entry left out on purpose."""
    return Diagnostic("note", shown, 0, why)


def display_path(path: Path, root: Path) -> str:
    """Return `path` relative to `root`'s parent with `/` separators (as in diagnostics), bad bytes as `\\xff`."""
    try:
        return shown_name(path.resolve().relative_to(root.resolve().parent).as_posix())
    except ValueError:
        return shown_name(path.as_posix())


def shown_name(name: str) -> str:
    """A file name as text: the bytes `os.fsdecode` could not decode (`\\udcff`) written as `\\xff`."""
    return INVALID_BYTES.sub(lambda m: _as_hex(m.group()), name)


def _as_hex(escaped: str) -> str:
    """Surrogate escapes (`\\udcff`) as the bytes they stand for, written `\\xff`."""
    return "".join(f"\\x{ord(c) - 0xDC00:02x}" for c in escaped)


def find_sources(content: Path) -> list[tuple[str, Path]]:
    """List `(lang, path)` for every regular file `content/<lang>/*.txt` and `*.json`, sorted (never opens one)."""
    if not content.is_dir():
        raise ContentError(f"{content}: content folder not found; pass --content DIR (it holds fr/, en/)")
    try:
        found, skipped = _walk(content)
    except OSError as err:
        raise ContentError(f"{content}: cannot read the content folder ({err.strerror})") from None
    if not found:
        raise ContentError(_nothing_found(content, skipped))
    return found


def _nothing_found(content: Path, skipped: list[Diagnostic]) -> str:
    """Say why a content folder gave no file, and what to pass instead."""
    if LANG_DIR.match(content.name) and any(p.suffix.lower() in SUFFIXES for p in _listing(content)):
        return f"{content}: this is a language folder; pass its parent: --content {content.parent}"
    if errors := [d for d in skipped if d.severity == "error"]:
        return "; ".join(f"{d.path}: {d.message}" for d in errors)
    return f"{content}: no content found; the folder must hold <lang>/*.txt files (fr/…, en/…)"


def hash_entry(lang: str, path: Path, sha256_hex: str) -> bytes:
    """One file's part of a content hash: its `lang/name` and the hash of its bytes."""
    return os.fsencode(f"{lang}/{path.name}\0{sha256_hex}\n")


def streamed(path: Path) -> bool:
    """Whether a content file is read as a stream (MTGJSON v5 card data: a `.json` file whose first key is `meta` or
    `data`), so that no size bounds it."""
    if path.suffix.lower() != ".json":
        return False
    try:
        with open_regular(path) as f:
            head = f.read(64)
    except OSError:
        return False
    return MTGJSON5_HEAD.match(head.removeprefix(codecs.BOM_UTF8)) is not None


MTGJSON5_HEAD = re.compile(rb'\s*\{\s*"(?:meta|data)"')
"""How an MTGJSON v5 file begins (its keys sorted: `data` or `meta` first)."""


def decode(raw: bytes) -> tuple[str, str]:
    """Decode bytes as UTF-8 (BOM stripped; invalid bytes replaced) unless the file as a whole is in a legacy code
    page (Windows-1252, DOS 437 or 850: the one whose letters read as words)."""
    text, encoding = _sniff(raw)
    return INVALID_BYTES.sub(_replacement, text), encoding


def _sniff(raw: bytes) -> tuple[str, str]:
    """Decode bytes; an invalid UTF-8 byte is kept as a surrogate escape (`\\udcXX`) for the caller to report."""
    bom = raw.startswith(codecs.BOM_UTF8)
    if bom:
        raw = raw[3:]
    try:
        return raw.decode("utf-8"), "utf-8-sig" if bom else "utf-8"
    except UnicodeDecodeError:
        escaped = raw.decode("utf-8", "surrogateescape")
    if bom or _mostly_utf8(raw, escaped):
        return escaped, "utf-8-sig" if bom else "utf-8"
    encoding = _legacy_code_page(raw)
    return raw.decode(encoding, errors=_LATIN1_FALLBACK), encoding


LEGACY = {"cp1252": "Windows-1252", "cp437": "DOS code page 437", "cp850": "DOS code page 850"}
"""The code pages a file that is not UTF-8 may be in, the most common first (it wins a tie), with their names."""
_HIGH_RUN = re.compile(rb"[\x80-\xff]+")
_TYPOGRAPHY = frozenset("‘“”–—…•®™©°«»·§")
"""Signs of printed text: quotes, dashes, trade marks (the apostrophe `’` is scored by its place)."""
_LATIN_LETTERS = frozenset("æÆœŒßøØðÐþÞ")
"""Latin letters with no decomposition that text uses (`Æther`); other letters without one are odd (`ƒ`, `Γ`)."""


def _legacy_code_page(raw: bytes, windows: int = 20_000) -> str:
    """The code page whose reading of the file's non-ASCII bytes looks most like words (`Dandân`, not `Dandƒn`)."""
    scores = dict.fromkeys(LEGACY, 0)
    for n, run in enumerate(_HIGH_RUN.finditer(raw)):
        if n == windows:
            break
        window = raw[max(0, run.start() - 1) : run.end() + 1]  # the bytes and an ASCII neighbour on each side
        lead = 1 if run.start() else 0
        for encoding in LEGACY:
            text = window.decode(encoding, errors=_LATIN1_FALLBACK)
            scores[encoding] += sum(
                _letter_score(text[k - 1 : k], text[k], text[k + 1 : k + 2])
                for k in range(lead, lead + len(run.group()))
            )
    return max(LEGACY, key=lambda encoding: scores[encoding])  # the first of the best: a tie keeps Windows-1252


def _letter_score(before: str, char: str, after: str) -> int:
    """How much `char` between `before` and `after` looks like text: an accent inside a word scores most, a
    capital inside a lower-case word (`donÆt`), a letter standing alone, box drawing or an odd symbol costs."""
    if char.isalpha():
        if not (unicodedata.decomposition(char) or char in _LATIN_LETTERS):
            return -2  # `ƒ`, the Greek letters of the DOS code pages
        if (char.isupper() and before.islower()) or (char.islower() and after.isupper()):
            return -2
        return int(before.isalpha()) + int(after.isalpha())  # inside a word, at its edge, or alone (`à`)
    if char == "’":
        return int(before.isalpha()) + int(after.isalpha())  # `don’t`, `players’`; rarely opening a word
    if char in _TYPOGRAPHY:
        return 1
    if char == "\xa0":
        return 0
    return -2 if "\u2500" <= char <= "\u259f" else -1  # box drawing and blocks; control or other symbols


def _mostly_utf8(raw: bytes, escaped: str) -> bool:
    """Whether valid multi-byte UTF-8 characters outnumber the invalid sequences.

    Each reading of the bytes garbles something: as UTF-8 every invalid sequence, as Windows-1252 every valid
    multi-byte character (`é` becomes `Ã©`). Keep the reading that garbles less. Windows-1252 text hardly ever
    forms a valid multi-byte sequence (a lead byte such as `Ã` followed by `©`), so a real cp1252 file has none.
    """
    runs = INVALID_BYTES.findall(escaped)
    invalid_bytes, invalid_runs = sum(map(len, runs)), len(runs)
    ascii_chars = len(raw.translate(None, _HIGH_BYTES))
    multibyte = len(escaped) - ascii_chars - invalid_bytes
    return multibyte > invalid_runs


def _replacement(match: re.Match[str]) -> str:
    """U+FFFD for each invalid byte."""
    return "\ufffd" * len(match.group())


def _utf16_order(raw: bytes) -> str | None:
    """`utf-16-le` or `utf-16-be` when the NUL bytes fall on one side of each byte pair, as in UTF-16 text."""
    sample = raw[:8192]
    if len(sample) < 4 or b"\x00" not in sample:
        return None
    even, odd = sample[0::2].count(0) / len(sample[0::2]), sample[1::2].count(0) / len(sample[1::2])
    if odd >= 0.3 and even <= 0.05:
        return "utf-16-le"
    if even >= 0.3 and odd <= 0.05:
        return "utf-16-be"
    return None


def split_lines(text: str) -> tuple[str, ...]:
    """Split on `\\r\\n`, `\\r` or `\\n` (mixed too); `\\r\\r\\n` counts as two line ends."""
    lines = LINE_END.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    return tuple(lines)


def read_source(
    path: Path, lang: str, shown: str, check_language: bool = True
) -> tuple[SourceText | None, list[Diagnostic]]:
    """Read and decode one file; return the text (None if unreadable) and diagnostics (`check_language`: whether
    to say so when its text reads as another language than its folder's)."""
    try:
        with open_regular(path, MAX_BYTES) as handle:  # the size checked before a byte is read
            raw = read_all(handle, MAX_BYTES)
    except TooLarge as err:
        return None, [Diagnostic("error", shown, 0, f"file is {err.size} bytes, over the {MAX_BYTES} limit; split it")]
    except OSError as err:
        return None, [Diagnostic("error", shown, 0, f"cannot read file: {err.strerror}")]
    if len(raw) > MAX_BYTES:  # grew while it was read
        return None, [Diagnostic("error", shown, 0, f"file is over the {MAX_BYTES} limit; split it")]
    digest = sha256(raw).hexdigest()
    try:
        text, encoding, how = _decode_file(raw)
    except ValueError as err:
        return None, [Diagnostic("error", shown, 0, str(err))]
    del raw  # the bytes, the text and its lines would otherwise all be held at once
    diags = [Diagnostic("note", shown, 0, how)] if how else []
    if encoding.startswith("utf-8") and INVALID_BYTES.search(text):
        diags += _invalid_lines(split_lines(text), shown)
        text = INVALID_BYTES.sub(_replacement, text)
    if MOJIBAKE.search(text):
        diags += _mojibake_lines(split_lines(text), shown)
    if CONTROLS.search(text):
        diags += _control_lines(split_lines(text), shown)
        text = CONTROLS.sub("\ufffd", text)
    if check_language and (other := other_language(text, lang)) is not None:
        message = (
            f"this text reads as {LANGUAGE_NAMES[other]}, not {LANGUAGE_NAMES[lang]} (its commonest words), but it "
            f"is in the {lang} folder: move it to {other}/"
        )
        diags.append(Diagnostic("error", shown, 0, message))
    if not unicodedata.is_normalized("NFC", text):  # most files are: spare a copy of a large text
        text = unicodedata.normalize("NFC", text)
    if path.suffix.lower() == ".txt":
        text, found = shaped(text, shown)
        diags += found
        if text is None:
            return None, diags
    return SourceText(shown, lang, split_lines(text), encoding, digest), diags


MANY_LINES = 10_000
"""Lines a text file may have whatever their length (the official rules have about 9,000)."""
MIN_AVERAGE = 24
"""Characters a line of a text file of more than MANY_LINES lines averages at least, blank lines counted (the
official rules: about 100): each line costs kb a few hundred bytes, whatever its length."""
MAX_LINE = 100_000
"""Longest line of a text file kept whole (a paragraph of the rules has at most a few thousand characters)."""
_LONG_LINE = re.compile(f"(?<![^\r\n])[^\r\n]{{{MAX_LINE + 1},}}")
"""A line longer than MAX_LINE, from its start (tried from each character of a long line, a match would scan the
rest of the line each time)."""


def shaped(text: str, shown: str) -> tuple[str | None, list[Diagnostic]]:
    """A text file's text within its shape budget: None (and an error) when it has too many short lines for a rules
    or FAQ text; its longest lines cut at MAX_LINE characters (and a warning)."""
    count = text.count("\n") + text.count("\r") - text.count("\r\n") + 1
    if count > MANY_LINES and len(text) < MIN_AVERAGE * count:
        message = (
            f"{count:,} lines of {len(text) / count:.1f} characters on average: not a rules or FAQ text (one of more "
            f"than {MANY_LINES:,} lines averages at least {MIN_AVERAGE}); not read: remove it from the content folder"
        )
        return None, [Diagnostic("error", shown, 0, message)]
    if len(text) <= MAX_LINE or not _LONG_LINE.search(text):
        return text, []
    first, cut, parts, at = 0, 0, [], 0
    for m in _LONG_LINE.finditer(text):
        if not cut:
            first = 1 + sum(text.count(end, 0, m.start()) for end in ("\n", "\r")) - text.count("\r\n", 0, m.start())
        cut += 1
        parts += [text[at : m.start() + MAX_LINE], "…"]
        at = m.end()
    message = f"{cut:,} lines of more than {MAX_LINE:,} characters, cut there (the first here); break them into lines"
    return "".join([*parts, text[at:]]), [Diagnostic("warning", shown, first, message)]


def _decode_file(raw: bytes) -> tuple[str, str, str]:
    """Decode a file's bytes: (text, encoding, a note on how, or ""); ValueError when it is not text."""
    if raw.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        order, how = "utf-16", "decoded as UTF-16 (BOM)"
    else:
        order = _utf16_order(raw)
        how = f"decoded as UTF-16 ({order[-2:].upper()}, no BOM)" if order else ""
    if order:
        try:
            return raw.decode(order), order, how
        except UnicodeDecodeError:
            raise ValueError("UTF-16 file that does not decode; save it as UTF-8") from None
    if b"\x00" in raw[:8192]:
        raise ValueError("binary file (NUL bytes); remove it from the content folder")
    text, encoding = _sniff(raw)
    return text, encoding, f"not valid UTF-8; decoded as {LEGACY[encoding]}" if encoding in LEGACY else ""


COMMON_WORDS = {
    "en": frozenset({"the", "of", "and", "to", "is", "that", "this", "with", "player", "players", "card", "cards"}),
    "fr": frozenset(
        {"le", "la", "les", "des", "du", "une", "est", "et", "dans", "pour", "joueur", "joueurs", "carte", "cartes"}
    ),
}
"""Words frequent in rules and rulings of one language and rare in the other's."""
LANGUAGE_NAMES = {"en": "English", "fr": "French"}


def other_language(text: str, lang: str, sample: int = 200_000) -> str | None:
    """The other language (of French and English) a text is written in when it is clearly not `lang`: its common
    words outnumber `lang`'s twenty to one, over a hundred of them (a French text quotes English card names, an
    English one a few French words: never that many); None otherwise, or for another language."""
    if lang not in COMMON_WORDS:
        return None
    words = Counter(re.findall(r"[a-zà-ÿ]+", text[:sample].lower()))
    counts = {code: sum(words[w] for w in common) for code, common in COMMON_WORDS.items()}
    other = max((code for code in counts if code != lang), key=counts.__getitem__)
    return other if counts[other] > 100 and counts[other] > 20 * counts[lang] else None


MOJIBAKE = re.compile("Ã[\u00a0-\u00bf\u0152\u0153\u0160\u0161\u017d\u017e\u2013-\u203a\u20ac\u2122]|â€|Â[«»°\u00a0]")
"""UTF-8 read as Latin-1 or cp1252 and saved again: `Ã©` for `é`, `â€™` for `’`, `Â«` for `«`."""


CONTROLS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
"""Control characters a text has no use for (all of C0 but tab and the line ends, and DEL): among them those kb marks
its own tooltips with in a page (`\\x1e`, `\\x1f`). Each is replaced by U+FFFD, with a warning."""


def _control_lines(lines: tuple[str, ...], shown: str) -> list[Diagnostic]:
    """One warning at the first line holding a control character, counting the others."""
    bad = [number for number, line in enumerate(lines, 1) if CONTROLS.search(line)]
    found = CONTROLS.search(lines[bad[0] - 1]).group()
    more = f" (and {len(bad) - 1} more lines)" if len(bad) > 1 else ""
    message = (
        f"control character U+{ord(found):04X}{more} replaced by U+FFFD: a text has no use for it; remove it from "
        "the file"
    )
    return [Diagnostic("warning", shown, bad[0], message)]


def _mojibake_lines(lines: tuple[str, ...], shown: str) -> list[Diagnostic]:
    """One warning at the first line whose accents look doubly encoded, counting the others."""
    bad = [(number, line) for number, line in enumerate(lines, 1) if MOJIBAKE.search(line)]
    found = MOJIBAKE.search(bad[0][1])
    seen = found.group() if found else ""
    more = f" (and {len(bad) - 1} more lines)" if len(bad) > 1 else ""
    message = (
        f"'{seen}' looks like an accent or quote encoded twice{more}: UTF-8 text read as Latin-1 or cp1252 and "
        "saved again; save the file again from its original, as UTF-8"
    )
    return [Diagnostic("warning", shown, bad[0][0], message)]


def _invalid_lines(lines: tuple[str, ...], shown: str) -> list[Diagnostic]:
    """A warning per line holding invalid UTF-8 bytes (the first MAX_LINE_REPORTS), naming the bytes."""
    diags: list[Diagnostic] = []
    bad = [(number, line) for number, line in enumerate(lines, 1) if INVALID_BYTES.search(line)]
    for number, line in bad[:MAX_LINE_REPORTS]:
        found = "".join(INVALID_BYTES.findall(line))
        shown_bytes = _as_hex(found[:8]) + ("…" if len(found) > 8 else "")
        what = "byte" if len(found) == 1 else "bytes"
        message = (
            f"invalid UTF-8 {what} {shown_bytes} replaced by U+FFFD (the rest of the file is UTF-8); "
            "fix the text or save the file as UTF-8"
        )
        diags.append(Diagnostic("warning", shown, number, message))
    if len(bad) > MAX_LINE_REPORTS:
        more = len(bad) - MAX_LINE_REPORTS
        message = f"invalid UTF-8 bytes replaced by U+FFFD on {more} more lines; save the file as UTF-8"
        diags.append(Diagnostic("warning", shown, bad[MAX_LINE_REPORTS][0], message))
    return diags
