"""Where each thing of the archive is shown: the address of a club, an invitation, a player
and a match. The pages that show them sit above the models (a club's page in
``competitions``, a player's and a match's in ``replays``, an invitation's in ``games``), so
a model does not name them: ``ABSOLUTE_URL_OVERRIDES`` in the settings gives each model its
``get_absolute_url`` from here, at the top of the layers."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.urls import get_script_prefix, get_urlconf, reverse

# A number no address holds but where the id goes: reversed once, the address is cut there.
MARK = "7070707070707"


def by_pk(viewname: str) -> Callable[[Any], str]:
    """Return the address of ``viewname`` for an object's id, reversed once for each script
    prefix and URLconf rather than once a link: a page of fifty matches links each match,
    its club and every player, and ``reverse`` took a quarter of the match table's time."""
    heads: dict[tuple[str, Any, str], tuple[str, str]] = {}

    def address(obj: Any) -> str:
        key = (get_script_prefix(), get_urlconf(), settings.ROOT_URLCONF)
        around = heads.get(key)
        if around is None:
            head, tail = reverse(viewname, args=[MARK]).split(MARK)
            around = heads[key] = (head, tail)
        return f"{around[0]}{int(obj.pk)}{around[1]}"

    return address


def club_url(club: Any) -> str:
    return reverse("competitions:club-detail", args=[club.slug])


def invitation_url(invitation: Any) -> str:
    return reverse("games:invitation", args=[invitation.token])


player_url = by_pk("replays:player-detail")
match_url = by_pk("replays:match-detail")
