"""Which addresses of the URL conf are pages a person reads (the crawl opens each of them in
each state the world gives it), and why each other one is not: a new route is one or the
other, or ``test_every_route_is_a_page_or_says_why`` fails (guarded by construction)."""

from __future__ import annotations

# The routes that answer no page to read, each with its reason. The API (/api/) and Django's
# admin (/admin/) are outside the crawl as a whole: the API answers JSON, walked by the
# schema's fuzz (tests/api/), and the admin is Django's own.
NOT_PAGES: dict[str, str] = {
    "games:?": "/matches/, the match list's second address (the same view as /)",
    "healthz": "JSON for the load balancer",
    "set_language": "a write (the language form), answered by a redirect",
    "logout": "a write, answered by a redirect",
    "games:player-names": "JSON for the handle field's suggestions",
    "games:match-download": "the match's fives/1 log (JSON)",
    "competitions:club-calendar": "an iCalendar feed (tests/competitions/test_calendars.py)",
    "competitions:league-calendar": "an iCalendar feed (tests/competitions/test_calendars.py)",
    "competitions:player-calendar": "an iCalendar feed (tests/competitions/test_calendars.py)",
    "competitions:team-calendar": "an iCalendar feed (tests/competitions/test_calendars.py)",
    "competitions:event-csv": "a CSV file (tests/replays/test_csv_tables.py)",
    "competitions:league-csv": "a CSV file (tests/replays/test_csv_tables.py)",
    "replays:ranking-csv": "a CSV file (tests/replays/test_csv_tables.py)",
    "competitions:season-csv": "a CSV file (tests/replays/test_csv_tables.py)",
    "recorder:engine": "the recorder's engine, a zip for Pyodide",
    "recorder:engine-worker": "the recorder's worker script",
    "recorder:service-worker": "the recorder's service worker script",
    "recorder:board-equity": "the match-equity samples (JSON) the analysis board's worker reads",
    "recorder:club-live-tables": "JSON the club night's page polls (the page itself is crawled)",
    "recorder:live-steps-since": "JSON the live match's page polls (the page is crawled)",
    "recorder:live-stream": "the live match's event stream (served by uvicorn)",
    "recorder:club-live-stream": "the club night's event stream (served by uvicorn)",
}


def page_routes() -> list[tuple[str, str]]:
    """(route, URL name) of each page: every route of the site but the API's and the
    admin's, the writes and those that answer no page."""
    from tests.test_doors import routes

    found = {}
    for route, name, _view in routes():
        if route.startswith(("api/", "admin/")) or name in NOT_PAGES or name in WRITES:
            continue
        found.setdefault(name, route)
    return sorted((route, name) for name, route in found.items())


# The writes: each answers a form's POST (fivesite.doors.DOORS names its budget) and a 405 to
# a GET; the pages that hold their forms are crawled.
WRITES = {
    "games:claim-decide",
    "competitions:club-calendar-reset",
    "games:club-join",
    "competitions:club-leave",
    "games:club-member-action",
    "games:club-review",
    "games:invitation-create",
    "games:invitation-revoke",
    "games:join-request-decide",
    "games:match-decide",
    "games:player-claim",
    "games:player-merge",
    "games:player-rename",
    "games:upload-delete",
    "games:upload-rerun",
    "recorder:live-abandon",
    "recorder:live-steps",
    "recorder:send",
    "competitions:event-delete",
    "competitions:fixture-concede",
    "competitions:fixture-confirm",
    "competitions:fixture-delete",
    "competitions:fixture-dispute",
    "competitions:fixture-postpone",
    "competitions:fixture-postpone-accept",
    "competitions:fixture-postpone-withdraw",
    "competitions:fixture-reset",
    "competitions:fixture-resolve",
    "competitions:fixture-submit",
    "competitions:fixture-walkover",
    "competitions:league-accept",
    "competitions:league-decline",
    "competitions:league-delete",
    "competitions:league-match-time",
    "competitions:league-team-delete",
    "competitions:league-team-reinstate",
    "competitions:league-team-withdraw",
    "replays:match-analyse",
    "competitions:season-close",
    "webhooks:endpoint-action",
    "webhooks:delivery-resend",
}
