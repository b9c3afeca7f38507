"""The open data's page (``/data/``): each month's files, how to read them, their licence.
The files themselves are nginx's to serve (``replays/open_data.py``)."""

from __future__ import annotations

from datetime import date

from django.shortcuts import render

from .open_data import DUCKDB_EXAMPLE, LICENCE, months_listed


def open_data(request):
    months = months_listed()
    rows = [
        {
            "month": made.month,
            "first_day": date.fromisoformat(made.month + "-01"),
            "made": made,
            "files": [
                {"kind": kind, "url": made.url(file), "file": file} for kind, file in made.files()
            ],
        }
        for made in months
    ]
    example = months[0] if months else None
    return render(
        request,
        "replays/open_data.html",
        {
            "rows": rows,
            "licence": LICENCE,
            "example": DUCKDB_EXAMPLE.format(
                seats=example.parquet.name if example else "fives-2026-11-seats.parquet",
                matches=example.ndjson.name if example else "fives-2026-11.ndjson.zst",
            ),
        },
    )
