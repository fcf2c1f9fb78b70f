//! `kingdoms.hex`: hex coordinates, layouts and maps. Every argument that takes a hex takes a
//! `Hex` or a plain `(q, r)` tuple. Functions are registered with a `hex_` prefix on the
//! extension and re-exported without it by `python/kingdoms/hex.py`.
#![deny(clippy::indexing_slicing)]

use kingdoms_core::hex::{
    coords, Axis, Collision, ForcedMove, Hex, HexMap, Layout, Orientation, Parity, Shape,
};
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::exceptions::{PyIndexError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple, PyType};

use crate::errors::{DataError, IntoPy};

/// Maps bigger than this release the GIL while they search.
const DETACH_ZONES: usize = 4096;

// ---- Hex -------------------------------------------------------------------------------

/// A hex in axial coordinates `(q, r)` (cube `s = -q - r`). Equal to, and hashes like, the
/// tuple `(q, r)`; unpacks as one (`q, r = h`).
#[pyclass(frozen, module = "kingdoms.hex", name = "Hex")]
#[derive(Clone, Copy)]
pub struct PyHex {
    q: i32,
    r: i32,
}

impl From<Hex> for PyHex {
    fn from(h: Hex) -> Self {
        PyHex { q: h.x, r: h.y }
    }
}

impl PyHex {
    fn hex(&self) -> Hex {
        Hex::new(self.q, self.r)
    }
}

/// A hex argument: a `Hex` or a `(q, r)` tuple of ints.
#[derive(Clone, Copy)]
pub struct HexArg(pub Hex);

impl<'a, 'py> FromPyObject<'a, 'py> for HexArg {
    type Error = PyErr;
    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if let Ok(h) = obj.cast::<PyHex>() {
            return Ok(HexArg(h.get().hex()));
        }
        if let Ok(t) = obj.cast::<PyTuple>() {
            if t.len() == 2 {
                if let (Ok(q), Ok(r)) = (t.get_item(0)?.extract(), t.get_item(1)?.extract()) {
                    return Ok(HexArg(Hex::new(q, r)));
                }
            }
        }
        Err(PyTypeError::new_err(format!(
            "expected a Hex or a (q, r) tuple of ints, got {}",
            obj.repr()?
        )))
    }
}

fn hexes(v: Vec<Hex>) -> Vec<PyHex> {
    v.into_iter().map(PyHex::from).collect()
}

fn dir_arg(direction: i64) -> usize {
    direction.rem_euclid(6) as usize
}

fn orientation_arg(o: &str) -> PyResult<Orientation> {
    Orientation::parse(o).ok_or_else(|| {
        PyValueError::new_err(format!(
            "orientation {o:?}: expected \"pointy\" or \"flat\""
        ))
    })
}

fn parity_arg(p: &str) -> PyResult<Parity> {
    Parity::parse(p)
        .ok_or_else(|| PyValueError::new_err(format!("parity {p:?}: expected \"odd\" or \"even\"")))
}

fn axis_arg(a: &str) -> PyResult<Axis> {
    Axis::parse(a)
        .ok_or_else(|| PyValueError::new_err(format!("axis {a:?}: expected \"q\", \"r\" or \"s\"")))
}

fn radius_arg(radius: i64) -> PyResult<u32> {
    u32::try_from(radius)
        .ok()
        .filter(|&r| r <= 1 << 15)
        .ok_or_else(|| PyValueError::new_err(format!("radius {radius} is not in 0..=32768")))
}

fn shape_arg(shape: &str, size: i64, direction: i64) -> PyResult<Shape> {
    let n = radius_arg(size)?;
    let d = dir_arg(direction);
    Ok(match shape {
        "single" => Shape::Single,
        "radius" => Shape::Radius(n),
        "ring" => Shape::Ring(n),
        "line" => Shape::Line {
            direction: d,
            length: n,
        },
        "cone" => Shape::Cone {
            direction: d,
            length: n,
        },
        _ => {
            return Err(PyValueError::new_err(format!(
                "shape {shape:?}: expected \"single\", \"radius\", \"ring\", \"line\" or \"cone\""
            )))
        }
    })
}

// PyO3 methods take `&self`; the `to_*` names are Python's.
#[allow(clippy::wrong_self_convention)]
#[pymethods]
impl PyHex {
    #[new]
    fn new(q: i32, r: i32) -> Self {
        PyHex { q, r }
    }
    #[getter]
    fn q(&self) -> i32 {
        self.q
    }
    #[getter]
    fn r(&self) -> i32 {
        self.r
    }
    /// The third cube coordinate, `-q - r`.
    #[getter]
    fn s(&self) -> i32 {
        self.hex().z()
    }
    fn __repr__(&self) -> String {
        format!("Hex({}, {})", self.q, self.r)
    }
    fn __eq__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> Py<PyAny> {
        if let Ok(o) = other.cast::<PyHex>() {
            let o = o.get();
            return (o.q == self.q && o.r == self.r)
                .into_pyobject(py)
                .map_or_else(
                    |_| py.NotImplemented(),
                    |b| b.to_owned().into_any().unbind(),
                );
        }
        if let Ok(t) = other.cast::<PyTuple>() {
            if let Ok((q, r)) = t.extract::<(i64, i64)>() {
                let eq = q == self.q as i64 && r == self.r as i64;
                return pyo3::types::PyBool::new(py, eq)
                    .to_owned()
                    .into_any()
                    .unbind();
            }
            return pyo3::types::PyBool::new(py, false)
                .to_owned()
                .into_any()
                .unbind();
        }
        py.NotImplemented()
    }
    fn __ne__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let eq = self.__eq__(py, other);
        if eq.is(py.NotImplemented()) {
            return Ok(eq);
        }
        Ok(pyo3::types::PyBool::new(py, !eq.extract::<bool>(py)?)
            .to_owned()
            .into_any()
            .unbind())
    }
    /// `hash(Hex(q, r)) == hash((q, r))`.
    fn __hash__(&self, py: Python<'_>) -> PyResult<isize> {
        PyTuple::new(py, [self.q, self.r])?.hash()
    }
    fn __len__(&self) -> usize {
        2
    }
    fn __getitem__(&self, index: isize) -> PyResult<i32> {
        match index {
            0 | -2 => Ok(self.q),
            1 | -1 => Ok(self.r),
            _ => Err(PyIndexError::new_err("Hex index out of range")),
        }
    }
    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(PyTuple::new(py, [self.q, self.r])?.try_iter()?.into_any())
    }
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        (py.get_type::<PyHex>(), (self.q, self.r)).into_pyobject(py)
    }
    fn __add__(&self, other: HexArg) -> PyHex {
        (self.hex() + other.0).into()
    }
    fn __radd__(&self, other: HexArg) -> PyHex {
        (self.hex() + other.0).into()
    }
    fn __sub__(&self, other: HexArg) -> PyHex {
        (self.hex() - other.0).into()
    }
    fn __rsub__(&self, other: HexArg) -> PyHex {
        (other.0 - self.hex()).into()
    }
    fn __neg__(&self) -> PyHex {
        (-self.hex()).into()
    }
    fn __mul__(&self, k: i32) -> PyHex {
        (self.hex() * k).into()
    }
    fn __rmul__(&self, k: i32) -> PyHex {
        (self.hex() * k).into()
    }
    /// The tuple `(q, r)`.
    fn to_tuple(&self) -> (i32, i32) {
        (self.q, self.r)
    }
    fn distance(&self, other: HexArg) -> u32 {
        coords::distance(self.hex(), other.0)
    }
    fn neighbor(&self, direction: i64) -> PyHex {
        coords::neighbor(self.hex(), dir_arg(direction)).into()
    }
    fn neighbors(&self) -> Vec<PyHex> {
        hexes(coords::neighbors(self.hex()).to_vec())
    }
    fn diagonals(&self) -> Vec<PyHex> {
        hexes(coords::diagonals(self.hex()).to_vec())
    }
    fn ring(&self, radius: i64) -> PyResult<Vec<PyHex>> {
        Ok(hexes(coords::ring(self.hex(), radius_arg(radius)?)))
    }
    fn spiral(&self, radius: i64) -> PyResult<Vec<PyHex>> {
        Ok(hexes(coords::spiral(self.hex(), radius_arg(radius)?)))
    }
    fn range(&self, radius: i64) -> PyResult<Vec<PyHex>> {
        Ok(hexes(coords::range(self.hex(), radius_arg(radius)?)))
    }
    fn line_to(&self, other: HexArg) -> Vec<PyHex> {
        hexes(coords::line(self.hex(), other.0))
    }
    #[pyo3(signature = (steps, center=HexArg(Hex::ZERO)))]
    fn rotate(&self, steps: i64, center: HexArg) -> PyHex {
        coords::rotate(self.hex(), center.0, steps.rem_euclid(6) as i32).into()
    }
    #[pyo3(signature = (axis, center=HexArg(Hex::ZERO)))]
    fn reflect(&self, axis: &str, center: HexArg) -> PyResult<PyHex> {
        Ok(coords::reflect(self.hex(), center.0, axis_arg(axis)?).into())
    }
    fn direction_to(&self, other: HexArg) -> Option<usize> {
        coords::axis_direction(self.hex(), other.0)
    }
    fn to_cube(&self) -> (i32, i32, i32) {
        let [q, r, s] = coords::to_cube(self.hex());
        (q, r, s)
    }
    #[pyo3(signature = (orientation="pointy", parity="odd"))]
    fn to_offset(&self, orientation: &str, parity: &str) -> PyResult<(i32, i32)> {
        let [c, r] = coords::to_offset(
            self.hex(),
            orientation_arg(orientation)?,
            parity_arg(parity)?,
        );
        Ok((c, r))
    }
    #[pyo3(signature = (orientation="pointy"))]
    fn to_doubled(&self, orientation: &str) -> PyResult<(i32, i32)> {
        let [c, r] = coords::to_doubled(self.hex(), orientation_arg(orientation)?);
        Ok((c, r))
    }
    #[classmethod]
    fn from_cube(_cls: &Bound<'_, PyType>, q: i32, r: i32, s: i32) -> PyResult<PyHex> {
        coords::from_cube([q, r, s])
            .map(PyHex::from)
            .ok_or_else(|| PyValueError::new_err(format!("cube ({q}, {r}, {s}) does not sum to 0")))
    }
    #[classmethod]
    #[pyo3(signature = (col, row, orientation="pointy", parity="odd"))]
    fn from_offset(
        _cls: &Bound<'_, PyType>,
        col: i32,
        row: i32,
        orientation: &str,
        parity: &str,
    ) -> PyResult<PyHex> {
        Ok(coords::from_offset(
            [col, row],
            orientation_arg(orientation)?,
            parity_arg(parity)?,
        )
        .into())
    }
    #[classmethod]
    #[pyo3(signature = (col, row, orientation="pointy"))]
    fn from_doubled(
        _cls: &Bound<'_, PyType>,
        col: i32,
        row: i32,
        orientation: &str,
    ) -> PyResult<PyHex> {
        coords::from_doubled([col, row], orientation_arg(orientation)?)
            .map(PyHex::from)
            .ok_or_else(|| {
                PyValueError::new_err(format!("doubled ({col}, {row}): col + row must be even"))
            })
    }
}

// ---- module functions --------------------------------------------------------------------

/// Hex distance between two hexes.
#[pyfunction(name = "hex_distance")]
fn distance(a: HexArg, b: HexArg) -> u32 {
    coords::distance(a.0, b.0)
}

/// The straight line of hexes from `a` to `b`, both included.
#[pyfunction(name = "hex_line")]
fn line(a: HexArg, b: HexArg) -> Vec<PyHex> {
    hexes(coords::line(a.0, b.0))
}

/// The unit vector of a direction (0..5, taken modulo 6).
#[pyfunction(name = "hex_direction")]
fn direction(direction: i64) -> PyHex {
    coords::direction(dir_arg(direction)).into()
}

#[pyfunction(name = "hex_opposite")]
fn opposite(direction: i64) -> usize {
    coords::opposite(dir_arg(direction))
}

/// The direction along which `b` lies on an axis line from `a`, or None.
#[pyfunction(name = "hex_direction_to")]
fn direction_to(a: HexArg, b: HexArg) -> Option<usize> {
    coords::axis_direction(a.0, b.0)
}

#[pyfunction(name = "hex_neighbors")]
fn neighbors(h: HexArg) -> Vec<PyHex> {
    hexes(coords::neighbors(h.0).to_vec())
}

#[pyfunction(name = "hex_ring")]
fn ring(center: HexArg, radius: i64) -> PyResult<Vec<PyHex>> {
    Ok(hexes(coords::ring(center.0, radius_arg(radius)?)))
}

#[pyfunction(name = "hex_spiral")]
fn spiral(center: HexArg, radius: i64) -> PyResult<Vec<PyHex>> {
    Ok(hexes(coords::spiral(center.0, radius_arg(radius)?)))
}

#[pyfunction(name = "hex_range")]
fn range(center: HexArg, radius: i64) -> PyResult<Vec<PyHex>> {
    Ok(hexes(coords::range(center.0, radius_arg(radius)?)))
}

/// The straight axis line from `origin` in `direction`: `length` hexes, origin excluded.
#[pyfunction(name = "hex_axis_line")]
fn axis_line(origin: HexArg, direction: i64, length: i64) -> PyResult<Vec<PyHex>> {
    Ok(hexes(coords::axis_line(
        origin.0,
        dir_arg(direction),
        radius_arg(length)?,
    )))
}

/// The hexes of an area shape around `origin` (geometry only).
#[pyfunction(name = "hex_area")]
#[pyo3(signature = (shape, origin, size=0, direction=0))]
fn area(shape: &str, origin: HexArg, size: i64, direction: i64) -> PyResult<Vec<PyHex>> {
    Ok(hexes(shape_arg(shape, size, direction)?.hexes(origin.0)))
}

/// An `(N, 2)` int64 array of `(q, r)` from any array-like.
/// The rows of a flat row-major `(N, 2)` array as `(first, second)` pairs.
fn pairs<T: Copy>(flat: &[T]) -> impl Iterator<Item = (T, T)> + '_ {
    flat.iter()
        .copied()
        .step_by(2)
        .zip(flat.iter().copied().skip(1).step_by(2))
}

fn coords_array<'py>(obj: &Bound<'py, PyAny>) -> PyResult<PyReadonlyArray2<'py, i64>> {
    let np = obj.py().import("numpy")?;
    let a = np.call_method1("ascontiguousarray", (obj, "int64"))?;
    let a = if a.getattr("ndim")?.extract::<usize>()? == 1 && a.len()? == 0 {
        a.call_method1("reshape", (0, 2))?
    } else {
        a
    };
    let a: PyReadonlyArray2<'py, i64> = a
        .extract()
        .map_err(|_| PyValueError::new_err("expected an (N, 2) array of (q, r) coordinates"))?;
    if a.shape().get(1) != Some(&2) {
        return Err(PyValueError::new_err(format!(
            "expected an (N, 2) array of (q, r) coordinates, got shape {:?}",
            a.shape()
        )));
    }
    Ok(a)
}

fn hex_array<'py>(
    py: Python<'py>,
    v: impl ExactSizeIterator<Item = Hex>,
) -> PyResult<Bound<'py, PyArray2<i32>>> {
    let n = v.len();
    let mut flat = Vec::with_capacity(2 * n);
    for h in v {
        flat.push(h.x);
        flat.push(h.y);
    }
    PyArray1::from_vec(py, flat).reshape([n, 2])
}

/// Distances from `a` to each row `(q, r)` of an `(N, 2)` array (int64 array of N).
#[pyfunction(name = "hex_distances")]
fn distances<'py>(
    py: Python<'py>,
    a: HexArg,
    others: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyArray1<i64>>> {
    let arr = coords_array(others)?;
    let s = arr.as_slice()?;
    let (aq, ar) = (a.0.x as i64, a.0.y as i64);
    let out: Vec<i64> = pairs(s)
        .map(|(q, r)| {
            let (dq, dr) = (q - aq, r - ar);
            (dq.abs() + dr.abs() + (dq + dr).abs()) / 2
        })
        .collect();
    Ok(PyArray1::from_vec(py, out))
}

/// Every hex within `radius` of `center` as an `(N, 2)` int32 array (ordered by q, then r).
#[pyfunction(name = "hex_range_array")]
fn range_array<'py>(
    py: Python<'py>,
    center: HexArg,
    radius: i64,
) -> PyResult<Bound<'py, PyArray2<i32>>> {
    hex_array(py, coords::range(center.0, radius_arg(radius)?).into_iter())
}

/// The ring at `radius` as an `(N, 2)` int32 array.
#[pyfunction(name = "hex_ring_array")]
fn ring_array<'py>(
    py: Python<'py>,
    center: HexArg,
    radius: i64,
) -> PyResult<Bound<'py, PyArray2<i32>>> {
    hex_array(py, coords::ring(center.0, radius_arg(radius)?).into_iter())
}

/// Rings 0..=radius as an `(N, 2)` int32 array.
#[pyfunction(name = "hex_spiral_array")]
fn spiral_array<'py>(
    py: Python<'py>,
    center: HexArg,
    radius: i64,
) -> PyResult<Bound<'py, PyArray2<i32>>> {
    hex_array(
        py,
        coords::spiral(center.0, radius_arg(radius)?).into_iter(),
    )
}

// ---- Layout ------------------------------------------------------------------------------

/// Hex ↔ pixel conversion (y axis down, as in images). `size` is centre-to-corner, one
/// number or `(sx, sy)`; `origin` is the pixel of hex (0, 0)'s centre.
#[pyclass(frozen, module = "kingdoms.hex", name = "Layout")]
pub struct PyLayout {
    inner: Layout,
}

#[derive(FromPyObject)]
enum Size {
    One(f64),
    Two((f64, f64)),
}

#[pymethods]
impl PyLayout {
    #[new]
    #[pyo3(signature = (orientation="pointy", size=Size::One(1.0), origin=(0.0, 0.0)))]
    fn new(orientation: &str, size: Size, origin: (f64, f64)) -> PyResult<Self> {
        let size = match size {
            Size::One(s) => (s, s),
            Size::Two(s) => s,
        };
        if !(size.0.is_finite() && size.1.is_finite() && size.0 != 0.0 && size.1 != 0.0) {
            return Err(PyValueError::new_err(
                "layout size must be finite and non-zero",
            ));
        }
        Ok(PyLayout {
            inner: Layout::new(orientation_arg(orientation)?, size, origin),
        })
    }
    #[getter]
    fn orientation(&self) -> &'static str {
        self.inner.orientation.name()
    }
    #[getter]
    fn size(&self) -> (f64, f64) {
        self.inner.size
    }
    #[getter]
    fn origin(&self) -> (f64, f64) {
        self.inner.origin
    }
    fn __repr__(&self) -> String {
        format!(
            "Layout({:?}, size={:?}, origin={:?})",
            self.inner.orientation.name(),
            self.inner.size,
            self.inner.origin
        )
    }
    /// The pixel at the centre of a hex.
    fn to_pixel(&self, h: HexArg) -> (f64, f64) {
        self.inner.to_pixel(h.0)
    }
    /// The hex containing a pixel.
    fn to_hex(&self, x: f64, y: f64) -> PyHex {
        self.inner.to_hex(x, y).into()
    }
    /// Fractional axial coordinates of a pixel.
    fn fractional(&self, x: f64, y: f64) -> (f64, f64) {
        self.inner.fractional(x, y)
    }
    /// The six corners of a hex (for drawing polygons).
    fn corners(&self, h: HexArg) -> Vec<(f64, f64)> {
        self.inner.corners(h.0).to_vec()
    }
    /// Pixel centres of an `(N, 2)` array of hexes: an `(N, 2)` float64 array.
    fn to_pixel_array<'py>(
        &self,
        py: Python<'py>,
        hexes: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyArray2<f64>>> {
        let arr = coords_array(hexes)?;
        let s = arr.as_slice()?;
        let mut out = Vec::with_capacity(s.len());
        for (q, r) in pairs(s) {
            let (x, y) = self.inner.fractional_to_pixel(q as f64, r as f64);
            out.push(x);
            out.push(y);
        }
        PyArray1::from_vec(py, out).reshape([s.len() / 2, 2])
    }
    /// The hexes containing an `(N, 2)` array of pixels: an `(N, 2)` int32 array.
    fn to_hex_array<'py>(
        &self,
        py: Python<'py>,
        points: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyArray2<i32>>> {
        let np = py.import("numpy")?;
        let a = np.call_method1("ascontiguousarray", (points, "float64"))?;
        let a: PyReadonlyArray2<'py, f64> = a
            .extract()
            .map_err(|_| PyValueError::new_err("expected an (N, 2) array of (x, y) points"))?;
        if a.shape().get(1) != Some(&2) {
            return Err(PyValueError::new_err(
                "expected an (N, 2) array of (x, y) points",
            ));
        }
        let s = a.as_slice()?;
        hex_array(
            py,
            pairs(s)
                .map(|(x, y)| self.inner.to_hex(x, y))
                .collect::<Vec<_>>()
                .into_iter(),
        )
    }
}

// ---- HexMap ------------------------------------------------------------------------------

/// The outcome of a push, pull or forced move (the map is not changed).
#[pyclass(frozen, get_all, module = "kingdoms.hex", name = "ForcedMove")]
pub struct PyForcedMove {
    /// Where the mover started.
    start: PyHex,
    /// The zones entered, in order.
    path: Vec<PyHex>,
    /// Where it ends.
    end: PyHex,
    /// The zone it failed to enter, if a step was blocked.
    collision: Option<PyHex>,
    /// Why: "void", "obstacle", "occupied" or "source" (pulled into the puller).
    collision_kind: Option<&'static str>,
    /// The occupant run into, for "occupied".
    collided_with: Option<u32>,
}

#[pymethods]
impl PyForcedMove {
    /// Zones actually moved.
    #[getter]
    fn moved(&self) -> usize {
        self.path.len()
    }
    fn __repr__(&self) -> String {
        let c = match (&self.collision, self.collision_kind) {
            (Some(h), Some(k)) => format!(", collision={} ({k})", h.__repr__()),
            _ => String::new(),
        };
        format!(
            "ForcedMove({} -> {}, moved={}{c})",
            self.start.__repr__(),
            self.end.__repr__(),
            self.path.len()
        )
    }
}

impl From<ForcedMove> for PyForcedMove {
    fn from(m: ForcedMove) -> Self {
        let (collision, kind, with) = match m.collision {
            None => (None, None, None),
            Some((h, c)) => (
                Some(h.into()),
                Some(c.kind()),
                match c {
                    Collision::Blocked(kingdoms_core::hex::Blocker::Occupied(o)) => Some(o),
                    _ => None,
                },
            ),
        };
        PyForcedMove {
            start: m.start.into(),
            path: hexes(m.path),
            end: m.end.into(),
            collision,
            collision_kind: kind,
            collided_with: with,
        }
    }
}

/// A hex map: zones (the rest is void) with terrain, entry cost, tags and occupants, and the
/// searches a tactics game needs. Load one with `HexMap.from_text` / `HexMap.load`, or build
/// one with `HexMap.from_cells({(q, r): cost_or_None})`.
#[pyclass(module = "kingdoms.hex", name = "HexMap")]
pub struct PyHexMap {
    inner: HexMap,
    /// The `(q, r)` tuple of every zone, by cell, made on first use: `reachable` builds its
    /// dict from them instead of allocating a tuple per zone per call (zones never change).
    keys: std::sync::OnceLock<Vec<Option<Py<PyTuple>>>>,
}

impl PyHexMap {
    fn wrap(inner: HexMap) -> Self {
        PyHexMap {
            inner,
            keys: std::sync::OnceLock::new(),
        }
    }

    fn keys(&self, py: Python<'_>) -> PyResult<&[Option<Py<PyTuple>>]> {
        if let Some(k) = self.keys.get() {
            return Ok(k);
        }
        let mut v: Vec<Option<Py<PyTuple>>> = (0..self.inner.num_cells()).map(|_| None).collect();
        for h in self.inner.zones() {
            // A zone's cell is below num_cells; were it not, `reachable` falls back to
            // building the key from `hex_of`, as for any cell without one.
            if let Some(slot) = self.inner.zone_cell(h).and_then(|c| v.get_mut(c)) {
                *slot = Some(PyTuple::new(py, [h.x, h.y])?.unbind());
            }
        }
        Ok(self.keys.get_or_init(|| v))
    }
}

fn run<T: Send>(py: Python<'_>, big: bool, f: impl FnOnce() -> T + Send) -> T {
    if big {
        py.detach(f)
    } else {
        f()
    }
}

/// `(coords (N, 2) int32, costs (N,) int64)`.
type CoordsAndCosts<'py> = (Bound<'py, PyArray2<i32>>, Bound<'py, PyArray1<i64>>);

fn budget_arg(budget: i64) -> Option<u64> {
    u64::try_from(budget).ok()
}

#[pymethods]
impl PyHexMap {
    /// A map from `{(q, r): entry_cost or None}`: an int >= 1 is an open zone with that entry
    /// cost, None an obstacle (blocks movement and sight); hexes not in `cells` are void.
    #[classmethod]
    fn from_cells(_cls: &Bound<'_, PyType>, cells: &Bound<'_, PyAny>) -> PyResult<Self> {
        let mut out: Vec<(Hex, Option<u32>)> = Vec::new();
        let items = match cells.cast::<PyDict>() {
            Ok(d) => d.items().into_any(),
            Err(_) => cells.call_method0("items")?,
        };
        for item in items.try_iter()? {
            let (k, v): (Bound<'_, PyAny>, Bound<'_, PyAny>) = item?.extract()?;
            let h = k.extract::<HexArg>()?.0;
            let cost = if v.is_none() {
                None
            } else {
                let c: i64 = v.extract().map_err(|_| {
                    DataError::new_err(format!(
                        "bad data in cells[({}, {})]: entry cost must be an int >= 1 or None, got {}",
                        h.x, h.y, v.repr().map(|r| r.to_string()).unwrap_or_default()
                    ))
                })?;
                if !(1..=kingdoms_core::hex::map::MAX_COST as i64).contains(&c) {
                    return Err(DataError::new_err(format!(
                        "bad data in cells[({}, {})]: entry cost {c} is not in 1..={}",
                        h.x,
                        h.y,
                        kingdoms_core::hex::map::MAX_COST
                    )));
                }
                Some(c as u32)
            };
            out.push((h, cost));
        }
        let inner = cells.py().detach(|| HexMap::from_costs(&out)).py()?;
        Ok(PyHexMap::wrap(inner))
    }

    /// Parse a map in the text format (docs/hex.md); `source` names it in errors.
    #[classmethod]
    #[pyo3(signature = (text, source="<text>"))]
    fn from_text(_cls: &Bound<'_, PyType>, text: &str, source: &str) -> PyResult<Self> {
        Ok(PyHexMap::wrap(
            kingdoms_core::hex::text::parse(text, source).py()?,
        ))
    }

    /// Read a map file in the text format.
    #[classmethod]
    fn load(_cls: &Bound<'_, PyType>, path: std::path::PathBuf) -> PyResult<Self> {
        let name = kingdoms_core::datafile::shown(&path);
        let text = kingdoms_core::datafile::read_text(&path).py()?;
        Ok(PyHexMap::wrap(
            kingdoms_core::hex::text::parse(&text, &name).py()?,
        ))
    }

    /// The map in the text format.
    fn to_text(&self) -> String {
        self.inner.to_text()
    }

    fn save(&self, path: std::path::PathBuf) -> PyResult<()> {
        std::fs::write(path, self.inner.to_text())?;
        Ok(())
    }

    /// The ASCII picture (occupied zones drawn as `@`).
    fn render(&self) -> String {
        self.inner.render()
    }
    /// An SVG picture of the map (docs/pictures.md): terrain, occupants, and overlays:
    /// `highlight` (hexes, or `{colour: hexes}`), `path` (hexes, or a list of paths),
    /// `labels` (`{hex: text}`), `coordinates` (each zone's `q,r`); `size` is the hex radius.
    #[pyo3(signature = (*, highlight=None, path=None, labels=None, coordinates=false, size=28.0))]
    fn svg(
        slf: &Bound<'_, Self>,
        highlight: Option<&Bound<'_, PyAny>>,
        path: Option<&Bound<'_, PyAny>>,
        labels: Option<&Bound<'_, PyAny>>,
        coordinates: bool,
        size: f64,
    ) -> PyResult<String> {
        let kwargs = PyDict::new(slf.py());
        kwargs.set_item("highlight", highlight)?;
        kwargs.set_item("path", path)?;
        kwargs.set_item("labels", labels)?;
        kwargs.set_item("coordinates", coordinates)?;
        kwargs.set_item("size", size)?;
        crate::pictures::function(slf.py(), "hexmap_svg")?
            .call((slf,), Some(&kwargs))?
            .extract()
    }
    fn _repr_svg_(slf: &Bound<'_, Self>) -> PyResult<String> {
        crate::pictures::function(slf.py(), "hexmap_svg")?
            .call1((slf,))?
            .extract()
    }
    fn __str__(&self) -> String {
        self.inner.render()
    }
    fn __repr__(&self) -> String {
        format!(
            "<HexMap {:?} {} zones {}>",
            self.inner.name,
            self.inner.len(),
            self.inner.orientation.name()
        )
    }
    fn __len__(&self) -> usize {
        self.inner.len()
    }
    fn __contains__(&self, h: &Bound<'_, PyAny>) -> bool {
        h.extract::<HexArg>()
            .is_ok_and(|h| self.inner.contains(h.0))
    }
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyHexMap>()
            .is_ok_and(|o| o.borrow().inner == self.inner)
    }
    fn __hash__(&self) -> PyResult<isize> {
        Err(PyTypeError::new_err("HexMap is mutable and unhashable"))
    }
    fn copy(&self) -> Self {
        PyHexMap::wrap(self.inner.clone())
    }
    fn __copy__(&self) -> Self {
        self.copy()
    }
    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        self.copy()
    }
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let f = py.get_type::<PyHexMap>().getattr("from_text")?;
        (f, (self.inner.to_text(),)).into_pyobject(py)
    }

    #[getter]
    fn name(&self) -> &str {
        &self.inner.name
    }
    #[setter]
    fn set_name(&mut self, name: String) {
        self.inner.name = name;
    }
    #[getter]
    fn orientation(&self) -> &'static str {
        self.inner.orientation.name()
    }
    /// Terrain kinds: `{name: {"cost": int, "passable": bool, "blocks_sight": bool}}`.
    #[getter]
    fn terrains<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for t in self.inner.terrains() {
            let e = PyDict::new(py);
            e.set_item("cost", t.cost)?;
            e.set_item("passable", t.passable)?;
            e.set_item("blocks_sight", t.blocks_sight)?;
            d.set_item(&t.name, e)?;
        }
        Ok(d)
    }
    /// `(q_min, q_max, r_min, r_max)` of the zones, None for an empty map.
    fn bounds(&self) -> Option<(i32, i32, i32, i32)> {
        self.inner.bounds()
    }
    /// The zones, ordered by r then q.
    fn zones(&self) -> Vec<PyHex> {
        hexes(self.inner.zones().collect())
    }
    /// The zones as an `(N, 2)` int32 array, in `zones()` order.
    fn coords<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<i32>>> {
        hex_array(py, self.inner.zones())
    }
    fn terrain(&self, h: HexArg) -> Option<String> {
        self.inner.terrain(h.0).map(|t| t.name.clone())
    }
    /// Entry cost of a zone; None for void and impassable zones.
    fn cost(&self, h: HexArg) -> Option<u32> {
        self.inner.cost(h.0)
    }
    /// Whether a mover may enter the zone now.
    fn is_open(&self, h: HexArg) -> bool {
        self.inner.is_open(h.0)
    }
    /// Why a mover may not enter: "void", "obstacle", "occupied", or None.
    fn blocker(&self, h: HexArg) -> Option<&'static str> {
        self.inner.blocker(h.0).map(|b| b.kind())
    }
    fn occupant(&self, h: HexArg) -> Option<u32> {
        self.inner.occupant(h.0)
    }
    /// `{(q, r): occupant}` of every occupied zone.
    fn occupants<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (h, o) in self.inner.occupants() {
            d.set_item((h.x, h.y), o)?;
        }
        Ok(d)
    }
    /// Put an occupant (an int id) in a zone, or clear it with None. Occupied zones block
    /// movement.
    #[pyo3(signature = (h, occupant))]
    fn set_occupant(&mut self, h: HexArg, occupant: Option<u32>) -> PyResult<()> {
        self.inner.set_occupant(h.0, occupant).py()
    }
    fn clear_occupants(&mut self) {
        self.inner.clear_occupants();
    }
    /// Change a zone's terrain (its cost becomes the terrain's).
    fn set_terrain(&mut self, h: HexArg, terrain: &str) -> PyResult<()> {
        self.inner.set_terrain(h.0, terrain).py()
    }
    /// Override a passable zone's entry cost.
    fn set_cost(&mut self, h: HexArg, cost: u32) -> PyResult<()> {
        self.inner.set_cost(h.0, cost).py()
    }
    fn tags(&self, h: HexArg) -> Vec<String> {
        self.inner.tags(h.0).into_iter().map(String::from).collect()
    }
    fn has_tag(&self, h: HexArg, tag: &str) -> bool {
        self.inner.has_tag(h.0, tag)
    }
    /// The zones carrying a tag ("start", "privilege", "renown", ...).
    fn tagged(&self, tag: &str) -> Vec<PyHex> {
        hexes(self.inner.tagged(tag))
    }
    fn add_tag(&mut self, h: HexArg, tag: &str) -> PyResult<()> {
        self.inner.add_tag(h.0, tag).py()
    }
    fn remove_tag(&mut self, h: HexArg, tag: &str) -> PyResult<()> {
        self.inner.remove_tag(h.0, tag).py()
    }

    // ---- queries ----

    /// `{(q, r): cost}` for every zone whose cheapest entry-cost sum from `start` is at most
    /// `budget`, `start` included at 0, in order of cost. Zones that are void, impassable or
    /// occupied are never entered (the start zone may hold the mover).
    fn reachable<'py>(
        &self,
        py: Python<'py>,
        start: HexArg,
        budget: i64,
    ) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        let Some(budget) = budget_arg(budget) else {
            self.inner.reachable_cells(start.0, 0).py()?;
            return Ok(d);
        };
        let m = &self.inner;
        let cells = run(py, m.len() > DETACH_ZONES, || {
            m.reachable_cells(start.0, budget)
        })
        .py()?;
        let keys = self.keys(py)?;
        for (c, cost) in cells {
            match keys.get(c).and_then(Option::as_ref) {
                Some(k) => d.set_item(k.bind(py), cost)?,
                None => {
                    let h = m.hex_of(c);
                    d.set_item((h.x, h.y), cost)?;
                }
            }
        }
        Ok(d)
    }

    /// `reachable` as arrays: `(coords (N, 2) int32, costs (N,) int64)`, in order of cost.
    fn reachable_arrays<'py>(
        &self,
        py: Python<'py>,
        start: HexArg,
        budget: i64,
    ) -> PyResult<CoordsAndCosts<'py>> {
        let m = &self.inner;
        let cells = match budget_arg(budget) {
            Some(b) => run(py, m.len() > DETACH_ZONES, || m.reachable_cells(start.0, b)).py()?,
            None => {
                m.reachable_cells(start.0, 0).py()?;
                Vec::new()
            }
        };
        let costs: Vec<i64> = cells.iter().map(|&(_, c)| c as i64).collect();
        let coords = hex_array(
            py,
            cells
                .iter()
                .map(|&(c, _)| m.hex_of(c))
                .collect::<Vec<_>>()
                .into_iter(),
        )?;
        Ok((coords, PyArray1::from_vec(py, costs)))
    }

    /// Cheapest cost from `start` to every zone, aligned with `coords()` (-1: unreachable).
    fn costs_from<'py>(
        &self,
        py: Python<'py>,
        start: HexArg,
    ) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let m = &self.inner;
        let v = run(py, m.len() > DETACH_ZONES, || m.costs_from(start.0)).py()?;
        Ok(PyArray1::from_vec(
            py,
            v.into_iter().map(|c| c.map_or(-1, |c| c as i64)).collect(),
        ))
    }

    /// The cheapest path from `a` to `b` as a list of hexes (both included), or None.
    fn path(&self, py: Python<'_>, a: HexArg, b: HexArg) -> PyResult<Option<Vec<PyHex>>> {
        let m = &self.inner;
        let p = run(py, m.len() > DETACH_ZONES, || m.path(a.0, b.0)).py()?;
        Ok(p.map(|(p, _)| hexes(p)))
    }

    /// The cost of the cheapest path from `a` to `b`, or None.
    fn path_cost(&self, py: Python<'_>, a: HexArg, b: HexArg) -> PyResult<Option<u64>> {
        let m = &self.inner;
        let p = run(py, m.len() > DETACH_ZONES, || m.path(a.0, b.0)).py()?;
        Ok(p.map(|(_, c)| c))
    }

    /// Whether `b` is visible from `a` (sight-blocking terrain, and occupants if asked, stop
    /// sight; void does not).
    #[pyo3(signature = (a, b, occupants_block=false))]
    fn line_of_sight(&self, a: HexArg, b: HexArg, occupants_block: bool) -> bool {
        self.inner.line_of_sight(a.0, b.0, occupants_block)
    }

    /// The zones visible from `origin` within `radius` (None: any distance), in zone order.
    #[pyo3(signature = (origin, radius=None, occupants_block=false))]
    fn field_of_view(
        &self,
        py: Python<'_>,
        origin: HexArg,
        radius: Option<i64>,
        occupants_block: bool,
    ) -> PyResult<Vec<PyHex>> {
        let radius = radius.map(radius_arg).transpose()?;
        let m = &self.inner;
        Ok(hexes(run(py, m.len() > DETACH_ZONES, || {
            m.field_of_view(origin.0, radius, occupants_block)
        })))
    }

    /// The zones of an area shape: "single", "radius", "ring", "line" or "cone" (see
    /// docs/hex.md), void hexes left out.
    #[pyo3(signature = (shape, origin, size=0, direction=0))]
    fn area(&self, shape: &str, origin: HexArg, size: i64, direction: i64) -> PyResult<Vec<PyHex>> {
        Ok(hexes(
            self.inner
                .area(origin.0, shape_arg(shape, size, direction)?),
        ))
    }

    /// Move `target`'s occupant up to `steps` zones in `direction`, stopping at the first zone
    /// it cannot enter (the collision).
    fn forced_move(&self, target: HexArg, direction: i64, steps: i64) -> PyResult<PyForcedMove> {
        Ok(self
            .inner
            .forced_move(target.0, dir_arg(direction), radius_arg(steps)?)
            .into())
    }

    /// Push `target` directly away from `source` along their common axis.
    fn push(&self, source: HexArg, target: HexArg, steps: i64) -> PyResult<PyForcedMove> {
        Ok(self
            .inner
            .push(source.0, target.0, radius_arg(steps)?)
            .py()?
            .into())
    }

    /// Pull `target` toward `source` along their common axis (the source's zone collides).
    fn pull(&self, source: HexArg, target: HexArg, steps: i64) -> PyResult<PyForcedMove> {
        Ok(self
            .inner
            .pull(source.0, target.0, radius_arg(steps)?)
            .py()?
            .into())
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyHex>()?;
    m.add_class::<PyHexMap>()?;
    m.add_class::<PyForcedMove>()?;
    // `kingdoms.hex.Layout`; on the shared extension module under a prefixed name.
    m.add("HexLayout", m.py().get_type::<PyLayout>())?;
    m.add_function(wrap_pyfunction!(distance, m)?)?;
    m.add_function(wrap_pyfunction!(line, m)?)?;
    m.add_function(wrap_pyfunction!(direction, m)?)?;
    m.add_function(wrap_pyfunction!(opposite, m)?)?;
    m.add_function(wrap_pyfunction!(direction_to, m)?)?;
    m.add_function(wrap_pyfunction!(neighbors, m)?)?;
    m.add_function(wrap_pyfunction!(ring, m)?)?;
    m.add_function(wrap_pyfunction!(spiral, m)?)?;
    m.add_function(wrap_pyfunction!(range, m)?)?;
    m.add_function(wrap_pyfunction!(axis_line, m)?)?;
    m.add_function(wrap_pyfunction!(area, m)?)?;
    m.add_function(wrap_pyfunction!(distances, m)?)?;
    m.add_function(wrap_pyfunction!(range_array, m)?)?;
    m.add_function(wrap_pyfunction!(ring_array, m)?)?;
    m.add_function(wrap_pyfunction!(spiral_array, m)?)?;
    Ok(())
}
