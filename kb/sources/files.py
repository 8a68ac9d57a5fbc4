"""Find content files and decode them: encodings, BOM, line ends."""

from __future__ import annotations

import codecs
import hashlib
import re
import unicodedata
from pathlib import Path

from kb.model import Diagnostic, SourceText

LANG_DIR = re.compile(r"^[a-z]{2}$")
LINE_END = re.compile(r"\r\n|\r|\n")
MAX_BYTES = 64 * 1024 * 1024


def _undefined_as_latin1(err: UnicodeDecodeError) -> tuple[str, int]:
    """cp1252 leaves five bytes undefined (0x81, 0x8D, 0x8F, 0x90, 0x9D): read them as latin-1, lose nothing."""
    return err.object[err.start : err.end].decode("latin-1"), err.end


_LATIN1_FALLBACK = "kb-latin1"
codecs.register_error(_LATIN1_FALLBACK, _undefined_as_latin1)


class ContentError(Exception):
    """A content folder or file that cannot be read at all."""


def ignored_entries(content: Path) -> list[tuple[Path, str]]:
    """Folders and files under `content/` that are not read, with the reason."""
    ignored = []
    for entry in sorted(content.iterdir()) if content.is_dir() else ():
        if entry.is_dir() and not LANG_DIR.match(entry.name):
            ignored.append((entry, "not a two-letter ISO 639-1 language code (fr, en, …); folder not read"))
        elif entry.is_dir():
            for path in sorted(entry.iterdir()):
                if path.suffix.lower() not in (".txt", ".json") and not path.name.startswith("."):
                    ignored.append((path, "only .txt (rules, FAQs) and .json (card data) files are read"))
    return ignored


def display_path(path: Path, root: Path) -> str:
    """Return `path` relative to `root`'s parent with `/` separators (as in diagnostics)."""
    try:
        return path.resolve().relative_to(root.resolve().parent).as_posix()
    except ValueError:
        return path.as_posix()


def find_sources(content: Path) -> list[tuple[str, Path]]:
    """List `(lang, path)` for every `content/<lang>/*.txt` and `*.json`, sorted."""
    if not content.is_dir():
        raise ContentError(f"{content}: content folder not found; pass --content DIR (it holds fr/, en/)")
    found = []
    for lang_dir in sorted(p for p in content.iterdir() if p.is_dir()):
        if not LANG_DIR.match(lang_dir.name):
            continue
        for path in sorted(lang_dir.iterdir()):
            if path.is_file() and path.suffix.lower() in (".txt", ".json"):
                found.append((lang_dir.name, path))
    if not found:
        raise ContentError(_nothing_found(content))
    return found


def _nothing_found(content: Path) -> str:
    """Say why a content folder gave no file, and what to pass instead."""
    if LANG_DIR.match(content.name) and any(p.suffix.lower() in (".txt", ".json") for p in content.iterdir()):
        return f"{content}: this is a language folder; pass its parent: --content {content.parent}"
    return f"{content}: no content found; the folder must hold <lang>/*.txt files (fr/…, en/…)"


def hash_entry(lang: str, path: Path, sha256_hex: str) -> bytes:
    """One file's part of a content hash: its `lang/name` and the hash of its bytes."""
    return f"{lang}/{path.name}\0{sha256_hex}\n".encode()


def content_hash(content: Path) -> str:
    """Hash of every content file's name and bytes, without parsing (the same as KnowledgeBase.content_hash)."""
    digest = hashlib.sha256()
    for lang, path in find_sources(content):
        try:
            digest.update(hash_entry(lang, path, hashlib.sha256(path.read_bytes()).hexdigest()))
        except OSError:
            continue  # unreadable: load() skips it too (with an error diagnostic)
    return digest.hexdigest()


def decode(raw: bytes) -> tuple[str, str]:
    """Decode bytes as UTF-8 (BOM stripped) or, failing that, Windows-1252; return (text, encoding)."""
    if raw.startswith(b"\xef\xbb\xbf"):
        try:
            return raw[3:].decode("utf-8"), "utf-8-sig"
        except UnicodeDecodeError:
            raw = raw[3:]
    try:
        return raw.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        return raw.decode("cp1252", errors=_LATIN1_FALLBACK), "cp1252"


def split_lines(text: str) -> tuple[str, ...]:
    """Split on `\\r\\n`, `\\r` or `\\n` (mixed too); `\\r\\r\\n` counts as two line ends."""
    lines = LINE_END.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    return tuple(lines)


def read_source(path: Path, lang: str, shown: str) -> tuple[SourceText | None, list[Diagnostic]]:
    """Read and decode one file; return the text (None if unreadable) and diagnostics."""
    try:
        raw = path.read_bytes()
    except OSError as err:
        return None, [Diagnostic("error", shown, 0, f"cannot read file: {err.strerror}")]
    if len(raw) > MAX_BYTES:
        return None, [Diagnostic("error", shown, 0, f"file is {len(raw)} bytes, over the {MAX_BYTES} limit; split it")]
    if raw.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            text, encoding = raw.decode("utf-16"), "utf-16"
        except UnicodeDecodeError:
            return None, [Diagnostic("error", shown, 0, "UTF-16 file that does not decode; save it as UTF-8")]
    elif b"\x00" in raw[:8192]:
        return None, [Diagnostic("error", shown, 0, "binary file (NUL bytes); remove it from the content folder")]
    else:
        text, encoding = decode(raw)
    diags = []
    if encoding in ("cp1252", "utf-16"):
        how = "not valid UTF-8; decoded as Windows-1252" if encoding == "cp1252" else "decoded as UTF-16 (BOM)"
        diags.append(Diagnostic("note", shown, 0, how))
    text = unicodedata.normalize("NFC", text)
    source = SourceText(shown, lang, split_lines(text), encoding, hashlib.sha256(raw).hexdigest())
    return source, diags
