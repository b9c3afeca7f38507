"""The pages of a club's membership and its admins' settings: making a club, its settings
and audit trail, joining and leaving, members, join requests and invitation links. They sit
in the archive (above ``clubs``, whose services and forms they call) because they lead to the
admins' page, which shows the archive's review queue (``games.club_views``); the club list
and a club's own page, which show its ranking, seasons, tournaments and leagues, are
``competitions.club_views``."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext_lazy as _

from clubs import selectors
from clubs import services as club_services
from clubs.forms import ClubForm, InvitationForm, JoinRequestForm
from clubs.ids import id_of
from clubs.models import Club, Invitation
from clubs.pages import (
    action,
    admin_club,
    cleaned_or_refused,
    form_done,
    page_of,
    refusals_said,
    visible_club,
)
from clubs.refusals import ClubRefusal
from clubs.zones import reader_zone_name, zone_names


@login_required
@refusals_said
def club_create(request):
    # The organiser's own zone (their browser's, once a page of the site told it) and
    # language (the page's: their choice, else their browser's) to start.
    start = {"time_zone": reader_zone_name(request), "language": request.LANGUAGE_CODE}
    form = ClubForm(request.POST or None, initial=start)
    # A name or address taken is said beside what was typed.
    club = form_done(
        request, form, lambda data: club_services.club_create(owner=request.user, **data)
    )
    if club is not None:
        messages.success(request, _("The club is made: you are its owner."))
        return redirect(club)
    return render(request, "clubs/club_form.html", {"form": form, "club": None, "zones": _zones()})


def _zones() -> list[str]:
    return sorted(zone_names())


@login_required
@refusals_said
def club_settings(request, slug: str):
    club = admin_club(request, slug)
    form = ClubForm(request.POST or None, instance=Club.objects.get(pk=club.pk))
    if request.method == "POST" and form.is_valid():
        club_services.club_update(actor=request.user, club=club, **form.cleaned_data)
        messages.success(request, _("The settings are saved."))
        return redirect("games:club-manage", club.slug)
    return render(request, "clubs/club_form.html", {"form": form, "club": club, "zones": _zones()})


@login_required
def club_audit(request, slug: str):
    club = admin_club(request, slug)
    page = page_of(request, selectors.club_audit(club=club))
    return render(request, "clubs/club_audit.html", {"club": club, "page": page})


@action
def club_join(request, slug: str):
    club = visible_club(request, slug)
    form = JoinRequestForm(request.POST)
    message = form.cleaned_data["message"] if form.is_valid() else ""
    club_services.join_request_create(user=request.user, club=club, message=message)
    messages.success(request, _("Your request is sent to the club's admins."))
    return redirect(club)


def _member_user(club: Club, user_id: str):
    number = id_of(user_id)
    user = get_user_model().objects.filter(pk=number).first() if number is not None else None
    if user is None:
        raise ClubRefusal(_("This person is not a member of the club."), "not-member")
    return user


@action
def club_member_action(request, slug: str):
    """Remove a member, change a role, or hand the ownership over."""
    club = admin_club(request, slug)
    user = _member_user(club, request.POST.get("user", ""))
    action = request.POST.get("action")
    if action == "remove":
        club_services.member_remove(actor=request.user, club=club, user=user)
    elif action in ("admin", "member"):
        club_services.member_set_role(actor=request.user, club=club, user=user, role=action)
    elif action == "transfer":
        club_services.ownership_transfer(actor=request.user, club=club, to=user)
    messages.success(request, _("Done."))
    return redirect("games:club-manage", club.slug)


@action
def join_request_decide(request, slug: str, pk: int):
    club = admin_club(request, slug)
    join_request = get_object_or_404(club.join_requests, pk=pk)
    accept = request.POST.get("decision") == "accept"
    club_services.join_request_decide(actor=request.user, join_request=join_request, accept=accept)
    return redirect("games:club-manage", club.slug)


@action
def invitation_create(request, slug: str):
    club = admin_club(request, slug)
    said = _("Give the days (1 to 90) and the uses (1 to 1000).")
    given = cleaned_or_refused(InvitationForm(request.POST), said, "invalid")
    club_services.invitation_create(actor=request.user, club=club, **given)
    return redirect("games:club-manage", club.slug)


@action
def invitation_revoke(request, slug: str, pk: int):
    club = admin_club(request, slug)
    invitation = get_object_or_404(club.invitations, pk=pk)
    club_services.invitation_revoke(actor=request.user, invitation=invitation)
    return redirect("games:club-manage", club.slug)


@refusals_said
def invitation(request, token: str):
    """An invitation link: the club it is for, and a button to join (to someone signed out,
    the ways to sign in or make an account, which come back here; to a member, their club)."""
    found = get_object_or_404(Invitation.objects.select_related("club"), token=token[:64])
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        club_services.invitation_accept(user=request.user, token=found.token)
        messages.success(request, _("Welcome: you are a member of the club."))
        return redirect(found.club)
    role = found.club.role_of(request.user)
    return render(request, "clubs/invitation.html", {"invitation": found, "role": role})
