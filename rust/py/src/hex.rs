//! `kingdoms.hex`: hex coordinates, layouts and maps. Every argument that takes a hex takes a
//! `Hex` or a plain `(q, r)` tuple. Functions are registered with a `hex_` prefix on the
//! extension and re-exported without it by `python/kingdoms/hex.py`.
#![deny(clippy::indexing_slicing)]

use kingdoms_core::hex::limits::{self, short, MAX_COORD, MAX_LENGTH};
use kingdoms_core::hex::{
    coords, Axis, Collision, ForcedMove, Hex, HexMap, Layout, Orientation, Parity, Shape,
};
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::exceptions::{PyIndexError, PyOverflowError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple, PyType};

pub use crate::args::{text, Text};
use crate::errors::{DataError, IntoPy, KingdomsError};

/// Maps bigger than this release the GIL while they search.
const DETACH_ZONES: usize = 4096;

// ---- arguments ---------------------------------------------------------------------------

/// An int argument of any size: PyO3's own `i64` extraction raises `OverflowError` for big or
/// (into unsigned types) negative ints; this keeps them so the range check can name the
/// argument and its range. A non-int still raises PyO3's `TypeError` naming the argument.
#[derive(Clone, Copy)]
pub enum Int {
    Fit(i64),
    /// An int outside `i64`: `true` if positive.
    Huge(bool),
}

impl<'a, 'py> FromPyObject<'a, 'py> for Int {
    type Error = PyErr;
    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        match obj.extract::<i64>() {
            Ok(v) => Ok(Int::Fit(v)),
            Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => Ok(Int::Huge(obj.gt(0)?)),
            Err(e) => Err(e),
        }
    }
}

impl Int {
    /// The value, saturated to `i64` (a huge int is outside every range we check).
    fn saturated(self) -> i64 {
        match self {
            Int::Fit(v) => v,
            Int::Huge(true) => i64::MAX,
            Int::Huge(false) => i64::MIN,
        }
    }
}

/// `value` in `0..=max`, or a `KingdomsError` naming the argument and its range.
fn count_arg(value: Int, max: i64, name: &str) -> PyResult<u32> {
    match value {
        Int::Fit(v) => limits::count(v, max, name).py(),
        Int::Huge(_) => Err(kingdoms_core::Error::Argument {
            name: name.into(),
            message: format!("is not in 0..={max}"),
        })
        .py(),
    }
}

/// A coordinate pair from ints of any size, range-checked.
fn hex_arg(q: Int, r: Int, what: &str) -> PyResult<Hex> {
    limits::hex(q.saturated(), r.saturated(), what).py()
}

fn check(h: Hex, what: &str) -> PyResult<Hex> {
    limits::check_hex(h, what).py()
}

/// A short `repr` of a Python object for an error message.
fn short_repr(obj: &Bound<'_, PyAny>) -> String {
    obj.repr()
        .map(|r| short(&r.to_string_lossy()))
        .unwrap_or_else(|_| "<unprintable>".into())
}

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
                if let (Ok(q), Ok(r)) = (
                    t.get_item(0)?.extract::<Int>(),
                    t.get_item(1)?.extract::<Int>(),
                ) {
                    return Ok(HexArg(hex_arg(q, r, "hex")?));
                }
            }
        }
        Err(PyTypeError::new_err(format!(
            "expected a Hex or a (q, r) tuple of ints, got {}",
            short_repr(&obj.to_owned())
        )))
    }
}

fn hexes(v: Vec<Hex>) -> Vec<PyHex> {
    v.into_iter().map(PyHex::from).collect()
}

/// A direction, taken modulo 6 (any int that fits in 64 bits).
fn dir_arg(direction: Int) -> PyResult<usize> {
    match direction {
        Int::Fit(d) => Ok(d.rem_euclid(6) as usize),
        Int::Huge(_) => Err(KingdomsError::new_err(
            "direction must be an int in -2**63..2**63 (it is taken modulo 6)",
        )),
    }
}

fn orientation_arg(o: &str) -> PyResult<Orientation> {
    Orientation::parse(o).ok_or_else(|| {
        KingdomsError::new_err(format!(
            "orientation {}: expected \"pointy\" or \"flat\"",
            limits::quoted(o)
        ))
    })
}

fn parity_arg(p: &str) -> PyResult<Parity> {
    Parity::parse(p).ok_or_else(|| {
        KingdomsError::new_err(format!(
            "parity {}: expected \"odd\" or \"even\"",
            limits::quoted(p)
        ))
    })
}

fn axis_arg(a: &str) -> PyResult<Axis> {
    Axis::parse(a).ok_or_else(|| {
        KingdomsError::new_err(format!(
            "axis {}: expected \"q\", \"r\" or \"s\"",
            limits::quoted(a)
        ))
    })
}

/// The radius of a filled shape (range, spiral) around `center`.
fn radius_arg(center: Hex, radius: Int) -> PyResult<u32> {
    let r = count_arg(radius, limits::MAX_RADIUS, "radius")?;
    limits::check_reach(center, r, "radius").py()?;
    Ok(r)
}

/// A ring radius or line length around `center`.
fn length_arg(center: Hex, length: Int, name: &str) -> PyResult<u32> {
    let r = count_arg(length, MAX_LENGTH, name)?;
    limits::check_reach(center, r, name).py()?;
    Ok(r)
}

fn shape_arg(shape: &str, origin: Hex, size: Int, direction: Int) -> PyResult<Shape> {
    let d = dir_arg(direction);
    Ok(match shape {
        "single" => Shape::Single,
        "radius" => Shape::Radius(radius_arg(origin, size)?),
        "ring" => Shape::Ring(length_arg(origin, size, "size")?),
        "line" => Shape::Line {
            direction: d?,
            length: length_arg(origin, size, "size")?,
        },
        "cone" => Shape::Cone {
            direction: d?,
            length: radius_arg(origin, size)?,
        },
        _ => {
            return Err(KingdomsError::new_err(format!(
                "shape {}: expected \"single\", \"radius\", \"ring\", \"line\" or \"cone\"",
                limits::quoted(shape)
            )))
        }
    })
}

// PyO3 methods take `&self`; the `to_*` names are Python's.
#[allow(clippy::wrong_self_convention)]
#[pymethods]
impl PyHex {
    #[new]
    fn new(q: Int, r: Int) -> PyResult<Self> {
        Ok(hex_arg(q, r, "Hex")?.into())
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
    // Arithmetic is exact: a result outside the coordinate range is an error, never a wrap.
    fn __add__(&self, other: HexArg) -> PyResult<PyHex> {
        let (a, b) = (self.hex(), other.0);
        Ok(
            limits::hex(a.x as i64 + b.x as i64, a.y as i64 + b.y as i64, "the sum")
                .py()?
                .into(),
        )
    }
    fn __radd__(&self, other: HexArg) -> PyResult<PyHex> {
        self.__add__(other)
    }
    fn __sub__(&self, other: HexArg) -> PyResult<PyHex> {
        let (a, b) = (self.hex(), other.0);
        Ok(limits::hex(
            a.x as i64 - b.x as i64,
            a.y as i64 - b.y as i64,
            "the difference",
        )
        .py()?
        .into())
    }
    fn __rsub__(&self, other: HexArg) -> PyResult<PyHex> {
        let (a, b) = (other.0, self.hex());
        Ok(limits::hex(
            a.x as i64 - b.x as i64,
            a.y as i64 - b.y as i64,
            "the difference",
        )
        .py()?
        .into())
    }
    fn __neg__(&self) -> PyHex {
        // The coordinate range is symmetric.
        (-self.hex()).into()
    }
    fn __mul__(&self, k: Int) -> PyResult<PyHex> {
        let k = match k {
            Int::Fit(k) => k as i128,
            Int::Huge(_) if self.q == 0 && self.r == 0 => 0,
            Int::Huge(_) => {
                return Err(KingdomsError::new_err(
                    "the product is outside the coordinate range",
                ))
            }
        };
        Ok(
            limits::hex_wide(self.q as i128 * k, self.r as i128 * k, "the product")
                .py()?
                .into(),
        )
    }
    fn __rmul__(&self, k: Int) -> PyResult<PyHex> {
        self.__mul__(k)
    }
    /// The tuple `(q, r)`.
    fn to_tuple(&self) -> (i32, i32) {
        (self.q, self.r)
    }
    fn distance(&self, other: HexArg) -> u32 {
        coords::distance(self.hex(), other.0)
    }
    fn neighbor(&self, direction: Int) -> PyResult<PyHex> {
        Ok(check(
            coords::neighbor(self.hex(), dir_arg(direction)?),
            "the neighbour",
        )?
        .into())
    }
    fn neighbors(&self) -> PyResult<Vec<PyHex>> {
        neighbors(HexArg(self.hex()))
    }
    fn diagonals(&self) -> PyResult<Vec<PyHex>> {
        limits::check_reach(self.hex(), 2, "a diagonal").py()?;
        Ok(hexes(coords::diagonals(self.hex()).to_vec()))
    }
    fn ring(&self, radius: Int) -> PyResult<Vec<PyHex>> {
        ring(HexArg(self.hex()), radius)
    }
    fn spiral(&self, radius: Int) -> PyResult<Vec<PyHex>> {
        spiral(HexArg(self.hex()), radius)
    }
    fn range(&self, radius: Int) -> PyResult<Vec<PyHex>> {
        range(HexArg(self.hex()), radius)
    }
    fn line_to(&self, other: HexArg) -> PyResult<Vec<PyHex>> {
        line(HexArg(self.hex()), other)
    }
    #[pyo3(signature = (steps, center=HexArg(Hex::ZERO)))]
    fn rotate(&self, steps: Int, center: HexArg) -> PyResult<PyHex> {
        let steps = match steps {
            Int::Fit(s) => s.rem_euclid(6) as i32,
            Int::Huge(_) => {
                return Err(KingdomsError::new_err(
                    "steps must be an int in -2**63..2**63 (it is taken modulo 6)",
                ))
            }
        };
        // Differences of in-range hexes and their rotations fit in i32; the result is checked.
        Ok(check(
            coords::rotate(self.hex(), center.0, steps),
            "the rotated hex",
        )?
        .into())
    }
    #[pyo3(signature = (axis, center=HexArg(Hex::ZERO)))]
    fn reflect(&self, axis: Text, center: HexArg) -> PyResult<PyHex> {
        Ok(check(
            coords::reflect(self.hex(), center.0, axis_arg(&axis)?),
            "the reflected hex",
        )?
        .into())
    }
    fn direction_to(&self, other: HexArg) -> Option<usize> {
        coords::axis_direction(self.hex(), other.0)
    }
    fn to_cube(&self) -> (i32, i32, i32) {
        let [q, r, s] = coords::to_cube(self.hex());
        (q, r, s)
    }
    #[pyo3(signature = (orientation=text("pointy"), parity=text("odd")))]
    #[pyo3(text_signature = "($self, orientation='pointy', parity='odd')")]
    fn to_offset(&self, orientation: Text, parity: Text) -> PyResult<(i32, i32)> {
        let [c, r] = coords::to_offset(
            self.hex(),
            orientation_arg(&orientation)?,
            parity_arg(&parity)?,
        );
        Ok((c, r))
    }
    #[pyo3(signature = (orientation=text("pointy")))]
    #[pyo3(text_signature = "($self, orientation='pointy')")]
    fn to_doubled(&self, orientation: Text) -> PyResult<(i32, i32)> {
        let [c, r] = coords::to_doubled(self.hex(), orientation_arg(&orientation)?);
        Ok((c, r))
    }
    #[classmethod]
    fn from_cube(_cls: &Bound<'_, PyType>, q: Int, r: Int, s: Int) -> PyResult<PyHex> {
        let (q, r, s) = (q.saturated(), r.saturated(), s.saturated());
        if q as i128 + r as i128 + s as i128 != 0 {
            return Err(KingdomsError::new_err(format!(
                "cube ({q}, {r}, {s}) does not sum to 0"
            )));
        }
        Ok(limits::hex(q, r, "cube").py()?.into())
    }
    #[classmethod]
    #[pyo3(signature = (col, row, orientation=text("pointy"), parity=text("odd")))]
    #[pyo3(text_signature = "($cls, col, row, orientation='pointy', parity='odd')")]
    fn from_offset(
        _cls: &Bound<'_, PyType>,
        col: Int,
        row: Int,
        orientation: Text,
        parity: Text,
    ) -> PyResult<PyHex> {
        let [col, row] = offset_arg(col, row)?;
        let h = coords::from_offset(
            [col, row],
            orientation_arg(&orientation)?,
            parity_arg(&parity)?,
        );
        Ok(check(h, "the hex")?.into())
    }
    #[classmethod]
    #[pyo3(signature = (col, row, orientation=text("pointy")))]
    #[pyo3(text_signature = "($cls, col, row, orientation='pointy')")]
    fn from_doubled(
        _cls: &Bound<'_, PyType>,
        col: Int,
        row: Int,
        orientation: Text,
    ) -> PyResult<PyHex> {
        // In i64: (col - row) / 2 of two ints near i32's limits would overflow `hexx`'s i32.
        let (col, row) = (col.saturated() as i128, row.saturated() as i128);
        if (col + row) % 2 != 0 {
            return Err(KingdomsError::new_err(format!(
                "doubled ({col}, {row}): col + row must be even"
            )));
        }
        let (q, r) = match orientation_arg(&orientation)? {
            Orientation::Pointy => ((col - row) / 2, row),
            Orientation::Flat => (col, (row - col) / 2),
        };
        Ok(limits::hex_wide(q, r, "doubled").py()?.into())
    }
}

/// Offset `(col, row)` within `±2 * MAX_COORD`: every in-range hex has such coordinates, and
/// `hexx`'s `i32` conversion cannot overflow on them.
fn offset_arg(col: Int, row: Int) -> PyResult<[i32; 2]> {
    let lim = 2 * MAX_COORD;
    match (col, row) {
        (Int::Fit(c), Int::Fit(r)) if c.abs() <= lim && r.abs() <= lim => Ok([c as i32, r as i32]),
        _ => Err(KingdomsError::new_err(format!(
            "offset coordinates must be in -{lim}..={lim}"
        ))),
    }
}

// ---- module functions --------------------------------------------------------------------

/// Hex distance between two hexes.
#[pyfunction(name = "hex_distance")]
fn distance(a: HexArg, b: HexArg) -> u32 {
    coords::distance(a.0, b.0)
}

/// The straight line of hexes from `a` to `b`, both included (at most `MAX_LENGTH` steps).
#[pyfunction(name = "hex_line")]
fn line(a: HexArg, b: HexArg) -> PyResult<Vec<PyHex>> {
    limits::check_line(a.0, b.0).py()?;
    Ok(hexes(coords::line(a.0, b.0)))
}

/// The unit vector of a direction (0..5, taken modulo 6).
#[pyfunction(name = "hex_direction")]
fn direction(direction: Int) -> PyResult<PyHex> {
    Ok(coords::direction(dir_arg(direction)?).into())
}

#[pyfunction(name = "hex_opposite")]
fn opposite(direction: Int) -> PyResult<usize> {
    Ok(coords::opposite(dir_arg(direction)?))
}

/// The direction along which `b` lies on an axis line from `a`, or None.
#[pyfunction(name = "hex_direction_to")]
fn direction_to(a: HexArg, b: HexArg) -> Option<usize> {
    coords::axis_direction(a.0, b.0)
}

#[pyfunction(name = "hex_neighbors")]
fn neighbors(h: HexArg) -> PyResult<Vec<PyHex>> {
    limits::check_reach(h.0, 1, "a neighbour").py()?;
    Ok(hexes(coords::neighbors(h.0).to_vec()))
}

#[pyfunction(name = "hex_ring")]
fn ring(center: HexArg, radius: Int) -> PyResult<Vec<PyHex>> {
    Ok(hexes(coords::ring(
        center.0,
        length_arg(center.0, radius, "radius")?,
    )))
}

#[pyfunction(name = "hex_spiral")]
fn spiral(center: HexArg, radius: Int) -> PyResult<Vec<PyHex>> {
    Ok(hexes(coords::spiral(
        center.0,
        radius_arg(center.0, radius)?,
    )))
}

#[pyfunction(name = "hex_range")]
fn range(center: HexArg, radius: Int) -> PyResult<Vec<PyHex>> {
    Ok(hexes(coords::range(
        center.0,
        radius_arg(center.0, radius)?,
    )))
}

/// The straight axis line from `origin` in `direction`: `length` hexes, origin excluded.
#[pyfunction(name = "hex_axis_line")]
fn axis_line(origin: HexArg, direction: Int, length: Int) -> PyResult<Vec<PyHex>> {
    Ok(hexes(coords::axis_line(
        origin.0,
        dir_arg(direction)?,
        length_arg(origin.0, length, "length")?,
    )))
}

/// The hexes of an area shape around `origin` (geometry only).
#[pyfunction(name = "hex_area")]
#[pyo3(signature = (shape, origin, size=Int::Fit(0), direction=Int::Fit(0)))]
#[pyo3(text_signature = "(shape, origin, size=0, direction=0)")]
fn area(shape: Text, origin: HexArg, size: Int, direction: Int) -> PyResult<Vec<PyHex>> {
    Ok(hexes(
        shape_arg(&shape, origin.0, size, direction)?.hexes(origin.0),
    ))
}

/// The rows of a flat row-major `(N, 2)` array as `(first, second)` pairs.
fn pairs<T: Copy>(flat: &[T]) -> impl Iterator<Item = (T, T)> + '_ {
    flat.iter()
        .copied()
        .step_by(2)
        .zip(flat.iter().copied().skip(1).step_by(2))
}

/// An `(N, 2)` int64 array of `(q, r)` from an array-like of ints: integer arrays (any
/// width) whose values are in the coordinate range; floats, complex, objects and bools are
/// refused (no silent truncation or wrap-around), except an empty sequence.
fn coords_array<'py>(obj: &Bound<'py, PyAny>, name: &str) -> PyResult<PyReadonlyArray2<'py, i64>> {
    let py = obj.py();
    let np = py.import("numpy")?;
    let a = np.call_method1("asarray", (obj,))?;
    let size: usize = a.getattr("size")?.extract()?;
    let kind: String = a.getattr("dtype")?.getattr("kind")?.extract()?;
    let a = if size == 0 {
        np.call_method1("zeros", ((0, 2), "int64"))?
    } else if kind == "i" || kind == "u" {
        // Range-check in the array's own dtype before any conversion can wrap.
        let lo = a.call_method0("min")?.lt(-MAX_COORD)?;
        let hi = a.call_method0("max")?.gt(MAX_COORD)?;
        if lo || hi {
            return Err(KingdomsError::new_err(format!(
                "{name}: coordinates must be in -{MAX_COORD}..={MAX_COORD}"
            )));
        }
        np.call_method1("ascontiguousarray", (a, "int64"))?
    } else {
        return Err(PyTypeError::new_err(format!(
            "{name}: expected an (N, 2) array of int (q, r) coordinates, got dtype {}",
            short(&a.getattr("dtype")?.str()?.to_string_lossy())
        )));
    };
    let a: PyReadonlyArray2<'py, i64> = a.extract().map_err(|_| {
        KingdomsError::new_err(format!(
            "{name}: expected an (N, 2) array of (q, r) coordinates"
        ))
    })?;
    if a.shape().get(1) != Some(&2) {
        return Err(KingdomsError::new_err(format!(
            "{name}: expected an (N, 2) array of (q, r) coordinates, got shape {:?}",
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

/// Distances from `a` to each row `(q, r)` of an `(N, 2)` int array (int64 array of N).
#[pyfunction(name = "hex_distances")]
fn distances<'py>(
    py: Python<'py>,
    a: HexArg,
    others: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyArray1<i64>>> {
    let arr = coords_array(others, "others")?;
    let s = arr.as_slice()?;
    let (aq, ar) = (a.0.x as i64, a.0.y as i64);
    // Coordinates are within MAX_COORD, so no sum here overflows.
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
    radius: Int,
) -> PyResult<Bound<'py, PyArray2<i32>>> {
    let r = radius_arg(center.0, radius)?;
    hex_array(py, coords::range(center.0, r).into_iter())
}

/// The ring at `radius` as an `(N, 2)` int32 array.
#[pyfunction(name = "hex_ring_array")]
fn ring_array<'py>(
    py: Python<'py>,
    center: HexArg,
    radius: Int,
) -> PyResult<Bound<'py, PyArray2<i32>>> {
    let r = length_arg(center.0, radius, "radius")?;
    hex_array(py, coords::ring(center.0, r).into_iter())
}

/// Rings 0..=radius as an `(N, 2)` int32 array.
#[pyfunction(name = "hex_spiral_array")]
fn spiral_array<'py>(
    py: Python<'py>,
    center: HexArg,
    radius: Int,
) -> PyResult<Bound<'py, PyArray2<i32>>> {
    let r = radius_arg(center.0, radius)?;
    hex_array(py, coords::spiral(center.0, r).into_iter())
}

// ---- Layout ------------------------------------------------------------------------------

/// Hex ↔ pixel conversion (y axis down, as in images). `size` is centre-to-corner, one
/// number or `(sx, sy)`; `origin` is the pixel of hex (0, 0)'s centre.
#[pyclass(frozen, module = "kingdoms.hex", name = "Layout")]
pub struct PyLayout {
    inner: Layout,
}

/// A layout size: one number or a pair. Not `#[derive(FromPyObject)]` on an enum, whose
/// error lists PyO3's variant names.
pub struct Size(f64, f64);

impl<'a, 'py> FromPyObject<'a, 'py> for Size {
    type Error = PyErr;
    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if let Ok(s) = obj.extract::<f64>() {
            return Ok(Size(s, s));
        }
        if let Ok((x, y)) = obj.extract::<(f64, f64)>() {
            return Ok(Size(x, y));
        }
        Err(PyTypeError::new_err(format!(
            "size must be a number or a (sx, sy) pair of numbers, got {}",
            short_repr(&obj.to_owned())
        )))
    }
}

/// A layout origin: an `(x, y)` pair of numbers (`TypeError` otherwise, not PyO3's
/// `ValueError` for a tuple of the wrong length).
pub struct Point(f64, f64);

impl<'a, 'py> FromPyObject<'a, 'py> for Point {
    type Error = PyErr;
    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        obj.extract::<(f64, f64)>()
            .map(|(x, y)| Point(x, y))
            .map_err(|_| {
                PyTypeError::new_err(format!(
                    "origin must be an (x, y) pair of numbers, got {}",
                    short_repr(&obj.to_owned())
                ))
            })
    }
}

/// The hex of fractional axial coordinates, refusing NaN, infinities and hexes outside the
/// coordinate range (instead of rounding them to some hex).
fn round_arg(q: f64, r: f64) -> PyResult<Hex> {
    let lim = MAX_COORD as f64;
    if !(q.is_finite() && r.is_finite() && q.abs() <= lim && r.abs() <= lim) {
        return Err(KingdomsError::new_err(format!(
            "the point is at fractional hex ({q:e}, {r:e}): outside the coordinate range (|q|, |r|, |s| <= {MAX_COORD}) or not finite"
        )));
    }
    check(
        kingdoms_core::hex::layout::round(q, r),
        "the hex at the point",
    )
}

#[pymethods]
impl PyLayout {
    #[new]
    #[pyo3(signature = (orientation=text("pointy"), size=Size(1.0, 1.0), origin=Point(0.0, 0.0)))]
    #[pyo3(text_signature = "(orientation='pointy', size=1.0, origin=(0.0, 0.0))")]
    fn new(orientation: Text, size: Size, origin: Point) -> PyResult<Self> {
        let origin = (origin.0, origin.1);
        let size = (size.0, size.1);
        if !(size.0.is_finite() && size.1.is_finite() && size.0 != 0.0 && size.1 != 0.0) {
            return Err(KingdomsError::new_err(
                "layout size must be finite and non-zero",
            ));
        }
        if !(origin.0.is_finite() && origin.1.is_finite()) {
            return Err(KingdomsError::new_err("layout origin must be finite"));
        }
        Ok(PyLayout {
            inner: Layout::new(orientation_arg(&orientation)?, size, origin),
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
    fn to_hex(&self, x: f64, y: f64) -> PyResult<PyHex> {
        let (q, r) = self.inner.fractional(x, y);
        Ok(round_arg(q, r)?.into())
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
        let arr = coords_array(hexes, "hexes")?;
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
        let a = np.call_method1("asarray", (points,))?;
        let kind: String = a.getattr("dtype")?.getattr("kind")?.extract()?;
        let size: usize = a.getattr("size")?.extract()?;
        let a = if size == 0 {
            np.call_method1("zeros", ((0, 2), "float64"))?
        } else if kind == "i" || kind == "u" || kind == "f" {
            np.call_method1("ascontiguousarray", (a, "float64"))?
        } else {
            return Err(PyTypeError::new_err(format!(
                "points: expected an (N, 2) array of real (x, y) points, got dtype {}",
                short(&a.getattr("dtype")?.str()?.to_string_lossy())
            )));
        };
        let a: PyReadonlyArray2<'py, f64> = a.extract().map_err(|_| {
            KingdomsError::new_err("points: expected an (N, 2) array of (x, y) points")
        })?;
        if a.shape().get(1) != Some(&2) {
            return Err(KingdomsError::new_err(
                "points: expected an (N, 2) array of (x, y) points",
            ));
        }
        let s = a.as_slice()?;
        let v = pairs(s)
            .map(|(x, y)| {
                let (q, r) = self.inner.fractional(x, y);
                round_arg(q, r)
            })
            .collect::<PyResult<Vec<_>>>()?;
        hex_array(py, v.into_iter())
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

/// The steps of a forced move. A move stops at the map's edge (void), so the walk never
/// leaves the coordinate range.
fn steps_arg(steps: Int) -> PyResult<u32> {
    count_arg(steps, MAX_LENGTH, "steps")
}

/// `(coords (N, 2) int32, costs (N,) int64)`.
type CoordsAndCosts<'py> = (Bound<'py, PyArray2<i32>>, Bound<'py, PyArray1<i64>>);

/// A movement budget: `None` for a negative one (nothing is reachable), saturated above.
fn budget_arg(budget: Int) -> Option<u64> {
    match budget {
        Int::Fit(b) => u64::try_from(b).ok(),
        Int::Huge(positive) => positive.then_some(u64::MAX),
    }
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
            Err(_) if cells.hasattr("items")? => cells.call_method0("items")?,
            Err(_) => {
                return Err(PyTypeError::new_err(format!(
                    "cells must be a mapping {{(q, r): entry cost or None}}, got {}",
                    short(&cells.get_type().name()?.to_string_lossy())
                )))
            }
        };
        for item in items.try_iter()? {
            let (k, v): (Bound<'_, PyAny>, Bound<'_, PyAny>) = item?
                .extract()
                .map_err(|_| PyTypeError::new_err("cells.items() must give (key, value) pairs"))?;
            let h = k.extract::<HexArg>()?.0;
            let cost = if v.is_none() {
                None
            } else {
                let c: i64 = v.extract::<Int>().map(Int::saturated).map_err(|_| {
                    DataError::new_err(format!(
                        "bad data in cells[({}, {})]: entry cost must be an int >= 1 or None, got {}",
                        h.x, h.y, short_repr(&v)
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
    #[pyo3(signature = (text, source=self::text("<text>")))]
    #[pyo3(text_signature = "($cls, text, source='<text>')")]
    fn from_text(_cls: &Bound<'_, PyType>, text: Text, source: Text) -> PyResult<Self> {
        Ok(PyHexMap::wrap(
            kingdoms_core::hex::text::parse(&text, &source).py()?,
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
    fn to_text(&self) -> PyResult<String> {
        self.inner.to_text().py()
    }

    fn save(&self, path: std::path::PathBuf) -> PyResult<()> {
        std::fs::write(path, self.inner.to_text().py()?)?;
        Ok(())
    }

    /// The ASCII picture (occupied zones drawn as `@`).
    fn render(&self) -> PyResult<String> {
        self.inner.render().py()
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
    ) -> PyResult<Py<PyAny>> {
        let kwargs = PyDict::new(slf.py());
        kwargs.set_item("highlight", highlight)?;
        kwargs.set_item("path", path)?;
        kwargs.set_item("labels", labels)?;
        kwargs.set_item("coordinates", coordinates)?;
        kwargs.set_item("size", size)?;
        // a str subclass that notebooks display as the picture (kingdoms._svg.SvgWrapper)
        Ok(crate::pictures::function(slf.py(), "hexmap_svg")?
            .call((slf,), Some(&kwargs))?
            .unbind())
    }
    fn _repr_svg_(slf: &Bound<'_, Self>) -> PyResult<String> {
        crate::pictures::function(slf.py(), "hexmap_svg")?
            .call1((slf,))?
            .extract()
    }
    fn __str__(&self) -> PyResult<String> {
        self.inner.render().py()
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
        (f, (self.inner.to_text().py()?,)).into_pyobject(py)
    }

    #[getter]
    fn name(&self) -> &str {
        &self.inner.name
    }
    #[setter]
    fn set_name(&mut self, name: Text) -> PyResult<()> {
        self.inner.set_name(&name.into_string()).py()
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
    fn set_occupant(&mut self, h: HexArg, occupant: Option<Int>) -> PyResult<()> {
        let occupant = occupant
            .map(|o| count_arg(o, u32::MAX as i64 - 1, "occupant"))
            .transpose()?;
        self.inner.set_occupant(h.0, occupant).py()
    }
    fn clear_occupants(&mut self) {
        self.inner.clear_occupants();
    }
    /// Change a zone's terrain (its cost becomes the terrain's).
    fn set_terrain(&mut self, h: HexArg, terrain: Text) -> PyResult<()> {
        self.inner.set_terrain(h.0, &terrain).py()
    }
    /// Override a passable zone's entry cost.
    fn set_cost(&mut self, h: HexArg, cost: Int) -> PyResult<()> {
        let max = kingdoms_core::hex::map::MAX_COST as i64;
        let cost = match cost {
            Int::Fit(c) if (1..=max).contains(&c) => c as u32,
            _ => {
                return Err(KingdomsError::new_err(format!(
                    "cost {} is not in 1..={max}",
                    cost.saturated()
                )))
            }
        };
        self.inner.set_cost(h.0, cost).py()
    }
    fn tags(&self, h: HexArg) -> Vec<String> {
        self.inner.tags(h.0).into_iter().map(String::from).collect()
    }
    fn has_tag(&self, h: HexArg, tag: Text) -> bool {
        self.inner.has_tag(h.0, &tag)
    }
    /// The zones carrying a tag ("start", "privilege", "renown", ...).
    fn tagged(&self, tag: Text) -> Vec<PyHex> {
        hexes(self.inner.tagged(&tag))
    }
    fn add_tag(&mut self, h: HexArg, tag: Text) -> PyResult<()> {
        self.inner.add_tag(h.0, &tag).py()
    }
    fn remove_tag(&mut self, h: HexArg, tag: Text) -> PyResult<()> {
        self.inner.remove_tag(h.0, &tag).py()
    }

    // ---- queries ----

    /// `{(q, r): cost}` for every zone whose cheapest entry-cost sum from `start` is at most
    /// `budget`, `start` included at 0, in order of cost. Zones that are void, impassable or
    /// occupied are never entered (the start zone may hold the mover).
    fn reachable<'py>(
        &self,
        py: Python<'py>,
        start: HexArg,
        budget: Int,
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
        budget: Int,
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
        radius: Option<Int>,
        occupants_block: bool,
    ) -> PyResult<Vec<PyHex>> {
        // The radius only filters: any distance between two hexes is allowed.
        let radius = radius
            .map(|r| count_arg(r, 4 * MAX_COORD, "radius"))
            .transpose()?;
        let m = &self.inner;
        // Long traces stop at Ctrl-C: the check reattaches to the interpreter between chunks.
        let mut interrupted: Option<PyErr> = None;
        let seen = run(py, m.len() > DETACH_ZONES, || {
            m.field_of_view_checked(origin.0, radius, occupants_block, || {
                Python::attach(|py| py.check_signals()).map_err(|e| {
                    interrupted = Some(e);
                    kingdoms_core::Error::invalid("interrupted")
                })
            })
        });
        if let Some(e) = interrupted {
            return Err(e);
        }
        Ok(hexes(seen.py()?))
    }

    /// The zones of an area shape: "single", "radius", "ring", "line" or "cone" (see
    /// docs/hex.md), void hexes left out.
    #[pyo3(signature = (shape, origin, size=Int::Fit(0), direction=Int::Fit(0)))]
    #[pyo3(text_signature = "($self, shape, origin, size=0, direction=0)")]
    fn area(&self, shape: Text, origin: HexArg, size: Int, direction: Int) -> PyResult<Vec<PyHex>> {
        Ok(hexes(self.inner.area(
            origin.0,
            shape_arg(&shape, origin.0, size, direction)?,
        )))
    }

    /// Move `target`'s occupant up to `steps` zones in `direction`, stopping at the first zone
    /// it cannot enter (the collision).
    fn forced_move(&self, target: HexArg, direction: Int, steps: Int) -> PyResult<PyForcedMove> {
        Ok(self
            .inner
            .forced_move(target.0, dir_arg(direction)?, steps_arg(steps)?)
            .into())
    }

    /// Push `target` directly away from `source` along their common axis.
    fn push(&self, source: HexArg, target: HexArg, steps: Int) -> PyResult<PyForcedMove> {
        Ok(self
            .inner
            .push(source.0, target.0, steps_arg(steps)?)
            .py()?
            .into())
    }

    /// Pull `target` toward `source` along their common axis (the source's zone collides).
    fn pull(&self, source: HexArg, target: HexArg, steps: Int) -> PyResult<PyForcedMove> {
        Ok(self
            .inner
            .pull(source.0, target.0, steps_arg(steps)?)
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
