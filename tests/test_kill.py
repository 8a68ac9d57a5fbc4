"""`kill -9` during `kb build` (issue 44, item 16 and the target of 20 of 20): the previous site whole, nothing left
after the next build, no process of the killed build still running."""

from __future__ import annotations

import shutil

import pytest

from tests.killing import rounds

from .conftest import CONTENT


@pytest.mark.slow
def test_builds_killed_at_random_moments_leave_a_whole_site_and_nothing_behind(tmp_path):
    content = tmp_path / "content"
    for lang, names in {"fr": ["cr-120-piocher-une-carte.txt", "faq-discorde-2006.txt"], "en": []}.items():
        for name in names:
            (content / lang).mkdir(parents=True, exist_ok=True)
            shutil.copy(CONTENT / lang / name, content / lang / name)
    (content / "en").mkdir(parents=True, exist_ok=True)
    shutil.copy(CONTENT / "en" / "cards-dissension-mtgjson5.json", content / "en")
    env = {"XDG_CACHE_HOME": str(tmp_path / "cache")}
    report = rounds(content, tmp_path / "site", kills=6, seed=44, env=env, args=["--jobs", "1"])  # --jobs 2: test_fork
    assert report.problems == [] and report.survived == report.kills == 6
