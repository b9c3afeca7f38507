"""Running totals (issue 39): whatever happens to the matches (stored, rescored, deleted,
handles merged, in clubs whose days begin at other moments), the totals the pages read equal
a count made again from the seat results, and the ranking, the player page and a season's
table equal what adding up the seat results themselves gives."""

from __future__ import annotations

import itertools
import json
from collections import Counter, defaultdict
from datetime import UTC, date, datetime, timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clubs.models import Club
from clubs.zones import club_days
from competitions.seasons import Rules, season_open, season_rules, season_standings
from fives_engine.simulate import simulate_match
from games.models import Match, Player
from games.services.matches import match_delete, match_rescore
from games.services.players import players_merge
from games.services.uploads import upload_create
from replays import rankings, rating_history, totals
from replays.head_to_head import head_to_head_differ
from replays.models import ClubRatingChange, HeadToHead, PlayerTotals, RatingHistory, SeatResult
from replays.rankings import club_ranking, player_profile
from replays.rating_history import histories_differ, step_of
from replays.ratings import seat_values, shown_rating
from replays.stats import STATISTICS, player_figures, players_figures, results_filter
from replays.totals import ALL_TIME, totals_differ, totals_rebuild

pytestmark = pytest.mark.django_db

NAMES = ["Ana", "Beka", "Ciko", "Dato", "Eka"]
# Kiritimati's day begins 14 hours before UTC's: a match at 11:00 UTC is on the next day
# there, so a day's row and a season's bounds are read in the club's own calendar.
ZONES = {"tbilisi-fives-club": "Pacific/Kiritimati", "moscow": "UTC"}
START = datetime(2026, 10, 1, tzinfo=UTC)

operations = st.lists(
    st.one_of(
        st.tuples(
            st.just("store"),
            st.sampled_from(sorted(ZONES)),
            st.sampled_from([(2, False), (3, False), (4, False), (4, True)]),
            st.sampled_from(["muggins", "all-fives"]),
            st.integers(0, 60 * 24 * 20),  # minutes after START: 20 days
            st.integers(0, 2**16),
        ),
        st.tuples(st.just("delete"), st.integers(0, 1000)),
        st.tuples(st.just("rescore"), st.integers(0, 1000)),
        st.tuples(st.just("merge"), st.integers(0, 1000)),
    ),
    min_size=4,
    max_size=10,
)


def _store(owner, slug, table, base, minutes, seed, number):
    players, teams = table
    names = NAMES[:players] if seed % 2 else NAMES[-players:]
    doc = simulate_match({"base": base, "target": 30}, players, teams=teams, seed=seed, names=names)
    doc["id"] = f"totals-{number}"
    doc["club"] = Club.objects.get(slug=slug).name
    doc["played_at"] = (START + timedelta(minutes=minutes)).isoformat()
    upload_create(uploader=owner, data=json.dumps(doc).encode(), kind="json")


def _merge(owner, pick):
    """Merge two handles of one club that never sat in the same match, if there are any."""
    for club in Club.objects.filter(slug__in=ZONES).order_by("pk"):
        handles = list(Player.objects.filter(club=club).order_by("pk"))
        pairs = [
            (a, b)
            for a in handles
            for b in handles
            if a.pk < b.pk
            and not set(a.seats.values_list("match_id", flat=True))
            & set(b.seats.values_list("match_id", flat=True))
        ]
        if pairs:
            source, target = pairs[pick % len(pairs)]
            players_merge(actor=owner, source=source, target=target)
            return


def _apply(owner, operation, number):
    kind, *args = operation
    matches = list(Match.objects.order_by("pk").values_list("pk", flat=True))
    if kind == "store":
        _store(owner, *args, number)
    elif kind == "merge":
        _merge(owner, args[0])
    elif matches:
        match_id = matches[args[0] % len(matches)]
        (match_delete if kind == "delete" else match_rescore)(match_id=match_id)


# What a ranking row shows of the figures (its rates follow from them).
SHOWN = ("matches", "wins", "hands", "points")
NUMBERS = itertools.count()


def _season_by_hand(season, rules: Rules):
    """Each player's season row counted seat by seat in Python: played, won, for, against,
    league points (by place with three sides or more, else by win or loss)."""
    zone = season.club.time_zone
    rows = defaultdict(Counter)
    start, end = club_days(season.first_day, season.last_day, zone)
    for seat in SeatResult.objects.filter(
        club=season.club, in_club=True, complete=True, played_at__gte=start, played_at__lt=end
    ):
        row = rows[seat.player_id]
        row["played"] += 1
        row["won"] += seat.won
        row["for"] += seat.score
        row["against"] += seat.scored_against
        if seat.sides >= 3:
            places = rules.place_points
            row["league"] += places[seat.rank - 1] if seat.rank <= len(places) else 0
        else:
            row["league"] += rules.win_points if seat.won else rules.loss_points
    return {player_id: dict(row) for player_id, row in rows.items()}


def _history_by_hand(player):
    """A player's chart counted from their seat results and the rows the club's ratings
    left: (matches, rating shown) after every step-th match and the last."""
    seats = SeatResult.objects.filter(
        player=player, club_id=player.club_id, in_club=True, complete=True
    ).order_by("played_at", "match_id", "seat")
    after = [
        (number, seat_values(ClubRatingChange.objects.get(match_id=match_id).seats, seat)[0])
        for number, (match_id, seat) in enumerate(seats.values_list("match_id", "seat"), 1)
    ]
    step = step_of(len(after))
    return [
        (number, shown_rating(mu))
        for number, mu in after
        if number % step == 0 or number == len(after)
    ]


def _check_everything(now):
    assert totals_differ() == []
    assert head_to_head_differ() == []
    assert histories_differ() == []
    for club in Club.objects.filter(slug__in=ZONES):
        for period in ("", "30d", "90d"):
            for ruleset in ("", "muggins"):
                table = club_ranking(club=club, ruleset=ruleset, period=period, now=now)
                shown = {
                    row["player_id"]: {name: row[name] for name in SHOWN}
                    for group in ("ranked", "provisional", "inactive")
                    for row in table[group]
                    if row["matches"]
                }
                counted = players_figures(
                    condition=results_filter(
                        club_id=club.pk, ruleset=ruleset, period=period, now=now
                    )
                )
                rated = set(
                    club.players.filter(ratings__scope__club=club).values_list("pk", flat=True)
                )
                expected = {
                    player_id: {name: row[name] for name in SHOWN}
                    for player_id, row in counted.items()
                    if player_id in rated
                }
                assert shown == expected
    for player in Player.objects.all():
        profile = player_profile(player=player)
        assert profile["figures"] == player_figures(player_id=player.pk)
        shown = [(point["matches"], point["rating"]) for point in profile["history"]]
        assert shown == _history_by_hand(player)


def test_the_totals_keep_every_statistic_in_its_order():
    assert tuple(STATISTICS) == totals.STATISTICS


@settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(steps=operations, hours=st.integers(0, 20 * 24))
def test_totals_equal_a_count_of_the_seat_results_whatever_happens(
    owner, django_capture_on_commit_callbacks, monkeypatch, steps, hours
):
    # Charts of at most two points: a history of a few matches keeps and thins its points
    # as one of thousands does (the 1st and 2nd, then every 2nd to 4, every 4th to 8...).
    monkeypatch.setattr(rating_history, "HISTORY_POINTS", 2)
    monkeypatch.setattr(rankings, "HISTORY_POINTS", 2)
    for slug, zone in ZONES.items():
        Club.objects.filter(slug=slug).update(time_zone=zone)
    for step in steps:
        with django_capture_on_commit_callbacks(execute=True):
            _apply(owner, step, next(NUMBERS))
    # Thirty days back from a moment among the matches' 20 days: the period's first day is
    # partly in it, partly not.
    _check_everything(START + timedelta(days=30, hours=hours, minutes=17))


# Seasons of whole months, of parts of months at either end, of days inside one month.
SEASONS = [
    (date(2026, 10, 2), date(2026, 10, 5)),
    (date(2026, 10, 1), date(2026, 10, 31)),
    (date(2026, 9, 25), date(2026, 11, 3)),
    (date(2026, 9, 1), date(2026, 12, 31)),
    (date(2026, 9, 30), date(2026, 11, 1)),
]


def test_a_season_s_table_from_the_totals_equals_one_counted_seat_by_seat(
    owner, django_capture_on_commit_callbacks
):
    Club.objects.filter(slug="tbilisi-fives-club").update(time_zone="Pacific/Kiritimati")
    club = Club.objects.get(slug="tbilisi-fives-club")
    with django_capture_on_commit_callbacks(execute=True):
        for number in range(-6, 24):
            table = [(2, False), (3, False), (4, False), (4, True)][number % 4]
            # Every 2 days and 5 hours from 1 October, some before: some on a season's first
            # and last days in Kiritimati that are the day before or after in UTC.
            minutes = 60 * 53 * number
            _store(owner, club.slug, table, "muggins", minutes, number + 6, f"season-{number}")
    for first_day, last_day in SEASONS:
        season = season_open(
            actor=owner,
            club=club,
            name=f"From {first_day} to {last_day}",
            first_day=first_day,
            last_day=last_day,
            win_points=2,
            loss_points=1,
            place_points=[5, 3, 2, 1],
        )
        by_hand = _season_by_hand(season, season_rules(season))
        table = season_standings(season)
        assert {
            row.player_id: {
                "played": row.played,
                "won": row.won,
                "for": row.points_for,
                "against": row.points_against,
                "league": row.league_points,
            }
            for row in table
        } == {player_id: {"won": 0} | row for player_id, row in by_hand.items()}, season.name
        assert sum(row.played for row in table) > 0


def test_a_deleted_match_leaves_the_totals_and_a_rebuild_gives_the_same_rows(
    owner, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        for number in range(3):
            # Odd seeds: Ana and Beka play.
            _store(
                owner, "moscow", (2, False), "muggins", 90 * number, 2 * number + 1, f"d-{number}"
            )
    first = Match.objects.order_by("played_at").first()
    last = Match.objects.order_by("played_at").last()
    beka = Player.objects.get(club__slug="moscow", handle="Beka")
    before = PlayerTotals.objects.get(player=beka, month=ALL_TIME)
    assert before.matches == 3 and before.last_played == last.played_at
    with django_capture_on_commit_callbacks(execute=True):
        match_delete(match_id=last.pk)
    after = PlayerTotals.objects.get(player=beka, month=ALL_TIME)
    assert after.matches == 2
    assert after.last_played < last.played_at  # read again without the deleted match
    with django_capture_on_commit_callbacks(execute=True):
        for match in Match.objects.all():
            match_delete(match_id=match.pk)
    assert not PlayerTotals.objects.exists()  # nothing left counts: no rows left
    assert not HeadToHead.objects.exists()
    assert first.pk != last.pk
    with django_capture_on_commit_callbacks(execute=True):
        _store(owner, "moscow", (3, False), "all-fives", 0, 9, "again")
    kept = sorted(PlayerTotals.objects.values_list(flat=False).order_by())
    totals_rebuild()
    assert sorted(PlayerTotals.objects.values_list(flat=False).order_by()) == kept
    assert totals_differ() == []


def test_the_command_checks_the_totals_and_counts_them_again(
    owner, django_capture_on_commit_callbacks
):
    from django.core.management import CommandError, call_command

    with django_capture_on_commit_callbacks(execute=True):
        _store(owner, "moscow", (2, False), "muggins", 0, 1, "command")
    call_command("totals_rebuild", "--check")
    PlayerTotals.objects.filter(month=ALL_TIME).update(wins=7)  # a fault planted by hand
    with pytest.raises(CommandError, match="2 rows differ"):
        call_command("totals_rebuild", "--check", "--club", "moscow")
    call_command("totals_rebuild", "--club", "moscow")
    call_command("totals_rebuild", "--check")
    # The head to head is the whole archive's: checked and counted again without a club.
    HeadToHead.objects.filter(wins=1).update(wins=5)
    with pytest.raises(CommandError, match="1 rows differ"):
        call_command("totals_rebuild", "--check")
    call_command("totals_rebuild")
    call_command("totals_rebuild", "--check")
    # A rating's chart too: its kept points are counted again from the seat results.
    RatingHistory.objects.update(points=b"")
    with pytest.raises(CommandError, match="2 rows differ"):
        call_command("totals_rebuild", "--check", "--club", "moscow")
    call_command("totals_rebuild", "--club", "moscow")
    call_command("totals_rebuild", "--check")
