"""Services of the archive, by purpose: ``uploads`` (what people send), ``ingest`` (an
upload's logs validated and stored), ``matches`` (stored matches: their log, rescoring,
deletion). Views, the API, tasks and commands call these; the rules are the engine's.
"""
