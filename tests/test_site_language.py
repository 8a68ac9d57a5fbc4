"""One language per interface: no interface string of the other language in the interface parts of any page of
either tree of the default site (the parts whose language, inherited through `lang`, is the tree's).

The word list is the site's own tables of interface strings (`kb.site.labels.WORDS`, and the tooltips of rule
references, `kb.site.render.REF_WORDS`): each string of the other language, cut at its placeholders, is looked
for in what the page shows in the interface's language, and in every tooltip, label and placeholder wherever it
stands (a reference's tooltip inside a French text of the English interface speaks English too); only a drawn
symbol's label follows the text it stands in. A label of the other language ending in a colon ("Cited by:") is
also looked for in the texts themselves, where the interface's words have no business either.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from kb.site.labels import UI_LANGS, WORDS, other_ui
from kb.site.render import REF_WORDS

SHOWN_ATTRS = ("title", "aria-label", "placeholder", "alt", "data-title")
"""Attributes a reader sees or hears."""
SKIPPED = {"script", "style", "code", "kbd", "pre"}
"""Elements whose text is not the interface's words (scripts, commands)."""
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class Interface(HTMLParser):
    """The text and shown attributes of a page, split into what is in the interface's language and the rest."""

    def __init__(self, ui: str) -> None:
        super().__init__(convert_charrefs=True)
        self.ui, self.stack, self.mine, self.rest, self.title = ui, [("", ui, False)], [], [], []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        _, lang, skipped = self.stack[-1]
        lang = (values.get("lang") or lang).split("-")[0]
        skipped = skipped or tag in SKIPPED
        symbol = "ms" in (values.get("class") or "").split()  # `{W}`: read as part of its text, in its language
        own = (values.get("lang") or self.ui).split("-")[0]  # an element's own lang: its words too (the ui switch)
        if not skipped:
            shown = [values[a] or "" for a in SHOWN_ATTRS if values.get(a)]
            content = symbol or own != self.ui or (lang != self.ui and _content_label(tag, values))
            (self.rest if content else self.mine).extend(shown)
        if tag not in VOID:
            self.stack.append((tag, lang, skipped))

    def handle_endtag(self, tag: str) -> None:
        for i in range(len(self.stack) - 1, 0, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                break

    def handle_data(self, data: str) -> None:
        tag, lang, skipped = self.stack[-1]
        if not skipped and data.strip():
            (self.mine if lang == self.ui else self.rest).append(data)
            if tag == "title":  # a page's title names its rule in the rule's language: no element to tag it
                self.title.append(data)


def _content_label(tag: str, values: dict[str, str | None]) -> bool:
    """Whether an element's label is content rather than interface words (a card side is labelled by its name)."""
    return tag == "section" and "card-side" in (values.get("class") or "")


def _norm(text: str) -> str:
    """Spaces of any kind as one space."""
    return re.sub(r"[\s\u00a0\u202f]+", " ", text).strip()


def foreign_strings(ui: str) -> list[tuple[str, str]]:
    """(key, fragment) of the other language's interface strings that the interface's own strings never hold:
    fragments between placeholders of at least two words or a word of eight letters."""
    other = other_ui(ui)
    tables = (WORDS, REF_WORDS)
    own = " | ".join(_norm(v) for table in tables for v in table[ui].values())
    found = []
    for key, value in (item for table in tables for item in table[other].items()):
        for piece in re.split(r"\{[^}]*\}", value):
            piece = _norm(piece).strip(" ,;·(")
            words = [w for w in piece.split() if sum(c.isalpha() for c in w) >= 2]
            if (len(words) >= 2 or any(len(w) >= 8 for w in words)) and piece not in own:
                found.append((key, piece))
    return found


RAW_ID = re.compile(r"\b[a-z]{2}:(undated|\d{4}-\d{2}-\d{2})\b|\bkb check\b")
"""What only the program speaks: an edition's id (`fr:undated`, `en:2026-01-16`), a command."""


def _colon_label(piece: str) -> bool:
    """Whether a fragment is a label introducing something (`Cited by:`), which no text of the rules holds."""
    return piece.endswith(":") and len(piece.split()) >= 2


@pytest.fixture(scope="module")
def site(bundled_kb, tmp_path_factory) -> Path:
    """The default site (the bundled content), both trees."""
    from kb.site.write import build_site

    return build_site(bundled_kb, tmp_path_factory.mktemp("language") / "site", search=False).out


def test_the_word_list_finds_words_of_the_other_language():
    """The check would see the English label of the citing rules and the French one of the search box."""
    assert ("cited_by", "Cited by:") in foreign_strings("fr")
    assert any(piece == "Rechercher une règle, un mot, une carte" for _, piece in foreign_strings("en"))
    assert ("other", "absente du texte") in foreign_strings("en")  # a reference's tooltip


def test_tooltips_are_interface_words_wherever_they_stand():
    """A tooltip inside a French text of the English interface is the interface's; a symbol's label is the text's."""
    parser = Interface("en")
    parser.feed(
        '<div lang="fr"><a title="Règle 704 absente du texte français">704</a>'
        '<span class="ms ms-w" role="img" aria-label="{W} : mana blanc">W</span></div>'
    )
    assert parser.mine == ["Règle 704 absente du texte français"] and "{W} : mana blanc" in parser.rest


@pytest.mark.parametrize("ui", UI_LANGS)
def test_no_interface_string_of_the_other_language(site, ui):
    """Every page of the `ui` tree: its interface parts hold none of the other language's interface strings."""
    strings = foreign_strings(ui)
    bad = []
    for page in sorted((site / ui).rglob("*.html")):
        parser = Interface(ui)
        parser.feed(page.read_text(encoding="utf-8"))
        mine, rest = _norm(" | ".join(parser.mine)), _norm(" | ".join(parser.rest))
        for key, piece in strings:
            if piece in mine or (_colon_label(piece) and piece in rest):
                bad.append(f"{page.relative_to(site)}: {key} {piece!r}")
        bad += [f"{page.relative_to(site)}: raw {m.group(0)!r}" for m in RAW_ID.finditer(mine)]
    assert not bad, f"{len(bad)} foreign strings, e.g.\n" + "\n".join(dict.fromkeys(bad[:40]))


OTHER_WORDS = {
    "fr": {"the", "of", "and", "with", "from", "rule", "rules", "see", "this", "is", "are", "for", "which", "that"},
    "en": {"dans", "des", "du", "les", "une", "aucune", "règle", "règles", "avec", "aux", "sont", "pour", "cette"},
}
"""Words only the other language writes: in what a page shows as the interface's language, they are text of the
other language left without its `lang` (a French card name, a note's title), or interface words no table holds."""
BRANDS = ("Magic: The Gathering", "Wizards of the Coast")


@pytest.mark.parametrize("ui", UI_LANGS)
def test_no_untagged_text_of_the_other_language(site, ui):
    """Every page of the `ui` tree: no word only the other language writes among what is shown as the interface's
    (its title aside: a rule's title in its own language, where no element can say so)."""
    bad = []
    for page in sorted((site / ui).rglob("*.html")):
        parser = Interface(ui)
        parser.feed(page.read_text(encoding="utf-8"))
        title = set(parser.title)
        for chunk in parser.mine:
            if chunk in title:
                continue
            for brand in BRANDS:
                chunk = chunk.replace(brand, "")
            words = set(re.findall(r"[^\W\d_]+", chunk.lower()))
            if words & OTHER_WORDS[ui]:
                bad.append(f"{page.relative_to(site)}: {_norm(chunk)[:90]!r}")
    assert not bad, f"{len(bad)} untagged, e.g.\n" + "\n".join(dict.fromkeys(bad[:40]))


def test_counts_take_the_singular_each_language_gives_them():
    from kb.site.labels import counted, words

    fr, en = words("fr"), words("en")
    assert [counted(fr, "numbers", n, "fr") for n in (0, 1, 2, 1200)] == [
        "0 numéro", "1 numéro", "2 numéros", "1\u202f200 numéros"
    ]  # fmt: skip
    assert [counted(en, "numbers", n, "en") for n in (0, 1, 2)] == ["0 numbers", "1 number", "2 numbers"]
    assert counted(fr, "glossary_found", 0, "fr") == "0 terme trouvé"


def test_pages_say_their_counts_in_the_singular_where_due(site):
    report = (site / "fr" / "report.html").read_text(encoding="utf-8")
    assert "toute la règle, 1 numéro<" in report and not re.search(r"\b1 numéros", report)  # rule 600: one number
    sources = (site / "fr" / "sources.html").read_text(encoding="utf-8")
    assert re.search(r"À la lecture des fichiers\u00a0: 0 erreur, \d+ avertissements, \d+ remarques\.", sources)


def test_the_sources_name_the_lexicon_of_printed_cards_as_unofficial(site):
    for ui, said in (("fr", "non officiels"), ("en", "unofficial")):
        for page in ("sources.html", "index.html"):
            html = (site / ui / page).read_text(encoding="utf-8")
            item = html.split("<strong>Lexique de kb" if ui == "fr" else "<strong>kb&#39;s lexicon")
            assert len(item) == 2 and said in item[1].split("</li>")[0], (ui, page)


def test_a_page_in_one_language_only_says_so(site):
    """The English interface says the FAQ is French only; the home page names it in its language, tagged."""
    faq = (site / "en" / "faq" / "fr-faq-discorde-2006.html").read_text(encoding="utf-8")
    assert '<p class="lang-note" lang="en">This FAQ is in French only: no English version is loaded.' in faq
    assert 'class="lang-note"' not in (site / "fr" / "faq" / "fr-faq-discorde-2006.html").read_text(encoding="utf-8")
    home = (site / "en" / "index.html").read_text(encoding="utf-8")
    assert '<strong>FAQ in French: <span lang="fr">Foire Aux Questions : Discorde/Dissension</span></strong>' in home


@pytest.mark.parametrize(("ui", "other"), [("fr", "en"), ("en", "fr")])
def test_each_interface_names_cards_in_its_language_first(site, ui, other):
    """The card index, a set's page and a card page (its sides and its rulings' columns): the interface's first."""
    for path in ("cards.html", "cards-set-dis.html"):
        html = (site / ui / path).read_text(encoding="utf-8")
        assert html.index(f'id="ci-{ui}"') < html.index(f'id="ci-{other}"'), path
    card = (site / ui / "cards" / "isperia-the-inscrutable.html").read_text(encoding="utf-8")
    assert card.index(f'<section class="card-side" data-col="{ui}"') < card.index(
        f'<section class="card-side" data-col="{other}"'
    )
    assert card.index(f'class="ruling" data-col="{ui}"') < card.index(f'class="ruling" data-col="{other}"')


def test_card_texts_and_rulings_say_where_and_when_they_come_from(site):
    """The French printed text is dated by its printing, the English one is the Oracle wording; an FAQ ruling
    carries its FAQ's date."""
    html = (site / "fr" / "cards" / "isperia-the-inscrutable.html").read_text(encoding="utf-8")
    french = html.split('<section class="card-side" data-col="fr" lang="fr"')[1].split("</section>")[0]
    english = html.split('<section class="card-side" data-col="en" lang="en"')[1].split("</section>")[0]
    assert '<p class="side-source" lang="fr">Texte imprimé\u00a0: DIS, 5 mai 2006</p>' in french
    assert '<p class="side-source" lang="fr">Texte Oracle (la formulation de référence)</p>' in english
    ruling = html.split('class="ruling" data-col="fr"')[1].split("</div>")[0]
    faq = '<a href="../faq/fr-faq-discorde-2006.html#card-isperia-the-inscrutable">Foire Aux Questions'
    assert f'<time datetime="2006-03-17" lang="fr">17 mars 2006</time> · {faq}' in ruling
    english_ui = (site / "en" / "cards" / "isperia-the-inscrutable.html").read_text(encoding="utf-8")
    assert '<p class="side-source" lang="en">Printed text: DIS, May 5, 2006</p>' in english_ui


def test_the_glossary_speaks_to_a_french_reader(site):
    """A French intro; beside an English term its printed-card name, or the words French cards print for it (links
    that search the site), marked as found on printed cards; every term filterable by those words."""
    html = (site / "fr" / "glossary.html").read_text(encoding="utf-8")
    assert '<p class="lead">Les termes du jeu tels que les Règles complètes les définissent' in html
    assert '<label for="gloss-q">Filtrer les termes</label>' in html
    assert '<div class="entry" id="g-en-graveyard" data-find="Graveyard | Cimetière">' in html
    assert '<div class="entry" id="g-en-trample" data-find="Trample | Piétinement">' in html
    graveyard = html.split('id="g-en-graveyard"')[1].split("</div>")[0]
    assert "Cimetière" in graveyard and 'class="lex-mark"' in graveyard  # the terminology's name, marked
    damage = html.split('id="g-en-damage"')[1].split("</div>")[0]
    assert "inflige des blessures" not in damage  # a verb phrase is no name of a term
    trample = html.split('id="g-en-trample"')[1].split("</div>")[0]
    assert "Piétinement" in trample and 'class="lex-mark"' in trample
    assert 'class="card-words"' not in (site / "en" / "glossary.html").read_text(encoding="utf-8")


def test_a_rule_page_title_carries_the_printed_card_term(site):
    """The browser's title of an English-only rule names it in French where French cards do, marked as such."""
    html = (site / "fr" / "rules" / "302.html").read_text(encoding="utf-8")
    assert "<title>302. Créatures* · Creatures — Règles MTG</title>" in html
    assert "<title>302. Creatures — MTG Rules</title>" in (site / "en" / "rules" / "302.html").read_text("utf-8")


def test_a_split_card_the_card_data_leaves_unnamed_in_french_takes_the_faq_s_name(site, bundled_kb):
    """MTGJSON gives Hit // Run no French name; the French FAQ writes « Coup/Fuite », and the card's printed text
    says « Le Coup inflige »: the French side, the title and the index say Coup // Fuite, said to be the FAQ's."""
    from kb.site.cardnames import faq_names

    assert faq_names(bundled_kb) == {"hit-run": {"fr": ("Coup", "Fuite")}}
    card = (site / "fr" / "cards" / "hit-run.html").read_text(encoding="utf-8")
    assert '<h1 class="card-title"><span class="h-title" lang="fr">Coup // Fuite</span>' in card
    assert "Nom français tel que la FAQ l’écrit" in card
    french = card.split('<section class="card-side" data-col="fr" lang="fr"')[1].split("</section>")[0]
    assert "<span>Coup</span>" in french and "<span>Fuite</span>" in french and "Hit" not in french
    assert '<a href="cards/hit-run.html">Coup // Fuite</a>' in (site / "fr" / "cards.html").read_text("utf-8")
    faq = (site / "fr" / "faq" / "fr-faq-discorde-2006.html").read_text(encoding="utf-8")
    assert '<a href="../cards/hit-run.html">Coup</a>' in faq  # the FAQ's mention now leads to the card


def test_a_whole_rule_preview_and_the_english_seed_s_title(site):
    """A reference to a whole rule (704) previews the start of its first rules, not its title alone; the English
    seed, whose first line is a French heading, is listed without a title rather than under that French line."""
    html = (site / "fr" / "rules" / "121.html").read_text(encoding="utf-8")
    preview = html.split('<div id="pv-en-704" lang="en">')[1].split("</div>")[0]
    assert preview.startswith("<b>704</b> State-Based Actions\n704.1 State-based actions are game")  # line by line
    sources = (site / "en" / "sources.html").read_text(encoding="utf-8")
    row = sources.split("<code>content/en/cr-120-drawing-a-card.txt</code>")[1].split("</tr>")[0]
    assert '<td lang="en">—</td>' in row and "Règles" not in row


def test_one_word_rule_titles_carry_the_noun_french_cards_print(site):
    """`404. Graveyard · Cimetière*`, `120. Damage · Blessures*` (a single word before a phrase); never a verb's
    imperative (406. Exile: « exilez ») nor a participle (115. Targets: « ciblée »)."""
    side = (site / "fr" / "rules" / "404.html").read_text(encoding="utf-8").split('<nav class="side"')[1]
    side = side.split("</nav>")[0]
    assert '404. <span lang="fr">Cimetière</span><abbr class="lex-mark"' in side  # the French name first
    assert '<span class="lex-orig"> · <span lang="en">Graveyard</span></span>' in side
    damage = (site / "fr" / "rules" / "120.html").read_text(encoding="utf-8")
    assert "<title>120. Blessures* · Damage — Règles MTG</title>" in damage
    targets = (site / "fr" / "rules" / "115.html").read_text(encoding="utf-8")
    assert "<title>115. Cibles* · Targets — Règles MTG</title>" in targets


def test_the_report_writes_numbers_as_each_interface_does(site):
    """`1 518 (100 %)` in French, `1,518 (100%)` in English."""
    french = (site / "fr" / "report.html").read_text(encoding="utf-8")
    english = (site / "en" / "report.html").read_text(encoding="utf-8")
    assert '<td>1\u202f518 <span class="pct">(100\u00a0%)</span></td>' in french
    assert '<td>1,518 <span class="pct">(100%)</span></td>' in english
