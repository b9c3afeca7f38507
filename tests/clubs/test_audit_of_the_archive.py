"""What a club's admins do to the archive's rows is written in the club's audit trail by a
direct call inside the change's transaction (``clubs.audit.record``): the entry commits
with the change and goes with it when the change is rolled back."""

from __future__ import annotations

import pytest
from django.db import transaction

from clubs.models import AuditEntry
from games.models import Player
from games.services.players import player_rename
from tests.clubs.conftest import log, send

pytestmark = pytest.mark.django_db


class Undone(Exception):
    pass


@pytest.fixture
def levan(owner, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        send(owner, log(1, names=("Levan", "Nino")))
    return Player.objects.get(handle="Levan")


def test_a_rename_is_written_in_its_clubs_trail(levan, owner):
    player_rename(actor=owner, player=levan, handle="Levan G.")
    entry = AuditEntry.objects.get(action="handle-renamed")
    assert (entry.club_id, entry.actor, entry.detail) == (
        levan.club_id,
        owner,
        {"before": "Levan", "after": "Levan G."},
    )


def test_a_rename_rolled_back_leaves_no_entry(levan, owner):
    with pytest.raises(Undone), transaction.atomic():
        player_rename(actor=owner, player=levan, handle="Levan G.")
        raise Undone
    assert not AuditEntry.objects.filter(action="handle-renamed").exists()
    assert Player.objects.get(pk=levan.pk).handle == "Levan"
