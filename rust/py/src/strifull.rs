//! STRIFULL's extra functions: loading and validating card sets, and the embedded
//! reference set's files (the format users copy to enter their own cards).
#![deny(clippy::indexing_slicing)]

use kingdoms_core::strifull::content::{CardSet, REFERENCE_FILES};
use pyo3::prelude::*;
use std::collections::BTreeMap;

use crate::errors::IntoPy;
use crate::json;

/// Load and validate a STRIFULL card set — a TOML file or a directory of them
/// (`cards_file`), TOML text (`cards_toml`), or neither for the reference set — and return
/// it as a dict: `factions`, `brigades`, `troops`, `leaders`. Raises `DataError` naming
/// file, card and field when the data is invalid.
#[pyfunction]
#[pyo3(signature = (cards_file=None, cards_toml=None))]
fn strifull_card_set<'py>(
    py: Python<'py>,
    cards_file: Option<&str>,
    cards_toml: Option<&str>,
) -> PyResult<Bound<'py, PyAny>> {
    let set = py.detach(|| CardSet::load(cards_file, cards_toml)).py()?;
    json::to_py(py, &set.to_json())
}

/// The reference card set's TOML files, by file name.
#[pyfunction]
fn strifull_reference_files() -> BTreeMap<&'static str, &'static str> {
    REFERENCE_FILES.iter().copied().collect()
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(strifull_card_set, m)?)?;
    m.add_function(wrap_pyfunction!(strifull_reference_files, m)?)?;
    Ok(())
}
