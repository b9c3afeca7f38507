"""Pages of what is derived from stored matches: the match page with its replay, the
embeddable replay, the player page and the club's ranking table."""

from __future__ import annotations

from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape
from django.utils.translation import gettext as _
from django.views.decorators.clickjacking import xframe_options_exempt
from django.views.decorators.csp import csp_override
from django.views.decorators.http import require_POST

from clubs.hooks import PLAYER_CALENDAR
from clubs.models import Club
from clubs.presets import RULESETS
from games import selectors
from games.models import Match, Player
from games.presentation import match_summary
from games.selectors import person_clubs
from games.services.claims import claim_state

from .analysis import (
    QuotaExceeded,
    analysis_page,
    analysis_request,
    analysis_text,
    quota_refusal,
)
from .charts import missed_chart, rating_chart, score_chart
from .pipeline import match_seat_results
from .practice import (
    choice_verdict,
    find_mistake,
    key_text,
    player_mistakes,
    position_key,
    practice_is_own,
    practice_page,
    practice_ready,
    practice_record,
)
from .rankings import SORTS, club_ranking, player_profile, ranking_args, ranking_csv
from .ratings import match_ratings
from .replay_cache import match_replay_page_cached
from .stats import PERIODS, recent_match_ids, shown_lines
from .words import replay_text


def match_detail(request, pk: int):
    match = get_object_or_404(Match.objects.visible_to(request.user).with_log(), pk=pk)
    context = match_summary(match)
    page = page_replay(match)
    context["replay"] = page["replay"]
    context["replay_text"] = replay_text()
    context["chart"] = score_chart(match=match)
    context["missed_chart"] = missed_chart(players=page["replay"]["players"], hands=page["missed"])
    context["seat_results"] = match_seat_results(match_id=match.pk)
    context["ratings"] = match_ratings(match)
    context["embed_code"] = embed_code(request, match)
    context["analysis"] = analysis_page(
        match=match, players=page["replay"]["players"], user=request.user
    )
    context["analysis_text"] = analysis_text()
    return render(request, "replays/match_detail.html", context)


@login_required
@require_POST
def match_analyse(request, pk: int):
    """Ask for the match's analysis (the page's button without its script; the script asks
    the API and shows the progress in place)."""
    match = get_object_or_404(Match.objects.visible_to(request.user), pk=pk)
    try:
        analysis_request(match=match, user=request.user)
    except QuotaExceeded as refused:
        messages.error(request, quota_refusal(limit=refused.limit, retry_after=refused.retry_after))
    return redirect(reverse("replays:match-detail", args=[match.pk]) + "#analysis")


def page_replay(match: Match) -> dict:
    """The replay as a page embeds it (every position, packed; a very long match's first
    hand, the rest from the API) and each hand's missed points."""
    return match_replay_page_cached(
        match=match, api_url=reverse("v1:match-replay", args=[match.pk])
    )


def embed_code(request, match: Match) -> str:
    """The HTML a club's site pastes to show this match's replay: an iframe of the embed."""
    src = request.build_absolute_uri(reverse("replays:embed", args=[match.pk]))
    title = _("Replay of match %(id)s") % {"id": match.pk}
    return (
        f'<iframe src="{src}" title="{escape(title)}" width="720" height="480"'
        ' style="border:0;max-width:100%" loading="lazy"></iframe>'
    )


# The one page other sites may frame: the archive's policy, with any page as an ancestor
# (a club's site, a forum, a file on a laptop) unless FIVES_EMBED_FRAME_ANCESTORS lists them.
EMBED_CSP = {
    key: value for key, value in settings.SECURE_CSP.items() if key != "frame-ancestors"
} | (
    {"frame-ancestors": settings.FIVES_EMBED_FRAME_ANCESTORS}
    if settings.FIVES_EMBED_FRAME_ANCESTORS
    else {}
)


@xframe_options_exempt
@csp_override(EMBED_CSP)
def embed(request, pk: int):
    """The replay alone, for an iframe on a club's site."""
    match = get_object_or_404(Match.objects.visible_to(request.user).with_log(), pk=pk)
    return render(
        request,
        "replays/embed.html",
        {"match": match, "replay": page_replay(match)["replay"], "replay_text": replay_text()},
    )


def ranking(request, slug: str):
    club = get_object_or_404(Club.objects.visible_to(request.user), slug=slug)
    args, problems = ranking_args(request.GET)
    table = club_ranking(club=club, **args)
    return render(
        request,
        "replays/ranking.html",
        {
            "club": club,
            "table": table,
            "rulesets": RULESETS,
            "periods": PERIODS,
            "sorts": list(SORTS),
            "problems": list(problems.values()),
        },
    )


def ranking_download(request, slug: str):
    """The ranking table as CSV, with the page's filters and order."""
    club = get_object_or_404(Club.objects.visible_to(request.user), slug=slug)
    args, _problems = ranking_args(request.GET)
    response = HttpResponse(
        ranking_csv(club_ranking(club=club, **args)), content_type="text/csv; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="ranking-{club.slug}.csv"'
    return response


def player_practice(request, pk: int):
    """A player's mistakes and blunders as a drill: one position at a time, a play picked by
    a tap (a form: no script needed), then the verdict. Whoever may see the player may
    practise; only the player's own account has its tries remembered (docs/analysis.md)."""
    player = get_object_or_404(
        Player.objects.visible_to(request.user).select_related("club"), pk=pk
    )
    if request.method == "POST":
        return practice_answer(request, player)
    page = practice_page(
        player=player,
        user=request.user,
        at=request.GET.get("at", ""),
        after=request.GET.get("after", ""),
        picked=request.GET.get("picked", ""),
        now=timezone.now(),
    )
    return render(request, "replays/practice.html", {"player": player, **page})


def practice_answer(request, player: Player):
    """Take a pick: remember it for the player's own account, then show the verdict (a
    redirect, so reloading the page asks nothing twice)."""
    key = position_key(request.POST.get("at", ""))
    choice = request.POST.get("choice", "")
    if key is None:
        return HttpResponseBadRequest()
    mistakes = player_mistakes(player=player, user=request.user)
    mistake = find_mistake(mistakes, match=key[0], hand=key[1], move=key[2])
    if mistake is None:
        raise Http404
    verdict = choice_verdict(mistake=mistake, choice=choice)
    if verdict is None:
        return HttpResponseBadRequest()
    if practice_is_own(player=player, user=request.user):
        practice_record(
            user=request.user, mistake=mistake, solved=verdict["solved"], now=timezone.now()
        )
    address = reverse("replays:player-practice", args=[player.pk])
    query = urlencode({"at": key_text(mistake), "picked": choice})
    return redirect(f"{address}?{query}#verdict")


def player_detail(request, pk: int):
    player = get_object_or_404(
        Player.objects.visible_to(request.user).select_related("club"), pk=pk
    )
    # The latest matches only (found through the statistics' index); the full, paginated
    # list is the match list filtered by this player.
    ids = recent_match_ids(player_id=pk, count=20)
    recent = {"object_list": list(selectors.match_list(filters={"ids": ids}, user=request.user))}
    profile = player_profile(player=player, shown=Player.objects.visible_to(request.user))
    own = practice_is_own(player=player, user=request.user)
    context = {
        "player": player,
        "person_clubs": person_clubs(player=player, user=request.user),
        "recent": recent,
        "profile": profile,
        # The counted statistics the page shows (replays.stats.STATISTICS says which).
        "statistics": shown_lines(profile["figures"]),
        "history_chart": rating_chart(profile["history"]),
        # The club's admins rename and merge handles on its manage page: linked from here.
        "may_manage": player.club.is_admin(request.user),
        # The drill of their own mistakes, linked for the player themselves once a match of
        # theirs is analysed (before, the page says what opens it).
        "practice_own": own,
        "practice_ready": own and practice_ready(player=player, user=request.user),
        # "This is me" for a member of the club with no handle there, or what stands in
        # its way (a claim waiting for an admin; joining the club).
        "claim": claim_state(player=player, user=request.user),
        # The player's fixtures and events as a calendar feed (competitions fills the hook).
        "calendar": PLAYER_CALENDAR.filler(request, player),
    }
    return render(request, "replays/player_detail.html", context)
