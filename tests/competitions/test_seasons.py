"""Seasons of a club: the standings held to figures worked out by hand (each tie-break), the
season's days in the club's time zone, the pages and the API (who sees, who opens and
closes), the CSV, and a closed season's frozen table with its note."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from django.core.exceptions import PermissionDenied
from django.core.management import call_command
from django.db import connection
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from clubs.models import Club
from competitions.models import Season
from competitions.seasons import (
    Result,
    Rules,
    parse_place_points,
    season_close,
    season_open,
    standings,
    table_csv,
)
from games.models import Match
from replays.pipeline import matches_review
from tests.replays.helpers import store_match

START = datetime(2026, 10, 1, 19, tzinfo=UTC)
NAMES = {1: "Ana", 2: "Beka", 3: "Ciko", 4: "Dato"}


def match(number: int, *seats: tuple[int, int], scores: tuple[int, ...]) -> list[Result]:
    """The seats of one match: each (player, team); ranks and wins from the scores."""
    out = []
    for player, team in seats:
        rank = 1 + sum(other > scores[team] for other in scores)
        out.append(
            Result(
                match_id=number,
                played_at=START + timedelta(days=number),
                player_id=player,
                name=NAMES.get(player, f"p{player}"),
                team=team,
                rank=rank,
                won=rank == 1,
                scores=scores,
            )
        )
    return out


def figures(table):
    return [
        (
            row.position,
            row.name,
            row.played,
            row.won,
            row.lost,
            row.points_for,
            row.points_against,
            row.difference,
            row.league_points,
            "".join(row.last),
        )
        for row in table
    ]


def test_a_small_season_adds_up_as_worked_out_by_hand():
    results = [
        *match(1, (1, 0), (2, 1), scores=(61, 40)),  # Ana beats Beka
        *match(2, (2, 0), (3, 1), scores=(30, 62)),  # Ciko beats Beka
        *match(3, (1, 0), (3, 1), scores=(55, 61)),  # Ciko beats Ana
        *match(4, (1, 0), (2, 1), (3, 2), scores=(50, 61, 20)),  # three alone: Beka, Ana, Ciko
    ]
    table = standings(results, Rules(win_points=3, loss_points=0, place_points=(3, 2, 1, 0)))
    assert figures(table) == [
        # Ciko: 62+61+20 for, 30+55+(50+61) against; 3+3+1 points.
        (1, "Ciko", 3, 2, 1, 143, 196, -53, 7, "WWL"),
        # Ana: 61+55+50 for, 40+61+(61+20) against; 3+0+2.
        (2, "Ana", 3, 1, 2, 166, 182, -16, 5, "WLL"),
        # Beka: 40+30+61 for, 61+62+(50+20) against; 0+0+3.
        (3, "Beka", 3, 1, 2, 131, 193, -62, 3, "LLW"),
    ]


def test_partners_share_their_side_s_score_and_points():
    results = match(1, (1, 0), (2, 1), (3, 0), (4, 1), scores=(61, 45))
    table = standings(results, Rules(win_points=2, loss_points=1))
    assert figures(table) == [
        (1, "Ana", 1, 1, 0, 61, 45, 16, 2, "W"),
        (2, "Ciko", 1, 1, 0, 61, 45, 16, 2, "W"),
        (3, "Beka", 1, 0, 1, 45, 61, -16, 1, "L"),
        (4, "Dato", 1, 0, 1, 45, 61, -16, 1, "L"),
    ]


def test_points_being_equal_the_difference_decides():
    NAMES.update({11: "Zaza", 12: "Ana"})
    results = [
        *match(1, (11, 0), (2, 1), scores=(61, 11)),  # Zaza +50
        *match(2, (12, 0), (3, 1), scores=(61, 51)),  # Ana +10
    ]
    table = standings(results, Rules())
    assert [(row.name, row.league_points, row.difference) for row in table[:2]] == [
        ("Zaza", 3, 50),
        ("Ana", 3, 10),
    ]


def test_points_and_difference_being_equal_head_to_head_decides():
    NAMES.update({21: "Zurab", 22: "Ana", 23: "Ciko", 24: "Dato"})
    results = [
        *match(1, (21, 0), (22, 1), scores=(61, 51)),  # Zurab beats Ana: +10, -10
        *match(2, (22, 0), (24, 1), scores=(61, 51)),  # Ana beats Dato: Ana 0 in all
        *match(3, (23, 0), (21, 1), scores=(61, 51)),  # Ciko beats Zurab: Zurab 0 in all
    ]
    table = standings(results, Rules())
    # Zurab and Ana: 3 points and 0 each; Zurab won their match, so he goes before her
    # (by name she would go first).
    assert [(row.name, row.league_points, row.difference) for row in table] == [
        ("Ciko", 3, 10),
        ("Zurab", 3, 0),
        ("Ana", 3, 0),
        ("Dato", 0, -10),
    ]


def test_all_else_being_equal_the_name_decides_whatever_its_case():
    NAMES.update({31: "nodar", 32: "Ana", 33: "x", 34: "y"})
    results = [
        *match(1, (31, 0), (33, 1), scores=(61, 51)),
        *match(2, (32, 0), (34, 1), scores=(61, 51)),
    ]
    assert [row.name for row in standings(results, Rules())] == ["Ana", "nodar", "x", "y"]


def test_the_last_five_results_are_the_newest_oldest_first():
    results = []
    for number in range(1, 7):  # Ana wins the odd ones
        scores = (61, 40) if number % 2 else (40, 61)
        results += match(number, (1, 0), (2, 1), scores=scores)
    ana = next(row for row in standings(results, Rules()) if row.name == "Ana")
    assert (ana.played, ana.won, ana.lost, ana.last) == (6, 3, 3, ["L", "W", "L", "W", "L"])


def test_a_place_past_the_list_scores_nothing():
    results = match(1, (1, 0), (2, 1), (3, 2), (4, 3), scores=(61, 50, 40, 30))
    table = standings(results, Rules(place_points=(2, 1)))
    assert [(row.name, row.league_points) for row in table] == [
        ("Ana", 2),
        ("Beka", 1),
        ("Ciko", 0),
        ("Dato", 0),
    ]


def test_points_by_place_are_read_from_what_people_write():
    assert parse_place_points("3/2/1/0") == [3, 2, 1, 0]
    assert parse_place_points("4, 2, 1") == [4, 2, 1]
    assert parse_place_points("") == []
    with pytest.raises(Exception, match="whole numbers"):
        parse_place_points("3/two")


def test_the_csv_has_a_header_and_one_line_a_player():
    table = standings(match(1, (1, 0), (2, 1), scores=(61, 40)), Rules())
    from dataclasses import asdict

    rated = {1: (1500, 1548), 2: (1500, 1452)}

    def rows(table):
        return [
            asdict(row)
            | dict(zip(("rating_start", "rating_end"), rated[row.player_id], strict=True))
            for row in table
        ]

    assert table_csv(rows(table)) == (
        "position,name,played,won,lost,points_for,points_against,difference,league_points,last,"
        "rating_start,rating_end\n"
        "1,Ana,1,1,0,61,40,21,3,W,1500,1548\n"
        "2,Beka,1,0,1,40,61,-21,0,L,1500,1452\n"
    )
    NAMES[41] = "=HYPERLINK(1)"
    rated[41] = (1500, 1548)
    table = standings(match(1, (41, 0), (2, 1), scores=(61, 40)), Rules())
    assert table_csv(rows(table)).splitlines()[1] == (
        "1,'=HYPERLINK(1),1,1,0,61,40,21,3,W,1500,1548"
    )


# --- stored matches, pages and the API ------------------------------------------------------


@pytest.fixture
def tbilisi(owner, django_capture_on_commit_callbacks):
    """The Tbilisi Fives Club (UTC+4) with three matches in October and one each side of it:
    at 01:00 local time on 1 October (still 30 September in UTC) and on 1 November."""
    club = Club.objects.get(slug="tbilisi-fives-club")
    club.time_zone = "Asia/Tbilisi"
    club.save(update_fields=["time_zone"])
    stored = {}
    with django_capture_on_commit_callbacks(execute=True):
        for seed, names, played_at in [
            (1, ["Ana", "Beka"], "2026-09-30T21:00:00+00:00"),  # 1 Oct, 01:00 in Tbilisi
            (2, ["Beka", "Ciko"], "2026-10-15T19:00:00+04:00"),
            (3, ["Ana", "Ciko"], "2026-10-31T23:00:00+04:00"),
            (4, ["Ana", "Beka"], "2026-10-31T21:00:00+00:00"),  # 1 Nov, 01:00 in Tbilisi
            (5, ["Ana", "Beka"], "2026-09-30T19:00:00+00:00"),  # 30 Sep, 23:00 in Tbilisi
        ]:
            stored[seed] = store_match(owner, names, seed=seed, played_at=played_at)
    return club, stored


def october(owner, club, **rules) -> Season:
    return season_open(
        actor=owner,
        club=club,
        name="October 2026",
        first_day=date(2026, 10, 1),
        last_day=date(2026, 10, 31),
        **rules,
    )


def expected_rows(matches: list[Match], win: int = 3, loss: int = 0) -> dict[str, tuple]:
    """Each player's figures from the stored matches' scores and seats (two sides)."""
    out: dict[str, list[int]] = {}
    for stored in matches:
        for seat in stored.seats.select_related("player"):
            mine = stored.scores[seat.team]
            theirs = sum(stored.scores) - mine
            won = stored.winner == seat.team
            row = out.setdefault(seat.player.handle, [0, 0, 0, 0, 0, 0])
            row[0] += 1
            row[1] += won
            row[2] += not won
            row[3] += mine
            row[4] += theirs
            row[5] += win if won else loss
    return {name: tuple(row) for name, row in out.items()}


pytestmark = pytest.mark.django_db


def test_a_season_counts_the_matches_of_its_days_in_the_club_s_time_zone(owner, tbilisi):
    club, stored = tbilisi
    season = october(owner, club)
    client = APIClient()
    answer = client.get(f"/api/v1/clubs/{club.slug}/seasons/{season.pk}/")
    assert answer.status_code == 200
    body = answer.json()
    assert body["season"]["name"] == "October 2026"
    assert (body["closed"], body["changed_since_closed"]) == (False, False)
    got = {
        row["name"]: (
            row["played"],
            row["won"],
            row["lost"],
            row["points_for"],
            row["points_against"],
            row["league_points"],
        )
        for row in body["rows"]
    }
    assert got == expected_rows([stored[1], stored[2], stored[3]])
    assert sum(row[0] for row in got.values()) == 6  # three matches of two
    assert [row["position"] for row in body["rows"]] == [1, 2, 3]


def test_pending_matches_and_other_rulesets_do_not_count(owner, tbilisi):
    club, stored = tbilisi
    Match.objects.filter(pk=stored[2].pk).update(approval=Match.Approval.PENDING)
    # Only a match never counted awaits approval: one marked so by hand here is reviewed
    # again, as the pipeline reviews every stored match, which takes its figures away.
    matches_review(match_ids=[stored[2].pk])
    season = october(owner, club)
    rows = Client().get(f"/api/v1/clubs/{club.slug}/seasons/{season.pk}/").json()["rows"]
    assert {row["name"]: row["played"] for row in rows} == {"Ana": 2, "Beka": 1, "Ciko": 1}
    other = october(owner, club, presets=["all-fives"])
    rows = Client().get(f"/api/v1/clubs/{club.slug}/seasons/{other.pk}/").json()["rows"]
    assert rows == []


def test_only_the_club_s_admins_open_and_close_a_season(owner, club_admin, member, tbilisi):
    club, _stored = tbilisi
    with pytest.raises(PermissionDenied):
        october(member, club)
    season = october(club_admin, club)
    with pytest.raises(PermissionDenied):
        season_close(actor=member, season=season)
    form = {
        "name": "Autumn",
        "first_day": "2026-09-01",
        "last_day": "2026-11-30",
        "win_points": "2",
        "loss_points": "1",
        "place_points": "3/2/1/0",
    }
    member_client = Client()
    member_client.force_login(member)
    assert member_client.post(f"/clubs/{club.slug}/seasons/", form).status_code == 403
    assert member_client.post(f"/clubs/{club.slug}/seasons/{season.pk}/close/").status_code == 403
    assert "Open a season" not in member_client.get(f"/clubs/{club.slug}/seasons/").content.decode()
    assert Season.objects.filter(club=club).count() == 1
    admin_client = Client()
    admin_client.force_login(club_admin)
    page = admin_client.get(f"/clubs/{club.slug}/seasons/").content.decode()
    assert "Open a season" in page
    answer = admin_client.post(f"/clubs/{club.slug}/seasons/", form)
    autumn = Season.objects.get(name="Autumn")
    assert answer.status_code == 302
    assert answer["Location"] == f"/clubs/{club.slug}/seasons/{autumn.pk}/"
    assert (autumn.win_points, autumn.loss_points, autumn.place_points) == (2, 1, [3, 2, 1, 0])
    wrong = admin_client.post(
        f"/clubs/{club.slug}/seasons/", form | {"name": "Back", "last_day": "2026-08-01"}
    )
    assert wrong.status_code == 200
    assert "last day cannot come before its first" in wrong.content.decode()
    assert not Season.objects.filter(name="Back").exists()


def test_a_private_club_s_seasons_are_hidden_from_outsiders(owner, member, outsider, tbilisi):
    club, _stored = tbilisi
    season = october(owner, club)
    club.is_private = True
    club.save(update_fields=["is_private"])
    paths = [
        f"/clubs/{club.slug}/seasons/",
        f"/clubs/{club.slug}/seasons/{season.pk}/",
        f"/clubs/{club.slug}/seasons/{season.pk}/standings.csv",
        f"/api/v1/clubs/{club.slug}/seasons/",
        f"/api/v1/clubs/{club.slug}/seasons/{season.pk}/",
    ]
    outside = Client()
    outside.force_login(outsider)
    inside = Client()
    inside.force_login(member)
    assert [Client().get(path).status_code for path in paths] == [404] * 5
    assert [outside.get(path).status_code for path in paths] == [404] * 5
    assert outside.post(f"/clubs/{club.slug}/seasons/{season.pk}/close/").status_code == 404
    assert [inside.get(path).status_code for path in paths] == [200] * 5
    # A season is found under its own club only.
    assert Client().get(f"/clubs/moscow/seasons/{season.pk}/").status_code == 404


def test_the_standings_page_lists_the_table_and_the_csv_matches_it(owner, tbilisi):
    club, _stored = tbilisi
    season = october(owner, club)
    page = Client().get(f"/clubs/{club.slug}/seasons/{season.pk}/").content.decode()
    assert 'class="table-scroll"' in page
    rows = Client().get(f"/api/v1/clubs/{club.slug}/seasons/{season.pk}/").json()["rows"]
    for row in rows:
        assert f">{row['name']}</a>" in page
    answer = Client().get(f"/clubs/{club.slug}/seasons/{season.pk}/standings.csv")
    assert answer["Content-Type"].startswith("text/csv")
    lines = answer.content.decode().splitlines()
    assert lines[0].startswith("position,name,played")
    assert lines[1:] == [
        f"{r['position']},{r['name']},{r['played']},{r['won']},{r['lost']},{r['points_for']},"
        f"{r['points_against']},{r['difference']},{r['league_points']},{''.join(r['last'])},"
        f"{r['rating_start']},{r['rating_end']}"
        for r in rows
    ]
    listed = Client().get(f"/api/v1/clubs/{club.slug}/seasons/").json()
    assert [item["name"] for item in listed] == ["October 2026"]


def test_closing_freezes_the_table_and_a_later_change_shows_as_a_note(
    owner, club_admin, tbilisi, django_capture_on_commit_callbacks
):
    club, _stored = tbilisi
    season = october(owner, club)
    admin_client = Client()
    admin_client.force_login(club_admin)
    answer = admin_client.post(f"/clubs/{club.slug}/seasons/{season.pk}/close/")
    assert answer.status_code == 302
    season.refresh_from_db()
    assert season.closed_at is not None
    # The API's rows are the kept ones, but for the scale their ratings were kept on.
    assert {row["rating_scale"] for row in season.frozen} == {2}
    frozen = [{k: v for k, v in row.items() if k != "rating_scale"} for row in season.frozen]
    api = f"/api/v1/clubs/{club.slug}/seasons/{season.pk}/"
    before = Client().get(api).json()
    assert (before["closed"], before["changed_since_closed"]) == (True, False)
    assert before["rows"] == frozen
    page = Client().get(f"/clubs/{club.slug}/seasons/{season.pk}/").content.decode()
    assert "Close the season" not in page and "have changed since it was closed" not in page
    assert "Closed on" in page and "(Asia/Tbilisi)" in page  # said in the club's time zone
    # A match of October arrives late: the kept table stays, with a note.
    with django_capture_on_commit_callbacks(execute=True):
        store_match(owner, ["Ana", "Dato"], seed=9, played_at="2026-10-20T19:00:00+04:00")
    after = Client().get(api).json()
    assert after["rows"] == frozen
    assert (after["closed"], after["changed_since_closed"]) == (True, True)
    assert "Dato" not in {row["name"] for row in after["rows"]}
    page = Client().get(f"/clubs/{club.slug}/seasons/{season.pk}/").content.decode()
    assert "have changed since it was closed" in page
    csv_text = Client().get(f"/clubs/{club.slug}/seasons/{season.pk}/standings.csv").content
    assert b"Dato" not in csv_text
    # Closing twice is refused.
    admin_client.post(f"/clubs/{club.slug}/seasons/{season.pk}/close/")
    season.refresh_from_db()
    kept = [{k: v for k, v in row.items() if k != "rating_scale"} for row in season.frozen]
    assert kept == frozen


@override_settings(DEBUG=True)
def test_the_demo_opens_a_season_with_standings(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        call_command("demo", matches=30, stdout=open("/dev/null", "w"))  # noqa: SIM115
    season = Season.objects.get(name="Autumn 2026")
    assert season.club.slug == "tbilisi-fives-club"
    assert (season.first_day, season.last_day) == (date(2026, 9, 1), date(2026, 11, 30))
    body = Client().get(f"/api/v1/clubs/{season.club.slug}/seasons/{season.pk}/").json()
    # Demo matches 9 (October) and 21 (November) are the first club's in the autumn.
    assert sum(row["played"] for row in body["rows"]) >= 4
    page = Client().get(f"/clubs/{season.club.slug}/seasons/").content.decode()
    assert "Autumn 2026" in page
    call_command("demo_season", stdout=open("/dev/null", "w"))  # noqa: SIM115
    assert Season.objects.filter(name="Autumn 2026").count() == 1


def test_the_standings_page_reads_in_georgian_and_russian(owner, tbilisi):
    club, _stored = tbilisi
    season = october(owner, club)
    client = Client()
    client.force_login(owner)
    path = f"/clubs/{club.slug}/seasons/{season.pk}/"
    georgian = client.get(path, HTTP_ACCEPT_LANGUAGE="ka").content.decode()
    assert "ბოლო ხუთი" in georgian and "სეზონის დახურვა" in georgian
    assert "Last five" not in georgian and "Close the season" not in georgian
    russian = client.get(path, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Последние пять" in russian and "Закрыть сезон" in russian
    listing = client.get(f"/clubs/{club.slug}/seasons/", HTTP_ACCEPT_LANGUAGE="ka")
    assert "სეზონის გახსნა" in listing.content.decode()


def test_the_standings_take_as_many_queries_for_many_matches_as_for_few(
    owner, tbilisi, django_capture_on_commit_callbacks
):
    club, _stored = tbilisi
    season = october(owner, club)
    path = f"/api/v1/clubs/{club.slug}/seasons/{season.pk}/"
    client = Client()
    client.get(path)  # the first request's own reads (sessions, throttling) out of the way
    with CaptureQueriesContext(connection) as few:
        assert client.get(path).status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        for seed in range(20, 32):
            store_match(
                owner, ["Eka", "Fridon"], seed=seed, played_at=f"2026-10-{seed - 10}T12:00:00Z"
            )
    with CaptureQueriesContext(connection) as many:
        body = client.get(path).json()
    assert sum(row["played"] for row in body["rows"]) == 6 + 24
    assert len(many.captured_queries) == len(few.captured_queries)


# --- the database's count against the count in Python ---------------------------------------
#
# The table is counted by the database (competitions.seasons.season_standings). Below is the count
# it replaced, read seat by seat in Python, kept as the reference it must agree with.


def reference_results(season: Season) -> list[Result]:
    """Every seat of the season's counted matches, read one by one."""
    from competitions.seasons import season_bounds
    from replays.models import SeatResult

    start, end = season_bounds(season)
    rows = SeatResult.objects.filter(
        club_id=season.club_id,
        played_at__gte=start,
        played_at__lt=end,
        complete=True,
        match__approval=Match.Approval.APPROVED,
    )
    if season.presets:
        rows = rows.filter(preset__in=season.presets)
    return [
        Result(
            match_id=seat.match_id,
            played_at=seat.played_at,
            player_id=seat.player_id,
            name=seat.player.handle,
            team=seat.team,
            rank=seat.rank,
            won=seat.won,
            scores=tuple(seat.match.scores),
        )
        for seat in rows.select_related("match", "player")
    ]


def reference_table(season: Season) -> list[dict]:
    """The table as it was counted in Python, seat by seat: each row a dict."""
    rules = Rules(
        win_points=season.win_points,
        loss_points=season.loss_points,
        place_points=tuple(season.place_points or ()),
    )
    results = sorted(reference_results(season), key=lambda r: (r.played_at, r.match_id))
    rows: dict[int, dict] = {}
    by_match: dict[int, list[Result]] = {}
    for result in results:
        row = rows.setdefault(
            result.player_id,
            {"player_id": result.player_id, "name": result.name, "position": 0, "played": 0,
             "won": 0, "lost": 0, "points_for": 0, "points_against": 0, "difference": 0,
             "league_points": 0, "last": []},
        )  # fmt: skip
        mine = result.scores[result.team]
        row["played"] += 1
        row["won"] += result.won
        row["lost"] += not result.won
        row["points_for"] += mine
        row["points_against"] += sum(result.scores) - mine
        row["difference"] = row["points_for"] - row["points_against"]
        row["league_points"] += rules.league_points(result)
        row["last"] = [*row["last"], "W" if result.won else "L"][-5:]
        by_match.setdefault(result.match_id, []).append(result)
    groups: dict[tuple[int, int], set[int]] = {}
    for row in rows.values():
        groups.setdefault((row["league_points"], row["difference"]), set()).add(row["player_id"])
    head_to_head: dict[int, int] = {}
    for ids in groups.values():
        if len(ids) < 2:
            continue
        for seats in by_match.values():
            inside = [result for result in seats if result.player_id in ids]
            if len({result.player_id for result in inside}) < 2:
                continue
            for result in inside:
                head_to_head[result.player_id] = head_to_head.get(
                    result.player_id, 0
                ) + rules.league_points(result)
    table = sorted(
        rows.values(),
        key=lambda row: (
            -row["league_points"],
            -row["difference"],
            -head_to_head.get(row["player_id"], 0),
            row["name"].casefold(),
            row["player_id"],
        ),
    )
    for position, row in enumerate(table, start=1):
        row["position"] = position
    return table


MUGGINS = {"base": "muggins", "target": 50}
ALL_FIVES = {"base": "all-fives", "target": 60}
ALL_THREES = {"base": "all-threes", "target": 50}


def winner_first(ruleset: dict, seed: int, winner: str, loser: str) -> list[str]:
    """The two names seated so that ``winner`` wins the match ``seed`` simulates."""
    from fives_engine.simulate import simulate_match

    scores = simulate_match(ruleset, 2, seed=seed)["final_scores"]
    return [winner, loser] if scores[0] > scores[1] else [loser, winner]


@pytest.fixture
def busy_october(owner, django_capture_on_commit_callbacks):
    """A month of the Tbilisi club: three rulesets; two, three and four players, alone and in
    partnerships, several at the same moment; and players tied on league points and
    difference, some of whom met (head-to-head decides) and some never (the name does)."""
    import random

    club = Club.objects.get(slug="tbilisi-fives-club")
    rng = random.Random(28)
    regulars = ["Ana", "beka", "Ciko", "Dato", "eka", "Fridon", "Gela", "Hatia"]
    moment = datetime(2026, 10, 1, 18, tzinfo=UTC)
    with django_capture_on_commit_callbacks(execute=True):
        for seed in range(100, 136):
            players, teams = rng.choice([(2, False), (2, False), (3, False), (4, False), (4, True)])
            ruleset = rng.choice([MUGGINS, MUGGINS, ALL_FIVES, ALL_THREES])
            if seed % 5:  # every fifth starts at the same moment as the one before
                moment += timedelta(hours=rng.randint(1, 30))
            store_match(
                owner, rng.sample(regulars, players), seed=seed, teams=teams,
                ruleset=ruleset, played_at=moment.isoformat(),
            )  # fmt: skip
        # Zaza beats Anzor, loses to Irakli by as much; Anzor beats Lasha by as much: Zaza
        # and Anzor tie on 3 points and 0, and Zaza won their match.
        day = datetime(2026, 10, 20, 12, tzinfo=UTC)
        for hour, (winner, loser) in enumerate(
            [("Zaza", "Anzor"), ("Irakli", "Zaza"), ("Anzor", "Lasha")]
        ):
            store_match(
                owner, winner_first(MUGGINS, 7, winner, loser), seed=7, ruleset=MUGGINS,
                played_at=(day + timedelta(hours=hour)).isoformat(),
            )  # fmt: skip
        # Three players alone take each place once in the same match thrice over: a tie of
        # three on everything (head-to-head too), settled by name.
        for hour, names in enumerate([["Nino", "Otar", "Mzia"], ["Otar", "Mzia", "Nino"],
                                      ["Mzia", "Nino", "Otar"]]):  # fmt: skip
            store_match(
                owner, names, seed=11, ruleset=ALL_FIVES,
                played_at=(day + timedelta(days=1, hours=hour)).isoformat(),
            )  # fmt: skip
        # Ana's newest two matches at one moment: stored first, her win goes before her loss.
        for winner, loser in [("Ana", "Gela"), ("Hatia", "Ana")]:
            store_match(
                owner, winner_first(MUGGINS, 3, winner, loser), seed=3, ruleset=MUGGINS,
                played_at="2026-10-30T12:00:00+00:00",
            )  # fmt: skip
    return club


def test_the_database_counts_the_table_as_python_did_seat_by_seat(owner, busy_october):
    from competitions.seasons import live_table

    for rules in [
        {},
        {"presets": ["muggins", "all-fives"], "win_points": 2, "loss_points": 1},
        {"presets": ["all-fives"], "place_points": [4, 2, 1]},
        {"presets": ["muggins", "all-threes"], "win_points": 1, "place_points": []},
    ]:
        season = october(owner, busy_october, **rules)
        expected = reference_table(season)
        with CaptureQueriesContext(connection) as counted:
            table = live_table(season)
        assert table == expected, rules
        # The figures (the whole months' totals and the seat results of the parts of months
        # at either end: October is whole here), the names with each one's fifth newest
        # moment, the last results from it, and the tied players' meetings.
        assert len(counted.captured_queries) <= 4
    everything = october(owner, busy_october)
    table = live_table(everything)
    assert len(table) == 15
    assert max(row["played"] for row in table) > 5
    duel = [row for row in table if row["name"] in ("Zaza", "Anzor")]
    assert [(row["name"], row["league_points"], row["difference"]) for row in duel] == [
        ("Zaza", 3, 0),
        ("Anzor", 3, 0),
    ]
    tied = [row for row in table if row["name"] in ("Mzia", "Nino", "Otar")]
    assert [row["name"] for row in tied] == ["Mzia", "Nino", "Otar"]
    assert len({(row["league_points"], row["difference"]) for row in tied}) == 1
    assert next(row for row in table if row["name"] == "Ana")["last"][-2:] == ["W", "L"]


@pytest.mark.parametrize("language", ["en", "ru", "ka"])
def test_a_form_gives_the_date_picker_its_dates_in_iso_form_in_every_language(language):
    """A tour in Russian found an event's edit form with its dates empty: the date picker
    takes only 2026-11-20, and the page wrote 20.11.2026."""
    from django.utils import translation

    from competitions.forms import FixtureForm, SeasonForm, TournamentForm

    with translation.override(language):
        html = str(SeasonForm(initial={"first_day": date(2026, 11, 20)})["first_day"])
        assert 'value="2026-11-20"' in html and 'type="date"' in html
        for form in (TournamentForm, FixtureForm):
            fields = [
                name for name, field in form.base_fields.items() if "Date" in type(field).__name__
            ]
            assert fields, form
            for name in fields:
                assert form.base_fields[name].widget.format == "%Y-%m-%d"


def test_a_new_fixture_s_form_starts_with_two_different_teams(owner):
    from competitions.forms import FixtureForm
    from competitions.models import League, Team

    club = Club.objects.get(slug="tbilisi-fives-club")
    league = League.objects.create(name="Form league", organiser=owner, legs=["singles"])
    b, a = (Team.objects.create(league=league, club=club, name=name) for name in ("B", "A"))
    form = FixtureForm(league=league)  # the teams by name: A at home, B away
    assert (form["home"].value(), form["away"].value()) == (a.pk, b.pk)
    changing = FixtureForm(league=league, initial={"home": b.pk, "away": a.pk, "day": None})
    assert (changing["home"].value(), changing["away"].value()) == (b.pk, a.pk)


def test_a_seasons_days_are_written_as_its_times_are_in_each_language(owner, tbilisi):
    club, _stored = tbilisi
    season = october(owner, club)
    address = f"/clubs/{club.slug}/seasons/{season.pk}/"
    for language, first, last in (
        ("en", "2026-10-01", "2026-10-31"),  # year first, as the times beside them
        ("ru", "01.10.2026", "31.10.2026"),
    ):
        page = Client().get(address, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        assert first in page and last in page, language
