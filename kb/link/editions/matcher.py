"""Match the rules of two consecutive Comprehensive Rules editions: what each rule became in the next.

Pure algorithm over parsed `Rule` records. A pair of editions is matched in stages, each trusting the earlier
ones: identical rules (same number and text, or a text found once in each edition, unless the rules at both
numbers stayed, reworded); headings (sections, rules, short titles like "Forecast") by title, parent and where
their matched subrules went; numbered rules then subrules among the children of matched parents, beside matched
neighbours, by number, or by text anywhere; then splits and merges (a new rule that is a passage of an old one,
an old rule that is a passage of a new one, even when only its place had matched it). Placeholders ("[This rule
has been removed.]") and texts without letters take part in nothing. Nothing is specific to a known renumbering.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from kb.link.editions.similar import (
    FUNCTION_WORDS,
    HEAD,
    TITLE_WORDS,
    Edition,
    jaccard,
    same_text,
    similarity,
)
from kb.model.lineage import EditionLinks, Link

if TYPE_CHECKING:
    pass


CONTEXT_MIN = 58.0
"""Score (similarity plus bonuses) a pair proposed by structure, neighbours, number or title needs."""
GLOBAL_MIN = 80.0
"""Score a pair found by text alone needs."""
MUTUAL_MIN = 66.0
"""Score a text-only pair needs when each side is clearly the other's best candidate."""
STAYED_MIN = 85.0
"""Similarity to the rule of its own number above which a text found unchanged elsewhere is not a move (`stayed`)."""
SAME_PLACE_MIN = 40.0
"""Similarity two leftover rules at the same number under matched parents need to be linked as reworded."""
NEAR_MIN = 60
"""Ratio of the first or of the last 64 characters that makes a pair worth scoring in the text-only stage."""
MOVE_MIN = 70
"""Token-set ratio two leftover texts need to be compared as a move (`moves`): a cheap first cut."""
MOVE_HELD = 0.8
"""Share of the shorter text's words, each weighed by its rarity (`Edition.weight`), that a moved rule's other text
must hold."""
ABSORB_HELD = 0.9
"""Share of a leftover rule's words that a nearby rule's counterpart must hold for the two to be told one rule's
parts (`absorb`)."""
ABSORB_HELD_OWN = 0.8
"""The same for a leftover rule and its own first subrule, where the joined texts' match decides more than the
words (2008's 203.1b became 2009's 116.6, reworded, and 116.6a, its second paragraph)."""
PIECE_WORDS = 5
"""Fewest words (function words aside) a new rule needs to be told a piece of an old one (`pieces`)."""
PIECE_HELD = 0.9
"""Share of a piece's words the old rule must hold."""
PIECE_RARE = 2.5
"""A word this rare (`Edition.weight`: in about one rule in twelve or fewer) that a piece has and the old rule lacks,
or that the old passage it matches has and the piece lacks, makes it another rule modelled on it."""
PIECE_RATIO = 90
"""Partial ratio of a piece's text within the old rule's: nearly word for word."""
WEAK = 65.0
"""Score under which a pair matched by its place gives way to a passage of another rule (`merged_pieces`)."""
MERGED_RATIO = 85
"""Partial ratio of an old rule's text within the new rule it went into (`merged_pieces`): nearly word for word, a
few words inserted ("each face of a [transforming or modal] double-faced card")."""
_BONUSES = 26.0
"""The most `pair_score` adds to a similarity."""


def _near(old: Edition, olds: list[int], new: Edition, news: list[int]) -> dict[int, list[int]]:
    """Return, per old rule, the new rules whose texts start or end alike (cheap: 64 characters compared)."""
    from rapidfuzz import fuzz, process

    found: dict[int, list[int]] = {}
    if not olds or not news:
        return found
    for cut in (slice(0, 64), slice(-64, None)):
        ratios = process.cdist(
            [old.keys[o][cut] for o in olds],
            [new.keys[n][cut] for n in news],
            scorer=fuzz.ratio,
            dtype="uint8",
            score_cutoff=NEAR_MIN,
            workers=-1,
        )
        for i, j in zip(*ratios.nonzero(), strict=True):
            if news[j] not in found.setdefault(olds[i], []):
                found[olds[i]].append(news[j])
    return found


def _holders(edition: Edition, matched: dict[int, int], absorbed: set[int], words: set[str]) -> dict[str, list[int]]:
    """Each of some words -> the matched numbered rules and subrules of an edition that hold it (`pieces`,
    `merged_pieces`)."""
    holders: dict[str, list[int]] = {}
    for i in matched:
        if edition.kinds[i] in ("numbered", "subrule") and i not in absorbed:
            for word in edition.bag(i) & words:
                holders.setdefault(word, []).append(i)
    return holders


def _rarest(words: frozenset[str], holders: dict[str, list[int]]) -> list[int]:
    """The rules holding the rarest of some words (the word fewest rules hold, one no rule holds aside): where a
    passage of them may be."""
    rarest = min(words, key=lambda w: (len(holders.get(w, ())) or sys.maxsize, w))
    return holders.get(rarest, [])


def _held_in(part: Edition, p: int, whole: Edition, w: int) -> bool:
    """Whether the words of rule `p` are nearly all (PIECE_HELD) in the longer rule `w` of another edition, none of
    its rare ones (PIECE_RARE in its edition) missing there."""
    words = part.bag(p)
    if len(part.keys[p]) >= len(whole.keys[w]) or len(words & whole.bag(w)) < PIECE_HELD * len(words):
        return False
    return not any(part.weight(x) >= PIECE_RARE for x in words - whole.bag(w))


def _mutual_bests(cands: list[tuple[float, int, int]], margin: float = 5.0) -> list[tuple[float, int, int]]:
    """Keep the pairs where each side is the other's best candidate by a margin."""
    by_o: dict[int, list[float]] = {}
    by_n: dict[int, list[float]] = {}
    for score, o, n in cands:
        by_o.setdefault(o, []).append(score)
        by_n.setdefault(n, []).append(score)
    out = []
    for score, o, n in cands:
        so, sn = sorted(by_o[o], reverse=True), sorted(by_n[n], reverse=True)
        clear = all(len(best) < 2 or best[1] <= score - margin for best in (so, sn))
        if score == so[0] == sn[0] and clear:
            out.append((score, o, n))
    return out


class Matcher:
    """Match one pair of prepared editions (mutable state, used once)."""

    def __init__(self, old: Edition, new: Edition) -> None:
        self.old, self.new = old, new
        self.o2n: dict[int, int] = {}
        self.n2o: dict[int, int] = {}
        self.score: dict[int, float] = {}
        self.best_old = [0.0] * len(old.numbers)
        self.best_new = [0.0] * len(new.numbers)
        self.split: dict[int, list[tuple[int, float]]] = {}
        self.merged: dict[int, list[tuple[int, float]]] = {}
        self.absorbed_old: set[int] = set()
        self.absorbed_new: set[int] = set()
        self.near: dict[int, list[int]] | None = None

    def take(self, o: int, n: int, score: float) -> None:
        """Record a one-to-one match."""
        self.o2n[o], self.n2o[n], self.score[o] = n, o, score

    def greedy(self, cands: list[tuple[float, int, int, float]]) -> None:
        """Take candidate pairs (score, old, new, minimum score) best first while both sides are free."""
        for score, o, n, minimum in sorted(cands, key=lambda c: (-c[0], c[1], c[2])):
            self.best_old[o], self.best_new[n] = max(self.best_old[o], score), max(self.best_new[n], score)
            if score >= minimum and o not in self.o2n and n not in self.n2o:
                self.take(o, n, score)

    def mapped(self, numbers: Sequence[str] | set[str]) -> set[str]:
        """Map old rule numbers to new ones through the matches so far."""
        out = set()
        for num in numbers:
            n = self.o2n.get(self.old.at.get(num, -1))
            if n is not None:
                out.add(self.new.numbers[n])
        return out

    def pair_score(self, o: int, n: int, floor: float = 0.0) -> float:
        """Score a pair: text similarity plus number, parent, neighbour, kind and reference agreement.

        A pair that cannot reach `floor` even with every bonus scores its bare similarity.
        """
        old, new = self.old, self.new
        s = similarity(old.keys[o], new.keys[n], old.bag(o), new.bag(n))
        if s == 0.0 or s + _BONUSES < floor:
            return s
        s += 4.0 * (old.numbers[o] == new.numbers[n]) - 6.0 * (old.kinds[o] != new.kinds[n])
        s += 8.0 * (old.parents[o] >= 0 and self.o2n.get(old.parents[o]) == new.parents[n])
        s += 3.0 * (self.o2n.get(o - 1) == n - 1) + 3.0 * (self.o2n.get(o + 1) == n + 1)
        if old.refs[o] and new.refs[n]:
            s += 4.0 * jaccard(self.mapped(old.refs[o]), set(new.refs[n]))
        if old.cited_by[o] and new.cited_by[n]:
            s += 4.0 * jaccard(self.mapped(old.cited_by[o]), new.cited_by[n])
        return s

    def rare_penalty(self, o: int, n: int) -> float:
        """Penalise a text-only pair when one side lacks the other's rare words (keyword and card names)."""
        old, new = self.old, self.new
        missing = len(old.rare(o) - new.bag(n)) + len(new.rare(n) - old.bag(o))
        shared = len(old.rare(o) & new.bag(n)) + len(new.rare(n) & old.bag(o))
        return 15.0 * missing / (missing + shared) if missing else 0.0

    def free(self, kinds: tuple[str, ...]) -> tuple[list[int], list[int]]:
        """Return the unmatched live rules of some kinds, old and new."""
        old, new = self.old, self.new
        olds = [i for i, k in enumerate(old.kinds) if k in kinds and i not in self.o2n and not old.dead[i]]
        return olds, [i for i, k in enumerate(new.kinds) if k in kinds and i not in self.n2o and not new.dead[i]]

    def identity(self) -> None:
        """Match same number and same text (headings only when unique: "General"), then texts unique in each edition."""
        old, new = self.old, self.new
        for o, num in enumerate(old.numbers):
            n = new.at.get(num)
            if n is None or old.dead[o] or old.kinds[o] != new.kinds[n] or old.keys[o] != new.keys[n]:
                continue
            if old.kinds[o] not in HEAD or len(old.by_key[old.keys[o]]) == len(new.by_key[new.keys[n]]) == 1:
                self.take(o, n, 104.0)
        for key, olds in old.by_key.items():
            news = new.by_key.get(key, ())
            if len(olds) != 1 or len(news) != 1 or olds[0] in self.o2n or news[0] in self.n2o:
                continue
            if (old.kinds[olds[0]] in HEAD) == (new.kinds[news[0]] in HEAD) and not self.stayed(olds[0], news[0]):
                self.take(olds[0], news[0], 97.0)

    def stayed(self, o: int, n: int) -> bool:
        """Whether two rules of the same text in different places (old `o`, new `n`) are rather each the rule of its
        own number reworded: the new rule at `o`'s number and the old rule at `n`'s are both nearly their texts
        (2009's 103.4b and 800.5, on a multiplayer mulligan, both reworded in 2012, one of them into the other's
        words)."""
        old, new = self.old, self.new
        n2, o2 = new.at.get(old.numbers[o]), old.at.get(new.numbers[n])
        if n2 is None or o2 is None or new.dead[n2] or old.dead[o2] or n2 in self.n2o or o2 in self.o2n:
            return False
        return (
            min(
                similarity(old.keys[o], new.keys[n2], old.bag(o), new.bag(n2)),
                similarity(old.keys[o2], new.keys[n], old.bag(o2), new.bag(n)),
            )
            >= STAYED_MIN
        )

    def headings(self) -> None:
        """Match headings (and rules with subrules) by title, by parent and by where the rules under them went."""
        from rapidfuzz import fuzz, process

        old, new = self.old, self.new
        olds = [o for o in old.headings if o not in self.o2n]
        news = [n for n in new.headings if n not in self.n2o]
        if not olds or not news:
            return
        votes: dict[tuple[int, int], int] = {}
        total: dict[int, int] = {}
        for o, n in self.o2n.items():  # votes also reach numbered rules with subrules ("217.7. Removed from the Game")
            for a in old.above[o]:
                if a not in self.o2n:
                    total[a] = total.get(a, 0) + 1
                    for b in new.above[n]:
                        votes[(a, b)] = votes.get((a, b), 0) + 1
        titles = process.cdist(
            [old.keys[o] for o in olds], [new.keys[n] for n in news], scorer=fuzz.ratio, dtype="uint8", score_cutoff=60
        )
        pairs = {(olds[i], news[j]): float(titles[i, j]) for i, j in zip(*titles.nonzero(), strict=True)}
        free_new = set(news)
        for a, b in votes:
            if a not in self.o2n and b in free_new and (a, b) not in pairs:
                pairs[(a, b)] = fuzz.ratio(old.keys[a], new.keys[b])
        cands = []
        for (o, n), title in pairs.items():
            count = votes.get((o, n), 0)
            vote = 100.0 * count / total[o] if count > 1 or (count and title >= 60) else 0.0
            parent = old.parents[o] >= 0 and self.o2n.get(old.parents[o]) == new.parents[n]
            unique = len(old.by_key.get(old.keys[o], ())) == 1 and len(new.by_key.get(new.keys[n], ())) == 1
            if vote or parent or unique:
                s = 0.6 * max(title, vote) + 0.4 * min(title, vote) + 8.0 * parent
                s += 4.0 * (old.numbers[o] == new.numbers[n])
                cands.append((s - 4.0 * (old.kinds[o] != new.kinds[n]), o, n, CONTEXT_MIN))
        self.greedy(cands)

    def children(self) -> None:
        """Match numbered rules, then subrules: under matched parents, by neighbours or number, or by text; a numbered
        rule whose best candidate is a subrule is matched with the subrules."""
        old, new = self.old, self.new
        if self.near is None:
            olds, news = self.free(("numbered", "subrule"))
            self.near = _near(
                old,
                [o for o in olds if old.words[o] >= TITLE_WORDS],
                new,
                [n for n in news if new.words[n] >= TITLE_WORDS],
            )
        leftovers, kinds, later = [], ("numbered", "subrule"), []
        for kind in kinds:
            cands = []
            for o in [*self.free((kind,))[0], *later]:
                pool = set(new.by_key.get(old.keys[o], ()))
                pn = self.o2n.get(old.parents[o])
                pool.update(new.children[pn] if pn is not None else ())
                pool.update((new.at.get(old.numbers[o], -1), self.o2n.get(o - 1, -2) + 1, self.o2n.get(o + 1, 0) - 1))
                for n in pool:
                    if 0 <= n < len(new.numbers) and n not in self.n2o and not new.dead[n] and new.kinds[n] in kinds:
                        cands.append((self.pair_score(o, n, CONTEXT_MIN), o, n, CONTEXT_MIN))
                for n in self.near.get(o, ()):
                    if n not in pool and n not in self.n2o:
                        score = self.pair_score(o, n, MUTUAL_MIN)
                        score -= self.rare_penalty(o, n) if score >= MUTUAL_MIN else 0.0
                        cands.append((score, o, n, GLOBAL_MIN))
            # a numbered rule whose best candidate is a subrule waits for the subrules' pass, scored again there
            # beside the subrules' own candidates (2015's 800.7 took 2017's 104.3h before 2015's 104.3h could)
            best: dict[int, tuple[float, int]] = {}  # old rule -> (score, new rule) of its best candidate
            for score, o, n, _ in cands:
                best[o] = max(best.get(o, (score, n)), (score, n))
            waiting = {o for o, (_, n) in best.items() if kind != kinds[-1] and new.kinds[n] != kind}
            later = sorted(waiting)
            now = [c for c in cands if c[1] not in waiting]
            self.greedy(now)
            leftovers += [c[:3] for c in now if c[3] == GLOBAL_MIN and c[1] not in self.o2n and c[2] not in self.n2o]
        self.greedy([(s, o, n, MUTUAL_MIN) for s, o, n in _mutual_bests(leftovers)])

    def splits_and_merges(self) -> None:
        """Attach unmatched rules whose text came from (split) or went into (merged) a matched rule's."""
        olds, news = self.free(("numbered", "subrule"))
        # Near texts elsewhere make no split: they are new rules modelled on old ones ("omen" on "adventurer").
        for n in news:
            self.absorb(n, self.new, self.old, self.n2o, self.o2n, self.split, [])
        for o in olds:
            self.absorb(o, self.old, self.new, self.o2n, self.n2o, self.merged, (self.near or {}).get(o, []))

    def absorb(
        self,
        i: int,
        mine: Edition,
        other: Edition,
        mine2other: dict[int, int],
        other2mine: dict[int, int],
        found: dict[int, list[tuple[int, float]]],
        near: list[int],
    ) -> None:
        """Attach `i` to a matched rule: the counterpart of a nearby sibling or of i's first subrule whose text holds
        i's words and explains it better (2015's 708.2a became 2017's 708.3 and its subrule 708.3a), else one of
        `near` with nearly the same text (a rule generalised to cover two)."""
        from rapidfuzz import fuzz

        if mine.words[i] < TITLE_WORDS:
            return
        words = mine.bag(i)
        siblings = mine.children[mine.parents[i]] if mine.parents[i] >= 0 else []
        pos = siblings.index(i) if i in siblings else 0
        best: tuple[float, int] | None = None
        near_by = [*siblings[max(pos - 2, 0) : pos + 3], *mine.children[i][:1]]
        for j in sorted({mine2other[s] for s in near_by if s in mine2other}):
            twin = other2mine[j]
            held = ABSORB_HELD_OWN if mine.parents[twin] == i else ABSORB_HELD
            if len(words & other.bag(j)) < held * len(words) or (mine is self.old and twin in self.split):
                continue
            parts = (mine.keys[twin], mine.keys[i]) if twin < i else (mine.keys[i], mine.keys[twin])
            before, after = fuzz.ratio(other.keys[j], mine.keys[twin]), fuzz.ratio(other.keys[j], " ".join(parts))
            if after >= before + 5:
                best = (after, j)
                break
        for j in near if best is None else ():
            twin = other2mine.get(j)
            if twin is None or (mine is self.old and twin in self.split) or mine.rare(i) - other.bag(j):
                continue
            sim = similarity(mine.keys[i], other.keys[j], words, other.bag(j))
            if sim >= 85 and not other.rare(j) - words and (best is None or sim > best[0]):
                best = (sim, j)
        if best is not None:
            found.setdefault(best[1], []).append((i, best[0] / 100))
            (self.absorbed_old if mine is self.old else self.absorbed_new).add(i)

    def run(self) -> EditionLinks:
        """Run every stage and return the links."""
        self.identity()
        for _ in range(2):
            self.headings()
            self.children()
        self.splits_and_merges()
        self.same_place()
        self.moves()
        self.pieces()
        self.merged_pieces()
        return self.links()

    def same_place(self) -> None:
        """Last resort: a rule still unmatched on both sides at the same number, under parents matched to each
        other, is the same rule reworded when their texts still share something (a low confidence says so)."""
        old, new = self.old, self.new
        olds, _ = self.free(("numbered", "subrule"))
        for o in olds:
            if o in self.absorbed_old:
                continue
            n = new.at.get(old.numbers[o])
            if n is None or n in self.n2o or new.dead[n] or old.kinds[o] != new.kinds[n]:
                continue
            if old.parents[o] < 0 or self.o2n.get(old.parents[o]) != new.parents[n]:
                continue
            s = similarity(old.keys[o], new.keys[n], old.bag(o), new.bag(n))
            if s >= SAME_PLACE_MIN:
                self.take(o, n, s)

    def moves(self) -> None:
        """Last: a rule still unmatched whose words live on in a rule still unmatched elsewhere (`706.7a` -> `607.5a`,
        `406.1` -> `605.1a`), weighed by how rare each word is (`weight`: `player` and `game` say little, `phased`
        much), each side the other's best by a margin; texts alike only in common words are left apart."""
        from rapidfuzz import fuzz, process

        old, new = self.old, self.new
        olds, news = self.free(("numbered", "subrule"))
        olds = [o for o in olds if o not in self.absorbed_old and len(old.bag(o)) >= TITLE_WORDS]
        news = [n for n in news if n not in self.absorbed_new and len(new.bag(n)) >= TITLE_WORDS]
        if not olds or not news:
            return
        ratios = process.cdist(
            [old.keys[o] for o in olds],
            [new.keys[n] for n in news],
            scorer=fuzz.token_set_ratio,
            dtype="uint8",
            score_cutoff=MOVE_MIN,
            workers=-1,
        )
        cands = []
        for i, j in zip(*ratios.nonzero(), strict=True):
            o, n = olds[i], news[j]
            a, b = old.bag(o), new.bag(n)
            shared = sum(min(old.weight(w), new.weight(w)) for w in a & b)
            held = shared / min(sum(map(old.weight, a)), sum(map(new.weight, b)))
            if held >= MOVE_HELD:
                cands.append((100.0 * held, o, n))
        for score, o, n in _mutual_bests(cands):
            self.take(o, n, score)

    def pieces(self) -> None:
        """Last: a new rule whose text is, nearly word for word, part of an old rule that lives on is a piece split
        from it (2015's 108.2 gave 2017's 108.2a its second paragraph; 2023's 500.5 gave 2026's 500.5a and 500.5b
        a sentence each): a split, not an added rule. Looked for among the old rules holding its rarest words."""
        from rapidfuzz import fuzz

        old, new = self.old, self.new
        _, news = self.free(("numbered", "subrule"))
        news = [n for n in news if n not in self.absorbed_new and len(new.bag(n)) >= PIECE_WORDS]
        news = [n for n in news if not new.keys[n].startswith("see ")]  # `See rule 708 … for more information.`
        if not news:
            return
        holders = _holders(old, self.o2n, self.absorbed_old, set().union(*(new.bag(n) for n in news)))
        for n in news:
            words = new.bag(n)
            best: tuple[float, int] | None = None
            for o in _rarest(words, holders):
                if not _held_in(new, n, old, o):
                    continue  # a rule modelled on another, not a piece of it: `omen` where it said `adventurer`
                found = fuzz.partial_ratio_alignment(new.keys[n], old.keys[o], score_cutoff=PIECE_RATIO)
                if found is None:
                    continue
                key = old.keys[o]  # the passage, and the word before it (`prevention` of `prevention effects must`)
                start = key.rfind(" ", 0, max(key.rfind(" ", 0, found.dest_start), 0)) + 1
                said = set(key[start : found.dest_end].split()) - FUNCTION_WORDS
                if any(old.weight(w) >= PIECE_RARE for w in said - words):
                    continue  # the passage it matches says something it does not: `replacement effects must exist`
                if best is None or found.score > best[0]:
                    best = (found.score, o)
            if best is not None:
                self.split.setdefault(best[1], []).append((n, best[0] / 100))
                self.absorbed_new.add(n)

    def merged_pieces(self) -> None:
        """Last: an old rule left unmatched, or matched by its place alone to a text little like its own (a score
        under WEAK), whose text is nearly word for word a passage of a new rule that another old rule became, went
        into it (2020's 711.4, "Each face of a double-faced card has its own set of characteristics", and 712.3 on
        meld cards are the two sentences of 2023's 712.8): merged, and the new rule it was matched to is added."""
        from rapidfuzz import fuzz

        old, new = self.old, self.new
        olds = [
            o
            for o, kind in enumerate(old.kinds)
            if kind in ("numbered", "subrule")
            and not old.dead[o]
            and o not in self.absorbed_old
            and self.score.get(o, 0.0) < WEAK
            and len(old.bag(o)) >= PIECE_WORDS
            and not old.keys[o].startswith("see ")
        ]
        if not olds:
            return
        holders = _holders(new, self.n2o, self.absorbed_new, set().union(*(old.bag(o) for o in olds)))
        for o in olds:
            if self.o2n.get(o) in self.merged:  # others went into what it became: it stays
                continue
            best: tuple[float, int] | None = None
            for n in _rarest(old.bag(o), holders):
                twin = self.n2o.get(n)  # None: freed by an earlier rule of `olds`
                if twin is None or twin == o or twin in self.split or not _held_in(old, o, new, n):
                    continue
                found = fuzz.partial_ratio_alignment(old.keys[o], new.keys[n], score_cutoff=MERGED_RATIO)
                if found is not None and (best is None or found.score > best[0]):
                    best = (found.score, n)
            if best is None:
                continue
            if o in self.o2n:
                del self.n2o[self.o2n.pop(o)], self.score[o]
            self.merged.setdefault(best[1], []).append((o, best[0] / 100))
            self.absorbed_old.add(o)

    def links(self) -> EditionLinks:
        """Turn the matching into links with statuses and confidences."""
        old, new, links = self.old, self.new, []
        for o, num in enumerate(old.numbers):
            n = self.o2n.get(o, -1)
            if old.dead[o] or o in self.absorbed_old:
                continue
            if o in self.split:
                pairs = ([(n, self.score[o] / 100)] if n >= 0 else []) + self.split[o]
                links += [Link(num, new.numbers[j], "split", min(c, 1.0), True) for j, c in pairs]
            elif n >= 0 and n in self.merged:
                for j, c in [(o, self.score[o] / 100), *self.merged[n]]:
                    links.append(Link(old.numbers[j], new.numbers[n], "merged", min(c, 1.0), True))
            elif n >= 0:
                changed = not same_text(old.full[o], new.full[n])
                status = "renumbered" if num != new.numbers[n] else "changed" if changed else "same"
                confidence = 1.0 if status == "same" else min(self.score[o] / 100, 1.0)
                links.append(Link(num, new.numbers[n], status, round(confidence, 3), changed))
            else:
                links.append(Link(num, None, "removed", round(1 - min(self.best_old[o], 100.0) / 100, 3), True))
        for n, num in enumerate(new.numbers):
            if n not in self.n2o and not new.dead[n] and n not in self.absorbed_new:
                links.append(Link(None, num, "added", round(1 - min(self.best_new[n], 100.0) / 100, 3), True))
        by_old: dict[str, list[Link]] = {}
        by_new: dict[str, list[Link]] = {}
        for link in links:
            if link.old is not None:
                by_old.setdefault(link.old, []).append(link)
            if link.new is not None:
                by_new.setdefault(link.new, []).append(link)
        return EditionLinks(
            tuple(links), {k: tuple(v) for k, v in by_old.items()}, {k: tuple(v) for k, v in by_new.items()}
        )
