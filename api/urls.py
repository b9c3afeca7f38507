"""The API's addresses: v1, and the first API's addresses kept as permanent redirects."""

from django.http import HttpResponsePermanentRedirect
from django.urls import include, path, re_path
from rest_framework import permissions
from rest_framework.views import APIView

from . import (
    analysis,
    board,
    clubs,
    inbox,
    league_fixtures,
    league_teams,
    leagues,
    open_data,
    puzzles,
    seasons,
    tournaments,
    views,
    webhooks,
)

v1 = (
    [
        path("ping/", views.Ping.as_view(), name="ping"),
        path("clubs/", clubs.ClubListCreate.as_view(), name="club-list"),
        path("clubs/<str:slug>/", clubs.ClubDetailUpdate.as_view(), name="club-detail"),
        path("clubs/<str:slug>/ranking/", views.ClubRanking.as_view(), name="club-ranking"),
        path("clubs/<str:slug>/seasons/", seasons.ClubSeasons.as_view(), name="club-seasons"),
        path("clubs/<str:slug>/events/", tournaments.ClubTournaments.as_view(), name="club-events"),
        path(
            "clubs/<str:slug>/events/<id:pk>/",
            tournaments.ClubTournament.as_view(),
            name="club-event",
        ),
        path(
            "clubs/<str:slug>/seasons/<id:pk>/",
            seasons.ClubSeason.as_view(),
            name="club-season",
        ),
        path(
            "clubs/<str:slug>/seasons/<id:pk>/close/",
            seasons.ClubSeasonClose.as_view(),
            name="club-season-close",
        ),
        path("clubs/<str:slug>/members/", clubs.ClubMembers.as_view(), name="club-members"),
        path(
            "clubs/<str:slug>/members/<id:user_id>/",
            clubs.ClubMember.as_view(),
            name="club-member",
        ),
        path("clubs/<str:slug>/leave/", clubs.ClubLeave.as_view(), name="club-leave"),
        path("clubs/<str:slug>/transfer/", clubs.ClubTransfer.as_view(), name="club-transfer"),
        path(
            "clubs/<str:slug>/invitations/",
            clubs.ClubInvitations.as_view(),
            name="club-invitations",
        ),
        path(
            "clubs/<str:slug>/invitations/<id:pk>/",
            clubs.ClubInvitation.as_view(),
            name="club-invitation",
        ),
        path(
            "clubs/<str:slug>/join-requests/",
            clubs.ClubJoinRequests.as_view(),
            name="club-join-requests",
        ),
        path(
            "clubs/<str:slug>/join-requests/<id:pk>/accept/",
            clubs.ClubJoinRequestDecide.as_view(accept=True),
            name="join-request-accept",
        ),
        path(
            "clubs/<str:slug>/join-requests/<id:pk>/decline/",
            clubs.ClubJoinRequestDecide.as_view(accept=False),
            name="join-request-decline",
        ),
        path("clubs/<str:slug>/review/", clubs.ClubReviewQueue.as_view(), name="club-review"),
        path("clubs/<str:slug>/claims/", clubs.ClubClaims.as_view(), name="club-claims"),
        path(
            "clubs/<str:slug>/claims/<id:pk>/confirm/",
            clubs.ClubClaimDecide.as_view(confirm=True),
            name="claim-confirm",
        ),
        path(
            "clubs/<str:slug>/claims/<id:pk>/decline/",
            clubs.ClubClaimDecide.as_view(confirm=False),
            name="claim-decline",
        ),
        path("clubs/<str:slug>/audit/", clubs.ClubAudit.as_view(), name="club-audit"),
        path("clubs/<str:slug>/webhooks/", webhooks.ClubWebhooks.as_view(), name="club-webhooks"),
        path(
            "clubs/<str:slug>/webhooks/<id:pk>/",
            webhooks.ClubWebhook.as_view(),
            name="club-webhook",
        ),
        path(
            "clubs/<str:slug>/webhooks/<id:pk>/secret/",
            webhooks.ClubWebhookSecret.as_view(),
            name="club-webhook-secret",
        ),
        path(
            "clubs/<str:slug>/webhooks/<id:pk>/deliveries/",
            webhooks.ClubWebhookDeliveries.as_view(),
            name="club-webhook-deliveries",
        ),
        path(
            "clubs/<str:slug>/webhooks/<id:pk>/deliveries/<id:delivery>/resend/",
            webhooks.ClubWebhookResend.as_view(),
            name="club-webhook-resend",
        ),
        path(
            "invitations/<str:token>/accept/",
            clubs.InvitationAccept.as_view(),
            name="invitation-accept",
        ),
        path("leagues/", leagues.Leagues.as_view(), name="league-list"),
        path("leagues/<id:pk>/", leagues.LeagueDetail.as_view(), name="league-detail"),
        path("leagues/<id:pk>/clubs/", leagues.LeagueClubs.as_view(), name="league-clubs"),
        path(
            "leagues/<id:pk>/clubs/<str:slug>/accept/",
            leagues.LeagueAccept.as_view(),
            name="league-accept",
        ),
        path(
            "leagues/<id:pk>/clubs/<str:slug>/decline/",
            leagues.LeagueDecline.as_view(),
            name="league-decline",
        ),
        path("inbox/", inbox.Inbox.as_view(), name="inbox"),
        path("data/", open_data.DataFiles.as_view(), name="data"),
        path("leagues/<id:pk>/teams/", league_teams.LeagueTeams.as_view(), name="league-teams"),
        path(
            "leagues/<id:pk>/teams/<id:team>/",
            league_teams.LeagueTeam.as_view(),
            name="league-team",
        ),
        path(
            "leagues/<id:pk>/fixtures/",
            league_fixtures.LeagueFixtures.as_view(),
            name="league-fixtures",
        ),
        path("leagues/<id:pk>/averages/", leagues.LeagueAverages.as_view(), name="league-averages"),
        path(
            "leagues/<id:pk>/fixtures/generate/",
            leagues.LeagueSchedule.as_view(),
            name="league-schedule",
        ),
        path(
            "leagues/<id:pk>/fixtures/<id:fixture>/",
            league_fixtures.LeagueFixture.as_view(),
            name="league-fixture",
        ),
        path(
            "leagues/<id:pk>/fixtures/<id:fixture>/submit/",
            league_fixtures.FixtureSubmit.as_view(),
            name="fixture-submit",
        ),
        path(
            "leagues/<id:pk>/fixtures/<id:fixture>/postpone/",
            league_fixtures.FixturePostpone.as_view(),
            name="fixture-postpone",
        ),
        path(
            "leagues/<id:pk>/fixtures/<id:fixture>/postpone/accept/",
            league_fixtures.FixturePostponeAccept.as_view(),
            name="fixture-postpone-accept",
        ),
        path(
            "leagues/<id:pk>/fixtures/<id:fixture>/postpone/withdraw/",
            league_fixtures.FixturePostponeWithdraw.as_view(),
            name="fixture-postpone-withdraw",
        ),
        path(
            "leagues/<id:pk>/fixtures/<id:fixture>/concede/",
            league_fixtures.FixtureConcede.as_view(),
            name="fixture-concede",
        ),
        path(
            "leagues/<id:pk>/fixtures/<id:fixture>/walkover/",
            league_fixtures.FixtureWalkover.as_view(),
            name="fixture-walkover",
        ),
        path(
            "leagues/<id:pk>/teams/<id:team>/withdraw/",
            league_teams.TeamWithdraw.as_view(),
            name="team-withdraw",
        ),
        path(
            "leagues/<id:pk>/teams/<id:team>/reinstate/",
            league_teams.TeamReinstate.as_view(),
            name="team-reinstate",
        ),
        path(
            "leagues/<id:pk>/fixtures/<id:fixture>/confirm/",
            league_fixtures.FixtureConfirm.as_view(),
            name="fixture-confirm",
        ),
        path(
            "leagues/<id:pk>/fixtures/<id:fixture>/dispute/",
            league_fixtures.FixtureDispute.as_view(),
            name="fixture-dispute",
        ),
        path(
            "leagues/<id:pk>/fixtures/<id:fixture>/resolve/",
            league_fixtures.FixtureResolve.as_view(),
            name="fixture-resolve",
        ),
        path(
            "leagues/<id:pk>/fixtures/<id:fixture>/reset/",
            league_fixtures.FixtureReset.as_view(),
            name="fixture-reset",
        ),
        path("players/", views.PlayerList.as_view(), name="player-list"),
        path("players/<id:pk>/", views.PlayerDetail.as_view(), name="player-detail"),
        path("players/<id:pk>/stats/", views.PlayerStats.as_view(), name="player-stats"),
        path("players/<id:pk>/claim/", clubs.PlayerClaim.as_view(), name="player-claim"),
        path("players/<id:pk>/rename/", clubs.PlayerRename.as_view(), name="player-rename"),
        path("players/<id:pk>/merge/", clubs.PlayerMerge.as_view(), name="player-merge"),
        path(
            "players/<id:pk>/mistakes/", analysis.PlayerMistakes.as_view(), name="player-mistakes"
        ),
        path(
            "players/<id:pk>/mistakes/attempt/",
            analysis.PlayerMistakeAttempt.as_view(),
            name="player-mistake-attempt",
        ),
        path("analyse/", board.AnalyseView.as_view(), name="analyse"),
        path("puzzles/next/", puzzles.PuzzleNext.as_view(), name="puzzle-next"),
        path(
            "puzzles/<id:pk>/attempt/", puzzles.PuzzleAttemptView.as_view(), name="puzzle-attempt"
        ),
        path("matches/", views.MatchList.as_view(), name="match-list"),
        path("matches/export", views.MatchExport.as_view(), name="match-export"),
        path("matches/<id:pk>/", views.MatchDetail.as_view(), name="match-detail"),
        path("matches/<id:pk>/hands/", views.MatchHands.as_view(), name="match-hands"),
        path("matches/<id:pk>/replay/", views.MatchReplay.as_view(), name="match-replay"),
        path(
            "matches/<id:pk>/analysis/",
            analysis.MatchAnalysisView.as_view(),
            name="match-analysis",
        ),
        path(
            "matches/<id:pk>/approve/",
            clubs.MatchDecide.as_view(approve=True),
            name="match-approve",
        ),
        path(
            "matches/<id:pk>/reject/",
            clubs.MatchDecide.as_view(approve=False),
            name="match-reject",
        ),
        path("uploads/", views.UploadListCreate.as_view(), name="upload-list"),
        path("uploads/<id:pk>/", views.UploadDetail.as_view(), name="upload-detail"),
        path("uploads/<id:pk>/rerun/", views.UploadRerun.as_view(), name="upload-rerun"),
        path("uploads/<id:pk>/items/", views.UploadItems.as_view(), name="upload-items"),
    ],
    "v1",
)


class FirstApi(APIView):
    """The first API (before v1) answered at /api/uploads/, /api/matches/...: its addresses
    now redirect permanently, keeping the method and the body (308), to the same under v1.
    Throttled like every other endpoint."""

    permission_classes = [permissions.AllowAny]
    parser_classes: list = []
    throttle_scope = "read"
    schema = None  # not part of the documented API

    def redirect(self, request, rest: str):
        query = request.META.get("QUERY_STRING", "")
        target = f"/api/v1/{rest}" + (f"?{query}" if query else "")
        return HttpResponsePermanentRedirect(target, preserve_request=True)

    get = head = post = put = patch = delete = redirect


urlpatterns = [
    path("v1/", include(v1)),
    re_path(
        r"^(?P<rest>(uploads|matches|clubs|players)/.*)$", FirstApi.as_view(), name="first-api"
    ),
]
