"""A seal over the files a build wrote: a rebuild of unchanged content skips only a site nobody touched since.

The seal, kept in the site's stamp, is a hash of the name, size and modification time of every file the build's
manifest lists (the stamp aside). Checking it costs one `stat` per file, so an unchanged `kb build` stays fast.
"""

from __future__ import annotations

import json
import os
from hashlib import sha256
from pathlib import Path

from kb.site.output import MAX_STAMP, STAMP, built_files, read_json


def seal(site: Path) -> None:
    """Record in the stamp of a freshly written site the seal of the files its manifest lists."""
    stamp = json.loads((site / STAMP).read_text(encoding="utf-8"))
    stamp["seal"] = _signature(site)
    (site / STAMP).write_text(json.dumps(stamp, indent=1, sort_keys=True) + "\n", encoding="utf-8")


def untouched(site: Path) -> bool:
    """Whether every file the last build wrote is still there, as it was written (its seal holds)."""
    stamp = read_json(Path(site) / STAMP, MAX_STAMP)
    found = _signature(Path(site))
    return isinstance(stamp, dict) and found is not None and stamp.get("seal") == found


def _signature(site: Path) -> str | None:
    """Hash of the manifest's files (name, size, modification time), or None when one is missing or unreadable."""
    files = built_files(site)
    if files is None:
        return None
    base = os.path.join(site, "")  # plain strings: a Path per file would cost more than its `stat`
    lines = []
    try:
        for name in sorted(files):
            if name != STAMP:
                info = os.stat(base + name)
                lines.append(f"{name}\0{info.st_size}\0{info.st_mtime_ns}\n")
    except (OSError, ValueError):
        return None
    return sha256("".join(lines).encode()).hexdigest()
