"""Decoding: encodings, BOM, line ends, typography folding."""

from __future__ import annotations

from kb.sources import decode, fold, read_source, split_lines

from .conftest import CR2015, CR2026, write


def test_utf8_bom_is_stripped():
    text, enc = decode("\ufeffRègle".encode())
    assert (text, enc) == ("Règle", "utf-8-sig")


def test_cp1252_fallback_with_note(tmp_path):
    path = write(tmp_path / "en" / "a.txt", "It’s “draw”".encode("cp1252"))
    source, diags = read_source(path, "en", "en/a.txt")
    assert source.lines == ("It’s “draw”",)
    assert source.encoding == "cp1252"
    assert [d.format() for d in diags] == ["en/a.txt:0: note: not valid UTF-8; decoded as Windows-1252"]


def test_mixed_line_ends_keep_line_numbers():
    assert split_lines("a\r\nb\rc\nd\r\r\ne") == ("a", "b", "c", "d", "", "e")
    assert split_lines("") == ()
    assert split_lines("x\n") == ("x",)


def test_binary_file_is_an_error(tmp_path):
    path = write(tmp_path / "b.txt", b"\x00\x01\x02binary")
    source, diags = read_source(path, "en", "b.txt")
    assert source is None
    assert diags[0].severity == "error" and "binary" in diags[0].message


def test_fold_apostrophes_accents_spaces():
    assert fold("L’Étape d‘ʼentretien\u00a0«Æther»") == "l'etape d''entretien «aether»"


def test_real_editions_decode():
    src15, d15 = read_source(CR2015, "en", "cr15")
    src26, d26 = read_source(CR2026, "en", "cr26")
    assert src15.encoding == "cp1252" and d15[0].severity == "note"
    assert src26.encoding == "utf-8-sig" and not d26
    assert src15.lines[0] == "Magic: The Gathering Comprehensive Rules"
    assert src26.lines[0] == "Magic: The Gathering Comprehensive Rules"
    assert "’" in "".join(src15.lines[:20])


def test_cp1252_undefined_bytes_are_kept_as_latin1():
    assert decode(b"\x81x\x92\x9d") == ("\x81x’\x9d", "cp1252")


def test_content_hash_matches_loader(bundled_kb):
    from kb.sources import content_hash

    from .conftest import CONTENT

    assert content_hash(CONTENT) == bundled_kb.content_hash


def test_utf16_with_bom_is_decoded(tmp_path):
    path = write(tmp_path / "fr" / "a.txt", "120.1. Règle.\r\n".encode("utf-16"))
    source, diags = read_source(path, "fr", "fr/a.txt")
    assert source.lines == ("120.1. Règle.",) and source.encoding == "utf-16"
    assert [d.message for d in diags] == ["decoded as UTF-16 (BOM)"]
