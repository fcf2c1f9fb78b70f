"""STRIFULL: both fields (attack and defence zones, the leader column), face-down and revealed
troops with their element, ATK/DEF and growth counters, leaders with their element token,
eliminated rows, piles and graveyards, drawn from a state dict (``to_dict()`` or
``view(p)``)."""

from __future__ import annotations

from typing import Any

from kingdoms._svg import _draw as d_

ELEMENT_COLOURS = {
    "fire": ("#d9480f", "#ffffff"),
    "water": ("#1864ab", "#ffffff"),
    "wind": ("#8ce99a", "#1b4332"),
    "earth": ("#8d6e4a", "#ffffff"),
}
#: Two letters an element, written on every card, so colour is not the only sign
ELEMENT_CODES = {"fire": "Fi", "water": "Wa", "wind": "Wi", "earth": "Ea"}
PLAYER_COLOURS = ("#2e6f8e", "#a23e48")
BACK = "#3b3355"
W, H = 104, 66
NAME_SIZE = 9.5
NAME_CHARS = 16  # a name line's characters at NAME_SIZE on a card W wide
GAP = 6
LEFT = 20


@d_.text_cache(maxsize=8)
def _cards(cards_file: str | None, cards_toml: str | None) -> dict[str, dict[str, Any]]:
    """Troops and leaders by id, from the card set the game's options name (the game itself
    loaded the same set when it was made)."""
    from kingdoms._kingdoms import strifull_card_set as card_set

    s = card_set(cards_file, cards_toml)
    out = {c["id"]: c for c in s["troops"]}
    out.update({c["id"]: c for c in s["leaders"]})
    out.update({f"faction:{c['id']}": c for c in s["factions"]})
    return out


def _columns(zone: str, facing_up: bool) -> list[tuple[str, str]]:
    """(zone, column) for the 7 screen columns left to right; the bottom player has attack
    on its left, the top player (facing it) on the screen's right (SK-2.1, SK-2.2)."""
    attack = [("a", c) for c in "CBA"]
    defence = [("d", c) for c in "ABC"]
    if facing_up:
        return [*attack, ("L", ""), *defence]
    return [("d", c) for c in "CBA"] + [("L", "")] + [("a", c) for c in "ABC"]


def draw(
    state: dict[str, Any],
    player: int | None,
    action: dict[str, Any] | None,
    highlight: list[Any],
) -> str:
    opts = state.get("options") or {}
    cards = _cards(opts.get("cards_file"), opts.get("cards_toml"))
    bottom = 0 if player is None else player
    top = 1 - bottom
    field_w = 7 * (W + GAP)
    width = LEFT + field_w + 20 + 2 * W + 10 + 12
    band = 3 * (H + GAP) + 40
    height = 24 + band + 30 + band + 56
    d = d_.canvas(width, height)
    spots: dict[tuple[int, str], tuple[float, float]] = {}
    centre = 24 + band + 15

    for p in (top, bottom):
        is_bottom = p == bottom
        side = state["sides"][p]
        cols = _columns("", is_bottom)

        # rows 1..3 from the centre outward
        def row_y(r: int, is_bottom: bool = is_bottom) -> float:
            return (
                centre + 20 + (r - 1) * (H + GAP)
                if is_bottom
                else centre - 20 - H - (r - 1) * (H + GAP)
            )

        label_y = row_y(3) + (H + 26 if is_bottom else -30)
        faction = cards.get(f"faction:{side.get('faction')}", {}).get("name", side.get("faction"))
        leader = cards.get(side.get("leader") or "", {})
        to_move = state.get("player") == p
        d.append(
            d_.text(
                LEFT,
                label_y,
                f"player {p} · {faction} · {leader.get('name', side.get('leader'))}"
                + (" · to move" if to_move else ""),
                13,
                anchor="start",
                weight="bold",
                fill=PLAYER_COLOURS[p],
            )
        )
        # zone captions
        zy = row_y(3) + (H + 8 if is_bottom else -8)
        za = LEFT + 1.5 * (W + GAP) if is_bottom else LEFT + 5.5 * (W + GAP)
        zd = LEFT + 5.5 * (W + GAP) if is_bottom else LEFT + 1.5 * (W + GAP)
        d.append(d_.text(za, zy, "attack", 10, fill="#7a6a4f"))
        d.append(d_.text(zd, zy, "defence", 10, fill="#7a6a4f"))
        live = side.get("live_rows") or [True, True, True]
        for r in (1, 2, 3):
            y = row_y(r)
            if not live[r - 1]:
                d.append(
                    d_.Rectangle(
                        LEFT - 3,
                        y - 3,
                        field_w,
                        H + 6,
                        rx=6,
                        fill="#9e9e9e",
                        fill_opacity=0.35,
                        class_="eliminated",
                    )
                )
            d.append(d_.text(LEFT - 10, y + H / 2, str(r), 11, fill="#7a6a4f"))
            for i, (zone, col) in enumerate(cols):
                x = LEFT + i * (W + GAP)
                if zone == "L":
                    if side.get("leader_row") == r:
                        d.append(_leader(x, y, side, leader))
                    else:
                        d.append(d_.Rectangle(x + W / 2 - 1, y, 2, H, fill="#cfc4ab"))
                    continue
                cell = f"{zone}{col}{r}"
                spots[(p, cell)] = (x + W / 2, y + H / 2)
                if (p, cell) in highlight or [p, cell] in highlight:
                    d.append(d_.highlight_box(x, y, W, H))
                troop = side["field"].get(cell)
                if troop is None:
                    d.append(d_.slot(x, y, W, H, cell if live[r - 1] else ""))
                else:
                    d.append(_troop(x, y, cell, troop, cards))
                # the cell's place, for pages that click on it (kingdoms serve)
                d.append(d_.Rectangle(x, y, W, H, fill="none", data_place=f"{p} {cell}"))
        # pile and graveyard
        px = LEFT + field_w + 20
        py = row_y(2)
        pile = side.get("pile") or []
        if pile:
            d.append(d_.card_back(px, py, W, H, back="pile", fill=BACK))
        else:
            d.append(d_.slot(px, py, W, H, "no pile"))
        d.append(d_.text(px + W / 2, py + H + 9 if is_bottom else py - 9, f"pile {len(pile)}", 10))
        grave = side.get("graveyard") or []
        gx = px + W + 10
        if grave:
            d.append(_troop(gx, py, "graveyard", {"card": grave[-1], "revealed": True}, cards))
        else:
            d.append(d_.slot(gx, py, W, H, "graveyard"))
        d.append(
            d_.text(gx + W / 2, py + H + 9 if is_bottom else py - 9, f"graveyard {len(grave)}", 10)
        )

    d.append(
        d_.Line(
            LEFT - 4,
            centre,
            LEFT + field_w,
            centre,
            stroke="#7a6a4f",
            stroke_width=2,
            stroke_dasharray="6 4",
        )
    )
    d.append(
        d_.text(LEFT + field_w + 20, centre, _status(state), 11, anchor="start", weight="bold")
    )
    face_down = any(
        not t.get("revealed") and t.get("card")
        for side in state["sides"]
        for t in side["field"].values()
    )
    d.append(_legend(LEFT, height - 18, face_down))
    combat = state.get("last_combat")
    if combat:
        # the last attack, thin and grey, so the picture tells what just happened
        a = spots.get((int(combat["player"]), str(combat["attacker"])))
        t = spots.get((1 - int(combat["player"]), str(combat["target"])))
        if a is not None and t is not None:
            d_.arrow(d, a[0], a[1], t[0], t[1], colour="#6c6c6c", kind="last-combat", width=2.5)
    if action is not None and state.get("player") is not None:
        _arrow(d, action, int(state["player"]), spots)
    mark = d_.last_move(width, state)
    if mark is not None:
        d.append(mark)
    return d_.svg_text(d)


def _troop(
    x: float, y: float, cell: str, troop: dict[str, Any], cards: dict[str, dict[str, Any]]
) -> d_.Element:
    cid = troop.get("card")
    if cid is None:
        return d_.card_back(x, y, W, H, back="troop", fill=BACK)
    c = cards.get(cid, {})
    fill, ink = ELEMENT_COLOURS.get(c.get("element", ""), ("#999999", "#ffffff"))
    ga, gd = (troop.get("counters") or [0, 0])[:2]
    atk = f"{c.get('atk', '?')}" + (f"+{ga}" if ga else "")
    de = f"{c.get('def', '?')}" + (f"+{gd}" if gd else "")
    name = str(c.get("name", cid))
    g = d_.card_face(
        x,
        y,
        W,
        H,
        name=cid,
        fill=fill,
        ink=ink,
        lines=[*((ln, NAME_SIZE) for ln in wrap_name(name)), ("", 3), (f"{atk} / {de}", 15)],
        title=f"{name} ({c.get('element', '?')}) ATK {atk} DEF {de}"
        + ("" if troop.get("revealed") else ", face down"),
        face_down_marker=not troop.get("revealed"),
    )
    code = ELEMENT_CODES.get(c.get("element", ""))
    if code:
        g.append(d_.text(x + 5, y + H - 9, code, 10, fill=ink, anchor="start", weight="bold"))
    if not troop.get("revealed"):
        g.append(d_.text(x + W - 8, y + H - 8, "▼", 9, fill=ink))
    return g


def wrap_name(name: str, width: int = NAME_CHARS) -> list[str]:
    """``name`` on two lines of at most ``width`` characters, broken between words (a
    one-line name gets an empty second line, so the numbers below line up); only a name too
    long for two lines is cut, with an ellipsis."""
    words = name.split()
    first = ""
    while words and len(f"{first} {words[0]}".strip()) <= width:
        first = f"{first} {words.pop(0)}".strip()
    if not first:  # one word longer than a line: break it
        return [name[: width - 1] + "-", _cut(name[width - 1 :], width)]
    return [first, _cut(" ".join(words), width)]


def _cut(s: str, width: int) -> str:
    return s if len(s) <= width else s[: width - 1] + "…"


def _legend(x: float, y: float, face_down: bool) -> d_.Element:
    """One key for every card: the numbers are attack / defence, the colours the elements."""
    g = d_.Group(class_="legend")
    g.append(d_.text(x, y, "card: name, then ATK / DEF", 11, anchor="start", fill=d_.INK))
    ex = x + 190
    for element, (fill, ink) in ELEMENT_COLOURS.items():
        g.append(d_.Rectangle(ex, y - 8, 20, 16, rx=3, fill=fill, stroke="#555555"))
        g.append(d_.text(ex + 10, y, ELEMENT_CODES[element], 10, fill=ink, weight="bold"))
        g.append(d_.text(ex + 25, y, element, 11, anchor="start"))
        ex += 74
    if face_down:
        g.append(d_.text(ex + 10, y, "dashed ▼: face down, seen by its owner", 11, anchor="start"))
    return g


def _leader(x: float, y: float, side: dict[str, Any], leader: dict[str, Any]) -> d_.Element:
    g = d_.Group(class_="leader", data_leader=str(side.get("leader")))
    element = side.get("element")
    fill, ink = ELEMENT_COLOURS.get(element or "", ("#ffffff", d_.INK))
    name = str(leader.get("name", side.get("leader")))
    g.append(d_.Rectangle(x, y, W, H, rx=10, fill="#fff8e1", stroke="#b08900", stroke_width=3))
    g.append(d_.text(x + W / 2, y + 10, "♛ leader", 10, fill="#7a5b00", weight="bold"))
    for i, line in enumerate(wrap_name(name)):
        g.append(d_.text(x + W / 2, y + 24 + i * 12, line, NAME_SIZE, weight="bold"))
    g.append(d_.badge(x + W / 2, y + H - 10, element or "element hidden", fill=fill, ink=ink))
    g.append_title(f"{name}, element {element or 'hidden'}")
    return g


def _status(state: dict[str, Any]) -> str:
    if state.get("step") == "over":
        if state.get("draw"):
            return "drawn"
        return f"player {state.get('winner')} won"
    return f"turn {state.get('turn', 0)} · step {state.get('step')}"


def _arrow(
    d: d_.Canvas,
    action: dict[str, Any],
    mover: int,
    spots: dict[tuple[int, str], tuple[float, float]],
) -> None:
    kind = action.get("kind")
    src = dst = None
    if kind == "attack":
        src = spots.get((mover, str(action.get("attacker"))))
        dst = spots.get((1 - mover, str(action.get("target"))))
    elif kind == "move":
        src = spots.get((mover, str(action.get("from"))))
        dst = spots.get((mover, str(action.get("to"))))
    elif kind == "swap":
        first, second = action["cells"]
        src, dst = spots.get((mover, str(first))), spots.get((mover, str(second)))
    elif kind in ("swap_pile", "replace"):
        dst = spots.get((mover, str(action.get("cell"))))
    elif kind == "ability":
        whose = 1 - mover if action.get("side") == "foe" else mover
        dst = spots.get((whose, str(action.get("cell"))))
    if src is not None and dst is not None:
        d_.arrow(d, src[0], src[1], dst[0], dst[1])
    elif dst is not None:
        d.append(
            d_.Circle(
                dst[0], dst[1], 14, fill="none", stroke=d_.ARROW, stroke_width=4, class_="arrow"
            )
        )
