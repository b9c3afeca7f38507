"""``makemessages`` that also collects the engine's messages.

The engine (``engine/fives_engine``) imports nothing from Django, so it marks its message
templates with its own no-op ``N_()``; xgettext is told to collect that keyword too.
"""

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [*makemessages.Command.xgettext_options, "--keyword=N_"]
