"""The typed-number box's view of the translations' own numbering, shipped in the site's `jump.json`.

A number typed in the box names a rule of today; a translation numbered as an older edition may hold a rule of
the same number that is another rule today (French 120.4, the empty library, is today's 121.4; today's 120.4 is
about damage). For those numbers the box offers both, in the order the interface reads them first.
"""

from __future__ import annotations

from kb.site.gather import SiteData
from kb.site.labels import UI_LANGS, lang_label, words
from kb.site.rulepages import short_label

START_WORDS = 10
"""Words of a rule's text shown under each choice: what each rule of that number is about."""


def own_numbers(data: SiteData, paths: dict[str, str]) -> dict:
    """`{"own": {lang: {its number: {"row", "path", "start"}}}, "numbering": {lang: year}, "titles": {number: {ui:
    [title, its language]}}, "starts": {number: [the start of today's rule, its language]}, "words": {ui: {...}}}`
    for the translations' rules whose number names another rule today (or none); `start`: the first words of the
    translation's rule, so that the choice says what each rule is.

    `paths` are the jump map's row -> page (`rules/121.html#121.4`)."""
    kb, own, titles, years, starts = data.kb, {}, {}, {}, {}
    for lang, edition in kb.primary.items():
        if lang == kb.reference:
            continue
        numbering = kb.numbering(lang)
        years[lang] = (kb.editions[numbering].effective_date or "")[:4] if numbering else ""
        for number in edition.rules:
            pair = kb.pair(lang, number)
            today = pair.ref_number if pair is not None else None
            row = data.rows.get(lang, {}).get(number)
            if today == number or row is None or row == number or row not in paths:
                continue  # the same number then and now, or a row of its own at a number today does not use
            start = short_label(edition.rules[number], START_WORDS)
            own.setdefault(lang, {})[number] = {"row": today, "path": paths[row], "start": start}
            if number in paths and kb.reference in kb.primary and number in kb.primary[kb.reference].rules:
                titles[number] = {ui: _title(data, number, ui) for ui in UI_LANGS}
                starts[number] = [short_label(kb.primary[kb.reference].rules[number], START_WORDS), kb.reference]
    keys = ("jump_own", "jump_own_none", "jump_own_undated", "jump_today", "jump_choice")
    box = {
        ui: {**{k: words(ui)[k] for k in keys}, "langs": {lang: lang_label(lang, ui) for lang in own}}
        for ui in UI_LANGS
    }
    return {"own": own, "numbering": years, "titles": titles, "starts": starts, "words": box}


def _title(data: SiteData, number: str, ui: str) -> list[str]:
    """[what today's rule of a number is called in an interface, its language]: its rule's title, the interface's
    when known, else the title in the language that has one (a printed-card term, which the box cannot mark as
    such, is left out)."""
    head = number.split(".")[0]
    titles = {lang: rule.title for lang, rule in data.kb.aligned(head).items() if rule.title}
    if ui in titles:
        return [titles[ui], ui]
    return next(([title, lang] for lang, title in titles.items()), ["", ui])
