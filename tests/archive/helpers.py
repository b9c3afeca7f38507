"""Logs to upload in the archive tests."""

from __future__ import annotations

import copy
import json

from fives_engine.simulate import simulate_match


def valid_log(seed: int = 1, **changes) -> dict:
    doc = simulate_match("muggins", 2, seed=seed, names=["Nino", "Giorgi"])
    doc["id"] = f"test-{seed}"
    doc["club"] = "Tbilisi Fives Club"
    doc["played_at"] = "2026-11-20T19:05:00+04:00"
    doc.update(changes)
    return doc


def illegal_log(seed: int = 2) -> dict:
    """A log whose second move is made out of turn (hand 1, move 2)."""
    doc = copy.deepcopy(valid_log(seed))
    move = doc["hands"][0]["moves"][1]
    move["seat"] = 1 - move["seat"]
    return doc


def as_bytes(doc: dict) -> bytes:
    return json.dumps(doc).encode()


def ndjson(*docs) -> bytes:
    return b"".join(
        (doc if isinstance(doc, bytes) else json.dumps(doc).encode()) + b"\n" for doc in docs
    )
