"""Default locations: the bundled content and templates, the build folder (caches), the project folder.

From a checkout (or an editable install) the data is the project's top-level `content/` and `templates/`;
from an installed wheel it is the copy shipped inside the package (`kb/data/`), mapped there at build time.
"""

from __future__ import annotations

import os
from hashlib import sha256
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1]
"""The `kb` package folder."""
_CHECKOUT = PACKAGE.parent
CHECKOUT = (_CHECKOUT / "pyproject.toml").is_file() and (_CHECKOUT / "templates").is_dir()
"""Whether kb runs from a source checkout (data at the top level) rather than an installed wheel."""
PROJECT = _CHECKOUT if CHECKOUT else PACKAGE
"""The folder that holds kb's own files: never a build target."""


def data_dir(name: str) -> Path:
    """The folder of bundled data `name` (`templates`, `content`), from the checkout or the wheel."""
    return _CHECKOUT / name if CHECKOUT else PACKAGE / "data" / name


TEMPLATES = data_dir("templates")
BUNDLED_CONTENT = data_dir("content")


def default_content() -> Path:
    """`./content` when it exists, else the bundled content."""
    here = Path("content")
    return here if here.is_dir() else BUNDLED_CONTENT


def build_dir(content: Path) -> Path:
    """The build folder for a content folder: `<content>/../.kb`, or a user cache when that is not writable."""
    parent = content.resolve().parent
    if os.access(parent, os.W_OK) or (parent / ".kb").is_dir() and os.access(parent / ".kb", os.W_OK):
        return parent / ".kb"
    return user_cache() / sha256(str(content.resolve()).encode("utf-8", "surrogateescape")).hexdigest()[:16]


def user_cache() -> Path:
    """kb's folder in the user's cache (`$XDG_CACHE_HOME/kb`, else `~/.cache/kb`)."""
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "kb"
