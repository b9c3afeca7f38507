"""Peer-benchmark adapter for the PyPI package ``all-fives-domino`` (1.0.23).

Replays our hand logs through the peer's own board and scorer, so that a
benchmark can time the peer doing the same work as our engine: one
``Board.play`` and one ``AllFivesScorer.board_score`` call per play.

Peer API used (the wheel installs a top-level package literally named ``src``)::

    from src.main.game.Board import Board            # Board()
    from src.main.game.Piece import Piece            # Piece(a: int, b: int)
    from src.main.game.Scorer import AllFivesScorer  # classmethods only
    from src.main.game.exceptions.Board import InvalidMoveException

    Board.play(self, piece: Piece, origin: Piece | None = None, close=False)
    AllFivesScorer.board_score(board) -> int   # == score(count(board.origin))
    AllFivesScorer.count(piece, depth=28) -> int  # raw pip sum of the open ends
    AllFivesScorer.score(count) -> int         # count if count % 5 == 0 else 0

Because of the ``src`` name, another ``src`` package earlier on ``sys.path``
(e.g. a project's own ``src/`` folder in the current directory) would shadow
the peer; the import below checks that it got the installed distribution.

How the peer models the board
-----------------------------
The peer has no notion of ends, sides or directions. The board is a tree of
``Piece`` objects rooted at ``board.origin`` (the lead); ``Board.play(piece,
origin)`` appends ``piece`` as a child of the already-placed piece
``origin`` (looked up again by its pips), or makes it the lead when
``origin`` is None. ``Piece`` stores its pips sorted, so the orientation in
the log is dropped; which pip of a piece is joined is derived afterwards from
the pips two linked pieces share (two distinct tiles share at most one pip
value, so this is unambiguous). A double becomes a "crossing" (spinner, 4
sides) when it gets its second child; the board allows one crossing.

Mapping of our ends
-------------------
The adapter keeps, per hand, the tip piece of each of our arms and passes it
as ``origin``:

* lead (end None): ``play(piece)``; the tips of W and E are the lead.
* W / E: ``play(piece, tip[W|E])``, then the new piece becomes that tip. For a
  lead non-double "a-b" both arms start on the lead piece and the peer joins
  the W tile on ``a`` and the E tile on ``b`` by pip matching, as we do.
* N / S: the spinner is the first double played in the hand (ours); the first
  N (resp. S) play is appended to that double, later ones to the N (S) tip.
  Since N/S only follow once both sides of the spinner are covered, the
  spinner's N play is its 2nd child when it is a non-lead double (parent +
  E/W child + N) and its 3rd when it is the lead double (W + E + N). Either
  way the peer's crossing is our spinner, so every play of a legal log maps
  to exactly one ``Board.play`` the peer accepts, on the same piece we use.

Differences in the peer's rules (they change scores, not the amount of work)
----------------------------------------------------------------------------
* Open ends count as we count them (a double at an end counts both halves,
  the lone lead counts its pips, a spinner covered on W and E counts 0) with
  one exception: the peer's scorer counts the open pip of a crossing that has
  exactly 3 links, i.e. one open arm of the spinner adds the spinner's pip
  before a tile is played on it.  Through ``Board.play`` this only happens
  for a NON-lead spinner: for the lead spinner, ``Board.play`` clears
  ``is_crossing`` on the 3rd link (its "only one crossing" check,
  ``if self.has_crossing and origin is not None: origin.is_crossing =
  False``, also hits the existing crossing), so the lead spinner's open arm
  is not counted (as in our rules), and from then on the peer's own
  ``open_ends`` reports no N/S end for it (``play`` does not consult it, so
  the S play is still accepted).  Example: lead 0-5, 5-5 on E, 3-5 on E,
  2-5 on N: the peer counts 0+3+2+5 = 10, we count 0+3+2 = 5.
* ``Board.play`` does not check that the pips match the end, nor which arms
  of a spinner are open; it only refuses (``InvalidMoveException`` or its
  subclasses ``DuplicatePieceException`` / ``InvalidCloseException``) a tile
  already on the board, a second lead, an ``origin`` not on the board, and a
  bad ``close``.  The peer's ``close=True`` (a double played face down) is an
  extra house rule we never use.
* ``AllFivesScorer.score`` returns the count if it is a multiple of 5, else 0
  (no rounding, no per-player scoring); the peer's game uses a 305 target.

What the adapter does when the peer cannot follow a play (malformed logs only)
----------------------------------------------------------------------------
It always calls ``Board.play`` once and ``AllFivesScorer.board_score`` once
per play. A refused play (exception caught) leaves the board as it was and
the arm tips unchanged. A play with an end before any lead is played as the
lead; N/S before any double has been played falls back to the E arm.
Pass a dict as ``stats`` to ``replay_hands`` to get the counts of refused and
fallback plays.
"""

from __future__ import annotations

import importlib.metadata as _metadata
import os as _os

from src.main.game.Board import Board
from src.main.game.exceptions.Board import InvalidMoveException
from src.main.game.Piece import Piece
from src.main.game.Scorer import AllFivesScorer

_DIST = "all-fives-domino"


def _check_import() -> None:
    import src.main.game.Board as board_module

    expected = _metadata.distribution(_DIST).locate_file("src/main/game/Board.py")
    if _os.path.realpath(board_module.__file__) != _os.path.realpath(str(expected)):
        raise ImportError(
            f"'src' resolved to {board_module.__file__}, not the {_DIST} package "
            f"({expected}); another 'src' package shadows it on sys.path"
        )


_check_import()

_ENDS = ("W", "E", "N", "S")
_board_score = AllFivesScorer.board_score


def peer_version() -> str:
    """Return the installed version of the peer package."""
    return _metadata.version(_DIST)


def _replay_hand(hand, stats, scores):
    board = Board()
    play = board.play
    tips = {}  # our end -> peer Piece at the tip of that arm
    spinner = None
    refused = fallback = 0
    for a, b, end in hand:
        piece = Piece(a, b)
        if end is None:
            origin = None
        else:
            origin = tips.get(end)
            if origin is None:
                if end not in _ENDS:
                    raise ValueError(f"unknown end {end!r}")
                if not tips:  # nothing on the board yet: play it as the lead
                    fallback += 1
                else:  # N/S before any double: closest arm the peer has
                    origin = tips["E"]
                    fallback += 1
                    end = "E"
        try:
            play(piece, origin)
        except InvalidMoveException:
            refused += 1
        else:
            if origin is None:
                tips["W"] = tips["E"] = piece
            else:
                tips[end] = piece
            if spinner is None and piece.is_double:
                spinner = piece
                tips.setdefault("N", piece)
                tips.setdefault("S", piece)
        score = _board_score(board)
        if scores is not None:
            scores.append(score)
    if stats is not None:
        stats["refused"] = stats.get("refused", 0) + refused
        stats["fallback"] = stats.get("fallback", 0) + fallback


def replay_hands(hands, stats=None) -> int:
    """Replay every hand on a fresh peer board, scoring after each play.

    ``hands`` is a list of hands, each a list of ``(a, b, end)`` plays with
    ``end`` in "W", "E", "N", "S" or None for the lead. Returns the number of
    plays performed (one ``Board.play`` and one scorer call each). If
    ``stats`` is a dict, the counts of refused and fallback plays are added
    to its "refused" and "fallback" keys.
    """
    plays = 0
    for hand in hands:
        _replay_hand(hand, stats, None)
        plays += len(hand)
    return plays


def peer_scores(hand) -> list[int]:
    """Return the peer's board score after each play of one hand (for checks)."""
    scores: list[int] = []
    _replay_hand(hand, None, scores)
    return scores


def _main(path: str, repeat: int = 3) -> None:
    """Time ``replay_hands`` on the hands of a JSON file; print the figures as JSON."""
    import json
    import sys
    import time

    with open(path, encoding="utf-8") as handle:
        hands = [[(a, b, end) for a, b, end in hand] for hand in json.load(handle)]
    best = float("inf")
    stats: dict[str, int] = {}
    plays = 0
    for _ in range(repeat):
        stats = {}
        started = time.perf_counter()
        plays = replay_hands(hands, stats)
        best = min(best, time.perf_counter() - started)
    json.dump({"version": peer_version(), "plays": plays, "seconds": best, **stats}, sys.stdout)


if __name__ == "__main__":
    import sys

    _main(sys.argv[1])
