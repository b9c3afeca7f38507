"""Fill ``Match.packed`` from the match's ``Hand`` rows (format 1 per hand, format 2 per
match); backwards, the hand rows and the resolved rules come back from it (the way back for
one release)."""

from django.db import migrations

from fives_engine import HandResult, resolve_ruleset
from games.codec import PackedHand, pack_hand, pack_match, unpack_hand, unpack_match

BATCH = 500


def pack_matches(apps, schema_editor):
    Match = apps.get_model("games", "Match")
    Hand = apps.get_model("games", "Hand")
    matches = Match.objects.order_by("id").only("id", "player_count")
    last = 0
    while batch := list(matches.filter(id__gt=last)[:BATCH]):
        hands: dict[int, list[PackedHand]] = {match.id: [] for match in batch}
        for hand in Hand.objects.filter(match_id__in=list(hands)).order_by("match_id", "index"):
            logged, facts = unpack_hand(bytes(hand.packed))
            result = HandResult(hand.end, hand.points, hand.settlement, hand.scores)
            hands[hand.match_id].append(PackedHand(logged, facts, result))
        for match in batch:
            match.packed = pack_match(hands[match.id], match.player_count)
        Match.objects.bulk_update(batch, ["packed"])
        last = batch[-1].id


def unpack_matches(apps, schema_editor):
    Match = apps.get_model("games", "Match")
    Hand = apps.get_model("games", "Hand")
    fields = ("id", "player_count", "ruleset", "packed")
    for match in Match.objects.order_by("id").only(*fields).iterator(chunk_size=BATCH):
        hands = unpack_match(bytes(match.packed), match.player_count)
        Hand.objects.bulk_create(
            Hand(
                match_id=match.id,
                index=index,
                leader=hand.log.leader,
                end=hand.result.end,
                points=hand.result.points,
                settlement=hand.result.settlement,
                scores=hand.result.scores,
                packed=pack_hand(hand.log, hand.facts),
                move_count=len(hand.log.moves),
            )
            for index, hand in enumerate(hands)
        )
        rules = resolve_ruleset(match.ruleset, match.player_count).as_dict()
        Match.objects.filter(pk=match.id).update(rules=rules)


class Migration(migrations.Migration):
    dependencies = [("games", "0008_match_packed")]

    operations = [migrations.RunPython(pack_matches, unpack_matches)]
