"""Create demo clubs with owners, admins and members, a pending join request, their players,
and send simulated matches through the real upload pipeline: every preset, 2 to 4
players, partnerships, and a few broken logs. The demo user is a member of every demo club
and owns the first.

Each upload is stored before the demo goes on (``demo_upload``), whether or not workers run:
the command processes it itself, and when a worker took the prompt first (the production
way, workers idle and waiting) it waits for that worker's run. What comes next reads those
matches (the season's events, the league's legs), and an operator expects the demo to be
there, whole, when the command says it is done: waiting for the workers alone would make the
demo depend on them being up (and fail when they are not), and building matches outside the
pipeline would show something other than what the archive does. The lease of each upload
decides who stores it, so nothing is stored twice. A worker that died holding one lets its
lease run out (``FIVES_LEASE_SECONDS``) and the command stores it; one still storing after
``--wait`` seconds stops the command, saying so (run it again with ``--force``: the same
documents are the same uploads). The figures (statistics, ratings) follow from their own
queues' workers, as for any upload.
"""

from __future__ import annotations

import copy
import json
import random

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from clubs.models import Club, Membership
from clubs.services import club_create, join_request_create
from fives_engine import PRESETS, to_table_record
from fives_engine.simulate import simulate_match
from games.models import Match, Upload
from games.services.ingest import UploadHeld, upload_settle
from games.services.uploads import upload_create
from recorder.live import live_steps_put, steps_of

CLUBS = ["Tbilisi Fives Club", "Клуб домино «Пятёрочка»", "Kutaisi Muggins Society"]
SLUGS = ["tbilisi-fives-club", "pyatyorochka", "kutaisi-muggins-society"]
# Where each club plays: its times are shown in its zone.
ZONES = ["Asia/Tbilisi", "Europe/Moscow", "Asia/Tbilisi"]
# (owner, admin, member) of each club after the first, which the demo user owns; people
# made here cannot sign in (no password).
PEOPLE = [
    (None, "demo-tamar", "demo-levan"),
    ("demo-olga", "demo-ivan", None),
    ("demo-nino", None, "demo-luka"),
]
ASKS_TO_JOIN = "demo-giorgi"
# Two more handles of the first club: one provisional, one inactive, in its ranking.
NEWCOMER, VETERAN = "Ketevan", "Zurab"
NAMES = [
    ["Nino", "Giorgi", "Tamar", "Levan", "Mariam", "Davit"],
    ["Ольга", "Иван", "Мария", "Сергей", "Анна", "Павел"],
    ["ნინო", "გიორგი", "თამარი", "ლევანი", "Ana", "Luka"],
]
# The tables (players, partnerships) at which the demo plays each preset of the engine's
# table: a preset not named here is played by two, and by four in partnerships.
TABLES_OF = {
    "all-fives": [(2, False), (4, True), (3, False)],
    "muggins": [(2, False), (3, False), (4, True)],
    "all-threes": [(2, False)],
    "fives-and-threes": [(2, False), (4, True)],
}
# A ruleset that changes a preset's option, as a club may.
VARIANTS = [({"base": "muggins", "target": 100}, 4, False)]
TABLES = [
    (preset, players, teams)
    for preset in PRESETS
    for players, teams in TABLES_OF.get(preset, [(2, False), (4, True)])
] + VARIANTS
# Seconds the demo waits for a worker storing one of its uploads: longer than a lease
# (FIVES_LEASE_SECONDS, 60), so a worker that died is outlasted and its upload stored here.
WAIT = 180.0


def wait_argument(parser) -> None:
    """``--wait``, of every demo command that stores uploads (``demo_upload``)."""
    parser.add_argument(
        "--wait",
        type=float,
        default=WAIT,
        help="seconds to wait for a worker storing one of the demo's uploads",
    )


def demo_upload(*, wait: float = WAIT, **sent) -> Upload:
    """Send a document through the upload service (``sent``: upload_create's arguments) and
    return its upload once stored: here, or by the worker that took it first."""
    upload = upload_create(**sent)
    try:
        upload = upload_settle(upload_id=upload.pk, wait=wait)
    except UploadHeld as held:
        raise CommandError(
            f"Upload {upload.pk} is still being stored by a worker after {wait:g} s, and the "
            "demo needs its matches to go on. See the uploads workers' log, then run the "
            "demo again with --force (nothing is stored twice), or give it longer with --wait."
        ) from held
    if upload.status == Upload.Status.FAILED:
        raise CommandError(f"Upload {upload.pk} failed, so the demo stops: {upload.failure}")
    return upload


class Command(BaseCommand):
    help = (
        "Load demo data through the upload pipeline (only into an empty archive, unless --force)."
    )

    def _uploader(self):
        """The user the demo uploads belong to: ``demo`` with its known password only with
        DEBUG on (a machine of one's own); otherwise ``demo-data``, who cannot sign in."""
        user_model = get_user_model()
        if not settings.DEBUG:
            user, created = user_model.objects.get_or_create(username="demo-data")
            if created:
                user.set_unusable_password()
                user.save(update_fields=["password"])
            self.stdout.write(
                "DEBUG is off: the demo data belongs to demo-data, who cannot sign in "
                "(the user demo is made only with DEBUG=1)."
            )
            return user
        user = user_model.objects.filter(username="demo").first()
        if user is None:
            user = user_model.objects.create_user("demo", password="demo-fives")
            self.stdout.write("Created the user demo (password demo-fives) for this machine.")
        return user

    def add_arguments(self, parser):
        parser.add_argument("--matches", type=int, default=300)
        parser.add_argument("--seed", type=int, default=2026)
        parser.add_argument("--force", action="store_true", help="load even if matches exist")
        wait_argument(parser)

    def handle(self, *args, matches: int, seed: int, force: bool, wait: float, **options):
        if Match.objects.exists() and not force:
            self.stdout.write("The archive already has matches: no demo data loaded.")
            return
        user = self._uploader()
        rng = random.Random(seed)
        lines_by_club: dict[str, list[bytes]] = {name: [] for name in CLUBS}
        for number in range(matches):
            club_index = number % len(CLUBS)
            ruleset, players, teams = TABLES[number % len(TABLES)]
            names = rng.sample(NAMES[club_index], players)
            doc = simulate_match(
                ruleset,
                players,
                teams=teams,
                seed=rng.getrandbits(32),
                bots=rng.choice([("greedy",), ("greedy", "random"), ("random",)]),
                names=names,
            )
            doc["id"] = f"demo-{seed}-{number}"
            doc["club"] = CLUBS[club_index]
            doc["played_at"] = (
                f"2026-{1 + number % 11:02d}-{1 + number % 28:02d}T19:{number % 60:02d}:00+04:00"
            )
            doc["event"] = "Demo league"
            lines_by_club[CLUBS[club_index]].append(json.dumps(doc, ensure_ascii=False).encode())
        lines_by_club[CLUBS[0]] += self._newcomer_and_veteran(rng, seed)
        broken = self._broken(json.loads(lines_by_club[CLUBS[0]][0]))
        clubs = self._clubs(user)
        for name, lines in lines_by_club.items():
            club = clubs[name]
            for start in range(0, len(lines), 50):
                chunk = lines[start : start + 50]
                upload = demo_upload(
                    wait=wait,
                    uploader=user,
                    data=b"\n".join(chunk) + b"\n",
                    kind="ndjson",
                    club=club,
                )
                self.stdout.write(f"{upload}: {upload.item_count} matches")
        for label, data in broken:
            upload = demo_upload(wait=wait, uploader=user, data=data, kind="json")
            self.stdout.write(f"{upload}: {label}")
        self._waiting_for_approval(rng, seed, clubs[CLUBS[0]], wait)
        self.stdout.write(self.style.SUCCESS(f"{Match.objects.count()} matches in the archive."))
        call_command("demo_season", stdout=self.stdout)  # a season with standings
        call_command("demo_events", wait=wait, stdout=self.stdout)  # a round-robin and a cup
        call_command("demo_league", wait=wait, stdout=self.stdout)  # a small team league
        call_command("demo_analysis", stdout=self.stdout)  # a few matches analysed
        self._live_table(rng, user, clubs[CLUBS[0]])

    def _live_table(self, rng: random.Random, user, club: Club) -> None:
        """A table playing now, half-way through its match, recorded by ``user``: the club
        night's page (/clubs/<slug>/live/) and the live match's page show it."""
        doc = to_table_record(
            simulate_match("all-fives", 2, seed=rng.getrandbits(32), names=NAMES[0][:2])
        )
        doc.pop("final_scores", None)
        doc.pop("event", None)
        doc.update(id="demo-live-table", club=club.name, source="fives recorder")
        setup, steps = steps_of(doc)
        live_steps_put(
            user=user, club=club, record_id=doc["id"], setup=setup, start=0,
            steps=steps[: len(steps) // 2],
        )  # fmt: skip
        self.stdout.write(f"A live table in {club}: /clubs/{club.slug}/live/")

    def _waiting_for_approval(self, rng: random.Random, seed: int, club: Club, wait: float) -> None:
        """The first club approves its members' matches from now on, and a member has sent
        a night of six: the club's owner (the demo user) finds them on the club's admin page,
        to approve in one action (its earlier matches were counted before it asked)."""
        club.requires_approval = True
        club.save(update_fields=["requires_approval"])
        member = self._person(PEOPLE[0][2])
        lines = []
        for number in range(6):
            doc = simulate_match(
                "muggins", 2, seed=rng.getrandbits(32), names=rng.sample(NAMES[0], 2)
            )
            doc["id"] = f"demo-{seed}-waiting-{number}"
            doc["club"] = CLUBS[0]
            doc["played_at"] = f"2026-11-27T{19 + number // 3}:{(number % 3) * 20:02d}:00+04:00"
            doc["event"] = "Demo league"
            lines.append(json.dumps(doc, ensure_ascii=False).encode())
        upload = demo_upload(
            wait=wait, uploader=member, data=b"\n".join(lines) + b"\n", kind="ndjson", club=club
        )
        self.stdout.write(f"{upload}: {upload.item_count} matches waiting for approval")

    def _newcomer_and_veteran(self, rng: random.Random, seed: int) -> list[bytes]:
        """Matches that put the first club's ranking in all three of its groups: a newcomer
        with three matches this November (provisional: fewer than 10 rated), and a veteran
        whose twelve matches are all from 2025 (inactive: none for 180 days)."""
        lines = []
        plan = [(NEWCOMER, f"2026-11-{10 + n:02d}") for n in range(3)]
        plan += [(VETERAN, f"2025-{3 + n // 4:02d}-{1 + 7 * (n % 4):02d}") for n in range(12)]
        for number, (name, day) in enumerate(plan):
            doc = simulate_match(
                "all-fives",
                2,
                seed=rng.getrandbits(32),
                bots=rng.choice([("greedy",), ("greedy", "random"), ("random", "greedy")]),
                names=[name, rng.choice(NAMES[0])],
            )
            doc["id"] = f"demo-{seed}-{name.lower()}-{number}"
            doc["club"] = CLUBS[0]
            doc["played_at"] = f"{day}T20:00:00+04:00"
            doc["event"] = "Demo league"
            lines.append(json.dumps(doc, ensure_ascii=False).encode())
        return lines

    def _person(self, username: str):
        user, created = get_user_model().objects.get_or_create(username=username)
        if created:
            user.set_unusable_password()
            user.save(update_fields=["password"])
        return user

    def _clubs(self, user) -> dict[str, Club]:
        """Make the demo clubs (or find them): the demo user owns the first and is a member
        of the others; each has an admin or a member more, the first a pending request."""
        clubs: dict[str, Club] = {}
        for name, slug, zone, (owner, admin, member) in zip(
            CLUBS, SLUGS, ZONES, PEOPLE, strict=True
        ):
            club = Club.objects.filter(name=name).first()
            if club is None:
                club = club_create(
                    owner=self._person(owner) if owner else user,
                    name=name,
                    slug=slug,
                    time_zone=zone,
                )
            for username, role in (
                (admin, Membership.Role.ADMIN),
                (member, Membership.Role.MEMBER),
            ):
                if username:
                    Membership.objects.get_or_create(
                        club=club, user=self._person(username), defaults={"role": role}
                    )
            Membership.objects.get_or_create(
                club=club, user=user, defaults={"role": Membership.Role.MEMBER}
            )
            clubs[name] = club
        first = clubs[CLUBS[0]]
        if not first.is_member(self._person(ASKS_TO_JOIN)):
            join_request_create(
                user=self._person(ASKS_TO_JOIN), club=first, message="I play on Thursdays."
            )
        return clubs

    def _broken(self, good: dict) -> list[tuple[str, bytes]]:
        """Return a handful of broken documents, each wrong in its own way."""
        out = [("not-json", b'{"format": "fives/1", "players": ['), ("empty", b"")]
        wrong_format = dict(good, format="fives/2", id="demo-broken-format")
        out.append(("not-fives", json.dumps(wrong_format).encode()))
        illegal = copy.deepcopy(good)
        illegal["id"] = "demo-broken-turn"
        first = illegal["hands"][0]["moves"][1]
        first["seat"] = (first["seat"] + 1) % len(illegal["players"])
        out.append(("out-of-turn", json.dumps(illegal).encode()))
        claims = copy.deepcopy(good)
        claims["id"] = "demo-claims"
        claims["final_scores"] = [score + 5 for score in claims["final_scores"]]
        out.append(("claims-differ", json.dumps(claims).encode()))
        return out
