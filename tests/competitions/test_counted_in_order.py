"""Issue 36, item 1: every match counts where its players meant it to, in order.

A cup's tie is decided only by a match played after both players won their ties of the round
before, so a final played before its semi-finals crowns nobody; a match whose log names no
event counts for one event at most; a log may name the event and its round; and every match
of two entered players that is not counted is listed with its reason.

The cup is checked against an independent count: the matches replayed in the order played,
each deciding the tie its pair stands in at that moment (a different way to the same rule
from the service's round-by-round walk), over generated cups."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, date, datetime, timedelta

import pytest
from django.test import Client
from hypothesis import example, given, settings
from hypothesis import strategies as st

from competitions.seasons import Result
from competitions.tournaments import (
    BYE,
    Game,
    bracket_order,
    event_named,
    knockout_schedule,
    round_robin,
    round_robin_schedule,
    tournament_make,
    tournament_schedule,
)
from tests.competitions.test_events import players, store_match

START = datetime(2026, 12, 1, 10, tzinfo=UTC)
NAMES = {n: f"p{n}" for n in range(1, 9)}


def game(minute: int, winner: int, loser: int, *, draw=False, named=False, round_=None) -> Game:
    """Match ``minute`` (its id too): ``winner`` beat ``loser`` 61-40 (or a 50-50 draw)."""
    at = START + timedelta(minutes=minute)
    scores = (50, 50) if draw else (61, 40)
    return Game(
        minute,
        at,
        (
            Result(minute, at, winner, f"p{winner}", 0, 1, not draw, scores),
            Result(minute, at, loser, f"p{loser}", 1, 1 if draw else 2, False, scores),
        ),
        named,
        round_,
    )


def ties(drawn):
    return [[(f["a"], f["b"], f["winner"]) for f in r["fixtures"]] for r in drawn["rounds"]]


def reasons(drawn):
    return sorted((item.game.match_id, item.reason) for item in drawn["passed_over"])


# --- the cup of the issue: a final played before its semi-finals --------------------------


def test_a_final_played_before_the_semi_finals_crowns_nobody():
    seeds = [1, 2, 3, 4, 5]  # 1 v bye, 4 v 5, 2 v bye, 3 v bye; 1 v (4|5), 2 v 3; the final
    played = [
        game(0, 1, 3),  # "the final", played first of all: 1 beat 3
        game(10, 4, 5),  # round 1
        game(20, 1, 4),  # semi-final
        game(30, 3, 2),  # semi-final
    ]
    drawn = knockout_schedule(seeds, NAMES, played)
    assert ties(drawn) == [
        [(1, None, None), (4, 5, 4), (2, None, None), (3, None, None)],
        [(1, 4, 1), (2, 3, 3)],
        [(1, 3, None)],  # to play: the match of minute 0 came before both semi-finals
    ]
    assert drawn["champion"] is None
    assert reasons(drawn) == [(0, "too-early")]
    (early,) = drawn["passed_over"]
    assert early.detail == {"player": 1, "round": 2}
    # The final, played after both semi-finals, crowns the winner.
    drawn = knockout_schedule(seeds, NAMES, [*played, game(40, 3, 1)])
    assert drawn["champion"] == 3
    assert drawn["rounds"][2]["fixtures"][0]["match_id"] == 40


def test_a_draw_decides_no_tie_and_a_match_after_the_decider_is_listed():
    drawn = knockout_schedule(
        [1, 2], NAMES, [game(1, 1, 2, draw=True), game(2, 2, 1), game(3, 1, 2)]
    )
    assert drawn["champion"] == 2
    assert reasons(drawn) == [(1, "no-winner"), (3, "decided")]


def test_a_log_naming_another_round_fills_no_tie_of_this_one():
    seeds = [1, 2, 3, 4]  # 1 v 4, 2 v 3
    played = [game(1, 1, 4, named=True, round_=2), game(2, 4, 1, named=True, round_=1)]
    drawn = knockout_schedule(seeds, NAMES, played)
    assert ties(drawn)[0][0] == (1, 4, 4)
    assert reasons(drawn) == [(1, "other-round")]


def test_a_named_match_of_players_who_meet_in_no_tie_is_listed_an_unnamed_one_is_not():
    seeds = [1, 2, 3, 4]  # 1 v 4, 2 v 3: 1 and 2 meet only in a final not yet known
    drawn = knockout_schedule(seeds, NAMES, [game(1, 1, 2, named=True), game(2, 1, 3)])
    assert reasons(drawn) == [(1, "no-tie")]


# --- the same rule counted another way, over generated cups --------------------------------


def count_in_order(seeds: list[int], games: list[Game]) -> tuple[dict, int | None]:
    """Return each decided tie ((round, pair) -> match id) and the champion, by replaying the
    matches in the order played: a match decides the tie its two players stand in at that
    moment, when its log names no other round and it has a winner."""
    size = 1
    while size < len(seeds):
        size *= 2
    places = [seeds[s - 1] if s <= len(seeds) else BYE for s in bracket_order(size)]
    # Each player's round and place in it: places 2k and 2k+1 of a round meet; a bye moves
    # its player on to the second round at once.
    standing = {}
    for place, player in enumerate(places):
        if player != BYE:
            standing[player] = (2, place // 2) if places[place ^ 1] == BYE else (1, place)
    if size == 1:
        return {}, seeds[0] if seeds else None
    last_round = size.bit_length() - 1
    decided, champion = {}, None
    for g in sorted(games, key=lambda g: (g.played_at, g.match_id)):
        a, b = sorted(g.players)
        if a not in standing or b not in standing:
            continue
        (round_a, slot_a), (round_b, slot_b) = standing[a], standing[b]
        if round_a != round_b or slot_a // 2 != slot_b // 2 or slot_a == slot_b:
            continue  # not standing against each other now
        if g.round not in (None, round_a) or g.winner is None:
            continue
        decided[(round_a, frozenset((a, b)))] = g.match_id
        loser = b if g.winner == a else a
        del standing[loser]
        if round_a == last_round:
            champion = g.winner
            del standing[g.winner]
        else:
            standing[g.winner] = (round_a + 1, slot_a // 2)
    return decided, champion


@st.composite
def cups(draw):
    count = draw(st.integers(2, 8))
    seeds = list(range(1, count + 1))
    minutes = draw(st.lists(st.integers(0, 500), min_size=0, max_size=30, unique=True))
    games = []
    for minute in minutes:
        a, b = draw(st.lists(st.sampled_from(seeds), min_size=2, max_size=2, unique=True))
        draw_ = draw(st.integers(0, 9)) == 0
        named_round = draw(st.sampled_from([None, None, None, 1, 2, 3]))
        games.append(
            game(minute, a, b, draw=draw_, named=named_round is not None, round_=named_round)
        )
    return seeds, games


@settings(max_examples=300, deadline=None)
@given(cups())
@example(([1, 2], [game(1, 1, 2), game(0, 2, 1)]))  # given out of order
def test_a_cup_equals_the_matches_replayed_in_the_order_played(cup):
    seeds, games = cup
    drawn = knockout_schedule(seeds, NAMES, games)
    served = {
        (f["round"], frozenset((f["a"], f["b"]))): f["match_id"]
        for r in drawn["rounds"]
        for f in r["fixtures"]
        if f["state"] == "played"
    }
    decided, champion = count_in_order(seeds, games)
    assert served == decided
    assert drawn["champion"] == champion
    # Every match is counted once at most, and no counted match is also passed over.
    counted = Counter(served.values())
    assert all(times == 1 for times in counted.values())
    assert not set(counted) & {item.game.match_id for item in drawn["passed_over"]}
    # A champion's final was played after every match that put its two players there.
    if champion is not None:
        final = drawn["rounds"][-1]["fixtures"][0]
        before = [f for r in drawn["rounds"][:-1] for f in r["fixtures"] if f["state"] == "played"]
        assert all(f["played_at"] < final["played_at"] for f in before)


# --- round-robins: a named round, and each pair's matches once ----------------------------


class _Season:
    win_points, loss_points, place_points = 3, 0, []


class _Event:
    legs = 2
    season = _Season()


@settings(max_examples=200, deadline=None)
@given(
    st.integers(2, 5),
    st.lists(
        st.tuples(st.integers(0, 4), st.integers(0, 4), st.sampled_from([None, 1, 2, 3, 4, 5, 6])),
        max_size=25,
    ),
)
def test_a_round_robin_counts_each_pair_as_often_as_it_meets_and_named_rounds_where_named(
    count, made
):
    seeds = list(range(1, count + 1))
    games = [
        game(minute, seeds[a % count], seeds[b % count], named=round_ is not None, round_=round_)
        for minute, (a, b, round_) in enumerate(made)
        if a % count != b % count
    ]
    rounds = round_robin(seeds, 2)
    drawn = round_robin_schedule(_Event(), seeds, NAMES, games)
    fixtures = [f for r in drawn["rounds"] for f in r["fixtures"]]
    taken = [f["match_id"] for f in fixtures if f["match_id"] is not None]
    assert len(taken) == len(set(taken))
    passed = {item.game.match_id for item in drawn["passed_over"]}
    assert passed | set(taken) == {g.match_id for g in games}
    assert not passed & set(taken)
    meets = Counter(frozenset(pair) for r in rounds for pair in r.pairs)
    for pair, times in meets.items():
        mine = [g for g in games if g.players == pair]
        filled = [
            f for f in fixtures if frozenset((f["a"], f["b"])) == pair and f["match_id"] is not None
        ]
        assert len(filled) <= times
        # Unnamed matches of a pair are never passed over while the pair has a fixture left.
        if len(filled) < times:
            assert not any(g.round is None for g in mine if g.match_id in passed)
    by_id = {g.match_id: g for g in games}
    for f in fixtures:
        if f["match_id"] is not None and by_id[f["match_id"]].round is not None:
            assert by_id[f["match_id"]].round == f["round"]


def test_a_log_names_an_event_by_its_name_or_its_name_and_round():
    assert event_named("Autumn cup", "autumn  CUP") == (True, None)
    assert event_named("  autumn cup , Round 2 ", "Autumn cup") == (True, 2)
    assert event_named("Autumn cup, round two", "Autumn cup") == (False, None)
    assert event_named("Autumn cupboard", "Autumn cup") == (False, None)
    assert event_named("", "Autumn cup") == (False, None)
    assert event_named("Cup, round 1, round 2", "Cup, round 1") == (True, 2)


# --- stored: the cup, uploaded out of order, and a match two events could take -----


@pytest.mark.django_db
def test_a_stored_cup_uploaded_out_of_order_crowns_by_the_final_after_the_semis(
    owner, autumn, django_capture_on_commit_callbacks
):
    names = ["Nika", "Ana", "Beka", "Ciko", "Dato"]
    ids = players(owner, autumn.club, names)
    cup = tournament_make(
        actor=owner,
        season=autumn,
        name="December cup",
        kind="knockout",
        first_day=date(2026, 11, 28),
        last_day=date(2026, 11, 30),
        player_ids=ids,
    )
    schedule = tournament_schedule(cup)
    bracket = [(f["a_name"], f["b_name"], f["state"]) for f in schedule["rounds"][0]["fixtures"]]
    first_round = [pair for pair in bracket if pair[2] == "to-play"]
    assert len(first_round) == 1
    top = schedule["rounds"][1]["fixtures"]
    (opener,) = [(a, b) for a, b, state in first_round]
    bye_side = top[0]["a_name"] or top[0]["b_name"]
    other_semi = (top[1]["a_name"], top[1]["b_name"])
    with django_capture_on_commit_callbacks(execute=True):
        # Uploaded first, played first: "the final" of the bye side's best and a semi-finalist.
        store_match(owner, [bye_side, other_semi[0]], seed=71, played_at="2026-11-28T10:00:00Z")
        store_match(owner, list(opener), seed=72, played_at="2026-11-28T12:00:00Z")
    schedule = tournament_schedule(cup)
    assert schedule["champion"] is None
    opener_winner = next(
        f["winner"] for f in schedule["rounds"][0]["fixtures"] if f["state"] == "played"
    )
    names_of = {p["player_id"]: p["name"] for p in schedule["players"]}
    with django_capture_on_commit_callbacks(execute=True):
        semi_a = store_match(
            owner, [bye_side, names_of[opener_winner]], seed=73, played_at="2026-11-29T10:00:00Z"
        )
        semi_b = store_match(owner, list(other_semi), seed=74, played_at="2026-11-29T11:00:00Z")
    schedule = tournament_schedule(cup)
    final = schedule["rounds"][2]["fixtures"][0]
    finalists = {final["a_name"], final["b_name"]}
    assert finalists == {
        semi_a.seats.get(team=semi_a.winner).player.handle,
        semi_b.seats.get(team=semi_b.winner).player.handle,
    }
    # The final's pair played on the 28th, before either semi-final: that decides nothing.
    assert schedule["champion"] is None
    with django_capture_on_commit_callbacks(execute=True):
        last = store_match(owner, sorted(finalists), seed=75, played_at="2026-11-30T10:00:00Z")
    schedule = tournament_schedule(cup)
    assert schedule["champion_name"] == last.seats.get(team=last.winner).player.handle
    assert schedule["rounds"][2]["fixtures"][0]["match_id"] == last.pk
    # The match of the 28th before both semi-finals is never the final: listed, with why.
    early = [item for item in schedule["passed_over"] if item["reason"] == "too-early"]
    assert [item["a_name"] in finalists for item in early] in ([], [True])


@pytest.mark.django_db
def test_a_match_two_events_could_take_counts_for_neither_until_its_log_names_one(
    owner, autumn, django_capture_on_commit_callbacks
):
    ids = players(owner, autumn.club, ["Ana", "Beka", "Ciko", "Dato"])
    days = {"first_day": date(2026, 10, 3), "last_day": date(2026, 10, 3)}
    night = tournament_make(
        actor=owner, season=autumn, name="Club night", kind="round-robin", player_ids=ids, **days
    )
    cup = tournament_make(
        actor=owner, season=autumn, name="Night cup", kind="knockout", player_ids=ids, **days
    )
    pair = [p["name"] for p in tournament_schedule(cup)["players"]]
    top, bottom = pair[0], pair[3]  # seed 1 meets seed 4 in the cup's first round
    with django_capture_on_commit_callbacks(execute=True):
        both = store_match(owner, [top, bottom], seed=81, played_at="2026-10-03T15:00:00Z")
    for event in (night, cup):
        schedule = tournament_schedule(event)
        assert schedule["played"] == 0
        (item,) = schedule["passed_over"]
        assert (item["match_id"], item["reason"]) == (both.pk, "other-event")
    with django_capture_on_commit_callbacks(execute=True):
        named = store_match(
            owner,
            [top, bottom],
            seed=82,
            played_at="2026-10-03T16:00:00Z",
            event="night cup, round 1",
        )
    cup_schedule = tournament_schedule(cup)
    assert cup_schedule["rounds"][0]["fixtures"][0]["match_id"] == named.pk
    assert cup_schedule["rounds"][0]["fixtures"][0]["how"] == "named"
    assert tournament_schedule(night)["played"] == 0  # the named match is the cup's alone
    # The page says which match was not counted and why; the API carries the reason.
    page = Client().get(f"/clubs/{autumn.club.slug}/events/{night.pk}/")
    assert page.status_code == 200
    assert "Night cup" in page.content.decode()
    answer = Client().get(f"/api/v1/clubs/{autumn.club.slug}/events/{night.pk}/").json()
    assert [item["reason"] for item in answer["passed_over"]] == ["other-event"]
