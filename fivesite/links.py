"""Where each thing of the archive is shown: the address of a club, an invitation, a player
and a match. The pages that show them sit above the models (a club's page in
``competitions``, a player's and a match's in ``replays``, an invitation's in ``games``), so
a model does not name them: ``ABSOLUTE_URL_OVERRIDES`` in the settings gives each model its
``get_absolute_url`` from here, at the top of the layers."""

from __future__ import annotations

from typing import Any

from django.urls import reverse


def club_url(club: Any) -> str:
    return reverse("games:club-detail", args=[club.slug])


def invitation_url(invitation: Any) -> str:
    return reverse("games:invitation", args=[invitation.token])


def player_url(player: Any) -> str:
    return reverse("replays:player-detail", args=[player.pk])


def match_url(match: Any) -> str:
    return reverse("replays:match-detail", args=[match.pk])
