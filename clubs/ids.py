"""An id a person or a script writes, in an address or a query (issue 55): a number past what
the database's integers hold is no id of anything, and is answered as an id nothing has (a
404, or a filter that finds nothing), never asked of the database.

The archive's ids are ``BigAutoField``s: signed 64-bit. SQLite refused a bigger number with
an ``OverflowError`` (a 500: ``/api/v1/leagues/26578978922585112283447296/fixtures/7360/``,
where the league's id was a foreign key's, which Django does not bound); PostgreSQL compared
it as a numeric. Every ``<id:...>`` of the URL confs is ``IdConverter`` (registered in
``clubs.apps``; the built-in ``<int:...>`` is not used, ``tests/test_ids.py`` walks the URL
conf for it), and every id read from a query or a form's text goes through ``id_of``."""

from __future__ import annotations

from typing import Any

# The largest id a BigAutoField holds (PostgreSQL's bigint, SQLite's INTEGER).
LARGEST = 2**63 - 1


def id_of(text: Any) -> int | None:
    """Return the id ``text`` writes (ASCII digits, at most ``LARGEST``), else None: a
    number too big for the database, a sign, a space, "²" or "２" (``str.isdigit`` takes
    both, and ``int`` refuses the first) are no id."""
    text = str(text)
    if not (text.isascii() and text.isdigit()) or len(text) > len(str(LARGEST)):
        return None
    number = int(text)
    return number if number <= LARGEST else None


class IdConverter:
    """``<id:name>`` of an address: digits that are an id (``id_of``). Any other number
    makes the address match nothing (``to_python`` raising ``ValueError``): a 404, as for
    an id nothing has."""

    regex = "[0-9]+"

    def to_python(self, value: str) -> int:
        number = id_of(value)
        if number is None:
            raise ValueError(value)
        return number

    def to_url(self, value: Any) -> str:
        return str(value)
