"""Forms of the pages: the upload form and the match filters."""

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from games.engine import PRESETS

from .models import ApiToken, Club, Match, Upload
from .services.uploads import sniff_kind


class UploadForm(forms.Form):
    text = forms.CharField(
        label=_("Paste a match log (fives/1 JSON) or NDJSON lines"),
        widget=forms.Textarea(attrs={"rows": 12, "spellcheck": "false"}),
        required=False,
    )
    file = forms.FileField(
        label=_("…or choose a .json or .ndjson file"),
        required=False,
        widget=forms.ClearableFileInput(attrs={"accept": ".json,.ndjson,.jsonl"}),
    )
    club = forms.ModelChoiceField(
        label=_("Club"),
        queryset=Club.objects.all(),
        required=False,
        empty_label=_("The club the log names"),
    )

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
    club = forms.SlugField(label=_("Club"), required=False, allow_unicode=True)
    # Bounded to what a database integer holds: beyond it, a 400, not an overflow.
    player = forms.IntegerField(label=_("Player"), required=False, min_value=1, max_value=2**63 - 1)
    ruleset = forms.ChoiceField(
        label=_("Ruleset"),
        required=False,
        choices=[("", _("any"))] + [(name, name) for name in PRESETS],
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


class TokenForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=100, help_text=_("What the token is for."))
    scopes = forms.MultipleChoiceField(
        label=_("Scopes"),
        choices=ApiToken.Scope.choices,
        initial=["read"],
        widget=forms.CheckboxSelectMultiple,
    )
