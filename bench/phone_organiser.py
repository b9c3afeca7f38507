"""Benchmark section: the organiser's evening on a phone (issue 23).

    python -m bench.phone --only organiser

A club that approves its members' uploads gets six matches from a member; its admin approves
them on the club's manage page at 390x844, first one at a time (a tap, the confirmation and a
page load each, as every approval was before), then six more with "Approve all" (one tap, one
confirmation, one POST and one page), then six more so on the slow phone. Measured: the
approvals one action makes, the POSTs and pages the batch took, and the time from the tap to
the page that says they are approved.
"""

from __future__ import annotations

import json
import time

PENDING = """
import json
from django.contrib.auth import get_user_model
from fives_engine.simulate import simulate_match
from clubs.models import Club, Membership
from games.models import Match
from games.services.ingest import upload_process
from games.services.uploads import upload_create
club = Club.objects.order_by('pk').first()
club.requires_approval = True
club.save(update_fields=['requires_approval'])
user, _ = get_user_model().objects.get_or_create(username='bench-member')
Membership.objects.get_or_create(club=club, user=user, defaults={'role': 'member'})
Match.objects.filter(club=club, approval='pending').update(approval='rejected')
docs = []
for seed in range(6):
    doc = simulate_match(
        {'base': 'muggins', 'target': 50}, 2, seed=SEED + seed, names=['Nino', 'Levan']
    )
    doc['id'] = f'bench-organiser-{SEED + seed}'
    doc['club'] = club.name
    docs.append(doc)
upload = upload_create(
    uploader=user, data=b'\\n'.join(json.dumps(d).encode() for d in docs), kind='ndjson'
)
upload_process(upload_id=upload.pk)
pending = Match.objects.filter(club=club, approval='pending').count()
print(json.dumps({'slug': club.slug, 'pending': pending}))
"""


def six_pending(kit, seed: int) -> str:
    """Give the first club six matches that wait (and nothing else waiting); its slug."""
    made = json.loads(kit.shell(PENDING.replace("SEED", str(seed))).splitlines()[-1])
    assert made["pending"] == 6, made
    return made["slug"]


def open_queue(kit, context, slug: str):
    page = kit.page(context)
    page.on("dialog", lambda dialog: dialog.accept())
    page.goto(f"/clubs/{slug}/manage/")
    page.wait_for_selector('form.review input[name="match"]')
    return page


def one_at_a_time(kit, browser) -> float:
    slug = six_pending(kit, 41000)
    context = kit.context(browser, phone=True, user="bench-organiser")
    try:
        page = open_queue(kit, context, slug)
        started = time.perf_counter()
        for left in range(5, -1, -1):
            page.locator('form.review button[name="one"]').first.click()
            if left:
                page.wait_for_function(
                    f"document.querySelectorAll('form.review input[name=match]').length == {left}"
                )
            else:
                page.get_by_text("Nothing waits.").wait_for()
        return time.perf_counter() - started
    finally:
        context.close()


def all_at_once(kit, browser, *, slow: bool, seed: int) -> tuple[float, int, int, int]:
    """Seconds from the tap to the page that says six are approved; approvals in the one
    action; POSTs; pages loaded."""
    slug = six_pending(kit, seed)
    context = kit.context(browser, phone=True, slow=slow, user="bench-organiser")
    try:
        page = open_queue(kit, context, slug)
        mark = kit.mark()
        started = time.perf_counter()
        page.get_by_role("button", name="Approve all (6)").click()
        page.get_by_text("6 matches approved.").wait_for()
        elapsed = time.perf_counter() - started
        answers = kit.requests_since(mark)
        posts = sum(1 for _size, _status, method, _path in answers if method == "POST")
        pages = sum(
            1
            for _size, status, method, path in answers
            if method == "GET" and status == 200 and path.startswith("/clubs/")
        )
        approved = json.loads(
            kit.shell(
                "import json\n"
                "from games.models import Match\n"
                f"print(json.dumps(Match.objects.filter(external_id__startswith="
                f"'bench-organiser-{seed // 1000}', approval='approved').count()))"
            ).splitlines()[-1]
        )
        return elapsed, approved, posts, pages
    finally:
        context.close()


def run(kit) -> list[tuple[str, str, str]]:
    with kit.chromium() as browser:
        single = one_at_a_time(kit, browser)
        fast, approved, posts, pages = all_at_once(kit, browser, slow=False, seed=42000)
        slow, *_ = all_at_once(kit, browser, slow=True, seed=43000)
    return [
        ("approvals in one action (Approve all)", f"{approved}", "6 in one action"),
        ("requests for the batch", f"{posts} POST, {pages} page", "one POST, one reload"),
        ("approving six, Approve all (phone)", f"{fast:.2f} s", "one action"),
        ("approving six, Approve all (slow phone)", f"{slow:.2f} s", "one action"),
        ("approving six one at a time (phone)", f"{single:.2f} s", "(as before: 3.6 s)"),
    ]
