"""Shared drawing pieces: the canvas, card glyphs (face up and face down), badges, arrows.

Every picture is built with drawsvg (elements, attributes and text escaped by the library)
and is a pure function of the data it is given, so the same state gives byte-identical SVG.
Each card glyph is a group with class ``card`` (face up, ``data-card`` naming it) or
``card back`` (face down, ``data-back`` naming only what its back shows), which is what the
tests count.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import drawsvg as dw

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
INK = "#1d1d1f"
TABLE = "#f4efe4"
PANEL = "#e6dcc6"
HIGHLIGHT = "#ffd400"
ARROW = "#e4572e"


def canvas(width: float, height: float) -> dw.Drawing:
    """A drawing with the table background and the common font."""
    d = dw.Drawing(round(width), round(height), id_prefix="k", font_family=FONT, font_size=12)
    d.append(dw.Rectangle(0, 0, round(width), round(height), fill=TABLE))
    return d


def text(
    x: float,
    y: float,
    s: str,
    size: float = 12,
    *,
    fill: str = INK,
    anchor: str = "middle",
    weight: str = "normal",
    **attrs: str | float,
) -> dw.Text:
    """One line of text, its baseline centred vertically on ``y``."""
    return dw.Text(
        s,
        size,
        x,
        y,
        fill=fill,
        text_anchor=anchor,
        dominant_baseline="central",
        font_weight=weight,
        **attrs,
    )


def card_face(
    x: float,
    y: float,
    w: float,
    h: float,
    *,
    name: str,
    fill: str,
    lines: Sequence[tuple[str, float]],
    ink: str = "#ffffff",
    title: str | None = None,
    face_down_marker: bool = False,
) -> dw.Group:
    """A face-up card: a rounded rectangle in ``fill`` with ``lines`` of (text, size) from the
    top. ``face_down_marker`` draws a dashed edge: a card its owner sees but that lies face
    down on the table."""
    g = dw.Group(class_="card", data_card=name)
    g.append(
        dw.Rectangle(
            x,
            y,
            w,
            h,
            rx=4,
            fill=fill,
            stroke="#555555" if not face_down_marker else INK,
            stroke_width=1 if not face_down_marker else 2,
            stroke_dasharray="4 3" if face_down_marker else "none",
        )
    )
    ty = y + 3
    for s, size in lines:
        ty += size * 0.6 + 2
        g.append(text(x + w / 2, ty, s, size, fill=ink, weight="bold"))
        ty += size * 0.6
    g.append_title(title or name)
    return g


def card_back(
    x: float, y: float, w: float, h: float, *, back: str, fill: str, label: str = ""
) -> dw.Group:
    """A face-down card: only its back (``back`` names the kind of back, e.g. ``troop``)."""
    g = dw.Group(class_="card back", data_back=back)
    g.append(dw.Rectangle(x, y, w, h, rx=4, fill=fill, stroke="#222222", stroke_width=1))
    inset = min(w, h) * 0.14
    g.append(
        dw.Rectangle(
            x + inset,
            y + inset,
            w - 2 * inset,
            h - 2 * inset,
            rx=3,
            fill="none",
            stroke="#ffffff",
            stroke_opacity=0.55,
            stroke_width=1.2,
        )
    )
    cx, cy, r = x + w / 2, y + h / 2, min(w, h) * 0.18
    g.append(
        dw.Lines(
            cx,
            cy - r,
            cx + r,
            cy,
            cx,
            cy + r,
            cx - r,
            cy,
            close=True,
            fill="#ffffff",
            fill_opacity=0.55,
        )
    )
    if label:
        g.append(text(cx, y + h - inset - 6, label, 9, fill="#ffffff"))
    g.append_title(f"face down ({back})")
    return g


def slot(x: float, y: float, w: float, h: float, label: str = "") -> dw.Group:
    """An empty place for a card."""
    g = dw.Group(class_="slot")
    g.append(
        dw.Rectangle(
            x,
            y,
            w,
            h,
            rx=4,
            fill="none",
            stroke="#b5a98f",
            stroke_width=1,
            stroke_dasharray="3 3",
        )
    )
    if label:
        g.append(text(x + w / 2, y + h / 2, label, 9, fill="#a0947a"))
    return g


def badge(
    x: float, y: float, s: str, *, fill: str, ink: str = "#ffffff", size: float = 10
) -> dw.Group:
    """A small rounded label centred on (x, y)."""
    w = max(18.0, 0.62 * size * len(s) + 10)
    g = dw.Group(class_="badge")
    g.append(dw.Rectangle(x - w / 2, y - size * 0.8, w, size * 1.6, rx=size * 0.8, fill=fill))
    g.append(text(x, y, s, size, fill=ink, weight="bold"))
    return g


def highlight_box(x: float, y: float, w: float, h: float) -> dw.Rectangle:
    """A highlight frame around a place."""
    return dw.Rectangle(
        x - 3,
        y - 3,
        w + 6,
        h + 6,
        rx=6,
        fill=HIGHLIGHT,
        fill_opacity=0.35,
        stroke=HIGHLIGHT,
        stroke_width=3,
        class_="highlight",
    )


def arrow(
    d: dw.Drawing,
    x1: float,
    y1: float,
    x2: float,
    y2: float,
    colour: str = ARROW,
    kind: str = "arrow",
    width: float = 5,
) -> None:
    """An arrow from (x1, y1) to (x2, y2), its head at the end (as python-chess draws moves);
    ``kind`` is its class (``arrow`` for a move, ``last-combat`` for what happened)."""
    length = math.hypot(x2 - x1, y2 - y1)
    if length < 1:
        return
    marker = dw.Marker(-0.1, -0.5, 0.9, 0.5, scale=4, orient="auto")
    marker.append(dw.Lines(-0.1, -0.5, -0.1, 0.5, 0.9, 0, fill=colour, close=True))
    shorten = 12 / length
    d.append(
        dw.Line(
            x1,
            y1,
            x2 - (x2 - x1) * shorten,
            y2 - (y2 - y1) * shorten,
            stroke=colour,
            stroke_width=width,
            stroke_opacity=0.85,
            stroke_linecap="round",
            marker_end=marker,
            class_=kind,
        )
    )


def svg_text(d: dw.Drawing) -> str:
    """The drawing as SVG text (no XML declaration, so it embeds in HTML as it is)."""
    return str(d.as_svg(header=""))
