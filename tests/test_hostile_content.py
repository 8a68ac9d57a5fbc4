"""Hostile content (issue 44): each measured defect of the text kinds, reproduced as it was reported."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from kb.cli import main
from kb.link.load import load

from . import hostile
from .conftest import CONTENT, ROOT, run_kb_as_user, write

GOLDEN = CONTENT.parent / "tests" / "fixtures" / "golden-content"


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def content_of(tmp_path: Path, files: dict[str, bytes]) -> Path:
    """The small rules file and `files`."""
    return hostile.make(tmp_path, files)


def every_command(content: Path, tmp_path: Path, show: str = "100.1") -> dict[str, object]:
    """check, build (forced), search and show on a content folder: their results by name."""
    site = tmp_path / "site"
    results = {
        "check": run("check", "--content", str(content)),
        "build": run("build", "--content", str(content), "--out", str(site), "--force"),
        "search": run("search", "draw", "--content", str(content)),
        "show": run("show", show, "--content", str(content)),
    }
    for name, result in results.items():
        assert result.exception is None or isinstance(result.exception, SystemExit), (name, result.exception)
        assert "Traceback" not in result.output, name
    return results


PEAK = (
    "import atexit, os, runpy, sys\n"
    "def peak():\n"
    "    hwm = next(l for l in open('/proc/self/status') if l.startswith('VmHWM:'))\n"
    "    open(os.environ['KB_PEAK_FILE'], 'w').write(hwm.split()[1])\n"
    "atexit.register(peak)\n"
    "sys.argv = ['kb', *sys.argv[1:]]\n"
    "runpy.run_module('kb', run_name='__main__')\n"
)
"""kb run so that it writes its own peak resident memory at exit (VmHWM, in kB): ru_maxrss would count the pytest
worker it was forked from (Linux keeps the pre-exec peak), hundreds of MB late in a suite."""


def peak_of(args: list[str], env: dict | None = None) -> tuple[int, float, str]:
    """Run kb in a process of its own: its peak resident memory (bytes), seconds and standard error."""
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        peak_file = Path(folder) / "peak"
        child = subprocess.run(
            [sys.executable, "-c", PEAK, *args],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            env={**os.environ, "PYTHONPATH": str(ROOT), "KB_PEAK_FILE": str(peak_file), **(env or {})},
            check=False,
        )
        return int(peak_file.read_text()) * 1024, time.perf_counter() - start, child.stderr.decode()


# 3. A rule number, or the end of a cited range, of thousands of digits.


def test_rule_numbers_of_thousands_of_digits_are_no_traceback(tmp_path):
    content = content_of(tmp_path, hostile.cr_digits(20_000))
    results = every_command(content, tmp_path)
    assert results["check"].exit_code == 0
    assert "digits after its dot (the rules use at most 5); check the number" in results["check"].output
    assert results["build"].exit_code == 0 and results["show"].exit_code == 0


# 4. Content files: the size checked before a byte is read or hashed.


@pytest.mark.parametrize("name", ["en/huge.txt", "fr/lexique-huge.json"])
def test_a_sparse_file_of_a_gigabyte_is_refused_without_reading_it(tmp_path, name):
    content = content_of(tmp_path, {})
    path = content / name
    path.parent.mkdir(exist_ok=True)
    with path.open("wb") as f:
        if name.endswith(".json"):
            f.write(b'{"format": "kb-lexicon/1", "cards": 1, "entries": [')
        f.truncate(1 << 30)  # sparse: nothing on disk, a gigabyte to whoever reads it
    peak, seconds, said = peak_of(["check", "--content", str(content)], {"XDG_CACHE_HOME": str(tmp_path / "cache")})
    assert "Traceback" not in said and seconds < 30
    assert peak < 300 << 20, f"{peak >> 20} MB"  # it read the whole gigabyte, twice: 1-2 GB
    kb = load(content, use_cache=False)
    said = [d for d in kb.diagnostics if d.path.endswith(name.split("/")[1])]
    assert said and said[0].severity == "error" and ("over the" in said[0].message or "limit" in said[0].message)


def test_a_fifo_or_a_link_to_dev_zero_in_the_content_is_never_opened(tmp_path):
    content = content_of(tmp_path, {})
    os.mkfifo(content / "en" / "pipe.txt")
    (content / "en" / "zero.txt").symlink_to("/dev/zero")
    start = time.monotonic()
    result = run("check", "--content", str(content))
    assert time.monotonic() - start < 30 and "Traceback" not in result.output
    assert "a named pipe (FIFO), not a regular file" in result.output and "a character device" in result.output


# 7. Content holding kb's own tooltip marks: a warning, a site built, kb's words never put in the text.


def test_tooltip_marks_in_content_neither_break_the_build_nor_speak_for_kb(tmp_path):
    mark = "\x1emissing\x1f100.2\x1e"
    content = tmp_path / "c"
    write(content / "en" / "cr.txt", f"100. General\n\n100.1. Draw.\n\n100.9. A rule {mark} here.\n")
    results = every_command(content, tmp_path, "100.9")
    assert "control character U+001E" in results["check"].output
    assert results["build"].exit_code == 0, results["build"].output
    page = (tmp_path / "site" / "en" / "rules" / "100.html").read_text(encoding="utf-8")
    assert "\x1e" not in page and "\x1f" not in page
    assert "\ufffdmissing\ufffd100.2\ufffd here" in page  # the text as written, no tooltip words of kb's in it


def test_tooltip_marks_in_card_data_are_replaced_too(tmp_path):
    card = {"name": "Marked \x1emissing\x1f1\x1e", "text": "x\x1fy", "type": "Instant", "printings": ["TST"]}
    data = {"meta": {}, "data": {"code": "TST", "name": "T", "cards": [card]}}
    content = content_of(tmp_path, {"en/cards.json": json.dumps(data).encode()})
    kb = load(content, use_cache=False)
    assert all("\x1e" not in c.names["en"] and "\x1f" not in c.faces[0].text for c in kb.cards)
    assert any("control characters (replaced by U+FFFD)" in d.message for d in kb.diagnostics)
    assert run("build", "--content", str(content), "--out", str(tmp_path / "site"), "--force").exit_code == 0


# 8. Memory per byte: a file of countless short lines is refused before it costs anything; text within the budget
# costs under ten times its size.


def test_a_file_of_countless_short_lines_is_refused_at_once(tmp_path):
    content = content_of(tmp_path, hostile.cr_newlines(20_000_000))
    peak, seconds, said = peak_of(["check", "--content", str(content)], {"XDG_CACHE_HOME": str(tmp_path / "cache")})
    assert peak < 250 << 20, f"{peak >> 20} MB"  # 2.8 GB before
    kb = load(content, use_cache=False)
    assert any("not a rules or FAQ text" in d.message for d in kb.diagnostics)


@pytest.mark.slow
@pytest.mark.parametrize(
    "kind",
    [
        "cr-wrapped_lines",
        "cr-duplicates",
        "cr-long_word",
        "faq-many_rulings",
    ],
)
def test_text_within_the_budget_costs_under_ten_times_its_size(tmp_path, kind):
    size = 8 << 20
    base, _, _ = peak_of(["check", "--content", str(content_of(tmp_path / "base", {}))])
    files = hostile.KINDS[kind][1](size)
    content = content_of(tmp_path / "kind", files)
    peak, _, said = peak_of(["check", "--content", str(content)], {"XDG_CACHE_HOME": str(tmp_path / "cache")})
    assert "Traceback" not in said
    assert (peak - base) / sum(map(len, files.values())) < 10, f"{(peak - base) >> 20} MB over the base"


# 10. Diagnostics are bounded per file and severity; files that clash report one another once.


def test_countless_duplicate_rules_print_a_bounded_number_of_lines(tmp_path):
    content = content_of(tmp_path, hostile.cr_duplicates(2_000_000))
    result = run("check", "--content", str(content))
    lines = [line for line in result.output.splitlines() if "cr-x.txt" in line]
    assert len(lines) < 250, len(lines)
    assert any("more errors in this file, not listed" in line for line in lines)


def test_rules_files_of_one_date_report_one_another_once(tmp_path):
    content = content_of(tmp_path, hostile.cr_many_files(400 * 200))
    result = run("check", "--content", str(content))
    assert result.exception is None or isinstance(result.exception, SystemExit)
    clashes = [line for line in result.output.splitlines() if "same language and date" in line]
    assert 0 < len(clashes) <= 400  # 80,000 lines before


# 13. `kb show` of a rule that is one word of megabytes.


def test_show_wraps_a_giant_word_in_linear_time(tmp_path):
    content = content_of(tmp_path, {"en/cr-x.txt": b"100. General\n\n100.9. " + b"x" * 99_000 + b"\n"})
    start = time.monotonic()
    result = run("show", "100.9", "--content", str(content))
    assert result.exit_code == 0 and time.monotonic() - start < 20
    from kb.sources.text import wrap

    start = time.monotonic()
    assert len(wrap("x" * 5_000_000, 80)) == 62_500 and time.monotonic() - start < 10  # 50 MB: minutes before


# 14. A language folder that can be listed but not entered (as a user other than root).


def test_a_folder_that_can_be_listed_but_not_entered_is_no_traceback():
    with tempfile.TemporaryDirectory(dir="/tmp") as tmp:
        root = Path(tmp)
        root.chmod(0o755)
        content = hostile.make(root, {"fr/cr-fr.txt": b"100. Genre\n\n100.1. Une regle.\n"})
        (content / "fr").chmod(0o644)  # its names can be read, its files not reached
        for args in (["check"], ["show", "100.1"], ["search", "draw"], ["build", "--out", str(root / "site")]):
            done = run_kb_as_user([*args, "--content", str(content)], root)
            assert b"Traceback" not in done.stderr, (args, done.stderr.decode()[-800:])
        said = run_kb_as_user(["check", "--content", str(content)], root).stdout.decode()
        assert "cr-fr.txt" in said and "cannot read" in said


# 15. Glossary links in linear time.


def test_glossary_links_grow_linearly_with_the_glossary(tmp_path):
    from kb.site.glossary import glossary_entries, see_links

    def seconds(count: int) -> float:
        kb = load(content_of(tmp_path / str(count), hostile.cr_glossary(count * 120)), use_cache=False)
        start = time.perf_counter()
        see_links(kb, glossary_entries(kb)[0])
        return time.perf_counter() - start

    small, large = seconds(2_000), seconds(16_000)
    assert large < 1 + 16 * small, f"2,000 entries {small:.2f} s, 16,000 entries {large:.2f} s"


# 18. A lexicon with NaN; bidirectional controls on the terminal.


def test_a_lexicon_with_nan_is_refused_and_json_output_stays_json(tmp_path):
    content = content_of(tmp_path, hostile.lexicon_nan(50_000))
    kb = load(content, use_cache=False)
    said = [d for d in kb.diagnostics if d.path.endswith("lexique-x.json")]
    assert said and said[0].severity == "error" and "NaN is not a JSON number" in said[0].message
    shutil.copy(CONTENT / "en" / "cards-dissension-mtgjson5.json", content / "en")
    result = run("lexicon", "--json", "--content", str(content))
    assert "NaN" not in result.output and json.loads(result.output)["format"] == "kb-lexicon/1"


@pytest.mark.parametrize("args", [["show", "100.1"], ["search", "draw"], ["check"]])
def test_bidirectional_controls_are_shown_escaped(tmp_path, args):
    content = tmp_path / "c"
    write(content / "en" / "cr.txt", "100. General\n\n100.1. Draw \u202eevil\u202c text.\n")
    result = run(*args, "--content", str(content))
    assert "\u202e" not in result.output
    if args[0] != "check":
        assert "\\u202e" in result.output
    found = run("search", "draw", "--json", "--content", str(content))
    assert "\u202e" not in found.output and "\\u202e" in found.output
