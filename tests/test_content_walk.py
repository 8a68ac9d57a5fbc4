"""The walk of the content folder: every entry it does not read is reported with its path and what kb did."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from kb.cli import main
from kb.sources import content_hash, find_sources, ignored_entries

from .conftest import ROOT, write

RULE = "120.1. The player draws a card.\n"


def check(content: Path, *args: str):
    return CliRunner().invoke(main, ["check", "--content", str(content), *args])


def unreadable(folder: Path, monkeypatch) -> None:
    """Make `folder` unreadable: for real when not root (root reads it anyway), else by refusing to list it."""
    if os.geteuid() != 0:
        folder.chmod(0)  # given back by `restore_modes`
        return
    real_scandir, real_listdir = os.scandir, os.listdir

    def refuse(real):
        def listing(path="."):
            if os.fspath(path) == os.fspath(folder):
                raise PermissionError(13, "Permission denied", os.fspath(path))
            return real(path)

        return listing

    monkeypatch.setattr(os, "scandir", refuse(real_scandir))
    monkeypatch.setattr(os, "listdir", refuse(real_listdir))


@pytest.fixture
def restore_modes(tmp_path):
    """Give back the permissions a test took away, so that tmp_path can be removed."""
    yield
    for path in tmp_path.rglob("*"):
        if path.is_dir() and not path.is_symlink():
            path.chmod(0o755)


def test_unreadable_language_folder_is_an_error_not_a_traceback(tmp_path, monkeypatch, restore_modes):
    content = tmp_path / "c"
    write(content / "en" / "cr.txt", RULE)
    write(content / "fr" / "cr.txt", "120.1. Le joueur pioche.\n")
    unreadable(content / "fr", monkeypatch)
    result = check(content)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    assert "c/fr:0: error: cannot read folder (Permission denied); its files are not read" in result.output
    assert result.exit_code == 1
    assert [lang for lang, _ in find_sources(content)] == ["en"]
    content_hash(content)  # no exception


def test_unreadable_content_folder_is_a_user_error(tmp_path, monkeypatch, restore_modes):
    content = tmp_path / "c"
    write(content / "en" / "cr.txt", RULE)
    unreadable(content, monkeypatch)
    result = check(content)
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert "cannot read the content folder (Permission denied)" in result.output


def test_only_unreadable_language_folders_say_so(tmp_path, monkeypatch, restore_modes):
    content = tmp_path / "c"
    write(content / "fr" / "cr.txt", RULE)
    unreadable(content / "fr", monkeypatch)
    result = check(content)
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert "fr: cannot read folder (Permission denied)" in result.output


def odd_content(root: Path) -> Path:
    """A content folder with one readable rules file and every kind of entry that cannot be read as one."""
    content = root / "c"
    write(content / "en" / "cr.txt", RULE)
    lang = content / "en"
    (lang / "gone.txt").symlink_to(root / "missing.txt")
    (lang / "loop.txt").symlink_to(lang / "loop.txt")
    os.mkfifo(lang / "pipe.txt")
    (lang / "zero.txt").symlink_to("/dev/zero")
    (lang / "folder.json").mkdir()
    (content / "de").symlink_to(root / "nowhere")
    (content / "it").symlink_to(content / "it")
    return content


def test_odd_entries_are_reported_with_what_kb_did(tmp_path):
    content = odd_content(tmp_path)
    shown = {d.path.rsplit("/", 1)[-1]: (d.severity, d.message) for d in ignored_entries(content)}
    assert all(d.path.startswith("c/") and d.line == 0 for d in ignored_entries(content))
    assert shown == {
        "gone.txt": ("warning", f"dangling symlink (its target {tmp_path / 'missing.txt'} does not exist); not read"),
        "loop.txt": ("warning", "symlink loop; not read"),
        "pipe.txt": ("warning", "a named pipe (FIFO), not a regular file; not read (never opened)"),
        "zero.txt": ("warning", "a character device, not a regular file; not read (never opened)"),
        "folder.json": ("warning", "a folder, not a file; not read"),
        "de": ("warning", f"dangling symlink (its target {tmp_path / 'nowhere'} does not exist); folder not read"),
        "it": ("warning", "symlink loop; folder not read"),
    }
    assert find_sources(content) == [("en", content / "en" / "cr.txt")]


def test_odd_entries_never_hang_kb_check(tmp_path):
    """A FIFO or a device opened for reading would block or never end: `kb check` must not open them."""
    content = odd_content(tmp_path)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "kb", "check", "--content", str(content)],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
        cwd=tmp_path,
    )
    assert "Traceback" not in done.stderr + done.stdout
    out = done.stdout + done.stderr
    for name in ("gone.txt", "loop.txt", "pipe.txt", "zero.txt", "folder.json"):
        assert f"c/en/{name}:0: warning: " in out, name
    assert "c/de:0: warning: dangling symlink" in out and "c/it:0: warning: symlink loop" in out
    assert done.returncode == 0, out


def test_content_hash_skips_odd_entries_as_the_loader_does(tmp_path):
    from kb.link.load import load

    content = odd_content(tmp_path)
    assert content_hash(content) == load(content, use_cache=False).content_hash


def test_a_file_beside_the_language_folders_and_an_upper_case_folder_are_warnings(tmp_path):
    from kb.sources.files import ignored_entries

    (tmp_path / "fr").mkdir()
    (tmp_path / "loose.txt").write_text("120.1. Rule.\n", encoding="utf-8")
    (tmp_path / "NOTICE.md").write_text("about this folder", encoding="utf-8")
    (tmp_path / "EN").mkdir()
    said = {Path(d.path).name: (d.severity, d.message) for d in ignored_entries(tmp_path)}
    assert said["loose.txt"][0] == "warning" and "move it into the folder of its language" in said["loose.txt"][1]
    assert said["EN"] == ("warning", "language folders are named in lower case; folder not read: rename it en/")
    assert "NOTICE.md" not in said  # not a kind of file kb reads: nothing to say
