"""Forms of the pages: the upload form, the match filters, and an admin's decisions on a
club's matches and handles."""

from django import forms
from django.conf import settings
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubs.capitals import capfirst, labelled_formfield
from clubs.models import Club
from clubs.presets import ruleset_choices
from clubs.text import clean_text
from clubs.zones import zone_of

from .event_names import event_names
from .models import ApiToken, Match, Upload
from .services.uploads import sniff_kind

# The clubs whose events the upload form offers (a person in more is rare; their logs may
# still name any event).
MAX_CLUBS_OFFERED = 20


class UploadForm(forms.Form):
    text = forms.CharField(
        label=_("Paste a match log (fives/1 JSON) or NDJSON lines"),
        widget=forms.Textarea(attrs={"rows": 12, "spellcheck": "false"}),
        required=False,
    )
    file = forms.FileField(
        label=_("…or choose a .json or .ndjson file"),
        required=False,
        widget=forms.ClearableFileInput(
            attrs={"accept": ".json,.ndjson,.jsonl", "aria-describedby": "id_file-name"}
        ),
    )
    club = forms.ModelChoiceField(
        label=_("Club"),
        queryset=None,  # the person's clubs (__init__)
        required=False,
        empty_label=_("The club the log names"),
        help_text=_("The clubs you are a member of."),
    )
    event = forms.ChoiceField(
        label=_("Counts for"),
        required=False,
        help_text=_(
            "Where matches whose logs name no event count: an event, a cup tie, a league leg."
        ),
    )

    def __init__(self, *args, user=None, **kwargs):
        super().__init__(*args, **kwargs)
        clubs = Club.objects.with_member(getattr(user, "pk", None)).order_by("name")
        self.fields["club"].queryset = clubs
        self.fields["event"].choices = self._event_choices(clubs[:MAX_CLUBS_OFFERED], user)
        # Chosen for the person (a tour as a new user left it on "the club the log names",
        # and a log naming none was refused): their only club, else the club of their
        # latest upload into one.
        if user is not None and user.is_authenticated and not self.is_bound:
            ids = list(clubs.values_list("pk", flat=True)[:2])
            latest = (
                Upload.objects.filter(uploader=user, club_id__in=clubs.values("pk"))
                .order_by("-pk")
                .values_list("club_id", flat=True)
                .first()
            )
            self.fields["club"].initial = ids[0] if len(ids) == 1 else latest

    @staticmethod
    def _event_choices(clubs, user) -> list:
        """What the logs may count for, by club: each club's events, cup ties and league legs
        around its today (``games.event_names``)."""
        choices: list = [("", _("What each log names"))]
        for club in clubs:
            today = timezone.localdate(timezone=zone_of(club.time_zone))
            names = event_names(club, user, today)
            if names:
                choices.append((club.name, [(name.value, name.label) for name in names]))
        return choices

    def clean(self):
        data = super().clean()
        if not data.get("text", "").strip() and not data.get("file"):
            raise forms.ValidationError(_("Paste a log or choose a file."))
        return data

    def document(self) -> tuple[bytes, str, int]:
        """Return the bytes sent (no more than the limit and one), file name and size."""
        upload = self.cleaned_data.get("file")
        if upload is not None:
            return upload.read(settings.FIVES_UPLOAD_MAX_BYTES + 1), upload.name, upload.size
        data = self.cleaned_data["text"].encode("utf-8")
        return data, "", len(data)

    @staticmethod
    def kind(data: bytes, filename: str) -> str:
        """Return the kind of the document: by its file name, else by what it holds."""
        name = filename.lower()
        if name.endswith((".ndjson", ".jsonl")):
            return Upload.Kind.NDJSON
        if name.endswith(".json"):
            return Upload.Kind.JSON
        return sniff_kind(data)


class MatchFilterForm(forms.Form):
    q = forms.CharField(
        label=_("Player or club"),
        required=False,
        max_length=100,
        help_text=_("A part of a player's or a club's name."),
    )
    club = forms.SlugField(label=_("Club"), required=False, allow_unicode=True)
    player = forms.CharField(
        label=_("Player"),
        required=False,
        help_text=_("A player's name (handle or former handle, any case) or id."),
        # Its length is checked by clean_player, which says what the filter takes.
        widget=forms.TextInput(
            attrs={
                "list": "player-names",
                "autocomplete": "off",
                "maxlength": 100,
                "data-player-names": "",
            }
        ),
    )
    ruleset = forms.ChoiceField(
        label=_("Ruleset"),
        required=False,
        choices=lambda: [("", _("any")), *ruleset_choices()],
    )
    outcome = forms.ChoiceField(
        label=_("Outcome"), required=False, choices=[("", _("any")), *Match.Outcome.choices]
    )
    date_from = forms.DateField(
        label=_("From"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    date_to = forms.DateField(
        label=_("To"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    sort = forms.ChoiceField(
        label=_("Order"),
        required=False,
        choices=[
            ("", _("newest first")),
            ("played_at", _("oldest first")),
            ("club", _("club")),
            ("-club", _("club, from Z")),
            ("ruleset", _("ruleset")),
            ("-ruleset", _("ruleset, from Z")),
            ("outcome", _("outcome")),
            ("-outcome", _("outcome, from Z")),
        ],
    )

    def clean_player(self) -> str:
        text = self.cleaned_data["player"]
        if not text:
            return ""
        cleaned = clean_text(text, 100)
        # Digits past what a database integer holds are no id: the filter finds what it
        # finds for an id nothing has (``players_named`` asks ids through ``clubs.ids``).
        if cleaned is None:
            raise forms.ValidationError(
                _("Give a player's name (handle or former handle) or id, up to 100 characters.")
            )
        return cleaned


class TokenForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=100, help_text=_("What the token is for."))
    scopes = forms.MultipleChoiceField(
        label=_("Scopes"),
        choices=ApiToken.Scope.choices,
        initial=["read"],
        widget=forms.CheckboxSelectMultiple,
    )


class UploadStatusForm(forms.Form):
    status = forms.ChoiceField(
        label=_("Status"), required=False, choices=[("", _("any")), *Upload.Status.choices]
    )


class SignupForm(UserCreationForm):
    """A new account: a name no one has (whatever its case) and a password the site's
    validators accept, written twice. The view hands what it checked to ``account_create``
    (the form's own ``save`` is not used)."""

    class Meta(UserCreationForm.Meta):
        formfield_callback = labelled_formfield  # no capital for a Georgian label


class SignInForm(AuthenticationForm):
    """Django's sign-in form, its name's label with no capital for a Georgian letter."""

    def __init__(self, request=None, *args, **kwargs):
        super().__init__(request, *args, **kwargs)
        self.fields["username"].label = capfirst(self.username_field.verbose_name)


class ReasonForm(forms.Form):
    reason = forms.CharField(label=_("Reason"), max_length=500, required=False)


class HandleForm(forms.Form):
    handle = forms.CharField(label=_("New handle"), max_length=100)


class MergeForm(forms.Form):
    """The player to merge into: by id, or by handle as the manage page types it (one list
    of the club's handles serves every row, where a list per row made the page grow with
    the square of the players)."""

    into = forms.IntegerField(
        label=_("Merge into player"), min_value=1, max_value=2**63 - 1, required=False
    )
    into_handle = forms.CharField(label=_("Merge into player"), max_length=100, required=False)
