"""A club's team leagues, for the club's page (a template of the archive, which does not import
what derives from it: the page asks here)."""

from django import template

from competitions.models import League

register = template.Library()


@register.simple_tag
def club_leagues(club) -> list[League]:
    """Return the team leagues a club plays in (it accepted the invitation), by name."""
    return list(
        League.objects.filter(clubs__club=club, clubs__accepted_at__isnull=False)
        .distinct()
        .order_by("name")
    )
