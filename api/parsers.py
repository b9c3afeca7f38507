"""The upload body: bytes as sent, read up to the limit."""

from django.conf import settings
from rest_framework.parsers import BaseParser


class RawBodyParser(BaseParser):
    """Hands the body over as bytes (a JSON log or NDJSON lines), read up to the limit."""

    media_type = "*/*"

    def parse(self, stream, media_type=None, parser_context=None):
        if stream is None:
            return b""
        return stream.read(settings.FIVES_UPLOAD_MAX_BYTES + 1)
