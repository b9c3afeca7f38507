"""Each thing's address (fivesite/links.py): a player's and a match's are reversed once and
then cut at the id, and must stay what ``reverse`` says under any script prefix."""

from __future__ import annotations

from types import SimpleNamespace

from django.urls import clear_script_prefix, reverse, set_script_prefix

from fivesite.links import match_url, player_url


def test_an_address_by_id_is_what_reverse_gives_under_every_prefix():
    try:
        for prefix in ("/", "/fives/", "/ხუთივე/"):
            set_script_prefix(prefix)
            for pk in (1, 7070, 7070707070707, 10**12):
                thing = SimpleNamespace(pk=pk)
                assert player_url(thing) == reverse("replays:player-detail", args=[pk])
                assert match_url(thing) == reverse("replays:match-detail", args=[pk])
    finally:
        clear_script_prefix()
    assert match_url(SimpleNamespace(pk=5)) == "/matches/5/"
