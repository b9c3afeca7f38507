"""Serializers of the API: they shape rows and service answers into JSON, hold no logic,
and give every endpoint a typed schema."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.choices import CallableChoiceIterator
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from clubs.audit import registered
from clubs.forms import ClubForm, InvitationForm, JoinRequestForm
from clubs.models import CLUB_SETTINGS, AuditEntry, Club, Invitation, JoinRequest, Membership
from games.forms import HandleForm, MergeForm, ReasonForm
from games.models import HandleClaim, Match, Player, StoredHand, Upload, UploadItem
from games.presentation import issues_in_language, report_in_language, team_names
from replays.stats import RANKED, STATISTICS

from .inputs import FormInput

# --- uploads --------------------------------------------------------------------------------


class IssueSerializer(serializers.Serializer):
    code = serializers.CharField()
    # Indexes into the log, as format.md defines the report (docs/api.md, "Numbering").
    hand = serializers.IntegerField(
        allow_null=True,
        help_text="the index of the hand in the log's hands, from 0 (its message counts from 1)",
    )
    move = serializers.IntegerField(
        allow_null=True,
        help_text="the index of the move in the hand's moves, from 0 (null: the hand as a whole)",
    )
    seat = serializers.IntegerField(allow_null=True)
    message = serializers.CharField()


class HandResultSerializer(serializers.Serializer):
    index = serializers.IntegerField(required=False)
    end = serializers.CharField()
    points = serializers.ListField(child=serializers.IntegerField())
    settlement = serializers.ListField(child=serializers.IntegerField())
    scores = serializers.ListField(child=serializers.IntegerField())


class ReportSerializer(serializers.Serializer):
    """The validation report of FORMAT.md, its messages in the reader's language."""

    valid = serializers.BooleanField()
    outcome = serializers.CharField()
    ruleset = serializers.DictField(allow_null=True)
    errors = IssueSerializer(many=True)
    warnings = IssueSerializer(many=True)
    scores = serializers.ListField(child=serializers.IntegerField())
    winner = serializers.IntegerField(allow_null=True)
    hands = HandResultSerializer(many=True)


class UploadItemSerializer(serializers.ModelSerializer):
    report = serializers.SerializerMethodField()

    class Meta:
        model = UploadItem
        fields = ["index", "status", "match", "report"]

    @extend_schema_field(ReportSerializer)
    def get_report(self, item: UploadItem) -> dict[str, Any]:
        return report_in_language(item.full_report)


# An upload's answer carries the reports of its first logs; the rest are paged at items_url
# (an upload of 10,000 logs answered 3 MB at once).
ITEMS_SHOWN = 20


class UploadSummarySerializer(serializers.ModelSerializer):
    """An upload's status and counts, with the address of its logs' reports (paged)."""

    url = serializers.HyperlinkedIdentityField(view_name="v1:upload-detail")
    items_url = serializers.HyperlinkedIdentityField(view_name="v1:upload-items")

    class Meta:
        model = Upload
        fields = [
            "id",
            "url",
            "status",
            "kind",
            "filename",
            "size",
            "problem",
            "failure",
            "item_count",
            "accepted_count",
            "rejected_count",
            "created_at",
            "processed_at",
            "items_url",
        ]


class UploadSerializer(UploadSummarySerializer):
    """An upload with the reports of its first ``ITEMS_SHOWN`` logs (all of them, for most
    uploads); ``items_url`` pages through every one."""

    items = serializers.SerializerMethodField()

    class Meta(UploadSummarySerializer.Meta):
        fields = [*UploadSummarySerializer.Meta.fields, "items"]

    @extend_schema_field(UploadItemSerializer(many=True))
    def get_items(self, upload: Upload) -> list[dict[str, Any]]:
        first = upload.items.select_related("match").order_by("index")[:ITEMS_SHOWN]
        return UploadItemSerializer(first, many=True, context=self.context).data


# --- clubs, players, matches ----------------------------------------------------------------


class ClubSerializer(serializers.ModelSerializer):
    class Meta:
        model = Club
        fields = ["id", "name", "slug", "created_at"]


class PlayerSerializer(serializers.ModelSerializer):
    club = serializers.CharField(source="club.slug")

    class Meta:
        model = Player
        fields = ["id", "handle", "club"]


class MatchSerializer(serializers.ModelSerializer):
    url = serializers.HyperlinkedIdentityField(view_name="v1:match-detail")
    club = serializers.CharField(source="club.name")
    club_slug = serializers.CharField(source="club.slug")
    players = serializers.SerializerMethodField()
    team_names = serializers.SerializerMethodField()

    class Meta:
        model = Match
        fields = [
            "id",
            "url",
            "external_id",
            "club",
            "club_slug",
            "preset",
            "player_count",
            "players",
            "teams",
            "team_names",
            "event",
            "played_at",
            "outcome",
            "scores",
            "winner",
            "move_count",
            "warning_count",
        ]

    def get_players(self, match: Match) -> list[str]:
        return [seat.player.handle for seat in sorted(match.seats.all(), key=lambda s: s.seat)]

    def get_team_names(self, match: Match) -> list[str]:
        return team_names(match)


class MatchDetailSerializer(MatchSerializer):
    log = serializers.SerializerMethodField()
    hands = serializers.SerializerMethodField()
    warnings = serializers.SerializerMethodField()
    rules = serializers.DictField(read_only=True, help_text="the ruleset, every option resolved")

    class Meta(MatchSerializer.Meta):
        fields = [*MatchSerializer.Meta.fields, "rules", "warnings", "hands", "log"]

    @extend_schema_field(serializers.DictField(help_text="the match as a fives/1 log"))
    def get_log(self, match: Match) -> dict[str, Any]:
        return match.log().as_json()

    @extend_schema_field(IssueSerializer(many=True))
    def get_warnings(self, match: Match) -> list[dict[str, Any]]:
        return issues_in_language(match.warnings)

    @extend_schema_field(HandResultSerializer(many=True))
    def get_hands(self, match: Match) -> list[dict[str, Any]]:
        return HandResultSerializer(match.hands, many=True).data


class MoveSerializer(serializers.Serializer):
    index = serializers.IntegerField()
    seat = serializers.IntegerField()
    kind = serializers.CharField()
    tile = serializers.CharField()
    end = serializers.CharField()
    count = serializers.IntegerField(allow_null=True)
    points = serializers.IntegerField()
    claimed = serializers.FloatField(allow_null=True)
    best = serializers.IntegerField(allow_null=True)
    best_play = serializers.CharField()


class HandSerializer(serializers.Serializer):
    """A hand with its deal (null in a table record), every move with what the engine
    computed for it, and the tiles left (table records only)."""

    index = serializers.IntegerField()
    leader = serializers.IntegerField()
    deal = serializers.SerializerMethodField()
    end = serializers.CharField()
    points = serializers.ListField(child=serializers.IntegerField())
    settlement = serializers.ListField(child=serializers.IntegerField())
    scores = serializers.ListField(child=serializers.IntegerField())
    moves = serializers.SerializerMethodField()
    left = serializers.SerializerMethodField()

    @extend_schema_field(
        serializers.ListField(child=serializers.ListField(child=serializers.CharField()))
    )
    def get_deal(self, hand: StoredHand) -> list[list[str]] | None:
        deal = hand.log.deal
        return None if deal is None else [list(tiles) for tiles in deal]

    @extend_schema_field(
        serializers.ListField(child=serializers.ListField(child=serializers.CharField()))
    )
    def get_left(self, hand: StoredHand) -> list[list[str]] | None:
        left = hand.log.left
        return None if left is None else [list(tiles) for tiles in left]

    @extend_schema_field(MoveSerializer(many=True))
    def get_moves(self, hand: StoredHand) -> list[dict[str, Any]]:
        return MoveSerializer(hand.moves(), many=True).data


# --- replays --------------------------------------------------------------------------------

# What the schema says of a hand's and a move's number wherever one is given (docs/api.md,
# "Numbering"): from 1, as the replay's addresses.
HAND_FROM_1 = "the hand, from 1, as the replay counts it"
MOVE_FROM_1 = "the move within the hand, from 1: #h{hand}m{move} is the table just after it"


class OpenEndSerializer(serializers.Serializer):
    end = serializers.CharField()
    pip = serializers.IntegerField()


class ReplayStateSerializer(serializers.Serializer):
    """The table at the start of a hand or after a move (README: "Rules engine")."""

    hand = serializers.IntegerField(min_value=1, help_text=HAND_FROM_1)
    # Null at the hand's deal (#h{hand}m0).
    move = serializers.IntegerField(min_value=1, allow_null=True, help_text=MOVE_FROM_1)
    action = serializers.DictField(allow_null=True, help_text="the move as fives/1 writes it")
    seat = serializers.IntegerField(allow_null=True)
    placed = serializers.CharField(allow_null=True)
    count = serializers.IntegerField()
    points = serializers.IntegerField()
    scores = serializers.ListField(child=serializers.IntegerField())
    layout = serializers.DictField(help_text="lead, arms W/E/N/S outwards, spinner")
    open_ends = OpenEndSerializer(many=True)
    hands = serializers.ListField(child=serializers.ListField(child=serializers.CharField()))
    pips = serializers.ListField(child=serializers.IntegerField())
    boneyard = serializers.IntegerField()
    turn = serializers.IntegerField(allow_null=True)
    legal = serializers.ListField(child=serializers.DictField())
    hand_end = serializers.CharField(allow_null=True)
    settlement = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    winner = serializers.IntegerField(allow_null=True)
    best = serializers.IntegerField(required=False)
    best_play = serializers.CharField(required=False)


class ReplaySerializer(serializers.Serializer):
    match = serializers.IntegerField()
    players = serializers.ListField(child=serializers.CharField())
    teams = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField()), allow_null=True
    )
    team_names = serializers.ListField(child=serializers.CharField())
    team_of = serializers.ListField(child=serializers.IntegerField())
    rules = serializers.DictField()
    valid = serializers.BooleanField()
    states = ReplayStateSerializer(many=True)


# --- rankings and statistics ----------------------------------------------------------------


# A serializer with a whole-number field for each counted statistic it names (``counted``,
# from ``replays.stats.STATISTICS``), before its field ``counted_before``: a new statistic
# needs no line here. (A comment, not a docstring: the schema would show a docstring.)
class CountedStatistics(serializers.Serializer):
    counted: Sequence[str] = ()
    counted_before = "last_played"

    def get_fields(self):
        fields = {}
        for name, field in super().get_fields().items():
            if name == self.counted_before:
                fields.update({counted: serializers.IntegerField() for counted in self.counted})
            fields[name] = field
        return fields


class RankingRowSerializer(CountedStatistics):
    counted = RANKED  # the statistics the ranking shows, before last_played

    rank = serializers.IntegerField(required=False)
    player_id = serializers.IntegerField()
    player = serializers.CharField()
    rating = serializers.IntegerField(
        help_text="the rating shown: 1500 + 48 × (mu − 25) (a newcomer: 1500)"
    )
    rating_low = serializers.IntegerField(help_text="its likely range's low end: mu − 2 sigma")
    rating_high = serializers.IntegerField(help_text="its high end: mu + 2 sigma, shown alike")
    ordinal = serializers.FloatField(help_text="openskill's ordinal, mu − 3 sigma")
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    deviation = serializers.IntegerField(help_text="48 × sigma: how unsure the rating is")
    rated_matches = serializers.IntegerField()
    change = serializers.IntegerField(help_text="the rating's change over 30 days (48 × mu's)")
    matches = serializers.IntegerField()
    wins = serializers.IntegerField()
    hands = serializers.IntegerField()
    points = serializers.IntegerField()
    win_rate = serializers.FloatField(allow_null=True)
    points_per_hand = serializers.FloatField(allow_null=True)
    last_played = serializers.DateTimeField(allow_null=True)
    expected_loss = serializers.FloatField(
        allow_null=True,
        help_text="average expected loss per play over the latest analysed matches",
    )
    performance = serializers.FloatField(
        allow_null=True,
        help_text="winning chances lost per play with a choice over the latest analysed matches",
    )
    band = serializers.CharField(
        allow_null=True, help_text="the performance's band, from beginner to expert"
    )
    luck = serializers.FloatField(allow_null=True, help_text="mean luck per analysed match")
    skill = serializers.FloatField(allow_null=True, help_text="mean skill per analysed match")
    analysed_matches = serializers.IntegerField(help_text="how many analysed matches that is")


class RankingSerializer(serializers.Serializer):
    club = serializers.CharField()
    club_slug = serializers.CharField()
    ruleset = serializers.CharField()
    period = serializers.CharField()
    sort = serializers.CharField()
    provisional_below = serializers.IntegerField()
    inactive_after_days = serializers.IntegerField()
    ranked = RankingRowSerializer(many=True)
    provisional = RankingRowSerializer(many=True)
    inactive = RankingRowSerializer(many=True)


class PlayerRatingSerializer(serializers.Serializer):
    rating = serializers.IntegerField(
        help_text="the rating shown: 1500 + 48 × (mu − 25) (a newcomer: 1500)"
    )
    rating_low = serializers.IntegerField(help_text="its likely range's low end: mu − 2 sigma")
    rating_high = serializers.IntegerField(help_text="its high end: mu + 2 sigma, shown alike")
    ordinal = serializers.FloatField(help_text="openskill's ordinal, mu − 3 sigma")
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    deviation = serializers.IntegerField(help_text="48 × sigma: how unsure the rating is")
    matches = serializers.IntegerField()
    provisional = serializers.BooleanField()


class FiguresSerializer(CountedStatistics):
    counted = list(STATISTICS)  # every counted statistic, before last_played

    matches = serializers.IntegerField()
    wins = serializers.IntegerField()
    last_played = serializers.DateTimeField(allow_null=True)
    win_rate = serializers.FloatField(allow_null=True)
    points_per_hand = serializers.FloatField(allow_null=True)
    scoring_share = serializers.FloatField(allow_null=True)
    points_per_scoring_play = serializers.FloatField(allow_null=True)
    missed_per_hand = serializers.FloatField(allow_null=True)


class HistoryPointSerializer(serializers.Serializer):
    matches = serializers.IntegerField()
    played_at = serializers.DateTimeField()
    rating = serializers.IntegerField(
        help_text="the rating shown: 1500 + 48 × (mu − 25) (a newcomer: 1500)"
    )
    rating_low = serializers.IntegerField(help_text="its likely range's low end: mu − 2 sigma")
    rating_high = serializers.IntegerField(help_text="its high end: mu + 2 sigma, shown alike")
    ordinal = serializers.FloatField(help_text="openskill's ordinal, mu − 3 sigma")


class HeadToHeadSerializer(serializers.Serializer):
    opponent_id = serializers.IntegerField()
    opponent = serializers.CharField()
    matches = serializers.IntegerField()
    wins = serializers.IntegerField()
    losses = serializers.IntegerField()


class PlayerAnalysisSerializer(serializers.Serializer):
    expected_loss = serializers.FloatField(
        allow_null=True,
        help_text="average expected loss per play over the latest analysed matches",
    )
    performance = serializers.FloatField(
        allow_null=True,
        help_text="winning chances lost per play with a choice over the latest analysed matches",
    )
    band = serializers.CharField(
        allow_null=True, help_text="the performance's band, from beginner to expert"
    )
    luck = serializers.FloatField(allow_null=True, help_text="mean luck per analysed match")
    skill = serializers.FloatField(allow_null=True, help_text="mean skill per analysed match")
    analysed_matches = serializers.IntegerField(help_text="how many analysed matches that is")
    recent = serializers.IntegerField(help_text="the most matches the average is taken over")


class PlayerStatsSerializer(serializers.Serializer):
    player_id = serializers.IntegerField()
    player = serializers.CharField()
    club = serializers.CharField()
    rating = PlayerRatingSerializer(allow_null=True)
    figures = FiguresSerializer()
    analysis = PlayerAnalysisSerializer()
    history = HistoryPointSerializer(many=True)
    head_to_head = HeadToHeadSerializer(many=True)


# --- clubs, members and what admins decide --------------------------------------------------


class ClubDetailSerializer(serializers.ModelSerializer):
    your_role = serializers.SerializerMethodField(help_text="owner, admin, member or null")

    class Meta:
        model = Club
        fields = ["id", "name", "slug", "created_at", *CLUB_SETTINGS[1:], "your_role"]

    def get_your_role(self, club: Club) -> str | None:
        request = self.context.get("request")
        return club.role_of(request.user) if request is not None else None


class ClubWriteSerializer(FormInput):
    """A new club (name and slug required) or changed settings (any of them)."""

    form_class = ClubForm
    optional = CLUB_SETTINGS[1:]  # a club's own default, or its setting as it is
    plain_choices = ("language", "default_ruleset")


class MembershipSerializer(serializers.ModelSerializer):
    user = serializers.CharField(source="user.get_username")

    class Meta:
        model = Membership
        fields = ["user_id", "user", "role", "joined_at"]


class RoleSerializer(serializers.Serializer):
    role = serializers.ChoiceField(choices=["admin", "member"])


class TransferSerializer(serializers.Serializer):
    user_id = serializers.IntegerField(min_value=1, max_value=2**63 - 1)


class InvitationSerializer(serializers.ModelSerializer):
    link = serializers.SerializerMethodField()

    class Meta:
        model = Invitation
        fields = [
            "id",
            "token",
            "link",
            "created_at",
            "expires_at",
            "max_uses",
            "uses",
            "revoked_at",
        ]

    def get_link(self, invitation: Invitation) -> str:
        request = self.context["request"]
        return request.build_absolute_uri(invitation.get_absolute_url())


class InvitationWriteSerializer(FormInput):
    form_class = InvitationForm


class JoinRequestSerializer(serializers.ModelSerializer):
    club = serializers.CharField(source="club.slug")
    user = serializers.CharField(source="user.get_username")

    class Meta:
        model = JoinRequest
        fields = ["id", "club", "user_id", "user", "message", "status", "created_at", "decided_at"]


class JoinRequestWriteSerializer(FormInput):
    form_class = JoinRequestForm


class HandleClaimSerializer(serializers.ModelSerializer):
    handle = serializers.CharField(source="player.handle")
    user = serializers.CharField(source="user.get_username")

    class Meta:
        model = HandleClaim
        fields = [
            "id",
            "player_id",
            "handle",
            "user_id",
            "user",
            "status",
            "created_at",
            "decided_at",
        ]


class ReasonSerializer(FormInput):
    form_class = ReasonForm


class MatchApprovalSerializer(serializers.ModelSerializer):
    class Meta:
        model = Match
        fields = ["id", "approval", "approval_reason", "reviewed_at"]


class RenameSerializer(FormInput):
    form_class = HandleForm


class MergeSerializer(FormInput):
    form_class = MergeForm
    api_required = ("into",)  # by id: the page may name it by its handle instead
    left_out = ("into_handle",)
    help_texts = {"into": "the player kept"}


def audit_actions() -> list[tuple[str, Any]]:
    """Return the actions of the audit trail, ``(slug, name)``, as the apps registered them
    (read each time: a new kind of entry is in the schema with no change here)."""
    return [(slug, action.name) for slug, action in registered().items()]


class AuditEntrySerializer(serializers.ModelSerializer):
    action = serializers.ChoiceField(choices=CallableChoiceIterator(audit_actions))
    actor = serializers.CharField(source="actor.get_username", allow_null=True, default=None)
    subject = serializers.CharField(source="subject.get_username", allow_null=True, default=None)
    detail = serializers.DictField()

    class Meta:
        model = AuditEntry
        fields = ["id", "action", "actor", "subject", "detail", "created_at"]
