"""The clubs moved from ``games`` to an app of their own with their tables kept: the
migrations change only Django's state (no row copied), so a club, its membership, its audit
trail and its matches written before are read after through the clubs app, the same rows
with the same ids, and back again. The content types follow the models, so what points at
them (the admin's log, permissions) stays attached."""

from __future__ import annotations

import hashlib

import pytest
from django.contrib.contenttypes.models import ContentType

from clubs.models import AuditEntry, Club, Membership
from games.models import Match
from tests.migrations import migrate
from tests.replays.helpers import store_match

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [
    ("games", "0021_league_audit_actions"),
    ("replays", "0010_seatresult_scores"),
    ("clubs", "0001_initial"),  # its state only: the content types are games' again
]
LATEST = None  # every app's newest migration


def _write_with_the_old_models(apps, template_id: int) -> dict[str, int]:
    """Write a club, its owner's membership, an audit entry and a match of the club with
    the models of games before the move; return their ids."""
    User = apps.get_model("auth", "User")
    OldClub = apps.get_model("games", "Club")
    OldMatch = apps.get_model("games", "Match")
    person = User.objects.create(username="old-owner")
    club = OldClub.objects.create(name="Old club", slug="old-club", time_zone="Asia/Tbilisi")
    membership = apps.get_model("games", "Membership").objects.create(
        club=club, user=person, role="owner"
    )
    entry = apps.get_model("games", "AuditEntry").objects.create(
        club=club, actor=person, action="club-created", detail={"name": "Old club"}
    )
    # A match as ingest stores it, its columns those of a stored one, in the old club.
    columns = OldMatch.objects.filter(pk=template_id).values()[0]
    del columns["id"], columns["club_id"]
    columns |= {"external_id": "moved-1", "content_hash": hashlib.sha256(b"moved-1").digest()}
    match = OldMatch.objects.create(club=club, **columns)
    return {"club": club.pk, "membership": membership.pk, "entry": entry.pk, "match": match.pk}


def _read(apps, app: str, ids: dict[str, int]) -> tuple:
    """Return what the rows say, read through ``app``'s models (games before, clubs after)."""
    club = apps.get_model(app, "Club").objects.get(pk=ids["club"])
    membership = apps.get_model(app, "Membership").objects.get(pk=ids["membership"])
    entry = apps.get_model(app, "AuditEntry").objects.get(pk=ids["entry"])
    match = apps.get_model("games", "Match").objects.get(pk=ids["match"])
    return (
        (club.name, club.slug, club.time_zone),
        (membership.club_id, membership.user.username, membership.role),
        (entry.club_id, entry.action, entry.detail),
        (match.club_id, match.external_id),
    )


def test_the_club_rows_are_read_through_the_clubs_app_the_same_and_back(
    owner, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        stored = store_match(owner, ["Nino", "Giorgi"], seed=1, played_at="2026-10-01")

    old = migrate(BEFORE)
    ids = _write_with_the_old_models(old, stored.pk)
    before = _read(old, "games", ids)
    club_type = ContentType.objects.get(app_label="games", model="club").pk

    new = migrate(LATEST)
    assert _read(new, "clubs", ids) == before
    # The app's own models read the very rows (no copy: the same ids in the same tables, named
    # for clubs since its 0008).
    club = Club.objects.get(pk=ids["club"])
    assert club._meta.db_table == "clubs_club"
    assert Membership.objects.get(pk=ids["membership"]).club == club
    assert AuditEntry.objects.get(pk=ids["entry"]).club == club
    assert Match.objects.get(pk=ids["match"]).club == club
    assert list(club.matches.values_list("pk", flat=True)) == [ids["match"]]
    assert club.is_owner(Membership.objects.get(pk=ids["membership"]).user)
    assert stored.club.matches.filter(pk=stored.pk).exists()
    assert ContentType.objects.get_for_model(Club).pk == club_type
    assert not ContentType.objects.filter(app_label="games", model="club").exists()

    old = migrate(BEFORE)
    assert _read(old, "games", ids) == before
    assert ContentType.objects.get(app_label="games", model="club").pk == club_type

    migrate(LATEST)
    assert _read(new, "clubs", ids) == before
