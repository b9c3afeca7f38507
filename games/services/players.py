"""Players and the people behind them: admins rename a handle or merge two handles of one
person (a member's claim of a handle: ``games.services.claims``), each written in the
club's audit trail with the change. Every stored
match is kept; what is derived from the matches (statistics, ratings) is told through the
archive's events and recomputed from the earliest match affected."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from clubs.audit import record
from clubs.refusals import ClubRefusal, require_admin
from clubs.text import clean_text
from fives_engine.limits import MAX_PLAYER_NAME
from games import audit_words as actions
from games.cache import lists_changed, names_changed
from games.events import HandlesMerged, announce, player_merging
from games.models import Player, PlayerAlias, Seat


def _matches_of(player_ids: list[int]) -> tuple[int, ...]:
    return tuple(
        Seat.objects.filter(player_id__in=player_ids)
        .order_by("match_id")
        .values_list("match_id", flat=True)
        .distinct()
    )


def _clean_handle(handle: str) -> str:
    cleaned = clean_text(handle, MAX_PLAYER_NAME)
    if cleaned is None:
        raise ClubRefusal(
            _("A handle has 1 to %(limit)s characters.") % {"limit": MAX_PLAYER_NAME},
            "bad-handle",
        )
    return cleaned


def player_rename(*, actor: Any, player: Player, handle: str) -> Player:
    """Rename a handle (the old one is kept as a former handle: logs that still write it
    land on the same player); return the player."""
    require_admin(club=player.club, user=actor)
    handle = _clean_handle(handle)
    if handle == player.handle:
        return player
    club = player.club
    if Player.objects.filter(club=club, handle=handle).exists():
        raise ClubRefusal(
            _("Another player of the club has this handle: merge the two instead."), "taken"
        )
    if PlayerAlias.objects.filter(club=club, handle=handle).exclude(player=player).exists():
        raise ClubRefusal(_("This handle was another player's: merge the two instead."), "taken")
    with transaction.atomic():
        old = player.handle
        PlayerAlias.objects.filter(club=club, handle=handle, player=player).delete()
        PlayerAlias.objects.create(club=club, handle=old, player=player)
        player.handle = handle
        player.save(update_fields=["handle"])
        record(club=club, actor=actor, action=actions.HANDLE_RENAMED, before=old, after=handle)
        lists_changed()
        names_changed(club.pk)
    return player


def players_merge(*, actor: Any, source: Player, target: Player) -> Player:
    """Merge ``source`` into ``target``, two handles of one person in one club: every match
    of ``source`` is kept, now under ``target``; ``source``'s handle becomes a former handle
    of ``target``; ratings are recomputed from the earliest match moved; what other apps
    keep of ``source`` moves to ``target`` (``games.events.player_merging``). Return
    ``target``."""
    club = target.club
    require_admin(club=club, user=actor)
    if source.club_id != target.club_id:
        raise ClubRefusal(_("Only handles of the same club can be merged."), "other-club")
    if source.pk == target.pk:
        raise ClubRefusal(_("A handle cannot be merged into itself."), "same")
    if source.user_id and target.user_id and source.user_id != target.user_id:
        raise ClubRefusal(_("These handles belong to two different people."), "two-people")
    shared = set(_matches_of([source.pk])) & set(_matches_of([target.pk]))
    if shared:
        raise ClubRefusal(
            _("These handles played in the same match: they are two people."), "two-people"
        )
    with transaction.atomic():
        moved = _matches_of([source.pk])
        Seat.objects.filter(player=source).update(player=target)
        PlayerAlias.objects.filter(player=source).update(player=target)
        PlayerAlias.objects.create(club=club, handle=source.handle, player=target)
        if source.user_id and not target.user_id:
            Player.objects.filter(pk=target.pk).update(user_id=source.user_id)
            target.user_id = source.user_id
        # What other apps keep of the player (an event's entries, a league team's roster)
        # moves to the surviving handle before the old one goes.
        player_merging(source=source, target=target)
        record(
            club=club,
            actor=actor,
            action=actions.HANDLES_MERGED,
            merged=source.handle,
            into=target.handle,
            matches=len(moved),
        )
        # What was derived under the old handle moved with its seats (``player_merging``);
        # what is left of it goes with it, and the ratings are recomputed from the earliest
        # match moved once the merge is committed.
        source.delete()
        lists_changed()
        names_changed(club.pk)
        if moved:
            announce(HandlesMerged(club_id=club.pk, match_ids=moved))
    return target
