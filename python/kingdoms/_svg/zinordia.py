"""Zinordia: the hex battlefield (obstacles, terrain kinds, start and privilege zones,
Renown markers, each Star as its player's token with its Vida) and a panel of the players' picks and Stars'
values, drawn from a state dict (``to_dict()`` or ``view(p)``: a view's unrevealed picks are
``null`` and are drawn as ``?``)."""

from __future__ import annotations

import json
from typing import Any

from kingdoms._kingdoms import Hex, HexLayout, HexMap
from kingdoms._svg import _draw as d_

PLAYER_COLOURS = ("#2e6f8e", "#a23e48", "#5c940d", "#e67700")
ZONE = "#e9e3c9"
OBSTACLE = "#5c5c5c"
START = "#cfe3f2"
PRIVILEGE = "#f2d4d7"
MARKER = "#f2b600"
# Terrain kinds of data/zinordia/terrain.toml (ZN-2.9) by name; other kinds draw as ZONE.
TERRAIN = {"forest": "#9cc48a", "hill": "#d6b98c"}
SIZE = 26.0
PANEL_W = 330


@d_.text_cache(maxsize=8)
def _map(options_json: str) -> HexMap:
    """The battlefield of a game's rules options (the game made it from the same options)."""
    from kingdoms._kingdoms import Zinordia

    opts = json.loads(options_json)
    return HexMap.from_text(Zinordia.map_text(**opts), "zinordia map")


@d_.text_cache(maxsize=8)
def _sides(options_json: str) -> tuple[int, ...]:
    """Each seat's team under a game's rules options (``Zinordia.team``)."""
    from kingdoms._kingdoms import Zinordia

    g = Zinordia(seed=0, **json.loads(options_json))
    return tuple(g.team(p) for p in range(g.num_players))


def _side_label(teams: tuple[int, ...], team: int) -> str:
    """A side as the text picture says it: its players' letters (``A``, or ``A+C``)."""
    letters = [LETTERS[p % 4] for p, t in enumerate(teams) if t == team]
    return "+".join(letters) if letters else f"side {team}"


LETTERS = "ABCD"


def _zone(value: Any) -> tuple[int, int] | None:
    """A place: ``"q,r"``, ``[q, r]`` or a ``Hex``; anything else is ignored."""
    if isinstance(value, Hex):
        return (value.q, value.r)
    if isinstance(value, str) and "," in value:
        q, _, r = value.partition(",")
        try:
            return (int(q), int(r))
        except ValueError:
            return None
    if isinstance(value, list | tuple) and len(value) == 2:
        q, r = value
        if isinstance(q, int) and isinstance(r, int):
            return (q, r)
    return None


def draw(
    state: dict[str, Any],
    player: int | None,
    action: dict[str, Any] | None,
    highlight: list[Any],
) -> str:
    options_json = json.dumps(state.get("options") or {}, sort_keys=True)
    m = _map(options_json)
    layout = HexLayout("flat" if m.orientation == "flat" else "pointy", SIZE)
    zones = m.zones()
    xs = [layout.to_pixel(h)[0] for h in zones] or [0.0]
    ys = [layout.to_pixel(h)[1] for h in zones] or [0.0]
    margin = SIZE * 1.3
    top = 30.0
    ox, oy = min(xs) - margin, min(ys) - margin - top
    board_w = max(xs) - min(xs) + 2 * margin
    board_h = max(ys) - min(ys) + 2 * margin + top
    picks = state.get("picks") or []
    stars = state.get("stars") or []
    panel_h = 40 + 16 * (len(picks) + len(stars) + 8)
    width = board_w + PANEL_W
    height = max(board_h + 20, panel_h)
    d = d_.canvas(width, height)

    def centre(h: Hex) -> tuple[float, float]:
        x, y = layout.to_pixel(h)
        return round(x - ox, 2), round(y - oy, 2)

    def corners(h: Hex) -> list[float]:
        pts: list[float] = []
        for x, y in layout.corners(h):
            pts += [round(x - ox, 2), round(y - oy, 2)]
        return pts

    phase = state.get("phase", "")
    title = f"Zinordia — {state['options'].get('mode', '')}, {phase}"
    if state.get("round"):
        title += f", round {state['round']}"
    if phase == "over":
        w = state.get("winner")
        title += ", a draw" if w is None else f", won by {_side_label(_sides(options_json), w)}"
    d.append(d_.text(10, 16, title, 14, anchor="start", weight="bold"))

    markers = {_zone(z) for z in state.get("markers", [])}
    marks = {_zone(h) for h in highlight}
    if action is not None:
        marks.add(_zone(action.get("zone")))
    for h in zones:
        tags = m.tags(h)
        terrain = m.terrain(h) or ""
        fill = OBSTACLE if m.cost(h) is None else TERRAIN.get(terrain, ZONE)
        if "start" in tags and m.cost(h) is not None:
            fill = START
        elif "privilege" in tags and m.cost(h) is not None:
            fill = PRIVILEGE
        g = d_.Group(class_="zone", data_hex=f"{h.q},{h.r}", data_terrain=terrain)
        g.append(d_.Lines(*corners(h), close=True, fill=fill, stroke="#6b6150", stroke_width=1))
        g.append_title(f"{h.q},{h.r} {terrain}" + (f" ({', '.join(tags)})" if tags else ""))
        d.append(g)
        cx, cy = centre(h)
        if m.cost(h) is not None:
            # The zone's coordinates, as `move q,r` and the Star lines write them.
            d.append(
                d_.text(cx, cy + SIZE * 0.72, f"{h.q},{h.r}", 7, fill="#6b6150", class_="coord")
            )
        if (h.q, h.r) in markers:
            d.append(d_.Circle(cx, cy, SIZE * 0.3, fill=MARKER, stroke="#7a5c00", class_="marker"))
        if (h.q, h.r) in marks:
            d.append(
                d_.Lines(
                    *corners(h),
                    close=True,
                    fill="none",
                    stroke=d_.HIGHLIGHT,
                    stroke_width=3,
                    class_="highlight",
                )
            )

    per = max(1, len(stars) // max(1, len(picks))) if stars else 1
    names = [[p if p is not None else "?" for p in ps] for ps in picks]
    for s, st in enumerate(stars):
        z = _zone(st.get("zone"))
        if z is None:
            continue
        owner, slot = divmod(s, per)
        cx, cy = centre(Hex(*z))
        colour = PLAYER_COLOURS[owner % len(PLAYER_COLOURS)]
        g = d_.Group(class_="star", data_hex=f"{z[0]},{z[1]}")
        # A Star standing on a Renown marker wears it as a gold ring.
        on_marker = z in markers
        g.append(
            d_.Circle(
                cx,
                cy,
                SIZE * 0.55,
                fill=colour,
                stroke=MARKER if on_marker else d_.INK,
                stroke_width=3.5 if on_marker else 1.5,
            )
        )
        g.append(d_.text(cx, cy - 2, f"{LETTERS[owner % 4]}{slot + 1}", 11, fill="#ffffff"))
        vida = st.get("vida", 0)
        name = st.get("star", "")
        g.append_title(f"{name}: Vida {vida}, Renown {st.get('renown', 0)}")
        d.append(g)
        d.append(d_.text(cx, cy + 10, str(vida), 9, fill="#ffffff", class_="vida"))

    # The panel: picks (before the reveal) and the Stars' values.
    x0 = board_w + 10
    y = 40.0
    d.append(d_.text(x0, y, "Players", 13, anchor="start", weight="bold"))
    for p, ps in enumerate(names):
        y += 16
        colour = PLAYER_COLOURS[p % len(PLAYER_COLOURS)]
        label = f"{'ABCD'[p % 4]}: " + (", ".join(ps) if ps else "no pick yet")
        if player == p:
            label += " (you)"
        d.append(d_.text(x0, y, label, 11, anchor="start", fill=colour))
    if stars:
        y += 24
        d.append(d_.text(x0, y, "Stars", 13, anchor="start", weight="bold"))
    for s, st in enumerate(stars):
        y += 16
        owner, slot = divmod(s, per)
        where = "out" if st.get("defeated") else (st.get("zone") or "unplaced")
        line = (
            f"{'ABCD'[owner % 4]}{slot + 1} {st.get('star', '')} @ {where}: "
            f"V {st.get('vida')} Â {st.get('amago')} Ar {st.get('armadura')} "
            f"R {st.get('renown')}"
        )
        d.append(d_.text(x0, y, line, 10.5, anchor="start", fill=PLAYER_COLOURS[owner % 4]))
    if stars:
        y += 22
        legend = "V Vida · Â Âmago · Ar Armadura · R Renown · @ q,r its zone"
        d.append(d_.text(x0, y, legend, 10, anchor="start", fill="#6b6150", class_="legend"))
        y += 14
        # two lines: one ran past the panel's right edge
        for key in (
            "A1: side A's first Star · gold disc: Renown marker",
            "(a gold ring: under a Star)",
            "green: forest (cost 2, defence +1)",
            "brown: hill (cost 2, attack +1)",
        ):
            d.append(d_.text(x0, y, key, 10, anchor="start", fill="#6b6150", class_="legend"))
            y += 14
    mark = d_.last_move(width, state)
    if mark is not None:
        d.append(mark)
    return d_.svg_text(d)
