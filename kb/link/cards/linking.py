"""Link cards: merge FAQ cards with card data, then link rulings and notes to the cards and rules they name.

Two phases: first every FAQ card is matched to a card-data card (`card_match`: an exact printed name, then a
close spelling its cost, types and P/T confirm, then a split card's mana costs) and merged; then the texts are
scanned against the names of the merged cards.
Nothing is mutated: the result holds new records.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from kb.link.cards.match import CardMatcher, Match, match_diagnostics, names_in
from kb.model import Card, Diagnostic, Face, FaqNote, Ruling, SourceRef, card_name
from kb.model.langs import lang_key
from kb.parse.cards.mtgjson import CardDataResult
from kb.parse.faq.blocks import Positions, line_at
from kb.parse.faq.parse import FaqResult
from kb.parse.refs import find_references
from kb.sources import fold, unique

TOKEN = re.compile(r"[^\W_]+|[^\s]")
"""What names are cut into for lookup: a run of letters and digits, or any other single character."""
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
    """Return the folded names a card answers to (full names, halves, every printed name)."""
    return names_in(card)


def _merge_faces(faces: list[Face], other: tuple[Face, ...]) -> list[Face]:
    """Add the other source's face names to the faces (same order)."""
    if len(faces) != len(other):
        return faces
    return [
        face if o.names.items() <= face.names.items() else replace(face, names={**o.names, **face.names})
        for face, o in zip(faces, other, strict=True)
    ]  # a face kept as it is when the other adds no name (the first printing of a card: its own faces)


def _faq_only(card: Card, keys: set[str], made: list[_Merged], seen: dict[str, int]) -> _Merged:
    """The earliest FAQ-only card sharing a name with `card` (else a new one), its names indexed in `seen`.

    `made` lists the FAQ-only cards in creation order, `seen` maps a folded name to the first of them holding it.
    """
    ranks = [seen[key] for key in keys if key in seen]
    if ranks:
        rank = min(ranks)
    else:
        rank = len(made)
        made.append(_Merged(card, dict(card.names), list(card.faces)))
    for key in keys | _keys(made[rank].base):
        seen[key] = min(seen.get(key, rank), rank)
    return made[rank]


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
    matcher = CardMatcher([item.base for item in data])
    faq_only: list[_Merged] = []
    faq_names: dict[str, int] = {}  # folded name -> index in faq_only of the first card holding it
    order: list[_Merged] = []
    diags: list[Diagnostic] = []
    for result in faqs:
        for card in result.cards:
            keys = _keys(card)
            match = matcher.match(card, keys) if data else Match(None, "")
            item = data[match.index] if match.index is not None else None
            diags += match_diagnostics(card, item.base if item else None, match, bool(data))
            if item is not None:
                diags += _cost_diag(card, item)
            else:
                item = _faq_only(card, keys, faq_only, faq_names)
            if not item.has_faq:
                order.append(item)
            _add_faq_card(card, item)
            where[(result.document.id, card.id)] = item
    order += [item for item in data if not item.has_faq]
    taken: set[str] = set()
    for item in order:
        item.id = unique(item.base.id, taken)
    return order, where, diags


def _data_ruling_id(ruling_id: str, card_id: str, base_id: str) -> str:
    """Return a card-data ruling's id under its merged card's id (`plains/en/1` -> `plains-2/en/1`); `base_id`:
    the id of the card-data card it was merged from."""
    prefix = base_id + "/"
    return card_id + "/" + ruling_id[len(prefix) :] if ruling_id.startswith(prefix) else ruling_id


def _freeze(item: _Merged) -> Card:
    """Build the merged card."""
    data_rulings = tuple(_data_ruling_id(r, item.id, item.base.id) for r in item.base.rulings) if item.from_data else ()
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
        item.base.printings,
        item.base.keywords,
        item.base.printed,
    )


@dataclass(frozen=True, slots=True)
class _Names:
    """Folded card names and the regex that finds them."""

    ids: dict[str, str]
    """Folded name -> card id."""
    starts: frozenset[str]
    """Every token that can start a name: its first token, also with a plural `s`."""
    keys_of: dict[str, list[str]]
    """Card id -> its folded names in `ids` (a card's own names, without scanning every name)."""
    prefixes: frozenset[str]
    """Every run of a name's first tokens (`rakdos`, `rakdos pit`, `rakdos pit dragon`)."""


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
    starts: set[str] = set()
    keys_of: dict[str, list[str]] = {}
    prefixes: set[str] = set()
    for key, card_id in ids.items():
        keys_of.setdefault(card_id, []).append(key)
        spans = [m.span() for m in TOKEN.finditer(key)]
        if spans:
            begin, first = spans[0][0], key[spans[0][0] : spans[0][1]]
            starts.update((first, first + "s"))  # « Dragons » may start « Dragon … »
            prefixes.update(key[begin:end] for _, end in spans)
    return _Names(ids, frozenset(starts), keys_of, frozenset(prefixes))


_NON_ASCII = re.compile(r"[^\x00-\x7f]")
"""A character that may fold to several, or combine with the one before (ASCII never does)."""


@functools.lru_cache(maxsize=4096)
def _fold_char(char: str) -> str:
    """One character folded (cached: texts are folded character by character)."""
    return fold(char) or char


def _fold_map(text: str) -> tuple[str, list[int]]:
    """Fold text character by character; return it and each folded character's original index."""
    whole = fold(text)
    if len(whole) == len(text) and not any(unicodedata.combining(c) for c in _NON_ASCII.findall(text)):
        return whole, list(range(len(text)))  # every character folded to one: offsets are the same
    out: list[str] = []
    where: list[int] = []
    for i, char in enumerate(text):
        folded = _fold_char(char)
        out.append(folded)
        where.extend([i] * len(folded))
    return "".join(out), where


def _name_spans(folded: str, names: _Names) -> list[tuple[int, int, str]]:
    """Find card names in folded text, the longest at each place: (start, end, key) in folded offsets.

    Text is cut into tokens (runs of letters and digits, or one other character); a name is looked up as
    the exact folded text of a run of tokens, also without a plural `s`/`es`, never inside a word. Only the
    tokens that can start a name are tried (one dict access for each token).
    """
    starts = names.starts
    words = TOKEN.findall(folded)
    tried = [k for k, word in enumerate(words) if word in starts]
    if not tried:
        return []
    tokens = [m.span() for m in TOKEN.finditer(folded)]
    found: list[tuple[int, int, str]] = []
    ids, prefixes = names.ids, names.prefixes
    after = 0  # the first token not inside a name found
    for i in tried:
        if i < after:
            continue
        start, best = tokens[i][0], None
        for j in range(i, len(tokens)):  # longer while the run still begins some name
            piece = folded[start : tokens[j][1]]
            key = _known(piece, ids)
            if key:
                best = key, j
            if piece not in prefixes:
                break
        if best:
            found.append((start, start + len(best[0]), best[0]))
            after = best[1] + 1
    return found


def _known(piece: str, ids: dict[str, str]) -> str:
    """The name a run of tokens is, as it is or without a plural `s`/`es` ('' when none)."""
    if piece in ids:
        return piece
    if piece.endswith("s"):
        for key in (piece[:-1], piece[:-2] if piece.endswith("es") else ""):
            if key and key in ids and key[-1].isalnum():
                return key
    return ""


def scan_names(text: str, names: _Names, own: str = "") -> tuple[list[str], list[str]]:
    """Return the card ids a text names (longest name wins) and the card-like names it uses that match none."""
    refs: list[str] = []
    spans: list[tuple[int, int]] = []
    if names.ids:
        folded, where = _fold_map(text)
        for begin, finish, key in _name_spans(folded, names):
            start, end = where[begin], where[finish - 1] + 1
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
            if own and own in names.keys_of and _is_short_for(name, own, names):
                refs.append(own)
            else:
                mentions.append(name)
    return list(dict.fromkeys(refs)), list(dict.fromkeys(mentions))


def _is_short_for(name: str, card_id: str, names: _Names) -> bool:
    """Tell whether a name is the start of one of a card's names (« l'Ombre » for Ombre rampante)."""
    folded = fold(name)
    return any(key.startswith(folded + " ") for key in names.keys_of.get(card_id, ()))


@dataclass(frozen=True, slots=True)
class _Cites:
    """What the rule citations of one record are checked against, and how they are reported."""

    exists: Callable[[str, str, str | None], bool]
    """`rule_exists(lang, number, as_of)`: whether the loaded rules in force at that date have the number."""
    as_of: str | None
    """Date of the rules the text cites (the FAQ's date, the Gatherer ruling's date)."""
    diags: list[Diagnostic]
    """Where unresolved citations are reported."""
    messages: dict[tuple[str, str], str] = field(default_factory=dict)
    """(what, rule) -> the report's words: thousands of rulings may cite the same missing rule."""


def _rule_refs(text: str, lang: str, what: str, where: SourceRef, positions: Positions, cites: _Cites) -> list[str]:
    """Return the rule numbers a text cites that are loaded; note the others on the line that holds them."""
    found: dict[str, None] = {}
    for match in find_references(text, lang):
        for target in match.targets:
            if cites.exists(lang, target, cites.as_of):
                found[target] = None
                continue
            line = line_at(positions, match.start, where.line)
            message = cites.messages.get((what, target))
            if message is None:
                message = cites.messages[(what, target)] = (
                    f"{what} cites rule {target} (rules as of {cites.as_of or 'an unknown date'}"
                    "), not among the loaded rules; load the comprehensive rules of that date to link it"
                )
            cites.diags.append(Diagnostic("note", where.path, line, message))
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
    merged = {key: (item.id, item.base.id) for key, item in where.items()}  # (document, card id) -> (id, base id)
    del order, where  # the merge's working copies: what the rulings need of them is in `merged`
    rulings: list[Ruling] = []
    notes: list[FaqNote] = []
    for result in faqs:
        doc = result.document.id
        cites = _Cites(rule_exists, result.info.last_modified, diags)
        for r in result.rulings:
            card_id = merged[(doc, r.card)][0] if (doc, r.card) in merged else r.card
            positions = result.positions.get((r.id, 0), ())
            rulings.append(_link_ruling(r, card_id, names, cites, positions))
        for n in result.notes:
            ids = tuple(dict.fromkeys(merged[(doc, c)][0] if (doc, c) in merged else c for c in n.cards))
            notes.append(_link_note(n, ids, names, cites, result.positions))
    for result in card_data:
        for r in result.rulings:
            card_id, base_id = merged[(result.document.id, r.card)]
            linked = _link_ruling(r, card_id, names, _Cites(rule_exists, r.date, diags))
            rulings.append(replace(linked, id=_data_ruling_id(r.id, card_id, base_id)))
    by_document = {
        res.document.id: tuple(dict.fromkeys(merged[(res.document.id, c.id)][0] for c in res.cards))
        for res in (*faqs, *card_data)
    }
    return CardLinks(cards, tuple(rulings), tuple(notes), tuple(diags), by_document)
