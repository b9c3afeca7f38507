"""What competitions do when the archive merges a player, when a person leaves a club, and
when a league's team changes (connected in ``apps.py``)."""

from games.models import LegSide

from .league_services import rosters_move
from .leg_seats import league_renamed, side_drop, side_keep
from .models import CalendarKey
from .tournaments import entries_move


def on_player_merging(*, source, target) -> None:
    """A handle merged into another: its event entries and league rosters move to the
    surviving handle, in the merge's transaction (without it they would go with the old
    handle)."""
    entries_move(source_id=source.pk, target_id=target.pk)
    rosters_move(source_id=source.pk, target_id=target.pk)


def on_membership_deleted(sender, *, instance, **kwargs) -> None:
    """A person left a club (or was removed): their secret calendar link to it is gone, so
    it stays dead should they join again."""
    CalendarKey.objects.filter(club_id=instance.club_id, user_id=instance.user_id).delete()


# --- the sides of the league's teams, as ingest reads them (games.models.LegSide) ----------


def on_team_saved(sender, *, instance, raw=False, **kwargs) -> None:
    """A team made or changed (its name, its club): its side follows."""
    if not raw:  # a fixture being loaded: its rows come as they are
        side_keep([instance.pk])


def on_team_deleted(sender, *, instance, **kwargs) -> None:
    side_drop(instance.pk)


def on_league_saved(sender, *, instance, raw=False, **kwargs) -> None:
    """A league renamed: its teams' sides are named by its new name."""
    if not raw:
        league_renamed(instance)


def on_roster_changed(sender, *, instance, action, reverse, pk_set, **kwargs) -> None:
    """A roster changed, from the team's side (``team.roster``) or the player's
    (``player.league_teams``): the sides of the teams it changed follow."""
    if action not in ("post_add", "post_remove", "post_clear"):
        return
    if not reverse:
        side_keep([instance.pk])
    elif pk_set is not None:
        side_keep(pk_set)
    else:  # a player taken off every roster: the sides that still hold them
        side_keep(LegSide.objects.filter(players=instance).values_list("team_id", flat=True))
