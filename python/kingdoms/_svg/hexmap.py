"""Hex maps: zones coloured by terrain, obstacles, tags and occupants, with overlays
(highlighted zones, paths, labels, coordinates), in the map's own orientation (pointy or
flat), placed by the library's own ``Layout``."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from kingdoms._kingdoms import Hex, HexLayout, HexMap, KingdomsError
from kingdoms._svg import _draw as d_
from kingdoms._svg.wrapper import SvgWrapper

#: Colours of common terrain names; other terrains take the palette in name order.
TERRAIN_COLOURS = {
    "open": "#e9e3c9",
    "plain": "#e9e3c9",
    "grass": "#b7d98b",
    "forest": "#6a994e",
    "water": "#74b3ce",
    "river": "#74b3ce",
    "swamp": "#8a9a5b",
    "hill": "#c8a96e",
    "mountain": "#8d7b68",
    "sand": "#f1dca7",
    "rock": "#5c5c5c",
    "obstacle": "#5c5c5c",
    "wall": "#4a4a4a",
}
PALETTE = ("#f6bd60", "#84a59d", "#f28482", "#a3c4f3", "#cdb4db", "#90be6d", "#f9c74f", "#b5838d")
HIGHLIGHTS = ("#ffd400", "#4dabf7", "#ff6b6b", "#51cf66", "#cc5de8", "#ff922b")
PATH_COLOURS = ("#e4572e", "#1c7ed6", "#2b8a3e", "#862e9c")
#: Most zones plus overlay hexes (highlighted, on paths, labelled) one picture draws: a
#: 100 x 100 map with its overlays (a few MB of SVG, about a second).
MAX_PICTURE_HEXES = 20_000


def _hex(value: Any, where: str) -> Hex:
    if isinstance(value, Hex):
        return value
    if (
        isinstance(value, tuple | list)
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        return Hex(value[0], value[1])
    raise TypeError(f"{where}: expected a Hex or a (q, r) pair of ints, got {type(value).__name__}")


def _too_many(what: str) -> KingdomsError:
    return KingdomsError(
        f"{what}: a map picture draws at most {MAX_PICTURE_HEXES} zones and overlay hexes"
    )


def _hexes(values: Iterable[Any], where: str) -> list[Hex]:
    if isinstance(values, str | bytes) or not isinstance(values, Iterable):
        raise TypeError(f"{where}: expected hexes, got {type(values).__name__}")
    out = []
    for i, v in enumerate(values):
        if i >= MAX_PICTURE_HEXES:
            raise _too_many(where)
        out.append(_hex(v, f"{where}[{i}]"))
    return out


def _areas(highlight: Any) -> list[tuple[str, list[Hex]]]:
    if highlight is None:
        return []
    if isinstance(highlight, Mapping):
        out = []
        for i, (colour, hexes) in enumerate(highlight.items()):
            if not isinstance(colour, str):
                raise TypeError(f"highlight: keys are colour names, got {type(colour).__name__}")
            out.append((d_.colour(colour, f"highlight key {i}"), _hexes(hexes, f"highlight[{i}]")))
        return out
    return [(HIGHLIGHTS[0], _hexes(highlight, "highlight"))]


def _paths(path: Any) -> list[list[Hex]]:
    if path is None:
        return []
    if not isinstance(path, Iterable) or isinstance(path, str | bytes):
        raise TypeError(f"path: expected hexes or a list of paths, got {type(path).__name__}")
    items: list[Any] = []
    for p in path:
        if len(items) >= MAX_PICTURE_HEXES:
            raise _too_many("path")
        items.append(p)
    if items and all(
        isinstance(p, Hex)
        or (isinstance(p, tuple) and len(p) == 2 and all(isinstance(v, int) for v in p))
        for p in items
    ):
        return [_hexes(items, "path")]
    return [_hexes(p, f"path[{i}]") for i, p in enumerate(items)]


def hexmap_svg(
    m: HexMap,
    *,
    highlight: Any = None,
    path: Any = None,
    labels: Mapping[Any, Any] | None = None,
    coordinates: bool = False,
    size: float = 28.0,
) -> str:
    """The SVG picture of a map; see ``HexMap.svg``."""
    if isinstance(size, bool) or not isinstance(size, int | float) or not (4 <= size <= 500):
        raise KingdomsError(
            f"size must be a number from 4 to 500 (the hex radius in pixels), got {size!r:.40}"
        )
    areas = _areas(highlight)
    paths = _paths(path)
    label_items: list[tuple[Hex, str]] = []
    if labels is not None:
        if not isinstance(labels, Mapping):
            raise TypeError(
                f"labels: expected a mapping {{hex: text}}, got {type(labels).__name__}"
            )
        if len(labels) > MAX_PICTURE_HEXES:
            raise _too_many("labels")
        label_items = [(_hex(h, "labels key"), str(t)[:16]) for h, t in labels.items()]

    overlays = sum(len(hs) for _, hs in areas) + sum(len(p) for p in paths) + len(label_items)
    if len(m) + overlays > MAX_PICTURE_HEXES:  # counted before any zone is listed or drawn
        raise _too_many(f"a map of {len(m)} zones with {overlays} overlay hexes")
    layout = HexLayout("flat" if m.orientation == "flat" else "pointy", float(size))
    zones = m.zones()
    shown = zones + [h for _, hs in areas for h in hs] + [h for p in paths for h in p]
    xs: list[float] = []
    ys: list[float] = []
    for h in shown:
        x, y = layout.to_pixel(h)
        xs.append(x)
        ys.append(y)
    if not xs:
        xs, ys = [0.0], [0.0]
    margin = size * 1.2 + 6
    ox, oy = min(xs) - margin, min(ys) - margin
    width = max(xs) - min(xs) + 2 * margin
    height = max(ys) - min(ys) + 2 * margin + (22 if m.name else 0)
    top = 22 if m.name else 0
    d = d_.canvas(width, height)
    if m.name:
        d.append(d_.text(8, 13, m.name, 13, anchor="start", weight="bold"))

    def corners(h: Hex) -> list[float]:
        pts: list[float] = []
        for x, y in layout.corners(h):
            pts += [round(x - ox, 2), round(y - oy + top, 2)]
        return pts

    def centre(h: Hex) -> tuple[float, float]:
        x, y = layout.to_pixel(h)
        return round(x - ox, 2), round(y - oy + top, 2)

    terrains = m.terrains
    names = sorted(terrains)
    colours = {}
    for i, name in enumerate(names):
        t = terrains[name]
        colours[name] = TERRAIN_COLOURS.get(
            name, "#5c5c5c" if not t.get("passable", True) else PALETTE[i % len(PALETTE)]
        )
    font = max(7.0, size * 0.32)
    for h in zones:
        terrain = m.terrain(h) or ""
        g = d_.Group(class_="zone", data_hex=f"{h.q},{h.r}", data_terrain=terrain)
        g.append(
            d_.Lines(
                *corners(h),
                close=True,
                fill=colours.get(terrain, "#dddddd"),
                stroke="#6b6150",
                stroke_width=1,
            )
        )
        tags = m.tags(h)
        cx, cy = centre(h)
        if tags:
            g.append(
                d_.text(
                    cx, cy + size * 0.55, " ".join(t[:3] for t in tags), font * 0.8, fill="#3a2e00"
                )
            )
        g.append_title(
            f"({h.q}, {h.r}) {terrain} cost {m.cost(h)}"
            + (f" tags {', '.join(tags)}" if tags else "")
        )
        d.append(g)
    for i, (colour, hexes) in enumerate(areas):
        for h in hexes:
            d.append(
                d_.Lines(
                    *corners(h),
                    close=True,
                    fill=colour,
                    fill_opacity=0.45,
                    stroke=colour,
                    stroke_width=2,
                    class_="highlight",
                    data_hex=f"{h.q},{h.r}",
                )
            )
    for at, occupant in sorted(m.occupants().items()):
        cx, cy = centre(Hex(*at))
        g = d_.Group(class_="occupant", data_hex=f"{at[0]},{at[1]}")
        g.append(d_.Circle(cx, cy, size * 0.45, fill="#ffffff", stroke=d_.INK, stroke_width=2))
        g.append(d_.text(cx, cy, str(occupant), font * 1.1, weight="bold"))
        d.append(g)
    for i, p in enumerate(paths):
        colour = PATH_COLOURS[i % len(PATH_COLOURS)]
        pts = [c for h in p for c in centre(h)]
        if len(p) >= 2:
            marker = d_.Marker(colour, scale=3.5)
            d.append(
                d_.Lines(
                    *pts,
                    close=False,
                    fill="none",
                    stroke=colour,
                    stroke_width=max(2.0, size * 0.15),
                    stroke_linejoin="round",
                    stroke_linecap="round",
                    marker_end=marker,
                    class_="path",
                )
            )
        if p:
            x, y = centre(p[0])
            d.append(d_.Circle(x, y, size * 0.18, fill=colour, class_="path-start"))
    for h, label in label_items:
        cx, cy = centre(h)
        d.append(
            d_.text(
                cx,
                cy - (size * 0.5 if coordinates else 0),
                label,
                font * 1.1,
                weight="bold",
                class_="label",
            )
        )
    if coordinates:
        for h in zones:
            cx, cy = centre(h)
            d.append(
                d_.text(
                    cx,
                    cy + (size * 0.05 if label_items else 0),
                    f"{h.q},{h.r}",
                    font * 0.85,
                    fill="#4a4a4a",
                    class_="coord",
                )
            )
    return SvgWrapper(d_.svg_text(d))
