"""A normal (non-editable) install ships the templates and the bundled content inside the package."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.conftest import ROOT

# both tests share one module-scoped install: kept in one test process (the `loadgroup` distribution, pyproject.toml)
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("wheel")]

# what a wheel is built from: the rest of the checkout (tests, a virtual environment, a built site) is not needed
SOURCES = ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "kb", "templates", "content")


def clean_env() -> dict[str, str]:
    """This process's environment without what would let the venv reach this checkout or another environment."""
    return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """A fresh virtual environment (no system site-packages) with kb installed from a freshly built wheel and its
    dependencies from the package index; returns its bin folder."""
    base = tmp_path_factory.mktemp("wheel")
    # built from a copy: setuptools builds in the source tree (`build/`, `kb.egg-info/`), and a build in the checkout
    # would race with any other build of it (a second test process, the developer's own `pip install`)
    source = base / "source"
    source.mkdir()
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy2(ROOT / name, source / name)
    wheels = base / "dist"
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w",
                            str(wheels), str(source)], capture_output=True, text=True)  # fmt: skip
    assert built.returncode == 0, built.stderr
    (wheel,) = wheels.glob("kb-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "kb/data/templates/rule.html" in names and "kb/data/content/fr/faq-discorde-2006.txt" in names
    venv = base / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, env=clean_env())
    bin_dir = venv / "bin"
    install = subprocess.run([bin_dir / "python", "-m", "pip", "install", "-q", str(wheel)], capture_output=True,
                             text=True, env=clean_env())  # fmt: skip
    assert install.returncode == 0, install.stderr
    return bin_dir


def test_wheel_installs_with_its_dependencies_in_an_isolated_venv(installed, tmp_path):
    probe = "import sys, ijson, kb; print(sys.prefix != sys.base_prefix, ijson.__file__, kb.__file__, sep='\\n')"
    found = subprocess.run([installed / "python", "-c", probe], cwd=tmp_path, capture_output=True, text=True,
                           env=clean_env(), check=True).stdout.split("\n")  # fmt: skip
    assert found[0] == "True"
    venv = str(installed.parent)
    assert found[1].startswith(venv), "the dependencies must be installed in the venv, not reached elsewhere"
    assert found[2].startswith(venv), "kb must come from the wheel, not from the checkout"


def test_wheel_runs_check_and_build_from_an_unrelated_folder(installed, tmp_path):
    check = subprocess.run([installed / "kb", "check"], cwd=tmp_path, capture_output=True, text=True, env=clean_env())
    assert check.returncode == 0, check.stderr
    assert "0 errors" in check.stdout
    build = subprocess.run([installed / "kb", "build", "--out", str(tmp_path / "site")], cwd=tmp_path,
                           capture_output=True, text=True, env=clean_env())  # fmt: skip
    assert build.returncode == 0, build.stderr
    assert (tmp_path / "site" / "index.html").is_file() and (tmp_path / "site" / "fr" / "rules" / "120.html").is_file()
