"""Hands stored packed (``games/codec.py``): the deal, the moves, the tiles left and the
engine's figures of every move in a few bytes a move, instead of one ``games_move`` row a
move; documents as sent stored compressed (bz2). Runs both ways: backwards, the packed hands
become rows again and the documents plain (the way back for one release)."""

import bz2

from django.db import migrations, models

from fives_engine import HandLog, MoveFacts
from fives_engine import Move as LogMove
from games.codec import pack_hand, unpack_hand

BATCH = 500


def _claimed(value):
    if value is not None and value.is_integer():
        return int(value)
    return value


def pack_hands(apps, schema_editor):
    Hand = apps.get_model("games", "Hand")
    Move = apps.get_model("games", "Move")
    hands = Hand.objects.order_by("id")
    last = 0
    while True:
        batch = list(hands.filter(id__gt=last)[:BATCH])
        if not batch:
            break
        moves: dict[int, list] = {hand.id: [] for hand in batch}
        for move in Move.objects.filter(hand_id__in=list(moves)).order_by("hand_id", "index"):
            moves[move.hand_id].append(move)
        for hand in batch:
            rows = moves[hand.id]
            logged = HandLog(
                hand.leader,
                None if hand.deal is None else tuple(tuple(tiles) for tiles in hand.deal),
                tuple(
                    LogMove(
                        row.seat, row.kind, row.tile or None, row.end or None, _claimed(row.claimed)
                    )
                    for row in rows
                ),
            )
            facts = [
                MoveFacts(row.count, row.points, row.best, row.best_play or None) for row in rows
            ]
            hand.packed = pack_hand(logged, facts)
            hand.move_count = len(rows)
        Hand.objects.bulk_update(batch, ["packed", "move_count"])
        last = batch[-1].id


def unpack_hands(apps, schema_editor):
    Hand = apps.get_model("games", "Hand")
    Move = apps.get_model("games", "Move")
    for hand in Hand.objects.order_by("id").iterator(chunk_size=BATCH):
        logged, facts = unpack_hand(bytes(hand.packed))
        hand.deal = None if logged.deal is None else [list(tiles) for tiles in logged.deal]
        hand.save(update_fields=["deal"])
        Move.objects.bulk_create(
            Move(
                hand_id=hand.id,
                index=index,
                seat=move.seat,
                kind=move.kind,
                tile=move.tile or "",
                end=move.end or "",
                count=fact.count,
                points=fact.points,
                claimed=move.points,
                best=fact.best,
                best_play=fact.best_play or "",
            )
            for index, (move, fact) in enumerate(zip(logged.moves, facts, strict=True))
        )


def compress_documents(apps, schema_editor):
    Upload = apps.get_model("games", "Upload")
    for upload in Upload.objects.filter(raw_codec="").only("id", "raw").iterator(chunk_size=50):
        raw = bytes(upload.raw)
        if raw:
            Upload.objects.filter(pk=upload.pk).update(raw=bz2.compress(raw, 9), raw_codec="bz2")


def decompress_documents(apps, schema_editor):
    Upload = apps.get_model("games", "Upload")
    for upload in Upload.objects.filter(raw_codec="bz2").only("id", "raw").iterator(chunk_size=50):
        Upload.objects.filter(pk=upload.pk).update(
            raw=bz2.decompress(bytes(upload.raw)), raw_codec=""
        )


class Migration(migrations.Migration):
    dependencies = [("games", "0006_clubs_made_on_purpose")]

    operations = [
        migrations.AddField(
            model_name="match",
            name="record",
            field=models.CharField(blank=True, max_length=5, verbose_name="record"),
        ),
        migrations.AddField(
            model_name="hand",
            name="packed",
            field=models.BinaryField(default=b"", verbose_name="deal and moves, packed"),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="hand",
            name="move_count",
            field=models.PositiveSmallIntegerField(default=0, verbose_name="moves"),
        ),
        migrations.AddField(
            model_name="upload",
            name="raw_codec",
            field=models.CharField(blank=True, max_length=8, verbose_name="compression"),
        ),
        migrations.AlterField(
            model_name="hand",
            name="deal",
            field=models.JSONField(null=True, verbose_name="deal"),
        ),
        migrations.RunPython(pack_hands, unpack_hands),
        migrations.RunPython(compress_documents, decompress_documents),
        migrations.RemoveField(model_name="hand", name="deal"),
        migrations.DeleteModel(name="Move"),
    ]
