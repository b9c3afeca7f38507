"""Matches stored through the real services for the statistics and rating tests."""

from __future__ import annotations

import json
from collections.abc import Iterator

from openskill.models import PlackettLuce

from fives_engine.simulate import simulate_match
from games.models import Match, Player
from games.services.ingest import upload_process
from games.services.uploads import upload_create
from replays import analysis as service
from replays.models import MatchAnalysis


def store_match(
    owner,
    names,
    *,
    seed,
    played_at,
    club="Tbilisi Fives Club",
    teams=False,
    ruleset=None,
    final_scores=None,
    event=None,
) -> Match:
    """Simulate a short match between ``names`` and send it through the upload service."""
    ruleset = ruleset or {"base": "muggins", "target": 50}
    doc = simulate_match(ruleset, len(names), teams=teams, seed=seed, names=names)
    doc["id"] = f"m-{seed}-{'-'.join(names)}"
    doc["club"] = club
    doc["played_at"] = played_at
    if event is not None:  # the simulator names its own ("simulated"); "": the log names none
        doc["event"] = event
        if not event:
            del doc["event"]
    upload = upload_create(uploader=owner, data=json.dumps(doc).encode(), kind="json")
    # Processed here and now; what follows on commit (statistics, ratings) runs when the
    # caller's transaction commits, or its captured callbacks run.
    upload = upload_process(upload_id=upload.pk)
    return upload.items.get().match


OPENSKILL = PlackettLuce()


def store_each(owner, count: int, capture, *, first_seed: int = 100) -> list[Match]:
    """Store ``count`` short matches of Levan and Nino, an upload each, their statistics and
    ratings run (``capture``: django_capture_on_commit_callbacks); return them."""
    with capture(execute=True):
        return [
            store_match(owner, ["Levan", "Nino"], seed=seed, played_at="2026-03-01T19:00:00Z")
            for seed in range(first_seed, first_seed + count)
        ]


def store_matches(
    owner, count: int, *, first_seed: int, played_at="2026-11-20T19:00:00Z", names=("Levan", "Nino")
):
    """Store ``count`` short matches of Levan and Nino (or two other ``names``) in one
    upload; return their ids."""
    lines = []
    for seed in range(first_seed, first_seed + count):
        doc = simulate_match({"base": "muggins", "target": 50}, 2, seed=seed, names=list(names))
        doc["id"] = f"m-{seed}-{'-'.join(names)}"
        doc["club"] = "Tbilisi Fives Club"
        doc["played_at"] = played_at
        lines.append(json.dumps(doc))
    upload = upload_create(uploader=owner, data="\n".join(lines).encode(), kind="ndjson")
    upload = upload_process(upload_id=upload.pk)
    return sorted(upload.items.values_list("match_id", flat=True))


def openskill_in_order(matches: list[Match]) -> Iterator[tuple[Match, dict[str, object]]]:
    """Rate the matches in playing order with openskill directly, the tests' reference:
    yield each match and every handle's rating after it (the same dict, updated)."""
    ratings: dict[str, object] = {}
    for match in sorted(matches, key=lambda m: (m.played_at, m.pk)):
        seats = sorted(match.seats.select_related("player"), key=lambda s: s.seat)
        teams: dict[int, list[str]] = {}
        for seat in seats:
            teams.setdefault(seat.team, []).append(seat.player.handle)
        order = sorted(teams)
        before = [[ratings.get(h) or OPENSKILL.rating() for h in teams[t]] for t in order]
        ranks = [1 + sum(other > score for other in match.scores) for score in match.scores]
        after = OPENSKILL.rate(before, ranks=[ranks[t] for t in order])
        for team, rated in zip(order, after, strict=True):
            for handle, rating in zip(teams[team], rated, strict=True):
                ratings[handle] = rating
        yield match, ratings


def analysed_levan(owner, member, capture) -> Match:
    """Store a short match of Levan (made the member's own handle) and Nino and analyse it;
    return it (``capture``: django_capture_on_commit_callbacks)."""
    with capture(execute=True):
        match = store_match(owner, ["Levan", "Nino"], seed=2, played_at="2026-05-01T19:00:00Z")
    with capture(execute=True):
        service.analysis_request(match=match, user=member)
    assert MatchAnalysis.objects.get(match=match).status == MatchAnalysis.Status.DONE
    Player.objects.filter(handle="Levan").update(user=member)
    return match
