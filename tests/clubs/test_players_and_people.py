"""Players and the people behind them: a member claims a handle and an admin confirms; admins
rename a handle or merge two handles of one person, and the ratings come out exactly as if
every match had been uploaded under one name."""

from __future__ import annotations

import pytest

from clubs.models import Club
from games.models import Match, Player, PlayerAlias, Seat
from replays.models import Rating, SeatResult
from tests.clubs.conftest import error_of, log, send

pytestmark = pytest.mark.django_db


@pytest.fixture
def stored(owner, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        send(owner, log(1, names=("Levan", "Nino")))
    return Player.objects.get(handle="Levan")


@pytest.mark.parametrize(("persona", "expected"), [("outsider", 403), (None, 401)])
def test_only_members_claim_a_handle(stored, api_as, persona, expected):
    response = api_as(persona).post(f"/api/v1/players/{stored.pk}/claim/")
    assert response.status_code == expected and "error" in response.json()


def test_a_member_claims_a_handle_and_an_admin_confirms(stored, api_as, member, club_admin):
    claim = api_as("member").post(f"/api/v1/players/{stored.pk}/claim/")
    assert claim.status_code == 201 and claim.json()["status"] == "pending"
    pk = claim.json()["id"]
    path = f"/api/v1/clubs/tbilisi-fives-club/claims/{pk}/confirm/"
    assert api_as("member").post(path).status_code == 403
    listed = api_as("club_admin").get("/api/v1/clubs/tbilisi-fives-club/claims/").json()
    assert [c["handle"] for c in listed["results"]] == ["Levan"]
    assert api_as("club_admin").post(path).json()["status"] == "confirmed"
    stored.refresh_from_db()
    assert stored.user == member
    again = api_as("owner").post(f"/api/v1/players/{stored.pk}/claim/")
    assert again.status_code == 409 and error_of(again)["code"] == "claimed"


def test_the_player_page_shows_the_persons_clubs(stored, member, page_as):
    Player.objects.filter(pk=stored.pk).update(user=member)
    text = page_as(None).get(f"/players/{stored.pk}/").content.decode()
    assert "Their clubs" in text and "Tbilisi Fives Club" in text


def test_admins_rename_a_handle_and_the_old_one_still_finds_the_player(
    stored, api_as, owner, django_capture_on_commit_callbacks
):
    path = f"/api/v1/players/{stored.pk}/rename/"
    assert api_as("member").post(path, {"handle": "Levan G."}, format="json").status_code == 403
    renamed = api_as("club_admin").post(path, {"handle": "Levan G."}, format="json")
    assert renamed.status_code == 200 and renamed.json()["handle"] == "Levan G."
    taken = api_as("club_admin").post(path, {"handle": "Nino"}, format="json")
    assert taken.status_code == 409 and error_of(taken)["code"] == "taken"
    with django_capture_on_commit_callbacks(execute=True):
        send(owner, log(2, names=("Levan", "Nino")))
    assert Player.objects.filter(club__slug="tbilisi-fives-club").count() == 2
    assert Seat.objects.filter(player=stored).count() == 2


def _ratings(club_slug: str) -> dict[str, tuple[float, float, int]]:
    return {
        rating.player.handle: (rating.mu, rating.sigma, rating.matches)
        for rating in Rating.objects.filter(scope__club__slug=club_slug).select_related("player")
    }


def test_merging_two_handles_rates_as_if_uploaded_under_one_name(
    owner, api_as, django_capture_on_commit_callbacks
):
    """Kutaisi gets the matches under two spellings, Moscow under one; after the merge the
    two tables are the same, to the last bit."""
    table = [
        (("Ana", "Beka"), "Ana"),
        (("Beka", "Dato"), "Ana"),
        (("Ana", "Dato"), "Ana B."),
        (("Beka", "Ana"), "Ana B."),
        (("Dato", "Ana"), "Ana"),
        (("Ana", "Beka", "Dato"), "Ana B."),
    ]
    with django_capture_on_commit_callbacks(execute=True):
        for seed, (names, spelling) in enumerate(table, start=1):
            played_at = f"2026-09-{seed:02d}T20:00:00+00:00"
            written = tuple(spelling if name == "Ana" else name for name in names)
            send(owner, log(seed, names=written, club="Kutaisi", played_at=played_at))
            send(owner, log(seed, names=names, club="Moscow", played_at=played_at))
    assert set(_ratings("kutaisi")) == {"Ana", "Ana B.", "Beka", "Dato"}
    kutaisi = Club.objects.get(slug="kutaisi")
    source = Player.objects.get(club=kutaisi, handle="Ana B.")
    target = Player.objects.get(club=kutaisi, handle="Ana")
    path = f"/api/v1/players/{source.pk}/merge/"
    with django_capture_on_commit_callbacks(execute=True):
        response = api_as("owner").post(path, {"into": target.pk}, format="json")
    assert response.status_code == 200 and response.json()["id"] == target.pk
    assert _ratings("kutaisi") == _ratings("moscow")
    assert Match.objects.filter(club=kutaisi).count() == len(table)  # every match kept
    assert SeatResult.objects.filter(player=target).count() == 5  # every match but the 2nd
    assert PlayerAlias.objects.get(club=kutaisi, handle="Ana B.").player == target


def test_only_admins_merge_and_never_two_people_of_one_match(stored, api_as):
    nino = Player.objects.get(handle="Nino")
    path = f"/api/v1/players/{stored.pk}/merge/"
    assert api_as("member").post(path, {"into": nino.pk}, format="json").status_code == 403
    assert api_as("outsider").post(path, {"into": nino.pk}, format="json").status_code == 403
    refused = api_as("owner").post(path, {"into": nino.pk}, format="json")
    assert refused.status_code == 409 and error_of(refused)["code"] == "two-people"


def test_a_renamed_handle_shows_at_once_in_cached_answers_about_its_matches(
    stored, api_as, page_as, django_capture_on_commit_callbacks
):
    match = Match.objects.get(seats__player=stored)
    detail, replay = f"/api/v1/matches/{match.pk}/", f"/api/v1/matches/{match.pk}/replay/"

    def handles() -> tuple[list[str], list[str]]:
        players = api_as(None).get(detail).json()["players"]
        return players, api_as(None).get(replay).json()["players"]

    assert handles() == (["Levan", "Nino"], ["Levan", "Nino"])  # now kept in the cache
    page = page_as(None).get(f"/matches/{match.pk}/").content.decode()
    assert "Lado" not in page
    with django_capture_on_commit_callbacks(execute=True):
        renamed = api_as("club_admin").post(
            f"/api/v1/players/{stored.pk}/rename/", {"handle": "Lado"}, format="json"
        )
    assert renamed.status_code == 200
    assert handles() == (["Lado", "Nino"], ["Lado", "Nino"])
    assert "Lado" in page_as(None).get(f"/matches/{match.pk}/").content.decode()


def test_a_cached_match_answer_reads_the_match_row_once(
    stored, api_as, django_assert_max_num_queries
):
    match = Match.objects.get(seats__player=stored)
    client = api_as(None)
    for path in (f"/api/v1/matches/{match.pk}/", f"/api/v1/matches/{match.pk}/replay/"):
        client.get(path)  # computed and kept
        with django_assert_max_num_queries(1):  # the match's version: id, rescore, club
            assert client.get(path).status_code == 200


def test_renaming_and_merging_on_the_manage_page_say_what_was_done(
    stored, page_as, owner, django_capture_on_commit_callbacks
):
    client = page_as("club_admin")
    renamed = client.post(f"/players/{stored.pk}/rename/", {"handle": "<b>Lado</b>"}, follow=True)
    text = renamed.content.decode()
    assert "is now &lt;b&gt;Lado&lt;/b&gt;; logs that write Levan still land" in text
    with django_capture_on_commit_callbacks(execute=True):
        send(owner, log(3, names=("Levan2", "Beka")))
    other = Player.objects.get(handle="Levan2")
    stored.refresh_from_db()
    merged = client.post(f"/players/{other.pk}/merge/", {"into": stored.pk}, follow=True)
    assert "Levan2 is merged into &lt;b&gt;Lado&lt;/b&gt;" in merged.content.decode()


def test_the_player_page_links_the_clubs_admins_to_renaming_the_handle(stored, page_as):
    link = f'/clubs/tbilisi-fives-club/manage/#rename-{stored.pk}"'
    assert link in page_as("club_admin").get(f"/players/{stored.pk}/").content.decode()
    for persona in ("member", None):
        assert link not in page_as(persona).get(f"/players/{stored.pk}/").content.decode()


def test_the_manage_page_lists_the_handles_once_and_merges_by_the_handle_typed(
    stored, page_as, owner, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        send(owner, log(4, names=("Levan K.", "Beka")))
    client = page_as("club_admin")
    page = client.get("/clubs/tbilisi-fives-club/manage/").content.decode()
    players = Player.objects.filter(club=stored.club).count()
    # One list of the handles for every row (a list per row grew with the square of the
    # players): its options, and no other list of players on the page.
    handles = page.split('<datalist id="club-handles">', 1)[1].split("</datalist>", 1)[0]
    assert handles.count("<option value=") == players
    assert page.count('list="club-handles"') == players and '<select id="merge-' not in page
    other = Player.objects.get(handle="Levan K.")
    # Typed in another case: the one handle of the club that reads so.
    merged = client.post(f"/players/{other.pk}/merge/", {"into_handle": " levan "}, follow=True)
    assert "Levan K. is merged into Levan" in merged.content.decode()
    assert not Player.objects.filter(pk=other.pk).exists()
    # Refused, the admin is sent back to the page they were on, saying why.
    manage = "http://testserver/clubs/tbilisi-fives-club/manage/"
    nobody = client.post(
        f"/players/{stored.pk}/merge/", {"into_handle": "Nobody"}, HTTP_REFERER=manage
    )
    assert nobody.url == manage
    said = client.get(manage).content.decode()
    assert "Choose a player of the same club to merge into." in said
    elsewhere = client.post(
        f"/players/{stored.pk}/merge/",
        {"into_handle": "Nobody"},
        HTTP_REFERER="https://evil.example/",
    )
    assert elsewhere.url == "/"
