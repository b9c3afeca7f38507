from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ClubsConfig(AppConfig):
    name = "clubs"
    label = "clubs"
    verbose_name = _("Clubs")

    def ready(self) -> None:
        from django.urls.converters import get_converters, register_converter

        from . import audit_words
        from .hooks import AUDIT_ACTIONS
        from .ids import IdConverter

        # The club's own actions of the audit trail, with their words (clubs.audit); clubs
        # is ready before games (INSTALLED_APPS), so the trail lists them first.
        AUDIT_ACTIONS.fill(*audit_words.ACTIONS)

        # ``<id:...>`` of every URL conf: an id past the database's integers is a 404
        # (clubs.ids). Registered here, before any URL conf is read (Django 6 refuses to
        # replace the built-in ``int``).
        if "id" not in get_converters():  # ready() twice (a test's own registry) is no error
            register_converter(IdConverter, "id")
