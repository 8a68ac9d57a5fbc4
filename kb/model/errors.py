"""The one error type kb raises to say what went wrong and what to do; `kb/cli.py` prints it once.

Every stage's own error (a content folder that cannot be read, a malformed query, a site that cannot be written…)
derives from `KbError`, whose `status` is the command's exit status: 2 for a mistake in the command or its input
(a malformed query, an unreadable content folder), 1 for a failure of the work itself (a build that stops).
"""

from __future__ import annotations


class KbError(Exception):
    """A failure said to the user in one line (`kb: message`), with the exit status it ends the command with."""

    status: int = 1
    """The command's exit status when this error ends it."""
