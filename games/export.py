"""Bulk export: stored matches as ``fives/1`` NDJSON, streamed in constant memory.

Matches are read a chunk at a time (ids first, then their seats, hands and moves as plain
rows), so memory holds one chunk whatever the number of matches.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterator
from typing import Any

from django.db.models import QuerySet

from .models import Hand, Match, Move, Seat

CHUNK = 500


def export_lines(matches: QuerySet[Match]) -> Iterator[bytes]:
    """Yield one ``fives/1`` log per match as an NDJSON line, in the queryset's order."""
    ids = matches.values_list("id", flat=True)
    chunk: list[int] = []
    for match_id in ids.iterator(chunk_size=CHUNK):
        chunk.append(match_id)
        if len(chunk) == CHUNK:
            yield from _chunk_lines(chunk)
            chunk = []
    if chunk:
        yield from _chunk_lines(chunk)


def _chunk_lines(ids: list[int]) -> Iterator[bytes]:
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
        )
    }
    players: dict[int, list[str]] = defaultdict(list)
    for match_id, handle in (
        Seat.objects.filter(match_id__in=ids)
        .order_by("match_id", "seat")
        .values_list("match_id", "player__handle")
    ):
        players[match_id].append(handle)
    hands: dict[int, list[int]] = defaultdict(list)
    heads: dict[int, str] = {}
    for hand_id, match_id, leader, deal in (
        Hand.objects.filter(match_id__in=ids)
        .order_by("match_id", "index")
        .values_list("id", "match_id", "leader", "deal")
    ):
        hands[match_id].append(hand_id)
        heads[hand_id] = f'{{"leader":{leader},"deal":{json.dumps(deal)},"moves":['
    moves: dict[int, list[str]] = defaultdict(list)
    # The moves are the bulk: written as JSON text directly. Their tiles and ends come
    # from valid logs ("a-b", one of W/E/N/S), so they need no escaping.
    for hand_id, seat, kind, tile, end, claimed in (
        Move.objects.filter(hand_id__in=list(heads))
        .order_by("hand_id", "index")
        .values_list("hand_id", "seat", "kind", "tile", "end", "claimed")
    ):
        text = (
            f'{{"seat":{seat},"pass":true'
            if kind == "pass"
            else f'{{"seat":{seat},"{kind}":"{tile}"'
        )
        if end:
            text += f',"end":"{end}"'
        if claimed is not None:
            text += f',"points":{int(claimed) if claimed.is_integer() else repr(claimed)}'
        moves[hand_id].append(text + "}")
    for match_id in ids:
        row = rows.get(match_id)
        if row is None:  # deleted while the export ran
            continue
        doc: dict[str, Any] = {"format": "fives/1"}
        if row["external_id"] is not None:
            doc["id"] = row["external_id"]
        doc["ruleset"] = row["ruleset"]
        doc["players"] = players[match_id]
        doc["teams"] = row["teams"]
        doc["club"] = row["club__name"]
        if row["event"]:
            doc["event"] = row["event"]
        if row["played_at_text"]:
            doc["played_at"] = row["played_at_text"]
        if row["source"]:
            doc["source"] = row["source"]
        head = json.dumps(doc, ensure_ascii=False, separators=(",", ":"))[:-1]
        body = ",".join(heads[h] + ",".join(moves[h]) + "]}" for h in hands[match_id])
        tail = ""
        if row["final_scores"] is not None:
            tail = ',"final_scores":' + json.dumps(row["final_scores"], separators=(",", ":"))
        yield f'{head},"hands":[{body}]{tail}}}\n'.encode()
