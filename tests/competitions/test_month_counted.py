"""Issue 36, goal: a cup's champion, a round-robin's table and a season's standings equal, on
the page, in the CSV and in the API answer, what an independent count makes of the matches
the uploaders assigned, over a generated month of a club, its matches uploaded out of order,
some of them able to fill two events.

The month (October, Tbilisi): a round-robin of five on the 3rd, every fixture played, half
of its matches naming it and the rest by day, and one pair playing a second time; a cup of
six from the 10th to the 20th (its two best seeds on byes), its first round by day, its
semi-finals naming their round, its final by day; a second club night of the cup's two best
seeds on the 10th, so that their match of that morning could count for either and counts for
neither, and a match naming it. The expected tables are counted here from the generated logs
(the engine's own reports give each winner and score), never from what the archive stored."""

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

from competitions.tournaments import tournament_make, tournament_schedule
from fives_engine import validate_log
from fives_engine.simulate import simulate_match
from games.models import Match
from games.services.ingest import upload_process
from games.services.uploads import upload_create
from tests.competitions.test_events import players

pytestmark = pytest.mark.django_db

RULESET = {"base": "muggins", "target": 50}
SLUG = "tbilisi-fives-club"


class Logs:
    """The month's logs as generated, each with its result as the engine reports it."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.docs: list[dict] = []

    def play(self, a: str, b: str, at: str, event: str = "") -> dict:
        doc = simulate_match(RULESET, 2, seed=self.rng.getrandbits(32), names=[a, b])
        doc |= {"id": f"month-{len(self.docs)}", "club": "Tbilisi Fives Club", "played_at": at}
        doc.pop("event", None)
        if event:
            doc["event"] = event
        report = validate_log(doc)
        assert report.valid and report.winner is not None
        played = {
            "doc": doc,
            "players": (a, b),
            "winner": (a, b)[report.winner],
            "scores": {a: report.scores[0], b: report.scores[1]},
        }
        self.docs.append(played)
        return played


def table_of(matches: list[dict]) -> dict[str, dict[str, int]]:
    """Count a table from matches: played, won, lost, points for and against, difference,
    league points (3 a win, 0 a loss)."""
    rows: dict[str, dict[str, int]] = defaultdict(
        lambda: dict.fromkeys(("played", "won", "lost", "for", "against"), 0)
    )
    for match in matches:
        a, b = match["players"]
        for me, other in ((a, b), (b, a)):
            row = rows[me]
            row["played"] += 1
            row["won"] += match["winner"] == me
            row["lost"] += match["winner"] != me
            row["for"] += match["scores"][me]
            row["against"] += match["scores"][other]
    for row in rows.values():
        row["difference"] = row["for"] - row["against"]
        row["points"] = 3 * row["won"]
    return dict(rows)


class Cells(HTMLParser):
    """The rows of the first table of a page, each a list of its cells' text."""

    def __init__(self, table_class: str):
        super().__init__()
        self.table_class, self.depth, self.rows, self.cell = table_class, 0, [], None

    def handle_starttag(self, tag, attrs):
        classes = (dict(attrs).get("class") or "").split()
        if tag == "table" and self.table_class in classes and not self.rows:
            self.depth = 1
        elif self.depth and tag == "tr":
            self.rows.append([])
        elif self.depth and tag in ("td", "th"):
            self.cell = []

    def handle_endtag(self, tag):
        if self.depth and tag in ("td", "th") and self.cell is not None:
            self.rows[-1].append(" ".join("".join(self.cell).split()))
            self.cell = None
        elif tag == "table" and self.depth:
            self.depth = 0

    def handle_data(self, data):
        if self.cell is not None:
            self.cell.append(data)


def page_table(html: str, table_class: str, columns: dict[str, str]) -> dict[str, dict]:
    """Read a page's table by its English column heads (``columns``: head -> key)."""
    parser = Cells(table_class)
    parser.feed(html)
    head, *body = parser.rows
    where = {columns[text]: index for index, text in enumerate(head) if text in columns}
    name_at = head.index("Player")
    return {row[name_at]: {key: int(row[i]) for key, i in where.items()} for row in body}


def the_month(owner, autumn) -> dict:
    rng = random.Random(36)
    club = autumn.club
    night_players = ["Ana", "Beka", "Ciko", "Dato", "Eka"]
    cup_players = ["Ana", "Beka", "Ciko", "Dato", "Eka", "Gela"]
    ids = dict(zip(cup_players, players(owner, club, cup_players), strict=True))
    days = {"first_day": date(2026, 10, 3), "last_day": date(2026, 10, 3)}
    night = tournament_make(
        actor=owner,
        season=autumn,
        name="Night one",
        kind="round-robin",
        player_ids=[ids[name] for name in night_players],
        **days,
    )
    cup = tournament_make(
        actor=owner,
        season=autumn,
        name="October cup",
        kind="knockout",
        first_day=date(2026, 10, 10),
        last_day=date(2026, 10, 20),
        player_ids=list(ids.values()),
    )
    seeds = [p["name"] for p in tournament_schedule(cup)["players"]]
    second = tournament_make(
        actor=owner,
        season=autumn,
        name="Night two",
        kind="round-robin",
        first_day=date(2026, 10, 10),
        last_day=date(2026, 10, 10),
        player_ids=[ids[seeds[0]], ids[seeds[1]]],
    )
    logs = Logs(rng)
    # Night one: every pair once on the 3rd (19:00 Tbilisi is 15:00 UTC), half named.
    fixtures = [f for r in tournament_schedule(night)["rounds"] for f in r["fixtures"]]
    night_matches = [
        logs.play(
            f["a_name"],
            f["b_name"],
            f"2026-10-03T{15 + i // 4}:{(i % 4) * 15:02d}:00Z",
            "Night one" if i % 2 else "",
        )
        for i, f in enumerate(fixtures)
    ]
    again = logs.play(
        night_matches[0]["players"][1], night_matches[0]["players"][0], "2026-10-03T19:30:00Z"
    )
    # The morning of the 10th: the two best seeds play, naming nothing (either night two's
    # or, were they the final's pair, the cup's: it counts for neither), then name night two.
    either = logs.play(seeds[0], seeds[1], "2026-10-10T05:00:00Z")
    named_two = logs.play(seeds[1], seeds[0], "2026-10-10T06:00:00Z", "night two")
    # The cup: 1 v bye, 4 v 5, 2 v bye, 3 v 6; then 1 v (4|5), 2 v (3|6); the final.
    first = [logs.play(seeds[3], seeds[4], "2026-10-10T15:00:00Z")]
    first.append(logs.play(seeds[2], seeds[5], "2026-10-10T16:00:00Z"))
    semis = [
        logs.play(seeds[0], first[0]["winner"], "2026-10-15T15:00:00Z", "October cup, round 2"),
        logs.play(seeds[1], first[1]["winner"], "2026-10-15T16:00:00Z", "October cup, Round 2"),
    ]
    # The finalists also met on the 12th, before their semi-finals: that decides nothing.
    finalists = (semis[0]["winner"], semis[1]["winner"])
    logs.play(*finalists, "2026-10-12T15:00:00Z")
    final = logs.play(*finalists, "2026-10-19T15:00:00Z")
    return {
        "logs": logs.docs,
        "events": {"night": night, "cup": cup, "second": second},
        "night": night_matches,
        "again": again,
        "either": either,
        "named_two": named_two,
        "cup_matches": [*first, *semis, final],
        "final": final,
    }


def upload_out_of_order(owner, month, capture) -> None:
    shuffled = list(month["logs"])
    random.Random(7).shuffle(shuffled)
    with capture(execute=True):
        for played in shuffled:
            data = json.dumps(played["doc"]).encode()
            upload = upload_create(uploader=owner, data=data, kind="json")
            upload_process(upload_id=upload.pk)


def test_a_month_of_a_club_counts_as_an_independent_count_on_page_csv_and_api(
    owner, autumn, django_capture_on_commit_callbacks
):
    month = the_month(owner, autumn)
    upload_out_of_order(owner, month, django_capture_on_commit_callbacks)
    events = month["events"]
    web, api = Client(), APIClient()
    columns = {"P": "played", "W": "won", "L": "lost", "Diff.": "difference", "Pts": "points"}

    # Night one: its ten fixtures' matches, the second meeting of a pair left out.
    expected = table_of(month["night"])
    night = events["night"]
    answer = api.get(f"/api/v1/clubs/{SLUG}/events/{night.pk}/").json()
    served = {row["name"]: row for row in answer["table"]}
    assert {
        name: {k: served[name][k] for k in ("played", "won", "lost", "difference")}
        | {"points": served[name]["league_points"]}
        for name in served
    } == {
        name: {k: row[k] for k in ("played", "won", "lost", "difference", "points")}
        for name, row in expected.items()
    }
    page = web.get(f"/clubs/{SLUG}/events/{night.pk}/").content.decode()
    assert page_table(page, "event-table", columns) == {
        name: {k: row[k] for k in columns.values()} for name, row in expected.items()
    }
    schedule_csv = list(
        csv.DictReader(
            io.StringIO(web.get(f"/clubs/{SLUG}/events/{night.pk}/schedule.csv").content.decode())
        )
    )
    assert sum(row["state"] == "played" for row in schedule_csv) == 10
    assert [item["reason"] for item in answer["passed_over"]] == ["decided"]

    # The cup: the champion is the final's winner; every tie filled by its generated match.
    cup = events["cup"]
    answer = api.get(f"/api/v1/clubs/{SLUG}/events/{cup.pk}/").json()
    assert answer["champion_name"] == month["final"]["winner"]
    ties = {
        frozenset((f["a_name"], f["b_name"])): f
        for r in answer["rounds"]
        for f in r["fixtures"]
        if f["state"] == "played"
    }
    assert set(ties) == {frozenset(m["players"]) for m in month["cup_matches"]}
    for match in month["cup_matches"]:
        tie = ties[frozenset(match["players"])]
        assert tie["winner"] is not None
        winner = tie["a_name"] if tie["winner"] == tie["a"] else tie["b_name"]
        assert winner == match["winner"]
        assert Match.objects.get(pk=tie["match_id"]).external_id == match["doc"]["id"]
    page = web.get(f"/clubs/{SLUG}/events/{cup.pk}/").content.decode()
    assert f"Winner: {month['final']['winner']}" in page
    cup_csv = list(
        csv.DictReader(
            io.StringIO(web.get(f"/clubs/{SLUG}/events/{cup.pk}/schedule.csv").content.decode())
        )
    )
    final_row = [row for row in cup_csv if row["state"] == "played"][-1]
    assert final_row["winner"] == month["final"]["winner"]
    # The morning match of the best two could count for night two as well: for neither.
    passed = [item["reason"] for item in answer["passed_over"]]
    assert "too-early" in passed and set(passed) <= {"other-event", "too-early"}

    # Night two: the named match alone; the morning's is passed over as ambiguous.
    second = events["second"]
    answer = api.get(f"/api/v1/clubs/{SLUG}/events/{second.pk}/").json()
    assert answer["played"] == 1
    assert [item["reason"] for item in answer["passed_over"]] == ["other-event"]
    assert {row["name"]: row["won"] for row in answer["table"]} == {
        name: int(month["named_two"]["winner"] == name) for name in month["named_two"]["players"]
    }

    # The season: every generated match of October counts (the warm-ups were in January).
    expected = table_of(month["logs"])
    answer = api.get(f"/api/v1/clubs/{SLUG}/seasons/{autumn.pk}/").json()
    served = {
        row["name"]: {
            "played": row["played"],
            "won": row["won"],
            "lost": row["lost"],
            "for": row["points_for"],
            "against": row["points_against"],
            "difference": row["difference"],
            "points": row["league_points"],
        }
        for row in answer["rows"]
    }
    assert served == expected
    season_columns = columns | {"For": "for", "Against": "against"}
    page = web.get(f"/clubs/{SLUG}/seasons/{autumn.pk}/").content.decode()
    assert page_table(page, "standings", season_columns) == {
        name: {k: row[k] for k in season_columns.values()} for name, row in expected.items()
    }
    standings = list(
        csv.DictReader(
            io.StringIO(
                web.get(f"/clubs/{SLUG}/seasons/{autumn.pk}/standings.csv").content.decode()
            )
        )
    )
    assert {row["name"]: int(row["league_points"]) for row in standings} == {
        name: row["points"] for name, row in expected.items()
    }
