"""Lineage records: what each rule of an edition became in the next edition, and walks along those links.

Computed by `kb.link.editions.lineage` (the matching); kept here so the knowledge base can hold them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from kb.model.records import fast_pickle

Status = Literal["same", "changed", "renumbered", "split", "merged", "added", "removed"]
HistoryStatus = Literal["same", "changed", "renumbered", "split", "merged", "added", "origin"]


@dataclass(frozen=True, slots=True)
class Link:
    """What one rule of an edition became in the next edition."""

    old: str | None
    """Number in the older edition (None for `added`)."""
    new: str | None
    """Number in the newer edition (None for `removed`)."""
    status: Status
    """`same`, `changed`, `renumbered`, `split`, `merged`, `added` or `removed`."""
    confidence: float
    """How sure the link is, in [0, 1]; for added and removed, how unlike any candidate the rule is."""
    text_changed: bool
    """Whether title, text or examples differ, typography aside (renumbered+changed); True without one side."""


@dataclass(frozen=True, slots=True)
class EditionLinks:
    """Every link between two consecutive editions."""

    links: tuple[Link, ...]
    """Links in old-edition order, then the added rules in new-edition order."""
    by_old: dict[str, tuple[Link, ...]]
    """Links by old number (read-only)."""
    by_new: dict[str, tuple[Link, ...]]
    """Links by new number (read-only)."""

    def counts(self) -> dict[str, int]:
        """Count links per status."""
        out: dict[str, int] = {}
        for link in self.links:
            out[link.status] = out.get(link.status, 0) + 1
        return out


def _number_key(number: str) -> tuple[int, int, str]:
    """Order rule numbers: 1 < 100 < 100.1 < 100.1a < 100.2 < 101."""
    head, _, rest = number.partition(".")
    sub = rest.rstrip("abcdefghijklmnopqrstuvwxyz")
    return (
        int(head) * (100 if len(head) == 1 else 1) if head.isdigit() else 0,
        int(sub) if sub.isdigit() else -1,
        rest[len(sub) :],
    )


@dataclass(frozen=True, slots=True)
class Lineage:
    """Links between consecutive editions, oldest first, and walks along them."""

    editions: tuple[str, ...]
    """Edition ids (e.g. ISO dates), oldest first."""
    steps: tuple[EditionLinks, ...]
    """`steps[i]` links `editions[i]` to `editions[i + 1]`."""
    numbers: tuple[frozenset[str], ...]
    """Numbers of the live rules (placeholders left out) of each edition."""

    def forward(self, edition: str, number: str) -> tuple[Link, ...]:
        """Return what a rule became in the next edition (empty for the newest edition)."""
        k = self.editions.index(edition)
        return self.steps[k].by_old.get(number, ()) if k < len(self.steps) else ()

    def backward(self, edition: str, number: str) -> tuple[Link, ...]:
        """Return where a rule came from in the previous edition (empty for the oldest edition)."""
        k = self.editions.index(edition)
        return self.steps[k - 1].by_new.get(number, ()) if k > 0 else ()

    def history(self, edition: str, number: str) -> list[tuple[str, str, HistoryStatus]]:
        """Walk back to the first appearance: (edition, number, how it came from the previous edition), newest first.

        The last entry says `added`, or `origin` when the rule is already in the oldest edition. A merge is
        followed through its most confident predecessor. Empty when the edition has no such live rule.
        """
        k, out = self.editions.index(edition), []
        if number not in self.numbers[k]:
            return []
        while k > 0:
            link = max(self.steps[k - 1].by_new[number], key=lambda li: (li.confidence, li.old == number))
            out.append((self.editions[k], number, link.status))
            if link.old is None:
                return out
            number, k = link.old, k - 1
        return [*out, (self.editions[0], number, "origin")]

    def today(self, edition: str, number: str) -> tuple[tuple[str, float], ...]:
        """Return the number(s) a rule has in the newest edition, with the product of the link confidences."""
        k = self.editions.index(edition)
        frontier = {number: 1.0} if number in self.numbers[k] else {}
        for step in self.steps[k:]:
            reached: dict[str, float] = {}
            for num, conf in frontier.items():
                for link in step.by_old.get(num, ()):
                    if link.new is not None:
                        reached[link.new] = max(reached.get(link.new, 0.0), conf * link.confidence)
            frontier = reached
        return tuple(sorted(((n, round(c, 3)) for n, c in frontier.items()), key=lambda x: (-x[1], _number_key(x[0]))))

    def chain(self, edition: str, number: str) -> tuple[tuple[str, str | None, str, float], ...]:
        """Return the line through a rule, oldest first: (edition, number, status, confidence of the link in).

        Forward, the most confident successor is followed; a removal ends the line with number None.
        """
        out: list[tuple[str, str | None, str, float]] = [
            (ed, num, status, 1.0) for ed, num, status in reversed(self.history(edition, number))
        ]
        k = self.editions.index(edition)
        while out and k < len(self.steps):
            link = max(self.steps[k].by_old[number], key=lambda li: (li.confidence, li.new == number))
            out.append((self.editions[k + 1], link.new, link.status, link.confidence))
            if link.new is None:
                break
            number, k = link.new, k + 1
        return tuple(out)


fast_pickle(Link, EditionLinks, Lineage)
