"""The one sanitiser of text from data shown to people: pictures, pages and the terminal.

Content names are refused at load unless they are printable (rust/core/src/text.rs); this
is the second line, for anything else from data (notations, renderings, messages): control
characters (C0, DEL, C1), bidi marks, overrides and isolates, line and paragraph
separators, lone surrogates and the non-characters XML forbids become U+FFFD, so no text
can drive a terminal (ESC sequences: titles, colours, clearing) or break markup.
"""

from __future__ import annotations

import re

#: Longest text of one picture element, in characters (longer text is cut with "…").
MAX_TEXT = 400

UNPRINTABLE = re.compile(
    "[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069"
    "\ud800-\udfff\ufffe\uffff]"
)
# The same, but a newline is kept (multi-line renderings for the terminal).
_UNPRINTABLE_LINES = re.compile(
    "[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069"
    "\ud800-\udfff\ufffe\uffff]"
)


def clean(s: object, limit: int = MAX_TEXT) -> str:
    """``s`` as one line of printable text, cut to ``limit`` characters."""
    t = str(s)
    if len(t) > limit:
        t = t[: limit - 1] + "…"
    return UNPRINTABLE.sub("\ufffd", t)


def terminal(s: object) -> str:
    """``s`` for the terminal: printable text, newlines kept, nothing else cut."""
    return _UNPRINTABLE_LINES.sub("\ufffd", str(s))


def move_text(game: object, action: object) -> str:
    """A move as a person reads it in the position ``game`` it is played from: the game's
    ``action_text`` where it has one (Zinordia names Stars and abilities), else the
    notation. Only for moves shown in full; a secret move keeps its secret form."""
    describe = getattr(game, "action_text", None)
    return str(describe(action)) if callable(describe) else str(action)
