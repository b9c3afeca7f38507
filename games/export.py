"""Bulk export: stored matches as ``fives/1`` NDJSON, streamed in constant memory.

Matches are read a chunk at a time (ids first, then the matches with their packed hands and
their seats, as plain rows), turned into ``MatchLog`` objects and written by
``MatchLog.as_json_text``, the one writer of ``fives/1``; memory holds one chunk whatever
the number of matches.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Iterator

from django.db.models import QuerySet

from fives_engine import MatchLog
from games.codec import unpack_match

from .models import Match, Seat

CHUNK = 500


def export_lines(matches: QuerySet[Match]) -> Iterator[bytes]:
    """Yield one ``fives/1`` log per match as an NDJSON line, in the queryset's order."""
    for _match_id, log in export_logs(matches):
        yield (log.as_json_text() + "\n").encode()


def export_logs(matches: QuerySet[Match]) -> Iterator[tuple[int, MatchLog]]:
    """Yield each match's id and its ``fives/1`` log, in the queryset's order (what
    ``export_lines`` writes; the open data's files count its hands and moves too)."""
    ids = matches.values_list("id", flat=True)
    chunk: list[int] = []
    for match_id in ids.iterator(chunk_size=CHUNK):
        chunk.append(match_id)
        if len(chunk) == CHUNK:
            yield from _chunk_logs(chunk)
            chunk = []
    if chunk:
        yield from _chunk_logs(chunk)


def started(lines: Iterator[bytes]) -> Iterator[bytes]:
    """Return ``lines`` with the first one read already. A stream's answer goes out (200) when
    the server reads its first line, past the view and Django's error handlers: the database
    away then made the server's own bare 500 (issue 34). Read in the view, it is a 503 with
    ``Retry-After``, as every answer is while the database is away."""
    first = next(lines, None)
    return lines if first is None else itertools.chain([first], lines)


def _chunk_logs(ids: list[int]) -> Iterator[tuple[int, MatchLog]]:
    rows = {
        row["id"]: row
        for row in Match.objects.filter(pk__in=ids).values(
            "id",
            "external_id",
            "ruleset",
            "teams",
            "club__name",
            "event",
            "played_at_text",
            "source",
            "final_scores",
            "record",
            "player_count",
            "packed",
        )
    }
    players: dict[int, list[str]] = defaultdict(list)
    for match_id, handle in (
        Seat.objects.filter(match_id__in=ids)
        .order_by("match_id", "seat")
        .values_list("match_id", "player__handle")
    ):
        players[match_id].append(handle)
    for match_id in ids:
        row = rows.get(match_id)
        if row is None:  # deleted while the export ran
            continue
        teams = row["teams"]
        final = row["final_scores"]
        log = MatchLog(
            ruleset=row["ruleset"],
            players=tuple(players[match_id]),
            hands=tuple(
                hand.log for hand in unpack_match(bytes(row["packed"]), row["player_count"])
            ),
            teams=tuple(tuple(team) for team in teams) if teams is not None else None,
            final_scores=tuple(final) if final is not None else None,
            id=row["external_id"],
            club=row["club__name"],
            event=row["event"] or None,
            played_at=row["played_at_text"] or None,
            source=row["source"] or None,
            record=row["record"] or None,
        )
        yield match_id, log
