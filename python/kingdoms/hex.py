"""Hex grids: coordinates, layouts, maps and the searches a tactics game needs.

>>> from kingdoms import hex
>>> hex.distance((0, 0), (2, -1))
2
>>> m = hex.HexMap.from_cells({(0, 0): 1, (1, 0): 2, (2, 0): None})
>>> m.reachable((0, 0), 5)
{(0, 0): 0, (1, 0): 2}

Every argument that takes a hex takes a :class:`Hex` or a plain ``(q, r)`` tuple; a ``Hex``
equals and hashes like its tuple. Axial coordinates; directions 0..5 are ``(1, 0), (0, 1),
(-1, 1), (-1, 0), (0, -1), (1, -1)``, clockwise on a y-down screen (E, SE, SW, W, NW, NE on a
pointy-top grid). Conventions, the map file format and benchmarks: ``docs/hex.md``.
"""

from __future__ import annotations

from kingdoms._kingdoms import ForcedMove, Hex, HexMap
from kingdoms._kingdoms import HexLayout as Layout
from kingdoms._kingdoms import hex_area as area
from kingdoms._kingdoms import hex_axis_line as axis_line
from kingdoms._kingdoms import hex_direction as direction
from kingdoms._kingdoms import hex_direction_to as direction_to
from kingdoms._kingdoms import hex_distance as distance
from kingdoms._kingdoms import hex_distances as distances
from kingdoms._kingdoms import hex_line as line
from kingdoms._kingdoms import hex_neighbors as neighbors
from kingdoms._kingdoms import hex_opposite as opposite
from kingdoms._kingdoms import hex_range as range
from kingdoms._kingdoms import hex_range_array as range_array
from kingdoms._kingdoms import hex_ring as ring
from kingdoms._kingdoms import hex_ring_array as ring_array
from kingdoms._kingdoms import hex_spiral as spiral
from kingdoms._kingdoms import hex_spiral_array as spiral_array

#: The six direction vectors, by direction number.
DIRECTIONS: tuple[Hex, ...] = tuple(direction(d) for d in (0, 1, 2, 3, 4, 5))
#: The origin.
ORIGIN = Hex(0, 0)

HexLike = Hex | tuple[int, int]

__all__ = [
    "DIRECTIONS",
    "ORIGIN",
    "ForcedMove",
    "Hex",
    "HexLike",
    "HexMap",
    "Layout",
    "area",
    "axis_line",
    "direction",
    "direction_to",
    "distance",
    "distances",
    "line",
    "neighbors",
    "opposite",
    "range",
    "range_array",
    "ring",
    "ring_array",
    "spiral",
    "spiral_array",
]
