"""The relevance benchmark's question file: well formed, and every expected id names a record of the texts.

Reads bench/relevance/questions.json against the texts the questions are asked of: the 2026 and 2015 English CR
and the Dissension card data (tests/fixtures), the French extracts and the Dissension FAQ (content/fr). Rule
numbers, glossary terms, card names, rulings and FAQ note titles are read from those texts directly (not through
kb), so a typo in an `expect` list fails here rather than scoring as a miss. Skipped when a text is missing.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

import pytest

from .conftest import CONTENT, FIXTURES, ROOT

QUESTIONS = ROOT / "bench" / "relevance" / "questions.json"
CR = {
    "2026-01-16": (FIXTURES / "cr-en-20260116.txt", "utf-8-sig"),
    "2015-09-26": (FIXTURES / "cr-en-20150926.txt", "cp1252"),
}
CARDS = FIXTURES / "mtgjson3-DIS.json"
FAQ = CONTENT / "fr" / "faq-discorde-2006.txt"
FRENCH_RULES = sorted((CONTENT / "fr").glob("cr-*.txt"))
TYPED = {"keyword", "two-words", "question", "typo", "inflection", "accents", "symbol", "number"}
FORMS = TYPED | {"card", "ruling", "translation"}  # the forms bench/relevance/README.md lists
RULE_LINE = re.compile(r"^(\d{3}(?:\.\d+[a-z]?)?)\.?(?=\s|$)")


def _need(*paths: Path) -> None:
    missing = [str(p.relative_to(ROOT)) for p in paths if not p.exists()]
    if missing:
        pytest.skip(f"text not present: {', '.join(missing)}")


def _lines(path: Path, encoding: str) -> list[str]:
    return path.read_text(encoding=encoding).replace("\r\n", "\n").replace("\r", "\n").split("\n")


@cache
def cr(edition: str) -> tuple[frozenset[str], frozenset[str]]:
    """Rule numbers and glossary terms (as printed) of one English CR."""
    path, encoding = CR[edition]
    lines = _lines(path, encoding)
    starts = [i for i, line in enumerate(lines) if line.strip() == "Glossary"]
    body, glossary = lines[: starts[-1]], lines[starts[-1] + 1 :]
    numbers = frozenset(m.group(1) for line in body if (m := RULE_LINE.match(line)))
    terms, first = set(), True
    for line in glossary:
        if line.strip() == "Credits":
            break
        if not line.strip():
            first = True
        elif first:
            terms.add(line.strip())
            first = False
    return numbers, frozenset(terms)


@cache
def french_rules() -> frozenset[str]:
    return frozenset(m.group(1) for p in FRENCH_RULES for line in _lines(p, "utf-8") if (m := RULE_LINE.match(line)))


@cache
def faq() -> tuple[frozenset[str], frozenset[str]]:
    """The FAQ's general-note titles and all its non-empty lines (card headings among them)."""
    lines = [line.strip() for line in FAQ.read_text(encoding="utf-8").split("\n")]
    general = "\n".join(lines[lines.index("NOTES GÉNÉRALES") + 1 : lines.index("NOTES SUR DES CARTES SPÉCIFIQUES")])
    titles = frozenset(
        next(line for line in chunk.split("\n") if line) for chunk in general.split("-----") if chunk.strip()
    )
    return titles, frozenset(line for line in lines if line)


@cache
def cards() -> dict[str, bool]:
    """English card name (split cards `A // B`) -> whether the card has a ruling (MTGJSON or the French FAQ)."""
    _, faq_lines = faq()
    ruled: dict[str, bool] = {}
    for card in json.loads(CARDS.read_text(encoding="utf-8"))["cards"]:
        name = " // ".join(card["names"]) if card.get("names") else card["name"]
        french = [f["name"] for f in card.get("foreignNames", ()) if f["language"] == "French"]
        has = bool(card.get("rulings")) or any(f in faq_lines for f in french if f != card["name"])
        ruled[name] = ruled.get(name, False) or has
    return ruled


def _subtree(number: str, numbers: frozenset[str]) -> bool:
    """`702.19*` matches 702.19, 702.19a…, not 702.190; `120*` matches 120, 120.1…."""
    letter = re.compile(re.escape(number) + "[a-z]")
    return any(n == number or n.startswith(number + ".") or letter.fullmatch(n) for n in numbers)


def check(expected: str, edition: str | None) -> str | None:
    """None when `expected` names a record of the texts of `edition`, else why not."""
    kind, _, rest = expected.partition(":")
    if kind in ("en", "fr"):
        numbers = cr(edition or "2026-01-16")[0] if kind == "en" else french_rules()
        if rest.endswith("*"):
            return None if _subtree(rest[:-1], numbers) else "no rule in that subtree"
        return None if rest in numbers else "no such rule"
    if kind == "glossary":
        lang, _, term = rest.partition(":")
        return None if lang == "en" and term in cr(edition or "2026-01-16")[1] else "no such glossary term"
    if kind == "card":
        return None if rest in cards() else "no such card"
    if kind == "ruling":
        return None if cards().get(rest) else "no such card, or it has no ruling"
    if kind == "note":
        return None if rest in faq()[0] else "no such FAQ note"
    return "unknown id kind"


def load() -> list[dict]:
    return json.loads(QUESTIONS.read_text(encoding="utf-8"))


def test_questions_are_well_formed():
    questions = load()
    ids = [q["id"] for q in questions]
    assert len(ids) == len(set(ids)), sorted({i for i in ids if ids.count(i) > 1})
    for q in questions:
        assert set(q) == {"id", "q", "lang", "edition", "form", "expect", "half"}, q["id"]
        assert q["lang"] in ("en", "fr") and q["edition"] in (None, *CR), q["id"]
        assert q["form"] in FORMS and q["half"] in ("tune", "heldout"), q["id"]
        assert q["q"].strip() and q["expect"] and len(set(q["expect"])) == len(q["expect"]), q["id"]


def test_question_file_keeps_one_object_per_line():
    lines = QUESTIONS.read_text(encoding="utf-8").split("\n")
    assert lines[0] == "[" and lines[-2:] == ["]", ""]
    assert all(line.startswith("  {") and line.rstrip(",").endswith("}") for line in lines[1:-2])
    assert len(lines) - 3 == len(load())


def test_every_expected_id_exists_in_its_text():
    _need(*(path for path, _ in CR.values()), CARDS, FAQ, *FRENCH_RULES)
    wrong = [
        (q["id"], expected, why) for q in load() for expected in q["expect"] if (why := check(expected, q["edition"]))
    ]
    assert not wrong, wrong


def test_the_checker_rejects_what_is_not_there():
    _need(*(path for path, _ in CR.values()), CARDS, FAQ, *FRENCH_RULES)
    assert check("en:702.19*", "2026-01-16") is None and check("fr:120*", None) is None
    assert check("en:702.190", "2026-01-16") and check("en:702.164a", "2015-09-26") and check("fr:121.1", None)
    assert check("glossary:en:Trampl", None) and check("card:Hit", None) is not None
    assert check("ruling:Hellhole Rats", None) and check("note:Hellbent", None)
    assert check("card:Hit // Run", None) is None and check("ruling:Cytoshape", None) is None
