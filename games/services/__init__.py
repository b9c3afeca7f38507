"""Services of the archive, by purpose: ``uploads`` (what people send), ``ingest`` (an
upload's logs validated and stored), ``matches`` (stored matches: their log, rescoring,
deletion, a club's approval), ``players`` (renaming and merging handles), ``claims`` (a
member's claim of a handle). Views, the API, tasks and commands call these; the rules are
the engine's, and the clubs app's below (``clubs.services``, ``clubs.refusals``).
"""
