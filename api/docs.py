"""The API's documentation in the reader's language (``/api/docs/``, ``/api/schema/``).

The schema is made in the language of the request (``?lang=en|ru|ka``, else the sign-in
cookie or ``Accept-Language``, as every page). Its title and description are the settings'
(``SPECTACULAR_SETTINGS``), its descriptions and summaries the views' docstrings and the
``OpenApiParameter``/``extend_schema`` texts: each is looked up in the message catalogues
(``locale/*/LC_MESSAGES/django.po``) by its English text, so a docstring is written once, in
English, and its translations are entries of the catalogues (``tests/test_georgian.py`` checks
that every one has them). Swagger UI's own words (Try it out, Execute) are its own, in English.
"""

from __future__ import annotations

from typing import Any

from django.utils import translation
from drf_spectacular.plumbing import set_query_parameters
from drf_spectacular.views import SpectacularSwaggerView

from clubs.capitals import MTAVRULI

# The keys of the schema whose values are words for people.
WORDS = ("description", "summary", "title")


def in_language(result: dict, generator: Any, request: Any, public: bool) -> dict:
    """Return the schema with its descriptions, summaries and titles in the active language
    (a drf-spectacular postprocessing hook)."""
    return _translated(result)


def _translated(node: Any) -> Any:
    if isinstance(node, dict):
        return {
            key: _words(value) if key in WORDS and isinstance(value, str) else _translated(value)
            for key, value in node.items()
        }
    if isinstance(node, list):
        return [_translated(value) for value in node]
    return node


def _words(text: str) -> str:
    text = translation.gettext(text) if text else text
    # A field's title is DRF's capfirst of its model field's verbose_name, which makes a
    # Georgian first letter Mtavruli (see clubs.capitals): it is given back its own letter.
    if text and ord(text[0]) in MTAVRULI:
        text = text[0].lower() + text[1:]
    return text


class DocsView(SpectacularSwaggerView):
    """Swagger UI around the schema in the page's language."""

    def _get_schema_url(self, request) -> str:
        url = super()._get_schema_url(request)
        if request.GET.get("lang"):
            return url
        return set_query_parameters(url, lang=translation.get_language())
