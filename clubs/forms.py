"""The forms of the club pages."""

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from .capitals import labelled_formfield
from .models import CLUB_SETTINGS, Club
from .text import clean_text
from .zones import zone_named


class ClubForm(forms.ModelForm):
    """A new club, or a club's settings."""

    class Meta:
        model = Club
        formfield_callback = labelled_formfield  # no capital for a Georgian label
        fields = ["name", "slug", *CLUB_SETTINGS[1:]]
        widgets = {
            # Any IANA name, found as it is typed; a new club's starts as the organiser's
            # browser's zone (the site's script fills it).
            "time_zone": forms.TextInput(
                attrs={
                    "list": "time-zones",
                    "autocomplete": "off",
                    "spellcheck": "false",
                    "placeholder": "Asia/Tbilisi",
                    "data-browser-zone": "",
                }
            ),
        }
        help_texts = {
            "slug": _("Its address: /clubs/<slug>/ (letters, digits, hyphens)."),
            "time_zone": _("Times of the club's things are shown in it. Type a city to find it."),
            "is_private": _("Matches, players and the ranking are seen by members only."),
            "venue": _("Where the club plays: the place of its events in calendars."),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["analyse_every_match"].help_text = _(
            "Each match stored for the club gets the expected value of every play, counted "
            "in no member's daily quota but in the club's own: the site analyses at most "
            "%(limit)s of the club's matches a day."
        ) % {"limit": settings.FIVES_CLUB_ANALYSES_PER_DAY}
        self.fields["analyse_earlier"].help_text = _(
            "With every match analysed: the club's matches stored before are analysed too, "
            "after everyone else's, within the same daily bound; it turns itself off when "
            "they are all done."
        )
        if self.instance.pk:
            del self.fields["slug"]  # addresses given out stay good

    def clean_name(self) -> str:
        name = clean_text(self.cleaned_data["name"], 200)
        if name is None:
            raise forms.ValidationError(_("Give the club a name."))
        return name

    def clean_venue(self) -> str:
        venue = self.cleaned_data.get("venue") or ""
        if not venue.strip():
            return ""
        cleaned = clean_text(venue, 200)
        if cleaned is None:
            raise forms.ValidationError(_("A venue is up to 200 characters."))
        return cleaned

    def clean_time_zone(self) -> str:
        zone = zone_named(self.cleaned_data["time_zone"])
        if zone is None:
            raise forms.ValidationError(_("Not a time zone: write one such as Asia/Tbilisi."))
        return zone

    def validate_unique(self):
        """Uniqueness is the service's to say (it says it the same to the API)."""


class InvitationForm(forms.Form):
    days = forms.IntegerField(label=_("Valid for (days)"), min_value=1, max_value=90, initial=7)
    max_uses = forms.IntegerField(label=_("Uses"), min_value=1, max_value=1000, initial=1)


class JoinRequestForm(forms.Form):
    message = forms.CharField(label=_("Message to the admins"), max_length=500, required=False)
