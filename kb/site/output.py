"""The output folder: what may be built into, the stamp and manifest of a built site, the atomic swap of a new site.

A folder that is not a kb site (no `kb-site.json` stamp) is never replaced, nor the content or project folder, nor
a folder inside the content. A rebuild replaces only what an earlier build wrote (listed in `kb-manifest.json`):
anything else in the folder (`CNAME`, `.git`, a user's files) is carried over into the new site before the swap.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from hashlib import sha256
from pathlib import Path
from typing import TYPE_CHECKING

from kb import __version__
from kb.model import Diagnostic, card_name
from kb.model.errors import KbError
from kb.sources import atomic, file_slug, slug
from kb.sources.bounded import read_regular
from kb.sources.paths import PROJECT, TEMPLATES

if TYPE_CHECKING:  # an unchanged build reads this module and never a knowledge base: its import is 15 ms
    from kb.model.base import KnowledgeBase

STAMP = "kb-site.json"
MANIFEST = "kb-manifest.json"
LEGACY_OUTPUT = re.compile(
    r"(?:index|contents|glossary|cards|report|search|404)\.html|jump\.json|kb-site\.json"
    r"|rules|faq|cards|index-src|static|search|pagefind-[a-z]{2}|[a-z]{2}"
)
"""What a build wrote before sites had a manifest (top-level names, language folders included): these are
replaced, anything else is kept."""
NAME_MAX = 200
"""Longest `--out` name used as is in the names of its temporary siblings (`.NAME.new-PID`)."""
MAX_STAMP = 1 << 20
"""Largest stamp read back (a few hundred bytes when kb wrote it)."""
MAX_MANIFEST = 1 << 30
"""Largest manifest read back (a card pool's site lists a few hundred thousand files: tens of MB)."""


class SiteError(KbError):
    """The site could not be built; the message says why in one line."""


@dataclass(frozen=True, slots=True)
class Job:
    """One file to render."""

    path: str
    template: str
    context: dict
    more: Callable[[], dict] | None = None
    """The rest of the context, made when the page is rendered: what only this page needs (a card's rulings)
    is then not held for every page from the plan to the end of the build."""

    def values(self) -> dict:
        """The whole context."""
        return {**self.context, **self.more()} if self.more is not None else self.context


def left_behind(out: Path) -> str:
    """What a build that stopped leaves in `out`, in words: the previous site when there is one, else nothing."""
    return "the previous site is untouched" if (Path(out) / STAMP).is_file() else f"nothing was written to {out}"


def read_json(path: Path, limit: int) -> object:
    """A JSON file a build wrote, read back as a regular file within `limit` bytes (never a FIFO or a link to a
    device planted in its place); None when it cannot be read or is no JSON."""
    try:
        return json.loads(read_regular(path, limit))
    except (OSError, ValueError, RecursionError):
        return None


def _stamp(out: Path) -> dict:
    """The site's stamp, or {} when there is none or it is unreadable."""
    stamp = read_json(Path(out) / STAMP, MAX_STAMP)
    return stamp if isinstance(stamp, dict) else {}


def templates_hash() -> str:
    """Hash of every template and static file (names and bytes): a change means the site must be rebuilt."""
    digest = sha256()
    for path in sorted(p for p in TEMPLATES.rglob("*") if p.is_file()):
        digest.update(f"{path.relative_to(TEMPLATES).as_posix()}\0".encode())
        digest.update(sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def stamp_for(content_hash: str, base_url: str | None = None, api: bool = False) -> dict:
    """What a site built now from content with this hash (for this address, `--base-url`; with the JSON API or not)
    records, the languages aside."""
    return {
        "content_hash": content_hash,
        "kb_version": __version__,
        "templates_hash": templates_hash(),
        "base_url": base_url,
        "api": api,
    }


def built_for(out: Path) -> tuple[str | None, bool]:
    """(the address the site in `out` was built for, `kb build --base-url`, or None; whether it holds the JSON API)."""
    stamp = _stamp(out)
    found = stamp.get("base_url")
    return (found if isinstance(found, str) else None), stamp.get("api", True) is not False


def site_is_current(
    out: Path, content_hash: str, force: bool = False, base_url: str | None = None, api: bool = False
) -> bool:
    """Whether the site in `out` was built from this content by this kb version with these templates for this address
    (and, unless `force`, from content without errors: a site forced out of erroneous content is rebuilt, so the
    errors stop it)."""
    stamp = _stamp(out)
    if stamp.get("forced") and not force:
        return False
    return all(stamp.get(key, False) == value for key, value in stamp_for(content_hash, base_url, api).items())


def check_out(out: Path, content: Path | None = None) -> Path:
    """The resolved output folder, or SiteError when building there could destroy something or cannot work."""
    try:
        return _check_out(out, content)
    except OSError as err:  # a name too long, a folder that cannot be read…
        raise SiteError(f"cannot build into {out}: {err.strerror or err}; pass another --out") from None


def _check_out(out: Path, content: Path | None) -> Path:
    """`check_out` without the translation of system errors."""
    target = Path(out).resolve()
    protected = [("the project folder", PROJECT)]
    if content is not None:
        folder = Path(content).resolve()
        protected.insert(0, ("the content folder", folder))
        if folder in target.parents:
            raise SiteError(
                f"refusing to build into {out}: it is inside the content folder ({folder}); pass another --out"
            )
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


def page_name_notes(kb: KnowledgeBase) -> list[Diagnostic]:
    """A note for each card or FAQ whose id is too long for a file name: its page gets a shortened, hashed name."""
    notes = []
    for card in kb.cards:
        if file_slug(card.id) != slug(card.id):
            where = (card.source.path, card.source.line)
            name = card_name(card)
            notes.append(_name_note(*where, f"card {name[:40] + '…' if len(name) > 40 else name!r}", card.id, "cards"))
    for info in kb.faqs:
        if file_slug(info.document) != slug(info.document):
            doc = kb.document.get(info.document)
            notes.append(_name_note(doc.source if doc else info.document, 0, "document id", info.document, "faq"))
    return notes


def _name_note(path: str, line: int, what: str, page_id: str, folder: str) -> Diagnostic:
    """The note for one shortened page name."""
    message = (
        f"{what}: a page named after it would be {len(slug(page_id))} characters, too long for a file name; "
        f"its page is {folder}/{file_slug(page_id)}.html"
    )
    return Diagnostic("note", path, line, message)


def sibling(out: Path, kind: str) -> Path:
    """The temporary folder `.NAME.KIND-PID` next to `out` (`new`: the site being built; `old`: the one replaced)."""
    return out.parent / f".{_short_name(out.name)}.{kind}-{os.getpid()}"


def _short_name(name: str) -> str:
    """`name`, or for a very long one its start and a hash, so that `.NAME.new-PID` is still a valid file name."""
    if len(os.fsencode(name)) <= NAME_MAX:
        return name
    digest = sha256(os.fsencode(name)).hexdigest()[:10]
    return os.fsdecode(os.fsencode(name)[: NAME_MAX - 11]) + "-" + digest


def write_manifest(new: Path) -> list[str]:
    """Record every file the build wrote into `new` (relative, `/`-separated) in MANIFEST; return the list."""
    found = {MANIFEST}
    for folder, _, names in os.walk(new):  # names, not Path objects: a site has tens of thousands of files
        where = Path(folder).relative_to(new).as_posix()
        found.update(names if where == "." else (f"{where}/{name}" for name in names))
    files = sorted(found)
    (new / MANIFEST).write_text(json.dumps({"files": files}, indent=0) + "\n", encoding="utf-8")
    return files


def built_files(out: Path) -> list[str] | None:
    """The files an earlier build says it wrote into `out`, or None when it left no readable manifest."""
    manifest = read_json(out / MANIFEST, MAX_MANIFEST)
    files = manifest.get("files") if isinstance(manifest, dict) else None
    return files if isinstance(files, list) and all(isinstance(f, str) for f in files) else None


def carry_over(old: Path, new: Path) -> tuple[list[str], list[str]]:
    """Copy into `new` what the site `old` holds that no build wrote; return (kept, clashing) relative paths.

    Kept: a file or link no build wrote, or a whole folder holding none (`.git/`). Clashing: a file of the user's
    at a path the new build writes; the new file wins, and the build names it.
    """
    kept: list[str] = []
    clashing: list[str] = []
    if (old / STAMP).is_file():
        built = built_files(old)
        for path in _foreign(old, None if built is None else set(built)):
            _carry(old / path, new / path, path, kept, clashing)
    return kept, clashing


def _foreign(old: Path, built: set[str] | None) -> Iterator[str]:
    """Relative paths under `old` that no build wrote (without a manifest: the names a build never writes)."""
    if built is None:
        yield from (
            e.name for e in sorted(os.scandir(old), key=lambda e: e.name) if not LEGACY_OUTPUT.fullmatch(e.name)
        )
        return
    owned = {parent.as_posix() for f in built for parent in Path(f).parents if parent != Path(".")}

    def visit(folder: Path, rel: str) -> Iterator[str]:
        for entry in sorted(os.scandir(folder), key=lambda e: e.name):
            path = rel + entry.name
            if entry.is_dir(follow_symlinks=False) and path in owned:
                yield from visit(Path(entry.path), path + "/")
            elif path not in built:
                yield path

    yield from visit(old, "")


def _carry(src: Path, dst: Path, path: str, kept: list[str], clashing: list[str]) -> None:
    """Copy one file, link or folder into the new site (hard links where possible: the old site goes away)."""
    if src.is_dir() and not src.is_symlink() and dst.is_dir() and not dst.is_symlink():
        for entry in sorted(os.scandir(src), key=lambda e: e.name):  # a folder the new build also writes: merge
            _carry(src / entry.name, dst / entry.name, f"{path}/{entry.name}", kept, clashing)
        return
    if dst.exists() or dst.is_symlink():
        clashing.append(path)
        return
    dst.parent.mkdir(parents=True, exist_ok=True)
    if src.is_symlink():
        os.symlink(os.readlink(src), dst)
    elif src.is_dir():
        shutil.copytree(src, dst, symlinks=True, copy_function=_link_or_copy)
        path += "/"
    else:
        _link_or_copy(src, dst)
    kept.append(path)


def _link_or_copy(src: str | Path, dst: str | Path) -> None:
    """Hard-link `src` as `dst`, or copy it when the system cannot."""
    try:
        os.link(src, dst, follow_symlinks=False)
    except OSError:
        shutil.copy2(src, dst, follow_symlinks=False)


def swap(new: Path, out: Path) -> None:
    """Put the new site in place of the old one (two renames beside it), then delete the old one (what resists is
    removed at the next build: `clean_leftovers`)."""
    old = sibling(out, "old")
    if old.exists() or old.is_symlink():
        atomic.remove(old)  # left by an earlier build of this very process
    if out.exists():
        out.rename(old)
    try:
        new.rename(out)  # the site is missing only between these two renames
    except OSError:
        if old.exists():
            old.rename(out)
        raise
    atomic.remove(old)


LEFTOVER = r"\.{name}\.(?P<kind>new|old)-(?P<pid>\d+)"
"""The temporary siblings of an output folder (`sibling`), `{name}` its escaped short name."""


def clean_leftovers(out: Path) -> None:
    """Delete the `.NAME.new-PID` and `.NAME.old-PID` folders of builds that died before cleaning up; but when the
    site itself is missing, a build having died between the two renames of `swap`, put its old site back first
    (the newest, if several): it holds the previous site and the user's own files."""
    pattern = re.compile(LEFTOVER.format(name=re.escape(_short_name(out.name))))
    dead = [p for p in atomic.stale(out.parent, pattern) if p.is_dir() and not p.is_symlink()]
    olds = [p for p in dead if pattern.fullmatch(p.name).group("kind") == "old" and (p / STAMP).is_file()]
    olds.sort(key=lambda p: p.stat().st_mtime)
    if olds and not out.exists() and not out.is_symlink():
        olds[-1].rename(out)
    for path in dead:
        if path.exists():
            atomic.remove(path)
