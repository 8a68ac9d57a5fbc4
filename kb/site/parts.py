"""Pages kept to a size: a rule or an FAQ too large for one page is cut into parts, a text too large even alone is
shown cut with a link to its full text, and long lists of links are shortened.

Sizes are estimated from the texts before anything is rendered (characters, plus a fixed cost per item for the
markup around it), so that every part's path is known to the page plan: rule links, the jump map and the search
index all lead to the part holding a row. The default content is far below these limits: its pages are whole.
"""

from __future__ import annotations

from dataclasses import dataclass

from kb.model import Card, FaqNote, card_name
from kb.site.labels import WORDS

PAGE_CHARS = 2_000_000
"""Estimated characters of one page's items: with the markup, the previews and the site around them, a page stays
well under 5 MB."""
TEXT_CHARS = 200_000
"""Longest text shown whole; a longer one is cut at a space before this, with a link to its full text."""
ITEM_CHARS = 300
"""Estimated markup of one item (a row, a cell, a note, a card link) besides its text."""
LINK_CHARS = 80
"""Estimated size of one link of a list (`cited by`, `cited in`)."""
INDEX_CHARS = 400_000
"""Estimated characters of one page of the card index (a page of links, read on a phone too: a fifth of a rule
page's budget, about 300 KB of HTML)."""
LINKS_SHOWN = 200
"""Links of one list shown on a page (the rulings citing a rule, the cards mentioning one): the others are counted."""


def part_words(ui: str) -> dict[str, str]:
    """The words of cut pages in an interface language (English for one without its own)."""
    return WORDS.get(ui, WORDS["en"])


def part_title(title: str, i: int, n: int, ui: str) -> str:
    """A page's title with which part of `n` it is (`702. Keyword Abilities (part 2/11)`)."""
    return part_words(ui)["part_title"].format(title=title, i=i, n=n)


def cut(weights: list[int], starts: list[bool], budget: int) -> list[range]:
    """Consecutive items packed into parts of at most `budget` (an item larger than that alone in its part), cut
    before an item that `starts` a group when it can (a numbered rule and its subrules stay together)."""
    bounds, size, i = [0], 0, 0
    while i < len(weights):
        end = next((j for j in range(i + 1, len(weights)) if starts[j]), len(weights))
        total = sum(weights[i:end])
        if size and size + total > budget:
            bounds.append(i)
            size = 0
        if total <= budget:
            size += total
        else:  # a group larger than a page: cut between its items
            for j in range(i, end):
                if size and size + weights[j] > budget:
                    bounds.append(j)
                    size = 0
                size += weights[j]
        i = end
    return [range(a, b) for a, b in zip(bounds, [*bounds[1:], len(weights)], strict=True)]


def shown_chars(text: str) -> int:
    """How much of a text is shown: all of it, or up to the last space before `TEXT_CHARS` (`TEXT_CHARS` without
    one)."""
    if len(text) <= TEXT_CHARS:
        return len(text)
    space = max(text.rfind(" ", 0, TEXT_CHARS), text.rfind("\n", 0, TEXT_CHARS))
    return space if space > TEXT_CHARS // 2 else TEXT_CHARS


def shown_text(text: str) -> str:
    """The text as shown: whole, or its first `shown_chars` followed by `…`."""
    end = shown_chars(text)
    return text if end == len(text) else text[:end] + "…"


def text_chars(text: str) -> int:
    """Estimated characters a text takes on a page, once cut."""
    return min(len(text), TEXT_CHARS)


@dataclass(frozen=True, slots=True)
class FaqPart:
    """One page of an FAQ: its general notes and the cards it lists, all of them, or a part when the FAQ is cut."""

    path: str
    """Where the page is written, in each interface tree (`faq/x.html`, then `faq/x--2.html`…)."""
    notes: tuple[FaqNote, ...]
    cards: tuple[Card, ...]
    part: int = 1
    """Which part of its FAQ the page is, from 1."""
    parts: tuple[tuple[str, str], ...] = ()
    """(file name, first–last item) of every part of a cut FAQ, in order; empty for an FAQ on one page."""


def faq_parts(path: str, notes: list[FaqNote], cards: list[Card], lang: str | None = None) -> list[FaqPart]:
    """An FAQ's page, or its parts (notes, then cards, cut to `PAGE_CHARS`) when it is too large for one; the parts
    are named by their first and last items in the FAQ's language `lang`, the one its card list shows."""
    weights = [
        ITEM_CHARS
        + len(note.title)
        + sum(text_chars(text) for text in (note.text, *note.bullets))
        + sum(text_chars(quote.text) for quote in note.quoted_rules)
        for note in notes
    ] + [LINK_CHARS + sum(len(name) for name in card.names.values()) for card in cards]
    spans = cut(weights, [True] * len(weights), PAGE_CHARS)
    if len(spans) == 1:
        return [FaqPart(path, tuple(notes), tuple(cards))]
    names = [note.title or note.id for note in notes] + [card_name(card, lang) for card in cards]
    stem = path.removesuffix(".html")
    files = [path] + [f"{stem}--{i}.html" for i in range(2, len(spans) + 1)]
    listed = tuple(
        (file.rsplit("/", 1)[-1], _range(names[span.start], names[span.stop - 1]))
        for file, span in zip(files, spans, strict=True)
    )
    return [
        FaqPart(
            file,
            tuple(notes[span.start : min(span.stop, len(notes))]),
            tuple(cards[max(span.start - len(notes), 0) : max(span.stop - len(notes), 0)]),
            i + 1,
            listed,
        )
        for i, (file, span) in enumerate(zip(files, spans, strict=True))
    ]


def _range(first: str, last: str) -> str:
    """`Alpha – Omega`, or the one name."""
    return first if first == last else f"{first} – {last}"


def index_parts(index: dict[str, list[tuple[str, str]]]) -> list[dict[str, list[tuple[str, str]]]]:
    """The card index (language -> (name, path), alphabetical), cut into as many pages as its size asks for: each
    holds the same share of every language's list."""
    size = sum(LINK_CHARS + len(name) + len(path) for names in index.values() for name, path in names)
    budget = min(INDEX_CHARS, PAGE_CHARS)  # (a test lowering PAGE_CHARS cuts the index as much)
    count = max(1, -(-size // budget))
    if count == 1:
        return [index]
    return [
        {lang: names[len(names) * i // count : len(names) * (i + 1) // count] for lang, names in index.items()}
        for i in range(count)
    ]
