from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ClubsConfig(AppConfig):
    name = "clubs"
    label = "clubs"
    verbose_name = _("Clubs")

    def ready(self) -> None:
        from django.urls.converters import get_converters, register_converter

        # The club's own actions of the audit trail, with their words (clubs.audit).
        from . import audit_words  # noqa: F401
        from .ids import IdConverter

        # ``<id:...>`` of every URL conf: an id past the database's integers is a 404
        # (clubs.ids). Registered here, before any URL conf is read (Django 6 refuses to
        # replace the built-in ``int``).
        if "id" not in get_converters():  # ready() twice (a test's own registry) is no error
            register_converter(IdConverter, "id")
