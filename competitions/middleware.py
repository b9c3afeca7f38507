"""The language a signed-in person reads the pages in, kept for their emails
(``NoticeSettings.language``, read by ``competitions.inbox``): written when it changes, so a
page costs no query (the session remembers what was written)."""

from __future__ import annotations

from django.utils.translation import get_language

from .inbox import language_remember

SESSION_KEY = "fives_email_language"


class RememberLanguageMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        # A signed-in session only: an API token's request is no page the person reads.
        if user is not None and user.is_authenticated:
            language = get_language() or ""
            if request.session.get(SESSION_KEY) != language:
                language_remember(user, language)
                request.session[SESSION_KEY] = language
        return self.get_response(request)
