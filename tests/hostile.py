"""Hostile inputs (issue 44's battery): each kind of content a careless user or an attacker may give kb, made at any
size, beside the normal input of its class that it is compared with (`tests/test_battery.py`, `bench/bench_battery.py`).

A kind is a function of a size in bytes giving the content folder's files (`{"en/cr.txt": bytes}`), added to a
small English rules file (so that every folder has rules to show and search). The sizes are approximate.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CR2015 = (ROOT / "tests" / "fixtures" / "cr-en-20150926.txt").read_bytes()
FAQ = (ROOT / "content" / "fr" / "faq-discorde-2006.txt").read_bytes()
CARDS = (ROOT / "content" / "en" / "cards-dissension-mtgjson5.json").read_bytes()
LEXICON = (ROOT / "content" / "fr" / "lexique-cartes-mtgjson5.json").read_bytes()
BASE = b"100. General\n\n100.1. A player draws a card. See rule 100.2.\n\n100.2. The game begins.\n"
"""The small rules file every folder holds (`base/cr-base.txt`, under `en/`)."""

Files = dict[str, bytes]


def _repeat(unit: bytes, size: int) -> bytes:
    """`unit` repeated to about `size` bytes."""
    return unit * max(1, size // max(1, len(unit)))


def _rules(body: bytes) -> Files:
    """A rules file of the English folder."""
    return {"en/cr-x.txt": b"100. General\n\n" + body}


def _card(name: str, **fields) -> dict:
    return {
        "name": name,
        "type": "Creature — Elf",
        "types": ["Creature"],
        "text": "Flying",
        "manaCost": "{G}",
        "power": "1",
        "toughness": "1",
        "layout": "normal",
        "printings": ["TST"],
        "foreignData": [{"language": "French", "name": f"{name} (fr)", "text": "Vol", "type": "Créature : elfe"}],
        "rulings": [{"date": "2020-01-01", "text": "A ruling."}],
        **fields,
    }


def _set(cards: list[dict], name: str = "Test", code: str = "TST") -> bytes:
    data = {"meta": {"version": "5"}, "data": {"code": code, "name": name, "releaseDate": "2020-01-01", "cards": cards}}
    return json.dumps(data).encode()


# Normal inputs: what each class of hostile input is compared with.


def cr_normal(size: int) -> Files:
    """The 2015 rules: cut short below its size, else as many editions of it as the size holds (each dated a year
    later: a folder of editions, as `bench_editions.py` loads)."""
    if size <= len(CR2015):
        text = CR2015[:size]
        return {"en/cr-x.txt": text[: text.rfind(b"\n") + 1]}
    files = {}
    for k in range(max(1, round(size / len(CR2015)))):
        dated = CR2015.replace(b"September 26, 2015", f"September 26, {2015 + k}".encode())
        files[f"en/cr-{2015 + k}.txt"] = dated
    return files


def faq_normal(size: int) -> Files:
    """The Dissension FAQ, its card notes repeated."""
    cards = FAQ[FAQ.index(b"NOTES SUR DES CARTES") :]
    blocks = cards.split(b"-----\n")[1:-1]
    out, k = [FAQ], 0
    while sum(map(len, out)) < size and blocks:
        block = blocks[k % len(blocks)]
        out.append(b"-----\n" + block.replace(b"\n", f" {k}\n".encode(), 1))
        k += 1
    return {"fr/faq-x.txt": b"".join(out)}


def cards_normal(size: int) -> Files:
    """MTGJSON v5 cards of plausible shape."""
    count = max(1, size // 340)
    return {"en/cards-x.json": _set([_card(f"Card {n}") for n in range(count)])}


def lexicon_normal(size: int) -> Files:
    """Entries of the bundled lexicon (repeated under new names past its size)."""
    data = json.loads(LEXICON)
    entries = data["entries"]
    count = max(1, size * len(entries) // len(LEXICON) * 3 // 2)
    chosen = [
        {**entries[k % len(entries)], "english": f"{entries[k % len(entries)]['english']} {k}"} for k in range(count)
    ]
    return {"fr/lexique-x.json": json.dumps({**data, "entries": chosen}).encode()}


def cr_spaces_after_number(size: int) -> Files:
    return _rules(b"100.1" + b" " * size + b"\n\n100.2" + b" " * 10 + b"x\n")


def cr_wrapped_lines(size: int) -> Files:
    return _rules(b"100.1. A rule\n" + _repeat(b"and more words of the same rule, wrapped\n", size))


def cr_wrapped_title(size: int) -> Files:
    return {"en/cr-x.txt": b"100. General\n" + _repeat(b"And More Words Of The Same Long Title\n", size)}


def cr_newlines(size: int) -> Files:
    return _rules(b"100.1. A rule.\n" + b"\n" * size)


def cr_short_lines(size: int) -> Files:
    return _rules(b"100.1. A rule.\n" + _repeat(b"x\n", size))


def cr_long_word(size: int) -> Files:
    return _rules(b"100.1. " + b"x" * size + b"\n")


def cr_duplicates(size: int) -> Files:
    return _rules(_repeat(b"100.1. A rule of this number, printed again and again.\n", size))


def cr_digits(size: int) -> Files:
    digits = b"1" + b"0" * max(1, size // 4)
    return _rules(
        b"100.1. See rules 100.2-" + digits + b".\n\n100." + digits + b". Big.\n\n100.2. Cites 100." + digits + b".\n"
    )


def cr_tooltip_marks(size: int) -> Files:
    mark = b"\x1emissing\x1f100.1\x1e \x1edated\x1f1\x1e \x1e\x1f\x1e\x1f"
    return _rules(b"100.1. A rule " + _repeat(mark, size) + b"\n\n100.2. See rule 100.1.\n")


def cr_bidi(size: int) -> Files:
    return _rules(b"100.1. Draw " + _repeat("\u202eevil\u202c ".encode(), size) + b"\n")


def cr_controls(size: int) -> Files:
    return _rules(b"100.1. A rule.\n" + b"x" * 9000 + b"\n" + _repeat(b"\x00\x1b]0;x\x07\x0c text\n", size))


def cr_invalid_utf8(size: int) -> Files:
    return _rules(_repeat(b"100.1. caf\xe9 \xff\xfe r\xc3\xa8gle\n", size))


def cr_utf16(size: int) -> Files:
    return {"en/cr-x.txt": ("100. General\n\n" + "100.1. A rule é.\n" * max(1, size // 34)).encode("utf-16")}


def cr_damaged_numbers(size: int) -> Files:
    return _rules(b"100.1. A rule.\n" + _repeat(b"100" + b".1o" * 40 + b"!\n", size) + b"12O.2. x\n702. 37a y\n")


def cr_references(size: int) -> Files:
    return _rules(b"100.1. See rules " + _repeat(b"100.1, 100.2, 100.3a-z, ", size) + b"and 101.\n")


def cr_brackets(size: int) -> Files:
    return _rules(b"100.1. " + _repeat("((««[[“".encode(), size) + b"\n")


def cr_glossary(size: int) -> Files:
    count = max(2, size // 120)
    entry = "Term of the glossary number {n}\nSee Term of the glossary number {m}. See also Term {h}.\n\n"
    entries = "".join(entry.format(n=n, m=n + 1, h=n // 2) for n in range(count)).encode()
    return _rules(b"100.1. A rule.\n\nGlossary\n\n" + entries)


def cr_many_files(size: int) -> Files:
    count = max(2, min(2_000, size // 200))
    text = b"Magic: The Gathering Comprehensive Rules\n\nThese rules are effective as of January 1, 2020.\n\n"
    return {f"en/cr-{n:05d}.txt": text + b"100. General\n\n100.1. A rule.\n" for n in range(count)}


def faq_many_rulings(size: int) -> Files:
    head = FAQ[: FAQ.index(b"NOTES SUR DES CARTES")]
    card = "NOTES SUR DES CARTES SPÉCIFIQUES\n-----\n\nGobelin\n{R}\nCréature : gobelin\n1/1\n\n".encode()
    ruling = "* Le Gobelin pioche une carte quand il arrive en jeu, puis il se défausse.\n\n".encode()
    return {"fr/faq-x.txt": head + card + _repeat(ruling, size) + b"-----\n"}


def faq_long_name(size: int) -> Files:
    head = FAQ[: FAQ.index(b"NOTES SUR DES CARTES")]
    name = b"G" + b"o" * size
    card = (
        "NOTES SUR DES CARTES SPÉCIFIQUES\n-----\n\n".encode()
        + name
        + "\n{R}\nCréature : gobelin\n1/1\n\n* x.\n".encode()
    )
    return {"fr/faq-x.txt": head + card + b"-----\n"}


def faq_slash_pairs(size: int) -> Files:
    return {"fr/faq-x.txt": FAQ + _repeat("Coup/Fuite aaaaaaaaaaéééééé".encode(), size) + b"\n"}


def cards_wrong_types(size: int) -> Files:
    wrong = [5, "x", [1], {"a": 1}, True, None, [None]]
    fields = ["foreignData", "rulings", "identifiers", "printings", "types", "text", "power", "faceName", "side"]
    cards = [_card("Good")]
    while len(json.dumps(cards)) < size:
        k = len(cards)
        cards.append(_card(f"Bad {k}", **{fields[k % len(fields)]: wrong[k % len(wrong)]}))
    return {"en/cards-x.json": _set(cards)}


def cards_many_printings(size: int) -> Files:
    per = max(10, size // 5 // 10)
    cards = [_card(f"Card {n}", printings=[f"S{n}x{k}" for k in range(per)]) for n in range(5)]
    return {"en/cards-x.json": _set(cards)}


def cards_many_sets(size: int) -> Files:
    count = max(2, size // 400)
    sets = ((f"S{n:05d}", n) for n in range(count))
    data = {code: {"name": f"Set {n}", "cards": [_card(f"Card {n}", printings=[code])]} for code, n in sets}
    return {"en/AllPrintings.json": json.dumps({"meta": {}, "data": data}).encode()}


def cards_huge_set_name(size: int) -> Files:
    return {"en/cards-x.json": _set([_card("Card")], name="N" * size)}


def cards_deep(size: int) -> Files:
    depth = max(10, size // 2)
    text = b'{"data":{"cards":[{"name":"X","text":' + b"[" * depth + b"1" + b"]" * depth + b'}, {"name": "Fine"}]}}'
    return {"en/cards-x.json": text}


def cards_truncated(size: int) -> Files:
    return {"en/cards-x.json": cards_normal(size)["en/cards-x.json"][:-7]}


def cards_type_spaces(size: int) -> Files:
    card = _card("Card", type="Creature" + " " * size + "x")
    card["foreignData"][0]["type"] = "Créature" + " " * size + "x"
    return {"en/cards-x.json": _set([card])}


def lexicon_nan(size: int) -> Files:
    data = json.loads(lexicon_normal(size)["fr/lexique-x.json"])
    text = json.dumps(data).replace('"score": 0.', '"score": NaN, "x": 0.', 1)
    return {"fr/lexique-x.json": text.encode()}


def lexicon_wrong_types(size: int) -> Files:
    data = json.loads(lexicon_normal(size)["fr/lexique-x.json"])
    data["entries"][0]["french"] = 5
    return {"fr/lexique-x.json": json.dumps(data).encode()}


CLASSES: dict[str, Callable[[int], Files]] = {
    "cr": cr_normal,
    "faq": faq_normal,
    "cards": cards_normal,
    "lexicon": lexicon_normal,
}
"""Each class's normal input."""
HOSTILE: dict[str, list[Callable[[int], Files]]] = {
    "cr": [
        cr_spaces_after_number,
        cr_wrapped_lines,
        cr_wrapped_title,
        cr_newlines,
        cr_short_lines,
        cr_long_word,
        cr_duplicates,
        cr_digits,
        cr_tooltip_marks,
        cr_bidi,
        cr_controls,
        cr_invalid_utf8,
        cr_utf16,
        cr_damaged_numbers,
        cr_references,
        cr_brackets,
        cr_glossary,
        cr_many_files,
    ],
    "faq": [faq_many_rulings, faq_long_name, faq_slash_pairs],
    "cards": [
        cards_wrong_types,
        cards_many_printings,
        cards_many_sets,
        cards_huge_set_name,
        cards_deep,
        cards_truncated,
        cards_type_spaces,
    ],
    "lexicon": [lexicon_nan, lexicon_wrong_types],
}
KINDS: dict[str, tuple[str, Callable[[int], Files]]] = {
    fn.__name__.replace("_", "-", 1): (cls, fn) for cls, fns in HOSTILE.items() for fn in fns
}
"""Every hostile kind: its class and its maker, by name (`cr-spaces_after_number`…)."""


def make(root: Path, files: Files) -> Path:
    """A content folder holding the base rules and `files`."""
    content = root / "content"
    for rel, data in {"en/cr-base.txt": BASE, **files}.items():
        path = content / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return content
