"""The REST API (v1): one package over the archive (``games``) and what is derived from it
(``replays``). Views authenticate, check permissions and throttle, then call services and
selectors; serializers only shape rows into JSON."""
