"""Text to HTML for the site: rule references as links, mana symbols, card names, inline FAQ markdown, typography.

Three kinds of text, three renderings: rule text (`Linker.text`, `paragraphs`), plain card-data text and
Gatherer rulings (`plain`: no markdown at all), and FAQ prose (`prose`: inline markdown only, emphasis and
links). All three draw `{…}` symbols and link cited rules. Everything returned is `Markup` built from escaped
pieces. Words inside the text (tooltips of references) are in the text's language; interface words are not
made here (the flag on a translation's citation its original does not make says it in `kb.site.labels`' words).
"""

from __future__ import annotations

import functools
import re
import secrets
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from markupsafe import Markup, escape

from kb.model.links import Miscitation
from kb.model.records import EMPTY
from kb.parse.refs import find_references
from kb.site.labels import french_spaces, long_date, miscited_title
from kb.sources import file_slug
from kb.sources.text import APOSTROPHES

_SYMBOL = re.compile(r"\{([^{}\s]{1,6})\}")
_STUCK = re.compile(r"[,.;:!?)\]”’»]*")
_APOS = str.maketrans(dict.fromkeys(APOSTROPHES, "'"))
_DASHES = re.compile(r"(?<![-!<])--(?![->])")
_FR_BEFORE = re.compile(r" (?=[:;!?»])")
_FR_AFTER = re.compile(r"(?<=«) ")
COLOURS = {
    "en": {"W": "white", "U": "blue", "B": "black", "R": "red", "G": "green", "C": "colourless", "S": "snow"},
    "fr": {"W": "blanc", "U": "bleu", "B": "noir", "R": "rouge", "G": "vert", "C": "incolore", "S": "neige"},
}
SYMBOL_WORDS = {
    "en": {"mana": "{c} mana", "generic": "{n} generic mana", "hybrid": "hybrid {a} or {b} mana", "or": "or",
           "phyrexian": "Phyrexian {c} mana", "hybrid_phyrexian": "hybrid Phyrexian {a} or {b} mana",
           "chapter": "chapter symbol {n}", "T": "tap", "Q": "untap", "PW": "Planeswalker symbol",
           "CHAOS": "chaos symbol", "E": "energy", "TK": "ticket", "H": "Phyrexian symbol", "sep": ": "},
    "fr": {"mana": "mana {c}", "generic": "{n} mana générique", "hybrid": "mana hybride {a} ou {b}", "or": "ou",
           "phyrexian": "mana phyrexian {c}", "hybrid_phyrexian": "mana hybride phyrexian {a} ou {b}",
           "chapter": "symbole de chapitre {n}", "T": "engager", "Q": "dégager", "PW": "symbole de planeswalker",
           "CHAOS": "symbole du chaos", "E": "énergie", "TK": "ticket", "H": "symbole phyrexian", "sep": "\u00a0: "},
}  # fmt: skip
RENDER_CACHE_CHARS = 500_000
"""Characters of rendered HTML a build keeps for its next pages (`RenderCache`): enough for a page's texts in both
interface trees and its neighbours' previews (on 5 MB of rules, as fast as 2 M characters, and 6 MB less held)."""
PHYREXIAN = "Φ"
"""The glyph standing for the Phyrexian part of a symbol (`{W/P}`) and for the Phyrexian symbol `{H}`."""
GLYPHS = {"T": "↷", "Q": "↶", "H": PHYREXIAN}
_CHAPTER = re.compile(r"r([IVX]+|N\d*)")
"""A Saga's chapter symbol as the rules write it: `{rN}`, `{rN1}` (chapter N1), `{rIII}`."""
REF_WORDS = {
    "en": {
        "other": "No {lang} text for rule {n}: links to the {other} rule",
        "missing": "Rule {n} is not loaded",
        "dated": "Rule {n} as numbered on {date}: today’s {today}",
        "dated_missing": "Rule {n} as numbered on {date}: no rule of today follows from it",
        "renumbered": "rule {n} of {year} is numbered {today} today",
        "miscited": "{n} → {today}: the original ({year}) cites {meant} here",
        "removed": "Rule {n} of {year}, removed since: its history",
        "merged": "Rule {n} of {year}, merged since into another rule: its history",
        "unknown": "Rule {n} as numbered in the edition this text was "
        "translated from, which is not loaded: not linked (today’s {n} may be another rule)",
    },
    "fr": {
        "other": "Règle {n} absente du texte {lang} : lien vers la règle en {other}",
        "missing": "Règle {n} absente des règles chargées",
        "dated": "Règle {n} numérotée au {date} : aujourd’hui {today}",
        "dated_missing": "Règle {n} numérotée au {date} : aucune règle d’aujourd’hui n’en découle",
        "renumbered": "la règle {n} de {year} est numérotée {today} aujourd’hui",
        "miscited": "{n} → {today} : l’original ({year}) cite ici {meant}",
        "removed": "Règle {n} de {year}, supprimée depuis : son historique",
        "merged": "Règle {n} de {year}, fusionnée depuis avec une autre règle : son historique",
        "unknown": "Règle {n} numérotée comme "
        "l’édition dont ce texte est traduit, qui n’est pas chargée : pas de lien (la règle {n} d’aujourd’hui "
        "peut en être une autre)",
    },
}
REF_WORDS["fr"] = {key: french_spaces(text) for key, text in REF_WORDS["fr"].items()}
LANG_WORDS = {"en": {"fr": "French", "en": "English"}, "fr": {"fr": "français", "en": "anglais"}}
SEPARATORS = {"en": ": ", "fr": "\u00a0: "}


@functools.cache
def _inline():
    """The inline markdown parser of FAQ prose (markdown-it-py imported on first use: the search index's process,
    which imports this module through the site's data, never renders prose)."""
    from markdown_it import MarkdownIt

    return MarkdownIt("zero", {"html": False}).enable(["emphasis", "link", "escape"])


def _words(table: dict[str, dict[str, str]], lang: str) -> dict[str, str]:
    """The words of a text language, English for a language without its own."""
    return table.get(lang, table["en"])


def mana_symbol(code: str, lang: str = "en") -> Markup:
    """Draw one symbol (`W`, `2`, `G/U`, `W/U/P`, `T`, a Saga's chapter `rN`, `PW`) as a styled span with a text
    alternative in `lang`; a symbol of more than one character is drawn as wide as its characters need."""
    words, colours = _words(SYMBOL_WORDS, lang), _words(COLOURS, lang)
    parts = code.upper().split("/")
    if len(parts) > 1 and all(p in colours or p.isdigit() or p == "P" for p in parts):
        return _hybrid(code, parts, words, colours)
    chapter = _CHAPTER.fullmatch(code)
    if chapter:
        numeral = chapter.group(1)
        label = escape(f"{{{code}}}{words['sep']}{words['chapter'].format(n=numeral)}")
        return Markup(
            f'<span class="ms ms-chapter" role="img" aria-label="{label}" title="{label}">{escape(numeral)}</span>'
        )
    key = parts[0]
    if key in colours:
        what, glyph = words["mana"].format(c=colours[key]), key
    elif key in GLYPHS:
        what, glyph = words[key], GLYPHS[key]
    elif key.isdigit() or key in ("X", "Y", "Z"):
        what, glyph = words["generic"].format(n=key), key
    else:
        what, glyph = words.get(key, ""), key  # `PW`, `CHAOS`, `E`…: the symbols named in the words
    label = escape(f"{{{code}}}{words['sep']}{what}" if what else f"{{{code}}}")
    kind = key.lower() if key.isalnum() else "other"
    wide = " ms-wide" if len(glyph) > 1 else ""
    return Markup(
        f'<span class="ms ms-{kind}{wide}" role="img" aria-label="{label}" title="{label}">{escape(glyph)}</span>'
    )


def _hybrid(code: str, parts: list[str], words: dict[str, str], colours: dict[str, str]) -> Markup:
    """A hybrid or Phyrexian symbol (`G/U`, `2/W`, `W/P`, `W/U/P`): one slice per part, named in the label."""
    named = [colours.get(p, p) for p in parts if p != "P"]
    if "P" in parts and len(named) == 1:
        what = words["phyrexian"].format(c=named[0])
    else:
        key = "hybrid_phyrexian" if "P" in parts else "hybrid"
        what = words[key].format(a=named[0], b=f" {words['or']} ".join(named[1:]))
    label = escape(f"{{{code}}}{words['sep']}{what}")
    halves = "".join(
        f'<span class="ms-half ms-{p.lower()}">{escape(PHYREXIAN if p == "P" else p)}</span>' for p in parts
    )
    return Markup(f'<span class="ms ms-hybrid" role="img" aria-label="{label}" title="{label}">{halves}</span>')


def mana_cost(symbols: Iterable[str], lang: str = "en") -> Markup:
    """Draw a mana cost given as `('{2}', '{W}')`, kept on one line."""
    inner = "".join(mana_symbol(s.strip("{}"), lang) for s in symbols)
    return Markup(f'<span class="cost">{inner}</span>') if inner else Markup("")


def typography(text: str, lang: str) -> str:
    """`--` as a dash; in French, no line break before `: ; ! ? »` or after `«` (the space is kept, unbreakable)."""
    text = _DASHES.sub("—", text)
    if lang == "fr":
        text = _FR_AFTER.sub("\u00a0", _FR_BEFORE.sub("\u00a0", text))
    return text


def with_symbols(text: str, lang: str = "en") -> Markup:
    """Escape plain text, drawing every `{…}` mana or tap symbol."""
    return Markup(_symbols(text, lang))


def _symbols(text: str, lang: str) -> str:
    """Escaped text with its symbols drawn, as a str of HTML."""
    out, pos = [], 0
    for m in _SYMBOL.finditer(text):
        out.append(escape(text[pos : m.start()]))
        symbol, pos = mana_symbol(m.group(1), lang), m.end()
        stuck = _STUCK.match(text, pos)  # `{1},`: the comma never starts the next line alone
        if stuck and stuck.group():
            symbol, pos = Markup(f'<span class="nb">{symbol}{escape(stuck.group())}</span>'), stuck.end()
        out.append(symbol)
    out.append(escape(text[pos:]))
    return "".join(out)


def number_page(number: str) -> str | None:
    """The page holding a rule number or a translation's row of its own (`fr-703.4h`), relative to the tree root
    (`rules/120.html`; sections on contents)."""
    head = number.rsplit("-", 1)[-1].split(".")[0]
    if len(head) == 1:
        return "contents.html"
    return f"rules/{head}.html" if len(head) == 3 else None


_NONCE = secrets.token_hex(8)
"""A secret of this process inside every tooltip mark: a text holding kb's mark characters (`\\x1e`, `\\x1f`) can
neither break a page nor put kb's words in it (the sources replace them too, with a warning)."""
_TIP = re.compile(f"\x1e{_NONCE}([a-z_]+)((?:\x1f[^\x1e\x1f]*)*)\x1e")


def tip(key: str, *args: str) -> str:
    """A reference's tooltip (`REF_WORDS[…][key]`) as a mark that `localise` writes in the page's interface language:
    the renderings of texts are shared by both interface trees, their tooltips are each tree's own."""
    return f"\x1e{_NONCE}{key}" + "".join("\x1f" + str(escape(arg)) for arg in args) + "\x1e"


def localise(html: str, ui: str) -> str:
    """A page with the tooltip marks of its references (`tip`) written in the interface's language."""
    if "\x1e" not in html:
        return html
    return _TIP.sub(lambda m: str(escape(tip_text(m.group(1), m.group(2).split("\x1f")[1:], ui))), html)


def tip_text(key: str, args: list[str], ui: str) -> str:
    """A tooltip's words in the interface's language, from the arguments its mark holds."""
    words, names = _words(REF_WORDS, ui), _words(LANG_WORDS, ui)
    if key == "other":
        number, lang, where = args
        return words["other"].format(n=number, lang=names.get(lang, lang), other=names.get(where, where))
    if key == "renumbered":  # `502.2 (2015) → 502.3: rule 502.2 of 2015 is numbered 502.3 today`
        number, year, today = args
        moved = f"{number} ({year}) → {today}" if year else f"{number} → {today}"
        return f"{moved}{SEPARATORS.get(ui, ': ')}{words['renumbered'].format(n=number, year=year, today=today)}"
    if key == "miscited":  # `701.21 → 701.32: the original (2015) cites 701.22 here`
        number, today, meant, year = args
        return words[key].format(n=number, today=today, meant=meant, year=year)
    if key in ("dated", "dated_missing"):
        number, date, *today = args
        return words[key].format(n=number, date=long_date(date, ui), today="".join(today))
    number, *year = args
    return words[key].format(n=number, year="".join(year))


class RenderCache:
    """Rendered texts kept for the next pages, the least recently used dropped beyond `limit` characters: a
    rule's text is rendered once for its page in both interface trees (rendered one after the other) and for the
    previews of the pages near it, without the whole site's HTML held in memory."""

    def __init__(self, limit: int = RENDER_CACHE_CHARS) -> None:
        self.limit = limit
        self.size = 0
        self._items: OrderedDict[tuple, tuple[Markup, tuple[str, ...]]] = OrderedDict()

    def get(self, key: tuple) -> tuple[Markup, tuple[str, ...]] | None:
        found = self._items.get(key)
        if found is not None:
            self._items.move_to_end(key)
        return found

    def __setitem__(self, key: tuple, value: tuple[Markup, tuple[str, ...]]) -> None:
        old = self._items.pop(key, None)
        if old is not None:
            self.size -= len(old[0])
        self._items[key] = value
        self.size += len(value[0])
        while self.size > self.limit and len(self._items) > 1:
            _, dropped = self._items.popitem(last=False)
            self.size -= len(dropped[0])

    def __len__(self) -> int:
        return len(self._items)


@dataclass
class Linker:
    """Turns references into links for one page, remembering the rule texts the page must preview."""

    root: str
    """Prefix from the page to the root of its tree (`""` or `"../"`)."""
    rows: dict[str, dict[str, str]]
    """Language -> its own rule numbers -> the row (reference number, the anchor) showing it."""
    texts: dict[tuple[str, str], tuple[str, str]]
    """(language, row number) -> (the rule's own number, the text shown in the preview)."""
    today: dict[str, dict[str, str]] = field(default_factory=dict)
    """Language -> a number it cites without having it -> today's reference number, to look for in the others."""
    cache: dict | RenderCache = field(default_factory=dict)
    """Rendered texts shared by the pages of a build: key -> (HTML, preview ids it needs)."""
    parts: dict[str, str] = field(default_factory=dict)
    """Row -> its page, for the rows of a cut rule that are not on its first page (`SiteData.row_parts`)."""
    miscited: Mapping[tuple[str, str], Mapping[str, Miscitation]] = field(default_factory=dict)
    """(language, a translated rule's own number) -> the numbers it cites that its original does not
    (`KnowledgeBase.miscited`): linked as what the original cites in their place, and flagged."""
    ui: str = ""
    """The page's interface language: the language of the flags' words (the text's own when none)."""
    previews: dict[str, tuple[str, str, str]] = field(default_factory=dict)
    """Preview element id -> (language, number, text), filled while rendering."""
    _recording: list[dict[str, None]] = field(default_factory=list)
    """Previews used by each rendering being cached (nested ones included), in the order met."""

    def target(self, number: str, lang: str, own: bool = True) -> tuple[str, str, str] | None:
        """(href, language of the text it leads to, row) of a rule a text of `lang` cites by its own number.

        The row showing that rule in `lang`, else the row of today's rule it is (read in the numbering of the
        text's edition, `today`) in another language; None when it has none today or cannot be read. With `own`
        false, `number` is today's reference number (a dated ruling's, already followed to today).
        """
        row, where = (self.rows.get(lang, {}).get(number) if own else None), lang
        if not own:
            row = number
            if (lang, row) not in self.texts:
                where = next((other for other in self.rows if other != lang and (other, row) in self.texts), "")
        elif row is None:
            reading = self.today.get(lang, {}).get(number)
            row = number if reading is None else reading.today
            if row is None:
                return None
            where = next((other for other in self.rows if other != lang and (other, row) in self.texts), "")
        page = self.page(row) if where else None
        return (f"{self.root}{page}#{row}", where, row) if page else None

    def page(self, row: str) -> str | None:
        """The page showing a row, relative to the tree root: its rule's page, or the part of it holding the row."""
        found = number_page(row)
        return (self.part_of(row) or found) if found else None

    def part_of(self, row: str) -> str | None:
        """The part of a cut rule holding a row (`rules/702-2.html`), or None when the row is on its rule's page."""
        return self.parts.get(row)

    def rule_link(self, number: str, lang: str, label: str | None = None, preview: bool = True) -> Markup:
        """A link to a rule, in `lang` or else in the language that has it, or a marked unresolved number."""
        return Markup(self._rule_link(number, lang, escape(label or number), preview))

    def _rule_link(self, number: str, lang: str, label: str, preview: bool, title: str = "", own: bool = True) -> str:
        """`rule_link` as a str of HTML; `label` is already escaped; `title` says why it leads where it does;
        `own` false for today's reference number (see `target`)."""
        mine = own and number not in self.rows.get(lang, {})
        reading = self.today.get(lang, {}).get(number) if mine else None
        if reading is not None and reading.today is None and reading.status != "absent":
            return self._unread(reading, lang, label)
        found = self.target(number, lang, own)
        if found is None:
            return f'<span class="ref-missing" title="{tip("missing", number)}">{label}</span>'
        href, where, row = found
        extra = f' title="{title}"' if title else ""  # a tip's mark (`tip`), never escaped twice
        pid = self.preview_id(row, where) if preview else ""
        if reading is not None and reading.status == "renumbered":  # say it: `502.2 (2015) → 502.3`
            title = tip("renumbered", number, reading.year or "", row)
            extra = f' hreflang="{where}" title="{title}"' if where != lang else f' title="{title}"'
            pid = self.preview_id(f"{row}~{number}~{reading.year}", where) if preview else ""
        elif where != lang:
            extra = f' hreflang="{where}" title="{tip("other", number, lang, where)}"'
        if not preview:
            return f'<a href="{href}"{extra}>{label}</a>'
        cls = "ref ref-other" if where != lang else "ref"
        return f'<a class="{cls}" href="{href}" aria-describedby="{pid}"{extra}>{label}</a>'

    def _miscited(self, m: Miscitation, lang: str, label: str) -> str:
        """A number a translation cites that its original does not: linked to today's rule of the number its
        original cites in its place (none when it cites none), never to the number's own rule; flagged."""
        flag = cite_flag(m, self.ui or lang)
        meant = m.meant
        if meant is None:
            return f'<span class="ref-dated ref-miscited">{label}</span>{flag}'
        if meant.today is None:
            return self._unread(meant, lang, label) + flag
        found = self.target(meant.today, lang, own=False)
        if found is None:
            title = escape(_words(REF_WORDS, lang)["missing"].format(n=meant.today))
            return f'<span class="ref-missing" title="{title}">{label}</span>{flag}'
        href, where, row = found
        said = tip("miscited", m.cited, row, meant.number, meant.year or "?")
        extra = f' hreflang="{where}"' if where != lang else ""
        cls = "ref ref-other ref-miscited" if where != lang else "ref ref-miscited"
        pid = self.preview_id(row, where)
        return f'<a class="{cls}" href="{href}" aria-describedby="{pid}"{extra} title="{said}">{label}</a>{flag}'

    def _unread(self, reading, lang: str, label: str) -> str:
        """A number that has no rule of today: its history when lineage says it went, else marked unlinked."""
        title = tip(reading.status, reading.number, reading.year or "?")
        if reading.gone is None:
            return f'<span class="ref-dated" title="{title}">{label}</span>'
        page = f"changes/{file_slug(reading.gone[0])}--{file_slug(reading.gone[1])}.html"
        return f'<a class="ref-gone" href="{self.root}{page}#was-{escape(reading.number)}" title="{title}">{label}</a>'

    def text(self, text: str, lang: str, rule: str | None = None) -> Markup:
        """Escape rule text, linking every cited rule and drawing symbols (`rule`: the number of the rule whose
        text it is, whose citations are checked against its original's)."""
        fixes = self.miscited.get((lang, rule), {}) if rule else {}
        key = ("text", lang, text, rule, self.ui) if fixes else ("text", lang, text)  # flags: the interface's words
        return self.cached(key, lambda: self._linked(text, lang, None, None, fixes))

    def paragraphs(self, text: str, lang: str, rule: str | None = None) -> Markup:
        """Rule text split into `<p>` per line (`rule`: as for `text`)."""
        fixes = self.miscited.get((lang, rule), {}) if rule else {}
        key = ("par", lang, text, rule, self.ui) if fixes else ("par", lang, text)
        return self.cached(key, lambda: self._paragraphs(text, lang, None, None, fixes))

    def definition(self, text: str, lang: str, see: tuple[tuple[int, int, str], ...] = ()) -> Markup:
        """A glossary definition as `paragraphs`, the terms it sends to (`see`: (start, end, anchor) in `text`,
        `kb.site.glossary.see_links`) linked to their entries on the page."""
        if not see:
            return self.paragraphs(text, lang)
        return self.cached(("def", lang, text, see), lambda: self._paragraphs(text, lang, None, see=see))

    def plain(
        self, text: str, lang: str, names: dict[str, str] | None = None, dated: tuple[Mapping, str] | None = None
    ) -> Markup:
        """Card-data text or a Gatherer ruling, as written (no markdown): paragraphs, symbols, rules and card names.

        `dated` is `(citations, date)` for a dated ruling: a cited number leads to `citations[number]` (today's
        number of the rule it meant then), and stays unlinked when lineage could not follow it.
        """
        linked: set[str] = set()
        return Markup(self._paragraphs(typography(text, lang), lang, (names, linked), dated))

    def dated_link(self, number: str, lang: str, citations: Mapping, date: str) -> Markup:
        """A rule number cited by a dated ruling: a link to today's rule it meant, or a marked unlinked number."""
        return Markup(self._dated_link(number, lang, escape(number), citations, date))

    def row_link(self, row: str, lang: str, label: str, title: str = "", preview: bool = True) -> Markup:
        """A link to a row of a rule page (its text previewed in `lang`, else in the language that has it)."""
        where = lang if (lang, row) in self.texts else next((o for o in self.rows if (o, row) in self.texts), "")
        page = self.page(row)
        if not where or page is None:
            return escape(label)
        extra = f' hreflang="{where}"' if where != lang else ""
        extra += f' title="{escape(title)}"' if title else ""
        if preview:
            extra = f' class="ref" aria-describedby="{self.preview_id(row, where)}"{extra}'
        return Markup(f'<a href="{self.root}{page}#{escape(row)}"{extra}>{escape(label)}</a>')

    def prose(
        self, text: str, lang: str, names: dict[str, str] | None = None, dated: tuple[Mapping, str] | None = None
    ) -> Markup:
        """FAQ prose: inline markdown only (emphasis, links), symbols, typography, cited rules and card names.

        A card name (each face of a split card alike) is linked where it first appears with its exact case
        (`’` and `'` alike), the longest name winning where names overlap; a rule number wherever it is cited
        (read as a dated ruling's when `dated` is given, see `plain`).
        """
        linked: set[str] = set()
        paras = [p for p in text.split("\n") if p.strip()]
        return Markup(
            "".join(f"<p>{self._inline(typography(p, lang), lang, (names, linked), dated)}</p>" for p in paras)
        )

    def preview_id(self, row: str, lang: str) -> str:
        """The id of the hidden element holding the preview of a row's rule in a language, registered for this page."""
        pid = f"pv-{lang}-{row}"
        self._register(pid)
        return pid

    def cached(self, key: tuple, make) -> Markup:
        """`make()` rendered once per build and page depth; the previews it needs are registered on every page."""
        key = (self.root, *key)
        hit = self.cache.get(key)
        if hit is None:
            self._recording.append({})
            try:
                html = Markup(make())
            finally:
                used = self._recording.pop()
            hit = self.cache[key] = (html, tuple(used))  # in the order met: a page is the same, cached or not
        for pid in hit[1]:
            self._register(pid)
        return hit[0]

    def previews_html(self) -> Markup:
        """The hidden texts of the rules this page previews, one element each."""
        return Markup(
            "".join(
                f'<div id="{escape(pid)}" lang="{escape(lang)}"><b>{escape(number)}</b> {escape(text)}</div>\n'
                for pid, (lang, number, text) in self.previews.items()
            )
        )

    def _register(self, pid: str) -> None:
        """Register a preview for this page and for every rendering being cached (`pv-en-502.3~502.2~2015`: the
        preview of today's 502.3 headed `502.2 (2015) → 502.3`, for a text numbered as in 2015)."""
        if pid not in self.previews:
            lang, row = pid[3:].split("-", 1)
            row, _, moved = row.partition("~")
            number, text = self.texts.get((lang, row), (row, ""))
            if moved:
                old, _, year = moved.partition("~")
                number = f"{old} ({year}) → {number}" if year else f"{old} → {number}"
            self.previews[pid] = (lang, number, text)
        for used in self._recording:
            used[pid] = None

    def _paragraphs(
        self, text: str, lang: str, names, dated: tuple | None = None, fixes: Mapping = EMPTY, see: tuple = ()
    ) -> str:
        """`<p>` per non-empty line, each linked (`see`: spans of `text` linked to anchors of the page)."""
        if not see:
            lines = text.split("\n")
            return "".join(f"<p>{self._linked(p, lang, names, dated, fixes)}</p>" for p in lines if p.strip())
        out, start = [], 0
        for line in text.split("\n"):
            end = start + len(line)
            if line.strip():
                spans = [(s - start, e - start, "#" + anchor) for s, e, anchor in see if start <= s and e <= end]
                out.append(f"<p>{self._linked(line, lang, names, dated, fixes, spans)}</p>")
            start = end + 1
        return "".join(out)

    def _dated_link(self, number: str, lang: str, label: str, citations: Mapping, date: str) -> str:
        """`dated_link` as a str of HTML; `label` is already escaped."""
        today = citations.get(number)
        if today is None:
            return f'<span class="ref-dated" title="{tip("dated_missing", number, date)}">{label}</span>'
        title = tip("dated", number, date, today) if today != number else ""
        return self._rule_link(today, lang, label, True, title, own=False)

    def _linked(
        self, text: str, lang: str, names, dated: tuple | None, fixes: Mapping = EMPTY, anchors: list | None = None
    ) -> str:
        """Escaped text with symbols, cited rules linked and, when `names` is `(name -> path, linked)`, card names.

        `dated` (`(citations, date)`) reads the cited numbers as a dated ruling's (see `plain`); `fixes` (cited
        number -> `Miscitation`) are the numbers of a translated rule that its original does not cite; `anchors`
        ((start, end, `#anchor`)) are words linked to a place on the page."""
        spans = [(r.start, r.end, r.targets[0]) for r in find_references(text, lang)]
        cards = _name_spans(text, names[0], names[1], spans) if names and names[0] else []
        out, pos = [], 0
        for start, end, what in sorted(spans + cards + (anchors or [])):
            out.append(_symbols(text[pos:start], lang))
            label = escape(text[start:end])
            if what.startswith("#"):
                out.append(f'<a href="{escape(what)}">{label}</a>')
            elif what.startswith("card:"):
                out.append(f'<a href="{escape(self.root + what[5:])}">{label}</a>')
            elif dated is not None:
                out.append(self._dated_link(what, lang, label, *dated))
            elif what in fixes:
                out.append(self._miscited(fixes[what], lang, label))
            else:
                out.append(self._rule_link(what, lang, label, True))
            pos = end
        out.append(_symbols(text[pos:], lang))
        return "".join(out)

    def _inline(self, text: str, lang: str, names, dated: tuple | None = None) -> str:
        """One paragraph of inline markdown, its text linked (link texts aside)."""
        out, in_link = [], False
        tags = {"em_open": "<em>", "em_close": "</em>", "strong_open": "<strong>", "strong_close": "</strong>"}
        for token in _inline().parseInline(text)[0].children or ():
            if token.type == "text":
                out.append(
                    _symbols(token.content, lang) if in_link else self._linked(token.content, lang, names, dated)
                )
            elif token.type in tags:
                out.append(tags[token.type])
            elif token.type == "link_open":
                in_link = True
                out.append(f'<a href="{escape(str(token.attrGet("href") or ""))}">')
            elif token.type == "link_close":
                in_link = False
                out.append("</a>")
            elif token.type in ("softbreak", "hardbreak"):
                out.append(" ")
            else:
                out.append(escape(token.content))
        return "".join(out)


def cite_flag(m: Miscitation, ui: str) -> Markup:
    """The mark after a translation's citation its original does not make, saying so in the interface's words."""
    return Markup(f'<abbr class="cite-flag" lang="{escape(ui)}" title="{escape(miscited_title(m, ui))}">≠</abbr>')


def _name_spans(
    text: str, names: dict[str, str], linked: set[str], taken: list[tuple[int, int, str]]
) -> list[tuple[int, int, str]]:
    """(start, end, `card:path`) of the first exact-case occurrence of each name not linked yet, longest first."""
    folded = text.translate(_APOS)
    by_name = {name.translate(_APOS): path for name, path in names.items() if name.strip()}
    pattern = "|".join(re.escape(n) for n in sorted(by_name, key=len, reverse=True))
    found = []
    for m in re.finditer(rf"(?<!\w)(?:{pattern})(?!\w)", folded):
        name = m.group()
        if name in linked or any(s < m.end() and m.start() < e for s, e, _ in taken):
            continue
        linked.add(name)
        found.append((m.start(), m.end(), "card:" + by_name[name]))
    return found
