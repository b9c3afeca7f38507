"""The Django admin for every model of the archive (the clubs' own: ``clubs.admin``)."""

import json

from django.contrib import admin
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from .models import ApiToken, Match, Player, Upload, UploadItem
from .services.matches import match_delete
from .tasks import match_rescore_task, upload_process_task


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["handle", "club", "user"]
    list_filter = ["club"]
    search_fields = ["handle", "user__username"]
    autocomplete_fields = ["user"]
    list_select_related = ["club", "user"]


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ["id", "club", "preset", "player_count", "outcome", "scores", "played_at"]
    list_filter = ["preset", "outcome", "player_count", "club"]
    search_fields = ["external_id", "event", "seats__player__handle"]
    date_hierarchy = "played_at"
    raw_id_fields = ["upload"]
    readonly_fields = ["content_sha256", "seated", "created_at", "rescored_at", "hands_and_moves"]
    exclude = ["packed", "content_hash"]
    list_select_related = ["club"]
    actions = ["rescore"]

    def has_change_permission(self, request, obj=None) -> bool:
        """A match is what the engine made of its log, and its statistics, ratings and the
        club's audit trail follow from it: it is viewed, rescored and deleted here, approved
        on its club's page and changed by uploading it again, never edited field by field."""
        return False

    def delete_model(self, request, obj):
        match_delete(match_id=obj.pk)

    def delete_queryset(self, request, queryset):
        for match_id in queryset.values_list("id", flat=True):
            match_delete(match_id=match_id)

    @admin.display(description=_("players"))
    def seated(self, match: Match) -> str:
        """Who sat where, and in which team (seats are known by their match and seat: the
        admin has no inline for a composite key)."""
        seats = match.seats.select_related("player").order_by("seat")
        return ", ".join(f"{seat.seat}: {seat.player.handle} ({seat.team})" for seat in seats)

    @admin.display(description=_("SHA-256 of the log"))
    def content_sha256(self, match: Match) -> str:
        return bytes(match.content_hash).hex()

    @admin.display(description=_("hands and moves (fives/1)"))
    def hands_and_moves(self, match: Match) -> str:
        """The packed hands decoded: each hand as fives/1 writes it, then each move's figures
        and what the hand gave each team."""
        lines = []
        for hand in match.hands:
            lines.append(json.dumps(hand.log.as_json(), ensure_ascii=False))
            lines += [
                f"{move['index'] + 1}. {move['seat']} {move['kind']} {move['tile']} {move['end']}"
                f" count={move['count']} points={move['points']} best={move['best']}"
                f" {move['best_play']}"
                for move in hand.moves()
            ]
            lines.append(json.dumps(hand.result.as_dict()))
        return format_html("<pre>{}</pre>", "\n".join(lines))

    @admin.action(description=_("Rescore with the current engine"))
    def rescore(self, request, queryset):
        for match_id in queryset.values_list("id", flat=True):
            match_rescore_task.delay(match_id)


class UploadItemInline(admin.TabularInline):
    model = UploadItem
    extra = 0
    fields = ["index", "status", "match", "report"]
    readonly_fields = fields
    raw_id_fields = ["match"]


@admin.register(Upload)
class UploadAdmin(admin.ModelAdmin):
    list_display = ["id", "uploader", "kind", "status", "item_count", "created_at"]
    list_filter = ["status", "kind"]
    search_fields = ["filename", "uploader__username", "content_hash"]
    readonly_fields = ["content_hash", "size", "created_at", "processed_at"]
    exclude = ["raw"]
    raw_id_fields = ["uploader"]
    inlines = [UploadItemInline]
    actions = ["process_again"]

    @admin.action(description="Process again (pending uploads)")
    def process_again(self, request, queryset):
        for upload_id in queryset.filter(status=Upload.Status.PENDING).values_list("id", flat=True):
            upload_process_task.delay(upload_id)


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    list_display = ["name", "user", "prefix", "scopes", "created_at", "last_used_at", "revoked_at"]
    list_filter = ["revoked_at"]
    search_fields = ["name", "user__username", "prefix"]
    readonly_fields = ["prefix", "key_hash", "created_at", "last_used_at"]
    raw_id_fields = ["user"]
