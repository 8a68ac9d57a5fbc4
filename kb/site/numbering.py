"""The typed-number box's view of the translations' own numbering, shipped in the site's `jump.json`.

A number typed in the box names a rule of today; a translation numbered as an older edition may hold a rule of
the same number that is another rule today (French 120.4, the empty library, is today's 121.4; today's 120.4 is
about damage). For those numbers the box offers both, in the order the interface reads them first.
"""

from __future__ import annotations

from kb.link.readings import numbering_of
from kb.site.gather import SiteData
from kb.site.labels import UI_LANGS, lang_label, words


def own_numbers(data: SiteData, paths: dict[str, str]) -> dict:
    """`{"own": {lang: {its number: {"row", "path"}}}, "numbering": {lang: year}, "titles": {number: {ui: title}},
    "words": {ui: {...}}}` for the translations' rules whose number names another rule today (or none).

    `paths` are the jump map's row -> page (`rules/121.html#121.4`)."""
    kb, own, titles, years = data.kb, {}, {}, {}
    for lang, edition in kb.primary.items():
        if lang == kb.reference:
            continue
        numbering = numbering_of(kb, lang)
        years[lang] = (kb.editions[numbering].effective_date or "")[:4] if numbering else ""
        for number in edition.rules:
            pair = kb.pair(lang, number)
            today = pair.ref_number if pair is not None else None
            row = data.rows.get(lang, {}).get(number)
            if today == number or row is None or row == number or row not in paths:
                continue  # the same number then and now, or a row of its own at a number today does not use
            own.setdefault(lang, {})[number] = {"row": today, "path": paths[row]}
            if number in paths and kb.reference in kb.primary and number in kb.primary[kb.reference].rules:
                titles[number] = {ui: _title(data, number, ui) for ui in UI_LANGS}
    keys = ("jump_own", "jump_own_none", "jump_own_undated", "jump_today", "jump_choice")
    box = {
        ui: {**{k: words(ui)[k] for k in keys}, "langs": {lang: lang_label(lang, ui) for lang in own}}
        for ui in UI_LANGS
    }
    return {"own": own, "numbering": years, "titles": titles, "words": box}


def _title(data: SiteData, number: str, ui: str) -> str:
    """What today's rule of a number is called in an interface: its rule's title (the interface's when known)."""
    head = number.split(".")[0]
    label = data.rule_labels.get((ui, number)) or data.rule_labels.get((ui, head))
    if label:
        return label
    titles = {lang: rule.title for lang, rule in data.kb.aligned(head).items() if rule.title}
    return titles.get(ui) or next(iter(titles.values()), "")
