"""Forms of the pages of replays: opening a season."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from games.models import ruleset_choices


class SeasonForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=100)
    first_day = forms.DateField(
        label=_("First day"), widget=forms.DateInput(attrs={"type": "date"})
    )
    last_day = forms.DateField(label=_("Last day"), widget=forms.DateInput(attrs={"type": "date"}))
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
