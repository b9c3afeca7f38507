"""Services of the archive, by purpose: ``uploads`` (what people send), ``ingest`` (an
upload's logs validated and stored), ``matches`` (stored matches: their log, rescoring,
deletion, a club's approval), ``players`` (renaming and merging handles), ``refusals`` (what
a club's rules refuse). Views, the API, tasks and commands call these; the rules are the
engine's. The services of clubs are the clubs app's (``clubs.services``).
"""
