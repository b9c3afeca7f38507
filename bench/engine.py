"""Benchmark: validating simulated matches with the engine, against the peer all-fives-domino.

    python -m bench.engine [--matches 1000] [--seed 2026] [--repeat 3] [--mix 4000] [--no-peer]

The engine has one walk (``HandState``), run as pure Python or compiled by mypyc from the same
source (``make venv`` builds it where there is a C compiler: scripts/build_engine.py). Each
figure of the engine is measured in a child process per engine (``FIVES_ENGINE=pure`` and the
compiled build), in turns with the peer, in one run.

(a) validates a fixed seeded corpus of two-player All Fives matches with ``validate_log``
(full validation: legal moves, draws, passes, settlement) and prints matches/s and
microseconds per move, and ``check_document`` on each log as JSON text (decode, parse, one
walk with each move's trace and each play's review), with its ratio to ``validate_log``.
(b) replays and scores the plays of the same corpus with the PyPI package
``all-fives-domino`` (its ``Board.play`` and ``AllFivesScorer``), installed into
``bench/.venv-peer`` for the benchmark only, and prints its plays/s and the ratio to each
engine. Best of ``--repeat`` runs each, in ``--rounds`` turns; the machine is noisy, so read
the ratios, not the absolute times.
(c) ``validate_log`` and ``check_document`` side by side on the mixed corpus of
``bench.ingest --mix`` (every preset; 2, 3, 4 players and partnerships; ``--mix`` matches,
seed 7), the corpus the archive's ingest target is set on; and ingest's walk (``check_document``
then the codec's ``pack_match`` and the canonical text), from parsed JSON and from JSON
bytes, each as a multiple of ``validate_log``.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import time

from fives_engine import COMPILED_FROM, PRESETS, check_document, validate_log
from fives_engine.simulate import simulate_matches
from games.codec import PackedHand, pack_match

# The presets and tables of ``bench.ingest --mix``, drawn the same way (see mixed_corpus).
MIX = [
    (ruleset, players, teams)
    for ruleset in PRESETS
    for players, teams in ((2, False), (3, False), (4, False), (4, True))
]

ROOT = pathlib.Path(__file__).resolve().parents[1]

PEER = "all-fives-domino==1.0.23"
PEER_VENV = ROOT / "bench" / ".venv-peer"


def peer_python() -> pathlib.Path:
    """Return the Python of a virtual environment holding the peer, made on first use."""
    python = PEER_VENV / "bin" / "python"
    if not python.exists():
        print(f"installing {PEER} into {PEER_VENV} (once) ...", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "venv", str(PEER_VENV)], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "--quiet", PEER], check=True)
    return python


def best_time(run, repeat: int) -> float:
    """Return the shortest of ``repeat`` runs of ``run``, in seconds (the benches' one
    timing)."""
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - started)
    return best


def mixed_corpus(matches: int, seed: int = 7) -> list[dict]:
    """Return the matches ``bench.ingest --mix`` ingests: every preset and table in turn."""
    per_kind = -(-matches // len(MIX))
    kinds = [
        simulate_matches(per_kind, seed=seed + n, ruleset=ruleset, players=players, teams=teams)
        for n, (ruleset, players, teams) in enumerate(MIX)
    ]
    mixed = [doc for group in itertools.zip_longest(*kinds) for doc in group if doc is not None]
    return mixed[:matches]


def ingest_walk(data) -> None:
    """What one ingest worker's engine does to a log before any database work: one walk
    (report, review), the hands packed by the codec, the canonical text."""
    checked = check_document(data)
    if checked.log is not None and checked.report.valid:
        hands = zip(checked.log.hands, checked.moves, checked.report.hands, strict=True)
        pack_match([PackedHand(*hand) for hand in hands], len(checked.log.players))
        checked.log.canonical_text()


def compare_on_mix(matches: int, repeat: int, rounds: int) -> None:
    """Print validate_log's and check_document's matches/s on the mixed corpus, and the
    engine's part of ingest (check_document, the codec's packing and the canonical text),
    each against validate_log."""
    corpus = mixed_corpus(matches)
    data = [json.dumps(doc).encode() for doc in corpus]
    moves = sum(len(hand["moves"]) for doc in corpus for hand in doc["hands"])
    runs = {
        "validate_log (parsed JSON)": lambda: [validate_log(d) for d in corpus],
        "check_document (JSON bytes)": lambda: [check_document(d) for d in data],
        "ingest's walk (parsed, pack)": lambda: [ingest_walk(d) for d in corpus],
        "ingest's walk (JSON bytes)": lambda: [ingest_walk(d) for d in data],
    }
    best = dict.fromkeys(runs, float("inf"))
    for _ in range(rounds):  # in turns: the machine's noise falls on each alike
        for name, run in runs.items():
            best[name] = min(best[name], best_time(run, repeat))
    print(
        f"mixed corpus: {len(corpus)} matches of every preset and table "
        f"(bench.ingest --mix, seed 7), {moves} moves"
    )
    print(f"{'':32}{'matches/s':>12}{'us/move':>10}{'x validate_log':>16}")
    validating = best["validate_log (parsed JSON)"]
    for name, seconds in best.items():
        print(
            f"{name:32}{len(corpus) / seconds:12,.0f}{seconds / moves * 1e6:10.2f}"
            f"{seconds / validating:16.2f}"
        )
    print(
        "ingest's walk: what one ingest worker's engine does to each log before any database "
        "work (the worker reads JSON with msgspec, faster than the engine's reader used here)"
    )


def all_fives_corpus(matches: int, seed: int) -> list[dict]:
    return list(simulate_matches(matches, seed=seed, ruleset="all-fives", players=2))


def child(matches: int, seed: int, repeat: int) -> None:
    """Print, as JSON, this process's engine's best times on the All Fives corpus."""
    corpus = all_fives_corpus(matches, seed)
    texts = [json.dumps(doc) for doc in corpus]
    reports = [validate_log(doc) for doc in corpus]
    assert all(report.valid and not report.warnings for report in reports)
    times = {
        "validate": best_time(lambda: [validate_log(d) for d in corpus], repeat),
        "check": best_time(lambda: [check_document(t) for t in texts], repeat),
        "compiled": COMPILED_FROM is not None,
    }
    print(json.dumps(times))


def engine_times(kind: str, args: argparse.Namespace) -> dict:
    """Return the best times of the ``kind`` engine (pure or compiled), in a child process."""
    command = [
        sys.executable, "-m", "bench.engine", "--child",
        "--matches", str(args.matches), "--seed", str(args.seed), "--repeat", str(args.repeat),
    ]  # fmt: skip
    env = {**os.environ, "FIVES_ENGINE": kind}
    out = subprocess.run(command, check=True, capture_output=True, text=True, cwd=ROOT, env=env)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=3, help="turns of engine, then peer")
    parser.add_argument("--mix", type=int, default=4000, help="matches of the mixed corpus")
    parser.add_argument("--no-peer", action="store_true", help="only the mixed corpus (c)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.matches, args.seed, args.repeat)
        return

    engine_name = "compiled (mypyc)" if COMPILED_FROM else "pure Python (no compiled build)"
    if args.mix:
        print(f"engine: {engine_name}")
        compare_on_mix(args.mix, args.repeat, args.rounds)
    if not args.no_peer:
        compare_with_peer(args)


def compare_with_peer(args: argparse.Namespace) -> None:
    """Time both engines on two-player all-fives matches against the peer's library, taking
    turns, and print the figures side by side."""
    corpus = all_fives_corpus(args.matches, args.seed)
    moves = sum(len(hand["moves"]) for doc in corpus for hand in doc["hands"])
    hands = [
        [
            (*map(int, move["play"].split("-")), move.get("end"))
            for move in hand["moves"]
            if "play" in move
        ]
        for doc in corpus
        for hand in doc["hands"]
    ]
    plays = sum(len(hand) for hand in hands)
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
        json.dump(hands, handle)
    peer_command = [str(peer_python()), str(ROOT / "bench" / "peer_allfives.py"), handle.name]

    # The engines and the peer take turns, and each keeps its best time, so that a moment
    # of load on this shared machine does not favour either side.
    kinds = ["compiled", "pure"] if COMPILED_FROM else ["pure"]
    best: dict[str, dict] = {kind: {"validate": 1e9, "check": 1e9} for kind in kinds}
    peer: dict = {"seconds": float("inf")}
    for _ in range(args.rounds):
        for kind in kinds:
            times = engine_times(kind, args)
            assert times["compiled"] == (kind == "compiled")
            for name in ("validate", "check"):
                best[kind][name] = min(best[kind][name], times[name])
        out = subprocess.run(peer_command, check=True, capture_output=True, text=True)
        result = json.loads(out.stdout)
        if result["seconds"] < peer["seconds"]:
            peer = result
    pathlib.Path(handle.name).unlink()
    assert peer["plays"] == plays

    print(
        f"corpus: {len(corpus)} two-player all-fives matches (seed {args.seed}), "
        f"{len(hands)} hands, {moves} moves of which {plays} plays"
    )
    peer_rate = peer["plays"] / peer["seconds"]
    print(f"{'':40}{'matches/s':>12}{'us/move':>10}{'plays/s':>12}{'x peer':>8}")
    for kind in kinds:
        for name, label in (("validate", "validate_log"), ("check", "check_document (JSON)")):
            seconds = best[kind][name]
            print(
                f"{kind + ' engine ' + label:40}{len(corpus) / seconds:12,.0f}"
                f"{seconds / moves * 1e6:10.2f}{plays / seconds:12,.0f}"
                f"{plays / seconds / peer_rate:8.1f}"
            )
    print(f"{'peer all-fives-domino ' + peer['version']:40}{'':12}{'':10}{peer_rate:12,.0f}")
    for kind in kinds:
        print(
            f"{kind}: validate_log {plays / best[kind]['validate'] / peer_rate:.1f}x the peer; "
            f"check_document/validate_log (time per log) "
            f"{best[kind]['check'] / best[kind]['validate']:.2f}x"
        )


if __name__ == "__main__":
    main()
