"""The pages: anyone reads, only a signed-in user uploads, the match page shows the engine."""

from __future__ import annotations

import json
import re

import pytest
from django.utils.html import escape

from fives_engine import validate_log
from fives_engine.simulate import simulate_match
from games.models import Match, Upload
from games.services.uploads import upload_create
from tests.archive.helpers import as_bytes, illegal_log, ndjson, valid_log

pytestmark = pytest.mark.django_db


def text_of(response) -> str:
    html = response.content.decode()
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


@pytest.fixture
def stored(owner, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        upload = upload_create(
            uploader=owner, data=ndjson(valid_log(1), valid_log(2)), kind="ndjson"
        )
    return upload


def test_anyone_can_read_the_match_list_and_a_match(client, stored):
    response = client.get("/")
    assert response.status_code == 200
    for match in Match.objects.all():
        assert f'href="/matches/{match.pk}/"' in response.content.decode()
        assert client.get(f"/matches/{match.pk}/").status_code == 200


def test_the_match_page_shows_the_engines_hands_and_scores(client, stored):
    match = Match.objects.order_by("id").first()
    report = validate_log(valid_log(1)).as_dict()
    page = text_of(client.get(match.get_absolute_url()))
    assert "Nino · Giorgi" in page
    assert "Ruleset Muggins" in page  # the preset by its name, in the reader's language
    russian = text_of(client.get(match.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="ru"))
    assert "Маггинс" in russian
    for number, hand in enumerate(report["hands"], start=1):
        cells = " ".join(
            f"{hand['points'][t]} {hand['settlement'][t]} {hand['scores'][t]}" for t in (0, 1)
        )
        assert f"{number} {_end_word(hand['end'])} {cells}" in page
    final = report["scores"][report["winner"]]
    assert f"{final} ★" in page


def _end_word(end: str) -> str:
    return {"domino": "domino", "block": "blocked", "target": "target reached"}[end]


def test_the_match_page_shows_claimed_against_computed(
    client, owner, django_capture_on_commit_callbacks
):
    doc = valid_log(3)
    doc["hands"][0]["moves"][0]["points"] = 99
    doc["final_scores"] = [1, 2]
    with django_capture_on_commit_callbacks(execute=True):
        upload_create(uploader=owner, data=as_bytes(doc), kind="json")
    match = Match.objects.get()
    page = text_of(client.get(match.get_absolute_url()))
    assert "Claimed against computed" in page
    assert "hand 1, move 1: claimed 99 points" in page
    assert "written: 1" in page and "written: 2" in page


def test_the_list_filters_by_club_ruleset_outcome_and_date(client, stored):
    assert "/matches/" in client.get("/?ruleset=muggins&outcome=complete").content.decode()
    assert "No match fits these filters." in text_of(client.get("/?ruleset=all-threes"))
    assert "No match fits these filters." in text_of(client.get("/?date_from=2027-01-01"))
    same_day = client.get("/?date_from=2026-11-20&date_to=2026-11-20").content.decode()
    assert 'href="/matches/' in same_day
    assert "No match fits these filters." in text_of(client.get("/?club=nowhere"))


def test_club_and_player_pages_list_their_matches(client, stored):
    match = Match.objects.first()
    club_page = client.get(match.club.get_absolute_url()).content.decode()
    player = match.seats.first().player
    player_page = client.get(player.get_absolute_url()).content.decode()
    for page in (club_page, player_page):
        assert f'href="/matches/{match.pk}/"' in page


def test_an_anonymous_visitor_is_sent_to_sign_in_to_upload(client):
    response = client.get("/uploads/new/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")
    response = client.post("/uploads/new/", {"text": as_bytes(valid_log()).decode()})
    assert response.status_code == 302
    assert Upload.objects.count() == 0


def test_a_signed_in_user_uploads_by_pasting_and_sees_the_result(
    client, owner, django_capture_on_commit_callbacks
):
    client.force_login(owner)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post("/uploads/new/", {"text": as_bytes(valid_log()).decode()})
    response = client.get(response["Location"])
    assert response.status_code == 200
    upload = Upload.objects.get()
    assert upload.uploader == owner
    page = text_of(response)
    assert "Status: accepted" in page
    assert f"match {Match.objects.get().pk}" in page


def test_a_signed_in_user_uploads_a_file_and_sees_each_error_in_words(
    client, owner, django_capture_on_commit_callbacks
):
    from django.core.files.uploadedfile import SimpleUploadedFile

    client.force_login(owner)
    data = ndjson(valid_log(1), illegal_log())
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post("/uploads/new/", {"file": SimpleUploadedFile("night.ndjson", data)})
    response = client.get(response["Location"])
    page = text_of(response)
    assert "Status: partly accepted" in page
    assert "A move out of turn" in page
    assert "hand 1, move 2: " in page


def test_an_empty_form_is_refused_with_a_message(client, owner):
    client.force_login(owner)
    response = client.post("/uploads/new/", {"text": "   "})
    assert response.status_code == 200
    assert "Paste a log or choose a file." in text_of(response)


def test_what_a_user_typed_is_escaped(client, owner, django_capture_on_commit_callbacks):
    doc = valid_log(4, event="<script>alert(1)</script>")
    doc["players"] = ["<b>Nino</b>", "Giorgi"]
    with django_capture_on_commit_callbacks(execute=True):
        upload_create(uploader=owner, data=as_bytes(doc), kind="json")
    match = Match.objects.get()
    html = client.get(match.get_absolute_url()).content.decode()
    assert "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;" in html
    assert "<b>Nino</b>" not in html


def test_a_list_row_links_each_name_escaped_in_the_readers_language(
    client, owner, django_capture_on_commit_callbacks
):
    pairs = simulate_match(
        "all-fives", 4, teams=True, seed=5, names=["<b>Nino</b>", "Giorgi", "Levan", "Tamar"]
    )
    pairs.update(id="pairs", club="Tbilisi Fives Club", played_at="2026-11-20T19:05:00+04:00")
    undated = valid_log(6, id="undated")
    del undated["played_at"]
    with django_capture_on_commit_callbacks(execute=True):
        upload_create(uploader=owner, data=ndjson(pairs, undated), kind="ndjson")
    html = client.get("/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    rows = {row.split('href="', 1)[1].split('"', 1)[0]: row for row in html.split("<tr>")[2:]}
    assert "<b>Nino</b>" not in html
    match = Match.objects.get(external_id="pairs")
    row = rows[match.get_absolute_url()]
    assert (
        '<span class="nowrap">20.11.2026</span> <span class="nowrap">19:05 UTC+04:00</span>' in row
    )
    seats = match.seats.order_by("seat").select_related("player")
    players = ", ".join(
        f'<a href="{seat.player.get_absolute_url()}">{escape(seat.player.handle)}</a>'
        for seat in seats
    )
    assert players + ' <span class="muted">(пары)</span>' in row
    assert f'<td class="num">{" – ".join(map(str, match.scores))}</td>' in row
    assert f'<td><a href="{match.club.get_absolute_url()}">Tbilisi Fives Club</a></td>' in row
    assert (
        f"<td>{ {'complete': 'завершена', 'unfinished': 'не завершена'}[match.outcome] }</td>"
        in row
    )
    assert "<td>Пятёрочка</td>" in row
    undated_match = Match.objects.get(external_id="undated")
    assert f">матч {undated_match.pk}</a>" in rows[undated_match.get_absolute_url()]
    assert "<td>Маггинс</td>" in rows[undated_match.get_absolute_url()]


def test_the_pages_speak_russian_and_georgian(client, stored):
    response = client.get("/", HTTP_ACCEPT_LANGUAGE="ru")
    assert response.status_code == 200
    page = response.content.decode()
    assert 'lang="ru"' in page and "Матчи" in page and "Загрузить" in page
    page = client.get("/", HTTP_ACCEPT_LANGUAGE="ka").content.decode()
    assert 'lang="ka"' in page and "მატჩები" in page and "ატვირთვა" in page
    match = Match.objects.first()
    page = client.get(match.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Открытые концы" in page
    # The replay's own words travel as JSON in the page.
    assert json.dumps("Кон %(hand)s, ход %(move)s")[1:-1] in page


def test_the_match_page_draws_a_score_chart_line_per_team(client, stored):
    match = Match.objects.order_by("id").first()
    html = client.get(match.get_absolute_url()).content.decode()
    chart = html[html.index('<figure class="score-chart">') : html.index("</figure>")]
    assert chart.count("<polyline") == 2
    labels = re.findall(r'class="label team-\d">(-?\d+)</text>', chart)
    assert [int(label) for label in labels] == match.scores


def test_the_match_page_sums_each_players_missed_points(client, stored):
    from fives_engine.analysis import analyse_log
    from games.services.matches import match_log

    match = Match.objects.order_by("id").first()
    analysis = analyse_log(match_log(match=Match.objects.with_log().get(pk=match.pk)))
    doc = match_log(match=Match.objects.with_log().get(pk=match.pk))
    missed = [0, 0]
    for hand, insights in zip(doc["hands"], analysis.moves, strict=True):
        for move, insight in zip(hand["moves"], insights, strict=True):
            if insight is not None:
                missed[move["seat"]] += insight.missed
    html = client.get(match.get_absolute_url()).content.decode()
    shown = [int(v) for v in re.findall(r'<td class="num missed">(\d+)</td>', html)]
    assert shown == missed


def test_the_admin_shows_a_matchs_packed_hands_decoded_and_its_digest(
    client, stored, django_user_model
):
    staff = django_user_model.objects.create_superuser("root", password="x" * 12)
    client.force_login(staff)
    match = Match.objects.order_by("id").first()
    page = client.get(f"/admin/games/match/{match.pk}/change/")
    assert page.status_code == 200
    text = page.content.decode()
    assert bytes(match.content_hash).hex() in text
    first_move = match.hands[0].moves()[0]
    assert f"1. {first_move['seat']} play {first_move['tile']}" in text
    # Viewed, not edited: no field of it is changed there (its approval included).
    assert 'name="_save"' not in text
    refused = client.post(f"/admin/games/match/{match.pk}/change/", {"approval": "rejected"})
    assert refused.status_code == 403
    match.refresh_from_db()
    assert match.approval == Match.Approval.APPROVED
    # Rescoring stays the admin's to do (tasks run in-process here).
    Match.objects.filter(pk=match.pk).update(rescored_at=None)
    answer = client.post(
        "/admin/games/match/", {"action": "rescore", "_selected_action": [match.pk]}
    )
    assert answer.status_code == 302
    match.refresh_from_db()
    assert match.rescored_at is not None
    assert client.get("/admin/games/upload/").status_code == 200
