"""Whether a seat's match counts in its club (``SeatResult.in_club``): a league's leg between
two clubs, whose visiting players sit as their own club's, counts in no club's season table,
ranking or rating. Every row stored so far is of a match of one club's players: true. The
matches whose seats ``legs_rehome`` moves are reviewed again, and their rows say false."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("replays", "0013_competitions_moved"),
    ]

    operations = [
        migrations.AddField(
            model_name="seatresult",
            name="in_club",
            field=models.BooleanField(default=True, verbose_name="counts in its club"),
        ),
    ]
