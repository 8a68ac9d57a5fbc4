"""Set FAQ headers: title, set names, authors, dates (French or English) and set size."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from kb.model import Diagnostic, FaqInfo, SourceRef, SourceText
from kb.parse.dates import find_date
from kb.parse.faq.blocks import Para
from kb.sources import fold

TITLE_PAIR = re.compile(r"^(?:foire aux questions|faq|frequently asked questions)\s*:?\s*(.+?)\s*/\s*(.+)$", re.I)
TITLE_ONE = re.compile(
    r"^(?:foire aux questions|faq)\s*:?\s*_?(.+?)_?$|^(.+?) (?:frequently asked questions|faq)$", re.IGNORECASE
)
AUTHORS = re.compile(r"^(?:compil[ée]e? par|compiled by)\s+(.+)$", re.I)
CONTRIB = re.compile(r"(?<![\s,]),?\s*(?:avec (?:des )?contributions? de|with contributions (?:from|by))\s+", re.I)
SET_SIZE = re.compile(r"(?:taille de l.extension|set size)\D*(\d+)", re.I)
DATE_KEYS = (
    ("last_modified", re.compile(r"modifi|last modified|updated|mis a jour")),
    ("prerelease", re.compile(r"avant-premiere|pre-?release")),
    ("release", re.compile(r"date de sortie|sortie officielle|release date")),
    ("tournament_legal", re.compile(r"tournoi|tournament|legal|autorise")),
)


@dataclass(frozen=True, slots=True)
class Header:
    """Header metadata and its diagnostics."""

    info: FaqInfo
    """Metadata (no trailer yet)."""
    diagnostics: tuple[Diagnostic, ...]
    """Missing metadata."""


def split_names(text: str) -> tuple[str, ...]:
    """Split `A, B et C` / `A, B, and C` into names."""
    parts = re.split(r",\s*(?:and\s+|et\s+)?|\s+(?:et|and)\s+", text.strip().rstrip("."))
    return tuple(p.strip() for p in parts if p.strip())


def _header_line(line: str, lang: str, meta: dict) -> bool:
    """Read one header line into `meta`; return False when it carries no metadata."""
    folded = fold(line)
    plain = line.replace("_", "").strip()
    if match := TITLE_PAIR.match(plain):
        other = "en" if lang != "en" else "fr"
        meta["set_names"].setdefault(lang, match.group(1).strip())
        meta["set_names"].setdefault(other, match.group(2).strip())
        return True
    if match := TITLE_ONE.match(plain):
        meta["set_names"].setdefault(lang, (match.group(1) or match.group(2)).strip())
        return True
    if match := AUTHORS.match(line):
        meta["authors"] = tuple(n for part in CONTRIB.split(match.group(1)) for n in split_names(part))
        return True
    if match := SET_SIZE.search(folded):
        meta["set_size"] = int(match.group(1))
        return True
    found = find_date(line)
    for key, pattern in DATE_KEYS if found else ():
        if pattern.search(folded):
            meta["dates"][key] = found[0]
            if found[1]:
                meta["dates"][key + "_end"] = found[1]
            return True
    return False


def parse_header(paras: Sequence[Para], source: SourceText, doc_id: str) -> Header:
    """Read the title, set names, authors, dates and set size; the other paragraphs are the intro."""
    meta: dict = {"set_names": {}, "authors": (), "dates": {}, "set_size": None}
    title = paras[0].lines[0] if paras else ""
    intro = []
    for para in paras:
        rest = [line for line in para.lines if not _header_line(line, source.lang, meta)]
        if rest and rest[0] != title:
            intro.append(" ".join(rest))
    dates = meta["dates"]
    last_modified = dates.pop("last_modified", None)
    dates.pop("last_modified_end", None)
    diags = (
        []
        if last_modified
        else [
            Diagnostic(
                "warning",
                source.path,
                paras[0].line if paras else 0,
                "no last-modified date in the FAQ header ('Document last modified March 17, 2006'); "
                "quoted rules get no date",
            )
        ]
    )
    info = FaqInfo(
        document=doc_id,
        lang=source.lang,
        title=title,
        set_names=meta["set_names"],
        authors=meta["authors"],
        last_modified=last_modified,
        dates=dates,
        set_size=meta["set_size"],
        intro="\n".join(intro),
        source=SourceRef(source.path, paras[0].line) if paras else None,
    )
    return Header(info, tuple(diags))
