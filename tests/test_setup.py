"""The README's two commands: the first (a virtual environment, kb installed, the site built) in a clean clone
with a Python that refuses system installs (PEP 668); the second is what `.ci/run` runs."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

README = ROOT / "README.md"


def readme_command(start: str) -> str:
    """The README's command line that starts with `start` (there must be exactly one)."""
    found = [line for line in README.read_text(encoding="utf-8").splitlines() if line.startswith(start)]
    assert len(found) == 1, f"README: {len(found)} lines start with {start!r}"
    return found[0]


BUILD = "python3 -m venv .venv && .venv/bin/pip install -e . "
TEST = "python3 -m venv .venv && .venv/bin/pip install -e '.[test]' "


def test_ci_runs_the_readmes_test_command():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert readme_command(TEST) in ci
    assert "set -euo pipefail" in ci
    assert readme_command(BUILD).endswith("&& .venv/bin/kb build")
    assert readme_command(TEST).endswith("&& .venv/bin/python -m pytest")


def externally_managed() -> list:
    """Debian's or Ubuntu's system Python when it is here and marked externally managed (PEP 668), with venv."""
    system = Path("/usr/bin/python3")
    probe = "import sysconfig, ensurepip; print(sysconfig.get_path('stdlib'))"
    if not system.is_file():
        return [pytest.param(None, marks=pytest.mark.skip(reason="no /usr/bin/python3 on this machine"))]
    found = subprocess.run([system, "-c", probe], capture_output=True, text=True)
    if found.returncode != 0:
        reason = "/usr/bin/python3 cannot make a venv (on Debian: apt-get install python3-venv)"
        return [pytest.param(None, marks=pytest.mark.skip(reason=reason))]
    if not (Path(found.stdout.strip()) / "EXTERNALLY-MANAGED").is_file():
        reason = "/usr/bin/python3 is not marked externally managed (PEP 668)"
        return [pytest.param(None, marks=pytest.mark.skip(reason=reason))]
    return [pytest.param(system, id="system-python")]


def this_python() -> Path:
    """The interpreter running the tests, outside any venv it may be in."""
    return Path(getattr(sys, "_base_executable", sys.executable))


def interpreters() -> list:
    """The Python a fresh Debian or Ubuntu machine has (externally managed: the README's case), or, where there is
    none, the one running the tests: one clean-clone install, as each takes minutes."""
    system = externally_managed()
    if any(p.values[0] is not None for p in system):
        return system
    return [*system, pytest.param(this_python(), id="this-python")]


@pytest.mark.slow
@pytest.mark.parametrize("python", interpreters())
def test_first_command_builds_the_site_in_a_clean_clone(python, tmp_path):
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout (or no git): nothing to clone")
    clone = tmp_path / "kb"
    subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True, capture_output=True)
    bin_dir = tmp_path / "bin"  # `python3` on the PATH is the interpreter under test, and nothing else of ours
    bin_dir.mkdir()
    (bin_dir / "python3").symlink_to(python)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    env["PATH"] = os.pathsep.join((str(bin_dir), "/usr/bin", "/bin"))
    command = readme_command(BUILD)
    run = subprocess.run(["bash", "-c", command], cwd=clone, env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    assert "Built " in run.stdout and (clone / "site" / "fr" / "rules" / "121.html").is_file()
