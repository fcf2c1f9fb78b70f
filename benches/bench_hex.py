"""kingdoms.hex against networkx, the library a Python user would otherwise reach for.

Run: ``python -m pytest benches/bench_hex.py --benchmark-only`` (add
``--benchmark-columns=min,median,mean --benchmark-group-by=group``). Both sides answer the
same question on the same graph: a ``DiGraph`` whose edge ``u -> v`` weighs ``v``'s entry
cost, without obstacles and void. networkx gets its fastest fitting call: Dijkstra with a
cutoff for reachability; for paths, both A* (with the hex distance as heuristic) and
bidirectional Dijkstra are measured. Figures are in docs/hex.md.
"""

from __future__ import annotations

from typing import Any

import networkx as nx
import numpy as np
import pytest
from kingdoms.hex import Hex, HexMap

DIRS = [(1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1)]


def make_cells(width: int, height: int, seed: int) -> dict[tuple[int, int], int | None]:
    """A `width x height` rectangle of pointy hexes (odd rows shoved right), ~15% obstacles,
    entry costs 1-3, the two corners open."""
    rng = np.random.default_rng(seed)
    cells: dict[tuple[int, int], int | None] = {}
    for row in range(height):
        for col in range(width):
            h = Hex.from_offset(col, row, "pointy", "odd")
            x = rng.random()
            cells[(h.q, h.r)] = None if x < 0.15 else 1 + int(rng.integers(0, 3))
    for corner in (first(width, height), last(width, height)):
        cells[corner] = 1
    return cells


def first(width: int, height: int) -> tuple[int, int]:
    return tuple(Hex.from_offset(0, 0))  # type: ignore[return-value]


def last(width: int, height: int) -> tuple[int, int]:
    return tuple(Hex.from_offset(width - 1, height - 1))  # type: ignore[return-value]


def make_graph(cells: dict[tuple[int, int], int | None]) -> Any:
    g = nx.DiGraph()
    for h, c in cells.items():
        if c is None:
            continue
        g.add_node(h)
        for dq, dr in DIRS:
            n = (h[0] + dq, h[1] + dr)
            w = cells.get(n)
            if w is not None:
                g.add_edge(h, n, weight=w)
    return g


def hex_distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


CASES = {
    # name: (width, height, reachable budget)
    "small": (8, 8, 6),  # 64 zones: a Zinordia board; budget = a generous Agilidade
    "large": (400, 250, 10**9),  # 100,000 zones, the whole map
}


@pytest.fixture(scope="module", params=sorted(CASES))
def case(request: pytest.FixtureRequest) -> dict[str, Any]:
    w, h, budget = CASES[request.param]
    cells = make_cells(w, h, seed=1)
    m = HexMap.from_cells(cells)
    g = make_graph(cells)
    a, b = first(w, h), last(w, h)
    # Same answers before timing anything.
    assert m.reachable(a, budget) == nx.single_source_dijkstra_path_length(g, a, cutoff=budget)
    assert m.path_cost(a, b) == nx.dijkstra_path_length(g, a, b)
    return {"name": request.param, "map": m, "graph": g, "a": a, "b": b, "budget": budget}


def test_reachable_kingdoms(benchmark: Any, case: dict[str, Any]) -> None:
    benchmark.group = f"{case['name']} reachable"
    m, a, budget = case["map"], case["a"], case["budget"]
    benchmark(m.reachable, a, budget)


def test_reachable_kingdoms_arrays(benchmark: Any, case: dict[str, Any]) -> None:
    benchmark.group = f"{case['name']} reachable"
    m, a, budget = case["map"], case["a"], case["budget"]
    benchmark(m.reachable_arrays, a, budget)


def test_reachable_networkx(benchmark: Any, case: dict[str, Any]) -> None:
    benchmark.group = f"{case['name']} reachable"
    g, a, budget = case["graph"], case["a"], case["budget"]
    benchmark(nx.single_source_dijkstra_path_length, g, a, cutoff=budget)


def test_path_kingdoms(benchmark: Any, case: dict[str, Any]) -> None:
    benchmark.group = f"{case['name']} path"
    m, a, b = case["map"], case["a"], case["b"]
    benchmark(m.path, a, b)


def test_path_networkx_astar(benchmark: Any, case: dict[str, Any]) -> None:
    benchmark.group = f"{case['name']} path"
    g, a, b = case["graph"], case["a"], case["b"]
    benchmark(nx.astar_path, g, a, b, heuristic=hex_distance, weight="weight")


def test_path_networkx_bidirectional(benchmark: Any, case: dict[str, Any]) -> None:
    benchmark.group = f"{case['name']} path"
    g, a, b = case["graph"], case["a"], case["b"]
    benchmark(nx.bidirectional_dijkstra, g, a, b)
