"""Password strength: common and trivial passwords are refused.

zxcvbn estimates how many guesses a password takes, knowing common passwords, dictionary words,
names, keyboard walks, repeats, sequences and dates (plus the account's own email and name), and
scores it 0-4. Score 3 ("safely unguessable: moderate protection from an offline slow-hash
attack") is required: `12345678`, `password` and eight spaces all score 0.
"""

from __future__ import annotations

from collections.abc import Sequence

from zxcvbn import zxcvbn

MIN_SCORE = 3
MAX_CHECKED = 72
"""zxcvbn judges at most 72 characters (its work grows with length); a longer password is judged
by its start, which is already far beyond any guessing."""


def weakness(password: str, *, hints: Sequence[str] = ()) -> str | None:
    """Why `password` is too easy to guess, in the user's words; None when it is strong enough.
    `hints`: the account's own words (email, name), which make a password weaker."""
    words = [*hints, *(part for hint in hints for part in hint.replace("@", " ").replace(".", " ").split())]
    result = zxcvbn(password[:MAX_CHECKED], user_inputs=words)
    if result["score"] >= MIN_SCORE:
        return None
    feedback = result["feedback"]
    advice = " ".join(x for x in [feedback.get("warning") or "", *feedback.get("suggestions", [])] if x)
    return f"too easy to guess ({result['score']} of 4, at least {MIN_SCORE} needed). {advice}".strip()
