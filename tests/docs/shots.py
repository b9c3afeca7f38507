"""The guides' pictures (issue 58, item 2): every screenshot a guide of docs/guides/ may show,
the page it is taken of and how. ``test_guide_shots.py`` takes each in every language; a
guide that shows a picture not listed here (or not made for its language) fails
``test_every_picture_of_a_guide_is_made_by_a_test``.

A page is named by the crawl's world (tests/crawl/world.py): a URL name and its state there
(the first the world lists), or by its address.
``scroll`` is a selector brought to the screen's top before a picture of the screen is taken;
``part`` a selector whose element alone is the picture. The recorder's pictures (``page`` None) are
taken while the test taps a short match at the table (test_guide_shots.py)."""

from __future__ import annotations

from dataclasses import dataclass

LANGUAGES = ("en", "ru", "ka")
SIZES = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1280, "height": 800}}


@dataclass(frozen=True)
class Shot:
    name: str
    guide: str
    size: str
    role: str = "member"
    page: tuple[str, str] | str | None = None
    scroll: str = ""
    part: str = ""
    # A form of the page sent first (its empty date fields filled with the test's day).
    submit: str = ""


SHOTS = [
    # For players.
    Shot("players-clubs", "players", "phone", page=("competitions:club-list", "the demo")),
    Shot("players-club", "players", "phone", page="/clubs/tbilisi-fives-club/"),
    Shot("players-matches", "players", "laptop", page=("games:match-list", "a search")),
    Shot("players-replay", "players", "phone", page=("replays:match-detail", "at a move")),
    Shot(
        "players-chances",
        "players",
        "laptop",
        page=("replays:match-detail", "analysed"),
        part="[data-review-chances]",
    ),
    Shot(
        "players-marks",
        "players",
        "laptop",
        page=("replays:match-detail", "analysed"),
        scroll="#analysis",
    ),
    Shot("players-practice", "players", "phone", page=("replays:player-practice", "with mistakes")),
    Shot(
        "players-claim",
        "players",
        "phone",
        page=("replays:player-detail", "not claimed"),
        scroll=".player-claim, #claim, form[action*=claim]",
    ),
    Shot("players-player", "players", "laptop", page=("replays:player-detail", "with mistakes")),
    Shot("players-ranking", "players", "phone", page="/clubs/tbilisi-fives-club/ranking/"),
    # For organisers and captains.
    Shot(
        "organisers-club-new",
        "organisers",
        "laptop",
        role="organiser",
        page=("games:club-create", "the demo"),
    ),
    Shot(
        "organisers-manage",
        "organisers",
        "laptop",
        role="club admin",
        page="/clubs/tbilisi-fives-club/manage/",
        scroll="#requests",
    ),
    Shot(
        "organisers-invitation",
        "organisers",
        "phone",
        role="signed out",
        page=("games:invitation", "an invitation"),
    ),
    Shot(
        "organisers-season",
        "organisers",
        "laptop",
        role="organiser",
        page=("competitions:season-detail", "with standings"),
    ),
    Shot(
        "organisers-event",
        "organisers",
        "phone",
        role="organiser",
        page=("competitions:event-detail", "a round-robin half played"),
    ),
    Shot(
        "organisers-league",
        "organisers",
        "laptop",
        role="organiser",
        page=("competitions:league-detail", "mid-season"),
    ),
    Shot(
        "organisers-schedule",
        "organisers",
        "laptop",
        role="organiser",
        page=("competitions:league-schedule", "teams, no fixture"),
        submit="#schedule-form",
    ),
    Shot(
        "organisers-fixture",
        "organisers",
        "phone",
        role="captain",
        page=("competitions:league-fixture", "submitted"),
        scroll="#confirm-legs",
    ),
    Shot(
        "organisers-postponed",
        "organisers",
        "phone",
        role="organiser",
        page=("competitions:league-fixture", "postponement offered"),
        scroll="#fixture-postponed",
    ),
    Shot(
        "organisers-calendar",
        "organisers",
        "laptop",
        role="organiser",
        page=("competitions:league-detail", "mid-season"),
        part=".calendar-link",
    ),
    Shot(
        "organisers-inbox",
        "organisers",
        "phone",
        role="captain",
        page=("competitions:inbox", "the demo"),
    ),
    Shot(
        "organisers-emails",
        "organisers",
        "phone",
        role="captain",
        page=("competitions:email-settings", "the demo"),
    ),
    Shot(
        "organisers-print",
        "organisers",
        "laptop",
        role="organiser",
        page=("competitions:season-print", "with standings"),
    ),
    # For recording at the table: taken while a short match is tapped.
    Shot("recording-setup", "recording", "phone", role="club admin"),
    Shot("recording-table", "recording", "phone", role="club admin"),
    Shot("recording-undo", "recording", "phone", role="club admin"),
    Shot("recording-left", "recording", "phone", role="club admin"),
    Shot("recording-next-hand", "recording", "phone", role="club admin"),
    Shot("recording-over", "recording", "phone", role="club admin"),
    Shot("recording-saved", "recording", "phone", role="club admin"),
    Shot(
        "recording-live",
        "recording",
        "phone",
        role="signed out",
        page=("recorder:live-match", "mid-hand"),
    ),
    Shot(
        "recording-live-club",
        "recording",
        "laptop",
        role="signed out",
        page=("recorder:club-live", "many tables"),
    ),
]

BY_NAME = {shot.name: shot for shot in SHOTS}

# The names a guide writes as they are (the demo's clubs, people, teams, leagues): never
# a message of the project's catalogue, whatever their language.
NAMES = (
    "Tbilisi Fives Club",
    "Kutaisi Muggins Society",
    "Caucasus team league",
    "Autumn 2026",
    "Пятёрочка",
    "Nino",
    "Giorgi",
    "Levan",
    "Tamar",
    "Ivan",
    "Fives",
    "Muggins",
    "All Fives",
    "Fives and Threes",
    "Material",
    "MkDocs",
    "Wi-Fi",
    "CSV",
    "A4",
)
