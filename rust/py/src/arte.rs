//! Arte da Guerra's extras on `kingdoms.arte.Arte`: card sets as data.
#![deny(clippy::indexing_slicing)]

use kingdoms_core::arte::cards::REFERENCE_TOML;
use kingdoms_core::arte::Options;
use pyo3::prelude::*;

use crate::classes::PyArte;
use crate::errors::IntoPy;
use crate::json;

#[pymethods]
impl PyArte {
    /// Load and validate a card set (a TOML file, TOML text, or the reference set when both
    /// are None) and return it as the `cards` dict of a state: terrain cards with their
    /// favoured unit types and values, unit cards with their units. Raises `DataError`
    /// naming file, card and field.
    #[staticmethod]
    #[pyo3(signature = (cards_file=None, cards_toml=None))]
    fn card_set<'py>(
        py: Python<'py>,
        cards_file: Option<String>,
        cards_toml: Option<String>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let options = Options {
            cards_file,
            cards_toml,
            ..Default::default()
        };
        let set = py.detach(|| options.card_set()).py()?;
        json::to_py(py, set.json())
    }

    /// The TOML text of the reference card set (a documented stand-in for the printed
    /// cards), as a starting point for a card set of one's own.
    #[staticmethod]
    fn reference_cards_toml() -> &'static str {
        REFERENCE_TOML
    }
}

/// Arte's extras are methods of its class; nothing else to add to the module.
pub fn register(_m: &Bound<'_, PyModule>) -> PyResult<()> {
    Ok(())
}
