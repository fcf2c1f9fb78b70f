"""Arte da Guerra: both fields (terrain rows and the 3×3 cells), the hands, the draft, the
piles, victory and defeated cards, drawn from a state dict (``to_dict()`` or ``view(p)``)."""

from __future__ import annotations

from typing import Any

from kingdoms._svg import _draw as d_
from kingdoms._svg.strifull import wrap_name

UNIT_LETTERS = {"cavaleiro": "C", "guerreiro": "G", "arqueiro": "A", "mago": "M"}
UNIT_COLOURS = {
    "cavaleiro": "#c92a2a",
    "guerreiro": "#5c940d",
    "arqueiro": "#1971c2",
    "mago": "#7048e8",
}
TERRAIN_FILL, TERRAIN_INK = "#d8c99b", "#4a3b16"
UNIT_FILL = "#fdfaf2"
TERRAIN_BACK, UNIT_BACK = "#6b5a2e", "#3d4a5c"
PLAYER_COLOURS = ("#2e6f8e", "#a23e48")
W, H = 72, 64
NAME_CHARS = 15  # characters of a card's name on one line at NAME_SIZE, on a W-wide card
NAME_SIZE = 7.5
TW = 96  # a terrain card, beside its row
GAP = 6
LEFT = 20


def _is_terrain(card: str) -> bool:
    return card.startswith("T")


def _card(
    x: float,
    y: float,
    cid: str,
    cards: dict[str, dict[str, Any]],
    w: float = W,
    face_down: bool = False,
) -> d_.Element:
    c = cards.get(cid, {})
    if _is_terrain(cid):
        fav = c.get("favours", {})
        text = " ".join(f"{UNIT_LETTERS.get(t, t)}{v}" for t, v in fav.items())
        return d_.card_face(
            x,
            y,
            w,
            H,
            name=cid,
            fill=TERRAIN_FILL,
            ink=TERRAIN_INK,
            lines=[(f"{cid} {c.get('name', '')}", 9), ("", 2), (text, 11)]
            if w >= TW
            else [(cid, 9), *_name_lines(str(c.get("name", ""))), (text, 9)],
            title=f"{cid} {c.get('name', '')}: favours {text}",
            face_down_marker=face_down,
        )
    units = c.get("units", [])
    g = d_.card_face(
        x,
        y,
        w,
        H,
        name=cid,
        fill=UNIT_FILL,
        ink=d_.INK,
        lines=[(cid, 9), *_name_lines(str(c.get("name", "")))],
        title=f"{cid} {c.get('name', '')}: " + ", ".join(units),
        face_down_marker=face_down,
    )
    n = len(units)
    for i, u in enumerate(units):
        cx = x + w / 2 + (i - (n - 1) / 2) * 15
        g.append(d_.Circle(cx, y + H - 12, 7, fill=UNIT_COLOURS.get(u, "#888888")))
        g.append(
            d_.text(cx, y + H - 12, UNIT_LETTERS.get(u, "?"), 8, fill="#ffffff", weight="bold")
        )
    return g


def _name_lines(name: str) -> list[tuple[str, float]]:
    """A card's whole name in (text, size) lines: two lines broken between words (every
    reference name fits; only a name too long for two lines is cut, with an ellipsis)."""
    return [(line, NAME_SIZE) for line in wrap_name(name, NAME_CHARS)]


def _back(x: float, y: float, kind: str, w: float = W) -> d_.Element:
    if kind == "terrain":
        return d_.card_back(x, y, w, H, back="terrain", fill=TERRAIN_BACK)
    if kind == "units":
        return d_.card_back(x, y, w, H, back="unit", fill=UNIT_BACK)
    return d_.card_back(x, y, w, H, back="card", fill="#555555")


def draw(
    state: dict[str, Any],
    player: int | None,
    action: dict[str, Any] | None,
    highlight: list[Any],
) -> str:
    cards = {c["id"]: c for kind in ("terrain", "units") for c in state["cards"][kind]}
    bottom = 0 if player is None else player
    top = 1 - bottom
    field_w = TW + GAP + 3 * (W + GAP)
    right = LEFT + field_w + 30
    # victory and defeated piles are laid side by side, every card's name in view
    longest = max(
        [4, *(len(pl.get(k) or []) for pl in state["players"] for k in ("victory", "defeated"))]
    )
    width = max(right + 62 + longest * (W + 4) + 20, right + 210 + 3 * (W + 6) + 20)
    band = 3 * (H + GAP) + 40 + H + 30
    height = 20 + band + 40 + band + 20
    d = d_.canvas(width, height)
    centre = 20 + band + 20
    spots: dict[tuple[int, str], tuple[float, float]] = {}

    for p in (top, bottom):
        is_bottom = p == bottom
        pl = state["players"][p]

        def row_y(
            r: int, is_bottom: bool = is_bottom
        ) -> float:  # row 1 is the front, nearest the opponent
            return (
                centre + 14 + (r - 1) * (H + GAP)
                if is_bottom
                else centre - 14 - H - (r - 1) * (H + GAP)
            )

        hand_y = row_y(3) + (H + 30 if is_bottom else -30 - H)
        label_y = hand_y - 12
        to_move = _decider(state) == p
        d.append(
            d_.text(
                LEFT,
                label_y,
                f"player {p}" + (" · to move" if to_move else ""),
                13,
                anchor="start",
                weight="bold",
                fill=PLAYER_COLOURS[p],
            )
        )
        # secret orders the picture may show (its owner's, or everything): the cards lie
        # face down where they were put, and leave the hand
        placed = {o["row"]: o["card"] for o in pl.get("placing") or [] if o.get("card") is not None}
        deployed = {
            o["cell"]: o["card"] for o in pl.get("deploying") or [] if o.get("card") is not None
        }
        ordered = [*placed.values(), *deployed.values()]
        for r in (1, 2, 3):
            y = row_y(r)
            terrain = (pl.get("rows") or [None, None, None])[r - 1]
            spots[(p, f"row {r}")] = (LEFT + TW / 2, y + H / 2)
            if terrain is None and r in placed:
                d.append(_card(LEFT, y, placed[r], cards, TW, face_down=True))
            elif terrain is None:
                d.append(d_.slot(LEFT, y, TW, H, f"row {r}"))
            else:
                d.append(_card(LEFT, y, terrain, cards, TW))
            # places, for pages that click on them (kingdoms serve)
            d.append(d_.Rectangle(LEFT, y, TW, H, fill="none", data_place=f"{p} row {r}"))
            for i, col in enumerate("abc"):
                cell = f"{col}{r}"
                x = LEFT + TW + GAP + i * (W + GAP)
                spots[(p, cell)] = (x + W / 2, y + H / 2)
                if (p, cell) in highlight or [p, cell] in highlight:
                    d.append(d_.highlight_box(x, y, W, H))
                card = pl["field"].get(cell)
                if card is None and cell in deployed:
                    d.append(_card(x, y, deployed[cell], cards, face_down=True))
                elif card is None:
                    d.append(d_.slot(x, y, W, H, cell))
                else:
                    d.append(_card(x, y, card, cards))
                d.append(d_.Rectangle(x, y, W, H, fill="none", data_place=f"{p} {cell}"))
        # hand: terrain then units; the opponent's secret cards are None (backs)
        x = LEFT
        spots[(p, "hand")] = (LEFT + 4 * (W + 4), hand_y + H / 2)
        for kind, key in (("terrain", "terrains"), ("units", "units")):
            for card in pl.get(key) or []:
                if card in ordered:
                    continue
                if card is None:
                    d.append(_back(x, hand_y, kind))
                else:
                    d.append(_card(x, hand_y, card, cards))
                    spots[(p, card)] = (x + W / 2, hand_y + H / 2)
                    if card in highlight:
                        d.append(d_.highlight_box(x, hand_y, W, H))
                x += W + 4
        secret_orders = len(pl.get("placing") or []) + len(pl.get("deploying") or [])
        # victory and defeated piles, side by side (a fan hid all but the top name)
        for k, key in enumerate(("victory", "defeated")):
            pile = pl.get(key) or []
            py = row_y(2 + k)
            d.append(d_.text(right, py + H / 2, f"{key} {len(pile)}", 10, anchor="start"))
            for i, card in enumerate(pile):
                cx = right + 62 + i * (W + 4)
                d.append(_back(cx, py, "?") if card is None else _card(cx, py, card, cards))
        notes = []
        if secret_orders:
            notes.append(f"{secret_orders} secret order{'s' if secret_orders > 1 else ''}")
        if pl.get("pick") is not None:
            pick = pl["pick"]
            notes.append(
                "sudden-death pick made"
                if pick.get("card") is None
                else f"pick {pick['card']} row {pick['row']}"
            )
        if notes:
            d.append(d_.text(right, row_y(1) + H / 2, " · ".join(notes), 10, anchor="start"))

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
    # piles, draft, discard along the centre line
    piles = state.get("piles") or {}
    cx = LEFT + field_w + 30
    info = [
        f"terrain pile {len(piles.get('terrain') or [])}",
        f"unit pile {len(piles.get('units') or [])}",
        f"discard {len(state.get('discard') or [])}",
        _status(state),
    ]
    d.append(d_.text(cx, centre - 9, " · ".join(info[:3]), 10, anchor="start"))
    d.append(d_.text(cx, centre + 8, info[3], 11, anchor="start", weight="bold"))
    draft = state.get("draft")
    if draft:
        dx = right + 210
        dy = centre - H / 2 - 6
        d.append(
            d_.text(
                dx,
                dy - 2,
                f"draft ({draft.get('kind')}), picker {draft.get('picker')}",
                10,
                anchor="start",
            )
        )
        for i, card in enumerate(draft.get("slots") or []):
            x = dx + i * (W + 6)
            spots[(-1, f"slot {i}")] = (x + W / 2, dy + 6 + H / 2)
            if card is not None:
                spots[(-1, card)] = (x + W / 2, dy + 6 + H / 2)
            taken = (draft.get("taken") or [None, None, None])[i]
            if taken is not None:
                d.append(d_.slot(x, dy + 6, W, H, f"P{taken}"))
            elif card is None:
                d.append(_back(x, dy + 6, draft.get("kind", "")))
            else:
                # the picker's face-down card: seen here (everything, or the picker's view)
                hidden = draft.get("hidden") == i
                d.append(_card(x, dy + 6, card, cards, face_down=hidden))
            d.append(d_.Rectangle(x, dy + 6, W, H, fill="none", data_place=f"draft {i}"))
            if draft.get("hidden") == i and taken is None:
                d.append(d_.text(x + W / 2, dy + H + 14, "face down", 9))
    legend = " · ".join(f"{letter} {name}" for name, letter in UNIT_LETTERS.items())
    d.append(d_.text(width - 16, height - 12, legend, 9, anchor="end", fill="#7a6a4f"))
    if action is not None:
        _arrow(d, state, action, spots)
    mark = d_.last_move(width, state)
    if mark is not None:
        d.append(mark)
    return d_.svg_text(d)


def _decider(state: dict[str, Any]) -> int | None:
    phase = state.get("phase")
    if phase == "draft" and state.get("draft"):
        return None
    combat = state.get("combat")
    if phase == "combat" and combat:
        attacker = int(combat["attacker"])
        return attacker if combat.get("attack") is None else 1 - attacker
    return None


def _status(state: dict[str, Any]) -> str:
    phase = state.get("phase")
    if phase == "over":
        w = state.get("winner")
        return "drawn" if w is None else f"player {w} won"
    return f"round {state.get('round')} · {phase}"


def _arrow(
    d: d_.Canvas,
    state: dict[str, Any],
    action: dict[str, Any],
    spots: dict[tuple[int, str], tuple[float, float]],
) -> None:
    combat = state.get("combat") or {}
    kind = action.get("kind")
    mover = action.get("player")
    src = dst = None
    if kind == "attack" and combat:
        src = spots.get((int(combat["attacker"]), str(action.get("cell"))))
    elif kind == "defend" and combat and combat.get("attack") is not None:
        attacker = int(combat["attacker"])
        src = spots.get((attacker, str(combat["attack"])))
        dst = spots.get((1 - attacker, str(action.get("cell"))))
    elif kind in ("deploy", "place", "pick") and isinstance(mover, int):
        src = spots.get((mover, str(action.get("card"))))
        where = action.get("cell") if kind == "deploy" else f"row {action.get('row')}"
        dst = spots.get((mover, str(where)))
    elif kind == "take" and isinstance(mover, int):
        draft = state.get("draft") or {}
        if action.get("card") is None:  # the face-down card
            hidden = draft.get("hidden")
            src = None if hidden is None else spots.get((-1, f"slot {hidden}"))
        else:
            src = spots.get((-1, str(action.get("card"))))
        dst = spots.get((mover, "hand"))
    elif kind == "hide":
        dst = spots.get((-1, str(action.get("card"))))
    if src is not None and dst is not None:
        d_.arrow(d, src[0], src[1], dst[0], dst[1])
    elif (src or dst) is not None:
        x, y = src or dst  # type: ignore[misc]
        d.append(d_.Circle(x, y, 14, fill="none", stroke=d_.ARROW, stroke_width=4, class_="arrow"))
