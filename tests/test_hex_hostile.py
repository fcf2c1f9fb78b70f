"""The hex cases of issue 11, one test each: limits instead of aborts, bounded work instead
of hangs, errors instead of wrong results, clear errors instead of unclear ones."""

from __future__ import annotations

import math
import pickle

import kingdoms
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from kingdoms import hex as hx
from kingdoms.hex import Hex, HexMap, Layout

LIMIT = 2**29


@pytest.mark.parametrize(
    "call",
    [
        lambda: hx.range_array((0, 0), 32768),
        lambda: hx.range((0, 0), 32768),
        lambda: Hex(0, 0).range(32768),
        lambda: hx.spiral((0, 0), 32768),
        lambda: hx.area("radius", (0, 0), 32768),
        lambda: hx.area("cone", (0, 0), 32768),
    ],
)
def test_filled_shapes_refuse_huge_radii(call: object) -> None:
    with pytest.raises(kingdoms.KingdomsError, match=r"radius 32768 is not in 0\.\.=500"):
        call()  # type: ignore[operator]


def test_lines_refuse_huge_lengths_and_sight_accepts_far_points() -> None:
    with pytest.raises(kingdoms.KingdomsError, match="coordinate range"):
        hx.line((0, 0), (10**9, 0))
    with pytest.raises(kingdoms.KingdomsError, match="at most 100000"):
        Hex(0, 0).line_to((10**8, 0))
    m = HexMap.from_cells({(0, 0): 1, (1, 0): None, (2, 0): 1})
    far = (-(10**8), 0)
    assert m.line_of_sight((0, 0), far) and not m.line_of_sight((2, 0), far)
    assert not m.line_of_sight((10**8, 0), far)
    assert m.field_of_view((10**8, 0)) == [(1, 0), (2, 0)]


def test_sparse_maps_draw_in_memory_proportional_to_their_text() -> None:
    m = HexMap.from_cells({(0, 0): 1, (0, 60000): 1})
    text = m.to_text()
    assert len(text) < 200_000 and str(m) == m.render()
    assert HexMap.from_text(text) == m and pickle.loads(pickle.dumps(m)) == m


def test_field_of_view_work_is_bounded() -> None:
    cells = {(q, r): 1 for q in range(0, 3000, 1) for r in (0, 3000)}
    m = HexMap.from_cells(cells)
    assert len(m.field_of_view((0, 0), 3)) == 4
    with pytest.raises(kingdoms.KingdomsError, match="field_of_view would trace"):
        big = HexMap.from_cells({(q, r): 1 for q in range(1200) for r in range(1200)})
        big.field_of_view((0, 0))


def test_coordinates_never_wrap() -> None:
    with pytest.raises(kingdoms.KingdomsError, match="coordinate range"):
        Hex(2**31 - 1, 0)
    with pytest.raises(kingdoms.KingdomsError, match="the sum"):
        Hex(LIMIT, 0) + (1, 0)
    with pytest.raises(kingdoms.KingdomsError, match="the product"):
        Hex(1, 1) * 2**70
    with pytest.raises(kingdoms.KingdomsError):
        Hex.from_doubled(2**31 - 1, -(2**31 - 1))
    assert hx.distance((LIMIT, 0), (-LIMIT, 0)) == 2 * LIMIT
    assert Hex(LIMIT, -LIMIT).rotate(3) == (-LIMIT, LIMIT)


def test_layout_and_distances_refuse_non_integral_or_nan_input() -> None:
    with pytest.raises(kingdoms.KingdomsError, match="not finite"):
        Layout().to_hex(math.nan, 0)
    with pytest.raises(kingdoms.KingdomsError):
        Layout().to_hex_array([[0.0, math.inf]])
    with pytest.raises(kingdoms.KingdomsError, match="finite"):
        Layout(origin=(math.nan, 0.0))
    for bad in (np.array([[1.5, 0]]), np.array([[1j, 0]]), np.array([[True, False]])):
        with pytest.raises(TypeError):
            hx.distances((0, 0), bad)
    with pytest.raises(kingdoms.KingdomsError, match="coordinates must be in"):
        hx.distances((0, 0), np.array([[2**63, 0]], dtype=np.uint64))
    assert hx.distances((0, 0), np.array([[3, 0]], dtype=np.uint8)).tolist() == [3]
    assert hx.distances((0, 0), []).tolist() == []


@settings(max_examples=60)
@given(
    st.dictionaries(
        st.tuples(st.integers(-30, 30), st.integers(-30, 30)),
        st.one_of(st.none(), st.integers(1, 9)),
        max_size=40,
    )
)
def test_text_and_pickle_round_trips_give_equal_maps(
    cells: dict[tuple[int, int], int | None],
) -> None:
    m = HexMap.from_cells(cells)
    assert HexMap.from_text(m.to_text()) == m
    assert pickle.loads(pickle.dumps(m)) == m
    other = m.copy()
    if cells:
        z = min(cells)
        other.set_occupant(z, 7)
        assert other != m


def test_unclear_errors_are_now_clear() -> None:
    with pytest.raises(TypeError, match="cells must be a mapping"):
        HexMap.from_cells([])  # type: ignore[arg-type]
    with pytest.raises(kingdoms.DataError, match="legend '.': an integer: expected a terrain name"):
        HexMap.from_text('picture = "."\n[legend]\n"." = 5\n')
    with pytest.raises(TypeError, match="size must be a number"):
        Layout(size="x")  # type: ignore[arg-type]
    m = HexMap.from_cells({(0, 0): 1})
    before = m.copy()
    for call, name in [
        (lambda: hx.ring((0, 0), -1), "radius -1 is not in"),
        (lambda: m.set_cost((0, 0), -1), "cost -1 is not in"),
        (lambda: m.set_occupant((0, 0), -1), "occupant -1 is not in"),
        (lambda: m.forced_move((0, 0), 0, -5), "steps -5 is not in"),
        (lambda: Layout("x" * 10**6), "orientation"),
        (lambda: m.set_terrain((0, 0), "\ud800"), "lone surrogate"),
    ]:
        with pytest.raises(kingdoms.KingdomsError, match=name) as e:
            call()
        assert len(str(e.value)) < 200
    assert m == before
