"""Holding against an attacker: sign-in lock-out on both sign-in pages, the Content-Security-
Policy, a production configuration that refuses to start unkeyed and passes
``check --deploy``, the demo user only with DEBUG, and requests that used to be 500s."""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import override_settings

from api import views
from games.models import ApiToken
from games.tokens import token_create
from tests.archive.helpers import ndjson, valid_log

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]
LOCKED = "Too many failed sign-ins"
SIGN_IN_PAGES = ["/accounts/login/", "/admin/login/"]


@pytest.fixture
def staff(django_user_model):
    return django_user_model.objects.create_user(
        "ketevan", password="the-right-password-9", is_staff=True, is_superuser=True
    )


def sign_in(client, page, username, password, address="198.51.100.20"):
    return client.post(page, {"username": username, "password": password}, REMOTE_ADDR=address)


@pytest.mark.parametrize("page", SIGN_IN_PAGES)
def test_after_five_wrong_passwords_the_right_one_is_refused_for_a_while(client, staff, page):
    for _ in range(4):
        assert LOCKED not in sign_in(client, page, "ketevan", "wrong").content.decode()
    locked = sign_in(client, page, "ketevan", "wrong")
    assert locked.status_code == 429 and LOCKED in locked.content.decode()
    refused = sign_in(client, page, "ketevan", "the-right-password-9")
    assert refused.status_code == 429
    assert "Try again in 15 minutes" in refused.content.decode()
    assert "_auth_user_id" not in client.session


def test_a_strangers_wrong_passwords_do_not_lock_the_account_out_elsewhere(client, staff):
    """Issue 25, item 3: the name and the address were counted apart, so five wrong passwords
    from anywhere locked the real person (the admin included) out from every address."""
    for _ in range(5):
        sign_in(client, "/accounts/login/", "ketevan", "wrong", "203.0.113.66")
    locked = sign_in(client, "/accounts/login/", "ketevan", "wrong", "203.0.113.66")
    assert locked.status_code == 429
    home = sign_in(client, "/accounts/login/", "ketevan", "the-right-password-9", "198.51.100.9")
    assert home.status_code == 302
    assert client.session["_auth_user_id"] == str(staff.pk)


@pytest.mark.parametrize("page", SIGN_IN_PAGES)
def test_after_the_lock_period_the_right_password_works(client, staff, page, settings):
    for _ in range(5):
        sign_in(client, page, "ketevan", "wrong")
    settings.AXES_COOLOFF_TIME = 0.000001  # hours: the lock has run out
    answer = sign_in(client, page, "ketevan", "the-right-password-9")
    assert answer.status_code == 302
    assert client.session["_auth_user_id"] == str(staff.pk)


def test_one_address_trying_many_accounts_meets_its_slower_limit(client, staff, settings):
    settings.FIVES_SIGNIN_ADDRESS_FAILURES = "12/h"
    codes = [
        sign_in(client, "/accounts/login/", f"someone-{number}", "guess").status_code
        for number in range(12)
    ]
    assert codes == [200] * 12  # a new name each time: axes' pair lock never fires
    answer = sign_in(client, "/accounts/login/", "ketevan", "the-right-password-9")
    assert answer.status_code == 429
    assert LOCKED in answer.content.decode()
    assert "_auth_user_id" not in client.session
    # From elsewhere the account is fine: it had no failure of its own.
    assert (
        sign_in(
            client, "/accounts/login/", "ketevan", "the-right-password-9", "192.0.2.77"
        ).status_code
        == 302
    )


def test_a_few_mistakes_do_not_lock_anyone_out(client, staff):
    for _ in range(3):
        sign_in(client, "/accounts/login/", "ketevan", "wrong")
    assert sign_in(client, "/accounts/login/", "ketevan", "the-right-password-9").status_code == 302


# --- Content-Security-Policy ----------------------------------------------------------------

INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*application/json)([^>]*)>", re.I)


@pytest.fixture
def pages(owner, client, django_capture_on_commit_callbacks):
    from clubs.models import Club
    from games.models import Match, Player
    from games.services.uploads import upload_create

    with django_capture_on_commit_callbacks(execute=True):
        upload_create(uploader=owner, data=ndjson(valid_log(1), valid_log(2)), kind="ndjson")
    match = Match.objects.first()
    return [
        "/",
        f"/matches/{match.pk}/",
        f"/embed/matches/{match.pk}/",
        f"/clubs/{Club.objects.first().slug}/",
        f"/clubs/{Club.objects.first().slug}/ranking/",
        f"/players/{Player.objects.first().pk}/",
        "/accounts/login/",
        "/admin/login/",
        "/api/docs/",
    ]


def test_no_other_site_may_frame_a_page_but_the_embed(client, pages):
    """Issue 25, item 12: no frame-ancestors in the policy; X-Frame-Options alone is the
    old header. The embed of a replay is the page made to be framed."""
    for page in pages:
        policy = client.get(page)["Content-Security-Policy"]
        if page.startswith("/embed/"):
            assert "frame-ancestors" not in policy and "script-src 'self'" in policy
        else:
            assert "frame-ancestors 'none'" in policy, (page, policy)


def test_every_page_has_a_strict_policy_and_no_inline_code_without_its_nonce(client, pages):
    for page in pages:
        response = client.get(page)
        assert response.status_code == 200, page
        policy = response["Content-Security-Policy"]
        directives = dict(part.strip().split(" ", 1) for part in policy.split(";"))
        assert "'unsafe-inline'" not in directives["script-src"], page
        assert "'unsafe-eval'" not in directives["script-src"], page
        assert directives["default-src"] == "'self'"
        html = response.content.decode()
        nonce = re.search(r"'nonce-([^']+)'", directives["script-src"])
        for attributes in INLINE_SCRIPT.findall(html):
            assert nonce and f'nonce="{nonce.group(1)}"' in attributes, page
        assert not re.search(r"\son[a-z]+\s*=", html), page  # no onclick=, onchange=...


def test_the_replay_data_travels_as_json_blocks(client, pages):
    html = client.get(pages[1]).content.decode()
    assert '<script id="replay-data" type="application/json">' in html
    assert re.search(r'<script src="/static/replays/replay\.js[^"]*" defer>', html)


# --- settings -------------------------------------------------------------------------------


# The tests' own settings, and what the browser tests set for Playwright (not for production).
UNSET = ("SECRET_KEY", "DEBUG", "FIVES_HTTPS", "DJANGO_ALLOW_ASYNC_UNSAFE")


def run_django(args, **env):
    base = {k: v for k, v in os.environ.items() if k not in UNSET}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**base, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_without_debug_the_archive_refuses_to_start_without_a_secret_key():
    refused = run_django(["check"])
    assert refused.returncode != 0
    assert "Set SECRET_KEY" in refused.stderr
    assert run_django(["check"], DEBUG="1").returncode == 0  # a development key is fine


@pytest.mark.parametrize("key", ["x", " ", "k" * 60, "django-insecure-" + "ab3De" * 10])
def test_without_debug_a_weak_secret_key_is_refused(key):
    """Issue 25, item 12: a key of one letter (or a space) started the archive."""
    refused = run_django(["check"], SECRET_KEY=key)
    assert refused.returncode != 0
    assert "SECRET_KEY is weak" in refused.stderr


def test_check_deploy_is_clean_with_production_settings():
    result = run_django(
        ["check", "--deploy", "--fail-level", "WARNING"],
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="fives.example",
        CSRF_TRUSTED_ORIGINS="https://fives.example",
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout
    assert "WARNINGS" not in result.stdout + result.stderr


def test_production_defaults_are_https_and_a_proxy_may_do_the_redirect():
    probe = (
        "from django.conf import settings as s; "
        "print(s.SECURE_SSL_REDIRECT, s.SECURE_HSTS_SECONDS, s.SESSION_COOKIE_SECURE, "
        "s.CSRF_COOKIE_SECURE, s.SECURE_PROXY_SSL_HEADER)"
    )
    key = secrets.token_urlsafe(50)
    production = run_django(["shell", "--no-imports", "-c", probe], SECRET_KEY=key)
    assert production.stdout.split() == ["True", "31536000", "True", "True", "None"]
    behind = run_django(
        ["shell", "--no-imports", "-c", probe],
        SECRET_KEY=key,
        FIVES_SSL_REDIRECT="0",
        FIVES_TRUSTED_PROXIES="1",
    )
    assert behind.stdout.split()[:4] == ["False", "31536000", "True", "True"]
    assert "HTTP_X_FORWARDED_PROTO" in behind.stdout
    development = run_django(["shell", "--no-imports", "-c", probe], DEBUG="1")
    assert development.stdout.split() == ["False", "0", "False", "False", "None"]


@override_settings(DEBUG=True)
def test_demo_makes_the_demo_user_only_with_debug():
    call_command("demo", matches=3, stdout=StringIO())
    assert get_user_model().objects.get(username="demo").check_password("demo-fives")


def test_without_debug_demo_data_belongs_to_a_user_who_cannot_sign_in():
    call_command("demo", matches=3, stdout=StringIO())
    assert not get_user_model().objects.filter(username="demo").exists()
    owner = get_user_model().objects.get(username="demo-data")
    assert not owner.has_usable_password()
    assert owner.uploads.exists()


# --- requests that were 500s ----------------------------------------------------------------


@pytest.mark.parametrize("value", ["abc", "", "12274940369496422400", "٣"])
def test_revoking_a_token_that_is_no_number_says_so(client, owner, value):
    token, _key = token_create(user=owner, name="kept", scopes=["read"])
    client.force_login(owner)
    response = client.post("/settings/tokens/", {"revoke": value}, follow=True)
    assert response.status_code == 200
    assert "No such token to revoke." in response.content.decode()
    assert ApiToken.objects.get(pk=token.pk).revoked_at is None


def test_a_player_id_beyond_any_integer_finds_what_an_unknown_id_finds(client):
    # Issue 55: no id of anything (clubs.ids), as an id nothing has; it was a 400 before.
    answer = client.get("/api/v1/matches/?player=12274940369496422400")
    assert answer.status_code == 200 and answer.json()["results"] == []
    assert client.get("/api/v1/matches/export?player=12274940369496422400").status_code == 200
    assert client.get("/?player=12274940369496422400").status_code == 200


def test_unknown_parameters_add_no_cache_entries_and_do_not_leak(
    client, owner, django_capture_on_commit_callbacks, monkeypatch
):
    from games.services.uploads import upload_create

    with django_capture_on_commit_callbacks(execute=True):
        upload_create(
            uploader=owner, data=ndjson(*(valid_log(n) for n in range(1, 4))), kind="ndjson"
        )

    keys = set()
    real_cached_list = views.cached_list

    def recording(key, compute):
        keys.add(key)
        return real_cached_list(key, compute)

    monkeypatch.setattr(views, "cached_list", recording)

    def list_entries() -> int:
        return len(keys)

    first = client.get("/api/v1/matches/?page_size=1&evil=<script>&ruleset=muggins")
    assert first.status_code == 200
    assert "evil" not in first.json()["next"]
    for n in range(20):
        assert (
            client.get(f"/api/v1/matches/?ruleset=muggins&page_size=1&junk{n}={n}").status_code
            == 200
        )
    assert list_entries() == 1
    client.get("/api/v1/matches/?page_size=2")
    assert list_entries() == 2


@pytest.mark.parametrize(
    "path",
    [
        "/clubs/%00/",
        "/clubs/%00/ranking/",
        "/api/v1/clubs/%00/",
        "/api/v1/clubs/%00/ranking/",
        "/api/v1/players/?club=%00",
        "/api/v1/matches/?player=a%00b",
    ],
)
def test_a_nul_in_an_address_is_a_400(client, path):
    """Issue 25, item 6: PostgreSQL refuses a NUL in any string, so these were 500s there."""
    answer = client.get(path)
    assert answer.status_code == 400
    if path.startswith("/api/"):
        assert answer.json()["error"]["code"] == "invalid"


@pytest.mark.parametrize(
    "query",
    ["date_to=9999-12-31", "date_from=0001-01-01", "date_from=0001-01-01&date_to=9999-12-31"],
)
@pytest.mark.parametrize("path", ["/", "/api/v1/matches/", "/api/v1/matches/export"])
def test_the_calendars_ends_are_bounds_like_any_other(
    client, owner, path, query, django_capture_on_commit_callbacks
):
    """Issue 25, item 6: the day after 9999-12-31 (and year 1 east of Greenwich) overflowed
    into a 500. A bound beyond the calendar leaves every match in."""
    from games.models import Match
    from games.services.uploads import upload_create

    with django_capture_on_commit_callbacks(execute=True):
        upload_create(uploader=owner, data=ndjson(valid_log(1)), kind="ndjson")
    client.cookies["tz"] = "Asia/Tbilisi"  # the reader's zone, east of Greenwich
    answer = client.get(f"{path}?{query}")
    assert answer.status_code == 200
    if path == "/api/v1/matches/":
        assert [m["id"] for m in answer.json()["results"]] == [Match.objects.get().pk]
