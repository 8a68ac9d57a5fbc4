"""Decoding: encodings, BOM, line ends, typography folding."""

from __future__ import annotations

import os

import pytest

from kb.parse.cr.rules import parse_rules
from kb.sources import decode, fold, read_source, split_lines

from .conftest import CR2015, CR2026, FIXTURES, write


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


@pytest.mark.parametrize(
    ("text", "folded"),
    [
        ("Tap `Target`\tcreature  now", "tap 'target' creature now"),  # ASCII: backtick, tab, double space
        ("L’Étape  d\u00a0entretien", "l'etape d entretien"),
        ("Œuvre de l´Æther — ½", "oeuvre de l'aether — 1⁄2"),  # ligatures; NFKD spells the half out
        ("ŒUVRE", "oeuvre"),
        ("ǅ", "dz"),  # decomposed to ASCII letters and a mark: the mark goes
        ("Straße", "strasse"),
        ("", ""),
    ],
)
def test_fold_ascii_and_other_texts(text, folded):
    assert fold(text) == folded


def test_a_text_loses_its_references_words_as_the_pattern_says():
    from kb.search.text import REFERENCE, without_references

    for text in ("See rule 704.5", "cf. RÈGLES 508.1 et 510", "sections 1 to 3", "ſection 1", "sectıon 2", "SECTİON 3",
                 "rules are rules", "no such word", "a rule", "Règle du jeu", ""):  # fmt: skip
        assert without_references(text) == REFERENCE.sub(" ", text), text
    assert without_references("See rule 704.5") == " 704.5"
    assert without_references("ſection 1") == " 1"  # the pattern's case-blind `s` matches a long s


def test_real_editions_decode():
    src15, d15 = read_source(CR2015, "en", "cr15")
    src26, d26 = read_source(CR2026, "en", "cr26")
    assert src15.encoding == "cp1252" and d15[0].severity == "note"
    assert src26.encoding == "utf-8-sig" and not d26
    assert src15.lines[0] == "Magic: The Gathering Comprehensive Rules"
    assert src26.lines[0] == "Magic: The Gathering Comprehensive Rules"
    assert "’" in "".join(src15.lines[:20])


def test_cp1252_undefined_bytes_are_kept_as_latin1():
    assert decode(b"It\x92s \x81 and \x9d.") == ("It’s \x81 and \x9d.", "cp1252")


def test_content_hash_matches_loader(bundled_kb):
    from kb.sources import content_hash

    from .conftest import CONTENT

    assert content_hash(CONTENT) == bundled_kb.content_hash


def _memo_content(tmp_path, monkeypatch):
    """A content folder of two files, their SHA-256s remembered at once (no wait for them to stand still), and the
    files `content_hash` reads."""
    from kb.sources import digests

    monkeypatch.setattr(digests, "SETTLED", 0.0)
    content = tmp_path / "c"
    write(content / "en" / "cr.txt", "100. General\n\n100.1. Old text.\n")
    write(content / "fr" / "faq.txt", "Une note.\n")
    read = []
    file = digests._file
    monkeypatch.setattr(digests, "_file", lambda path: read.append(path.name) or file(path))
    return content, read


def _unremembered(content) -> str:
    """The hash of a content folder from every byte, no memo."""
    from hashlib import sha256

    from kb.sources import file_digest, find_sources, hash_entry

    digest = sha256()
    for lang, path in find_sources(content):
        digest.update(hash_entry(lang, path, file_digest(path)))
    return digest.hexdigest()


def test_the_content_hash_reads_again_only_the_files_changed(tmp_path, monkeypatch):
    from kb.sources import content_hash
    from kb.sources.digests import memo_file

    content, read = _memo_content(tmp_path, monkeypatch)
    first = content_hash(content)
    assert first == _unremembered(content) and sorted(read) == ["cr.txt", "faq.txt"]
    assert memo_file(content).is_file()
    read.clear()
    assert content_hash(content) == first and read == []  # nothing changed: nothing read
    rule = content / "en" / "cr.txt"
    before = rule.stat()
    rule.write_text("100. General\n\n100.1. New text.\n", encoding="utf-8")  # the same size
    os.utime(rule, ns=(before.st_atime_ns, before.st_mtime_ns))  # and its modification time set back
    changed = content_hash(content)
    assert read == ["cr.txt"] and changed != first and changed == _unremembered(content)


def test_content_folders_side_by_side_keep_their_own_memos(tmp_path, monkeypatch):
    # Two content folders share one build folder (their parent's .kb): each remembers its own files.
    import shutil

    from kb.sources import content_hash

    content, read = _memo_content(tmp_path, monkeypatch)
    other = shutil.copytree(content, tmp_path / "other")
    hashes = [content_hash(content), content_hash(other)]
    read.clear()
    assert [content_hash(content), content_hash(other)] == hashes and read == []


def test_a_file_just_written_is_not_remembered(tmp_path, monkeypatch):
    from kb.sources import content_hash, digests

    content, read = _memo_content(tmp_path, monkeypatch)
    monkeypatch.setattr(digests, "SETTLED", 3600.0)  # every file of the folder is younger than that
    content_hash(content)
    read.clear()
    assert content_hash(content) == _unremembered(content) and sorted(read) == ["cr.txt", "faq.txt"]


@pytest.mark.parametrize("memo", ["forged", "unsigned", "garbage", "wrong shape"])
def test_a_memo_not_signed_here_is_ignored(tmp_path, monkeypatch, memo):
    import json

    from kb.sources import content_hash
    from kb.sources.digests import memo_file
    from kb.sources.keys import sign, signing_key

    content, read = _memo_content(tmp_path, monkeypatch)
    content_hash(content)
    path = memo_file(content)
    body = json.loads(path.read_bytes().rstrip(b"\n").rpartition(b"\n")[0])
    body["en/cr.txt"][-1] = "0" * 64  # a digest planted for the file as it stands
    data = json.dumps(body, sort_keys=True, separators=(",", ":")).encode()
    shape = json.dumps({"en/cr.txt": 5, "fr/faq.txt": [*body["fr/faq.txt"][:5], 7]}).encode()  # signed, malformed

    def signed(text: bytes, key: bytes) -> bytes:
        return text + b"\n" + sign(key, text).encode() + b"\n"

    path.write_bytes({
        "forged": signed(data, b"k" * 32),
        "unsigned": data + b"\n",
        "garbage": b"\xff\x00 not a memo",
        "wrong shape": signed(shape, signing_key()),
    }[memo])  # fmt: skip
    read.clear()
    assert content_hash(content) == _unremembered(content) and sorted(read) == ["cr.txt", "faq.txt"]


def test_utf16_with_bom_is_decoded(tmp_path):
    path = write(tmp_path / "fr" / "a.txt", "120.1. Règle.\r\n".encode("utf-16"))
    source, diags = read_source(path, "fr", "fr/a.txt")
    assert source.lines == ("120.1. Règle.",) and source.encoding == "utf-16"
    assert [d.message for d in diags] == ["decoded as UTF-16 (BOM)"]


def test_dos_code_page_edition_reads_its_letters(tmp_path):
    """The 2006-07-15 edition spells `Dandân` (its glossary's creature types) in DOS code page 437: byte 0x83,
    which Windows-1252 reads as `Dandƒn`."""
    path = FIXTURES / "history" / "cr-en-2006-07-15.txt"
    source, diags = read_source(path, "en", "en/cr-en-2006-07-15.txt")
    assert source.encoding == "cp437"
    assert [d.message for d in diags] == ["not valid UTF-8; decoded as DOS code page 437"]
    result = parse_rules(source, "en/cr-en-2006-07-15")
    types = next(g for g in result.glossary if g.term == "Creature Type").definition
    assert "Dandân" in types and "ƒ" not in "".join(source.lines)


@pytest.mark.parametrize("encoding", ["cp437", "cp850"])
def test_dos_code_page_stretch_reads_card_names(encoding):
    """Rule 700.8 of the 2020-06-01 edition (its Arabian Nights names: Dandân, El-Hajjâj, Ghazbán Ogre, Junún
    Efreet, Ring of Ma'rûf), saved in a DOS code page (`’` as `'`, `™` left out: neither is in it)."""
    path = FIXTURES / f"cr-excerpt-2020-06-01-700.8-{encoding}.txt"
    source, diags = read_source(path, "en", path.name)
    assert source.encoding in ("cp437", "cp850")  # the two read these letters alike
    assert [d.message for d in diags] == [f"not valid UTF-8; decoded as DOS code page {source.encoding[2:]}"]
    rules = {r.number: r for r in parse_rules(source, "en/excerpt").rules}
    assert list(rules) == ["700.8", "700.8a", "700.8b", "700.8c", "701"]
    for name in ("Dandân", "El-Hajjâj", "Ghazbán Ogre", "Junún Efreet", "Ring of Ma'rûf"):
        assert name in rules["700.8a"].text
    original = (FIXTURES / "history" / "cr-en-2020-06-01.txt").read_bytes().decode("utf-8-sig")
    line = next(line for line in original.splitlines() if line.startswith("700.8a "))
    assert rules["700.8a"].text == line.removeprefix("700.8a ").replace("’", "'").replace("™", "")


@pytest.mark.parametrize(
    ("text", "encoding"),
    [
        ("Règle 120.1 : la pioche. « Cf. règle 120.2 » — l’étape", "cp1252"),
        ("It’s “draw”, Partner—[text]", "cp1252"),
        ("Règle de l'étape : pioche, défausse", "cp437"),
        ("Dandân, Ifh-Bíff Efreet, Junún Efreet", "cp437"),
    ],
)
def test_legacy_code_page_is_chosen_by_its_letters(text, encoding):
    assert decode(text.encode(encoding)) == (text, encoding)
