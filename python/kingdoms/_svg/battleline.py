"""Battle Line: the nine flags with both sides' formations, Fog and Mud, claims, the hands,
the decks and the discard, drawn from a state dict (``to_dict()`` or ``view(p)``)."""

from __future__ import annotations

from typing import Any

from kingdoms._svg import _draw as d_

TROOP_COLOURS = {
    "R": ("#d62839", "#ffffff"),
    "O": ("#f28c28", "#ffffff"),
    "Y": ("#f2c12e", "#3a2e00"),
    "G": ("#2f9e44", "#ffffff"),
    "B": ("#1f6fd1", "#ffffff"),
    "P": ("#7b3fa0", "#ffffff"),
}
COLOUR_NAMES = {"R": "red", "O": "orange", "Y": "yellow", "G": "green", "B": "blue", "P": "purple"}
TACTIC_FILL, TACTIC_INK = "#f3e3b5", "#5a3b12"
TROOP_BACK, TACTIC_BACK = "#34405e", "#8a5a2b"
PLAYER_COLOURS = ("#2e6f8e", "#a23e48")

W, H = 48, 66  # a card
STEP = 22  # the visible strip of a card under the next one in a formation
COL = 62  # one flag's column
LEFT = 20
TOP_HAND_Y = 34
SIDE_DEPTH = H + 3 * STEP  # four cards under Mud


def _card(x: float, y: float, name: str, w: float = W, h: float = H) -> d_.Element:
    if name[0] in TROOP_COLOURS and name[1:].isdigit():
        fill, ink = TROOP_COLOURS[name[0]]
        value = name[1:]
        # the colour's letter too, for players who cannot tell the colours apart
        corner = f"{value} {name[0]}"
        return d_.card_face(
            x,
            y,
            w,
            h,
            name=name,
            fill=fill,
            ink=ink,
            lines=[(corner, 15), ("", 2), (value, 24)] if h >= 50 else [(name, 11)],
            title=f"{COLOUR_NAMES[name[0]]} {value}",
        )
    size = 9 if len(name) <= 7 else 8
    return d_.card_face(
        x,
        y,
        w,
        h,
        name=name,
        fill=TACTIC_FILL,
        ink=TACTIC_INK,
        lines=[(name, size if h >= 50 else 7), ("", 2), ("★", 20)] if h >= 50 else [(name, 7)],
        title=f"tactics: {name}",
    )


def _back(x: float, y: float, tactics: bool) -> d_.Element:
    if tactics:
        return d_.card_back(x, y, W, H, back="tactics", fill=TACTIC_BACK, label="tactics")
    return d_.card_back(x, y, W, H, back="troop", fill=TROOP_BACK, label="troop")


def draw(
    state: dict[str, Any],
    player: int | None,
    action: dict[str, Any] | None,
    highlight: list[Any],
) -> str:
    bottom = 0 if player is None else player
    top = 1 - bottom
    width = LEFT * 2 + 9 * COL + 130
    mid = TOP_HAND_Y + H + 30 + SIDE_DEPTH + 24  # the flags' line
    height = mid + 24 + SIDE_DEPTH + 30 + H + 44
    d = d_.canvas(width, height)
    spots: dict[str, tuple[float, float]] = {}  # where each visible card is drawn
    flag_x = [LEFT + f * COL + COL / 2 for f in range(9)]
    side_y: dict[int, float] = {bottom: mid + 26, top: mid - 26 - H}
    highlights: list[d_.Element] = []

    def wanted(item: Any) -> bool:
        return item in highlight

    # the flags' band and the columns
    d.append(d_.Rectangle(LEFT - 4, mid - 20, 9 * COL + 8, 40, rx=8, fill=d_.PANEL))
    for f, flag in enumerate(state["flags"]):
        x = flag_x[f]
        if wanted(f):
            highlights.append(
                d_.highlight_box(
                    x - COL / 2 + 2, mid - SIDE_DEPTH - 28, COL - 4, 2 * SIDE_DEPTH + 56
                )
            )
    for h in highlights:
        d.append(h)

    for f, flag in enumerate(state["flags"]):
        x = flag_x[f]
        claimed = flag.get("claimed")
        g = d_.Group(class_="flag", data_flag=str(f))
        if claimed is None:
            g.append(d_.Circle(x, mid, 14, fill="#ffffff", stroke="#7a6a4f", stroke_width=2))
            g.append(d_.text(x, mid, str(f), 12, weight="bold"))
        else:
            # a claimed flag moves toward its winner, as on the table
            y = mid + (12 if claimed == bottom else -12)
            g = d_.Group(class_="flag claimed", data_flag=str(f), data_claimed=str(claimed))
            g.append(
                d_.Circle(x, y, 15, fill=PLAYER_COLOURS[claimed], stroke="#222", stroke_width=2)
            )
            g.append(d_.text(x, y, f"P{claimed}", 10, fill="#ffffff", weight="bold"))
            g.append_title(f"flag {f}: claimed by player {claimed}")
        d.append(g)
        for e, env in enumerate(flag.get("env", [])):
            # Fog / Mud beside the flag stone, on its owner's side
            ex, ey = x + 16, mid - 18 + 19 * e
            d.append(_card(ex, ey, env["card"], 30, 17))
            spots[env["card"]] = (ex + 15, ey + 8)
        for p in (bottom, top):
            cards = flag["sides"][p]
            order = list(enumerate(cards))
            if p == top:
                order.reverse()
            for i, name in order:
                cx = x - W / 2
                cy = side_y[p] + (i * STEP if p == bottom else -i * STEP)
                d.append(_card(cx, cy, name))
                spots[name] = (x, cy + (STEP / 2 if p == bottom else H - STEP / 2))
            if len(cards) == 0:
                d.append(d_.slot(x - W / 2, side_y[p], W, H))

    # hands
    for p, y in ((top, TOP_HAND_Y), (bottom, height - H - 30)):
        label = f"player {p}" + (
            " to move" if state.get("to_move") == p and state.get("phase") != "over" else ""
        )
        d.append(
            d_.text(LEFT, y - 14, label, 13, anchor="start", weight="bold", fill=PLAYER_COLOURS[p])
        )
        hand = state["hands"][p]
        spots[f"hand {p}"] = (LEFT + 3.5 * (W + 6), y + H / 2)
        counts = state["hand_counts"][p]
        known = [c for c in hand if c is not None]
        unknown = len(hand) - len(known)
        # face-down cards show their backs: troop or tactics, which the backs tell anyone
        tactics_known = sum(1 for c in known if not (c[0] in TROOP_COLOURS and c[1:].isdigit()))
        tactics_hidden = max(0, counts["tactics"] - tactics_known)
        for i, name in enumerate(known):
            x = LEFT + i * (W + 6)
            d.append(_card(x, y, name))
            spots.setdefault(name, (x + W / 2, y + H / 2))
            if wanted(name):
                d.append(d_.highlight_box(x, y, W, H))
        for j in range(unknown):
            x = LEFT + (len(known) + j) * (W + 6)
            d.append(_back(x, y, j >= unknown - tactics_hidden))

    # decks, discard, status on the right
    rx = LEFT + 9 * COL + 24
    ry = mid - H - 40
    for k, (key, tactics) in enumerate((("troop_deck", False), ("tactics_deck", True))):
        x = rx + k * (W + 8)
        n = len(state[key])
        if n:
            d.append(_back(x, ry, tactics))
        else:
            d.append(d_.slot(x, ry, W, H, "empty"))
        spots[key] = (x + W / 2, ry + H / 2)
        d.append(d_.Rectangle(x, ry, W, H, fill="none", data_place=key))  # for kingdoms serve
        d.append(d_.text(x + W / 2, ry + H + 10, f"{n} left", 10))
    dy = mid + 40
    discard = state["discard"]
    d.append(d_.text(rx + W + 4, dy - 10, f"discard ({len(discard)})", 10))
    if discard:
        d.append(_card(rx + (W + 8) / 2, dy, discard[-1]))
    else:
        d.append(d_.slot(rx + (W + 8) / 2, dy, W, H))
    spots["discard"] = (rx + (W + 8) / 2 + W / 2, dy + H / 2)
    d.append(d_.Rectangle(rx + (W + 8) / 2, dy, W, H, fill="none", data_place="discard"))
    d.append(d_.text(rx + W + 4, dy + H + 22, _status(state), 10, weight="bold"))

    if action is not None:
        _arrow(d, state, action, spots, flag_x, side_y, bottom, mid)
    mark = d_.last_move(width, state)
    if mark is not None:
        d.append(mark)
    return d_.svg_text(d)


def _status(state: dict[str, Any]) -> str:
    if state.get("phase") == "over":
        w = state.get("winner")
        return "drawn" if w is None else f"player {w} won"
    return f"phase: {state.get('phase', '')}"


def _arrow(
    d: d_.Canvas,
    state: dict[str, Any],
    action: dict[str, Any],
    spots: dict[str, tuple[float, float]],
    flag_x: list[float],
    side_y: dict[int, float],
    bottom: int,
    mid: float,
) -> None:
    """The action as an arrow from the card it moves to where it goes; only places the
    picture shows are used, so an arrow never reveals a hidden card's position."""
    kind = action.get("kind")
    mover = state.get("to_move")
    if mover is None:
        return

    def side_end(p: int, flag: int) -> tuple[float, float]:
        """Where the next card of `p`'s formation at `flag` goes: its visible part (all of
        it below the bottom player's stack, its top strip above the top player's)."""
        n = len(state["flags"][flag]["sides"][p])
        y = side_y[p] + (n * STEP + H / 2 if p == bottom else -n * STEP + STEP / 2)
        return flag_x[flag], y

    def flag_spot(flag: int) -> tuple[float, float]:
        return flag_x[flag], mid

    src: tuple[float, float] | None = None
    dst: tuple[float, float] | None = None
    card = action.get("card")
    if kind == "play":
        src = spots.get(card) if isinstance(card, str) else None
        dst = (
            (flag_x[action["flag"]], mid)
            if card in ("Fog", "Mud")
            else side_end(mover, action["flag"])
        )
    elif kind in ("redeploy", "traitor"):
        src = spots.get(card) if isinstance(card, str) else None
        to = action.get("to")
        dst = (
            spots["discard"] if to == "discard" or not isinstance(to, int) else side_end(mover, to)
        )
    elif kind == "deserter":
        src = spots.get(card) if isinstance(card, str) else None
        dst = spots["discard"]
    elif kind == "claim":
        x, y = flag_spot(action["flag"])
        src, dst = (x, y + (60 if mover == bottom else -60)), (x, y)
    elif kind == "draw":
        src = spots.get(f"{action['deck']}_deck")
        dst = spots.get(f"hand {mover}")
    elif kind == "return":
        src = spots.get(card) if isinstance(card, str) else None
        dst = spots.get(f"{action['deck']}_deck")
    if src is not None and dst is not None:
        d_.arrow(d, src[0], src[1], dst[0], dst[1])
    elif dst is not None:
        d.append(
            d_.Circle(
                dst[0], dst[1], 10, fill="none", stroke=d_.ARROW, stroke_width=4, class_="arrow"
            )
        )
