"""The inputs of the competitions' use cases: each is the one class that says what a use case
takes (its fields, their bounds and defaults), used by the page and, through
``api.inputs.FormInput``, by its API twin, and turns what it took into the service's
arguments (``arguments``). Who may, and what the rules refuse, are the services' to say
(``ClubRefusal``)."""

from __future__ import annotations

import json

from django import forms
from django.db.models import Prefetch
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from clubs.presets import ruleset_choices
from games.models import Player

from .league_points import CUSTOM, POINT_FIELDS, SCHEME_BY_SLUG, SCHEMES, scheme_choices
from .league_services import MAX_CAPTAINS, MAX_LEGS, MAX_ROSTER
from .models import League, Tournament
from .seasons import parse_place_points
from .tournaments import MAX_PLAYERS


def counted(field: forms.Field, least: int, most: int) -> forms.Field:
    """Return ``field`` (a choice of many) saying how many may be chosen: the API's input
    refuses another count as a field's error; the page's choices are the club's own, and
    the service refuses what the page sends beyond them."""
    field.least, field.most = least, most
    return field


def ids(values) -> list[int]:
    """Return the ids of what a choice of many took: rows on a page, ids through the API."""
    return [getattr(value, "pk", value) for value in values]


def date_input() -> forms.DateInput:
    """A date field's input: the browser's date picker, given the date in ISO form whatever
    the page's language (a Russian page wrote "20.11.2026", which the picker cannot show,
    so an edit form came up with its dates empty)."""
    return forms.DateInput(format="%Y-%m-%d", attrs={"type": "date"})


class SeasonForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=100)
    first_day = forms.DateField(label=_("First day"), widget=date_input())
    last_day = forms.DateField(label=_("Last day"), widget=date_input())
    presets = forms.MultipleChoiceField(
        label=_("Rulesets counted (none ticked: all)"),
        choices=ruleset_choices,
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    win_points = forms.IntegerField(
        label=_("Points for a win"), min_value=0, max_value=100, initial=3
    )
    loss_points = forms.IntegerField(
        label=_("Points for a loss"), min_value=0, max_value=100, initial=0
    )
    place_points = forms.CharField(
        label=_("Three or four players alone: points by place"),
        max_length=40,
        initial="3/2/1/0",
        required=False,
    )

    @staticmethod
    def arguments(data: dict) -> dict:
        """Return what ``season_open`` takes of ``data`` (the points by place read)."""
        return data | {"place_points": parse_place_points(data["place_points"] or "")}


class TournamentForm(forms.Form):
    """Making an event (a season chosen among the club's open ones) or changing one (the
    season and the kind stay: ``changing``)."""

    season = forms.ModelChoiceField(label=_("Season"), queryset=None, empty_label=None)
    name = forms.CharField(label=_("Name"), max_length=100)
    kind = forms.ChoiceField(
        label=_("Kind"), choices=Tournament.Kind.choices, widget=forms.RadioSelect
    )
    first_day = forms.DateField(label=_("First day"), widget=date_input())
    last_day = forms.DateField(label=_("Last day"), widget=date_input())
    legs = forms.TypedChoiceField(
        label=_("Round-robin: each pair meets"),
        choices=[(1, _("once")), (2, _("twice"))],
        coerce=int,
        initial=1,
        widget=forms.RadioSelect,
    )
    players = counted(
        forms.ModelMultipleChoiceField(
            label=_("Players (2 to 32)"), queryset=None, widget=forms.CheckboxSelectMultiple
        ),
        2,
        MAX_PLAYERS,
    )

    def __init__(self, *args, club, changing: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["players"].queryset = club.players.order_by("handle")
        self.fields["players"].label_from_instance = lambda player: player.handle
        if changing:
            del self.fields["season"]
            del self.fields["kind"]
        else:
            self.fields["season"].queryset = club.seasons.filter(closed_at__isnull=True)
            self.fields["kind"].initial = Tournament.Kind.ROUND_ROBIN

    @staticmethod
    def arguments(data: dict) -> dict:
        """Return what ``tournament_make`` and ``tournament_change`` take of ``data`` (the
        season and the kind, which only making takes, aside)."""
        return {
            "name": data["name"],
            "first_day": data["first_day"],
            "last_day": data["last_day"],
            "player_ids": ids(data["players"]),
            "legs": data["legs"],
        }


class LeagueInput(forms.Form):
    """A team league as the API gives it: its name, the kinds of its legs in order, how it
    scores a fixture (a scheme, or the points as given: ``league_points``) and what becomes
    of a withdrawn team's results."""

    name = forms.CharField(label=_("Name"), max_length=100)
    legs = counted(forms.MultipleChoiceField(choices=League.LegKind.choices), 1, MAX_LEGS)
    scheme = forms.ChoiceField(
        required=False,
        label=_("Points scheme"),
        choices=scheme_choices,
        initial=CUSTOM,
        help_text=_("A scheme's points replace the numbers below; “custom” keeps them."),
        # The page fills the numbers in as a scheme is chosen (``static/js/site.js``).
        widget=forms.Select(
            attrs={
                "data-scheme-points": json.dumps({scheme.slug: scheme.points for scheme in SCHEMES})
            }
        ),
    )
    win_points = forms.IntegerField(
        label=_("Points for a win"), min_value=0, max_value=100, initial=2
    )
    draw_points = forms.IntegerField(
        label=_("Points for a draw"), min_value=0, max_value=100, initial=1
    )
    loss_points = forms.IntegerField(
        label=_("Points for a loss"), min_value=0, max_value=100, initial=0
    )
    leg_points = forms.IntegerField(
        required=False, label=_("Points for each leg won"), min_value=0, max_value=100, initial=0
    )
    close_margin = forms.IntegerField(
        required=False,
        label=_("A close loss: by at most so many legs (0: none)"),
        min_value=0,
        max_value=MAX_LEGS,
        initial=0,
    )
    close_points = forms.IntegerField(
        required=False, label=_("Points for a close loss"), min_value=0, max_value=100, initial=0
    )
    withdrawn_results = forms.ChoiceField(
        required=False,
        label=_("A withdrawn team's results"),
        choices=League.Withdrawn.choices,
        initial=League.Withdrawn.EXPUNGED,
    )

    @staticmethod
    def arguments(data: dict, kept: list[str] | tuple = ()) -> dict:
        """Return what ``league_make`` and ``league_change`` take of ``data``: its legs as
        given, or counted (the page's form) and then as they were (``kept``) when the counts
        are the same (a league made through the API may mix its kinds), else the singles
        first; its points as its scheme says, or as given."""
        legs = data.get("legs")
        if legs is None:
            counts = (data["singles"], data["pairs"])
            if (kept.count("singles"), kept.count("pairs")) == counts:
                legs = list(kept)
            else:
                legs = ["singles"] * counts[0] + ["pairs"] * counts[1]
        scheme = SCHEME_BY_SLUG.get(data.get("scheme") or CUSTOM)
        points = (
            dict(scheme.points)
            if scheme is not None
            else {key: data[key] for key in POINT_FIELDS if data.get(key) is not None}
        )
        return {
            "name": data["name"],
            "legs": legs,
            "withdrawn_results": data.get("withdrawn_results") or League.Withdrawn.EXPUNGED,
            **points,
        }


class LeagueForm(LeagueInput):
    """Making or changing a team league on its page: its legs counted, so many singles, then
    so many pairs."""

    field_order = ["name", "singles", "pairs", "scheme"]
    legs = None
    singles = forms.IntegerField(
        label=_("Singles legs a fixture"), min_value=0, max_value=12, initial=4
    )
    pairs = forms.IntegerField(
        label=_("Pairs legs a fixture"), min_value=0, max_value=12, initial=2
    )


class InviteForm(forms.Form):
    """A club named as people know it (its name) or by its address name, suggested from the
    clubs the organiser can see (``competitions/templates/competitions/league_detail.html``)."""

    club = forms.CharField(
        label=_("Club: its name or address name"),
        max_length=200,
        widget=forms.TextInput(attrs={"list": "invitable-clubs", "autocomplete": "off"}),
    )


class TeamForm(forms.Form):
    """A team of one club: its roster among the club's players, its captains among its
    members."""

    name = forms.CharField(label=_("Name"), max_length=100)
    roster = counted(
        forms.ModelMultipleChoiceField(
            label=_("Roster"), queryset=None, widget=forms.CheckboxSelectMultiple
        ),
        1,
        MAX_ROSTER,
    )
    captains = counted(
        forms.ModelMultipleChoiceField(
            label=_("Captains"), queryset=None, widget=forms.CheckboxSelectMultiple
        ),
        1,
        MAX_CAPTAINS,
    )

    def __init__(self, *args, club, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["roster"].queryset = club.players.order_by("handle")
        self.fields["roster"].label_from_instance = lambda player: player.handle
        # A member by the handles they claimed in the club; one who claimed none by their
        # account's name, said so (the form is the organiser's, who may see the club).
        self.fields["captains"].queryset = club.members.order_by("username").prefetch_related(
            Prefetch("players", queryset=Player.objects.filter(club=club).order_by("handle"))
        )
        self.fields["captains"].label_from_instance = _member_label

    @staticmethod
    def arguments(data: dict) -> dict:
        """Return what ``team_make`` and ``team_change`` take of ``data``."""
        return {
            "name": data["name"],
            "player_ids": ids(data["roster"]),
            "captain_ids": ids(data["captains"]),
        }


def _member_label(user) -> str:
    handles = [player.handle for player in user.players.all()]
    if handles:
        return ", ".join(handles)
    return gettext("%(username)s (no handle claimed)") % {"username": user.get_username()}


class FixtureForm(forms.Form):
    home = forms.ModelChoiceField(label=_("Home team"), queryset=None, empty_label=None)
    away = forms.ModelChoiceField(label=_("Away team"), queryset=None, empty_label=None)
    day = forms.DateField(label=_("Day"), widget=date_input())

    def __init__(self, *args, league, **kwargs):
        super().__init__(*args, **kwargs)
        teams = league.teams.order_by("name")
        for name in ("home", "away"):
            self.fields[name].queryset = teams
            self.fields[name].label_from_instance = lambda team: team.name
        # Two different teams chosen at first (a tour as a new user met the same team on
        # both sides, and a refusal).
        if not self.is_bound and "away" not in self.initial:
            first_two = list(teams.values_list("pk", flat=True)[:2])
            if len(first_two) == 2:
                self.fields["home"].initial, self.fields["away"].initial = first_two


class DisputeForm(forms.Form):
    reason = forms.CharField(
        label=_("Why the legs are disputed"),
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 3}),
    )


class WalkoverForm(forms.Form):
    """A walkover the organiser records: the side that did not turn up."""

    absent = forms.ChoiceField(
        label=_("Did not turn up"),
        choices=[("home", _("the home team")), ("away", _("the away team"))],
    )

    @staticmethod
    def arguments(data: dict, fixture) -> dict:
        """Return what ``fixture_walkover`` takes of ``data``: the absent team."""
        return {"absent": fixture.home if data["absent"] == "home" else fixture.away}


class ScheduleForm(forms.Form):
    """The first day of a league's schedule: its weekday is the league's match night."""

    first_day = forms.DateField(
        label=_("First match night"),
        widget=date_input(),
        help_text=_("A round a week from this day, on the same weekday."),
    )


class PostponeForm(forms.Form):
    """The days a home captain offers for a fixture postponed: one to three."""

    day_1 = forms.DateField(label=_("A day offered"), widget=date_input())
    day_2 = forms.DateField(
        label=_("Another day (if you like)"), widget=date_input(), required=False
    )
    day_3 = forms.DateField(
        label=_("A third day (if you like)"), widget=date_input(), required=False
    )

    @staticmethod
    def arguments(data: dict) -> dict:
        """Return what ``postponement_offer`` takes of ``data``: the days given."""
        return {"days": [data[key] for key in ("day_1", "day_2", "day_3") if data.get(key)]}


class AcceptDayForm(forms.Form):
    """One of the days offered, accepted by the other side."""

    day = forms.DateField(label=_("The day accepted"), widget=date_input())
