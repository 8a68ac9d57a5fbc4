"""Shared fixtures: the project's paths and a few content folders built in tmp_path."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CONTENT = ROOT / "content"
FIXTURES = ROOT / "tests" / "fixtures"
CR2015 = FIXTURES / "cr-en-20150926.txt"
CR2026 = FIXTURES / "cr-en-20260116.txt"


@pytest.fixture(scope="session")
def bundled_kb():
    """The knowledge base of the bundled content."""
    from kb.link.load import load

    return load(CONTENT)


@pytest.fixture(scope="session")
def bundled_site(bundled_kb, tmp_path_factory) -> Path:
    """The bundled content built as `kb build` builds it (pages, search index, JSON API), once per test process:
    tests read it and never change it."""
    from kb.export.api import api_files
    from kb.site.write import build_site

    return build_site(bundled_kb, tmp_path_factory.mktemp("bundled") / "site", extras=api_files(bundled_kb)).out


def make_2015_content(root: Path) -> Path:
    """A content folder with the 2015 English CR and the French seeds."""
    content = root / "content"
    (content / "en").mkdir(parents=True)
    (content / "fr").mkdir()
    shutil.copy(CR2015, content / "en" / "cr-en-20150926.txt")
    for path in (CONTENT / "fr").glob("*.txt"):
        shutil.copy(path, content / "fr" / path.name)
    return content


@pytest.fixture(scope="session")
def content_2015(tmp_path_factory) -> Path:
    """Content folder: 2015 English CR + French seeds."""
    return make_2015_content(tmp_path_factory.mktemp("c2015"))


@pytest.fixture(scope="session")
def kb_2015(content_2015):
    """The knowledge base of the 2015 English CR + French seeds."""
    from kb.link.load import load

    return load(content_2015)


def write(path: Path, text: str | bytes) -> Path:
    """Write a file, creating folders."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def jump_of(site: Path) -> dict:
    """A built site's jump map as its pages read it: the rule numbers decoded, the card names' shards merged."""
    import json

    jump = json.loads((site / "jump.json").read_text(encoding="utf-8"))
    cards: dict[str, str] = {}
    for k in range(jump["cards"]):
        cards.update(json.loads((site / f"jump-cards-{k}.json").read_text(encoding="utf-8")))
    numbers = dict(jump["numbers"]["bare"])  # as kbtext.js's jumpNumbers reads them
    for path, anchored in jump["numbers"]["pages"].items():
        numbers.update((n, f"{path}#{n}") for n in anchored)
    return {**jump, "numbers": numbers, "cards": cards}


NOBODY = 65534
"""The user the permission tests run kb as when they run as root (root reads and removes anything)."""


def run_kb_as_user(args: list[str], root: Path, timeout: float = 300):
    """Run `python -m kb ARGS` as an ordinary user, in the folder `root` (made theirs when the tests run as root, with
    an interpreter that user can run: the virtual environment's may sit in root's home)."""
    import os
    import site
    import subprocess
    import sys

    env = {**os.environ, "HOME": str(root), "XDG_CACHE_HOME": str(root / "cache")}
    user = {}
    python = sys.executable
    if os.geteuid() == 0:
        for path in [root, *root.rglob("*")]:
            os.chown(path, NOBODY, NOBODY, follow_symlinks=False)
        python = "/usr/bin/python3" if os.access("/usr/bin/python3", os.X_OK) else sys.executable
        env["PYTHONPATH"] = os.pathsep.join([str(ROOT), *site.getsitepackages()])
        user = {"user": NOBODY, "group": NOBODY, "extra_groups": []}
    else:
        env["PYTHONPATH"] = str(ROOT)
    return subprocess.run([python, "-m", "kb", *args], capture_output=True, env=env, cwd=root, timeout=timeout, **user)
