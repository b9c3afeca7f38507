"""ASGI entry point: the live tables' event streams (recorder/live_stream.py), served by
gunicorn with uvicorn's workers at the /live/stream/ addresses:

    gunicorn fivesite.asgi -k uvicorn_worker.UvicornWorker --workers 2 --bind 127.0.0.1:8001

It serves every other address too (Django runs sync views in threads), but the pages are
gunicorn's gthread workers' (fivesite.wsgi): nginx sends only the streams here."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fivesite.settings")
application = get_asgi_application()
