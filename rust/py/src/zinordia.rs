//! Zinordia's extras on `kingdoms.zinordia.Zinordia`: the content as data (the reference
//! files, a game's map as text for pictures).
#![deny(clippy::indexing_slicing)]

use std::collections::BTreeMap;

use kingdoms_core::zinordia::content::{REFERENCE_MAPS, REFERENCE_MODES, REFERENCE_ROSTER};
use kingdoms_core::zinordia::{Options, Zinordia};
use kingdoms_core::{Error, Game};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::classes::PyZinordia;
use crate::errors::IntoPy;
use crate::json;

#[pymethods]
impl PyZinordia {
    /// The reference content's TOML files by path (`roster.toml`, `modes.toml`,
    /// `maps/<id>.toml`): a documented stand-in for the unprinted roster and maps, and a
    /// template for one's own content.
    #[staticmethod]
    fn reference_files() -> BTreeMap<String, &'static str> {
        let mut m = BTreeMap::new();
        m.insert("roster.toml".to_string(), REFERENCE_ROSTER);
        m.insert("modes.toml".to_string(), REFERENCE_MODES);
        for (id, text) in REFERENCE_MAPS {
            m.insert(format!("maps/{id}.toml"), text);
        }
        m
    }

    /// The battlefield the given rules options play on, in the `kingdoms.hex` text format
    /// (`HexMap.from_text` reads it). Raises `OptionsError` or `DataError` like the
    /// constructor.
    #[staticmethod]
    #[pyo3(signature = (**options))]
    fn map_text(py: Python<'_>, options: Option<&Bound<'_, PyDict>>) -> PyResult<String> {
        let map = json::kwargs_map(options)?;
        py.detach(|| {
            let opts: Options = serde_json::from_value(serde_json::Value::Object(map))
                .map_err(|e| Error::options(format!("zinordia: {e}")))?;
            let g = Zinordia::new(0, &opts)?;
            g.shared.map.to_text()
        })
        .py()
    }
}

/// Zinordia's extras are methods of its class; nothing else to add to the module.
pub fn register(_m: &Bound<'_, PyModule>) -> PyResult<()> {
    Ok(())
}
