//! Pictures (SVG of games and maps, HTML tables, rating plots) are drawn in Python by
//! `kingdoms._svg` from the objects' public data (`to_dict()`, `view(p)`, map accessors), with
//! a drawing library rather than in Rust; the classes' `svg`, `_repr_svg_`, `_repr_html_` and
//! `plot` methods are one call each into that module.
#![deny(clippy::indexing_slicing)]

use pyo3::prelude::*;

/// The drawing function `name` of `kingdoms._svg`.
pub fn function<'py>(py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
    py.import("kingdoms._svg")?.getattr(name)
}
