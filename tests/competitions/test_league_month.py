"""Issue 36, goal (the league's half): a league's table equals, on its page, in its CSV and
in the API answer, what an independent count makes of the matches the uploaders assigned to
its legs, over a generated month of a league of four teams from two clubs.

October: Tbilisi A and B, Moscow A and B, two singles legs a fixture, scored as Leek scores
(2 for the match, 1 for a draw, 1 a leg won). Each week's fixtures are played on a
Saturday; each leg is a generated log that names its leg in ``event`` (some in other
cases), stored by the home club and uploaded, with the rest of the month's logs, in a
shuffled order. The home captain submits the legs through the API and the away captain
confirms them; one fixture is a walkover, one waits for confirmation and one is disputed
(neither counts). The expected table is counted here from the generated logs (the engine's
own report gives each leg's winner), never from what the archive stored."""

from __future__ import annotations

import csv
import io
import json
import random
from collections import defaultdict
from datetime import date
from html.parser import HTMLParser

import pytest
from django.test import Client
from rest_framework.test import APIClient

from clubs.models import Club
from competitions.league_points import SCHEME_BY_SLUG
from competitions.league_services import (
    fixture_make,
    league_accept,
    league_invite,
    league_make,
    team_make,
)
from fives_engine import validate_log
from fives_engine.simulate import simulate_match
from games.models import Match, Player
from games.services.ingest import upload_process
from games.services.uploads import upload_create
from tests.competitions.test_leagues import players
from tests.conftest import join

pytestmark = pytest.mark.django_db

RULESET = {"base": "muggins", "target": 50}
CLUBS = {"Tbilisi": ("tbilisi-fives-club", "Tbilisi Fives Club"), "Moscow": ("moscow", "Moscow")}
ROSTERS = {
    "Tbilisi A": ["Nino", "Tamar"],
    "Tbilisi B": ["Levan", "Eka"],
    "Moscow A": ["Ivan", "Olga"],
    "Moscow B": ["Pavel", "Anna"],
}
# (week, home, away, what becomes of it)
FIXTURES = [
    (1, "Tbilisi A", "Moscow A", "confirmed"),
    (1, "Tbilisi B", "Moscow B", "confirmed"),
    (2, "Moscow A", "Tbilisi B", "confirmed"),
    (2, "Moscow B", "Tbilisi A", "confirmed"),
    (3, "Tbilisi A", "Tbilisi B", "confirmed"),
    (3, "Moscow A", "Moscow B", "walkover"),  # Moscow B does not turn up
    (4, "Moscow A", "Tbilisi A", "submitted"),  # never confirmed: counts for nothing
    (4, "Moscow B", "Tbilisi B", "disputed"),  # disputed: counts for nothing
]
SATURDAYS = {
    1: date(2026, 10, 3),
    2: date(2026, 10, 10),
    3: date(2026, 10, 17),
    4: date(2026, 10, 24),
}


def team_club(team: str) -> str:
    return team.split()[0]


@pytest.fixture
def league_world(owner, django_user_model):
    """The league, its four teams and a captain of each: Nino owns both clubs; the
    organiser is Giorgi, of no club."""
    captains = {}
    for team in ROSTERS:
        user = django_user_model.objects.create_user(
            team.lower().replace(" ", "-"), password="a-long-password-36"
        )
        join(user, CLUBS[team_club(team)][0])
        captains[team] = user
    giorgi = django_user_model.objects.create_user("giorgi", password="a-long-password-2")
    league = league_make(
        actor=giorgi,
        name="Two cities",
        legs=["singles", "singles"],
        **SCHEME_BY_SLUG["leek"].points,
    )
    clubs = {name: Club.objects.get(slug=slug) for name, (slug, _) in CLUBS.items()}
    for club in clubs.values():
        league_invite(actor=giorgi, league=league, club=club)
        league_accept(actor=owner, league=league, club=club)
    teams = {}
    for team, names in ROSTERS.items():
        slug = CLUBS[team_club(team)][0]
        teams[team] = team_make(
            actor=giorgi,
            league=league,
            club=clubs[team_club(team)],
            name=team,
            player_ids=players(owner, slug, names),
            captain_ids=[captains[team].pk],
        )
    return league, teams, captains, giorgi


def the_month(league, teams) -> list[dict]:
    """Each fixture's legs as generated logs, with their results as the engine reports."""
    rng = random.Random(3636)
    legs = []
    for index, (week, home, away, fate) in enumerate(FIXTURES):
        fixture = fixture_make(
            actor=league.organiser,
            league=league,
            home=teams[home],
            away=teams[away],
            day=SATURDAYS[week],
        )
        if fate == "walkover":
            legs.append({"fixture": fixture, "fate": fate, "legs": []})
            continue
        played = []
        for number in (1, 2):
            a, b = ROSTERS[home][number - 1], ROSTERS[away][(number + index) % 2]
            doc = simulate_match(RULESET, 2, seed=rng.getrandbits(32), names=[b, a])
            event = f"{league.name}, {home} v {away}, leg {number}"
            doc |= {
                "id": f"league-month-{index}-{number}",
                "club": CLUBS[team_club(home)][1],
                # 15:00 and 16:00 UTC: the evening in Tbilisi and in Moscow alike.
                "played_at": f"{SATURDAYS[week].isoformat()}T{14 + number}:00:00Z",
                "event": event.upper() if number == 2 and index % 3 == 0 else event,
            }
            report = validate_log(doc)
            assert report.valid and report.winner is not None
            winner = (b, a)[report.winner]
            played.append({"doc": doc, "winner": "home" if winner == a else "away"})
        legs.append({"fixture": fixture, "fate": fate, "legs": played})
    return legs


def count_by_hand(month, league) -> dict[str, dict[str, int]]:
    """The table from the generated logs and the league's written rules (docs/leagues.md)."""
    keys = ("played", "won", "drawn", "lost", "for", "against", "points")
    rows = defaultdict(lambda: dict.fromkeys(keys, 0))
    for team in ROSTERS:
        rows[team]  # every team has a row, played or not
    for item in month:
        fixture, fate = item["fixture"], item["fate"]
        home, away = fixture.home.name, fixture.away.name
        if fate == "walkover":
            h, a, gave_up = 2, 0, away
        elif fate == "confirmed":
            h = sum(leg["winner"] == "home" for leg in item["legs"])
            a, gave_up = 2 - h, None
        else:
            continue
        for team, mine, theirs in ((home, h, a), (away, a, h)):
            row = rows[team]
            row["played"] += 1
            row["for"] += mine
            row["against"] += theirs
            row["won" if mine > theirs else "lost" if mine < theirs else "drawn"] += 1
            if team != gave_up:
                row["points"] += (2 if mine > theirs else 1 if mine == theirs else 0) + mine
    return dict(rows)


class TableCells(HTMLParser):
    """The rows of the league page's table, each a list of its cells' text."""

    def __init__(self):
        super().__init__()
        self.inside, self.rows, self.cell = False, [], None

    def handle_starttag(self, tag, attrs):
        if tag == "table" and dict(attrs).get("id") == "league-table":
            self.inside = True
        elif self.inside and tag == "tr":
            self.rows.append([])
        elif self.inside and tag in ("td", "th"):
            self.cell = []

    def handle_endtag(self, tag):
        if self.inside and tag in ("td", "th") and self.cell is not None:
            self.rows[-1].append(" ".join("".join(self.cell).split()))
            self.cell = None
        elif tag == "table":
            self.inside = False

    def handle_data(self, data):
        if self.cell is not None:
            self.cell.append(data)


def test_a_month_of_a_league_counts_as_an_independent_count_on_page_csv_and_api(
    owner, league_world, django_capture_on_commit_callbacks
):
    league, teams, captains, giorgi = league_world
    month = the_month(league, teams)
    logs = [leg["doc"] for item in month for leg in item["legs"]]
    random.Random(7).shuffle(logs)
    with django_capture_on_commit_callbacks(execute=True):
        for doc in logs:
            upload = upload_create(uploader=owner, data=json.dumps(doc).encode(), kind="json")
            upload_process(upload_id=upload.pk)

    def api(user=None):
        client = APIClient()
        if user is not None:
            client.force_authenticate(user)
        return client

    base = f"/api/v1/leagues/{league.pk}/fixtures/"
    for item in month:
        fixture, fate = item["fixture"], item["fate"]
        home, away = captains[fixture.home.name], captains[fixture.away.name]
        if fate == "walkover":
            answer = api(giorgi).post(f"{base}{fixture.pk}/walkover/", {"absent": "away"})
            assert answer.status_code == 200, answer.content
            continue
        ids = [Match.objects.get(external_id=leg["doc"]["id"]).pk for leg in item["legs"]]
        answer = api(home).post(f"{base}{fixture.pk}/submit/", {"matches": ids}, format="json")
        assert answer.status_code == 200, answer.content
        # The legs as submitted are the generated legs' results.
        assert [leg["winner"] for leg in answer.json()["legs"]] == [
            leg["winner"] for leg in item["legs"]
        ]
        if fate == "confirmed":
            assert api(away).post(f"{base}{fixture.pk}/confirm/").status_code == 200
        elif fate == "disputed":
            answer = api(away).post(f"{base}{fixture.pk}/dispute/", {"reason": "Wrong day"})
            assert answer.status_code == 200

    expected = count_by_hand(month, league)
    # No leg made a handle of a visiting player in the home club.
    for team, names in ROSTERS.items():
        slug = CLUBS[team_club(team)][0]
        other = next(s for name, (s, _) in CLUBS.items() if s != slug)
        assert not Player.objects.filter(club__slug=other, handle__in=names).exists()

    # The API.
    table = APIClient().get(f"/api/v1/leagues/{league.pk}/").json()["table"]
    served = {
        row["name"]: {
            "played": row["played"],
            "won": row["won"],
            "drawn": row["drawn"],
            "lost": row["lost"],
            "for": row["legs_for"],
            "against": row["legs_against"],
            "points": row["points"],
        }
        for row in table
    }
    assert served == expected
    order = [(-r["points"], -(r["for"] - r["against"]), -r["for"]) for r in expected.values()]
    assert [(-r["points"], -r["difference"], -r["legs_for"]) for r in table] == sorted(order)

    # The page.
    parser = TableCells()
    parser.feed(Client().get(f"/leagues/{league.pk}/").content.decode())
    head, *body = parser.rows
    at = {text: index for index, text in enumerate(head)}
    on_page = {
        row[at["Team"]]: {
            "played": int(row[at["P"]]),
            "won": int(row[at["W"]]),
            "drawn": int(row[at["D"]]),
            "lost": int(row[at["L"]]),
            "for": int(row[at["LF"]]),
            "against": int(row[at["LA"]]),
            "points": int(row[at["Pts"]]),
        }
        for row in body
    }
    assert on_page == expected

    # The CSV.
    rows = csv.DictReader(
        io.StringIO(Client().get(f"/leagues/{league.pk}/table.csv").content.decode())
    )
    in_csv = {
        row["team"]: {
            "played": int(row["played"]),
            "won": int(row["won"]),
            "drawn": int(row["drawn"]),
            "lost": int(row["lost"]),
            "for": int(row["legs_for"]),
            "against": int(row["legs_against"]),
            "points": int(row["points"]),
        }
        for row in rows
    }
    assert in_csv == expected
    # The walkover is Moscow B's: counted, with no point for it.
    assert next(row for row in table if row["name"] == "Moscow B")["conceded"] == 1
