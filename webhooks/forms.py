"""The inputs of webhooks' use cases, for the page and (through ``api.inputs.FormInput``) the
API alike."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from .events import EVENTS, event_choices


class EndpointForm(forms.Form):
    url = forms.URLField(
        label=_("Address"),
        max_length=500,
        assume_scheme="https",
        help_text=_("Where the archive sends what happens, as a POST: https://..."),
    )
    events = forms.MultipleChoiceField(
        label=_("Told of"), choices=event_choices, widget=forms.CheckboxSelectMultiple
    )
    events.least, events.most = 1, len(EVENTS)


class EventsForm(forms.Form):
    events = forms.MultipleChoiceField(
        label=_("Told of"), choices=event_choices, widget=forms.CheckboxSelectMultiple
    )
    events.least, events.most = 1, len(EVENTS)
