"""English dates as the archive writes its times: ISO, year first (2026-10-03), not Django's
American 10/03/2026 beside a time written 2026-10-03 19:00 on the same page."""

SHORT_DATE_FORMAT = "Y-m-d"
SHORT_DATETIME_FORMAT = "Y-m-d H:i"
