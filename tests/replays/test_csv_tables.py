"""Every CSV a club opens in a spreadsheet is written by one writer with one formula guard
(replays/csv_tables.py): a name typed as a formula comes out as text, numbers as numbers."""

from __future__ import annotations

import csv
import io

import pytest

from competitions import league_table, seasons, tournaments
from replays import rankings
from replays.csv_tables import csv_cell, csv_text

FORMULAS = ["=SUM(A1:A9)", "+1", "-2+3", "@cmd", "\tx", "\rx"]


@pytest.mark.parametrize("text", FORMULAS)
def test_a_formula_is_written_as_text(text):
    assert csv_cell(text) == "'" + text


@pytest.mark.parametrize("value", ["Nino", "", 0, -3, 2.5, "ნიკა", "Ива-нов"])
def test_anything_else_is_written_as_it_is(value):
    assert csv_cell(value) == value


def test_none_is_an_empty_cell_and_the_header_comes_first():
    text = csv_text(("a", "b"), [["=1", None], [-1, "x"]])
    assert list(csv.reader(io.StringIO(text))) == [["a", "b"], ["'=1", ""], ["-1", "x"]]


def read(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def test_each_table_of_a_club_goes_through_the_guard():
    league = league_table.table_csv(
        [
            {
                "position": 1,
                "name": "=HYPERLINK(1)",
                "club": "@Batumi",
                **dict.fromkeys(league_table.TABLE_COLUMNS[3:], -1),
            }
        ]
    )
    assert read(league)[1][:3] == ["1", "'=HYPERLINK(1)", "'@Batumi"]
    assert read(league)[1][3:] == ["-1"] * (len(league_table.TABLE_COLUMNS) - 3)
    season = seasons.table_csv(
        [
            {
                "position": 2,
                "name": "+Levan",
                **dict.fromkeys(seasons.CSV_COLUMNS[2:-3], 0),
                "last": ["W", "L"],
            }
        ]
    )
    assert read(season)[1][:2] == ["2", "'+Levan"] and read(season)[1][-3:] == ["WL", "", ""]
    schedule = tournaments.schedule_csv(
        {
            "players": [{"player_id": 7, "name": "-Nino"}],
            "rounds": [
                {
                    "number": 1,
                    "fixtures": [
                        {
                            "a_name": "-Nino",
                            "b_name": "Gia",
                            "state": "played",
                            "score": [61, 40],
                            "winner": 7,
                            "match_id": 9,
                        }
                    ],
                    "bye": True,
                    "bye_name": "=bye",
                }
            ],
        }
    )
    assert read(schedule)[1:] == [
        ["1", "'-Nino", "Gia", "played", "61", "40", "'-Nino", "9"],
        ["1", "'=bye", "", "bye", "", "", "", ""],
    ]
    row = dict.fromkeys(rankings.RANKING_CSV_COLUMNS, 1) | {
        "player": "@Zura",
        "last_played": None,
    }
    ranking = rankings.ranking_csv({"ranked": [row], "provisional": [], "inactive": []})
    cells = dict(zip(rankings.RANKING_CSV_COLUMNS, read(ranking)[1], strict=True))
    assert cells["player"] == "'@Zura" and cells["group"] == "ranked"
