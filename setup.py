"""Ship the top-level `templates/` and `content/` inside the package (as `kb/data/`) when building a wheel.

They stay at the project's top level (the user's design); an editable install reads them there directly.
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

DATA = ("templates", "content")


class BuildPyWithData(build_py):
    """Copy the bundled templates and content into `kb/data/` of the build."""

    def run(self) -> None:
        super().run()
        here = Path(__file__).resolve().parent
        for name in DATA:
            target = Path(self.build_lib) / "kb" / "data" / name
            if target.exists():
                shutil.rmtree(target)
            shutil.copytree(here / name, target, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))


setup(cmdclass={"build_py": BuildPyWithData})
