"""Text to HTML for the site: rule references as links, mana symbols, FAQ markdown, search folding.

Everything returned here is `Markup` built from escaped pieces; rendered markdown is trusted in `markdown()` only.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from markdown_it import MarkdownIt
from markupsafe import Markup, escape

from kb.parse.refs import find_references
from kb.sources.text import APOSTROPHES

_MD = MarkdownIt("commonmark", {"html": False})
_SYMBOL = re.compile(r"\{([^{}\s]{1,6})\}")
_APOS = str.maketrans(dict.fromkeys(APOSTROPHES, "'"))
COLOURS = {"W": "white", "U": "blue", "B": "black", "R": "red", "G": "green", "C": "colourless", "S": "snow"}
SPECIAL = {"T": ("tap", "↷"), "Q": ("untap", "↶"), "X": ("X", "X"), "Y": ("Y", "Y"), "Z": ("Z", "Z")}
LANG_NAMES = {"fr": "Français", "en": "English", "de": "Deutsch", "es": "Español", "it": "Italiano"}
GAP_LABELS = {"fr": "Absent du texte français", "en": "Not in the English text"}


def lang_name(lang: str) -> str:
    """The language's own name (`Français`), or its code in capitals."""
    return LANG_NAMES.get(lang, lang.upper())


def gap_label(lang: str) -> str:
    """Label of an empty cell of a language's column."""
    return GAP_LABELS.get(lang, f"No {lang_name(lang)} text")


def fallback_label(lang: str, edition: str, aligned: str) -> str:
    """Explain a cell filled from another edition than the language's aligned one."""
    if lang == "fr":
        return f"Absente de l’édition alignée ({aligned}) : texte de l’édition {edition}"
    return f"Not in the aligned edition ({aligned}): text from edition {edition}"


def mana_symbol(code: str) -> Markup:
    """Draw one mana symbol (`W`, `2`, `G/U`, `T`) as a styled span with a text alternative."""
    parts = code.upper().split("/")
    if len(parts) == 2 and all(p in COLOURS or p.isdigit() or p == "P" for p in parts):
        words = " or ".join(COLOURS.get(p, "Phyrexian" if p == "P" else p) for p in parts)
        label = f"{{{code}}}: hybrid {words} mana"
        halves = Markup("").join(Markup('<span class="ms-half ms-{}">{}</span>').format(p.lower(), p) for p in parts)
        return Markup('<span class="ms ms-hybrid" role="img" aria-label="{}" title="{}">{}</span>').format(
            label, label, halves
        )
    key = parts[0]
    if key in COLOURS:
        label, glyph = f"{{{code}}}: {COLOURS[key]} mana", key
    elif key in SPECIAL:
        label, glyph = f"{{{code}}}: {SPECIAL[key][0]}", SPECIAL[key][1]
    elif key.isdigit():
        label, glyph = f"{{{code}}}: {key} generic mana", key
    else:
        label, glyph = f"{{{code}}}", key
    return Markup('<span class="ms ms-{}" role="img" aria-label="{}" title="{}">{}</span>').format(
        key.lower() if key.isalnum() else "other", label, label, glyph
    )


def mana_cost(symbols: Iterable[str]) -> Markup:
    """Draw a mana cost given as `('{2}', '{W}')`."""
    return Markup("").join(mana_symbol(s.strip("{}")) for s in symbols)


def with_symbols(text: str) -> Markup:
    """Escape plain text, drawing every `{…}` mana or tap symbol."""
    out, pos = [], 0
    for m in _SYMBOL.finditer(text):
        out.append(escape(text[pos : m.start()]))
        out.append(mana_symbol(m.group(1)))
        pos = m.end()
    out.append(escape(text[pos:]))
    return Markup("").join(out)


def markdown(text: str, previews: dict[str, str] | None = None) -> Markup:
    """Render trusted FAQ prose (raw HTML disabled) to HTML: the one place markdown becomes Markup.

    `previews` maps a link target to the id of its preview: such links become `a.ref` described by it.
    """
    tokens = _MD.parse(text)
    for token in (child for t in tokens for child in (t.children or ())):
        if previews and token.type == "link_open" and token.attrGet("href") in previews:
            token.attrSet("class", "ref")
            token.attrSet("aria-describedby", previews[str(token.attrGet("href"))])
    return Markup(_MD.renderer.render(tokens, _MD.options, {}))


def number_page(number: str) -> str | None:
    """The page holding a rule number, relative to the site root (`rules/120.html`; sections on contents)."""
    head = number.split(".")[0]
    if len(head) == 1:
        return "contents.html"
    return f"rules/{head}.html" if len(head) == 3 else None


@dataclass
class Linker:
    """Turns references into links for one page, remembering the rule texts the page must preview."""

    root: str
    """Prefix from the page to the site root (`""` or `"../"`)."""
    anchors: dict[str, set[str]]
    """Language -> rule numbers that have a row (an anchor) in the site."""
    texts: dict[tuple[str, str], str]
    """(language, number) -> text shown in the preview."""
    previews: dict[str, tuple[str, str, str]] = field(default_factory=dict)
    """Preview element id -> (language, number, text), filled while rendering."""

    def href(self, number: str, lang: str) -> str | None:
        """Relative link to a rule's row, or None when the site has no row for it in that language."""
        page = number_page(number)
        if page is None or number not in self.anchors.get(lang, ()):
            return None
        return f"{self.root}{page}#{number}"

    def rule_link(self, number: str, lang: str, label: str | None = None, preview: bool = True) -> Markup:
        """A link to a rule (with a preview unless told otherwise), or a marked unresolved number."""
        href = self.href(number, lang)
        if href is None:
            title = f"{number}: not in the {lang_name(lang)} rules loaded"
            return Markup('<span class="ref-missing" title="{}">{}</span>').format(title, label or number)
        if not preview:
            return Markup('<a href="{}">{}</a>').format(href, label or number)
        pid = self.preview_id(number, lang)
        return Markup('<a class="ref" href="{}" aria-describedby="{}">{}</a>').format(href, pid, label or number)

    def text(self, text: str, lang: str) -> Markup:
        """Escape rule text, linking every cited rule and drawing symbols."""
        out, pos = [], 0
        for ref in find_references(text, lang):
            out.append(with_symbols(text[pos : ref.start]))
            out.append(self.rule_link(ref.targets[0], lang, text[ref.start : ref.end]))
            pos = ref.end
        out.append(with_symbols(text[pos:]))
        return Markup("").join(out)

    def paragraphs(self, text: str, lang: str) -> Markup:
        """Rule text split into `<p>` per line."""
        return Markup("").join(Markup("<p>{}</p>").format(self.text(p, lang)) for p in text.split("\n") if p.strip())

    def prose(self, text: str, lang: str, names: dict[str, str] | None = None) -> Markup:
        """FAQ markdown with cited rules (with previews) and the given card names (name -> site path) as links.

        A card name is linked where it first appears with its exact case (`’` and `'` alike), the longest
        name winning where names overlap; a rule number is linked wherever it is cited.
        """
        spans, previews = [], {}
        for ref in find_references(text, lang):
            href = self.href(ref.targets[0], lang)
            if href is not None:
                spans.append((ref.start, ref.end, href))
                previews[href] = self.preview_id(ref.targets[0], lang)
        spans += _name_spans(text, {name: self.root + path for name, path in (names or {}).items()}, spans)
        out, pos = [], 0
        for start, end, href in sorted(spans):
            out.append(text[pos:start] + f"[{text[start:end]}](<{href}>)")
            pos = end
        return markdown("".join(out) + text[pos:], previews)

    def preview_id(self, number: str, lang: str) -> str:
        """The id of the hidden element holding the rule's preview, registered for this page."""
        pid = f"pv-{lang}-{number}"
        if pid not in self.previews:
            self.previews[pid] = (lang, number, self.texts.get((lang, number), ""))
        return pid


def _name_spans(text: str, names: dict[str, str], taken: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """(start, end, href) of the first exact-case occurrence of each target's names, longest name first."""
    if not names:
        return []
    folded = text.translate(_APOS)
    by_name = {name.translate(_APOS): href for name, href in names.items() if name.strip()}
    pattern = "|".join(re.escape(n) for n in sorted(by_name, key=len, reverse=True))
    found, linked = [], set()
    for m in re.finditer(rf"(?<!\w)(?:{pattern})(?!\w)", folded):
        href = by_name[m.group()]
        if href in linked or any(s < m.end() and m.start() < e for s, e, _ in taken):
            continue
        linked.add(href)
        found.append((m.start(), m.end(), href))
    return found
