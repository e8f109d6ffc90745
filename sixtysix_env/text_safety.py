"""Make text that someone else controls (a bot's exception, a player name in a record) safe to show.

A student's bot chooses its exception text, its class name and what it prints; a game record
chooses its player names. Written raw into a terminal, such text can set the window title,
write the clipboard (OSC 52), clear the screen or reorder what is shown (bidi overrides); written
raw into Markdown, it can forge a heading or a league table row. Every place that shows such
text goes through one of these functions:

- :func:`terminal_text`: for a terminal or a log line. Every control or invisible formatting
  character becomes its visible escape (``\\x1b``, ``\\u202e``), so nothing is executed or hidden,
  and a newline cannot start a forged line.
- :func:`markdown_text`: for one Markdown table cell or line: :func:`terminal_text`, then every
  character with a meaning in Markdown (``|``, ``#``, ``*``, ``[``, ``<``, ...) backslash-escaped.
- :func:`html_text`: for HTML: :func:`terminal_text`, then :func:`html.escape`.
"""

from __future__ import annotations

import html
import re
import unicodedata

__all__ = ["terminal_text", "markdown_text", "html_text", "is_clean"]

_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""Bidirectional marks, embeddings, overrides and isolates (they reorder what a terminal shows)."""

_MARKDOWN_SPECIAL = frozenset("\\`*_[]<>|#~&")
"""Punctuation with a meaning anywhere in a CommonMark or GitHub Markdown line (code spans,
emphasis, links and images, HTML tags, table cells, headings, strike-through, entities): always
escaped with a backslash, which renders as the character itself."""

_MARKDOWN_LEADING = re.compile(r"^(\s*)([-+=:>]|\d+[.)])")
"""What starts a block (a list item, a setext heading line, a quote, a numbered list) only at the
start of a line: escaped there."""


def _unsafe(ch: str, keep_newlines: bool) -> bool:
    if keep_newlines and ch in "\n\t":
        return False
    if ch in _BIDI:
        return True
    # Cc: C0, DEL and C1 controls; Cf: format characters (zero-width, soft hyphen, tags);
    # Cs: lone surrogates (undecodable bytes); Zl, Zp: line and paragraph separators.
    return unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Zl", "Zp")


_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _visible(ch: str) -> str:
    if ch in _NAMED:
        return _NAMED[ch]
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


_SUSPECT = re.compile(r"[^\x20-\x7e]")


def terminal_text(text: object, *, keep_newlines: bool = False, limit: int | None = None) -> str:
    """``text`` as a string with every control character (C0, DEL, C1 such as the escape that
    starts a terminal sequence), bidi override, invisible format character and lone surrogate
    replaced by its visible escape. With ``keep_newlines`` a newline and a tab stay (for a
    traceback printed on its own lines); otherwise they are escaped too, so the text stays on its
    line. ``limit`` cuts the result to that many characters (ending in "...")."""
    s = text if isinstance(text, str) else str(text)
    if _SUSPECT.search(s):  # the common all-printable-ASCII case costs one regex scan
        s = "".join(_visible(ch) if _unsafe(ch, keep_newlines) else ch for ch in s)
    if limit is not None and len(s) > limit:
        s = s[: max(0, limit - 3)] + "..."
    return s


def _intraword(s: str, i: int) -> bool:
    """An underscore between two letters or digits (``my_bot``): never emphasis in GitHub
    Markdown, so it stays as it is and names read as written."""
    return s[i] == "_" and 0 < i < len(s) - 1 and s[i - 1].isalnum() and s[i + 1].isalnum()


def markdown_text(text: object, *, limit: int | None = None) -> str:
    """``text`` safe as one Markdown table cell or inline span: :func:`terminal_text` (so it is
    one line), then every Markdown punctuation character backslash-escaped, so it cannot end the
    cell (``|``), start a heading (``#``), a list, a link, an HTML tag or emphasis."""
    s = terminal_text(text, limit=limit)
    s = "".join("\\" + ch if ch in _MARKDOWN_SPECIAL and not _intraword(s, i) else ch for i, ch in enumerate(s))
    return _MARKDOWN_LEADING.sub(lambda m: m.group(1) + m.group(2)[:-1] + "\\" + m.group(2)[-1], s, count=1)


def html_text(text: object, *, limit: int | None = None) -> str:
    """``text`` safe as HTML element content or an attribute value: :func:`terminal_text`, then
    ``&``, ``<``, ``>`` and both quotes escaped."""
    return html.escape(terminal_text(text, limit=limit), quote=True)


def is_clean(text: str) -> bool:
    """Whether ``text`` has no character that :func:`terminal_text` would escape."""
    return terminal_text(text) == text
