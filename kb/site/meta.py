"""What a page says to the programs that fetch it, not to its reader: the description, OpenGraph and Twitter card
tags a chat or a search engine shows for a link (a rule page: its number, title and the first sentence of its text
in the interface's language), its canonical address (with `--base-url`), and the site map."""

from __future__ import annotations

import re
from xml.sax.saxutils import escape

from kb.site.gather import SiteData
from kb.site.labels import words
from kb.site.output import Job

DESCRIPTION_CHARS = 200
"""Longest description: chats cut theirs at about this length."""
LOCALES = {"fr": "fr_FR", "en": "en_US"}
"""OpenGraph's locale of each interface language."""
_SENTENCE = re.compile(r"^(.+?[.!?])(?:\s|$)", re.DOTALL)
_SPACES = re.compile(r"\s+")


def page_meta(data: SiteData, job: Job, ui: str | None) -> dict[str, str]:
    """The tags of a page: `description` (for search engines: whole), `og_description` (for a card that shows the
    title above it: without the title), `og_type` (`article` for a rule or a card, else `website`), `locale`."""
    ui = ui or "fr"
    t = words(ui)
    context = job.context
    title = context.get("title") or t["brand"]
    if job.template == "rule.html":
        head, said = rule_description(data, context["page"], ui)
    elif job.template == "card.html":
        head, said = card_description(data, context["card"], ui)
    elif job.template in ("choose.html", "home.html", "404.html"):
        head, said = "", t["meta_site"]
    else:
        head, said = title, t["meta_site"]
    kind = "article" if job.template in ("rule.html", "card.html") else "website"
    whole = f"{head} — {said}" if head and said else head or said
    return {
        "description": shorten(whole),
        "og_description": shorten(said or whole),
        "og_type": kind,
        "locale": LOCALES.get(ui, ui),
    }


def first_sentence(text: str) -> str:
    """A text's first sentence (its first line when no sentence ends in it), spaces folded."""
    line = text.strip().split("\n", 1)[0]
    found = _SENTENCE.match(line)
    return _SPACES.sub(" ", found.group(1) if found else line).strip()


def shorten(text: str, limit: int = DESCRIPTION_CHARS) -> str:
    """A text cut at a word before `limit` characters, with `…`."""
    text = _SPACES.sub(" ", text).strip()
    if len(text) <= limit:
        return text
    return text[: limit - 1].rsplit(" ", 1)[0].rstrip(",;:") + "…"


def rule_description(data: SiteData, page, ui: str) -> tuple[str, str]:
    """(`121. Drawing a Card`, `121.1 A player draws a card by putting the top card of their library into their
    hand.`): the page's rule and title, and the first sentence of its first text, in the interface's language when it
    has that rule (else the reference's), under the number of its row on the page."""
    title, _ = page.title_in(ui)
    head = f"{page.head}. {title}".rstrip(". ") if title else page.head
    for number in page.numbers:
        rule = data.rule_at(ui, number) or data.rule_at(data.kb.reference or ui, number)
        if rule is not None and rule.text and (rule.title or number != page.head or not title):
            sentence = first_sentence(rule.text)
            shown = sentence if number == page.head else f"{number.split('-')[-1]} {sentence}"
            return head, (shown if shown != title else "")
    return head, ""


def card_description(data: SiteData, card, ui: str) -> tuple[str, str]:
    """(`Isperia the Inscrutable`, `Legendary Creature — Sphinx. Flying`): a card's name, type and first sentence in
    the interface's language when the card has it (its face's, else its card data's Oracle text in English)."""
    name = data.name(card, ui)
    face = next((f for f in card.faces if f.lang == ui), card.faces[0] if card.faces else None)
    if face is None:
        return name, ""
    type_line, text = face.type_line, face.text
    if face.lang != ui and card.oracle.get(f"{ui}_type"):
        type_line, text = card.oracle[f"{ui}_type"], card.oracle.get(f"{ui}_text", "")
    sentence = first_sentence(text) if text else ""
    return name, type_line + (f". {sentence}" if sentence and type_line else sentence)


def sitemap(paths: list[str], base_url: str | None) -> str:
    """The site map of the pages at `paths` (from the site's root): absolute addresses with `base_url`, else the
    paths as they are (a search engine needs the absolute ones: build with --base-url)."""
    lines = ['<?xml version="1.0" encoding="UTF-8"?>', '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">']
    for path in paths:
        lines.append(f"<url><loc>{escape((base_url or '') + path)}</loc></url>")
    return "\n".join([*lines, "</urlset>", ""])
