"""Link cards: merge FAQ cards with card data, then link rulings and notes to the cards and rules they name.

Two phases: first every FAQ card is matched to a card-data card (exact folded name, then a close spelling, then
a split card's mana costs) and merged; then the texts are scanned against the names of the merged cards.
Nothing is mutated: the result holds new records.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from kb.model import Card, Diagnostic, Face, FaqNote, Ruling, SourceRef, card_name
from kb.model.langs import lang_key
from kb.parse.cards.mtgjson import CardDataResult
from kb.parse.faq.blocks import Positions, line_at
from kb.parse.faq.parse import FaqResult
from kb.parse.refs import find_references
from kb.sources import fold, unique

CLOSE_MATCH = 0.8
WORD = r"[^\W_]"
# Capitalised name after a French article or elision: « le Clone », « l'Obscur confident », « du Vide ».
FR_MENTION = re.compile(
    r"(?<![^\W_])(?:[Ll]es?|[Ll]a|[Dd]u|[Dd]es|[Ll]['’]|[Dd]e [Ll]a|[Dd]e [Ll]['’])\s?"
    r"((?:[A-ZÀ-ÖØ-Þ][\w’'-]*)(?:(?:\s+(?:(?:de la|des|du|de)\s+|d['’])[a-zà-ÿ][\w-]*(?![\w'’]))"
    r"|(?:\s+[a-zà-ÿ][\w-]*(?:ant|ent|ante|ente|if|ive|ique|esque|aque|eux|euse|al|ale|el|elle|ée|é|ois|oise)\b))*)"
)
EN_MENTION = re.compile(r"\b(?:such as|like)\s+(?:an?\s+|the\s+)?([A-Z][\w'’-]+(?:\s+(?:of|the|[A-Z][\w'’-]+))*)")
NOT_NAMES = {"extension", "jeu", "partie", "tour", "carte", "cartes", "magic"}
# Verbs that look like adjectives (« le Clone arrive ») end a mention.
VERBS = {
    "arrive",
    "arrivent",
    "devient",
    "deviennent",
    "revient",
    "vient",
    "contient",
    "obtient",
    "peuvent",
    "doivent",
    "affectent",
    "changent",
    "ont",
    "sont",
    "font",
    "disent",
}
EMPHASIS = re.compile(r"_[^_\n]+_")


@dataclass(frozen=True, slots=True)
class CardLinks:
    """Merged cards and linked rulings and notes."""

    cards: tuple[Card, ...]
    """Every card of the FAQs and the card data, once each."""
    rulings: tuple[Ruling, ...]
    """FAQ rulings then card-data rulings, pointing to merged card ids, with their links."""
    notes: tuple[FaqNote, ...]
    """FAQ notes with merged card ids and their links."""
    diagnostics: tuple[Diagnostic, ...]
    """Unmatched names, close spellings, cost mismatches, unresolved rule references."""
    cards_by_document: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Document id -> merged ids of the cards it prints (FAQ) or describes (card data), in document order."""


@dataclass(slots=True)
class _Merged:
    """A card being merged from its sources."""

    base: Card
    names: dict[str, str]
    faces: list[Face]
    rulings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    aliases: set[str] = field(default_factory=set)
    from_data: bool = False
    has_faq: bool = False
    faq_rulings: list[str] = field(default_factory=list)
    source: SourceRef | None = None
    id: str = ""
    spellings: dict[str, str] = field(default_factory=dict)
    other_langs: dict[str, str] = field(default_factory=dict)


def _keys(card: Card) -> set[str]:
    """Return the folded names a card answers to (full names and halves)."""
    keys = {fold(name) for name in card.names.values()}
    keys |= {fold(name) for face in card.faces for name in face.names.values()}
    return {key for key in keys if key}


def _merge_faces(faces: list[Face], other: tuple[Face, ...]) -> list[Face]:
    """Add the other source's face names to the faces (same order)."""
    if len(faces) != len(other):
        return faces
    return [replace(face, names={**o.names, **face.names}) for face, o in zip(faces, other, strict=True)]


def _match(card: Card, data: list[_Merged], index: dict[str, _Merged]) -> tuple[_Merged | None, str]:
    """Find the card-data card of an FAQ card; return it and how (`exact`, `close`, `cost`, ``)."""
    full = fold(next(iter(card.names.values()), ""))
    for key in [full, *sorted(_keys(card))]:
        if key in index:
            return index[key], "exact"
    lang = card.faces[0].lang if card.faces else ""
    same_lang = {fold(m.base.names[lang]): m for m in data if lang in m.base.names}
    close = difflib.get_close_matches(full, list(same_lang), n=1, cutoff=CLOSE_MATCH)
    if close and len(same_lang[close[0]].faces) == len(card.faces):
        return same_lang[close[0]], "close"
    if len(card.faces) > 1:
        costs = [f.mana_cost for f in card.faces]
        found = [m for m in data if len(m.faces) == len(costs) and [f.mana_cost for f in m.faces] == costs]
        if len(found) == 1:
            return found[0], "cost"
    return None, ""


def _index(merged: Sequence[_Merged]) -> dict[str, _Merged]:
    """Map every folded name of the given cards to its card."""
    index: dict[str, _Merged] = {}
    for item in merged:
        for key in _keys(item.base) | item.aliases:
            index.setdefault(key, item)
    return index


def _cost_diag(card: Card, item: _Merged) -> list[Diagnostic]:
    """Compare an FAQ card's mana costs with the card data's."""
    faq = [f.mana_cost for f in card.faces]
    data = [f.mana_cost for f in item.base.faces]
    if faq == data:
        return []
    shown = " // ".join("".join(c) or "(none)" for c in faq)
    expected = " // ".join("".join(c) or "(none)" for c in data)
    return [
        Diagnostic(
            "warning",
            card.source.path,
            card.source.line,
            f"mana cost of {card_name(card)} is {shown} here but {expected} for {item.base.names['en']} in "
            f"{item.base.source}; check the FAQ or the card data",
        )
    ]


def _match_diag(card: Card, item: _Merged | None, how: str, has_data: bool) -> list[Diagnostic]:
    """Say how an FAQ card was matched to the card data, when not exactly."""
    where, name = (card.source.path, card.source.line), card_name(card)
    if item is None:
        if not has_data:
            return []
        return [
            Diagnostic(
                "warning",
                *where,
                f"no card named {name!r} in the card data; it keeps no English "
                "name: check the spelling against the printed card",
            )
        ]
    shown = " / ".join(f"{k} {v!r}" for k, v in item.base.names.items())
    if how == "close":
        return [Diagnostic("note", *where, f"{name!r} matched {shown} by close spelling ({item.base.source})")]
    if how == "cost":
        return [
            Diagnostic(
                "note",
                *where,
                f"split card {name!r} matched {shown} by its mana costs (the card "
                f"data has no French name for it, {item.base.source})",
            )
        ]
    return []


def _add_faq_card(card: Card, item: _Merged) -> None:
    """Fold one FAQ printing into a merged card."""
    for lang, name in card.names.items():
        item.names.setdefault(lang, name)
        if item.names[lang] != name:
            item.spellings.setdefault(f"faq_name_{lang}", name)
    item.aliases |= _keys(card)
    if item.has_faq:
        item.faces = _merge_faces(item.faces, card.faces)
        lang = card.faces[0].lang if card.faces else ""
        if lang and all(face.lang != lang for face in item.faces):  # another language: keep its type and text
            item.other_langs.setdefault(f"{lang}_type", " // ".join(face.type_line for face in card.faces))
            item.other_langs.setdefault(f"{lang}_text", "\n//\n".join(face.text for face in card.faces))
    else:
        item.faces = _merge_faces(list(card.faces), tuple(item.faces))
        item.source = card.source
    item.has_faq = True
    item.faq_rulings.extend(card.rulings)
    item.notes.extend(card.notes)


def _merge(faqs: Sequence[FaqResult], card_data: Sequence[CardDataResult]):
    """Merge FAQ cards with card-data cards; return the merged cards, a (document, card id) map and diagnostics."""
    where: dict[tuple[str, str], _Merged] = {}
    data: list[_Merged] = []
    for res in card_data:
        for c in res.cards:
            data.append(_Merged(c, dict(c.names), list(c.faces), from_data=True))
            where[(res.document.id, c.id)] = data[-1]
    data_index = _index(data)
    faq_only: list[_Merged] = []
    order: list[_Merged] = []
    diags: list[Diagnostic] = []
    for result in faqs:
        for card in result.cards:
            item, how = _match(card, data, data_index) if data else (None, "")
            diags += _match_diag(card, item, how, bool(data))
            if item is not None:
                diags += _cost_diag(card, item)
            else:
                item = next((m for m in faq_only if _keys(card) & (_keys(m.base) | m.aliases)), None)
                if item is None:
                    item = _Merged(card, dict(card.names), list(card.faces))
                    faq_only.append(item)
            if not item.has_faq:
                order.append(item)
            _add_faq_card(card, item)
            where[(result.document.id, card.id)] = item
    order += [item for item in data if not item.has_faq]
    taken: set[str] = set()
    for item in order:
        item.id = unique(item.base.id, taken)
    return order, where, diags


def _data_ruling_id(ruling_id: str, item: _Merged) -> str:
    """Return a card-data ruling's id under its merged card's id (`plains/en/1` -> `plains-2/en/1`)."""
    prefix = item.base.id + "/"
    return item.id + "/" + ruling_id[len(prefix) :] if ruling_id.startswith(prefix) else ruling_id


def _freeze(item: _Merged) -> Card:
    """Build the merged card."""
    data_rulings = tuple(_data_ruling_id(r, item) for r in item.base.rulings) if item.from_data else ()
    data = item.base.oracle if item.from_data else {}
    oracle = {**item.other_langs, **{k: v for k, v in data.items() if v or k not in item.other_langs}, **item.spellings}
    rulings = tuple(item.faq_rulings) + data_rulings
    return Card(
        item.id,
        dict(item.names),
        tuple(item.faces),
        rulings,
        tuple(dict.fromkeys(item.notes)),
        item.source or item.base.source,
        oracle,
    )


@dataclass(frozen=True, slots=True)
class _Names:
    """Folded card names and the regex that finds them."""

    ids: dict[str, str]
    """Folded name -> card id."""
    pattern: re.Pattern[str] | None
    """Longest-first alternation of the names, on folded text."""


def _names(cards: Sequence[Card], aliases: dict[str, set[str]]) -> _Names:
    """Index every card by its names, halves, `A/B` spellings and FAQ spellings."""
    ids: dict[str, str] = {}
    for card in cards:
        keys = _keys(card) | aliases.get(card.id, set())
        for lang in card.names:
            halves = [fold(face.names[lang]) for face in card.faces if lang in face.names]
            if len(halves) > 1:
                keys |= {"/".join(halves), " / ".join(halves)}
        for key in keys:
            ids.setdefault(key, card.id)
    if not ids:
        return _Names(ids, None)
    alternation = "|".join(re.escape(k) for k in sorted(ids, key=len, reverse=True))
    return _Names(ids, re.compile(rf"(?<!{WORD})({alternation})(?:e?s)?(?!{WORD})"))


def _fold_map(text: str) -> tuple[str, list[int]]:
    """Fold text character by character; return it and each folded character's original index."""
    out: list[str] = []
    where: list[int] = []
    for i, char in enumerate(text):
        folded = fold(char) or char
        out.append(folded)
        where.extend([i] * len(folded))
    return "".join(out), where


def scan_names(text: str, names: _Names, own: str = "") -> tuple[list[str], list[str]]:
    """Return the card ids a text names (longest name wins) and the card-like names it uses that match none."""
    refs: list[str] = []
    spans: list[tuple[int, int]] = []
    if names.pattern is not None:
        folded, where = _fold_map(text)
        for match in names.pattern.finditer(folded):
            start, end = where[match.start()], where[match.end() - 1] + 1
            key = match.group(1)
            if " " not in key and "/" not in key and not text[start].isupper():
                continue  # a one-word name in lower case is a plain word (« déterminé »)
            refs.append(names.ids[key])
            spans.append((start, end))
    mentions = []
    plain = EMPHASIS.sub(lambda m: " " * len(m.group()), text)  # _Ravnica_ is a set, not a card
    for pattern in (FR_MENTION, EN_MENTION):
        for match in pattern.finditer(plain):
            if any(s < match.end(1) and match.start(1) < e for s, e in spans):
                continue
            words = re.sub(r"['’]s$", "", match.group(1)).split()
            cut = next((i for i, w in enumerate(words) if fold(w) in NOT_NAMES or w in VERBS), len(words))
            name = re.sub(r"\s+(?:de|des|du|d['’])$", "", " ".join(words[:cut])).strip()
            if not name or fold(name) in NOT_NAMES:
                continue
            if own and own in names.ids.values() and _is_short_for(name, own, names):
                refs.append(own)
            else:
                mentions.append(name)
    return list(dict.fromkeys(refs)), list(dict.fromkeys(mentions))


def _is_short_for(name: str, card_id: str, names: _Names) -> bool:
    """Tell whether a name is the start of one of a card's names (« l'Ombre » for Ombre rampante)."""
    folded = fold(name)
    return any(key.startswith(folded + " ") for key, cid in names.ids.items() if cid == card_id)


@dataclass(frozen=True, slots=True)
class _Cites:
    """What the rule citations of one record are checked against, and how they are reported."""

    exists: Callable[[str, str, str | None], bool]
    """`rule_exists(lang, number, as_of)`: whether the loaded rules in force at that date have the number."""
    as_of: str | None
    """Date of the rules the text cites (the FAQ's date, the Gatherer ruling's date)."""
    diags: list[Diagnostic]
    """Where unresolved citations are reported."""


def _rule_refs(text: str, lang: str, what: str, where: SourceRef, positions: Positions, cites: _Cites) -> list[str]:
    """Return the rule numbers a text cites that are loaded; note the others on the line that holds them."""
    found: dict[str, None] = {}
    for match in find_references(text, lang):
        for target in match.targets:
            if cites.exists(lang, target, cites.as_of):
                found[target] = None
                continue
            line = line_at(positions, match.start, where.line)
            cites.diags.append(
                Diagnostic(
                    "note",
                    where.path,
                    line,
                    f"{what} cites rule {target} (rules as of {cites.as_of or 'an unknown date'}"
                    "), not among the loaded rules; load the comprehensive rules of that date to link it",
                )
            )
    return list(found)


def _link_ruling(r: Ruling, card: str, names: _Names, cites: _Cites, positions: Positions = ()) -> Ruling:
    """Return the ruling pointing to its merged card, with its card, rule and mention links."""
    refs, mentions = scan_names(r.text, names, own=card)
    rules = _rule_refs(r.text, r.lang, "ruling", r.source, positions, cites)
    return replace(r, card=card, card_refs=tuple(refs), mentions=tuple(mentions), rule_refs=tuple(rules))


def _link_note(
    n: FaqNote, cards: tuple[str, ...], names: _Names, cites: _Cites, positions: dict[tuple[str, int], Positions]
) -> FaqNote:
    """Return the note with merged card ids and the links of its text and bullets (quoted rules excluded)."""
    refs: list[str] = []
    mentions: list[str] = []
    rules: list[str] = []
    for part, text in enumerate((n.text, *n.bullets)):
        found, named = scan_names(text, names)
        refs += found
        mentions += named
        rules += _rule_refs(text, n.lang, "note", n.source, positions.get((n.id, part), ()), cites)
    return replace(
        n,
        cards=cards,
        card_refs=tuple(dict.fromkeys(refs)),
        mentions=tuple(dict.fromkeys(mentions)),
        rule_refs=tuple(dict.fromkeys(rules)),
    )


def _by_language(faqs: Sequence[FaqResult]) -> list[FaqResult]:
    """Order the FAQs French first (the product reads FR | EN), then by load order."""
    return sorted(faqs, key=lambda res: lang_key(res.document.lang)[0])


def link_cards(
    faqs: Sequence[FaqResult], card_data: Sequence[CardDataResult], rule_exists: Callable[[str, str, str | None], bool]
) -> CardLinks:
    """Merge the FAQ cards with the card data and link every ruling and note to cards and rules.

    A card keeps the faces of the first FAQ language (French first); another FAQ language's type line and text
    go to `Card.oracle` (`en_type`, `en_text`) unless the card data gives them.
    """
    faqs = _by_language(faqs)
    order, where, diags = _merge(faqs, card_data)
    cards = tuple(_freeze(item) for item in order)
    names = _names(cards, {item.id: item.aliases for item in order})
    rulings: list[Ruling] = []
    notes: list[FaqNote] = []
    for result in faqs:
        doc = result.document.id
        cites = _Cites(rule_exists, result.info.last_modified, diags)
        for r in result.rulings:
            item = where.get((doc, r.card))
            positions = result.positions.get((r.id, 0), ())
            rulings.append(_link_ruling(r, item.id if item else r.card, names, cites, positions))
        for n in result.notes:
            ids = tuple(dict.fromkeys(where[(doc, c)].id if (doc, c) in where else c for c in n.cards))
            notes.append(_link_note(n, ids, names, cites, result.positions))
    for result in card_data:
        for r in result.rulings:
            item = where[(result.document.id, r.card)]
            linked = _link_ruling(r, item.id, names, _Cites(rule_exists, r.date, diags))
            rulings.append(replace(linked, id=_data_ruling_id(r.id, item)))
    by_document = {
        res.document.id: tuple(dict.fromkeys(where[(res.document.id, c.id)].id for c in res.cards))
        for res in (*faqs, *card_data)
    }
    return CardLinks(cards, tuple(rulings), tuple(notes), tuple(diags), by_document)
