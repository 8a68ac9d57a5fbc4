"""Default locations: the content folder, the build folder (search index cache), the site folder."""

from __future__ import annotations

from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent


def default_content() -> Path:
    """`./content` when it exists, else the project's bundled `content/`."""
    here = Path("content")
    return here if here.is_dir() else PROJECT / "content"


def build_dir(content: Path) -> Path:
    """The build folder for a content folder: `<content>/../.kb` (never inside `content/`)."""
    return content.resolve().parent / ".kb"
