//! Zinordia's extras on `kingdoms.zinordia.Zinordia`: the content as data (the reference
//! files, a game's map as text for pictures).
#![deny(clippy::indexing_slicing)]

use std::collections::BTreeMap;

use kingdoms_core::session::Session;
use kingdoms_core::zinordia::content::{REFERENCE_MAPS, REFERENCE_MODES, REFERENCE_ROSTER};
use kingdoms_core::zinordia::terrain::REFERENCE_TERRAIN;
use kingdoms_core::zinordia::{Options, Zinordia};
use kingdoms_core::{Error, Game};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::classes::PyZinordia;
use crate::errors::IntoPy;
use crate::game::PyGame;
use crate::json;

#[pymethods]
impl PyZinordia {
    /// The reference content's TOML files by path (`roster.toml`, `modes.toml`,
    /// `terrain.toml`, `maps/<id>.toml`): a documented stand-in for the unprinted roster,
    /// terrain and maps, and a template for one's own content.
    #[staticmethod]
    fn reference_files() -> BTreeMap<String, &'static str> {
        let mut m = BTreeMap::new();
        m.insert("roster.toml".to_string(), REFERENCE_ROSTER);
        m.insert("modes.toml".to_string(), REFERENCE_MODES);
        m.insert("terrain.toml".to_string(), REFERENCE_TERRAIN);
        for (id, text) in REFERENCE_MAPS {
            m.insert(format!("maps/{id}.toml"), text);
        }
        m
    }

    /// The battlefield a game plays on, in the `kingdoms.hex` text format
    /// (`HexMap.from_text` reads it): `Zinordia.map_text(**options)` for a set of rules
    /// options, `game.map_text()` for that game's own options.
    #[classattr]
    fn map_text() -> MapText {
        MapText { game: None }
    }

    /// An action as a person reads it, with names (`use Investida → Vésper at 2,3`), in this
    /// position; the notation (`str(action)`) is unchanged. Takes an `Action`, notation or
    /// id like `apply`.
    fn action_text(slf: PyRef<'_, Self>, action: &Bound<'_, PyAny>) -> PyResult<String> {
        let base = slf.as_super();
        let id = base.resolve(action)?;
        let game = base
            .inner
            .as_any()
            .downcast_ref::<Session<Zinordia>>()
            .map(|s| &s.game)
            .ok_or_else(|| PyTypeError::new_err("not a Zinordia game"))?;
        let a = game
            .shared
            .action_from_id(id)
            .ok_or_else(|| Error::illegal("ZN-0", "no such action"))
            .py()?;
        Ok(game.action_text(a))
    }
}

/// `Zinordia.map_text`: a descriptor, so the class call takes rules options and the call on
/// a game uses that game's options (a static method would silently ignore them).
#[pyclass(module = "kingdoms._kingdoms", name = "ZinordiaMapText", frozen)]
pub struct MapText {
    /// The game's rules options when reached through a game.
    game: Option<serde_json::Map<String, serde_json::Value>>,
}

#[pymethods]
impl MapText {
    fn __get__(&self, instance: &Bound<'_, PyAny>, _owner: &Bound<'_, PyAny>) -> PyResult<MapText> {
        if instance.is_none() {
            return Ok(MapText { game: None });
        }
        let game = instance.cast::<PyGame>()?;
        Ok(MapText {
            game: Some(game.borrow().inner.options_json()),
        })
    }

    /// The battlefield: of these rules options, or of the game this was reached through.
    /// Raises `OptionsError` or `DataError` like the constructor.
    #[pyo3(signature = (**options))]
    fn __call__(&self, py: Python<'_>, options: Option<&Bound<'_, PyDict>>) -> PyResult<String> {
        let map = match &self.game {
            None => json::kwargs_map(options)?,
            Some(own) => {
                if options.is_some_and(|o| !o.is_empty()) {
                    return Err(PyTypeError::new_err(
                        "game.map_text() takes no options: it uses the game's own; \
                         call Zinordia.map_text(**options) for others",
                    ));
                }
                own.clone()
            }
        };
        py.detach(|| {
            let opts: Options = serde_json::from_value(serde_json::Value::Object(map))
                .map_err(|e| Error::options(format!("zinordia: {e}")))?;
            let g = Zinordia::new(0, &opts)?;
            g.shared.map.to_text()
        })
        .py()
    }
}

/// Zinordia's extras are methods of its class; the module holds the `map_text` descriptor's
/// class.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<MapText>()
}
