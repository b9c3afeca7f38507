"""Matches stored through the real services for the statistics and rating tests."""

from __future__ import annotations

import json

from games.engine.simulate import simulate_match
from games.models import Match
from games.services.ingest import upload_process
from games.services.uploads import upload_create


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
) -> Match:
    """Simulate a short match between ``names`` and send it through the upload service."""
    ruleset = ruleset or {"base": "muggins", "target": 50}
    doc = simulate_match(ruleset, len(names), teams=teams, seed=seed, names=names)
    doc["id"] = f"m-{seed}-{'-'.join(names)}"
    doc["club"] = club
    doc["played_at"] = played_at
    upload = upload_create(uploader=owner, data=json.dumps(doc).encode(), kind="json")
    # Processed here and now; what follows on commit (statistics, ratings) runs when the
    # caller's transaction commits, or its captured callbacks run.
    upload = upload_process(upload_id=upload.pk)
    return upload.items.get().match
