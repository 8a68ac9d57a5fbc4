"""The card pages of the site: each card's page (its sides in each language, rulings side by side, keyword
abilities linked to their rules), the card index and each set's page.

A card pool has tens of thousands of cards: what their pages look up alike is made once (`CardShared`), and a
card page's context is made as it is written (`card_job`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache, partial

from markupsafe import Markup, escape

from kb.model import Card, card_name
from kb.model.langs import ordered_langs
from kb.site.gather import SiteData
from kb.site.labels import long_date, words
from kb.site.output import Job
from kb.site.parts import index_parts, part_title, part_words
from kb.site.render import mana_cost
from kb.site.terms import keyword_rules
from kb.sources import file_slug, sort_name
from kb.sources import search_fold as fold


class CardShared:
    """What tens of thousands of card pages look up alike, made once: keyword abilities' rules and French names,
    mana costs drawn."""

    def __init__(self, rows: dict[str, str], lexicon) -> None:
        self.rows = rows
        """Folded keyword ability -> the row of its rule (`keyword_index`)."""
        self.lexicon = lexicon
        self._french: dict[str, tuple[str, ...]] = {}
        self._costs: dict[tuple[tuple[str, ...], str], Markup] = {}

    def french(self, name: str) -> tuple[str, ...]:
        """The lexicon's French names of a keyword ability, best first (none without a lexicon)."""
        if name not in self._french:
            self._french[name] = self.lexicon.french_for(name, "keyword") if self.lexicon is not None else ()
        return self._french[name]

    def cost(self, symbols: tuple[str, ...], lang: str) -> Markup:
        """A mana cost drawn (`render.mana_cost`)."""
        key = (symbols, lang)
        if key not in self._costs:
            self._costs[key] = mana_cost(symbols, lang)
        return self._costs[key]


def card_job(data: SiteData, card: Card, keywords: CardShared, ui: str) -> Job:
    """A card's page in an interface tree."""
    name = data.name(card, ui)
    ctx = {"title": name, "current": "cards:item", "card": card, "ui": ui}
    return Job(f"{ui}/{data.card_path[card.id]}", "card.html", ctx, partial(_card_context, data, card, keywords, ui))


def _card_context(data: SiteData, card: Card, shared: CardShared, ui: str) -> dict:
    """The part of a card page's context made as it is rendered: its sides (the interface's language first, each
    face's cost drawn, `cost_html`), rulings and keywords (`lexicon_marked`: some named through the lexicon)."""
    sides = sorted(card_sides(card, data), key=lambda side: side["lang"] != ui)  # the interface's language first
    for side in sides:
        for face in side["faces"]:
            face["cost_html"] = shared.cost(face["cost"], side["lang"])
    text = "\n".join(face["text"] for side in sides if side["lang"] == ui for face in side["faces"])
    found = card_keywords(shared, card, text, ui)
    for side in sides:
        side["said"] = side_said(data.kb, card, side["source"], ui)
        printed_by = next((d.id for d in data.kb.documents if d.source == card.source.path), None)
        side["faq_href"] = faq_card_href(data, card, printed_by) if side["source"][0] == "faq" else None
    rulings, printed = ruling_rows(data, card, ui), other_printed_names(card)
    named = [lang for lang in data.faq_names.get(card.id, {}) if lang not in card.names]
    return {
        "sides": sides,
        "rulings": rulings,
        "keywords": found,
        "printed": printed,
        "names": data.names(card),
        "faq_named": named,
        "lexicon_marked": any(k["how"] == "lexicon" for k in found),
    }


def side_said(kb, card: Card, source: tuple[str, tuple[str, ...], str | None], ui: str) -> str:
    """Where a card side's text comes from, with its date, in the interface's words."""
    t, (kind, sets, date) = words(ui), source
    if kind == "printed":
        key = "text_printed_dated" if date else "text_printed"
        return t[key].format(sets=", ".join(sets), date=long_date(date, ui))
    if kind == "faq":
        document = next((d.id for d in kb.documents if d.source == card.source.path), None)
        date = next((f.last_modified for f in kb.faqs if f.document == document), None)
        return t["text_faq_dated" if date else "text_faq"].format(date=long_date(date, ui))
    return t["text_oracle"]


def faq_card_href(data: SiteData, card: Card, document: str | None) -> str | None:
    """Where an FAQ (its document id) lists a card (`faq/x.html#card-<id>`, the part of a cut FAQ holding it), from
    the tree's root; None when it does not."""
    for part in data.faq_parts.get(document or "", ()):
        if any(listed.id == card.id for listed in part.cards):
            return f"{part.path}#card-{card.id}"
    return None


def other_printed_names(card: Card) -> list[tuple[str, str, tuple[str, ...]]]:
    """(language, name, sets) of every name the card was printed with but the one it is shown under, newest first."""
    found: dict[tuple[str, str], tuple[str, ...]] = {}
    for printed in card.printed:
        if printed.name and printed.name != card.names.get(printed.lang):
            key = (printed.lang, printed.name)
            found[key] = tuple(dict.fromkeys((*found.get(key, ()), *printed.sets)))
    return [(lang, name, sets) for (lang, name), sets in found.items()]


Index = dict[str, list[tuple[str, str]]]
"""Language -> (name, path) of each card listed, alphabetical."""


@dataclass(frozen=True, slots=True)
class CardIndexes:
    """The lists of the card index's pages and of each set's page, each with its links (`<li>…</li>` by language,
    the same in both interface trees: made once)."""

    parts: list[tuple[Index, dict[str, Markup]]]
    """The card index, or its parts when it is too large for one page."""
    sets: dict[str, tuple[Index, dict[str, Markup]]]
    """Set code -> its cards, sets by code."""


def card_indexes(data: SiteData) -> CardIndexes:
    """The card index's lists and each set's, every name's collation key made once."""
    collate = cache(sort_name)

    def key(pair: tuple[str, str]) -> str:
        return collate(pair[0])

    parts = [(index, _links(index)) for index in index_parts(card_index(data, key))]
    return CardIndexes(parts, {code: (index, _links(index)) for code, index in set_index(data, key).items()})


def _links(index: Index) -> dict[str, Markup]:
    """Language -> the links of a card list, as the card index shows them."""
    return {
        lang: Markup("".join(f'<li><a href="{escape(path)}">{escape(name)}</a></li>\n' for name, path in names))
        for lang, names in index.items()
    }


def card_index_jobs(data: SiteData, ui: str, indexes: CardIndexes) -> list[Job]:
    """The card index: one page, or its parts (`cards.html`, `cards-2.html`…) when it is too large for one; then
    one page per set (`cards-set-dis.html`), each linked from every page of the index."""
    t = words(ui)
    found = [(ui_first(index, ui), links) for index, links in indexes.parts]  # the interface's language first
    files = ["cards.html"] + [f"cards-{i}.html" for i in range(2, len(found) + 1)]
    listed = [(file, _first_last(part[0])) for file, part in zip(files, found, strict=True)] if len(found) > 1 else []
    by_set = {code: (ui_first(index, ui), links) for code, (index, links) in indexes.sets.items()}
    sets = [(set_file(code), code) for code in by_set]
    named = data.kb.set_names
    jobs = []
    for i, (file, (index, links)) in enumerate(zip(files, found, strict=True)):
        title = t["card_index"]
        if listed:
            title = part_title(title, i + 1, len(listed), ui)
        ctx = {"title": title, "current": "cards", "index": index, "links": links, "part": i + 1, "parts": listed,
               "pw": part_words(ui), "sets": sets, "set_code": "", "set_name": "",
               "set_links": set_links(sets, "", named)}  # fmt: skip
        jobs.append(Job(file, "cards.html", ctx))
    for at, ((file, code), (index, links)) in enumerate(zip(sets, by_set.values(), strict=True)):
        shown = f"{named[code]} ({code})" if code in named else code
        nearby, more = _nearby(sets, at), f"{t['by_set']} ({len(sets)})" if len(sets) > SETS_LISTED else ""
        ctx = {"title": f"{t['card_index']} — {shown}", "current": "cards", "index": index, "links": links, "part": 1,
               "parts": [], "pw": part_words(ui), "sets": sets, "set_code": code, "set_name": named.get(code, ""),
               "set_links": set_links(nearby, code, named, more)}  # fmt: skip
        jobs.append(Job(file, "cards.html", ctx))
    return jobs


SETS_LISTED = 61
"""Sets a set's page links to: all of them when there are no more, else the nearest ones and the card index's list
of every set (each set's page listing every set would make the site grow with the square of their number)."""


def _nearby(sets: list[tuple[str, str]], at: int) -> list[tuple[str, str]]:
    """The sets around the one at `at` (all of them when there are at most SETS_LISTED)."""
    if len(sets) <= SETS_LISTED:
        return sets
    start = min(max(0, at - SETS_LISTED // 2), len(sets) - SETS_LISTED)
    return sets[start : start + SETS_LISTED]


def set_links(sets: list[tuple[str, str]], current: str, names: Mapping[str, str], more: str = "") -> Markup:
    """The links to the sets' pages (a pool has hundreds, on each page of the index), each by its code and, when a
    card data file gave it, its name (`DIS` Dissension); the current one marked; `more`: the words of a last link,
    to the card index's list of every set."""
    marks = {current: ' aria-current="page"'}
    links = "".join(
        f'<li><a href="{escape(file)}"{marks.get(code, "")}><span class="set-code">{escape(code)}</span>'
        + (f' <span class="set-name" lang="en">{escape(names[code])}</span>' if code in names else "")
        + "</a></li>"
        for file, code in sets
    )
    return Markup(links + (f'<li><a href="cards.html#sets-h">{escape(more)}</a></li>' if more else ""))


def ui_first(by_lang: dict, ui: str) -> dict:
    """A mapping by language with the interface's language first (its names head each interface's lists)."""
    return dict(sorted(by_lang.items(), key=lambda item: item[0] != ui))


def set_file(code: str) -> str:
    """The page of a set's cards (`DIS` -> `cards-set-dis.html`)."""
    return f"cards-set-{file_slug(code, 'set')}.html"


def set_index(data: SiteData, key: Callable[[tuple[str, str]], str] = lambda p: sort_name(p[0])) -> dict[str, Index]:
    """Set code -> language -> (name, path) of each card printed in it, alphabetical (`key`: a name's collation
    key); sets by code."""
    found: dict[str, dict[str, list[tuple[str, str]]]] = {}
    for card in data.kb.cards:
        for code in card.printings:
            index = found.setdefault(code, {})
            for lang, name in data.names(card).items():
                index.setdefault(lang, []).append((name, data.card_path[card.id]))
    return {
        code: {lang: sorted(found[code][lang], key=key) for lang in ordered_langs(found[code])}
        for code in sorted(found, key=str.casefold)
    }


def _first_last(index: dict[str, list[tuple[str, str]]]) -> str:
    """`Abc – Xyz`: the first and last names of a part of the card index (its first language's)."""
    names = next((names for names in index.values() if names), [])
    return f"{names[0][0]} – {names[-1][0]}" if names else ""


def card_index(data: SiteData, key: Callable[[tuple[str, str]], str] = lambda p: sort_name(p[0])) -> Index:
    """Language -> (name, path) of every card, alphabetical (`key`: a name's collation key)."""
    index: dict[str, list[tuple[str, str]]] = {}
    for card in data.kb.cards:
        for lang, name in data.names(card).items():
            index.setdefault(lang, []).append((name, data.card_path[card.id]))
    return {lang: sorted(index[lang], key=key) for lang in ordered_langs(index)}


def card_sides(card: Card, data: SiteData | None = None) -> list[dict]:
    """The card's text in each language, French first: `[{lang, faces: [{name, name_lang, cost, type, text, power,
    toughness}], source}]` (`name_lang`: the name's own language, another where the side's has none), from the
    printed text of card data (`oracle`: `fr_text`, `en_type`…), else its faces'; `source` says where the text comes
    from (`_side_source`)."""
    langs = {face.lang for face in card.faces} | {key[:-5] for key in card.oracle if key.endswith("_text")}
    sides = []
    for lang in ordered_langs(list(langs)):
        texts = _split(card.oracle.get(f"{lang}_text"), "\n//\n", len(card.faces))
        types = _split(card.oracle.get(f"{lang}_type"), " // ", len(card.faces))
        faces = []
        for i, face in enumerate(card.faces):
            own = face.lang == lang
            if texts is None and not own:
                continue
            name = face.names.get(lang) or (card_name(card, lang) if len(card.faces) == 1 else card_name(face, lang))
            if data is not None and len(card.faces) > 1:
                name = data.face_name(card, i, lang)  # the FAQ's « Coup » where the card data names none
            names = {**card.names, **face.names} if len(card.faces) == 1 else face.names
            named = lang if name == names.get(lang) else next((x for x, n in names.items() if n == name), lang)
            faces.append(
                {
                    "name": name,
                    "name_lang": named,
                    "cost": face.mana_cost,
                    "power": face.power,
                    "toughness": face.toughness,
                    "type": types[i] if types else (face.type_line if own else ""),
                    "text": texts[i] if texts else face.text,
                }
            )
        if faces:
            sides.append({"lang": lang, "faces": faces, "source": _side_source(card, lang, texts is not None)})
    return sides


def _side_source(card: Card, lang: str, from_data: bool) -> tuple[str, tuple[str, ...], str | None]:
    """Where a side's text comes from: (`oracle`, (), None) for the card data's own language (today's reference
    wording), (`printed`, sets, release date) for a printing in another language, (`faq`, (), None) for a text only
    an FAQ prints."""
    if not from_data:
        return "faq", (), None
    printed = [p for p in card.printed if p.lang == lang]
    if not printed:
        return "oracle", (), None
    shown = card.oracle.get(f"{lang}_text")
    found = next((p for p in printed if p.text == shown), printed[0])
    return "printed", found.sets, found.released


def _split(value: str | None, separator: str, count: int) -> list[str] | None:
    """A card-data field cut into its faces' parts (`A // B`), or None when absent or cut otherwise."""
    if not value:
        return None
    parts = value.split(separator) if count > 1 else [value]
    return parts if len(parts) == count else None


def ruling_rows(data: SiteData, card: Card, ui: str = "") -> dict:
    """A card's rulings, each with the ruling of the other language saying the same (`translation_of`):
    `{"langs", "rows": [{lang: ruling}], "plain": {id: bool}, "source": {id: label}, "heads": {lang: labels},
    "where": {lang: card-data label or ""}, "dates": {id: its date, else its FAQ's}, "others": {id: [the other cards
    it names that have a page]}, "at": {id: where its FAQ lists the card, or None}}`, FAQ rulings first in their
    order, then the rest; the interface's language's column first."""
    groups = data.card_rulings[card.id]
    plain = {r.id: group[3] for group in groups for r in group[2]}
    source = {r.id: group[1] for group in groups for r in group[2]}
    langs = sorted(ordered_langs(list(dict.fromkeys(group[0] for group in groups))), key=lambda lang: lang != ui)
    rows = _paired(data, groups, plain)
    heads: dict[str, str] = {}
    where: dict[str, str] = {}
    for lang, label, _rulings, is_plain in groups:
        heads[lang] = f"{heads[lang]}, {label}" if lang in heads else label
        where.setdefault(lang, label if is_plain else "")
    faq_dates = {info.document: info.last_modified for info in data.kb.faqs}
    dates = {r.id: r.date or faq_dates.get(r.source_document) for group in groups for r in group[2]}
    paths = data.card_path
    others = {r.id: [c for c in r.card_refs if c != card.id and c in paths] for row in rows for r in row.values()}
    at = {r.id: faq_card_href(data, card, r.source_document) for row in rows for r in row.values() if not plain[r.id]}
    return {"langs": langs, "rows": rows, "plain": plain, "source": source, "heads": heads, "where": where,
            "dates": dates, "others": others, "at": at}  # fmt: skip


def _paired(data: SiteData, groups: list, plain: dict[str, bool]) -> list[dict]:
    """A card's rulings in rows, in their groups' order: each with the card's ruling of another language it is the
    translation of (`translation_of`), when that one is not in a row already."""
    placed: set[str] = set()
    rows = []
    for ruling in (r for group in groups for r in group[2]):
        if ruling.id in placed:
            continue
        row = {ruling.lang: ruling}
        partner = data.kb.ruling.get(ruling.translation_of or "")
        if partner is not None and partner.id in plain and partner.id not in placed and partner.lang != ruling.lang:
            row[partner.lang] = partner
        placed.update(r.id for r in row.values())
        rows.append(row)
    return rows


def keyword_index(data: SiteData) -> dict[str, str]:
    """Folded keyword ability -> the row of its rule (`flying` -> `702.9`)."""
    return {fold(name): number for number, name in keyword_rules(data.kb).items()} if data.kb.reference == "en" else {}


def card_keywords(keywords: CardShared, card: Card, text: str, ui: str) -> list[dict]:
    """The card's keyword abilities named in the interface's language: `name`, its `lang`, the `row` of its rule
    (or None) and `how` the name was found (`printed`: in `text`, the card's printed text in that language;
    `lexicon`: from the printed-card lexicon; `""`: the keyword's own English name)."""
    found = []
    for name in card.keywords:
        shown, lang, how = name, "en", ""
        if ui != "en" and keywords.lexicon is not None:
            candidates = keywords.french(name) if ui == "fr" else ()
            printed = next((_printed(c, text) for c in candidates if _printed(c, text)), None)
            if printed:
                shown, lang, how = printed, ui, "printed"
            elif candidates:
                shown, lang, how = candidates[0], ui, "lexicon"
        found.append({"name": shown, "lang": lang, "row": keywords.rows.get(fold(name)), "how": how})
    return found


def _printed(term: str, text: str) -> str | None:
    """`term` as the card's text prints it (a whole word or words, any case), capitalised; None when absent."""
    match = re.search(rf"(?<!\w){re.escape(term)}(?!\w)", text, re.IGNORECASE)
    return match.group(0)[:1].upper() + match.group(0)[1:] if match else None
