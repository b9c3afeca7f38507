"""The audit trail's actions are slugs each app declares with its words and fills the hook
``clubs.hooks.AUDIT_ACTIONS`` with (``clubs.audit``): every action written before is still
there, each from the app that takes it, and a new kind of entry is one action more (no
migration, no change to clubs)."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.utils import translation
from django.utils.translation import gettext_lazy

from clubs import audit
from clubs.hooks import AUDIT_ACTIONS
from clubs.models import AuditEntry, Club

pytestmark = pytest.mark.django_db

# Every action the trail held when it was a field's choices (clubs 0003), by the app that
# registers it now, and those registered since.
ACTIONS = {
    "clubs.audit_words": [
        "club-created", "settings-changed", "invitation-created", "invitation-revoked",
        "member-joined", "join-accepted", "join-declined", "member-left", "member-removed",
        "role-changed", "ownership-transferred",
    ],
    "games.audit_words": [
        "match-approved", "match-rejected", "claim-confirmed", "claim-declined",
        "handle-renamed", "handles-merged", "upload-deleted", "upload-rerun",
    ],
    "competitions.audit_actions": [
        "event-created", "event-changed", "event-deleted", "league-invited", "league-joined",
        "league-changed", "league-deleted", "team-created", "team-changed", "team-deleted",
        "fixture-created", "fixture-changed", "fixture-reset", "fixture-deleted",
        "league-declined",  # issue 36, written since
        "fixture-conceded", "team-withdrawn", "team-reinstated",  # issue 36's league formats
        "schedule-made", "postponement-offered", "postponement-accepted",
    ],
    "webhooks.audit_actions": [  # issue 59, written since
        "webhook-created", "webhook-changed", "webhook-secret", "webhook-deleted",
    ],
}  # fmt: skip


def test_every_action_written_before_is_registered_by_its_app_in_order():
    registered = audit.registered()
    assert list(registered) == [slug for slugs in ACTIONS.values() for slug in slugs]
    for module, slugs in ACTIONS.items():
        for slug in slugs:
            words = registered[slug].words
            # Said by the app's own module (or by its name alone, which it gave).
            assert words is None or words.__module__ == module, slug


def test_a_new_kind_of_entry_is_one_registration_and_no_migration(owner, monkeypatch):
    for kept in ("_fills", "sites"):  # the action is the test's alone
        monkeypatch.setattr(AUDIT_ACTIONS, kept, dict(getattr(AUDIT_ACTIONS, kept)))
    club = Club.objects.get(slug="tbilisi-fives-club")
    with pytest.raises(LookupError):
        audit.record(club=club, actor=owner, action="trophy-given", trophy="Cup")
    actions = audit.Actions()
    actions.add(
        "trophy-given",
        gettext_lazy("gave a trophy"),
        lambda detail, person: f"gave the trophy {detail['trophy']}" if detail else None,
    )
    AUDIT_ACTIONS.fill(*actions)
    entry = audit.record(club=club, actor=owner, action="trophy-given", trophy="Cup")
    assert audit.audit_sentence(entry) == "gave the trophy Cup"
    bare = AuditEntry.objects.create(club=club, actor=owner, action="trophy-given")
    assert audit.audit_sentence(bare) == "gave a trophy"
    call_command("makemigrations", "clubs", "--check", "--dry-run", verbosity=0)


def test_an_action_no_app_registers_is_said_by_its_slug(owner):
    club = Club.objects.get(slug="tbilisi-fives-club")
    entry = AuditEntry.objects.create(club=club, actor=owner, action="gone-away")
    assert audit.audit_sentence(entry) == "gone-away"


def test_an_action_alone_is_said_by_its_name_in_the_readers_language(owner):
    club = Club.objects.get(slug="tbilisi-fives-club")
    entry = AuditEntry.objects.create(club=club, actor=owner, action="member-left")
    with translation.override("ru"):
        said, expected = audit.audit_sentence(entry), translation.gettext("left the club")
    assert said == expected != "left the club"
