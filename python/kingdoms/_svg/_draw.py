"""Shared drawing pieces: the canvas, card glyphs (face up and face down), badges, arrows,
and the one layer every picture and page is written through.

Every element, attribute and text of a picture is made here (the drawers never write markup
themselves): elements are built with the standard library's ElementTree, which escapes
attribute values and text; every string from data first goes through :func:`clean` (``kingdoms._text``)
(control characters, bidi overrides and non-characters become U+FFFD, long text is cut);
every ``fill``/``stroke`` goes through :func:`colour` (a fixed grammar); element and
attribute names come from a fixed allowlist. So no data can add an element, an attribute or
an event handler, and every picture parses as XML. A picture is a pure function of the data
it is given, so the same state gives byte-identical SVG. Each card glyph is a group with
class ``card`` (face up, ``data-card`` naming it) or ``card back`` (face down, ``data-back``
naming only what its back shows), which is what the tests count.
"""

from __future__ import annotations

import hashlib
import html
import math
import re
import xml.etree.ElementTree as ET
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from kingdoms._kingdoms import KingdomsError
from kingdoms._text import MAX_TEXT, clean

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
INK = "#1d1d1f"
TABLE = "#f4efe4"
PANEL = "#e6dcc6"
HIGHLIGHT = "#ffd400"
ARROW = "#e4572e"

#: The colour names a picture accepts besides ``#rgb`` and ``#rrggbb`` (CSS's basic names).
NAMED_COLOURS = frozenset(
    [
        "none",
        "black",
        "white",
        "silver",
        "gray",
        "grey",
        "maroon",
        "red",
        "purple",
        "fuchsia",
        "magenta",
        "green",
        "lime",
        "olive",
        "yellow",
        "navy",
        "blue",
        "teal",
        "aqua",
        "cyan",
        "orange",
        "brown",
        "pink",
        "gold",
    ]
)
_HEX_COLOUR = re.compile(r"#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})")

# The elements and attributes a picture may hold: nothing that runs, loads or links.
_ELEMENTS = frozenset(
    ["svg", "defs", "marker", "g", "rect", "circle", "line", "polygon", "polyline", "text", "title"]
)
_ATTRIBUTES = frozenset(
    [
        "xmlns",
        "width",
        "height",
        "viewBox",
        "font-family",
        "font-size",
        "font-weight",
        "fill",
        "fill-opacity",
        "stroke",
        "stroke-width",
        "stroke-opacity",
        "stroke-dasharray",
        "stroke-linecap",
        "stroke-linejoin",
        "x",
        "y",
        "rx",
        "cx",
        "cy",
        "r",
        "x1",
        "y1",
        "x2",
        "y2",
        "points",
        "text-anchor",
        "dominant-baseline",
        "class",
        "id",
        "orient",
        "markerWidth",
        "markerHeight",
        "refX",
        "refY",
        "marker-end",
    ]
)
_COLOUR_ATTRIBUTES = frozenset({"fill", "stroke"})
_KEYWORD_ATTRIBUTES = frozenset(
    {"text-anchor", "dominant-baseline", "font-weight", "stroke-linecap", "stroke-linejoin"}
)


def colour(value: object, where: str = "colour") -> str:
    """``value`` if it is a colour a picture accepts (``#rgb``, ``#rrggbb`` or a name of
    :data:`NAMED_COLOURS`, any case); a ``KingdomsError`` naming ``where`` otherwise."""
    if isinstance(value, str):
        if _HEX_COLOUR.fullmatch(value):
            return value
        if value.lower() in NAMED_COLOURS:
            return value.lower()
    shown = repr(value)[:40] if isinstance(value, str) else f"a {type(value).__name__}"
    raise KingdomsError(
        f"{where}: expected a colour (#rgb, #rrggbb or one of {', '.join(sorted(NAMED_COLOURS))}),"
        f" got {shown}"
    )


def html_text(s: object, limit: int = MAX_TEXT) -> str:
    """Text from data for an HTML page: :func:`clean`, then escaped (quotes included)."""
    return html.escape(clean(s, limit), quote=True)


def srcdoc(page: str) -> str:
    """A whole page built here, as an ``iframe``'s ``srcdoc`` attribute value: escaped
    whole, not cleaned or cut (its text from data was escaped when the page was built)."""
    return html.escape(page, quote=True)


def number(v: float) -> str:
    """A coordinate or size: at most two decimals, no exponent."""
    if not math.isfinite(v):
        raise KingdomsError(f"a picture coordinate must be finite, got {v!r}")
    s = f"{v:.2f}".rstrip("0").rstrip(".")
    return "0" if s == "-0" else s


T = TypeVar("T")


def text_cache(maxsize: int) -> Callable[[Callable[..., T]], Callable[..., T]]:
    """A least-recently-used cache of a function of texts (e.g. options JSON holding a
    content set), keyed by a hash of the arguments: large texts are not kept alive as keys,
    and at most ``maxsize`` results are."""

    def wrap(f: Callable[..., T]) -> Callable[..., T]:
        store: OrderedDict[bytes, T] = OrderedDict()

        def cached(*args: Any) -> T:
            key = hashlib.blake2b(
                repr(args).encode("utf-8", "surrogatepass"), digest_size=32
            ).digest()
            if key in store:
                store.move_to_end(key)
                return store[key]
            value = f(*args)
            store[key] = value
            if len(store) > maxsize:
                store.popitem(last=False)
            return value

        cached.__doc__ = f.__doc__
        cached.store = store  # type: ignore[attr-defined]
        return cached

    return wrap


class Marker:
    """An arrow head; an element's ``marker_end`` takes one, the canvas gives it an id."""

    def __init__(self, fill: str, scale: float = 4) -> None:
        self.fill = colour(fill)
        self.scale = scale
        self.id: str | None = None


class Element:
    """One SVG element with its children. Names from the allowlist only; values through
    :func:`clean`, :func:`colour` or :func:`number`."""

    def __init__(
        self, tag: str, attrs: dict[str, object] | None = None, text: str | None = None
    ) -> None:
        if tag not in _ELEMENTS:
            raise ValueError(f"element {tag!r} is not allowed in a picture")
        self.tag = tag
        self.text = None if text is None else clean(text)
        self.attrs: dict[str, object] = {}
        self.children: list[Element] = []
        for k, v in (attrs or {}).items():
            self.set(k, v)

    def set(self, key: str, value: object) -> None:
        name = key.rstrip("_").replace("_", "-")
        if name.startswith("data-"):
            if not re.fullmatch(r"data-[a-z]+(?:-[a-z]+)*", name):
                raise ValueError(f"attribute {name!r} is not allowed in a picture")
        elif name not in _ATTRIBUTES:
            raise ValueError(f"attribute {name!r} is not allowed in a picture")
        if isinstance(value, Marker):
            if name != "marker-end":
                raise ValueError(f"a marker cannot be the value of {name!r}")
            self.attrs[name] = value
        elif isinstance(value, bool) or value is None:
            raise TypeError(f"attribute {name!r}: got {value!r}")
        elif isinstance(value, int | float):
            self.attrs[name] = number(value)
        elif name in _COLOUR_ATTRIBUTES:
            self.attrs[name] = colour(value, name)
        elif name in _KEYWORD_ATTRIBUTES and not re.fullmatch(r"[a-z]+(?:-[a-z]+)*", str(value)):
            raise ValueError(f"attribute {name!r} takes a keyword, got {str(value)[:40]!r}")
        else:
            self.attrs[name] = clean(value)

    def append(self, child: Element) -> None:
        self.children.append(child)

    def append_title(self, s: object) -> None:
        """A tooltip (the ``<title>`` child)."""
        self.children.append(Element("title", text=clean(s)))

    def _tree(self, markers: list[Marker]) -> ET.Element:
        attrs: dict[str, str] = {}
        for k, v in self.attrs.items():
            if isinstance(v, Marker):
                if all(m is not v for m in markers):
                    v.id = f"k{len(markers)}"
                    markers.append(v)
                attrs[k] = f"url(#{v.id})"
            else:
                attrs[k] = str(v)
        e = ET.Element(self.tag, attrs)
        e.text = self.text
        e.extend(c._tree(markers) for c in self.children)
        return e


def Group(**attrs: object) -> Element:
    return Element("g", attrs)


def Rectangle(x: float, y: float, w: float, h: float, **attrs: object) -> Element:
    return Element("rect", {"x": x, "y": y, "width": w, "height": h, **attrs})


def Circle(cx: float, cy: float, r: float, **attrs: object) -> Element:
    return Element("circle", {"cx": cx, "cy": cy, "r": r, **attrs})


def Line(x1: float, y1: float, x2: float, y2: float, **attrs: object) -> Element:
    return Element("line", {"x1": x1, "y1": y1, "x2": x2, "y2": y2, **attrs})


def Lines(*points: float, close: bool = False, **attrs: object) -> Element:
    """A polygon (``close``) or polyline through ``x0, y0, x1, y1, ...``."""
    pts = " ".join(
        f"{number(points[i])},{number(points[i + 1])}" for i in range(0, len(points) - 1, 2)
    )
    return Element("polygon" if close else "polyline", {"points": pts, **attrs})


class Canvas:
    """A drawing: the root ``<svg>`` with the table background and the common font."""

    def __init__(self, width: float, height: float) -> None:
        w, h = round(width), round(height)
        self.root = Element(
            "svg",
            {
                "xmlns": "http://www.w3.org/2000/svg",
                "width": w,
                "height": h,
                "viewBox": f"0 0 {w} {h}",
                "font_family": FONT,
                "font_size": 12,
            },
        )
        self.root.append(Rectangle(0, 0, w, h, fill=TABLE))

    def append(self, child: Element) -> None:
        self.root.append(child)


def canvas(width: float, height: float) -> Canvas:
    """A drawing with the table background and the common font."""
    return Canvas(width, height)


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
) -> Element:
    """One line of text, its baseline centred vertically on ``y``."""
    return Element(
        "text",
        {
            "x": x,
            "y": y,
            "font_size": size,
            "fill": fill,
            "text_anchor": anchor,
            "dominant_baseline": "central",
            "font_weight": weight,
            **attrs,
        },
        text=s,
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
) -> Element:
    """A face-up card: a rounded rectangle in ``fill`` with ``lines`` of (text, size) from the
    top. ``face_down_marker`` draws a dashed edge: a card its owner sees but that lies face
    down on the table."""
    g = Group(class_="card", data_card=name)
    g.append(
        Rectangle(
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
) -> Element:
    """A face-down card: only its back (``back`` names the kind of back, e.g. ``troop``)."""
    g = Group(class_="card back", data_back=back)
    g.append(Rectangle(x, y, w, h, rx=4, fill=fill, stroke="#222222", stroke_width=1))
    inset = min(w, h) * 0.14
    g.append(
        Rectangle(
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
        Lines(
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


def slot(x: float, y: float, w: float, h: float, label: str = "") -> Element:
    """An empty place for a card."""
    g = Group(class_="slot")
    g.append(
        Rectangle(
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
) -> Element:
    """A small rounded label centred on (x, y)."""
    w = max(18.0, 0.62 * size * len(s) + 10)
    g = Group(class_="badge")
    g.append(Rectangle(x - w / 2, y - size * 0.8, w, size * 1.6, rx=size * 0.8, fill=fill))
    g.append(text(x, y, s, size, fill=ink, weight="bold"))
    return g


def last_move(width: float, state: dict[str, Any]) -> Element | None:
    """The last move in the picture's top right corner (class ``last-move``), when the state
    names it (``last_move``: a player's view carries the move as that seat saw it,
    ``Game.action_seen``; the whole state's is set from its history); else ``None``."""
    move = state.get("last_move")
    if not move:
        return None
    g = Group(class_="last-move")
    g.append(text(width - 10, 12, f"last move: {move}", 11, anchor="end", weight="bold"))
    return g


def highlight_box(x: float, y: float, w: float, h: float) -> Element:
    """A highlight frame around a place."""
    return Rectangle(
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
    d: Canvas,
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
    marker = Marker(colour)
    shorten = 12 / length
    d.append(
        Line(
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


def svg_text(d: Canvas) -> str:
    """The drawing as SVG text (no XML declaration, so it embeds in HTML as it is)."""
    markers: list[Marker] = []
    root = d.root._tree(markers)
    if markers:
        defs = ET.Element("defs")
        for m in markers:
            # an arrow head: a triangle pointing along the line, 4 line widths long
            tip = ET.SubElement(
                defs,
                "marker",
                {
                    "id": str(m.id),
                    "viewBox": "-0.1 -0.5 1 1",
                    "markerWidth": number(m.scale),
                    "markerHeight": number(m.scale),
                    "refX": "0",
                    "refY": "0",
                    "orient": "auto",
                },
            )
            ET.SubElement(tip, "polygon", {"points": "-0.1,-0.5 -0.1,0.5 0.9,0", "fill": m.fill})
        root.insert(0, defs)
    # One top-level element a line: no text or attribute holds a raw newline (clean() and
    # ElementTree's escaping remove them), so the replay page can share lines across plies.
    head = ET.tostring(ET.Element("svg", root.attrib), encoding="unicode").removesuffix(" />")
    children = [ET.tostring(c, encoding="unicode") for c in root]
    return "\n".join([head + ">", *children, "</svg>"])
