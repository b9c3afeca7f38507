"""The pages of team leagues: the list (where whoever is signed in makes one), a league's
table, fixtures and teams (with the organiser's forms and a club admin's acceptance), a
fixture's legs with the buttons of its captains and organiser, a new team, the organiser's
pages that change or delete a league, a team and a fixture (and reset a fixture's legs), and
the table's CSV. Thin views: the rules are in ``competitions.league_services`` and
``league_results``, who may in ``league_permissions``."""

from __future__ import annotations

from functools import wraps

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from clubs.dates import DateOutOfRange
from clubs.ids import id_of
from clubs.models import Club
from clubs.pages import action, cleaned_or_refused, form_done
from clubs.services import ClubRefusal

from .forms import (
    AcceptDayForm,
    DisputeForm,
    FixtureForm,
    InviteForm,
    LeagueForm,
    PostponeForm,
    ScheduleForm,
    TeamForm,
    WalkoverForm,
)
from .league_averages import league_averages
from .league_forfeits import fixture_concede, fixture_walkover, team_reinstate, team_withdraw
from .league_permissions import fixture_roles, is_organiser, is_party
from .league_points import POINT_FIELDS, scheme_of, scheme_words
from .league_results import fixture_confirm, fixture_dispute, fixture_resolve, fixture_submit
from .league_selectors import (
    club_named,
    fixture_candidates,
    invitable_clubs,
    league_fixtures,
    legs_in_order,
)
from .league_services import (
    fixture_change,
    fixture_delete,
    fixture_make,
    fixture_reset,
    league_accept,
    league_change,
    league_decline,
    league_delete,
    league_invite,
    league_make,
    team_change,
    team_delete,
    team_make,
)
from .league_shown import LeagueSight
from .league_table import league_table, table_csv
from .models import Fixture, League, LeagueClub, Team
from .postponements import postponement_accept, postponement_offer, postponement_withdraw
from .schedule import schedule_make, schedule_preview


def _league(pk: int) -> League:
    return get_object_or_404(League.objects.select_related("organiser"), pk=pk)


def _fixture(pk: int, fixture: int) -> Fixture:
    return get_object_or_404(
        Fixture.objects.select_related("league__organiser", "home__club", "away__club"),
        league_id=pk,
        pk=fixture,
    )


def league_list(request):
    form = LeagueForm(request.POST or None) if request.user.is_authenticated else None
    made = form_done(
        request, form, lambda data: league_make(actor=request.user, **form.arguments(data))
    )
    if made is not None:
        return redirect("competitions:league-detail", pk=made.pk)
    leagues = League.objects.select_related("organiser")
    return render(request, "competitions/league_list.html", {"leagues": leagues, "form": form})


def league_detail(request, pk: int):
    league = _league(pk)
    organiser = is_organiser(league, request.user)
    invite_form = InviteForm(prefix="invite") if organiser else None
    fixture_form = FixtureForm(prefix="fixture", league=league) if organiser else None
    if request.method == "POST" and organiser:
        if "invite" in request.POST:
            invite_form = InviteForm(request.POST, prefix="invite")
            if invite_form.is_valid():
                club = club_named(request.user, invite_form.cleaned_data["club"])
                if club is not None:
                    place = league_invite(actor=request.user, league=league, club=club)
                    if place.accepted_at is None:
                        said = _("%(club)s is invited: its owner or an admin accepts here.")
                    else:
                        said = _("%(club)s is in the league.")
                    messages.success(request, said % {"club": club.name})
                    return redirect("competitions:league-detail", pk=pk)
                invite_form.add_error("club", _("No club you can see has that name."))
        else:
            fixture_form = FixtureForm(request.POST, prefix="fixture", league=league)
            if form_done(
                request,
                fixture_form,
                lambda data: fixture_make(actor=request.user, league=league, **data),
            ):
                return redirect("competitions:league-detail", pk=pk)
    sight = LeagueSight(league, request.user)
    fixtures = league_fixtures(league)
    places = list(league.clubs.select_related("club"))
    # The invitations the signed-in person may accept: of the clubs they own or administer.
    acceptable = [
        place for place in places if place.accepted_at is None and place.club.is_admin(request.user)
    ]
    return render(
        request,
        "competitions/league_detail.html",
        {
            "league": league,
            "table": sight.table(league_table(league, fixtures)),
            "fixtures": sight.fixtures(fixtures),
            "teams": sight.teams(),
            "places": sight.places(),
            "acceptable": acceptable,
            "organiser": organiser,
            "invite_form": invite_form,
            "invitable": invitable_clubs(league, request.user) if organiser else (),
            "fixture_form": fixture_form,
            "points_words": scheme_words(league),
            "averages": sight.averages(league_averages(league, fixtures)),
        },
    )


def _invitation_answered(request, pk: int, slug: str, answer, said: str):
    """Answer a league's invitation of a club (``answer``: the service accepting or
    declining it), say so, and go back to the league."""
    league = _league(pk)
    club = get_object_or_404(Club.objects.visible_to(request.user), slug=slug)
    answer(actor=request.user, league=league, club=club)
    messages.success(request, said)
    return redirect("competitions:league-detail", pk=pk)


@action
def league_accept_view(request, pk: int, slug: str):
    said = _("The club takes part in the league.")
    return _invitation_answered(request, pk, slug, league_accept, said)


@action
def league_decline_view(request, pk: int, slug: str):
    said = _("The club declined the invitation.")
    return _invitation_answered(request, pk, slug, league_decline, said)


@login_required
def team_new(request, pk: int, slug: str):
    league = _league(pk)
    place = get_object_or_404(
        LeagueClub.objects.select_related("club"),
        league=league,
        club__slug=slug,
        accepted_at__isnull=False,
    )
    if not is_organiser(league, request.user):
        raise PermissionDenied(_("Only the league's organiser may do this."))
    form = TeamForm(request.POST or None, club=place.club)
    if form_done(
        request,
        form,
        lambda data: team_make(
            actor=request.user, league=league, club=place.club, **form.arguments(data)
        ),
    ):
        return redirect("competitions:league-detail", pk=pk)
    return render(
        request,
        "competitions/league_team.html",
        {"league": league, "club": place.club, "form": form},
    )


def fixture_detail(request, pk: int, fixture: int):
    fixture = _fixture(pk, fixture)
    sight = LeagueSight(fixture.league, request.user)
    roles = fixture_roles(fixture, request.user)
    legs = list(legs_in_order().filter(fixture=fixture))
    choices = []
    if roles["submit"]:
        candidates = [sight.candidate(fixture, c) for c in fixture_candidates(fixture)]
        chosen = {leg.number: leg.match_id for leg in legs}
        choices = [
            {
                "number": number,
                "kind": kind,
                "chosen": chosen.get(number),
                "candidates": [c for c in candidates if c.kind == kind],
            }
            for number, kind in enumerate(fixture.league.legs, start=1)
        ]
    return render(
        request,
        "competitions/league_fixture.html",
        {
            "league": fixture.league,
            "fixture": sight.fixture(fixture, legs, party=is_party(fixture, request.user)),
            "roles": roles,
            "organiser": is_organiser(fixture.league, request.user),
            "choices": choices,
            "dispute_form": DisputeForm(),
            "walkover_form": WalkoverForm(),
            "postpone_form": PostponeForm(prefix=None),
        },
    )


def _fixture_button(act):
    """A fixture's button (POST, signed in): ``act(request, fixture)`` calls its service; a
    refusal is said as a message; back to the fixture's page."""

    @require_POST
    @login_required
    @wraps(act)
    def view(request, pk: int, fixture: int):
        found = _fixture(pk, fixture)
        try:
            act(request, found)
        except ClubRefusal as refusal:
            messages.error(request, refusal.message)
        return redirect("competitions:league-fixture", pk=found.league_id, fixture=found.pk)

    return view


@_fixture_button
def fixture_submit_view(request, fixture: Fixture) -> None:
    given = [request.POST.get(f"leg-{n}", "")[:12] for n in range(1, len(fixture.league.legs) + 1)]
    match_ids = [id_of(text) or 0 for text in given]  # 0: no match, refused by the service
    fixture_submit(actor=request.user, fixture=fixture, match_ids=match_ids)


@_fixture_button
def fixture_concede_view(request, fixture: Fixture) -> None:
    if not request.POST.get("sure"):  # the box the form asks to tick (a page's guard only)
        raise ClubRefusal(_("Tick the box to concede the fixture."), "fixture-invalid")
    fixture_concede(actor=request.user, fixture=fixture)


@_fixture_button
def fixture_walkover_view(request, fixture: Fixture) -> None:
    said = _("Choose the team that did not turn up.")
    given = cleaned_or_refused(WalkoverForm(request.POST), said, "fixture-invalid")
    fixture_walkover(actor=request.user, fixture=fixture, **WalkoverForm.arguments(given, fixture))


@_fixture_button
def postpone_view(request, fixture: Fixture) -> None:
    said = _("Offer one to three days, each a date.")
    given = cleaned_or_refused(PostponeForm(request.POST), said, "postpone-invalid")
    postponement_offer(actor=request.user, fixture=fixture, **PostponeForm.arguments(given))


@_fixture_button
def postpone_accept_view(request, fixture: Fixture) -> None:
    said = _("Choose one of the days offered.")
    given = cleaned_or_refused(AcceptDayForm(request.POST), said, "postpone-not-offered")
    postponement_accept(actor=request.user, fixture=fixture, day=given["day"])


@_fixture_button
def postpone_withdraw_view(request, fixture: Fixture) -> None:
    postponement_withdraw(actor=request.user, fixture=fixture)


@_fixture_button
def fixture_confirm_view(request, fixture: Fixture) -> None:
    fixture_confirm(actor=request.user, fixture=fixture)


@_fixture_button
def fixture_dispute_view(request, fixture: Fixture) -> None:
    said = _("Say why the legs are disputed, in at most 500 characters.")
    reason = cleaned_or_refused(DisputeForm(request.POST), said, "fixture-invalid")["reason"]
    fixture_dispute(actor=request.user, fixture=fixture, reason=reason)


@_fixture_button
def fixture_resolve_view(request, fixture: Fixture) -> None:
    confirm = request.POST.get("decision") == "confirm"
    fixture_resolve(actor=request.user, fixture=fixture, confirm=confirm)


def _organiser_only(league: League, user) -> None:
    if not is_organiser(league, user):
        raise PermissionDenied(_("Only the league's organiser may do this."))


@login_required
def league_edit(request, pk: int):
    league = _league(pk)
    _organiser_only(league, request.user)
    initial = {
        "name": league.name,
        "singles": league.legs.count("singles"),
        "pairs": league.legs.count("pairs"),
        "scheme": scheme_of(league),
        "withdrawn_results": league.withdrawn_results,
        **{key: getattr(league, key) for key in POINT_FIELDS},
    }
    form = LeagueForm(request.POST or None, initial=initial)
    kept = list(league.legs)
    if form_done(
        request,
        form,
        lambda data: league_change(actor=request.user, league=league, **form.arguments(data, kept)),
    ):
        messages.success(request, _("The league is changed."))
        return redirect("competitions:league-detail", pk=pk)
    return render(request, "competitions/league_edit.html", {"league": league, "form": form})


@require_POST
@login_required
def league_delete_view(request, pk: int):
    league = _league(pk)
    if not request.POST.get("sure"):  # the box the form asks to tick (a page's guard only)
        _organiser_only(league, request.user)
        messages.error(request, _("Tick the box to delete the league."))
        return redirect("competitions:league-edit", pk=pk)
    league_delete(actor=request.user, league=league)
    messages.success(request, _("The league is deleted; its matches stay in the archive."))
    return redirect("competitions:league-list")


def _team(pk: int, team: int) -> Team:
    return get_object_or_404(
        Team.objects.select_related("league__organiser", "club"), league_id=pk, pk=team
    )


@login_required
def team_edit(request, pk: int, team: int):
    team = _team(pk, team)
    league = team.league
    _organiser_only(league, request.user)
    initial = {
        "name": team.name,
        "roster": list(team.roster.values_list("pk", flat=True)),
        "captains": list(team.captains.values_list("pk", flat=True)),
    }
    form = TeamForm(request.POST or None, club=team.club, initial=initial)
    if form_done(
        request,
        form,
        lambda data: team_change(actor=request.user, team=team, **form.arguments(data)),
    ):
        messages.success(request, _("The team is changed."))
        return redirect("competitions:league-detail", pk=pk)
    return render(
        request,
        "competitions/league_team.html",
        {"league": league, "club": team.club, "form": form, "team": team},
    )


@require_POST
@login_required
def team_delete_view(request, pk: int, team: int):
    team = _team(pk, team)
    edit = redirect("competitions:league-team-edit", pk=pk, team=team.pk)
    return _delete_ticked(
        request,
        team.league,
        lambda: team_delete(actor=request.user, team=team),
        unticked=edit,
        refused=edit,
        deleted=_("The team is deleted, with its fixtures."),
    )


def _delete_ticked(request, league: League, delete, *, unticked, refused, deleted: str):
    """Delete (``delete``, a service) once the page's box is ticked, its organiser's only (a
    page's guard: the API deletes at once), and go back to the league saying so; a box left
    empty goes to ``unticked``, a refusal to ``refused``."""
    if not request.POST.get("sure"):
        _organiser_only(league, request.user)
        messages.error(request, _("Tick the box to delete it."))
        return unticked
    try:
        delete()
    except ClubRefusal as refusal:
        messages.error(request, refusal.message)
        return refused
    messages.success(request, deleted)
    return redirect("competitions:league-detail", pk=league.pk)


@login_required
def fixture_edit(request, pk: int, fixture: int):
    fixture = _fixture(pk, fixture)
    league = fixture.league
    _organiser_only(league, request.user)
    initial = {"home": fixture.home_id, "away": fixture.away_id, "day": fixture.day}
    form = FixtureForm(request.POST or None, league=league, initial=initial)
    if form_done(
        request, form, lambda data: fixture_change(actor=request.user, fixture=fixture, **data)
    ):
        messages.success(request, _("The fixture is changed."))
        return redirect("competitions:league-fixture", pk=pk, fixture=fixture.pk)
    return render(
        request,
        "competitions/league_fixture_edit.html",
        {"league": league, "fixture": fixture, "form": form},
    )


@_fixture_button
def fixture_reset_view(request, fixture: Fixture) -> None:
    fixture_reset(actor=request.user, fixture=fixture)


@require_POST
@login_required
def fixture_delete_view(request, pk: int, fixture: int):
    fixture = _fixture(pk, fixture)
    return _delete_ticked(
        request,
        fixture.league,
        lambda: fixture_delete(actor=request.user, fixture=fixture),
        unticked=redirect("competitions:fixture-edit", pk=pk, fixture=fixture.pk),
        refused=redirect("competitions:league-fixture", pk=pk, fixture=fixture.pk),
        deleted=_("The fixture is deleted."),
    )


def league_csv(request, pk: int):
    league = _league(pk)
    table = LeagueSight(league, request.user).table(league_table(league))
    response = HttpResponse(table_csv(table), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="league-{league.pk}.csv"'
    return response


def _team_button(act, said: str):
    """A team's button on its edit page (POST, the organiser): ``act(actor=, team=)``, its
    service; a refusal said as a message; back to the league."""

    @require_POST
    @login_required
    def view(request, pk: int, team: int):
        found = _team(pk, team)
        try:
            act(actor=request.user, team=found)
            messages.success(request, said)
        except ClubRefusal as refusal:
            messages.error(request, refusal.message)
        return redirect("competitions:league-detail", pk=pk)

    return view


team_withdraw_view = _team_button(
    team_withdraw, gettext_lazy("The team is withdrawn from the league.")
)
team_reinstate_view = _team_button(team_reinstate, gettext_lazy("The team is reinstated."))


@login_required
def league_schedule(request, pk: int):
    """The organiser's page that makes every fixture at once: a first day, the fixtures it
    would make shown, then made (``competitions.schedule``)."""
    league = _league(pk)
    _organiser_only(league, request.user)
    form = ScheduleForm(request.POST or request.GET or None)
    planned = []
    if form.is_bound and form.is_valid():
        first_day = form.cleaned_data["first_day"]
        try:
            planned = schedule_preview(league, first_day)
        except DateOutOfRange as refusal:  # a first day out of a plan's bounds
            form.add_error("first_day", refusal.message)
        except ClubRefusal as refusal:  # too few or too many teams: said before the button
            form.add_error(None, refusal.message)
        if request.method == "POST" and form_done(
            request,
            form,
            lambda data: schedule_make(actor=request.user, league=league, first_day=first_day),
        ):
            messages.success(request, _("The schedule is made."))
            return redirect("competitions:league-detail", pk=pk)
    return render(
        request,
        "competitions/league_schedule.html",
        {
            "league": league,
            "form": form,
            "planned": planned,
            "has_fixtures": league.fixtures.exists(),
        },
    )
