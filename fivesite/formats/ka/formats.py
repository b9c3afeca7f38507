"""Georgian times as the country writes them, in 24-hour form (10:00, 22:00), not Django's
"10:00 a.m."; and dates in figures (21.11.2026), which no case ending is ever glued onto."""

TIME_FORMAT = "H:i"
DATETIME_FORMAT = "j F, Y H:i"
SHORT_DATE_FORMAT = "d.m.Y"
SHORT_DATETIME_FORMAT = "d.m.Y H:i"
