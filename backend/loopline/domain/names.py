"""Names that look like what they are: no invisible or direction-changing characters.

A name is shown in the editor and printed on labels, wiring sheets and exports, where a cabling
team matches it by eye. A right-to-left override (U+202E) shows `R01-01` for a name stored
otherwise, a zero-width space makes two names that look alike differ, a BOM or a C1 control is
invisible. Refused: every control character (Unicode category Cc: C0 with tab and newline, DEL,
C1), every format character (Cf: bidirectional embeddings, overrides, isolates and marks, zero-width
space and joiners, word joiner, BOM, soft hyphen, tags) and the line and paragraph separators
(Zl, Zp). NUL and lone surrogates are refused earlier, in every text (`api/body_guard.py`).
"""

from __future__ import annotations

import unicodedata

REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp"})


def spoofing(name: str) -> str | None:
    """Why `name` may not be a name (the first offending character), or None."""
    for ch in name:
        if unicodedata.category(ch) in REFUSED_CATEGORIES:
            what = unicodedata.name(ch, "a control character")
            return (
                f"names may not contain U+{ord(ch):04X} ({what}): invisible and direction-changing "
                "characters make one name look like another"
            )
    return None
