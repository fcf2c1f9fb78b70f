"""Hostile input on the whole `kingdoms.hex` surface (issue 11): random calls with huge,
negative, NaN, wrong-typed and very long arguments, on random and far-flung maps. Every call
returns a result or raises `KingdomsError` / `TypeError` - never another exception, an abort
or a hang - and a refused edit leaves the map unchanged.

The quick run is part of the normal suite; `test_hex_fuzz_long` (marked slow) runs many more
inputs and prints how many: ``python -m pytest tests/test_hex_fuzz.py -m slow -s``.
"""

from __future__ import annotations

import math
import os
import pickle
import time
from collections.abc import Callable
from typing import Any

import kingdoms
import numpy as np
import pytest
from _fuzz import progress
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from kingdoms import hex as hx
from kingdoms.hex import Hex, HexMap, Layout

# Calls run so far (reported by the long run).
CALLS = [0]
# Any single call using more CPU time than this is a hang for our purposes (the limits keep
# every call far below it; the slowest legal calls - a field of view on a big map - take about
# a second). CPU time, not wall time: under load a cheap call may wait seconds for a core.
SLOW_CALL = 10.0

LIMIT = 1 << 29
BOUNDARY = [0, 1, -1, 2, 5, 6, 7, 999, 1000, 1001, 32768, 99_999, 100_000, 100_001]
BOUNDARY += [LIMIT - 1, LIMIT, LIMIT + 1, -LIMIT, -LIMIT - 1, 2**31 - 1, -(2**31), 2**31]
BOUNDARY += [2**32, 2**63 - 1, -(2**63), 2**63, 2**64, 10**30, -(10**30)]

ints = st.one_of(st.sampled_from(BOUNDARY), st.integers(-50, 50), st.integers())
floats = st.one_of(
    st.sampled_from([math.nan, math.inf, -math.inf, 0.0, -0.0, 1e308, -1e308, 5e-324]),
    st.floats(),
)
texts = st.one_of(
    st.sampled_from(["pointy", "flat", "odd", "even", "q", "r", "s", "radius", "cone", "ring"]),
    st.sampled_from(["line", "single", "", "\ud800"]),
    st.builds(lambda n: "x" * n, st.sampled_from([1000, 100_000])),
    st.text(max_size=20),
)
hex_likes = st.one_of(
    st.tuples(st.integers(-30, 30), st.integers(-30, 30)),
    st.tuples(ints, ints),
    st.builds(lambda q, r: Hex(q, r), st.integers(-LIMIT // 2, LIMIT // 2), st.integers(-100, 100)),
)
junk = st.one_of(
    st.none(),
    floats,
    texts,
    st.tuples(ints, ints, ints),
    st.tuples(floats, floats),
    st.lists(st.integers(-3, 3), max_size=3),
    st.builds(object),
    st.just(np.int64(3)),
    st.just(np.float64("nan")),
)
anything = st.one_of(hex_likes, ints, junk)
arrays = st.one_of(
    st.lists(st.tuples(ints, ints), max_size=4),
    st.sampled_from(
        [
            np.array([[1.5, 0.0]]),
            np.array([[math.nan, 0.0]]),
            np.array([[1j, 0]]),
            np.array([[2**63, 0]], dtype=np.uint64),
            np.array([[2**31 - 1, 1]], dtype=np.int32),
            np.array([[True, False]]),
            np.array([["a", "b"]]),
            np.zeros((3, 3), dtype=np.int64),
            np.zeros((0,)),
            np.array([[[1, 2]]]),
            np.array([[10**18, 0]], dtype=np.int64),
        ]
    ),
    junk,
)


@st.composite
def maps(draw: st.DrawFn) -> HexMap:
    """A small random map, sometimes with a zone far away (sparse, wide bounding box)."""
    cells: dict[Any, Any] = {}
    cq, cr = draw(st.integers(-40, 40)), draw(st.integers(-40, 40))
    for _ in range(draw(st.integers(0, 30))):
        h = (cq + draw(st.integers(-4, 4)), cr + draw(st.integers(-4, 4)))
        cells[h] = draw(st.one_of(st.none(), st.integers(1, 5)))
    if draw(st.booleans()):
        far = draw(st.sampled_from([60_000, 4000, -3000, 1000]))
        cells[(draw(st.integers(-3, 3)), far)] = 1
    return HexMap.from_cells(cells)


def call(f: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Run one call: a result, or a KingdomsError / TypeError (returned), nothing else."""
    CALLS[0] += 1
    progress("hex", CALLS[0])
    start = time.process_time()
    try:
        out = f(*args, **kwargs)
    except (kingdoms.KingdomsError, TypeError) as e:
        out = e
        # Messages stay short whatever the input (no 100,000-character echo).
        assert len(str(e)) < 400, str(e)[:200]
    assert time.process_time() - start < SLOW_CALL, f"{f!r} took too long"
    return out


def coordinate_calls(d: st.DataObject) -> None:
    a, b = d.draw(anything), d.draw(anything)
    n, k = d.draw(ints), d.draw(anything)
    shape = d.draw(st.sampled_from(["single", "radius", "ring", "line", "cone", "x"]))
    call(Hex, d.draw(anything), d.draw(anything))
    call(hx.distance, a, b)
    call(hx.line, a, b)
    call(hx.direction_to, a, b)
    call(hx.neighbors, a)
    call(hx.direction, k)
    call(hx.opposite, k)
    for f in (hx.ring, hx.spiral, hx.range, hx.range_array, hx.ring_array, hx.spiral_array):
        call(f, a, n)
    call(hx.axis_line, a, k, n)
    call(hx.area, shape, a, n, k)
    call(hx.distances, a, d.draw(arrays))
    h = call(lambda: Hex(*b) if isinstance(b, tuple) and len(b) == 2 else Hex(1, 2))
    if isinstance(h, Hex):
        for op in (
            lambda: h + a,
            lambda: a + h,
            lambda: h - a,
            lambda: a - h,
            lambda: -h,
            lambda: h * k,
            lambda: k * h,
            lambda: h.rotate(k, a),
            lambda: h.reflect(d.draw(texts), a),
            lambda: h.neighbor(k),
            lambda: h.diagonals(),
            lambda: h.line_to(a),
            lambda: h.ring(n),
            lambda: h.to_offset(d.draw(texts), d.draw(texts)),
            lambda: h.to_doubled(d.draw(texts)),
            lambda: h.to_cube(),
            lambda: pickle.loads(pickle.dumps(h)) == h,
        ):
            call(op)
    call(Hex.from_cube, d.draw(anything), d.draw(anything), d.draw(anything))
    call(Hex.from_offset, d.draw(anything), d.draw(anything), d.draw(texts), d.draw(texts))
    call(Hex.from_doubled, d.draw(anything), d.draw(anything), d.draw(texts))


def layout_calls(d: st.DataObject) -> None:
    lay = call(Layout, d.draw(texts), d.draw(st.one_of(floats, junk)), d.draw(junk))
    if not isinstance(lay, Layout):
        lay = Layout("flat", (3.0, 2.0), (1.0, -1.0))
    call(lay.to_hex, d.draw(st.one_of(floats, ints)), d.draw(st.one_of(floats, ints)))
    call(lay.to_pixel, d.draw(anything))
    call(lay.corners, d.draw(anything))
    call(lay.fractional, d.draw(floats), d.draw(floats))
    call(lay.to_pixel_array, d.draw(arrays))
    call(lay.to_hex_array, d.draw(arrays))


def map_calls(d: st.DataObject, m: HexMap) -> None:
    a, b = d.draw(anything), d.draw(anything)
    n, k = d.draw(ints), d.draw(anything)
    for f in (m.to_text, m.render, m.__str__, m.zones, m.bounds, m.coords, m.occupants):
        call(f)
    text = call(m.to_text)
    if isinstance(text, str):
        assert HexMap.from_text(text) == m
        assert pickle.loads(pickle.dumps(m)) == m
    for f in (m.terrain, m.cost, m.is_open, m.blocker, m.occupant, m.tags, m.costs_from):
        call(f, a)
    call(m.reachable, a, n)
    call(m.reachable_arrays, a, n)
    call(m.path, a, b)
    call(m.path_cost, a, b)
    call(m.line_of_sight, a, b, d.draw(st.booleans()))
    call(m.field_of_view, a, d.draw(st.one_of(st.none(), ints)), d.draw(st.booleans()))
    call(m.area, d.draw(texts), a, n, k)
    call(m.forced_move, a, k, n)
    call(m.push, a, b, n)
    call(m.pull, a, b, n)
    call(m.__contains__, a)
    # Edits: a refusal leaves the map as it was.
    for edit in (
        lambda: m.set_cost(a, d.draw(anything)),
        lambda: m.set_occupant(a, d.draw(st.one_of(st.none(), ints, junk))),
        lambda: m.set_terrain(a, d.draw(texts)),
        lambda: m.add_tag(a, d.draw(texts)),
        lambda: m.remove_tag(a, d.draw(texts)),
    ):
        before = m.copy()
        if isinstance(call(edit), BaseException):
            assert m == before


def text_calls(d: st.DataObject) -> None:
    """Map files built from hostile pieces."""
    key = d.draw(st.sampled_from(['"."', '"ab"', '" "', '"\\u0000"', '"#"']))
    value = d.draw(
        st.sampled_from(
            [
                '"plain"',
                "5",
                "[1]",
                '{ terrain = "plain", tags = ["t"] }',
                "{ terrain = 3 }",
                '{ terrain = "plain", x = 1 }',
                '{ tags = ["t"] }',
                '{ terrain = "plain", tags = [1] }',
                '"void"',
                '"nope"',
            ]
        )
    )
    origin = d.draw(st.tuples(ints, ints))
    orient = d.draw(st.sampled_from(['"pointy"', '"flat"', '"x"', "3"]))
    picture = d.draw(st.sampled_from([". .", " . .\n. . .", ".\t.", "", ". x"]))
    zone = d.draw(
        st.sampled_from(["", "[[zones]]\nat = [0, 0]\ncost = 0\n", "[[zones]]\nat = [9, 9]\n"])
    )
    text = (
        f"orientation = {orient}\norigin = [{origin[0]}, {origin[1]}]\npicture = '''\n{picture}\n'''\n"
        f"[legend]\n{key} = {value}\n\n[terrain]\nplain = {{}}\n\n{zone}"
    )
    call(HexMap.from_text, text, d.draw(texts))
    call(
        HexMap.from_cells,
        d.draw(
            st.one_of(
                junk,
                st.dictionaries(
                    st.one_of(hex_likes, ints, st.none(), st.text(max_size=3)), anything, max_size=3
                ),
            )
        ),
    )


def run_one(d: st.DataObject) -> None:
    coordinate_calls(d)
    layout_calls(d)
    text_calls(d)
    map_calls(d, d.draw(maps()))


# No shrinking: a failing call is reported as drawn (shrinking these inputs takes minutes).
PHASES = [Phase.explicit, Phase.reuse, Phase.generate]
QUICK = settings(
    max_examples=40, deadline=None, suppress_health_check=list(HealthCheck), phases=PHASES
)


@QUICK
@given(st.data())
def test_hex_fuzz(data: st.DataObject) -> None:
    run_one(data)


@pytest.mark.slow
def test_hex_fuzz_long() -> None:
    CALLS[0] = 0
    start = time.perf_counter()
    # Scaled like the other fuzz runs (tests/_fuzz.py); no example database, so nothing
    # accumulates over a long run.
    scale = float(os.environ.get("KINGDOMS_FUZZ_SCALE", "1"))
    long_run = settings(
        max_examples=max(1, int(4_000 * scale)),
        deadline=None,
        suppress_health_check=list(HealthCheck),
        phases=PHASES,
        database=None,
    )
    long_run(given(st.data())(run_one))()
    print(
        f"\nhex fuzz: {CALLS[0]} calls in {time.perf_counter() - start:.0f} s, all results or KingdomsError/TypeError"
    )
