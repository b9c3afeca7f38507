"""Template filters of the audit trail (``{% load audit %}``)."""

from django import template

from clubs.audit import audit_sentence

register = template.Library()


@register.filter
def sentence(entry) -> str:
    """Return an audit entry in words."""
    return audit_sentence(entry)
