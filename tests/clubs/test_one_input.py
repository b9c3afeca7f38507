"""One use case, one input (issue 35, item 3): what a write of the API takes is read from the
form of its page (``api.inputs.FormInput``), so a rule said by the form holds on both ways
in, and a form changed changes the API with it."""

from __future__ import annotations

import pytest
from django import forms

from api import league_serializers as league_api
from api import serializers as club_api
from api import tournaments as event_api
from api.inputs import FormInput
from clubs.models import Club
from competitions.forms import LeagueForm, LeagueInput

from .conftest import error_of

INPUTS = [
    club_api.ClubWriteSerializer,
    club_api.InvitationWriteSerializer,
    club_api.JoinRequestWriteSerializer,
    club_api.ReasonSerializer,
    club_api.RenameSerializer,
    club_api.MergeSerializer,
    league_api.LeagueWriteSerializer,
    league_api.InviteSerializer,
    league_api.TeamChangeSerializer,
    league_api.FixtureWriteSerializer,
    league_api.DisputeSerializer,
    event_api.EventWriteSerializer,
]


@pytest.mark.parametrize("made", INPUTS, ids=lambda made: made.__name__)
def test_each_write_takes_its_pages_fields_with_their_bounds(made):
    assert issubclass(made, FormInput)
    fields = made().get_fields()
    for name, field in made.form_class.base_fields.items():
        if name in made.left_out:
            assert name not in fields
            continue
        taken = fields[name]
        for bound in ("max_length", "min_value", "max_value"):
            if getattr(field, bound, None) is not None:
                assert getattr(taken, bound) == getattr(field, bound), (name, bound)
        if getattr(field, "most", None) is not None:
            assert (taken.min_length, taken.max_length) == (field.least, field.most), name


def test_a_bound_changed_in_the_form_changes_the_api(monkeypatch):
    """The API's field is made from the form's each time: no second copy to forget."""
    tighter = forms.IntegerField(min_value=0, max_value=5, initial=2)
    monkeypatch.setitem(LeagueInput.base_fields, "win_points", tighter)
    given = {"name": "City", "legs": ["singles"], "win_points": 6}
    refused = league_api.LeagueWriteSerializer(data=given)
    assert not refused.is_valid() and set(refused.errors) == {"win_points"}
    assert league_api.LeagueWriteSerializer(data=given | {"win_points": 5}).is_valid()


def test_the_league_page_and_api_take_the_same_points_and_turn_them_alike():
    page = LeagueForm(
        {"name": "City", "singles": 1, "pairs": 1, "win_points": 3, "draw_points": 1,
         "loss_points": 0}
    )  # fmt: skip
    assert page.is_valid(), page.errors
    api = league_api.LeagueWriteSerializer(data={"name": "City", "legs": ["singles", "pairs"]})
    assert api.is_valid(), api.errors
    assert LeagueInput.arguments(api.validated_data) == {
        "name": "City",
        "legs": ["singles", "pairs"],
        "win_points": 2,  # the page's figure shown at first, when the API says none
        "draw_points": 1,
        "loss_points": 0,
        "leg_points": 0,
        "close_margin": 0,
        "close_points": 0,
        "withdrawn_results": "expunged",
    }
    assert page.arguments(page.cleaned_data)["legs"] == ["singles", "pairs"]
    # The legs as they were, when the page's counts are the same (a league may mix them).
    assert page.arguments(page.cleaned_data, ["pairs", "singles"])["legs"] == ["pairs", "singles"]
    too_many = page.cleaned_data | {"win_points": 101}
    assert not LeagueForm(too_many).is_valid()
    refused = league_api.LeagueWriteSerializer(data={"name": "City", "legs": ["singles"]} | {
        "win_points": 101})  # fmt: skip
    assert not refused.is_valid() and set(refused.errors) == {"win_points"}


@pytest.mark.django_db
def test_a_clubs_time_zone_is_read_by_the_forms_rule_on_both_ways_in(page_as, api_as, owner):
    """The club form's ``clean_time_zone`` (a city's name in any case is its zone) is the
    API's rule too: one rule, where the API once checked the exact name alone."""
    made = api_as("owner").post(
        "/api/v1/clubs/",
        {"name": "Batumi Fives", "slug": "batumi", "time_zone": "tbilisi"},
        format="json",
    )
    assert made.status_code == 201, made.content
    assert made.json()["time_zone"] == "Asia/Tbilisi"
    changed = api_as("owner").patch("/api/v1/clubs/batumi/", {"time_zone": "tokyo"}, format="json")
    assert changed.json()["time_zone"] == "Asia/Tokyo"
    refused = api_as("owner").patch(
        "/api/v1/clubs/batumi/", {"time_zone": "Nowhere/At_All"}, format="json"
    )
    assert refused.status_code == 400 and "time_zone" in error_of(refused)["fields"]
    page = page_as("owner").post(
        "/clubs/batumi/settings/",
        {"name": "Batumi Fives", "time_zone": "Nowhere/At_All", "language": "en",
         "default_ruleset": "muggins"},
    )  # fmt: skip
    assert page.status_code == 200  # the form again, with its error
    assert Club.objects.get(slug="batumi").time_zone == "Asia/Tokyo"
