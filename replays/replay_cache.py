"""The replay of a stored match, made once per version of the match and kept: the API's
answer (``match_replay_json``), the page's part (``match_replay_page_cached``) and, for a long
match, the row ``StoredReplay``.

The API's answer holds the engine's states (the legal moves at each, too): one walk of the
stored log, its hands and moves numbered from 1 as everything read is (``games.numbering``;
the walk counts them from 0). The page's part of a valid match is read off the engine's board
as it walks the stored moves, each play's best as ingest stored it (``page_board``); a match
a rescore found no longer valid is walked, to its first error."""

from __future__ import annotations

from typing import Any, NamedTuple

import msgspec
import zstandard
from django.db import IntegrityError, transaction

from fives_engine.replay import Replay, replay_match
from games.cache import cached_for_match
from games.models import Match
from games.numbering import shown
from games.presentation import team_names

from .models import StoredReplay
from .page_board import stored_page_states
from .wire import page_part, replay_page_part

# A match of at least this many moves keeps its replay (``StoredReplay``): walking a stored
# match and writing its states costs about 40 µs a move (a 200-hand match's 4,900 moves:
# about 200 ms), so a shorter one's first replay is made in about 20 ms, and its states (some
# 30 bytes a move, compressed) are not worth keeping beside its packed hands.
REPLAY_KEPT_FROM = 500
REPLAY_LEVEL = 9
# The mark of the API's numbering in what is kept and cached: replays kept or cached before
# the states counted hands and moves from 1 (issue 56) carry none, and are made again.
NUMBERING = "n1"


class ReplayParts(NamedTuple):
    """What a replay's answers are made of, less the players' names (a rename changes
    those): ``body``, the tail of the API's answer as JSON (``rules``, ``valid``,
    ``states``), and ``page``, what the page embeds of the states."""

    body: bytes
    page: dict[str, Any]


def replay_parts_made(*, match: Match) -> ReplayParts:
    """Walk the stored match once and make its ``ReplayParts``. ``match`` comes with its log
    (``Match.objects.with_log()``)."""
    replay = _walk(match)
    return ReplayParts(_body(match, replay), _page(match, replay))


def _walk(match: Match) -> Replay:
    # One walk of the stored log, each play's best read from the figures stored with it.
    return replay_match(match.log(), [hand.facts for hand in match.hands])


def _body(match: Match, replay: Replay) -> bytes:
    return msgspec.json.encode(
        {"rules": match.rules, "valid": replay.report.valid, "states": states_shown(replay)}
    )


def states_shown(replay: Replay) -> list[dict[str, Any]]:
    """Return the walk's states as the API gives them: each one's hand and move numbered from
    1 (``games.numbering``; the move null at a hand's deal), the rest as the engine wrote it."""
    return [
        state | {"hand": shown(state["hand"]), "move": shown(state["move"])}
        for state in replay.states
    ]


def kept_version(match: Match) -> str:
    """Return the version a kept replay of ``match`` is made for: the match's own and the
    API's numbering (``NUMBERING``)."""
    return f"{match.cache_version}:{NUMBERING}"


def _page(match: Match, replay: Replay | None = None) -> dict[str, Any]:
    """Return the page's part: made from what ingest stored with a valid match, else from
    the walk (``replay``, or one made now), which stops at the first error."""
    if not match.errors:
        return {"valid": True} | page_part(*stored_page_states(match))
    replay = replay or _walk(match)
    return {"valid": replay.report.valid} | replay_page_part(
        replay.states, seats=match.player_count
    )


def replay_body(*, match: Match) -> bytes:
    """Return the body of the match's ``ReplayParts``: kept when made for this version of
    the match, else made now (and kept, for a long match). ``match`` comes with its log."""
    kept = _kept(match, "body")
    if kept:
        return zstandard.ZstdDecompressor().decompress(kept)
    if match.move_count >= REPLAY_KEPT_FROM:
        return replay_parts(match).body
    return _body(match, _walk(match))


def replay_page(*, match: Match) -> dict[str, Any]:
    """Return the page part of the match's ``ReplayParts``: kept when made for this version
    of the match, else made now from what ingest stored (no walk of a valid match: nothing
    is kept then, as the API's part would need one). ``match`` comes with its log."""
    kept = _kept(match, "page")
    if kept:
        return msgspec.json.decode(zstandard.ZstdDecompressor().decompress(kept))
    return _page(match)


def _kept(match: Match, field: str) -> bytes | None:
    """Return one compressed part of the match's kept replay, if kept for this version."""
    found = StoredReplay.objects.filter(match_id=match.pk, version=kept_version(match))
    value = found.values_list(field, flat=True).first()
    return bytes(value) if value is not None else None


def replay_parts(match: Match) -> ReplayParts:
    """Make the match's ``ReplayParts`` and keep them."""
    parts = replay_parts_made(match=match)
    replay_keep(match=match, parts=parts)
    return parts


def replay_keep(*, match: Match, parts: ReplayParts) -> None:
    """Keep a match's ``ReplayParts`` for its current version. Two workers making the same
    match's at once make the same bytes: the second to write finds the row and replaces it,
    or, both inserting, gives way."""
    # Level 9: made once (by a worker, as the match is stored) and kept; 27% smaller than
    # level 3 for about 6 ms more a long match (555 moves: 42 KB -> 30 KB), read as fast.
    compress = zstandard.ZstdCompressor(level=REPLAY_LEVEL).compress
    values = {
        "version": kept_version(match),
        "body": compress(parts.body),
        "page": compress(msgspec.json.encode(parts.page)),
    }
    try:
        with transaction.atomic():
            StoredReplay.objects.update_or_create(match_id=match.pk, defaults=values)
    except IntegrityError:
        pass  # the other one's row stands: the same replay


def replays_store(*, match_ids: list[int]) -> int:
    """Make and keep the replays of the long matches among these (just stored or rescored),
    so that no person waits for their first replay; return how many were made."""
    made = 0
    long_matches = Match.objects.filter(pk__in=match_ids, move_count__gte=REPLAY_KEPT_FROM)
    for match in long_matches.with_log():
        if not StoredReplay.objects.filter(match=match, version=kept_version(match)).exists():
            replay_parts(match)
            made += 1
    return made


def replay_header(*, match: Match) -> dict[str, Any]:
    """Return what a replay says of its players (the part a rename changes)."""
    seats = sorted(match.seats.all(), key=lambda seat: seat.seat)
    return {
        "match": match.pk,
        "players": [seat.player.handle for seat in seats],
        "teams": match.teams,
        "team_names": team_names(match),
        "team_of": [seat.team for seat in seats],
    }


def match_replay_json(*, match: Match) -> bytes:
    """Return ``match_replay`` as JSON bytes (the replay API's answer), made once per version
    of the match and kept under one key, which the API and the pages both read.

    The answer is its header (``replay_header``) and the body of its ``ReplayParts`` joined
    as bytes: the same bytes as encoding ``match_replay`` whole."""

    def compute() -> bytes:
        full = Match.objects.with_log().get(pk=match.pk)
        header = msgspec.json.encode(replay_header(match=full))
        return header[:-1] + b"," + replay_body(match=full)[1:]

    return cached_for_match(match, f"replay-{NUMBERING}", compute)


def match_replay(*, match: Match) -> dict[str, Any]:
    """Return what a replay page draws: the players and the engine's state after each move,
    made from the stored match in one walk (the reference ``match_replay_json`` is held to).

    ``match`` must come with its seats and hands loaded (``Match.objects.with_log()``).
    """
    # One walk of the stored log, each play's best read from the figures stored with it.
    replay = replay_match(match.log(), [hand.facts for hand in match.hands])
    return replay_header(match=match) | {
        "rules": match.rules,
        "valid": replay.report.valid,
        "states": states_shown(replay),
    }


def match_replay_page_cached(*, match: Match, api_url: str) -> dict[str, Any]:
    """Return the replay as its page carries it (``replay``: the header, the rules, the
    packed states, ``api``) and each hand's points missed by seat (``missed``), made once
    per version of the match from its ``ReplayParts`` (the full states are not read)."""

    def compute() -> dict[str, Any]:
        full = Match.objects.with_log().get(pk=match.pk)
        part = replay_page(match=full)
        missed = part.pop("missed")
        return {
            "replay": replay_header(match=full) | {"rules": full.rules} | part | {"api": api_url},
            "missed": missed,
        }

    return cached_for_match(match, "replay-page", compute)
