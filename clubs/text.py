"""Text typed by people, made fit to store: the names of clubs, handles, filters."""

from __future__ import annotations


def clean_text(text: str, limit: int) -> str | None:
    """Return ``text`` stripped if it is 1 to ``limit`` characters a database can hold (no
    U+0000, no lone surrogate), else None."""
    text = text.strip()
    if not text or len(text) > limit or "\x00" in text:
        return None
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return None
    return text
