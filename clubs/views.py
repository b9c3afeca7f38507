"""The pages of clubs: thin views over the club selectors and services (and the archive's,
for what an admin decides of its matches and handles)."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.paginator import Paginator
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from games import selectors as archive_selectors
from games.models import Match, Player
from games.services.matches import match_review, matches_review
from games.services.players import player_rename, players_merge
from games.views import PAGE_SIZE
from games.zones import reader_zone_name, zone_names

from . import selectors
from . import services as club_services
from .forms import ClubForm, HandleForm, InvitationForm, JoinRequestForm, MergeForm, ReasonForm
from .models import Club, HandleClaim, Invitation, JoinRequest, Membership
from .services import ClubRefusal, claim_decide, handle_claim


def _page(request, queryset):
    return Paginator(queryset, PAGE_SIZE).get_page(request.GET.get("page"))


def _visible_club(request, slug: str) -> Club:
    """Return the club of ``slug`` if the person may see it (a private club: 404 to others)."""
    return get_object_or_404(Club.objects.visible_to(request.user), slug=slug)


def _admin_club(request, slug: str) -> Club:
    """Return the club of ``slug`` if the person owns or administers it; 404 to whoever
    may not see it, 403 to its other members and to outsiders of a public club."""
    club = _visible_club(request, slug)
    club_services.require_admin(club=club, user=request.user)
    return club


def _refusals_said(view: Callable) -> Callable:
    """Say a ``ClubRefusal`` of a page's action as a message, and go back where it came."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        try:
            return view(request, *args, **kwargs)
        except ClubRefusal as refusal:
            messages.error(request, refusal.message)
            return redirect(_back(request))

    return wrapper


def _back(request) -> str:
    """Return the page an action came from (one of the archive's own), else the list."""
    target = request.POST.get("next", "")
    if target.startswith("/") and not target.startswith("//") and len(target) < 500:
        return target
    # A form without ``next`` (the manage page's) goes back to the page it was sent from.
    came_from = request.headers.get("Referer", "")
    if len(came_from) < 500 and url_has_allowed_host_and_scheme(
        came_from, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return came_from
    return "games:match-list"


def club_list(request):
    clubs = Club.objects.visible_to(request.user).order_by("name")
    mine = set(selectors.clubs_of(request.user).values_list("pk", flat=True))
    return render(request, "clubs/club_list.html", {"clubs": clubs, "mine": mine})


@login_required
@_refusals_said
def club_create(request):
    # The organiser's own zone (their browser's, once a page of the site told it) to start.
    form = ClubForm(request.POST or None, initial={"time_zone": reader_zone_name(request)})
    if request.method == "POST" and form.is_valid():
        try:
            club = club_services.club_create(owner=request.user, **form.cleaned_data)
        except ClubRefusal as refusal:  # a name or address taken: said beside what was typed
            form.add_error(None, refusal.message)
        else:
            messages.success(request, _("The club is made: you are its owner."))
            return redirect(club)
    return render(request, "clubs/club_form.html", {"form": form, "club": None, "zones": _zones()})


def _zones() -> list[str]:
    return sorted(zone_names())


def club_detail(request, slug: str):
    club = _visible_club(request, slug)
    page = _page(request, archive_selectors.match_list(filters={"club": slug}, user=request.user))
    players = Player.objects.visible_to(request.user).filter(club=club).order_by("handle")
    role = club.role_of(request.user)
    pending = (
        club.join_requests.filter(user=request.user, status=JoinRequest.Status.PENDING).exists()
        if request.user.is_authenticated
        else False
    )
    return render(
        request,
        "clubs/club_detail.html",
        {
            "club": club,
            "page": page,
            "players": players,
            "role": role,
            "role_label": Membership.Role(role).label if role else "",
            "is_admin": role in Membership.ADMIN_ROLES,
            "members": selectors.club_members(club=club) if role else None,
            "join_pending": pending,
            "join_form": JoinRequestForm(),
        },
    )


@login_required
@_refusals_said
def club_settings(request, slug: str):
    club = _admin_club(request, slug)
    form = ClubForm(request.POST or None, instance=Club.objects.get(pk=club.pk))
    if request.method == "POST" and form.is_valid():
        club_services.club_update(actor=request.user, club=club, **form.cleaned_data)
        messages.success(request, _("The settings are saved."))
        return redirect("games:club-manage", club.slug)
    return render(request, "clubs/club_form.html", {"form": form, "club": club, "zones": _zones()})


@login_required
def club_manage(request, slug: str):
    """The admins' page of a club: members and roles, join requests, invitation links, the
    review queue, handle claims, renaming and merging handles."""
    club = _admin_club(request, slug)
    return render(
        request,
        "clubs/club_manage.html",
        {
            "club": club,
            "is_owner": club.is_owner(request.user),
            "members": selectors.club_members(club=club),
            "join_requests": selectors.club_join_requests(club=club),
            "invitations": selectors.club_invitations(club=club),
            "queue": selectors.club_review_queue(club=club),
            "claims": selectors.club_claims(club=club),
            "players": club.players.select_related("user").order_by("handle"),
            "invitation_form": InvitationForm(),
            "reason_form": ReasonForm(),
        },
    )


@login_required
def club_audit(request, slug: str):
    club = _admin_club(request, slug)
    page = _page(request, selectors.club_audit(club=club))
    return render(request, "clubs/club_audit.html", {"club": club, "page": page})


@require_POST
@login_required
@_refusals_said
def club_join(request, slug: str):
    club = _visible_club(request, slug)
    form = JoinRequestForm(request.POST)
    message = form.cleaned_data["message"] if form.is_valid() else ""
    club_services.join_request_create(user=request.user, club=club, message=message)
    messages.success(request, _("Your request is sent to the club's admins."))
    return redirect(club)


@require_POST
@login_required
@_refusals_said
def club_leave(request, slug: str):
    club = _visible_club(request, slug)
    club_services.club_leave(user=request.user, club=club)
    messages.success(request, _("You left the club."))
    return redirect("games:club-list")


def _member_user(club: Club, user_id: str):
    if not (user_id.isascii() and user_id.isdigit() and len(user_id) < 19):
        raise ClubRefusal(_("This person is not a member of the club."), "not-member")
    user = get_user_model().objects.filter(pk=int(user_id)).first()
    if user is None:
        raise ClubRefusal(_("This person is not a member of the club."), "not-member")
    return user


@require_POST
@login_required
@_refusals_said
def club_member_action(request, slug: str):
    """Remove a member, change a role, or hand the ownership over."""
    club = _admin_club(request, slug)
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


@require_POST
@login_required
@_refusals_said
def join_request_decide(request, slug: str, pk: int):
    club = _admin_club(request, slug)
    join_request = get_object_or_404(club.join_requests, pk=pk)
    accept = request.POST.get("decision") == "accept"
    club_services.join_request_decide(actor=request.user, join_request=join_request, accept=accept)
    return redirect("games:club-manage", club.slug)


@require_POST
@login_required
@_refusals_said
def invitation_create(request, slug: str):
    club = _admin_club(request, slug)
    form = InvitationForm(request.POST)
    if not form.is_valid():
        raise ClubRefusal(_("Give the days (1 to 90) and the uses (1 to 1000)."), "invalid")
    club_services.invitation_create(actor=request.user, club=club, **form.cleaned_data)
    return redirect("games:club-manage", club.slug)


@require_POST
@login_required
@_refusals_said
def invitation_revoke(request, slug: str, pk: int):
    club = _admin_club(request, slug)
    invitation = get_object_or_404(club.invitations, pk=pk)
    club_services.invitation_revoke(actor=request.user, invitation=invitation)
    return redirect("games:club-manage", club.slug)


@_refusals_said
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


@require_POST
@login_required
@_refusals_said
def match_decide(request, pk: int):
    """Approve or reject a match awaiting approval (the club's admins)."""
    match = get_object_or_404(Match.objects.visible_to(request.user).select_related("club"), pk=pk)
    form = ReasonForm(request.POST)
    reason = form.cleaned_data["reason"] if form.is_valid() else ""
    approve = request.POST.get("decision") == "approve"
    match_review(actor=request.user, match=match, approve=approve, reason=reason)
    return redirect("games:club-manage", match.club.slug)


def _ids(values: list[str]) -> list[int]:
    """Return the ids among ``values`` (anything that is not one is left out)."""
    return [
        int(value) for value in values if value.isascii() and value.isdigit() and len(value) < 19
    ]


@require_POST
@login_required
@_refusals_said
def club_review(request, slug: str):
    """Approve or reject the chosen matches awaiting approval (or all those shown) in one
    action, once confirmed: the page's script asks before it sends; without it, a page asks."""
    club = _admin_club(request, slug)
    form = ReasonForm(request.POST)
    reason = form.cleaned_data["reason"] if form.is_valid() else ""
    approve = request.POST.get("decision") != "reject"
    if request.POST.get("one"):
        ids = _ids([request.POST["one"]])
    elif request.POST.get("scope") == "all":
        ids = _ids(request.POST.getlist("shown"))
    else:
        ids = _ids(request.POST.getlist("match"))
    if not ids:
        raise ClubRefusal(_("Choose the matches first."), "nothing-chosen")
    if not approve and not reason.strip():
        raise ClubRefusal(_("Say why the match is rejected: its uploader reads it."), "reason")
    if request.POST.get("confirmed") != "1":
        chosen = selectors.club_review_queue(club=club).filter(pk__in=ids)
        return render(
            request,
            "clubs/club_review_confirm.html",
            {"club": club, "matches": chosen, "approve": approve, "reason": reason},
        )
    decided = matches_review(
        actor=request.user, club=club, match_ids=ids, approve=approve, reason=reason
    )
    if approve:
        said = ngettext("%(count)d match approved.", "%(count)d matches approved.", len(decided))
    else:
        said = ngettext("%(count)d match rejected.", "%(count)d matches rejected.", len(decided))
    messages.success(request, said % {"count": len(decided)})
    return redirect("games:club-manage", club.slug)


def _visible_player(request, pk: int) -> Player:
    return get_object_or_404(Player.objects.visible_to(request.user).select_related("club"), pk=pk)


@require_POST
@login_required
@_refusals_said
def player_claim(request, pk: int):
    player = _visible_player(request, pk)
    handle_claim(user=request.user, player=player)
    messages.success(request, _("Your claim is sent to the club's admins."))
    return redirect(player.club)


@require_POST
@login_required
@_refusals_said
def claim_decide_view(request, slug: str, pk: int):
    club = _admin_club(request, slug)
    claim = get_object_or_404(HandleClaim.objects.filter(player__club=club), pk=pk)
    confirm = request.POST.get("decision") == "confirm"
    claim_decide(actor=request.user, claim=claim, confirm=confirm)
    return redirect("games:club-manage", club.slug)


@require_POST
@login_required
@_refusals_said
def player_rename_view(request, pk: int):
    player = _visible_player(request, pk)
    form = HandleForm(request.POST)
    if not form.is_valid():
        raise ClubRefusal(_("A handle has 1 to 100 characters."), "bad-handle")
    old = player.handle
    player_rename(actor=request.user, player=player, handle=form.cleaned_data["handle"])
    messages.success(
        request,
        _("%(old)s is now %(new)s; logs that write %(old)s still land on this player.")
        % {"old": old, "new": player.handle},
    )
    return redirect("games:club-manage", player.club.slug)


@require_POST
@login_required
@_refusals_said
def player_merge_view(request, pk: int):
    source = _visible_player(request, pk)
    form = MergeForm(request.POST)
    target = None
    if form.is_valid():
        players = Player.objects.filter(club=source.club)
        if form.cleaned_data["into"]:
            target = players.filter(pk=form.cleaned_data["into"]).first()
        elif handle := form.cleaned_data["into_handle"]:  # stripped
            # As typed, else in any case when only one handle of the club reads so.
            target = players.filter(handle=handle).first()
            if target is None and len(alike := list(players.filter(handle__iexact=handle))) == 1:
                target = alike[0]
    if target is None:
        raise ClubRefusal(_("Choose a player of the same club to merge into."), "other-club")
    players_merge(actor=request.user, source=source, target=target)
    messages.success(
        request,
        _("%(source)s is merged into %(target)s: every match of %(source)s is now theirs.")
        % {"source": source.handle, "target": target.handle},
    )
    return redirect("games:club-manage", source.club.slug)
