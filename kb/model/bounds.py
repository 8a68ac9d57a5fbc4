"""How many diagnostics of one kind are listed: the first MAX_LISTED of each severity for each file, the others
counted in one more line (a file of 200,000 duplicate rules printed 200,003 lines, and held as many records)."""

from __future__ import annotations

from collections.abc import Iterable

from kb.model.records import Diagnostic

MAX_LISTED = 100
"""Diagnostics of one severity listed for one file."""


def more(path: str, severity: str, count: int) -> Diagnostic:
    """The line counting the diagnostics of a file and severity past MAX_LISTED (`count`: all of them)."""
    message = f"… and {count - MAX_LISTED:,} more {severity}s in this file, not listed: fix the first {MAX_LISTED}"
    return Diagnostic(severity, path, 0, f"{message} and check again")


def bounded(diagnostics: Iterable[Diagnostic]) -> tuple[Diagnostic, ...]:
    """The diagnostics, at most MAX_LISTED of each severity for each file, and for each file and severity past it one
    line counting the others (`more`); a line of `more` already there counts for what it says."""
    counts: dict[tuple[str, str], int] = {}
    kept = []
    for diag in diagnostics:
        key = (diag.path, diag.severity)
        counts[key] = counts.get(key, 0) + _counted(diag)
        if counts[key] <= MAX_LISTED:
            kept.append(diag)
    kept += [more(path, severity, n) for (path, severity), n in counts.items() if n > MAX_LISTED]
    return tuple(kept)


def _counted(diag: Diagnostic) -> int:
    """How many diagnostics a line stands for: those a line of `more` counts, else one."""
    if diag.line == 0 and diag.message.startswith("… and ") and " in this file, not listed" in diag.message:
        return int(diag.message.split()[2].replace(",", "")) + MAX_LISTED
    return 1
