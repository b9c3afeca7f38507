"""Train the zstd dictionary of ``Match.packed`` (format 4) and write it to games/.

    .venv/bin/python scripts/train_packed_dictionary.py

A packed match is about a kilobyte: too little for a compressor to learn its own byte
patterns (move bytes, tile bytes, counts) before the match ends. A dictionary trained on
packed matches gives it those patterns up front: on the ingest benchmark's matches the
packed hands go from about 4.0 to 3.2 bytes a move.

The dictionary is part of the stored format: every match packed with it needs this exact
file to be read, so it is made once, committed, and checked by its digest
(``games.codec.DICTIONARY_SHA256``). Never retrain it in place: a better dictionary is a
new format byte with a file of its own, the old one kept. This script says how the file was
made: simulated matches of every preset and table (seeds apart from the benchmarks'), each
packed without compression, as zstandard's trainer takes them.
"""

from __future__ import annotations

import hashlib
import itertools
import pathlib
import sys

import zstandard

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from fives_engine import PRESETS, check_document  # noqa: E402
from fives_engine.simulate import simulate_matches  # noqa: E402
from games.codec import DICTIONARY_PATH, PackedHand, pack_body  # noqa: E402

SIZE = 65536
MATCHES = 1200
SEED = 1000  # the benchmarks draw from seeds 7 and up (bench.ingest, bench.engine)
# Every preset of the engine's table (the dictionary stored is the one trained when it was
# made: a preset added later changes what this script would train, not the stored one).
KINDS = [
    (ruleset, players, teams)
    for ruleset in PRESETS
    for players, teams in ((2, False), (3, False), (4, False), (4, True))
]


def samples() -> list[bytes]:
    per_kind = -(-MATCHES // len(KINDS))
    kinds = [
        simulate_matches(per_kind, seed=SEED + n, ruleset=ruleset, players=players, teams=teams)
        for n, (ruleset, players, teams) in enumerate(KINDS)
    ]
    bodies = []
    for doc in itertools.chain.from_iterable(zip(*kinds, strict=True)):
        checked = check_document(doc)
        assert checked.log is not None and checked.report.valid
        hands = [
            PackedHand(hand, facts, result)
            for hand, facts, result in zip(
                checked.log.hands, checked.moves, checked.report.hands, strict=True
            )
        ]
        bodies.append(pack_body(hands, len(checked.log.players)))
    return bodies


def main() -> None:
    dictionary = zstandard.train_dictionary(SIZE, samples()).as_bytes()
    DICTIONARY_PATH.write_bytes(dictionary)
    digest = hashlib.sha256(dictionary).hexdigest()
    print(f"{DICTIONARY_PATH}: {len(dictionary)} bytes, sha256 {digest}")


if __name__ == "__main__":
    main()
