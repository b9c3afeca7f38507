from django.db import migrations


def thin_histories(apps, schema_editor):
    """Keep of every stored history only the points its career's chart shows (the points
    kept for every length the career went through before are dropped)."""
    from replays.rating_history import thinned

    RatingHistory = apps.get_model("replays", "RatingHistory")
    for history in RatingHistory.objects.select_related("rating").iterator(chunk_size=1000):
        points = bytes(history.points)
        kept = thinned(points, history.rating.matches)
        if kept != points:
            RatingHistory.objects.filter(pk=history.pk).update(points=kept)


class Migration(migrations.Migration):
    # Taken back, a history keeps fewer points than the older code kept: the chart it
    # draws is the same, and ``manage.py totals_rebuild`` counts them again.
    dependencies = [
        ("replays", "0021_rating_history"),
    ]

    operations = [migrations.RunPython(thin_histories, migrations.RunPython.noop)]
