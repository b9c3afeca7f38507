"""The inbox's pages (issue 36): what waits on the signed-in person, their email settings
(beside the API tokens' page), and the unsubscribe page an email's link opens without
signing in. Thin views: the rules are in ``competitions.inbox``."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.csrf import csrf_exempt

from . import inbox


class EmailSettingsForm(forms.Form):
    email = forms.EmailField(
        label=gettext_lazy("Your email address"),
        required=False,
        max_length=254,
        help_text=gettext_lazy("Without one, the archive sends you nothing."),
    )
    wanted = forms.MultipleChoiceField(
        label=gettext_lazy("Send me an email about"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["wanted"].choices = list(inbox.email_kinds().items())


@login_required
def inbox_page(request):
    """Everything that waits on the signed-in person, each with the link that does it."""
    items = inbox.inbox_for(request.user)
    # The badge counts these items: given here, the context processor does not ask every
    # kind of item again (half of this page's time).
    return render(request, "competitions/inbox.html", {"items": items, "inbox_count": len(items)})


@login_required
def email_settings(request):
    """The signed-in person's email address and the kinds of email they get."""
    chosen = inbox.settings_of(request.user)
    kinds = inbox.email_kinds()
    initial = {
        "email": request.user.email,
        "wanted": [] if inbox.ALL in chosen.off else [k for k in kinds if k not in chosen.off],
    }
    form = EmailSettingsForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        inbox.email_address_set(user=request.user, email=form.cleaned_data["email"])
        inbox.emails_choose(user=request.user, wanted=form.cleaned_data["wanted"])
        messages.success(request, _("Your email settings are saved."))
        return redirect("competitions:email-settings")
    return render(request, "competitions/email_settings.html", {"form": form})


@csrf_exempt  # the token is the proof; RFC 8058's one-click POST comes with no cookie
def unsubscribe_page(request, token: str):
    """GET: say what the link turns off, with a button; POST (the button, or a mail
    client's one-click ``List-Unsubscribe=One-Click``): turn it off. No sign-in."""
    found = inbox.unsubscribe_read(token) if len(token) < 400 else None
    if found is None:
        return render(request, "competitions/unsubscribe.html", {"forged": True}, status=404)
    user, kind = found
    everything = request.POST.get("what") == inbox.ALL or kind == inbox.ALL
    done = request.method == "POST"
    if done:
        inbox.unsubscribe(user=user, kind=inbox.ALL if everything else kind)
    return render(
        request,
        "competitions/unsubscribe.html",
        {
            "done": done,
            "everything": everything,
            "kind_name": inbox.email_kinds().get(kind, ""),
            "all": inbox.ALL,
        },
    )
