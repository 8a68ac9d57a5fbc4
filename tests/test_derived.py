"""Derived files read back (issue 44): nothing kb reads back runs code or reads without bound, a damaged one heals,
and the temporaries of dead processes go at the next run (`kb.sources.atomic`, the one mechanism)."""

from __future__ import annotations

import json
import os
import pickle
import shutil
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from kb.cli import main

from .conftest import CONTENT, write

GOLDEN = CONTENT.parent / "tests" / "fixtures" / "golden-content"


def run(*args: str):
    return CliRunner().invoke(main, list(args))


@pytest.fixture
def golden(tmp_path, monkeypatch) -> Path:
    """A copy of the small bilingual content, with a user cache of its own (the signing key)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))
    return Path(shutil.copytree(GOLDEN, tmp_path / "c"))


def live_index(content: Path) -> Path:
    """The live index folder of a content folder (after a search built it)."""
    slot = next(p for p in (content.parent / ".kb" / "index").iterdir() if not p.name.endswith("-every"))
    return slot / (slot / "CURRENT").read_text().split()[1]


class Evil:
    """What an attacker pickles: unpickling it runs a command."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


# 1. A planted search-index pickle runs no code; CURRENT names a folder of its slot and nothing else.


def test_a_planted_index_toc_runs_no_code_and_is_rebuilt(golden, tmp_path):
    first = run("search", "--content", str(golden), "draw", "--json")
    assert first.exit_code == 0, first.output
    folder = live_index(golden)
    marker = tmp_path / "PWNED"
    for toc in folder.glob("*.toc"):
        toc.write_bytes(pickle.dumps(Evil(marker)))  # what anyone who can write .kb/ can put there
    again = run("search", "--content", str(golden), "draw", "--json")
    assert not marker.exists()
    assert again.exit_code == 0 and "Traceback" not in again.output
    assert "damaged or was not written here" in again.output and "rebuilt" in again.output
    built = run("build", "--content", str(golden), "--out", str(tmp_path / "site"))
    assert built.exit_code == 0 and not marker.exists()


def test_a_planted_index_is_not_opened_by_a_build_either(golden, tmp_path):
    assert run("search", "--content", str(golden), "draw").exit_code == 0
    folder = live_index(golden)
    marker = tmp_path / "PWNED"
    for toc in folder.glob("*.toc"):
        toc.write_bytes(pickle.dumps(Evil(marker)))
    built = run("build", "--content", str(golden), "--out", str(tmp_path / "site"))
    assert built.exit_code == 0, built.output
    assert not marker.exists()


def test_the_index_pointer_names_a_folder_of_its_slot_only(golden, tmp_path):
    assert run("search", "--content", str(golden), "draw").exit_code == 0
    slot = live_index(golden).parent
    key = (slot / "CURRENT").read_text().split()[0]
    outside = tmp_path / "elsewhere"
    shutil.copytree(live_index(golden), outside)
    for name in ("../../../../etc", str(outside), "../../elsewhere"):
        (slot / "CURRENT").write_text(f"{key} {name}\n")
        result = run("search", "--content", str(golden), "draw", "--json")
        assert result.exit_code == 0 and "Traceback" not in result.output, result.output
        assert (slot / "CURRENT").read_text().split()[1].startswith("idx-")  # rebuilt in its slot


def test_an_index_copied_from_elsewhere_is_not_trusted(golden, tmp_path, monkeypatch):
    assert run("search", "--content", str(golden), "draw").exit_code == 0
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "another-user"))  # another user's key: not ours
    again = run("search", "--content", str(golden), "draw", "--json")
    assert again.exit_code == 0 and "was not written here" in again.output


# 4. Derived files are regular files within a bound: a FIFO or a link to /dev/zero is never read.


@pytest.mark.parametrize("kind", ["fifo", "zero", "folder"])
def test_special_files_planted_at_derived_names_are_refused_at_once(golden, tmp_path, kind):
    from kb.link import cache
    from kb.sources import content_hash

    where = cache.cache_file(golden, content_hash(golden))
    where.parent.mkdir(parents=True)
    if kind == "fifo":
        os.mkfifo(where)
    elif kind == "zero":
        where.symlink_to("/dev/zero")
    else:
        where.mkdir()
    start = time.monotonic()
    result = run("check", "--content", str(golden))
    assert time.monotonic() - start < 30
    assert result.exit_code == 0 and "Traceback" not in result.output
    assert "cannot read the load cache" in result.output and "not a regular file" in result.output


def test_a_stamp_or_manifest_that_is_a_fifo_or_dev_zero_is_refused(golden, tmp_path):
    site = tmp_path / "site"
    assert run("build", "--content", str(golden), "--out", str(site)).exit_code == 0
    (site / "kb-manifest.json").unlink()
    (site / "kb-manifest.json").symlink_to("/dev/zero")
    start = time.monotonic()
    again = run("build", "--content", str(golden), "--out", str(site))
    assert again.exit_code == 0 and "Traceback" not in again.output, again.output
    assert time.monotonic() - start < 60
    (site / "kb-site.json").unlink()
    os.mkfifo(site / "kb-site.json")
    start = time.monotonic()
    third = run("build", "--content", str(golden), "--out", str(site))
    assert time.monotonic() - start < 60 and "Traceback" not in third.output


def test_bounded_reads_refuse_what_is_not_a_small_regular_file(tmp_path):
    from kb.sources.bounded import NotRegular, TooLarge, read_regular

    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "zero").symlink_to("/dev/zero")
    big = tmp_path / "sparse"
    with big.open("wb") as f:
        f.truncate(1 << 40)  # a terabyte, sparse: costs nothing to make, everything to read
    with pytest.raises(NotRegular):
        read_regular(tmp_path / "fifo", 100)
    with pytest.raises(NotRegular, match="character device"):
        read_regular(tmp_path / "zero", 100)
    with pytest.raises(TooLarge):
        read_regular(big, 1 << 20)
    assert read_regular(write(tmp_path / "small", b"abc"), 3) == b"abc"


# 11. A damaged index makes `kb build` rebuild it, as `kb search` does.


DAMAGES = ["truncate-seg", "empty-seg", "manifest", "toc", "delete-toc", "seal", "extra", "pointer"]


@pytest.mark.parametrize("damage", DAMAGES)
def test_a_damaged_index_is_rebuilt_by_kb_build(golden, tmp_path, damage):
    site = tmp_path / "site"
    assert run("build", "--content", str(golden), "--out", str(site)).exit_code == 0
    folder = live_index(golden)
    segment = max(folder.glob("*.seg"), key=lambda p: p.stat().st_size)
    toc = next(folder.glob("*.toc"))
    if damage == "truncate-seg":
        segment.write_bytes(segment.read_bytes()[:100])
    elif damage == "empty-seg":
        segment.write_bytes(b"")
    elif damage == "manifest":
        (folder / "export" / "manifest.json").write_bytes((folder / "export" / "manifest.json").read_bytes()[:-20])
    elif damage == "toc":
        toc.write_bytes(toc.read_bytes()[:10])
    elif damage == "delete-toc":
        toc.unlink()
    elif damage == "seal":
        (folder / "kb-seal.json").write_text("{}")
    elif damage == "extra":
        (folder / "_MAIN_99.toc").write_bytes(b"planted")
    else:
        (folder.parent / "CURRENT").write_text("garbage")
    shutil.rmtree(site)  # so that the build does not stop at an up-to-date site
    rebuilt = run("build", "--content", str(golden), "--out", str(site))
    assert rebuilt.exit_code == 0 and "Traceback" not in rebuilt.output, rebuilt.output
    found = run("search", "--content", str(golden), "draw", "--json")
    assert found.exit_code == 0 and "damaged" not in found.output  # healed by the build


# 16. Temporaries of dead processes go at the next run: one mechanism, one test of a live process.


def test_atomic_writes_replace_whole_and_clean_what_dead_writers_left(tmp_path):
    from kb.sources import atomic

    target = write(tmp_path / "out.json", "old")
    dead = write(tmp_path / ".out.json.tmp-999999999-abcd1234", "half")
    mine = write(tmp_path / f".out.json.tmp-{os.getpid()}-abcd1234", "being written")
    atomic.remove_stale(tmp_path)
    assert not dead.exists() and mine.exists()  # this process may still be writing its own
    with pytest.raises(RuntimeError), atomic.replacing(target, "w", encoding="utf-8") as f:
        f.write("new")
        raise RuntimeError("failed midway")
    assert target.read_text() == "old" and sorted(p.name for p in tmp_path.iterdir()) == [mine.name, "out.json"]
    atomic.write_text(target, "new")
    assert target.read_text() == "new"
    assert atomic.alive(os.getpid()) and not atomic.alive(999999999) and not atomic.alive(0)


def test_the_four_writers_share_one_mechanism():
    import inspect

    from kb.commands import options
    from kb.link import cache
    from kb.search import store
    from kb.site import output

    for module in (cache, store, output, options):
        source = inspect.getsource(module)
        assert "atomic." in source, module.__name__
        assert "def _alive" not in source and "mkstemp" not in source and "os.kill" not in source, module.__name__


def test_index_builds_of_dead_processes_are_removed_at_the_next_build(golden, tmp_path):
    assert run("search", "--content", str(golden), "draw").exit_code == 0
    slot = live_index(golden).parent
    dead = slot / "tmp-0123456789ab-999999999-abcdef"
    write(dead / "_MAIN_1.toc", b"x" * 1000)
    os.utime(dead, (time.time(), time.time()))  # young: only its dead process tells it is abandoned
    site = tmp_path / "site"
    assert run("build", "--content", str(golden), "--out", str(site)).exit_code == 0
    write(golden / "en" / "extra.txt", "100.9. Another rule.\n")  # a change: the index is made again
    dead.mkdir(exist_ok=True)
    assert run("build", "--content", str(golden), "--out", str(site), "--force").exit_code == 0
    assert not dead.exists()


# 18. `.kb/` read-only or full: the build goes on with the index in the user's cache; an old site that cannot be
# removed at once is removed at the next run.


def test_a_full_build_folder_moves_the_index_to_the_users_cache(golden, tmp_path, monkeypatch):
    real = Path.mkdir

    def full(self, *args, **kwargs):  # what a full .kb/ answers (a read-only one, or a file in the way: the next test)
        if ".kb" in self.parts and "user-cache" not in self.parts:
            raise OSError(28, "No space left on device", str(self))
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Path, "mkdir", full)
    result = run("search", "--content", str(golden), "draw", "--json")
    assert result.exit_code == 0, result.output
    assert "kept in memory" not in result.output and json.loads(result.output)["results"]
    assert list((tmp_path / "user-cache" / "kb" / "index").glob("*/CURRENT"))
    again = run("search", "--content", str(golden), "draw", "--json")
    assert again.output == result.output  # the index in the user's cache is found again, not rebuilt


def test_an_old_site_that_resists_removal_goes_at_the_next_build(golden, tmp_path):
    site = tmp_path / "site"
    assert run("build", "--content", str(golden), "--out", str(site)).exit_code == 0
    locked = site / "mine" / "locked"
    write(locked / "file.txt", "a file of the user's in a read-only folder")
    locked.chmod(0o500)
    try:
        assert run("build", "--content", str(golden), "--out", str(site), "--force").exit_code == 0
        assert run("build", "--content", str(golden), "--out", str(site), "--force").exit_code == 0
        assert not [p.name for p in tmp_path.iterdir() if p.name.startswith(".site.")]
    finally:
        for path in (site / "mine" / "locked", *tmp_path.glob(".site.*/mine/locked")):
            if path.exists():
                path.chmod(0o700)


def test_json_files_are_written_whole(tmp_path):
    out = tmp_path / "kb.json"
    result = run("export", "--content", str(GOLDEN), "-o", str(out))
    assert result.exit_code == 0, result.output
    assert json.loads(out.read_text(encoding="utf-8"))
    assert [p.name for p in tmp_path.iterdir()] == ["kb.json"]
