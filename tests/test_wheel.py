"""A normal (non-editable) install ships the templates and the bundled content inside the package."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.conftest import ROOT


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """A fresh virtual environment with kb installed from a freshly built wheel; returns its bin folder."""
    base = tmp_path_factory.mktemp("wheel")
    wheels = base / "dist"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w",
                    str(wheels), str(ROOT)], check=True, capture_output=True)  # fmt: skip
    (wheel,) = wheels.glob("kb-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "kb/data/templates/rule.html" in names and "kb/data/content/fr/faq-discorde-2006.txt" in names
    venv = base / "venv"
    # Dependencies come from this interpreter's site-packages; kb itself only from the wheel.
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True)
    bin_dir = venv / "bin"
    subprocess.run([bin_dir / "python", "-m", "pip", "install", "-q", "--no-deps", "--no-index", str(wheel)],
                   check=True, capture_output=True)  # fmt: skip
    return bin_dir


def test_wheel_runs_check_and_build_from_an_unrelated_folder(installed, tmp_path):
    where = subprocess.run([installed / "python", "-c", "import kb; print(kb.__file__)"], cwd=tmp_path,
                           capture_output=True, text=True, check=True).stdout  # fmt: skip
    assert str(installed.parent) in where, "kb must come from the wheel, not from the checkout"
    check = subprocess.run([installed / "kb", "check"], cwd=tmp_path, capture_output=True, text=True)
    assert check.returncode == 0, check.stderr
    assert "0 errors" in check.stdout
    build = subprocess.run([installed / "kb", "build", "--out", str(tmp_path / "site")], cwd=tmp_path,
                           capture_output=True, text=True)  # fmt: skip
    assert build.returncode == 0, build.stderr
    assert (tmp_path / "site" / "index.html").is_file() and (tmp_path / "site" / "fr" / "rules" / "120.html").is_file()
