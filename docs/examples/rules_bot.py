"""A small rules bot for a chat, answering from kb's static JSON API alone (no kb install, no search server):

    !cr 702.19         today's rule 702.19, its text, its subrules, the French text beside it when there is one
    !cr règle 120.4    a number typed with a French word is read in the French text's own numbering first
                       (its 120.4 is today's 121.4); an older edition's number is followed to today's rule
    !define pile       a glossary entry, by its term or another of its names, accents and case aside

It reads the API of a site kb built: the files of a folder (`kb build --out site/` then `site/`), or any address
serving them (`kb serve`, any static host): `http://127.0.0.1:8000/`. Only the standard library; a chat library
would call `answer()` with each message and post what it returns.

    python docs/examples/rules_bot.py site/ '!cr 702.19'
    python docs/examples/rules_bot.py http://127.0.0.1:8000/      # then one command a line on standard input
"""

from __future__ import annotations

import json
import re
import sys
import unicodedata
import urllib.error
import urllib.request
from pathlib import Path

LIMIT = 1900
"""Longest answer (a Discord message holds 2,000 characters)."""
FRENCH_WORDS = {"règle", "regle", "règles", "regles"}
"""A number typed after one of these is read in the French text's own numbering first."""
NUMBER = re.compile(r"(?<![\d.])(\d{3})(?:[.,](\d+)([a-z]?))?(?![\d])|^(\d)$")


class Api:
    """The files of a built site's API (`api/v1/`), from a folder or over HTTP; a missing file is None."""

    def __init__(self, where: str) -> None:
        self.where = where if "://" in where else str(Path(where))
        self._cache: dict[str, object] = {}

    def get(self, path: str):
        """The JSON of `api/v1/<path>`, or None when there is no such file."""
        if path not in self._cache:
            self._cache[path] = self._read(f"api/v1/{path}")
        return self._cache[path]

    def _read(self, path: str):
        if "://" not in self.where:
            file = Path(self.where) / path
            return json.loads(file.read_text(encoding="utf-8")) if file.is_file() else None
        try:
            with urllib.request.urlopen(self.where.rstrip("/") + "/" + path, timeout=10) as reply:
                return json.loads(reply.read().decode("utf-8"))
        except urllib.error.HTTPError as err:
            if err.code == 404:
                return None
            raise


def fold(text: str) -> str:
    """Lowercase, accents off: how terms are compared."""
    return "".join(c for c in unicodedata.normalize("NFD", text.casefold()) if not unicodedata.combining(c)).strip()


def number_in(text: str) -> str | None:
    """The rule number a message names (`702.19`, `702,19`, `CR 702.19b`, `r120.4`), or None."""
    found = NUMBER.search(text.strip().lower().replace("r", " ", 1) if text.lower().startswith("r") else text)
    if found is None:
        return None
    if found.group(4):
        return found.group(4)
    return found.group(1) + (f".{found.group(2)}{found.group(3)}" if found.group(2) else "")


def answer(api: Api, message: str) -> str | None:
    """What the bot says to a message (None: not a command for it)."""
    command, _, rest = message.strip().partition(" ")
    if command == "!cr":
        return cut(rule_answer(api, rest))
    if command == "!define":
        return cut(define_answer(api, rest))
    return None


def rule_answer(api: Api, text: str) -> str:
    """`!cr`: the rule a number names, today's; a French word first reads it in the French text's own numbering."""
    number = number_in(text)
    if number is None:
        return "Give a rule number: !cr 702.19 (or !cr règle 120.4 for the French text's own numbering)."
    index = api.get("index.json")
    reference = index["reference"]
    french = any(word in FRENCH_WORDS for word in text.lower().split())
    if french and "fr" in index["langs"] and reference != "fr":
        own = api.get(f"fr/rules/{number}.json")
        if own is not None:
            return french_rule(api, own, reference)
    rule = api.get(f"{reference}/rules/{number}.json")
    if rule is None:
        return older_number(api, index, number)
    return today_rule(rule) + elsewhere(api, index, number)


def elsewhere(api: Api, index: dict, number: str) -> str:
    """A note when a translation's own numbering gives the number to another rule (the French 120.4 is today's
    121.4): how to ask for that one."""
    notes = []
    for lang in index["langs"]:
        edition = index["current"][lang].split(":", 1)[-1]
        numbers = api.get(f"{lang}/numbers/{edition}.json") if lang != index["reference"] else None
        today = ((numbers or {}).get("numbers", {}).get(number) or {}).get("today", [])
        if today and today != [number]:
            notes.append(f"({lang} {number}, in the {lang} text's own numbering, is today's {', '.join(today)}: "
                         f"!cr règle {number})")  # fmt: skip
    return "".join("\n" + note for note in notes)


def today_rule(rule: dict) -> str:
    """Today's rule: its number and title, text, examples, subrules, and the French text's rule beside it."""
    name, text = rule["title"], rule["text"]
    if not name and len(text) <= 40 and "\n" not in text:  # a keyword's rule: `702.19 Trample`
        name, text = text, ""
    lines = [f"**{rule['number']}** {name}".rstrip(), text]
    lines += [f"> Example: {example}" for example in rule["examples"]]
    if rule["subrules"]:
        lines.append("Subrules: " + ", ".join(rule["subrules"]))
    for lang, other in rule["translations"].items():
        own = f" (its own number: {other['number']})" if other["number"] != rule["number"] else ""
        lines.append(f"[{lang}]{own} {other['title']} {other['text']}".replace("  ", " "))
    return "\n".join(line for line in lines if line)


def french_rule(api: Api, own: dict, reference: str) -> str:
    """A rule of the French text by its own number, with today's rule it is."""
    today = own.get("today")
    said = f"règle {own['number']} du texte français"
    if today is not None and today["number"] != own["number"]:
        said += f", aujourd’hui la {today['number']}"
    lines = [f"**{own['number']}** ({said})", own["text"]]
    if today is not None:
        rule = api.get(f"{reference}/rules/{today['number']}.json")
        if rule is not None:
            lines.append(f"[{reference}] {rule['number']} {rule['text']}")
    return "\n".join(lines)


def older_number(api: Api, index: dict, number: str) -> str:
    """A number no rule of today has: what it was in an older edition loaded and what that rule is today (never a
    guess from the number alone)."""
    said = []
    for edition in sorted(index["editions"], key=lambda e: e["date"] or "", reverse=True):
        numbers = api.get(edition["numbers"]) if edition["numbers"] else None
        found = (numbers or {}).get("numbers", {}).get(number)
        if found is None or edition["lang"] != index["reference"]:
            continue
        if not found["today"]:
            said.append(f"{number} of {edition['id']} has no rule of today (removed since).")
            continue
        rule = api.get(f"{index['reference']}/rules/{found['today'][0]}.json")
        head = f"{number} of {edition['id']} is today's {', '.join(found['today'])}."
        return head + ("\n" + today_rule(rule) if rule else "")
    return "\n".join(said) or f"No rule {number}, today or in an older edition loaded."


def define_answer(api: Api, words: str) -> str:
    """`!define`: the glossary entry whose term or other name is the words given (else the terms starting so)."""
    wanted = fold(words)
    if not wanted:
        return "Give a term: !define pile"
    index = api.get("index.json")
    langs = [index["reference"], *(lang for lang in index["langs"] if lang != index["reference"])]
    starting = []
    for lang in langs:
        glossary = api.get(f"{lang}/glossary.json") or {"entries": []}
        for entry in glossary["entries"]:
            names = [fold(entry["term"]), *(fold(a) for a in entry["aliases"])]
            if wanted in names:
                found = api.get(f"{lang}/glossary/{entry['slug']}.json")
                cited = ", ".join(c["number"] for c in found["cites"])
                return f"**{found['term']}** [{lang}]\n{found['definition']}" + (f"\n(rules: {cited})" if cited else "")
            if any(name.startswith(wanted) for name in names):
                starting.append(entry["term"])
    if starting:
        return "No such term; did you mean: " + ", ".join(starting[:8]) + "?"
    return f"No glossary entry for “{words.strip()}”."


def cut(text: str) -> str:
    """An answer a chat message holds."""
    return text if len(text) <= LIMIT else text[: LIMIT - 1].rsplit(" ", 1)[0] + "…"


def main() -> int:
    """Answer the command given, else each line of standard input."""
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    api = Api(sys.argv[1])
    messages = sys.argv[2:] or (line for line in sys.stdin)
    for message in messages:
        said = answer(api, message)
        if said is not None:
            print(said, end="\n\n", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
