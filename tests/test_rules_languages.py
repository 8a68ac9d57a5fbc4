"""A rules file in any language: the marker words of the languages kb knows, a warning for the others."""

from __future__ import annotations

import shutil

import pytest
from click.testing import CliRunner

from kb.cli import main
from kb.parse.cr.rules import parse_rules
from kb.sources import read_source

from .conftest import CR2026, FIXTURES, write

ZH = FIXTURES / "cr-zh-sample.txt"
"""A small rules file in Chinese (no spaces between words): contents, example, references, glossary, credits."""
NUMBERS = ["1", "100", "100.1", "100.1a", "100.2", "101", "101.1", "101.2", "2", "200", "200.1"]


def parse_as(lang: str):
    source, diags = read_source(ZH, lang, f"{lang}/cr.txt")
    assert diags == []
    return parse_rules(source, f"{lang}/cr")


def test_chinese_rules_file_is_read_with_its_marker_words():
    result = parse_as("zh")
    assert [d.format() for d in result.diagnostics] == []
    assert result.document.title == "万智牌完整规则"
    assert result.document.effective_date == "2026-01-16"
    rules = {r.number: r for r in result.rules}
    assert list(rules) == NUMBERS
    assert rules["100.2"].examples == ("一位玩家使用六十张牌的套牌。",)
    assert "例如" not in rules["100.2"].text
    assert rules["101.1"].references == ("100.1",)
    assert rules["200.1"].references == ("101.1", "101.2")
    assert rules["200.1"].text == "牌张的部件包括名称、法术力费用与插图。参见规则101.1和101.2。"
    assert [(g.term, g.references) for g in result.glossary] == [("主动玩家", ("101.1",)), ("弃牌堆", ("100.2",))]
    assert result.document.credits == "规则管理员：某人"


def test_a_language_without_marker_words_is_warned_about_not_misread():
    result = parse_as("ja")
    messages = [d.format() for d in result.diagnostics]
    assert messages[0] == (
        "ja/cr.txt:0: warning: no CR marker words for language 'ja': examples, the effective date and references "
        "are not recognised; contents, glossary and credits were told from the contents listing"
    )
    assert not any("duplicate rule" in m for m in messages), messages
    assert not [d for d in result.diagnostics if d.severity == "error"], messages
    rules = {r.number: r for r in result.rules}
    assert list(rules) == NUMBERS  # the contents listing is not read as rules
    assert rules["200.1"].text == "牌张的部件包括名称、法术力费用与插图。参见规则101.1和101.2。"  # nothing after it
    assert [g.term for g in result.glossary] == ["主动玩家", "弃牌堆"]
    assert result.document.credits == "规则管理员：某人"
    assert result.document.effective_date is None


def test_without_marker_words_or_contents_listing_the_warning_says_what_is_missed(tmp_path):
    text = ZH.read_text(encoding="utf-8")
    start, end = text.index("目录"), text.index("1. 游戏概念", text.index("制作群"))
    source, _ = read_source(write(tmp_path / "cr.txt", text[:start] + text[end:]), "ja", "ja/cr.txt")
    result = parse_rules(source, "ja/cr")
    assert result.diagnostics[0].message == (
        "no CR marker words for language 'ja': contents, glossary, examples and references are not recognised"
    )
    assert [r.number for r in result.rules] == NUMBERS
    assert not [d for d in result.diagnostics if d.severity == "error"]


@pytest.mark.parametrize("lang", ["zh", "ja"])
def test_kb_check_on_a_rules_file_without_spaces(tmp_path, lang):
    content = tmp_path / "c"
    (content / lang).mkdir(parents=True)
    shutil.copy(ZH, content / lang / "cr.txt")
    result = CliRunner().invoke(main, ["check", "--content", str(content)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    assert "duplicate rule" not in result.output
    assert result.exit_code == 0, result.output
    assert (f"no CR marker words for language '{lang}'" in result.output) == (lang == "ja")


@pytest.mark.parametrize("path", [CR2026, FIXTURES / "history" / "cr-en-2009-07-11.txt"])
def test_an_official_file_read_without_its_marker_words_keeps_its_structure(path):
    """The English editions read as if kb had no words for English: the contents listing (whose first heading the
    2009 body words differently), the glossary and the credits are still told apart from the rules."""
    english = parse_rules(read_source(path, "en", path.name)[0], "en/cr")
    unmarked = parse_rules(read_source(path, "de", path.name)[0], "de/cr")
    assert unmarked.diagnostics[0].message.startswith("no CR marker words for language 'de'")
    assert not [d for d in unmarked.diagnostics if d.severity == "error"]
    assert [r.number for r in unmarked.rules] == [r.number for r in english.rules]
    assert len(unmarked.glossary) == len(english.glossary)
    assert unmarked.document.credits == english.document.credits
