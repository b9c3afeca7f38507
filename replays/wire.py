"""The replay page's wire format: the states as the page carries them to ``replay.js``
(flat and short, then packed) and each hand's points missed by seat.

A stored match's flat states are read off the engine's board (``page_board``); the engine's
states of a walk (the API's) are written in the same form by ``state_flat``
(``replay_page_part``)."""

from __future__ import annotations

from typing import Any

from fives_engine import missed_points

# A match with more positions than this sends its first hand with the page and fetches the
# rest from the replay API after the first paint. Below it the page carries every position,
# packed (``states_packed``): a 200-hand match's 4,900 positions are about 700 KB of JSON
# that gzip to under 80 KB, where the API's states are 4 MB (210 KB gzipped).
PAGE_STATES = 15_000


def layout_short(layout: dict[str, Any]) -> dict[str, str]:
    """Return a replay state's layout written short, as layout.js's ``expand`` reads it."""
    if not layout["lead"]:
        return {}
    out = {"l": layout["lead"]}
    for arm, tiles in layout["arms"].items():
        if tiles:
            out[arm] = " ".join(entry["tile"] for entry in tiles)
    spinner = layout["spinner"]
    if spinner is not None:
        out["s"] = spinner_short(spinner)
    return out


def spinner_short(spinner: dict[str, Any] | None) -> str | None:
    """Return where the spinner lies, written short ("L" the lead, "E3"), or None."""
    if spinner is None:
        return None
    return "L" if spinner["arm"] is None else f"{spinner['arm']}{spinner['index']}"


def layout_counts(layout: dict[str, Any], last: dict[str, str]) -> str | None:
    """Return how many tiles of each arm (W E N S) of its hand's last layout ``last``
    (written short) ``layout`` holds, as "2 1 0 0"; "" for an empty table; None when
    ``layout`` is not the start of ``last``."""
    if not layout["lead"]:
        return ""
    if layout["lead"] != last.get("l"):
        return None
    counts = []
    for arm in "WENS":
        tiles = [entry["tile"] for entry in layout["arms"][arm]]
        if last.get(arm, "").split(" ")[: len(tiles)] != tiles:
            return None
        counts.append(str(len(tiles)))
    return " ".join(counts)


def state_flat(state: dict[str, Any], last: dict[str, str]) -> dict[str, Any]:
    """Return what the page draws of a state, flat and short: no legal plays (the page
    does not list them), the seat of a move only in its action, the pips left only at the
    hand's end, the best play only where it beat the play, the layout as counts of the
    hand's last layout, each seat's tiles as a string."""
    missed = missed_points(state["points"], state.get("best")) > 0
    flat: dict[str, Any] = {}
    for name, value in state.items():
        if name in ("hand", "move", "legal", "layout", "hands"):
            continue
        if (
            (name == "seat" and state["action"])
            or (name == "pips" and not state["hand_end"])
            or (name in ("best", "best_play") and not missed)
        ):
            continue
        if name == "open_ends":
            value = " ".join(f"{end['end']}{end['pip']}" for end in value)
        flat[name] = value
    for seat, tiles in enumerate(state["hands"]):
        flat[f"h{seat}"] = " ".join(tiles)
    counts = layout_counts(state["layout"], last)
    if counts is None:
        flat["layout"] = layout_short(state["layout"])
    else:
        flat["tiles"] = counts
    flat["spinner"] = spinner_short(state["layout"]["spinner"])
    return flat


def state_predicted(before: dict[str, Any], state: dict[str, Any]) -> dict[str, str]:
    """Return what the page works out of a flat state from the flat state before it and
    the state's move, so the packed state need not say it: the tiles on the table (one more on
    the arm played to) and the hand of the seat that moved (the tile played gone, the tile
    drawn added, in order). replay.js's ``predict`` is the same; what it would get wrong is
    written out."""
    action = state["action"]
    if not action:
        return {}
    guess = {}
    counts, placed = before.get("tiles"), state["placed"]
    if counts is not None and placed:
        if placed == "lead":
            guess["tiles"] = "0 0 0 0"
        elif placed in "WENS" and counts:
            numbers = [int(n) for n in counts.split(" ")]
            numbers["WENS".index(placed)] += 1
            guess["tiles"] = " ".join(map(str, numbers))
    seat = f"h{action['seat']}"
    held = before.get(seat)
    if held is not None:
        hand: list[str] | None = held.split(" ") if held else []
        if "play" in action:
            low, _, high = str(action["play"]).partition("-")
            tile = next((t for t in (action["play"], f"{high}-{low}") if t in hand), None)
            if tile is None:
                hand = None
            else:
                hand.remove(tile)
        elif "draw" in action:
            hand = sorted([*hand, action["draw"]])
        if hand is not None:
            guess[seat] = " ".join(hand)
    return guess


def states_packed(flats: list[dict[str, Any]]) -> list[dict]:
    """Return the flat states (``state_flat``'s form) as the page carries them: each what
    changed since the state before it in its hand (all of it at a hand's start, which has no
    action; null for what went away), less what ``state_predicted`` works out. replay.js's
    ``unpack`` gives the states back."""
    packed = []
    before: dict[str, Any] = {}
    for flat in flats:
        if flat["action"] is None:
            before = {}
        expected = before | state_predicted(before, flat)
        change = {name: value for name, value in flat.items() if expected.get(name, ...) != value}
        change.update({name: None for name in expected if name not in flat})
        packed.append(change)
        before = flat
    return packed


def page_part(
    flats: list[dict[str, Any]], hands: list[dict[str, Any]], missed: list[list[int]]
) -> dict[str, Any]:
    """Return what the replay page embeds of a match's flat states: them packed (all of them
    but for a very long match, which sends its first hand and fetches the rest from the API),
    how many there are, each hand's moves and last layout (``{"moves", "layout"}``: the board
    is laid out and sized from those before any state is drawn) and each hand's points missed
    by seat."""
    shown = flats
    if len(flats) > PAGE_STATES and hands:
        shown = flats[: hands[0]["moves"] + 1]
    return {"packed": states_packed(shown), "total": len(flats), "hands": hands, "missed": missed}


def replay_page_part(states: list[dict[str, Any]], *, seats: int) -> dict[str, Any]:
    """Return ``page_part`` of the engine's states (a walk's): what the page of a stored
    match the engine no longer finds valid embeds (it stops at the first error), and the
    reference the states read off the board (``page_board``) are held to."""
    hands: list[dict[str, Any]] = []
    for state in states:
        if state["move"] is None:
            hands.append({"moves": 0})
        else:
            hands[-1]["moves"] += 1
        hands[-1]["layout"] = layout_short(state["layout"])
    flats = []
    hand = -1
    for state in states:
        if state["move"] is None:
            hand += 1
        flats.append(state_flat(state, hands[hand]["layout"]))
    return page_part(flats, hands, missed_by_hand(states=states, seats=seats))


def missed_by_hand(*, states: list[dict[str, Any]], seats: int) -> list[list[int]]:
    """Return the points each seat missed in every hand (the most a legal play could have
    scored, minus what the play scored)."""
    hands: list[list[int]] = []
    for state in states:
        if state["move"] is None:
            hands.append([0] * seats)
        else:
            hands[-1][state["seat"]] += missed_points(state["points"], state.get("best"))
    return hands
