"""The Dissension FAQ's cards get the same English names with a whole card pool as with Dissension alone."""

from __future__ import annotations

from pathlib import Path

import pytest

from kb.link.load import load
from tests.conftest import ROOT

CORPUS = ROOT.parent / "shared" / "corpus"
POOL = CORPUS / "mtgjson5-pool"
FAQ = ROOT / "content" / "fr" / "faq-discorde-2006.txt"


def _english_names(content: Path) -> list[str | None]:
    """The English name each FAQ card was given, in FAQ order."""
    kb = load(content, use_cache=False)
    faq = next(doc.id for doc in kb.documents if doc.kind == "faq")
    return [kb.card[card_id].names.get("en") for card_id in kb.cards_by_document[faq]]


def _content(root: Path, *card_files: Path) -> Path:
    (root / "fr").mkdir(parents=True)
    (root / "en").mkdir()
    (root / "fr" / FAQ.name).symlink_to(FAQ)
    for path in card_files:
        (root / "en" / path.name).symlink_to(path)
    return root


@pytest.mark.slow
def test_the_faq_cards_keep_their_english_names_in_the_whole_pool(tmp_path):
    if not POOL.is_dir() or not (CORPUS / "mtgjson5" / "DIS.json").is_file():
        pytest.skip(f"the shared card pool is not at {POOL}")
    alone = _english_names(_content(tmp_path / "alone", CORPUS / "mtgjson5" / "DIS.json"))
    assert len(alone) == 64 and all(alone)
    pool = sorted(POOL.glob("*.json"))
    with_pool = _english_names(_content(tmp_path / "pool", CORPUS / "mtgjson5" / "DIS.json", *pool))
    assert with_pool == alone
