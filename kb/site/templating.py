"""The Jinja2 environment of the site's pages: templates, their compiled cache, the helpers they call.

Imported only where pages are rendered (not by the search index's process, forked before the pages).
"""

from __future__ import annotations

from jinja2 import Environment, FileSystemBytecodeCache, FileSystemLoader, StrictUndefined, select_autoescape
from jinja2.bccache import Bucket

from kb.model import card_name
from kb.model.langs import ordered_langs
from kb.site import changes, diffs, editions, faqs, labels, render, rows
from kb.sources import search_fold
from kb.sources.paths import TEMPLATES, user_cache


class _CompiledTemplates(FileSystemBytecodeCache):
    """Templates compiled by earlier builds, kept like Python's `__pycache__` (Jinja checks each one against its
    template's source and the Python version); a cache that cannot be read or written is simply not used."""

    def load_bytecode(self, bucket: Bucket) -> None:
        try:
            super().load_bytecode(bucket)
        except (OSError, EOFError, ValueError, TypeError):
            bucket.reset()

    def dump_bytecode(self, bucket: Bucket) -> None:
        try:
            super().dump_bytecode(bucket)
        except OSError:
            return


def _compiled_templates() -> _CompiledTemplates | None:
    """The cache of compiled templates in the user's cache folder, or None when it cannot be made."""
    folder = user_cache() / "templates"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return _CompiledTemplates(str(folder))


def environment() -> Environment:
    """The Jinja2 environment: `.html` templates autoescaped, undefined names are errors."""
    env = Environment(
        loader=FileSystemLoader(TEMPLATES),
        bytecode_cache=_compiled_templates(),
        autoescape=select_autoescape(["html", "xml"]),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        auto_reload=False,  # one environment per build: a template fetched once, its file never checked again
    )
    env.globals.update(
        lang_label=labels.lang_label,
        note_blocks=faqs.note_blocks,
        count=labels.count,
        counted=labels.counted,
        long_date=labels.long_date,
        own_name=lambda lang: labels.OWN_NAMES.get(lang, lang.upper()),
        pick=labels.pick,
        words=labels.words,
        search_words=labels.search_words,
        ui_first=lambda langs, ui: sorted(langs, key=lambda lang: lang != ui),
        mana_cost=render.mana_cost,
        run_rows=rows.run_rows,
        side_list=rows.side_list,
        toc_list=rows.toc_list,
        mention_link=rows.mention_link,
        lex_legend=rows.lex_legend,
        moved_note=rows.moved_note,
        marks_legend=rows.marks_legend,
        titled=rows.titled,
        history_html=diffs.history_html,
        section_picker=changes.section_picker,
        substantive_html=changes.substantive_html,
        references_html=changes.references_html,
        runs_html=changes.runs_html,
        changes_label=diffs.changes_label,
        edition_label=diffs.edition_label,
        edition_name=editions.edition_name,
        diff_html=diffs.cached_diff,
        with_symbols=render.with_symbols,
        card_name=card_name,
        fold=search_fold,
        ordered_langs=ordered_langs,
    )
    return env
