"""Template filters of the archive's pages."""

from django import template

from games.presentation import ERROR_TITLES

register = template.Library()


@register.filter
def error_title(code: str) -> str:
    """Return the title in words of an error or warning code."""
    return ERROR_TITLES.get(code, code)
