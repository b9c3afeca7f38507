"""The club list, a club's own page, and leaving a club (which goes back to the list). They
link to what a club plays for (its ranking, seasons, tournaments and leagues, its live
tables) beside the archive's matches and players, so they sit in the highest layer they
show. Their routes are competitions' (``competitions:club-list``...), at the addresses they
always had."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import gettext_lazy as _

from clubs import selectors as club_selectors
from clubs import services as club_services
from clubs.forms import JoinRequestForm
from clubs.models import Club, JoinRequest, Membership
from clubs.pages import action, page_of, visible_club
from games import selectors
from games.models import Player
from recorder.models import LiveMatch


def club_list(request):
    clubs = Club.objects.visible_to(request.user).order_by("name")
    mine = set(club_selectors.clubs_of(request.user).values_list("pk", flat=True))
    return render(request, "competitions/club_list.html", {"clubs": clubs, "mine": mine})


def club_detail(request, slug: str):
    club = visible_club(request, slug)
    page = page_of(request, selectors.match_list(filters={"club": slug}, user=request.user))
    players = Player.objects.visible_to(request.user).filter(club=club).order_by("handle")
    role = club.role_of(request.user)
    pending = (
        club.join_requests.filter(user=request.user, status=JoinRequest.Status.PENDING).exists()
        if request.user.is_authenticated
        else False
    )
    return render(
        request,
        "competitions/club_detail.html",
        {
            "club": club,
            "page": page,
            "players": players,
            "role": role,
            "role_label": Membership.Role(role).label if role else "",
            "is_admin": role in Membership.ADMIN_ROLES,
            "members": club_selectors.club_members(club=club) if role else None,
            "join_pending": pending,
            "join_form": JoinRequestForm(),
            "live_tables": LiveMatch.objects.playing().filter(club=club).count(),
        },
    )


@action
def club_leave(request, slug: str):
    club = visible_club(request, slug)
    club_services.club_leave(user=request.user, club=club)
    messages.success(request, _("You left the club."))
    return redirect("competitions:club-list")
