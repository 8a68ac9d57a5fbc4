"""Make an index: the one module that does, from a knowledge base's search entries.

An index is a folder: Whoosh's index of the entries (`kb.search.writer`: schema, analysis, BM25F) and its export
(`export/`: `kb.search.export`: Whoosh's postings and scores, and the tables made from the same entries: vocabularies,
word counts, translation tables, characteristic terms), which every query reads (`kb.search.engine`) and the site
copies. It is made in a new folder and made live at once (`kb.search.store`), keyed by the content's hash and kb's code,
so a query never sees half an index.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from tempfile import TemporaryDirectory

from kb.search.entries import Entry, Vocabulary, entries, vocabulary
from kb.search.export import write_core, write_documents, write_manifest, write_postings, write_words
from kb.search.lookup import Tables
from kb.search.store import EXPORT_FOLDER as EXPORT
from kb.search.store import EXPORT_MANIFEST as MANIFEST
from kb.search.store import IndexDamaged, abandon, commit, prepare, publish
from kb.search.writer import entry_langs, index_tables, own_numbering, write_whoosh

"""The export's folder inside an index's."""


def make_index(
    folder: Path, items: list[Entry], vocabulary: Vocabulary | None, numbering: dict, every: bool = False
) -> None:
    """Write an index of some entries into a folder (created if needed): Whoosh's documents (those of the current
    editions, of every edition when `every`), the tables, the export."""
    folder.mkdir(parents=True, exist_ok=True)
    postings = whoosh_half(folder, items, vocabulary, every)
    tables_half(folder, items, vocabulary, numbering, every)(postings)


def whoosh_half(folder: Path, items: list[Entry], vocabulary: Vocabulary | None, every: bool = False) -> dict:
    """The half of an index that needs Whoosh, written into its folder: Whoosh's index of the entries and the
    export's postings; their shard counts (`write_postings`)."""
    write_whoosh(folder, items, vocabulary, every)
    return write_postings(folder / EXPORT, folder, entry_langs(items))


def tables_half(
    folder: Path, items: list[Entry], vocabulary: Vocabulary | None, numbering: dict, every: bool = False
) -> Callable[[dict], None]:
    """The half of an index that needs no Whoosh, written into its folder (while another process may write the
    other half there): the export's words and documents; what finishes the index once the postings' shard counts
    are known (`core.json`, then the export's manifest)."""
    kept = items if every else [e for e in items if e.current]
    info = index_tables(items, vocabulary, numbering, every)
    export = folder / EXPORT
    words = write_words(export, tables_of(info), numbering, info["editions"])
    documents = write_documents(export, kept, entry_langs(items), lambda stored: None)

    def finish(postings: dict) -> None:
        write_core(export, words | {"c": words["c"] | postings}, documents)
        write_manifest(export)

    return finish


class Halves:
    """An index made in two processes (`kb build --jobs 2`): Whoosh's half in a forked child (`kb.sources.fork`),
    the tables' half here, both into one folder that `finish` makes live. Started only where `can_fork` says so."""

    def __init__(self, root: Path, key: str, kb, every: bool = False) -> None:
        from kb.sources.fork import fork

        self.root, self.key = root, key
        self.items = list(entries(kb))
        """The knowledge base's search entries (the site's search pages read them too)."""
        self._vocabulary, self._numbering, self._every = vocabulary(kb), own_numbering(kb), every
        self.folder = prepare(root, key, lambda folder: None)  # IndexNotWritable: the caller makes it alone
        self.child = fork(lambda: json.dumps(whoosh_half(self.folder, self.items, self._vocabulary, every)))

    def finish(self) -> Path | None:
        """Write the tables' half, wait for Whoosh's, and make the index live: its folder; None (the folder
        removed) when the child could not write its half, and the index is to be made in one process."""
        try:
            done = tables_half(self.folder, self.items, self._vocabulary, self._numbering, self._every)
        except BaseException:
            self.stop()
            raise
        if self.child.wait() is not None:
            abandon(self.folder)
            return None
        return commit(self.root, self.key, self.folder, lambda folder: done(json.loads(self.child.result)))

    def stop(self) -> None:
        """Give up: end the child and remove the folder (nothing when it was made live)."""
        self.child.stop()
        abandon(self.folder)


def tables_of(info: dict) -> Tables:
    """The query tables of an index's tables (`kb.search.writer.index_tables`), with each language's stop words."""
    from kb.search.analysis import lang_text

    return Tables(info, {lang: lang_text(lang).stops for lang in info["langs"]})


def publish_index(root: Path, key: str, kb, every: bool = False) -> Path:
    """Make the index of a knowledge base under `root` and make it live; its folder."""
    items = list(entries(kb))
    return publish(root, key, lambda folder: make_index(folder, items, vocabulary(kb), own_numbering(kb), every))


def temporary_index(kb, every: bool = False) -> TemporaryDirectory:
    """An index of a knowledge base in a temporary folder (removed when the object returned is let go): what is
    searched when the build folder cannot be written."""
    made = TemporaryDirectory(prefix="kb-index-")
    make_index(Path(made.name), list(entries(kb)), vocabulary(kb), own_numbering(kb), every)
    return made


def engine_of(items: list[Entry], vocabulary: Vocabulary | None = None, numbering: dict | None = None, every=False):
    """An engine over an index of some entries, made in a temporary folder (removed with the engine)."""
    from kb.search.engine import opened  # late: making an index needs no engine

    made = TemporaryDirectory(prefix="kb-index-")
    make_index(Path(made.name), list(items), vocabulary, numbering or {}, every)
    engine = opened(Path(made.name))
    engine.keep = made
    return engine


def copy_export(index: Path, into: Path) -> None:
    """Copy an index's export into a folder (the site's search files), each file checked against the export's
    manifest on the way: IndexDamaged when one does not read back as written."""
    export = index / EXPORT
    manifest = json.loads((export / MANIFEST).read_text(encoding="utf-8"))
    into.mkdir(parents=True, exist_ok=True)
    for name, digest in manifest.items():
        blob = (export / name).read_bytes()
        if hashlib.sha256(blob).hexdigest() != digest:
            raise IndexDamaged(f"{name} of the search index in {index} is not the file it was made with")
        (into / name).write_bytes(blob)
