"""Golden files: a small bilingual build diffed against tests/golden/.

Regenerate after an intended change with:  KB_REGEN_GOLDEN=1 python -m pytest tests/test_golden.py
"""

from __future__ import annotations

import difflib
import json
import os
import shutil
from pathlib import Path

import pytest

from tests.conftest import FIXTURES, ROOT

GOLDEN = ROOT / "tests" / "golden"
SKIPPED = ("static",)
VOLATILE = ("content_hash", "kb_version", "templates_hash", "seal")


def built_files(site: Path) -> dict[str, str]:
    """Relative path -> text of every generated file (static assets aside; the build has no search index)."""
    return {
        p.relative_to(site).as_posix(): _masked(p)
        for p in sorted(site.rglob("*"))
        if p.is_file() and not p.relative_to(site).parts[0].startswith(SKIPPED)
    }


def _masked(path: Path) -> str:
    """A file's text; in the stamp, the hashes and version (which change with any edit) are masked."""
    text = path.read_text(encoding="utf-8")
    if path.name != "kb-site.json":
        return text
    stamp = json.loads(text)
    return json.dumps({k: "*" if k in VOLATILE else v for k, v in stamp.items()}, indent=1, sort_keys=True) + "\n"


@pytest.fixture(scope="module")
def golden_build(tmp_path_factory) -> dict[str, str]:
    """The golden content built without a search index (the HTML is what we compare)."""
    from kb.link.load import load
    from kb.site.write import build_site

    site = build_site(load(FIXTURES / "golden-content"), tmp_path_factory.mktemp("golden") / "site", search=False)
    return built_files(site.out)


def test_golden_site(golden_build):
    if os.environ.get("KB_REGEN_GOLDEN"):
        shutil.rmtree(GOLDEN, ignore_errors=True)
        for rel, text in golden_build.items():
            (GOLDEN / rel).parent.mkdir(parents=True, exist_ok=True)
            (GOLDEN / rel).write_text(text, encoding="utf-8")
        pytest.skip("golden files regenerated")
    expected = built_files(GOLDEN) if GOLDEN.is_dir() else {}
    assert sorted(golden_build) == sorted(expected), "files differ; regenerate with KB_REGEN_GOLDEN=1 if intended"
    for rel, text in golden_build.items():
        if text != expected[rel]:
            diff = difflib.unified_diff(
                expected[rel].splitlines(), text.splitlines(), f"golden/{rel}", "built", lineterm=""
            )
            pytest.fail("\n".join(list(diff)[:60]) + "\n(regenerate with KB_REGEN_GOLDEN=1 if intended)")


def test_golden_build_is_deterministic(golden_build, tmp_path):
    from kb.link.load import load
    from kb.site.write import build_site

    again = build_site(load(FIXTURES / "golden-content"), tmp_path / "site", search=False)
    assert built_files(again.out) == golden_build
