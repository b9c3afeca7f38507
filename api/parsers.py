"""The upload body: bytes as sent, read up to the limit; and every other JSON body, through
the one input boundary."""

from django.conf import settings
from django.utils.translation import gettext as _
from rest_framework.exceptions import ParseError
from rest_framework.parsers import BaseParser, JSONParser

from clubs.inputs import BodyRefused, request_json


class RawBodyParser(BaseParser):
    """Hands the body over as bytes (a JSON log or NDJSON lines), read up to the limit."""

    media_type = "*/*"

    def parse(self, stream, media_type=None, parser_context=None):
        if stream is None:
            return b""
        return stream.read(settings.FIVES_UPLOAD_MAX_BYTES + 1)


class BoundedJSONParser(JSONParser):
    """JSON bodies read through the one input boundary (``clubs.inputs``), once: the door
    (``fivesite.doors``) has read the body before the view, and this hands on what it kept."""

    def parse(self, stream, media_type=None, parser_context=None):
        request = (parser_context or {}).get("request")
        try:
            return request_json(request)
        except BodyRefused as refused:
            raise ParseError(refused.message, code=refused.code) from None
        except ValueError as error:
            raise ParseError(_("JSON parse error - %(error)s") % {"error": error}) from None
