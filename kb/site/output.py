"""The output folder: what may be built into, the stamp of a built site, the atomic swap of a new site.

A folder that is not a kb site (no `kb-site.json` stamp) is never replaced, nor the content or project folder.
"""

from __future__ import annotations

import ctypes
import hashlib
import json
import os
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

from kb import __version__
from kb.sources.paths import PROJECT, TEMPLATES

STAMP = "kb-site.json"


class SiteError(Exception):
    """The site could not be built; the message says why in one line."""


@dataclass(frozen=True, slots=True)
class Job:
    """One file to render."""

    path: str
    template: str
    context: dict


def site_hash(out: Path) -> str | None:
    """The content hash a built site was made from, or None when there is no readable site."""
    return _stamp(out).get("content_hash")


def _stamp(out: Path) -> dict:
    """The site's stamp, or {} when there is none or it is unreadable."""
    try:
        stamp = json.loads((Path(out) / STAMP).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return stamp if isinstance(stamp, dict) else {}


def templates_hash() -> str:
    """Hash of every template and static file (names and bytes): a change means the site must be rebuilt."""
    digest = hashlib.sha256()
    for path in sorted(p for p in TEMPLATES.rglob("*") if p.is_file()):
        digest.update(f"{path.relative_to(TEMPLATES).as_posix()}\0".encode())
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def stamp_for(content_hash: str) -> dict:
    """What a site built now from content with this hash records, the languages aside."""
    return {"content_hash": content_hash, "kb_version": __version__, "templates_hash": templates_hash()}


def site_is_current(out: Path, content_hash: str) -> bool:
    """Whether the site in `out` was built from this content by this kb version with these templates."""
    stamp = _stamp(out)
    return all(stamp.get(key) == value for key, value in stamp_for(content_hash).items())


def check_out(out: Path, content: Path | None = None) -> Path:
    """The resolved output folder, or SiteError when building there could destroy something."""
    target = Path(out).resolve()
    protected = [("the project folder", PROJECT)]
    if content is not None:
        protected.insert(0, ("the content folder", Path(content).resolve()))
    for label, folder in protected:
        if target == folder or target in folder.parents:
            what = label if target == folder else f"a folder holding {label} ({folder})"
            raise SiteError(f"refusing to build into {out}: it is {what}; pass another --out, such as site/")
    if target.exists() and not target.is_dir():
        raise SiteError(f"refusing to build into {out}: it exists and is not a folder; pass another --out")
    if target.is_dir() and not (target / STAMP).is_file() and any(target.iterdir()):
        raise SiteError(
            f"refusing to build into {out}: it is not empty and is not a kb site (no {STAMP}); "
            "pass a new or empty folder to --out"
        )
    return target


def swap(new: Path, out: Path) -> None:
    """Put the new site in place of the old one (atomically where the system can), then delete the old one."""
    if out.exists() and _exchange(new, out):
        shutil.rmtree(new, ignore_errors=True)  # `new` now holds the previous site
        return
    old = out.parent / f".{out.name}.old-{os.getpid()}"
    if out.exists():
        out.rename(old)
    try:
        new.rename(out)  # the site is missing only between these two renames
    except OSError:
        if old.exists():
            old.rename(out)
        raise
    shutil.rmtree(old, ignore_errors=True)


def _exchange(a: Path, b: Path) -> bool:
    """Swap two paths in one step (Linux `renameat2(RENAME_EXCHANGE)`); False when the system cannot."""
    try:
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):
        return False
    at_fdcwd, rename_exchange = -100, 2
    return renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange) == 0


def clean_leftovers(out: Path) -> None:
    """Delete the `.NAME.new-PID` and `.NAME.old-PID` folders of builds that died before cleaning up."""
    pattern = re.compile(rf"\.{re.escape(out.name)}\.(?:new|old)-(\d+)")
    for path in out.parent.glob(f".{out.name}.*-*") if out.parent.is_dir() else ():
        m = pattern.fullmatch(path.name)
        if m and path.is_dir() and not path.is_symlink() and not _alive(int(m.group(1))):
            shutil.rmtree(path, ignore_errors=True)


def _alive(pid: int) -> bool:
    """Whether another process with this id runs (a build that may still use its temporary folders)."""
    if pid == os.getpid():
        return False  # left by an earlier build of this very process
    try:
        os.kill(pid, 0)
    except (ProcessLookupError, OverflowError):
        return False
    except PermissionError:
        return True  # someone else's process
    return True
