"""`kb build --jobs 2`: the search index written in a forked child while the pages render (`kb.sources.fork`).

The child's work is only ever a speed-up: the same site, byte for byte; a child that fails leaves the work to the
parent, which says what is wrong as it would have without one; a child never outlives its build; and a plain script
calling `build_site` at its top level (no `if __name__ == "__main__":` guard) works.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from kb.sources.fork import can_fork, fork
from tests.killing import rounds, running

from .conftest import CONTENT, ROOT

pytestmark = pytest.mark.skipif(not can_fork(), reason="a forked worker needs Linux and no other thread")


def test_the_child_does_the_work_and_says_it_is_done(tmp_path):
    child = fork(lambda: (tmp_path / "done").write_text("yes"))
    assert child.wait() is None and (tmp_path / "done").read_text() == "yes"
    assert child.wait() is None  # asked again: the same answer, no second wait on the process


def test_a_failing_child_says_why_in_one_line(capfd):
    def work():
        raise ValueError("no room left\nsecond line")

    assert fork(work).wait() == "ValueError: no room left"
    assert capfd.readouterr().err == ""  # no traceback


def test_the_parents_unwritten_output_is_written_once(tmp_path):
    """The child leaves through `os._exit`: what the parent had buffered is not flushed a second time by it."""
    with (tmp_path / "out.txt").open("w", encoding="utf-8") as out:
        out.write("said once")  # buffered, not flushed before the fork
        assert fork(lambda: None).wait() is None
    assert (tmp_path / "out.txt").read_text(encoding="utf-8") == "said once"


def test_a_child_stopped_by_its_parent_is_reaped(tmp_path):
    child = fork(lambda: time.sleep(60))
    started = time.monotonic()
    child.stop()
    assert time.monotonic() - started < 5 and not running(child.pid)
    assert child.wait()  # it did not finish its work: the parent does it


def test_a_child_dies_with_its_parent(tmp_path):
    script = textwrap.dedent(
        f"""
        import sys, time
        sys.path.insert(0, {str(ROOT)!r})
        from kb.sources.fork import fork
        child = fork(lambda: time.sleep(60))
        print(child.pid, flush=True)
        time.sleep(60)
        """
    )
    parent = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    pid = int(parent.stdout.readline())
    assert running(pid)
    os.kill(parent.pid, signal.SIGKILL)
    parent.wait()
    deadline = time.monotonic() + 5
    while running(pid) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not running(pid)


def test_a_build_with_two_jobs_is_the_same_site(bundled_kb, bundled_site, tmp_path):
    """A fresh copy of the bundled content (its index not made yet: the child makes it) built with --jobs 2 gives
    the site `kb build` gives in one process, file for file."""
    from kb.export.api import api_files
    from kb.link.load import load
    from kb.site.write import build_site

    shutil.copytree(CONTENT, tmp_path / "content")
    kb = load(tmp_path / "content")
    report = build_site(kb, tmp_path / "site", extras=api_files(kb), jobs=2)
    assert report.search and report.pages > 0
    assert list((tmp_path / ".kb" / "index").glob("*/CURRENT"))  # made in the content's own slot
    mine = {p.relative_to(report.out) for p in report.out.rglob("*") if p.is_file()}
    theirs = {p.relative_to(bundled_site) for p in bundled_site.rglob("*") if p.is_file()}
    assert mine == theirs
    differ = [str(p) for p in sorted(mine) if (report.out / p).read_bytes() != (bundled_site / p).read_bytes()]
    assert differ == ["kb-site.json"]  # the stamp names the content folder it was built from


def test_a_plain_script_builds_with_two_jobs(tmp_path):
    """No `if __name__ == "__main__":` guard: a forked child starts from the parent's memory and imports nothing."""
    content = tmp_path / "content"
    (content / "fr").mkdir(parents=True)
    shutil.copy(CONTENT / "fr" / "cr-120-piocher-une-carte.txt", content / "fr")
    script = tmp_path / "build.py"
    script.write_text(
        textwrap.dedent(
            f"""
            import sys
            from pathlib import Path
            sys.path.insert(0, {str(ROOT)!r})
            from kb.link.load import load
            from kb.site.write import build_site
            report = build_site(load(Path({str(content)!r})), Path({str(tmp_path / "site")!r}), jobs=2)
            print(report.pages, report.search)
            """
        ),
        encoding="utf-8",
    )
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    pages, search = done.stdout.split()
    assert int(pages) > 0 and search == "True" and (tmp_path / "site" / "search" / "core.json").is_file()


@pytest.mark.slow
def test_builds_with_two_jobs_killed_at_random_moments_leave_nothing_behind(tmp_path):
    """SIGKILL at random moments of `kb build --jobs 2`: the previous site whole, no child left running, nothing
    left beside the site or in the index's slot after the next build."""
    content = tmp_path / "content"
    (content / "fr").mkdir(parents=True)
    (content / "en").mkdir()
    shutil.copy(CONTENT / "fr" / "cr-120-piocher-une-carte.txt", content / "fr")
    shutil.copy(CONTENT / "en" / "cards-dissension-mtgjson5.json", content / "en")
    env = {"XDG_CACHE_HOME": str(tmp_path / "cache")}
    report = rounds(content, tmp_path / "site", kills=4, seed=41, env=env, args=["--jobs", "2"])
    assert report.problems == [] and report.survived == report.kills == 4


def test_a_child_that_cannot_write_its_half_leaves_the_index_to_the_parent(tmp_path, monkeypatch):
    """Whoosh's half failing in the child (a full disk, say): its folder is removed and the build makes the whole
    index in one process, as it would have without a child; the site is whole and nothing is left in the slot."""
    from kb.link.load import load
    from kb.search import build
    from kb.site.write import build_site

    parent, real = os.getpid(), build.whoosh_half

    def failing_in_a_child(*args, **kwargs):
        if os.getpid() != parent:
            (tmp_path / "the child failed").touch()
            raise OSError("No space left on device")
        return real(*args, **kwargs)

    monkeypatch.setattr(build, "whoosh_half", failing_in_a_child)
    content = tmp_path / "content"
    (content / "fr").mkdir(parents=True)
    shutil.copy(CONTENT / "fr" / "cr-120-piocher-une-carte.txt", content / "fr")
    report = build_site(load(content), tmp_path / "site", jobs=2)
    assert (tmp_path / "the child failed").exists()
    assert report.search and (report.out / "search" / "core.json").is_file()
    (slot,) = (tmp_path / ".kb" / "index").iterdir()
    assert sorted(p.name.split("-")[0] for p in slot.iterdir()) == ["CURRENT", "idx"]  # no folder of the child's
