from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ClubsConfig(AppConfig):
    name = "clubs"
    label = "clubs"
    verbose_name = _("Clubs")

    def ready(self) -> None:
        # What a club's admins do to the archive's rows is written in its audit trail, in
        # the transaction of the change: games announces it, clubs keeps the record.
        from games import signals

        from . import receivers

        for signal, receiver in (
            (signals.matches_reviewed, receivers.on_matches_reviewed),
            (signals.player_renamed, receivers.on_player_renamed),
            (signals.player_merging, receivers.on_player_merging),
            (signals.upload_deleting, receivers.on_upload_deleting),
            (signals.upload_running_again, receivers.on_upload_running_again),
        ):
            signal.connect(receiver, dispatch_uid=f"clubs-{receiver.__name__}")
