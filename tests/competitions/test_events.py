"""Events of a season: round-robin schedules and knockout brackets worked out by hand (4 and
5 players, once and twice, byes), results filled in from the club's matches as they arrive
(by day, by the log's event, two of the players alone), a cup's winners moving on; making,
changing and deleting through the service, the API (who reads, who writes, the answer's
shape) and the pages, the audit trail and the CSV."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta
from itertools import combinations

import pytest
from django.core.exceptions import PermissionDenied
from django.test import Client
from rest_framework.test import APIClient

from clubs.models import AuditEntry, Club
from clubs.services import ClubRefusal
from competitions.models import Tournament
from competitions.seasons import Result
from competitions.tournaments import (
    BYE,
    Game,
    Round,
    bracket_order,
    knockout_schedule,
    round_robin,
    schedule_csv,
    tournament_make,
    tournament_schedule,
)
from games.models import Player
from tests.replays.helpers import store_match as store


def store_match(owner, names, *, seed, played_at, event="", **given):
    """A match stored for the club; its log names no event unless ``event`` is given."""
    return store(owner, names, seed=seed, played_at=played_at, event=event, **given)


# --- the draw, by hand ----------------------------------------------------------------------


def test_four_players_once_by_the_circle_method():
    # The first player stays, the others turn: [1 2 3 4] -> [1 4 2 3] -> [1 3 4 2].
    assert round_robin([1, 2, 3, 4]) == [
        Round(1, ((1, 4), (2, 3)), None),
        Round(2, ((1, 3), (4, 2)), None),
        Round(3, ((1, 2), (3, 4)), None),
    ]


def test_four_players_twice_meet_again_in_a_second_run_with_the_seats_turned():
    rounds = round_robin([1, 2, 3, 4], legs=2)
    assert [r.pairs for r in rounds[3:]] == [((4, 1), (3, 2)), ((3, 1), (2, 4)), ((2, 1), (4, 3))]
    assert [r.number for r in rounds] == [1, 2, 3, 4, 5, 6]
    met = sorted(tuple(sorted(pair)) for r in rounds for pair in r.pairs)
    assert met == sorted(list(combinations([1, 2, 3, 4], 2)) * 2)


def test_five_players_have_a_bye_each_round_and_each_sits_out_once():
    # With the empty place (None) last: [1 2 3 4 5 _] -> [1 _ 2 3 4 5] -> [1 5 _ 2 3 4] ...
    assert round_robin([1, 2, 3, 4, 5]) == [
        Round(1, ((2, 5), (3, 4)), 1),
        Round(2, ((1, 5), (2, 3)), 4),
        Round(3, ((1, 4), (5, 3)), 2),
        Round(4, ((1, 3), (4, 2)), 5),
        Round(5, ((1, 2), (4, 5)), 3),
    ]
    twice = round_robin([1, 2, 3, 4, 5], legs=2)
    assert len(twice) == 10
    assert sorted(r.bye for r in twice) == [1, 1, 2, 2, 3, 3, 4, 4, 5, 5]
    met = sorted(tuple(sorted(pair)) for r in twice for pair in r.pairs)
    assert met == sorted(list(combinations(range(1, 6), 2)) * 2)


def test_brackets_put_the_best_seeds_furthest_apart():
    assert bracket_order(2) == [1, 2]
    assert bracket_order(4) == [1, 4, 2, 3]
    assert bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]


START = datetime(2026, 10, 3, 19, tzinfo=UTC)


def game(number: int, winner: int, loser: int) -> Game:
    """A counted match ``number`` that ``winner`` won 61-40 over ``loser``."""
    at = START + timedelta(minutes=number)
    return Game(
        number,
        at,
        (
            Result(number, at, winner, f"p{winner}", 0, 1, True, (61, 40)),
            Result(number, at, loser, f"p{loser}", 1, 2, False, (61, 40)),
        ),
    )


NAMES = {n: f"p{n}" for n in range(1, 9)}


def ties(drawn):
    return [
        [(f["a"], f["b"], f["state"], f["winner"]) for f in r["fixtures"]] for r in drawn["rounds"]
    ]


def test_a_cup_of_five_gives_the_three_best_seeds_a_bye_and_moves_winners_on():
    seeds = [1, 2, 3, 4, 5]  # seed order: player 1 the best
    # Eight places: 1 v bye, 4 v 5, 2 v bye, 3 v bye; then 1 v (4 or 5), 2 v 3; the final.
    drawn = knockout_schedule(seeds, NAMES, [])
    assert ties(drawn) == [
        [
            (1, None, "bye", None),
            (4, 5, "to-play", None),
            (2, None, "bye", None),
            (3, None, "bye", None),
        ],
        [(1, None, "waiting", None), (2, 3, "to-play", None)],
        [(None, None, "waiting", None)],
    ]
    assert drawn["champion"] is None
    # 5 beats 4 (an upset), 3 beats 2, then 5 beats 1 and 5 beats 3 in the final. A second
    # match of 4 and 5 after the first decides nothing.
    played = [game(1, 5, 4), game(2, 4, 5), game(3, 3, 2), game(4, 5, 1), game(5, 5, 3)]
    drawn = knockout_schedule(seeds, NAMES, played)
    assert ties(drawn) == [
        [
            (1, None, "bye", None),
            (4, 5, "played", 5),
            (2, None, "bye", None),
            (3, None, "bye", None),
        ],
        [(1, 5, "played", 5), (2, 3, "played", 3)],
        [(5, 3, "played", 5)],
    ]
    assert drawn["champion"] == 5
    assert drawn["rounds"][0]["fixtures"][1]["score"] == [40, 61]  # player 4's, then 5's
    # Halfway: only the first round's tie and one semi-final in.
    drawn = knockout_schedule(seeds, NAMES, played[:1] + played[2:3])
    assert ties(drawn)[1:] == [
        [(1, 5, "to-play", None), (2, 3, "played", 3)],
        [(None, 3, "waiting", None)],
    ]


def test_two_players_make_a_final_alone():
    drawn = knockout_schedule([7, 8], NAMES, [game(1, 8, 7)])
    assert ties(drawn) == [[(7, 8, "played", 8)]]
    assert drawn["champion"] == 8
    assert BYE not in (7, 8)


# --- stored matches -------------------------------------------------------------------------


def players(owner, club, names):
    """The club's players of ``names``, made by one match each long before the season."""
    for index, name in enumerate(names):
        if not Player.objects.filter(club=club, handle=name).exists():
            store_match(
                owner,
                [name, "Warm-up"],
                seed=900 + index,
                played_at=f"2026-01-{index + 1:02d}T12:00:00Z",
            )
    return [Player.objects.get(club=club, handle=name).pk for name in names]


def night(owner, autumn, names, **given):
    fields = {
        "name": "Club night",
        "kind": "round-robin",
        "first_day": date(2026, 10, 3),
        "last_day": date(2026, 10, 3),
        "legs": 1,
    } | given
    return tournament_make(
        actor=owner,
        season=autumn,
        player_ids=players(owner, autumn.club, names),
        **fields,
    )


def winner_of(match):
    return match.seats.get(team=match.winner).player.handle


@pytest.mark.django_db
def test_a_round_robin_fills_in_as_matches_arrive_and_says_what_is_left(
    owner, autumn, django_capture_on_commit_callbacks
):
    event = night(owner, autumn, ["Ana", "Beka", "Ciko", "Dato"])
    schedule = tournament_schedule(event)
    assert (schedule["played"], schedule["to_play"]) == (0, 6)
    assert len(schedule["rounds"]) == 3
    with django_capture_on_commit_callbacks(execute=True):
        # On the night (19:00 in Tbilisi is 15:00 UTC), a match naming the event in other case,
        counted = [
            store_match(owner, ["Ana", "Beka"], seed=1, played_at="2026-10-03T15:00:00Z"),
            store_match(
                owner,
                ["Ciko", "Dato"],
                seed=2,
                played_at="2026-10-03T16:00:00Z",
                event="club NIGHT",
            ),
        ]
        # and what does not count: the day after in Tbilisi (21:00 UTC on the 3rd is 01:00
        # on the 4th), another event's match, one with a player from outside, three players.
        store_match(owner, ["Ana", "Ciko"], seed=3, played_at="2026-10-03T21:00:00Z")
        store_match(owner, ["Ana", "Dato"], seed=4, played_at="2026-10-03T17:00:00Z", event="Cup")
        store_match(owner, ["Beka", "Eka"], seed=5, played_at="2026-10-03T17:00:00Z")
        store_match(owner, ["Beka", "Ciko", "Dato"], seed=6, played_at="2026-10-03T17:00:00Z")
    schedule = tournament_schedule(event)
    assert (schedule["played"], schedule["to_play"]) == (2, 4)
    filled = {
        frozenset((f["a_name"], f["b_name"])): f
        for r in schedule["rounds"]
        for f in r["fixtures"]
        if f["state"] == "played"
    }
    assert set(filled) == {frozenset({"Ana", "Beka"}), frozenset({"Ciko", "Dato"})}
    for match in counted:
        fixture = filled[frozenset(s.player.handle for s in match.seats.all())]
        assert fixture["match_id"] == match.pk
        assert Player.objects.get(pk=fixture["winner"]).handle == winner_of(match)
        names = [fixture["a_name"], fixture["b_name"]]
        by_name = {s.player.handle: match.scores[s.team] for s in match.seats.all()}
        assert fixture["score"] == [by_name[name] for name in names]
    # The table: two winners with 3 points, two losers with none, then by name.
    table = schedule["table"]
    assert [row["league_points"] for row in table] == [3, 3, 0, 0]
    assert sorted(row["name"] for row in table[:2]) == sorted(winner_of(m) for m in counted)
    assert all(row["played"] == 1 for row in table)


@pytest.mark.django_db
def test_a_pair_meeting_twice_fills_its_two_fixtures_in_the_order_played(
    owner, autumn, django_capture_on_commit_callbacks
):
    event = night(owner, autumn, ["Ana", "Beka", "Ciko"], legs=2)
    schedule = tournament_schedule(event)
    assert (schedule["played"], schedule["to_play"], len(schedule["rounds"])) == (0, 6, 6)
    assert sorted(r["bye_name"] for r in schedule["rounds"]) == [
        "Ana",
        "Ana",
        "Beka",
        "Beka",
        "Ciko",
        "Ciko",
    ]
    with django_capture_on_commit_callbacks(execute=True):
        first = store_match(owner, ["Ana", "Beka"], seed=11, played_at="2026-10-03T15:00:00Z")
        second = store_match(owner, ["Beka", "Ana"], seed=12, played_at="2026-10-03T16:00:00Z")
        store_match(owner, ["Ana", "Beka"], seed=13, played_at="2026-10-03T17:00:00Z")  # a third
    schedule = tournament_schedule(event)
    ana_beka = [
        f["match_id"]
        for r in schedule["rounds"]
        for f in r["fixtures"]
        if {f["a_name"], f["b_name"]} == {"Ana", "Beka"}
    ]
    assert ana_beka == [first.pk, second.pk]
    assert (schedule["played"], schedule["to_play"]) == (2, 4)


@pytest.mark.django_db
def test_a_cup_is_seeded_by_rating_and_its_winners_move_on(
    owner, autumn, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        ids = players(owner, autumn.club, ["Ana", "Beka", "Ciko"])
        # Ciko wins twice before the cup: the highest rating, seed 1, a bye to the final.
        for seed in (21, 22, 23, 24, 25, 26):
            match = store_match(
                owner, ["Ciko", "Ana"], seed=seed, played_at=f"2026-09-{seed - 10}T12:00:00Z"
            )
    from replays.models import Rating

    ordinals = dict(
        Rating.objects.filter(scope__club=autumn.club).values_list("player_id", "ordinal")
    )
    by_rating = sorted(ids, key=lambda pk: -ordinals.get(pk, 0.0))
    cup = tournament_make(
        actor=owner,
        season=autumn,
        name="Autumn cup",
        kind="knockout",
        first_day=date(2026, 10, 10),
        last_day=date(2026, 10, 11),
        player_ids=ids,
    )
    assert list(cup.entries.values_list("player_id", flat=True)) == by_rating
    top, second, third = (Player.objects.get(pk=pk).handle for pk in by_rating)
    schedule = tournament_schedule(cup)
    first_round = schedule["rounds"][0]["fixtures"]
    assert [(f["a_name"], f["b_name"], f["state"]) for f in first_round] == [
        (top, "", "bye"),
        (second, third, "to-play"),
    ]
    assert (schedule["played"], schedule["to_play"]) == (0, 2)
    with django_capture_on_commit_callbacks(execute=True):
        semi = store_match(owner, [second, third], seed=31, played_at="2026-10-10T12:00:00Z")
    schedule = tournament_schedule(cup)
    final = schedule["rounds"][1]["fixtures"][0]
    assert (final["a_name"], final["b_name"], final["state"]) == (top, winner_of(semi), "to-play")
    with django_capture_on_commit_callbacks(execute=True):
        last = store_match(owner, [top, winner_of(semi)], seed=32, played_at="2026-10-11T12:00:00Z")
    schedule = tournament_schedule(cup)
    assert schedule["champion_name"] == winner_of(last)
    assert (schedule["played"], schedule["to_play"]) == (2, 0)
    del match
    # The event's page and the season's printable page name the cup's rounds alike.
    club = autumn.club
    for address in (
        f"/clubs/{club.slug}/events/{cup.pk}/",
        f"/clubs/{club.slug}/seasons/{autumn.pk}/print/",
    ):
        page = Client().get(address).content.decode()
        titles = re.findall(r'<section class="event-round">\s*<h3>([^<]*)</h3>', page)
        assert titles == ["Semi-finals", "Final"], address
    # A cup's final, not a match's final score ("Итог"), in Russian and Georgian.
    for language, final in (("ru", "Финал"), ("ka", "ფინალი")):
        page = (
            Client()
            .get(f"/clubs/{club.slug}/events/{cup.pk}/", HTTP_ACCEPT_LANGUAGE=language)
            .content.decode()
        )
        titles = re.findall(r'<section class="event-round">\s*<h3>([^<]*)</h3>', page)
        assert titles[-1] == final, language


@pytest.mark.django_db
def test_what_the_rules_refuse(owner, member, autumn):
    with pytest.raises(PermissionDenied):
        night(member, autumn, ["Ana", "Beka"])
    refusals = [
        {"name": "  "},
        {"name": "x" * 101},
        {"kind": "swiss"},
        {"legs": 3},
        {"kind": "knockout", "legs": 2},
        {"first_day": date(2026, 8, 31)},  # before the season
        {"last_day": date(2026, 10, 2)},  # before its first day
    ]
    for given in refusals:
        with pytest.raises(ClubRefusal):
            night(owner, autumn, ["Ana", "Beka"], **given)
    with pytest.raises(ClubRefusal):
        night(owner, autumn, ["Ana"])
    night(owner, autumn, ["Ana", "Beka"])
    with pytest.raises(ClubRefusal, match="of that name"):
        night(owner, autumn, ["Ana", "Beka"], name="CLUB  night")
    other = Club.objects.get(slug="moscow")
    store_match(owner, ["Ivan", "Olga"], seed=41, played_at="2026-01-01T12:00:00Z", club="Moscow")
    stranger = Player.objects.get(club=other, handle="Ivan")
    with pytest.raises(ClubRefusal, match="players of its club"):
        tournament_make(
            actor=owner,
            season=autumn,
            name="Mixed",
            kind="round-robin",
            first_day=date(2026, 10, 3),
            last_day=date(2026, 10, 3),
            player_ids=[*players(owner, autumn.club, ["Ana"]), stranger.pk],
        )


# --- the API, the pages, the audit trail, the CSV -------------------------------------------


def body(owner, club, names, **given):
    return {
        "season": club.seasons.get().pk,
        "name": "Club night",
        "kind": "round-robin",
        "first_day": "2026-10-03",
        "last_day": "2026-10-03",
        "players": players(owner, club, names),
    } | given


@pytest.mark.django_db
def test_the_api_reads_for_all_who_see_the_club_and_writes_for_its_admins(
    owner, club_admin, member, autumn
):
    club = autumn.club
    url = f"/api/v1/clubs/{club.slug}/events/"
    data = body(owner, club, ["Ana", "Beka", "Ciko"])
    assert APIClient().post(url, data, format="json").status_code == 401  # who are you?
    as_member = APIClient()
    as_member.force_authenticate(member)
    assert as_member.post(url, data, format="json").status_code == 403
    admin = APIClient()
    admin.force_authenticate(club_admin)
    made = admin.post(url, data, format="json")
    assert made.status_code == 201, made.content
    answer = made.json()
    assert answer["event"]["name"] == "Club night"
    assert [p["seed"] for p in answer["event"]["players"]] == [1, 2, 3]
    assert (answer["played"], answer["to_play"], answer["champion"]) == (0, 3, None)
    assert [len(r["fixtures"]) for r in answer["rounds"]] == [1, 1, 1]
    assert all(r["bye"] for r in answer["rounds"])
    assert set(answer["rounds"][0]["fixtures"][0]) == {
        "round",
        "a",
        "b",
        "a_name",
        "b_name",
        "state",
        "match_id",
        "played_at",
        "winner",
        "score",
        "how",
    }
    assert answer["passed_over"] == []
    assert len(answer["table"]) == 3
    again = admin.post(url, data, format="json")
    assert (again.status_code, again.json()["error"]["code"]) == (409, "event-name-taken")
    missing = admin.post(url, {k: v for k, v in data.items() if k != "kind"}, format="json")
    assert missing.status_code == 400

    listed = Client().get(url).json()
    assert [e["name"] for e in listed] == ["Club night"]
    pk = listed[0]["id"]
    one = f"{url}{pk}/"
    assert Client().get(one).status_code == 200
    changed = admin.put(
        one, data | {"name": "Friday night", "players": data["players"][:2]}, format="json"
    )
    assert changed.status_code == 200, changed.content
    assert changed.json()["event"]["name"] == "Friday night"
    assert changed.json()["to_play"] == 1
    assert as_member.delete(one).status_code == 403
    assert admin.delete(one).status_code == 204
    assert Tournament.objects.count() == 0
    actions = list(
        AuditEntry.objects.filter(club=club, action__startswith="event-")
        .order_by("id")
        .values_list("action", "detail__event")
    )
    assert actions == [
        ("event-created", "Club night"),
        ("event-changed", "Friday night"),
        ("event-deleted", "Friday night"),
    ]


@pytest.mark.django_db
def test_a_private_clubs_events_are_404_to_outsiders(owner, outsider, autumn):
    club = autumn.club
    night(owner, autumn, ["Ana", "Beka"])
    club.is_private = True
    club.save(update_fields=["is_private"])
    pk = Tournament.objects.get().pk
    for path in (
        f"/api/v1/clubs/{club.slug}/events/",
        f"/api/v1/clubs/{club.slug}/events/{pk}/",
        f"/clubs/{club.slug}/events/",
        f"/clubs/{club.slug}/events/{pk}/",
        f"/clubs/{club.slug}/events/{pk}/schedule.csv",
    ):
        stranger = Client()
        stranger.force_login(outsider)
        assert stranger.get(path).status_code == 404, path
        owner_client = Client()
        owner_client.force_login(owner)
        assert owner_client.get(path).status_code == 200, path


@pytest.mark.django_db
def test_the_pages_make_show_change_and_delete_an_event(owner, member, autumn):
    club = autumn.club
    ids = players(owner, club, ["Ana", "Beka", "Ciko", "Dato", "Eka"])
    admin = Client()
    admin.force_login(owner)
    page = admin.get(f"/clubs/{club.slug}/events/?season={autumn.pk}").content.decode()
    assert 'id="make-event"' in page and 'name="players"' in page
    made = admin.post(
        f"/clubs/{club.slug}/events/",
        {
            "season": autumn.pk,
            "name": "<b>Night</b>",
            "kind": "round-robin",
            "first_day": "2026-10-03",
            "last_day": "2026-10-03",
            "legs": "1",
            "players": ids,
        },
    )
    assert made.status_code == 302
    event = Tournament.objects.get()
    page = Client().get(made["Location"]).content.decode()
    assert "&lt;b&gt;Night&lt;/b&gt;" in page and "<b>Night</b>" not in page
    assert page.count('class="fixture to-play"') == 10
    assert page.count("sits this round out") == 5
    assert "0 matches played, 10 still to play." in page
    as_member = Client()
    as_member.force_login(member)
    assert as_member.get(f"/clubs/{club.slug}/events/{event.pk}/edit/").status_code == 403
    assert 'id="make-event"' not in as_member.get(f"/clubs/{club.slug}/events/").content.decode()
    assert as_member.post(f"/clubs/{club.slug}/events/{event.pk}/delete/").status_code == 403
    changed = admin.post(
        f"/clubs/{club.slug}/events/{event.pk}/edit/",
        {
            "name": "Night",
            "first_day": "2026-10-03",
            "last_day": "2026-10-04",
            "legs": "2",
            "players": ids[:4],
        },
    )
    assert changed.status_code == 302
    event.refresh_from_db()
    assert (event.name, event.legs, event.entries.count()) == ("Night", 2, 4)
    season_page = Client().get(f"/clubs/{club.slug}/seasons/{autumn.pk}/").content.decode()
    assert f"/clubs/{club.slug}/events/{event.pk}/" in season_page
    audit = admin.get(f"/clubs/{club.slug}/audit/").content.decode()
    assert "changed the event “Night”" in audit
    # Deleting asks for its box to be ticked.
    answer = admin.post(f"/clubs/{club.slug}/events/{event.pk}/delete/", follow=True)
    assert "Tick the box to delete it." in answer.content.decode() and Tournament.objects.exists()
    answer = admin.post(f"/clubs/{club.slug}/events/{event.pk}/delete/", {"sure": "1"})
    assert answer.status_code == 302
    assert not Tournament.objects.exists()


@pytest.mark.django_db
def test_the_csv_lists_every_fixture_its_result_and_each_bye(
    owner, autumn, django_capture_on_commit_callbacks
):
    event = night(owner, autumn, ["Ana", "Beka", "=Ciko"])
    with django_capture_on_commit_callbacks(execute=True):
        match = store_match(owner, ["Ana", "Beka"], seed=51, played_at="2026-10-03T15:00:00Z")
    answer = Client().get(f"/clubs/{autumn.club.slug}/events/{event.pk}/schedule.csv")
    assert answer["Content-Type"].startswith("text/csv")
    lines = answer.content.decode().splitlines()
    assert lines[0] == "round,player_a,player_b,state,score_a,score_b,winner,match"
    assert len(lines) == 1 + 3 + 3  # three fixtures and three byes
    played = next(line for line in lines if line.endswith(f",{match.pk}"))
    a, b = played.split(",")[1:3]
    scores = {s.player.handle: match.scores[s.team] for s in match.seats.all()}
    assert played.split(",")[3:7] == ["played", str(scores[a]), str(scores[b]), winner_of(match)]
    assert any(",'=Ciko," in line for line in lines)  # never a formula in a spreadsheet
    assert schedule_csv(tournament_schedule(event)) == answer.content.decode()


def test_the_api_guide_names_every_event_endpoint_and_field():
    from pathlib import Path

    from api.tournaments import (
        EventScheduleSerializer,
        EventSerializer,
        EventWriteSerializer,
        FixtureSerializer,
        RoundSerializer,
    )

    guide = (Path(__file__).resolve().parents[2] / "docs" / "api.md").read_text()
    for endpoint in (
        "GET /api/v1/clubs/{slug}/events/",
        "POST /api/v1/clubs/{slug}/events/",
        "GET /api/v1/clubs/{slug}/events/{id}/",
        "PUT /api/v1/clubs/{slug}/events/{id}/",
        "DELETE /api/v1/clubs/{slug}/events/{id}/",
    ):
        assert f"`{endpoint}`" in guide
    fields = {
        name
        for serializer in (
            EventScheduleSerializer,
            EventSerializer,
            EventWriteSerializer,
            FixtureSerializer,
            RoundSerializer,
        )
        for name in serializer().fields
    }
    fields -= {"id", "champion_name", "a_name", "b_name", "bye_name"}  # said with their kin
    assert sorted(name for name in fields if f"`{name}`" not in guide) == []
