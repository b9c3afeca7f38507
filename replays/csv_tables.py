"""The one writer of the CSV tables a club opens in a spreadsheet (the ranking, a season's
standings, a tournament's schedule, a league's table), with the one guard against formulas:
a text cell that a spreadsheet would read as a formula (a leading ``=``, ``+``, ``-``, ``@``,
tab or carriage return: a handle or a team's name is typed by anyone) is written with a
leading apostrophe, so it shows as the text it is (OWASP's "CSV injection")."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from typing import Any

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: Any) -> Any:
    """Return a cell as the spreadsheet must read it: text never as a formula, None empty."""
    if value is None:
        return ""
    if isinstance(value, str) and value[:1] in FORMULA_STARTS:
        return "'" + value
    return value


def csv_text(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    """Return the table as CSV text, the header row first, every cell guarded."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows([csv_cell(value) for value in row] for row in rows)
    return out.getvalue()
