"""The club pages that show the archive's matches and players: its admins' page (members,
join requests and invitation links beside the review queue, handle claims, renaming and
merging handles), and an admin's decisions on matches and handles. Their routes kept their
names (``games:club-manage``...)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from clubs import selectors as club_selectors
from clubs.forms import InvitationForm
from clubs.ids import id_of
from clubs.pages import action, admin_club, back, cleaned_or_refused
from clubs.refusals import ClubRefusal

from . import selectors
from .forms import HandleForm, MergeForm, ReasonForm
from .models import HandleClaim, Match, Player
from .services.claims import claim_decide, handle_claim
from .services.matches import match_review, matches_review
from .services.players import player_rename, players_merge


@login_required
def club_manage(request, slug: str):
    """The admins' page of a club: members and roles, join requests, invitation links, the
    review queue, handle claims, renaming and merging handles."""
    club = admin_club(request, slug)
    return render(
        request,
        "games/club_manage.html",
        {
            "club": club,
            "is_owner": club.is_owner(request.user),
            "members": club_selectors.club_members(club=club),
            "join_requests": club_selectors.club_join_requests(club=club),
            "invitations": club_selectors.club_invitations(club=club),
            "queue": selectors.club_review_queue(club=club),
            "claims": selectors.club_claims(club=club),
            "players": club.players.select_related("user").order_by("handle"),
            "invitation_form": InvitationForm(),
            "reason_form": ReasonForm(),
        },
    )


@action
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
    return [number for number in map(id_of, values) if number is not None]


@action
def club_review(request, slug: str):
    """Approve or reject the chosen matches awaiting approval (or all those shown) in one
    action, once confirmed: the page's script asks before it sends; without it, a page asks."""
    club = admin_club(request, slug)
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
            "games/club_review_confirm.html",
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


@action
def player_claim(request, pk: int):
    player = _visible_player(request, pk)
    handle_claim(user=request.user, player=player)
    messages.success(request, _("Your claim is sent to the club's admins."))
    # Back to the page the claim was made on: the club's list of players or the player's page.
    return redirect(back(request) if request.POST.get("next") else player.club)


@action
def claim_decide_view(request, slug: str, pk: int):
    club = admin_club(request, slug)
    claim = get_object_or_404(HandleClaim.objects.filter(player__club=club), pk=pk)
    confirm = request.POST.get("decision") == "confirm"
    claim_decide(actor=request.user, claim=claim, confirm=confirm)
    return redirect("games:club-manage", club.slug)


@action
def player_rename_view(request, pk: int):
    player = _visible_player(request, pk)
    said = _("A handle has 1 to 100 characters.")
    handle = cleaned_or_refused(HandleForm(request.POST), said, "bad-handle")["handle"]
    old = player.handle
    player_rename(actor=request.user, player=player, handle=handle)
    messages.success(
        request,
        _("%(old)s is now %(new)s; logs that write %(old)s still land on this player.")
        % {"old": old, "new": player.handle},
    )
    return redirect("games:club-manage", player.club.slug)


@action
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
