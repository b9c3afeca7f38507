"""Handle claims moved from ``clubs`` to ``games`` (with the players they claim) and an
audit entry's action became a slug with no choices, the tables kept: the migrations change
only Django's state, so a claim and an audit entry written through the models before are
read after through the new ones, the same rows with the same ids, and back again. The
claim's content type follows its model; the graph goes one way (games on clubs)."""

from __future__ import annotations

import pytest
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.loader import MigrationLoader

from clubs.audit import audit_sentence
from clubs.models import AuditEntry, Club
from games.models import HandleClaim, Player
from tests.migrations import migrate

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [
    ("games", "0022_clubs_moved"),
    ("clubs", "0003_league_invitations_audited"),
]
LATEST = None  # every app's newest migration


def _write_with_the_old_models(apps) -> dict[str, int]:
    """Write a club, a handle of it, a pending and a confirmed claim and the audit entry of
    the confirmation, through the models of clubs and games before the move."""
    User = apps.get_model("auth", "User")
    OldClaim = apps.get_model("clubs", "HandleClaim")
    nino, owner = User.objects.create(username="nino"), User.objects.create(username="tamar")
    club = apps.get_model("clubs", "Club").objects.create(name="Old club", slug="old-club")
    Handle = apps.get_model("games", "Player")
    levan, nina = (
        Handle.objects.create(club=club, handle="Levan"),
        Handle.objects.create(club=club, handle="Nina"),
    )
    pending = OldClaim.objects.create(player=levan, user=nino)
    confirmed = OldClaim.objects.create(
        player=nina, user=owner, status="confirmed", decided_by=owner
    )
    entry = apps.get_model("clubs", "AuditEntry").objects.create(
        club=club, actor=owner, subject=owner, action="claim-confirmed", detail={"handle": "Nina"}
    )
    return {
        "club": club.pk,
        "pending": pending.pk,
        "confirmed": confirmed.pk,
        "entry": entry.pk,
        "levan": levan.pk,
    }


def _read(apps, app: str, ids: dict[str, int]) -> tuple:
    """Return what the rows say, the claims read through ``app``'s model (clubs before,
    games after)."""
    Claim = apps.get_model(app, "HandleClaim")
    claims = tuple(
        (claim.pk, claim.player.handle, claim.player.club_id, claim.user.username, claim.status)
        for claim in Claim.objects.filter(pk__in=[ids["pending"], ids["confirmed"]]).order_by("pk")
    )
    decided = Claim.objects.get(pk=ids["confirmed"]).decided_by.username
    entry = apps.get_model("clubs", "AuditEntry").objects.get(pk=ids["entry"])
    return claims, decided, (entry.club_id, entry.action, entry.detail)


def test_the_claims_are_read_through_games_the_same_and_back():
    old = migrate(BEFORE)
    ids = _write_with_the_old_models(old)
    before = _read(old, "clubs", ids)
    claim_type = ContentType.objects.get(app_label="clubs", model="handleclaim").pk

    new = migrate(LATEST)
    assert _read(new, "games", ids) == before
    # The app's own models read the very rows (no copy: the same ids in the same table).
    assert HandleClaim._meta.db_table == "games_handleclaim"
    pending = HandleClaim.objects.get(pk=ids["pending"])
    assert pending.status == HandleClaim.Status.PENDING
    assert list(Player.objects.get(pk=ids["levan"]).claims.all()) == [pending]
    assert pending.player.club == Club.objects.get(pk=ids["club"])
    # The entry written before reads as the archive's registered words say it.
    assert audit_sentence(AuditEntry.objects.get(pk=ids["entry"])) == (
        "confirmed that “Nina” is tamar"
    )
    assert ContentType.objects.get_for_model(HandleClaim).pk == claim_type
    assert not ContentType.objects.filter(app_label="clubs", model="handleclaim").exists()

    old = migrate(BEFORE)
    assert _read(old, "clubs", ids) == before
    assert ContentType.objects.get(app_label="clubs", model="handleclaim").pk == claim_type

    new = migrate(LATEST)
    assert _read(new, "games", ids) == before


def test_no_new_migration_of_clubs_depends_on_games():
    """The graph goes one way from here on: games depends on clubs, never clubs on games (but
    for clubs 0008, which renames the tables once the moves out of games are done)."""
    graph = MigrationLoader(connection).graph
    for name in ("0004_handle_claims_moved", "0005_audit_action_slug"):
        assert {parent.key[0] for parent in graph.node_map[("clubs", name)].parents} == {"clubs"}
    parents = {
        parent.key for parent in graph.node_map[("games", "0023_handle_claims_moved")].parents
    }
    assert ("clubs", "0004_handle_claims_moved") in parents
