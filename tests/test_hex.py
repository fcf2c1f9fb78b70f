"""kingdoms.hex against straightforward references written here: heapq Dijkstra and BFS for
movement and paths, exact brute force for lines, sight and areas, on many random maps with
voids, obstacles, costs and occupants."""

from __future__ import annotations

import copy
import heapq
import itertools
import math
import pickle
from collections import deque
from fractions import Fraction

import kingdoms
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from kingdoms import hex as hx
from kingdoms.hex import Hex, HexMap

DIRS = [(1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1)]
Cells = dict[tuple[int, int], "int | None"]


def ref_distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def ref_dijkstra(
    cells: Cells, start: tuple[int, int], occupied: frozenset[tuple[int, int]] = frozenset()
) -> dict[tuple[int, int], int]:
    dist = {start: 0}
    heap = [(0, start)]
    while heap:
        d, h = heapq.heappop(heap)
        if d > dist[h]:
            continue
        for dq, dr in DIRS:
            n = (h[0] + dq, h[1] + dr)
            cost = cells.get(n)
            if cost is None or n in occupied:
                continue
            if d + cost < dist.get(n, math.inf):
                dist[n] = d + cost
                heapq.heappush(heap, (d + cost, n))
    return dist


def ref_bfs(cells: Cells, start: tuple[int, int]) -> dict[tuple[int, int], int]:
    dist = {start: 0}
    todo = deque([start])
    while todo:
        h = todo.popleft()
        for dq, dr in DIRS:
            n = (h[0] + dq, h[1] + dr)
            if cells.get(n) is not None and n not in dist:
                dist[n] = dist[h] + 1
                todo.append(n)
    return dist


@st.composite
def maps(draw: st.DrawFn, max_radius: int = 6, costs: tuple[int, int] = (1, 5)) -> Cells:
    """A random region (void around and inside) of zones with costs and obstacles."""
    radius = draw(st.integers(1, max_radius))
    cq, cr = draw(st.integers(-20, 20)), draw(st.integers(-20, 20))
    cells: Cells = {}
    for q in range(-radius, radius + 1):
        for r in range(max(-radius, -q - radius), min(radius, radius - q) + 1):
            kind = draw(st.integers(0, 9))
            if kind == 0:
                continue  # void
            cells[(cq + q, cr + r)] = None if kind == 1 else draw(st.integers(*costs))
    if not cells:
        cells[(cq, cr)] = 1
    return cells


def zone_of(cells: Cells, data: st.DataObject) -> tuple[int, int]:
    return data.draw(st.sampled_from(sorted(cells)))


# ---- coordinates ---------------------------------------------------------------------------

hexes = st.tuples(st.integers(-1000, 1000), st.integers(-1000, 1000))


@given(hexes, hexes)
def test_distance_is_the_hex_metric(a: tuple[int, int], b: tuple[int, int]) -> None:
    assert hx.distance(a, b) == ref_distance(a, b) == Hex(*a).distance(b)
    assert hx.distance(Hex(*a), Hex(*b)) == hx.distance(b, a)


@given(hexes)
def test_hex_behaves_like_its_tuple(t: tuple[int, int]) -> None:
    h = Hex(*t)
    assert h == t and t == h and hash(h) == hash(t)
    assert h != (t[0] + 1, t[1]) and h != "x"
    assert {h: 1}[t] == 1 and {t: 1}[h] == 1
    q, r = h
    assert (q, r) == t and h.s == -q - r and len(h) == 2 and h[-1] == t[1]
    assert pickle.loads(pickle.dumps(h)) == h
    assert h + (1, 0) == Hex(t[0] + 1, t[1]) and -h == Hex(-t[0], -t[1]) and 2 * h == h + h
    assert h.to_tuple() == t and repr(h) == f"Hex({t[0]}, {t[1]})"


@given(hexes)
def test_conversions_round_trip(t: tuple[int, int]) -> None:
    h = Hex(*t)
    assert Hex.from_cube(*h.to_cube()) == h
    for o in ("pointy", "flat"):
        for p in ("odd", "even"):
            col, row = h.to_offset(o, p)  # type: ignore[arg-type]
            assert Hex.from_offset(col, row, o, p) == h  # type: ignore[arg-type]
        assert Hex.from_doubled(*h.to_doubled(o), o) == h  # type: ignore[arg-type]
    q, r = t
    assert h.to_doubled("pointy") == (2 * q + r, r)
    assert h.to_offset("pointy", "odd") == (q + (r - (r & 1)) // 2, r)
    with pytest.raises(ValueError):
        Hex.from_cube(1, 1, 1)


def test_directions_neighbors_and_rotation() -> None:
    assert [tuple(d) for d in hx.DIRECTIONS] == DIRS
    assert hx.neighbors((2, 3)) == [(2 + dq, 3 + dr) for dq, dr in DIRS]
    for d in range(6):
        assert hx.direction(d).rotate(1) == hx.direction(d + 1)
        assert hx.direction(hx.opposite(d)) == -hx.direction(d)
        assert hx.direction_to((0, 0), hx.direction(d) * 3) == d
    assert hx.direction_to((0, 0), (2, 1)) is None
    assert Hex(1, 0).diagonals()[1] == (2, 1)
    assert Hex(3, 1).rotate(6, (1, 1)) == (3, 1)
    assert Hex(3, 1).rotate(3, (1, 1)) == (-1, 1)
    assert Hex(2, 0).reflect("r") == (-2, 0)


@given(hexes, st.integers(0, 6))
def test_rings_spirals_ranges_by_brute_force(c: tuple[int, int], n: int) -> None:
    box = [(c[0] + q, c[1] + r) for q in range(-n, n + 1) for r in range(-n, n + 1)]
    within = sorted(h for h in box if ref_distance(c, h) <= n)
    assert sorted(map(tuple, hx.range(c, n))) == within
    assert [tuple(h) for h in hx.range(c, n)] == within  # ordered by q then r
    ring = hx.ring(c, n)
    assert sorted(map(tuple, ring)) == sorted(h for h in within if ref_distance(c, h) == n)
    assert all(hx.distance(a, b) == 1 for a, b in itertools.pairwise(ring)) or n == 0
    spiral = hx.spiral(c, n)
    assert sorted(map(tuple, spiral)) == within
    assert [hx.distance(c, h) for h in spiral] == sorted(hx.distance(c, h) for h in spiral)
    assert np.array_equal(hx.range_array(c, n), np.array(within, dtype=np.int32).reshape(-1, 2))
    assert np.array_equal(hx.ring_array(c, n), np.array([tuple(h) for h in ring]).reshape(-1, 2))
    assert np.array_equal(hx.spiral_array(c, n), np.array([tuple(h) for h in spiral]))


def ref_line(a: tuple[int, int], b: tuple[int, int], nudge: int = 1) -> list[tuple[int, int]]:
    """Exact brute force: at each step, the hex whose centre is nearest (Euclidean) to the
    point, nudged off hex borders by a tiny (+1, +2, -3) cube offset."""
    n = ref_distance(a, b)
    eps = Fraction(nudge, 10**9)
    out = []
    for i in range(n + 1):
        t = Fraction(i, n) if n else Fraction(0)
        pq = a[0] + (b[0] - a[0]) * t + eps
        pr = a[1] + (b[1] - a[1]) * t + 2 * eps
        cands = [
            (q, r)
            for q in range(math.floor(pq) - 1, math.floor(pq) + 3)
            for r in range(math.floor(pr) - 1, math.floor(pr) + 3)
        ]

        def d2(h: tuple[int, int], pq: Fraction = pq, pr: Fraction = pr) -> Fraction:
            dq, dr = pq - h[0], pr - h[1]
            return dq * dq + dq * dr + dr * dr

        out.append(min(cands, key=d2))
    return out


small = st.tuples(st.integers(-30, 30), st.integers(-30, 30))


@given(small, small)
def test_line_matches_exact_brute_force(a: tuple[int, int], b: tuple[int, int]) -> None:
    got = hx.line(a, b)
    assert [tuple(h) for h in got] == ref_line(a, b)
    assert got == Hex(*a).line_to(b)
    assert got[::-1] == hx.line(b, a)
    assert len(got) == hx.distance(a, b) + 1


def test_line_examples() -> None:
    assert hx.line((0, 0), (3, 0)) == [(0, 0), (1, 0), (2, 0), (3, 0)]
    assert hx.line((0, 0), (0, 0)) == [(0, 0)]
    assert hx.axis_line((1, 1), 1, 3) == [(1, 2), (1, 3), (1, 4)]


def ref_cone(o: tuple[int, int], d: int, n: int) -> set[tuple[int, int]]:
    (aq, ar), (bq, br) = DIRS[d % 6], DIRS[(d + 1) % 6]
    return {
        (o[0] + aq * i + bq * j, o[1] + ar * i + br * j)
        for i in range(n + 1)
        for j in range(n + 1)
        if 1 <= i + j <= n
    }


@given(small, st.integers(0, 5), st.integers(0, 5))
def test_area_shapes_by_brute_force(o: tuple[int, int], d: int, n: int) -> None:
    box = [(o[0] + q, o[1] + r) for q in range(-n, n + 1) for r in range(-n, n + 1)]

    def as_set(hs: list[Hex]) -> set[tuple[int, ...]]:
        return {tuple(h) for h in hs}

    assert hx.area("single", o) == [o]
    assert as_set(hx.area("radius", o, n)) == {h for h in box if ref_distance(o, h) <= n}
    assert as_set(hx.area("ring", o, n)) == {h for h in box if ref_distance(o, h) == n}
    line = {h for h in box if 1 <= ref_distance(o, h) <= n and hx.direction_to(o, h) == d}
    assert as_set(hx.area("line", o, n, d)) == line
    cone = hx.area("cone", o, n, d)
    assert as_set(cone) == ref_cone(o, d, n) and len(cone) == n * (n + 3) // 2
    with pytest.raises(ValueError):
        hx.area("blob", o, n)


# ---- maps: movement --------------------------------------------------------------------------


@settings(max_examples=200)
@given(maps(), st.data(), st.integers(-1, 30))
def test_reachable_matches_reference_dijkstra(
    cells: Cells, data: st.DataObject, budget: int
) -> None:
    m = HexMap.from_cells(cells)
    start = zone_of(cells, data)
    want = {h: c for h, c in ref_dijkstra(cells, start).items() if c <= budget}
    got = m.reachable(start, budget)
    assert got == want
    assert list(got.values()) == sorted(got.values())
    if budget >= 0:
        assert next(iter(got)) == start and got[start] == 0
    coords, costs = m.reachable_arrays(Hex(*start), budget)
    assert {tuple(map(int, c)): int(k) for c, k in zip(coords, costs)} == want
    full = ref_dijkstra(cells, start)
    assert [int(c) for c in m.costs_from(start)] == [
        full.get(tuple(z), -1) for z in m.coords().tolist()
    ]


@settings(max_examples=100)
@given(maps(costs=(1, 1)), st.data())
def test_unit_costs_reachable_is_bfs(cells: Cells, data: st.DataObject) -> None:
    start = zone_of(cells, data)
    assert HexMap.from_cells(cells).reachable(start, 10**9) == ref_bfs(cells, start)


@settings(max_examples=200)
@given(maps(), st.data())
def test_path_is_valid_and_cheapest(cells: Cells, data: st.DataObject) -> None:
    m = HexMap.from_cells(cells)
    a = zone_of(cells, data)
    dist = ref_dijkstra(cells, a)
    for _ in range(5):
        b = data.draw(st.sampled_from(sorted(cells) + [(99, 99)]))
        path = m.path(a, b)
        if b not in dist:
            assert path is None and m.path_cost(a, b) is None
            continue
        assert path is not None
        assert path[0] == a and path[-1] == b
        assert all(hx.distance(x, y) == 1 for x, y in itertools.pairwise(path))
        costs = [cells[tuple(h)] for h in path[1:]]  # type: ignore[index]
        assert None not in costs
        assert sum(c for c in costs if c is not None) == dist[b] == m.path_cost(a, b)


@settings(max_examples=100)
@given(maps(), st.data())
def test_occupants_block_movement(cells: Cells, data: st.DataObject) -> None:
    m = HexMap.from_cells(cells)
    start = zone_of(cells, data)
    occupied = frozenset(data.draw(st.sets(st.sampled_from(sorted(cells)), max_size=5)))
    for i, h in enumerate(sorted(occupied)):
        m.set_occupant(h, i)
    # The start zone holds the mover itself.
    assert m.reachable(start, 50) == {
        h: c for h, c in ref_dijkstra(cells, start, occupied - {start}).items() if c <= 50
    } | {start: 0}


def test_path_and_reachable_examples() -> None:
    m = HexMap.from_cells({(0, 0): 1, (1, 0): 3, (0, 1): 1, (1, 1): 1, (2, 0): None, (2, -1): 1})
    assert m.reachable((0, 0), 2) == {(0, 0): 0, (0, 1): 1, (1, 1): 2}
    assert m.path((0, 0), (1, 0)) == [(0, 0), (1, 0)]
    assert m.path((0, 0), (2, 0)) is None  # an obstacle
    assert m.path((0, 0), (2, -1)) == [(0, 0), (1, 0), (2, -1)]
    assert m.path((0, 0), (0, 0)) == [(0, 0)]
    assert m.reachable((0, 0), -1) == {}
    with pytest.raises(kingdoms.KingdomsError, match="not a zone"):
        m.reachable((5, 5), 3)
    with pytest.raises(TypeError, match=r"\(q, r\) tuple"):
        m.reachable("a1", 3)  # type: ignore[arg-type]


def test_from_cells_validates() -> None:
    for bad in ({(0, 0): 0}, {(0, 0): -2}, {(0, 0): "x"}, {(0, 0): 1.5}):
        with pytest.raises(kingdoms.DataError):
            HexMap.from_cells(bad)  # type: ignore[arg-type]
    with pytest.raises(kingdoms.DataError, match="dense storage"):
        HexMap.from_cells({(0, 0): 1, (200_000, 200_000): 1})
    m = HexMap.from_cells({Hex(0, 0): 2, (1, 0): None})
    assert len(m) == 2 and (0, 0) in m and Hex(1, 0) in m and (5, 5) not in m and "x" not in m
    assert m.cost((0, 0)) == 2 and m.cost((1, 0)) is None and m.blocker((1, 0)) == "obstacle"
    assert m.blocker((3, 3)) == "void" and m.terrain((1, 0)) == "obstacle"


# ---- maps: sight ---------------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(maps(max_radius=4), st.data())
def test_field_of_view_matches_brute_force(cells: Cells, data: st.DataObject) -> None:
    m = HexMap.from_cells(cells)
    origin = zone_of(cells, data)
    radius = data.draw(st.none() | st.integers(0, 6))

    def clear(line: list[tuple[int, int]]) -> bool:
        return all(not (h in cells and cells[h] is None) for h in line[1:-1])

    want = [
        z
        for z in sorted(cells, key=lambda h: (h[1], h[0]))
        if (radius is None or ref_distance(origin, z) <= radius)
        and (clear(ref_line(origin, z, 1)) or clear(ref_line(origin, z, -1)))
    ]
    assert m.field_of_view(origin, radius) == want
    for z in want:
        assert m.line_of_sight(origin, z) and m.line_of_sight(z, origin)


def test_occupants_can_block_sight() -> None:
    m = HexMap.from_cells({(q, 0): 1 for q in range(4)})
    m.set_occupant((1, 0), 7)
    assert m.line_of_sight((0, 0), (3, 0))
    assert not m.line_of_sight((0, 0), (3, 0), occupants_block=True)
    assert m.field_of_view((0, 0), occupants_block=True) == [(0, 0), (1, 0)]


# ---- maps: forced moves ------------------------------------------------------------------------


def test_push_and_pull_report_collisions() -> None:
    m = HexMap.from_cells({(q, 0): 1 for q in range(6)} | {(3, 0): None})
    push = m.push((0, 0), (1, 0), 4)
    assert push.path == [(2, 0)] and push.end == (2, 0) and push.moved == 1
    assert push.collision == (3, 0) and push.collision_kind == "obstacle"
    pull = m.pull((0, 0), (2, 0), 5)
    assert pull.path == [(1, 0)] and pull.collision == (0, 0) and pull.collision_kind == "source"
    m.set_occupant((4, 0), 3)
    mv = m.forced_move((5, 0), 3, 2)
    assert mv.path == [] and mv.collision_kind == "occupied" and mv.collided_with == 3
    free = m.forced_move((5, 0), 0, 2)
    assert free.collision == (6, 0) and free.collision_kind == "void"
    assert m.push((0, 0), (1, 0), 0).collision is None
    with pytest.raises(kingdoms.KingdomsError, match="common axis"):
        m.push((0, 0), (2, 1), 1)


@settings(max_examples=100)
@given(maps(), st.data(), st.integers(0, 5), st.integers(0, 6))
def test_forced_move_walks_until_blocked(cells: Cells, data: st.DataObject, d: int, n: int) -> None:
    m = HexMap.from_cells(cells)
    target = zone_of(cells, data)
    mv = m.forced_move(target, d, n)
    at, path, hit = target, [], None
    for _ in range(n):
        nxt = (at[0] + DIRS[d][0], at[1] + DIRS[d][1])
        if cells.get(nxt) is None:
            hit = nxt
            break
        path.append(nxt)
        at = nxt
    assert (mv.path, mv.end, mv.collision) == (path, at, hit)


# ---- text format -------------------------------------------------------------------------------

CROSSING = """name = "Crossing"
picture = '''
 . . # . .
S . ~ ~ . R
 . . #   .
'''

[legend]
"." = "plain"
"#" = "rock"
"~" = "water"
"S" = { terrain = "plain", tags = ["start"] }
"R" = { terrain = "plain", tags = ["renown"] }

[terrain]
plain = {}
water = { cost = 2 }
rock = { passable = false, blocks_sight = true }
"""


def test_text_format_reads_and_writes(tmp_path: object) -> None:
    m = HexMap.from_text(CROSSING)
    assert m.name == "Crossing" and len(m) == 15 and m.orientation == "pointy"
    assert m.tagged("start") == [(-1, 1)] and m.tags((4, 1)) == ["renown"]
    assert m.cost((1, 1)) == 2 and m.terrains["rock"]["passable"] is False
    assert str(m) == " . . # . .\nS . ~ ~ . R\n . . #   .\n"
    m.set_occupant((2, 1), 4)
    again = HexMap.from_text(m.to_text())
    assert again == m and again.occupant((2, 1)) == 4
    assert pickle.loads(pickle.dumps(m)) == m and copy.deepcopy(m) == m
    import pathlib

    p = pathlib.Path(str(tmp_path)) / "crossing.toml"
    m.save(p)
    assert HexMap.load(p) == m


@settings(max_examples=100)
@given(maps())
def test_from_cells_maps_round_trip_through_text(cells: Cells) -> None:
    m = HexMap.from_cells(cells)
    back = HexMap.from_text(m.to_text())
    assert [tuple(z) for z in back.zones()] == [tuple(z) for z in m.zones()]
    assert all(back.cost(z) == cells[tuple(z)] for z in back.zones())  # type: ignore[index]


@pytest.mark.parametrize(
    ("change", "where"),
    [
        (("S . ~", "S . X"), "line 4 column 5: 'X' is not in the legend"),
        ((" . . #   .", "  . . # ."), "line 5 column 3: '.' misaligned"),
        (('"~" = "water"', '"~" = "lava"'), 'no terrain "lava"'),
        (("water = { cost = 2 }", "water = { cost = }"), "line 17"),
        (("water = { cost = 2 }", "water = { cost = 0 }"), "[terrain.water]"),
        (('name = "Crossing"', "nom = 1"), "nom"),
    ],
)
def test_bad_map_files_say_where_and_why(change: tuple[str, str], where: str) -> None:
    with pytest.raises(kingdoms.DataError) as e:
        HexMap.from_text(CROSSING.replace(*change), "crossing.toml")
    assert "crossing.toml" in str(e.value) and where in str(e.value)


# ---- batch forms and layouts -------------------------------------------------------------------


@given(hexes, st.lists(hexes, max_size=50))
def test_distances_batch(a: tuple[int, int], others: list[tuple[int, int]]) -> None:
    arr = np.array(others, dtype=np.int32).reshape(-1, 2)
    got = hx.distances(a, arr)
    assert got.dtype == np.int64 and got.tolist() == [ref_distance(a, b) for b in others]
    with pytest.raises(kingdoms.KingdomsError, match="shape"):
        hx.distances(a, np.zeros((3, 3), dtype=np.int64))


@given(st.sampled_from(["pointy", "flat"]), hexes)
def test_layout_round_trips(orientation: str, h: tuple[int, int]) -> None:
    lay = hx.Layout(orientation, (10.0, 7.0), (5.0, -3.0))  # type: ignore[arg-type]
    x, y = lay.to_pixel(h)
    assert lay.to_hex(x, y) == h
    for cx, cy in lay.corners(h):
        assert lay.to_hex(0.8 * cx + 0.2 * x, 0.8 * cy + 0.2 * y) == h
    pts = lay.to_pixel_array(np.array([h]))
    assert np.allclose(pts, [[x, y]])
    assert lay.to_hex_array(pts).tolist() == [list(h)]


def test_layout_orientation_pictures() -> None:
    pointy = hx.Layout("pointy", 1.0)
    assert pointy.to_pixel((1, 0)) == pytest.approx((math.sqrt(3), 0.0))
    assert pointy.to_pixel((0, 1)) == pytest.approx((math.sqrt(3) / 2, 1.5))
    flat = hx.Layout("flat", 1.0)
    assert flat.to_pixel((1, 0)) == pytest.approx((1.5, math.sqrt(3) / 2))
    assert flat.to_pixel((0, 1)) == pytest.approx((0.0, math.sqrt(3)))


def test_networkx_agrees_on_a_random_map() -> None:
    nx = pytest.importorskip("networkx")
    rng = np.random.default_rng(5)
    cells: Cells = {}
    for q in range(-8, 9):
        for r in range(-8, 9):
            x = rng.integers(0, 10)
            if x:
                cells[(q, r)] = None if x == 1 else int(x)
    g = nx.DiGraph()
    for h, c in cells.items():
        if c is None:
            continue
        for dq, dr in DIRS:
            n = (h[0] + dq, h[1] + dr)
            if cells.get(n) is not None:
                g.add_edge(h, n, weight=cells[n])
    m = HexMap.from_cells(cells)
    start = next(h for h, c in cells.items() if c is not None)
    want = nx.single_source_dijkstra_path_length(g, start, cutoff=20)
    assert m.reachable(start, 20) == dict(want)
