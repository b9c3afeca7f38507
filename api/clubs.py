"""API v1 of clubs: making them, settings, members and roles, invitation links, join
requests, the review queue, handle claims, renaming and merging handles, the audit trail.
Thin views: who may see what here (a private club is 404 to outsiders), who may do what in
the services (403 with the reason), what the rules refuse as 409 with its own code."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import generics, permissions, status
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs import selectors
from clubs import services as club_services
from clubs.models import Club, Invitation
from games import selectors as archive_selectors
from games.models import HandleClaim, Match, Player
from games.services.claims import claim_decide, handle_claim
from games.services.matches import match_review
from games.services.players import player_rename, players_merge

from .common import Cursor, has_scope
from .serializers import (
    AuditEntrySerializer,
    ClubDetailSerializer,
    ClubWriteSerializer,
    HandleClaimSerializer,
    InvitationSerializer,
    InvitationWriteSerializer,
    JoinRequestSerializer,
    JoinRequestWriteSerializer,
    MatchApprovalSerializer,
    MatchSerializer,
    MembershipSerializer,
    MergeSerializer,
    PlayerSerializer,
    ReasonSerializer,
    RenameSerializer,
    RoleSerializer,
    TransferSerializer,
)
from .views import ERROR


class Manages(permissions.BasePermission):
    """Signed in; reading with the read scope, changing with the manage scope."""

    message = "Managing clubs needs an account, and a token with the manage scope."

    def has_permission(self, request, view):
        if not (request.user and request.user.is_authenticated):
            return False
        scope = "read" if request.method in permissions.SAFE_METHODS else "manage"
        return has_scope(request, scope)


class ClubScoped(APIView):
    """An endpoint under ``/clubs/{slug}/``: the club as the person may see it."""

    permission_classes = [Manages]
    throttle_scope = "read"

    def club(self) -> Club:
        return get_object_or_404(
            Club.objects.visible_to(self.request.user), slug=self.kwargs["slug"]
        )

    def admin_club(self) -> Club:
        club = self.club()
        club_services.require_admin(club=club, user=self.request.user)
        return club


def _user(user_id: int):
    return get_object_or_404(get_user_model(), pk=user_id)


# --- clubs ----------------------------------------------------------------------------------


class ClubListCreate(generics.ListAPIView):
    """The clubs you may see (GET), or a new club you will own (POST)."""

    serializer_class = ClubDetailSerializer
    pagination_class = Cursor
    throttle_scope = "read"

    def get_permissions(self):
        return [Manages()] if self.request.method == "POST" else [permissions.AllowAny()]

    def get_queryset(self):
        return Club.objects.visible_to(self.request.user)

    @extend_schema(
        request=ClubWriteSerializer,
        responses={201: ClubDetailSerializer, 400: ERROR, 401: ERROR, 409: ERROR},
    )
    def post(self, request):
        data = ClubWriteSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        club = club_services.club_create(owner=request.user, **data.validated_data)
        body = ClubDetailSerializer(club, context={"request": request}).data
        return Response(body, status=status.HTTP_201_CREATED)


class ClubDetailUpdate(ClubScoped):
    """A club (GET, anyone who may see it) and its settings (PATCH, its owner and admins)."""

    def get_permissions(self):
        return [permissions.AllowAny()] if self.request.method == "GET" else [Manages()]

    @extend_schema(responses={200: ClubDetailSerializer, 404: ERROR})
    def get(self, request, slug: str):
        return Response(ClubDetailSerializer(self.club(), context={"request": request}).data)

    @extend_schema(
        request=ClubWriteSerializer(partial=True),
        responses={200: ClubDetailSerializer, 400: ERROR, 403: ERROR, 404: ERROR, 409: ERROR},
    )
    def patch(self, request, slug: str):
        club = self.admin_club()
        data = ClubWriteSerializer(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        changes = {key: value for key, value in data.validated_data.items() if key != "slug"}
        club = club_services.club_update(actor=request.user, club=club, **changes)
        return Response(ClubDetailSerializer(club, context={"request": request}).data)


# --- members --------------------------------------------------------------------------------


class ClubMembers(ClubScoped, generics.ListAPIView):
    """The members of a club and their roles (its members only)."""

    serializer_class = MembershipSerializer
    pagination_class = Cursor

    def get_queryset(self):
        club = self.club()
        if not club.is_member(self.request.user):
            club_services.require_admin(club=club, user=self.request.user)
        return selectors.club_members(club=club)


class ClubMember(ClubScoped):
    """Change a member's role (the owner) or remove them (admins; an admin: the owner)."""

    @extend_schema(
        request=RoleSerializer,
        responses={200: MembershipSerializer, 403: ERROR, 404: ERROR, 409: ERROR},
    )
    def patch(self, request, slug: str, user_id: int):
        club = self.club()
        data = RoleSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        membership = club_services.member_set_role(
            actor=request.user, club=club, user=_user(user_id), role=data.validated_data["role"]
        )
        return Response(MembershipSerializer(membership).data)

    @extend_schema(responses={204: None, 403: ERROR, 404: ERROR, 409: ERROR})
    def delete(self, request, slug: str, user_id: int):
        club_services.member_remove(actor=request.user, club=self.club(), user=_user(user_id))
        return Response(status=status.HTTP_204_NO_CONTENT)


class ClubLeave(ClubScoped):
    @extend_schema(request=None, responses={204: None, 404: ERROR, 409: ERROR})
    def post(self, request, slug: str):
        """Leave the club (its owner hands the ownership over first)."""
        club_services.club_leave(user=request.user, club=self.club())
        return Response(status=status.HTTP_204_NO_CONTENT)


class ClubTransfer(ClubScoped):
    @extend_schema(
        request=TransferSerializer,
        responses={200: ClubDetailSerializer, 403: ERROR, 404: ERROR, 409: ERROR},
    )
    def post(self, request, slug: str):
        """Hand the ownership over to another member (the owner); you stay an admin."""
        club = self.club()
        data = TransferSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        club_services.ownership_transfer(
            actor=request.user, club=club, to=_user(data.validated_data["user_id"])
        )
        return Response(ClubDetailSerializer(club, context={"request": request}).data)


# --- invitations and join requests ----------------------------------------------------------


class ClubInvitations(ClubScoped, generics.ListAPIView):
    """The club's invitation links (GET) or a new one (POST): its owner and admins."""

    serializer_class = InvitationSerializer
    pagination_class = Cursor

    def get_queryset(self):
        return selectors.club_invitations(club=self.admin_club())

    @extend_schema(
        request=InvitationWriteSerializer,
        responses={201: InvitationSerializer, 403: ERROR, 404: ERROR},
    )
    def post(self, request, slug: str):
        club = self.club()
        data = InvitationWriteSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        invitation = club_services.invitation_create(
            actor=request.user, club=club, **data.validated_data
        )
        body = InvitationSerializer(invitation, context={"request": request}).data
        return Response(body, status=status.HTTP_201_CREATED)


class ClubInvitation(ClubScoped):
    @extend_schema(responses={204: None, 403: ERROR, 404: ERROR})
    def delete(self, request, slug: str, pk: int):
        """Revoke an invitation link."""
        club = self.admin_club()
        invitation = get_object_or_404(club.invitations, pk=pk)
        club_services.invitation_revoke(actor=request.user, invitation=invitation)
        return Response(status=status.HTTP_204_NO_CONTENT)


class InvitationAccept(APIView):
    permission_classes = [Manages]
    throttle_scope = "read"

    @extend_schema(request=None, responses={200: ClubDetailSerializer, 404: ERROR, 409: ERROR})
    def post(self, request, token: str):
        """Join the club of an invitation link."""
        invitation = get_object_or_404(Invitation.objects.select_related("club"), token=token[:64])
        membership = club_services.invitation_accept(user=request.user, token=invitation.token)
        return Response(ClubDetailSerializer(membership.club, context={"request": request}).data)


class ClubJoinRequests(ClubScoped, generics.ListAPIView):
    """The pending join requests (GET: owner and admins), or ask to join (POST)."""

    serializer_class = JoinRequestSerializer
    pagination_class = Cursor

    def get_queryset(self):
        return selectors.club_join_requests(club=self.admin_club())

    @extend_schema(
        request=JoinRequestWriteSerializer,
        responses={201: JoinRequestSerializer, 404: ERROR, 409: ERROR},
    )
    def post(self, request, slug: str):
        club = self.club()
        data = JoinRequestWriteSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        join_request = club_services.join_request_create(
            user=request.user, club=club, message=data.validated_data["message"]
        )
        return Response(JoinRequestSerializer(join_request).data, status=status.HTTP_201_CREATED)


class ClubJoinRequestDecide(ClubScoped):
    accept = True

    @extend_schema(
        request=None, responses={200: JoinRequestSerializer, 403: ERROR, 404: ERROR, 409: ERROR}
    )
    def post(self, request, slug: str, pk: int):
        """Accept (the person becomes a member) or decline a join request."""
        club = self.admin_club()
        join_request = get_object_or_404(club.join_requests, pk=pk)
        decided = club_services.join_request_decide(
            actor=request.user, join_request=join_request, accept=self.accept
        )
        return Response(JoinRequestSerializer(decided).data)


# --- review queue, claims, renames, merges, the audit trail ---------------------------------


class ClubReviewQueue(ClubScoped, generics.ListAPIView):
    """The club's matches awaiting approval (owner and admins)."""

    serializer_class = MatchSerializer
    pagination_class = Cursor

    def get_queryset(self):
        return archive_selectors.club_review_queue(club=self.admin_club()).order_by()


class MatchDecide(APIView):
    permission_classes = [Manages]
    throttle_scope = "read"
    approve = True

    @extend_schema(
        request=ReasonSerializer,
        responses={200: MatchApprovalSerializer, 403: ERROR, 404: ERROR, 409: ERROR},
    )
    def post(self, request, pk: int):
        """Approve a match awaiting approval, or reject it with a reason its uploader sees."""
        match = get_object_or_404(
            Match.objects.visible_to(request.user).select_related("club"), pk=pk
        )
        data = ReasonSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        match = match_review(
            actor=request.user,
            match=match,
            approve=self.approve,
            reason=data.validated_data["reason"],
        )
        return Response(MatchApprovalSerializer(match).data)


class ClubClaims(ClubScoped, generics.ListAPIView):
    """The club's pending handle claims (owner and admins)."""

    serializer_class = HandleClaimSerializer
    pagination_class = Cursor

    def get_queryset(self):
        return archive_selectors.club_claims(club=self.admin_club())


class ClubClaimDecide(ClubScoped):
    confirm = True

    @extend_schema(
        request=None, responses={200: HandleClaimSerializer, 403: ERROR, 404: ERROR, 409: ERROR}
    )
    def post(self, request, slug: str, pk: int):
        """Confirm (the handle becomes the person's) or decline a claim."""
        club = self.admin_club()
        claim = get_object_or_404(HandleClaim.objects.filter(player__club=club), pk=pk)
        claim = claim_decide(actor=request.user, claim=claim, confirm=self.confirm)
        return Response(HandleClaimSerializer(claim).data)


class PlayerScoped(APIView):
    permission_classes = [Manages]
    throttle_scope = "read"

    def player(self) -> Player:
        players = Player.objects.visible_to(self.request.user).select_related("club")
        return get_object_or_404(players, pk=self.kwargs["pk"])


class PlayerClaim(PlayerScoped):
    @extend_schema(
        request=None, responses={201: HandleClaimSerializer, 403: ERROR, 404: ERROR, 409: ERROR}
    )
    def post(self, request, pk: int):
        """Say this handle is yours (a member of its club); an admin confirms."""
        claim = handle_claim(user=request.user, player=self.player())
        return Response(HandleClaimSerializer(claim).data, status=status.HTTP_201_CREATED)


class PlayerRename(PlayerScoped):
    @extend_schema(
        request=RenameSerializer,
        responses={200: PlayerSerializer, 400: ERROR, 403: ERROR, 404: ERROR, 409: ERROR},
    )
    def post(self, request, pk: int):
        """Rename a handle (owner and admins); the old one still finds the player."""
        player = self.player()
        data = RenameSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        player = player_rename(
            actor=request.user, player=player, handle=data.validated_data["handle"]
        )
        return Response(PlayerSerializer(player).data)


class PlayerMerge(PlayerScoped):
    @extend_schema(
        request=MergeSerializer,
        responses={200: PlayerSerializer, 400: ERROR, 403: ERROR, 404: ERROR, 409: ERROR},
    )
    def post(self, request, pk: int):
        """Merge this handle into another of the same person (owner and admins): every match
        is kept under the other, and the ratings are recomputed."""
        source = self.player()
        data = MergeSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        target = get_object_or_404(
            Player.objects.filter(club=source.club), pk=data.validated_data["into"]
        )
        target = players_merge(actor=request.user, source=source, target=target)
        return Response(PlayerSerializer(target).data)


class ClubAudit(ClubScoped, generics.ListAPIView):
    """Who did what in the club, newest first (owner and admins)."""

    serializer_class = AuditEntrySerializer
    pagination_class = Cursor

    def get_queryset(self):
        return selectors.club_audit(club=self.admin_club()).order_by()
