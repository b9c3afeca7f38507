"""Make a personal API token for a user (shown once)."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from games.models import ApiToken
from games.tokens import token_create


class Command(BaseCommand):
    help = "Make a personal API token for USERNAME and print it (it is stored only hashed)."

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("--name", default="command line")
        parser.add_argument(
            "--scope",
            action="append",
            choices=ApiToken.Scope.values,
            help="repeat for several (default: read and upload)",
        )

    def handle(self, *args, username: str, name: str, scope: list[str] | None, **options):
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"no user {username!r}")
        _, key = token_create(user=user, name=name, scopes=scope or ["read", "upload"])
        self.stdout.write(key)
